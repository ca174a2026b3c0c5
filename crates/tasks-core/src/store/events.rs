//! Task history: one `task_events` row per change, written in the same transaction as
//! the change itself, with `changes` as `{field: [from, to]}` JSON and the actor.

use crate::store::Cached;
use rusqlite::{Connection, params};
use serde_json::Value;

use super::Tx;
use crate::error::Result;

/// One history row.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Row id, increasing.
    pub id: i64,
    /// When, epoch ms.
    pub at: i64,
    /// Who.
    pub actor: String,
    /// What kind of change (`created`, `status`, `edit`, `claim` …).
    pub kind: String,
    /// `{field: [from, to]}` or other details.
    pub changes: Value,
}

/// Appends an event row.
pub(crate) fn record(tx: &Tx<'_>, task_id: i64, at: i64, actor: &str, kind: &str, changes: &Value) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO task_events (task_id, at, actor, kind, changes) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![task_id, at, actor, kind, changes.to_string()],
    )?;
    Ok(())
}

/// Reads a task's history, oldest first.
pub(crate) fn for_task(conn: &Connection, task_id: i64) -> Result<Vec<Event>> {
    let mut stmt =
        conn.prepare("SELECT id, at, actor, kind, changes FROM task_events WHERE task_id = ?1 ORDER BY id")?;
    let rows = stmt.query_map([task_id], |r| {
        let changes: String = r.get(4)?;
        Ok(Event {
            id: r.get(0)?,
            at: r.get(1)?,
            actor: r.get(2)?,
            kind: r.get(3)?,
            changes: serde_json::from_str(&changes).unwrap_or(Value::Null),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
