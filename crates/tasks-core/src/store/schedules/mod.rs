//! Schedule rows (issue 5): every SQL statement about `schedules`, behind functions
//! named for what they do. JSON columns (trigger, missed policy, action) are decoded
//! here, and a row this binary cannot read is an error naming the row, never a panic.
//! This module decides nothing: which firings to run, overlap, retries and events are
//! `ops::schedule`'s; it only reads and writes.

use rusqlite::{Connection, OptionalExtension, Row, params};
use tasks_schedule::MissedPolicy;

use super::columns::{bad_column, json_column, to_json};
use super::{Cached, Tx};
use crate::error::Result;
use crate::model::schedule::{Action, When};

/// A schedule as stored, with its task's key and title.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Row id.
    pub id: i64,
    /// The task's row id.
    pub task_id: i64,
    /// The task's key.
    pub task_key: String,
    /// The task's title.
    pub task_title: String,
    /// When it fires.
    pub when: When,
    /// The IANA zone of a time trigger (stored for event triggers too: the zone that
    /// decides the local date of a `due` action).
    pub zone: String,
    /// What to do with firings missed while no daemon ran.
    pub missed: MissedPolicy,
    /// What a firing does.
    pub action: Action,
    /// Bumped by every edit.
    pub plan_version: i64,
    /// The next planned firing (time triggers), epoch ms.
    pub next_fire_at: Option<i64>,
    /// The last `task_events` id matched (event triggers).
    pub event_cursor: i64,
    /// Paused schedules fire nothing.
    pub paused: bool,
    /// Jobs of this schedule that may be active at once.
    pub max_active: u32,
    /// The conversation firings post into.
    pub conversation_id: i64,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Who created it.
    pub created_by: String,
    /// Last change, epoch ms.
    pub updated_at: i64,
    /// When it was removed (it fires nothing after that).
    pub removed_at: Option<i64>,
}

impl Schedule {
    /// Its state as people read it: `removed`, `paused` or `active`.
    pub fn state_name(&self) -> &'static str {
        if self.removed_at.is_some() {
            "removed"
        } else if self.paused {
            "paused"
        } else {
            "active"
        }
    }
}

const SCHEDULE_COLUMNS: &str = "s.id, s.task_id, t.key, t.title, s.trigger_kind, s.trigger, s.zone, s.missed,
    s.action, s.plan_version, s.next_fire_at, s.event_cursor, s.paused, s.max_active, s.conversation_id,
    s.created_at, s.created_by, s.updated_at, s.removed_at";

fn row_to_schedule(row: &Row<'_>) -> rusqlite::Result<Schedule> {
    let kind: String = row.get(4)?;
    let trigger: String = row.get(5)?;
    let when = When::from_stored(&kind, &trigger).map_err(|e| bad_column(5, "trigger", e))?;
    Ok(Schedule {
        id: row.get(0)?,
        task_id: row.get(1)?,
        task_key: row.get(2)?,
        task_title: row.get(3)?,
        when,
        zone: row.get(6)?,
        missed: json_column(row, 7, "missed policy")?,
        action: json_column(row, 8, "action")?,
        plan_version: row.get(9)?,
        next_fire_at: row.get(10)?,
        event_cursor: row.get(11)?,
        paused: row.get(12)?,
        max_active: row.get(13)?,
        conversation_id: row.get(14)?,
        created_at: row.get(15)?,
        created_by: row.get(16)?,
        updated_at: row.get(17)?,
        removed_at: row.get(18)?,
    })
}

/// The values of a new schedule row.
#[allow(missing_docs)] // one per column of `schedules`, documented on `Schedule`
pub struct NewSchedule<'a> {
    pub task_id: i64,
    pub when: &'a When,
    pub zone: &'a str,
    pub missed: &'a MissedPolicy,
    pub action: &'a Action,
    pub next_fire_at: Option<i64>,
    pub event_cursor: i64,
    pub max_active: u32,
    pub conversation_id: i64,
    pub actor: &'a str,
    pub now: i64,
}

/// The values a schedule's insert and replace both write, in this order: trigger kind,
/// trigger, zone, missed policy, action kind, action, next firing, event cursor, active
/// cap, conversation, `updated_at` (the PostgreSQL store's `ScheduleValues`, in kind).
fn schedule_values(s: &NewSchedule<'_>) -> [rusqlite::types::Value; 11] {
    use rusqlite::types::Value;
    [
        Value::Text(s.when.kind().to_string()),
        Value::Text(s.when.to_json().to_string()),
        Value::Text(s.zone.to_string()),
        Value::Text(to_json(s.missed)),
        Value::Text(s.action.kind().to_string()),
        Value::Text(to_json(s.action)),
        s.next_fire_at.map_or(Value::Null, Value::Integer),
        Value::Integer(s.event_cursor),
        Value::Integer(i64::from(s.max_active)),
        Value::Integer(s.conversation_id),
        Value::Integer(s.now),
    ]
}

/// Inserts a schedule and returns its id.
pub(crate) fn insert_schedule(tx: &Tx<'_>, s: &NewSchedule<'_>) -> Result<i64> {
    use rusqlite::types::Value;
    let rest = [Value::Integer(s.task_id), Value::Text(s.actor.to_string())];
    tx.exec_cached(
        "INSERT INTO schedules (trigger_kind, trigger, zone, missed, action_kind, action, next_fire_at,
             event_cursor, max_active, conversation_id, updated_at, task_id, created_at, created_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?11, ?13)",
        rusqlite::params_from_iter(schedule_values(s).iter().chain(&rest)),
    )?;
    Ok(tx.last_insert_rowid())
}

/// Replaces a schedule's trigger, zone, policy, action and limits, bumping its plan
/// version; the paused flag, conversation and history stay.
pub(crate) fn replace_schedule(tx: &Tx<'_>, id: i64, s: &NewSchedule<'_>) -> Result<()> {
    let rest = [rusqlite::types::Value::Integer(id)];
    tx.exec_cached(
        "UPDATE schedules SET trigger_kind = ?1, trigger = ?2, zone = ?3, missed = ?4, action_kind = ?5,
             action = ?6, next_fire_at = ?7, event_cursor = ?8, max_active = ?9, conversation_id = ?10,
             plan_version = plan_version + 1, updated_at = ?11
         WHERE id = ?12",
        rusqlite::params_from_iter(schedule_values(s).iter().chain(&rest)),
    )?;
    Ok(())
}

/// Reads one schedule.
pub(crate) fn schedule(conn: &Connection, id: i64) -> Result<Schedule> {
    let sql = format!("SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id WHERE s.id = ?1");
    Ok(conn.query_row_cached(&sql, [id], row_to_schedule)?)
}

/// Returns the task's live (not removed) schedule, if it has one.
pub(crate) fn live_schedule_of_task(conn: &Connection, task_id: i64) -> Result<Option<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.task_id = ?1 AND s.removed_at IS NULL"
    );
    Ok(conn.query_row_cached(&sql, [task_id], row_to_schedule).optional()?)
}

/// Returns the task's most recent schedule, live or removed.
pub(crate) fn latest_schedule_of_task(conn: &Connection, task_id: i64) -> Result<Option<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.task_id = ?1 ORDER BY s.removed_at IS NOT NULL, s.id DESC LIMIT 1"
    );
    Ok(conn.query_row_cached(&sql, [task_id], row_to_schedule).optional()?)
}

/// Lists schedules by id; removed ones only when asked.
pub(crate) fn list_schedules(conn: &Connection, include_removed: bool) -> Result<Vec<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE ?1 OR s.removed_at IS NULL ORDER BY s.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([include_removed], row_to_schedule)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the ids of live, unpaused time schedules whose next firing is at or before `now`.
pub(crate) fn due_time_schedules(conn: &Connection, now: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM schedules
         WHERE removed_at IS NULL AND paused = 0 AND trigger_kind = 'time'
           AND next_fire_at IS NOT NULL AND next_fire_at <= ?1
         ORDER BY next_fire_at, id",
    )?;
    let rows = stmt.query_map([now], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the live, unpaused event schedules.
pub(crate) fn event_schedules(conn: &Connection) -> Result<Vec<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.removed_at IS NULL AND s.paused = 0 AND s.trigger_kind = 'event' ORDER BY s.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], row_to_schedule)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the earliest next firing of any live, unpaused schedule.
pub(crate) fn earliest_next_fire(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn.query_row_cached(
        "SELECT min(next_fire_at) FROM schedules WHERE removed_at IS NULL AND paused = 0",
        [],
        |r| r.get(0),
    )?)
}

/// Sets the next planned firing.
pub(crate) fn set_next_fire_at(tx: &Tx<'_>, id: i64, next: Option<i64>, now: i64) -> Result<()> {
    tx.exec_cached("UPDATE schedules SET next_fire_at = ?2, updated_at = ?3 WHERE id = ?1", params![id, next, now])?;
    Ok(())
}

/// Sets the event cursor (no `updated_at` bump: matching is not an edit).
pub(crate) fn set_event_cursor(tx: &Tx<'_>, id: i64, cursor: i64) -> Result<()> {
    tx.exec_cached("UPDATE schedules SET event_cursor = ?2 WHERE id = ?1", params![id, cursor])?;
    Ok(())
}

/// Pauses or resumes a schedule, setting where planning and matching continue from.
pub(crate) fn set_paused(
    tx: &Tx<'_>,
    id: i64,
    paused: bool,
    next_fire_at: Option<i64>,
    event_cursor: i64,
    now: i64,
) -> Result<()> {
    tx.exec_cached(
        "UPDATE schedules SET paused = ?2, next_fire_at = ?3, event_cursor = ?4, updated_at = ?5 WHERE id = ?1",
        params![id, paused, next_fire_at, event_cursor, now],
    )?;
    Ok(())
}

/// Marks a schedule removed: it fires nothing more; its row and history stay.
pub(crate) fn set_removed(tx: &Tx<'_>, id: i64, actor: &str, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE schedules SET removed_at = ?2, removed_by = ?3, updated_at = ?2 WHERE id = ?1",
        params![id, now, actor],
    )?;
    Ok(())
}

/// Returns the newest `task_events` id (0 for none): where a new event trigger starts.
pub(crate) fn last_task_event_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row_cached("SELECT coalesce(max(id), 0) FROM task_events", [], |r| r.get(0))?)
}

#[cfg(test)]
mod tests;
