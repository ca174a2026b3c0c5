//! Conversations, their messages, and their durable FIFO queue (SPEC §6, §7).
//!
//! Firings of prompt schedules and (from issue 6) chat messages of one conversation
//! wait in one queue, in order of position then id: a firing waits while a reply is
//! being produced. A person can remove a pending item (its Job is cancelled) or promote
//! one: it moves to the head and the running item is interrupted (its Job too). The
//! queue is rows in the store, so it survives restarts. [`take_next`] and [`finish`]
//! are the steps the conversation runner (issue 6) takes; nothing here runs an item.

use super::{Job, Message, QueueItem, Schedule};
use crate::model::conversation::{MessagePayload, MessageRole, QueueKind, QueuePayload, QueueState};
use crate::model::schedule::JobState;
use crate::error::{Error, Result};
use crate::ops::Context;
use crate::store::{conversations, jobs, queue as queue_rows};
use crate::store::{Store, Tx};

/// Holds the title of the local conversation, made on first use.
pub const LOCAL_TITLE: &str = "local";

/// Posts a message of a schedule into its conversation (role `schedule`).
pub(crate) fn post(tx: &Tx<'_>, s: &Schedule, job: Option<&Job>, text: &str, now: i64) -> Result<()> {
    conversations::insert_message(tx, s.conversation_id, MessageRole::Schedule, text, Some(s.task_id), job.map(|j| j.id), now)?;
    Ok(())
}

/// Resolves a conversation id: the given one (must exist), else the local one if any.
fn conversation_or_local(store: &Store, conversation: Option<i64>) -> Result<Option<i64>> {
    match conversation {
        Some(id) => conversations::conversation(store.conn(), id)?
            .map(|c| Some(c.id))
            .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() }),
        None => conversations::find_local_conversation(store.conn()),
    }
}

/// Lists the running and pending items of a conversation's queue (the local one when
/// `None`), running first, then in queue order.
pub fn list(store: &Store, conversation: Option<i64>) -> Result<Vec<QueueItem>> {
    match conversation_or_local(store, conversation)? {
        Some(id) => queue_rows::live_queue(store.conn(), Some(id)),
        None => Ok(Vec::new()),
    }
}

/// Returns the last `limit` messages of a conversation (the local one when `None`).
pub fn messages(store: &Store, conversation: Option<i64>, limit: usize) -> Result<Vec<Message>> {
    match conversation_or_local(store, conversation)? {
        Some(id) => conversations::messages(store.conn(), id, limit),
        None => Ok(Vec::new()),
    }
}

/// Appends a chat message to a conversation's queue (the local one, made if needed)
/// and to its messages (role `user`).
pub fn push_message(store: &mut Store, ctx: &Context, conversation: Option<i64>, text: &str) -> Result<QueueItem> {
    if text.trim().is_empty() {
        return Err(Error::invalid("text", text, "the message is empty"));
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let conv = match conversation {
            Some(id) => {
                conversations::conversation(tx, id)?
                    .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?
                    .id
            }
            None => conversations::local_conversation(tx, LOCAL_TITLE, now)?,
        };
        conversations::insert_message(tx, conv, MessageRole::User, text, None, None, now)?;
        let payload = QueuePayload::Message(MessagePayload { text: text.to_string(), from: ctx.actor.clone() });
        let id = queue_rows::enqueue(tx, conv, QueueKind::Message, None, &payload, now)?;
        item(tx, id)
    })
}

fn item(tx: &Tx<'_>, id: i64) -> Result<QueueItem> {
    queue_rows::queue_item(tx, id)?.ok_or_else(|| Error::NotFound { what: "queue item", value: id.to_string() })
}

fn not_pending(item: &QueueItem, what: &str) -> Error {
    Error::WrongState {
        key: format!("queue item {}", item.id),
        status: item.state.to_string(),
        reason: format!("only a pending item can be {what}"),
    }
}

/// Removes a pending item; a firing's Job is cancelled. Refuses a running or finished item.
pub fn remove(store: &mut Store, ctx: &Context, id: i64) -> Result<QueueItem> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Pending {
            return Err(not_pending(&it, "removed"));
        }
        queue_rows::set_queue_state(tx, id, QueueState::Removed, now)?;
        if let Some(job_id) = it.job_id {
            let reason = format!("removed from the conversation queue by {}", ctx.actor);
            jobs::set_job_state(tx, job_id, JobState::Cancelled, Some(&reason), now)?;
        }
        conversations::insert_message(
            tx,
            it.conversation_id,
            MessageRole::System,
            &format!("queue item #{id} removed by {}", ctx.actor),
            None,
            it.job_id,
            now,
        )?;
        item(tx, id)
    })
}

/// The outcome of `promote`.
#[derive(Debug, Clone)]
pub struct Promoted {
    /// The promoted item, now at the head.
    pub item: QueueItem,
    /// The items that were running and are now interrupted.
    pub interrupted: Vec<QueueItem>,
}

/// Moves a pending item to the head of its queue and interrupts the running item (and
/// its Job): interrupt-and-promote. Refuses an item that is not pending.
pub fn promote(store: &mut Store, ctx: &Context, id: i64) -> Result<Promoted> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Pending {
            return Err(not_pending(&it, "promoted"));
        }
        let mut interrupted = Vec::new();
        for running in queue_rows::live_queue(tx, Some(it.conversation_id))?.into_iter().filter(|i| i.state == QueueState::Running) {
            queue_rows::set_queue_state(tx, running.id, QueueState::Interrupted, now)?;
            if let Some(job_id) = running.job_id
                && let Some(job) = jobs::job(tx, job_id)?
                && matches!(job.state, JobState::Running | JobState::WaitingApproval)
            {
                let reason = format!("interrupted: queue item #{id} was promoted by {}", ctx.actor);
                jobs::interrupt_runs(tx, job_id, &reason, now)?;
                jobs::set_job_state(tx, job_id, JobState::Interrupted, Some(&reason), now)?;
            }
            interrupted.push(item(tx, running.id)?);
        }
        queue_rows::move_to_head(tx, id, it.conversation_id, now)?;
        conversations::insert_message(
            tx,
            it.conversation_id,
            MessageRole::System,
            &format!("queue item #{id} promoted by {}", ctx.actor),
            None,
            it.job_id,
            now,
        )?;
        Ok(Promoted { item: item(tx, id)?, interrupted })
    })
}

/// Starts the head of a conversation's queue (pending → running) unless an item is
/// running already; returns it. A firing's Job becomes `running`. For the conversation
/// runner (issue 6).
pub fn take_next(store: &mut Store, ctx: &Context, conversation: i64) -> Result<Option<QueueItem>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let live = queue_rows::live_queue(tx, Some(conversation))?;
        if live.iter().any(|i| i.state == QueueState::Running) {
            return Ok(None);
        }
        let Some(head) = live.into_iter().find(|i| i.state == QueueState::Pending) else { return Ok(None) };
        queue_rows::set_queue_state(tx, head.id, QueueState::Running, now)?;
        if let Some(job_id) = head.job_id {
            let attempt = jobs::start_job(tx, job_id, now)?;
            jobs::insert_run(tx, job_id, attempt, now)?;
        }
        Ok(Some(item(tx, head.id)?))
    })
}

/// Marks a running item done. For the conversation runner (issue 6), which also sets
/// the firing's Job state.
pub fn finish(store: &mut Store, ctx: &Context, id: i64) -> Result<QueueItem> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Running {
            return Err(Error::WrongState {
                key: format!("queue item {id}"),
                status: it.state.to_string(),
                reason: "only a running item can be finished".into(),
            });
        }
        queue_rows::set_queue_state(tx, id, QueueState::Done, now)?;
        item(tx, id)
    })
}
