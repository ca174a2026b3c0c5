//! Task rows on PostgreSQL: the columns every task read selects, with the same derived
//! values the SQLite store reads (project key, person handle, tags, blockers — `blocked`
//! computed from live `blocked-by` links on every read, never stored).
use postgres::Row;
use tasks_core::Error;
use tasks_core::model::Task;
use tasks_core::store::StoredTask;

use crate::store::{TxError, TxResult};

/// The columns every task read selects, in the order [`task_of`] reads them.
pub(crate) const TASK_COLUMNS: &str = "
    t.id, t.uuid, t.key, t.legacy_key, t.external_id,
    (SELECT p.key FROM projects p WHERE p.id = t.project_id), t.type, t.title, t.description,
    t.status, t.close_reason, t.priority, t.due_at, t.due_kind, t.category,
    (SELECT coalesce((SELECT i.handle FROM identities i WHERE i.person_id = t.person_id
                      ORDER BY i.id LIMIT 1), 'person:' || t.person_id)
      WHERE t.person_id IS NOT NULL),
    t.amount_minor, t.currency, t.chat, (SELECT r.key FROM tasks r WHERE r.id = t.reply_to_id),
    t.claimed_by, t.claimed_until, t.created_at, t.updated_at, t.closed_at, t.source,
    coalesce((SELECT json_agg(g.name ORDER BY g.name)::text FROM taggings tg JOIN tags g ON g.id = tg.tag_id
              WHERE tg.taggable_type = 'task' AND tg.taggable_id = t.id), '[]'),
    coalesce((SELECT json_agg(json_build_array(b.key, b.status) ORDER BY b.id)::text
              FROM links l JOIN tasks b ON b.id = l.to_task_id
              WHERE l.from_task_id = t.id AND l.kind = 'blocked-by' AND l.removed_at IS NULL), '[]'),
    t.due_instant";

/// The SQL condition "this task has an open blocker", for `t`.
pub(crate) const HAS_OPEN_BLOCKER: &str = "EXISTS (SELECT 1 FROM links l JOIN tasks b ON b.id = l.to_task_id
    WHERE l.from_task_id = t.id AND l.kind = 'blocked-by' AND l.removed_at IS NULL
      AND b.status IN ('open', 'in_progress'))";

/// Reads a task from a row of [`TASK_COLUMNS`] (the core builds it, as from SQLite).
pub(crate) fn task_of(row: &Row) -> TxResult<Task> {
    let stored = StoredTask {
        id: row.try_get(0)?,
        uuid: row.try_get(1)?,
        key: row.try_get(2)?,
        legacy_key: row.try_get(3)?,
        external_id: row.try_get(4)?,
        project: row.try_get(5)?,
        task_type: row.try_get(6)?,
        title: row.try_get(7)?,
        description: row.try_get(8)?,
        status: row.try_get(9)?,
        close_reason: row.try_get(10)?,
        priority: row.try_get(11)?,
        due_at: row.try_get(12)?,
        due_kind: row.try_get(13)?,
        category: row.try_get(14)?,
        person: row.try_get(15)?,
        amount_minor: row.try_get(16)?,
        currency: row.try_get(17)?,
        chat: row.try_get(18)?,
        reply_to: row.try_get(19)?,
        claimed_by: row.try_get(20)?,
        claimed_until: row.try_get(21)?,
        created_at: row.try_get(22)?,
        updated_at: row.try_get(23)?,
        closed_at: row.try_get(24)?,
        source: row.try_get(25)?,
        tags_json: row.try_get(26)?,
        blockers_json: row.try_get(27)?,
        due_instant: row.try_get(28)?,
    };
    stored.into_task().map_err(|(idx, message)| TxError::Core(Error::Postgres(format!("column {idx}: {message}"))))
}
