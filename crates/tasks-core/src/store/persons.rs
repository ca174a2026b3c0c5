//! Persons and their identities. A person is any identifier (`person:42`, `p07`,
//! `@lena`, SPEC §3); unknown ones are created on first use, so agents and imports can
//! name people without a setup step.

use crate::store::Cached;
use rusqlite::{Connection, OptionalExtension, params};

use super::Tx;
use crate::error::Result;

use crate::keys::{LOCAL_PROVIDER, numeric_person as numeric_ref};

/// Returns the person id for a handle, creating the person when unknown.
pub(crate) fn resolve_or_create(tx: &Tx<'_>, handle: &str, now: i64) -> Result<i64> {
    if let Some(id) = find(tx, handle)? {
        return Ok(id);
    }
    if let Some(n) = numeric_ref(handle) {
        tx.exec_cached("INSERT INTO persons (id, created_at) VALUES (?1, ?2)", params![n, now])?;
        return Ok(n);
    }
    tx.exec_cached("INSERT INTO persons (name, created_at) VALUES (?1, ?2)", params![handle, now])?;
    let id = tx.last_insert_rowid();
    tx.exec_cached(
        "INSERT INTO identities (person_id, provider, handle) VALUES (?1, ?2, ?3)",
        params![id, LOCAL_PROVIDER, handle],
    )?;
    Ok(id)
}

/// Returns the person id for a handle without creating anything.
pub(crate) fn find(conn: &Connection, handle: &str) -> Result<Option<i64>> {
    if let Some(n) = numeric_ref(handle) {
        return Ok(conn.query_row_cached("SELECT id FROM persons WHERE id = ?1", [n], |r| r.get(0)).optional()?);
    }
    Ok(conn
        .query_row_cached("SELECT person_id FROM identities WHERE handle = ?1 ORDER BY id LIMIT 1", [handle], |r| {
            r.get(0)
        })
        .optional()?)
}
