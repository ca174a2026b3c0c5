//! Measures whether the cross-language lexicon pays: how often true cross-language
//! duplicate pairs share a concept, against how often unrelated pairs do.
//!
//! Ignored by default: it reads the evaluation data under `/work/shared` (absolute
//! paths, never shipped) and prints rates; it asserts nothing about them. Run with
//! `cargo test -p tasks-text --test measure_lexicon -- --ignored --nocapture`.
//! Each part is skipped with a message when its file is absent.
//!
//! What it deliberately does not do: no tuning — the numbers go into the report, the
//! lexicon is not edited to move them.

use std::collections::HashMap;
use std::fs;

use tasks_text::lexicon::{ConceptId, concepts_of};

/// STS-B pairs, cross- and mono-language, label = score ≥ 4.
const STSB_XLING: &str = "/work/shared/dupdata/derived/pairs_stsb_xling.csv";

/// The labelled dev set of task titles.
const DEDUP_DEV: &str = "/work/shared/data/dedup-dev";

/// Splits one CSV line (RFC 4180 quoting, no embedded newlines in this file).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Reads the string value of `"key":"…"` from one JSON object line.
fn json_str(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => out.push(other),
            },
            _ => out.push(c),
        }
    }
    None
}

/// Returns true when two concept lists share one.
fn share(a: &[ConceptId], b: &[ConceptId]) -> bool {
    a.iter().any(|c| b.contains(c))
}

/// Formats `k of n (p %)`.
fn rate(k: usize, n: usize) -> String {
    let p = if n == 0 { 0.0 } else { 100.0 * k as f64 / n as f64 };
    format!("{k} of {n} ({p:.1} %)")
}

#[test]
#[ignore = "reads /work/shared evaluation data; prints measurements"]
fn stsb_cross_language() {
    let Ok(text) = fs::read_to_string(STSB_XLING) else {
        eprintln!("skipped: {STSB_XLING} is absent");
        return;
    };
    let mut lines = text.lines();
    let header = csv_fields(lines.next().unwrap_or_default());
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(ll), Some(tl), Some(lr), Some(tr), Some(lab), Some(ds)) =
        (col("lang_l"), col("text_l"), col("lang_r"), col("text_r"), col("label"), col("dataset"))
    else {
        eprintln!("skipped: unexpected header {header:?}");
        return;
    };
    // (cross?, label) → (pairs sharing a concept, pairs, pairs where both sides have one)
    let mut counts: HashMap<(bool, String), (usize, usize, usize)> = HashMap::new();
    let mut per_dataset: HashMap<(String, String), (usize, usize)> = HashMap::new();
    for line in lines {
        let f = csv_fields(line);
        if f.len() < header.len() {
            continue;
        }
        let cross = f[ll] != f[lr];
        let (a, b) = (concepts_of(&f[tl]), concepts_of(&f[tr]));
        let shared = share(&a, &b);
        let entry = counts.entry((cross, f[lab].clone())).or_default();
        entry.0 += usize::from(shared);
        entry.1 += 1;
        entry.2 += usize::from(!a.is_empty() && !b.is_empty());
        let d = per_dataset.entry((f[ds].clone(), f[lab].clone())).or_default();
        d.0 += usize::from(shared);
        d.1 += 1;
    }
    let mut keys: Vec<_> = counts.keys().cloned().collect();
    keys.sort();
    for key in keys {
        let (k, n, both) = counts[&key];
        eprintln!(
            "stsb {} label={}: share ≥1 concept {}; both sides have a concept {}",
            if key.0 { "cross" } else { "mono " },
            key.1,
            rate(k, n),
            rate(both, n)
        );
    }
    let mut keys: Vec<_> = per_dataset.keys().cloned().collect();
    keys.sort();
    for key in keys {
        let (k, n) = per_dataset[&key];
        eprintln!("  {} label={}: {}", key.0, key.1, rate(k, n));
    }
}

/// A task of the dev set.
struct Task {
    /// Title.
    title: String,
    /// Description.
    description: String,
    /// Title language by script and a small vote (`ru`, `en`, `es`).
    lang: &'static str,
}

/// Spanish marker words for the title-language vote (function words only).
const ES_MARKERS: &[&str] = &[
    "de", "del", "la", "las", "el", "los", "para", "con", "por", "y", "sobre", "mi", "tu", "su", "al", "una", "uno",
    "unos", "lo", "que",
];

/// English marker words for the title-language vote (function words only).
const EN_MARKERS: &[&str] = &[
    "the", "a", "an", "for", "to", "with", "and", "of", "on", "in", "by", "at", "from", "my", "our", "your", "it",
    "is", "be", "before", "after",
];

/// Guesses a title's language: Cyrillic → ru; else a vote of function words, accents
/// and `ñ ¿ ¡` for Spanish.
fn title_lang(title: &str) -> &'static str {
    if title.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)) {
        return "ru";
    }
    let lower = title.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).collect();
    let mut es = words.iter().filter(|w| ES_MARKERS.contains(w)).count();
    es += 2 * usize::from(lower.contains(['ñ', '¿', '¡', 'á', 'é', 'í', 'ó', 'ú']));
    let en = words.iter().filter(|w| EN_MARKERS.contains(w)).count();
    if es > en { "es" } else { "en" }
}

#[test]
#[ignore = "reads /work/shared evaluation data; prints measurements"]
fn dedup_dev_cross_language() {
    let (Ok(tasks_text), Ok(pairs_text)) = (
        fs::read_to_string(format!("{DEDUP_DEV}/tasks.jsonl")),
        fs::read_to_string(format!("{DEDUP_DEV}/pairs.jsonl")),
    ) else {
        eprintln!("skipped: {DEDUP_DEV} is absent");
        return;
    };
    let mut tasks: HashMap<String, Task> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for line in tasks_text.lines().filter(|l| !l.trim().is_empty()) {
        let (Some(id), Some(title)) = (json_str(line, "id"), json_str(line, "title")) else {
            continue;
        };
        let description = json_str(line, "description").unwrap_or_default();
        let lang = title_lang(&title);
        order.push(id.clone());
        tasks.insert(id, Task { title, description, lang });
    }
    let title_concepts: HashMap<&str, Vec<ConceptId>> =
        tasks.iter().map(|(id, t)| (id.as_str(), concepts_of(&t.title))).collect();
    let full_concepts: HashMap<&str, Vec<ConceptId>> =
        tasks.iter().map(|(id, t)| (id.as_str(), concepts_of(&format!("{} {}", t.title, t.description)))).collect();
    let with_concept = title_concepts.values().filter(|c| !c.is_empty()).count();
    eprintln!("dev titles with ≥1 concept: {}", rate(with_concept, title_concepts.len()));

    let mut cross = 0;
    let (mut title_shared, mut full_shared) = (0, 0);
    for line in pairs_text.lines().filter(|l| !l.trim().is_empty()) {
        let (Some(dup), Some(of), Some(lang)) = (json_str(line, "dup"), json_str(line, "of"), json_str(line, "lang"))
        else {
            continue;
        };
        if lang != "cross" {
            continue;
        }
        cross += 1;
        let (a, b) = (&title_concepts[dup.as_str()], &title_concepts[of.as_str()]);
        let shared: Vec<&str> = a.iter().filter(|c| b.contains(c)).map(|c| c.name()).collect();
        title_shared += usize::from(!shared.is_empty());
        full_shared += usize::from(share(&full_concepts[dup.as_str()], &full_concepts[of.as_str()]));
        eprintln!("  {dup} ~ {of}: shared {shared:?}  | {:?} / {:?}", tasks[&dup].title, tasks[&of].title);
    }
    eprintln!("dev cross pairs, titles share ≥1 concept: {}", rate(title_shared, cross));
    eprintln!("dev cross pairs, title+description share ≥1 concept: {}", rate(full_shared, cross));

    // Hard negatives whose titles are in different languages.
    if let Ok(negatives) = fs::read_to_string(format!("{DEDUP_DEV}/negatives.jsonl")) {
        let (mut n, mut k) = (0, 0);
        for line in negatives.lines().filter(|l| !l.trim().is_empty()) {
            let (Some(a), Some(b)) = (json_str(line, "a"), json_str(line, "b")) else {
                continue;
            };
            if tasks[&a].lang == tasks[&b].lang {
                continue;
            }
            n += 1;
            k += usize::from(share(&title_concepts[a.as_str()], &title_concepts[b.as_str()]));
        }
        eprintln!("dev cross-language hard negatives, titles share ≥1 concept: {}", rate(k, n));
    }

    // Every pair of tasks whose titles are in different languages.
    let (mut n, mut title_k, mut full_k) = (0, 0, 0);
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            if tasks[a].lang == tasks[b].lang {
                continue;
            }
            n += 1;
            title_k += usize::from(share(&title_concepts[a.as_str()], &title_concepts[b.as_str()]));
            full_k += usize::from(share(&full_concepts[a.as_str()], &full_concepts[b.as_str()]));
        }
    }
    eprintln!("dev all cross-language task pairs, titles share ≥1 concept: {}", rate(title_k, n));
    eprintln!("dev all cross-language task pairs, title+description share ≥1 concept: {}", rate(full_k, n));
}
