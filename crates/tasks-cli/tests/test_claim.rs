//! Claims as leases: refusal naming the holder, renewal, expiry with `TASKS_NOW`,
//! release, closing ends the lease, `agenda` hides others' claims, `next --claim` —
//! on SQLite and, where it can be had, on the PostgreSQL team store.

use crate::common::{TestEnv, keys};

fn at(env: &TestEnv, now: &str, actor: &str, args: &[&str]) -> crate::common::Run {
    let mut cmd = env.command(args);
    cmd.env("TASKS_NOW", now).env("TASKS_ACTOR", actor);
    crate::common::collect(cmd.output().expect("run tasks"))
}

#[test]
fn a_held_claim_is_refused_naming_the_holder_and_until() {
    for env in TestEnv::engines("a_held_claim_is_refused_naming_the_holde") {
        a_held_claim_is_refused_naming_the_holder_and_until_on(&env);
    }
}

fn a_held_claim_is_refused_naming_the_holder_and_until_on(env: &TestEnv) {
    env.ok(&["add", "Deploy"]);
    let v = env.json(&["claim", "INBOX-1", "--as", "agent-7", "--for", "30m"]);
    assert_eq!(v["task"]["claimed_by"], "agent-7");
    assert_eq!(v["task"]["claimed_until"], "2026-11-29T12:30:00Z");
    let e = env.fails(&["claim", "INBOX-1", "--as", "agent-8"], 15);
    assert_eq!(e["code"], "conflict");
    assert_eq!(e["details"]["holder"], "agent-7");
    assert_eq!(e["details"]["until"], "2026-11-29T12:30:00Z");
    let r = env.run(&["claim", "INBOX-1", "--as", "agent-8"]);
    // The same text on both engines.
    insta::allow_duplicates! {
        insta::assert_snapshot!(r.snapshot(), @r"
        ------- stderr -------
        error: INBOX-1 is claimed by agent-7 until 2026-11-29T12:30:00Z
        hint: tasks next --claim picks another ready task
        [exit status: 15]
        ");
    }
}

#[test]
fn the_holder_renews_and_the_lease_expires_by_itself() {
    for env in TestEnv::engines("the_holder_renews_and_the_lease_expires_") {
        the_holder_renews_and_the_lease_expires_by_itself_on(&env);
    }
}

fn the_holder_renews_and_the_lease_expires_by_itself_on(env: &TestEnv) {
    env.ok(&["add", "Deploy"]);
    env.ok(&["claim", "INBOX-1", "--as", "a1"]);
    // 20 minutes later the holder renews for another 30.
    let r = at(env, "2026-11-29T12:20:00Z", "a1", &["--json", "claim", "INBOX-1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["task"]["claimed_until"], "2026-11-29T12:50:00Z");
    // At 12:40 another agent is still refused …
    let r = at(env, "2026-11-29T12:40:00Z", "a2", &["--json", "claim", "INBOX-1"]);
    assert_eq!(r.code, 15);
    // … and after 12:50 the lease has ended by itself.
    let r = at(env, "2026-11-29T12:50:01Z", "a2", &["--json", "claim", "INBOX-1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["task"]["claimed_by"], "a2");
    // An expired lease shows as no claim.
    let r = at(env, "2026-11-29T14:00:00Z", "a1", &["--json", "show", "INBOX-1"]);
    assert_eq!(r.json()["task"]["claimed_by"], serde_json::Value::Null);
    if env.store_url.is_some() {
        return; // `history` runs on SQLite only so far.
    }
    let h = env.json(&["history", "INBOX-1"]);
    let kinds: Vec<&str> =
        h["items"].as_array().expect("items").iter().map(|e| e["kind"].as_str().unwrap_or("")).collect();
    assert_eq!(kinds, ["created", "claim", "claim", "claim"]);
}

#[test]
fn release_and_done_end_the_lease() {
    for env in TestEnv::engines("release_and_done_end_the_lease") {
        release_and_done_end_the_lease_on(&env);
    }
}

fn release_and_done_end_the_lease_on(env: &TestEnv) {
    env.ok(&["add", "a"]);
    env.ok(&["add", "b"]);
    env.ok(&["claim", "INBOX-1", "--as", "a1"]);
    let e = env.fails(&["release", "INBOX-1", "--as", "a2"], 15);
    assert_eq!(e["details"]["actor"], "a2");
    let v = env.json(&["release", "INBOX-1", "--as", "a1"]);
    assert_eq!(v["task"]["claimed_by"], serde_json::Value::Null);
    env.ok(&["claim", "INBOX-2", "--as", "a1"]);
    let d = env.json(&["done", "INBOX-2", "--as", "a1"]);
    assert_eq!(d["task"]["claimed_by"], serde_json::Value::Null);
    let e = env.fails(&["claim", "INBOX-2", "--as", "a1"], 15);
    assert!(e["message"].as_str().unwrap_or("").contains("done"), "{e}");
}

#[test]
fn a_blocked_task_cannot_be_claimed() {
    for env in TestEnv::engines("a_blocked_task_cannot_be_claimed") {
        a_blocked_task_cannot_be_claimed_on(&env);
    }
}

fn a_blocked_task_cannot_be_claimed_on(env: &TestEnv) {
    env.ok(&["add", "first"]);
    env.ok(&["add", "second", "--blocked-by", "INBOX-1"]);
    let e = env.fails(&["claim", "INBOX-2"], 15);
    assert_eq!(e["details"]["blockers"], serde_json::json!(["INBOX-1"]));
}

#[test]
fn agenda_and_ready_hide_tasks_claimed_by_others() {
    let env = TestEnv::new();
    env.ok(&["add", "mine", "--due", "today"]);
    env.ok(&["add", "theirs", "--due", "today", "--new"]);
    env.ok(&["claim", "INBOX-2", "--as", "other"]);
    assert_eq!(keys(&env.json(&["agenda", "today"])), ["INBOX-1"]);
    assert_eq!(keys(&env.json(&["agenda", "today", "--claimed"])), ["INBOX-1", "INBOX-2"]);
    assert_eq!(keys(&env.json(&["ready"])), ["INBOX-1"]);
    assert_eq!(keys(&env.json(&["ready", "--as", "other"])), ["INBOX-1", "INBOX-2"]);
    let listed = env.json(&["list"]);
    assert_eq!(listed["items"][1]["claimed_by"], "other", "list shows the claim");
}

#[test]
fn next_claim_takes_the_best_ready_task() {
    for env in TestEnv::engines("next_claim_takes_the_best") {
        next_claim_on(&env);
    }
}

fn next_claim_on(env: &TestEnv) {
    env.ok(&["add", "low", "--priority", "3"]);
    env.ok(&["add", "high", "--priority", "0"]);
    let v = env.json(&["next", "--claim", "--as", "a1"]);
    assert_eq!(v["task"]["key"], "INBOX-2");
    assert_eq!(v["task"]["claimed_by"], "a1");
    let v = env.json(&["next", "--claim", "--as", "a2"]);
    assert_eq!(v["task"]["key"], "INBOX-1");
    let e = env.fails(&["next", "--claim", "--as", "a3"], 6);
    assert_eq!(e["code"], "not_found");
    let r = env.run(&["next", "--claim", "--as", "a3"]);
    assert!(r.stderr.contains("no ready task"), "{}", r.stderr);
    // Without --claim, next only looks.
    env.ok(&["release", "INBOX-1", "--as", "a2"]);
    let v = env.json(&["next"]);
    assert_eq!(v["claimed"], false);
    assert_eq!(v["task"]["key"], "INBOX-1");
    assert_eq!(v["task"]["claimed_by"], serde_json::Value::Null);
}

#[test]
fn bad_lease_lengths_are_refused() {
    for env in TestEnv::engines("bad_lease_lengths_are_refused") {
        bad_lease_lengths_are_refused_on(&env);
    }
}

fn bad_lease_lengths_are_refused_on(env: &TestEnv) {
    env.ok(&["add", "a"]);
    for bad in ["30", "0m", "8d", "soon"] {
        let e = env.fails(&["claim", "INBOX-1", "--for", bad], 2);
        assert_eq!(e["details"]["field"], "for", "{bad}");
    }
}
