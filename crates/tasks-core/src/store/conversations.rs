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
        .query_row_cached(
            "SELECT id, kind, title, external_id, created_at FROM conversations WHERE id = ?1",
            [id],
            |r| {
                Ok(Conversation {
                    id: r.get(0)?,
                    kind: spelled_column(r, 1, "conversation kind")?,
                    title: r.get(2)?,
                    external_id: r.get(3)?,
                    created_at: r.get(4)?,
                })
            },
        )
        .optional()?)
}

/// Every conversation with the number of live schedules posting into it, oldest first.
pub(crate) fn conversations_with_schedules(conn: &Connection) -> Result<Vec<(Conversation, usize)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.kind, c.title, c.external_id, c.created_at, coalesce(n.live, 0)
         FROM conversations c
         LEFT JOIN (SELECT conversation_id, count(*) AS live FROM schedules
                    WHERE removed_at IS NULL GROUP BY conversation_id) n ON n.conversation_id = c.id
         ORDER BY c.id",
    )?;
    let rows = stmt.query_map([], |r| {
        let n: i64 = r.get(5)?;
        Ok((
            Conversation {
                id: r.get(0)?,
                kind: spelled_column(r, 1, "conversation kind")?,
                title: r.get(2)?,
                external_id: r.get(3)?,
                created_at: r.get(4)?,
            },
            usize::try_from(n).unwrap_or(0),
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
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

/// Returns the conversation of `kind` with this provider id (or name, for a local
/// one), if it exists.
pub(crate) fn find(conn: &Connection, kind: ConversationKind, external_id: &str) -> Result<Option<i64>> {
    Ok(conn
        .query_row_cached(
            "SELECT id FROM conversations WHERE kind = ?1 AND external_id = ?2",
            params![kind.as_str(), external_id],
            |r| r.get(0),
        )
        .optional()?)
}

/// Makes a conversation of `kind` with this provider id (or name); returns its id.
pub(crate) fn create(tx: &Tx<'_>, kind: ConversationKind, external_id: &str, title: &str, now: i64) -> Result<i64> {
    tx.exec_cached(
        "INSERT INTO conversations (kind, title, external_id, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![kind.as_str(), title, external_id, now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Returns a conversation's remembered state (JSON kept for tasks-chat), if any.
pub(crate) fn state(conn: &Connection, conversation_id: i64) -> Result<Option<String>> {
    Ok(conn
        .query_row_cached("SELECT state FROM conversation_state WHERE conversation_id = ?1", [conversation_id], |r| {
            r.get(0)
        })
        .optional()?)
}

/// Replaces a conversation's remembered state.
pub(crate) fn set_state(tx: &Tx<'_>, conversation_id: i64, state: &str, now: i64) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO conversation_state (conversation_id, state, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (conversation_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
        params![conversation_id, state, now],
    )?;
    Ok(())
}

/// Returns the last update id a bot has queued.
pub(crate) fn bot_offset(conn: &Connection, bot: &str) -> Result<Option<i64>> {
    Ok(conn.query_row_cached("SELECT update_id FROM bot_offsets WHERE bot = ?1", [bot], |r| r.get(0)).optional()?)
}

/// Records the last update id a bot has queued.
pub(crate) fn set_bot_offset(tx: &Tx<'_>, bot: &str, update_id: i64, now: i64) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO bot_offsets (bot, update_id, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (bot) DO UPDATE SET update_id = max(update_id, excluded.update_id), updated_at = excluded.updated_at",
        params![bot, update_id, now],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::store::Store;

    /// 2026-11-29T12:00:00Z, the clock of every write here.
    const NOW: i64 = 1_795_953_600_000;

    /// A store with one task and no conversation yet.
    fn store_with_task(dir: &std::path::Path) -> Store {
        let mut store = Store::open(&dir.join("t.db")).expect("store");
        crate::fixtures::add_task(&mut store, NOW, "Water the plants");
        store
    }

    fn post(store: &mut Store, conversation: i64, role: MessageRole, text: &str) -> i64 {
        store.write(|tx| insert_message(tx, conversation, role, text, None, None, NOW)).expect("insert")
    }

    fn texts(store: &Store, conversation: i64, limit: usize) -> Vec<String> {
        messages(store.conn(), conversation, limit).expect("messages").into_iter().map(|m| m.text).collect()
    }

    #[test]
    fn the_local_conversation_is_made_once_and_then_reused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_task(dir.path());
        assert_eq!(find_local_conversation(store.conn()).expect("find"), None);
        let first = store.write(|tx| local_conversation(tx, "local", NOW)).expect("make");
        let again = store.write(|tx| local_conversation(tx, "another title", NOW + 5)).expect("reuse");
        assert_eq!(again, first);
        assert_eq!(find_local_conversation(store.conn()).expect("find"), Some(first));
        let c = conversation(store.conn(), first).expect("read").expect("exists");
        let expected = Conversation {
            id: first,
            kind: ConversationKind::Local,
            title: "local".into(),
            external_id: None,
            created_at: NOW,
        };
        assert_eq!(c, expected, "the first call's title and time stay");
        let rows: i64 = store.conn().query_row("SELECT count(*) FROM conversations", [], |r| r.get(0)).expect("count");
        assert_eq!(rows, 1);
    }

    #[test]
    fn a_chat_of_a_provider_is_not_the_local_conversation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_task(dir.path());
        store
            .write(|tx| {
                Ok(tx.execute(
                    "INSERT INTO conversations (kind, title, external_id, created_at) VALUES ('telegram', 'chat', '42', 7)",
                    [],
                )?)
            })
            .expect("insert");
        let chat = conversation(store.conn(), 1).expect("read").expect("exists");
        assert_eq!(
            (chat.kind, chat.external_id.as_deref(), chat.created_at),
            (ConversationKind::Telegram, Some("42"), 7)
        );
        assert_eq!(find_local_conversation(store.conn()).expect("find"), None);
        let local = store.write(|tx| local_conversation(tx, "local", NOW)).expect("make");
        assert_eq!(local, 2);
        assert_eq!(conversation(store.conn(), 3).expect("read"), None);
    }

    #[test]
    fn messages_come_back_oldest_first_and_a_limit_keeps_the_newest() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_task(dir.path());
        let local = store.write(|tx| local_conversation(tx, "local", NOW)).expect("make");
        for text in ["one", "two", "three", "four"] {
            post(&mut store, local, MessageRole::User, text);
        }
        assert_eq!(texts(&store, local, 10), ["one", "two", "three", "four"]);
        assert_eq!(texts(&store, local, 2), ["three", "four"]);
        assert_eq!(texts(&store, local, 1), ["four"]);
        assert!(texts(&store, local, 0).is_empty());
    }

    #[test]
    fn a_conversation_shows_only_its_own_messages() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_task(dir.path());
        let local = store.write(|tx| local_conversation(tx, "local", NOW)).expect("make");
        store
            .write(|tx| {
                Ok(tx.execute(
                    "INSERT INTO conversations (kind, title, external_id, created_at) VALUES ('telegram', 'chat', '42', 0)",
                    [],
                )?)
            })
            .expect("insert");
        post(&mut store, local, MessageRole::User, "mine");
        post(&mut store, 2, MessageRole::User, "theirs");
        post(&mut store, local, MessageRole::Assistant, "mine too");
        assert_eq!(texts(&store, local, 10), ["mine", "mine too"]);
        assert_eq!(texts(&store, 2, 10), ["theirs"]);
    }

    #[test]
    fn every_role_reads_back_with_its_task_and_job() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_task(dir.path());
        let local = crate::fixtures::daily_schedule(&mut store, NOW, "INBOX-1");
        let job = crate::fixtures::run_now(&mut store, NOW, "INBOX-1", "k");
        let before = messages(store.conn(), local, 100).expect("messages").len();
        store
            .write(|tx| {
                for role in MessageRole::ALL {
                    insert_message(tx, local, *role, role.as_str(), Some(1), Some(job), NOW + 1)?;
                }
                insert_message(tx, local, MessageRole::User, "about nothing", None, None, NOW + 2)
            })
            .expect("insert");
        let read = messages(store.conn(), local, 100).expect("messages");
        let got: Vec<_> = read[before..]
            .iter()
            .map(|m| (m.role, m.text.clone(), m.task_key.clone(), m.job_id, m.created_at))
            .collect();
        let mut expected: Vec<_> = MessageRole::ALL
            .iter()
            .map(|r| (*r, r.as_str().to_string(), Some("INBOX-1".to_string()), Some(job), NOW + 1))
            .collect();
        expected.push((MessageRole::User, "about nothing".into(), None, None, NOW + 2));
        assert_eq!(got, expected);
        assert!(read.iter().all(|m| m.conversation_id == local));
    }
}
