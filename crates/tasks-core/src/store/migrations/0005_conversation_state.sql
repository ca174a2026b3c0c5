-- 0005: what a conversation remembers between turns (issue 11): the last numbered list
-- it showed, so "the second one" and `/del 2` mean what the person saw, and a pending
-- question (a clarify) with the action it would run. One JSON value per conversation,
-- written and read by tasks-chat (its `ConversationState`); the store keeps it opaque.
CREATE TABLE conversation_state (
    conversation_id INTEGER PRIMARY KEY REFERENCES conversations(id),
    state           TEXT NOT NULL,
    updated_at      INTEGER NOT NULL
);
