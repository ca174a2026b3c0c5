//! Merging an export into a team store that has data, by UUID, with the SQLite store's
//! rules (`tasks_core::ops::dump`): a task the store has (same UUID) is kept as it is —
//! a differing one is reported as a conflict —; a new task comes in with its events,
//! notes, tags and links between tasks; a key the store uses already is replaced by the
//! project's next one (and said); project and key counters never go back; what hangs
//! on other things (messages, schedules, Jobs, conversations, decisions) is counted as
//! not merged. One transaction: a bad line names its number and nothing is written.
//!
//! Rows go in through `json_populate_record`, so PostgreSQL converts each exported
//! JSON value to its column's type as it would a restored one.

use std::collections::HashMap;

use postgres::Transaction;
use serde_json::{Map, Value, json};
use tasks_core::Error;
use tasks_core::ops::dump::DumpOutcome;

use crate::store::{TxError, TxResult};

fn line_error(line: usize, message: String) -> TxError {
    TxError::Core(Error::ImportLine { line, field: None, message })
}

fn get_i64(row: &Map<String, Value>, name: &str) -> Option<i64> {
    row.get(name).and_then(Value::as_i64)
}

fn get_str<'a>(row: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    row.get(name).and_then(Value::as_str)
}

thread_local! {
    /// The stored columns of each table, read once per thread (the schema does not
    /// change under a running process: a newer one is refused at connect).
    static COLUMNS: std::cell::RefCell<HashMap<String, Vec<String>>> = Default::default();
}

/// Inserts one exported row (its id left out, the store gives one) into `table`;
/// returns the new id when the table has one.
fn insert_row(tx: &mut Transaction<'_>, table: &str, row: &Map<String, Value>, line: usize) -> TxResult<Option<i64>> {
    let known = COLUMNS.with(|c| c.borrow().get(table).cloned());
    let columns = match known {
        Some(c) => c,
        None => {
            let c: Vec<String> = crate::dump::columns(tx, table)?.into_iter().map(|c| c.name).collect();
            COLUMNS.with(|m| m.borrow_mut().insert(table.to_string(), c.clone()));
            c
        }
    };
    let mut names = Vec::with_capacity(row.len());
    for name in row.keys() {
        if !columns.iter().any(|c| c == name) {
            return Err(line_error(line, format!("{table} has no column \"{name}\" in this store")));
        }
        names.push(format!("\"{name}\""));
    }
    let list = names.join(", ");
    let has_id = columns.iter().any(|c| c == "id");
    let returning = if has_id { " RETURNING id" } else { "" };
    let sql = format!(
        "INSERT INTO \"{table}\" ({list}) SELECT {list} FROM json_populate_record(NULL::\"{table}\", $1::text::json){returning}"
    );
    let text = Value::Object(row.clone()).to_string();
    match tx.query_opt(&sql, &[&text]) {
        Ok(r) => Ok(r.filter(|_| has_id).map(|r| r.get(0))),
        Err(e) => Err(line_error(line, format!("{table} row was refused by the store: {}", crate::store::pg(e)))),
    }
}

/// Merges the records (line number, text) into the store inside `tx`.
pub(crate) fn merge(tx: &mut Transaction<'_>, lines: &[(usize, String)]) -> TxResult<DumpOutcome> {
    let mut out = DumpOutcome { mode: "merge", ..DumpOutcome::default() };
    let mut projects: HashMap<i64, i64> = HashMap::new();
    let mut persons: HashMap<i64, i64> = HashMap::new();
    let mut tasks: HashMap<i64, i64> = HashMap::new();
    let mut tags: HashMap<i64, i64> = HashMap::new();
    let mut new_tasks: Vec<i64> = Vec::new();
    let mut new_notes: Vec<(i64, i64, String)> = Vec::new();
    for (line, text) in lines {
        let line = *line;
        let v: Value = serde_json::from_str(text).map_err(|e| line_error(line, format!("not valid JSON: {e}")))?;
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| line_error(line, "a record needs a \"kind\"".into()))?
            .to_string();
        let Some(Value::Object(mut row)) = v.get("row").cloned() else {
            return Err(line_error(line, "a record needs a \"row\" object".into()));
        };
        let old_id = get_i64(&row, "id").unwrap_or(0);
        let wrote = match kind.as_str() {
            "project" => {
                let key = get_str(&row, "key").unwrap_or_default().to_string();
                let count = get_i64(&row, "tasks_count").unwrap_or(0);
                match tx.query_opt("SELECT id FROM projects WHERE key = $1", &[&key])? {
                    Some(r) => {
                        let id: i64 = r.get(0);
                        // Counters never go back: the next key continues after both.
                        tx.execute(
                            "UPDATE projects SET tasks_count = greatest(tasks_count, $2) WHERE id = $1",
                            &[&id, &count],
                        )?;
                        projects.insert(old_id, id);
                        false
                    }
                    None => {
                        row.remove("id");
                        let id = insert_row(tx, "projects", &row, line)?.unwrap_or_default();
                        projects.insert(old_id, id);
                        true
                    }
                }
            }
            "key_counter" => {
                let prefix = get_str(&row, "prefix").unwrap_or_default();
                let last = get_i64(&row, "last").unwrap_or(0);
                tx.execute(
                    "INSERT INTO key_counters (prefix, last) VALUES ($1, $2)
                     ON CONFLICT (prefix) DO UPDATE SET last = greatest(key_counters.last, excluded.last)",
                    &[&prefix, &last],
                )?;
                true
            }
            "person" => {
                let name = get_str(&row, "name").map(str::to_string);
                let existing = tx
                    .query_opt(
                        "SELECT id FROM persons WHERE name IS NOT DISTINCT FROM $1 ORDER BY id LIMIT 1",
                        &[&name],
                    )?
                    .map(|r| r.get::<_, i64>(0));
                let id = match existing {
                    Some(id) => id,
                    None => {
                        row.remove("id");
                        insert_row(tx, "persons", &row, line)?.unwrap_or_default()
                    }
                };
                persons.insert(old_id, id);
                existing.is_none()
            }
            "task" => merge_task(tx, &mut row, line, &projects, &persons, &mut tasks, &mut new_tasks, &mut out)?,
            "link" => {
                let from = get_i64(&row, "from_task_id").and_then(|i| tasks.get(&i).copied());
                let to = get_i64(&row, "to_task_id").and_then(|i| tasks.get(&i).copied());
                match (from, to) {
                    (Some(f), Some(t)) if new_tasks.contains(&f) => {
                        row.remove("id");
                        row.insert("from_task_id".into(), json!(f));
                        row.insert("to_task_id".into(), json!(t));
                        insert_row(tx, "links", &row, line)?;
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
                let name = get_str(&row, "name").unwrap_or_default().to_string();
                tx.execute("INSERT INTO tags (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", &[&name])?;
                let id: i64 = tx.query_one("SELECT id FROM tags WHERE name = $1", &[&name])?.get(0);
                tags.insert(old_id, id);
                false
            }
            "tagging" => {
                let task = get_i64(&row, "taggable_id").and_then(|i| tasks.get(&i).copied());
                let tag = get_i64(&row, "tag_id").and_then(|i| tags.get(&i).copied());
                match (get_str(&row, "taggable_type"), task, tag) {
                    (Some("task"), Some(t), Some(g)) if new_tasks.contains(&t) => {
                        row.insert("taggable_id".into(), json!(t));
                        row.insert("tag_id".into(), json!(g));
                        insert_row(tx, "taggings", &row, line)?;
                        true
                    }
                    _ => false,
                }
            }
            "event" | "note" => {
                let table = if kind == "event" { "task_events" } else { "notes" };
                match get_i64(&row, "task_id").and_then(|i| tasks.get(&i).copied()) {
                    Some(t) if new_tasks.contains(&t) => {
                        row.remove("id");
                        row.insert("task_id".into(), json!(t));
                        if row.contains_key("op_id") {
                            row.insert("op_id".into(), Value::Null);
                        }
                        let id = insert_row(tx, table, &row, line)?.unwrap_or_default();
                        if table == "notes" && row.get("removed_at").is_none_or(Value::is_null) {
                            new_notes.push((id, t, get_str(&row, "text").unwrap_or_default().to_string()));
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
            *out.written.entry(kind).or_default() += 1;
        }
    }
    for id in &new_tasks {
        crate::dedup::index(tx, *id)?;
    }
    for (note, task, text) in &new_notes {
        crate::dedup::index_note(tx, *note, *task, &tasks_core::dedup::text_terms(text))?;
    }
    Ok(out)
}

/// Merges one task record: kept when the store has its UUID, else inserted with its
/// references mapped and, when its key is taken here, the project's next key.
#[allow(clippy::too_many_arguments)]
fn merge_task(
    tx: &mut Transaction<'_>,
    row: &mut Map<String, Value>,
    line: usize,
    projects: &HashMap<i64, i64>,
    persons: &HashMap<i64, i64>,
    tasks: &mut HashMap<i64, i64>,
    new_tasks: &mut Vec<i64>,
    out: &mut DumpOutcome,
) -> TxResult<bool> {
    let old_id = get_i64(row, "id").unwrap_or(0);
    let uuid = get_str(row, "uuid").unwrap_or_default().to_string();
    let key = get_str(row, "key").unwrap_or_default().to_string();
    if let Some(r) = tx.query_opt("SELECT id, key, status, updated_at FROM tasks WHERE uuid = $1", &[&uuid])? {
        let (id, have_key, status, updated): (i64, String, String, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
        tasks.insert(old_id, id);
        out.kept += 1;
        let theirs_status = get_str(row, "status").unwrap_or_default();
        let theirs_updated = get_i64(row, "updated_at").unwrap_or(0);
        if theirs_status != status || theirs_updated != updated {
            out.conflicts.push(format!(
                "{have_key} ({uuid}): differs from the export (status {status} here, {theirs_status} there); kept this store's"
            ));
        }
        return Ok(false);
    }
    row.remove("id");
    let mut map_ref = |col: &str, map: &HashMap<i64, i64>| {
        if let Some(old) = get_i64(row, col) {
            row.insert(col.into(), map.get(&old).map_or(Value::Null, |n| json!(n)));
        }
    };
    map_ref("project_id", projects);
    map_ref("person_id", persons);
    map_ref("reply_to_id", tasks);
    let taken = |tx: &mut Transaction<'_>, k: &str| -> TxResult<bool> {
        Ok(tx.query_opt("SELECT 1 FROM tasks WHERE key = $1 OR legacy_key = $1 LIMIT 1", &[&k])?.is_some())
    };
    if taken(tx, &key)? {
        let project_id = get_i64(row, "project_id").unwrap_or(0);
        let r = tx.query_one(
            "UPDATE projects SET tasks_count = tasks_count + 1 WHERE id = $1 RETURNING key, tasks_count",
            &[&project_id],
        )?;
        let fresh = format!("{}-{}", r.get::<_, String>(0), r.get::<_, i64>(1));
        row.insert("key".into(), json!(fresh));
        out.conflicts.push(format!("{key} ({uuid}): the key is taken here; imported as {fresh}"));
    }
    if let Some(l) = get_str(row, "legacy_key").map(str::to_string)
        && taken(tx, &l)?
    {
        row.insert("legacy_key".into(), Value::Null);
    }
    let id = insert_row(tx, "tasks", row, line)?.unwrap_or_default();
    tasks.insert(old_id, id);
    new_tasks.push(id);
    Ok(true)
}
