//! The error object every edge prints: `{"error": {"code", "message", "details"}}`
//! (SPEC §9), and the code string of each core error.

use serde_json::{Value, json};

use crate::error::Error;

use super::candidate;

/// Returns the code string of an error, shared by the CLI (which maps it to an exit
/// code, SPEC §9) and MCP tool errors.
pub fn error_code(e: &Error) -> &'static str {
    match e {
        Error::Invalid { .. }
        | Error::Ambiguous { .. }
        | Error::Cycle { .. }
        | Error::SelfLink { .. }
        | Error::ImportLine { .. } => "validation",
        Error::NotFound { .. } | Error::NothingReady { .. } | Error::NothingToUndo { .. } => "not_found",
        // A file the user named that is not there (an evaluation set, a weights file).
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => "not_found",
        Error::ProjectExists { .. }
        | Error::Claimed { .. }
        | Error::Blocked { .. }
        | Error::WrongState { .. }
        | Error::NotHolder { .. }
        | Error::UndoBlocked { .. }
        | Error::CannotUndo { .. } => "conflict",
        Error::Schedule(_) => "validation",
        Error::ScheduleExists { .. } | Error::DaemonRunning { .. } => "conflict",
        Error::ProbableDuplicate { .. } => "confirmation_required",
        Error::StoreTooNew { .. } | Error::StoreOpen { .. } => "configuration",
        Error::StoreReadOnly { .. } => "permission",
        Error::Sqlite(_) | Error::Postgres(_) | Error::StoredJson(_) | Error::Io { .. } => {
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
        Error::NothingToUndo { actor } => json!({ "actor": actor }),
        Error::UndoBlocked { key, by, what } => json!({ "task": key, "by": by, "what": what }),
        Error::CannotUndo { key, what, reason } => json!({ "task": key, "what": what, "reason": reason }),
        Error::ProbableDuplicate { title, candidates } => json!({
            "title": title,
            "candidates": candidates.iter().map(candidate).collect::<Vec<_>>(),
        }),
        Error::ImportLine { line, field, message } => json!({ "line": line, "field": field, "message": message }),
        Error::StoreTooNew { path, found, supported } => {
            json!({ "path": path, "found": found, "supported": supported })
        }
        Error::StoreOpen { path, reason } | Error::StoreReadOnly { path, reason } => {
            json!({ "path": path, "reason": reason })
        }
        Error::Schedule(e) => schedule_error_details(e),
        Error::ScheduleExists { key, schedule_id } => json!({ "task": key, "schedule": schedule_id }),
        Error::DaemonRunning { lock } => json!({ "lock": lock }),
        Error::Sqlite(_) | Error::Postgres(_) | Error::StoredJson(_) | Error::Io { .. } => json!({}),
    }
}

/// Returns the `{"error": {...}}` object of an error.
pub fn error(e: &Error) -> Value {
    error_object(error_code(e), &e.to_string(), error_details(e))
}

/// Returns an error object from its parts, for failures that are not core errors (a
/// bad command line, a configuration problem, a tool that stopped).
pub fn error_object(code: &str, message: &str, details: Value) -> Value {
    json!({ "error": { "code": code, "message": message, "details": details } })
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
