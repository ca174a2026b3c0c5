//! What a conversation holds (SPEC §6, §7): its kind, the roles of its messages, and its
//! durable FIFO queue — the kinds, states and payloads of queue items — with their
//! stored spellings. Plain values; the rows are `store::conversations` and
//! `store::queue`.

use serde::{Deserialize, Serialize};

spelled_enum!(
    /// Where a conversation lives.
    ConversationKind, "conversation kind" {
        /// The terminal (`tasks chat`, schedule posts without a chat).
        Local = "local",
        /// A Telegram chat.
        Telegram = "telegram",
    }
);

spelled_enum!(
    /// Who wrote a conversation message.
    MessageRole, "message role" {
        /// The person.
        User = "user",
        /// The assistant's reply.
        Assistant = "assistant",
        /// A schedule's post (a firing, a change to the schedule).
        Schedule = "schedule",
        /// A note from `tasks` itself (an item removed, a promotion).
        System = "system",
    }
);

spelled_enum!(
    /// What a queue item is.
    QueueKind, "queue item kind" {
        /// A message the person sent, waiting for its answer.
        Message = "message",
        /// A schedule's firing (a prompt Job) waiting for its turn.
        Firing = "firing",
    }
);

spelled_enum!(
    /// Where a queue item is in its life.
    QueueState, "queue item state" {
        /// Waiting its turn.
        Pending = "pending",
        /// Being answered now (one per conversation).
        Running = "running",
        /// Answered.
        Done = "done",
        /// Removed by the person before it ran.
        Removed = "removed",
        /// Stopped so another item could go first.
        Interrupted = "interrupted",
    }
);

impl QueueState {
    /// The states of a live item — in the queue, shown, counted for position.
    pub const LIVE: &'static [QueueState] = &[QueueState::Pending, QueueState::Running];
}

/// What a queue item carries: the text of a message, or what a firing is to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum QueuePayload {
    /// A prompt Job's firing (the Job's own row holds the frozen snapshot).
    Firing(FiringPayload),
    /// A person's message.
    Message(MessagePayload),
}

/// A person's message in the queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessagePayload {
    /// The text.
    pub text: String,
    /// Who sent it (the actor).
    pub from: String,
    /// The bot message the person replied to (its text: the router's context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quoted: Option<String>,
    /// The provider's id of the message, to reply to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<i64>,
    /// A button press: the question it answers (see `tasks-chat`'s pending question).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub button: Option<u64>,
}

impl MessagePayload {
    /// A plain message.
    pub fn text(text: impl Into<String>, from: impl Into<String>) -> MessagePayload {
        MessagePayload { text: text.into(), from: from.into(), quoted: None, external_id: None, button: None }
    }
}

/// A prompt firing in the queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FiringPayload {
    /// The task key.
    pub task: String,
    /// The Job id.
    pub job: i64,
    /// The prompt text.
    pub prompt: String,
    /// `ask` or `execute`.
    pub mode: String,
    /// The firing's time, RFC 3339.
    pub scheduled_for: String,
}

impl QueuePayload {
    /// Returns a one-line description: the message text, or `KEY Job #n: prompt`.
    pub fn summary(&self) -> String {
        match self {
            QueuePayload::Message(m) => m.text.clone(),
            QueuePayload::Firing(f) => format!("{} Job #{}: {}", f.task, f.job, f.prompt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_read_back_as_the_kind_written() {
        let m = QueuePayload::Message(MessagePayload::text("hi", "me"));
        let f = QueuePayload::Firing(FiringPayload {
            task: "HRB-1".into(),
            job: 4,
            prompt: "summarize".into(),
            mode: "ask".into(),
            scheduled_for: "2026-12-01T09:00:00Z".into(),
        });
        for p in [m, f] {
            let text = serde_json::to_string(&p).expect("json");
            assert_eq!(serde_json::from_str::<QueuePayload>(&text).expect("read"), p);
        }
    }

    #[test]
    fn spellings_round_trip() {
        for s in QueueState::ALL {
            assert_eq!(s.as_str().parse::<QueueState>().expect("parse"), *s);
        }
        for r in MessageRole::ALL {
            assert_eq!(r.as_str().parse::<MessageRole>().expect("parse"), *r);
        }
    }
}
