//! `tasks schedule …` and `tasks jobs` through the real binary: preview's JSON shape and
//! DST notes, refusals naming the field, add/replace/pause/resume/remove, run-now's
//! idempotency, the due and prompt actions, event triggers, and the conversation queue
//! across processes. The daemon's runs are in `test_daemon.rs`.

use serde_json::Value;

use crate::common::{Run, TestEnv, collect};

/// Runs the binary with `TASKS_NOW` set to `now`.
pub fn at(env: &TestEnv, now: &str, args: &[&str]) -> Run {
    let mut cmd = env.command(args);
    cmd.env("TASKS_NOW", now);
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    collect(cmd.output().expect("run tasks"))
}

/// Runs `--json` at `now`, fails unless it exits 0, returns the JSON.
pub fn json_at(env: &TestEnv, now: &str, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let r = at(env, now, &all);
    assert_eq!(r.code, 0, "tasks {all:?} at {now} failed:\n{}{}", r.stdout, r.stderr);
    r.json()
}

/// Returns the `items` of a list answer.
pub fn items(v: &Value) -> &Vec<Value> {
    v["items"].as_array().expect("items")
}

/// Returns the states of `tasks jobs TASK`, oldest first.
pub fn job_states(env: &TestEnv, task: &str) -> Vec<String> {
    let v = env.json(&["jobs", task]);
    let mut states: Vec<String> = items(&v).iter().map(|j| j["state"].as_str().expect("state").to_string()).collect();
    states.reverse();
    states
}

#[test]
fn preview_answers_fires_in_utc_with_local_times_beside() {
    let env = TestEnv::new();
    env.init_store();
    let v = env.json(&[
        "schedule",
        "preview",
        "--daily",
        "02:30",
        "--tz",
        "America/New_York",
        "--from",
        "2026-03-07T12:00:00Z",
        "--count",
        "3",
    ]);
    insta::assert_json_snapshot!(v, @r#"
    {
      "fires": [
        "2026-03-08T07:00:00Z",
        "2026-03-09T06:30:00Z",
        "2026-03-10T06:30:00Z"
      ],
      "local": [
        "2026-03-08T03:00:00-04:00",
        "2026-03-09T02:30:00-04:00",
        "2026-03-10T02:30:00-04:00"
      ],
      "trigger": {
        "time": "02:30",
        "type": "daily"
      },
      "trigger_text": "daily 02:30",
      "zone": "America/New_York"
    }
    "#);
    let r = env.run(&[
        "schedule",
        "preview",
        "--daily",
        "02:30",
        "--tz",
        "America/New_York",
        "--from",
        "2026-03-07T12:00:00Z",
        "--count",
        "2",
    ]);
    insta::assert_snapshot!(r.snapshot(), @r"
    Next 2 firings of daily 02:30 (America/New_York):
      Sun 2026-03-08 03:00 EDT (-04:00)    2026-03-08T07:00:00Z  (02:30 does not exist that day)
      Mon 2026-03-09 02:30 EDT (-04:00)    2026-03-09T06:30:00Z
    ");
}

#[test]
fn preview_defaults_to_five_firings_strictly_after_now() {
    let env = TestEnv::new();
    // Now is 2026-11-29T12:00Z = 13:00 in Berlin; 13:00 itself is not "after".
    let v = env.json(&["schedule", "preview", "--daily", "13:00"]);
    let fires: Vec<&str> = v["fires"].as_array().expect("fires").iter().map(|f| f.as_str().expect("str")).collect();
    assert_eq!(fires.len(), tasks_schedule::limits::PREVIEW_COUNT);
    assert_eq!(fires[0], "2026-11-30T12:00:00Z");
    assert_eq!(v["zone"], "Europe/Berlin", "the default zone is TASKS_TZ");
    let v =
        env.json(&["schedule", "preview", "--cron", "*/30 9-18 * * 1-5", "--count", "2", "--from", "2026-11-30T09:10"]);
    assert_eq!(v["fires"], serde_json::json!(["2026-11-30T08:30:00Z", "2026-11-30T09:00:00Z"]), "local --from");
}

#[test]
fn a_schedule_keeps_its_zone_whatever_the_machine_says() {
    let env = TestEnv::new();
    env.ok(&["add", "Standup"]);
    env.ok(&["schedule", "add", "INBOX-1", "--workdays", "09:30", "--tz", "america/new_york"]);
    let mut cmd = env.command(&["--json", "schedule", "preview", "INBOX-1", "--count", "2"]);
    cmd.env("TASKS_TZ", "Asia/Kolkata").env("TZ", "Asia/Tokyo");
    let r = collect(cmd.output().expect("run"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["zone"], "America/New_York", "stored canonical name");
    assert_eq!(v["fires"], serde_json::json!(["2026-11-30T14:30:00Z", "2026-12-01T14:30:00Z"]));
}

#[test]
fn a_bad_cron_exits_2_naming_the_field_and_why() {
    let env = TestEnv::new();
    env.ok(&["add", "Report"]);
    // (pattern, field, text)
    let cases = [
        ("*/30 9-18 * * 8", "day-of-week", "8"),
        ("0 25 * * *", "hour", "25"),
        ("0 9 * JAN *", "month", "JAN"),
        ("*/5 * * * *", "cron", "*/5 * * * *"),
        ("0 9 * *", "cron", "0 9 * *"),
        ("@daily", "cron", "@daily"),
    ];
    for (pattern, field, text) in cases {
        let e = env.fails(&["schedule", "add", "INBOX-1", "--cron", pattern], 2);
        assert_eq!(e["code"], "validation", "{pattern}");
        assert_eq!(e["details"]["field"], field, "{pattern}: {e}");
        assert_eq!(e["details"]["text"], text, "{pattern}: {e}");
        assert!(!e["details"]["reason"].as_str().unwrap_or("").is_empty(), "{pattern} says why");
    }
    let r = env.run(&["schedule", "add", "INBOX-1", "--cron", "*/30 9-18 * * 8"]);
    insta::assert_snapshot!(r.snapshot(), @r#"
    ------- stderr -------
    error: cron field day-of-week: "8" is out of range 0-7
    hint: five fields: minute hour day-of-month month day-of-week, e.g. --cron "*/30 9-18 * * 1-5" (numbers, *, ranges, lists, steps; weekday 0-7)
    [exit status: 2]
    "#);
    let r = env.run(&["schedule", "preview", "--cron", "*/5 * * * *"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("hint: use a step of 15 minutes or more"), "{}", r.stderr);
    assert!(env.json(&["schedule", "list"])["items"].as_array().expect("items").is_empty(), "nothing written");
}

#[test]
fn other_refusals_name_the_field() {
    let env = TestEnv::new();
    env.ok(&["add", "Report"]);
    let e = env.fails(&["schedule", "add", "INBOX-1", "--daily", "9:60"], 2);
    assert_eq!(e["details"]["field"], "time");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--tz", "Berlin"], 2);
    assert_eq!(e["details"]["field"], "tz");
    assert_eq!(e["details"]["suggestions"], serde_json::json!(["Europe/Berlin"]));
    let e = env.fails(&["schedule", "add", "INBOX-1", "--monthly", "32", "10:00"], 2);
    assert_eq!(e["details"]["field"], "day");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--once", "2026-12-01T09:00Z"], 2);
    assert_eq!(e["details"]["field"], "once");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--once", "2026-11-01T09:00"], 2);
    assert_eq!(e["details"]["field"], "once", "a one-off in the past: {e}");
    let e = env.fails(&["schedule", "add", "INBOX-1"], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("say when"), "{e}");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--timeout", "5m"], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("--action due"), "{e}");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--on", "task.completed"], 2);
    assert_eq!(e["code"], "validation");
    let e = env.fails(&["schedule", "add", "INBOX-1", "--on", "task.exploded"], 2);
    assert_eq!(e["details"]["field"], "on");
    env.fails(&["schedule", "add", "NOPE-1", "--daily", "09:00"], 6);
}

#[test]
fn add_refuses_a_second_schedule_and_replace_bumps_the_plan_version() {
    let env = TestEnv::new();
    env.ok(&["add", "Report"]);
    let v = env.json(&["schedule", "add", "INBOX-1", "--daily", "09:00"]);
    assert_eq!(v["schedule"]["plan_version"], 1);
    assert_eq!(v["schedule"]["next_fire_at"], "2026-11-30T08:00:00Z");
    assert_eq!(v["schedule"]["missed"], serde_json::json!({ "policy": "run_once" }));
    assert_eq!(v["schedule"]["action"], serde_json::json!({ "kind": "due" }));
    let e = env.fails(&["schedule", "add", "INBOX-1", "--weekly", "mon,fri", "17:00"], 15);
    assert_eq!(e["details"]["task"], "INBOX-1");
    let v = env.json(&["schedule", "add", "INBOX-1", "--weekly", "fri,mon", "17:00", "--replace"]);
    assert_eq!(v["replaced"], true);
    assert_eq!(v["schedule"]["id"], 1, "the same schedule");
    assert_eq!(v["schedule"]["plan_version"], 2);
    assert_eq!(
        v["schedule"]["trigger"],
        serde_json::json!({ "type": "weekly", "weekdays": ["mon", "fri"], "time": "17:00" })
    );
    assert_eq!(v["schedule"]["next_fire_at"], "2026-11-30T16:00:00Z");
    let h = env.json(&["history", "INBOX-1"]);
    let kinds: Vec<&str> = items(&h).iter().map(|e| e["kind"].as_str().unwrap_or("")).collect();
    assert_eq!(kinds, ["created", "schedule", "schedule"]);
}

#[test]
fn pause_resume_and_remove() {
    let env = TestEnv::new();
    env.ok(&["add", "Water the plants"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00"]);
    let v = env.json(&["schedule", "pause", "INBOX-1"]);
    assert_eq!((v["changed"].clone(), v["schedule"]["paused"].clone()), (true.into(), true.into()));
    assert_eq!(env.json(&["schedule", "pause", "INBOX-1"])["changed"], false);
    // Three days pass while paused: nothing fires.
    let d = json_at(&env, "2026-12-02T10:00:00Z", &["daemon", "--once"]);
    assert!(d["jobs"].as_array().expect("jobs").is_empty(), "{d}");
    // Resuming plans from now: the paused days are not made up.
    let v = json_at(&env, "2026-12-02T10:00:00Z", &["schedule", "resume", "INBOX-1"]);
    assert_eq!(v["schedule"]["paused"], false);
    assert_eq!(v["schedule"]["next_fire_at"], "2026-12-03T08:00:00Z");
    let d = json_at(&env, "2026-12-02T10:00:00Z", &["daemon", "--once"]);
    assert!(d["jobs"].as_array().expect("jobs").is_empty(), "{d}");
    let v = env.json(&["schedule", "remove", "INBOX-1"]);
    assert!(v["schedule"]["removed_at"].is_string());
    assert!(items(&env.json(&["schedule", "list"])).is_empty());
    assert_eq!(items(&env.json(&["schedule", "list", "--all"])).len(), 1, "history stays");
    let d = json_at(&env, "2026-12-09T10:00:00Z", &["daemon", "--once"]);
    assert!(d["jobs"].as_array().expect("jobs").is_empty(), "a removed schedule fires nothing: {d}");
    env.fails(&["schedule", "pause", "INBOX-1"], 6);
    // The task can be scheduled again.
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "08:00"]);
    let r = env.run(&["schedule", "list"]);
    insta::assert_snapshot!(r.snapshot(), @r"
     ID  TASK     TRIGGER      ZONE           ACTION  NEXT                  STATE
     2   INBOX-1  daily 08:00  Europe/Berlin  due     2026-11-30 08:00 CET  active
    ");
}

#[test]
fn run_now_twice_with_one_key_makes_one_job_and_never_moves_the_next_firing() {
    let env = TestEnv::new();
    env.ok(&["add", "Water the plants"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00"]);
    let first = env.json(&["schedule", "run-now", "INBOX-1", "--key", "k1"]);
    assert_eq!(first["created"], true);
    assert_eq!(first["job"]["kind"], "manual");
    assert_eq!(first["job"]["key"], "manual:1:k1");
    assert_eq!(first["job"]["state"], "succeeded", "run here: no daemon runs");
    let second = json_at(&env, "2026-11-29T12:05:00Z", &["schedule", "run-now", "INBOX-1", "--key", "k1"]);
    assert_eq!(second["created"], false);
    assert_eq!(second["job"]["id"], first["job"]["id"]);
    assert_eq!(items(&env.json(&["jobs"])).len(), 1, "one Job for one key");
    let list = env.json(&["schedule", "list"]);
    let s = &items(&list)[0];
    assert_eq!(s["next_fire_at"], "2026-11-30T08:00:00Z", "next_fire_at unchanged");
    // The run set the due to today's local date.
    assert_eq!(env.json(&["show", "INBOX-1"])["task"]["due"], "2026-11-29");
    // Another key makes another Job; --no-wait leaves it for the daemon.
    let third = env.json(&["schedule", "run-now", "INBOX-1", "--key", "k2", "--no-wait"]);
    assert_eq!((third["created"].clone(), third["job"]["state"].clone()), (true.into(), "queued".into()));
    let d = env.json(&["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "succeeded", "{d}");
}

#[test]
fn a_due_action_reopens_a_done_task_and_sets_its_due() {
    let env = TestEnv::new();
    env.ok(&["add", "Pay rent"]);
    env.ok(&["schedule", "add", "INBOX-1", "--monthly", "last", "10:00"]);
    env.ok(&["done", "INBOX-1"]);
    let d = json_at(&env, "2026-11-30T09:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "succeeded", "{d}");
    let t = env.json(&["show", "INBOX-1"]);
    assert_eq!(t["task"]["status"], "open");
    assert_eq!(t["task"]["due"], "2026-11-30");
    assert_eq!(t["task"]["due_kind"], "day");
    let h = env.json(&["history", "INBOX-1"]);
    let last: Vec<(&str, &str)> = items(&h)
        .iter()
        .rev()
        .take(2)
        .map(|e| (e["kind"].as_str().unwrap_or(""), e["actor"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(last, [("status", "schedule:1"), ("due", "schedule:1")]);
    let j = env.json(&["jobs", "INBOX-1"]);
    assert_eq!(items(&j)[0]["artifacts"][0]["kind"], "task_change");
    assert_eq!(items(&j)[0]["runs"][0]["output"], "due 2026-11-30, reopened");
    // The firing posted into the conversation: task, trigger, time, result.
    let m = env.json(&["schedule", "messages"]);
    let text = items(&m).last().expect("a message")["text"].as_str().expect("text").to_string();
    assert_eq!(
        text,
        "INBOX-1 \"Pay rent\" · monthly last 10:00 (Europe/Berlin) · scheduled 2026-11-30 10:00 CET · Job #1 succeeded: due 2026-11-30, reopened"
    );
    // A dismissed task's schedule does not fire.
    env.ok(&["dismiss", "INBOX-1"]);
    let d = json_at(&env, "2026-12-31T09:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "skipped", "{d}");
    assert_eq!(env.json(&["show", "INBOX-1"])["task"]["status"], "dismissed");
}

#[test]
fn a_prompt_action_parks_its_job_queued_in_the_conversation() {
    let env = TestEnv::new();
    env.ok(&["add", "Morning digest"]);
    let v = env.json(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "08:00",
        "--prompt",
        "Summarize what is overdue",
        "--mode",
        "execute",
    ]);
    assert_eq!(v["schedule"]["action"]["kind"], "prompt");
    assert_eq!(v["schedule"]["action"]["mode"], "execute");
    let d = json_at(&env, "2026-11-30T07:00:05Z", &["daemon", "--once"]);
    let job = &d["jobs"][0];
    assert_eq!(job["state"], "queued");
    assert!(job["reason"].as_str().unwrap_or("").contains("run by the conversation"), "{job}");
    assert_eq!(job["snapshot"]["action"]["text"], "Summarize what is overdue");
    let q = env.json(&["schedule", "queue"]);
    assert_eq!(items(&q).len(), 1);
    assert_eq!(items(&q)[0]["kind"], "firing");
    assert_eq!(items(&q)[0]["job_id"], job["id"]);
    assert_eq!(items(&q)[0]["payload"]["mode"], "execute");
    // One active Job per schedule: the next day's firing is skipped while it waits.
    let d = json_at(&env, "2026-12-01T07:00:05Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "skipped");
    assert!(d["jobs"][0]["reason"].as_str().unwrap_or("").starts_with("overlap: Job #1"), "{d}");
}

#[test]
fn the_queue_is_fifo_survives_processes_and_allows_remove_and_promote() {
    let env = TestEnv::new();
    env.ok(&["add", "Morning digest"]);
    env.ok(&["add", "Invoice reminder"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "08:00", "--prompt", "a"]);
    env.ok(&["schedule", "add", "INBOX-2", "--daily", "08:00", "--prompt", "b"]);
    json_at(&env, "2026-11-30T07:00:05Z", &["daemon", "--once"]);
    env.ok(&["schedule", "queue", "--push", "hello"]);
    let ids = |v: &Value| items(v).iter().map(|i| i["id"].as_i64().expect("id")).collect::<Vec<_>>();
    assert_eq!(ids(&env.json(&["schedule", "queue"])), [1, 2, 3], "FIFO, read by a new process");
    let p = env.json(&["schedule", "queue", "--promote", "3"]);
    assert_eq!(p["item"]["id"], 3);
    assert_eq!(ids(&env.json(&["schedule", "queue"])), [3, 1, 2]);
    env.ok(&["schedule", "queue", "--remove", "1"]);
    assert_eq!(ids(&env.json(&["schedule", "queue"])), [3, 2]);
    assert_eq!(job_states(&env, "INBOX-1"), ["cancelled"], "removing a firing cancels its Job");
    let e = env.fails(&["schedule", "queue", "--remove", "1"], 15);
    assert_eq!(e["details"]["status"], "removed");
    env.fails(&["schedule", "queue", "--promote", "99"], 6);
}

#[test]
fn task_completed_events_fire_with_filter_dedupe_and_cooldown() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "OPS", "Operations"]);
    env.ok(&["add", "Write the weekly ops note"]);
    env.ok(&["schedule", "add", "INBOX-1", "--on", "task.completed", "--filter-project", "ops", "--cooldown", "10m"]);
    env.ok(&["add", "Rotate keys", "--project", "OPS"]);
    env.ok(&["add", "Buy milk"]);
    env.ok(&["add", "Patch servers", "--project", "OPS", "--new"]);
    env.ok(&["done", "INBOX-2"]); // not OPS: filtered out
    env.ok(&["done", "OPS-1"]);
    at(&env, "2026-11-29T12:01:00Z", &["reopen", "OPS-1"]);
    at(&env, "2026-11-29T12:02:00Z", &["done", "OPS-2"]); // within the 10 min cooldown
    let d = json_at(&env, "2026-11-29T12:03:00Z", &["daemon", "--once"]);
    let jobs = d["jobs"].as_array().expect("jobs");
    assert_eq!(jobs.len(), 1, "{d}");
    assert_eq!(jobs[0]["kind"], "event");
    assert_eq!(jobs[0]["scheduled_for"], "2026-11-29T12:00:00Z");
    // Matching is restart-safe: a second pass finds nothing new.
    let d = json_at(&env, "2026-11-29T12:04:00Z", &["daemon", "--once"]);
    assert!(d["jobs"].as_array().expect("jobs").is_empty(), "{d}");
    // After the cooldown, a completion fires again.
    at(&env, "2026-11-29T12:30:00Z", &["done", "OPS-1"]);
    let d = json_at(&env, "2026-11-29T12:31:00Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"].as_array().expect("jobs").len(), 1, "{d}");
}

#[test]
fn jobs_lists_with_runs_and_filters() {
    let env = TestEnv::new();
    env.ok(&["add", "a"]);
    env.ok(&["add", "b"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00"]);
    env.ok(&["schedule", "add", "INBOX-2", "--daily", "09:00"]);
    json_at(&env, "2026-11-30T08:00:05Z", &["daemon", "--once"]);
    assert_eq!(items(&env.json(&["jobs"])).len(), 2);
    let j = env.json(&["jobs", "INBOX-2"]);
    assert_eq!(items(&j).len(), 1);
    let job = &items(&j)[0];
    for key in
        ["id", "schedule_id", "task", "kind", "key", "plan_version", "scheduled_for", "state", "snapshot", "runs"]
    {
        assert!(job.get(key).is_some(), "job has {key}: {job}");
    }
    assert_eq!(job["key"], format!("2:1:{}", 1_796_025_600_000_i64));
    assert_eq!(job["runs"][0]["state"], "succeeded");
    assert_eq!(items(&env.json(&["jobs", "--state", "failed"])).len(), 0);
    env.fails(&["jobs", "--state", "exploded"], 2);
    let one = env.json(&["jobs", "--id", "1"]);
    assert_eq!(one["job"]["id"], 1);
}
