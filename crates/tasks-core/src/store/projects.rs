//! Projects and key counters: the project row's `tasks_count` and the per-prefix rows of
//! `key_counters` give task numbers inside the same transaction as the insert (SPEC §3),
//! so concurrent writers can never hand out one number twice or leave a gap.

use crate::store::Cached;
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::Tx;
use crate::error::{Error, Result};
use crate::model::{Project, ProjectKind};

fn row_to_project(row: &Row<'_>) -> rusqlite::Result<Project> {
    let kind: String = row.get(4)?;
    Ok(Project {
        id: row.get(0)?,
        key: row.get(1)?,
        name: row.get(2)?,
        description: row.get(3)?,
        kind: if kind == "inbox" { ProjectKind::Inbox } else { ProjectKind::Project },
        account_id: row.get(5)?,
        tasks_count: row.get(6)?,
        created_at: row.get(7)?,
    })
}

const COLUMNS: &str = "id, key, name, description, kind, account_id, tasks_count, created_at";

/// Inserts a project; refuses a key that exists.
pub(crate) fn insert(
    tx: &Tx<'_>,
    key: &str,
    name: &str,
    description: &str,
    kind: ProjectKind,
    account_id: Option<&str>,
    now: i64,
) -> Result<Project> {
    if by_key(tx, key)?.is_some() {
        return Err(Error::ProjectExists { key: key.to_string() });
    }
    tx.exec_cached(
        "INSERT INTO projects (key, name, description, kind, account_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![key, name, description, kind.as_str(), account_id, now],
    )?;
    get(tx, tx.last_insert_rowid())
}

/// Reads a project by id.
pub(crate) fn get(conn: &Connection, id: i64) -> Result<Project> {
    Ok(conn.query_row_cached(&format!("SELECT {COLUMNS} FROM projects WHERE id = ?1"), [id], row_to_project)?)
}

/// Reads a project by key (exact, uppercase).
pub(crate) fn by_key(conn: &Connection, key: &str) -> Result<Option<Project>> {
    Ok(conn
        .query_row_cached(&format!("SELECT {COLUMNS} FROM projects WHERE key = ?1"), [key], row_to_project)
        .optional()?)
}

/// Reads the inbox of a messaging account (`provider/account`).
pub(crate) fn by_account(conn: &Connection, account_id: &str) -> Result<Option<Project>> {
    Ok(conn
        .query_row_cached(
            &format!("SELECT {COLUMNS} FROM projects WHERE account_id = ?1"),
            [account_id],
            row_to_project,
        )
        .optional()?)
}

/// Lists every project, by key.
pub(crate) fn list(conn: &Connection) -> Result<Vec<Project>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM projects ORDER BY kind DESC, key"))?;
    let rows = stmt.query_map([], row_to_project)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the number of open and in-progress tasks per project id.
pub(crate) fn open_counts(conn: &Connection) -> Result<std::collections::HashMap<i64, i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT project_id, count(*) FROM tasks WHERE status IN ('open', 'in_progress') GROUP BY project_id",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Takes the next task number of a project (`UPDATE … RETURNING`, SPEC §3).
pub(crate) fn next_number(tx: &Tx<'_>, project_id: i64) -> Result<i64> {
    Ok(tx.query_row_cached(
        "UPDATE projects SET tasks_count = tasks_count + 1 WHERE id = ?1 RETURNING tasks_count",
        [project_id],
        |r| r.get(0),
    )?)
}

/// Takes the next number of a typed prefix (`Q`, `REQ`, `M`, `PR`).
pub(crate) fn next_typed_number(tx: &Tx<'_>, prefix: &str) -> Result<i64> {
    Ok(tx.query_row_cached(
        "INSERT INTO key_counters (prefix, last) VALUES (?1, 1)
         ON CONFLICT (prefix) DO UPDATE SET last = last + 1
         RETURNING last",
        [prefix],
        |r| r.get(0),
    )?)
}
