//! Scheduled tasks through `ops::schedule` on a real SQLite file (issue 5): planning is
//! idempotent and persists `next_fire_at`, a DST fold fires once at the daemon level,
//! replacing bumps the plan version while made Jobs keep their snapshot, remove cancels
//! what has not started, recovery spares prompt Jobs, the queue's interrupt-and-promote,
//! and the event dedupe window.
//!
//! On SQLite only: schedules, Jobs and Runs are not part of the store's port yet (the
//! team store plans time schedules through `tasks_pg::schedule`; issue 34's next step).

use jiff::Timestamp;
use jiff::civil::Time;
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::schedule::manage::{self, AddRequest as ScheduleRequest};
use tasks_core::ops::schedule::{
    Action, EventFilter, EventKind, EventTrigger, JobState, PromptAction, PromptMode, When, fire, queue, run,
};
use tasks_core::ops::status;
use tasks_core::{Context, Store};
use tasks_schedule::{MissedPolicy, Trigger};

struct Env {
    _dir: tempfile::TempDir,
    store: Store,
}

fn env() -> Env {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&dir.path().join("tasks.db")).expect("open store");
    Env { _dir: dir, store }
}

fn ctx(now: &str) -> Context {
    let now: Timestamp = now.parse().expect("valid instant");
    Context::new(now, "tester", jiff::tz::TimeZone::UTC)
}

fn task(env: &mut Env, title: &str) -> String {
    let mut req = AddRequest::titled(title);
    req.dup_choice = DupChoice::New;
    add::add(&mut env.store, &ctx("2026-10-01T00:00:00Z"), &req).expect("add").task.key
}

fn schedule(env: &mut Env, key: &str, when: When, zone: &str, action: Action, now: &str) {
    let req = ScheduleRequest {
        task: key.into(),
        when,
        zone: zone.into(),
        missed: MissedPolicy::RunOnce,
        action,
        max_active: 1,
        conversation: None,
        replace: false,
    };
    manage::add(&mut env.store, &ctx(now), &req).expect("schedule");
}

fn daily(h: i8, m: i8) -> When {
    When::Time(Trigger::Daily { time: Time::constant(h, m, 0, 0) })
}

fn prompt(text: &str) -> Action {
    Action::Prompt(PromptAction {
        text: text.into(),
        mode: PromptMode::Ask,
        tools: "read_only".into(),
        approval: "never".into(),
        timeout_seconds: 60,
        max_tool_calls: 5,
        output_budget_bytes: 1024,
        max_model_calls: 6,
    })
}

/// Runs every startable due Job at `now` (the daemon's loop without processes).
fn run_due_jobs(env: &mut Env, now: &str) {
    while let Some(started) = run::start_next(&mut env.store, &ctx(now), &[], &lease()).expect("start") {
        run::apply_due(&mut env.store, &ctx(now), &started).expect("apply");
    }
}

#[test]
fn planning_is_idempotent_and_persists_next_fire_at() {
    let mut env = env();
    let key = task(&mut env, "Water the plants");
    schedule(&mut env, &key, daily(9, 0), "Europe/Berlin", Action::Due, "2026-11-29T12:00:00Z");
    let now = "2026-11-30T08:00:30Z";
    let first = fire::plan_due(&mut env.store, &ctx(now)).expect("plan");
    assert_eq!(first.jobs.len(), 1);
    let again = fire::plan_due(&mut env.store, &ctx(now)).expect("plan");
    assert!(again.jobs.is_empty(), "a second pass at the same time makes nothing");
    let s = manage::for_task(&env.store, &key).expect("schedule");
    assert_eq!(s.next_fire_at, Some(1_796_112_000_000), "2026-12-01T08:00:00Z");
    run_due_jobs(&mut env, now);
    let jobs = manage::jobs(&env.store, Some(&key), None, 10).expect("jobs");
    assert_eq!(jobs[0].job.state, JobState::Succeeded);
    assert_eq!(jobs[0].runs.len(), 1);
}

#[test]
fn a_fall_back_fold_fires_once_at_the_daemon() {
    let mut env = env();
    let key = task(&mut env, "Night job");
    // 2026-11-01 01:30 happens twice in New York: 05:30Z (EDT) and 06:30Z (EST).
    schedule(&mut env, &key, daily(1, 30), "America/New_York", Action::Due, "2026-10-31T12:00:00Z");
    let mut made = 0;
    for now in ["2026-11-01T05:30:10Z", "2026-11-01T06:00:00Z", "2026-11-01T06:30:10Z", "2026-11-01T07:00:00Z"] {
        made += fire::plan_due(&mut env.store, &ctx(now)).expect("plan").jobs.len();
        run_due_jobs(&mut env, now);
    }
    assert_eq!(made, 1, "the repeated 01:30 fires on its first pass only");
    let s = manage::for_task(&env.store, &key).expect("schedule");
    assert_eq!(tasks_core::time::rfc3339(s.next_fire_at.expect("next")), "2026-11-02T06:30:00Z");
}

#[test]
fn replacing_bumps_the_plan_version_and_made_jobs_keep_their_snapshot() {
    let mut env = env();
    let key = task(&mut env, "Digest");
    schedule(&mut env, &key, daily(8, 0), "UTC", prompt("old prompt"), "2026-11-29T00:00:00Z");
    let made = fire::plan_due(&mut env.store, &ctx("2026-11-29T08:00:05Z")).expect("plan");
    assert_eq!(made.jobs[0].idempotency_key, "1:1:1795939200000");
    let req = ScheduleRequest {
        task: key.clone(),
        when: daily(8, 0),
        zone: "UTC".into(),
        missed: MissedPolicy::Skip,
        action: prompt("new prompt"),
        max_active: 2,
        conversation: None,
        replace: true,
    };
    let out = manage::add(&mut env.store, &ctx("2026-11-29T09:00:00Z"), &req).expect("replace");
    assert_eq!(out.schedule.plan_version, 2);
    let made = fire::plan_due(&mut env.store, &ctx("2026-11-30T08:00:05Z")).expect("plan");
    assert_eq!(made.jobs[0].plan_version, 2);
    assert!(made.jobs[0].idempotency_key.starts_with("1:2:"));
    let jobs = manage::jobs(&env.store, Some(&key), None, 10).expect("jobs");
    let texts: Vec<String> = jobs
        .iter()
        .map(|d| match &d.job.snapshot.action {
            Action::Prompt(p) => p.text.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(texts, ["new prompt", "old prompt"], "newest first; the first Job kept its snapshot");
}

#[test]
fn remove_cancels_jobs_that_have_not_started() {
    let mut env = env();
    let key = task(&mut env, "Digest");
    schedule(&mut env, &key, daily(8, 0), "UTC", prompt("p"), "2026-11-29T00:00:00Z");
    fire::plan_due(&mut env.store, &ctx("2026-11-29T08:00:05Z")).expect("plan");
    let out = manage::remove(&mut env.store, &ctx("2026-11-29T09:00:00Z"), &key).expect("remove");
    assert_eq!(out.cancelled.len(), 1);
    assert_eq!(out.cancelled[0].state, JobState::Cancelled);
    assert!(queue::list(&env.store, None).expect("queue").is_empty(), "its queue item went too");
}

#[test]
fn recovery_interrupts_daemon_jobs_and_spares_prompt_jobs() {
    let mut env = env();
    let a = task(&mut env, "Plants");
    let b = task(&mut env, "Digest");
    schedule(&mut env, &a, daily(8, 0), "UTC", Action::Due, "2026-11-29T00:00:00Z");
    schedule(&mut env, &b, daily(8, 0), "UTC", prompt("p"), "2026-11-29T00:00:00Z");
    let now = "2026-11-29T08:00:05Z";
    fire::plan_due(&mut env.store, &ctx(now)).expect("plan");
    // A daemon starts the due Job and dies; the conversation starts the prompt Job.
    run::start_next(&mut env.store, &ctx(now), &[], &lease()).expect("start").expect("a due Job");
    let conv = queue::list(&env.store, None).expect("queue")[0].conversation_id;
    queue::take_next(&mut env.store, &ctx(now), conv).expect("take").expect("an item");
    let recovered = run::recover(&mut env.store, &ctx("2026-11-29T08:10:00Z")).expect("recover");
    assert_eq!(recovered.len(), 1);
    assert_eq!(recovered[0].task_key, a);
    assert_eq!(recovered[0].state, JobState::Interrupted);
    let prompt_job = &manage::jobs(&env.store, Some(&b), None, 1).expect("jobs")[0];
    assert_eq!(prompt_job.job.state, JobState::Running, "the conversation's Job is not the daemon's");
    assert!(run::start_next(&mut env.store, &ctx("2026-11-29T08:10:00Z"), &[], &lease()).expect("start").is_none());
}

#[test]
fn promote_moves_an_item_to_the_head_and_interrupts_the_running_one() {
    let mut env = env();
    let a = task(&mut env, "Digest");
    schedule(&mut env, &a, daily(8, 0), "UTC", prompt("p"), "2026-11-29T00:00:00Z");
    let now = "2026-11-29T08:00:05Z";
    fire::plan_due(&mut env.store, &ctx(now)).expect("plan");
    let m1 = queue::push_message(&mut env.store, &ctx(now), None, "first").expect("push");
    let m2 = queue::push_message(&mut env.store, &ctx(now), None, "second").expect("push");
    let running = queue::take_next(&mut env.store, &ctx(now), m1.conversation_id).expect("take").expect("head");
    assert_eq!(running.kind, tasks_core::model::conversation::QueueKind::Firing, "FIFO: the firing came first");
    let p = queue::promote(&mut env.store, &ctx(now), m2.id).expect("promote");
    assert_eq!(p.interrupted.iter().map(|i| i.id).collect::<Vec<_>>(), [running.id]);
    let order: Vec<i64> = queue::list(&env.store, None).expect("queue").iter().map(|i| i.id).collect();
    assert_eq!(order, [m2.id, m1.id]);
    let job = &manage::jobs(&env.store, Some(&a), None, 1).expect("jobs")[0];
    assert_eq!(job.job.state, JobState::Interrupted);
    assert_eq!(job.runs.len(), 1);
    let next = queue::take_next(&mut env.store, &ctx(now), m1.conversation_id).expect("take").expect("head");
    assert_eq!(next.id, m2.id);
    assert!(queue::take_next(&mut env.store, &ctx(now), m1.conversation_id).expect("take").is_none(), "one at a time");
    queue::finish(&mut env.store, &ctx(now), m2.id).expect("finish");
    assert_eq!(queue::list(&env.store, None).expect("queue").len(), 1);
}

#[test]
fn the_dedupe_window_collapses_repeated_completions_of_one_task() {
    let mut env = env();
    let watcher = task(&mut env, "Log what got done");
    let work = task(&mut env, "Ship it");
    let when = When::Event(EventTrigger {
        event: EventKind::TaskCompleted,
        filter: EventFilter::default(),
        dedupe_seconds: 600,
        cooldown_seconds: 0,
    });
    schedule(&mut env, &watcher, when, "UTC", Action::Due, "2026-11-29T00:00:00Z");
    status::done(&mut env.store, &ctx("2026-11-29T10:00:00Z"), &work).expect("done");
    status::reopen(&mut env.store, &ctx("2026-11-29T10:01:00Z"), &work).expect("reopen");
    status::done(&mut env.store, &ctx("2026-11-29T10:02:00Z"), &work).expect("done again");
    let made = fire::plan_due(&mut env.store, &ctx("2026-11-29T10:05:00Z")).expect("plan");
    assert_eq!(made.jobs.len(), 1, "two completions within 10 minutes make one Job");
    status::reopen(&mut env.store, &ctx("2026-11-29T11:00:00Z"), &work).expect("reopen");
    status::done(&mut env.store, &ctx("2026-11-29T11:00:00Z"), &work).expect("done later");
    let made = fire::plan_due(&mut env.store, &ctx("2026-11-29T11:05:00Z")).expect("plan");
    assert_eq!(made.jobs.len(), 1, "outside the window it fires again");
}

/// The lease of the one daemon these tests play.
fn lease() -> run::Lease {
    run::Lease { owner: "test-host:1:0".into(), length_ms: tasks_core::ops::schedule::limits::JOB_LEASE_MS }
}
