//! Measurements of the text comparison (`dedup::compare`, level `text`) on third-party
//! labelled pairs: ParaPhraser.ru (Russian news headlines, class −1 non-paraphrase /
//! 0 loose / 1 strict) and STS-B multi-MT (English, Russian, Spanish; mono- and
//! cross-language pairs, label 1 = STS score ≥ 4).
//!
//! The data lives outside the repository, in `shared/dupdata/derived/` beside the
//! checkout (see `shared/dupdata/README.md` for sources and licences); every test here
//! is `#[ignore]` and skips with a message when the files are absent. Run with
//!
//! ```text
//! cargo test --release -p tasks-core --test real_pairs -- --ignored --nocapture
//! ```
//!
//! Each text becomes the title of a profile; the document frequencies behind the
//! `rare` level are counted over the distinct texts of the file itself, so "rare"
//! means rare in that corpus. The tests print tables and assert only orderings
//! (paraphrases reach a positive level more often than non-paraphrases), never
//! numbers.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use tasks_core::dedup::compare::{self, DocFreq};
use tasks_core::dedup::levels::TextLevel;
use tasks_core::dedup::profile::{Profile, ProfileInput};

/// Text levels that count as agreement ("positive"): the lexical levels above `common`.
const POSITIVE: &[&str] = &["exact", "most", "half", "units_most", "trigram", "rare", "units_half", "units_two"];

/// Returns the path of a derived data file, or `None` (with a message) when absent.
fn data_file(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/dupdata/derived").join(name);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("SKIP real_pairs: {} not found (third-party data is not part of the repository)", path.display());
        None
    }
}

/// Parses CSV text (RFC 4180): fields separated by commas, optionally quoted with `"`,
/// a doubled `""` inside quotes standing for one quote; quoted fields may hold commas
/// and line breaks. Records end at LF or CRLF; empty lines are skipped.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut chars = text.strip_prefix('\u{feff}').unwrap_or(text).chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                '"' => in_quotes = false,
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' => in_quotes = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                if !(record.len() == 1 && record[0].is_empty()) {
                    records.push(std::mem::take(&mut record));
                }
                record.clear();
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// Reads a CSV file into rows keyed by the header's column names.
fn read_rows(path: &PathBuf) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut records = parse_csv(&text).into_iter();
    let header = records.next().unwrap_or_else(|| panic!("{} is empty", path.display()));
    records
        .enumerate()
        .map(|(i, r)| {
            assert_eq!(
                r.len(),
                header.len(),
                "{} record {}: {} fields, header has {}",
                path.display(),
                i + 2,
                r.len(),
                header.len()
            );
            header.iter().cloned().zip(r).collect()
        })
        .collect()
}

fn col<'a>(row: &'a HashMap<String, String>, name: &str) -> &'a str {
    row.get(name).unwrap_or_else(|| panic!("no column {name}")).as_str()
}

/// Profiles of the distinct texts of one file and their document frequencies.
struct Corpus {
    profiles: HashMap<String, Profile>,
    df: HashMap<String, i64>,
}

impl Corpus {
    fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Corpus {
        let mut profiles = HashMap::new();
        for text in texts {
            if !profiles.contains_key(text) {
                let id = profiles.len() as i64 + 1;
                profiles.insert(
                    text.to_string(),
                    Profile::of(&ProfileInput { id, title: text, ..ProfileInput::default() }),
                );
            }
        }
        let mut df: HashMap<String, i64> = HashMap::new();
        for p in profiles.values() {
            for s in &p.stems {
                *df.entry(s.clone()).or_default() += 1;
            }
        }
        Corpus { profiles, df }
    }

    fn profile(&self, text: &str) -> &Profile {
        &self.profiles[text]
    }

    /// Returns the text level of a pair.
    fn level(&self, a: &str, b: &str) -> &'static str {
        let c = compare::compare(self.profile(a), self.profile(b), self, &Ok).expect("an in-memory corpus answers");
        c.levels.text.as_str()
    }
}

impl DocFreq for Corpus {
    fn doc_freq(&self, stem: &str) -> tasks_core::Result<i64> {
        Ok(self.df.get(stem).copied().unwrap_or(0))
    }
    fn total(&self) -> i64 {
        self.profiles.len() as i64
    }
}

/// Counts of text levels per group.
#[derive(Default)]
struct Table {
    groups: BTreeMap<String, BTreeMap<&'static str, usize>>,
}

impl Table {
    fn add(&mut self, group: &str, level: &'static str) {
        *self.groups.entry(group.to_string()).or_default().entry(level).or_default() += 1;
    }

    fn n(&self, group: &str) -> usize {
        self.groups.get(group).map(|g| g.values().sum()).unwrap_or(0)
    }

    fn share(&self, group: &str, levels: &[&str]) -> f64 {
        let Some(g) = self.groups.get(group) else { return 0.0 };
        let n: usize = g.values().sum();
        let hit: usize = g.iter().filter(|(l, _)| levels.contains(l)).map(|(_, c)| c).sum();
        if n == 0 { 0.0 } else { hit as f64 / n as f64 }
    }

    fn print(&self, title: &str) {
        eprintln!("\n{title} — share of pairs per text level, % (pos = any of {})", POSITIVE.join("/"));
        let mut head = format!("{:<22}{:>6}", "group", "n");
        for l in TextLevel::ALL.iter().map(|l| l.as_str()) {
            head.push_str(&format!(" {:>6}", abbrev(l)));
        }
        head.push_str(&format!(" {:>6}", "pos"));
        eprintln!("{head}");
        for group in self.groups.keys() {
            let mut line = format!("{:<22}{:>6}", group, self.n(group));
            for l in TextLevel::ALL.iter().map(|l| l.as_str()) {
                line.push_str(&format!(" {:>6.1}", 100.0 * self.share(group, &[l])));
            }
            line.push_str(&format!(" {:>6.1}", 100.0 * self.share(group, POSITIVE)));
            eprintln!("{line}");
        }
    }
}

/// Short column names for the level table.
fn abbrev(level: &str) -> &str {
    match level {
        "units_most" => "u_most",
        "units_half" => "u_half",
        "units_two" => "u_two",
        "embed_close" => "emb",
        "concept_cross" => "c_cross",
        "concept" => "concpt",
        other => other,
    }
}

/// How far the word forms of a pair connect, step by step: raw words as written
/// (content words only), lowercased, normalized (ё→е and the rest of
/// `tasks_text::normalize`), stems.
#[derive(Default)]
struct Ladder {
    n: usize,
    /// Pairs with any shared item at each step.
    any: [usize; 4],
    /// Sum of shared items at each step.
    shared: [usize; 4],
}

const LADDER_STEPS: [&str; 4] = ["raw", "lower", "normalized", "stems"];

impl Ladder {
    fn add(&mut self, a_text: &str, b_text: &str, a: &Profile, b: &Profile) {
        let content = |p: &Profile| -> BTreeSet<String> { p.tokens.iter().map(|t| t.token.clone()).collect() };
        let (ca, cb) = (content(a), content(b));
        // Raw words are kept only when their normalized form is a content token of
        // that title, so each step compares the same words.
        let raw = |text: &str, content: &BTreeSet<String>, lower: bool| -> BTreeSet<String> {
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .filter(|w| content.contains(&w.to_lowercase().replace('ё', "е")))
                .map(|w| if lower { w.to_lowercase() } else { w.to_string() })
                .collect()
        };
        let counts = [
            raw(a_text, &ca, false).intersection(&raw(b_text, &cb, false)).count(),
            raw(a_text, &ca, true).intersection(&raw(b_text, &cb, true)).count(),
            ca.intersection(&cb).count(),
            a.stems.intersection(&b.stems).count(),
        ];
        self.n += 1;
        for (i, c) in counts.into_iter().enumerate() {
            self.shared[i] += c;
            self.any[i] += usize::from(c > 0);
        }
    }

    fn any_share(&self, step: usize) -> f64 {
        if self.n == 0 { 0.0 } else { self.any[step] as f64 / self.n as f64 }
    }

    fn line(&self, group: &str) -> String {
        let mut line = format!("{:<22}{:>6}", group, self.n);
        for i in 0..4 {
            let mean = if self.n == 0 { 0.0 } else { self.shared[i] as f64 / self.n as f64 };
            line.push_str(&format!("   {:>5.1}% {:>4.2}", 100.0 * self.any_share(i), mean));
        }
        line
    }
}

fn print_ladders(title: &str, ladders: &BTreeMap<String, Ladder>) {
    eprintln!("\n{title} — pairs sharing ≥1 item, % and mean shared items per pair");
    let mut head = format!("{:<22}{:>6}", "group", "n");
    for s in LADDER_STEPS {
        head.push_str(&format!("   {:>11}", s));
    }
    eprintln!("{head}");
    for (g, l) in ladders {
        eprintln!("{}", l.line(g));
    }
}

#[test]
#[ignore = "measurement on third-party data in ../shared; run with --ignored --nocapture"]
fn paraphraser_ru_text_levels() {
    let Some(path) = data_file("pairs_paraphraser_ru.csv") else { return };
    let rows = read_rows(&path);
    assert!(!rows.is_empty(), "no pairs in {}", path.display());
    let corpus = Corpus::of(rows.iter().flat_map(|r| [col(r, "text_l"), col(r, "text_r")]));
    let with_yo = corpus.profiles.keys().filter(|t| t.contains(['ё', 'Ё'])).count();
    eprintln!(
        "ParaPhraser.ru: {} pairs, {} distinct texts, {} distinct stems, {} texts with ё",
        rows.len(),
        corpus.total(),
        corpus.df.len(),
        with_yo
    );

    let mut table = Table::default();
    let mut ladders: BTreeMap<String, Ladder> = BTreeMap::new();
    for r in &rows {
        // The class is kept in the `score` column (−1 / 0 / 1); label 1 = class 1.
        let class = col(r, "score");
        let label = col(r, "label");
        assert_eq!(label == "1", class == "1", "label and class disagree: {r:?}");
        let group = format!("class {class}");
        let (a, b) = (col(r, "text_l"), col(r, "text_r"));
        table.add(&group, corpus.level(a, b));
        ladders.entry(group).or_default().add(a, b, corpus.profile(a), corpus.profile(b));
    }
    table.print("ParaPhraser.ru by class (−1 non-paraphrase, 0 loose, 1 strict)");
    print_ladders("ParaPhraser.ru word-form ladder", &ladders);

    let strict = "class 1";
    let overlap = 1.0 - table.share(strict, &["none", "concept"]);
    eprintln!(
        "\nnormalization check: {:.1}% of {} strict paraphrases have a text level other than none/concept (stems overlap)",
        100.0 * overlap,
        table.n(strict)
    );

    let pos = |g: &str| table.share(g, POSITIVE);
    assert!(
        pos(strict) > pos("class -1"),
        "strict paraphrases should reach a positive level more often than non-paraphrases: {:.3} vs {:.3}",
        pos(strict),
        pos("class -1")
    );
    let ladder = &ladders[strict];
    assert!(
        ladder.any_share(3) > ladder.any_share(2),
        "stemming should connect word forms that exact tokens miss among strict paraphrases"
    );
}

#[test]
#[ignore = "measurement on third-party data in ../shared; run with --ignored --nocapture"]
fn stsb_xling_text_levels() {
    let Some(path) = data_file("pairs_stsb_xling.csv") else { return };
    let rows = read_rows(&path);
    assert!(!rows.is_empty(), "no pairs in {}", path.display());
    let corpus = Corpus::of(rows.iter().flat_map(|r| [col(r, "text_l"), col(r, "text_r")]));
    eprintln!(
        "STS-B xling: {} pairs, {} distinct texts, {} distinct stems",
        rows.len(),
        corpus.total(),
        corpus.df.len()
    );

    let mut table = Table::default();
    let mut by_dataset = Table::default();
    let mut ladders: BTreeMap<String, Ladder> = BTreeMap::new();
    for r in &rows {
        let (a, b) = (col(r, "text_l"), col(r, "text_r"));
        let label = col(r, "label");
        let same = col(r, "lang_l") == col(r, "lang_r");
        let level = corpus.level(a, b);
        let kind = if same { "same-lang" } else { "cross-lang" };
        table.add(&format!("{kind} label {label}"), level);
        let dataset = col(r, "dataset").trim_start_matches("stsb_");
        by_dataset.add(&format!("{dataset} label {label}"), level);
        if same {
            ladders.entry(format!("{dataset} label {label}")).or_default().add(
                a,
                b,
                corpus.profile(a),
                corpus.profile(b),
            );
        }
    }
    table.print("STS-B xling by language pairing and label (1 = score ≥ 4)");
    by_dataset.print("STS-B xling by dataset and label");
    print_ladders("STS-B same-language word-form ladder", &ladders);

    let pos = |g: &str| table.share(g, POSITIVE);
    for kind in ["same-lang", "cross-lang"] {
        let (p1, p0) = (pos(&format!("{kind} label 1")), pos(&format!("{kind} label 0")));
        assert!(
            p1 > p0,
            "{kind}: label-1 pairs should reach a positive level more often than label-0: {p1:.3} vs {p0:.3}"
        );
    }
}

#[test]
fn csv_parser_handles_quotes() {
    let rows = parse_csv("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\n\"multi\nline\",2,3\n\n");
    assert_eq!(
        rows,
        vec![
            vec!["a".to_string(), "b".into(), "c".into()],
            vec!["x, y".into(), "say \"hi\"".into(), "".into()],
            vec!["multi\nline".into(), "2".into(), "3".into()],
        ]
    );
}
