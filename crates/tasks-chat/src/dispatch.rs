//! Runs the conversation's calls through the same `ops` functions as the CLI (SPEC §7:
//! "the dispatcher runs them through the same store operations"). Each action is its
//! own transaction: an action that fails (an unknown key, a refused duplicate) is
//! reported and the others still run; nothing of a failed action is written.

use tasks_core::Error;
use tasks_core::dedup::Candidate as DupCandidate;
use tasks_core::model::{Due, DueKind, Status, Task};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::edit::{self, EditRequest};
use tasks_core::ops::query::{self, AgendaView, ListQuery};
use tasks_core::ops::{Context, project, status};
use tasks_core::port::Engine;

use crate::calls::{Call, Deadline, DeadlineKind, ListView, Period};
use crate::offline::{ProjectName, Question};

/// Most tasks a list shows.
pub const LIST_LIMIT: usize = 50;

/// The close reason of a task cancelled in the conversation.
pub const CANCEL_REASON: &str = "cancelled";

/// What one action did.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A task was created.
    Created(Task),
    /// The duplicate check held a new task back: the task it looks like.
    HeldBack {
        /// The title asked for.
        title: String,
        /// What it looks like, best first.
        candidates: Vec<DupCandidate>,
    },
    /// A task was closed as done.
    Closed(Task),
    /// A task was cancelled (dismissed).
    Cancelled(Task),
    /// A task was changed: before and after.
    Updated {
        /// Before.
        before: Box<Task>,
        /// After.
        after: Box<Task>,
    },
    /// A list was shown.
    Listed {
        /// Which.
        view: ListView,
        /// For `done`: the period.
        period: Option<Period>,
        /// The tasks, in order (`all_by_project`: by project).
        tasks: Vec<Task>,
    },
    /// Today's tasks moved to tomorrow.
    Deferred(Vec<Task>),
    /// A question was asked instead of acting.
    Asked(Question),
    /// The request was refused (not about tasks, or nothing fits).
    Rejected(String),
    /// Something said that is no task action (an approval's result).
    Said(String),
    /// The conversation's actor's last change was undone (`/undo`).
    Undone(Box<tasks_core::ops::undo::UndoOutcome>),
    /// An action could not run: why (the others still ran).
    Skipped {
        /// The action.
        call: Call,
        /// Why.
        reason: String,
    },
}

/// Runs one call.
pub fn run(
    store: &mut dyn Engine,
    ctx: &Context,
    call: &Call,
    projects: &[ProjectName],
    force_new: bool,
) -> tasks_core::Result<Outcome> {
    let skipped = |reason: String| Outcome::Skipped { call: call.clone(), reason };
    Ok(match call {
        Call::CreateTask { text, project, deadline } => {
            let project_key = match project.as_deref().map(|p| project_key(p, projects)) {
                Some(Ok(key)) => key,
                Some(Err(reason)) => return Ok(skipped(reason)),
                None => None,
            };
            let req = AddRequest {
                project: project_key,
                due: due_of(deadline),
                dup_choice: if force_new { DupChoice::New } else { DupChoice::Check },
                ..AddRequest::titled(text.clone())
            };
            match add::add(store, ctx, &req) {
                Ok(out) => Outcome::Created(out.task),
                Err(Error::ProbableDuplicate { title, candidates }) => Outcome::HeldBack { title, candidates },
                Err(e @ Error::Invalid { .. }) => skipped(e.to_string()),
                Err(e) => return Err(e),
            }
        }
        Call::UpdateTask { id, text, project, deadline } => {
            let Some(before) = open_task(store, id)? else { return Ok(skipped(not_found(id))) };
            let project_key = match project.as_deref().map(|p| project_key(p, projects)) {
                Some(Ok(key)) => Some(key.unwrap_or_else(|| "INBOX".to_string())),
                Some(Err(reason)) => return Ok(skipped(reason)),
                None => None,
            };
            let req = EditRequest {
                title: text.clone(),
                project: project_key,
                due: deadline.map(|d| due_of(&d)),
                ..EditRequest::default()
            };
            match edit::edit(store, ctx, id, &req) {
                Ok(after) => Outcome::Updated { before: Box::new(before), after: Box::new(after) },
                Err(e) if refused(&e) => skipped(e.to_string()),
                Err(e) => return Err(e),
            }
        }
        Call::CloseTask { id } => match open_task(store, id)? {
            Some(_) => match status::done(store, ctx, id) {
                Ok(out) => Outcome::Closed(out.task),
                Err(e) if refused(&e) => skipped(e.to_string()),
                Err(e) => return Err(e),
            },
            None => skipped(not_found(id)),
        },
        Call::CancelTask { id } => match open_task(store, id)? {
            Some(_) => match status::dismiss(store, ctx, id, Some(CANCEL_REASON)) {
                Ok(out) => Outcome::Cancelled(out.task),
                Err(e) if refused(&e) => skipped(e.to_string()),
                Err(e) => return Err(e),
            },
            None => skipped(not_found(id)),
        },
        Call::ListTasks { filter, period } => {
            Outcome::Listed { view: *filter, period: *period, tasks: list(store, ctx, *filter, *period)? }
        }
        Call::DeferTodayToTomorrow => {
            let today = ctx.today();
            let Ok(tomorrow) = today.tomorrow() else { return Ok(skipped("no tomorrow".into())) };
            let due_today: Vec<Task> = query::agenda(store, ctx, AgendaView::Today, false, Some(LIST_LIMIT))?
                .into_iter()
                .filter(|t| t.due.is_some_and(|d| d.date == today && d.kind == DueKind::Day))
                .collect();
            let mut moved = Vec::new();
            let req = EditRequest { due: Some(Some(Due::day(tomorrow))), ..EditRequest::default() };
            for t in due_today {
                moved.push(edit::edit(store, ctx, &t.key, &req)?);
            }
            Outcome::Deferred(moved)
        }
        Call::Clarify { question, options } => Outcome::Asked(Question {
            question: question.clone(),
            options: options.iter().map(|o| split_option(o)).collect(),
            action: None,
        }),
        Call::Reject { reason } => Outcome::Rejected(reason.clone()),
    })
}

/// Runs `/undo`: reverts the actor's last change (`preview` only shows it). A refusal
/// (nothing to undo, a later change by someone else) is said, not raised.
pub fn undo(store: &mut dyn Engine, ctx: &Context, preview: bool) -> tasks_core::Result<Outcome> {
    let result =
        if preview { tasks_core::ops::undo::preview(store, ctx) } else { tasks_core::ops::undo::undo(store, ctx) };
    match result {
        Ok(out) => Ok(Outcome::Undone(Box::new(out))),
        Err(e @ (Error::NothingToUndo { .. } | Error::UndoBlocked { .. } | Error::CannotUndo { .. })) => {
            Ok(Outcome::Rejected(e.to_string()))
        }
        Err(e) => Err(e),
    }
}

/// Returns whether an error is a refusal of this one action (another actor's claim, open
/// blockers, a value out of bounds) rather than a failure of the store: the action is
/// skipped and said, the others run.
fn refused(e: &Error) -> bool {
    matches!(e, Error::Claimed { .. } | Error::Blocked { .. } | Error::Invalid { .. } | Error::WrongState { .. })
}

/// Returns a task if it is open (or in progress); `None` for an unknown or closed one.
fn open_task(store: &dyn Engine, key: &str) -> tasks_core::Result<Option<Task>> {
    match query::get(store, key) {
        Ok(t) if !t.status.is_closed() => Ok(Some(t)),
        Ok(_) | Err(Error::NotFound { .. }) | Err(Error::Ambiguous { .. }) | Err(Error::Invalid { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

fn not_found(key: &str) -> String {
    format!("no open task {key}")
}

/// Returns a project's key from a key or a name (case and script as typed); `None`
/// for the inbox.
fn project_key(given: &str, projects: &[ProjectName]) -> Result<Option<String>, String> {
    let g = tasks_text::normalize(given);
    if matches!(g.as_str(), "inbox" | "входящие" | "инбокс") {
        return Ok(None);
    }
    projects
        .iter()
        .find(|p| tasks_text::normalize(&p.key) == g || tasks_text::normalize(&p.name) == g)
        .map(|p| Some(p.key.clone()))
        .ok_or_else(|| format!("no project \"{given}\""))
}

/// Returns the model's due of a deadline.
fn due_of(d: &Deadline) -> Option<Due> {
    match (d.kind, d.date) {
        (DeadlineKind::Day, Some(date)) => Some(Due::day(date)),
        (DeadlineKind::Week, Some(date)) => Some(Due::week(date)),
        _ => None,
    }
}

/// Returns the tasks of a view.
fn list(store: &dyn Engine, ctx: &Context, view: ListView, period: Option<Period>) -> tasks_core::Result<Vec<Task>> {
    let agenda = |v| query::agenda(store, ctx, v, false, Some(LIST_LIMIT));
    match view {
        ListView::Today => agenda(AgendaView::Today),
        ListView::Inbox => agenda(AgendaView::Inbox),
        ListView::Overdue => agenda(AgendaView::Overdue),
        ListView::Done => {
            let day = 86_400_000;
            let start_of_today = tasks_core::time::local_midnight_ms(ctx.today(), &ctx.zone);
            let since = match period.unwrap_or(Period::Today) {
                Period::Today => Some(start_of_today),
                Period::Week => Some(start_of_today - 6 * day),
                Period::All => None,
            };
            query::done_since(store, since, LIST_LIMIT)
        }
        ListView::AllByProject => {
            let mut tasks = query::list(
                store,
                &ListQuery {
                    statuses: vec![Status::Open, Status::InProgress],
                    limit: Some(4 * LIST_LIMIT),
                    ..ListQuery::default()
                },
            )?;
            let order: Vec<String> = project::list(store)?.into_iter().map(|p| p.project.key).collect();
            tasks.sort_by_key(|t| {
                (order.iter().position(|k| *k == t.project).unwrap_or(usize::MAX), t.created_at, t.id)
            });
            Ok(tasks)
        }
    }
}

/// Reads a clarify option `KEY: text` (or just a text).
fn split_option(option: &str) -> (String, String) {
    match option.split_once(':') {
        Some((k, t)) if is_key(k.trim()) => (k.trim().to_ascii_uppercase(), t.trim().to_string()),
        _ => (String::new(), option.trim().to_string()),
    }
}

fn is_key(s: &str) -> bool {
    s.split_once('-').is_some_and(|(l, d)| {
        !l.is_empty()
            && l.chars().all(|c| c.is_ascii_alphabetic())
            && !d.is_empty()
            && d.chars().all(|c| c.is_ascii_digit())
    })
}
