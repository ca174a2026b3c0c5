//! Status changes: `start`, `done`, `dismiss`, `reopen`, and `tag`/`untag`. Closing
//! ends any lease (SPEC §4) and unblocks dependants at once, because `blocked` is
//! derived on read.

use crate::error::{Error, Result};
use crate::keys;
use crate::model::{Status, Task};
use crate::ops::Context;
use crate::port::{Engine, Writes};
use crate::store::events::{Change, EventChange, StatusChange, TagChange, UntagChange};

/// The close reason `dismiss` records when none is given.
pub const DEFAULT_DISMISS_REASON: &str = "cancelled";

/// The outcome of a status change.
#[derive(Debug, Clone)]
pub struct StatusOutcome {
    /// The task after the change.
    pub task: Task,
    /// False when the task already had that status.
    pub changed: bool,
    /// Tasks that were blocked only by this one and are ready now (after `done`/`dismiss`).
    pub unblocked: Vec<Task>,
}

/// A status verb: what it checks before it changes a task, and the status it sets.
/// One set of rules for every engine (the PostgreSQL store calls [`target_of`] too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusVerb<'a> {
    /// `start`: in progress; a closed task is refused; another's claim and open
    /// blockers refuse unless forced.
    Start,
    /// `stop`: a task in progress back to open; another's claim refuses unless forced.
    Stop,
    /// `done`: another's claim and open blockers refuse unless forced.
    Done,
    /// `dismiss` with a reason (see [`dismiss_reason`]): another's claim refuses unless forced.
    Dismiss(Option<&'a str>),
    /// `reopen`: a closed task back to open; an open one is no change.
    Reopen,
}

/// Returns the close reason a dismiss records: the one given (trimmed), else
/// [`DEFAULT_DISMISS_REASON`]; refused when over the name limit.
pub fn dismiss_reason(reason: Option<&str>) -> Result<&str> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty()).unwrap_or(DEFAULT_DISMISS_REASON);
    crate::limits::check_text("reason", reason, crate::limits::NAME_MAX_CHARS)?;
    Ok(reason)
}

impl<'a> StatusVerb<'a> {
    /// Returns the close reason the verb records: a dismiss's (see [`dismiss_reason`]),
    /// none for the others.
    pub fn close_reason(self) -> Result<Option<&'a str>> {
        match self {
            StatusVerb::Dismiss(r) => Ok(Some(dismiss_reason(r)?)),
            _ => Ok(None),
        }
    }
}

/// Returns true when setting `to` (with `reason`) leaves `task` as it is: the same
/// status, and no other close reason to record. Such a change writes nothing.
pub fn is_no_change(task: &Task, to: Status, reason: Option<&str>) -> bool {
    task.status == to && (reason.is_none() || task.close_reason.as_deref() == reason)
}

/// Decides what `verb` does to `task`: the status to set, `None` when it changes
/// nothing (reopening an open task), or the refusal.
pub fn target_of(task: &Task, verb: StatusVerb<'_>, ctx: &Context, force: bool) -> Result<Option<Status>> {
    Ok(Some(match verb {
        StatusVerb::Start => {
            if task.status.is_closed() {
                return Err(Error::WrongState {
                    key: task.key.clone(),
                    status: task.status.to_string(),
                    reason: "reopen it first".into(),
                });
            }
            guard(task, ctx, force, true)?;
            Status::InProgress
        }
        StatusVerb::Stop => {
            if task.status != Status::InProgress {
                return Err(Error::WrongState {
                    key: task.key.clone(),
                    status: task.status.to_string(),
                    reason: "only a task in progress can be stopped".into(),
                });
            }
            guard(task, ctx, force, false)?;
            Status::Open
        }
        StatusVerb::Done => {
            if !task.status.is_closed() {
                guard(task, ctx, force, true)?;
            }
            Status::Done
        }
        StatusVerb::Dismiss(_) => {
            if !task.status.is_closed() {
                guard(task, ctx, force, false)?;
            }
            Status::Dismissed
        }
        StatusVerb::Reopen => {
            if !task.status.is_closed() {
                return Ok(None);
            }
            Status::Open
        }
    }))
}

/// Runs a status verb on tasks, all or none (one transaction).
pub fn apply(
    store: &mut dyn Engine,
    ctx: &Context,
    references: &[&str],
    verb: StatusVerb<'_>,
    force: bool,
) -> Result<Vec<StatusOutcome>> {
    let reason = verb.close_reason()?;
    store.write(|tx| {
        references
            .iter()
            .map(|reference| {
                let task = tx.task(keys::resolve(tx, reference)?)?;
                match target_of(&task, verb, ctx, force)? {
                    Some(to) => change(tx, ctx, task, to, reason),
                    None => Ok(StatusOutcome { task, changed: false, unblocked: Vec::new() }),
                }
            })
            .collect()
    })
}

/// Marks a task in progress. Refuses a closed task, one another actor has claimed and a
/// blocked one (see [`start_many`] to override).
pub fn start(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<StatusOutcome> {
    first(start_many(store, ctx, &[reference], false))
}

/// Marks tasks in progress, all or none. `force` overrides another actor's claim and
/// open blockers; a closed task is refused either way.
pub fn start_many(
    store: &mut dyn Engine,
    ctx: &Context,
    references: &[&str],
    force: bool,
) -> Result<Vec<StatusOutcome>> {
    apply(store, ctx, references, StatusVerb::Start, force)
}

/// Puts a task in progress back to open (`tasks stop`).
pub fn stop(store: &mut dyn Engine, ctx: &Context, reference: &str, force: bool) -> Result<StatusOutcome> {
    first(apply(store, ctx, &[reference], StatusVerb::Stop, force))
}

/// Marks a task done. Refuses one another actor has claimed and a blocked one (see
/// [`done_many`] to override).
pub fn done(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<StatusOutcome> {
    first(done_many(store, ctx, &[reference], false))
}

/// Marks tasks done, all or none; `force` overrides another actor's claim and open
/// blockers.
pub fn done_many(
    store: &mut dyn Engine,
    ctx: &Context,
    references: &[&str],
    force: bool,
) -> Result<Vec<StatusOutcome>> {
    apply(store, ctx, references, StatusVerb::Done, force)
}

/// Closes a task without doing it, with a reason (default [`DEFAULT_DISMISS_REASON`]).
/// Refuses one another actor has claimed (see [`dismiss_many`]).
pub fn dismiss(store: &mut dyn Engine, ctx: &Context, reference: &str, reason: Option<&str>) -> Result<StatusOutcome> {
    first(dismiss_many(store, ctx, &[reference], reason, false))
}

/// Dismisses tasks, all or none; `force` overrides another actor's claim.
pub fn dismiss_many(
    store: &mut dyn Engine,
    ctx: &Context,
    references: &[&str],
    reason: Option<&str>,
    force: bool,
) -> Result<Vec<StatusOutcome>> {
    apply(store, ctx, references, StatusVerb::Dismiss(reason), force)
}

/// Refuses a change to a task another actor holds a live lease on (SPEC §4: a claim
/// means nobody else works on it), and — when `blockers` — one with open blockers,
/// unless `force`.
pub fn guard(task: &Task, ctx: &Context, force: bool, blockers: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    if let Some((holder, until)) = task.live_claim(ctx.now_ms())
        && holder != ctx.actor
    {
        return Err(Error::Claimed {
            key: task.key.clone(),
            holder: holder.to_string(),
            until: crate::time::rfc3339(until),
        });
    }
    if blockers && task.is_blocked() {
        return Err(Error::Blocked { key: task.key.clone(), blockers: task.open_blockers.clone() });
    }
    Ok(())
}

fn first(outcomes: Result<Vec<StatusOutcome>>) -> Result<StatusOutcome> {
    outcomes?.into_iter().next().ok_or_else(|| Error::invalid("task", "", "no task given"))
}

/// Reopens a closed task.
pub fn reopen(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<StatusOutcome> {
    first(apply(store, ctx, &[reference], StatusVerb::Reopen, false))
}

/// Writes a status change with its event, inside the caller's transaction.
pub(crate) fn change(
    tx: &dyn Writes,
    ctx: &Context,
    task: Task,
    to: Status,
    reason: Option<&str>,
) -> Result<StatusOutcome> {
    let now = ctx.now_ms();
    if is_no_change(&task, to, reason) {
        return Ok(StatusOutcome { task, changed: false, unblocked: Vec::new() });
    }
    // Dependants blocked before the change, to report which ones it frees.
    let dependants_before = if to.is_closed() { tx.blocked_dependants(task.id)? } else { Vec::new() };
    tx.set_task_status(task.id, to, reason, now)?;
    let changes = StatusChange {
        status: Change(task.status, to),
        close_reason: (reason.is_some() || task.close_reason.is_some())
            .then(|| Change(task.close_reason.clone(), reason.map(str::to_string))),
        claimed_by: (to.is_closed() && task.claimed_by.is_some()).then(|| Change(task.claimed_by.clone(), None)),
    };
    tx.record_event(task.id, now, &ctx.actor, &EventChange::Status(changes))?;
    let unblocked = dependants_before
        .into_iter()
        .map(|id| tx.task(id))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .filter(|t| !t.is_blocked() && !t.status.is_closed())
        .collect();
    Ok(StatusOutcome { task: tx.task(task.id)?, changed: true, unblocked })
}

/// Adds tags to a task; returns the task and the tags that were new.
pub fn tag(store: &mut dyn Engine, ctx: &Context, reference: &str, names: &[String]) -> Result<(Task, Vec<String>)> {
    crate::ops::checks::check_tags(names)?;
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        tag_in(tx, ctx, id, names)
    })
}

/// Adds tags inside the caller's transaction.
pub(crate) fn tag_in(tx: &dyn Writes, ctx: &Context, id: i64, names: &[String]) -> Result<(Task, Vec<String>)> {
    {
        let task = tx.task(id)?;
        let new: usize = names.iter().filter(|n| !task.tags.contains(n)).count();
        if task.tags.len() + new > crate::limits::TAGS_MAX {
            return Err(Error::invalid(
                "tag",
                names.join(" "),
                format!("{} has {} tags; a task holds at most {}", task.key, task.tags.len(), crate::limits::TAGS_MAX),
            ));
        }
        let mut added = Vec::new();
        for n in names {
            if tx.add_tag(id, n, ctx.now_ms())? {
                added.push(n.clone());
            }
        }
        if !added.is_empty() {
            tx.record_event(id, ctx.now_ms(), &ctx.actor, &EventChange::Tag(TagChange { added: added.clone() }))?;
        }
        Ok((tx.task(id)?, added))
    }
}

/// Removes tags from a task; returns the task and the tags that were removed.
pub fn untag(store: &mut dyn Engine, ctx: &Context, reference: &str, names: &[String]) -> Result<(Task, Vec<String>)> {
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        untag_in(tx, ctx, id, names)
    })
}

/// Removes tags inside the caller's transaction.
pub(crate) fn untag_in(tx: &dyn Writes, ctx: &Context, id: i64, names: &[String]) -> Result<(Task, Vec<String>)> {
    {
        let mut removed = Vec::new();
        for n in names {
            if tx.remove_tag(id, n)? {
                removed.push(n.clone());
            }
        }
        if !removed.is_empty() {
            tx.record_event(
                id,
                ctx.now_ms(),
                &ctx.actor,
                &EventChange::Untag(UntagChange { removed: removed.clone() }),
            )?;
        }
        Ok((tx.task(id)?, removed))
    }
}
