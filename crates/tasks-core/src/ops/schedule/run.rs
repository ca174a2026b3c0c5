//! The runner's steps, each one transaction: recover after a dead daemon, start the
//! next Job (a new Run), apply a `due` action, record how a command ended (retrying
//! transient failures), start a retry, interrupt on shutdown.
//!
//! Outcomes (SPEC §6, issue 5):
//! - exit 0 → `succeeded`; another exit code → `failed`; the program missing or not
//!   executable → `failed` (configuration: never retried);
//! - a timeout → `failed` with reason timeout, not retried: the program ran and may
//!   have done part of its work, so running it again is not known to be safe;
//! - killed by a signal nobody here sent → `outcome_unknown`, never retried;
//! - exit [`TRANSIENT_EXIT_CODE`] (75, `EX_TEMPFAIL`) or a spawn error that says "try
//!   again" → transient: the Job is `deferred` and gets a new Run after a backoff, at
//!   most [`RETRY_MAX_RUNS`] Runs in all;
//! - a daemon that stops (SIGTERM, or found dead at the next start) → `interrupted`,
//!   never replayed.
//!
//! This module spawns nothing and never waits; the daemon does, between these calls.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::fire::{self, firing_message};
use super::limits::{RETRY_MAX_RUNS, TRANSIENT_EXIT_CODE, retry_backoff};
use super::manage::stops_schedule;
use super::queue;
use crate::model::schedule::{Action, JobState, RunState};
use super::{Job, local_date, schedule_actor};
use crate::dedup;
use crate::error::{Error, Result};
use crate::model::{Due, DueKind, Status};
use crate::ops::Context;
use crate::ops::status;
use crate::store::jobs::{self, RunEnd};
use crate::store::schedules as rows;
use crate::store::tasks::{self as task_rows, Column};
use crate::store::events::{self, Change, DueChange, DueValue, EventChange};
use crate::store::{Store, Tx};

/// A Job the runner has started: its Run is recorded as `running`.
#[derive(Debug, Clone)]
pub struct StartedJob {
    /// The Job (state `running`).
    pub job: Job,
    /// The Run.
    pub run_id: i64,
    /// 1 for the first Run.
    pub attempt: u32,
}

/// Marks Jobs a dead daemon left `running` as `interrupted`, and their Runs too.
///
/// Call it right after taking the daemon lock: no live runner exists then, so every
/// `running` due/command Job belongs to a process that died. Such a Job is never run
/// again (its firing may have had effects). Prompt Jobs belong to the conversation and
/// are left alone.
pub fn recover(store: &mut Store, ctx: &Context) -> Result<Vec<Job>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut out = Vec::new();
        for job in jobs::daemon_running_jobs(tx)? {
            let reason = "the daemon stopped while this Job ran (found at the next start); not replayed";
            out.push(interrupt_job(tx, &job, reason, now)?);
        }
        Ok(out)
    })
}

fn interrupt_job(tx: &Tx<'_>, job: &Job, reason: &str, now: i64) -> Result<Job> {
    jobs::interrupt_runs(tx, job.id, reason, now)?;
    jobs::set_job_state(tx, job.id, JobState::Interrupted, Some(reason), now)?;
    let job = reread(tx, job.id)?;
    let schedule = rows::schedule(tx, job.schedule_id)?;
    let title = task_rows::get(tx, job.task_id)?.title;
    queue::post(tx, &schedule, Some(&job), &firing_message(&job, &title, &format!("interrupted: {reason}")), now)?;
    Ok(job)
}

fn reread(tx: &Tx<'_>, id: i64) -> Result<Job> {
    jobs::job(tx, id)?.ok_or_else(|| Error::NotFound { what: "job", value: id.to_string() })
}

/// Starts the oldest startable Job: a queued due/command Job, or a deferred one whose
/// retry time has come, of a schedule with a free slot. Returns `None` when none is.
///
/// A Job whose task was dismissed since it was made is `skipped` instead.
/// `busy` lists Jobs the caller is running or waiting to retry itself; they are left alone.
pub fn start_next(store: &mut Store, ctx: &Context, busy: &[i64]) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut passed = busy.to_vec();
        while let Some(job) = jobs::next_startable_job(tx, now, &passed)? {
            let task = task_rows::get(tx, job.task_id)?;
            if stops_schedule(task.status) {
                let reason = format!("{} is {}: a dismissed task's schedule does not fire", task.key, task.status);
                jobs::set_job_state(tx, job.id, JobState::Skipped, Some(&reason), now)?;
                let job = reread(tx, job.id)?;
                let schedule = rows::schedule(tx, job.schedule_id)?;
                queue::post(tx, &schedule, Some(&job), &firing_message(&job, &task.title, "skipped"), now)?;
                passed.push(job.id);
                continue;
            }
            return Ok(Some(begin(tx, job.id, now)?));
        }
        Ok(None)
    })
}

/// Starts one queued due/command Job (`run-now` runs its own Job at once); `None` when
/// it is not queued any more or is a prompt Job.
pub fn start(store: &mut Store, ctx: &Context, job_id: i64) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if job.state != JobState::Queued || matches!(job.snapshot.action, Action::Prompt(_)) {
            return Ok(None);
        }
        Ok(Some(begin(tx, job_id, now)?))
    })
}

fn begin(tx: &Tx<'_>, job_id: i64, now: i64) -> Result<StartedJob> {
    let attempt = jobs::start_job(tx, job_id, now)?;
    let run_id = jobs::insert_run(tx, job_id, attempt, now)?;
    Ok(StartedJob { job: reread(tx, job_id)?, run_id, attempt })
}

/// Starts the next Run of a deferred Job (a retry); `None` when the Job is no longer
/// deferred (removed, or recovered by another start).
pub fn begin_retry(store: &mut Store, ctx: &Context, job_id: i64) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if job.state != JobState::Deferred {
            return Ok(None);
        }
        Ok(Some(begin(tx, job_id, now)?))
    })
}

/// Records a command's process id on its Run (informational; never signalled later).
pub fn record_pid(store: &mut Store, run_id: i64, pid: u32) -> Result<()> {
    store.write(|tx| jobs::set_run_pid(tx, run_id, pid))
}

/// Applies a started `due` Job: sets the task's due to the firing's local date (in the
/// snapshot's zone) and reopens it when done — one task, as Todoist does — then marks
/// the Run and the Job succeeded, all in one transaction with the task's events.
pub fn apply_due(store: &mut Store, ctx: &Context, started: &StartedJob) -> Result<Job> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, started.job.id)?;
        let actor = schedule_actor(ctx, job.schedule_id);
        let task = task_rows::get(tx, job.task_id)?;
        let date = local_date(job.scheduled_for, &job.snapshot.zone)?;
        let due = Some(Due { date, kind: DueKind::Day });
        let mut changes = Map::new();
        let mut said = vec![format!("due {date}")];
        if task.due != due {
            task_rows::set_column(tx, task.id, Column::Due(due), now)?;
            let change = DueChange { due: Change(task.due.map(DueValue::from), due.map(DueValue::from)) };
            changes.insert("due".into(), serde_json::to_value(&change.due)?);
            events::record(tx, task.id, now, &actor.actor, &EventChange::Due(change))?;
        }
        if task.status == Status::Done {
            status::change(tx, &actor, task.clone(), Status::Open, None)?;
            changes.insert("status".into(), json!([task.status.as_str(), "open"]));
            said.push("reopened".into());
        }
        dedup::index(tx, task.id)?;
        let summary = said.join(", ");
        let end = RunEnd {
            state: RunState::Succeeded,
            exit_code: None,
            output: Some(&summary),
            output_dropped: 0,
            error: None,
        };
        jobs::finish_run(tx, started.run_id, &end, now)?;
        jobs::set_job_state(tx, job.id, JobState::Succeeded, None, now)?;
        jobs::insert_artifact(
            tx,
            job.id,
            Some(started.run_id),
            "task_change",
            &Value::Object(changes).to_string(),
            now,
        )?;
        let job = reread(tx, job.id)?;
        let schedule = rows::schedule(tx, job.schedule_id)?;
        let text = firing_message(&job, &task.title, &format!("succeeded: {summary}"));
        queue::post(tx, &schedule, Some(&job), &text, now)?;
        Ok(job)
    })
}

/// How a command's Run ended, as the daemon saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Exit code 0.
    Succeeded,
    /// Another exit code.
    Failed,
    /// Exit 75 or a "try again" spawn error: retry with a bound.
    Transient,
    /// Killed on timeout.
    TimedOut,
    /// Killed by a signal nobody here sent.
    OutcomeUnknown,
    /// The program could not start (missing, not executable): configuration.
    NotStarted,
}

/// What the daemon reports about a finished command Run.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// How it ended.
    pub outcome: Outcome,
    /// The exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Output kept within the budget (with a note when bytes were dropped).
    pub output: String,
    /// Bytes dropped beyond the budget.
    pub output_dropped: u64,
    /// What went wrong, in words.
    pub error: Option<String>,
}

impl RunReport {
    /// Classifies an exit code: 0 succeeded, [`TRANSIENT_EXIT_CODE`] transient, else failed.
    pub fn outcome_of_exit(code: i32) -> Outcome {
        match code {
            0 => Outcome::Succeeded,
            TRANSIENT_EXIT_CODE => Outcome::Transient,
            _ => Outcome::Failed,
        }
    }
}

/// What the runner does after a Run.
#[derive(Debug, Clone)]
pub enum AfterRun {
    /// The Job reached its final state.
    Done(Job),
    /// The Job is deferred: start its next Run with [`begin_retry`] after this wait.
    Retry {
        /// The Job (state `deferred`).
        job: Job,
        /// How long to wait.
        after: Duration,
    },
}

/// Records the end of a command Run and decides the Job's state (see the module
/// docs); posts the result with the output into the conversation, and matches
/// `job.failed` schedules when the Job failed.
pub fn finish(store: &mut Store, ctx: &Context, started: &StartedJob, report: &RunReport) -> Result<AfterRun> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, started.job.id)?;
        let run_state = match report.outcome {
            Outcome::Succeeded => RunState::Succeeded,
            Outcome::OutcomeUnknown => RunState::OutcomeUnknown,
            _ => RunState::Failed,
        };
        let end = RunEnd {
            state: run_state,
            exit_code: report.exit_code,
            output: Some(&report.output),
            output_dropped: report.output_dropped,
            error: report.error.as_deref(),
        };
        jobs::finish_run(tx, started.run_id, &end, now)?;
        let what = report.error.clone().unwrap_or_else(|| match report.exit_code {
            Some(code) => format!("exit code {code}"),
            None => "no exit code".into(),
        });
        if job.state != JobState::Running {
            // Interrupted or cancelled meanwhile (promote, shutdown): the Run is recorded,
            // the Job keeps the state it was given.
            return Ok(AfterRun::Done(job));
        }
        if report.outcome == Outcome::Transient && started.attempt < RETRY_MAX_RUNS {
            let after = retry_backoff(started.attempt);
            let reason = format!(
                "transient failure ({what}); Run {} of {RETRY_MAX_RUNS} in {}s",
                started.attempt + 1,
                after.as_secs()
            );
            jobs::defer_job(tx, job.id, now + after.as_millis() as i64, &reason, now)?;
            return Ok(AfterRun::Retry { job: reread(tx, job.id)?, after });
        }
        let (state, reason) = match report.outcome {
            Outcome::Succeeded => (JobState::Succeeded, None),
            Outcome::Failed => (JobState::Failed, Some(what)),
            Outcome::Transient => {
                (JobState::Failed, Some(format!("transient failure ({what}); gave up after {RETRY_MAX_RUNS} Runs")))
            }
            Outcome::TimedOut => (JobState::Failed, Some(what)),
            Outcome::OutcomeUnknown => (JobState::OutcomeUnknown, Some(format!("{what}; not retried"))),
            Outcome::NotStarted => (JobState::Failed, Some(format!("{what} (configuration; not retried)"))),
        };
        jobs::set_job_state(tx, job.id, state, reason.as_deref(), now)?;
        let job = reread(tx, job.id)?;
        let schedule = rows::schedule(tx, job.schedule_id)?;
        let title = task_rows::get(tx, job.task_id)?.title;
        let mut result = match &reason {
            Some(r) => format!("{state}: {r}"),
            None => format!("{state} (exit code 0)"),
        };
        if !report.output.is_empty() {
            result.push('\n');
            result.push_str(&report.output);
        }
        queue::post(tx, &schedule, Some(&job), &firing_message(&job, &title, &result), now)?;
        if state == JobState::Failed {
            fire::job_failed(tx, ctx, &job)?;
        }
        Ok(AfterRun::Done(job))
    })
}

/// Marks these running Jobs `interrupted` (the daemon is shutting down on SIGTERM).
pub fn interrupt(store: &mut Store, ctx: &Context, job_ids: &[i64], why: &str) -> Result<Vec<Job>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut out = Vec::new();
        for &id in job_ids {
            let job = reread(tx, id)?;
            if matches!(job.state, JobState::Running | JobState::Deferred) {
                out.push(interrupt_job(tx, &job, why, now)?);
            }
        }
        Ok(out)
    })
}

/// Returns the command of a started Job's snapshot, if it is a command Job.
pub fn command_of(started: &StartedJob) -> Option<&crate::model::schedule::CommandAction> {
    match &started.job.snapshot.action {
        Action::Command(c) => Some(c),
        _ => None,
    }
}
