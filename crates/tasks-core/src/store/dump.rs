//! Rows as they are, for the lossless export (`ops::dump`): which tables hold data and
//! which are derived, reading a table's rows in order, and inserting a row back.
//!
//! Generic over columns on purpose: a column added by a later migration is exported and
//! restored without touching this file, and a test refuses a new table that is in
//! neither list.

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, params_from_iter};
use serde_json::{Map, Value, json};

use super::Tx;
use crate::error::{Error, Result};

/// The tables that hold data, in the order a restore inserts them, with the `kind` of
/// their records. Foreign keys are checked at commit, so the order is for readers.
pub const DATA: &[(&str, &str)] = &[
    ("projects", "project"),
    ("key_counters", "key_counter"),
    ("persons", "person"),
    ("identities", "identity"),
    ("messages", "message"),
    ("tasks", "task"),
    ("rule_hits", "rule_hit"),
    ("links", "link"),
    ("tags", "tag"),
    ("taggings", "tagging"),
    ("operations", "operation"),
    ("task_events", "event"),
    ("notes", "note"),
    ("dup_pairs", "dup_pair"),
    ("dup_decisions", "dup_decision"),
    ("dup_weights", "dup_weight"),
    ("conversations", "conversation"),
    ("conversation_state", "conversation_state"),
    ("schedules", "schedule"),
    ("jobs", "job"),
    ("runs", "run"),
    ("artifacts", "artifact"),
    ("conversation_messages", "conversation_message"),
    ("conversation_queue", "queue_item"),
    ("bot_offsets", "bot_offset"),
];

#[cfg(test)]
/// Tables computed from the data (indexes, statistics, caches): never exported, rebuilt
/// after a restore. FTS5 keeps shadow tables named after these (`task_words_data` …).
pub(crate) const DERIVED: &[&str] = &[
    "task_words",
    "task_stems",
    "task_stems_vocab",
    "term_docs",
    "task_signatures",
    "dup_stats",
    "task_embeddings",
    "note_stems",
];

#[cfg(test)]
/// Bookkeeping of the store itself (the schema version): never exported.
pub(crate) const OWN: &[&str] = &["schema_migrations"];

/// The table of a record kind.
pub(crate) fn table_of(kind: &str) -> Option<&'static str> {
    DATA.iter().find(|(_, k)| *k == kind).map(|(t, _)| *t)
}

#[cfg(test)]
/// Every table of the store that is in none of the lists (a test keeps this empty).
pub(crate) fn unlisted_tables(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")?;
    let names: Vec<String> = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(names
        .into_iter()
        .filter(|n| {
            !DATA.iter().any(|(t, _)| t == n)
                && !OWN.contains(&n.as_str())
                && !DERIVED.iter().any(|d| n == d || n.starts_with(&format!("{d}_")))
        })
        .collect())
}

fn to_json(v: Sql) -> Value {
    match v {
        Sql::Null => Value::Null,
        Sql::Integer(i) => json!(i),
        Sql::Real(f) => json!(f),
        Sql::Text(t) => Value::String(t),
        Sql::Blob(b) => json!({ "blob_hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() }),
    }
}

fn to_sql(v: &Value) -> std::result::Result<Sql, String> {
    Ok(match v {
        Value::Null => Sql::Null,
        Value::Bool(b) => Sql::Integer(i64::from(*b)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Sql::Integer(i),
            None => Sql::Real(n.as_f64().ok_or("a number out of range")?),
        },
        Value::String(s) => Sql::Text(s.clone()),
        Value::Object(o) => match o.get("blob_hex").and_then(Value::as_str) {
            Some(hex) if hex.len() % 2 == 0 => Sql::Blob(
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| "blob_hex is not hex")?,
            ),
            _ => return Err("an object that is not {\"blob_hex\": …}".into()),
        },
        Value::Array(_) => return Err("a list where a column value belongs".into()),
    })
}

/// Calls `f` with every row of `table`, in row order, as a JSON object.
pub(crate) fn each_row(
    conn: &Connection,
    table: &str,
    f: &mut dyn FnMut(Map<String, Value>) -> Result<()>,
) -> Result<()> {
    // Stored columns only: generated ones (`ready_due` …) are computed again.
    let list: Vec<String> = columns(conn, table)?.iter().map(|c| format!("\"{c}\"")).collect();
    let list = list.join(", ");
    let mut stmt = match conn.prepare(&format!("SELECT {list} FROM \"{table}\" ORDER BY rowid")) {
        Ok(s) => s,
        Err(_) => conn.prepare(&format!("SELECT {list} FROM \"{table}\" ORDER BY 1"))?,
    };
    let names: Vec<String> = stmt.column_names().map(str::to_string).collect();
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let mut obj = Map::new();
        for (i, name) in names.iter().enumerate() {
            obj.insert(name.clone(), to_json(row.get::<_, Sql>(i)?));
        }
        f(obj)?;
    }
    Ok(())
}

/// Returns the stored (not generated, not hidden) column names of a table.
pub(crate) fn columns(conn: &Connection, table: &str) -> Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("SELECT name FROM pragma_table_xinfo('{table}') WHERE hidden = 0"))?;
    Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
}

/// Inserts one row; `line` names the input line in errors. Columns must exist.
pub(crate) fn insert_row(
    tx: &Tx<'_>,
    table: &str,
    row: &Map<String, Value>,
    known: &[String],
    line: usize,
) -> Result<i64> {
    let bad = |m: String| Error::ImportLine { line, field: None, message: m };
    let mut names = Vec::with_capacity(row.len());
    let mut values = Vec::with_capacity(row.len());
    for (name, v) in row {
        if !known.contains(name) {
            return Err(bad(format!("{table} has no column \"{name}\" (an export of a newer tasks?)")));
        }
        names.push(format!("\"{name}\""));
        values.push(to_sql(v).map_err(|m| bad(format!("column {name}: {m}")))?);
    }
    let marks: Vec<String> = (1..=names.len()).map(|i| format!("?{i}")).collect();
    let sql = format!("INSERT INTO \"{table}\" ({}) VALUES ({})", names.join(", "), marks.join(", "));
    tx.prepare_cached(&sql)
        .and_then(|mut s| s.execute(params_from_iter(values)))
        .map_err(|e| bad(format!("{table}: {e}")))?;
    Ok(tx.last_insert_rowid())
}

/// Returns whether a table has a row.
pub(crate) fn has_rows(conn: &Connection, table: &str) -> Result<bool> {
    Ok(conn.query_row(&format!("SELECT EXISTS (SELECT 1 FROM \"{table}\")"), [], |r| r.get(0))?)
}

/// Returns (id, text) of every note, for rebuilding their search index.
pub(crate) fn note_ids_and_texts(conn: &Connection) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare("SELECT id, text FROM notes ORDER BY id")?;
    Ok(stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?)
}

/// Returns the id of every task, for rebuilding the duplicate check's index.
pub(crate) fn task_ids(conn: &Connection) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare("SELECT id FROM tasks ORDER BY id")?;
    Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    /// A table a migration adds must be exported (DATA) or rebuilt (DERIVED): never
    /// silently left out of `tasks export`.
    #[test]
    fn every_table_is_exported_or_derived() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(&dir.path().join("t.db")).expect("store");
        assert_eq!(unlisted_tables(store.conn()).expect("tables"), Vec::<String>::new());
        for (table, _) in DATA {
            assert!(!columns(store.conn(), table).expect("columns").is_empty(), "{table} does not exist");
        }
    }

    #[test]
    fn values_come_back_as_they_were() {
        for v in
            [Sql::Null, Sql::Integer(-5), Sql::Real(0.1), Sql::Text("é\n\"x\"".into()), Sql::Blob(vec![0, 255, 16])]
        {
            let back = to_sql(&to_json(v.clone())).expect("back");
            assert_eq!(back, v);
        }
        assert!(to_sql(&json!([1])).is_err());
        assert!(to_sql(&json!({"blob_hex": "zz"})).is_err());
    }
}
