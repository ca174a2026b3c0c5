//! Fixtures for the core's unit tests: tasks, schedules and Jobs made through the
//! operations a user would call, so a lower layer's tests (the store's) can set the
//! scene without importing `ops` themselves. Test-only (`cfg(test)`).

use jiff::civil::Time;
use tasks_schedule::{MissedPolicy, Trigger};

use crate::model::schedule::{Action, When};
use crate::ops::Context;
use crate::ops::add::{self, AddRequest, DupChoice};
use crate::ops::schedule::manage;
use crate::store::Store;

/// Returns a context at `now_ms` for the actor `tester`, in UTC.
pub(crate) fn ctx_at(now_ms: i64) -> Context {
    Context::new(crate::time::from_ms(now_ms), "tester", jiff::tz::TimeZone::UTC)
}

/// Adds a task titled `title` at `now_ms` (never refused as a duplicate); returns its key.
pub(crate) fn add_task(store: &mut Store, now_ms: i64, title: &str) -> String {
    let mut req = AddRequest::titled(title);
    req.dup_choice = DupChoice::New;
    add::add(store, &ctx_at(now_ms), &req).expect("fixture task").task.key
}

/// Adds a task through the plain check (a probable duplicate is an error).
pub(crate) fn try_add_task(store: &mut Store, now_ms: i64, title: &str) -> crate::Result<()> {
    add::add(store, &ctx_at(now_ms), &AddRequest::titled(title)).map(|_| ())
}

/// Gives a task a daily 09:00 UTC `due` schedule in the local conversation; returns
/// the conversation's id.
pub(crate) fn daily_schedule(store: &mut Store, now_ms: i64, key: &str) -> i64 {
    let req = manage::AddRequest {
        task: key.into(),
        when: When::Time(Trigger::Daily { time: Time::constant(9, 0, 0, 0) }),
        zone: "UTC".into(),
        missed: MissedPolicy::RunOnce,
        action: Action::Due,
        max_active: 1,
        conversation: None,
        replace: false,
    };
    manage::add(store, &ctx_at(now_ms), &req).expect("fixture schedule").schedule.conversation_id
}

/// Makes a `manual` Job of a task's schedule for `key`; returns the Job's id.
pub(crate) fn run_now(store: &mut Store, now_ms: i64, task: &str, key: &str) -> i64 {
    manage::run_now(store, &ctx_at(now_ms), task, key).expect("fixture run-now").job.id
}

/// The lease of the one daemon a unit test plays.
pub(crate) fn lease() -> crate::ops::schedule::run::Lease {
    crate::ops::schedule::run::Lease {
        owner: "test-host:1:0".into(),
        length_ms: crate::ops::schedule::limits::JOB_LEASE_MS,
    }
}
