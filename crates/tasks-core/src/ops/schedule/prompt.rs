//! Prompt Jobs as the conversation runs them (issue 13, seed 004 §6): a firing parked
//! in a conversation's queue becomes `running` when its turn comes (`queue::take_next`),
//! then ends one of three ways, each one transaction that also posts the result into
//! the conversation with the task's name, the trigger and the time:
//! - [`finish`]: succeeded or failed (a budget hit, a model that could not be reached),
//!   with the output and any refusals recorded on the Run;
//! - [`park_for_approval`]: the writes it proposes wait in `waiting_approval` with the
//!   Run still open, until a person approves ([`approved`], then [`finish`]) or rejects
//!   ([`reject`]). A firing never approves anything by itself.
//!
//! Running the model and the tools is the conversation's job (`tasks-chat`); this
//! module only keeps the Job, its Run and its conversation right.

use super::fire::{self, firing_message};
use super::queue;
use super::{Job, PromptAction, QueueItem};
use crate::error::{Error, Result};
use crate::model::schedule::{Action, JobState, RunState};
use crate::ops::Context;
use crate::port::{Engine, Reads, RunEnd, Writes};

/// A prompt Job whose turn has come.
#[derive(Debug, Clone)]
pub struct PromptTurn {
    /// The Job (state `running`).
    pub job: Job,
    /// Its open Run.
    pub run_id: i64,
    /// The prompt, frozen at the Job's creation.
    pub action: PromptAction,
    /// The task's title.
    pub title: String,
}

/// Returns the prompt Job of a running firing item, with its open Run.
pub fn turn_of(store: &dyn Engine, item: &QueueItem) -> Result<Option<PromptTurn>> {
    let Some(job_id) = item.job_id else { return Ok(None) };
    let conn = store.reader();
    let job = reread(conn, job_id)?;
    let Action::Prompt(action) = job.snapshot.action.clone() else { return Ok(None) };
    let Some(run) = conn.runs_of_job(job_id)?.into_iter().rev().find(|r| r.state == RunState::Running) else {
        return Ok(None);
    };
    let title = conn.task(job.task_id)?.title;
    Ok(Some(PromptTurn { job, run_id: run.id, action, title }))
}

/// How a prompt Run ended.
#[derive(Debug, Clone)]
pub struct PromptEnd {
    /// Whether it succeeded.
    pub succeeded: bool,
    /// What it answered (or did), for the conversation and the Run.
    pub output: String,
    /// Why it failed, when it did ("budget: …", "the model …").
    pub reason: Option<String>,
}

/// Records the end of a prompt Run (open, or waiting for approval), sets the Job's final
/// state and posts the result into its conversation.
pub fn finish(store: &mut dyn Engine, ctx: &Context, job_id: i64, run_id: i64, end: &PromptEnd) -> Result<Job> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if !matches!(job.state, JobState::Running | JobState::WaitingApproval) {
            // Interrupted or cancelled meanwhile: the Run is recorded, the Job keeps its state.
            close_run(tx, run_id, end, now)?;
            return Ok(job);
        }
        close_run(tx, run_id, end, now)?;
        let state = if end.succeeded { JobState::Succeeded } else { JobState::Failed };
        tx.set_job_state(job_id, state, end.reason.as_deref(), now)?;
        tx.set_pending_calls(job_id, None)?;
        let job = reread(tx, job_id)?;
        let result = match &end.reason {
            Some(r) => format!("{state}: {r}\n{}", end.output),
            None => format!("{state}\n{}", end.output),
        };
        post(tx, &job, result.trim_end(), now)?;
        if state == JobState::Failed {
            fire::job_failed(tx, ctx, &job)?;
        }
        Ok(job)
    })
}

/// Parks a running prompt Job until a person approves the writes it proposes: the Job is
/// `waiting_approval`, its Run stays open, `calls` (the chat's JSON) is kept, and the
/// question is posted into the conversation.
pub fn park_for_approval(
    store: &mut dyn Engine,
    ctx: &Context,
    job_id: i64,
    calls: &str,
    question: &str,
) -> Result<Job> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if job.state != JobState::Running {
            return Err(Error::WrongState {
                key: format!("Job #{job_id}"),
                status: job.state.to_string(),
                reason: "only a running prompt Job can wait for approval".into(),
            });
        }
        tx.set_job_state(job_id, JobState::WaitingApproval, Some("waiting for approval"), now)?;
        tx.set_pending_calls(job_id, Some(calls))?;
        let job = reread(tx, job_id)?;
        post(tx, &job, &format!("waiting for approval: {question}"), now)?;
        Ok(job)
    })
}

/// A Job waiting for approval: what it proposes and its open Run.
#[derive(Debug, Clone)]
pub struct Awaiting {
    /// The Job.
    pub job: Job,
    /// Its open Run.
    pub run_id: i64,
    /// The proposed calls (the chat's JSON).
    pub calls: String,
}

/// Returns what a Job waiting for approval proposes; refuses a Job in any other state
/// (an approval is used once).
pub fn awaiting(store: &dyn Engine, job_id: i64) -> Result<Awaiting> {
    let conn = store.reader();
    let job = reread(conn, job_id)?;
    if job.state != JobState::WaitingApproval {
        return Err(Error::WrongState {
            key: format!("Job #{job_id}"),
            status: job.state.to_string(),
            reason: "only a Job waiting for approval can be approved or rejected".into(),
        });
    }
    let calls = conn.pending_calls(job_id)?.unwrap_or_default();
    let run_id = conn
        .runs_of_job(job_id)?
        .into_iter()
        .rev()
        .find(|r| r.state == RunState::Running)
        .map(|r| r.id)
        .ok_or_else(|| Error::NotFound { what: "open run", value: format!("Job #{job_id}") })?;
    Ok(Awaiting { job, run_id, calls })
}

/// Rejects what a Job waiting for approval proposes: nothing of it runs; the Job fails
/// with the reason, and the conversation is told.
pub fn reject(store: &mut dyn Engine, ctx: &Context, job_id: i64) -> Result<Job> {
    let a = awaiting(store, job_id)?;
    let end = PromptEnd {
        succeeded: false,
        output: String::new(),
        reason: Some(format!("rejected by {}; nothing of it was done", ctx.actor)),
    };
    finish(store, ctx, job_id, a.run_id, &end)
}

fn close_run(tx: &dyn Writes, run_id: i64, end: &PromptEnd, now: i64) -> Result<()> {
    let state = if end.succeeded { RunState::Succeeded } else { RunState::Failed };
    tx.finish_run(
        run_id,
        &RunEnd { state, exit_code: None, output: Some(&end.output), output_dropped: 0, error: end.reason.as_deref() },
        now,
    )
}

fn post(tx: &dyn Writes, job: &Job, result: &str, now: i64) -> Result<()> {
    let schedule = tx.schedule(job.schedule_id)?;
    let title = tx.task(job.task_id)?.title;
    queue::post(tx, &schedule, Some(job), &firing_message(job, &title, result), now)
}

fn reread(conn: &dyn Reads, id: i64) -> Result<Job> {
    conn.job(id)?.ok_or_else(|| Error::NotFound { what: "job", value: id.to_string() })
}
