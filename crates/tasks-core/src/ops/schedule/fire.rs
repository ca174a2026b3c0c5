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
use super::queue;
use super::{Job, Schedule, local_text, plan_of};
use crate::error::Result;
use crate::model::conversation::{FiringPayload, QueueKind, QueuePayload};
use crate::model::schedule::{Action, EventKind, JobKind, JobSnapshot, JobState, When};
use crate::ops::Context;
use crate::port::{Engine, NewJob, Reads, Writes};
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
pub fn plan_due(store: &mut dyn Engine, ctx: &Context) -> Result<TickReport> {
    let mut report = TickReport::default();
    for id in store.reader().due_time_schedules(ctx.now_ms())? {
        let (jobs, skipped) = store.write(|tx| fire_time_schedule(tx, ctx, id))?;
        report.jobs.extend(jobs);
        report.missed_skipped += skipped;
    }
    for s in store.reader().event_schedules()? {
        // A read first: most ticks find no new completion and need no write lock.
        let pending = !store.reader().completions_after(s.event_cursor, 1)?.is_empty();
        if pending && matches!(&s.when, When::Event(e) if e.event == EventKind::TaskCompleted) {
            let jobs = store.write(|tx| match_completions(tx, ctx, s.id))?;
            report.jobs.extend(jobs);
        }
    }
    Ok(report)
}

/// Returns when the runner has something to do next: the earliest planned firing or
/// retry, epoch ms.
pub fn next_wake(store: &dyn Engine) -> Result<Option<i64>> {
    let fire = store.reader().earliest_next_fire()?;
    let retry = store.reader().next_retry_at()?;
    Ok(match (fire, retry) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    })
}

fn fire_time_schedule(tx: &dyn Writes, ctx: &Context, id: i64) -> Result<(Vec<Job>, u64)> {
    let now = ctx.now_ms();
    if !tx.take_schedule_for_planning(id)? {
        // Another daemon is planning it; it moves next_fire_at past these firings.
        return Ok((Vec::new(), 0));
    }
    let s = tx.schedule(id)?;
    let (When::Time(trigger), Some(last_planned)) = (&s.when, s.next_fire_at) else {
        return Ok((Vec::new(), 0));
    };
    if s.paused || s.removed_at.is_some() || last_planned > now {
        return Ok((Vec::new(), 0));
    }
    let plan = match plan_of(trigger, &s.zone) {
        Ok(plan) => plan,
        Err(e) => {
            tx.set_next_fire_at(id, None, now)?;
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
    tx.set_next_fire_at(id, missed.next_fire_at.map(time::to_ms), now)?;
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
pub(crate) fn overlap(tx: &dyn Reads, s: &Schedule) -> Result<Option<Job>> {
    let active = tx.active_jobs(s.id)?;
    Ok(if active.len() >= s.max_active as usize { active.into_iter().next() } else { None })
}

/// Makes the Job of a firing unless its idempotency key exists; returns the Job and
/// whether it is new.
///
/// The snapshot freezes the schedule's action, trigger and zone now. `blocker` is the
/// active Job that leaves no slot (the new Job is then `skipped`). A prompt Job is
/// parked in the conversation queue; skipped Jobs post their reason at once.
pub(crate) fn create_job(
    tx: &dyn Writes,
    ctx: &Context,
    s: &Schedule,
    firing: &NewFiring<'_>,
    blocker: Option<&Job>,
) -> Result<(Job, bool)> {
    let now = ctx.now_ms();
    if let Some(existing) = tx.job_by_key(firing.key)? {
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
    let task = tx.task(s.task_id)?;
    let skip_reason = if stops_schedule(task.status) {
        Some(format!("{} is {}: a dismissed task's schedule does not fire", task.key, task.status))
    } else {
        blocker.map(|b| format!("overlap: Job #{} of this schedule is still {}", b.id, b.state))
    };
    let state = if skip_reason.is_some() { JobState::Skipped } else { JobState::Queued };
    let id = tx.insert_job(&NewJob {
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
    })?;
    let Some(id) = id else {
        // The key was taken between the check and the insert: another daemon made this
        // firing's Job first (PostgreSQL), or never (SQLite's one writer) — either way
        // it is one Job.
        let job = tx
            .job_by_key(firing.key)?
            .ok_or_else(|| crate::error::Error::NotFound { what: "job", value: firing.key.to_string() })?;
        return Ok((job, false));
    };
    let job = tx.job(id)?.ok_or_else(|| crate::error::Error::NotFound { what: "job", value: id.to_string() })?;
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
        let item = tx.enqueue(s.conversation_id, QueueKind::Firing, Some(id), &payload, now)?;
        let reason = format!(
            "parked in conversation #{} queue as item #{item}: prompt Jobs are run by the conversation, not the daemon",
            s.conversation_id
        );
        tx.set_job_state(id, JobState::Queued, Some(&reason), now)?;
        let job = tx.job(id)?.unwrap_or(job);
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
fn match_completions(tx: &dyn Writes, ctx: &Context, id: i64) -> Result<Vec<Job>> {
    if !tx.take_schedule_for_planning(id)? {
        return Ok(Vec::new());
    }
    let s = tx.schedule(id)?;
    let When::Event(trigger) = &s.when else { return Ok(Vec::new()) };
    if s.paused || s.removed_at.is_some() || trigger.event != EventKind::TaskCompleted {
        return Ok(Vec::new());
    }
    let mut cursor = s.event_cursor;
    let mut jobs = Vec::new();
    loop {
        let batch = tx.completions_after(cursor, EVENT_SCAN_BATCH)?;
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
        tx.set_event_cursor(id, cursor)?;
    }
    Ok(jobs)
}

/// Applies an event schedule's filter, dedupe window and cooldown to one event about a
/// task; makes the Job when it passes.
fn match_event(tx: &dyn Writes, ctx: &Context, s: &Schedule, task_id: i64, at: i64, key: &str) -> Result<Option<Job>> {
    let When::Event(trigger) = &s.when else { return Ok(None) };
    let task = tx.task(task_id)?;
    if !trigger.filter.matches(&task.project, &task.tags, task.task_type.as_str()) {
        return Ok(None);
    }
    let subject = format!("task:{task_id}");
    let within = |last: Option<i64>, seconds: u64| {
        seconds > 0 && last.is_some_and(|l| at - l < (seconds as i64).saturating_mul(1000))
    };
    if within(tx.last_event_job_at(s.id, Some(&subject))?, trigger.dedupe_seconds)
        || within(tx.last_event_job_at(s.id, None)?, trigger.cooldown_seconds)
    {
        return Ok(None);
    }
    let blocker = overlap(tx, s)?;
    let firing = NewFiring { kind: JobKind::Event, key, scheduled_for: at, event_subject: Some(&subject) };
    let (job, created) = create_job(tx, ctx, s, &firing, blocker.as_ref())?;
    Ok(created.then_some(job))
}

/// Makes the Jobs of `job.failed` schedules for a Job that just failed (same transaction).
pub(crate) fn job_failed(tx: &dyn Writes, ctx: &Context, failed: &Job) -> Result<Vec<Job>> {
    if failed.kind == JobKind::Event {
        return Ok(Vec::new());
    }
    let mut jobs = Vec::new();
    for s in tx.event_schedules()? {
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

/// Returns true when the task's status keeps its schedule from firing.
pub(crate) fn stops_schedule(status: crate::model::Status) -> bool {
    status == crate::model::Status::Dismissed
}

#[cfg(test)]
mod tests {
    use crate::Store;
    #[allow(unused_imports)]
    use crate::store::jobs;
    use jiff::SignedDuration;
    use jiff::civil::Time;
    use tasks_schedule::Trigger;

    use super::*;
    use crate::model::TaskType;
    use crate::model::schedule::{CommandAction, EventFilter, EventTrigger, PromptAction, PromptMode};
    use crate::ops::add::{AddRequest as TaskRequest, DupChoice};
    use crate::ops::schedule::manage::{self, AddRequest};
    use crate::ops::schedule::run::{self, Outcome, RunReport};
    use crate::ops::status;

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

    fn task(env: &mut Env, title: &str) -> String {
        let mut req = TaskRequest::titled(title);
        req.dup_choice = DupChoice::New;
        crate::ops::add::add(&mut env.store, &ctx("2026-11-01T00:00:00Z"), &req).expect("add").task.key
    }

    fn daily(hour: i8) -> When {
        When::Time(Trigger::Daily { time: Time::constant(hour, 0, 0, 0) })
    }

    fn on(event: EventKind, filter: EventFilter, dedupe_seconds: u64, cooldown_seconds: u64) -> When {
        When::Event(EventTrigger { event, filter, dedupe_seconds, cooldown_seconds })
    }

    fn request(task: &str, when: When, action: Action) -> AddRequest {
        AddRequest {
            task: task.into(),
            when,
            zone: "UTC".into(),
            missed: MissedPolicy::RunOnce,
            action,
            max_active: 1,
            conversation: None,
            replace: false,
        }
    }

    fn schedule(env: &mut Env, req: AddRequest, now: &str) -> Schedule {
        manage::add(&mut env.store, &ctx(now), &req).expect("schedule").schedule
    }

    fn plan(env: &mut Env, now: &str) -> Vec<Job> {
        plan_due(&mut env.store, &ctx(now)).expect("plan").jobs
    }

    fn states(jobs: &[Job]) -> Vec<JobState> {
        jobs.iter().map(|j| j.state).collect()
    }

    fn messages(env: &Env) -> Vec<String> {
        queue::messages(&env.store, None, 1000).expect("messages").into_iter().map(|m| m.text).collect()
    }

    fn command() -> Action {
        Action::Command(CommandAction {
            argv: vec!["sync".into()],
            workdir: env!("CARGO_MANIFEST_DIR").into(),
            env_allow: Vec::new(),
            timeout_seconds: 60,
            output_budget_bytes: 1024,
        })
    }

    #[test]
    fn a_policy_is_named_as_it_is_stored() {
        let catch_up = MissedPolicy::CatchUp { max_runs: 3, max_age: SignedDuration::from_hours(1) };
        for (policy, name) in
            [(MissedPolicy::Skip, "skip"), (MissedPolicy::RunOnce, "run_once"), (catch_up, "catch_up_bounded")]
        {
            assert_eq!(policy_name(&policy), name);
            assert_eq!(serde_json::to_value(policy).expect("json")["policy"], name, "the stored tag");
        }
    }

    fn job_value(kind: JobKind, scheduled_for: &str, zone: &str) -> Job {
        Job {
            id: 4,
            schedule_id: 2,
            task_id: 3,
            task_key: "INBOX-3".into(),
            kind,
            idempotency_key: "k".into(),
            plan_version: 1,
            scheduled_for: time::to_ms(scheduled_for.parse().expect("an RFC 3339 instant")),
            event_subject: None,
            state: JobState::Succeeded,
            reason: None,
            snapshot: JobSnapshot {
                task: "INBOX-3".into(),
                action: Action::Due,
                trigger: daily(9).to_json(),
                trigger_text: "daily 09:00".into(),
                zone: zone.into(),
                plan_version: 1,
                conversation_id: 1,
            },
            attempts: 1,
            retry_at: None,
            created_at: 0,
            updated_at: 0,
            started_at: None,
            finished_at: None,
        }
    }

    #[track_caller]
    fn check_message(kind: JobKind, at: &str, zone: &str, title: &str, expected: &str) {
        assert_eq!(firing_message(&job_value(kind, at, zone), title, "succeeded: due 2026-11-30"), expected);
    }

    #[test]
    fn a_firing_message_names_the_task_trigger_local_time_and_job() {
        let berlin = "Europe/Berlin";
        check_message(
            JobKind::ScheduledOccurrence,
            "2026-11-30T08:00:00Z",
            berlin,
            "Water the plants",
            "INBOX-3 \"Water the plants\" · daily 09:00 (Europe/Berlin) · scheduled 2026-11-30 09:00 CET · Job #4 succeeded: due 2026-11-30",
        );
        check_message(
            JobKind::Manual,
            "2026-11-30T08:05:00Z",
            berlin,
            "Water the plants",
            "INBOX-3 \"Water the plants\" · daily 09:00 (Europe/Berlin) · run now at 2026-11-30 09:05 CET · Job #4 succeeded: due 2026-11-30",
        );
        check_message(
            JobKind::Event,
            "2026-07-01T08:05:00Z",
            berlin,
            "Water the plants",
            "INBOX-3 \"Water the plants\" · daily 09:00 (Europe/Berlin) · event at 2026-07-01 10:05 CEST · Job #4 succeeded: due 2026-11-30",
        );
        check_message(
            JobKind::Manual,
            "2026-11-30T08:05:00Z",
            "UTC",
            "Say \"hi\"",
            "INBOX-3 \"Say \\\"hi\\\"\" · daily 09:00 (UTC) · run now at 2026-11-30 08:05 UTC · Job #4 succeeded: due 2026-11-30",
        );
    }

    /// Plans a daily 09:00 UTC schedule whose firings of 28, 29 and 30 November were all
    /// missed, at `now`; returns the days of the Jobs made and the missed-firings message.
    #[track_caller]
    fn check_missed(policy: MissedPolicy, now: &str, days: &[i8], message: Option<&str>) {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        schedule(
            &mut env,
            AddRequest { missed: policy, ..request(&key, daily(9), Action::Due) },
            "2026-11-27T12:00:00Z",
        );
        let jobs = plan(&mut env, now);
        let made: Vec<i8> = jobs
            .iter()
            .map(|j| time::from_ms(j.scheduled_for).to_zoned_datetime(jiff::tz::TimeZone::UTC).day())
            .collect();
        assert_eq!(made, days, "{policy:?}");
        assert!(jobs.iter().all(|j| j.state == JobState::Queued), "one tick's Jobs all queue");
        let said: Vec<String> = messages(&env).into_iter().filter(|m| m.contains("missed")).collect();
        assert_eq!(said, message.into_iter().map(String::from).collect::<Vec<_>>(), "{policy:?}");
        let next = manage::for_task(&env.store, &key).expect("schedule").next_fire_at.map(time::rfc3339);
        assert_eq!(next.as_deref(), Some("2026-12-01T09:00:00Z"), "planning goes on after now");
    }

    #[test]
    fn missed_firings_obey_the_policy_and_the_rest_are_counted_aloud() {
        let late = "2026-11-30T12:00:00Z";
        let week = SignedDuration::from_hours(7 * 24);
        let catch_up = |max_runs| MissedPolicy::CatchUp { max_runs, max_age: week };
        let day = SignedDuration::from_hours(24);
        check_missed(
            MissedPolicy::Skip,
            late,
            &[],
            Some("INBOX-1 schedule #1: 3 missed firings not run (missed policy skip)"),
        );
        check_missed(
            MissedPolicy::RunOnce,
            late,
            &[30],
            Some("INBOX-1 schedule #1: 2 missed firings not run (missed policy run_once)"),
        );
        check_missed(
            catch_up(2),
            late,
            &[29, 30],
            Some("INBOX-1 schedule #1: 1 missed firing not run (missed policy catch_up_bounded)"),
        );
        check_missed(catch_up(5), late, &[28, 29, 30], None);
        check_missed(
            MissedPolicy::CatchUp { max_runs: 5, max_age: day },
            late,
            &[30],
            Some("INBOX-1 schedule #1: 2 missed firings not run (missed policy catch_up_bounded)"),
        );
        // A firing at most a minute old is on time: it runs under every policy.
        check_missed(
            MissedPolicy::Skip,
            "2026-11-30T09:00:30Z",
            &[30],
            Some("INBOX-1 schedule #1: 2 missed firings not run (missed policy skip)"),
        );
    }

    #[test]
    fn a_catch_up_queues_every_run_and_a_firing_over_the_cap_is_skipped_naming_the_blocker() {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        let missed = MissedPolicy::CatchUp { max_runs: 3, max_age: SignedDuration::from_hours(7 * 24) };
        schedule(&mut env, AddRequest { missed, ..request(&key, daily(9), Action::Due) }, "2026-11-27T12:00:00Z");
        let first = plan(&mut env, "2026-11-30T12:00:00Z");
        assert_eq!(states(&first), [JobState::Queued; 3], "one tick's catch-up runs one after another");
        let later = plan(&mut env, "2026-12-01T09:00:10Z");
        assert_eq!(states(&later), [JobState::Skipped]);
        let reason = format!("overlap: Job #{} of this schedule is still queued", first[0].id);
        assert_eq!(later[0].reason.as_deref(), Some(reason.as_str()));
        assert!(messages(&env).iter().any(|m| m.ends_with(&format!("Job #{} skipped: {reason}", later[0].id))));
    }

    /// Plans a firing of a schedule allowing `max_active` Jobs that has `active` queued
    /// `run-now` Jobs; returns the new Job's state.
    #[track_caller]
    fn check_overlap(max_active: u32, active: usize, expected: JobState) {
        let mut env = env();
        let key = task(&mut env, "Sync the photos");
        schedule(&mut env, AddRequest { max_active, ..request(&key, daily(9), command()) }, "2026-11-29T12:00:00Z");
        for i in 0..active {
            let made =
                manage::run_now(&mut env.store, &ctx("2026-11-29T12:00:00Z"), &key, &i.to_string()).expect("run now");
            assert_eq!(made.job.state, JobState::Queued);
        }
        let jobs = plan(&mut env, "2026-11-30T09:00:10Z");
        assert_eq!(states(&jobs), [expected], "max_active {max_active}, {active} active");
    }

    #[test]
    fn a_firing_is_skipped_exactly_when_every_active_slot_is_taken() {
        check_overlap(1, 0, JobState::Queued);
        check_overlap(1, 1, JobState::Skipped);
        check_overlap(2, 1, JobState::Queued);
        check_overlap(2, 2, JobState::Skipped);
    }

    #[track_caller]
    fn check_closed_task(close: fn(&mut Store, &Context, &str), state: JobState, reason: Option<&str>) {
        let mut env = env();
        let key = task(&mut env, "Water the plants");
        schedule(&mut env, request(&key, daily(9), Action::Due), "2026-11-29T12:00:00Z");
        close(&mut env.store, &ctx("2026-11-29T13:00:00Z"), &key);
        let jobs = plan(&mut env, "2026-11-30T09:00:10Z");
        assert_eq!(states(&jobs), [state]);
        assert_eq!(jobs[0].reason.as_deref(), reason);
    }

    #[test]
    fn a_dismissed_task_stops_its_schedule_and_a_done_one_does_not() {
        check_closed_task(|s, c, k| drop(status::done(s, c, k).expect("done")), JobState::Queued, None);
        check_closed_task(
            |s, c, k| drop(status::dismiss(s, c, k, None).expect("dismiss")),
            JobState::Skipped,
            Some("INBOX-1 is dismissed: a dismissed task's schedule does not fire"),
        );
    }

    #[test]
    fn a_prompt_job_is_parked_in_the_conversation_queue() {
        let mut env = env();
        let key = task(&mut env, "Weekly digest");
        let action = Action::Prompt(PromptAction {
            text: "Summarize the week".into(),
            mode: PromptMode::Execute,
            tools: "tasks".into(),
            approval: "writes".into(),
            timeout_seconds: 60,
            max_tool_calls: 5,
            output_budget_bytes: 1024,
            max_model_calls: 6,
        });
        let s = schedule(&mut env, request(&key, daily(9), action), "2026-11-29T12:00:00Z");
        let jobs = plan(&mut env, "2026-11-30T09:00:10Z");
        assert_eq!(states(&jobs), [JobState::Queued]);
        let job = &jobs[0];
        let items = queue::list(&env.store, None).expect("queue");
        assert_eq!(items.len(), 1);
        let expected = format!(
            "parked in conversation #{} queue as item #{}: prompt Jobs are run by the conversation, not the daemon",
            s.conversation_id, items[0].id
        );
        assert_eq!(job.reason.as_deref(), Some(expected.as_str()));
        assert_eq!((items[0].kind, items[0].job_id), (QueueKind::Firing, Some(job.id)));
        let payload = QueuePayload::Firing(FiringPayload {
            task: key,
            job: job.id,
            prompt: "Summarize the week".into(),
            mode: "execute".into(),
            scheduled_for: "2026-11-30T09:00:00Z".into(),
        });
        assert_eq!(items[0].payload, payload);
        let said = format!("queued for the conversation (item #{})", items[0].id);
        assert!(messages(&env).iter().any(|m| m.ends_with(&said)));
        let daemon = run::start_next(&mut env.store, &ctx("2026-11-30T09:00:20Z"), &[], &crate::fixtures::lease())
            .expect("start");
        assert!(daemon.is_none(), "the daemon leaves prompt Jobs alone");
    }

    /// Watches completions with `filter`; completes a task of project OPS, type bug, tag
    /// `urgent`; returns whether a Job was made.
    #[track_caller]
    fn check_filter(filter: EventFilter, fires: bool) {
        let mut env = env();
        crate::ops::project::add(&mut env.store, &ctx("2026-11-01T00:00:00Z"), "OPS", "Operations", "")
            .expect("project");
        let watcher = task(&mut env, "Log what got done");
        let mut req = TaskRequest::titled("Fix the backup script");
        req.project = Some("OPS".into());
        req.task_type = TaskType::Bug;
        req.tags = vec!["urgent".into()];
        let work = crate::ops::add::add(&mut env.store, &ctx("2026-11-01T00:00:00Z"), &req).expect("add").task.key;
        let when = on(EventKind::TaskCompleted, filter.clone(), 0, 0);
        schedule(&mut env, request(&watcher, when, Action::Due), "2026-11-29T09:00:00Z");
        status::done(&mut env.store, &ctx("2026-11-29T10:00:00Z"), &work).expect("done");
        let jobs = plan(&mut env, "2026-11-29T10:00:05Z");
        assert_eq!(jobs.len(), usize::from(fires), "{filter:?}");
    }

    fn filter(project: Option<&str>, tag: Option<&str>, task_type: Option<&str>) -> EventFilter {
        EventFilter {
            project: project.map(String::from),
            tag: tag.map(String::from),
            task_type: task_type.map(String::from),
        }
    }

    #[test]
    fn an_event_fires_only_when_every_given_filter_field_matches() {
        check_filter(filter(None, None, None), true);
        check_filter(filter(Some("OPS"), None, None), true);
        check_filter(filter(Some("ops"), None, None), true);
        check_filter(filter(Some("INBOX"), None, None), false);
        check_filter(filter(None, Some("urgent"), None), true);
        check_filter(filter(None, Some("Urgent"), None), false);
        check_filter(filter(None, Some("later"), None), false);
        check_filter(filter(None, None, Some("bug")), true);
        check_filter(filter(None, None, Some("task")), false);
        check_filter(filter(Some("OPS"), Some("urgent"), Some("bug")), true);
        check_filter(filter(Some("OPS"), Some("urgent"), Some("chore")), false);
    }

    /// Completes tasks A and B at the given seconds after 10:00 (a task already done is
    /// reopened first) under one event schedule; returns how many Jobs were made.
    #[track_caller]
    fn check_window(dedupe_seconds: u64, cooldown_seconds: u64, completions: &[(char, u32)], expected: usize) {
        let mut env = env();
        let watcher = task(&mut env, "Log what got done");
        let a = task(&mut env, "Ship the release");
        let b = task(&mut env, "Write the changelog");
        let when = on(EventKind::TaskCompleted, EventFilter::default(), dedupe_seconds, cooldown_seconds);
        schedule(
            &mut env,
            AddRequest { max_active: 16, ..request(&watcher, when, Action::Due) },
            "2026-11-29T09:00:00Z",
        );
        for (which, second) in completions {
            let key = if *which == 'A' { &a } else { &b };
            let at = ctx(&format!("2026-11-29T10:{:02}:{:02}Z", second / 60, second % 60));
            if !status::done(&mut env.store, &at, key).expect("done").changed {
                status::reopen(&mut env.store, &at, key).expect("reopen");
                status::done(&mut env.store, &at, key).expect("done again");
            }
        }
        let jobs = plan(&mut env, "2026-11-29T10:30:00Z");
        assert_eq!(jobs.len(), expected, "dedupe {dedupe_seconds}s, cooldown {cooldown_seconds}s, {completions:?}");
    }

    #[test]
    fn the_dedupe_window_is_per_task_and_the_cooldown_per_schedule() {
        check_window(60, 0, &[('A', 0), ('A', 59)], 1);
        check_window(60, 0, &[('A', 0), ('A', 60)], 2);
        check_window(60, 0, &[('A', 0), ('B', 1)], 2);
        check_window(0, 0, &[('A', 0), ('A', 0), ('A', 1)], 3);
        check_window(0, 60, &[('A', 0), ('B', 30)], 1);
        check_window(0, 60, &[('A', 0), ('B', 60)], 2);
        check_window(0, 60, &[('A', 0), ('B', 30), ('B', 61)], 2);
        check_window(600, 60, &[('A', 0), ('B', 120), ('A', 240)], 2);
    }

    #[test]
    fn each_completion_is_matched_once_and_earlier_ones_never() {
        let mut env = env();
        let watcher = task(&mut env, "Log what got done");
        let work = task(&mut env, "Ship the release");
        let other = task(&mut env, "Call the bank");
        status::done(&mut env.store, &ctx("2026-11-29T08:00:00Z"), &other).expect("done before the schedule");
        let when = on(EventKind::TaskCompleted, EventFilter::default(), 0, 0);
        schedule(&mut env, request(&watcher, when, Action::Due), "2026-11-29T09:00:00Z");
        status::done(&mut env.store, &ctx("2026-11-29T10:00:00Z"), &work).expect("done");
        let jobs = plan(&mut env, "2026-11-29T10:00:05Z");
        assert_eq!(jobs.len(), 1);
        let work_id = crate::keys::resolve(env.store.conn(), &work).expect("resolve");
        assert_eq!(jobs[0].event_subject, Some(format!("task:{work_id}")));
        assert_eq!(jobs[0].kind, JobKind::Event);
        assert_eq!(jobs[0].scheduled_for, ctx("2026-11-29T10:00:00Z").now_ms(), "the event's time");
        assert!(plan(&mut env, "2026-11-29T10:00:06Z").is_empty(), "the cursor moved past it");
    }

    #[test]
    fn a_paused_event_schedule_matches_nothing_even_after_resuming() {
        let mut env = env();
        let watcher = task(&mut env, "Log what got done");
        let work = task(&mut env, "Ship the release");
        let when = on(EventKind::TaskCompleted, EventFilter::default(), 0, 0);
        schedule(&mut env, request(&watcher, when, Action::Due), "2026-11-29T09:00:00Z");
        manage::pause(&mut env.store, &ctx("2026-11-29T09:30:00Z"), &watcher).expect("pause");
        status::done(&mut env.store, &ctx("2026-11-29T10:00:00Z"), &work).expect("done");
        assert!(plan(&mut env, "2026-11-29T10:00:05Z").is_empty());
        manage::resume(&mut env.store, &ctx("2026-11-29T10:10:00Z"), &watcher).expect("resume");
        assert!(plan(&mut env, "2026-11-29T10:10:05Z").is_empty(), "pausing said: not those");
    }

    #[test]
    fn the_runner_wakes_for_the_earliest_firing_or_retry() {
        let mut env = env();
        assert_eq!(next_wake(&env.store).expect("wake"), None, "nothing to do");
        let key = task(&mut env, "Sync the photos");
        schedule(&mut env, request(&key, daily(9), command()), "2026-11-29T12:00:00Z");
        let wake = next_wake(&env.store).expect("wake").map(time::rfc3339);
        assert_eq!(wake.as_deref(), Some("2026-11-30T09:00:00Z"));
        let now = ctx("2026-11-29T12:00:00Z");
        manage::run_now(&mut env.store, &now, &key, "k").expect("run now");
        let started =
            run::start_next(&mut env.store, &now, &[], &crate::fixtures::lease()).expect("start").expect("the Job");
        let report = RunReport {
            outcome: Outcome::Transient,
            exit_code: Some(75),
            output: String::new(),
            output_dropped: 0,
            error: None,
        };
        run::finish(&mut env.store, &now, &started, &report).expect("finish");
        let wake = next_wake(&env.store).expect("wake").map(time::rfc3339);
        assert_eq!(wake.as_deref(), Some("2026-11-29T12:00:01Z"), "the retry comes first");
    }

    /// Runs a `run-now` Job of the task's command schedule to a failure.
    fn fail_once(env: &mut Env, key: &str, run_key: &str) -> Job {
        let now = ctx("2026-11-29T12:00:00Z");
        let job = manage::run_now(&mut env.store, &now, key, run_key).expect("run now").job;
        let started =
            run::start(&mut env.store, &now, job.id, &crate::fixtures::lease()).expect("start").expect("queued");
        let report = RunReport {
            outcome: Outcome::Failed,
            exit_code: Some(2),
            output: String::new(),
            output_dropped: 0,
            error: None,
        };
        match run::finish(&mut env.store, &now, &started, &report).expect("finish") {
            run::AfterRun::Done(job) => job,
            other => panic!("a failure is final: {other:?}"),
        }
    }

    #[test]
    fn a_failed_job_fires_other_job_failed_schedules_but_never_its_own_or_a_cascade() {
        let mut env = env();
        let backup = task(&mut env, "Back up the photos");
        let alarm = task(&mut env, "Tell me when a job fails");
        schedule(&mut env, request(&backup, daily(3), command()), "2026-11-29T00:00:00Z");
        let when = on(EventKind::JobFailed, EventFilter::default(), 0, 0);
        let alarm_schedule = schedule(&mut env, request(&alarm, when, command()), "2026-11-29T00:00:00Z");
        let failed = fail_once(&mut env, &backup, "a");
        let fired = manage::jobs(&env.store, Some(&alarm), None, 10).expect("jobs");
        assert_eq!(fired.len(), 1);
        let job = &fired[0].job;
        assert_eq!(job.idempotency_key, format!("event:{}:job:{}", alarm_schedule.id, failed.id));
        assert_eq!(job.event_subject, Some(format!("task:{}", failed.task_id)));
        assert_eq!((job.kind, job.state), (JobKind::Event, JobState::Queued));
        // The alarm's own event Job fails: event Jobs fire nothing (no cascades).
        let started = run::start(&mut env.store, &ctx("2026-11-29T12:00:00Z"), job.id, &crate::fixtures::lease())
            .expect("start")
            .expect("queued");
        let report = RunReport {
            outcome: Outcome::Failed,
            exit_code: Some(1),
            output: String::new(),
            output_dropped: 0,
            error: None,
        };
        run::finish(&mut env.store, &ctx("2026-11-29T12:00:00Z"), &started, &report).expect("finish");
        assert_eq!(manage::jobs(&env.store, Some(&alarm), None, 10).expect("jobs").len(), 1);
        // A manual Job of the alarm schedule fails: it does not fire its own schedule.
        fail_once(&mut env, &alarm, "manual");
        let alarm_jobs = manage::jobs(&env.store, Some(&alarm), None, 10).expect("jobs");
        assert_eq!(alarm_jobs.iter().filter(|d| d.job.kind == JobKind::Event).count(), 1);
    }
}
