//! Conversation and message rows (SPEC §6, §7): the local conversation and chats of a
//! provider, and the messages each holds — the person's, the assistant's, schedules'.

use rusqlite::{Connection, OptionalExtension, params};

use super::columns::spelled_column;
use super::{Cached, Tx};
use crate::error::Result;
use crate::model::conversation::{ConversationKind, MessageRole};

/// A conversation: the local one, or a chat of a provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    /// Row id.
    pub id: i64,
    /// Local or a provider's chat.
    pub kind: ConversationKind,
    /// A name for people.
    pub title: String,
    /// The provider's chat id.
    pub external_id: Option<String>,
    /// Created, epoch ms.
    pub created_at: i64,
}

/// A message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Row id.
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// Who wrote it.
    pub role: MessageRole,
    /// The text.
    pub text: String,
    /// The task it is about.
    pub task_key: Option<String>,
    /// The Job it reports on.
    pub job_id: Option<i64>,
    /// Created, epoch ms.
    pub created_at: i64,
}

/// Returns the local conversation, creating it on first use.
pub(crate) fn local_conversation(tx: &Tx<'_>, title: &str, now: i64) -> Result<i64> {
    if let Some(id) = find_local_conversation(tx)? {
        return Ok(id);
    }
    tx.exec_cached(
        "INSERT INTO conversations (kind, title, created_at) VALUES (?1, ?2, ?3)",
        params![ConversationKind::Local.as_str(), title, now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Reads one conversation.
pub(crate) fn conversation(conn: &Connection, id: i64) -> Result<Option<Conversation>> {
    Ok(conn
        .query_row_cached("SELECT id, kind, title, external_id, created_at FROM conversations WHERE id = ?1", [id], |r| {
            Ok(Conversation {
                id: r.get(0)?,
                kind: spelled_column(r, 1, "conversation kind")?,
                title: r.get(2)?,
                external_id: r.get(3)?,
                created_at: r.get(4)?,
            })
        })
        .optional()?)
}

/// Returns the id of the first local conversation, if one exists (reads only).
pub(crate) fn find_local_conversation(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn
        .query_row_cached(
            "SELECT id FROM conversations WHERE kind = ?1 ORDER BY id LIMIT 1",
            [ConversationKind::Local.as_str()],
            |r| r.get(0),
        )
        .optional()?)
}

/// Appends a message to a conversation.
pub(crate) fn insert_message(
    tx: &Tx<'_>,
    conversation_id: i64,
    role: MessageRole,
    text: &str,
    task_id: Option<i64>,
    job_id: Option<i64>,
    now: i64,
) -> Result<i64> {
    tx.exec_cached(
        "INSERT INTO conversation_messages (conversation_id, role, text, task_id, job_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![conversation_id, role.as_str(), text, task_id, job_id, now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Returns the last `limit` messages of a conversation, oldest first.
pub(crate) fn messages(conn: &Connection, conversation_id: i64, limit: usize) -> Result<Vec<Message>> {
    let mut stmt = conn.prepare_cached(
        "SELECT * FROM (
             SELECT m.id, m.conversation_id, m.role, m.text, t.key, m.job_id, m.created_at
             FROM conversation_messages m LEFT JOIN tasks t ON t.id = m.task_id
             WHERE m.conversation_id = ?1 ORDER BY m.id DESC LIMIT ?2)
         ORDER BY id",
    )?;
    let rows = stmt.query_map(params![conversation_id, limit as i64], |r| {
        Ok(Message {
            id: r.get(0)?,
            conversation_id: r.get(1)?,
            role: spelled_column(r, 2, "message role")?,
            text: r.get(3)?,
            task_key: r.get(4)?,
            job_id: r.get(5)?,
            created_at: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
