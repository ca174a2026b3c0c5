//! Conversations as the chat edges use them (issue 11): find or make one by its name
//! (`tasks chat --conversation NAME`, default `cli`) or a provider's chat id, read what
//! it remembers, and record one turn — the person's message, the reply and the new
//! state — in one transaction.
//!
//! The state is JSON that `tasks-chat` writes and reads with one type; this module keeps
//! it as text. Schedules post into conversations too (`ops::schedule::queue`).

use crate::error::Result;
use crate::model::conversation::{ConversationKind, MessagePayload, MessageRole, QueueKind, QueuePayload, QueueState};
use crate::ops::Context;
use crate::port::Engine;
pub use crate::store::conversations::Conversation;
use crate::store::queue::QueueItem;

/// A conversation the chat talks in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationRef {
    /// Where it lives.
    pub kind: ConversationKind,
    /// Its name (local) or the provider's chat id.
    pub external_id: String,
}

/// Returns the id of a conversation, if it exists (reads only).
pub fn find(store: &dyn Engine, conversation: &ConversationRef) -> Result<Option<i64>> {
    store.reader().conversation_id(conversation.kind, &conversation.external_id)
}

/// Returns what a conversation remembers (the chat's JSON), if anything.
pub fn state(store: &dyn Engine, conversation: &ConversationRef) -> Result<Option<String>> {
    match find(store, conversation)? {
        Some(id) => store.reader().conversation_state(id),
        None => Ok(None),
    }
}

/// One turn to record: what the person wrote, what was answered, and what the
/// conversation remembers after it.
#[derive(Debug, Clone)]
pub struct TurnRecord<'a> {
    /// The person's message.
    pub user_text: &'a str,
    /// The reply shown.
    pub reply: &'a str,
    /// The new state (JSON), replacing the old one.
    pub state: &'a str,
}

/// Records a turn, making the conversation on first use; returns its id.
pub fn record_turn(
    store: &mut dyn Engine,
    ctx: &Context,
    conversation: &ConversationRef,
    turn: &TurnRecord<'_>,
) -> Result<i64> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let id = match tx.conversation_id(conversation.kind, &conversation.external_id)? {
            Some(id) => id,
            None => {
                tx.create_conversation(conversation.kind, &conversation.external_id, &conversation.external_id, now)?
            }
        };
        tx.insert_conversation_message(id, MessageRole::User, turn.user_text, None, None, now)?;
        tx.insert_conversation_message(id, MessageRole::Assistant, turn.reply, None, None, now)?;
        tx.set_conversation_state(id, turn.state, now)?;
        Ok(id)
    })
}

/// Returns the id of a conversation, making it on first use.
pub fn ensure(store: &mut dyn Engine, ctx: &Context, conversation: &ConversationRef) -> Result<i64> {
    if let Some(id) = find(store, conversation)? {
        return Ok(id);
    }
    let now = ctx.now_ms();
    store.write(|tx| match tx.conversation_id(conversation.kind, &conversation.external_id)? {
        Some(id) => Ok(id),
        None => tx.create_conversation(conversation.kind, &conversation.external_id, &conversation.external_id, now),
    })
}

/// Returns a conversation by id.
pub fn get(store: &dyn Engine, id: i64) -> Result<Conversation> {
    store
        .reader()
        .conversation(id)?
        .ok_or_else(|| crate::error::Error::NotFound { what: "conversation", value: id.to_string() })
}

/// Where a bot's update came from, to commit with what it queued.
#[derive(Debug, Clone, Copy)]
pub struct Offset<'a> {
    /// The bot's name (`telegram`).
    pub bot: &'a str,
    /// The provider's update id.
    pub update_id: i64,
}

/// Returns the last update a bot has durably queued.
pub fn bot_offset(store: &dyn Engine, bot: &str) -> Result<Option<i64>> {
    store.reader().bot_offset(bot)
}

/// Queues a person's message in a conversation (made on first use) — and, for a bot,
/// the update it came in, in the same transaction (the turn records the message with
/// its reply when it runs): a crash before the commit leaves the update to be delivered again, a
/// crash after it never queues it twice. Returns `None` for an update already queued.
pub fn enqueue_incoming(
    store: &mut dyn Engine,
    ctx: &Context,
    conversation: &ConversationRef,
    payload: MessagePayload,
    offset: Option<Offset<'_>>,
) -> Result<Option<QueueItem>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        if let Some(o) = offset {
            if tx.bot_offset(o.bot)?.is_some_and(|done| o.update_id <= done) {
                return Ok(None);
            }
            tx.set_bot_offset(o.bot, o.update_id, now)?;
        }
        let id = match tx.conversation_id(conversation.kind, &conversation.external_id)? {
            Some(id) => id,
            None => {
                tx.create_conversation(conversation.kind, &conversation.external_id, &conversation.external_id, now)?
            }
        };
        let item = tx.enqueue(id, QueueKind::Message, None, &QueuePayload::Message(payload.clone()), now)?;
        tx.queue_item(item)?
            .map(Some)
            .ok_or_else(|| crate::error::Error::NotFound { what: "queue item", value: item.to_string() })
    })
}

/// Records that a bot saw an update it takes no action on (another chat, an empty
/// message), so it is not fetched again.
pub fn skip_update(store: &mut dyn Engine, ctx: &Context, bot: &str, update_id: i64) -> Result<()> {
    let now = ctx.now_ms();
    store.write(|tx| tx.set_bot_offset(bot, update_id, now))
}

/// Starts the next queue item of conversations of these kinds: a conversation whose
/// head is a person's message goes before one whose head is a firing (foreground chat
/// before background prompts), then the oldest. One item runs per conversation.
pub fn start_next(store: &mut dyn Engine, ctx: &Context, kinds: &[ConversationKind]) -> Result<Option<QueueItem>> {
    let heads = store.reader().startable_queue_heads(kinds)?;
    let pick = heads
        .iter()
        .filter(|h| h.kind == QueueKind::Message)
        .min_by_key(|h| (h.created_at, h.id))
        .or_else(|| heads.iter().min_by_key(|h| (h.created_at, h.id)))
        .map(|h| h.conversation_id);
    match pick {
        Some(conversation) => crate::ops::schedule::queue::take_next(store, ctx, conversation),
        None => Ok(None),
    }
}

/// Marks items left `running` by a runner that died (the bot was killed) as
/// interrupted — their Jobs too — and returns them, so the person can be told. They are
/// never run again: a reply may have been sent, an action done.
pub fn interrupt_stale(store: &mut dyn Engine, ctx: &Context, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>> {
    let now = ctx.now_ms();
    // On a store other runners share, a local conversation's item another daemon took a
    // moment ago is its own: only one older than the longest turn is taken for
    // abandoned. A Telegram chat has one runner whatever the store (Telegram answers a
    // second poller of a bot with 409), so what it finds running is its own dead one's.
    let taken_before = store.reader().is_shared().then(|| now - crate::ops::schedule::limits::RUNNER_ITEM_LEASE_MS);
    store.write(|tx| {
        let mut out = Vec::new();
        for item in tx.running_queue_items(kinds)? {
            if let Some(before) = taken_before
                && item.updated_at >= before
                && tx.conversation(item.conversation_id)?.is_some_and(|c| c.kind == ConversationKind::Local)
            {
                continue;
            }
            tx.set_queue_state(item.id, QueueState::Interrupted, now)?;
            if let Some(job_id) = item.job_id {
                let reason = "interrupted: the conversation runner stopped while this ran; not replayed";
                tx.interrupt_runs(job_id, reason, now)?;
                tx.set_job_state(job_id, crate::model::schedule::JobState::Interrupted, Some(reason), now)?;
            }
            out.push(tx.queue_item(item.id)?.unwrap_or(item));
        }
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, conversations};

    #[test]
    fn a_turn_makes_the_conversation_once_and_keeps_the_latest_state() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = Store::open(&dir.path().join("t.db")).expect("store");
        let ctx = crate::fixtures::ctx_at(0);
        let cli = ConversationRef { kind: ConversationKind::Local, external_id: "cli".into() };
        assert_eq!(find(&store, &cli).expect("find"), None);
        assert_eq!(state(&store, &cli).expect("state"), None);
        let a =
            record_turn(&mut store, &ctx, &cli, &TurnRecord { user_text: "hi", reply: "hello", state: "{\"n\":1}" })
                .expect("turn");
        let b = record_turn(&mut store, &ctx, &cli, &TurnRecord { user_text: "and", reply: "so", state: "{\"n\":2}" })
            .expect("turn");
        assert_eq!(a, b);
        assert_eq!(state(&store, &cli).expect("state").as_deref(), Some("{\"n\":2}"));
        let other = ConversationRef { kind: ConversationKind::Local, external_id: "work".into() };
        assert_eq!(state(&store, &other).expect("state"), None, "conversations are apart");
        let messages = conversations::messages(store.conn(), a, 10).expect("messages");
        assert_eq!(messages.len(), 4);
    }
}
