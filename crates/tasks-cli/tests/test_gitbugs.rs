//! The duplicate check on real data nobody here wrote (issue 16): GitBugs' Hadoop and
//! SeaMonkey bug reports with their labelled duplicates, imported in creation order
//! with `--check-report`, against a plain TF-IDF cosine over the same text that flags the
//! same share of reports. A measurement, not a gate: run with
//! `cargo test -p tasks-cli --test cli -- --ignored --nocapture gitbugs`.
//! Needs `../shared/dupdata` beside the repository (skips, logged, without it).

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::common::TestEnv;

/// Reads a CSV file (RFC 4180: quoted fields, doubled quotes, newlines in quotes).
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// `30/Sep/21 17:20` (Hadoop) or `2020-01-02 17:14:21+00:00` (SeaMonkey) → RFC 3339.
fn created(text: &str) -> Option<String> {
    if let Ok(ts) = text.trim().replacen(' ', "T", 1).parse::<jiff::Timestamp>() {
        return Some(ts.to_string());
    }
    let (date, time) = text.trim().split_once(' ')?;
    let mut p = date.split('/');
    let (d, m, y) = (p.next()?, p.next()?, p.next()?);
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = months.iter().position(|x| *x == m)? + 1;
    Some(format!("20{y}-{month:02}-{:02}T{time}:00Z", d.parse::<u32>().ok()?))
}

struct Report {
    id: String,
    title: String,
    body: String,
    at: String,
}

fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_string)
        .collect()
}

/// For each report, the earlier reports a TF-IDF cosine over title + body puts in its
/// top five with a cosine of at least `threshold`.
fn tfidf_found(reports: &[Report], threshold: f64) -> Vec<Vec<usize>> {
    let docs: Vec<Vec<String>> = reports.iter().map(|r| tokens(&format!("{} {}", r.title, r.body))).collect();
    let mut df: HashMap<&str, f64> = HashMap::new();
    for d in &docs {
        for t in d.iter().map(String::as_str).collect::<HashSet<_>>() {
            *df.entry(t).or_default() += 1.0;
        }
    }
    let n = docs.len() as f64;
    let vectors: Vec<HashMap<&str, f64>> = docs
        .iter()
        .map(|d| {
            let mut tf: HashMap<&str, f64> = HashMap::new();
            for t in d {
                *tf.entry(t.as_str()).or_default() += 1.0;
            }
            let mut v: HashMap<&str, f64> =
                tf.into_iter().map(|(t, c)| (t, (1.0 + c.ln()) * (n / df[t]).ln())).collect();
            let norm = v.values().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
            v.values_mut().for_each(|x| *x /= norm);
            v
        })
        .collect();
    (0..reports.len())
        .map(|i| {
            let mut scored: Vec<(f64, usize)> = (0..i)
                .map(|j| {
                    let (a, b) = (&vectors[i], &vectors[j]);
                    let (small, big) = if a.len() < b.len() { (a, b) } else { (b, a) };
                    (small.iter().filter_map(|(t, x)| big.get(t).map(|y| x * y)).sum(), j)
                })
                .filter(|(c, _)| *c >= threshold)
                .collect();
            scored.sort_by(|x, y| y.0.total_cmp(&x.0));
            scored.into_iter().take(5).map(|(_, j)| j).collect()
        })
        .collect()
}

fn measure(project: &str) -> Option<Value> {
    let test = format!("test_gitbugs::{project}");
    let dir = tasks_testkit::skip::shared_dir(&test, "dupdata/derived")?;
    let reports_csv = std::fs::read_to_string(dir.join(format!("gitbugs_{project}_reports.csv"))).expect("reports");
    let pairs_csv = std::fs::read_to_string(dir.join(format!("gitbugs_{project}_pairs.csv"))).expect("pairs");
    let mut reports: Vec<Report> = read_csv(&reports_csv)
        .into_iter()
        .skip(1)
        .filter(|r| r.len() >= 4)
        .filter_map(|r| {
            Some(Report {
                id: r[0].clone(),
                title: r[1].chars().take(900).collect(),
                body: r[2].chars().take(30_000).collect(),
                at: created(&r[3])?,
            })
        })
        .filter(|r| !r.title.trim().is_empty())
        .collect();
    reports.sort_by(|a, b| a.at.cmp(&b.at).then(a.id.cmp(&b.id)));
    let index: HashMap<&str, usize> = reports.iter().enumerate().map(|(i, r)| (r.id.as_str(), i)).collect();
    // A labelled pair counts at its later report: is the earlier one found?
    let pairs: Vec<(usize, usize)> = read_csv(&pairs_csv)
        .into_iter()
        .skip(1)
        .filter(|r| r.len() >= 2)
        .filter_map(|r| {
            let (a, b) = (*index.get(r[0].as_str())?, *index.get(r[1].as_str())?);
            Some(if a > b { (a, b) } else { (b, a) })
        })
        .filter(|(a, b)| a != b)
        .collect();
    let env = TestEnv::new();
    let lines: Vec<String> = reports
        .iter()
        .map(|r| json!({"id": r.id, "title": r.title, "description": r.body, "created_at": r.at}).to_string())
        .collect();
    let file = env.write("reports.jsonl", &lines.join("\n"));
    let report = env.path("check.jsonl");
    env.ok(&["import", file.to_str().expect("path"), "--check-report", report.to_str().expect("path")]);
    let found: HashMap<String, HashSet<String>> = std::fs::read_to_string(&report)
        .expect("report")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| {
            let ids = v["candidates"]
                .as_array()
                .map(|c| c.iter().filter_map(|x| x["id"].as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            (v["id"].as_str().unwrap_or_default().to_string(), ids)
        })
        .collect();
    let ours_found =
        pairs.iter().filter(|(l, e)| found.get(&reports[*l].id).is_some_and(|s| s.contains(&reports[*e].id))).count();
    let ours_flagged = found.values().filter(|s| !s.is_empty()).count();
    let flagged_share = ours_flagged as f64 / reports.len() as f64;
    // TF-IDF at the threshold that flags the same share of reports.
    let mut best = (0.0, 0usize, 0usize);
    for step in 1..=95 {
        let threshold = step as f64 / 100.0;
        let top = tfidf_found(&reports, threshold);
        let flagged = top.iter().filter(|t| !t.is_empty()).count();
        if (flagged as f64 / reports.len() as f64) <= flagged_share {
            let hits = pairs.iter().filter(|(l, e)| top[*l].contains(e)).count();
            best = (threshold, flagged, hits);
            break;
        }
    }
    Some(json!({
        "project": project,
        "reports": reports.len(),
        "pairs": pairs.len(),
        "ours": {"recall": ours_found as f64 / pairs.len().max(1) as f64, "flagged": flagged_share},
        "tfidf": {"threshold": best.0, "recall": best.2 as f64 / pairs.len().max(1) as f64,
                  "flagged": best.1 as f64 / reports.len() as f64},
    }))
}

#[test]
#[ignore = "a measurement on third-party data (minutes): cargo test -p tasks-cli --test cli -- --ignored --nocapture gitbugs"]
fn gitbugs_hadoop_and_seamonkey_against_tfidf() {
    let only = std::env::var("GITBUGS_PROJECT").ok();
    for project in ["hadoop", "seamonkey"].into_iter().filter(|p| only.as_deref().is_none_or(|o| o == *p)) {
        if let Some(v) = measure(project) {
            println!("{v}");
            assert!(v["pairs"].as_u64().unwrap_or(0) > 10, "{v}");
        }
    }
}

#[test]
fn csv_fields_with_quotes_commas_and_newlines() {
    let rows = read_csv("id,title\n1,\"a, \"\"b\"\"\nc\"\n2,x\n");
    assert_eq!(rows, vec![vec!["id", "title"], vec!["1", "a, \"b\"\nc"], vec!["2", "x"]]);
    assert_eq!(created("30/Sep/21 17:20").as_deref(), Some("2021-09-30T17:20:00Z"));
    assert_eq!(created("2020-01-02 17:14:21+00:00").as_deref(), Some("2020-01-02T17:14:21Z"));
}
