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

use super::fire::stops_schedule;
use super::fire::{self, firing_message};
use super::limits::{RETRY_MAX_RUNS, TRANSIENT_EXIT_CODE, retry_backoff};
use super::queue;
use super::{Job, local_date, schedule_actor};
use crate::error::{Error, Result};
use crate::model::schedule::{Action, JobState, RunState};
use crate::model::{Due, Status};
use crate::ops::Context;
use crate::ops::status;
use crate::port::{Column, Engine, Reads, Run, RunEnd, Writes};
use crate::store::events::{Change, DueChange, DueValue, EventChange};

/// Who runs a Job, and how long their hold on its Run lasts unless renewed.
///
/// Every Run a daemon starts is leased to it (`owner`, `lease_until` on the Run); the
/// daemon renews its leases while it lives ([`renew`]). On a store several daemons
/// share, a Run whose lease ended belongs to a daemon that died: the first daemon to
/// see it records it interrupted ([`recover`]), once, and nobody runs it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// `host:pid:start-ms`: which daemon, on which machine.
    pub owner: String,
    /// How long a lease lasts from its last renewal, ms.
    pub length_ms: i64,
}

impl Lease {
    /// Returns the machine part of the owner (what a daemon compares to find Runs of its
    /// own machine, whose process ids mean something here).
    pub fn host(&self) -> &str {
        self.owner.split(':').next().unwrap_or_default()
    }
}

/// Renews this daemon's leases on the Runs it runs; returns how many.
pub fn renew(store: &mut dyn Engine, ctx: &Context, lease: &Lease) -> Result<usize> {
    let until = ctx.now_ms().saturating_add(lease.length_ms);
    store.write(|tx| tx.renew_run_leases(&lease.owner, until))
}

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
/// On SQLite, call it right after taking the daemon lock: no live runner exists then,
/// so every `running` due/command Job belongs to a process that died. On a shared store
/// (PostgreSQL) other daemons live: only Jobs whose Run's lease ended are taken, each by
/// one daemon (the port holds them for this write). Such a Job is never run again (its
/// firing may have had effects). Prompt Jobs belong to the conversation and are left
/// alone.
pub fn recover(store: &mut dyn Engine, ctx: &Context) -> Result<Vec<Job>> {
    let now = ctx.now_ms();
    let shared = store.reader().is_shared();
    store.write(|tx| {
        let mut out = Vec::new();
        let lease_ended_before = shared.then_some(now);
        for job in tx.take_abandoned_jobs(lease_ended_before)? {
            let reason = if shared {
                let owner = tx
                    .runs_of_job(job.id)?
                    .into_iter()
                    .rev()
                    .find(|r| r.state == RunState::Running)
                    .and_then(|r| r.owner)
                    .unwrap_or_else(|| "a daemon".into());
                format!("the daemon running this Job ({owner}) stopped renewing its lease; not replayed")
            } else {
                "the daemon stopped while this Job ran (found at the next start); not replayed".to_string()
            };
            out.push(interrupt_job(tx, &job, &reason, now)?);
        }
        Ok(out)
    })
}

/// A program a dead daemon started that may still run: its Job, and the process group
/// it leads (the daemon starts every command as a group leader, pgid = pid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orphan {
    /// The Job.
    pub job_id: i64,
    /// The recorded process id, which is also the group id.
    pub pid: u32,
}

/// Returns the programs of Runs a dead daemon left `running`: the daemon that starts
/// next kills what is left of their groups before [`recover`] marks them interrupted,
/// so nothing runs on unsupervised past its timeout. On a shared store only Runs of
/// this machine (`lease`'s host) whose lease ended: a process id means nothing on
/// another machine, and a live lease is a live daemon's.
pub fn orphans(store: &dyn Engine, ctx: &Context, lease: &Lease) -> Result<Vec<Orphan>> {
    let shared = store.reader().is_shared();
    let now = ctx.now_ms();
    let abandoned = |run: &Run| {
        !shared
            || (run.lease_until.is_none_or(|until| until < now)
                && run.owner.as_deref().is_some_and(|o| o.split(':').next() == Some(lease.host())))
    };
    Ok(running_runs(store.reader())?
        .into_iter()
        .filter(|(_, run)| abandoned(run))
        .filter_map(|(job, run)| run.pid.map(|pid| Orphan { job_id: job.id, pid }))
        .collect())
}

/// The running due/command Jobs with their running Runs (what [`orphans`] and
/// [`leased_to`] look through).
fn running_runs(conn: &dyn Reads) -> Result<Vec<(Job, Run)>> {
    let mut out = Vec::new();
    for job in conn.daemon_running_jobs()? {
        for run in conn.runs_of_job(job.id)?.into_iter().filter(|r| r.state == RunState::Running) {
            out.push((job.clone(), run));
        }
    }
    Ok(out)
}

fn interrupt_job(tx: &dyn Writes, job: &Job, reason: &str, now: i64) -> Result<Job> {
    tx.interrupt_runs(job.id, reason, now)?;
    tx.set_job_state(job.id, JobState::Interrupted, Some(reason), now)?;
    let job = reread(tx, job.id)?;
    let schedule = tx.schedule(job.schedule_id)?;
    let title = tx.task(job.task_id)?.title;
    queue::post(tx, &schedule, Some(&job), &firing_message(&job, &title, &format!("interrupted: {reason}")), now)?;
    Ok(job)
}

fn reread(tx: &dyn Reads, id: i64) -> Result<Job> {
    tx.job(id)?.ok_or_else(|| Error::NotFound { what: "job", value: id.to_string() })
}

/// Starts the oldest startable Job: a queued due/command Job, or a deferred one whose
/// retry time has come, of a schedule with a free slot. Returns `None` when none is.
///
/// A Job whose task was dismissed since it was made is `skipped` instead.
/// `busy` lists Jobs the caller is running or waiting to retry itself; they are left alone.
pub fn start_next(store: &mut dyn Engine, ctx: &Context, busy: &[i64], lease: &Lease) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut passed = busy.to_vec();
        while let Some(job) = tx.pick_startable_job(now, &passed)? {
            let task = tx.task(job.task_id)?;
            if stops_schedule(task.status) {
                let reason = format!("{} is {}: a dismissed task's schedule does not fire", task.key, task.status);
                tx.set_job_state(job.id, JobState::Skipped, Some(&reason), now)?;
                let job = reread(tx, job.id)?;
                let schedule = tx.schedule(job.schedule_id)?;
                queue::post(tx, &schedule, Some(&job), &firing_message(&job, &task.title, "skipped"), now)?;
                passed.push(job.id);
                continue;
            }
            return Ok(Some(begin(tx, job.id, now, lease)?));
        }
        Ok(None)
    })
}

/// Starts one queued due/command Job (`run-now` runs its own Job at once); `None` when
/// it is not queued any more or is a prompt Job.
pub fn start(store: &mut dyn Engine, ctx: &Context, job_id: i64, lease: &Lease) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if job.state != JobState::Queued || matches!(job.snapshot.action, Action::Prompt(_)) {
            return Ok(None);
        }
        Ok(Some(begin(tx, job_id, now, lease)?))
    })
}

fn begin(tx: &dyn Writes, job_id: i64, now: i64, lease: &Lease) -> Result<StartedJob> {
    let attempt = tx.start_job(job_id, now)?;
    let run_id = tx.insert_run(job_id, attempt, now)?;
    tx.lease_run(run_id, &lease.owner, now.saturating_add(lease.length_ms))?;
    Ok(StartedJob { job: reread(tx, job_id)?, run_id, attempt })
}

/// Starts the next Run of a deferred Job (a retry); `None` when the Job is no longer
/// deferred (removed, or recovered by another start).
pub fn begin_retry(store: &mut dyn Engine, ctx: &Context, job_id: i64, lease: &Lease) -> Result<Option<StartedJob>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, job_id)?;
        if job.state != JobState::Deferred {
            return Ok(None);
        }
        Ok(Some(begin(tx, job_id, now, lease)?))
    })
}

/// Returns the Jobs running under this daemon's lease, as started: what a daemon
/// whose start of a Job committed while its connection dropped (so it never heard)
/// takes up again — the Job is its own, its program has not run.
pub fn leased_to(store: &dyn Engine, lease: &Lease) -> Result<Vec<StartedJob>> {
    Ok(running_runs(store.reader())?
        .into_iter()
        .filter(|(_, run)| run.owner.as_deref() == Some(lease.owner.as_str()))
        .map(|(job, run)| StartedJob { job, run_id: run.id, attempt: run.attempt })
        .collect())
}

/// Records a command's process id on its Run (what the next daemon on this machine
/// kills the group of, when this one died while the command ran).
pub fn record_pid(store: &mut dyn Engine, run_id: i64, pid: u32) -> Result<()> {
    store.write(|tx| tx.set_run_pid(run_id, pid))
}

/// Applies a started `due` Job: sets the task's due to the firing's local date (in the
/// snapshot's zone) and reopens it when done — one task, as Todoist does — then marks
/// the Run and the Job succeeded, all in one transaction with the task's events.
pub fn apply_due(store: &mut dyn Engine, ctx: &Context, started: &StartedJob) -> Result<Job> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let job = reread(tx, started.job.id)?;
        if job.state != JobState::Running {
            // Interrupted meanwhile (its lease ended while this daemon was stalled): the
            // Job keeps the state it was given and the task is not touched.
            return Ok(job);
        }
        let actor = schedule_actor(ctx, job.schedule_id);
        let task = tx.task(job.task_id)?;
        let date = local_date(job.scheduled_for, &job.snapshot.zone)?;
        let due = Some(Due::day(date));
        let mut changes = Map::new();
        let mut said = vec![format!("due {date}")];
        if task.due != due {
            tx.set_task_column(task.id, Column::Due(due), now)?;
            let change = DueChange { due: Change(task.due.map(DueValue::from), due.map(DueValue::from)) };
            changes.insert("due".into(), serde_json::to_value(&change.due)?);
            tx.record_event(task.id, now, &actor.actor, &EventChange::Due(change))?;
        }
        if task.status == Status::Done {
            status::change(tx, &actor, task.clone(), Status::Open, None)?;
            changes.insert("status".into(), json!([task.status.as_str(), "open"]));
            said.push("reopened".into());
        }
        tx.index_task(task.id)?;
        let summary = said.join(", ");
        let end = RunEnd {
            state: RunState::Succeeded,
            exit_code: None,
            output: Some(&summary),
            output_dropped: 0,
            error: None,
        };
        tx.finish_run(started.run_id, &end, now)?;
        tx.set_job_state(job.id, JobState::Succeeded, None, now)?;
        tx.insert_artifact(job.id, Some(started.run_id), "task_change", &Value::Object(changes).to_string(), now)?;
        let job = reread(tx, job.id)?;
        let schedule = tx.schedule(job.schedule_id)?;
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
pub fn finish(store: &mut dyn Engine, ctx: &Context, started: &StartedJob, report: &RunReport) -> Result<AfterRun> {
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
        tx.finish_run(started.run_id, &end, now)?;
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
            tx.defer_job(job.id, now + after.as_millis() as i64, &reason, now)?;
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
        tx.set_job_state(job.id, state, reason.as_deref(), now)?;
        let job = reread(tx, job.id)?;
        let schedule = tx.schedule(job.schedule_id)?;
        let title = tx.task(job.task_id)?.title;
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
pub fn interrupt(store: &mut dyn Engine, ctx: &Context, job_ids: &[i64], why: &str) -> Result<Vec<Job>> {
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

#[cfg(test)]
mod tests {
    use crate::Store;
    #[allow(unused_imports)]
    use crate::store::jobs;
    use jiff::civil::{Time, date};
    use tasks_schedule::{MissedPolicy, Trigger};

    use super::*;
    use crate::model::schedule::{CommandAction, PromptAction, PromptMode, When};
    use crate::ops::add::{AddRequest as TaskRequest, DupChoice};
    use crate::ops::schedule::fire;
    use crate::ops::schedule::limits::RETRY_FIRST_BACKOFF;
    use crate::ops::schedule::manage::{self, AddRequest};
    use crate::store::events::Event;

    struct Env {
        _dir: tempfile::TempDir,
        store: Store,
    }

    fn env() -> Env {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).expect("store");
        Env { _dir: dir, store }
    }

    fn at_ms(ms: i64) -> Context {
        Context::new(crate::time::from_ms(ms), "tester", jiff::tz::TimeZone::UTC)
    }

    fn ctx(now: &str) -> Context {
        Context::new(now.parse().expect("an RFC 3339 instant"), "tester", jiff::tz::TimeZone::UTC)
    }

    /// The clock of most steps here.
    const NOW: &str = "2026-11-29T12:00:00Z";

    fn command() -> Action {
        Action::Command(CommandAction {
            argv: vec!["sync".into()],
            workdir: env!("CARGO_MANIFEST_DIR").into(),
            env_allow: Vec::new(),
            timeout_seconds: 60,
            output_budget_bytes: 1024,
        })
    }

    /// A new task scheduled daily at `hour` in `zone` with this action; returns its key.
    fn scheduled(env: &mut Env, title: &str, hour: i8, zone: &str, action: Action, max_active: u32) -> String {
        let mut req = TaskRequest::titled(title);
        req.dup_choice = DupChoice::New;
        let key = crate::ops::add::add(&mut env.store, &ctx("2026-11-01T00:00:00Z"), &req).expect("add").task.key;
        let req = AddRequest {
            task: key.clone(),
            when: When::Time(Trigger::Daily { time: Time::constant(hour, 30, 0, 0) }),
            zone: zone.into(),
            missed: MissedPolicy::RunOnce,
            action,
            max_active,
            conversation: None,
            replace: false,
        };
        manage::add(&mut env.store, &ctx("2026-11-01T00:00:00Z"), &req).expect("schedule");
        key
    }

    fn run_now(env: &mut Env, key: &str, run_key: &str) -> Job {
        manage::run_now(&mut env.store, &ctx(NOW), key, run_key).expect("run now").job
    }

    fn report(outcome: Outcome, exit_code: Option<i32>, error: Option<&str>) -> RunReport {
        RunReport { outcome, exit_code, output: String::new(), output_dropped: 0, error: error.map(String::from) }
    }

    fn state_of(env: &Env, id: i64) -> JobState {
        manage::job(&env.store, id).expect("job").job.state
    }

    #[test]
    fn an_exit_code_is_success_transient_or_failure() {
        let check = |code: i32, expected: Outcome| assert_eq!(RunReport::outcome_of_exit(code), expected, "{code}");
        check(0, Outcome::Succeeded);
        check(TRANSIENT_EXIT_CODE, Outcome::Transient);
        check(1, Outcome::Failed);
        check(2, Outcome::Failed);
        check(74, Outcome::Failed);
        check(76, Outcome::Failed);
        check(255, Outcome::Failed);
        check(-1, Outcome::Failed);
    }

    /// Runs one command Job through Runs that end as `reports`, each retry started by
    /// `start_next` exactly when its wait is over; returns what the runner was told
    /// after each Run.
    #[track_caller]
    fn check_runs(reports: &[RunReport], expected: &[&str]) {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &key, "k");
        let mut now = ctx(NOW).now_ms();
        let mut started =
            start(&mut env.store, &at_ms(now), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        let mut said = Vec::new();
        for (i, report) in reports.iter().enumerate() {
            assert_eq!(started.attempt as usize, i + 1);
            match finish(&mut env.store, &at_ms(now), &started, report).expect("finish") {
                AfterRun::Done(job) => {
                    said.push(format!("{}: {}", job.state, job.reason.as_deref().unwrap_or("-")));
                    assert_eq!(i + 1, reports.len(), "a final state ends the Runs");
                }
                AfterRun::Retry { job, after } => {
                    said.push(format!("retry in {}s: {}", after.as_secs(), job.reason.as_deref().unwrap_or("-")));
                    let retry_at = now + after.as_millis() as i64;
                    assert_eq!(job.retry_at, Some(retry_at));
                    assert!(
                        start_next(&mut env.store, &at_ms(retry_at - 1), &[], &crate::fixtures::lease())
                            .expect("start")
                            .is_none(),
                        "too early"
                    );
                    now = retry_at;
                    started = start_next(&mut env.store, &at_ms(now), &[], &crate::fixtures::lease())
                        .expect("start")
                        .expect("the retry");
                    assert_eq!(started.job.id, job.id);
                }
            }
        }
        assert_eq!(said, expected);
        let runs = manage::job(&env.store, job.id).expect("job").runs;
        assert_eq!(runs.len(), reports.len(), "one Run per attempt");
    }

    #[test]
    fn a_run_ends_the_job_or_retries_a_transient_failure_with_a_bound() {
        let exit = |code: i32| report(RunReport::outcome_of_exit(code), Some(code), None);
        let transient = "transient failure (exit code 75)";
        check_runs(&[exit(0)], &["succeeded: -"]);
        check_runs(&[exit(2)], &["failed: exit code 2"]);
        check_runs(&[report(Outcome::Failed, None, None)], &["failed: no exit code"]);
        check_runs(&[exit(75), exit(0)], &[&format!("retry in 1s: {transient}; Run 2 of 3 in 1s"), "succeeded: -"]);
        check_runs(
            &[exit(75), exit(75), exit(75)],
            &[
                &format!("retry in 1s: {transient}; Run 2 of 3 in 1s"),
                &format!("retry in 2s: {transient}; Run 3 of 3 in 2s"),
                &format!("failed: {transient}; gave up after 3 Runs"),
            ],
        );
        check_runs(
            &[exit(75), exit(1)],
            &[&format!("retry in 1s: {transient}; Run 2 of 3 in 1s"), "failed: exit code 1"],
        );
        check_runs(
            &[report(Outcome::Transient, None, Some("resource temporarily unavailable")), exit(0)],
            &["retry in 1s: transient failure (resource temporarily unavailable); Run 2 of 3 in 1s", "succeeded: -"],
        );
        check_runs(&[report(Outcome::TimedOut, None, Some("timed out after 60s"))], &["failed: timed out after 60s"]);
        check_runs(
            &[report(Outcome::OutcomeUnknown, None, Some("killed by signal 9"))],
            &["outcome_unknown: killed by signal 9; not retried"],
        );
        check_runs(
            &[report(Outcome::NotStarted, None, Some("program not found: sync"))],
            &["failed: program not found: sync (configuration; not retried)"],
        );
    }

    #[test]
    fn the_first_retry_waits_the_first_backoff() {
        assert_eq!(retry_backoff(1), RETRY_FIRST_BACKOFF, "the table above says 1s");
    }

    #[test]
    fn each_run_records_how_it_ended() {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &key, "k");
        let started =
            start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        record_pid(&mut env.store, started.run_id, 4242).expect("pid");
        let end = RunReport {
            outcome: Outcome::OutcomeUnknown,
            exit_code: None,
            output: "half done".into(),
            output_dropped: 17,
            error: Some("killed by signal 9".into()),
        };
        finish(&mut env.store, &ctx("2026-11-29T12:00:05Z"), &started, &end).expect("finish");
        let run = &manage::job(&env.store, job.id).expect("job").runs[0];
        assert_eq!((run.state, run.exit_code, run.pid), (RunState::OutcomeUnknown, None, Some(4242)));
        assert_eq!(
            (run.output.as_deref(), run.output_dropped, run.error.as_deref()),
            (Some("half done"), 17, Some("killed by signal 9"))
        );
        assert_eq!(run.finished_at, Some(ctx("2026-11-29T12:00:05Z").now_ms()));
        let posted = queue::messages(&env.store, None, 100).expect("messages");
        let last = &posted.last().expect("a message").text;
        assert!(last.ends_with("outcome_unknown: killed by signal 9; not retried\nhalf done"), "{last}");
    }

    #[test]
    fn a_job_interrupted_while_its_run_ran_keeps_its_state() {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &key, "k");
        let started =
            start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        let stopped = interrupt(&mut env.store, &ctx(NOW), &[job.id], "shutting down").expect("interrupt");
        assert_eq!(stopped.len(), 1);
        let after =
            finish(&mut env.store, &ctx(NOW), &started, &report(Outcome::Succeeded, Some(0), None)).expect("finish");
        let AfterRun::Done(done) = after else { panic!("an interrupted Job is not retried") };
        assert_eq!(done.state, JobState::Interrupted);
        assert_eq!(done.reason.as_deref(), Some("shutting down"));
        let run = &manage::job(&env.store, job.id).expect("job").runs[0];
        assert_eq!(run.state, RunState::Succeeded, "the Run says how it really ended");
    }

    #[test]
    fn a_transient_failure_of_an_interrupted_job_is_not_retried() {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &key, "k");
        let started =
            start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        interrupt(&mut env.store, &ctx(NOW), &[job.id], "shutting down").expect("interrupt");
        let after =
            finish(&mut env.store, &ctx(NOW), &started, &report(Outcome::Transient, Some(75), None)).expect("finish");
        assert!(matches!(after, AfterRun::Done(ref j) if j.state == JobState::Interrupted), "{after:?}");
        assert_eq!(jobs::next_retry_at(env.store.conn()).expect("retry"), None, "no retry waits");
    }

    #[test]
    fn shutting_down_interrupts_running_and_deferred_jobs_only() {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 4);
        let running = run_now(&mut env, &key, "running");
        let deferred = run_now(&mut env, &key, "deferred");
        let queued = run_now(&mut env, &key, "queued");
        let finished = run_now(&mut env, &key, "finished");
        start(&mut env.store, &ctx(NOW), running.id, &crate::fixtures::lease()).expect("start").expect("queued");
        let d =
            start(&mut env.store, &ctx(NOW), deferred.id, &crate::fixtures::lease()).expect("start").expect("queued");
        finish(&mut env.store, &ctx(NOW), &d, &report(Outcome::Transient, Some(75), None)).expect("finish");
        let f =
            start(&mut env.store, &ctx(NOW), finished.id, &crate::fixtures::lease()).expect("start").expect("queued");
        finish(&mut env.store, &ctx(NOW), &f, &report(Outcome::Succeeded, Some(0), None)).expect("finish");
        let ids = [running.id, deferred.id, queued.id, finished.id];
        let stopped = interrupt(&mut env.store, &ctx(NOW), &ids, "SIGTERM").expect("interrupt");
        assert_eq!(stopped.iter().map(|j| j.id).collect::<Vec<_>>(), [running.id, deferred.id]);
        let states: Vec<JobState> = ids.iter().map(|id| state_of(&env, *id)).collect();
        assert_eq!(states, [JobState::Interrupted, JobState::Interrupted, JobState::Queued, JobState::Succeeded]);
        let run = &manage::job(&env.store, running.id).expect("job").runs[0];
        assert_eq!((run.state, run.error.as_deref()), (RunState::Interrupted, Some("SIGTERM")));
    }

    #[test]
    fn the_daemon_starts_neither_prompt_jobs_nor_jobs_that_are_not_queued() {
        let mut env = env();
        let prompt = Action::Prompt(PromptAction {
            text: "Summarize".into(),
            mode: PromptMode::Ask,
            tools: "read_only".into(),
            approval: "never".into(),
            timeout_seconds: 60,
            max_tool_calls: 5,
            output_budget_bytes: 1024,
            max_model_calls: 6,
        });
        let digest = scheduled(&mut env, "Weekly digest", 8, "UTC", prompt, 1);
        let parked = run_now(&mut env, &digest, "k");
        assert_eq!(parked.state, JobState::Queued);
        assert!(
            start(&mut env.store, &ctx(NOW), parked.id, &crate::fixtures::lease()).expect("start").is_none(),
            "the conversation runs it"
        );
        let sync = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &sync, "k");
        start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        assert!(
            start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").is_none(),
            "it runs already"
        );
        assert!(
            begin_retry(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("retry").is_none(),
            "it is not deferred"
        );
    }

    #[test]
    fn a_job_of_a_task_dismissed_since_it_was_made_is_skipped_and_the_next_one_starts() {
        let mut env = env();
        let a = scheduled(&mut env, "Water the plants", 3, "UTC", Action::Due, 1);
        let b = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let c = scheduled(&mut env, "Back up the mail", 3, "UTC", command(), 1);
        let ja = run_now(&mut env, &a, "k");
        let jb = run_now(&mut env, &b, "k");
        let jc = run_now(&mut env, &c, "k");
        crate::ops::status::dismiss(&mut env.store, &ctx(NOW), &a, None).expect("dismiss");
        let started =
            start_next(&mut env.store, &ctx(NOW), &[jb.id], &crate::fixtures::lease()).expect("start").expect("a Job");
        assert_eq!(started.job.id, jc.id, "the dismissed task's Job is passed over, and so is the busy one");
        let skipped = manage::job(&env.store, ja.id).expect("job").job;
        assert_eq!(skipped.state, JobState::Skipped);
        assert_eq!(skipped.reason, Some(format!("{a} is dismissed: a dismissed task's schedule does not fire")));
        assert_eq!(state_of(&env, jb.id), JobState::Queued);
    }

    #[test]
    fn a_due_firing_sets_the_local_date_and_reopens_a_done_task_as_the_schedule() {
        let mut env = env();
        // 00:30 in Berlin is 23:30 UTC the day before.
        let key = scheduled(&mut env, "Water the plants", 0, "Europe/Berlin", Action::Due, 1);
        crate::ops::status::done(&mut env.store, &ctx("2026-11-29T20:00:00Z"), &key).expect("done");
        let made = fire::plan_due(&mut env.store, &ctx("2026-11-29T23:30:05Z")).expect("plan").jobs;
        assert_eq!(made.len(), 1);
        let now = ctx("2026-11-29T23:30:06Z");
        let started =
            start_next(&mut env.store, &now, &[], &crate::fixtures::lease()).expect("start").expect("the Job");
        assert!(command_of(&started).is_none(), "a due Job runs no program");
        let job = apply_due(&mut env.store, &now, &started).expect("apply");
        assert_eq!(job.state, JobState::Succeeded);
        let task = crate::ops::query::get(&env.store, &key).expect("task");
        assert_eq!(task.status, Status::Open);
        assert_eq!(task.due, Some(Due::day(date(2026, 11, 30))), "the date in Berlin");
        let (_, history) = crate::ops::query::history(&env.store, &key).expect("history");
        let by_schedule: Vec<&Event> = history.iter().filter(|e| e.actor == "schedule:1").collect();
        assert_eq!(by_schedule.len(), 2, "the due change and the reopening: {history:?}");
        let detail = manage::job(&env.store, job.id).expect("job");
        assert_eq!(detail.runs[0].output.as_deref(), Some("due 2026-11-30, reopened"));
        let artifact = &detail.artifacts[0];
        assert_eq!(artifact.kind, "task_change");
        let change: Value = serde_json::from_str(artifact.text.as_deref().expect("text")).expect("json");
        assert_eq!(change["status"], json!(["done", "open"]));
        assert_eq!(change["due"], json!([null, {"date": "2026-11-30", "kind": "day"}]));
    }

    #[test]
    fn a_due_already_set_is_not_written_again() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants", 3, "UTC", Action::Due, 1);
        for run_key in ["first", "second"] {
            let job = run_now(&mut env, &key, run_key);
            let started =
                start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
            apply_due(&mut env.store, &ctx(NOW), &started).expect("apply");
        }
        let jobs = manage::jobs(&env.store, Some(&key), None, 2).expect("jobs");
        let second = &jobs[0];
        assert_eq!(second.runs[0].output.as_deref(), Some("due 2026-11-29"));
        assert_eq!(second.artifacts[0].text.as_deref(), Some("{}"), "nothing changed");
        let (_, history) = crate::ops::query::history(&env.store, &key).expect("history");
        assert_eq!(history.iter().filter(|e| e.actor == "schedule:1").count(), 1);
    }

    #[test]
    fn a_command_job_gives_its_command_to_the_daemon() {
        let mut env = env();
        let key = scheduled(&mut env, "Sync the photos", 3, "UTC", command(), 1);
        let job = run_now(&mut env, &key, "k");
        let started =
            start(&mut env.store, &ctx(NOW), job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        assert_eq!(command_of(&started).map(|c| c.argv.clone()), Some(vec!["sync".to_string()]));
    }
}
