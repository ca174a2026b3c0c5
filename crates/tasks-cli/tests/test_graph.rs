//! The task graph: links and their checks, `ready` / `blocked` before and after `done`,
//! and `graph` in its three formats; ordering, cycles and bad links on SQLite and, where
//! it can be had, on the PostgreSQL team store.

use crate::common::{TestEnv, keys};

fn chain() -> TestEnv {
    let env = TestEnv::new();
    chain_on(&env);
    env
}

fn chain_on(env: &TestEnv) {
    env.ok(&["project", "add", "HRB", "Harbor"]);
    env.ok(&["add", "Write code", "--project", "HRB", "--priority", "1"]);
    env.ok(&["add", "Write tests", "--project", "HRB", "--blocked-by", "HRB-1"]);
    env.ok(&["add", "Ship it", "--project", "HRB", "--blocked-by", "HRB-2"]);
}

#[test]
fn ready_and_blocked_follow_done_at_once() {
    for env in TestEnv::engines("ready_and_blocked_follow_done") {
        chain_on(&env);
        ready_and_blocked_on(&env);
    }
}

fn ready_and_blocked_on(env: &TestEnv) {
    assert_eq!(keys(&env.json(&["ready"])), ["HRB-1"]);
    assert_eq!(keys(&env.json(&["blocked"])), ["HRB-2", "HRB-3"]);
    let d = env.json(&["done", "HRB-1"]);
    assert_eq!(d["unblocked"], serde_json::json!(["HRB-2"]));
    assert_eq!(keys(&env.json(&["ready"])), ["HRB-2"]);
    assert_eq!(keys(&env.json(&["blocked"])), ["HRB-3"]);
    env.ok(&["dismiss", "HRB-2"]);
    assert_eq!(keys(&env.json(&["ready"])), ["HRB-3"]);
    assert!(keys(&env.json(&["blocked"])).is_empty());
    // Reopening a blocker blocks its dependant again: nothing stored to fix up.
    env.ok(&["reopen", "HRB-2"]);
    assert_eq!(keys(&env.json(&["blocked"])), ["HRB-3"]);
    let shown = env.json(&["show", "HRB-3"]);
    assert_eq!(shown["task"]["blocked"], true);
    assert_eq!(shown["task"]["blocked_by"], serde_json::json!(["HRB-2"]));
}

#[test]
fn ready_orders_by_priority_then_due_then_age() {
    for env in TestEnv::engines("ready_orders_by_priority") {
        ready_orders_on(&env);
    }
}

fn ready_orders_on(env: &TestEnv) {
    env.ok(&["add", "no priority old"]);
    env.ok(&["add", "p2 late", "--priority", "2", "--due", "2026-12-20"]);
    env.ok(&["add", "p2 soon", "--priority", "2", "--due", "2026-12-01"]);
    env.ok(&["add", "p0", "--priority", "0"]);
    env.ok(&["add", "p2 no due", "--priority", "2"]);
    assert_eq!(keys(&env.json(&["ready"])), ["INBOX-4", "INBOX-3", "INBOX-2", "INBOX-5", "INBOX-1"]);
    assert_eq!(keys(&env.json(&["ready", "--limit", "2"])), ["INBOX-4", "INBOX-3"]);
}

#[test]
fn a_cycle_is_refused_naming_the_path() {
    for env in TestEnv::engines("cycle_refused") {
        chain_on(&env);
        a_cycle_is_refused_naming_the_path_on(&env);
    }
}

fn a_cycle_is_refused_naming_the_path_on(env: &TestEnv) {
    let e = env.fails(&["link", "HRB-1", "blocked-by", "HRB-3"], 2);
    assert_eq!(e["code"], "validation");
    assert_eq!(e["details"]["path"], serde_json::json!(["HRB-1", "HRB-3", "HRB-2", "HRB-1"]));
    let r = env.run(&["link", "HRB-1", "blocked-by", "HRB-3"]);
    // The same text on both engines.
    insta::allow_duplicates! {
        insta::assert_snapshot!(r.snapshot(), @r"
        ------- stderr -------
        error: blocked-by would close a cycle: HRB-1 → HRB-3 → HRB-2 → HRB-1
        hint: tasks graph HRB-1 shows the links
        [exit status: 2]
        ");
    }
    // follow-up-of has its own acyclic graph; related-to may loop.
    env.ok(&["link", "HRB-2", "follow-up-of", "HRB-1"]);
    let e = env.fails(&["link", "HRB-1", "follow-up-of", "HRB-2"], 2);
    assert_eq!(e["details"]["kind"], "follow-up-of");
    env.ok(&["link", "HRB-1", "related-to", "HRB-3"]);
    env.ok(&["link", "HRB-3", "related-to", "HRB-1"]);
}

#[test]
fn bad_links_are_refused() {
    for env in TestEnv::engines("bad_links") {
        chain_on(&env);
        bad_links_are_refused_on(&env);
    }
}

fn bad_links_are_refused_on(env: &TestEnv) {
    let e = env.fails(&["link", "HRB-1", "blocked-by", "HRB-1"], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("itself"), "{e}");
    let e = env.fails(&["link", "HRB-1", "depends-on", "HRB-2"], 2);
    assert_eq!(e["details"]["field"], "link kind");
    assert!(e["message"].as_str().unwrap_or("").contains("blocked-by"), "the message lists the kinds: {e}");
    let e = env.fails(&["link", "HRB-1", "evidence", "HRB-2"], 2);
    assert_eq!(e["code"], "validation");
    let e = env.fails(&["link", "HRB-1", "blocked-by", "HRB-99"], 6);
    assert_eq!(e["details"]["value"], "HRB-99");
    // Linking twice is not an error and changes nothing.
    assert_eq!(env.json(&["link", "HRB-2", "blocked-by", "HRB-1"])["changed"], false);
}

#[test]
fn unlink_frees_a_task_and_keeps_history() {
    let env = chain();
    let v = env.json(&["unlink", "HRB-2", "blocked-by", "HRB-1"]);
    assert_eq!(v["changed"], true);
    assert_eq!(keys(&env.json(&["ready"])), ["HRB-1", "HRB-2"]);
    let h = env.json(&["history", "HRB-2"]);
    let kinds: Vec<&str> =
        h["items"].as_array().expect("items").iter().map(|e| e["kind"].as_str().unwrap_or("")).collect();
    assert_eq!(kinds, ["created", "link", "unlink"]);
    assert_eq!(env.json(&["unlink", "HRB-2", "blocked-by", "HRB-1"])["changed"], false);
}

#[test]
fn graph_formats() {
    let env = chain();
    let tree = env.ok(&["graph", "HRB-3"]);
    insta::assert_snapshot!(tree.stdout, @r"
    HRB-3 Ship it [open, blocked]
    └── blocked-by HRB-2 Write tests [open, blocked]
        └── blocked-by HRB-1 Write code [open]
    ");
    let dot = env.ok(&["graph", "HRB-1", "--format", "dot"]).stdout;
    assert!(dot.starts_with("digraph tasks {"), "{dot}");
    assert!(dot.contains("\"HRB-2\" -> \"HRB-1\" [label=\"blocked-by\"]"), "{dot}");
    assert!(dot.contains("\"HRB-3\" -> \"HRB-2\""), "the whole component is drawn: {dot}");
    let mermaid = env.ok(&["graph", "HRB-2", "--format", "mermaid"]).stdout;
    assert!(mermaid.starts_with("flowchart LR"), "{mermaid}");
    assert!(mermaid.contains("HRB_2 -->|blocked-by| HRB_1"), "{mermaid}");
    let j = env.json(&["graph", "HRB-2"]);
    assert_eq!(j["root"], "HRB-2");
    assert_eq!(j["nodes"].as_array().map(Vec::len), Some(3));
    assert_eq!(j["edges"].as_array().map(Vec::len), Some(2));
}

#[test]
fn agenda_views() {
    let env = TestEnv::new();
    // Now is Sunday 2026-11-29 in Europe/Berlin.
    env.ok(&["add", "overdue", "--due", "2026-11-27", "--new"]);
    env.ok(&["add", "due today", "--due", "2026-11-29", "--new"]);
    env.ok(&["add", "this week", "--due", "2026-12-03", "--new"]);
    env.ok(&["add", "later", "--due", "2027-01-10", "--new"]);
    env.ok(&["add", "no due", "--new"]);
    env.ok(&["project", "add", "HRB", "Harbor"]);
    env.ok(&["add", "filed", "--project", "HRB", "--due", "2026-11-29", "--new"]);
    assert_eq!(keys(&env.json(&["agenda", "overdue"])), ["INBOX-1"]);
    assert_eq!(keys(&env.json(&["agenda", "today"])), ["INBOX-1", "INBOX-2", "HRB-1"]);
    assert_eq!(keys(&env.json(&["agenda", "week"])), ["INBOX-1", "INBOX-2", "HRB-1", "INBOX-3"]);
    assert_eq!(keys(&env.json(&["agenda", "inbox"])).len(), 5);
    let e = env.fails(&["agenda", "someday"], 2);
    assert_eq!(e["details"]["field"], "agenda view");
}
