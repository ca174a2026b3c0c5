//! The team's operations on PostgreSQL, one transaction each, with the SQLite store's
//! semantics and events (so `history` reads the same after an export to SQLite).
//!
//! How each guarantee is had here (SQLite has them from one writer at a time):
//! - **Keys**: `UPDATE projects SET tasks_count = tasks_count + 1 … RETURNING` takes a
//!   row lock held to commit; a rolled-back add gives its number back, so keys have no
//!   gap and no repeat.
//! - **Claims**: one conditional `UPDATE … RETURNING` (READ COMMITTED re-checks the
//!   condition on the newest row version after waiting for a concurrent writer).
//! - **`next --claim`**: `SELECT … FOR UPDATE SKIP LOCKED LIMIT 1`, then that update:
//!   agents asking at once take different tasks instead of queueing behind one.
//! - **Checks before inserts** (duplicate check, cycle check): a transaction-scoped
//!   advisory lock, so no two checked writes interleave between check and insert.

use postgres::Transaction;
use tasks_core::dedup::source::CheckSource;
use tasks_core::model::Note;
use tasks_core::model::{LinkKind, Project, ProjectKind, Source, Status, Task};
use tasks_core::ops::add::{AddOutcome, AddRequest, DupChoice};
use tasks_core::ops::edit::EditRequest;
use tasks_core::ops::link::LinkOutcome;
use tasks_core::ops::note::NoteOutcome;
use tasks_core::ops::project::ProjectSummary;
use tasks_core::ops::query::{LinkView, SearchQuery, TaskDetail};
use tasks_core::ops::status::StatusOutcome;
use tasks_core::ops::status::{guard, is_no_change, target_of};
use tasks_core::store::events::{
    CategoryChange, Change, ClaimChange, Created, DueChange, DueValue, EditChange, Event, EventChange, LinkChange,
    NoteChange, ReleaseChange, StatusChange, TagChange, UntagChange,
};
use tasks_core::{Context, Error, Result, keys, time};

use crate::PgStore;
use crate::rows::{self, HAS_OPEN_BLOCKER, READY_ORDER};
use crate::store::{CHECKED_WRITE_LOCK, TxError, TxResult};

/// Rows a list or `ready` answers when no limit is given: the SQLite store's.
pub use tasks_core::ops::query::DEFAULT_LIMIT;

/// Which tasks a list shows.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Statuses to include; empty means all.
    pub statuses: Vec<Status>,
    /// Only this project (key).
    pub project: Option<String>,
    /// Most rows [default: [`DEFAULT_LIMIT`]].
    pub limit: Option<usize>,
}

/// Records one event of the current transaction; the first makes its operation row
/// (the unit `undo` reverts on SQLite after an export).
struct Events {
    op: Option<i64>,
}

impl Events {
    fn new() -> Events {
        Events { op: None }
    }

    fn record(
        &mut self,
        tx: &mut Transaction<'_>,
        task_id: i64,
        now: i64,
        actor: &str,
        change: &EventChange,
    ) -> TxResult<()> {
        let op = match self.op {
            Some(op) => op,
            None => {
                let op: i64 = tx
                    .query_one("INSERT INTO operations (at, actor) VALUES ($1, $2) RETURNING id", &[&now, &actor])?
                    .get(0);
                *self.op.insert(op)
            }
        };
        tx.execute(
            "INSERT INTO task_events (task_id, at, actor, kind, changes, op_id) VALUES ($1, $2, $3, $4, $5, $6)",
            &[&task_id, &now, &actor, &change.kind(), &change.to_json().to_string(), &op],
        )?;
        Ok(())
    }
}

/// Creates a project.
pub fn project_add(store: &mut PgStore, ctx: &Context, key: &str, name: &str, description: &str) -> Result<Project> {
    let key = keys::parse_project_key(key)?;
    let name = if name.trim().is_empty() { key.clone() } else { name.trim().to_string() };
    let now = ctx.now_ms();
    store.write(|tx| rows::insert_project(tx, &key, &name, description.trim(), ProjectKind::Project, now))
}

/// Lists projects with their open task counts.
pub fn projects(store: &mut PgStore) -> Result<Vec<ProjectSummary>> {
    store.read(|c| {
        let counts: std::collections::HashMap<i64, i64> = c
            .query(
                "SELECT project_id, count(*) FROM tasks WHERE status IN ('open', 'in_progress') GROUP BY project_id",
                &[],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        Ok(rows::projects(c)?
            .into_iter()
            .map(|p| ProjectSummary { open_tasks: counts.get(&p.id).copied().unwrap_or(0), project: p })
            .collect())
    })
}

/// Shows one task with its live links and notes, as `tasks show` on SQLite.
pub fn show(store: &mut PgStore, reference: &str) -> Result<TaskDetail> {
    store.read(|c| {
        let id = rows::resolve(c, reference)?;
        let task = rows::get(c, id)?;
        let link_rows = c.query(
            "SELECT l.kind, l.to_task_id, m.locator, 0 AS incoming FROM links l
               LEFT JOIN messages m ON m.id = l.to_message_id
              WHERE l.from_task_id = $1 AND l.removed_at IS NULL
             UNION ALL
             SELECT l.kind, l.from_task_id, NULL, 1 FROM links l
              WHERE l.to_task_id = $1 AND l.removed_at IS NULL
             ORDER BY 4, 1",
            &[&id],
        )?;
        let mut links = Vec::new();
        for r in link_rows {
            let Ok(kind) = r.get::<_, String>(0).parse::<LinkKind>() else { continue };
            let other: Option<i64> = r.get(1);
            links.push(LinkView {
                kind,
                incoming: r.get::<_, i32>(3) == 1,
                task: other.map(|t| rows::get(c, t)).transpose()?,
                message: r.get(2),
            });
        }
        let notes = c
            .query(
                "SELECT id, at, actor, text FROM notes WHERE task_id = $1 AND removed_at IS NULL ORDER BY id",
                &[&id],
            )?
            .iter()
            .map(|r| Note { id: r.get(0), at: r.get(1), actor: r.get(2), text: r.get(3) })
            .collect();
        Ok(TaskDetail { task, links, notes })
    })
}

fn project_id(c: &mut impl postgres::GenericClient, key: Option<&str>) -> TxResult<Option<i64>> {
    match key {
        None => Ok(None),
        Some(k) => {
            let upper = k.trim().to_ascii_uppercase();
            match rows::project_by_key(c, &upper)? {
                Some(p) => Ok(Some(p.id)),
                None => Err(TxError::Core(Error::NotFound { what: "project", value: k.to_string() })),
            }
        }
    }
}

/// Lists tasks, oldest first.
pub fn list(store: &mut PgStore, filter: &Filter) -> Result<Vec<Task>> {
    store.read(|c| {
        let pid = project_id(c, filter.project.as_deref())?;
        let statuses: Vec<&str> = filter.statuses.iter().map(|s| s.as_str()).collect();
        let limit = filter.limit.unwrap_or(DEFAULT_LIMIT) as i64;
        let ids: Vec<i64> = c
            .query(
                "SELECT t.id FROM tasks t
                 WHERE (cardinality($1::text[]) = 0 OR t.status = ANY($1))
                   AND ($2::bigint IS NULL OR t.project_id = $2)
                 ORDER BY t.created_at, t.id LIMIT $3",
                &[&statuses, &pid, &limit],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        rows::get_many(c, &ids)
    })
}

/// The `ready` view: open, no open blocker, not claimed by another actor; by priority,
/// due date and age.
pub fn ready(store: &mut PgStore, ctx: &Context, project: Option<&str>, limit: Option<usize>) -> Result<Vec<Task>> {
    let now = ctx.now_ms();
    store.read(|c| {
        let pid = project_id(c, project)?;
        let limit = limit.unwrap_or(DEFAULT_LIMIT) as i64;
        let ids: Vec<i64> = c
            .query(
                &format!(
                    "SELECT t.id FROM tasks t
                     WHERE t.status = 'open' AND ($1::bigint IS NULL OR t.project_id = $1)
                       AND (t.claimed_by IS NULL OR t.claimed_by = $2 OR t.claimed_until < $3)
                       AND NOT {HAS_OPEN_BLOCKER}
                     ORDER BY {READY_ORDER} LIMIT $4"
                ),
                &[&pid, &ctx.actor, &now, &limit],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        rows::get_many(c, &ids)
    })
}

/// Takes the lease on `id` unless someone else holds it (the SQLite store's statement).
fn try_claim(tx: &mut Transaction<'_>, id: i64, actor: &str, until: i64, now: i64) -> TxResult<bool> {
    Ok(tx
        .query_opt(
            "UPDATE tasks SET claimed_by = $2, claimed_until = $3, updated_at = $4
             WHERE id = $1 AND status IN ('open', 'in_progress')
               AND (claimed_by IS NULL OR claimed_until < $4 OR claimed_by = $2)
             RETURNING id",
            &[&id, &actor, &until, &now],
        )?
        .is_some())
}

fn claim_event(task: &Task, actor: &str, until: i64, now: i64, via: Option<&str>) -> EventChange {
    EventChange::Claim(ClaimChange {
        claimed_by: Change(task.claimed_by.clone(), Some(actor.to_string())),
        claimed_until: Change(task.claimed_until.map(time::rfc3339), Some(time::rfc3339(until))),
        // As on SQLite: `claim` says whether it renewed; `next` takes only unheld tasks.
        renewal: via.is_none().then(|| task.live_claim(now).is_some_and(|(h, _)| h == actor)),
        via: via.map(str::to_string),
    })
}

/// Claims a task for `lease` (renewing one's own lease).
pub fn claim(store: &mut PgStore, ctx: &Context, reference: &str, lease: std::time::Duration) -> Result<Task> {
    let now = ctx.now_ms();
    let until = now + lease.as_millis() as i64;
    store.write(|tx| {
        let id = rows::resolve(tx, reference)?;
        let task = rows::get(tx, id)?;
        if task.status.is_closed() {
            return Err(TxError::Core(Error::WrongState {
                key: task.key,
                status: task.status.to_string(),
                reason: "only open or in-progress tasks can be claimed".into(),
            }));
        }
        if task.is_blocked() {
            return Err(TxError::Core(Error::Blocked { key: task.key, blockers: task.open_blockers }));
        }
        if !try_claim(tx, id, &ctx.actor, until, now)? {
            // Read again: the holder may have committed after our first read.
            let now_task = rows::get(tx, id)?;
            let (holder, until) = now_task.live_claim(now).map(|(h, u)| (h.to_string(), u)).unwrap_or_default();
            return Err(TxError::Core(Error::Claimed { key: task.key, holder, until: time::rfc3339(until) }));
        }
        Events::new().record(tx, id, now, &ctx.actor, &claim_event(&task, &ctx.actor, until, now, None))?;
        rows::get(tx, id)
    })
}

/// Ends one's own lease on a task.
pub fn release(store: &mut PgStore, ctx: &Context, reference: &str) -> Result<Task> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let id = rows::resolve(tx, reference)?;
        let task = rows::get(tx, id)?;
        match task.live_claim(now) {
            None => return Ok(task),
            Some((holder, _)) if holder != ctx.actor => {
                return Err(TxError::Core(Error::NotHolder { key: task.key.clone(), actor: ctx.actor.clone() }));
            }
            Some(_) => {}
        }
        tx.execute(
            "UPDATE tasks SET claimed_by = NULL, claimed_until = NULL, updated_at = $2 WHERE id = $1",
            &[&id, &now],
        )?;
        let change = EventChange::Release(ReleaseChange { claimed_by: Change(task.claimed_by.clone(), None) });
        Events::new().record(tx, id, now, &ctx.actor, &change)?;
        rows::get(tx, id)
    })
}

/// Picks the best ready task nobody holds and claims it, in one transaction; rows
/// another agent is taking at this moment are skipped, not waited for.
pub fn next(store: &mut PgStore, ctx: &Context, project: Option<&str>, lease: std::time::Duration) -> Result<Task> {
    let now = ctx.now_ms();
    let until = now + lease.as_millis() as i64;
    let describe = project.map(|p| format!("project {p}")).unwrap_or_default();
    store.write(|tx| {
        let pid = project_id(tx, project)?;
        let row = tx.query_opt(
            &format!(
                "SELECT t.id FROM tasks t
                 WHERE t.status = 'open' AND ($1::bigint IS NULL OR t.project_id = $1)
                   AND (t.claimed_by IS NULL OR t.claimed_until < $2)
                   AND NOT {HAS_OPEN_BLOCKER}
                 ORDER BY {READY_ORDER} LIMIT 1
                 FOR UPDATE OF t SKIP LOCKED"
            ),
            &[&pid, &now],
        )?;
        let Some(row) = row else {
            return Err(TxError::Core(Error::NothingReady { filter: describe.clone() }));
        };
        let id: i64 = row.get(0);
        let task = rows::get(tx, id)?;
        if !try_claim(tx, id, &ctx.actor, until, now)? {
            return Err(TxError::Core(Error::NothingReady { filter: describe.clone() }));
        }
        Events::new().record(tx, id, now, &ctx.actor, &claim_event(&task, &ctx.actor, until, now, Some("next")))?;
        rows::get(tx, id)
    })
}

pub use tasks_core::ops::status::StatusVerb;

/// Changes the status of tasks, all or none (one transaction), by the SQLite store's
/// rules ([`tasks_core::ops::status::target_of`]); each outcome names the dependants it
/// freed.
pub fn set_status(
    store: &mut PgStore,
    ctx: &Context,
    references: &[&str],
    verb: StatusVerb<'_>,
    force: bool,
) -> Result<Vec<StatusOutcome>> {
    let reason = verb.close_reason()?;
    store.write(|tx| {
        let mut outs = Vec::with_capacity(references.len());
        for reference in references {
            let id = rows::resolve(tx, reference)?;
            let task = rows::get(tx, id)?;
            outs.push(match target_of(&task, verb, ctx, force)? {
                Some(to) => change(tx, ctx, task, to, reason)?,
                None => StatusOutcome { task, changed: false, unblocked: Vec::new() },
            });
        }
        Ok(outs)
    })
}

/// Sets a task's status with its event, as the SQLite store's `status::change`.
fn change(
    tx: &mut Transaction<'_>,
    ctx: &Context,
    task: Task,
    to: Status,
    reason: Option<&str>,
) -> TxResult<StatusOutcome> {
    let now = ctx.now_ms();
    if is_no_change(&task, to, reason) {
        return Ok(StatusOutcome { task, changed: false, unblocked: Vec::new() });
    }
    let dependants: Vec<i64> = if to.is_closed() {
        tx.query(
            &format!(
                "SELECT DISTINCT l.from_task_id FROM links l JOIN tasks t ON t.id = l.from_task_id
                 WHERE l.to_task_id = $1 AND l.kind = 'blocked-by' AND l.removed_at IS NULL
                   AND t.status IN ('open', 'in_progress') AND {HAS_OPEN_BLOCKER} ORDER BY 1"
            ),
            &[&task.id],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect()
    } else {
        Vec::new()
    };
    let closed_at = to.is_closed().then_some(now);
    tx.execute(
        "UPDATE tasks SET status = $2, close_reason = $3, closed_at = $4, updated_at = $5,
             claimed_by = CASE WHEN $6 THEN NULL ELSE claimed_by END,
             claimed_until = CASE WHEN $6 THEN NULL ELSE claimed_until END
         WHERE id = $1",
        &[&task.id, &to.as_str(), &reason, &closed_at, &now, &to.is_closed()],
    )?;
    let change = EventChange::Status(StatusChange {
        status: Change(task.status, to),
        close_reason: (reason.is_some() || task.close_reason.is_some())
            .then(|| Change(task.close_reason.clone(), reason.map(str::to_string))),
        claimed_by: (to.is_closed() && task.claimed_by.is_some()).then(|| Change(task.claimed_by.clone(), None)),
    });
    Events::new().record(tx, task.id, now, &ctx.actor, &change)?;
    let unblocked =
        rows::get_many(tx, &dependants)?.into_iter().filter(|t| !t.is_blocked() && !t.status.is_closed()).collect();
    Ok(StatusOutcome { task: rows::get(tx, task.id)?, changed: true, unblocked })
}

/// Marks a task done (see [`set_status`]).
pub fn done(store: &mut PgStore, ctx: &Context, reference: &str) -> Result<StatusOutcome> {
    let mut outs = set_status(store, ctx, &[reference], StatusVerb::Done, false)?;
    outs.pop().ok_or_else(|| Error::invalid("task", "", "no task given"))
}

/// Removes a link; `changed` is false when there was none.
pub fn unlink(store: &mut PgStore, ctx: &Context, from: &str, kind: LinkKind, to: &str) -> Result<LinkOutcome> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let (a, b) = (rows::resolve(tx, from)?, rows::resolve(tx, to)?);
        let removed = tx.execute(
            "UPDATE links SET removed_at = $4, removed_by = $5
             WHERE from_task_id = $1 AND kind = $2 AND to_task_id = $3 AND removed_at IS NULL",
            &[&a, &kind.as_str(), &b, &now, &ctx.actor],
        )? > 0;
        if removed {
            let to_key = rows::get(tx, b)?.key;
            Events::new().record(tx, a, now, &ctx.actor, &EventChange::Unlink(LinkChange { kind, to: to_key }))?;
        }
        Ok(LinkOutcome { task: rows::get(tx, a)?, other: rows::get(tx, b)?, kind, changed: removed })
    })
}

/// Open tasks waiting for an open blocker, oldest first.
pub fn blocked(store: &mut PgStore, limit: Option<usize>) -> Result<Vec<Task>> {
    store.read(|c| {
        let limit = limit.unwrap_or(DEFAULT_LIMIT) as i64;
        let ids: Vec<i64> = c
            .query(
                &format!(
                    "SELECT t.id FROM tasks t WHERE t.status IN ('open', 'in_progress') AND {HAS_OPEN_BLOCKER}
                     ORDER BY t.created_at, t.id LIMIT $1"
                ),
                &[&limit],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        rows::get_many(c, &ids)
    })
}

/// Finds tasks by the words of their titles and descriptions in any script, best first
/// (the SQLite search's terms and ranking; notes are not searched on PostgreSQL: it
/// keeps no index of them).
pub fn search(store: &mut PgStore, q: &SearchQuery) -> Result<Vec<Task>> {
    store.read(|c| {
        let ids = {
            let source = crate::dedup::PgSource::new(c);
            let terms = tasks_core::dedup::search_terms_on(&source, &q.text)?;
            if terms.is_empty() {
                return Ok(Vec::new());
            }
            source.ranked_matches(&terms, q.pool())?
        };
        Ok(q.keep(rows::get_many(c, &ids)?.into_iter().map(Ok))?)
    })
}

/// A task and its history, oldest first.
pub fn history(store: &mut PgStore, reference: &str) -> Result<(Task, Vec<Event>)> {
    store.read(|c| {
        let id = rows::resolve(c, reference)?;
        let task = rows::get(c, id)?;
        let rows = c.query(
            "SELECT e.id, e.at, e.actor, e.kind, e.changes,
                    coalesce((SELECT o.undoes IS NOT NULL FROM operations o WHERE o.id = e.op_id), false)
             FROM task_events e WHERE e.task_id = $1 ORDER BY e.id",
            &[&id],
        )?;
        let events = rows
            .iter()
            .map(|r| {
                Ok(Event {
                    id: r.get(0),
                    at: r.get(1),
                    actor: r.get(2),
                    change: EventChange::from_stored(r.get(3), r.get(4))?,
                    by_undo: r.get(5),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((task, events))
    })
}

/// Returns true when `to` reaches `from` along live links of `kind` (so `from → to`
/// would close a cycle), with the path `to → … → from` when it does.
fn path_back(tx: &mut Transaction<'_>, from: i64, kind: LinkKind, to: i64) -> TxResult<Option<Vec<i64>>> {
    // Breadth-first over the stored links, each task once; the graph is read under
    // the checked-write lock, so no link can appear between this walk and the insert.
    let mut parent = std::collections::HashMap::from([(to, to)]);
    let mut frontier = vec![to];
    while !frontier.is_empty() {
        let next = tx.query(
            "SELECT from_task_id, to_task_id FROM links
             WHERE from_task_id = ANY($1) AND kind = $2 AND removed_at IS NULL AND to_task_id IS NOT NULL",
            &[&frontier, &kind.as_str()],
        )?;
        frontier = Vec::new();
        for r in next {
            let (a, b): (i64, i64) = (r.get(0), r.get(1));
            if parent.contains_key(&b) {
                continue;
            }
            parent.insert(b, a);
            if b == from {
                let mut path = vec![b];
                let mut cur = b;
                while cur != to {
                    cur = parent[&cur];
                    path.push(cur);
                }
                path.reverse();
                return Ok(Some(path));
            }
            frontier.push(b);
        }
    }
    Ok(None)
}

fn link_in(
    tx: &mut Transaction<'_>,
    events: &mut Events,
    ctx: &Context,
    from: i64,
    kind: LinkKind,
    to: i64,
) -> TxResult<bool> {
    let now = ctx.now_ms();
    if !kind.joins_tasks() {
        return Err(TxError::Core(Error::invalid(
            "link kind",
            kind.as_str(),
            "links a task to a message, not to a task",
        )));
    }
    if from == to {
        let key = rows::get(tx, from)?.key;
        return Err(TxError::Core(Error::SelfLink { key, kind: kind.as_str() }));
    }
    let exists = tx
        .query_opt(
            "SELECT 1 FROM links WHERE from_task_id = $1 AND kind = $2 AND to_task_id = $3 AND removed_at IS NULL",
            &[&from, &kind.as_str(), &to],
        )?
        .is_some();
    if exists {
        return Ok(false);
    }
    if kind.must_be_acyclic()
        && let Some(back) = path_back(tx, from, kind, to)?
    {
        let mut ids = vec![from];
        ids.extend(back);
        let path = ids.iter().map(|id| rows::get(tx, *id).map(|t| t.key)).collect::<TxResult<Vec<_>>>()?;
        return Err(TxError::Core(Error::Cycle { kind: kind.as_str(), path }));
    }
    tx.execute(
        "INSERT INTO links (from_task_id, kind, to_task_id, created_at, created_by) VALUES ($1, $2, $3, $4, $5)",
        &[&from, &kind.as_str(), &to, &now, &ctx.actor],
    )?;
    let to_key = rows::get(tx, to)?.key;
    events.record(tx, from, now, &ctx.actor, &EventChange::Link(LinkChange { kind, to: to_key }))?;
    Ok(true)
}

/// Links two tasks (`HRB-3 blocked-by HRB-1`), refusing a self-link and a cycle;
/// `changed` is false when the link exists already.
pub fn link(store: &mut PgStore, ctx: &Context, from: &str, kind: LinkKind, to: &str) -> Result<LinkOutcome> {
    store.write(|tx| {
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CHECKED_WRITE_LOCK])?;
        let (a, b) = (rows::resolve(tx, from)?, rows::resolve(tx, to)?);
        let changed = link_in(tx, &mut Events::new(), ctx, a, kind, b)?;
        Ok(LinkOutcome { task: rows::get(tx, a)?, other: rows::get(tx, b)?, kind, changed })
    })
}

/// Changes fields of a task (`tasks edit` with field flags), with the SQLite store's
/// checks and events; `commit` false rolls it back (`--dry-run`). A person is not
/// available on PostgreSQL yet.
pub fn edit(store: &mut PgStore, ctx: &Context, reference: &str, req: &EditRequest, commit: bool) -> Result<Task> {
    tasks_core::ops::edit::check(req)?;
    if req.person.is_some() {
        return Err(Error::invalid("flag", "--person", "is not available on a PostgreSQL store yet"));
    }
    let now = ctx.now_ms();
    store.write_or_rehearse(commit, |tx| {
        // The index and its document frequencies change with the text: as an add.
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CHECKED_WRITE_LOCK])?;
        let id = rows::resolve(tx, reference)?;
        let before = rows::get(tx, id)?;
        guard(&before, ctx, req.force, false)?;
        let set = |tx: &mut Transaction<'_>,
                   column: &str,
                   value: &(dyn postgres::types::ToSql + Sync)|
         -> TxResult<()> {
            tx.execute(&format!("UPDATE tasks SET {column} = $2, updated_at = $3 WHERE id = $1"), &[&id, value, &now])?;
            Ok(())
        };
        let mut change = EditChange::default();
        if let Some(t) = req.title.as_deref().filter(|t| *t != before.title) {
            set(tx, "title", &t)?;
            change.title = Some(Change(before.title.clone(), t.to_string()));
        }
        if let Some(d) = req.description.as_deref().filter(|d| *d != before.description) {
            set(tx, "description", &d)?;
            change.description = Some(Change(before.description.clone(), d.to_string()));
        }
        if let Some(p) = req.priority.filter(|p| *p != before.priority) {
            set(tx, "priority", &p.map(i64::from))?;
            change.priority = Some(Change(before.priority, p));
        }
        if let Some(ty) = req.task_type.filter(|t| *t != before.task_type) {
            set(tx, "type", &ty.as_str())?;
            change.task_type = Some(Change(before.task_type, ty));
        }
        if let Some(key) = &req.project {
            let p = if key.trim().eq_ignore_ascii_case(keys::INBOX_KEY) {
                inbox(tx, now)?
            } else {
                rows::project_by_key(tx, &key.trim().to_ascii_uppercase())?
                    .ok_or_else(|| TxError::Core(Error::NotFound { what: "project", value: key.clone() }))?
            };
            if p.key != before.project {
                set(tx, "project_id", &p.id)?;
                change.project = Some(Change(before.project.clone(), p.key.clone()));
            }
        }
        if let Some(amount) = &req.amount
            && *amount != before.amount
        {
            let (minor, currency) = match amount {
                Some(m) => (Some(m.minor), Some(m.currency.clone())),
                None => (None, None),
            };
            tx.execute(
                "UPDATE tasks SET amount_minor = $2, currency = $3, updated_at = $4 WHERE id = $1",
                &[&id, &minor, &currency, &now],
            )?;
            let show = |m: &Option<tasks_core::Money>| m.as_ref().map(|m| format!("{} {}", m.minor, m.currency));
            change.amount = Some(Change(show(&before.amount), show(amount)));
        }
        let mut events = Events::new();
        if !change.is_empty() {
            events.record(tx, id, now, &ctx.actor, &EventChange::Edit(change))?;
        }
        if let Some(due) = req.due.filter(|d| *d != before.due) {
            let (due_at, due_kind, due_instant) = tasks_core::store::due_columns(due);
            tx.execute(
                "UPDATE tasks SET due_at = $2, due_kind = $3, due_instant = $4, updated_at = $5 WHERE id = $1",
                &[&id, &due_at, &due_kind, &due_instant, &now],
            )?;
            let change = DueChange { due: Change(before.due.map(DueValue::from), due.map(DueValue::from)) };
            events.record(tx, id, now, &ctx.actor, &EventChange::Due(change))?;
        }
        if let Some(cat) = req.category.as_ref().filter(|c| **c != before.category) {
            set(tx, "category", &cat.as_deref())?;
            let category = Change(before.category.clone(), cat.clone());
            events.record(tx, id, now, &ctx.actor, &EventChange::Category(CategoryChange { category }))?;
        }
        // Text, amount or due may have changed: keep the check's index in step.
        crate::dedup::index(tx, id)?;
        rows::get(tx, id)
    })
}

/// Tags a task (without an event: what `add --tag` does); false when it had the tag in
/// any case.
fn tag_row(tx: &mut Transaction<'_>, id: i64, name: &str, now: i64) -> TxResult<bool> {
    let tag_id: i64 =
        match tx.query_opt("SELECT id FROM tags WHERE lower(name) = lower($1) ORDER BY id LIMIT 1", &[&name])? {
            Some(r) => r.get(0),
            None => tx.query_one("INSERT INTO tags (name) VALUES ($1) RETURNING id", &[&name])?.get(0),
        };
    let n = tx.execute(
        "INSERT INTO taggings (tag_id, taggable_type, taggable_id, created_at) VALUES ($1, 'task', $2, $3)
         ON CONFLICT DO NOTHING",
        &[&tag_id, &id, &now],
    )?;
    Ok(n == 1)
}

/// Adds (`add` true) or removes tags on tasks, all or none, with the SQLite store's
/// bound and events; returns each task with the tags that changed.
pub fn tag(
    store: &mut PgStore,
    ctx: &Context,
    references: &[&str],
    names: &[String],
    add: bool,
) -> Result<Vec<(Task, Vec<String>)>> {
    if add {
        tasks_core::ops::add::check_tags(names)?;
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut out = Vec::with_capacity(references.len());
        for reference in references {
            let id = rows::resolve(tx, reference)?;
            let task = rows::get(tx, id)?;
            let mut changed = Vec::new();
            if add {
                let new = names.iter().filter(|n| !task.tags.contains(n)).count();
                if task.tags.len() + new > tasks_core::limits::TAGS_MAX {
                    return Err(TxError::Core(Error::invalid(
                        "tag",
                        names.join(" "),
                        format!(
                            "{} has {} tags; a task holds at most {}",
                            task.key,
                            task.tags.len(),
                            tasks_core::limits::TAGS_MAX
                        ),
                    )));
                }
                for n in names {
                    if tag_row(tx, id, n, now)? {
                        changed.push(n.clone());
                    }
                }
            } else {
                for n in names {
                    let removed = tx.execute(
                        "DELETE FROM taggings WHERE taggable_type = 'task' AND taggable_id = $1
                           AND tag_id = (SELECT id FROM tags WHERE lower(name) = lower($2) ORDER BY id LIMIT 1)",
                        &[&id, n],
                    )?;
                    if removed == 1 {
                        changed.push(n.clone());
                    }
                }
            }
            if !changed.is_empty() {
                let change = if add {
                    EventChange::Tag(TagChange { added: changed.clone() })
                } else {
                    EventChange::Untag(UntagChange { removed: changed.clone() })
                };
                Events::new().record(tx, id, now, &ctx.actor, &change)?;
            }
            out.push((rows::get(tx, id)?, changed));
        }
        Ok(out)
    })
}

/// Appends a note to a task (searchable on SQLite only: PostgreSQL keeps no note index).
pub fn note(store: &mut PgStore, ctx: &Context, reference: &str, text: &str) -> Result<NoteOutcome> {
    tasks_core::ops::note::check_note(text)?;
    let now = ctx.now_ms();
    let text = text.trim();
    store.write(|tx| {
        let id = rows::resolve(tx, reference)?;
        let note_id: i64 = tx
            .query_one(
                "INSERT INTO notes (task_id, at, actor, text) VALUES ($1, $2, $3, $4) RETURNING id",
                &[&id, &now, &ctx.actor, &text],
            )?
            .get(0);
        let change = EventChange::NoteAdded(NoteChange { note: note_id, text: text.to_string() });
        Events::new().record(tx, id, now, &ctx.actor, &change)?;
        let note = Note { id: note_id, at: now, actor: ctx.actor.clone(), text: text.to_string() };
        Ok(NoteOutcome { task: rows::get(tx, id)?, note })
    })
}

/// Returns the inbox, creating it on first use.
fn inbox(tx: &mut Transaction<'_>, now: i64) -> TxResult<Project> {
    if let Some(p) = rows::project_by_key(tx, keys::INBOX_KEY)? {
        return Ok(p);
    }
    match rows::insert_project(
        tx,
        keys::INBOX_KEY,
        "Inbox",
        "Tasks not filed into a project yet",
        ProjectKind::Inbox,
        now,
    ) {
        Err(TxError::Core(Error::ProjectExists { .. })) => rows::project_by_key(tx, keys::INBOX_KEY)?
            .ok_or_else(|| TxError::Core(Error::NotFound { what: "project", value: keys::INBOX_KEY.into() })),
        other => other,
    }
}

/// Takes the next key of a project (a typed prefix in an inbox: `REQ-22`).
fn next_key(tx: &mut Transaction<'_>, project: &Project, task_type: tasks_core::TaskType) -> TxResult<String> {
    if project.kind == ProjectKind::Inbox
        && let Some(prefix) = task_type.typed_prefix()
    {
        let n: i64 = tx
            .query_one(
                "INSERT INTO key_counters (prefix, last) VALUES ($1, 1)
                 ON CONFLICT (prefix) DO UPDATE SET last = key_counters.last + 1 RETURNING last",
                &[&prefix],
            )?
            .get(0);
        return Ok(format!("{prefix}-{n}"));
    }
    let n: i64 = tx
        .query_one(
            "UPDATE projects SET tasks_count = tasks_count + 1 WHERE id = $1 RETURNING tasks_count",
            &[&project.id],
        )?
        .get(0);
    Ok(format!("{}-{n}", project.key))
}

/// Adds a task (the duplicate check first, under the checked-write lock), or refuses a
/// probable duplicate, as `tasks add` does on SQLite.
///
/// Not on PostgreSQL yet: `--attach`, a source message (`--source`, `--rule`) and
/// `--person`; each is refused naming the flag.
pub fn add(store: &mut PgStore, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    add_or_rehearse(store, ctx, req, true)
}

/// Runs `add` and rolls it back: what would happen, with nothing written (`--dry-run`).
pub fn rehearse(store: &mut PgStore, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    add_or_rehearse(store, ctx, req, false)
}

fn add_or_rehearse(store: &mut PgStore, ctx: &Context, req: &AddRequest, commit: bool) -> Result<AddOutcome> {
    tasks_core::ops::add::check_request(req)?;
    let unsupported =
        |flag: &str| Error::invalid("flag", flag.to_string(), "is not available on a PostgreSQL store yet");
    if matches!(req.dup_choice, DupChoice::Attach(_)) {
        return Err(unsupported("--attach"));
    }
    if req.source_message.is_some() || req.rule.is_some() {
        return Err(unsupported("--source/--rule"));
    }
    if req.person.is_some() {
        return Err(unsupported("--person"));
    }
    let now = ctx.now_ms();
    store.write_or_rehearse(commit, |tx| {
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CHECKED_WRITE_LOCK])?;
        let blockers: Vec<i64> = req.blocked_by.iter().map(|r| rows::resolve(tx, r)).collect::<TxResult<_>>()?;
        let candidates = crate::dedup::candidates_for_add(tx, req, &blockers, now)?;
        let by_person = req.origin == Source::Owner;
        if candidates.iter().any(|c| c.refuses(by_person)) && req.dup_choice == DupChoice::Check {
            return Err(TxError::Core(Error::ProbableDuplicate { title: req.title.clone(), candidates }));
        }
        let project = match &req.project {
            Some(k) if !k.trim().eq_ignore_ascii_case(keys::INBOX_KEY) => {
                let upper = k.trim().to_ascii_uppercase();
                rows::project_by_key(tx, &upper)?
                    .ok_or_else(|| TxError::Core(Error::NotFound { what: "project", value: k.clone() }))?
            }
            _ => inbox(tx, now)?,
        };
        let key = next_key(tx, &project, req.task_type)?;
        let uuid = time::uuid_v7_at(now);
        let (due_at, due_kind, due_instant) = tasks_core::store::due_columns(req.due);
        let priority = req.priority.map(i64::from);
        let (amount_minor, currency) = match &req.amount {
            Some(m) => (Some(m.minor), Some(m.currency.clone())),
            None => (None, None),
        };
        let id: i64 = tx
            .query_one(
                "INSERT INTO tasks (uuid, key, project_id, type, title, description, status, priority,
                     due_at, due_kind, due_instant, category, amount_minor, currency, created_at, updated_at, source)
                 VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)
                 RETURNING id",
                &[
                    &uuid,
                    &key,
                    &project.id,
                    &req.task_type.as_str(),
                    &req.title,
                    &req.description,
                    &priority,
                    &due_at,
                    &due_kind,
                    &due_instant,
                    &req.category,
                    &amount_minor,
                    &currency,
                    &now,
                    &req.origin.as_str(),
                ],
            )?
            .get(0);
        crate::dedup::index(tx, id)?;
        let mut events = Events::new();
        let created = Created {
            key: key.clone(),
            title: req.title.clone(),
            project: project.key.clone(),
            source: req.origin,
            line: None,
        };
        events.record(tx, id, now, &ctx.actor, &EventChange::Created(created))?;
        for tag in &req.tags {
            tag_row(tx, id, tag, now)?;
        }
        for blocker in &blockers {
            link_in(tx, &mut events, ctx, id, LinkKind::BlockedBy, *blocker)?;
        }
        for c in &candidates {
            crate::dedup::record_new(tx, id, c, &ctx.actor, now)?;
        }
        Ok(AddOutcome {
            task: rows::get(tx, id)?,
            created: true,
            attached_to: None,
            candidates: candidates.clone(),
            exact_match: None,
            queued_for_review: false,
            reopened: false,
            filled: Vec::new(),
        })
    })
}
