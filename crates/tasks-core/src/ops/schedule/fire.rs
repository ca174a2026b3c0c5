//! Turning due firings into Jobs: wall-clock triggers through the missed policy, event
//! triggers by matching `task_events` and failed Jobs. Persists `next_fire_at` and the
//! event cursors in the same transaction as the Jobs, one schedule per transaction.
//!
//! Rules (SPEC §6, issue 5):
//! - Every firing `f` with `next_fire_at <= f <= now` is due; `plan_missed` decides
//!   which run (on-time firings always, missed ones by policy). The policy applies on
//!   every tick, so "the daemon was down" and "the laptop slept" are one case.
//! - A Job's idempotency key is `<schedule>:<plan version>:<scheduled_for ms>`: a
//!   firing already turned into a Job is never made twice, whatever crashed between.
//! - One active Job per schedule unless `max_active` allows more: when the schedule
//!   already has that many active Jobs, a new firing's Job is made `skipped` with the
//!   reason (as Kubernetes' `Forbid`), so the history shows it. The Jobs of one tick
//!   (a catch-up) are all queued and run one after another.
//! - A firing on a dismissed task is `skipped`: dismissing stops a recurring task
//!   (SPEC §6: "deleting a task stops its schedule"); `done` does not.
//! - A prompt Job is parked in the conversation queue and stays `queued`; the
//!   conversation (issue 6) runs it.
//! - Event triggers never call a model: a deterministic filter (project, tag, type), a
//!   dedupe window per task, a cooldown per schedule, and the active-Job cap. Completed
//!   tasks are read from `task_events` after the schedule's cursor, so matching is
//!   restart-safe and `tasks done` needs no hook. `job.failed` is matched when the Job
//!   fails, in that transaction; failures of event Jobs fire nothing (no cascades).

use tasks_schedule::{MissedPolicy, SkippedCount, plan_missed};

use super::limits::EVENT_SCAN_BATCH;
use super::manage::stops_schedule;
use super::queue;
use crate::model::schedule::{Action, EventKind, JobKind, JobSnapshot, JobState, When};
use super::{Job, Schedule, local_text, plan_of};
use crate::error::Result;
use crate::ops::Context;
use crate::model::conversation::{FiringPayload, QueueKind, QueuePayload};
use crate::store::jobs::{self, NewJob};
use crate::store::queue as queue_rows;
use crate::store::schedules as rows;
use crate::store::{Store, Tx, tasks as task_rows};
use crate::time;

/// What one planning pass did.
#[derive(Debug, Clone, Default)]
pub struct TickReport {
    /// Jobs made (queued, parked or skipped), oldest first.
    pub jobs: Vec<Job>,
    /// Missed firings not run, by policy (a lower bound when counting stopped early).
    pub missed_skipped: u64,
}

/// A firing about to become a Job.
pub(crate) struct NewFiring<'a> {
    pub kind: JobKind,
    pub key: &'a str,
    pub scheduled_for: i64,
    pub event_subject: Option<&'a str>,
}

/// Makes Jobs for every due firing and matched event up to `ctx.now`.
///
/// One transaction per schedule: a schedule that cannot be planned is reported in its
/// conversation and stops (`next_fire_at` cleared) without holding up the others.
pub fn plan_due(store: &mut Store, ctx: &Context) -> Result<TickReport> {
    let mut report = TickReport::default();
    for id in rows::due_time_schedules(store.conn(), ctx.now_ms())? {
        let (jobs, skipped) = store.write(|tx| fire_time_schedule(tx, ctx, id))?;
        report.jobs.extend(jobs);
        report.missed_skipped += skipped;
    }
    for s in rows::event_schedules(store.conn())? {
        // A read first: most ticks find no new completion and need no write lock.
        let pending = !crate::store::events::completions_after(store.conn(), s.event_cursor, 1)?.is_empty();
        if pending && matches!(&s.when, When::Event(e) if e.event == EventKind::TaskCompleted) {
            let jobs = store.write(|tx| match_completions(tx, ctx, s.id))?;
            report.jobs.extend(jobs);
        }
    }
    Ok(report)
}

/// Returns when the runner has something to do next: the earliest planned firing or
/// retry, epoch ms.
pub fn next_wake(store: &Store) -> Result<Option<i64>> {
    let fire = rows::earliest_next_fire(store.conn())?;
    let retry = jobs::next_retry_at(store.conn())?;
    Ok(match (fire, retry) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    })
}

fn fire_time_schedule(tx: &Tx<'_>, ctx: &Context, id: i64) -> Result<(Vec<Job>, u64)> {
    let now = ctx.now_ms();
    let s = rows::schedule(tx, id)?;
    let (When::Time(trigger), Some(last_planned)) = (&s.when, s.next_fire_at) else {
        return Ok((Vec::new(), 0));
    };
    if s.paused || s.removed_at.is_some() || last_planned > now {
        return Ok((Vec::new(), 0));
    }
    let plan = match plan_of(trigger, &s.zone) {
        Ok(plan) => plan,
        Err(e) => {
            rows::set_next_fire_at(tx, id, None, now)?;
            queue::post(tx, &s, None, &format!("{} schedule #{id} stopped: {e}", s.task_key), now)?;
            return Ok((Vec::new(), 0));
        }
    };
    let missed = plan_missed(&plan, time::from_ms(last_planned), ctx.now, &s.missed);
    let blocker = overlap(tx, &s)?;
    let mut jobs = Vec::new();
    for at in &missed.run {
        let at_ms = time::to_ms(*at);
        let key = format!("{}:{}:{at_ms}", s.id, s.plan_version);
        let firing =
            NewFiring { kind: JobKind::ScheduledOccurrence, key: &key, scheduled_for: at_ms, event_subject: None };
        let (job, created) = create_job(tx, ctx, &s, &firing, blocker.as_ref())?;
        if created {
            jobs.push(job);
        }
    }
    let skipped = match missed.skipped {
        SkippedCount::Exactly(n) | SkippedCount::AtLeast(n) => n,
    };
    if skipped > 0 {
        let more = if matches!(missed.skipped, SkippedCount::AtLeast(_)) { " or more" } else { "" };
        let text = format!(
            "{} schedule #{}: {skipped}{more} missed firing{} not run (missed policy {})",
            s.task_key,
            s.id,
            if skipped == 1 { "" } else { "s" },
            policy_name(&s.missed)
        );
        queue::post(tx, &s, None, &text, now)?;
    }
    rows::set_next_fire_at(tx, id, missed.next_fire_at.map(time::to_ms), now)?;
    Ok((jobs, skipped))
}

/// Returns the policy's stored name.
pub fn policy_name(p: &MissedPolicy) -> &'static str {
    match p {
        MissedPolicy::Skip => "skip",
        MissedPolicy::RunOnce => "run_once",
        MissedPolicy::CatchUp { .. } => "catch_up_bounded",
    }
}

/// Returns the oldest active Job when the schedule has no free active slot.
pub(crate) fn overlap(tx: &Tx<'_>, s: &Schedule) -> Result<Option<Job>> {
    let active = jobs::active_jobs(tx, s.id)?;
    Ok(if active.len() >= s.max_active as usize { active.into_iter().next() } else { None })
}

/// Makes the Job of a firing unless its idempotency key exists; returns the Job and
/// whether it is new.
///
/// The snapshot freezes the schedule's action, trigger and zone now. `blocker` is the
/// active Job that leaves no slot (the new Job is then `skipped`). A prompt Job is
/// parked in the conversation queue; skipped Jobs post their reason at once.
pub(crate) fn create_job(
    tx: &Tx<'_>,
    ctx: &Context,
    s: &Schedule,
    firing: &NewFiring<'_>,
    blocker: Option<&Job>,
) -> Result<(Job, bool)> {
    let now = ctx.now_ms();
    if let Some(existing) = jobs::job_by_key(tx, firing.key)? {
        return Ok((existing, false));
    }
    let snapshot = JobSnapshot {
        task: s.task_key.clone(),
        action: s.action.clone(),
        trigger: s.when.to_json(),
        trigger_text: s.when.to_string(),
        zone: s.zone.clone(),
        plan_version: s.plan_version,
        conversation_id: s.conversation_id,
    };
    let task = task_rows::get(tx, s.task_id)?;
    let skip_reason = if stops_schedule(task.status) {
        Some(format!("{} is {}: a dismissed task's schedule does not fire", task.key, task.status))
    } else {
        blocker.map(|b| format!("overlap: Job #{} of this schedule is still {}", b.id, b.state))
    };
    let state = if skip_reason.is_some() { JobState::Skipped } else { JobState::Queued };
    let id = jobs::insert_job(
        tx,
        &NewJob {
            schedule_id: s.id,
            task_id: s.task_id,
            kind: firing.kind,
            key: firing.key,
            plan_version: s.plan_version,
            scheduled_for: firing.scheduled_for,
            event_subject: firing.event_subject,
            state,
            reason: skip_reason.as_deref(),
            snapshot: &snapshot,
            now,
        },
    )?;
    let Some(id) = id else {
        // The key was taken between the check and the insert: impossible inside one
        // BEGIN IMMEDIATE transaction, but the answer is the same either way.
        let job = jobs::job_by_key(tx, firing.key)?
            .ok_or_else(|| crate::error::Error::NotFound { what: "job", value: firing.key.to_string() })?;
        return Ok((job, false));
    };
    let job = jobs::job(tx, id)?.ok_or_else(|| crate::error::Error::NotFound { what: "job", value: id.to_string() })?;
    if let Some(reason) = &skip_reason {
        queue::post(tx, s, Some(&job), &firing_message(&job, &task.title, &format!("skipped: {reason}")), now)?;
        return Ok((job, true));
    }
    if let Action::Prompt(p) = &snapshot.action {
        let payload = QueuePayload::Firing(FiringPayload {
            task: s.task_key.clone(),
            job: id,
            prompt: p.text.clone(),
            mode: p.mode.as_str().to_string(),
            scheduled_for: time::rfc3339(firing.scheduled_for),
        });
        let item = queue_rows::enqueue(tx, s.conversation_id, QueueKind::Firing, Some(id), &payload, now)?;
        let reason = format!(
            "parked in conversation #{} queue as item #{item}: prompt Jobs are run by the conversation, not the daemon",
            s.conversation_id
        );
        jobs::set_job_state(tx, id, JobState::Queued, Some(&reason), now)?;
        let job = jobs::job(tx, id)?.unwrap_or(job);
        let text = firing_message(&job, &task.title, &format!("queued for the conversation (item #{item})"));
        queue::post(tx, s, Some(&job), &text, now)?;
        return Ok((job, true));
    }
    Ok((job, true))
}

/// Writes the conversation message of a firing: task, trigger, time, result.
///
/// `HRB-3 "Water the plants" · daily 09:00 (Europe/Berlin) · scheduled 2026-11-30 09:00
/// CET · Job #4 succeeded: due 2026-11-30`.
pub fn firing_message(job: &Job, title: &str, result: &str) -> String {
    let when = match job.kind {
        JobKind::ScheduledOccurrence => "scheduled",
        JobKind::Manual => "run now at",
        JobKind::Event => "event at",
    };
    format!(
        "{} {title:?} · {} ({}) · {when} {} · Job #{} {result}",
        job.task_key,
        job.snapshot.trigger_text,
        job.snapshot.zone,
        local_text(job.scheduled_for, &job.snapshot.zone),
        job.id
    )
}

/// Matches completed tasks after the schedule's cursor and makes event Jobs.
fn match_completions(tx: &Tx<'_>, ctx: &Context, id: i64) -> Result<Vec<Job>> {
    let s = rows::schedule(tx, id)?;
    let When::Event(trigger) = &s.when else { return Ok(Vec::new()) };
    if s.paused || s.removed_at.is_some() || trigger.event != EventKind::TaskCompleted {
        return Ok(Vec::new());
    }
    let mut cursor = s.event_cursor;
    let mut jobs = Vec::new();
    loop {
        let batch = crate::store::events::completions_after(tx, cursor, EVENT_SCAN_BATCH)?;
        for c in &batch {
            let key = format!("event:{}:task_event:{}", s.id, c.event_id);
            if let Some(job) = match_event(tx, ctx, &s, c.task_id, c.at, &key)? {
                jobs.push(job);
            }
        }
        if let Some(last) = batch.last() {
            cursor = last.event_id;
        }
        if batch.len() < EVENT_SCAN_BATCH {
            break;
        }
    }
    if cursor != s.event_cursor {
        rows::set_event_cursor(tx, id, cursor)?;
    }
    Ok(jobs)
}

/// Applies an event schedule's filter, dedupe window and cooldown to one event about a
/// task; makes the Job when it passes.
fn match_event(tx: &Tx<'_>, ctx: &Context, s: &Schedule, task_id: i64, at: i64, key: &str) -> Result<Option<Job>> {
    let When::Event(trigger) = &s.when else { return Ok(None) };
    let task = task_rows::get(tx, task_id)?;
    if !trigger.filter.matches(&task.project, &task.tags, task.task_type.as_str()) {
        return Ok(None);
    }
    let subject = format!("task:{task_id}");
    let within = |last: Option<i64>, seconds: u64| {
        seconds > 0 && last.is_some_and(|l| at - l < (seconds as i64).saturating_mul(1000))
    };
    if within(jobs::last_event_job_at(tx, s.id, Some(&subject))?, trigger.dedupe_seconds)
        || within(jobs::last_event_job_at(tx, s.id, None)?, trigger.cooldown_seconds)
    {
        return Ok(None);
    }
    let blocker = overlap(tx, s)?;
    let firing = NewFiring { kind: JobKind::Event, key, scheduled_for: at, event_subject: Some(&subject) };
    let (job, created) = create_job(tx, ctx, s, &firing, blocker.as_ref())?;
    Ok(created.then_some(job))
}

/// Makes the Jobs of `job.failed` schedules for a Job that just failed (same transaction).
pub(crate) fn job_failed(tx: &Tx<'_>, ctx: &Context, failed: &Job) -> Result<Vec<Job>> {
    if failed.kind == JobKind::Event {
        return Ok(Vec::new());
    }
    let mut jobs = Vec::new();
    for s in rows::event_schedules(tx)? {
        let is_job_failed = matches!(&s.when, When::Event(e) if e.event == EventKind::JobFailed);
        if !is_job_failed || s.id == failed.schedule_id {
            continue;
        }
        let key = format!("event:{}:job:{}", s.id, failed.id);
        if let Some(job) = match_event(tx, ctx, &s, failed.task_id, ctx.now_ms(), &key)? {
            jobs.push(job);
        }
    }
    Ok(jobs)
}
