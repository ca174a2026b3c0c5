//! The schedule rows' tests, beside the module they test (kept apart so the rows
//! read on one screen).

use jiff::SignedDuration;
use jiff::civil::{Time, Weekday, date};
use tasks_schedule::{MonthDay, Trigger};

use super::*;
use crate::model::schedule::{CommandAction, EventFilter, EventKind, EventTrigger, PromptAction, PromptMode};
use crate::store::{Store, conversations};

/// 2026-11-29T12:00:00Z, the clock of every write here.
const NOW: i64 = 1_795_953_600_000;

/// A store with tasks 1..=n and the local conversation (id 1).
fn store_with_tasks(dir: &std::path::Path, n: usize) -> Store {
    let mut store = Store::open(&dir.join("t.db")).expect("store");
    for i in 0..n {
        crate::fixtures::add_task(&mut store, NOW, &format!("scheduled thing {i}"));
    }
    store.write(|tx| conversations::local_conversation(tx, "local", NOW)).expect("conversation");
    store
}

fn daily(hour: i8) -> When {
    When::Time(Trigger::Daily { time: Time::constant(hour, 0, 0, 0) })
}

fn on_completion() -> When {
    When::Event(EventTrigger {
        event: EventKind::TaskCompleted,
        filter: EventFilter::default(),
        dedupe_seconds: 60,
        cooldown_seconds: 0,
    })
}

/// The values of a schedule on a task with everything but the trigger and next firing fixed.
fn new_schedule<'a>(task_id: i64, when: &'a When, next_fire_at: Option<i64>) -> NewSchedule<'a> {
    NewSchedule {
        task_id,
        when,
        zone: "UTC",
        missed: &MissedPolicy::RunOnce,
        action: &Action::Due,
        next_fire_at,
        event_cursor: 0,
        max_active: 1,
        conversation_id: 1,
        actor: "tester",
        now: NOW,
    }
}

fn insert(store: &mut Store, task_id: i64, when: &When, next_fire_at: Option<i64>) -> i64 {
    store.write(|tx| insert_schedule(tx, &new_schedule(task_id, when, next_fire_at))).expect("insert")
}

fn ids(schedules: &[Schedule]) -> Vec<i64> {
    schedules.iter().map(|s| s.id).collect()
}

#[track_caller]
fn check_round_trip(when: When, zone: &str, missed: MissedPolicy, action: Action) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let new = NewSchedule { zone, missed: &missed, action: &action, ..new_schedule(1, &when, Some(NOW + 1)) };
    let id = store.write(|tx| insert_schedule(tx, &new)).expect("insert");
    let read = schedule(store.conn(), id).expect("read");
    assert_eq!((read.when, read.zone.as_str(), read.missed, read.action), (when, zone, missed, action));
}

#[test]
fn every_trigger_policy_and_action_reads_back_as_written() {
    let nine = Time::constant(9, 0, 0, 0);
    let at = date(2026, 12, 24).at(18, 30, 0, 0);
    let catch_up = MissedPolicy::CatchUp { max_runs: 3, max_age: SignedDuration::from_hours(48) };
    let command = Action::Command(CommandAction {
        argv: vec!["backup".into(), "--all".into()],
        workdir: "/srv".into(),
        env_allow: vec!["HOME".into()],
        timeout_seconds: 600,
        output_budget_bytes: 65_536,
    });
    let prompt = Action::Prompt(PromptAction {
        text: "Summarize the week".into(),
        mode: PromptMode::Execute,
        tools: "tasks".into(),
        approval: "writes".into(),
        timeout_seconds: 300,
        max_tool_calls: 20,
        output_budget_bytes: 1024,
        max_model_calls: 6,
    });
    let filtered = When::Event(EventTrigger {
        event: EventKind::JobFailed,
        filter: EventFilter { project: Some("HRB".into()), tag: Some("x".into()), task_type: Some("bug".into()) },
        dedupe_seconds: 0,
        cooldown_seconds: 3600,
    });
    check_round_trip(daily(9), "UTC", MissedPolicy::Skip, Action::Due);
    check_round_trip(When::Time(Trigger::Once { at }), "Europe/Berlin", MissedPolicy::RunOnce, Action::Due);
    check_round_trip(When::Time(Trigger::workdays(nine)), "America/New_York", catch_up, command.clone());
    check_round_trip(
        When::Time(Trigger::Weekly { weekdays: vec![Weekday::Sunday], time: nine }),
        "Asia/Tokyo",
        MissedPolicy::Skip,
        prompt.clone(),
    );
    check_round_trip(When::Time(Trigger::Monthly { day: MonthDay::Last, time: nine }), "UTC", catch_up, Action::Due);
    check_round_trip(When::Time(Trigger::Monthly { day: MonthDay::Day(31), time: nine }), "UTC", catch_up, command);
    check_round_trip(When::Time(Trigger::Cron { expression: "*/30 9-18 * * 1-5".into() }), "UTC", catch_up, prompt);
    check_round_trip(on_completion(), "Europe/Madrid", MissedPolicy::RunOnce, Action::Due);
    check_round_trip(filtered, "UTC", MissedPolicy::RunOnce, Action::Due);
}

#[test]
fn a_new_schedule_starts_live_unpaused_at_plan_version_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 2);
    let when = daily(9);
    let new = NewSchedule { event_cursor: 7, max_active: 3, ..new_schedule(2, &when, Some(NOW + 5)) };
    let id = store.write(|tx| insert_schedule(tx, &new)).expect("insert");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.task_id, s.task_key.as_str(), s.task_title.as_str()), (2, "INBOX-2", "scheduled thing 1"));
    assert_eq!((s.plan_version, s.paused, s.removed_at), (1, false, None));
    assert_eq!((s.next_fire_at, s.event_cursor, s.max_active, s.conversation_id), (Some(NOW + 5), 7, 3, 1));
    assert_eq!((s.created_at, s.updated_at, s.created_by.as_str()), (NOW, NOW, "tester"));
    assert_eq!(live_schedule_of_task(store.conn(), 2).expect("read").map(|s| s.id), Some(id));
    assert_eq!(live_schedule_of_task(store.conn(), 1).expect("read"), None, "task 1 has no schedule");
}

#[test]
fn replacing_bumps_the_plan_version_and_keeps_the_paused_flag_and_creation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let id = insert(&mut store, 1, &daily(9), Some(NOW + 1));
    store.write(|tx| set_paused(tx, id, true, Some(NOW + 1), 0, NOW + 10)).expect("pause");
    let when = daily(17);
    let later = NOW + 1000;
    let new = NewSchedule { zone: "Europe/Berlin", now: later, ..new_schedule(1, &when, Some(NOW + 2)) };
    store.write(|tx| replace_schedule(tx, id, &new)).expect("replace");
    store.write(|tx| replace_schedule(tx, id, &new)).expect("replace again");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.when, s.zone.as_str(), s.next_fire_at), (when, "Europe/Berlin", Some(NOW + 2)));
    assert_eq!(s.plan_version, 3, "every replace bumps the version");
    assert!(s.paused, "replacing does not resume");
    assert_eq!((s.created_at, s.updated_at), (NOW, later));
    assert_eq!(ids(&list_schedules(store.conn(), true).expect("list")), [id], "replaced in place, no new row");
}

#[test]
fn removed_schedules_are_listed_only_when_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 3);
    let a = insert(&mut store, 1, &daily(9), Some(NOW));
    let b = insert(&mut store, 2, &daily(9), Some(NOW));
    let c = insert(&mut store, 3, &on_completion(), None);
    store.write(|tx| set_removed(tx, b, "tester", NOW + 1)).expect("remove");
    assert_eq!(ids(&list_schedules(store.conn(), false).expect("list")), [a, c]);
    assert_eq!(ids(&list_schedules(store.conn(), true).expect("list")), [a, b, c]);
}

#[test]
fn only_live_unpaused_time_schedules_whose_firing_has_come_are_due() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 7);
    let later_due = insert(&mut store, 1, &daily(9), Some(NOW - 10));
    let exactly_now = insert(&mut store, 2, &daily(9), Some(NOW));
    let earlier_due = insert(&mut store, 3, &daily(9), Some(NOW - 20));
    insert(&mut store, 4, &daily(9), Some(NOW + 1)); // not yet
    insert(&mut store, 5, &daily(9), None); // no firing left
    let paused = insert(&mut store, 6, &daily(9), Some(NOW - 30));
    let removed = insert(&mut store, 7, &daily(9), Some(NOW - 30));
    store
        .write(|tx| {
            set_paused(tx, paused, true, Some(NOW - 30), 0, NOW)?;
            set_removed(tx, removed, "tester", NOW)
        })
        .expect("pause and remove");
    assert_eq!(due_time_schedules(store.conn(), NOW).expect("due"), [earlier_due, later_due, exactly_now]);
    assert_eq!(due_time_schedules(store.conn(), NOW - 21).expect("due"), Vec::<i64>::new());
}

#[test]
fn an_event_schedule_is_never_due_by_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let id = insert(&mut store, 1, &on_completion(), Some(NOW - 1));
    assert_eq!(due_time_schedules(store.conn(), NOW).expect("due"), Vec::<i64>::new());
    assert_eq!(ids(&event_schedules(store.conn()).expect("events")), [id]);
}

#[test]
fn pausing_and_resuming_set_where_planning_and_matching_continue() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let id = insert(&mut store, 1, &daily(9), Some(NOW));
    store.write(|tx| set_paused(tx, id, true, None, 4, NOW + 1)).expect("pause");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.paused, s.next_fire_at, s.event_cursor, s.updated_at), (true, None, 4, NOW + 1));
    store.write(|tx| set_paused(tx, id, false, Some(NOW + 9), 5, NOW + 2)).expect("resume");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.paused, s.next_fire_at, s.event_cursor, s.updated_at), (false, Some(NOW + 9), 5, NOW + 2));
}

#[test]
fn paused_and_removed_schedules_neither_match_events_nor_wake_the_runner() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 4);
    let live = insert(&mut store, 1, &on_completion(), None);
    let paused = insert(&mut store, 2, &on_completion(), None);
    insert(&mut store, 3, &daily(9), Some(NOW + 50));
    let early = insert(&mut store, 4, &daily(9), Some(NOW + 10));
    store.write(|tx| set_paused(tx, paused, true, None, 0, NOW)).expect("pause");
    assert_eq!(ids(&event_schedules(store.conn()).expect("events")), [live]);
    assert_eq!(earliest_next_fire(store.conn()).expect("earliest"), Some(NOW + 10));
    store.write(|tx| set_paused(tx, early, true, Some(NOW + 10), 0, NOW)).expect("pause");
    assert_eq!(earliest_next_fire(store.conn()).expect("earliest"), Some(NOW + 50));
    store.write(|tx| set_removed(tx, live, "tester", NOW)).expect("remove");
    assert!(event_schedules(store.conn()).expect("events").is_empty());
}

#[test]
fn a_removed_schedule_stays_readable_and_records_who_removed_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let old = insert(&mut store, 1, &daily(9), Some(NOW));
    store.write(|tx| set_removed(tx, old, "remover", NOW + 3)).expect("remove");
    let s = schedule(store.conn(), old).expect("read");
    assert_eq!((s.removed_at, s.updated_at), (Some(NOW + 3), NOW + 3));
    let by: String = store
        .conn()
        .query_row("SELECT removed_by FROM schedules WHERE id = ?1", [old], |r| r.get(0))
        .expect("removed_by");
    assert_eq!(by, "remover");
    assert_eq!(live_schedule_of_task(store.conn(), 1).expect("read"), None);
    assert_eq!(latest_schedule_of_task(store.conn(), 1).expect("read").map(|s| s.id), Some(old));
    // A task's live schedule is its latest even though a removed one existed before.
    let new = insert(&mut store, 1, &daily(10), Some(NOW));
    assert_eq!(live_schedule_of_task(store.conn(), 1).expect("read").map(|s| s.id), Some(new));
    assert_eq!(latest_schedule_of_task(store.conn(), 1).expect("read").map(|s| s.id), Some(new));
}

#[test]
fn a_task_has_at_most_one_live_schedule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    insert(&mut store, 1, &daily(9), Some(NOW));
    let second = store.write(|tx| insert_schedule(tx, &new_schedule(1, &daily(10), Some(NOW))));
    assert!(second.is_err(), "the unique live index refuses a second live schedule");
}

#[test]
fn moving_the_event_cursor_is_not_an_edit_but_replanning_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let id = insert(&mut store, 1, &on_completion(), None);
    store.write(|tx| set_event_cursor(tx, id, 42)).expect("cursor");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.event_cursor, s.updated_at), (42, NOW));
    store.write(|tx| set_next_fire_at(tx, id, Some(NOW + 7), NOW + 1)).expect("next");
    let s = schedule(store.conn(), id).expect("read");
    assert_eq!((s.next_fire_at, s.updated_at), (Some(NOW + 7), NOW + 1));
}

#[test]
fn the_last_task_event_is_where_a_new_event_trigger_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 0);
    assert_eq!(last_task_event_id(store.conn()).expect("last"), 0, "no events yet");
    crate::fixtures::add_task(&mut store, NOW, "Water the plants");
    let newest: i64 =
        store.conn().query_row("SELECT max(id) FROM task_events", [], |r| r.get(0)).expect("newest event");
    assert!(newest > 0);
    assert_eq!(last_task_event_id(store.conn()).expect("last"), newest);
}

#[test]
fn an_unreadable_stored_trigger_is_an_error_naming_the_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = store_with_tasks(dir.path(), 1);
    let id = insert(&mut store, 1, &daily(9), Some(NOW));
    store
        .write(|tx| Ok(tx.execute("UPDATE schedules SET trigger = '{\"type\":\"hourly\"}' WHERE id = ?1", [id])?))
        .expect("corrupt");
    let err = schedule(store.conn(), id).expect_err("an unknown trigger type is refused").to_string();
    assert!(err.contains("unreadable trigger in the store"), "{err}");
    assert!(list_schedules(store.conn(), true).is_err(), "the list refuses it too, without a panic");
}
