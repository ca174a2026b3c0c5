//! Scheduled tasks (SPEC §6, issue 5): the operations behind `tasks schedule …`,
//! `tasks jobs` and `tasks daemon`, as synchronous steps an edge calls one at a time.
//!
//! - [`manage`]: add (or `--replace`, which bumps the plan version), list, pause,
//!   resume, remove, preview, `run-now` with a caller key, the Job list.
//! - [`center`]: the Task Center's rows, its conversations, and its create (task,
//!   conversation and schedule in one transaction) with the summary shown before it.
//! - [`fire`]: turns due firings into Jobs — wall-clock triggers through
//!   `tasks_schedule::plan_missed` (the missed policy applies on every tick, so a
//!   daemon that was down, or a laptop that slept, obeys it alike), and event triggers
//!   by scanning `task_events` from a per-schedule cursor. Persists `next_fire_at`.
//! - [`run`]: the runner's steps — recover Jobs a dead daemon left `running`
//!   (→ `interrupted`, never replayed), start the next Job (a new Run), apply a `due`
//!   action, record a command's end (retrying transient failures with a bound),
//!   interrupt on shutdown.
//! - [`prompt`]: a prompt Job's turn in its conversation — finished, or parked for
//!   approval, approved or rejected.
//! - [`queue`]: the conversation's durable FIFO (enqueue, list, remove, promote with
//!   interrupt) and its messages; every firing posts one.
//!
//! What this module does not do: run programs, sleep, read the clock or the
//! environment, or hold a lock between calls. The daemon (in `tasks-cli`, the only async
//! code) spawns commands, waits, and calls these steps through `spawn_blocking`; every
//! step is one write through the port (`Engine::write`), so a daemon killed at any point
//! leaves a consistent store, on either engine.

pub mod center;
pub mod fire;
pub mod limits;
pub mod manage;
pub mod prompt;
pub mod queue;
pub mod run;

pub use crate::model::schedule::{
    Action, CommandAction, EventFilter, EventKind, EventTrigger, JobKind, JobSnapshot, JobState, PromptAction,
    PromptMode, RunState, When,
};
pub use crate::store::conversations::{Conversation, Message};
pub use crate::store::jobs::{Artifact, Job, Run};
pub use crate::store::queue::QueueItem;
pub use crate::store::schedules::Schedule;

use jiff::civil::Date;
use tasks_schedule::{Plan, time_zone};

use crate::error::Result;
use crate::ops::Context;
use crate::time;

/// Returns the validated plan of a time trigger in its zone.
pub(crate) fn plan_of(trigger: &tasks_schedule::Trigger, zone: &str) -> Result<Plan> {
    Ok(Plan::new(trigger.clone(), zone)?)
}

/// Returns the local date of an instant in a zone (the due date a firing sets).
pub(crate) fn local_date(ms: i64, zone: &str) -> Result<Date> {
    let zone = time_zone(zone)?;
    Ok(time::from_ms(ms).to_zoned_datetime(zone).date())
}

/// Formats an instant as local time in a zone for messages: `2026-11-30 09:00 CET`.
pub fn local_text(ms: i64, zone: &str) -> String {
    match time_zone(zone) {
        Ok(z) => time::from_ms(ms).to_zoned_datetime(z).strftime("%Y-%m-%d %H:%M %Z").to_string(),
        Err(_) => time::rfc3339(ms),
    }
}

/// Returns the actor written into task history for changes a schedule makes:
/// `schedule:<id>`, so `tasks history` says which schedule reopened a task.
pub(crate) fn schedule_actor(ctx: &Context, schedule_id: i64) -> Context {
    Context { actor: format!("schedule:{schedule_id}"), ..ctx.clone() }
}
