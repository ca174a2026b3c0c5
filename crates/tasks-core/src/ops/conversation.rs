//! Conversations as the chat edges use them (issue 11): find or make one by its name
//! (`tasks chat --conversation NAME`, default `cli`) or a provider's chat id, read what
//! it remembers, and record one turn — the person's message, the reply and the new
//! state — in one transaction.
//!
//! The state is JSON that `tasks-chat` writes and reads with one type; this module keeps
//! it as text. Schedules post into conversations too (`ops::schedule::queue`).

use crate::error::Result;
use crate::model::conversation::{ConversationKind, MessageRole};
use crate::ops::Context;
use crate::store::{Store, conversations};

/// A conversation the chat talks in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationRef {
    /// Where it lives.
    pub kind: ConversationKind,
    /// Its name (local) or the provider's chat id.
    pub external_id: String,
}

/// Returns the id of a conversation, if it exists (reads only).
pub fn find(store: &Store, conversation: &ConversationRef) -> Result<Option<i64>> {
    conversations::find(store.conn(), conversation.kind, &conversation.external_id)
}

/// Returns what a conversation remembers (the chat's JSON), if anything.
pub fn state(store: &Store, conversation: &ConversationRef) -> Result<Option<String>> {
    match find(store, conversation)? {
        Some(id) => conversations::state(store.conn(), id),
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
    store: &mut Store,
    ctx: &Context,
    conversation: &ConversationRef,
    turn: &TurnRecord<'_>,
) -> Result<i64> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let id = match conversations::find(tx, conversation.kind, &conversation.external_id)? {
            Some(id) => id,
            None => {
                conversations::create(tx, conversation.kind, &conversation.external_id, &conversation.external_id, now)?
            }
        };
        conversations::insert_message(tx, id, MessageRole::User, turn.user_text, None, None, now)?;
        conversations::insert_message(tx, id, MessageRole::Assistant, turn.reply, None, None, now)?;
        conversations::set_state(tx, id, turn.state, now)?;
        Ok(id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
