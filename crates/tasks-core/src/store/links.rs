//! Links between tasks and from tasks to messages. A link is never deleted: `unlink`
//! and `unmerge` set `removed_at`, so the graph's history stays readable.
//!
//! The cycle check is one recursive CTE run inside the writing transaction (SPEC §4).

use crate::store::Cached;
use rusqlite::{Connection, OptionalExtension, params};

use super::Tx;
use crate::error::Result;
use crate::model::LinkKind;

/// Returns whether a live task → task link exists.
pub(crate) fn exists(conn: &Connection, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM links WHERE from_task_id = ?1 AND kind = ?2 AND to_task_id = ?3 AND removed_at IS NULL",
            params![from, kind.as_str(), to],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// Inserts a live task → task link.
pub(crate) fn insert(tx: &Tx<'_>, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO links (from_task_id, kind, to_task_id, created_at, created_by) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![from, kind.as_str(), to, now, actor],
    )?;
    Ok(())
}

/// Inserts a live task → message link unless it exists.
pub(crate) fn insert_message(
    tx: &Tx<'_>,
    from: i64,
    kind: LinkKind,
    message_id: i64,
    actor: &str,
    now: i64,
) -> Result<()> {
    tx.exec_cached(
        "INSERT OR IGNORE INTO links (from_task_id, kind, to_message_id, created_at, created_by)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![from, kind.as_str(), message_id, now, actor],
    )?;
    Ok(())
}

/// Marks a live task → task link removed; returns false when there was none.
pub(crate) fn remove(tx: &Tx<'_>, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<bool> {
    let n = tx.exec_cached(
        "UPDATE links SET removed_at = ?4, removed_by = ?5
         WHERE from_task_id = ?1 AND kind = ?2 AND to_task_id = ?3 AND removed_at IS NULL",
        params![from, kind.as_str(), to, now, actor],
    )?;
    Ok(n > 0)
}

/// Marks the live evidence link from a task to the message at `locator` removed;
/// returns false when there was none.
pub(crate) fn remove_evidence(tx: &Tx<'_>, task_id: i64, locator: &str, actor: &str, now: i64) -> Result<bool> {
    let n = tx.exec_cached(
        "UPDATE links SET removed_at = ?3, removed_by = ?4
         WHERE from_task_id = ?1 AND kind = 'evidence' AND removed_at IS NULL
           AND to_message_id = (SELECT id FROM messages WHERE locator = ?2)",
        params![task_id, locator, now, actor],
    )?;
    Ok(n > 0)
}

/// Returns whether `to` can be reached from `from` along live links of `kind`.
///
/// Adding `a kind b` closes a cycle exactly when `a` is reachable from `b`. The walk
/// carries only task ids and `UNION` keeps each once, so it visits every reachable
/// task at most once: linear in the tasks and links it reaches (the earlier walk carried
/// its path as text, which copied the path at every step — quadratic on a long chain,
/// 1.2 s at the end of a 10k chain).
pub(crate) fn reachable(conn: &Connection, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    let found: Option<i64> = conn
        .query_row_cached(
            "WITH RECURSIVE walk(id) AS (
                 SELECT ?1
                 UNION
                 SELECT l.to_task_id FROM walk JOIN links l ON l.from_task_id = walk.id
                 WHERE l.kind = ?2 AND l.removed_at IS NULL AND l.to_task_id IS NOT NULL
             )
             SELECT 1 FROM walk WHERE id = ?3 LIMIT 1",
            params![from, kind.as_str(), to],
            |r| r.get(0),
        )
        .optional()?;
    Ok(found.is_some())
}

/// Returns the targets of a task's live links of one kind.
pub(crate) fn targets(conn: &Connection, from: i64, kind: LinkKind) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT to_task_id FROM links
         WHERE from_task_id = ?1 AND kind = ?2 AND removed_at IS NULL AND to_task_id IS NOT NULL ORDER BY to_task_id",
    )?;
    let rows = stmt.query_map(params![from, kind.as_str()], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// One live link, seen from a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRow {
    /// The kind.
    pub kind: LinkKind,
    /// The other task's row id (for task links).
    pub task_id: Option<i64>,
    /// The message locator (for message links).
    pub message: Option<String>,
    /// True when the link points from the other task to this one.
    pub incoming: bool,
}

/// Returns every live link from or to a task.
pub(crate) fn of_task(conn: &Connection, task_id: i64) -> Result<Vec<LinkRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT l.kind, l.to_task_id, m.locator, 0 FROM links l LEFT JOIN messages m ON m.id = l.to_message_id
          WHERE l.from_task_id = ?1 AND l.removed_at IS NULL
         UNION ALL
         SELECT l.kind, l.from_task_id, NULL, 1 FROM links l
          WHERE l.to_task_id = ?1 AND l.removed_at IS NULL
         ORDER BY 4, 1",
    )?;
    let rows = stmt.query_map([task_id], |r| {
        let kind: String = r.get(0)?;
        Ok((kind, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? == 1))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (kind, task_id, message, incoming) = row?;
        if let Ok(kind) = kind.parse::<LinkKind>() {
            out.push(LinkRow { kind, task_id, message, incoming });
        }
    }
    Ok(out)
}

/// Returns the live links of one kind among all tasks: (from, to) row ids.
pub(crate) fn all_of_kind(conn: &Connection, kind: LinkKind) -> Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT from_task_id, to_task_id FROM links WHERE kind = ?1 AND removed_at IS NULL AND to_task_id IS NOT NULL",
    )?;
    let rows = stmt.query_map([kind.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Moves a task's live message links to another task (merge); returns the message ids.
pub(crate) fn move_message_links(tx: &Tx<'_>, from: i64, to: i64, actor: &str, now: i64) -> Result<Vec<i64>> {
    move_links(tx, from, None, to, actor, now)
}

/// Moves one message link from `from` to `to` (unmerge); returns 1 when it moved.
pub(crate) fn move_message_link(
    tx: &Tx<'_>,
    from: i64,
    to: i64,
    message_id: i64,
    actor: &str,
    now: i64,
) -> Result<usize> {
    Ok(move_links(tx, from, Some(message_id), to, actor, now)?.len().min(1))
}

/// Moves the live message links of `from` (all, or those to `message`) to `to`: each
/// link is marked removed and recreated on `to` with its kind. Returns the message ids.
fn move_links(tx: &Tx<'_>, from: i64, message: Option<i64>, to: i64, actor: &str, now: i64) -> Result<Vec<i64>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, kind, to_message_id FROM links
         WHERE from_task_id = ?1 AND to_message_id IS NOT NULL AND removed_at IS NULL
           AND (?2 IS NULL OR to_message_id = ?2)",
    )?;
    let rows: Vec<(i64, String, i64)> = stmt
        .query_map(params![from, message], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, kind, message_id) in &rows {
        tx.exec_cached("UPDATE links SET removed_at = ?2, removed_by = ?3 WHERE id = ?1", params![id, now, actor])?;
        tx.exec_cached(
            "INSERT OR IGNORE INTO links (from_task_id, kind, to_message_id, created_at, created_by)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![to, kind, message_id, now, actor],
        )?;
    }
    Ok(rows.iter().map(|(_, _, m)| *m).collect())
}

/// Returns the tasks with a live `blocked-by` link to `id` (its dependants), by id.
pub(crate) fn blocked_dependants(conn: &Connection, id: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT from_task_id FROM links WHERE to_task_id = ?1 AND kind = ?2 AND removed_at IS NULL ORDER BY from_task_id",
    )?;
    let rows = stmt.query_map(params![id, LinkKind::BlockedBy.as_str()], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
