//! Managing schedules: add (or replace, bumping the plan version), list, pause,
//! resume, remove, preview a task's firings, `run-now` with a caller key, list Jobs.
//!
//! A task has at most one live schedule, so every verb names the task. Nothing is
//! deleted: `remove` sets `removed_at`, cancels the Jobs that have not started, and
//! keeps the rest as history. This module runs no Job; `run-now` only makes one (the
//! edge runs it, or leaves it to the daemon).

use std::path::Path;

use tasks_schedule::{Firing, MissedPolicy, Trigger, time_zone};

use super::fire::{self, NewFiring};
use super::limits::{MAX_ACTIVE_CEILING, MAX_COMMAND_TIMEOUT, MAX_OUTPUT_BUDGET, PREVIEW_MAX_COUNT};
use super::queue;
use crate::model::schedule::{Action, EventKind, JobKind, JobState, When};
use super::{Artifact, Job, Run, Schedule, local_text, plan_of};
use crate::error::{Error, Result};
use crate::keys;
use crate::model::{Status, TaskType};
use crate::ops::Context;
use crate::model::conversation::QueueState;
use crate::store::conversations;
use crate::store::jobs;
use crate::store::queue as queue_rows;
use crate::store::schedules::{self as rows, NewSchedule};
use crate::store::events::{self, Change, EventChange, ScheduleChanged};
use crate::store::{Store, Tx, projects, tasks as task_rows};
use crate::time;

/// A request to schedule a task. No `Default`: the caller decides every field.
#[derive(Debug, Clone)]
pub struct AddRequest {
    /// The task (anything SPEC §3 accepts).
    pub task: String,
    /// When it fires.
    pub when: When,
    /// The IANA zone (the edge resolves `--tz` or the machine's zone, once).
    pub zone: String,
    /// What to do with missed firings.
    pub missed: MissedPolicy,
    /// What a firing does.
    pub action: Action,
    /// Jobs that may be active at once (1 = no overlap).
    pub max_active: u32,
    /// The conversation to post into; `None` is the local conversation.
    pub conversation: Option<i64>,
    /// Edit the task's live schedule instead of refusing.
    pub replace: bool,
}

/// The outcome of `add`.
#[derive(Debug, Clone)]
pub struct AddOutcome {
    /// The schedule after the write.
    pub schedule: Schedule,
    /// True when an existing schedule was replaced (its plan version bumped).
    pub replaced: bool,
}

/// Checks an action's frozen values: argv, working dir, env names, budgets.
fn check_action(action: &Action) -> Result<()> {
    match action {
        Action::Due => Ok(()),
        Action::Command(c) => {
            let Some(program) = c.argv.first() else {
                return Err(Error::invalid("command", "", "give the program and its arguments after --command"));
            };
            if program.trim().is_empty() {
                return Err(Error::invalid("command", program.clone(), "the program name is empty"));
            }
            let dir = Path::new(&c.workdir);
            if !dir.is_absolute() {
                return Err(Error::invalid("workdir", c.workdir.clone(), "must be an absolute path"));
            }
            if !dir.is_dir() {
                return Err(Error::invalid("workdir", c.workdir.clone(), "is not a directory"));
            }
            for name in &c.env_allow {
                if name.is_empty() || name.contains('=') || name.contains('\0') {
                    return Err(Error::invalid("env-allow", name.clone(), "give a variable name, e.g. HOME"));
                }
            }
            if c.timeout_seconds == 0 || c.timeout_seconds > MAX_COMMAND_TIMEOUT.as_secs() {
                return Err(Error::invalid(
                    "timeout",
                    format!("{}s", c.timeout_seconds),
                    format!("must be between 1s and {}h", MAX_COMMAND_TIMEOUT.as_secs() / 3600),
                ));
            }
            check_budget(c.output_budget_bytes)
        }
        Action::Prompt(p) => {
            if p.text.trim().is_empty() {
                return Err(Error::invalid("prompt", p.text.clone(), "the prompt is empty"));
            }
            check_budget(p.output_budget_bytes)
        }
    }
}

fn check_budget(bytes: u64) -> Result<()> {
    if bytes == 0 || bytes > MAX_OUTPUT_BUDGET {
        return Err(Error::invalid(
            "output-budget",
            bytes.to_string(),
            format!("must be between 1 byte and {} MiB", MAX_OUTPUT_BUDGET / (1024 * 1024)),
        ));
    }
    Ok(())
}

/// Validates the trigger in its zone; returns it normalized with the canonical zone
/// name, and the first firing after `now` for a time trigger.
fn check_when(tx: &Tx<'_>, when: &When, zone: &str, now: i64) -> Result<(When, String, Option<i64>)> {
    match when {
        When::Time(trigger) => {
            let plan = plan_of(trigger, zone)?;
            let next = plan.next_after(time::from_ms(now)).map(time::to_ms);
            if let (Trigger::Once { at }, None) = (trigger, next) {
                return Err(Error::invalid(
                    "once",
                    format!("{}T{:02}:{:02}", at.date(), at.hour(), at.minute()),
                    format!("is in the past in {}; a one-off schedule must fire later", plan.zone_name()),
                ));
            }
            Ok((When::Time(plan.trigger().clone()), plan.zone_name().to_string(), next))
        }
        When::Event(e) => {
            let z = time_zone(zone)?;
            let mut e = e.clone();
            if let Some(p) = &e.filter.project {
                let key = keys::parse_project_key(p)?;
                if projects::by_key(tx, &key)?.is_none() {
                    return Err(Error::NotFound { what: "project", value: p.clone() });
                }
                e.filter.project = Some(key);
            }
            if let Some(t) = &e.filter.task_type {
                let ty: TaskType =
                    t.parse().map_err(|_| Error::invalid("filter-type", t.clone(), "not a task type"))?;
                e.filter.task_type = Some(ty.as_str().to_string());
            }
            Ok((When::Event(e), z.iana_name().unwrap_or("UTC").to_string(), None))
        }
    }
}

/// Schedules a task, or with `replace` edits its live schedule (plan version + 1).
///
/// Refuses a bad trigger or zone (naming the field), a bad action, a task that has a
/// live schedule unless `replace`, and an unknown conversation. Records a `schedule`
/// event in the task's history and posts the new plan into the conversation.
pub fn add(store: &mut Store, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    check_action(&req.action)?;
    if req.max_active == 0 || req.max_active > MAX_ACTIVE_CEILING {
        return Err(Error::invalid(
            "max-active",
            req.max_active.to_string(),
            format!("must be between 1 and {MAX_ACTIVE_CEILING}"),
        ));
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let task_id = keys::resolve(tx, &req.task)?;
        let task = task_rows::get(tx, task_id)?;
        let (when, zone, next_fire_at) = check_when(tx, &req.when, &req.zone, now)?;
        let conversation_id = match req.conversation {
            Some(id) => {
                conversations::conversation(tx, id)?
                    .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?
                    .id
            }
            None => conversations::local_conversation(tx, queue::LOCAL_TITLE, now)?,
        };
        let event_cursor = match &when {
            When::Event(_) => rows::last_task_event_id(tx)?,
            When::Time(_) => 0,
        };
        let new = NewSchedule {
            task_id,
            when: &when,
            zone: &zone,
            missed: &req.missed,
            action: &req.action,
            next_fire_at,
            event_cursor,
            max_active: req.max_active,
            conversation_id,
            actor: &ctx.actor,
            now,
        };
        let existing = rows::live_schedule_of_task(tx, task_id)?;
        let (id, before) = match existing {
            Some(old) if req.replace => {
                rows::replace_schedule(tx, old.id, &new)?;
                (old.id, Some(old))
            }
            Some(old) => return Err(Error::ScheduleExists { key: task.key, schedule_id: old.id }),
            None => (rows::insert_schedule(tx, &new)?, None),
        };
        let schedule = rows::schedule(tx, id)?;
        let text = describe(&schedule);
        events::record(
            tx,
            task_id,
            now,
            &ctx.actor,
            &EventChange::Schedule(ScheduleChanged {
                schedule: Some(Change(before.as_ref().map(describe), Some(text.clone()))),
                plan_version: Some(schedule.plan_version),
                paused: None,
            }),
        )?;
        let verb = if before.is_some() { "changed" } else { "added" };
        queue::post(tx, &schedule, None, &format!("{} schedule #{id} {verb}: {text}", schedule.task_key), now)?;
        Ok(AddOutcome { schedule, replaced: before.is_some() })
    })
}

/// Describes a schedule in one line: `daily 09:00 (Europe/Berlin), action due, next
/// 2026-11-30 09:00 CET`.
pub fn describe(s: &Schedule) -> String {
    let next = match (&s.when, s.next_fire_at) {
        (When::Event(_), _) => String::new(),
        (_, Some(ms)) => format!(", next {}", local_text(ms, &s.zone)),
        (_, None) => ", no firing left".to_string(),
    };
    format!("{} ({}), action {}{next}", s.when, s.zone, s.action.kind())
}

/// Lists schedules; removed ones too when asked.
pub fn list(store: &Store, include_removed: bool) -> Result<Vec<Schedule>> {
    rows::list_schedules(store.conn(), include_removed)
}

/// Returns the live schedule of a task; not found names the task.
pub fn for_task(store: &Store, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(store.conn(), reference)?;
    rows::live_schedule_of_task(store.conn(), task_id)?
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })
}

fn live_in_tx(tx: &Tx<'_>, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(tx, reference)?;
    rows::live_schedule_of_task(tx, task_id)?
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })
}

/// The outcome of pause, resume and remove.
#[derive(Debug, Clone)]
pub struct ScheduleChange {
    /// The schedule after the change.
    pub schedule: Schedule,
    /// False when it already was in that state.
    pub changed: bool,
    /// Jobs cancelled by `remove` (those that had not started).
    pub cancelled: Vec<Job>,
}

/// Pauses a task's schedule: it fires nothing until resumed.
pub fn pause(store: &mut Store, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        if s.paused {
            return Ok(ScheduleChange { schedule: s, changed: false, cancelled: Vec::new() });
        }
        rows::set_paused(tx, s.id, true, s.next_fire_at, s.event_cursor, now)?;
        let paused = ScheduleChanged { paused: Some(Change(false, true)), ..ScheduleChanged::default() };
        events::record(tx, s.task_id, now, &ctx.actor, &EventChange::Schedule(paused))?;
        queue::post(tx, &s, None, &format!("{} schedule #{} paused", s.task_key, s.id), now)?;
        Ok(ScheduleChange { schedule: rows::schedule(tx, s.id)?, changed: true, cancelled: Vec::new() })
    })
}

/// Resumes a paused schedule from now: firings planned while it was paused are not
/// missed firings (pausing said "not now"), and events that happened meanwhile do not
/// fire it.
pub fn resume(store: &mut Store, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        if !s.paused {
            return Ok(ScheduleChange { schedule: s, changed: false, cancelled: Vec::new() });
        }
        let (next, cursor) = match &s.when {
            When::Time(t) => (plan_of(t, &s.zone)?.next_after(time::from_ms(now)).map(time::to_ms), s.event_cursor),
            When::Event(_) => (None, rows::last_task_event_id(tx)?),
        };
        rows::set_paused(tx, s.id, false, next, cursor, now)?;
        let resumed = ScheduleChanged { paused: Some(Change(true, false)), ..ScheduleChanged::default() };
        events::record(tx, s.task_id, now, &ctx.actor, &EventChange::Schedule(resumed))?;
        let s2 = rows::schedule(tx, s.id)?;
        queue::post(tx, &s2, None, &format!("{} schedule #{} resumed: {}", s2.task_key, s2.id, describe(&s2)), now)?;
        Ok(ScheduleChange { schedule: s2, changed: true, cancelled: Vec::new() })
    })
}

/// Removes a task's schedule: no more firings; Jobs that have not started (queued,
/// deferred, parked prompts) are cancelled; running Jobs finish; history stays.
pub fn remove(store: &mut Store, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        rows::set_removed(tx, s.id, &ctx.actor, now)?;
        let mut cancelled = Vec::new();
        for job in jobs::active_jobs(tx, s.id)? {
            if matches!(job.state, JobState::Queued | JobState::Deferred) {
                let reason = format!("schedule #{} was removed before the Job started", s.id);
                jobs::set_job_state(tx, job.id, JobState::Cancelled, Some(&reason), now)?;
                if let Some(item) = queue_rows::queue_item_of_job(tx, job.id)?
                    && item.state == QueueState::Pending
                {
                    queue_rows::set_queue_state(tx, item.id, QueueState::Removed, now)?;
                }
                cancelled.extend(jobs::job(tx, job.id)?);
            }
        }
        let removed = ScheduleChanged { schedule: Some(Change(Some(describe(&s)), None)), ..ScheduleChanged::default() };
        events::record(tx, s.task_id, now, &ctx.actor, &EventChange::Schedule(removed))?;
        queue::post(tx, &s, None, &format!("{} schedule #{} removed", s.task_key, s.id), now)?;
        Ok(ScheduleChange { schedule: rows::schedule(tx, s.id)?, changed: true, cancelled })
    })
}

/// Returns the next `count` firings of a task's schedule strictly after `from`.
///
/// Refuses an event schedule (it has no planned times) and a count above
/// [`PREVIEW_MAX_COUNT`].
pub fn preview(store: &Store, reference: &str, from: jiff::Timestamp, count: usize) -> Result<(Schedule, Vec<Firing>)> {
    check_count(count)?;
    let s = for_task(store, reference)?;
    let When::Time(trigger) = &s.when else {
        return Err(Error::invalid(
            "task",
            reference,
            format!("its schedule fires {}; it has no planned times", s.when),
        ));
    };
    let firings = plan_of(trigger, &s.zone)?.preview(from, count);
    Ok((s, firings))
}

/// Checks a preview count.
pub fn check_count(count: usize) -> Result<()> {
    if count == 0 || count > PREVIEW_MAX_COUNT {
        return Err(Error::invalid("count", count.to_string(), format!("must be between 1 and {PREVIEW_MAX_COUNT}")));
    }
    Ok(())
}

/// The outcome of `run-now`.
#[derive(Debug, Clone)]
pub struct RunNowOutcome {
    /// The Job for the key (new, or the one an earlier call with the key made).
    pub job: Job,
    /// False when the key had been used: nothing new was made.
    pub created: bool,
}

/// Makes a `manual` Job of a task's schedule for a caller key.
///
/// Idempotent per key: a second call with the same key returns the first Job. Never
/// moves `next_fire_at`. The usual limits apply: over the schedule's active-Job cap the
/// Job is made `skipped` (overlap); a prompt Job is parked in the conversation queue.
pub fn run_now(store: &mut Store, ctx: &Context, reference: &str, key: &str) -> Result<RunNowOutcome> {
    let key = key.trim();
    if key.is_empty() || key.len() > 200 {
        return Err(Error::invalid("key", key, "give a key of 1-200 characters"));
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        let idempotency_key = format!("manual:{}:{key}", s.id);
        if let Some(job) = jobs::job_by_key(tx, &idempotency_key)? {
            return Ok(RunNowOutcome { job, created: false });
        }
        let blocker = fire::overlap(tx, &s)?;
        let firing =
            NewFiring { kind: JobKind::Manual, key: &idempotency_key, scheduled_for: now, event_subject: None };
        let (job, created) = fire::create_job(tx, ctx, &s, &firing, blocker.as_ref())?;
        Ok(RunNowOutcome { job, created })
    })
}

/// A Job with its Runs and artifacts.
#[derive(Debug, Clone)]
pub struct JobDetail {
    /// The Job.
    pub job: Job,
    /// Its Runs, first attempt first.
    pub runs: Vec<Run>,
    /// What it produced.
    pub artifacts: Vec<Artifact>,
}

/// Lists Jobs newest first: of one task when given, in one state when given.
pub fn jobs(store: &Store, task: Option<&str>, state: Option<JobState>, limit: usize) -> Result<Vec<JobDetail>> {
    let conn = store.conn();
    let task_id = task.map(|t| keys::resolve(conn, t)).transpose()?;
    jobs::list_jobs(conn, task_id, state, limit)?
        .into_iter()
        .map(|job| {
            Ok(JobDetail {
                runs: jobs::runs_of_job(conn, job.id)?,
                artifacts: jobs::artifacts_of_job(conn, job.id)?,
                job,
            })
        })
        .collect()
}

/// Returns one Job with its Runs and artifacts.
pub fn job(store: &Store, id: i64) -> Result<JobDetail> {
    let conn = store.conn();
    let job = jobs::job(conn, id)?.ok_or_else(|| Error::NotFound { what: "job", value: id.to_string() })?;
    Ok(JobDetail { runs: jobs::runs_of_job(conn, id)?, artifacts: jobs::artifacts_of_job(conn, id)?, job })
}

/// Returns the task's most recent schedule, live or removed (for `schedule show`).
pub fn latest_for_task(store: &Store, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(store.conn(), reference)?;
    rows::latest_schedule_of_task(store.conn(), task_id)?
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })
}

/// Returns true when the task's status keeps its schedule from firing.
pub(crate) fn stops_schedule(status: Status) -> bool {
    status == Status::Dismissed
}

/// Parses `--on`: the event kind.
pub fn parse_event(text: &str) -> Result<EventKind> {
    EventKind::parse(text)
}
