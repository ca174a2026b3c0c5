//! One snapshot per JSON shape of the contract (`wire`), built from real outcomes of
//! `ops` on a temp store with a fixed clock — the shapes every edge (CLI, MCP, chat,
//! bot, web) prints. A change to a shape shows up here first, as a snapshot diff.
//!
//! UUIDs are random in their low bits, so they are replaced by `[uuid]` before the
//! snapshot; everything else is deterministic.
//!
//! On SQLite only: the shapes are the engine-free `wire` functions; the both-engine
//! CLI test `test_team` compares the same JSON from both stores field for field.

use jiff::Timestamp;
use jiff::civil::Time;
use serde_json::Value;
use tasks_core::model::LinkKind;
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::ops::schedule::manage::{self, AddRequest as ScheduleRequest};
use tasks_core::ops::schedule::{Action, When, fire, queue};
use tasks_core::ops::{duplicates, link, project, query, status};
use tasks_core::{Context, Store, claims, wire};
use tasks_schedule::{MissedPolicy, Trigger};

const NOW: &str = "2026-11-30T09:00:00Z";

fn ctx_at(now: &str) -> Context {
    Context::new(now.parse::<Timestamp>().expect("instant"), "tester", jiff::tz::TimeZone::UTC)
}

fn ctx() -> Context {
    ctx_at(NOW)
}

struct Env {
    _dir: tempfile::TempDir,
    store: Store,
}

fn env() -> Env {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&dir.path().join("tasks.db")).expect("store");
    Env { _dir: dir, store }
}

fn add_new(env: &mut Env, title: &str) -> add::AddOutcome {
    let mut req = AddRequest::titled(title);
    req.dup_choice = DupChoice::New;
    add::add(&mut env.store, &ctx(), &req).expect("add")
}

/// Replaces every UUID string (36 chars, dashes at 8/13/18/23) by `[uuid]`.
fn redact(v: Value) -> Value {
    match v {
        Value::String(s)
            if s.len() == 36
                && s.char_indices()
                    .all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() }) =>
        {
            Value::String("[uuid]".into())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(redact).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, redact(v))).collect()),
        other => other,
    }
}

macro_rules! shape {
    ($name:literal, $value:expr) => {
        insta::assert_json_snapshot!($name, redact($value))
    };
}

#[test]
fn task_shapes() {
    let mut env = env();
    project::add(&mut env.store, &ctx(), "HRB", "Harbor app", "the mobile app").expect("project");
    let mut req = AddRequest::titled("Write the login screen");
    req.project = Some("HRB".into());
    req.priority = Some(1);
    req.tags = vec!["ui".into()];
    req.amount = Some(tasks_core::input::parse_amount("1 200,50 EUR").expect("amount"));
    let first = add::add(&mut env.store, &ctx(), &req).expect("add");
    shape!("added", wire::added(&first, ctx().now_ms(), false));
    let second = add_new(&mut env, "Test the login screen");
    let linked =
        link::link(&mut env.store, &ctx(), &second.task.key, LinkKind::BlockedBy, &first.task.key).expect("link");
    shape!("linked", wire::linked(&linked, ctx().now_ms()));
    let (tagged, changed) = status::tag(&mut env.store, &ctx(), &second.task.key, &["qa".into()]).expect("tag");
    shape!("tagged", wire::tagged(&tagged, &changed, ctx().now_ms()));
    let claimed = claims::claim(&mut env.store, &ctx(), &first.task.key, claims::DEFAULT_LEASE).expect("claim");
    shape!("task_only", wire::task_only(&claimed, ctx().now_ms()));
    let done = status::done(&mut env.store, &ctx(), &first.task.key).expect("done");
    shape!("status_changed", wire::status_changed(&done, ctx().now_ms()));
    let filter = query::to_filter(&env.store, &Default::default()).expect("filter").expect("some");
    let next = claims::next(&mut env.store, &ctx(), filter, claims::DEFAULT_LEASE, "").expect("next");
    shape!("next", wire::next(&next, true, ctx().now_ms()));
    let (task, events) = query::history(&env.store, &first.task.key).expect("history");
    shape!("history", wire::history(&task, &events, ctx().now_ms()));
    shape!("task_detail", wire::task_detail(&query::show(&env.store, &second.task.key).expect("show"), ctx().now_ms()));
    shape!("project_list", wire::project_list(&project::list(&env.store).expect("projects")));
    shape!("graph", wire::graph(&query::neighbourhood(&env.store, &second.task.key).expect("graph"), ctx().now_ms()));
}

#[test]
fn daily_use_shapes() {
    let mut env = env();
    let a = add_new(&mut env, "Pay the rent").task.key;
    let b = add_new(&mut env, "Call the bank").task.key;
    let noted = tasks_core::ops::note::add(&mut env.store, &ctx(), &a, "landlord wants it by the 3rd").expect("note");
    shape!("noted", wire::noted(&noted, ctx().now_ms()));
    let outs = status::done_many(&mut env.store, &ctx(), &[a.as_str(), b.as_str()], false).expect("done");
    shape!("statuses_changed", wire::statuses_changed(&outs, ctx().now_ms()));
    let undone = tasks_core::ops::undo::undo(&mut env.store, &ctx()).expect("undo");
    shape!("undone", wire::undone(&undone, ctx().now_ms(), false));
    let req = tasks_core::ops::edit::EditRequest {
        due: Some(Some(tasks_core::input::parse_due_at("tomorrow 15:00", &ctx()).expect("due"))),
        ..Default::default()
    };
    let edited = tasks_core::ops::edit::edit(&mut env.store, &ctx(), &a, &req).expect("edit");
    shape!("edited", wire::edited(&edited, &["due: none → Tue 1 Dec 15:00".to_string()], false, ctx().now_ms()));
    let agent =
        Context::new("2026-11-30T08:50:00Z".parse::<Timestamp>().expect("instant"), "agent-7", jiff::tz::TimeZone::UTC);
    claims::claim(&mut env.store, &agent, &b, claims::DEFAULT_LEASE).expect("claim");
    let agenda = query::agenda_view(&env.store, &ctx(), query::AgendaView::Inbox, false, None).expect("agenda");
    shape!("agenda", wire::agenda(&agenda, ctx().today(), ctx().now_ms()));
}

#[test]
fn duplicate_check_shapes() {
    let mut env = env();
    let mut req = AddRequest::titled("Send the invoice for 15000 ₽");
    req.person = Some("@ivan".into());
    req.dup_choice = DupChoice::New;
    let earlier = add::add(&mut env.store, &ctx(), &req).expect("add");
    let mut again = AddRequest::titled("Send the invoice for 15 000 ₽ by Friday");
    again.person = Some("@ivan".into());
    let refused = add::add(&mut env.store, &ctx(), &again).expect_err("a probable duplicate");
    shape!("error_probable_duplicate", wire::error(&refused));
    let candidates = duplicates::check(&env.store, &ctx(), &again, true).expect("check");
    shape!("check_all", wire::check(&candidates, true));
    again.dup_choice = DupChoice::New;
    let later = add::add(&mut env.store, &ctx(), &again).expect("add anyway");
    let merged = duplicates::merge(&mut env.store, &ctx(), &later.task.key, &earlier.task.key).expect("merge");
    shape!("merged", wire::merged(&merged, ctx().now_ms()));
    let third = add_new(&mut env, "Book the dentist");
    let (a, b) = duplicates::reject(&mut env.store, &ctx(), &third.task.key, &earlier.task.key).expect("reject");
    shape!("rejected", wire::rejected(&a, &b, ctx().now_ms()));
}

#[test]
fn import_shapes() {
    let mut env = env();
    let lines = concat!(
        r#"{"id": "a1", "title": "Pay the rent for May", "created_at": "2026-11-01T10:00:00Z", "amount": "900 EUR"}"#,
        "\n",
        r#"{"id": "a2", "title": "Pay the rent for May", "created_at": "2026-11-02T10:00:00Z", "amount": "900 EUR"}"#,
        "\n",
    );
    let opts = ImportOptions { check_report: true, ..ImportOptions::default() };
    let out = import::import_text(&mut env.store, &ctx(), lines, &opts, &mut |_| {}).expect("import");
    shape!("imported", wire::imported(&out));
    shape!("check_report_line", wire::check_report_line(&out.report[1]));
}

#[test]
fn schedule_shapes() {
    let mut env = env();
    let key = add_new(&mut env, "Water the plants").task.key;
    let req = ScheduleRequest {
        task: key.clone(),
        when: When::Time(Trigger::Daily { time: Time::constant(9, 0, 0, 0) }),
        zone: "Europe/Berlin".into(),
        missed: MissedPolicy::RunOnce,
        action: Action::Due,
        max_active: 1,
        conversation: None,
        replace: false,
    };
    let added = manage::add(&mut env.store, &ctx(), &req).expect("schedule");
    shape!("schedule_added", wire::schedule_added(&added));
    shape!("schedule_list", wire::schedule_list(&manage::list(&env.store, false).expect("list")));
    let run = manage::run_now(&mut env.store, &ctx(), &key, "click-1").expect("run now");
    let detail = manage::job(&env.store, run.job.id).expect("job");
    shape!("run_now", wire::run_now(&detail, run.created));
    fire::plan_due(&mut env.store, &ctx_at("2026-12-01T08:00:30Z")).expect("plan");
    shape!("job_list", wire::job_list(&manage::jobs(&env.store, Some(&key), None, 10).expect("jobs")));
    let item = queue::push_message(&mut env.store, &ctx(), None, "what is due today?").expect("push");
    shape!("queue_one", wire::queue_one(&item));
    shape!("queue_list", wire::queue_list(&queue::list(&env.store, None).expect("queue")));
    shape!("message_list", wire::message_list(&queue::messages(&env.store, None, 10).expect("messages")));
    let paused = manage::pause(&mut env.store, &ctx(), &key).expect("pause");
    shape!("schedule_changed", wire::schedule_changed(&paused));
    let (s, firings) = manage::preview(&env.store, &key, ctx().now, 3).expect("preview");
    shape!("preview", wire::preview(&firings, &s.zone, &s.when));
}

#[test]
fn error_shapes() {
    let mut env = env();
    let a = add_new(&mut env, "Write the docs").task.key;
    let b = add_new(&mut env, "Review the docs").task.key;
    link::link(&mut env.store, &ctx(), &b, LinkKind::BlockedBy, &a).expect("link");
    let cycle = link::link(&mut env.store, &ctx(), &a, LinkKind::BlockedBy, &b).expect_err("cycle");
    shape!("error_cycle", wire::error(&cycle));
    claims::claim(&mut env.store, &ctx_at(NOW), &a, claims::DEFAULT_LEASE).expect("claim");
    let other = Context::new(ctx().now, "agent-7", jiff::tz::TimeZone::UTC);
    let held = claims::claim(&mut env.store, &other, &a, claims::DEFAULT_LEASE).expect_err("held");
    shape!("error_claimed", wire::error(&held));
    let missing = query::get(&env.store, "HRB-404").expect_err("missing");
    shape!("error_not_found", wire::error(&missing));
}
