//! The JSON shapes of the public contract (SPEC §10): tasks, projects, candidates,
//! events, schedules, Jobs, queues, the outcome of every command, and the error object.
//! The only place that shapes output JSON, shared by every edge — the CLI, the MCP
//! server, the conversation, the bot and the web page — so all say the same thing: an
//! edge adds presentation, never fields.
//!
//! Times are RFC 3339 UTC; due dates are `YYYY-MM-DD` with `due_kind`; an expired lease
//! is shown as no claim.

mod dedup;
mod error;
mod schedule;

pub use dedup::*;
pub use error::*;
pub use schedule::*;

use serde_json::{Value, json};

use crate::graph::Neighbourhood;
use crate::model::{Money, Project, Task};
use crate::ops::add::AddOutcome;
use crate::ops::import::ImportOutcome;
use crate::ops::link::LinkOutcome;
use crate::ops::project::ProjectSummary;
use crate::ops::query::TaskDetail;
use crate::ops::status::StatusOutcome;
use crate::store::events::Event;
use crate::time::rfc3339;

/// Names a JSON value's type for a message: "a string", "an array" … (import errors,
/// the MCP framing's refusals).
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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
        "due": t.due.map(|d| match d.at {
            Some(at) => rfc3339(at),
            None => d.date.to_string(),
        }),
        "due_kind": t.due.map(|d| d.kind.as_str()).unwrap_or("none"),
        "category": t.category,
        "person": t.person,
        "amount": t.amount.as_ref().map(Money::to_major_number),
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

/// Returns an agenda: `{"items": [...], "hidden": N, "hidden_items": [{key, claimed_by,
/// claimed_until, overdue}]}` — the tasks others' claims hide are counted, not dropped.
pub fn agenda(a: &crate::ops::query::Agenda, today: jiff::civil::Date, now_ms: i64) -> Value {
    json!({
        "items": a.tasks.iter().map(|t| task(t, now_ms)).collect::<Vec<_>>(),
        "hidden": a.hidden.len(),
        "hidden_items": a.hidden.iter().map(|t| json!({
            "key": t.key,
            "claimed_by": t.claimed_by,
            "claimed_until": t.claimed_until.map(rfc3339),
            "overdue": t.due.is_some_and(|d| d.is_overdue(today, now_ms)),
        })).collect::<Vec<_>>(),
    })
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
    json!({ "task": task(&d.task, now_ms), "links": links, "notes": d.notes.iter().map(note).collect::<Vec<_>>() })
}

/// Returns a note.
pub fn note(n: &crate::model::Note) -> Value {
    json!({ "at": rfc3339(n.at), "actor": n.actor, "text": n.text })
}

/// Returns the answer of `tasks note`.
pub fn noted(out: &crate::ops::note::NoteOutcome, now_ms: i64) -> Value {
    json!({ "task": task(&out.task, now_ms), "note": note(&out.note) })
}

/// Returns the answer of `tasks undo`: what was reverted, and the tasks after it.
pub fn undone(out: &crate::ops::undo::UndoOutcome, now_ms: i64, dry_run: bool) -> Value {
    json!({
        "dry_run": dry_run,
        "change_at": rfc3339(out.change_at),
        "reverted": out.reverted.iter().map(|r| json!({ "task": r.key, "what": r.what, "kept": r.kept })).collect::<Vec<_>>(),
        "tasks": out.tasks.iter().map(|t| task(t, now_ms)).collect::<Vec<_>>(),
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

/// Returns `{"task": …}`: the answer of a command about one task (edit, claim, release).
pub fn task_only(t: &Task, now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms) })
}

/// Returns the outcome of `add` (CLI) and `task_create` (MCP): the task, whether it was
/// created, what it was attached to, the candidates shown, and the exact match that
/// made a rule's second firing a no-op (SPEC §10).
pub fn added(out: &AddOutcome, now_ms: i64, dry_run: bool) -> Value {
    json!({
        "task": task(&out.task, now_ms),
        "created": out.created && !dry_run,
        "dry_run": dry_run,
        "attached_to": out.attached_to,
        "candidates": out.candidates.iter().map(candidate).collect::<Vec<_>>(),
        "queued_for_review": out.queued_for_review,
        "reopened": out.reopened,
        "filled": out.filled,
        "exact_match": out.exact_match.as_ref().map(|m| json!({
            "rule": m.rule, "message": m.message,
            "reason": "the same rule on the same message made this task before",
        })),
    })
}

/// Returns the outcome of a status change: the task, whether it changed, and the keys
/// of the tasks it unblocked.
pub fn status_changed(out: &StatusOutcome, now_ms: i64) -> Value {
    json!({
        "task": task(&out.task, now_ms),
        "changed": out.changed,
        "unblocked": out.unblocked.iter().map(|t| t.key.clone()).collect::<Vec<_>>(),
    })
}

/// Returns the outcome of a status change of several tasks: `{"items": [...]}`, each
/// as [`status_changed`].
pub fn statuses_changed(outs: &[StatusOutcome], now_ms: i64) -> Value {
    json!({ "items": outs.iter().map(|o| status_changed(o, now_ms)).collect::<Vec<_>>() })
}

/// Returns the outcome of `edit`: the task, and what changed as lines.
pub fn edited(t: &Task, changes: &[String], dry_run: bool, now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms), "changes": changes, "dry_run": dry_run })
}

/// Returns the outcome of `tag` / `untag` on several tasks.
pub fn tagged_many(results: &[(Task, Vec<String>)], now_ms: i64) -> Value {
    json!({ "items": results.iter().map(|(t, c)| tagged(t, c, now_ms)).collect::<Vec<_>>() })
}

/// Returns the outcome of MCP `task_update`: the task and the keys it unblocked.
pub fn task_updated(t: &Task, unblocked: &[String], now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms), "unblocked": unblocked })
}

/// Returns the outcome of `tag` / `untag`: the task and the tags that changed.
pub fn tagged(t: &Task, changed: &[String], now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms), "changed": changed })
}

/// Returns the outcome of `link` / `unlink`.
pub fn linked(out: &LinkOutcome, now_ms: i64) -> Value {
    json!({
        "task": task(&out.task, now_ms),
        "other": task(&out.other, now_ms),
        "kind": out.kind.as_str(),
        "changed": out.changed,
    })
}

/// Returns the outcome of `next`: the task and whether it was claimed.
pub fn next(t: &Task, claimed: bool, now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms), "claimed": claimed })
}

/// Returns a task's history (`history`).
pub fn history(t: &Task, events: &[Event], now_ms: i64) -> Value {
    json!({ "task": task(t, now_ms), "items": events.iter().map(event).collect::<Vec<_>>() })
}

/// Returns the outcome of `project add`.
pub fn project_created(p: &Project) -> Value {
    json!({ "project": project(p) })
}

/// Returns `project list`.
pub fn project_list(list: &[ProjectSummary]) -> Value {
    json!({ "items": list.iter().map(project_summary).collect::<Vec<_>>() })
}

/// Returns the outcome of `import`: counts, skipped lines, and each line's key.
pub fn imported(out: &ImportOutcome) -> Value {
    json!({
        "imported": out.imported,
        "already_imported": out.already_imported.iter().map(|(id, key)| json!({ "id": id, "key": key })).collect::<Vec<_>>(),
        "skipped": out.skipped.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "items": out.keys.iter().map(|(id, key)| json!({ "id": id, "key": key })).collect::<Vec<_>>(),
        "scheduled": out.scheduled,
    })
}

/// Returns `import` of a converted file (Taskwarrior, beads): the import and what the
/// conversion could not map.
pub fn imported_converted(out: &ImportOutcome, from: &str, not_mapped: &[String]) -> Value {
    let mut v = imported(out);
    v["from"] = json!(from);
    v["scheduled"] = json!(out.scheduled);
    v["not_mapped"] = json!(not_mapped);
    v
}

/// Returns `import` of a `tasks export` file.
pub fn dump_imported(out: &crate::ops::dump::DumpOutcome) -> Value {
    json!({
        "mode": out.mode,
        "written": out.written,
        "kept": out.kept,
        "conflicts": out.conflicts,
        "not_merged": out.not_merged,
    })
}

/// Returns `backup`.
pub fn backed_up(path: &str, out: &crate::ops::backup::BackupOutcome) -> Value {
    json!({ "file": path, "bytes": out.bytes, "tasks": out.tasks, "removed_partials": out.removed_partials })
}

/// Returns `restore`: with `kept`, where the store as it was is kept.
pub fn restored(path: &str, out: &crate::ops::backup::RestoreOutcome) -> Value {
    json!({ "restored_from": path, "tasks": out.tasks, "kept": out.kept })
}

/// Returns `export --json`: the exported lines as one list.
pub fn exported(lines: &[Value]) -> Value {
    json!({ "items": lines })
}
