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
    let exported = env.ok(&["export", "--format", "lines"]).stdout;
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

/// A chain of `n` tasks, each blocked by the one before (issue 10: 10,000 links took
/// more than 15 minutes when every link walked the chain).
fn chain(n: usize) -> String {
    let mut text = String::new();
    for i in 1..=n {
        let blocked = if i > 1 { format!(",\"blocked_by\":[\"c{}\"]", i - 1) } else { String::new() };
        text.push_str(&format!("{{\"id\":\"c{i}\",\"title\":\"Step {i} of the rollout\"{blocked}}}\n"));
    }
    text
}

#[test]
fn a_ten_thousand_link_chain_imports_and_a_link_at_its_end_is_checked() {
    let env = TestEnv::new();
    let file = env.write("chain.jsonl", &chain(10_000));
    let v = env.json(&["import", file.to_str().expect("path")]);
    assert_eq!(v["imported"], 10_000);
    // Only the first step is ready; the last waits for the one before it.
    assert_eq!(keys(&env.json(&["ready", "--limit", "5"])), ["INBOX-1"]);
    let last = env.json(&["show", "INBOX-10000"]);
    assert_eq!(last["task"]["blocked_by"], serde_json::json!(["INBOX-9999"]));
    // Closing the loop from the first step to the last walks the whole chain once.
    let e = env.fails(&["link", "INBOX-1", "blocked-by", "INBOX-10000"], 2);
    let path = e["details"]["path"].as_array().expect("path");
    assert_eq!(path.len(), 10_001, "the cycle names every step: {}", path.len());
    assert_eq!((path[0].as_str(), path[10_000].as_str()), (Some("INBOX-1"), Some("INBOX-1")));
    // A link that closes nothing is written.
    env.json(&["link", "INBOX-10000", "related-to", "INBOX-1"]);
}

#[test]
fn a_cycle_in_an_import_names_the_line_that_closes_it() {
    let env = TestEnv::new();
    let mut text = chain(500);
    text.push_str("{\"id\":\"z\",\"title\":\"Unrelated\"}\n");
    // Line 502 makes the first step wait for the last: c1 → c500 → … → c1.
    text.push_str("{\"id\":\"back\",\"title\":\"Loop\",\"blocked_by\":[\"c500\"]}\n");
    text = text.replacen(
        "{\"id\":\"c1\",\"title\":\"Step 1 of the rollout\"}",
        "{\"id\":\"c1\",\"title\":\"Step 1 of the rollout\",\"blocked_by\":[\"back\"]}",
        1,
    );
    let file = env.write("loop.jsonl", &text);
    let e = env.fails(&["import", file.to_str().expect("path")], 2);
    assert_eq!(e["details"]["field"], "blocked_by", "{e}");
    let message = e["message"].as_str().unwrap_or("");
    assert!(message.contains("would close a cycle"), "{message}");
    assert_eq!(env.json(&["list", "--status", "all"])["items"].as_array().map(Vec::len), Some(0), "nothing written");
    // With --skip-bad the link that closes the cycle is the one left out.
    let v = env.json(&["import", "--skip-bad", file.to_str().expect("path")]);
    assert_eq!(v["imported"], 502);
    let skipped = v["skipped"].as_array().expect("skipped");
    assert_eq!(skipped.len(), 1, "{v}");
    assert!(skipped[0].as_str().unwrap_or("").contains("cycle"), "{v}");
}

#[test]
fn a_line_that_is_not_utf8_is_that_lines_error() {
    let env = TestEnv::new();
    let path = env.path("bytes.jsonl");
    let mut bytes = b"{\"title\":\"Good one\"}\n{\"title\":\"caf".to_vec();
    bytes.extend_from_slice(&[0xff, 0xfe]);
    bytes.extend_from_slice(b"\"}\n{\"title\":\"Good two\"}\n");
    std::fs::write(&path, bytes).expect("write");
    let e = env.fails(&["import", path.to_str().expect("path")], 2);
    assert_eq!(e["details"]["line"], 2, "{e}");
    assert!(e["message"].as_str().unwrap_or("").contains("UTF-8"), "{e}");
    let v = env.json(&["import", "--skip-bad", path.to_str().expect("path")]);
    assert_eq!(v["imported"], 2);
    assert!(v["skipped"][0].as_str().unwrap_or("").starts_with("line 2"), "{v}");
}

#[test]
fn an_id_twice_in_one_file_is_refused_with_both_lines() {
    let env = TestEnv::new();
    let file = env.write(
        "twice.jsonl",
        "{\"id\":\"a\",\"title\":\"One\"}\n{\"id\":\"b\",\"title\":\"Two\"}\n{\"id\":\"a\",\"title\":\"Three\"}\n",
    );
    let e = env.fails(&["import", file.to_str().expect("path")], 2);
    assert_eq!(e["details"]["line"], 3, "{e}");
    assert!(e["message"].as_str().unwrap_or("").contains("also on line 1"), "{e}");
}

#[test]
fn importing_the_same_file_again_creates_nothing_twice() {
    let env = TestEnv::new();
    let file = env.write("in.jsonl", GOOD);
    env.json(&["import", file.to_str().expect("path")]);
    let again = env.json(&["import", file.to_str().expect("path")]);
    assert_eq!(again["imported"], 0, "{again}");
    let ids: Vec<&str> =
        again["already_imported"].as_array().expect("list").iter().filter_map(|x| x["id"].as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "d"]);
    assert_eq!(env.json(&["list", "--status", "all"])["items"].as_array().map(Vec::len), Some(4));
    // A new line may point at a task an earlier import made.
    let more = env.write("more.jsonl", "{\"id\":\"e\",\"title\":\"Frame the logo\",\"blocked_by\":[\"a\"]}\n");
    env.json(&["import", more.to_str().expect("path")]);
    assert_eq!(env.json(&["show", "INBOX-4"])["task"]["blocked_by"], serde_json::json!(["INBOX-1"]));
}

#[test]
fn text_over_a_limit_is_refused_naming_the_field_and_the_limit() {
    let env = TestEnv::new();
    let long = "x".repeat(100_000);
    let file = env.write("long.jsonl", &format!("{{\"title\":\"Read it\",\"description\":\"{long}\"}}\n"));
    let e = env.fails(&["import", file.to_str().expect("path")], 2);
    assert_eq!(e["details"]["field"], "description", "{e}");
    let message = e["message"].as_str().unwrap_or("");
    assert!(message.contains("100000") && message.contains("32768"), "{message}");
    assert!(message.len() < 400, "the error does not echo the text");
    let title = "t".repeat(1_001);
    let e = env.fails(&["add", &title, "--new"], 2);
    assert_eq!(e["details"]["field"], "title", "{e}");
    // A NUL cannot be an argument; it can be a JSON line.
    let nul = env.write("nul.jsonl", "{\"title\":\"nul\\u0000inside\"}\n");
    let e = env.fails(&["import", nul.to_str().expect("path")], 2);
    assert_eq!(e["details"]["field"], "title", "{e}");
    assert!(e["message"].as_str().unwrap_or("").contains("NUL"), "{e}");
}

/// Runs `tasks import -` with its address space capped at `limit` bytes, feeding it
/// `feed` on stdin from a thread; returns the run.
fn import_capped(
    env: &TestEnv,
    limit: u64,
    feed: impl FnOnce(&mut dyn std::io::Write) + Send + 'static,
) -> crate::common::Run {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt;
    let mut cmd = env.command(&["--json", "import", "--skip-bad", "-"]);
    cmd.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            let l = rustix::process::Rlimit { current: Some(limit), maximum: Some(limit) };
            rustix::process::setrlimit(rustix::process::Resource::As, l).map_err(std::io::Error::from)
        });
    }
    let mut child = cmd.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        feed(&mut stdin);
        let _ = stdin.flush();
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    crate::common::collect(out)
}

#[test]
fn import_streams_input_larger_than_its_memory() {
    // 64 MiB of address space (a `tasks list` runs in 32); the input below is 96 MiB.
    // Reading it whole (as import did) dies; streaming keeps one line in memory.
    const LIMIT: u64 = 64 << 20;
    let env = TestEnv::new();
    env.json(&["add", "Make the store", "--new"]);
    let r = import_capped(&env, LIMIT, |w| {
        let _ = w.write_all(b"{\"id\":\"first\",\"title\":\"Before the flood\"}\n");
        // A 48 MiB line with no end in sight: refused by its length, never held.
        let block = vec![b'x'; 1 << 20];
        for _ in 0..48 {
            if w.write_all(&block).is_err() {
                return;
            }
        }
        let _ = w.write_all(b"\n");
        // 48 MiB of blank lines, 4 KiB each.
        let mut blanks = vec![b' '; 1 << 20];
        for i in (4095..blanks.len()).step_by(4096) {
            blanks[i] = b'\n';
        }
        for _ in 0..48 {
            if w.write_all(&blanks).is_err() {
                return;
            }
        }
        let _ = w.write_all(b"{\"id\":\"last\",\"title\":\"After the flood\"}\n");
    });
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["imported"], 2, "{v}");
    let skipped = v["skipped"].as_array().expect("skipped");
    assert_eq!(skipped.len(), 1, "{v}");
    assert!(skipped[0].as_str().unwrap_or("").contains("the limit is 1048576 bytes"), "{v}");
}
