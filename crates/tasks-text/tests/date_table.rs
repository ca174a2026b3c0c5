//! The date phrases of `data/chat-phrases/dates.jsonl` — a table written apart from this
//! parser (see that folder's README) — read as a `--due` value against their `today`:
//! every day, week, time and error row must come out as written.

use jiff::civil::Date;
use tasks_text::When;

#[derive(Debug)]
struct Row {
    text: String,
    today: Date,
    now: jiff::civil::Time,
    expect: Expect,
}

#[derive(Debug, PartialEq)]
enum Expect {
    Day(Date),
    Week(Date),
    Time(String),
    Error,
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    // The rows are flat JSON with string values; a tiny reader keeps serde out of the
    // crate's dependencies.
    let key = format!("\"{name}\": \"");
    let start = line.find(&key)? + key.len();
    let rest = &line[start..];
    let mut end = 0;
    let bytes = rest.as_bytes();
    while end < bytes.len() {
        if bytes[end] == b'\\' {
            end += 2;
            continue;
        }
        if bytes[end] == b'"' {
            break;
        }
        end += 1;
    }
    Some(&rest[..end])
}

fn unescape(s: &str) -> String {
    s.replace("\\\"", "\"").replace("\\\\", "\\")
}

fn rows() -> Vec<Row> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/chat-phrases/dates.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let today: Date = field(l, "today").expect("today").parse().expect("a date");
            let expect = if l.contains("\"error\": true") {
                Expect::Error
            } else if let Some(at) = field(l, "at") {
                Expect::Time(at.to_string())
            } else {
                let date: Date = field(l, "date").expect("date").parse().expect("a date");
                match field(l, "kind") {
                    Some("week") => Expect::Week(date),
                    _ => Expect::Day(date),
                }
            };
            let now = field(l, "now")
                .map(|n| format!("{n}:00").parse().expect("a time"))
                .unwrap_or(jiff::civil::Time::midnight());
            Row { text: unescape(field(l, "text").expect("text")), today, now, expect }
        })
        .collect()
}

#[test]
fn the_written_apart_date_table_reads_as_written() {
    let rows = rows();
    assert!(rows.len() >= 100, "{} rows", rows.len());
    let mut wrong = Vec::new();
    let mut checked = 0;
    for row in &rows {
        let got = tasks_text::parse_when(&row.text, row.today.to_datetime(row.now));
        let ok = match (&row.expect, &got) {
            (Expect::Error, Err(_)) => true,
            (Expect::Day(d), Ok(When::Day(due))) => due.kind == tasks_text::DueKind::Day && due.date == *d,
            (Expect::Week(d), Ok(When::Day(due))) => due.kind == tasks_text::DueKind::Week && due.date == *d,
            (Expect::Time(at), Ok(When::At(dt))) => dt.strftime("%Y-%m-%dT%H:%M").to_string() == *at,
            _ => false,
        };
        checked += 1;
        if !ok {
            wrong.push(format!("{} on {}: expected {:?}, got {:?}", row.text, row.today, row.expect, got));
        }
    }
    eprintln!("{} of {checked} date rows as written", checked - wrong.len());
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}
