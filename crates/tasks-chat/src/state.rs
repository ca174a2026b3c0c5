//! What a conversation remembers between turns: the last numbered list it showed (so
//! «вторую», "the first one" and `/del 2` mean what the person saw) and a question
//! waiting for its answer with the action the answer completes. One serde type, written
//! and read here only; the store keeps it as text (`ops::conversation`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::calls::Call;

/// One task of a numbered list, as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// Its key.
    pub key: String,
    /// Its title when shown.
    pub title: String,
}

/// A call kept until the person answers a question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredCall {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub arguments: Value,
}

impl StoredCall {
    /// Keeps a call.
    pub fn of(call: &Call) -> StoredCall {
        StoredCall { tool: call.tool().to_string(), arguments: call.arguments() }
    }

    /// Reads the call back; `None` when it no longer reads (a state written by an older
    /// version).
    pub fn call(&self) -> Option<Call> {
        Call::from_tool(&self.tool, &self.arguments).ok()
    }
}

/// What kind of answer a pending question waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waits {
    /// A choice among the options (a number, an ordinal, a key).
    Choice,
    /// "yes" to create a task the duplicate check held back.
    CreateAnyway,
}

/// A question waiting for its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The question asked.
    pub question: String,
    /// The options, numbered from 1.
    pub options: Vec<Shown>,
    /// What the answer completes (aimed at the first option until chosen).
    pub action: Option<StoredCall>,
    /// What kind of answer it waits for.
    pub waits: Waits,
    /// Which question this is (a count per conversation): a button carries it, so a
    /// press answers only the question it was shown with, and only once.
    #[serde(default)]
    pub nonce: u64,
}

/// The whole remembered state of a conversation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversationState {
    /// The last numbered list shown.
    #[serde(default)]
    pub shown: Vec<Shown>,
    /// The question waiting for an answer.
    #[serde(default)]
    pub pending: Option<Pending>,
    /// The language of the last message that showed one (a slash command or a bare
    /// number is answered in it).
    #[serde(default)]
    pub lang: Option<crate::offline::Lang>,
    /// How many questions the conversation has asked (the next one's nonce).
    #[serde(default)]
    pub asked: u64,
}

impl ConversationState {
    /// Reads a stored state; a state that does not read is an empty one (it only
    /// shortens a follow-up, it never decides an action alone).
    pub fn read(text: Option<&str>) -> ConversationState {
        text.and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default()
    }

    /// Returns the state as stored.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("the state is plain data")
    }

    /// Returns the keys of the last list shown.
    pub fn shown_keys(&self) -> Vec<String> {
        self.shown.iter().map(|s| s.key.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reads_back_and_its_call_too() {
        let call = Call::CloseTask { id: "HOME-1".into() };
        let state = ConversationState {
            shown: vec![Shown { key: "HOME-1".into(), title: "Позвонить Ане".into() }],
            pending: Some(Pending {
                question: "Which?".into(),
                options: vec![Shown { key: "HOME-1".into(), title: "a".into() }],
                action: Some(StoredCall::of(&call)),
                waits: Waits::Choice,
                nonce: 1,
            }),
            lang: Some(crate::offline::Lang::Ru),
            asked: 1,
        };
        let back = ConversationState::read(Some(&state.to_text()));
        assert_eq!(back, state);
        assert_eq!(back.pending.and_then(|p| p.action).and_then(|a| a.call()), Some(call));
        assert_eq!(ConversationState::read(Some("garbage")), ConversationState::default());
    }
}
