//! Read-only views: `list`, `show`, `history`, `ready`, `blocked`, `agenda`, `graph`.
//! Nothing here writes.

use crate::error::{Error, Result};
use crate::graph::{self, Neighbourhood};
use crate::keys;
use crate::model::{LinkKind, Status, Task, TaskType};
use crate::ops::Context;
use crate::port::Engine;
use crate::store::events::Event;
pub use crate::store::tasks::Sort;
use crate::store::tasks::{self as task_rows, ListFilter};
use crate::time;

/// Filters of `list` as the user gives them (keys and handles, not row ids).
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Statuses; empty means open and in progress. `all` is every status.
    pub statuses: Vec<Status>,
    /// Project key.
    pub project: Option<String>,
    /// Type.
    pub task_type: Option<TaskType>,
    /// Tag.
    pub tag: Option<String>,
    /// Person handle.
    pub person: Option<String>,
    /// Most rows.
    pub limit: Option<usize>,
    /// Only tasks due strictly before this day.
    pub due_before: Option<jiff::civil::Date>,
    /// Only tasks due strictly after this day.
    pub due_after: Option<jiff::civil::Date>,
    /// Only tasks overdue at (local today, now epoch ms): see [`Due::is_overdue`].
    ///
    /// [`Due::is_overdue`]: crate::model::Due::is_overdue
    pub overdue_at: Option<(jiff::civil::Date, i64)>,
    /// Only tasks of this priority.
    pub priority: Option<u8>,
    /// Only tasks whose live lease this actor holds at this time (epoch ms).
    pub claimed_by: Option<(String, i64)>,
    /// Only tasks whose title or description has words starting with each word of this.
    pub text: Option<String>,
    /// The order.
    pub sort: Sort,
}

/// The default number of rows of `list`, `ready` and `agenda` when no `--limit` is given.
pub const DEFAULT_LIMIT: usize = 200;

/// Turns user filters into a store filter; `None` when a named person does not exist
/// (so nothing can match).
pub fn to_filter(store: &dyn Engine, q: &ListQuery) -> Result<Option<ListFilter>> {
    let conn = store.reader();
    let mut f = ListFilter {
        statuses: if q.statuses.is_empty() { vec![Status::Open, Status::InProgress] } else { q.statuses.clone() },
        task_type: q.task_type,
        tag: q.tag.clone(),
        limit: Some(q.limit.unwrap_or(DEFAULT_LIMIT)),
        due_before: q.due_before.map(time::floating_date_to_ms),
        due_after: q.due_after.map(time::floating_date_to_ms),
        overdue: q.overdue_at.map(|(today, now)| (time::floating_date_to_ms(today), now)),
        priority: q.priority,
        claimed_by: q.claimed_by.clone(),
        text: q
            .text
            .as_deref()
            .map(|t| tasks_text::normalize(t).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect())
            .unwrap_or_default(),
        sort: q.sort,
        ..ListFilter::default()
    };
    if let Some(p) = q.priority {
        crate::model::check_priority(u64::from(p))?;
    }
    if let Some(key) = &q.project {
        let upper = key.trim().to_ascii_uppercase();
        let p = conn.project_by_key(&upper)?.ok_or_else(|| Error::NotFound { what: "project", value: key.clone() })?;
        f.project_id = Some(p.id);
    }
    if let Some(handle) = &q.person {
        match conn.person_id(handle)? {
            Some(id) => f.person_id = Some(id),
            None => return Ok(None),
        }
    }
    Ok(Some(f))
}

/// Lists tasks.
pub fn list(store: &dyn Engine, q: &ListQuery) -> Result<Vec<Task>> {
    match to_filter(store, q)? {
        Some(f) => store.reader().tasks(&f),
        None => Ok(Vec::new()),
    }
}

/// A linked task or message, as `show` prints it.
#[derive(Debug, Clone)]
pub struct LinkView {
    /// The kind.
    pub kind: LinkKind,
    /// True when the other task points at this one.
    pub incoming: bool,
    /// The other task (task links).
    pub task: Option<Task>,
    /// The message locator (message links).
    pub message: Option<String>,
}

/// A task with its links.
#[derive(Debug, Clone)]
pub struct TaskDetail {
    /// The task.
    pub task: Task,
    /// Live links from and to it.
    pub links: Vec<LinkView>,
    /// Its notes, oldest first.
    pub notes: Vec<crate::model::Note>,
}

/// Shows one task with its links.
pub fn show(store: &dyn Engine, reference: &str) -> Result<TaskDetail> {
    let conn = store.reader();
    let id = keys::resolve(conn, reference)?;
    let task = conn.task(id)?;
    let links = conn
        .links_of_task(id)?
        .into_iter()
        .map(|l| {
            Ok(LinkView {
                kind: l.kind,
                incoming: l.incoming,
                task: l.task_id.map(|t| conn.task(t)).transpose()?,
                message: l.message,
            })
        })
        .collect::<Result<_>>()?;
    let notes = conn.notes_of_task(id)?;
    Ok(TaskDetail { task, links, notes })
}

/// Returns a task and its history, oldest first.
pub fn history(store: &dyn Engine, reference: &str) -> Result<(Task, Vec<Event>)> {
    let conn = store.reader();
    let id = keys::resolve(conn, reference)?;
    Ok((conn.task(id)?, conn.events_of_task(id)?))
}

/// Returns the ready tasks for `ctx.actor`: open, no open blocker, not claimed by
/// someone else; by priority, due, age (SPEC §4).
pub fn ready(store: &dyn Engine, ctx: &Context, limit: Option<usize>) -> Result<Vec<Task>> {
    let f = task_rows::ready_filter(&ctx.actor, ctx.now_ms(), Some(limit.unwrap_or(DEFAULT_LIMIT)));
    store.reader().tasks(&f)
}

/// Returns open and in-progress tasks that wait for an open blocker.
pub fn blocked(store: &dyn Engine, limit: Option<usize>) -> Result<Vec<Task>> {
    let f = ListFilter {
        statuses: vec![Status::Open, Status::InProgress],
        blocked: Some(true),
        limit: Some(limit.unwrap_or(DEFAULT_LIMIT)),
        ..ListFilter::default()
    };
    store.reader().tasks(&f)
}

/// The agenda views (SPEC §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgendaView {
    /// Due today or overdue.
    Today,
    /// In an inbox project.
    Inbox,
    /// Due before today.
    Overdue,
    /// Due within the next 7 days, or overdue.
    Week,
}

impl std::str::FromStr for AgendaView {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "today" => Ok(AgendaView::Today),
            "inbox" => Ok(AgendaView::Inbox),
            "overdue" => Ok(AgendaView::Overdue),
            "week" => Ok(AgendaView::Week),
            _ => Err(Error::invalid("agenda view", s, "expected one of: today, inbox, overdue, week")),
        }
    }
}

/// Days ahead the `week` agenda looks, today included.
pub const AGENDA_WEEK_DAYS: i64 = 7;

/// Returns an agenda view; tasks claimed by others are hidden unless `show_claimed`.
pub fn agenda(
    store: &dyn Engine,
    ctx: &Context,
    view: AgendaView,
    show_claimed: bool,
    limit: Option<usize>,
) -> Result<Vec<Task>> {
    let mut f = agenda_filter(ctx, view, limit);
    if show_claimed {
        f.hide_claimed_by_others = None;
    }
    store.reader().tasks(&f)
}

/// The filter of an agenda view, hiding tasks others hold.
fn agenda_filter(ctx: &Context, view: AgendaView, limit: Option<usize>) -> ListFilter {
    let today_ms = time::floating_date_to_ms(ctx.today());
    let mut f = ListFilter {
        statuses: vec![Status::Open, Status::InProgress],
        limit: Some(limit.unwrap_or(DEFAULT_LIMIT)),
        ready_order: true,
        hide_claimed_by_others: Some((ctx.actor.clone(), ctx.now_ms())),
        ..ListFilter::default()
    };
    match view {
        AgendaView::Today => f.due_on_or_before = Some(today_ms),
        AgendaView::Overdue => f.overdue = Some((today_ms, ctx.now_ms())),
        AgendaView::Week => f.due_before = Some(today_ms + AGENDA_WEEK_DAYS * 86_400_000),
        AgendaView::Inbox => f.inbox_only = true,
    }
    f
}

/// An agenda view with what others' claims hide from it.
#[derive(Debug, Clone)]
pub struct Agenda {
    /// The view.
    pub view: AgendaView,
    /// Its heading: Today, Inbox, Overdue, This week.
    pub heading: &'static str,
    /// The tasks shown.
    pub tasks: Vec<Task>,
    /// The tasks of the view hidden because someone else holds their lease (empty when
    /// claimed tasks are shown).
    pub hidden: Vec<Task>,
}

/// Returns an agenda view and the tasks others' claims hide from it (seed 000: tasks
/// another actor holds are hidden — but never silently).
pub fn agenda_view(
    store: &dyn Engine,
    ctx: &Context,
    view: AgendaView,
    show_claimed: bool,
    limit: Option<usize>,
) -> Result<Agenda> {
    let tasks = agenda(store, ctx, view, show_claimed, limit)?;
    let hidden = if show_claimed {
        Vec::new()
    } else {
        let mut f = agenda_filter(ctx, view, limit);
        f.hide_claimed_by_others = None;
        f.claimed_by_others = Some((ctx.actor.clone(), ctx.now_ms()));
        store.reader().tasks(&f)?
    };
    let heading = match view {
        AgendaView::Today => "Today",
        AgendaView::Inbox => "Inbox",
        AgendaView::Overdue => "Overdue",
        AgendaView::Week => "This week",
    };
    Ok(Agenda { view, heading, tasks, hidden })
}

/// Returns the neighbourhood of a task for `graph`.
pub fn neighbourhood(store: &dyn Engine, reference: &str) -> Result<Neighbourhood> {
    let id = keys::resolve(store.reader(), reference)?;
    graph::neighbourhood(store.reader(), id)
}

/// Returns one task.
pub fn get(store: &dyn Engine, reference: &str) -> Result<Task> {
    let id = keys::resolve(store.reader(), reference)?;
    store.reader().task(id)
}

/// Returns the best ready task matching `filter` — what `next` would claim, without
/// claiming it (a task the caller holds counts as ready for them).
pub fn next_ready(store: &dyn Engine, ctx: &Context, filter: ListFilter) -> Result<Option<Task>> {
    let mut f = task_rows::ready_filter(&ctx.actor, ctx.now_ms(), Some(1));
    f.project_id = filter.project_id;
    f.task_type = filter.task_type;
    f.tag = filter.tag;
    Ok(store.reader().tasks(&f)?.into_iter().next())
}

/// What `search` looks for.
#[derive(Debug, Clone)]
pub struct SearchQuery {
    /// Free text, in any script: matched by stems and cross-language concepts.
    pub text: String,
    /// Only open and in-progress tasks.
    pub open_only: bool,
    /// Most tasks returned.
    pub limit: usize,
}

/// Tasks read from the index per task asked for: closed ones are passed over when only
/// open ones are wanted.
const SEARCH_POOL_FACTOR: usize = 5;

/// Returns the tasks whose words match the text best (the sum of the inverse document
/// frequencies of the stems and concepts they share with it), best first.
pub fn search(store: &dyn Engine, q: &SearchQuery) -> Result<Vec<Task>> {
    let conn = store.reader();
    let terms = crate::dedup::search_terms_on(&*conn.check_source()?, &q.text)?;
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let ids = conn.search_matches(&terms, q.pool())?;
    q.keep(ids.into_iter().map(|id| conn.task(id)))
}

impl SearchQuery {
    /// Ranked matches read per search: closed ones are passed over when only open ones
    /// are wanted.
    pub fn pool(&self) -> usize {
        self.limit.saturating_mul(SEARCH_POOL_FACTOR).max(self.limit)
    }

    /// Keeps the ranked tasks this search answers, best first: open ones only when
    /// asked, at most `limit` (reading no further than needed).
    pub fn keep(&self, ranked: impl IntoIterator<Item = Result<Task>>) -> Result<Vec<Task>> {
        let mut out = Vec::new();
        for task in ranked {
            let task = task?;
            if self.open_only && task.status.is_closed() {
                continue;
            }
            out.push(task);
            if out.len() >= self.limit {
                break;
            }
        }
        Ok(out)
    }
}

/// Returns how many tasks are open or in progress, counting no further than `at_most`.
pub fn count_open(store: &dyn Engine, at_most: usize) -> Result<usize> {
    let f = ListFilter { statuses: vec![Status::Open, Status::InProgress], ..ListFilter::default() };
    store.reader().count_tasks(&f, at_most)
}

/// Returns the tasks done since `since_ms` (epoch ms; `None` for all), newest first.
pub fn done_since(store: &dyn Engine, since_ms: Option<i64>, limit: usize) -> Result<Vec<Task>> {
    let f = ListFilter {
        statuses: vec![Status::Done],
        closed_since: since_ms,
        closed_newest_first: true,
        limit: Some(limit),
        ..ListFilter::default()
    };
    store.reader().tasks(&f)
}
