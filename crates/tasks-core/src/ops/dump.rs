//! The lossless export (`tasks export`) and its import (issue 15): everything a store
//! holds except what is computed from it, one self-describing record a line.
//!
//! Format (JSON Lines): the first line is a header
//! `{"kind":"header","format":"tasks","version":2,"schema":N,"exported_at":…,"counts":{…}}`;
//! every other line is `{"kind":"<record kind>","row":{<column>: <value>,…}}` — the row
//! as stored (ids, keys, UUIDs, epoch-ms times), tables in [`store::dump::DATA`] order,
//! rows in row order. The same store exports the same bytes except `exported_at`.
//!
//! Import into an empty store restores every row as it was (same ids, keys, UUIDs,
//! counters, next firings) and rebuilds the indexes. Into a store that has data it
//! merges by UUID: tasks it already has are kept as they are (a differing one is
//! reported as a conflict), new tasks come with their tags, notes, links and history,
//! a taken key is replaced by the project's next one (the old key kept as legacy key
//! when free). Records of other kinds (schedules, Jobs, conversations, duplicate
//! decisions …) are restored only into an empty store; a merge counts and reports them —
//! nothing is dropped without a line saying so.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde_json::{Map, Value, json};

use crate::dedup;
use crate::error::{Error, Result};
use crate::ops::Context;
use crate::store::dump::{self as rows, DATA};
use crate::store::{SCHEMA_VERSION, Store, Tx};
use crate::time;

/// The export format's name in the header.
pub const FORMAT: &str = "tasks";

/// The export format's version (1 was the task-lines format of SPEC §10, still read).
pub const VERSION: u64 = 2;

/// Returns whether a first line is the header of this format.
pub fn is_dump_header(line: &str) -> bool {
    serde_json::from_str::<Value>(line)
        .ok()
        .is_some_and(|v| v.get("kind").and_then(Value::as_str) == Some("header") && v.get("format").is_some())
}

/// Returns the header line of an export: format, version, the schema the rows follow,
/// the moment and the record counts by kind (shared by every engine's export).
pub fn header(counts: Map<String, Value>, schema: i64, now_ms: i64) -> Value {
    json!({
        "kind": "header",
        "format": FORMAT,
        "version": VERSION,
        "schema": schema,
        "exported_at": time::rfc3339(now_ms),
        "counts": counts,
    })
}

/// Writes the whole store; `progress` gets the number of records written.
pub fn export(store: &Store, ctx: &Context, out: &mut dyn Write, progress: &mut dyn FnMut(u64)) -> Result<u64> {
    let conn = store.conn();
    let io = |e: std::io::Error| Error::Io { path: "the export output".into(), source: e };
    let mut counts = Map::new();
    for (table, kind) in DATA {
        let n: i64 = conn.query_row(&format!("SELECT count(*) FROM \"{table}\""), [], |r| r.get(0))?;
        counts.insert((*kind).to_string(), json!(n));
    }
    let header = header(counts, SCHEMA_VERSION, ctx.now_ms());
    writeln!(out, "{header}").map_err(io)?;
    let mut written = 0u64;
    for (table, kind) in DATA {
        rows::each_row(conn, table, &mut |row| {
            let line = json!({ "kind": kind, "row": row });
            writeln!(out, "{line}").map_err(io)?;
            written += 1;
            if written.is_multiple_of(1024) {
                progress(written);
            }
            Ok(())
        })?;
    }
    progress(written);
    Ok(written)
}

/// What an import of an export did.
#[derive(Debug, Default, Clone)]
pub struct DumpOutcome {
    /// `restore` (into an empty store) or `merge`.
    pub mode: &'static str,
    /// Records written, by kind.
    pub written: std::collections::BTreeMap<String, u64>,
    /// Tasks the store already had (same UUID), left as they are.
    pub kept: u64,
    /// One line per conflict or re-keyed task (merge).
    pub conflicts: Vec<String>,
    /// Records not merged, by kind (merge: only tasks and what hangs on them merge).
    pub not_merged: std::collections::BTreeMap<String, u64>,
}

struct Record {
    line: usize,
    kind: String,
    row: Map<String, Value>,
}

fn parse_record(text: &str, line: usize) -> Result<Record> {
    let bad = |m: String| Error::ImportLine { line, field: None, message: m };
    let v: Value = serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    let kind = v.get("kind").and_then(Value::as_str).ok_or_else(|| bad("a record needs a \"kind\"".into()))?;
    if rows::table_of(kind).is_none() {
        let known: Vec<&str> = DATA.iter().map(|(_, k)| *k).collect();
        return Err(bad(format!("unknown kind \"{kind}\"; known: {}", known.join(", "))));
    }
    let Some(Value::Object(row)) = v.get("row") else {
        return Err(bad("a record needs a \"row\" object".into()));
    };
    Ok(Record { line, kind: kind.to_string(), row: row.clone() })
}

fn check_header(text: &str) -> Result<()> {
    let bad = |m: String| Error::ImportLine { line: 1, field: None, message: m };
    let v: Value = serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(bad(format!("the header's format is not \"{FORMAT}\"")));
    }
    let version = v.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version != VERSION {
        return Err(bad(format!("export format version {version}; this tasks reads version {VERSION}")));
    }
    let schema = v.get("schema").and_then(Value::as_i64).unwrap_or(0);
    if schema > SCHEMA_VERSION {
        return Err(bad(format!(
            "the export comes from a newer tasks (schema {schema}; this one has {SCHEMA_VERSION}): upgrade tasks first"
        )));
    }
    Ok(())
}

/// Imports an export read from `input`; the first line (the header) was already read
/// and is `header`. One transaction: a bad line names its number and nothing is written.
pub fn import(
    store: &mut Store,
    header: &str,
    input: &mut dyn BufRead,
    progress: &mut dyn FnMut(usize),
) -> Result<DumpOutcome> {
    check_header(header)?;
    store.begin_bulk()?;
    let result = store.write(|tx| {
        tx.execute_batch("PRAGMA defer_foreign_keys = ON")?;
        let empty = DATA.iter().try_fold(true, |acc, (t, _)| Ok::<_, Error>(acc && !rows::has_rows(tx, t)?))?;
        let mut records = RecordReader { input, line: 1, buf: String::new() };
        if empty { restore(tx, &mut records, progress) } else { merge(tx, &mut records, progress) }
    });
    store.end_bulk()?;
    result
}

struct RecordReader<'a> {
    input: &'a mut dyn BufRead,
    line: usize,
    buf: String,
}

impl RecordReader<'_> {
    fn next(&mut self) -> Result<Option<Record>> {
        loop {
            self.buf.clear();
            self.line += 1;
            let n = self.input.read_line(&mut self.buf).map_err(|e| Error::ImportLine {
                line: self.line,
                field: None,
                message: format!("cannot read the line: {e}"),
            })?;
            if n == 0 {
                return Ok(None);
            }
            if self.buf.trim().is_empty() {
                continue;
            }
            return parse_record(self.buf.trim_end(), self.line).map(Some);
        }
    }
}

fn restore(tx: &Tx<'_>, records: &mut RecordReader<'_>, progress: &mut dyn FnMut(usize)) -> Result<DumpOutcome> {
    let mut out = DumpOutcome { mode: "restore", ..DumpOutcome::default() };
    let mut known: HashMap<&'static str, Vec<String>> = HashMap::new();
    while let Some(r) = records.next()? {
        let table = rows::table_of(&r.kind).unwrap_or("tasks");
        if !known.contains_key(table) {
            known.insert(table, rows::columns(tx, table)?);
        }
        rows::insert_row(tx, table, &r.row, &known[table], r.line)?;
        *out.written.entry(r.kind).or_default() += 1;
        if r.line.is_multiple_of(1024) {
            progress(r.line);
        }
    }
    rebuild_derived(tx)?;
    Ok(out)
}

/// Rebuilds what is computed from the rows: the duplicate check's index and statistics,
/// the notes' search index.
fn rebuild_derived(tx: &Tx<'_>) -> Result<()> {
    dedup::reindex(tx, &rows::task_ids(tx)?)?;
    for (id, text) in rows::note_ids_and_texts(tx)? {
        crate::store::notes::index(tx, id, &dedup::text_terms(&text))?;
    }
    Ok(())
}

fn get_i64(row: &Map<String, Value>, name: &str) -> Option<i64> {
    row.get(name).and_then(Value::as_i64)
}

fn get_str<'a>(row: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    row.get(name).and_then(Value::as_str)
}

/// Merges by UUID (see the module docs).
fn merge(tx: &Tx<'_>, records: &mut RecordReader<'_>, progress: &mut dyn FnMut(usize)) -> Result<DumpOutcome> {
    let mut out = DumpOutcome { mode: "merge", ..DumpOutcome::default() };
    let mut projects: HashMap<i64, i64> = HashMap::new();
    let mut persons: HashMap<i64, i64> = HashMap::new();
    let mut tasks: HashMap<i64, i64> = HashMap::new();
    let mut new_tasks: Vec<i64> = Vec::new();
    let mut tags: HashMap<i64, i64> = HashMap::new();
    let mut known: HashMap<&'static str, Vec<String>> = HashMap::new();
    let mut cols = |table: &'static str| -> Result<Vec<String>> {
        if !known.contains_key(table) {
            known.insert(table, rows::columns(tx, table)?);
        }
        Ok(known[table].clone())
    };
    let mut notes_new: Vec<(i64, String)> = Vec::new();
    while let Some(mut r) = records.next()? {
        let line = r.line;
        if line.is_multiple_of(1024) {
            progress(line);
        }
        let old_id = get_i64(&r.row, "id");
        let wrote = match r.kind.as_str() {
            "project" => {
                let key = get_str(&r.row, "key").unwrap_or_default().to_string();
                let existing: Option<(i64, i64)> = tx
                    .query_row("SELECT id, tasks_count FROM projects WHERE key = ?1", [&key], |q| {
                        Ok((q.get(0)?, q.get(1)?))
                    })
                    .ok();
                let count = get_i64(&r.row, "tasks_count").unwrap_or(0);
                match existing {
                    Some((id, have)) => {
                        // Counters never go back: the next key continues after both.
                        tx.execute("UPDATE projects SET tasks_count = ?1 WHERE id = ?2", [have.max(count), id])?;
                        projects.insert(old_id.unwrap_or(0), id);
                        false
                    }
                    None => {
                        r.row.remove("id");
                        let id = rows::insert_row(tx, "projects", &r.row, &cols("projects")?, line)?;
                        projects.insert(old_id.unwrap_or(0), id);
                        true
                    }
                }
            }
            "key_counter" => {
                let prefix = get_str(&r.row, "prefix").unwrap_or_default();
                let last = get_i64(&r.row, "last").unwrap_or(0);
                tx.execute(
                    "INSERT INTO key_counters (prefix, last) VALUES (?1, ?2)
                     ON CONFLICT (prefix) DO UPDATE SET last = max(last, ?2)",
                    rusqlite::params![prefix, last],
                )?;
                true
            }
            "person" => {
                let name = get_str(&r.row, "name").map(str::to_string);
                let existing: Option<i64> = tx
                    .query_row("SELECT id FROM persons WHERE name IS ?1 ORDER BY id LIMIT 1", [&name], |q| q.get(0))
                    .ok();
                let id = match existing {
                    Some(id) => id,
                    None => {
                        r.row.remove("id");
                        rows::insert_row(tx, "persons", &r.row, &cols("persons")?, line)?
                    }
                };
                persons.insert(old_id.unwrap_or(0), id);
                existing.is_none()
            }
            "task" => {
                merge_task(tx, &mut r, &cols("tasks")?, &projects, &persons, &mut tasks, &mut new_tasks, &mut out)?
            }
            "link" => {
                let from = get_i64(&r.row, "from_task_id").and_then(|i| tasks.get(&i).copied());
                let to = get_i64(&r.row, "to_task_id").and_then(|i| tasks.get(&i).copied());
                let from_new =
                    get_i64(&r.row, "from_task_id").and_then(|i| tasks.get(&i)).is_some_and(|i| new_tasks.contains(i));
                match (from, to) {
                    (Some(f), Some(t)) if from_new => {
                        r.row.remove("id");
                        r.row.insert("from_task_id".into(), json!(f));
                        r.row.insert("to_task_id".into(), json!(t));
                        rows::insert_row(tx, "links", &r.row, &cols("links")?, line)?;
                        true
                    }
                    (Some(_), Some(_)) => false,
                    _ => {
                        *out.not_merged.entry("link (to a message)".into()).or_default() += 1;
                        false
                    }
                }
            }
            "tag" => {
                let name = get_str(&r.row, "name").unwrap_or_default().to_string();
                tx.execute("INSERT INTO tags (name) VALUES (?1) ON CONFLICT (name) DO NOTHING", [&name])?;
                let id: i64 = tx.query_row("SELECT id FROM tags WHERE name = ?1", [&name], |q| q.get(0))?;
                tags.insert(old_id.unwrap_or(0), id);
                false
            }
            "tagging" => {
                let task = get_i64(&r.row, "taggable_id").and_then(|i| tasks.get(&i).copied());
                let tag = get_i64(&r.row, "tag_id").and_then(|i| tags.get(&i).copied());
                match (get_str(&r.row, "taggable_type"), task, tag) {
                    (Some("task"), Some(t), Some(g)) if new_tasks.contains(&t) => {
                        r.row.insert("taggable_id".into(), json!(t));
                        r.row.insert("tag_id".into(), json!(g));
                        rows::insert_row(tx, "taggings", &r.row, &cols("taggings")?, line)?;
                        true
                    }
                    _ => false,
                }
            }
            "event" | "note" => {
                let table = if r.kind == "event" { "task_events" } else { "notes" };
                match get_i64(&r.row, "task_id").and_then(|i| tasks.get(&i).copied()) {
                    Some(t) if new_tasks.contains(&t) => {
                        r.row.remove("id");
                        r.row.insert("task_id".into(), json!(t));
                        if r.row.contains_key("op_id") {
                            r.row.insert("op_id".into(), Value::Null);
                        }
                        let id = rows::insert_row(tx, table, &r.row, &cols(table)?, line)?;
                        if table == "notes" {
                            notes_new.push((id, get_str(&r.row, "text").unwrap_or_default().to_string()));
                        }
                        true
                    }
                    _ => false,
                }
            }
            other => {
                *out.not_merged.entry(other.to_string()).or_default() += 1;
                false
            }
        };
        if wrote {
            *out.written.entry(r.kind.clone()).or_default() += 1;
        }
    }
    dedup::reindex(tx, &new_tasks)?;
    for (id, text) in notes_new {
        crate::store::notes::index(tx, id, &dedup::text_terms(&text))?;
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn merge_task(
    tx: &Tx<'_>,
    r: &mut Record,
    columns: &[String],
    projects: &HashMap<i64, i64>,
    persons: &HashMap<i64, i64>,
    tasks: &mut HashMap<i64, i64>,
    new_tasks: &mut Vec<i64>,
    out: &mut DumpOutcome,
) -> Result<bool> {
    let old_id = get_i64(&r.row, "id").unwrap_or(0);
    let uuid = get_str(&r.row, "uuid").unwrap_or_default().to_string();
    let key = get_str(&r.row, "key").unwrap_or_default().to_string();
    let existing: Option<(i64, String, String, i64)> = tx
        .query_row("SELECT id, key, status, updated_at FROM tasks WHERE uuid = ?1", [&uuid], |q| {
            Ok((q.get(0)?, q.get(1)?, q.get(2)?, q.get(3)?))
        })
        .ok();
    if let Some((id, have_key, status, updated)) = existing {
        tasks.insert(old_id, id);
        out.kept += 1;
        let theirs_status = get_str(&r.row, "status").unwrap_or_default();
        let theirs_updated = get_i64(&r.row, "updated_at").unwrap_or(0);
        if theirs_status != status || theirs_updated != updated {
            out.conflicts.push(format!(
                "{have_key} ({uuid}): differs from the export (status {status} here, {theirs_status} there); kept this store's"
            ));
        }
        return Ok(false);
    }
    r.row.remove("id");
    let map_ref = |row: &mut Map<String, Value>, col: &str, map: &HashMap<i64, i64>| {
        if let Some(old) = get_i64(row, col) {
            row.insert(col.into(), map.get(&old).map_or(Value::Null, |n| json!(n)));
        }
    };
    map_ref(&mut r.row, "project_id", projects);
    map_ref(&mut r.row, "person_id", persons);
    map_ref(&mut r.row, "reply_to_id", tasks);
    let taken = |k: &str| -> Result<bool> {
        Ok(tx.query_row("SELECT EXISTS (SELECT 1 FROM tasks WHERE key = ?1 OR legacy_key = ?1)", [k], |q| q.get(0))?)
    };
    if taken(&key)? {
        let project_id = get_i64(&r.row, "project_id").unwrap_or(0);
        let (prefix, n): (String, i64) = tx.query_row(
            "UPDATE projects SET tasks_count = tasks_count + 1 WHERE id = ?1 RETURNING key, tasks_count",
            [project_id],
            |q| Ok((q.get(0)?, q.get(1)?)),
        )?;
        let fresh = format!("{prefix}-{n}");
        r.row.insert("key".into(), json!(fresh));
        out.conflicts.push(format!("{key} ({uuid}): the key is taken here; imported as {fresh}"));
    }
    if let Some(l) = get_str(&r.row, "legacy_key").map(str::to_string)
        && taken(&l)?
    {
        r.row.insert("legacy_key".into(), Value::Null);
    }
    let id = rows::insert_row(tx, "tasks", &r.row, columns, r.line)?;
    tasks.insert(old_id, id);
    new_tasks.push(id);
    Ok(true)
}
