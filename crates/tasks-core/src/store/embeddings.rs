//! Rows of `task_embeddings`: one stored sentence embedding per task, tagged with the
//! model that made it (dedup::embed). Bytes in, bytes out: encoding, models and
//! similarity are the caller's business.

use crate::store::Cached;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;

/// Returns the vector bytes stored for a task under `model`, if any.
pub(crate) fn get(conn: &Connection, task_id: i64, model: &str) -> Result<Option<Vec<u8>>> {
    Ok(conn
        .query_row_cached(
            "SELECT vector FROM task_embeddings WHERE task_id = ?1 AND model = ?2",
            params![task_id, model],
            |r| r.get(0),
        )
        .optional()?)
}

/// Stores (or replaces) a task's vector bytes under `model`.
pub(crate) fn put(conn: &Connection, task_id: i64, model: &str, vector: &[u8]) -> Result<()> {
    conn.exec_cached(
        "INSERT INTO task_embeddings (task_id, model, vector) VALUES (?1, ?2, ?3)
         ON CONFLICT (task_id) DO UPDATE SET model = excluded.model, vector = excluded.vector",
        params![task_id, model, vector],
    )?;
    Ok(())
}
