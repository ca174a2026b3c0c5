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

/// The SQL function an attached embedder answers: `tasks_embed(text)` → the vector as a
/// little-endian f32 BLOB.
pub const SQL_EMBED: &str = "tasks_embed";
/// The SQL function naming the attached model: `tasks_embed_model()` → text. Vectors
/// stored under another name are ignored (and recomputed).
pub const SQL_MODEL: &str = "tasks_embed_model";

/// Registers the embedding functions on a connection: `embed` turns a text into vector
/// bytes, `model` names the model.
#[cfg(feature = "embed")]
pub(crate) fn register(
    conn: &Connection,
    model: &str,
    embed: impl Fn(&str) -> std::result::Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>> + Send + 'static,
) -> Result<()> {
    use rusqlite::functions::FunctionFlags;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    let id = model.to_string();
    conn.create_scalar_function(SQL_MODEL, 0, flags, move |_| Ok(id.clone()))?;
    conn.create_scalar_function(SQL_EMBED, 1, flags, move |ctx| {
        let text: String = ctx.get(0)?;
        embed(&text).map_err(rusqlite::Error::UserFunctionError)
    })?;
    Ok(())
}

/// Returns the model of the engine registered on `conn`, if one is.
pub(crate) fn attached_model(conn: &Connection) -> Result<Option<String>> {
    let present: Option<i64> = conn
        .query_row_cached("SELECT 1 FROM pragma_function_list WHERE name = ?1", [SQL_MODEL], |r| r.get(0))
        .optional()?;
    if present.is_none() {
        return Ok(None);
    }
    Ok(Some(conn.query_row_cached(&format!("SELECT {SQL_MODEL}()"), [], |r| r.get(0))?))
}

/// Embeds a text through the registered engine; returns the vector bytes.
pub(crate) fn embed_text(conn: &Connection, text: &str) -> Result<Vec<u8>> {
    Ok(conn.query_row_cached(&format!("SELECT {SQL_EMBED}(?1)"), [text], |r| r.get(0))?)
}
