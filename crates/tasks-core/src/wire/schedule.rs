//! Shapes of schedules, Jobs, Runs, the conversation queue and messages (SPEC §6), and
//! the outcomes of the `schedule`, `jobs` and `daemon` commands.

use serde_json::{Value, json};

use crate::time::rfc3339;

/// Returns a schedule (issue 5): trigger as stored and as text, zone, missed policy,
/// action snapshot, plan version, next firing (UTC and local), paused, removed.
pub fn schedule(s: &crate::ops::schedule::Schedule) -> Value {
    use crate::ops::schedule::{local_text, manage::describe};
    json!({
        "id": s.id,
        "task": s.task_key,
        "task_title": s.task_title,
        "trigger": s.when.to_json(),
        "trigger_text": s.when.to_string(),
        "zone": s.zone,
        "missed": s.missed,
        "action": s.action,
        "plan_version": s.plan_version,
        "next_fire_at": s.next_fire_at.map(rfc3339),
        "next_fire_local": s.next_fire_at.map(|ms| local_text(ms, &s.zone)),
        "paused": s.paused,
        "max_active": s.max_active,
        "conversation_id": s.conversation_id,
        "created_at": rfc3339(s.created_at),
        "created_by": s.created_by,
        "updated_at": rfc3339(s.updated_at),
        "removed_at": s.removed_at.map(rfc3339),
        "description": describe(s),
    })
}

/// Returns a Run.
pub fn run(r: &crate::ops::schedule::Run) -> Value {
    json!({
        "id": r.id,
        "attempt": r.attempt,
        "state": r.state.as_str(),
        "started_at": rfc3339(r.started_at),
        "finished_at": r.finished_at.map(rfc3339),
        "exit_code": r.exit_code,
        "output": r.output,
        "output_dropped_bytes": r.output_dropped,
        "error": r.error,
        "pid": r.pid,
    })
}

/// Returns a Job (without Runs).
pub fn job(j: &crate::ops::schedule::Job) -> Value {
    json!({
        "id": j.id,
        "schedule_id": j.schedule_id,
        "task": j.task_key,
        "kind": j.kind.as_str(),
        "key": j.idempotency_key,
        "plan_version": j.plan_version,
        "scheduled_for": rfc3339(j.scheduled_for),
        "state": j.state.as_str(),
        "reason": j.reason,
        "attempts": j.attempts,
        "retry_at": j.retry_at.map(rfc3339),
        "snapshot": j.snapshot,
        "created_at": rfc3339(j.created_at),
        "updated_at": rfc3339(j.updated_at),
        "started_at": j.started_at.map(rfc3339),
        "finished_at": j.finished_at.map(rfc3339),
    })
}

/// Returns a Job with its Runs and artifacts (`tasks jobs`).
pub fn job_detail(d: &crate::ops::schedule::manage::JobDetail) -> Value {
    let mut v = job(&d.job);
    v["runs"] = d.runs.iter().map(run).collect();
    v["artifacts"] = d
        .artifacts
        .iter()
        .map(|a| {
            json!({
                "id": a.id, "run_id": a.run_id, "kind": a.kind, "path": a.path, "text": a.text,
                "created_at": rfc3339(a.created_at),
            })
        })
        .collect();
    v
}

/// Returns a conversation queue item.
pub fn queue_item(i: &crate::ops::schedule::QueueItem) -> Value {
    json!({
        "id": i.id,
        "conversation_id": i.conversation_id,
        "kind": i.kind,
        "job_id": i.job_id,
        "payload": i.payload,
        "state": i.state,
        "position": i.position,
        "created_at": rfc3339(i.created_at),
        "updated_at": rfc3339(i.updated_at),
    })
}

/// Returns a conversation message.
pub fn message(m: &crate::ops::schedule::Message) -> Value {
    json!({
        "id": m.id,
        "conversation_id": m.conversation_id,
        "role": m.role,
        "text": m.text,
        "task": m.task_key,
        "job_id": m.job_id,
        "created_at": rfc3339(m.created_at),
    })
}

/// Returns `schedule preview`'s answer: `{"fires": [RFC 3339 UTC …]}` (SPEC §10), with
/// the same firings in local time, the zone and the trigger beside it.
pub fn preview(firings: &[tasks_schedule::Firing], zone: &str, trigger: &crate::ops::schedule::When) -> Value {
    json!({
        "fires": firings.iter().map(|f| rfc3339(f.at.as_millisecond())).collect::<Vec<_>>(),
        "local": firings.iter().map(|f| f.local.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()).collect::<Vec<_>>(),
        "zone": zone,
        "trigger": trigger.to_json(),
        "trigger_text": trigger.to_string(),
    })
}

/// Returns the outcome of `schedule add`.
pub fn schedule_added(out: &crate::ops::schedule::manage::AddOutcome) -> Value {
    json!({ "schedule": schedule(&out.schedule), "replaced": out.replaced })
}

/// Returns `schedule list`.
pub fn schedule_list(items: &[crate::ops::schedule::Schedule]) -> Value {
    json!({ "items": items.iter().map(schedule).collect::<Vec<_>>() })
}

/// Returns `schedule show`: the schedule and its Jobs with their Runs.
pub fn schedule_detail(s: &crate::ops::schedule::Schedule, jobs: &[crate::ops::schedule::manage::JobDetail]) -> Value {
    json!({ "schedule": schedule(s), "jobs": jobs.iter().map(job_detail).collect::<Vec<_>>() })
}

/// Returns the outcome of `schedule pause | resume | remove`.
pub fn schedule_changed(out: &crate::ops::schedule::manage::ScheduleChange) -> Value {
    json!({
        "schedule": schedule(&out.schedule),
        "changed": out.changed,
        "cancelled": out.cancelled.iter().map(job).collect::<Vec<_>>(),
    })
}

/// Returns `{"job": …}`: one Job with its Runs (`jobs JOB`).
pub fn job_one(d: &crate::ops::schedule::manage::JobDetail) -> Value {
    json!({ "job": job_detail(d) })
}

/// Returns `jobs`: Jobs with their Runs.
pub fn job_list(items: &[crate::ops::schedule::manage::JobDetail]) -> Value {
    json!({ "items": items.iter().map(job_detail).collect::<Vec<_>>() })
}

/// Returns the outcome of `schedule run-now`: the Job and whether this key made it.
pub fn run_now(d: &crate::ops::schedule::manage::JobDetail, created: bool) -> Value {
    json!({ "job": job_detail(d), "created": created })
}

/// Returns the outcome of a daemon pass (`daemon --once`, or a daemon that stopped).
pub fn daemon_run(
    recovered: &[crate::ops::schedule::Job],
    jobs: &[&crate::ops::schedule::Job],
    missed_skipped: u64,
    stopped_by_signal: bool,
) -> Value {
    json!({
        "recovered": recovered.iter().map(job).collect::<Vec<_>>(),
        "jobs": jobs.iter().map(|j| job(j)).collect::<Vec<_>>(),
        "missed_skipped": missed_skipped,
        "stopped_by_signal": stopped_by_signal,
    })
}

/// Returns `{"item": …}`: one queue item (queued, removed).
pub fn queue_one(i: &crate::ops::schedule::QueueItem) -> Value {
    json!({ "item": queue_item(i) })
}

/// Returns the outcome of promoting a queue item: it, and the items it interrupted.
pub fn promoted(p: &crate::ops::schedule::queue::Promoted) -> Value {
    json!({ "item": queue_item(&p.item), "interrupted": p.interrupted.iter().map(queue_item).collect::<Vec<_>>() })
}

/// Returns a conversation's queue.
pub fn queue_list(items: &[crate::ops::schedule::QueueItem]) -> Value {
    json!({ "items": items.iter().map(queue_item).collect::<Vec<_>>() })
}

/// Returns a conversation's messages.
pub fn message_list(items: &[crate::ops::schedule::Message]) -> Value {
    json!({ "items": items.iter().map(message).collect::<Vec<_>>() })
}
