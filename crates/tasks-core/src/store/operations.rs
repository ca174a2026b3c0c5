//! Operations: the unit `tasks undo` reverts. Every write transaction that records task
//! events makes one row (`Tx::operation`), and each event points at it. An undo is an
//! operation that `undoes` another, which then has `undone_by`.

use rusqlite::{Connection, OptionalExtension, params};

use super::Tx;
use super::events::{self, EVENT_COLUMNS, Event};
use crate::error::Result;
use crate::store::Cached;

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// Row id.
    pub id: i64,
    /// When, epoch ms.
    pub at: i64,
}

/// Returns the actor's newest operation that is neither undone nor itself an undo.
pub(crate) fn last_undoable(conn: &Connection, actor: &str) -> Result<Option<Operation>> {
    Ok(conn
        .query_row_cached(
            "SELECT id, at FROM operations
             WHERE actor = ?1 AND undone_by IS NULL AND undoes IS NULL
             ORDER BY id DESC LIMIT 1",
            [actor],
            |r| Ok(Operation { id: r.get(0)?, at: r.get(1)? }),
        )
        .optional()?)
}

/// Returns an operation's events, oldest first, with their task ids.
pub(crate) fn events_of(conn: &Connection, op: i64) -> Result<Vec<(i64, Event)>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {EVENT_COLUMNS} FROM task_events e WHERE e.op_id = ?1 ORDER BY e.id"))?;
    events::read_events(&mut stmt, [op])
}

/// Returns the events on `task_id` after event `after` that still stand: not part of an
/// undone operation, nor of an undo (whose effect is to cancel one), nor older history
/// without an operation is taken as standing.
pub(crate) fn standing_after(conn: &Connection, task_id: i64, after: i64) -> Result<Vec<(i64, Event)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EVENT_COLUMNS} FROM task_events e LEFT JOIN operations o ON o.id = e.op_id
         WHERE e.task_id = ?1 AND e.id > ?2
           AND (o.id IS NULL OR (o.undone_by IS NULL AND o.undoes IS NULL))
         ORDER BY e.id"
    ))?;
    events::read_events(&mut stmt, params![task_id, after])
}

/// Records that `undo` reverted `target`.
pub(crate) fn mark_undone(tx: &Tx<'_>, target: i64, undo: i64) -> Result<()> {
    tx.exec_cached("UPDATE operations SET undone_by = ?2 WHERE id = ?1", params![target, undo])?;
    tx.exec_cached("UPDATE operations SET undoes = ?1 WHERE id = ?2", params![target, undo])?;
    Ok(())
}
