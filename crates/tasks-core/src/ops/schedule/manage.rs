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
use super::{Artifact, Job, Run, Schedule, local_text, plan_of};
use crate::error::{Error, Result};
use crate::keys;
use crate::model::TaskType;
use crate::model::conversation::QueueState;
use crate::model::schedule::{Action, EventKind, JobKind, JobState, When};
use crate::ops::Context;
use crate::port::{Engine, Writes};
use crate::store::events::{Change, EventChange, ScheduleChanged};
use crate::store::schedules::NewSchedule;
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
fn check_when(tx: &dyn crate::port::Reads, when: &When, zone: &str, now: i64) -> Result<(When, String, Option<i64>)> {
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
                if tx.project_by_key(&key)?.is_none() {
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
pub fn add(store: &mut dyn Engine, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    store.write(|tx| add_in(tx, ctx, req))
}

/// [`add`] inside a caller's transaction (the page's create: task, conversation and
/// schedule commit together).
pub(crate) fn add_in(tx: &dyn Writes, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    check_action(&req.action)?;
    if req.max_active == 0 || req.max_active > MAX_ACTIVE_CEILING {
        return Err(Error::invalid(
            "max-active",
            req.max_active.to_string(),
            format!("must be between 1 and {MAX_ACTIVE_CEILING}"),
        ));
    }
    let now = ctx.now_ms();
    {
        let task_id = keys::resolve(tx, &req.task)?;
        let task = tx.task(task_id)?;
        let (when, zone, next_fire_at) = check_when(tx, &req.when, &req.zone, now)?;
        let existing = tx.live_schedule_of_task(task_id)?;
        // A replace without a conversation keeps the schedule where it posts.
        let conversation_id = match (req.conversation, &existing) {
            (Some(id), _) => {
                tx.conversation(id)?.ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?.id
            }
            (None, Some(old)) if req.replace => old.conversation_id,
            (None, _) => tx.local_conversation(queue::LOCAL_TITLE, now)?,
        };
        let event_cursor = match &when {
            When::Event(_) => tx.last_task_event_id()?,
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
        let (id, before) = match existing {
            Some(old) if req.replace => {
                tx.replace_schedule(old.id, &new)?;
                (old.id, Some(old))
            }
            Some(old) => return Err(Error::ScheduleExists { key: task.key, schedule_id: old.id }),
            None => (tx.insert_schedule(&new)?, None),
        };
        let schedule = tx.schedule(id)?;
        let text = describe(&schedule);
        tx.record_event(
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
    }
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
pub fn list(store: &dyn Engine, include_removed: bool) -> Result<Vec<Schedule>> {
    store.reader().schedules(include_removed)
}

/// Returns the live schedule of a task; not found names the task.
pub fn for_task(store: &dyn Engine, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(store.reader(), reference)?;
    store
        .reader()
        .live_schedule_of_task(task_id)?
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })
}

fn live_in_tx(tx: &dyn crate::port::Reads, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(tx, reference)?;
    tx.live_schedule_of_task(task_id)?
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
pub fn pause(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        if s.paused {
            return Ok(ScheduleChange { schedule: s, changed: false, cancelled: Vec::new() });
        }
        tx.set_schedule_paused(s.id, true, s.next_fire_at, s.event_cursor, now)?;
        let paused = ScheduleChanged { paused: Some(Change(false, true)), ..ScheduleChanged::default() };
        tx.record_event(s.task_id, now, &ctx.actor, &EventChange::Schedule(paused))?;
        queue::post(tx, &s, None, &format!("{} schedule #{} paused", s.task_key, s.id), now)?;
        Ok(ScheduleChange { schedule: tx.schedule(s.id)?, changed: true, cancelled: Vec::new() })
    })
}

/// Resumes a paused schedule from now: firings planned while it was paused are not
/// missed firings (pausing said "not now"), and events that happened meanwhile do not
/// fire it.
pub fn resume(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        if !s.paused {
            return Ok(ScheduleChange { schedule: s, changed: false, cancelled: Vec::new() });
        }
        let (next, cursor) = match &s.when {
            When::Time(t) => (plan_of(t, &s.zone)?.next_after(time::from_ms(now)).map(time::to_ms), s.event_cursor),
            When::Event(_) => (None, tx.last_task_event_id()?),
        };
        tx.set_schedule_paused(s.id, false, next, cursor, now)?;
        let resumed = ScheduleChanged { paused: Some(Change(true, false)), ..ScheduleChanged::default() };
        tx.record_event(s.task_id, now, &ctx.actor, &EventChange::Schedule(resumed))?;
        let s2 = tx.schedule(s.id)?;
        queue::post(tx, &s2, None, &format!("{} schedule #{} resumed: {}", s2.task_key, s2.id, describe(&s2)), now)?;
        Ok(ScheduleChange { schedule: s2, changed: true, cancelled: Vec::new() })
    })
}

/// Removes a task's schedule: no more firings; Jobs that have not started (queued,
/// deferred, parked prompts) are cancelled; running Jobs finish; history stays.
pub fn remove(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<ScheduleChange> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        tx.set_schedule_removed(s.id, &ctx.actor, now)?;
        let mut cancelled = Vec::new();
        for job in tx.active_jobs(s.id)? {
            if matches!(job.state, JobState::Queued | JobState::Deferred) {
                let reason = format!("schedule #{} was removed before the Job started", s.id);
                tx.set_job_state(job.id, JobState::Cancelled, Some(&reason), now)?;
                if let Some(item) = tx.queue_item_of_job(job.id)?
                    && item.state == QueueState::Pending
                {
                    tx.set_queue_state(item.id, QueueState::Removed, now)?;
                }
                cancelled.extend(tx.job(job.id)?);
            }
        }
        let removed =
            ScheduleChanged { schedule: Some(Change(Some(describe(&s)), None)), ..ScheduleChanged::default() };
        tx.record_event(s.task_id, now, &ctx.actor, &EventChange::Schedule(removed))?;
        queue::post(tx, &s, None, &format!("{} schedule #{} removed", s.task_key, s.id), now)?;
        Ok(ScheduleChange { schedule: tx.schedule(s.id)?, changed: true, cancelled })
    })
}

/// Returns the next `count` firings of a task's schedule strictly after `from`.
///
/// Refuses an event schedule (it has no planned times) and a count above
/// [`PREVIEW_MAX_COUNT`].
pub fn preview(
    store: &dyn Engine,
    reference: &str,
    from: jiff::Timestamp,
    count: usize,
) -> Result<(Schedule, Vec<Firing>)> {
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

/// Longest caller key of a run-now, in characters: a click id, a deploy number, a
/// commit hash — never prose.
pub const RUN_NOW_KEY_MAX_CHARS: usize = 200;

/// Makes a `manual` Job of a task's schedule for a caller key.
///
/// Idempotent per key: a second call with the same key returns the first Job. Never
/// moves `next_fire_at`. The usual limits apply: over the schedule's active-Job cap the
/// Job is made `skipped` (overlap); a prompt Job is parked in the conversation queue.
pub fn run_now(store: &mut dyn Engine, ctx: &Context, reference: &str, key: &str) -> Result<RunNowOutcome> {
    let key = key.trim();
    if key.is_empty() || key.chars().count() > RUN_NOW_KEY_MAX_CHARS {
        return Err(Error::invalid("key", key, format!("give a key of 1-{RUN_NOW_KEY_MAX_CHARS} characters")));
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let s = live_in_tx(tx, reference)?;
        let idempotency_key = format!("manual:{}:{key}", s.id);
        if let Some(job) = tx.job_by_key(&idempotency_key)? {
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
pub fn jobs(store: &dyn Engine, task: Option<&str>, state: Option<JobState>, limit: usize) -> Result<Vec<JobDetail>> {
    let conn = store.reader();
    let task_id = task.map(|t| keys::resolve(conn, t)).transpose()?;
    conn.jobs(task_id, state, limit)?
        .into_iter()
        .map(|job| Ok(JobDetail { runs: conn.runs_of_job(job.id)?, artifacts: conn.artifacts_of_job(job.id)?, job }))
        .collect()
}

/// Returns one Job with its Runs and artifacts.
pub fn job(store: &dyn Engine, id: i64) -> Result<JobDetail> {
    let conn = store.reader();
    let job = conn.job(id)?.ok_or_else(|| Error::NotFound { what: "job", value: id.to_string() })?;
    Ok(JobDetail { runs: conn.runs_of_job(id)?, artifacts: conn.artifacts_of_job(id)?, job })
}

/// Returns the task's most recent schedule, live or removed (for `schedule show`).
pub fn latest_for_task(store: &dyn Engine, reference: &str) -> Result<Schedule> {
    let task_id = keys::resolve(store.reader(), reference)?;
    store
        .reader()
        .latest_schedule_of_task(task_id)?
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })
}

/// Parses `--on`: the event kind.
pub fn parse_event(text: &str) -> Result<EventKind> {
    EventKind::parse(text)
}

#[cfg(test)]
mod tests {
    use crate::Store;
    #[allow(unused_imports)]
    use crate::store::jobs;
    use jiff::civil::{Time, date};
    use tasks_schedule::Trigger;

    use super::*;
    use crate::model::Status;
    use crate::model::schedule::{CommandAction, EventFilter, EventTrigger, PromptAction, PromptMode};
    use crate::ops::add::{AddRequest as TaskRequest, DupChoice};
    use crate::ops::schedule::fire::stops_schedule;

    struct Env {
        _dir: tempfile::TempDir,
        store: Store,
    }

    fn env() -> Env {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).expect("store");
        Env { _dir: dir, store }
    }

    fn ctx(now: &str) -> Context {
        Context::new(now.parse().expect("an RFC 3339 instant"), "tester", jiff::tz::TimeZone::UTC)
    }

    /// The clock of most writes here.
    const NOW: &str = "2026-11-29T12:00:00Z";

    fn task(env: &mut Env, title: &str) -> String {
        let mut req = TaskRequest::titled(title);
        req.dup_choice = DupChoice::New;
        crate::ops::add::add(&mut env.store, &ctx(NOW), &req).expect("add").task.key
    }

    fn daily(hour: i8) -> When {
        When::Time(Trigger::Daily { time: Time::constant(hour, 0, 0, 0) })
    }

    fn on_completion(filter: EventFilter) -> When {
        When::Event(EventTrigger { event: EventKind::TaskCompleted, filter, dedupe_seconds: 60, cooldown_seconds: 0 })
    }

    fn request(task: &str, when: When) -> AddRequest {
        AddRequest {
            task: task.into(),
            when,
            zone: "UTC".into(),
            missed: MissedPolicy::RunOnce,
            action: Action::Due,
            max_active: 1,
            conversation: None,
            replace: false,
        }
    }

    /// A task scheduled daily at 09:00 UTC; returns its key.
    fn scheduled(env: &mut Env, title: &str) -> String {
        let key = task(env, title);
        add(&mut env.store, &ctx(NOW), &request(&key, daily(9))).expect("schedule");
        key
    }

    /// Returns the field and value an `Invalid` error names, or `None` for `Ok`.
    #[track_caller]
    fn refusal<T: std::fmt::Debug>(result: Result<T>) -> Option<(&'static str, String)> {
        match result {
            Ok(_) => None,
            Err(Error::Invalid { field, value, .. }) => Some((field, value)),
            Err(other) => panic!("expected a refused value, got {other}"),
        }
    }

    fn command(f: impl FnOnce(&mut CommandAction)) -> Action {
        let mut c = CommandAction {
            argv: vec!["backup".into(), "--all".into()],
            workdir: env!("CARGO_MANIFEST_DIR").into(),
            env_allow: vec!["HOME".into()],
            timeout_seconds: 600,
            output_budget_bytes: 65_536,
        };
        f(&mut c);
        Action::Command(c)
    }

    fn prompt(text: &str, output_budget_bytes: u64) -> Action {
        Action::Prompt(PromptAction {
            text: text.into(),
            mode: PromptMode::Ask,
            tools: "read_only".into(),
            approval: "never".into(),
            timeout_seconds: 60,
            max_tool_calls: 5,
            output_budget_bytes,
            max_model_calls: 6,
        })
    }

    #[track_caller]
    fn check_action(action: Action, expected: Option<(&str, &str)>) {
        let got = refusal(super::check_action(&action));
        assert_eq!(got.as_ref().map(|(f, v)| (*f, v.as_str())), expected, "{action:?}");
    }

    #[test]
    fn an_action_is_refused_naming_the_field_at_fault() {
        let max_timeout = MAX_COMMAND_TIMEOUT.as_secs();
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        check_action(Action::Due, None);
        check_action(command(|_| {}), None);
        check_action(command(|c| c.argv.clear()), Some(("command", "")));
        check_action(command(|c| c.argv = vec!["".into()]), Some(("command", "")));
        check_action(command(|c| c.argv = vec!["  ".into(), "x".into()]), Some(("command", "  ")));
        check_action(command(|c| c.workdir = "reports".into()), Some(("workdir", "reports")));
        check_action(command(|c| c.workdir = "./reports".into()), Some(("workdir", "./reports")));
        check_action(
            command(|c| c.workdir = "/no/such/dir/anywhere".into()),
            Some(("workdir", "/no/such/dir/anywhere")),
        );
        check_action(command(|c| c.workdir = file.into()), Some(("workdir", file)));
        check_action(command(|c| c.env_allow = vec![]), None);
        check_action(command(|c| c.env_allow = vec!["HOME".into(), "".into()]), Some(("env-allow", "")));
        check_action(command(|c| c.env_allow = vec!["A=B".into()]), Some(("env-allow", "A=B")));
        check_action(command(|c| c.env_allow = vec!["A\0B".into()]), Some(("env-allow", "A\0B")));
        check_action(command(|c| c.timeout_seconds = 0), Some(("timeout", "0s")));
        check_action(command(|c| c.timeout_seconds = 1), None);
        check_action(command(|c| c.timeout_seconds = max_timeout), None);
        check_action(command(|c| c.timeout_seconds = max_timeout + 1), Some(("timeout", "86401s")));
        check_action(command(|c| c.output_budget_bytes = 0), Some(("output-budget", "0")));
        check_action(command(|c| c.output_budget_bytes = 1), None);
        check_action(command(|c| c.output_budget_bytes = MAX_OUTPUT_BUDGET), None);
        check_action(command(|c| c.output_budget_bytes = MAX_OUTPUT_BUDGET + 1), Some(("output-budget", "4194305")));
        check_action(prompt("Summarize the week", 1024), None);
        check_action(prompt(" \n ", 1024), Some(("prompt", " \n ")));
        check_action(prompt("Summarize the week", 0), Some(("output-budget", "0")));
        check_action(prompt("Summarize the week", MAX_OUTPUT_BUDGET + 1), Some(("output-budget", "4194305")));
    }

    #[test]
    fn a_refused_bound_says_what_range_is_accepted() {
        let reason = |action: Action| match super::check_action(&action) {
            Err(Error::Invalid { reason, .. }) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        };
        assert_eq!(reason(command(|c| c.timeout_seconds = 0)), "must be between 1s and 24h");
        assert_eq!(reason(command(|c| c.output_budget_bytes = 0)), "must be between 1 byte and 4 MiB");
        assert_eq!(reason(command(|c| c.workdir = "x".into())), "must be an absolute path");
        assert_eq!(reason(command(|c| c.workdir = "/no/such/dir/anywhere".into())), "is not a directory");
    }

    fn schedule_value(when: When, zone: &str, action: Action, next: Option<&str>) -> Schedule {
        Schedule {
            id: 1,
            task_id: 1,
            task_key: "INBOX-1".into(),
            task_title: "Water the plants".into(),
            when,
            zone: zone.into(),
            missed: MissedPolicy::RunOnce,
            action,
            plan_version: 1,
            next_fire_at: next.map(|t| time::to_ms(t.parse().expect("an RFC 3339 instant"))),
            event_cursor: 0,
            paused: false,
            max_active: 1,
            conversation_id: 1,
            created_at: 0,
            created_by: "tester".into(),
            updated_at: 0,
            removed_at: None,
        }
    }

    #[track_caller]
    fn check_describe(when: When, zone: &str, action: Action, next: Option<&str>, expected: &str) {
        assert_eq!(describe(&schedule_value(when, zone, action, next)), expected);
    }

    #[test]
    fn a_schedule_is_described_in_one_line_in_its_own_zone() {
        let once = When::Time(Trigger::Once { at: date(2026, 12, 24).at(18, 30, 0, 0) });
        let hrb = EventFilter { project: Some("HRB".into()), ..EventFilter::default() };
        let winter = Some("2026-11-30T08:00:00Z");
        check_describe(
            daily(9),
            "Europe/Berlin",
            Action::Due,
            winter,
            "daily 09:00 (Europe/Berlin), action due, next 2026-11-30 09:00 CET",
        );
        check_describe(
            daily(9),
            "America/New_York",
            Action::Due,
            Some("2026-07-01T13:00:00Z"),
            "daily 09:00 (America/New_York), action due, next 2026-07-01 09:00 EDT",
        );
        check_describe(
            daily(9),
            "UTC",
            command(|_| {}),
            winter,
            "daily 09:00 (UTC), action command, next 2026-11-30 08:00 UTC",
        );
        check_describe(once, "UTC", prompt("p", 1), None, "once 2026-12-24T18:30 (UTC), action prompt, no firing left");
        check_describe(
            on_completion(hrb),
            "UTC",
            Action::Due,
            winter,
            "on task.completed (project HRB) (UTC), action due",
        );
        check_describe(
            daily(9),
            "Mars/Olympus",
            Action::Due,
            winter,
            "daily 09:00 (Mars/Olympus), action due, next 2026-11-30T08:00:00Z",
        );
    }

    #[test]
    fn a_preview_count_is_between_one_and_the_ceiling() {
        let check = |count: usize, ok: bool| assert_eq!(check_count(count).is_ok(), ok, "{count}");
        check(0, false);
        check(1, true);
        check(PREVIEW_MAX_COUNT, true);
        check(PREVIEW_MAX_COUNT + 1, false);
        assert_eq!(refusal(check_count(0)), Some(("count", "0".to_string())));
    }

    #[test]
    fn only_a_dismissed_task_stops_its_schedule() {
        for status in Status::ALL {
            assert_eq!(stops_schedule(*status), *status == Status::Dismissed, "{status}");
        }
    }

    #[test]
    fn an_event_is_read_by_its_one_spelling() {
        let check = |text: &str, expected: Option<EventKind>| assert_eq!(parse_event(text).ok(), expected, "{text:?}");
        check("task.completed", Some(EventKind::TaskCompleted));
        check(" job.failed ", Some(EventKind::JobFailed));
        check("task.done", None);
        check("TASK.COMPLETED", None);
        check("", None);
        assert_eq!(refusal(parse_event("task.done")), Some(("on", "task.done".to_string())));
    }

    #[track_caller]
    fn check_max_active(max_active: u32, accepted: bool) {
        let mut env = env();
        let key = task(&mut env, "Back up the photos");
        let req = AddRequest { max_active, ..request(&key, daily(9)) };
        let got = refusal(add(&mut env.store, &ctx(NOW), &req));
        assert_eq!(got, (!accepted).then(|| ("max-active", max_active.to_string())));
    }

    #[test]
    fn max_active_is_between_one_and_the_ceiling() {
        check_max_active(0, false);
        check_max_active(1, true);
        check_max_active(MAX_ACTIVE_CEILING, true);
        check_max_active(MAX_ACTIVE_CEILING + 1, false);
    }

    #[test]
    fn a_second_schedule_is_refused_without_replace_and_writes_nothing() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants");
        let messages = queue::messages(&env.store, None, 100).expect("messages").len();
        let again = add(&mut env.store, &ctx(NOW), &request(&key, daily(10)));
        assert!(matches!(&again, Err(Error::ScheduleExists { key: k, schedule_id: 1 }) if *k == key), "{again:?}");
        assert_eq!(for_task(&env.store, &key).expect("schedule").when, daily(9), "the first schedule stays");
        assert_eq!(queue::messages(&env.store, None, 100).expect("messages").len(), messages, "nothing posted");
        let replaced =
            add(&mut env.store, &ctx(NOW), &AddRequest { replace: true, ..request(&key, daily(10)) }).expect("replace");
        assert!(replaced.replaced);
        assert_eq!((replaced.schedule.id, replaced.schedule.plan_version), (1, 2));
    }

    #[test]
    fn a_first_add_with_replace_simply_adds() {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        let out =
            add(&mut env.store, &ctx(NOW), &AddRequest { replace: true, ..request(&key, daily(9)) }).expect("add");
        assert!(!out.replaced);
        assert_eq!(out.schedule.plan_version, 1);
    }

    #[test]
    fn an_unknown_conversation_is_refused() {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        let got = add(&mut env.store, &ctx(NOW), &AddRequest { conversation: Some(99), ..request(&key, daily(9)) });
        assert!(matches!(&got, Err(Error::NotFound { what: "conversation", value }) if value == "99"), "{got:?}");
        assert!(list(&env.store, true).expect("list").is_empty());
    }

    #[test]
    fn a_one_off_in_the_past_is_refused_naming_its_local_time_and_zone() {
        let mut env = env();
        let key = task(&mut env, "Renew the passport");
        let past = When::Time(Trigger::Once { at: date(2026, 11, 29).at(12, 30, 0, 0) });
        let req = AddRequest { zone: "Europe/Berlin".into(), ..request(&key, past) };
        match add(&mut env.store, &ctx(NOW), &req) {
            Err(Error::Invalid { field, value, reason }) => {
                assert_eq!((field, value.as_str()), ("once", "2026-11-29T12:30"));
                assert!(reason.contains("is in the past in Europe/Berlin"), "{reason}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        // The same local time is still ahead in New York (17:30 UTC).
        let req = AddRequest { zone: "America/New_York".into(), ..req };
        let s = add(&mut env.store, &ctx(NOW), &req).expect("ahead in New York").schedule;
        assert_eq!(s.next_fire_at.map(time::rfc3339).as_deref(), Some("2026-11-29T17:30:00Z"));
    }

    #[test]
    fn the_zone_is_stored_with_its_canonical_name() {
        let mut env = env();
        let a = task(&mut env, "Water the plants");
        let b = task(&mut env, "Log what got done");
        let s = add(&mut env.store, &ctx(NOW), &AddRequest { zone: "europe/berlin".into(), ..request(&a, daily(9)) })
            .expect("add")
            .schedule;
        assert_eq!(s.zone, "Europe/Berlin");
        let req =
            AddRequest { zone: " america/new_york ".into(), ..request(&b, on_completion(EventFilter::default())) };
        assert_eq!(add(&mut env.store, &ctx(NOW), &req).expect("add").schedule.zone, "America/New_York");
    }

    #[test]
    fn an_unknown_zone_is_refused_for_event_triggers_too() {
        let mut env = env();
        let key = task(&mut env, "Log what got done");
        let req = AddRequest { zone: "Berlin".into(), ..request(&key, on_completion(EventFilter::default())) };
        let got = add(&mut env.store, &ctx(NOW), &req);
        assert!(matches!(got, Err(Error::Schedule(_))), "{got:?}");
    }

    #[test]
    fn an_event_filter_is_checked_and_stored_in_its_one_spelling() {
        let mut env = env();
        let key = task(&mut env, "Log what got done");
        let with = |filter: EventFilter| request(&key, on_completion(filter));
        let unknown = add(
            &mut env.store,
            &ctx(NOW),
            &with(EventFilter { project: Some("ops".into()), ..EventFilter::default() }),
        );
        assert!(matches!(&unknown, Err(Error::NotFound { what: "project", value }) if value == "ops"), "{unknown:?}");
        let bad_type = add(
            &mut env.store,
            &ctx(NOW),
            &with(EventFilter { task_type: Some("epic".into()), ..EventFilter::default() }),
        );
        assert_eq!(refusal(bad_type), Some(("filter-type", "epic".to_string())));
        crate::ops::project::add(&mut env.store, &ctx(NOW), "OPS", "Operations", "").expect("project");
        let filter =
            EventFilter { project: Some("ops".into()), tag: Some("urgent".into()), task_type: Some("BUG".into()) };
        let s = add(&mut env.store, &ctx(NOW), &with(filter)).expect("add").schedule;
        let expected =
            EventFilter { project: Some("OPS".into()), tag: Some("urgent".into()), task_type: Some("bug".into()) };
        assert_eq!(s.when, on_completion(expected));
        assert_eq!(s.next_fire_at, None, "an event trigger has no planned time");
    }

    #[test]
    fn an_event_trigger_starts_after_the_events_that_happened_before_it() {
        let mut env = env();
        let key = task(&mut env, "Log what got done");
        let last = crate::store::schedules::last_task_event_id(env.store.conn()).expect("last");
        let s = add(&mut env.store, &ctx(NOW), &request(&key, on_completion(EventFilter::default()))).expect("add");
        assert_eq!(s.schedule.event_cursor, last, "events before the schedule never fire it");
        let timed = scheduled(&mut env, "Water the plants");
        assert_eq!(for_task(&env.store, &timed).expect("schedule").event_cursor, 0, "a time trigger keeps no cursor");
    }

    #[test]
    fn pausing_or_resuming_twice_changes_nothing_the_second_time() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants");
        assert!(!resume(&mut env.store, &ctx(NOW), &key).expect("resume").changed, "it was not paused");
        assert!(pause(&mut env.store, &ctx(NOW), &key).expect("pause").changed);
        let again = pause(&mut env.store, &ctx("2026-11-29T13:00:00Z"), &key).expect("pause");
        assert!(!again.changed);
        assert!(again.schedule.paused);
        assert_eq!(again.schedule.updated_at, ctx(NOW).now_ms(), "the second pause wrote nothing");
    }

    #[test]
    fn resuming_plans_from_now_and_not_from_the_pause() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants");
        pause(&mut env.store, &ctx("2026-11-29T13:00:00Z"), &key).expect("pause");
        let resumed = resume(&mut env.store, &ctx("2026-12-02T10:00:00Z"), &key).expect("resume");
        assert!(resumed.changed);
        assert!(!resumed.schedule.paused);
        let next = resumed.schedule.next_fire_at.map(time::rfc3339);
        assert_eq!(next.as_deref(), Some("2026-12-03T09:00:00Z"), "firings while paused are not missed ones");
    }

    #[test]
    fn a_removed_schedule_is_gone_for_every_verb_but_show() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants");
        let out = remove(&mut env.store, &ctx(NOW), &key).expect("remove");
        assert!(out.changed);
        assert!(out.schedule.removed_at.is_some());
        let not_found = |r: Result<ScheduleChange>| matches!(r, Err(Error::NotFound { what: "schedule of task", .. }));
        assert!(not_found(remove(&mut env.store, &ctx(NOW), &key)));
        assert!(not_found(pause(&mut env.store, &ctx(NOW), &key)));
        assert!(not_found(resume(&mut env.store, &ctx(NOW), &key)));
        assert!(matches!(for_task(&env.store, &key), Err(Error::NotFound { .. })));
        assert!(matches!(run_now(&mut env.store, &ctx(NOW), &key, "k"), Err(Error::NotFound { .. })));
        assert_eq!(latest_for_task(&env.store, &key).expect("show").id, out.schedule.id);
        assert!(list(&env.store, false).expect("list").is_empty());
        assert_eq!(list(&env.store, true).expect("list").len(), 1);
        // The task can be scheduled again.
        add(&mut env.store, &ctx(NOW), &request(&key, daily(10))).expect("schedule again");
    }

    #[test]
    fn an_event_schedule_has_nothing_to_preview() {
        let mut env = env();
        let key = task(&mut env, "Log what got done");
        add(&mut env.store, &ctx(NOW), &request(&key, on_completion(EventFilter::default()))).expect("add");
        let got = refusal(preview(&env.store, &key, ctx(NOW).now, 5));
        assert_eq!(got, Some(("task", key.clone())));
        assert_eq!(refusal(preview(&env.store, &key, ctx(NOW).now, 0)), Some(("count", "0".into())), "count first");
    }

    #[test]
    fn a_preview_lists_the_firings_strictly_after_its_start() {
        let mut env = env();
        let key = scheduled(&mut env, "Water the plants");
        let from: jiff::Timestamp = "2026-11-30T09:00:00Z".parse().expect("instant");
        let (_, firings) = preview(&env.store, &key, from, 2).expect("preview");
        let at: Vec<String> = firings.iter().map(|f| f.at.to_string()).collect();
        assert_eq!(at, ["2026-12-01T09:00:00Z", "2026-12-02T09:00:00Z"], "not the firing at the start itself");
    }

    #[track_caller]
    fn check_key(key: &str, accepted: bool) {
        let mut env = env();
        let task = scheduled(&mut env, "Water the plants");
        let got = refusal(run_now(&mut env.store, &ctx(NOW), &task, key));
        assert_eq!(got.map(|(field, _)| field), (!accepted).then_some("key"), "{key:?}");
    }

    #[test]
    fn a_run_now_key_has_1_to_200_characters() {
        check_key("", false);
        check_key("   ", false);
        check_key("\t\n", false);
        check_key("k", true);
        check_key(&"k".repeat(200), true);
        check_key(&"k".repeat(201), false);
        // Characters, not bytes: 200 Cyrillic letters are 400 bytes.
        check_key(&"ж".repeat(RUN_NOW_KEY_MAX_CHARS), true);
        check_key(&"ж".repeat(RUN_NOW_KEY_MAX_CHARS + 1), false);
        check_key(&format!("  {}  ", "k".repeat(200)), true);
    }

    #[test]
    fn run_now_makes_one_job_per_key() {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        add(&mut env.store, &ctx(NOW), &AddRequest { max_active: 4, ..request(&key, daily(9)) }).expect("schedule");
        let before = for_task(&env.store, &key).expect("schedule").next_fire_at;
        let first = run_now(&mut env.store, &ctx(NOW), &key, "deploy-42").expect("run now");
        assert!(first.created);
        assert_eq!(first.job.idempotency_key, "manual:1:deploy-42");
        assert_eq!((first.job.kind, first.job.state), (JobKind::Manual, JobState::Queued));
        assert_eq!(first.job.scheduled_for, ctx(NOW).now_ms());
        let again = run_now(&mut env.store, &ctx("2026-11-29T12:05:00Z"), &key, " deploy-42 ").expect("run now");
        assert!(!again.created, "the key was used: nothing new");
        assert_eq!(again.job.id, first.job.id);
        let other = run_now(&mut env.store, &ctx(NOW), &key, "deploy-43").expect("run now");
        assert!(other.created);
        assert_ne!(other.job.id, first.job.id);
        assert_eq!(for_task(&env.store, &key).expect("schedule").next_fire_at, before, "run-now never moves the plan");
    }

    #[test]
    fn an_unknown_job_is_not_found() {
        let env = env();
        assert!(matches!(job(&env.store, 7), Err(Error::NotFound { what: "job", value }) if value == "7"));
    }
}
