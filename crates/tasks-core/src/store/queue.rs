//! The conversation queue's rows (SPEC §6): one durable FIFO per conversation, where
//! messages and prompt firings wait their turn. Order is `position` then id; a live
//! item is one in [`QueueState::LIVE`].

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::columns::{json_column, spelled_column, sql_list, to_json};
use super::{Cached, Tx};
use crate::error::Result;
use crate::model::conversation::{QueueKind, QueuePayload, QueueState};

/// An item of a conversation's durable FIFO queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem {
    /// Row id.
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// A message or a firing.
    pub kind: QueueKind,
    /// The Job of a firing.
    pub job_id: Option<i64>,
    /// What to run: the message text, or the firing's task and prompt.
    pub payload: QueuePayload,
    /// Where it is in its life.
    pub state: QueueState,
    /// Order in the queue (smaller first, then id).
    pub position: i64,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Last change, epoch ms.
    pub updated_at: i64,
}

const QUEUE_COLUMNS: &str = "id, conversation_id, kind, job_id, payload, state, position, created_at, updated_at";

fn row_to_item(row: &Row<'_>) -> rusqlite::Result<QueueItem> {
    Ok(QueueItem {
        id: row.get(0)?,
        conversation_id: row.get(1)?,
        kind: spelled_column(row, 2, "queue item kind")?,
        job_id: row.get(3)?,
        payload: json_column(row, 4, "queue payload")?,
        state: spelled_column(row, 5, "queue item state")?,
        position: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

/// Returns `'pending', 'running'`: the live states, for SQL.
fn live_states() -> String {
    sql_list(QueueState::LIVE.iter().map(|s| s.as_str()))
}

/// Appends a pending item at the tail of a conversation's queue; returns its id.
pub(crate) fn enqueue(
    tx: &Tx<'_>,
    conversation_id: i64,
    kind: QueueKind,
    job_id: Option<i64>,
    payload: &QueuePayload,
    now: i64,
) -> Result<i64> {
    tx.exec_cached(
        "INSERT INTO conversation_queue (conversation_id, kind, job_id, payload, state, position, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5,
                 (SELECT coalesce(max(position), 0) + 1 FROM conversation_queue WHERE conversation_id = ?1), ?6, ?6)",
        params![conversation_id, kind.as_str(), job_id, to_json(payload), QueueState::Pending.as_str(), now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Reads one queue item.
pub(crate) fn queue_item(conn: &Connection, id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE id = ?1");
    Ok(conn.query_row_cached(&sql, [id], row_to_item).optional()?)
}

/// Returns the queue item of a firing's Job.
pub(crate) fn queue_item_of_job(conn: &Connection, job_id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE job_id = ?1 ORDER BY id DESC LIMIT 1");
    Ok(conn.query_row_cached(&sql, [job_id], row_to_item).optional()?)
}

/// Returns the running and pending items, in queue order, of one conversation or all.
pub(crate) fn live_queue(conn: &Connection, conversation_id: Option<i64>) -> Result<Vec<QueueItem>> {
    let sql = format!(
        "SELECT {QUEUE_COLUMNS} FROM conversation_queue
         WHERE state IN ({}) AND (?1 IS NULL OR conversation_id = ?1)
         ORDER BY conversation_id, state <> ?2, position, id",
        live_states()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![conversation_id, QueueState::Running.as_str()], row_to_item)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the head pending item of every conversation of these kinds that has no
/// running item, oldest conversation first.
pub(crate) fn startable_heads(conn: &Connection, kinds: &[&'static str]) -> Result<Vec<QueueItem>> {
    let cols = QUEUE_COLUMNS.split(", ").map(|c| format!("q.{c}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT {cols} FROM conversation_queue q JOIN conversations c ON c.id = q.conversation_id
         WHERE q.state = 'pending' AND c.kind IN ({})
           AND NOT EXISTS (SELECT 1 FROM conversation_queue r WHERE r.conversation_id = q.conversation_id AND r.state = 'running')
         ORDER BY q.conversation_id, q.position, q.id",
        sql_list(kinds.iter().copied())
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], row_to_item)?.collect::<rusqlite::Result<Vec<_>>>()?;
    let mut heads: Vec<QueueItem> = Vec::new();
    for item in rows {
        if !heads.iter().any(|h| h.conversation_id == item.conversation_id) {
            heads.push(item);
        }
    }
    Ok(heads)
}

/// Returns the running items of conversations of these kinds.
pub(crate) fn running_items(conn: &Connection, kinds: &[&'static str]) -> Result<Vec<QueueItem>> {
    let cols = QUEUE_COLUMNS.split(", ").map(|c| format!("q.{c}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT {cols} FROM conversation_queue q JOIN conversations c ON c.id = q.conversation_id
         WHERE q.state = 'running' AND c.kind IN ({}) ORDER BY q.id",
        sql_list(kinds.iter().copied())
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], row_to_item)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets a queue item's state.
pub(crate) fn set_queue_state(tx: &Tx<'_>, id: i64, state: QueueState, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE conversation_queue SET state = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, state.as_str(), now],
    )?;
    Ok(())
}

/// Moves a queue item ahead of every live item of its conversation.
pub(crate) fn move_to_head(tx: &Tx<'_>, id: i64, conversation_id: i64, now: i64) -> Result<()> {
    let sql = format!(
        "UPDATE conversation_queue SET updated_at = ?3, position =
             (SELECT coalesce(min(position), 1) - 1 FROM conversation_queue
              WHERE conversation_id = ?2 AND state IN ({}))
         WHERE id = ?1",
        live_states()
    );
    tx.exec_cached(&sql, params![id, conversation_id, now])?;
    Ok(())
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::model::conversation::{FiringPayload, MessagePayload};
    use crate::store::Store;

    /// 2026-11-29T12:00:00Z, the clock of every write here.
    const NOW: i64 = 1_795_953_600_000;

    /// A store whose local conversation (`LOCAL`) holds nothing queued yet, a second
    /// conversation (`OTHER`), and a `run-now` Job (id `JOB`) to hang firings on.
    fn store_with_conversations(dir: &std::path::Path) -> Store {
        let mut store = Store::open(&dir.join("t.db")).expect("store");
        let key = crate::fixtures::add_task(&mut store, NOW, "Weekly digest");
        let conversation = crate::fixtures::daily_schedule(&mut store, NOW, &key);
        assert_eq!(conversation, LOCAL);
        let job = crate::fixtures::run_now(&mut store, NOW, &key, "k");
        assert_eq!(job, JOB);
        store
            .write(|tx| {
                Ok(tx.execute(
                    "INSERT INTO conversations (kind, title, external_id, created_at) VALUES ('telegram', 'chat', '42', 0)",
                    [],
                )?)
            })
            .expect("second conversation");
        store
    }

    const LOCAL: i64 = 1;
    const OTHER: i64 = 2;
    const JOB: i64 = 1;

    fn message(text: &str) -> QueuePayload {
        QueuePayload::Message(MessagePayload::text(text, "tester"))
    }

    fn push(store: &mut Store, conversation: i64, text: &str) -> i64 {
        store.write(|tx| enqueue(tx, conversation, QueueKind::Message, None, &message(text), NOW)).expect("enqueue")
    }

    fn item(store: &Store, id: i64) -> QueueItem {
        queue_item(store.conn(), id).expect("read").expect("the item exists")
    }

    fn set_state(store: &mut Store, id: i64, state: QueueState) {
        store.write(|tx| set_queue_state(tx, id, state, NOW + 1)).expect("state");
    }

    fn live_ids(store: &Store, conversation: Option<i64>) -> Vec<i64> {
        live_queue(store.conn(), conversation).expect("live").iter().map(|i| i.id).collect()
    }

    #[test]
    fn an_item_joins_the_tail_of_its_own_conversation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let a = push(&mut store, LOCAL, "a");
        let b = push(&mut store, LOCAL, "b");
        let elsewhere = push(&mut store, OTHER, "elsewhere");
        set_state(&mut store, b, QueueState::Done);
        let c = push(&mut store, LOCAL, "c");
        let positions: Vec<i64> = [a, b, elsewhere, c].iter().map(|id| item(&store, *id).position).collect();
        assert_eq!(positions, [1, 2, 1, 3], "each conversation counts on from its own last item, finished or not");
        let first = item(&store, a);
        assert_eq!((first.conversation_id, first.kind, first.job_id), (LOCAL, QueueKind::Message, None));
        assert_eq!((first.state, first.created_at, first.updated_at), (QueueState::Pending, NOW, NOW));
    }

    #[test]
    fn the_live_queue_shows_the_running_item_first_then_the_pending_ones_in_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let ids: Vec<i64> = ["a", "b", "c", "d", "e"].iter().map(|t| push(&mut store, LOCAL, t)).collect();
        let other = push(&mut store, OTHER, "x");
        set_state(&mut store, ids[1], QueueState::Done);
        set_state(&mut store, ids[2], QueueState::Running);
        set_state(&mut store, ids[3], QueueState::Removed);
        set_state(&mut store, ids[4], QueueState::Interrupted);
        let later = push(&mut store, LOCAL, "f");
        assert_eq!(live_ids(&store, Some(LOCAL)), [ids[2], ids[0], later]);
        assert_eq!(live_ids(&store, Some(OTHER)), [other]);
        assert_eq!(live_ids(&store, None), [ids[2], ids[0], later, other], "all conversations, one after another");
    }

    #[test]
    fn moving_to_the_head_puts_an_item_before_every_live_item_of_its_conversation() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let done = push(&mut store, LOCAL, "done");
        let running = push(&mut store, LOCAL, "running");
        let b = push(&mut store, LOCAL, "b");
        let c = push(&mut store, LOCAL, "c");
        push(&mut store, OTHER, "other"); // position 1 elsewhere: not this queue's
        set_state(&mut store, done, QueueState::Done);
        set_state(&mut store, running, QueueState::Running);
        store.write(|tx| move_to_head(tx, c, LOCAL, NOW + 5)).expect("move");
        let moved = item(&store, c);
        assert_eq!((moved.position, moved.updated_at), (1, NOW + 5), "one below the running item at 2");
        assert_eq!(live_ids(&store, Some(LOCAL)), [running, c, b]);
        store.write(|tx| move_to_head(tx, b, LOCAL, NOW + 6)).expect("move");
        assert_eq!(item(&store, b).position, 0);
        assert_eq!(live_ids(&store, Some(LOCAL)), [running, b, c]);
    }

    #[test]
    fn a_state_change_reads_back_with_its_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let id = push(&mut store, LOCAL, "a");
        for state in QueueState::ALL {
            store.write(|tx| set_queue_state(tx, id, *state, NOW + 9)).expect("state");
            let it = item(&store, id);
            assert_eq!((it.state, it.updated_at, it.created_at), (*state, NOW + 9, NOW));
        }
    }

    #[test]
    fn both_payload_kinds_read_back_as_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let firing = QueuePayload::Firing(FiringPayload {
            task: "INBOX-1".into(),
            job: JOB,
            prompt: "Summarize the week".into(),
            mode: "ask".into(),
            scheduled_for: "2026-11-29T12:00:00Z".into(),
        });
        let chat = message("Привет, what is due?");
        let (f, m) = store
            .write(|tx| {
                let f = enqueue(tx, LOCAL, QueueKind::Firing, Some(JOB), &firing, NOW)?;
                let m = enqueue(tx, LOCAL, QueueKind::Message, None, &chat, NOW)?;
                Ok((f, m))
            })
            .expect("enqueue");
        let (fi, mi) = (item(&store, f), item(&store, m));
        assert_eq!((fi.kind, fi.job_id, fi.payload), (QueueKind::Firing, Some(JOB), firing));
        assert_eq!((mi.kind, mi.job_id, mi.payload), (QueueKind::Message, None, chat));
        assert_eq!(queue_item_of_job(store.conn(), JOB).expect("read").map(|i| i.id), Some(f));
        assert_eq!(queue_item_of_job(store.conn(), JOB + 1).expect("read"), None);
        assert_eq!(queue_item(store.conn(), m + 1).expect("read"), None);
    }

    #[test]
    fn a_job_requeued_later_is_found_by_its_newest_item() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_conversations(dir.path());
        let payload = message("placeholder");
        let first = store.write(|tx| enqueue(tx, LOCAL, QueueKind::Firing, Some(JOB), &payload, NOW)).expect("enqueue");
        set_state(&mut store, first, QueueState::Interrupted);
        let second =
            store.write(|tx| enqueue(tx, LOCAL, QueueKind::Firing, Some(JOB), &payload, NOW)).expect("enqueue");
        assert_eq!(queue_item_of_job(store.conn(), JOB).expect("read").map(|i| i.id), Some(second));
    }
}
