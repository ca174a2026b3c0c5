//! `tasks undo`: revert this actor's last change (issue 12).
//!
//! A change is an operation — every event one command wrote (`done A B C` is one, an add
//! with its links and tags is one). Undo reads its events from the history and writes
//! the inverse of each, newest first, as a new operation that `undoes` it; nothing is
//! deleted (SPEC §2): an undone add is dismissed with reason [`UNDONE_REASON`], an undone
//! note is marked removed. Undo again and it reverts the change before that.
//!
//! Undo refuses when a later change that still stands touched one of the same tasks (an
//! agent claimed the task you just created, a person closed the task you tagged): the
//! error names who and what, and nothing is written. Two things are not restored: a
//! lease a close ended stays ended (the holder claims again if still at work), and the
//! duplicate check keeps the decisions it learned from.

use crate::claims::DEFAULT_LEASE;
use crate::error::{Error, Result};
use crate::keys;
use crate::model::{Money, Status, Task};
use crate::ops::Context;
use crate::ops::edit::{EditRequest, edit_in};
use crate::ops::{duplicates, status};
use crate::port::{Engine, Writes};
use crate::store::events::{Change, ClaimChange, Event, EventChange, NoteChange, ReleaseChange};
use crate::time;

/// The close reason of a task whose add was undone.
pub const UNDONE_REASON: &str = "undone";

/// One change undo reverted, for the person to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reverted {
    /// The task.
    pub key: String,
    /// What had been done ("marked it done").
    pub what: String,
    /// What undo left as it was, when it could not restore everything.
    pub kept: Option<String>,
}

/// What `undo` did.
#[derive(Debug, Clone)]
pub struct UndoOutcome {
    /// When the reverted change was made, epoch ms.
    pub change_at: i64,
    /// The reverted events, in the order they had been made.
    pub reverted: Vec<Reverted>,
    /// The tasks it touched, after the undo.
    pub tasks: Vec<Task>,
}

/// Reverts `ctx.actor`'s last change that is not undone yet.
pub fn undo(store: &mut dyn Engine, ctx: &Context) -> Result<UndoOutcome> {
    store.write(|tx| undo_in(tx, ctx))
}

/// Shows what `undo` would revert, writing nothing.
pub fn preview(store: &mut dyn Engine, ctx: &Context) -> Result<UndoOutcome> {
    store.rehearse(|tx| undo_in(tx, ctx))
}

fn undo_in(tx: &dyn Writes, ctx: &Context) -> Result<UndoOutcome> {
    let op = tx.last_undoable(&ctx.actor)?.ok_or_else(|| Error::NothingToUndo { actor: ctx.actor.clone() })?;
    let events = tx.events_of_operation(op.id)?;
    let last_event = events.iter().map(|(_, e)| e.id).max().unwrap_or(0);
    let mut touched: Vec<i64> = Vec::new();
    for (task_id, _) in &events {
        if !touched.contains(task_id) {
            touched.push(*task_id);
        }
    }
    for task_id in &touched {
        if let Some((_, later)) = tx.standing_after(*task_id, last_event)?.into_iter().next() {
            return Err(Error::UndoBlocked {
                key: tx.task(*task_id)?.key,
                by: later.actor.clone(),
                what: later.change.summary(&|t| t.to_string()),
            });
        }
    }
    let undo_op = tx.current_operation(ctx.now_ms(), &ctx.actor)?;
    let mut reverted = Vec::new();
    for (task_id, event) in events.iter().rev() {
        let key = tx.task(*task_id)?.key;
        let kept = revert(tx, ctx, *task_id, event)?;
        reverted.push(Reverted { key, what: event.change.summary(&|t| t.to_string()), kept });
    }
    reverted.reverse();
    tx.mark_undone(op.id, undo_op)?;
    let tasks = touched.iter().map(|id| tx.task(*id)).collect::<Result<Vec<_>>>()?;
    Ok(UndoOutcome { change_at: op.at, reverted, tasks })
}

/// Writes the inverse of one event; returns what it could not restore, if anything.
fn revert(tx: &dyn Writes, ctx: &Context, task_id: i64, event: &Event) -> Result<Option<String>> {
    let now = ctx.now_ms();
    let task = tx.task(task_id)?;
    let edit = |req: EditRequest| edit_in(tx, ctx, task_id, &req).map(|_| None);
    match &event.change {
        EventChange::Created(_) => {
            if !task.status.is_closed() {
                status::change(tx, ctx, task, Status::Dismissed, Some(UNDONE_REASON))?;
            }
            Ok(None)
        }
        EventChange::Status(s) => {
            let reason = if s.status.0.is_closed() { s.close_reason.as_ref().and_then(|c| c.0.clone()) } else { None };
            let ended_lease = s.claimed_by.as_ref().and_then(|c| c.0.clone());
            status::change(tx, ctx, task, s.status.0, reason.as_deref())?;
            Ok(ended_lease.map(|holder| format!("the claim of {holder} it ended is not restored")))
        }
        EventChange::Edit(e) => edit(EditRequest {
            title: e.title.as_ref().map(|c| c.0.clone()),
            description: e.description.as_ref().map(|c| c.0.clone()),
            priority: e.priority.as_ref().map(|c| c.0),
            task_type: e.task_type.as_ref().map(|c| c.0),
            project: e.project.as_ref().map(|c| c.0.clone()),
            person: e.person.as_ref().map(|c| c.0.clone()),
            amount: match &e.amount {
                Some(c) => Some(c.0.as_deref().map(money_of).transpose()?),
                None => None,
            },
            ..EditRequest::default()
        }),
        EventChange::Due(d) => {
            let before = match &d.due.0 {
                Some(v) => Some(v.to_due().ok_or_else(|| stored("due", &v.date))?),
                None => None,
            };
            edit(EditRequest { due: Some(before), ..EditRequest::default() })
        }
        EventChange::Category(c) => {
            edit(EditRequest { category: Some(c.category.0.clone()), ..EditRequest::default() })
        }
        EventChange::Claim(c) => {
            let until = c.claimed_until.0.as_deref().map(ms_of).transpose()?;
            set_lease(tx, ctx, &task, c.claimed_by.0.clone(), until)?;
            Ok(None)
        }
        EventChange::Release(r) => {
            // The release did not record when the lease would have ended: a fresh one.
            let until = now + DEFAULT_LEASE.as_millis() as i64;
            set_lease(tx, ctx, &task, r.claimed_by.0.clone(), Some(until))?;
            Ok(Some("the claim is restored with a fresh lease".to_string()))
        }
        EventChange::Link(l) => {
            let to = keys::resolve(tx, &l.to)?;
            crate::graph::remove_link(tx, ctx, task_id, l.kind, to)?;
            Ok(None)
        }
        EventChange::Unlink(l) => {
            let to = keys::resolve(tx, &l.to)?;
            crate::graph::add_link(tx, ctx, task_id, l.kind, to)?;
            Ok(None)
        }
        EventChange::Tag(t) => {
            status::untag_in(tx, ctx, task_id, &t.added)?;
            Ok(None)
        }
        EventChange::Untag(t) => {
            status::tag_in(tx, ctx, task_id, &t.removed)?;
            Ok(None)
        }
        EventChange::MergedInto(_) => {
            duplicates::unmerge_in(tx, ctx, task_id)?;
            Ok(None)
        }
        EventChange::Unmerged(u) => {
            let into = keys::resolve(tx, &u.from)?;
            duplicates::merge_in(tx, ctx, task_id, into)?;
            Ok(None)
        }
        // The other side of a merge or unmerge, reverted with its duplicate.
        EventChange::MergedFrom(_) | EventChange::Returned(_) => Ok(None),
        EventChange::NotDuplicate(_) => {
            Ok(Some("the duplicate check keeps the decision; the task itself did not change".to_string()))
        }
        EventChange::Attached(a) => {
            if let Some(locator) = &a.message {
                tx.remove_evidence(task_id, locator, &ctx.actor, now)?;
            }
            Ok(None)
        }
        EventChange::Schedule(_) => Err(Error::CannotUndo {
            key: task.key,
            what: "a schedule change".into(),
            reason: "change it back with tasks schedule (add --replace, pause, resume, remove)".into(),
        }),
        EventChange::NoteAdded(n) => {
            tx.remove_note(n.note, now)?;
            tx.record_event(task_id, now, &ctx.actor, &EventChange::NoteRemoved(n.clone()))?;
            Ok(None)
        }
        EventChange::NoteRemoved(_) => Err(Error::CannotUndo {
            key: task.key,
            what: "a removed note".into(),
            reason: "add it again with tasks note".into(),
        }),
    }
}

/// Sets the lease back to `holder` until `until`, with its event.
fn set_lease(tx: &dyn Writes, ctx: &Context, task: &Task, holder: Option<String>, until: Option<i64>) -> Result<()> {
    let now = ctx.now_ms();
    tx.set_lease(task.id, holder.as_deref(), until, now)?;
    let change = match &holder {
        None => EventChange::Release(ReleaseChange { claimed_by: Change(task.claimed_by.clone(), None) }),
        Some(h) => EventChange::Claim(ClaimChange {
            claimed_by: Change(task.claimed_by.clone(), Some(h.clone())),
            claimed_until: Change(task.claimed_until.map(time::rfc3339), until.map(time::rfc3339)),
            renewal: None,
            via: Some("undo".into()),
        }),
    };
    tx.record_event(task.id, now, &ctx.actor, &change)
}

/// Reads an amount as history keeps it: `"<minor> <CUR>"`.
fn money_of(text: &str) -> Result<Money> {
    let (minor, currency) = text.split_once(' ').ok_or_else(|| stored("amount", text))?;
    Ok(Money { minor: minor.parse().map_err(|_| stored("amount", text))?, currency: currency.to_string() })
}

fn ms_of(text: &str) -> Result<i64> {
    text.parse::<jiff::Timestamp>().map(|t| t.as_millisecond()).map_err(|_| stored("time", text))
}

fn stored(field: &'static str, value: &str) -> Error {
    Error::invalid(field, value, "the history holds a value this version cannot read back")
}

/// Makes a note's event payload.
pub(crate) fn note_change(note: i64, text: &str) -> NoteChange {
    NoteChange { note, text: text.to_string() }
}
