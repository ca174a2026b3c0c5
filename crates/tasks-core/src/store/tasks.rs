//! Task rows: insert, read with derived values (project key, person handle, tags,
//! blockers), filtered lists, the `ready` and `blocked` views, field updates, and the
//! lease columns.
//!
//! Reads compute `blocked` from live `blocked-by` links every time (SPEC §2: never
//! stored), so closing a task unblocks its dependants with nothing to fix up.

use crate::store::Cached;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};

use super::Tx;
use crate::error::{Error, Result};
use crate::model::{Due, DueKind, Money, Source, Status, Task, TaskType};
use crate::time;

/// The columns every task read selects, in the order `row_to_task` reads them.
const TASK_COLUMNS: &str = "
    t.id, t.uuid, t.key, t.legacy_key, t.external_id,
    (SELECT p.key FROM projects p WHERE p.id = t.project_id), t.type, t.title, t.description,
    t.status, t.close_reason, t.priority, t.due_at, t.due_kind, t.category,
    (SELECT coalesce((SELECT i.handle FROM identities i WHERE i.person_id = t.person_id
                      ORDER BY i.id LIMIT 1), 'person:' || t.person_id)
      WHERE t.person_id IS NOT NULL),
    t.amount_minor, t.currency, t.chat, (SELECT r.key FROM tasks r WHERE r.id = t.reply_to_id),
    t.claimed_by, t.claimed_until, t.created_at, t.updated_at, t.closed_at, t.source,
    (SELECT json_group_array(name) FROM (
        SELECT g.name FROM taggings tg JOIN tags g ON g.id = tg.tag_id
        WHERE tg.taggable_type = 'task' AND tg.taggable_id = t.id ORDER BY g.name)),
    (SELECT json_group_array(json_array(key, status)) FROM (
        SELECT b.key, b.status FROM links l JOIN tasks b ON b.id = l.to_task_id
        WHERE l.from_task_id = t.id AND l.kind = 'blocked-by' AND l.removed_at IS NULL
        ORDER BY b.id)),
    t.due_instant";

/// The SQL condition "this task has an open blocker", for `t`.
const HAS_OPEN_BLOCKER: &str = "EXISTS (SELECT 1 FROM links l JOIN tasks b ON b.id = l.to_task_id
    WHERE l.from_task_id = t.id AND l.kind = 'blocked-by' AND l.removed_at IS NULL
      AND b.status IN ('open', 'in_progress'))";

fn row_to_task(row: &Row<'_>) -> rusqlite::Result<Task> {
    let stored = StoredTask {
        id: row.get(0)?,
        uuid: row.get(1)?,
        key: row.get(2)?,
        legacy_key: row.get(3)?,
        external_id: row.get(4)?,
        project: row.get(5)?,
        task_type: row.get(6)?,
        title: row.get(7)?,
        description: row.get(8)?,
        status: row.get(9)?,
        close_reason: row.get(10)?,
        priority: row.get(11)?,
        due_at: row.get(12)?,
        due_kind: row.get(13)?,
        category: row.get(14)?,
        person: row.get(15)?,
        amount_minor: row.get(16)?,
        currency: row.get(17)?,
        chat: row.get(18)?,
        reply_to: row.get(19)?,
        claimed_by: row.get(20)?,
        claimed_until: row.get(21)?,
        created_at: row.get(22)?,
        updated_at: row.get(23)?,
        closed_at: row.get(24)?,
        source: row.get(25)?,
        tags_json: row.get(26)?,
        blockers_json: row.get(27)?,
        due_instant: row.get(28)?,
    };
    stored.into_task().map_err(|(idx, message)| {
        rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, message.into())
    })
}

/// A task row as every engine reads it (the columns of the task query, derived ones
/// included: project key, person handle, tags and blockers as JSON), before it becomes
/// a [`Task`] — so SQLite and PostgreSQL read tasks the same way. Fields are the
/// columns of the same names (see [`Task`] for their meaning).
#[derive(Debug, Clone)]
#[allow(missing_docs)] // one per column of `tasks`, documented on `Task`
pub struct StoredTask {
    pub id: i64,
    pub uuid: String,
    pub key: String,
    pub legacy_key: Option<String>,
    pub external_id: Option<String>,
    pub project: String,
    pub task_type: String,
    pub title: String,
    pub description: String,
    pub status: String,
    pub close_reason: Option<String>,
    pub priority: Option<i64>,
    pub due_at: Option<i64>,
    pub due_kind: String,
    pub category: Option<String>,
    pub person: Option<String>,
    pub amount_minor: Option<i64>,
    pub currency: Option<String>,
    pub chat: Option<String>,
    pub reply_to: Option<String>,
    pub claimed_by: Option<String>,
    pub claimed_until: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub closed_at: Option<i64>,
    pub source: String,
    /// JSON list of tag names.
    pub tags_json: String,
    /// JSON list of `[key, status]` of the live blocked-by targets.
    pub blockers_json: String,
    pub due_instant: Option<i64>,
}

impl StoredTask {
    /// Builds the task; an unknown spelling in the store is `(column index, message)`.
    pub fn into_task(self) -> std::result::Result<Task, (usize, String)> {
        fn spelled<T: std::str::FromStr>(idx: usize, text: &str) -> std::result::Result<T, (usize, String)> {
            text.parse::<T>().map_err(|_| (idx, format!("unexpected value {text:?} in the store")))
        }
        let due_kind: DueKind = spelled(13, &self.due_kind)?;
        let due = self.due_at.and_then(|ms| {
            let date = time::floating_date_from_ms(ms)?;
            Some(match self.due_instant {
                Some(at) => Due::at(date, at),
                None => Due { date, kind: due_kind, at: None },
            })
        });
        let amount = match (self.amount_minor, self.currency) {
            (Some(minor), Some(currency)) => Some(Money { minor, currency }),
            _ => None,
        };
        let tags: Vec<String> = serde_json::from_str(&self.tags_json).unwrap_or_default();
        let blockers: Vec<(String, String)> = serde_json::from_str(&self.blockers_json).unwrap_or_default();
        let open_blockers =
            blockers.iter().filter(|(_, s)| s == "open" || s == "in_progress").map(|(k, _)| k.clone()).collect();
        Ok(Task {
            id: self.id,
            uuid: self.uuid,
            key: self.key,
            legacy_key: self.legacy_key,
            external_id: self.external_id,
            project: self.project,
            task_type: spelled::<TaskType>(6, &self.task_type)?,
            title: self.title,
            description: self.description,
            status: spelled::<Status>(9, &self.status)?,
            close_reason: self.close_reason,
            priority: self.priority.map(|p| p as u8),
            due,
            category: self.category,
            person: self.person,
            amount,
            chat: self.chat,
            reply_to: self.reply_to,
            claimed_by: self.claimed_by,
            claimed_until: self.claimed_until,
            created_at: self.created_at,
            updated_at: self.updated_at,
            closed_at: self.closed_at,
            source: spelled::<Source>(25, &self.source)?,
            tags,
            blocked_by: blockers.into_iter().map(|(k, _)| k).collect(),
            open_blockers,
        })
    }
}

/// The values of a new task row.
pub struct NewTaskRow<'a> {
    /// UUID (v7).
    pub uuid: &'a str,
    /// Key.
    pub key: &'a str,
    /// The key an import brought.
    pub legacy_key: Option<&'a str>,
    /// The caller's id from an import line.
    pub external_id: Option<&'a str>,
    /// Project row id.
    pub project_id: i64,
    /// Type.
    pub task_type: TaskType,
    /// Title.
    pub title: &'a str,
    /// Description.
    pub description: &'a str,
    /// Status.
    pub status: Status,
    /// Why it was dismissed.
    pub close_reason: Option<&'a str>,
    /// Priority (0 highest).
    pub priority: Option<u8>,
    /// Due date.
    pub due: Option<Due>,
    /// Category.
    pub category: Option<&'a str>,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money.
    pub amount: Option<&'a Money>,
    /// Chat of the source message.
    pub chat: Option<&'a str>,
    /// The task whose message this one replies to.
    pub reply_to_id: Option<i64>,
    /// Creation time, epoch ms.
    pub created_at: i64,
    /// Close time, epoch ms.
    pub closed_at: Option<i64>,
    /// Who made it.
    pub source: Source,
}

/// Inserts a task row and returns its id.
pub(crate) fn insert(tx: &Tx<'_>, t: &NewTaskRow<'_>) -> Result<i64> {
    let (due_at, due_kind, due_instant) = due_columns(t.due);
    tx.exec_cached(
        "INSERT INTO tasks (uuid, key, legacy_key, external_id, project_id, type, title, description,
             status, close_reason, priority, due_at, due_kind, category, person_id, amount_minor,
             currency, chat, reply_to_id, created_at, updated_at, closed_at, source, due_instant)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
             ?19, ?20, ?20, ?21, ?22, ?23)",
        params![
            t.uuid,
            t.key,
            t.legacy_key,
            t.external_id,
            t.project_id,
            t.task_type.as_str(),
            t.title,
            t.description,
            t.status.as_str(),
            t.close_reason,
            t.priority.map(i64::from),
            due_at,
            due_kind,
            t.category,
            t.person_id,
            t.amount.map(|m| m.minor),
            t.amount.map(|m| m.currency.as_str()),
            t.chat,
            t.reply_to_id,
            t.created_at,
            t.closed_at,
            t.source.as_str(),
            due_instant,
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Returns the `due_at`, `due_kind`, `due_instant` column values of a due date. A time
/// due is stored as its local day (kind `day`, so the schema's kinds and every day view
/// stay as they are) plus its moment.
pub fn due_columns(due: Option<Due>) -> (Option<i64>, &'static str, Option<i64>) {
    match due {
        Some(d) if d.kind == DueKind::Time => (Some(time::floating_date_to_ms(d.date)), DueKind::Day.as_str(), d.at),
        Some(d) if d.kind != DueKind::None => (Some(time::floating_date_to_ms(d.date)), d.kind.as_str(), None),
        _ => (None, DueKind::None.as_str(), None),
    }
}

/// Reads one task by row id.
pub(crate) fn get(conn: &Connection, id: i64) -> Result<Task> {
    conn.prepare_cached(&get_sql())?
        .query_row([id], row_to_task)
        .optional()?
        .ok_or_else(|| Error::task_not_found(format!("#{id}")))
}

/// The statement of [`get`].
///
/// No JOIN here or in `list`: SQLite (bundled, STAT4) re-prepared a statement joining
/// tasks to projects on every execution, since its plan might depend on the bound id —
/// 0.15 ms per row, most of a 200-row `list` and of `ready` at 100k tasks. A correlated
/// subquery for the project key is planned once.
fn get_sql() -> String {
    format!("SELECT {TASK_COLUMNS} FROM tasks t WHERE t.id = ?1")
}

/// Returns the id of the task with this key or legacy key.
pub(crate) fn id_by_key(conn: &Connection, key: &str) -> Result<Option<i64>> {
    Ok(conn
        .query_row_cached("SELECT id FROM tasks WHERE key = ?1 OR legacy_key = ?1 LIMIT 1", [key], |r| r.get(0))
        .optional()?)
}

/// Returns the task an import made with this caller id, if any.
pub(crate) fn id_by_external_id(conn: &Connection, external_id: &str) -> Result<Option<i64>> {
    Ok(conn
        .query_row_cached("SELECT id FROM tasks WHERE external_id = ?1 ORDER BY id LIMIT 1", [external_id], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Drops the secondary indexes of `tables` and returns the SQL that makes them again.
///
/// An import into an empty store inserts every row with no index to keep up and then
/// builds each index once from sorted data, several times faster than updating a dozen
/// B-trees per row. The unique indexes stay: they are the constraints.
pub(crate) fn drop_secondary_indexes(tx: &Tx<'_>, tables: &[&str]) -> Result<Vec<String>> {
    let mut sqls = Vec::new();
    for table in tables {
        let mut stmt = tx.prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL
             AND sql NOT LIKE 'CREATE UNIQUE%'",
        )?;
        let rows: Vec<(String, String)> =
            stmt.query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
        for (name, sql) in rows {
            tx.execute_batch(&format!("DROP INDEX \"{name}\""))?;
            sqls.push(sql);
        }
    }
    Ok(sqls)
}

/// Makes the indexes [`drop_secondary_indexes`] dropped.
pub(crate) fn create_indexes(tx: &Tx<'_>, sqls: &[String]) -> Result<()> {
    for sql in sqls {
        tx.execute_batch(sql)?;
    }
    Ok(())
}

/// Returns whether the store holds no task.
pub(crate) fn is_empty(conn: &Connection) -> Result<bool> {
    Ok(!conn.query_row_cached("SELECT EXISTS (SELECT 1 FROM tasks)", [], |r| r.get::<_, bool>(0))?)
}

/// Returns a task's key (one indexed read, for the events that name a linked task).
pub(crate) fn key_of(conn: &Connection, id: i64) -> Result<String> {
    conn.query_row_cached("SELECT key FROM tasks WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| crate::Error::task_not_found(format!("#{id}")))
}

/// Returns whether any task carries an external id (an import skips its per-line
/// lookups when none does).
pub(crate) fn any_external_id(conn: &Connection) -> Result<bool> {
    Ok(conn.query_row_cached("SELECT EXISTS (SELECT 1 FROM tasks WHERE external_id IS NOT NULL)", [], |r| r.get(0))?)
}

/// Returns (id, key) of tasks whose UUID starts with `prefix` (lowercase hex with dashes
/// as stored), at most `limit`.
pub(crate) fn ids_by_uuid_prefix(conn: &Connection, prefix: &str, limit: usize) -> Result<Vec<(i64, String)>> {
    // The prefix is hex and dashes only (checked by the caller), so LIKE needs no escaping;
    // a range on the UNIQUE uuid index keeps it an index seek.
    let mut upper = prefix.to_string();
    upper.push('\u{10FFFF}');
    let mut stmt =
        conn.prepare_cached("SELECT id, key FROM tasks WHERE uuid >= ?1 AND uuid < ?2 ORDER BY id LIMIT ?3")?;
    let rows = stmt.query_map(params![prefix, upper, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Which tasks a list shows.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    /// Statuses to include; empty means all.
    pub statuses: Vec<Status>,
    /// Only this project (row id).
    pub project_id: Option<i64>,
    /// Only projects of kind inbox.
    pub inbox_only: bool,
    /// Only this type.
    pub task_type: Option<TaskType>,
    /// Only tasks with this tag.
    pub tag: Option<String>,
    /// Only tasks about this person (row id).
    pub person_id: Option<i64>,
    /// Only tasks due on or before this floating day (epoch ms of 00:00 UTC).
    pub due_on_or_before: Option<i64>,
    /// Only tasks due strictly before this floating day.
    pub due_before: Option<i64>,
    /// Only tasks due strictly after this floating day.
    pub due_after: Option<i64>,
    /// Only overdue tasks at (local today as a floating day, now): a day or week due
    /// before today, a time due before now.
    pub overdue: Option<(i64, i64)>,
    /// Only tasks of this priority.
    pub priority: Option<u8>,
    /// Only tasks whose live lease this actor holds at this time.
    pub claimed_by: Option<(String, i64)>,
    /// Only tasks whose title or description has words starting with each of these
    /// (normalized) tokens.
    pub text: Vec<String>,
    /// The order (`ready_order` wins when set).
    pub sort: Sort,
    /// Hide tasks whose live lease is held by someone other than this actor, at this time.
    pub hide_claimed_by_others: Option<(String, i64)>,
    /// Only tasks with no live lease at this time (epoch ms), whoever holds it.
    pub unclaimed_at: Option<i64>,
    /// Only tasks whose live lease someone other than this actor holds, at this time.
    pub claimed_by_others: Option<(String, i64)>,
    /// Only blocked (true) or only unblocked (false) tasks.
    pub blocked: Option<bool>,
    /// Most rows to return.
    pub limit: Option<usize>,
    /// Order for `ready`: priority, due, age; otherwise by creation.
    pub ready_order: bool,
    /// Only tasks closed at or after this time (epoch ms).
    pub closed_since: Option<i64>,
    /// Newest close first (the done list).
    pub closed_newest_first: bool,
}

/// The order of a list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sort {
    /// Oldest first.
    #[default]
    Created,
    /// Soonest due first (undated last), then priority.
    Due,
    /// Highest priority (0) first (none last), then soonest due.
    Priority,
    /// Most recently changed first.
    Updated,
    /// Latest due first (today's before the long overdue), undated last. Read from the
    /// due index alone: at 100k tasks "today's and overdue" ordered by readiness read
    /// every one of 2,300 matching rows to sort them (3 ms); this order reads none.
    LatestDue,
}

/// Returns the tasks matching `filter`.
pub(crate) fn list(conn: &Connection, filter: &ListFilter) -> Result<Vec<Task>> {
    get_many(conn, &list_ids(conn, filter)?)
}

/// Returns the ORDER BY of a list over tasks `t`: one text for both engines, so they
/// order alike, tie for tie (the columns and `coalesce` are the same in both dialects).
pub fn order_by(filter: &ListFilter) -> &'static str {
    if filter.ready_order {
        "ORDER BY t.ready_priority, t.ready_due, t.created_at, t.id"
    } else if filter.closed_newest_first {
        "ORDER BY t.closed_at DESC, t.id DESC"
    } else {
        match filter.sort {
            Sort::Created => "ORDER BY t.created_at, t.id",
            Sort::Due => "ORDER BY t.ready_due, coalesce(t.due_instant, 0), t.ready_priority, t.created_at, t.id",
            Sort::Priority => "ORDER BY t.ready_priority, t.ready_due, t.created_at, t.id",
            Sort::Updated => "ORDER BY t.updated_at DESC, t.id DESC",
            Sort::LatestDue => "ORDER BY t.due_at IS NULL, t.due_at DESC, t.id DESC",
        }
    }
}

/// Returns the ids of the tasks matching `filter`, in its order.
pub(crate) fn list_ids(conn: &Connection, filter: &ListFilter) -> Result<Vec<i64>> {
    let (where_clause, args) = where_of(filter);
    let order = order_by(filter);
    let limit = filter.limit.map(|n| format!("LIMIT {n}")).unwrap_or_default();
    // Two steps: the ids in order (cheap, can stop at LIMIT), then the full rows with
    // their derived columns for those ids only — computing tags and blockers for every
    // candidate row before sorting cost 100+ ms at 100k tasks.
    // No join to projects (see `get`): with it the ids query took 72 ms instead of 8.
    let sql = format!("SELECT t.id FROM tasks t {where_clause} {order} {limit}");
    let mut stmt = conn.prepare_cached(&sql)?;
    Ok(stmt.query_map(params_from_iter(args), |r| r.get::<_, i64>(0))?.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Reads tasks by row id, in the order given, with one statement (a list of 200 paid
/// 200 statement runs before: a third of `list`'s time at 100k tasks).
pub(crate) fn get_many(conn: &Connection, ids: &[i64]) -> Result<Vec<Task>> {
    if ids.len() <= 1 {
        return ids.iter().map(|id| get(conn, *id)).collect();
    }
    let list = serde_json::to_string(ids)?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {TASK_COLUMNS} FROM tasks t WHERE t.id IN (SELECT value FROM json_each(?1))"
    ))?;
    let mut by_id: std::collections::HashMap<i64, Task> =
        stmt.query_map([list], row_to_task)?.map(|r| r.map(|t| (t.id, t))).collect::<rusqlite::Result<_>>()?;
    ids.iter().map(|id| by_id.remove(id).ok_or_else(|| Error::task_not_found(format!("#{id}")))).collect()
}

/// Returns how many tasks match `filter`, counting no further than `at_most` (so
/// "are there more than 2,000 open tasks?" stops at 2,001 rows of an index).
pub(crate) fn count(conn: &Connection, filter: &ListFilter, at_most: usize) -> Result<usize> {
    let (where_clause, args) = where_of(filter);
    let sql = format!("SELECT COUNT(*) FROM (SELECT 1 FROM tasks t {where_clause} LIMIT {at_most})");
    let n: i64 = conn.prepare_cached(&sql)?.query_row(params_from_iter(args), |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Returns the WHERE clause of a filter and its arguments.
fn where_of(filter: &ListFilter) -> (String, Vec<Value>) {
    let mut conds: Vec<String> = Vec::new();
    let mut args: Vec<Value> = Vec::new();
    if !filter.statuses.is_empty() {
        let marks = filter.statuses.iter().map(|s| format!("'{}'", s.as_str())).collect::<Vec<_>>().join(", ");
        conds.push(format!("t.status IN ({marks})"));
    }
    if let Some(pid) = filter.project_id {
        args.push(Value::Integer(pid));
        conds.push(format!("t.project_id = ?{}", args.len()));
    }
    if filter.inbox_only {
        conds.push("t.project_id IN (SELECT id FROM projects WHERE kind = 'inbox')".into());
    }
    if let Some(ty) = filter.task_type {
        args.push(Value::Text(ty.as_str().into()));
        conds.push(format!("t.type = ?{}", args.len()));
    }
    if let Some(tag) = &filter.tag {
        args.push(Value::Text(tag.clone()));
        conds.push(format!(
            "EXISTS (SELECT 1 FROM taggings tg JOIN tags g ON g.id = tg.tag_id
              WHERE tg.taggable_type = 'task' AND tg.taggable_id = t.id AND lower(g.name) = lower(?{}))",
            args.len()
        ));
    }
    if let Some(ms) = filter.due_after {
        args.push(Value::Integer(ms));
        conds.push(format!("t.due_at > ?{}", args.len()));
    }
    if let Some((today, now)) = filter.overdue {
        args.push(Value::Integer(today));
        let d = args.len();
        args.push(Value::Integer(now));
        let n = args.len();
        // A time due falls on its local day (`due_at`): overdue when that day is past, or
        // when it is today and the moment has passed. Written so `tasks_due` serves it.
        conds.push(format!("(t.due_at <= ?{d} AND (t.due_at < ?{d} OR t.due_instant < ?{n}))"));
    }
    if let Some(p) = filter.priority {
        args.push(Value::Integer(i64::from(p)));
        // The generated `ready_priority` is in the `tasks_ready` index; `priority` is not.
        conds.push(format!("t.ready_priority = ?{}", args.len()));
    }
    if let Some((actor, now)) = &filter.claimed_by {
        args.push(Value::Text(actor.clone()));
        let a = args.len();
        args.push(Value::Integer(*now));
        conds.push(format!("(t.claimed_by = ?{a} AND t.claimed_until >= ?{})", args.len()));
    }
    if !filter.text.is_empty() {
        // Each token as a quoted prefix: words, never FTS syntax.
        let query =
            filter.text.iter().map(|t| format!("\"{}\"*", t.replace('"', "\"\""))).collect::<Vec<_>>().join(" AND ");
        args.push(Value::Text(query));
        conds.push(format!("t.id IN (SELECT rowid FROM task_words WHERE task_words MATCH ?{})", args.len()));
    }
    if let Some(pid) = filter.person_id {
        args.push(Value::Integer(pid));
        conds.push(format!("t.person_id = ?{}", args.len()));
    }
    if let Some(ms) = filter.due_on_or_before {
        args.push(Value::Integer(ms));
        conds.push(format!("t.due_at <= ?{}", args.len()));
    }
    if let Some(ms) = filter.due_before {
        args.push(Value::Integer(ms));
        conds.push(format!("t.due_at < ?{}", args.len()));
    }
    if let Some((actor, now)) = &filter.hide_claimed_by_others {
        args.push(Value::Text(actor.clone()));
        let a = args.len();
        args.push(Value::Integer(*now));
        let n = args.len();
        conds.push(format!("(t.claimed_by IS NULL OR t.claimed_by = ?{a} OR t.claimed_until < ?{n})"));
    }
    if let Some((actor, now)) = &filter.claimed_by_others {
        args.push(Value::Text(actor.clone()));
        let a = args.len();
        args.push(Value::Integer(*now));
        let n = args.len();
        conds.push(format!("(t.claimed_by IS NOT NULL AND t.claimed_by <> ?{a} AND t.claimed_until >= ?{n})"));
    }
    if let Some(now) = filter.unclaimed_at {
        args.push(Value::Integer(now));
        conds.push(format!("(t.claimed_by IS NULL OR t.claimed_until < ?{})", args.len()));
    }
    if let Some(ms) = filter.closed_since {
        args.push(Value::Integer(ms));
        conds.push(format!("t.closed_at >= ?{}", args.len()));
    }
    match filter.blocked {
        Some(true) => conds.push(HAS_OPEN_BLOCKER.into()),
        Some(false) => conds.push(format!("NOT {HAS_OPEN_BLOCKER}")),
        None => {}
    }
    let where_clause = if conds.is_empty() { String::new() } else { format!("WHERE {}", conds.join(" AND ")) };
    (where_clause, args)
}

/// Returns the filter of the `ready` view: open, no open blocker, not claimed by another.
pub fn ready_filter(actor: &str, now_ms: i64, limit: Option<usize>) -> ListFilter {
    ListFilter {
        statuses: vec![Status::Open],
        hide_claimed_by_others: Some((actor.to_string(), now_ms)),
        blocked: Some(false),
        limit,
        ready_order: true,
        ..ListFilter::default()
    }
}

/// Sets the status (and close fields) of a task.
pub(crate) fn set_status(tx: &Tx<'_>, id: i64, status: Status, close_reason: Option<&str>, now: i64) -> Result<()> {
    let closed_at = status.is_closed().then_some(now);
    // Closing ends the lease (SPEC §4); reopening or starting keeps it.
    tx.exec_cached(
        "UPDATE tasks SET status = ?2, close_reason = ?3, closed_at = ?4, updated_at = ?5,
             claimed_by = CASE WHEN ?6 THEN NULL ELSE claimed_by END,
             claimed_until = CASE WHEN ?6 THEN NULL ELSE claimed_until END
         WHERE id = ?1",
        params![id, status.as_str(), close_reason, closed_at, now, status.is_closed()],
    )?;
    Ok(())
}

/// A column update of `edit`.
pub enum Column<'a> {
    /// The title.
    Title(&'a str),
    /// The description.
    Description(&'a str),
    /// The priority.
    Priority(Option<u8>),
    /// The due date.
    Due(Option<Due>),
    /// The category.
    Category(Option<&'a str>),
    /// The person (row id).
    PersonId(Option<i64>),
    /// The money.
    Amount(Option<&'a Money>),
    /// The project (row id).
    ProjectId(i64),
    /// The type.
    TaskType(TaskType),
}

/// Writes one column of a task and bumps `updated_at`.
pub(crate) fn set_column(tx: &Tx<'_>, id: i64, column: Column<'_>, now: i64) -> Result<()> {
    let n = match column {
        Column::Title(v) => {
            tx.exec_cached("UPDATE tasks SET title = ?2, updated_at = ?3 WHERE id = ?1", params![id, v, now])?
        }
        Column::Description(v) => {
            tx.exec_cached("UPDATE tasks SET description = ?2, updated_at = ?3 WHERE id = ?1", params![id, v, now])?
        }
        Column::Priority(v) => tx.exec_cached(
            "UPDATE tasks SET priority = ?2, updated_at = ?3 WHERE id = ?1",
            params![id, v.map(i64::from), now],
        )?,
        Column::Due(v) => {
            let (at, kind, instant) = due_columns(v);
            tx.exec_cached(
                "UPDATE tasks SET due_at = ?2, due_kind = ?3, due_instant = ?5, updated_at = ?4 WHERE id = ?1",
                params![id, at, kind, now, instant],
            )?
        }
        Column::Category(v) => {
            tx.exec_cached("UPDATE tasks SET category = ?2, updated_at = ?3 WHERE id = ?1", params![id, v, now])?
        }
        Column::PersonId(v) => {
            tx.exec_cached("UPDATE tasks SET person_id = ?2, updated_at = ?3 WHERE id = ?1", params![id, v, now])?
        }
        Column::Amount(v) => tx.exec_cached(
            "UPDATE tasks SET amount_minor = ?2, currency = ?3, updated_at = ?4 WHERE id = ?1",
            params![id, v.map(|m| m.minor), v.map(|m| m.currency.as_str()), now],
        )?,
        Column::ProjectId(v) => {
            tx.exec_cached("UPDATE tasks SET project_id = ?2, updated_at = ?3 WHERE id = ?1", params![id, v, now])?
        }
        Column::TaskType(v) => {
            tx.exec_cached("UPDATE tasks SET type = ?2, updated_at = ?3 WHERE id = ?1", params![id, v.as_str(), now])?
        }
    };
    if n == 0 {
        return Err(Error::task_not_found(format!("#{id}")));
    }
    Ok(())
}

/// Takes or renews the lease on a task; returns false when someone else holds it.
///
/// One conditional `UPDATE … RETURNING` (seed 000, "Бронь"): run inside `BEGIN
/// IMMEDIATE`, it is atomic across every process on the machine.
pub(crate) fn try_claim(tx: &Tx<'_>, id: i64, actor: &str, until: i64, now: i64) -> Result<bool> {
    let got: Option<i64> = tx
        .query_row_cached(
            "UPDATE tasks SET claimed_by = ?2, claimed_until = ?3, updated_at = ?4
             WHERE id = ?1 AND status IN ('open', 'in_progress')
               AND (claimed_by IS NULL OR claimed_until < ?4 OR claimed_by = ?2)
             RETURNING id",
            params![id, actor, until, now],
            |r| r.get(0),
        )
        .optional()?;
    Ok(got.is_some())
}

/// Sets the lease columns as they were (undo of a claim or a release).
pub(crate) fn set_lease(tx: &Tx<'_>, id: i64, holder: Option<&str>, until: Option<i64>, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE tasks SET claimed_by = ?2, claimed_until = ?3, updated_at = ?4 WHERE id = ?1",
        params![id, holder, until, now],
    )?;
    Ok(())
}

/// Ends the lease on a task.
pub(crate) fn release(tx: &Tx<'_>, id: i64, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE tasks SET claimed_by = NULL, claimed_until = NULL, updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading a task must reuse its prepared statement: a plan SQLite re-prepares on
    /// every execution (it did for a JOIN with a bound id) cost 0.15 ms per row.
    #[test]
    fn reading_a_task_is_planned_once() {
        let mut store = crate::store::Store::open(std::path::Path::new(":memory:")).expect("store");
        for title in ["Write the report", "Call the bank"] {
            crate::fixtures::add_task(&mut store, 0, title);
        }
        let conn = store.conn();
        for id in [1, 2, 1, 2] {
            get(conn, id).expect("get");
        }
        let stmt = conn.prepare_cached(&get_sql()).expect("cached");
        assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
        let filter = ListFilter { statuses: vec![Status::Open], limit: Some(10), ..ListFilter::default() };
        assert_eq!(list(conn, &filter).expect("list").len(), 2);
    }
}
