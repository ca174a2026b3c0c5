//! `tasks add`, `edit`, `show`, `history`, `list`: keys, typed keys, the exact match,
//! fields, and bad input that must be refused clearly with nothing written.

use crate::common::{TestEnv, keys};

#[test]
fn project_tasks_get_sequential_keys() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "hrb", "Harbor"]);
    for (i, title) in ["one", "two", "three"].iter().enumerate() {
        let v = env.json(&["add", title, "--project", "HRB"]);
        assert_eq!(v["task"]["key"], format!("HRB-{}", i + 1));
        assert_eq!(v["created"], true);
    }
    let list = env.json(&["list", "--project", "hrb"]);
    assert_eq!(keys(&list), ["HRB-1", "HRB-2", "HRB-3"]);
}

#[test]
fn message_types_get_typed_keys_and_others_inbox_keys() {
    let env = TestEnv::new();
    let q = env.json(&[
        "add",
        "When is the demo?",
        "--type",
        "question",
        "--source",
        "msg:telegram/me/c1/10",
        "--rule",
        "ask",
    ]);
    assert_eq!(q["task"]["key"], "Q-1");
    let r1 = env.json(&[
        "add",
        "Send the invoice",
        "--type",
        "request",
        "--source",
        "msg:telegram/me/c1/11",
        "--rule",
        "ask",
    ]);
    assert_eq!(r1["task"]["key"], "REQ-1");
    let r2 = env.json(&["add", "Book a table", "--type", "request"]);
    assert_eq!(r2["task"]["key"], "REQ-2", "typed counters are per prefix, not per inbox");
    let m = env.json(&["add", "Look at this", "--type", "mention"]);
    assert_eq!(m["task"]["key"], "M-1");
    let p = env.json(&["add", "I will call back", "--type", "promise"]);
    assert_eq!(p["task"]["key"], "PR-1");
    let plain = env.json(&["add", "Buy milk"]);
    assert_eq!(plain["task"]["key"], "INBOX-1");
    assert_eq!(plain["task"]["project"], "INBOX");
    // A message task lands in its account's inbox, IN + 8 hex digits.
    let project = q["task"]["project"].as_str().expect("project");
    assert!(project.starts_with("IN") && project.len() == 10, "{project}");
    // A request filed into a project takes the project's counter.
    env.ok(&["project", "add", "WEB", "Website"]);
    let w = env.json(&["add", "Request in a project", "--type", "request", "--project", "WEB"]);
    assert_eq!(w["task"]["key"], "WEB-1");
}

#[test]
fn the_same_rule_on_the_same_message_is_one_task() {
    let env = TestEnv::new();
    let args =
        ["add", "Send the invoice", "--type", "request", "--source", "msg:telegram/me/c1/11", "--rule", "invoice"];
    let first = env.json(&args);
    assert_eq!(first["created"], true);
    let again = env.json(&[
        "add",
        "Send the invoice again",
        "--type",
        "request",
        "--source",
        "msg:telegram/me/c1/11",
        "--rule",
        "invoice",
    ]);
    assert_eq!(again["created"], false);
    assert_eq!(again["task"]["key"], first["task"]["key"]);
    assert_eq!(again["exact_match"]["rule"], "invoice");
    assert_eq!(again["exact_match"]["message"], "msg:telegram/me/c1/11");
    let human = env.ok(&args);
    assert!(
        human.stdout.contains("REQ-1 exists already: rule invoice made it from msg:telegram/me/c1/11"),
        "{}",
        human.stdout
    );
    // Another rule on the same message is a different hit.
    let other = env.json(&[
        "add",
        "Reply to the invoice question",
        "--type",
        "question",
        "--source",
        "msg:telegram/me/c1/11",
        "--rule",
        "question",
        "--new",
    ]);
    assert_eq!(other["created"], true);
    assert_eq!(keys(&env.json(&["list"])).len(), 2);
}

#[test]
fn fields_round_trip_through_json() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HRB", "Harbor"]);
    let v = env.json(&[
        "add",
        "Pay rent",
        "--project",
        "HRB",
        "--description",
        "June",
        "--due",
        "2026-12-01",
        "--priority",
        "1",
        "--category",
        "money",
        "--person",
        "@lena",
        "--amount",
        "15000 RUB",
        "--tag",
        "home",
        "--tag",
        "monthly",
        "--type",
        "chore",
    ]);
    let t = &v["task"];
    assert_eq!(t["title"], "Pay rent");
    assert_eq!(t["description"], "June");
    assert_eq!(t["due"], "2026-12-01");
    assert_eq!(t["due_kind"], "day");
    assert_eq!(t["priority"], 1);
    assert_eq!(t["category"], "money");
    assert_eq!(t["person"], "@lena");
    assert_eq!(t["amount"], 15000);
    assert_eq!(t["amount_minor"], 1_500_000);
    assert_eq!(t["currency"], "RUB");
    assert_eq!(t["tags"], serde_json::json!(["home", "monthly"]));
    assert_eq!(t["type"], "chore");
    assert_eq!(t["status"], "open");
    assert_eq!(t["created_at"], crate::common::NOW);
    assert!(uuid_like(t["id"].as_str().expect("id")));
    let shown = env.json(&["show", "HRB-1"]);
    assert_eq!(shown["task"], *t);
}

fn uuid_like(s: &str) -> bool {
    s.len() == 36 && s.chars().filter(|c| *c == '-').count() == 4 && &s[14..15] == "7"
}

#[test]
fn relative_due_dates_use_the_pinned_clock_and_zone() {
    let env = TestEnv::new();
    // 2026-11-29 is a Sunday.
    for (phrase, expected) in [
        ("today", "2026-11-29"),
        ("tomorrow", "2026-11-30"),
        ("завтра", "2026-11-30"),
        ("2027-01-15", "2027-01-15"),
        ("end of December", "2026-12-31"),
        ("до конца января", "2027-01-31"),
        ("a finales de febrero", "2027-02-28"),
        ("к 5-му", "2026-12-05"),
    ] {
        let v = env.json(&["add", &format!("due {phrase}"), "--due", phrase, "--new"]);
        assert_eq!(v["task"]["due"], expected, "{phrase}");
    }
}

#[test]
fn titles_with_query_syntax_round_trip_byte_for_byte() {
    let env = TestEnv::new();
    let titles = [
        r#"Fix "quoted" * wildcard"#,
        "a NEAR b OR c AND NOT d",
        "'; DROP TABLE tasks; --",
        "NEAR(a b, 3) col:value ^start",
        "  leading and trailing spaces  ",
        "emoji 🚀 and ünïcödé, ё й",
        "back\\slash % _ under",
    ];
    for title in titles {
        let v = env.json(&["add", title, "--new"]);
        assert_eq!(v["task"]["title"], title);
        let key = v["task"]["key"].as_str().expect("key").to_string();
        assert_eq!(env.json(&["show", &key])["task"]["title"], title);
    }
    let all = env.json(&["list"]);
    assert_eq!(all["items"].as_array().map(Vec::len), Some(titles.len()));
}

#[test]
fn bad_input_is_refused_with_the_value_and_nothing_is_written() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HRB", "Harbor"]);
    let e = env.fails(&["add", ""], 2);
    assert_eq!(e["code"], "validation");
    assert_eq!(e["details"]["field"], "title");
    let e = env.fails(&["add", "   "], 2);
    assert_eq!(e["details"]["field"], "title");
    let e = env.fails(&["add", "x", "--project", "NOPE"], 6);
    assert_eq!(e["code"], "not_found");
    assert_eq!(e["details"]["value"], "NOPE");
    let e = env.fails(&["add", "x", "--due", "next fryday"], 2);
    assert_eq!(e["details"]["field"], "due");
    assert!(e["message"].as_str().unwrap_or("").contains("next fryday"), "{e}");
    let e = env.fails(&["add", "x", "--priority", "9"], 2);
    assert_eq!(e["code"], "validation");
    let e = env.fails(&["add", "x", "--type", "epic"], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("epic"), "{e}");
    let e = env.fails(&["add", "x", "--source", "telegram/1"], 2);
    assert_eq!(e["details"]["field"], "source");
    let e = env.fails(&["add", "x", "--tag", "two words"], 2);
    assert_eq!(e["details"]["field"], "tag");
    let e = env.fails(&["add", "x", "--blocked-by", "HRB-99"], 6);
    assert_eq!(e["details"]["value"], "HRB-99");
    let e = env.fails(&["add", "x", "--amount", "lots"], 2);
    assert_eq!(e["details"]["field"], "amount");
    let e = env.fails(&["project", "add", "HRB", "Again"], 15);
    assert_eq!(e["code"], "conflict");
    let e = env.fails(&["project", "add", "h-r", "Bad"], 2);
    assert_eq!(e["details"]["field"], "project key");
    let e = env.fails(&["frobnicate"], 2);
    assert_eq!(e["code"], "validation");
    // Nothing of the refused commands was written.
    assert_eq!(keys(&env.json(&["list", "--status", "all"])).len(), 0);
}

#[test]
fn human_errors_quote_the_value_and_give_a_hint() {
    let env = TestEnv::new();
    env.init_store();
    let r = env.run(&["show", "HRB-404"]);
    insta::assert_snapshot!(r.snapshot(), @r#"
    ------- stderr -------
    error: task "HRB-404" not found
    hint: tasks list --status all shows every task
    [exit status: 6]
    "#);
}

#[test]
fn edit_records_history_and_keeps_the_key() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HRB", "Harbor"]);
    env.ok(&["project", "add", "WEB", "Website"]);
    env.ok(&["add", "Old title", "--project", "HRB"]);
    let v = env.json(&[
        "edit",
        "HRB-1",
        "--title",
        "New title",
        "--due",
        "2026-12-05",
        "--category",
        "work",
        "--project",
        "WEB",
    ]);
    assert_eq!(v["task"]["key"], "HRB-1", "moving a task keeps its key");
    assert_eq!(v["task"]["project"], "WEB");
    assert_eq!(v["task"]["title"], "New title");
    let h = env.json(&["history", "HRB-1"]);
    let kinds: Vec<&str> =
        h["items"].as_array().expect("items").iter().map(|e| e["kind"].as_str().unwrap_or("")).collect();
    assert_eq!(kinds, ["created", "edit", "due", "category"]);
    assert_eq!(h["items"][1]["changes"]["title"], serde_json::json!(["Old title", "New title"]));
    assert_eq!(h["items"][1]["actor"], "tester");
    let cleared = env.json(&["edit", "HRB-1", "--due", "none"]);
    assert_eq!(cleared["task"]["due"], serde_json::Value::Null);
    env.fails(&["edit", "HRB-1"], 2);
}

#[test]
fn status_changes_and_close_reasons() {
    let env = TestEnv::new();
    env.ok(&["add", "a"]);
    env.ok(&["add", "b"]);
    assert_eq!(env.json(&["start", "INBOX-1"])["task"]["status"], "in_progress");
    let d = env.json(&["done", "INBOX-1"]);
    assert_eq!(d["task"]["status"], "done");
    assert_eq!(d["task"]["closed_at"], crate::common::NOW);
    assert_eq!(env.json(&["done", "INBOX-1"])["changed"], false);
    let x = env.json(&["dismiss", "INBOX-2", "--reason", "not needed"]);
    assert_eq!(x["task"]["status"], "dismissed");
    assert_eq!(x["task"]["close_reason"], "not needed");
    let e = env.fails(&["start", "INBOX-2"], 15);
    assert!(e["message"].as_str().unwrap_or("").contains("reopen"), "{e}");
    let r = env.json(&["reopen", "INBOX-2"]);
    assert_eq!(r["task"]["status"], "open");
    assert_eq!(r["task"]["close_reason"], serde_json::Value::Null);
    assert_eq!(keys(&env.json(&["list"])), ["INBOX-2"]);
    assert_eq!(keys(&env.json(&["list", "--status", "done"])), ["INBOX-1"]);
    assert_eq!(keys(&env.json(&["list", "--status", "all"])), ["INBOX-1", "INBOX-2"]);
}

#[test]
fn tags_filter_lists() {
    let env = TestEnv::new();
    env.ok(&["add", "a", "--tag", "x"]);
    env.ok(&["add", "b"]);
    env.ok(&["tag", "INBOX-2", "x", "y"]);
    assert_eq!(keys(&env.json(&["list", "--tag", "x"])), ["INBOX-1", "INBOX-2"]);
    env.ok(&["untag", "INBOX-1", "x"]);
    assert_eq!(keys(&env.json(&["list", "--tag", "x"])), ["INBOX-2"]);
    assert_eq!(keys(&env.json(&["list", "--tag", "y"])), ["INBOX-2"]);
}

#[test]
fn dry_run_writes_nothing() {
    let env = TestEnv::new();
    let v = env.json(&["add", "Maybe", "--dry-run"]);
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["created"], false);
    assert_eq!(v["task"]["key"], "INBOX-1");
    assert_eq!(keys(&env.json(&["list", "--status", "all"])).len(), 0);
    // The real add takes the same key: the rehearsal did not use up the number.
    assert_eq!(env.json(&["add", "Maybe"])["task"]["key"], "INBOX-1");
}

#[test]
fn references_resolve_by_key_uuid_and_prefix() {
    let env = TestEnv::new();
    let v = env.json(&["add", "Find me"]);
    let uuid = v["task"]["id"].as_str().expect("id").to_string();
    for reference in [
        uuid.clone(),
        format!("task:{uuid}"),
        "inbox-1".to_string(),
        "task:INBOX-1".to_string(),
        uuid[..13].to_string(),
    ] {
        assert_eq!(env.json(&["show", &reference])["task"]["id"], uuid, "{reference}");
    }
    let e = env.fails(&["show", "0000000000"], 6);
    assert_eq!(e["code"], "not_found");
    let e = env.fails(&["show", "abc"], 6);
    assert_eq!(e["details"]["value"], "abc");
}

#[test]
fn ambiguous_uuid_prefixes_are_refused_with_the_matches() {
    let env = TestEnv::new();
    // UUID v7 starts with the creation millisecond, so tasks made within a second share
    // their first 8 hex digits.
    let a = env.json(&["add", "first"]);
    env.json(&["add", "second"]);
    let uuid = a["task"]["id"].as_str().expect("id");
    let r = env.run(&["--json", "show", &uuid[..8]]);
    if r.code == 2 {
        let e = r.error();
        assert_eq!(e["code"], "validation");
        assert!(e["details"]["matches"].as_array().is_some_and(|m| m.len() >= 2), "{e}");
    } else {
        // The two inserts straddled a 65-second boundary: the prefix is unique.
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
}
