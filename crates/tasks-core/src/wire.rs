//! The JSON shapes of the public contract (SPEC §10): tasks, projects, candidates,
//! events, and the error object. The only place that shapes output JSON, shared by the
//! CLI and the MCP server so both say the same thing.
//!
//! Times are RFC 3339 UTC; due dates are `YYYY-MM-DD` with `due_kind`; an expired lease
//! is shown as no claim.

use serde_json::{Value, json};

use crate::dedup::Candidate;
use crate::error::Error;
use crate::graph::Neighbourhood;
use crate::model::{Money, Project, Task};
use crate::ops::project::ProjectSummary;
use crate::ops::query::TaskDetail;
use crate::store::events::Event;
use crate::time::rfc3339;

/// Returns the major-unit value of money as a JSON number (15000, 1200.5).
fn major_units(m: &Money) -> Value {
    if m.minor % 100 == 0 { json!(m.minor / 100) } else { json!(m.minor as f64 / 100.0) }
}

/// Returns a task as JSON, with its lease shown only while live at `now_ms`.
pub fn task(t: &Task, now_ms: i64) -> Value {
    let claim = t.live_claim(now_ms);
    json!({
        "id": t.uuid,
        "key": t.key,
        "title": t.title,
        "description": t.description,
        "type": t.task_type.as_str(),
        "status": t.status.as_str(),
        "blocked": t.is_blocked() && !t.status.is_closed(),
        "project": t.project,
        "priority": t.priority,
        "due": t.due.map(|d| d.date.to_string()),
        "due_kind": t.due.map(|d| d.kind.as_str()).unwrap_or("none"),
        "category": t.category,
        "person": t.person,
        "amount": t.amount.as_ref().map(major_units),
        "amount_minor": t.amount.as_ref().map(|m| m.minor),
        "currency": t.amount.as_ref().map(|m| m.currency.clone()),
        "tags": t.tags,
        "blocked_by": t.blocked_by,
        "claimed_by": claim.map(|(who, _)| who),
        "claimed_until": claim.map(|(_, until)| rfc3339(until)),
        "created_at": rfc3339(t.created_at),
        "updated_at": rfc3339(t.updated_at),
        "closed_at": t.closed_at.map(rfc3339),
        "close_reason": t.close_reason,
        "source": t.source.as_str(),
        "legacy_key": t.legacy_key,
        "external_id": t.external_id,
        "chat": t.chat,
        "reply_to": t.reply_to,
    })
}

/// Returns `{"items": [...]}` for a list of tasks.
pub fn task_list(tasks: &[Task], now_ms: i64) -> Value {
    json!({ "items": tasks.iter().map(|t| task(t, now_ms)).collect::<Vec<_>>() })
}

/// Returns a task with its links (`show`).
pub fn task_detail(d: &TaskDetail, now_ms: i64) -> Value {
    let links: Vec<Value> = d
        .links
        .iter()
        .map(|l| {
            json!({
                "kind": l.kind.as_str(),
                "direction": if l.incoming { "in" } else { "out" },
                "task": l.task.as_ref().map(|t| t.key.clone()),
                "title": l.task.as_ref().map(|t| t.title.clone()),
                "status": l.task.as_ref().map(|t| t.status.as_str()),
                "message": l.message,
            })
        })
        .collect();
    json!({ "task": task(&d.task, now_ms), "links": links })
}

/// Returns a duplicate candidate (SPEC §10).
pub fn candidate(c: &Candidate) -> Value {
    json!({
        "key": c.key,
        "id": c.uuid,
        "title": c.title,
        "score": (c.score * 10.0).round() / 10.0,
        "band": c.band.as_str(),
        "probability": (c.probability * 1000.0).round() / 1000.0,
        "reasons": c.reasons,
    })
}

/// Returns a project.
pub fn project(p: &Project) -> Value {
    json!({
        "key": p.key,
        "name": p.name,
        "description": p.description,
        "kind": p.kind.as_str(),
        "account_id": p.account_id,
        "tasks_count": p.tasks_count,
        "created_at": rfc3339(p.created_at),
    })
}

/// Returns a project with its open count.
pub fn project_summary(s: &ProjectSummary) -> Value {
    let mut v = project(&s.project);
    v["open_tasks"] = json!(s.open_tasks);
    v
}

/// Returns a history event.
pub fn event(e: &Event) -> Value {
    json!({ "at": rfc3339(e.at), "actor": e.actor, "kind": e.change.kind(), "changes": e.change.to_json() })
}

/// Returns a graph as nodes and edges.
pub fn graph(n: &Neighbourhood, now_ms: i64) -> Value {
    json!({
        "root": n.tasks.get(&n.root).map(|t| t.key.clone()),
        "nodes": n.tasks.values().map(|t| task(t, now_ms)).collect::<Vec<_>>(),
        "edges": n.edges.iter().map(|(a, k, b)| json!({
            "from": n.tasks[a].key, "kind": k.as_str(), "to": n.tasks[b].key
        })).collect::<Vec<_>>(),
        "truncated": n.truncated,
    })
}

/// Returns the code string of an error, shared by the CLI (which maps it to an exit
/// code, SPEC §9) and MCP tool errors.
pub fn error_code(e: &Error) -> &'static str {
    match e {
        Error::Invalid { .. }
        | Error::Ambiguous { .. }
        | Error::Cycle { .. }
        | Error::SelfLink { .. }
        | Error::ImportLine { .. } => "validation",
        Error::NotFound { .. } | Error::NothingReady { .. } => "not_found",
        // A file the user named that is not there (an evaluation set, a weights file).
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => "not_found",
        Error::ProjectExists { .. }
        | Error::Claimed { .. }
        | Error::Blocked { .. }
        | Error::WrongState { .. }
        | Error::NotHolder { .. } => "conflict",
        Error::Schedule(_) => "validation",
        Error::ScheduleExists { .. } | Error::DaemonRunning { .. } => "conflict",
        Error::ProbableDuplicate { .. } => "confirmation_required",
        Error::StoreTooNew { .. } | Error::StoreOpen { .. } => "configuration",
        Error::Sqlite(_) | Error::StoredJson(_) | Error::Io { .. } => {
            if e.is_busy() {
                "timeout"
            } else {
                "other"
            }
        }
    }
}

/// Returns the machine-readable details of an error (holder, path, line, candidates …).
pub fn error_details(e: &Error) -> Value {
    match e {
        Error::Invalid { field, value, reason } => json!({ "field": field, "value": value, "reason": reason }),
        Error::NotFound { what, value } => json!({ "what": what, "value": value }),
        Error::Ambiguous { value, matches } => json!({ "value": value, "matches": matches }),
        Error::ProjectExists { key } => json!({ "project": key }),
        Error::Cycle { kind, path } => json!({ "kind": kind, "path": path }),
        Error::SelfLink { key, kind } => json!({ "task": key, "kind": kind }),
        Error::Claimed { key, holder, until } => json!({ "task": key, "holder": holder, "until": until }),
        Error::Blocked { key, blockers } => json!({ "task": key, "blockers": blockers }),
        Error::WrongState { key, status, reason } => json!({ "task": key, "status": status, "reason": reason }),
        Error::NotHolder { key, actor } => json!({ "task": key, "actor": actor }),
        Error::NothingReady { filter } => json!({ "filter": filter }),
        Error::ProbableDuplicate { title, candidates } => json!({
            "title": title,
            "candidates": candidates.iter().map(candidate).collect::<Vec<_>>(),
        }),
        Error::ImportLine { line, field, message } => json!({ "line": line, "field": field, "message": message }),
        Error::StoreTooNew { path, found, supported } => {
            json!({ "path": path, "found": found, "supported": supported })
        }
        Error::StoreOpen { path, reason } => json!({ "path": path, "reason": reason }),
        Error::Schedule(e) => schedule_error_details(e),
        Error::ScheduleExists { key, schedule_id } => json!({ "task": key, "schedule": schedule_id }),
        Error::DaemonRunning { lock } => json!({ "lock": lock }),
        Error::Sqlite(_) | Error::StoredJson(_) | Error::Io { .. } => json!({}),
    }
}

/// Returns the `{"error": {...}}` object of an error.
pub fn error(e: &Error) -> Value {
    json!({ "error": { "code": error_code(e), "message": e.to_string(), "details": error_details(e) } })
}

/// Returns the details of a refused trigger, zone or time: the field (a cron field is
/// named as in crontab(5), e.g. `day-of-week`), the text and why.
fn schedule_error_details(e: &tasks_schedule::ScheduleError) -> Value {
    use tasks_schedule::ScheduleError as S;
    let (field, text, reason) = match e {
        S::UnknownZone { name, suggestions } => {
            return json!({ "field": "tz", "text": name, "reason": "unknown time zone", "suggestions": suggestions });
        }
        S::CronField { field, text, reason } => (field.name().to_string(), text.clone(), reason.clone()),
        S::CronShape { expression, reason } => ("cron".into(), expression.clone(), reason.clone()),
        S::CronTooFrequent { expression, gap_minutes, minimum, .. } => {
            return json!({
                "field": "cron", "text": expression, "reason": e.to_string(),
                "gap_minutes": gap_minutes, "minimum_minutes": minimum,
            });
        }
        S::CronNeverFires { expression, reason } => ("cron".into(), expression.clone(), reason.clone()),
        S::Time { input, reason } => ("time".into(), input.clone(), reason.clone()),
        S::Weekdays { input, reason } => ("weekdays".into(), input.clone(), reason.clone()),
        S::MonthDay { input, reason } => ("day".into(), input.clone(), reason.clone()),
        S::DateTime { input, reason } => ("once".into(), input.clone(), reason.clone()),
        S::InvalidTrigger { trigger, reason } => ((*trigger).to_string(), String::new(), reason.clone()),
        S::NeverOccurs { at, zone } => ("once".into(), at.clone(), format!("never occurs in {zone}")),
    };
    json!({ "field": field, "text": text, "reason": reason, "hint": e.hint() })
}

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
