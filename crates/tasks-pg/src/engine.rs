//! The team store as the core's port ([`tasks_core::port`]): the same questions and
//! writes the SQLite row modules answer, in PostgreSQL's SQL, so every operation in
//! `tasks_core::ops` runs here unchanged.
//!
//! How each guarantee the port asks for is had here (SQLite has them from one writer):
//! - **Counters**: `UPDATE projects SET tasks_count = tasks_count + 1 … RETURNING` and
//!   `key_counters`' upsert take a row lock held to commit; a rolled-back add gives its
//!   number back, so keys have no gap and no repeat.
//! - **Claims**: one conditional `UPDATE … RETURNING` (READ COMMITTED re-checks the
//!   condition on the newest row version after waiting for a concurrent writer).
//! - **Checked writes** (the duplicate check before an add, the cycle check before a
//!   link, an edit's re-index): [`CHECKED_WRITE_LOCK`], a transaction-scoped advisory
//!   lock, so no two of them interleave between check and insert; claims, releases and
//!   reads do not take it and run side by side.
//! - **Retries**: a statement that fails with a serialization failure or a deadlock
//!   marks the write, and [`PgStore`]'s `run_write` runs the whole closure again (at
//!   most [`crate::store::RETRIES`] times) — the port's closures are `FnMut` for this.
//!
//! Interior mutability: the port's methods take `&self` (an operation holds one
//! `&dyn Writes` and reads and writes through it), while the `postgres` crate's client
//! wants `&mut`; each method borrows the client for one statement from a `RefCell`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{GenericClient, Row};
use tasks_core::dedup::source::CheckSource;
use tasks_core::dedup::{Candidate, Decision};
use tasks_core::keys::{LOCAL_PROVIDER, MessageLocator, numeric_person};
use tasks_core::model::conversation::{ConversationKind, MessageRole, QueueKind, QueuePayload, QueueState};
use tasks_core::model::schedule::{JobKind, JobState, RunState, When};
use tasks_core::model::{LinkKind, Note, Project, ProjectKind, Status, Task};
use tasks_core::port::{
    Artifact, Column, Completion, Conversation, Engine, Event, Job, LabelledDecision, LinkRow, ListFilter, Message,
    NewJob, NewSchedule, NewTaskRow, Operation, PendingPair, QueueItem, Reads, Run, RunEnd, Schedule, WriteEnd, Writes,
};
use tasks_core::store::due_columns;
use tasks_core::store::events::EventChange;
use tasks_core::{Error, Result};

use crate::PgStore;
use crate::dedup::PgSource;
use crate::rows::{self, HAS_OPEN_BLOCKER, TASK_COLUMNS};
use crate::store::{CHECKED_WRITE_LOCK, RETRIES, pg, retryable};

/// The engine's name in messages.
pub const ENGINE_NAME: &str = "PostgreSQL";

/// The statements a connection has prepared, by their SQL: a statement sent as text is
/// parsed and planned in one round trip and run in a second; a prepared one runs in
/// one. Shared by the connection's reads and every transaction on it; a new
/// connection starts a new cache (statements belong to their session).
pub(crate) type Statements = std::sync::Arc<std::sync::Mutex<HashMap<String, postgres::Statement>>>;

/// Most statements one connection keeps prepared. The operations' SQL is fixed text
/// but for the list filters' combinations; past this the cache starts again, so a
/// long-lived process never grows without bound.
const MAX_PREPARED: usize = 512;

/// A client (reads outside a write) or a transaction (a write) as the port.
pub struct Pg<C> {
    conn: RefCell<C>,
    statements: Statements,
    /// The operation of the write under way (made by its first event).
    op: Cell<Option<i64>>,
    /// Set when a statement failed with a serialization failure or a deadlock: the
    /// write is run again from the start.
    retry: Cell<bool>,
    /// Set when a statement found the connection closed: the store reconnects.
    closed: Cell<bool>,
}

impl<C: GenericClient> Pg<C> {
    /// Wraps a client or a transaction of a connection whose prepared statements are
    /// `statements`.
    pub(crate) fn new(conn: C, statements: Statements) -> Pg<C> {
        Pg {
            conn: RefCell::new(conn),
            statements,
            op: Cell::new(None),
            retry: Cell::new(false),
            closed: Cell::new(false),
        }
    }

    /// Wraps a transaction that continues an operation (a savepoint of a batch).
    pub(crate) fn continuing(conn: C, statements: Statements, op: Option<i64>) -> Pg<C> {
        let pg = Pg::new(conn, statements);
        pg.op.set(op);
        pg
    }

    /// Returns the connection's prepared statements, for a transaction on it.
    pub(crate) fn statements(&self) -> Statements {
        std::sync::Arc::clone(&self.statements)
    }

    /// Borrows the client for statements of its own (one at a time).
    pub(crate) fn client(&self) -> std::cell::RefMut<'_, C> {
        self.conn.borrow_mut()
    }

    /// Returns the prepared statement of `sql`, preparing it on first use.
    fn statement(&self, sql: &str) -> Result<postgres::Statement> {
        let lock = |s: &Statements| s.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(sql).cloned();
        if let Some(st) = lock(&self.statements) {
            return Ok(st);
        }
        let st = self.conn.borrow_mut().prepare(sql).map_err(|e| self.fail(e))?;
        let mut cache = self.statements.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if cache.len() >= MAX_PREPARED {
            cache.clear();
        }
        cache.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    /// Returns the wrapped client.
    pub(crate) fn into_inner(self) -> C {
        self.conn.into_inner()
    }

    /// Returns whether a statement asked for the write to be run again.
    pub(crate) fn wants_retry(&self) -> bool {
        self.retry.get()
    }

    /// Returns whether a statement found the connection closed.
    pub(crate) fn found_closed(&self) -> bool {
        self.closed.get()
    }

    /// Returns the operation this write made or continued.
    pub(crate) fn operation_id(&self) -> Option<i64> {
        self.op.get()
    }

    /// Turns a driver error into the core's, remembering whether it is worth a retry
    /// or a reconnect.
    pub(crate) fn fail(&self, e: postgres::Error) -> Error {
        if retryable(&e) {
            self.retry.set(true);
        }
        if lost(&e) {
            self.closed.set(true);
        }
        pg(e)
    }

    /// Reads the Jobs `rest` selects: what follows `FROM jobs j JOIN tasks t ON t.id =
    /// j.task_id` (more joins, WHERE, ORDER BY, FOR UPDATE), in [`JOB_COLUMNS`].
    fn jobs_where(&self, rest: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id {rest}");
        self.query(&sql, params)?.iter().map(job_of).collect()
    }

    /// Reads the one Job `rest` selects, if any (see [`Pg::jobs_where`]).
    fn job_where(&self, rest: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Option<Job>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id {rest}");
        self.query_opt(&sql, params)?.as_ref().map(job_of).transpose()
    }

    pub(crate) fn query(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>> {
        let st = self.statement(sql)?;
        self.conn.borrow_mut().query(&st, params).map_err(|e| self.fail(e))
    }

    pub(crate) fn query_opt(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Option<Row>> {
        let st = self.statement(sql)?;
        self.conn.borrow_mut().query_opt(&st, params).map_err(|e| self.fail(e))
    }

    pub(crate) fn query_one(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row> {
        let st = self.statement(sql)?;
        self.conn.borrow_mut().query_one(&st, params).map_err(|e| self.fail(e))
    }

    pub(crate) fn execute(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64> {
        let st = self.statement(sql)?;
        self.conn.borrow_mut().execute(&st, params).map_err(|e| self.fail(e))
    }

    fn ids(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<i64>> {
        Ok(self.query(sql, params)?.iter().map(|r| r.get(0)).collect())
    }

    fn tasks_by_id(&self, ids: &[i64]) -> Result<Vec<Task>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = self.query(&format!("SELECT {TASK_COLUMNS} FROM tasks t WHERE t.id = ANY($1)"), &[&ids])?;
        let mut by_id = HashMap::with_capacity(rows.len());
        for row in &rows {
            let t = rows::task_of(row).map_err(crate::store::TxError::into_error)?;
            by_id.insert(t.id, t);
        }
        ids.iter().map(|id| by_id.remove(id).ok_or_else(|| Error::task_not_found(format!("#{id}")))).collect()
    }

    fn events(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<(i64, Event)>> {
        self.query(sql, params)?
            .iter()
            .map(|r| {
                Ok((
                    r.get(0),
                    Event {
                        id: r.get(1),
                        at: r.get(2),
                        actor: r.get(3),
                        change: EventChange::from_stored(r.get(4), r.get(5))?,
                        by_undo: r.get::<_, Option<bool>>(6).unwrap_or(false),
                    },
                ))
            })
            .collect()
    }
}

/// Returns whether an error means the connection is gone: closed, or ended by the
/// server (`pg_terminate_backend`, a shutdown, a restart).
pub(crate) fn lost(e: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    e.is_closed()
        || matches!(e.code(), Some(c) if *c == SqlState::ADMIN_SHUTDOWN || *c == SqlState::CRASH_SHUTDOWN || *c == SqlState::CANNOT_CONNECT_NOW)
}

/// The columns an [`Event`] is read from (with `task_id` first), for `e` — the SQLite
/// store's.
const EVENT_COLUMNS: &str = "e.task_id, e.id, e.at, e.actor, e.kind, e.changes,
    (SELECT o.undoes IS NOT NULL FROM operations o WHERE o.id = e.op_id)";

const PROJECT_COLUMNS: &str = "id, key, name, description, kind, account_id, tasks_count, created_at";

fn project_of(r: &Row) -> Result<Project> {
    let kind: String = r.get(4);
    Ok(Project {
        id: r.get(0),
        key: r.get(1),
        name: r.get(2),
        description: r.get(3),
        kind: kind.parse::<ProjectKind>().map_err(|_| Error::Postgres(format!("unexpected project kind {kind:?}")))?,
        account_id: r.get(5),
        tasks_count: r.get(6),
        created_at: r.get(7),
    })
}

/// A list filter as a WHERE clause with `$n` arguments: the SQLite store's conditions,
/// condition for condition.
fn where_of(filter: &ListFilter) -> (String, Vec<Box<dyn ToSql + Sync>>) {
    let mut conds: Vec<String> = Vec::new();
    let mut args: Vec<Box<dyn ToSql + Sync>> = Vec::new();
    let mut arg = |v: Box<dyn ToSql + Sync>| {
        args.push(v);
        args.len()
    };
    if !filter.statuses.is_empty() {
        let marks = filter.statuses.iter().map(|s| format!("'{}'", s.as_str())).collect::<Vec<_>>().join(", ");
        conds.push(format!("t.status IN ({marks})"));
    }
    if let Some(pid) = filter.project_id {
        conds.push(format!("t.project_id = ${}", arg(Box::new(pid))));
    }
    if filter.inbox_only {
        conds.push("t.project_id IN (SELECT id FROM projects WHERE kind = 'inbox')".into());
    }
    if let Some(ty) = filter.task_type {
        conds.push(format!("t.type = ${}", arg(Box::new(ty.as_str().to_string()))));
    }
    if let Some(tag) = &filter.tag {
        let n = arg(Box::new(tag.clone()));
        conds.push(format!(
            "EXISTS (SELECT 1 FROM taggings tg JOIN tags g ON g.id = tg.tag_id
              WHERE tg.taggable_type = 'task' AND tg.taggable_id = t.id AND lower(g.name) = lower(${n}))"
        ));
    }
    if let Some(ms) = filter.due_after {
        conds.push(format!("t.due_at > ${}", arg(Box::new(ms))));
    }
    if let Some((today, now)) = filter.overdue {
        let d = arg(Box::new(today));
        let n = arg(Box::new(now));
        conds.push(format!("(t.due_at <= ${d} AND (t.due_at < ${d} OR t.due_instant < ${n}))"));
    }
    if let Some(p) = filter.priority {
        conds.push(format!("t.ready_priority = ${}", arg(Box::new(i64::from(p)))));
    }
    if let Some((actor, now)) = &filter.claimed_by {
        let a = arg(Box::new(actor.clone()));
        let n = arg(Box::new(*now));
        conds.push(format!("(t.claimed_by = ${a} AND t.claimed_until >= ${n})"));
    }
    for token in &filter.text {
        // A word of the title or description starting with the token: FTS5's prefix
        // query on SQLite's `task_words`, here a regular expression on the same
        // normalized words (the token's own characters escaped).
        let n = arg(Box::new(format!("(^|[^[:alnum:]]){}", regex_escape(token))));
        conds.push(format!("t.id IN (SELECT w.task_id FROM task_words w WHERE w.words ~ ${n})"));
    }
    if let Some(pid) = filter.person_id {
        conds.push(format!("t.person_id = ${}", arg(Box::new(pid))));
    }
    if let Some(ms) = filter.due_on_or_before {
        conds.push(format!("t.due_at <= ${}", arg(Box::new(ms))));
    }
    if let Some(ms) = filter.due_before {
        conds.push(format!("t.due_at < ${}", arg(Box::new(ms))));
    }
    if let Some((actor, now)) = &filter.hide_claimed_by_others {
        let a = arg(Box::new(actor.clone()));
        let n = arg(Box::new(*now));
        conds.push(format!("(t.claimed_by IS NULL OR t.claimed_by = ${a} OR t.claimed_until < ${n})"));
    }
    if let Some((actor, now)) = &filter.claimed_by_others {
        let a = arg(Box::new(actor.clone()));
        let n = arg(Box::new(*now));
        conds.push(format!("(t.claimed_by IS NOT NULL AND t.claimed_by <> ${a} AND t.claimed_until >= ${n})"));
    }
    if let Some(now) = filter.unclaimed_at {
        conds.push(format!("(t.claimed_by IS NULL OR t.claimed_until < ${})", arg(Box::new(now))));
    }
    if let Some(ms) = filter.closed_since {
        conds.push(format!("t.closed_at >= ${}", arg(Box::new(ms))));
    }
    match filter.blocked {
        Some(true) => conds.push(HAS_OPEN_BLOCKER.into()),
        Some(false) => conds.push(format!("NOT {HAS_OPEN_BLOCKER}")),
        None => {}
    }
    let where_clause = if conds.is_empty() { String::new() } else { format!("WHERE {}", conds.join(" AND ")) };
    (where_clause, args)
}

/// Escapes a word for a PostgreSQL regular expression.
fn regex_escape(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if !c.is_alphanumeric() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn refs(args: &[Box<dyn ToSql + Sync>]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter().map(|a| &**a as &(dyn ToSql + Sync)).collect()
}

impl<C: GenericClient> Reads for Pg<C> {
    fn engine_name(&self) -> &'static str {
        ENGINE_NAME
    }

    fn task(&self, id: i64) -> Result<Task> {
        let row = self
            .query_opt(&format!("SELECT {TASK_COLUMNS} FROM tasks t WHERE t.id = $1"), &[&id])?
            .ok_or_else(|| Error::task_not_found(format!("#{id}")))?;
        rows::task_of(&row).map_err(crate::store::TxError::into_error)
    }

    fn task_id_by_key(&self, key: &str) -> Result<Option<i64>> {
        Ok(self
            .query_opt("SELECT id FROM tasks WHERE key = $1 OR legacy_key = $1 ORDER BY id LIMIT 1", &[&key])?
            .map(|r| r.get(0)))
    }

    fn task_id_by_external_id(&self, external_id: &str) -> Result<Option<i64>> {
        Ok(self
            .query_opt("SELECT id FROM tasks WHERE external_id = $1 ORDER BY id LIMIT 1", &[&external_id])?
            .map(|r| r.get(0)))
    }

    fn any_external_id(&self) -> Result<bool> {
        Ok(self.query_opt("SELECT 1 FROM tasks WHERE external_id IS NOT NULL LIMIT 1", &[])?.is_some())
    }

    fn task_ids_by_uuid_prefix(&self, prefix: &str, limit: usize) -> Result<Vec<(i64, String)>> {
        // The prefix is hex and dashes only (the caller checked), so LIKE needs no escape.
        let limit = limit as i64;
        Ok(self
            .query("SELECT id, key FROM tasks WHERE uuid LIKE $1 || '%' ORDER BY id LIMIT $2", &[&prefix, &limit])?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn task_key(&self, id: i64) -> Result<String> {
        self.query_opt("SELECT key FROM tasks WHERE id = $1", &[&id])?
            .map(|r| r.get(0))
            .ok_or_else(|| Error::task_not_found(format!("#{id}")))
    }

    fn tasks(&self, filter: &ListFilter) -> Result<Vec<Task>> {
        let (where_clause, args) = where_of(filter);
        let order = tasks_core::store::order_by(filter);
        let limit = filter.limit.map(|n| format!("LIMIT {n}")).unwrap_or_default();
        // Ids first (an index can stop at LIMIT), then the rows with their derived
        // columns for those only: as on SQLite.
        let ids = self.ids(&format!("SELECT t.id FROM tasks t {where_clause} {order} {limit}"), &refs(&args))?;
        self.tasks_by_id(&ids)
    }

    fn count_tasks(&self, filter: &ListFilter, at_most: usize) -> Result<usize> {
        let (where_clause, args) = where_of(filter);
        let n: i64 = self
            .query_one(
                &format!("SELECT count(*) FROM (SELECT 1 FROM tasks t {where_clause} LIMIT {at_most}) AS c"),
                &refs(&args),
            )?
            .get(0);
        Ok(usize::try_from(n).unwrap_or(0))
    }

    fn project(&self, id: i64) -> Result<Project> {
        let row = self
            .query_opt(&format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE id = $1"), &[&id])?
            .ok_or_else(|| Error::NotFound { what: "project", value: format!("#{id}") })?;
        project_of(&row)
    }

    fn project_by_key(&self, key: &str) -> Result<Option<Project>> {
        self.query_opt(&format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE key = $1"), &[&key])?
            .map(|r| project_of(&r))
            .transpose()
    }

    fn project_by_account(&self, account_id: &str) -> Result<Option<Project>> {
        self.query_opt(&format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE account_id = $1"), &[&account_id])?
            .map(|r| project_of(&r))
            .transpose()
    }

    fn projects(&self) -> Result<Vec<Project>> {
        // Byte order, as SQLite compares text.
        self.query(&format!("SELECT {PROJECT_COLUMNS} FROM projects ORDER BY kind DESC, key COLLATE \"C\""), &[])?
            .iter()
            .map(project_of)
            .collect()
    }

    fn open_counts(&self) -> Result<HashMap<i64, i64>> {
        Ok(self
            .query(
                "SELECT project_id, count(*) FROM tasks WHERE status IN ('open', 'in_progress') GROUP BY project_id",
                &[],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn person_id(&self, handle: &str) -> Result<Option<i64>> {
        if let Some(n) = numeric_person(handle) {
            return Ok(self.query_opt("SELECT id FROM persons WHERE id = $1", &[&n])?.map(|r| r.get(0)));
        }
        Ok(self
            .query_opt("SELECT person_id FROM identities WHERE handle = $1 ORDER BY id LIMIT 1", &[&handle])?
            .map(|r| r.get(0)))
    }

    fn link_exists(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM links WHERE from_task_id = $1 AND kind = $2 AND to_task_id = $3 AND removed_at IS NULL",
                &[&from, &kind.as_str(), &to],
            )?
            .is_some())
    }

    fn reachable(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
        Ok(self
            .query_opt(
                "WITH RECURSIVE walk(id) AS (
                     SELECT $1::bigint
                     UNION
                     SELECT l.to_task_id FROM walk JOIN links l ON l.from_task_id = walk.id
                     WHERE l.kind = $2 AND l.removed_at IS NULL AND l.to_task_id IS NOT NULL
                 )
                 SELECT 1 FROM walk WHERE id = $3 LIMIT 1",
                &[&from, &kind.as_str(), &to],
            )?
            .is_some())
    }

    fn link_targets(&self, from: i64, kind: LinkKind) -> Result<Vec<i64>> {
        self.ids(
            "SELECT to_task_id FROM links
             WHERE from_task_id = $1 AND kind = $2 AND removed_at IS NULL AND to_task_id IS NOT NULL
             ORDER BY to_task_id",
            &[&from, &kind.as_str()],
        )
    }

    fn links_of_task(&self, task_id: i64) -> Result<Vec<LinkRow>> {
        let rows = self.query(
            "SELECT * FROM (
                 SELECT l.kind, l.to_task_id AS other, m.locator, 0 AS incoming FROM links l
                   LEFT JOIN messages m ON m.id = l.to_message_id
                  WHERE l.from_task_id = $1 AND l.removed_at IS NULL
                 UNION ALL
                 SELECT l.kind, l.from_task_id, NULL, 1 FROM links l
                  WHERE l.to_task_id = $1 AND l.removed_at IS NULL
             ) AS both_ways
             ORDER BY incoming, kind COLLATE \"C\"",
            &[&task_id],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let kind = r.get::<_, String>(0).parse::<LinkKind>().ok()?;
                Some(LinkRow { kind, task_id: r.get(1), message: r.get(2), incoming: r.get::<_, i32>(3) == 1 })
            })
            .collect())
    }

    fn links_of_kind(&self, kind: LinkKind) -> Result<Vec<(i64, i64)>> {
        Ok(self
            .query(
                "SELECT from_task_id, to_task_id FROM links
                 WHERE kind = $1 AND removed_at IS NULL AND to_task_id IS NOT NULL",
                &[&kind.as_str()],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn blocked_dependants(&self, id: i64) -> Result<Vec<i64>> {
        self.ids(
            "SELECT from_task_id FROM links WHERE to_task_id = $1 AND kind = $2 AND removed_at IS NULL
             ORDER BY from_task_id",
            &[&id, &LinkKind::BlockedBy.as_str()],
        )
    }

    fn events_of_task(&self, task_id: i64) -> Result<Vec<Event>> {
        Ok(self
            .events(
                &format!("SELECT {EVENT_COLUMNS} FROM task_events e WHERE e.task_id = $1 ORDER BY e.id"),
                &[&task_id],
            )?
            .into_iter()
            .map(|(_, e)| e)
            .collect())
    }

    fn last_undoable(&self, actor: &str) -> Result<Option<Operation>> {
        Ok(self
            .query_opt(
                "SELECT id, at FROM operations WHERE actor = $1 AND undone_by IS NULL AND undoes IS NULL
                 ORDER BY id DESC LIMIT 1",
                &[&actor],
            )?
            .map(|r| Operation { id: r.get(0), at: r.get(1) }))
    }

    fn events_of_operation(&self, op: i64) -> Result<Vec<(i64, Event)>> {
        self.events(&format!("SELECT {EVENT_COLUMNS} FROM task_events e WHERE e.op_id = $1 ORDER BY e.id"), &[&op])
    }

    fn standing_after(&self, task_id: i64, after: i64) -> Result<Vec<(i64, Event)>> {
        self.events(
            &format!(
                "SELECT {EVENT_COLUMNS} FROM task_events e LEFT JOIN operations o ON o.id = e.op_id
                 WHERE e.task_id = $1 AND e.id > $2
                   AND (o.id IS NULL OR (o.undone_by IS NULL AND o.undoes IS NULL))
                 ORDER BY e.id"
            ),
            &[&task_id, &after],
        )
    }

    fn notes_of_task(&self, task_id: i64) -> Result<Vec<Note>> {
        Ok(self
            .query(
                "SELECT id, at, actor, text FROM notes WHERE task_id = $1 AND removed_at IS NULL ORDER BY id",
                &[&task_id],
            )?
            .iter()
            .map(|r| Note { id: r.get(0), at: r.get(1), actor: r.get(2), text: r.get(3) })
            .collect())
    }

    fn rule_hit(&self, message_id: i64, rule: &str) -> Result<Option<i64>> {
        Ok(self
            .query_opt("SELECT task_id FROM rule_hits WHERE message_id = $1 AND rule = $2", &[&message_id, &rule])?
            .map(|r| r.get(0)))
    }

    fn check_source(&self) -> Result<Box<dyn CheckSource + '_>> {
        Ok(Box::new(PgSource::new(self)))
    }

    fn pending_pairs(&self, limit: usize) -> Result<Vec<PendingPair>> {
        let limit = limit as i64;
        Ok(self
            .query(
                "SELECT p.id, p.task_id, p.candidate_id, p.score, p.band, p.reasons, p.created_at FROM dup_pairs p
                 WHERE p.resolved_at IS NULL
                   AND NOT EXISTS (SELECT 1 FROM dup_decisions d WHERE d.decision = 'reject'
                         AND ((d.task_id = p.task_id AND d.candidate_id = p.candidate_id)
                           OR (d.task_id = p.candidate_id AND d.candidate_id = p.task_id)))
                 ORDER BY p.created_at DESC, p.id DESC LIMIT $1",
                &[&limit],
            )?
            .iter()
            .map(|r| PendingPair {
                id: r.get(0),
                task_id: r.get(1),
                candidate_id: r.get(2),
                score: r.get(3),
                band: r.get(4),
                reasons: serde_json::from_str(r.get::<_, &str>(5)).unwrap_or_default(),
                created_at: r.get(6),
            })
            .collect())
    }

    fn search_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
        PgSource::new(self).ranked_matches_with_notes(terms, pool)
    }

    fn labelled_decisions(&self) -> Result<Vec<LabelledDecision>> {
        let mut out = Vec::new();
        for r in self.query(
            "SELECT decision, levels FROM dup_decisions
             WHERE decision IN ('merge', 'attach', 'reject', 'new') AND levels <> '{}' ORDER BY id",
            &[],
        )? {
            out.extend(LabelledDecision::from_stored(r.get(0), r.get(1))?);
        }
        Ok(out)
    }

    fn sample_task_ids(&self, n: usize) -> Result<Vec<i64>> {
        let total: i64 = self.query_one("SELECT count(*) FROM tasks", &[])?.get(0);
        let step = (total / n.max(1) as i64).max(1);
        self.ids("SELECT id FROM tasks WHERE id % $1 = 0 ORDER BY id LIMIT $2", &[&step, &(n as i64)])
    }

    fn is_merged_pair(&self, a: i64, b: i64) -> Result<bool> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM dup_decisions WHERE decision IN ('merge', 'attach')
                   AND ((task_id = $1 AND candidate_id = $2) OR (task_id = $2 AND candidate_id = $1)) LIMIT 1",
                &[&a, &b],
            )?
            .is_some())
    }

    fn conversation_id(&self, kind: ConversationKind, external_id: &str) -> Result<Option<i64>> {
        Ok(self
            .query_opt(
                "SELECT id FROM conversations WHERE kind = $1 AND external_id = $2",
                &[&kind.as_str(), &external_id],
            )?
            .map(|r| r.get(0)))
    }

    fn local_conversation_id(&self) -> Result<Option<i64>> {
        Ok(self
            .query_opt(
                "SELECT id FROM conversations WHERE kind = $1 ORDER BY id LIMIT 1",
                &[&ConversationKind::Local.as_str()],
            )?
            .map(|r| r.get(0)))
    }

    fn conversation(&self, id: i64) -> Result<Option<Conversation>> {
        self.query_opt("SELECT id, kind, title, external_id, created_at FROM conversations WHERE id = $1", &[&id])?
            .map(|r| {
                Ok(Conversation {
                    id: r.get(0),
                    kind: spelled(&r, 1, "conversation kind")?,
                    title: r.get(2),
                    external_id: r.get(3),
                    created_at: r.get(4),
                })
            })
            .transpose()
    }

    fn conversation_state(&self, id: i64) -> Result<Option<String>> {
        Ok(self.query_opt("SELECT state FROM conversation_state WHERE conversation_id = $1", &[&id])?.map(|r| r.get(0)))
    }

    fn conversation_messages(&self, id: i64, limit: usize) -> Result<Vec<Message>> {
        let limit = limit as i64;
        self.query(
            "SELECT * FROM (
                 SELECT m.id, m.conversation_id, m.role, m.text, t.key, m.job_id, m.created_at
                 FROM conversation_messages m LEFT JOIN tasks t ON t.id = m.task_id
                 WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT $2) AS newest
             ORDER BY id",
            &[&id, &limit],
        )?
        .iter()
        .map(|r| {
            Ok(Message {
                id: r.get(0),
                conversation_id: r.get(1),
                role: spelled(r, 2, "message role")?,
                text: r.get(3),
                task_key: r.get(4),
                job_id: r.get(5),
                created_at: r.get(6),
            })
        })
        .collect()
    }

    fn bot_offset(&self, bot: &str) -> Result<Option<i64>> {
        Ok(self.query_opt("SELECT update_id FROM bot_offsets WHERE bot = $1", &[&bot])?.map(|r| r.get(0)))
    }

    fn live_queue(&self, conversation_id: Option<i64>) -> Result<Vec<QueueItem>> {
        let live: Vec<&str> = QueueState::LIVE.iter().map(|s| s.as_str()).collect();
        self.query(
            &format!(
                "SELECT {QUEUE_COLUMNS} FROM conversation_queue q
                 WHERE q.state = ANY($1) AND ($2::bigint IS NULL OR q.conversation_id = $2)
                 ORDER BY q.conversation_id, q.state <> $3, q.position, q.id"
            ),
            &[&live, &conversation_id, &QueueState::Running.as_str()],
        )?
        .iter()
        .map(queue_item_of)
        .collect()
    }

    fn queue_item(&self, id: i64) -> Result<Option<QueueItem>> {
        self.query_opt(&format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue q WHERE q.id = $1"), &[&id])?
            .map(|r| queue_item_of(&r))
            .transpose()
    }

    fn startable_queue_heads(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>> {
        let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        let rows = self.query(
            &format!(
                "SELECT {QUEUE_COLUMNS} FROM conversation_queue q JOIN conversations c ON c.id = q.conversation_id
                 WHERE q.state = 'pending' AND c.kind = ANY($1)
                   AND NOT EXISTS (SELECT 1 FROM conversation_queue r
                                   WHERE r.conversation_id = q.conversation_id AND r.state = 'running')
                 ORDER BY q.conversation_id, q.position, q.id"
            ),
            &[&kinds],
        )?;
        let mut heads: Vec<QueueItem> = Vec::new();
        for r in &rows {
            let item = queue_item_of(r)?;
            if !heads.iter().any(|h| h.conversation_id == item.conversation_id) {
                heads.push(item);
            }
        }
        Ok(heads)
    }

    fn running_queue_items(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>> {
        let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        self.query(
            &format!(
                "SELECT {QUEUE_COLUMNS} FROM conversation_queue q JOIN conversations c ON c.id = q.conversation_id
                 WHERE q.state = 'running' AND c.kind = ANY($1) ORDER BY q.id"
            ),
            &[&kinds],
        )?
        .iter()
        .map(queue_item_of)
        .collect()
    }

    fn schedule(&self, id: i64) -> Result<Schedule> {
        let row = self
            .query_opt(
                &format!("SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id WHERE s.id = $1"),
                &[&id],
            )?
            .ok_or_else(|| Error::NotFound { what: "schedule", value: id.to_string() })?;
        schedule_of(&row)
    }

    fn live_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>> {
        self.query_opt(
            &format!(
                "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
                 WHERE s.task_id = $1 AND s.removed_at IS NULL"
            ),
            &[&task_id],
        )?
        .map(|r| schedule_of(&r))
        .transpose()
    }

    fn latest_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>> {
        self.query_opt(
            &format!(
                "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
                 WHERE s.task_id = $1 ORDER BY s.removed_at IS NOT NULL, s.id DESC LIMIT 1"
            ),
            &[&task_id],
        )?
        .map(|r| schedule_of(&r))
        .transpose()
    }

    fn schedules(&self, include_removed: bool) -> Result<Vec<Schedule>> {
        self.query(
            &format!(
                "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
                 WHERE $1 OR s.removed_at IS NULL ORDER BY s.id"
            ),
            &[&include_removed],
        )?
        .iter()
        .map(schedule_of)
        .collect()
    }

    fn jobs(&self, task_id: Option<i64>, state: Option<JobState>, limit: usize) -> Result<Vec<Job>> {
        let limit = limit as i64;
        self.jobs_where(
            "WHERE ($1::bigint IS NULL OR j.task_id = $1) AND ($2::text IS NULL OR j.state = $2) ORDER BY j.id DESC LIMIT $3",
            &[&task_id, &state.map(JobState::as_str), &limit],
        )
    }

    fn job(&self, id: i64) -> Result<Option<Job>> {
        self.job_where("WHERE j.id = $1", &[&id])
    }

    fn runs_of_job(&self, job_id: i64) -> Result<Vec<Run>> {
        self.query(
            "SELECT id, job_id, attempt, state, started_at, finished_at, exit_code, output, output_dropped, error, pid,
                    owner, lease_until
             FROM runs WHERE job_id = $1 ORDER BY attempt",
            &[&job_id],
        )?
        .iter()
        .map(|r| {
            let state: String = r.get(3);
            Ok(Run {
                id: r.get(0),
                job_id: r.get(1),
                attempt: u32::try_from(r.get::<_, i64>(2)).unwrap_or(u32::MAX),
                state: RunState::parse(&state)
                    .ok_or_else(|| Error::Postgres(format!("unexpected Run state {state:?}")))?,
                started_at: r.get(4),
                finished_at: r.get(5),
                exit_code: r.get::<_, Option<i64>>(6).and_then(|c| i32::try_from(c).ok()),
                output: r.get(7),
                output_dropped: r.get::<_, i64>(8).max(0) as u64,
                error: r.get(9),
                pid: r.get::<_, Option<i64>>(10).and_then(|p| u32::try_from(p).ok()),
                owner: r.get(11),
                lease_until: r.get(12),
            })
        })
        .collect()
    }

    fn artifacts_of_job(&self, job_id: i64) -> Result<Vec<Artifact>> {
        Ok(self
            .query(
                "SELECT id, job_id, run_id, kind, path, text, created_at FROM artifacts WHERE job_id = $1 ORDER BY id",
                &[&job_id],
            )?
            .iter()
            .map(|r| Artifact {
                id: r.get(0),
                job_id: r.get(1),
                run_id: r.get(2),
                kind: r.get(3),
                path: r.get(4),
                text: r.get(5),
                created_at: r.get(6),
            })
            .collect())
    }

    fn active_jobs(&self, schedule_id: i64) -> Result<Vec<Job>> {
        let active: Vec<&str> = JobState::ACTIVE.iter().map(|s| s.as_str()).collect();
        self.jobs_where("WHERE j.schedule_id = $1 AND j.state = ANY($2) ORDER BY j.id", &[&schedule_id, &active])
    }

    fn queue_item_of_job(&self, job_id: i64) -> Result<Option<QueueItem>> {
        self.query_opt(
            &format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue q WHERE q.job_id = $1 ORDER BY q.id DESC LIMIT 1"),
            &[&job_id],
        )?
        .map(|r| queue_item_of(&r))
        .transpose()
    }

    fn last_task_event_id(&self) -> Result<i64> {
        Ok(self.query_one("SELECT coalesce(max(id), 0) FROM task_events", &[])?.get(0))
    }

    fn latest_jobs(&self) -> Result<HashMap<i64, Job>> {
        Ok(self
            .jobs_where("WHERE j.id IN (SELECT max(id) FROM jobs GROUP BY schedule_id)", &[])?
            .into_iter()
            .map(|j| (j.schedule_id, j))
            .collect())
    }

    fn jobs_in_state(&self, state: JobState) -> Result<Vec<Job>> {
        self.jobs_where("WHERE j.state = $1 ORDER BY j.id", &[&state.as_str()])
    }

    fn jobs_of_schedule(&self, schedule_id: i64, limit: usize) -> Result<Vec<Job>> {
        self.jobs_where("WHERE j.schedule_id = $1 ORDER BY j.id DESC LIMIT $2", &[&schedule_id, &(limit as i64)])
    }

    fn conversations_with_schedules(&self) -> Result<Vec<(Conversation, usize)>> {
        self.query(
            "SELECT c.id, c.kind, c.title, c.external_id, c.created_at, coalesce(n.live, 0)
             FROM conversations c
             LEFT JOIN (SELECT conversation_id, count(*) AS live FROM schedules
                        WHERE removed_at IS NULL GROUP BY conversation_id) n ON n.conversation_id = c.id
             ORDER BY c.id",
            &[],
        )?
        .iter()
        .map(|r| {
            Ok((
                Conversation {
                    id: r.get(0),
                    kind: spelled(r, 1, "conversation kind")?,
                    title: r.get(2),
                    external_id: r.get(3),
                    created_at: r.get(4),
                },
                usize::try_from(r.get::<_, i64>(5)).unwrap_or(0),
            ))
        })
        .collect()
    }

    fn change_stamp(&self) -> Result<i64> {
        // Bytes of WAL written so far: moves with every commit that changed data.
        Ok(self.query_one("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint", &[])?.get(0))
    }

    fn is_shared(&self) -> bool {
        // Any number of daemons, on any number of machines.
        true
    }

    fn job_by_key(&self, key: &str) -> Result<Option<Job>> {
        self.job_where("WHERE j.idempotency_key = $1", &[&key])
    }

    fn due_time_schedules(&self, now: i64) -> Result<Vec<i64>> {
        self.ids(
            "SELECT id FROM schedules
             WHERE removed_at IS NULL AND paused = 0 AND trigger_kind = 'time'
               AND next_fire_at IS NOT NULL AND next_fire_at <= $1
             ORDER BY next_fire_at, id",
            &[&now],
        )
    }

    fn event_schedules(&self) -> Result<Vec<Schedule>> {
        self.query(
            &format!(
                "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
                 WHERE s.removed_at IS NULL AND s.paused = 0 AND s.trigger_kind = 'event' ORDER BY s.id"
            ),
            &[],
        )?
        .iter()
        .map(schedule_of)
        .collect()
    }

    fn earliest_next_fire(&self) -> Result<Option<i64>> {
        Ok(self
            .query_one("SELECT min(next_fire_at) FROM schedules WHERE removed_at IS NULL AND paused = 0", &[])?
            .get(0))
    }

    fn next_retry_at(&self) -> Result<Option<i64>> {
        Ok(self.query_one("SELECT min(retry_at) FROM jobs WHERE state = 'deferred'", &[])?.get(0))
    }

    fn completions_after(&self, cursor: i64, limit: usize) -> Result<Vec<Completion>> {
        // SQLite reads `$.status[1]` with json_extract; the same path here.
        Ok(self
            .query(
                "SELECT id, task_id, at FROM task_events
                 WHERE id > $1 AND kind = 'status' AND (changes::jsonb -> 'status' ->> 1) = 'done'
                 ORDER BY id LIMIT $2",
                &[&cursor, &(limit as i64)],
            )?
            .iter()
            .map(|r| Completion { event_id: r.get(0), task_id: r.get(1), at: r.get(2) })
            .collect())
    }

    fn last_event_job_at(&self, schedule_id: i64, subject: Option<&str>) -> Result<Option<i64>> {
        Ok(self
            .query_one(
                "SELECT max(scheduled_for) FROM jobs
                 WHERE schedule_id = $1 AND kind = 'event' AND state <> 'skipped'
                   AND ($2::text IS NULL OR event_subject = $2)",
                &[&schedule_id, &subject],
            )?
            .get(0))
    }

    fn pending_calls(&self, job_id: i64) -> Result<Option<String>> {
        Ok(self.query_opt("SELECT pending_calls FROM jobs WHERE id = $1", &[&job_id])?.and_then(|r| r.get(0)))
    }

    fn daemon_running_jobs(&self) -> Result<Vec<Job>> {
        self.jobs_where("WHERE j.state = 'running' AND j.action_kind IN ('due', 'command') ORDER BY j.id", &[])
    }

    fn job_state(&self, id: i64) -> Result<Option<JobState>> {
        self.query_opt("SELECT state FROM jobs WHERE id = $1", &[&id])?
            .map(|r| {
                let text: String = r.get(0);
                JobState::parse(&text)
                    .ok_or_else(|| Error::Postgres(format!("unexpected Job state {text:?} in the store")))
            })
            .transpose()
    }
}

/// The columns a [`Schedule`] is read from, for `s` joined to its task `t` (the SQLite
/// store's, in its order).
const SCHEDULE_COLUMNS: &str = "s.id, s.task_id, t.key, t.title, s.trigger_kind, s.trigger, s.zone, s.missed,
    s.action, s.plan_version, s.next_fire_at, s.event_cursor, s.paused, s.max_active, s.conversation_id,
    s.created_at, s.created_by, s.updated_at, s.removed_at";

/// Reads a stored JSON column; a value this binary cannot read is an error naming it.
fn json_of<T: serde::de::DeserializeOwned>(r: &Row, idx: usize, what: &str) -> Result<T> {
    let text: String = r.get(idx);
    serde_json::from_str(&text).map_err(|e| Error::Postgres(format!("cannot read the stored {what}: {e}")))
}

/// Reads a row of [`SCHEDULE_COLUMNS`].
fn schedule_of(r: &Row) -> Result<Schedule> {
    let kind: String = r.get(4);
    let trigger: String = r.get(5);
    Ok(Schedule {
        id: r.get(0),
        task_id: r.get(1),
        task_key: r.get(2),
        task_title: r.get(3),
        when: When::from_stored(&kind, &trigger)
            .map_err(|e| Error::Postgres(format!("cannot read the stored trigger: {e}")))?,
        zone: r.get(6),
        missed: json_of(r, 7, "missed policy")?,
        action: json_of(r, 8, "action")?,
        plan_version: r.get(9),
        next_fire_at: r.get(10),
        event_cursor: r.get(11),
        paused: r.get::<_, i64>(12) != 0,
        max_active: u32::try_from(r.get::<_, i64>(13)).unwrap_or(1),
        conversation_id: r.get(14),
        created_at: r.get(15),
        created_by: r.get(16),
        updated_at: r.get(17),
        removed_at: r.get(18),
    })
}

/// A new schedule's stored values, shared by the insert and the replace: $1 … $11 in
/// this order (trigger kind and text, zone, missed policy, action kind and text, next
/// firing, event cursor, max active, conversation, the time).
struct ScheduleValues<'a> {
    s: &'a NewSchedule<'a>,
    when_kind: &'static str,
    action_kind: &'static str,
    trigger: String,
    missed: String,
    action: String,
    max_active: i64,
}

impl<'a> ScheduleValues<'a> {
    fn of(s: &'a NewSchedule<'a>) -> Result<ScheduleValues<'a>> {
        Ok(ScheduleValues {
            s,
            when_kind: s.when.kind(),
            action_kind: s.action.kind(),
            trigger: s.when.to_json().to_string(),
            missed: serde_json::to_string(s.missed)?,
            action: serde_json::to_string(s.action)?,
            max_active: i64::from(s.max_active),
        })
    }

    fn params(&self) -> [&(dyn ToSql + Sync); 11] {
        let s = self.s;
        [
            &self.when_kind,
            &self.trigger,
            &s.zone,
            &self.missed,
            &self.action_kind,
            &self.action,
            &s.next_fire_at,
            &s.event_cursor,
            &self.max_active,
            &s.conversation_id,
            &s.now,
        ]
    }
}

/// The columns a [`Job`] is read from, for `j` joined to its task `t`.
const JOB_COLUMNS: &str = "j.id, j.schedule_id, j.task_id, t.key, j.kind, j.idempotency_key, j.plan_version,
    j.scheduled_for, j.event_subject, j.state, j.reason, j.snapshot, j.attempts, j.retry_at, j.created_at,
    j.updated_at, j.started_at, j.finished_at";

/// Reads a row of [`JOB_COLUMNS`].
fn job_of(r: &Row) -> Result<Job> {
    let kind: String = r.get(4);
    let state: String = r.get(9);
    Ok(Job {
        id: r.get(0),
        schedule_id: r.get(1),
        task_id: r.get(2),
        task_key: r.get(3),
        kind: JobKind::parse(&kind).ok_or_else(|| Error::Postgres(format!("unexpected Job kind {kind:?}")))?,
        idempotency_key: r.get(5),
        plan_version: r.get(6),
        scheduled_for: r.get(7),
        event_subject: r.get(8),
        state: JobState::parse(&state).ok_or_else(|| Error::Postgres(format!("unexpected Job state {state:?}")))?,
        reason: r.get(10),
        snapshot: json_of(r, 11, "Job snapshot")?,
        attempts: u32::try_from(r.get::<_, i64>(12)).unwrap_or(u32::MAX),
        retry_at: r.get(13),
        created_at: r.get(14),
        updated_at: r.get(15),
        started_at: r.get(16),
        finished_at: r.get(17),
    })
}

/// The columns a [`QueueItem`] is read from, for `q`.
const QUEUE_COLUMNS: &str =
    "q.id, q.conversation_id, q.kind, q.job_id, q.payload, q.state, q.position, q.created_at, q.updated_at";

/// Reads a row of [`QUEUE_COLUMNS`].
fn queue_item_of(r: &Row) -> Result<QueueItem> {
    Ok(QueueItem {
        id: r.get(0),
        conversation_id: r.get(1),
        kind: spelled(r, 2, "queue item kind")?,
        job_id: r.get(3),
        payload: json_of(r, 4, "queue payload")?,
        state: spelled(r, 5, "queue item state")?,
        position: r.get(6),
        created_at: r.get(7),
        updated_at: r.get(8),
    })
}

/// Reads a spelled column (an enum kept by its `as_str`); an unknown spelling is an
/// error naming the column, never a panic.
fn spelled<T: std::str::FromStr>(row: &Row, idx: usize, what: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    let text: String = row.get(idx);
    text.parse().map_err(|e| Error::Postgres(format!("unexpected {what} {text:?} in the store: {e}")))
}

impl Writes for Pg<postgres::Transaction<'_>> {
    fn insert_task(&self, t: &NewTaskRow<'_>) -> Result<i64> {
        let (due_at, due_kind, due_instant) = due_columns(t.due);
        let priority = t.priority.map(i64::from);
        let (minor, currency) = (t.amount.map(|m| m.minor), t.amount.map(|m| m.currency.as_str()));
        Ok(self
            .query_one(
                "INSERT INTO tasks (uuid, key, legacy_key, external_id, project_id, type, title, description,
                     status, close_reason, priority, due_at, due_kind, category, person_id, amount_minor,
                     currency, chat, reply_to_id, created_at, updated_at, closed_at, source, due_instant)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
                     $19, $20, $20, $21, $22, $23)
                 RETURNING id",
                &[
                    &t.uuid,
                    &t.key,
                    &t.legacy_key,
                    &t.external_id,
                    &t.project_id,
                    &t.task_type.as_str(),
                    &t.title,
                    &t.description,
                    &t.status.as_str(),
                    &t.close_reason,
                    &priority,
                    &due_at,
                    &due_kind,
                    &t.category,
                    &t.person_id,
                    &minor,
                    &currency,
                    &t.chat,
                    &t.reply_to_id,
                    &t.created_at,
                    &t.closed_at,
                    &t.source.as_str(),
                    &due_instant,
                ],
            )?
            .get(0))
    }

    fn set_task_status(&self, id: i64, status: Status, close_reason: Option<&str>, now: i64) -> Result<()> {
        let closed_at = status.is_closed().then_some(now);
        // Closing ends the lease (SPEC §4); reopening or starting keeps it.
        self.execute(
            "UPDATE tasks SET status = $2, close_reason = $3, closed_at = $4, updated_at = $5,
                 claimed_by = CASE WHEN $6 THEN NULL ELSE claimed_by END,
                 claimed_until = CASE WHEN $6 THEN NULL ELSE claimed_until END
             WHERE id = $1",
            &[&id, &status.as_str(), &close_reason, &closed_at, &now, &status.is_closed()],
        )?;
        Ok(())
    }

    fn set_task_column(&self, id: i64, column: Column<'_>, now: i64) -> Result<()> {
        let set = |sql: &str, value: &(dyn ToSql + Sync)| {
            self.execute(&format!("UPDATE tasks SET {sql}, updated_at = $3 WHERE id = $1"), &[&id, value, &now])
        };
        let n = match column {
            Column::Title(v) => set("title = $2", &v)?,
            Column::Description(v) => set("description = $2", &v)?,
            Column::Priority(v) => set("priority = $2", &v.map(i64::from))?,
            Column::Category(v) => set("category = $2", &v)?,
            Column::PersonId(v) => set("person_id = $2", &v)?,
            Column::ProjectId(v) => set("project_id = $2", &v)?,
            Column::TaskType(v) => set("type = $2", &v.as_str())?,
            Column::Due(v) => {
                let (at, kind, instant) = due_columns(v);
                self.execute(
                    "UPDATE tasks SET due_at = $2, due_kind = $3, due_instant = $5, updated_at = $4 WHERE id = $1",
                    &[&id, &at, &kind, &now, &instant],
                )?
            }
            Column::Amount(v) => self.execute(
                "UPDATE tasks SET amount_minor = $2, currency = $3, updated_at = $4 WHERE id = $1",
                &[&id, &v.map(|m| m.minor), &v.map(|m| m.currency.as_str()), &now],
            )?,
        };
        if n == 0 {
            return Err(Error::task_not_found(format!("#{id}")));
        }
        Ok(())
    }

    fn try_claim(&self, id: i64, actor: &str, until: i64, now: i64) -> Result<bool> {
        Ok(self
            .query_opt(
                "UPDATE tasks SET claimed_by = $2, claimed_until = $3, updated_at = $4
                 WHERE id = $1 AND status IN ('open', 'in_progress')
                   AND (claimed_by IS NULL OR claimed_until < $4 OR claimed_by = $2)
                 RETURNING id",
                &[&id, &actor, &until, &now],
            )?
            .is_some())
    }

    fn pick_for_claim(&self, filter: &ListFilter) -> Result<Option<i64>> {
        let (where_clause, args) = where_of(filter);
        let order = tasks_core::store::order_by(filter);
        // Rows another transaction holds (it is claiming them) are skipped, not waited
        // for; READ COMMITTED re-checks the conditions on the newest version of the
        // row it locks.
        Ok(self
            .query_opt(
                &format!("SELECT t.id FROM tasks t {where_clause} {order} LIMIT 1 FOR UPDATE OF t SKIP LOCKED"),
                &refs(&args),
            )?
            .map(|r| r.get(0)))
    }

    fn set_lease(&self, id: i64, holder: Option<&str>, until: Option<i64>, now: i64) -> Result<()> {
        self.execute(
            "UPDATE tasks SET claimed_by = $2, claimed_until = $3, updated_at = $4 WHERE id = $1",
            &[&id, &holder, &until, &now],
        )?;
        Ok(())
    }

    fn release_lease(&self, id: i64, now: i64) -> Result<()> {
        self.execute(
            "UPDATE tasks SET claimed_by = NULL, claimed_until = NULL, updated_at = $2 WHERE id = $1",
            &[&id, &now],
        )?;
        Ok(())
    }

    fn lock_checked_writes(&self) -> Result<()> {
        self.execute("SELECT pg_advisory_xact_lock($1)", &[&CHECKED_WRITE_LOCK])?;
        Ok(())
    }

    fn insert_project(
        &self,
        key: &str,
        name: &str,
        description: &str,
        kind: ProjectKind,
        account_id: Option<&str>,
        now: i64,
    ) -> Result<Project> {
        let row = self.query_opt(
            &format!(
                "INSERT INTO projects (key, name, description, kind, account_id, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (key) DO NOTHING RETURNING {PROJECT_COLUMNS}"
            ),
            &[&key, &name, &description, &kind.as_str(), &account_id, &now],
        )?;
        match row {
            Some(r) => project_of(&r),
            None => Err(Error::ProjectExists { key: key.to_string() }),
        }
    }

    fn next_project_number(&self, project_id: i64) -> Result<i64> {
        Ok(self
            .query_one(
                "UPDATE projects SET tasks_count = tasks_count + 1 WHERE id = $1 RETURNING tasks_count",
                &[&project_id],
            )?
            .get(0))
    }

    fn next_typed_number(&self, prefix: &str) -> Result<i64> {
        Ok(self
            .query_one(
                "INSERT INTO key_counters (prefix, last) VALUES ($1, 1)
                 ON CONFLICT (prefix) DO UPDATE SET last = key_counters.last + 1 RETURNING last",
                &[&prefix],
            )?
            .get(0))
    }

    fn person_id_or_create(&self, handle: &str, now: i64) -> Result<i64> {
        if let Some(id) = self.person_id(handle)? {
            return Ok(id);
        }
        if let Some(n) = numeric_person(handle) {
            self.execute("INSERT INTO persons (id, created_at) VALUES ($1, $2)", &[&n, &now])?;
            return Ok(n);
        }
        let id: i64 = self
            .query_one("INSERT INTO persons (name, created_at) VALUES ($1, $2) RETURNING id", &[&handle, &now])?
            .get(0);
        self.execute(
            "INSERT INTO identities (person_id, provider, handle) VALUES ($1, $2, $3)",
            &[&id, &LOCAL_PROVIDER, &handle],
        )?;
        Ok(id)
    }

    fn add_tag(&self, task_id: i64, name: &str, now: i64) -> Result<bool> {
        let tag_id: i64 =
            match self.query_opt("SELECT id FROM tags WHERE lower(name) = lower($1) ORDER BY id LIMIT 1", &[&name])? {
                Some(r) => r.get(0),
                None => self.query_one("INSERT INTO tags (name) VALUES ($1) RETURNING id", &[&name])?.get(0),
            };
        let n = self.execute(
            "INSERT INTO taggings (tag_id, taggable_type, taggable_id, created_at) VALUES ($1, 'task', $2, $3)
             ON CONFLICT DO NOTHING",
            &[&tag_id, &task_id, &now],
        )?;
        Ok(n == 1)
    }

    fn remove_tag(&self, task_id: i64, name: &str) -> Result<bool> {
        let n = self.execute(
            "DELETE FROM taggings WHERE taggable_type = 'task' AND taggable_id = $1
               AND tag_id = (SELECT id FROM tags WHERE lower(name) = lower($2) ORDER BY id LIMIT 1)",
            &[&task_id, &name],
        )?;
        Ok(n == 1)
    }

    fn insert_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO links (from_task_id, kind, to_task_id, created_at, created_by) VALUES ($1, $2, $3, $4, $5)",
            &[&from, &kind.as_str(), &to, &now, &actor],
        )?;
        Ok(())
    }

    fn remove_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<bool> {
        let n = self.execute(
            "UPDATE links SET removed_at = $4, removed_by = $5
             WHERE from_task_id = $1 AND kind = $2 AND to_task_id = $3 AND removed_at IS NULL",
            &[&from, &kind.as_str(), &to, &now, &actor],
        )?;
        Ok(n > 0)
    }

    fn insert_message_link(&self, task_id: i64, kind: LinkKind, message_id: i64, actor: &str, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO links (from_task_id, kind, to_message_id, created_at, created_by) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
            &[&task_id, &kind.as_str(), &message_id, &now, &actor],
        )?;
        Ok(())
    }

    fn move_message_links(&self, from: i64, to: i64, actor: &str, now: i64) -> Result<Vec<i64>> {
        self.move_links(from, None, to, actor, now)
    }

    fn move_message_link(&self, from: i64, to: i64, message_id: i64, actor: &str, now: i64) -> Result<usize> {
        Ok(self.move_links(from, Some(message_id), to, actor, now)?.len().min(1))
    }

    fn remove_evidence(&self, task_id: i64, locator: &str, actor: &str, now: i64) -> Result<bool> {
        let n = self.execute(
            "UPDATE links SET removed_at = $3, removed_by = $4
             WHERE from_task_id = $1 AND kind = 'evidence' AND removed_at IS NULL
               AND to_message_id = (SELECT id FROM messages WHERE locator = $2)",
            &[&task_id, &locator, &now, &actor],
        )?;
        Ok(n > 0)
    }

    fn record_event(&self, task_id: i64, at: i64, actor: &str, change: &EventChange) -> Result<()> {
        let op = self.current_operation(at, actor)?;
        self.execute(
            "INSERT INTO task_events (task_id, at, actor, kind, changes, op_id) VALUES ($1, $2, $3, $4, $5, $6)",
            &[&task_id, &at, &actor, &change.kind(), &change.to_json().to_string(), &op],
        )?;
        Ok(())
    }

    fn current_operation(&self, at: i64, actor: &str) -> Result<i64> {
        if let Some(id) = self.op.get() {
            // A savepoint rolled back may have taken the row with it.
            if self.query_opt("SELECT id FROM operations WHERE id = $1", &[&id])?.is_some() {
                return Ok(id);
            }
        }
        let id: i64 =
            self.query_one("INSERT INTO operations (at, actor) VALUES ($1, $2) RETURNING id", &[&at, &actor])?.get(0);
        self.op.set(Some(id));
        Ok(id)
    }

    fn mark_undone(&self, target: i64, undo: i64) -> Result<()> {
        self.execute("UPDATE operations SET undone_by = $2 WHERE id = $1", &[&target, &undo])?;
        self.execute("UPDATE operations SET undoes = $1 WHERE id = $2", &[&target, &undo])?;
        Ok(())
    }

    fn insert_note(&self, task_id: i64, at: i64, actor: &str, text: &str, terms: &str) -> Result<i64> {
        let id: i64 = self
            .query_one(
                "INSERT INTO notes (task_id, at, actor, text) VALUES ($1, $2, $3, $4) RETURNING id",
                &[&task_id, &at, &actor, &text],
            )?
            .get(0);
        crate::dedup::index_note(&mut *self.conn.borrow_mut(), id, task_id, terms).map_err(|e| self.fail_tx(e))?;
        Ok(id)
    }

    fn remove_note(&self, note_id: i64, at: i64) -> Result<()> {
        self.execute("UPDATE notes SET removed_at = $2 WHERE id = $1 AND removed_at IS NULL", &[&note_id, &at])?;
        self.execute("DELETE FROM note_terms WHERE note_id = $1", &[&note_id])?;
        self.execute("DELETE FROM note_term_text WHERE note_id = $1", &[&note_id])?;
        Ok(())
    }

    fn upsert_message(&self, loc: &MessageLocator, author_person_id: Option<i64>, text: &str, now: i64) -> Result<i64> {
        let locator = loc.to_string();
        if let Some(r) = self.query_opt("SELECT id FROM messages WHERE locator = $1", &[&locator])? {
            return Ok(r.get(0));
        }
        Ok(self
            .query_one(
                "INSERT INTO messages (locator, provider, account, chat, external_id, author_person_id, sent_at, text)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                &[&locator, &loc.provider, &loc.account, &loc.chat, &loc.id, &author_person_id, &now, &text],
            )?
            .get(0))
    }

    fn insert_rule_hit(&self, message_id: i64, rule: &str, task_id: i64, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO rule_hits (message_id, rule, task_id, created_at) VALUES ($1, $2, $3, $4)",
            &[&message_id, &rule, &task_id, &now],
        )?;
        Ok(())
    }

    fn index_task(&self, task_id: i64) -> Result<()> {
        crate::dedup::index(&mut *self.conn.borrow_mut(), task_id).map_err(|e| self.fail_tx(e))
    }

    fn record_decision(
        &self,
        task_id: Option<i64>,
        candidate_id: i64,
        decision: Decision,
        candidate: Option<&Candidate>,
        actor: &str,
        now: i64,
    ) -> Result<()> {
        let levels = tasks_core::dedup::decision_levels(candidate)?;
        self.execute(
            "INSERT INTO dup_decisions (task_id, candidate_id, decision, score, band, levels, actor, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &task_id,
                &candidate_id,
                &decision.as_str(),
                &candidate.map(|c| c.score),
                &candidate.map(|c| c.band.as_str()),
                &levels,
                &actor,
                &now,
            ],
        )?;
        Ok(())
    }

    fn queue_pair(&self, task_id: i64, c: &Candidate, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO dup_pairs (task_id, candidate_id, score, band, reasons, levels, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
            &[
                &task_id,
                &c.task_id,
                &c.score,
                &c.band.as_str(),
                &serde_json::to_string(&c.reasons)?,
                &serde_json::to_string(&c.levels.to_map())?,
                &now,
            ],
        )?;
        Ok(())
    }

    fn resolve_pairs(&self, a: i64, b: i64, resolution: Decision, now: i64) -> Result<usize> {
        let n = self.execute(
            "UPDATE dup_pairs SET resolved_at = $3, resolution = $4
             WHERE resolved_at IS NULL AND ((task_id = $1 AND candidate_id = $2) OR (task_id = $2 AND candidate_id = $1))",
            &[&a, &b, &now, &resolution.as_str()],
        )?;
        Ok(n as usize)
    }

    fn store_weights(&self, rows: &[(tasks_core::dedup::levels::Level, f64, f64, f64)], now: i64) -> Result<()> {
        self.execute("DELETE FROM dup_weights", &[])?;
        for (level, m, u, w) in rows {
            self.execute(
                "INSERT INTO dup_weights (comparison, level, m, u, weight, trained_at) VALUES ($1, $2, $3, $4, $5, $6)",
                &[&level.comparison().as_str(), &level.as_str(), m, u, w, &now],
            )?;
        }
        Ok(())
    }

    fn create_conversation(&self, kind: ConversationKind, external_id: &str, title: &str, now: i64) -> Result<i64> {
        Ok(self
            .query_one(
                "INSERT INTO conversations (kind, title, external_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
                &[&kind.as_str(), &title, &external_id, &now],
            )?
            .get(0))
    }

    fn insert_conversation_message(
        &self,
        conversation_id: i64,
        role: MessageRole,
        text: &str,
        task_id: Option<i64>,
        job_id: Option<i64>,
        now: i64,
    ) -> Result<i64> {
        Ok(self
            .query_one(
                "INSERT INTO conversation_messages (conversation_id, role, text, task_id, job_id, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                &[&conversation_id, &role.as_str(), &text, &task_id, &job_id, &now],
            )?
            .get(0))
    }

    fn set_conversation_state(&self, id: i64, state: &str, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO conversation_state (conversation_id, state, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (conversation_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
            &[&id, &state, &now],
        )?;
        Ok(())
    }

    fn set_bot_offset(&self, bot: &str, update_id: i64, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO bot_offsets (bot, update_id, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (bot) DO UPDATE
             SET update_id = greatest(bot_offsets.update_id, excluded.update_id), updated_at = excluded.updated_at",
            &[&bot, &update_id, &now],
        )?;
        Ok(())
    }

    fn enqueue(
        &self,
        conversation_id: i64,
        kind: QueueKind,
        job_id: Option<i64>,
        payload: &QueuePayload,
        now: i64,
    ) -> Result<i64> {
        // The conversation's row lock orders two writers appending at once: positions
        // never repeat (SQLite: the one writer).
        self.execute("SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE", &[&conversation_id])?;
        Ok(self
            .query_one(
                "INSERT INTO conversation_queue
                     (conversation_id, kind, job_id, payload, state, position, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5,
                     (SELECT coalesce(max(position), 0) + 1 FROM conversation_queue WHERE conversation_id = $1), $6, $6)
                 RETURNING id",
                &[
                    &conversation_id,
                    &kind.as_str(),
                    &job_id,
                    &serde_json::to_string(payload)?,
                    &QueueState::Pending.as_str(),
                    &now,
                ],
            )?
            .get(0))
    }

    fn set_queue_state(&self, id: i64, state: QueueState, now: i64) -> Result<()> {
        self.execute(
            "UPDATE conversation_queue SET state = $2, updated_at = $3 WHERE id = $1",
            &[&id, &state.as_str(), &now],
        )?;
        Ok(())
    }

    fn move_queue_item_to_head(&self, id: i64, conversation_id: i64, now: i64) -> Result<()> {
        let live: Vec<&str> = QueueState::LIVE.iter().map(|s| s.as_str()).collect();
        self.execute(
            "UPDATE conversation_queue SET updated_at = $3, position =
                 (SELECT coalesce(min(position), 1) - 1 FROM conversation_queue
                  WHERE conversation_id = $2 AND state = ANY($4))
             WHERE id = $1",
            &[&id, &conversation_id, &now, &live],
        )?;
        Ok(())
    }

    fn set_job_state(&self, id: i64, state: JobState, reason: Option<&str>, now: i64) -> Result<()> {
        let finished = (!state.is_active()).then_some(now);
        self.execute(
            "UPDATE jobs SET state = $2, reason = $3, updated_at = $4, finished_at = $5, retry_at = NULL WHERE id = $1",
            &[&id, &state.as_str(), &reason, &now, &finished],
        )?;
        Ok(())
    }

    fn start_job(&self, id: i64, now: i64) -> Result<u32> {
        let attempts: i64 = self
            .query_one(
                "UPDATE jobs SET state = 'running', reason = NULL, retry_at = NULL, attempts = attempts + 1,
                     started_at = coalesce(started_at, $2), updated_at = $2
                 WHERE id = $1 RETURNING attempts",
                &[&id, &now],
            )?
            .get(0);
        Ok(u32::try_from(attempts).unwrap_or(u32::MAX))
    }

    fn insert_run(&self, job_id: i64, attempt: u32, now: i64) -> Result<i64> {
        Ok(self
            .query_one(
                "INSERT INTO runs (job_id, attempt, state, started_at) VALUES ($1, $2, 'running', $3) RETURNING id",
                &[&job_id, &i64::from(attempt), &now],
            )?
            .get(0))
    }

    fn interrupt_runs(&self, job_id: i64, error: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE runs SET state = 'interrupted', error = $2, finished_at = $3 WHERE job_id = $1 AND state = 'running'",
            &[&job_id, &error, &now],
        )?;
        Ok(())
    }

    fn local_conversation(&self, title: &str, now: i64) -> Result<i64> {
        if let Some(id) = self.local_conversation_id()? {
            return Ok(id);
        }
        Ok(self
            .query_one(
                "INSERT INTO conversations (kind, title, created_at) VALUES ($1, $2, $3) RETURNING id",
                &[&ConversationKind::Local.as_str(), &title, &now],
            )?
            .get(0))
    }

    fn insert_schedule(&self, s: &NewSchedule<'_>) -> Result<i64> {
        self.notify_schedules()?;
        let v = ScheduleValues::of(s)?;
        Ok(self
            .query_one(
                "INSERT INTO schedules (trigger_kind, trigger, zone, missed, action_kind, action, next_fire_at,
                     event_cursor, max_active, conversation_id, updated_at, task_id, created_at, created_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $11, $13)
                 RETURNING id",
                &[&v.params()[..], &[&s.task_id as &(dyn ToSql + Sync), &s.actor]].concat(),
            )?
            .get(0))
    }

    fn replace_schedule(&self, id: i64, s: &NewSchedule<'_>) -> Result<()> {
        self.notify_schedules()?;
        let v = ScheduleValues::of(s)?;
        self.execute(
            "UPDATE schedules SET trigger_kind = $1, trigger = $2, zone = $3, missed = $4, action_kind = $5,
                 action = $6, next_fire_at = $7, event_cursor = $8, max_active = $9, conversation_id = $10,
                 plan_version = plan_version + 1, updated_at = $11
             WHERE id = $12",
            &[&v.params()[..], &[&id as &(dyn ToSql + Sync)]].concat(),
        )?;
        Ok(())
    }

    fn set_schedule_paused(
        &self,
        id: i64,
        paused: bool,
        next_fire_at: Option<i64>,
        event_cursor: i64,
        now: i64,
    ) -> Result<()> {
        self.notify_schedules()?;
        self.execute(
            "UPDATE schedules SET paused = $2, next_fire_at = $3, event_cursor = $4, updated_at = $5 WHERE id = $1",
            &[&id, &i64::from(paused), &next_fire_at, &event_cursor, &now],
        )?;
        Ok(())
    }

    fn set_schedule_removed(&self, id: i64, actor: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE schedules SET removed_at = $2, removed_by = $3, updated_at = $2 WHERE id = $1",
            &[&id, &now, &actor],
        )?;
        Ok(())
    }

    fn index_new_tasks(&self, rows: &[(i64, tasks_core::dedup::IndexRows, String)]) -> Result<()> {
        // The rows are what indexing each task from its stored fields writes: index them
        // so, one by one (the statistics are kept by each).
        for (id, _, _) in rows {
            self.index_task(*id)?;
        }
        Ok(())
    }

    fn begin_bulk_insert(&self) -> Result<Vec<String>> {
        // Nothing to tune: the references are checked as usual and the indexes kept.
        Ok(Vec::new())
    }

    fn end_bulk_insert(&self, _dropped: &[String]) -> Result<()> {
        Ok(())
    }

    fn take_schedule_for_planning(&self, id: i64) -> Result<bool> {
        // A daemon planning this schedule holds its row: another passes it over instead
        // of waiting, and finds next_fire_at moved on at its next tick.
        Ok(self.query_opt("SELECT 1 FROM schedules WHERE id = $1 FOR UPDATE SKIP LOCKED", &[&id])?.is_some())
    }

    fn insert_job(&self, j: &NewJob<'_>) -> Result<Option<i64>> {
        // A new Job wakes the daemons on commit (a run-now from any machine starts at once).
        self.notify_schedules()?;
        let finished = (!j.state.is_active()).then_some(j.now);
        Ok(self
            .query_opt(
                "INSERT INTO jobs (schedule_id, task_id, kind, action_kind, idempotency_key, plan_version, scheduled_for,
                     event_subject, state, reason, snapshot, created_at, updated_at, finished_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13)
                 ON CONFLICT (idempotency_key) DO NOTHING
                 RETURNING id",
                &[
                    &j.schedule_id,
                    &j.task_id,
                    &j.kind.as_str(),
                    &j.snapshot.action.kind(),
                    &j.key,
                    &j.plan_version,
                    &j.scheduled_for,
                    &j.event_subject,
                    &j.state.as_str(),
                    &j.reason,
                    &serde_json::to_string(j.snapshot)?,
                    &j.now,
                    &finished,
                ],
            )?
            .map(|r| r.get(0)))
    }

    fn set_next_fire_at(&self, id: i64, next: Option<i64>, now: i64) -> Result<()> {
        self.execute("UPDATE schedules SET next_fire_at = $2, updated_at = $3 WHERE id = $1", &[&id, &next, &now])?;
        Ok(())
    }

    fn set_event_cursor(&self, id: i64, cursor: i64) -> Result<()> {
        self.execute("UPDATE schedules SET event_cursor = $2 WHERE id = $1", &[&id, &cursor])?;
        Ok(())
    }

    fn pick_startable_job(&self, now: i64, skip: &[i64]) -> Result<Option<Job>> {
        // The Job and its schedule are held: a daemon picking at the same moment passes
        // over both, so it neither starts this Job nor a second one of this schedule
        // past its slots (the running count is read again once this write commits).
        self.job_where(
            "JOIN schedules s ON s.id = j.schedule_id WHERE j.action_kind IN ('due', 'command') AND (j.state = 'queued' OR (j.state = 'deferred' AND j.retry_at <= $1)) AND NOT (j.id = ANY($2)) AND (SELECT count(*) FROM jobs r WHERE r.schedule_id = j.schedule_id AND r.state = 'running') < s.max_active ORDER BY j.id LIMIT 1 FOR UPDATE OF j, s SKIP LOCKED",
            &[&now, &skip],
        )
    }

    fn take_abandoned_jobs(&self, lease_ended_before: Option<i64>) -> Result<Vec<Job>> {
        self.jobs_where(
            "WHERE j.state = 'running' AND j.action_kind IN ('due', 'command') AND ($1::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM runs r WHERE r.job_id = j.id AND r.state = 'running' AND r.lease_until >= $1)) ORDER BY j.id FOR UPDATE OF j SKIP LOCKED",
            &[&lease_ended_before],
        )
    }

    fn defer_job(&self, id: i64, retry_at: i64, reason: &str, now: i64) -> Result<()> {
        self.execute(
            "UPDATE jobs SET state = 'deferred', reason = $2, retry_at = $3, updated_at = $4 WHERE id = $1",
            &[&id, &reason, &retry_at, &now],
        )?;
        Ok(())
    }

    fn finish_run(&self, id: i64, end: &RunEnd<'_>, now: i64) -> Result<()> {
        self.execute(
            "UPDATE runs SET state = $2, exit_code = $3, output = $4, output_dropped = $5, error = $6, finished_at = $7
             WHERE id = $1",
            &[
                &id,
                &end.state.as_str(),
                &end.exit_code.map(i64::from),
                &end.output,
                &i64::try_from(end.output_dropped).unwrap_or(i64::MAX),
                &end.error,
                &now,
            ],
        )?;
        Ok(())
    }

    fn set_run_pid(&self, id: i64, pid: u32) -> Result<()> {
        self.execute("UPDATE runs SET pid = $2 WHERE id = $1", &[&id, &i64::from(pid)])?;
        Ok(())
    }

    fn lease_run(&self, id: i64, owner: &str, until: i64) -> Result<()> {
        self.execute("UPDATE runs SET owner = $2, lease_until = $3 WHERE id = $1", &[&id, &owner, &until])?;
        Ok(())
    }

    fn renew_run_leases(&self, owner: &str, until: i64) -> Result<usize> {
        let n =
            self.execute("UPDATE runs SET lease_until = $2 WHERE owner = $1 AND state = 'running'", &[&owner, &until])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn insert_artifact(&self, job_id: i64, run_id: Option<i64>, kind: &str, text: &str, now: i64) -> Result<()> {
        self.execute(
            "INSERT INTO artifacts (job_id, run_id, kind, text, created_at) VALUES ($1, $2, $3, $4, $5)",
            &[&job_id, &run_id, &kind, &text, &now],
        )?;
        Ok(())
    }

    fn set_pending_calls(&self, id: i64, calls: Option<&str>) -> Result<()> {
        self.execute("UPDATE jobs SET pending_calls = $2 WHERE id = $1", &[&id, &calls])?;
        Ok(())
    }

    fn lock_conversation_queue(&self, conversation_id: i64) -> Result<()> {
        // The lock `enqueue` takes: a second runner waits here, then reads the queue
        // again and finds the head already running.
        self.execute("SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE", &[&conversation_id])?;
        Ok(())
    }
}

impl Pg<postgres::Transaction<'_>> {
    /// Tells the team daemons, when this write commits, that a schedule changed
    /// (LISTEN/NOTIFY: delivered on commit, dropped on rollback).
    fn notify_schedules(&self) -> Result<()> {
        self.execute("SELECT pg_notify($1, '')", &[&crate::store::SCHEDULES_CHANNEL])?;
        Ok(())
    }

    /// Ends a message's live links from `from` and makes them from `to` (a merge moves
    /// every one; an unmerge one).
    fn move_links(&self, from: i64, message: Option<i64>, to: i64, actor: &str, now: i64) -> Result<Vec<i64>> {
        let rows = self.query(
            "SELECT id, kind, to_message_id FROM links
             WHERE from_task_id = $1 AND to_message_id IS NOT NULL AND removed_at IS NULL
               AND ($2::bigint IS NULL OR to_message_id = $2)
             ORDER BY id",
            &[&from, &message],
        )?;
        let mut moved = Vec::with_capacity(rows.len());
        for r in &rows {
            let (id, kind, message_id): (i64, String, i64) = (r.get(0), r.get(1), r.get(2));
            self.execute("UPDATE links SET removed_at = $2, removed_by = $3 WHERE id = $1", &[&id, &now, &actor])?;
            self.execute(
                "INSERT INTO links (from_task_id, kind, to_message_id, created_at, created_by)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                &[&to, &kind, &message_id, &now, &actor],
            )?;
            moved.push(message_id);
        }
        Ok(moved)
    }

    /// Turns an error of the index code (which runs its own statements) into the
    /// core's, keeping the retry and reconnect marks.
    fn fail_tx(&self, e: crate::store::TxError) -> Error {
        match e {
            crate::store::TxError::Core(e) => e,
            crate::store::TxError::Db(e) => self.fail(e),
        }
    }
}

impl<C> Pg<C> {
    /// Returns the wrapped client for a statement of the store's own.
    pub(crate) fn get_mut(&mut self) -> &mut C {
        self.conn.get_mut()
    }
}

impl Engine for PgStore {
    fn reader(&self) -> &dyn Reads {
        &self.conn
    }

    fn run_write(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<()>) -> Result<()> {
        self.ensure_connected()?;
        let mut reconnected = false;
        for attempt in 1.. {
            match self.attempt(end, f) {
                Attempt::Done(out) => return out,
                Attempt::Conflict(e) if attempt >= RETRIES => return Err(e),
                Attempt::Conflict(_) => {}
                // The server dropped the connection before the commit: nothing of this
                // write landed, so it is safe to run it again, once, on a new one.
                Attempt::Lost(e) if reconnected => return Err(e),
                Attempt::Lost(_) => {
                    reconnected = true;
                    self.conn.closed.set(true);
                    self.ensure_connected()?;
                }
            }
        }
        unreachable!("the attempts above end by returning")
    }

    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn Engine) -> Result<()>) -> Result<()> {
        self.ensure_connected()?;
        let statements = self.conn.statements();
        let tx = self.conn.get_mut().transaction().map_err(pg)?;
        let mut batch = PgBatch { w: Pg::new(tx, statements) };
        let out = f(&mut batch);
        let tx = batch.w.into_inner();
        match out {
            Ok(()) => tx.commit().map_err(pg),
            Err(e) => {
                drop(tx);
                Err(e)
            }
        }
    }

    fn reconnect_if_lost(&mut self) -> Result<()> {
        self.ensure_connected()
    }
}

/// How one attempt at a write ended.
enum Attempt {
    /// Committed, rolled back as asked, or failed for a reason a retry would not change.
    Done(Result<()>),
    /// A serialization failure or a deadlock: run it again.
    Conflict(Error),
    /// The connection was lost before the commit: reconnect and run it again.
    Lost(Error),
}

impl PgStore {
    /// Runs `f` once in a new transaction and ends it as `end` says.
    fn attempt(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<()>) -> Attempt {
        let statements = self.conn.statements();
        let tx = match self.conn.get_mut().transaction() {
            Ok(tx) => tx,
            Err(e) if lost(&e) => return Attempt::Lost(pg(e)),
            Err(e) => return Attempt::Done(Err(pg(e))),
        };
        let w = Pg::new(tx, statements);
        let out = f(&w);
        let (retry, closed) = (w.wants_retry(), w.found_closed());
        let tx = w.into_inner();
        match out {
            Ok(()) => {
                let ended = if end == WriteEnd::Commit { tx.commit() } else { tx.rollback() };
                match ended {
                    Ok(()) => Attempt::Done(Ok(())),
                    Err(e) if retryable(&e) => Attempt::Conflict(pg(e)),
                    // A commit that lost its connection may or may not have landed: it is
                    // reported, never run again.
                    Err(e) => {
                        if lost(&e) {
                            self.conn.closed.set(true);
                        }
                        Attempt::Done(Err(pg(e)))
                    }
                }
            }
            Err(e) => {
                // Dropping the transaction rolls it back.
                drop(tx);
                if retry {
                    Attempt::Conflict(e)
                } else if closed {
                    Attempt::Lost(e)
                } else {
                    Attempt::Done(Err(e))
                }
            }
        }
    }
}

/// The writes of one batch ([`Engine::run_batch`]): each a savepoint of the batch's
/// transaction, so a failed write undoes itself and a rehearsal leaves nothing, while
/// everything commits (or not) with the batch. A batch is never retried.
struct PgBatch<'a> {
    w: Pg<postgres::Transaction<'a>>,
}

impl Engine for PgBatch<'_> {
    fn reader(&self) -> &dyn Reads {
        &self.w
    }

    fn run_write(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<()>) -> Result<()> {
        let op = self.w.operation_id();
        let mut outer = self.w.conn.borrow_mut();
        let savepoint = outer.transaction().map_err(pg)?;
        let inner = Pg::continuing(savepoint, self.w.statements(), op);
        let out = f(&inner);
        let made = inner.operation_id();
        let savepoint = inner.into_inner();
        match (out, end) {
            (Ok(()), WriteEnd::Commit) => {
                savepoint.commit().map_err(pg)?;
                drop(outer);
                self.w.op.set(made);
                Ok(())
            }
            (out, _) => {
                let _ = savepoint.rollback();
                out
            }
        }
    }

    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn Engine) -> Result<()>) -> Result<()> {
        f(self)
    }
}
