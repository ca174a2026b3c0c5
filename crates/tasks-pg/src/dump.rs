//! The lossless export on PostgreSQL, in the SQLite store's format (so a team moves
//! from one file to the shared store and back with `tasks export` / `tasks import`):
//! a header, then `{"kind", "row"}` per row of [`tasks_core::store::DUMP_TABLES`],
//! columns as stored (generated ones left out), BYTEA as `{"blob_hex": …}`.
//!
//! Restoring into an empty store keeps the same ids, keys, UUIDs and counters, then
//! moves the identity sequences past the highest id and rebuilds the posting table and
//! signatures. Into a store with data the export is merged by UUID ([`crate::merge`]),
//! by the SQLite store's rules.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use postgres::GenericClient;
use postgres::types::Type;
use serde_json::{Map, Value, json};
use tasks_core::ops::dump::{DumpOutcome, FORMAT, VERSION};
use tasks_core::store::DUMP_TABLES;
use tasks_core::{Context, Error, Result};

use crate::PgStore;
use crate::store::{TxError, TxResult};

/// The SQLite schema this PostgreSQL schema mirrors table for table and column for
/// column; exports carry it, so SQLite reads them as its own. A unit test keeps it
/// equal to the SQLite store's current schema: a SQLite migration needs a PostgreSQL
/// one beside it. (SQLite's 0008 added `term_docs`, which this schema has had from its
/// first migration: nothing to add here; SQLite's 0009, the Runs' owners and leases, is
/// this store's 0003.)
pub const MIRRORS_SQLITE_SCHEMA: i64 = 9;

/// A stored column: its name and type.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    pub name: String,
    pub ty: Type,
}

/// Returns the stored (not generated) columns of a table, in table order.
pub(crate) fn columns(c: &mut impl GenericClient, table: &str) -> TxResult<Vec<Column>> {
    let rows = c.query(
        "SELECT a.attname, a.atttypid FROM pg_attribute a
         WHERE a.attrelid = $1::text::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
         ORDER BY a.attnum",
        &[&table],
    )?;
    rows.iter()
        .map(|r| {
            let oid: u32 = r.get(1);
            let ty = Type::from_oid(oid)
                .ok_or_else(|| TxError::Core(Error::Postgres(format!("{table}: a column of unknown type {oid}"))))?;
            Ok(Column { name: r.get(0), ty })
        })
        .collect()
}

fn value_of(row: &postgres::Row, i: usize, ty: &Type) -> TxResult<Value> {
    Ok(match *ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map_or(Value::Null, |v| json!(v)),
        Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map_or(Value::Null, |v| json!(v)),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map_or(Value::Null, |v| json!(v)),
        Type::TEXT | Type::VARCHAR => row.try_get::<_, Option<String>>(i)?.map_or(Value::Null, Value::String),
        Type::BYTEA => row
            .try_get::<_, Option<Vec<u8>>>(i)?
            .map_or(Value::Null, |b| json!({ "blob_hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })),
        _ => return Err(TxError::Core(Error::Postgres(format!("cannot export a column of type {ty}")))),
    })
}

/// Writes the whole store in the export format; returns the records written.
pub fn export(store: &mut PgStore, ctx: &Context, out: &mut dyn Write) -> Result<u64> {
    let io = |e: std::io::Error| Error::Io { path: "the export output".into(), source: e };
    store.read(|c| {
        let mut counts = Map::new();
        for (table, kind) in DUMP_TABLES {
            let n: i64 = c.query_one(&format!("SELECT count(*) FROM \"{table}\""), &[])?.get(0);
            counts.insert((*kind).to_string(), json!(n));
        }
        let header = tasks_core::ops::dump::header(counts, MIRRORS_SQLITE_SCHEMA, ctx.now_ms());
        writeln!(out, "{header}").map_err(io)?;
        let mut written = 0u64;
        for (table, kind) in DUMP_TABLES {
            let cols = columns(c, table)?;
            let list = cols.iter().map(|c| format!("\"{}\"", c.name)).collect::<Vec<_>>().join(", ");
            // Row order: by id where there is one (SQLite's rowid order for those
            // tables), else by the first column.
            let order = if cols.iter().any(|c| c.name == "id") { "id" } else { "1" };
            for row in c.query(&format!("SELECT {list} FROM \"{table}\" ORDER BY {order}"), &[])? {
                let mut obj = Map::new();
                for (i, col) in cols.iter().enumerate() {
                    obj.insert(col.name.clone(), value_of(&row, i, &col.ty)?);
                }
                writeln!(out, "{}", json!({ "kind": kind, "row": obj })).map_err(io)?;
                written += 1;
            }
        }
        Ok(written)
    })
}

fn line_error(line: usize, message: String) -> Error {
    Error::ImportLine { line, field: None, message }
}

fn check_header(text: &str) -> Result<()> {
    let v: Value = serde_json::from_str(text).map_err(|e| line_error(1, format!("not valid JSON: {e}")))?;
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(line_error(1, format!("the header's format is not \"{FORMAT}\"")));
    }
    let version = v.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version != VERSION {
        return Err(line_error(1, format!("export format version {version}; this tasks reads version {VERSION}")));
    }
    let schema = v.get("schema").and_then(Value::as_i64).unwrap_or(0);
    if schema > MIRRORS_SQLITE_SCHEMA {
        return Err(line_error(
            1,
            format!(
                "the export comes from a newer tasks (schema {schema}; this one has {MIRRORS_SQLITE_SCHEMA}): upgrade tasks first"
            ),
        ));
    }
    Ok(())
}

/// A run of records of one table with one column list, as COPY text, with the file
/// line of each row (to name the line a refused row came from).
struct Batch {
    table: &'static str,
    kind: &'static str,
    names: Vec<String>,
    text: String,
    lines: Vec<usize>,
}

impl Batch {
    fn copy(self, tx: &mut postgres::Transaction<'_>) -> TxResult<()> {
        use std::io::Write as _;
        let list = self.names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
        let sql = format!("COPY \"{}\" ({list}) FROM STDIN", self.table);
        let written = (|| -> std::result::Result<u64, postgres::Error> {
            let mut writer = tx.copy_in(&sql)?;
            if let Err(e) = writer.write_all(self.text.as_bytes()) {
                // The server's reason arrives with finish(); the write error alone says little.
                drop(e);
            }
            writer.finish()
        })();
        written.map(drop).map_err(|e| {
            // "COPY tasks, line 17, column title: …" — line 17 of this batch.
            let row = e
                .as_db_error()
                .and_then(|d| d.where_())
                .and_then(|w| w.split(", line ").nth(1))
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse::<usize>().ok());
            let line = row.and_then(|r| self.lines.get(r.saturating_sub(1))).copied().unwrap_or(self.lines[0]);
            TxError::Core(line_error(line, format!("{} was refused by the store: {}", self.kind, crate::store::pg(e))))
        })
    }
}

/// One column value in COPY's text format: `\N` for NULL, text with backslash, tab,
/// newline and carriage return escaped, BYTEA as `\\x<hex>`; a value of the wrong
/// type is an error naming the line and the column.
fn copy_field(v: &Value, col: &Column, line: usize) -> Result<String> {
    let bad = |what: &str| line_error(line, format!("column {}: {what}", col.name));
    Ok(match (&col.ty, v) {
        (_, Value::Null) => "\\N".to_string(),
        (&Type::INT8 | &Type::INT4, Value::Number(n)) => {
            n.as_i64().ok_or_else(|| bad("expected a whole number"))?.to_string()
        }
        (&Type::INT8 | &Type::INT4, Value::Bool(b)) => i64::from(*b).to_string(),
        (&Type::FLOAT8, Value::Number(n)) => {
            n.as_f64().ok_or_else(|| bad("expected a number"))?;
            n.to_string()
        }
        (&Type::TEXT | &Type::VARCHAR, Value::String(s)) => {
            if s.contains('\0') {
                return Err(bad("a NUL character"));
            }
            let mut out = String::with_capacity(s.len());
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\t' => out.push_str("\\t"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    c => out.push(c),
                }
            }
            out
        }
        (&Type::BYTEA, Value::Object(o)) => {
            let hex = o.get("blob_hex").and_then(Value::as_str).ok_or_else(|| bad("expected {\"blob_hex\": …}"))?;
            if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad("blob_hex is not hex"));
            }
            format!("\\\\x{hex}")
        }
        _ => return Err(bad(&format!("a value of the wrong type for {}", col.ty))),
    })
}

/// Restores an export into an empty store, in one transaction (a bad line names its
/// number and nothing is written); the first line (the header) was already read.
pub fn import(store: &mut PgStore, header: &str, input: &mut dyn BufRead) -> Result<DumpOutcome> {
    let out = restore(store, header, input)?;
    // Fresh statistics: without them the planner guesses on tables it has never seen
    // filled, and the first `ready` after a 100k restore took ~0.6 s instead of ~0.06 s.
    store.analyze()?;
    Ok(out)
}

fn restore(store: &mut PgStore, header: &str, input: &mut dyn BufRead) -> Result<DumpOutcome> {
    check_header(header)?;
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut buf = String::new();
    let mut n = 1;
    loop {
        buf.clear();
        n += 1;
        let read = input.read_line(&mut buf).map_err(|e| line_error(n, format!("cannot read the line: {e}")))?;
        if read == 0 {
            break;
        }
        if !buf.trim().is_empty() {
            lines.push((n, buf.trim_end().to_string()));
        }
    }
    store.write(|tx| {
        // As on SQLite: a store with any data merges; an empty one restores row for row.
        for (table, _) in DUMP_TABLES {
            if tx.query_opt(&format!("SELECT 1 FROM \"{table}\" LIMIT 1"), &[])?.is_some() {
                return crate::merge::merge(tx, &lines);
            }
        }
        // Rows go in with COPY, a run of records of one table (and one column list) at
        // a time: a 100k-task export took 297 s as one INSERT per row. Foreign keys are
        // checked at commit, so the order within and across tables does not matter.
        tx.batch_execute("SET CONSTRAINTS ALL DEFERRED")?;
        let mut known: BTreeMap<&'static str, Vec<Column>> = BTreeMap::new();
        let mut out = DumpOutcome { mode: "restore", ..DumpOutcome::default() };
        let mut batch: Option<Batch> = None;
        for (line, text) in &lines {
            let v: Value =
                serde_json::from_str(text).map_err(|e| line_error(*line, format!("not valid JSON: {e}")))?;
            let kind = v
                .get("kind")
                .and_then(Value::as_str)
                .ok_or_else(|| line_error(*line, "a record needs a \"kind\"".into()))?;
            let Some((table, kind)) = DUMP_TABLES.iter().find(|(_, k)| *k == kind).copied() else {
                let all: Vec<&str> = DUMP_TABLES.iter().map(|(_, k)| *k).collect();
                return Err(TxError::Core(line_error(*line, format!("unknown kind \"{kind}\"; known: {}", all.join(", ")))));
            };
            let Some(Value::Object(row)) = v.get("row") else {
                return Err(TxError::Core(line_error(*line, "a record needs a \"row\" object".into())));
            };
            if !known.contains_key(table) {
                let cols = columns(tx, table)?;
                known.insert(table, cols);
            }
            let cols = &known[table];
            let mut names = Vec::with_capacity(row.len());
            let mut fields = Vec::with_capacity(row.len());
            for (name, value) in row {
                let col = cols.iter().find(|c| &c.name == name).ok_or_else(|| {
                    line_error(*line, format!("{kind} has no column \"{name}\" in this store"))
                })?;
                names.push(name.clone());
                fields.push(copy_field(value, col, *line)?);
            }
            if batch.as_ref().is_some_and(|b| b.table != table || b.names != names)
                && let Some(b) = batch.take()
            {
                b.copy(tx)?;
            }
            let b = batch.get_or_insert_with(|| Batch { table, kind, names, text: String::new(), lines: Vec::new() });
            b.text.push_str(&fields.join("\t"));
            b.text.push('\n');
            b.lines.push(*line);
            *out.written.entry(kind.to_string()).or_default() += 1;
        }
        if let Some(b) = batch.take() {
            b.copy(tx)?;
        }
        // Identities continue after the restored ids.
        for (table, _) in DUMP_TABLES {
            let has_identity: bool = tx
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM information_schema.columns
                     WHERE table_name = $1 AND column_name = 'id' AND is_identity = 'YES')",
                    &[table],
                )?
                .get(0);
            if has_identity {
                tx.execute(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), coalesce(max(id), 0) + 1, false) FROM \"{table}\""
                    ),
                    &[],
                )?;
            }
        }
        crate::dedup::reindex_all(tx)?;
        Ok(out.clone())
    })
}
