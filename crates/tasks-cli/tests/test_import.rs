//! `tasks import` and `tasks export`: one transaction, bad lines named by number and
//! field, `blocked_by` between lines, legacy keys, and a round trip.

use crate::common::{TestEnv, keys};

const GOOD: &str = r#"{"id":"a","title":"Design the logo","created_at":"2026-03-30T09:00:00+03:00","person":"p05","category":"work"}
{"id":"b","title":"Print the menu","created_at":"2026-03-31T09:00:00+03:00","blocked_by":["a"],"due":"2026-04-10"}

{"id":"c","title":"Old inbox task","key":"IN1A2B3C4D-17","status":"done","created_at":"2026-03-20T09:00:00+03:00","closed_at":"2026-03-21T09:00:00+03:00"}
{"id":"d","title":"Pay the printer","type":"request","amount":"1500 EUR","reply_to":"b","created_at":"2026-04-01T10:00:00+03:00"}
"#;

#[test]
fn import_writes_every_line_with_links_and_legacy_keys() {
    let env = TestEnv::new();
    let file = env.write("in.jsonl", GOOD);
    let v = env.json(&["import", file.to_str().expect("path")]);
    assert_eq!(v["imported"], 4);
    assert_eq!(keys(&env.json(&["blocked"])), ["INBOX-2"]);
    let b = env.json(&["show", "INBOX-2"]);
    assert_eq!(b["task"]["blocked_by"], serde_json::json!(["INBOX-1"]));
    assert_eq!(b["task"]["due"], "2026-04-10");
    assert_eq!(b["task"]["created_at"], "2026-03-31T06:00:00Z");
    // The legacy key still resolves.
    let c = env.json(&["show", "IN1A2B3C4D-17"]);
    assert_eq!(c["task"]["title"], "Old inbox task");
    assert_eq!(c["task"]["status"], "done");
    assert_eq!(c["task"]["legacy_key"], "IN1A2B3C4D-17");
    let d = env.json(&["show", "REQ-1"]);
    assert_eq!(d["task"]["amount_minor"], 150_000);
    assert_eq!(d["task"]["reply_to"], "INBOX-2");
    let a = env.json(&["show", "INBOX-1"]);
    assert_eq!(a["task"]["person"], "p05");
    assert_eq!(a["task"]["external_id"], "a");
}

#[test]
fn a_bad_line_is_named_and_nothing_is_written() {
    let cases: &[(&str, usize, Option<&str>)] = &[
        ("{\"title\":\"ok\"}\n{\"title\":\"broken\"\n", 2, None),
        ("{\"title\":\"ok\"}\n{\"title\":\"\"}\n", 2, Some("title")),
        ("{\"title\":\"ok\"}\n{\"title\":\"x\",\"due\":\"next fryday\"}\n", 2, Some("due")),
        ("{\"title\":\"ok\"}\n\n{\"title\":\"x\",\"status\":\"finished\"}\n", 3, Some("status")),
        ("{\"title\":\"x\",\"created_at\":\"yesterday\"}\n", 1, Some("created_at")),
        ("{\"title\":\"x\",\"priority\":7}\n", 1, Some("priority")),
        ("{\"title\":\"x\",\"reply_to\":\"nope\"}\n", 1, Some("reply_to")),
        ("{\"id\":\"a\",\"title\":\"x\",\"blocked_by\":[\"zzz\"]}\n", 1, Some("blocked_by")),
        ("{\"title\":\"x\",\"titel\":\"typo\"}\n", 1, None),
        ("[1,2,3]\n", 1, None),
        ("{\"title\":\"x\",\"project\":\"NOPE\"}\n", 1, Some("project")),
        (
            "{\"id\":\"a\",\"title\":\"x\",\"blocked_by\":[\"b\"]}\n{\"id\":\"b\",\"title\":\"y\",\"blocked_by\":[\"a\"]}\n",
            2,
            Some("blocked_by"),
        ),
    ];
    for (text, line, field) in cases {
        let env = TestEnv::new();
        let file = env.write("bad.jsonl", text);
        let e = env.fails(&["import", file.to_str().expect("path")], 2);
        assert_eq!(e["details"]["line"], *line, "{text}: {e}");
        assert_eq!(e["details"]["field"].as_str(), *field, "{text}: {e}");
        assert!(e["message"].as_str().unwrap_or("").starts_with(&format!("line {line}")), "{e}");
        assert!(keys(&env.json(&["list", "--status", "all"])).is_empty(), "{text}: nothing written");
    }
}

#[test]
fn skip_bad_imports_the_good_lines() {
    let env = TestEnv::new();
    let file = env.write("mixed.jsonl", "{\"title\":\"one\"}\nnot json\n{\"title\":\"two\"}\n");
    let v = env.json(&["import", file.to_str().expect("path"), "--skip-bad"]);
    assert_eq!(v["imported"], 2);
    assert_eq!(v["skipped"].as_array().map(Vec::len), Some(1));
    assert!(v["skipped"][0].as_str().unwrap_or("").starts_with("line 2"), "{v}");
}

#[test]
fn export_then_import_round_trips() {
    let env = TestEnv::new();
    let file = env.write("in.jsonl", GOOD);
    env.ok(&["import", file.to_str().expect("path")]);
    env.ok(&["tag", "INBOX-1", "brand"]);
    let exported = env.ok(&["export"]).stdout;
    assert_eq!(exported.lines().count(), 4);
    let other = TestEnv::new();
    let file = other.write("round.jsonl", &exported);
    other.ok(&["import", file.to_str().expect("path")]);
    let strip = |v: serde_json::Value| -> Vec<serde_json::Value> {
        v["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|t| {
                let mut t = t.clone();
                for volatile in ["id", "updated_at", "external_id", "legacy_key"] {
                    t[volatile] = serde_json::Value::Null;
                }
                t
            })
            .collect()
    };
    assert_eq!(strip(other.json(&["list", "--status", "all"])), strip(env.json(&["list", "--status", "all"])));
}

#[test]
fn a_missing_file_is_not_found() {
    let env = TestEnv::new();
    let e = env.fails(&["import", "nowhere.jsonl"], 6);
    assert!(e["message"].as_str().unwrap_or("").contains("nowhere.jsonl"), "{e}");
}
