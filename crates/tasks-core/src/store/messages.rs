//! Messages tasks come from, and the rule hits that make the one exact match of the
//! duplicate check (SPEC §5.2): the same rule on the same message is one task.

use crate::store::Cached;
use rusqlite::{OptionalExtension, params};

use super::Tx;
use crate::error::Result;
use crate::keys::MessageLocator;

/// Returns the id of the message with this locator, inserting it when new.
pub(crate) fn upsert(
    tx: &Tx<'_>,
    loc: &MessageLocator,
    author_person_id: Option<i64>,
    text: &str,
    now: i64,
) -> Result<i64> {
    if let Some(id) =
        tx.query_row_cached("SELECT id FROM messages WHERE locator = ?1", [loc.to_string()], |r| r.get(0)).optional()?
    {
        return Ok(id);
    }
    tx.exec_cached(
        "INSERT INTO messages (locator, provider, account, chat, external_id, author_person_id, sent_at, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![loc.to_string(), loc.provider, loc.account, loc.chat, loc.id, author_person_id, now, text],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Returns the task a rule already made from this message, if any.
pub(crate) fn rule_hit(tx: &rusqlite::Connection, message_id: i64, rule: &str) -> Result<Option<i64>> {
    Ok(tx
        .query_row_cached(
            "SELECT task_id FROM rule_hits WHERE message_id = ?1 AND rule = ?2",
            params![message_id, rule],
            |r| r.get(0),
        )
        .optional()?)
}

/// Records that `rule` on `message_id` made `task_id`.
pub(crate) fn insert_rule_hit(tx: &Tx<'_>, message_id: i64, rule: &str, task_id: i64, now: i64) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO rule_hits (message_id, rule, task_id, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![message_id, rule, task_id, now],
    )?;
    Ok(())
}
