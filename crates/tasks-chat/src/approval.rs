//! Approving or rejecting what a scheduled prompt proposed (issue 13, seed 004 §6): the
//! writes a prompt Job parked in `waiting_approval` run when a person approves — by the
//! chat's button, `/approve N`, or `tasks jobs approve N` — and the same Job and Run
//! end `succeeded`; rejected, nothing of them runs and the Job ends `failed`. An
//! approval is used once: a second press finds the Job no longer waiting.

use tasks_core::Result;
use tasks_core::model::schedule::Action;
use tasks_core::ops::Context;
use tasks_core::ops::schedule::Job;
use tasks_core::ops::schedule::prompt::{self, PromptEnd};
use tasks_core::port::Engine;

use crate::offline::Lang;
use crate::prompt_run;
use crate::reply::Voice;

/// What an approval did.
#[derive(Debug, Clone)]
pub struct Approved {
    /// The Job, after.
    pub job: Job,
    /// What each write did, one line each.
    pub reply: String,
}

/// Runs the writes a Job waits to have approved, and ends the Job.
pub fn approve(store: &mut dyn Engine, ctx: &Context, job_id: i64) -> Result<Approved> {
    let waiting = prompt::awaiting(store, job_id)?;
    let lang = match &waiting.job.snapshot.action {
        Action::Prompt(p) => Lang::of(&p.text),
        _ => Lang::En,
    };
    let voice = Voice { lang, today: ctx.today(), zone: ctx.zone.clone(), now_ms: ctx.now_ms() };
    let calls = prompt_run::calls_of(&waiting.calls);
    let reply = prompt_run::run_approved(store, ctx, &calls, &voice)?;
    let output = format!("approved by {}:\n{reply}", ctx.actor);
    let end = PromptEnd { succeeded: true, output, reason: None };
    let job = prompt::finish(store, ctx, job_id, waiting.run_id, &end)?;
    Ok(Approved { job, reply })
}

/// Rejects what a Job waits to have approved: nothing of it runs.
pub fn reject(store: &mut dyn Engine, ctx: &Context, job_id: i64) -> Result<Job> {
    prompt::reject(store, ctx, job_id)
}
