//! The conversation queue's rows (SPEC §6): one durable FIFO per conversation, where
//! messages and prompt firings wait their turn. Order is `position` then id; a live
//! item is one in [`QueueState::LIVE`].

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::columns::{json_column, spelled_column, sql_list, to_json};
use super::{Cached, Tx};
use crate::error::Result;
use crate::model::conversation::{QueueKind, QueuePayload, QueueState};

/// An item of a conversation's durable FIFO queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem {
    /// Row id.
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// A message or a firing.
    pub kind: QueueKind,
    /// The Job of a firing.
    pub job_id: Option<i64>,
    /// What to run: the message text, or the firing's task and prompt.
    pub payload: QueuePayload,
    /// Where it is in its life.
    pub state: QueueState,
    /// Order in the queue (smaller first, then id).
    pub position: i64,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Last change, epoch ms.
    pub updated_at: i64,
}

const QUEUE_COLUMNS: &str = "id, conversation_id, kind, job_id, payload, state, position, created_at, updated_at";

fn row_to_item(row: &Row<'_>) -> rusqlite::Result<QueueItem> {
    Ok(QueueItem {
        id: row.get(0)?,
        conversation_id: row.get(1)?,
        kind: spelled_column(row, 2, "queue item kind")?,
        job_id: row.get(3)?,
        payload: json_column(row, 4, "queue payload")?,
        state: spelled_column(row, 5, "queue item state")?,
        position: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

/// Returns `'pending', 'running'`: the live states, for SQL.
fn live_states() -> String {
    sql_list(QueueState::LIVE.iter().map(|s| s.as_str()))
}

/// Appends a pending item at the tail of a conversation's queue; returns its id.
pub(crate) fn enqueue(
    tx: &Tx<'_>,
    conversation_id: i64,
    kind: QueueKind,
    job_id: Option<i64>,
    payload: &QueuePayload,
    now: i64,
) -> Result<i64> {
    tx.exec_cached(
        "INSERT INTO conversation_queue (conversation_id, kind, job_id, payload, state, position, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5,
                 (SELECT coalesce(max(position), 0) + 1 FROM conversation_queue WHERE conversation_id = ?1), ?6, ?6)",
        params![conversation_id, kind.as_str(), job_id, to_json(payload), QueueState::Pending.as_str(), now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Reads one queue item.
pub(crate) fn queue_item(conn: &Connection, id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE id = ?1");
    Ok(conn.query_row_cached(&sql, [id], row_to_item).optional()?)
}

/// Returns the queue item of a firing's Job.
pub(crate) fn queue_item_of_job(conn: &Connection, job_id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE job_id = ?1 ORDER BY id DESC LIMIT 1");
    Ok(conn.query_row_cached(&sql, [job_id], row_to_item).optional()?)
}

/// Returns the running and pending items, in queue order, of one conversation or all.
pub(crate) fn live_queue(conn: &Connection, conversation_id: Option<i64>) -> Result<Vec<QueueItem>> {
    let sql = format!(
        "SELECT {QUEUE_COLUMNS} FROM conversation_queue
         WHERE state IN ({}) AND (?1 IS NULL OR conversation_id = ?1)
         ORDER BY conversation_id, state <> ?2, position, id",
        live_states()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![conversation_id, QueueState::Running.as_str()], row_to_item)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets a queue item's state.
pub(crate) fn set_queue_state(tx: &Tx<'_>, id: i64, state: QueueState, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE conversation_queue SET state = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, state.as_str(), now],
    )?;
    Ok(())
}

/// Moves a queue item ahead of every live item of its conversation.
pub(crate) fn move_to_head(tx: &Tx<'_>, id: i64, conversation_id: i64, now: i64) -> Result<()> {
    let sql = format!(
        "UPDATE conversation_queue SET updated_at = ?3, position =
             (SELECT coalesce(min(position), 1) - 1 FROM conversation_queue
              WHERE conversation_id = ?2 AND state IN ({}))
         WHERE id = ?1",
        live_states()
    );
    tx.exec_cached(&sql, params![id, conversation_id, now])?;
    Ok(())
}
