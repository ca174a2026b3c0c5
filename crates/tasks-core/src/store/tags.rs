//! Tags and the one taggings table shared by every taggable type (SPEC §2): tasks are
//! the taggable type `task`.

use crate::store::Cached;
use rusqlite::{OptionalExtension, params};

use super::Tx;
use crate::error::Result;

const TASK: &str = "task";

/// Returns the id of the tag spelled `name` in any case (tags are case-insensitive:
/// `Urgent` and `urgent` are one tag, spelled as first written).
fn find(conn: &rusqlite::Connection, name: &str) -> Result<Option<i64>> {
    Ok(conn
        .query_row_cached("SELECT id FROM tags WHERE lower(name) = lower(?1) ORDER BY id LIMIT 1", [name], |r| r.get(0))
        .optional()?)
}

/// Tags a task; returns false when it already had the tag (in any case).
pub(crate) fn add(tx: &Tx<'_>, task_id: i64, name: &str, now: i64) -> Result<bool> {
    let tag_id = match find(tx, name)? {
        Some(id) => id,
        None => {
            tx.exec_cached("INSERT INTO tags (name) VALUES (?1)", [name])?;
            tx.last_insert_rowid()
        }
    };
    let n = tx.exec_cached(
        "INSERT OR IGNORE INTO taggings (tag_id, taggable_type, taggable_id, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![tag_id, TASK, task_id, now],
    )?;
    Ok(n == 1)
}

/// Removes a tag from a task; returns false when it did not have it.
pub(crate) fn remove(tx: &Tx<'_>, task_id: i64, name: &str) -> Result<bool> {
    let Some(tag_id) = find(tx, name)? else { return Ok(false) };
    let n = tx.exec_cached(
        "DELETE FROM taggings WHERE tag_id = ?1 AND taggable_type = ?2 AND taggable_id = ?3",
        params![tag_id, TASK, task_id],
    )?;
    Ok(n == 1)
}
