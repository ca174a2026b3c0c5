//! Notes (annotations): timestamped text appended to a task, indexed by their stems in
//! `note_stems` (rowid = note id) so `search` finds a task by its notes. A removed note
//! (an undone one) keeps its row with `removed_at` and leaves the index.

use rusqlite::{Connection, params};

use super::Tx;
use crate::error::Result;
use crate::model::Note;
use crate::store::Cached;

/// Appends a note and indexes its terms; returns its id.
pub(crate) fn insert(tx: &Tx<'_>, task_id: i64, at: i64, actor: &str, text: &str, terms: &str) -> Result<i64> {
    tx.exec_cached(
        "INSERT INTO notes (task_id, at, actor, text) VALUES (?1, ?2, ?3, ?4)",
        params![task_id, at, actor, text],
    )?;
    let id = tx.last_insert_rowid();
    index(tx, id, terms)?;
    Ok(id)
}

/// Writes a note's search row (a new note; a restored one).
pub(crate) fn index(tx: &Tx<'_>, id: i64, terms: &str) -> Result<()> {
    tx.exec_cached("INSERT INTO note_stems (rowid, stems) VALUES (?1, ?2)", params![id, terms])?;
    Ok(())
}

/// Marks a note removed and takes it out of the index.
pub(crate) fn remove(tx: &Tx<'_>, note_id: i64, at: i64) -> Result<()> {
    tx.exec_cached("UPDATE notes SET removed_at = ?2 WHERE id = ?1 AND removed_at IS NULL", params![note_id, at])?;
    tx.exec_cached("DELETE FROM note_stems WHERE rowid = ?1", [note_id])?;
    Ok(())
}

/// Returns a task's notes, oldest first (removed ones left out).
pub(crate) fn for_task(conn: &Connection, task_id: i64) -> Result<Vec<Note>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, at, actor, text FROM notes WHERE task_id = ?1 AND removed_at IS NULL ORDER BY id",
    )?;
    let rows =
        stmt.query_map([task_id], |r| Ok(Note { id: r.get(0)?, at: r.get(1)?, actor: r.get(2)?, text: r.get(3)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the tasks whose live notes match an FTS5 term expression.
pub(crate) fn tasks_matching(conn: &Connection, expr: &str) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT n.task_id FROM note_stems s JOIN notes n ON n.id = s.rowid
         WHERE note_stems MATCH ?1 AND n.removed_at IS NULL",
    )?;
    let rows = stmt.query_map([expr], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
