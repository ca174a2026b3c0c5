//! Schedule, Job, Run, artifact, conversation, message and queue rows (issue 5): every
//! SQL statement of scheduled tasks, behind functions named for what they do.
//!
//! Rows are read into the plain values below; JSON columns (trigger, missed policy,
//! action, snapshot) are decoded here, and a row this binary cannot read is an error
//! naming the row, never a panic. This module decides nothing: which firings to run,
//! overlap, retries and events are `ops::schedule`'s; it only reads and writes.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde_json::Value;
use tasks_schedule::MissedPolicy;

use super::Tx;
use crate::error::Result;
use crate::ops::schedule::spec::{Action, JobKind, JobSnapshot, JobState, RunState, When};

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

/// A Job as stored, with its task's key.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Row id.
    pub id: i64,
    /// The schedule.
    pub schedule_id: i64,
    /// The task's row id.
    pub task_id: i64,
    /// The task's key.
    pub task_key: String,
    /// Planned firing, run-now or event.
    pub kind: JobKind,
    /// The idempotency key (unique).
    pub idempotency_key: String,
    /// The schedule's plan version when the Job was made.
    pub plan_version: i64,
    /// The firing it stands for (the event's time for an event Job), epoch ms.
    pub scheduled_for: i64,
    /// For an event Job: the task the event was about (`task:<id>`).
    pub event_subject: Option<String>,
    /// State.
    pub state: JobState,
    /// Why it is in that state, when that needs saying.
    pub reason: Option<String>,
    /// What was frozen at creation.
    pub snapshot: JobSnapshot,
    /// Runs started so far.
    pub attempts: u32,
    /// For a deferred Job: when the next Run may start.
    pub retry_at: Option<i64>,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Last change, epoch ms.
    pub updated_at: i64,
    /// First Run's start.
    pub started_at: Option<i64>,
    /// When it reached a final state.
    pub finished_at: Option<i64>,
}

/// One attempt of a Job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Row id.
    pub id: i64,
    /// The Job.
    pub job_id: i64,
    /// 1 for the first Run.
    pub attempt: u32,
    /// State.
    pub state: RunState,
    /// Started, epoch ms.
    pub started_at: i64,
    /// Finished, epoch ms.
    pub finished_at: Option<i64>,
    /// The program's exit code.
    pub exit_code: Option<i32>,
    /// Captured output, cut to the budget.
    pub output: Option<String>,
    /// Bytes dropped beyond the budget.
    pub output_dropped: u64,
    /// What went wrong.
    pub error: Option<String>,
    /// The program's process id.
    pub pid: Option<u32>,
}

/// Something a Job produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// Row id.
    pub id: i64,
    /// The Job.
    pub job_id: i64,
    /// The Run, when one produced it.
    pub run_id: Option<i64>,
    /// `task_change`, `prompt` …
    pub kind: String,
    /// A file it wrote.
    pub path: Option<String>,
    /// Or a text.
    pub text: Option<String>,
    /// Created, epoch ms.
    pub created_at: i64,
}

/// A conversation: the local one, or a chat of a provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    /// Row id.
    pub id: i64,
    /// `local` or `telegram`.
    pub kind: String,
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
    /// `user`, `assistant`, `schedule`, `system`.
    pub role: String,
    /// The text.
    pub text: String,
    /// The task it is about.
    pub task_key: Option<String>,
    /// The Job it reports on.
    pub job_id: Option<i64>,
    /// Created, epoch ms.
    pub created_at: i64,
}

/// An item of a conversation's durable FIFO queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem {
    /// Row id.
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// `message` or `firing`.
    pub kind: String,
    /// The Job of a firing.
    pub job_id: Option<i64>,
    /// What to run: the message text, or the firing's task and prompt.
    pub payload: Value,
    /// `pending`, `running`, `done`, `removed`, `interrupted`.
    pub state: String,
    /// Order in the queue (smaller first, then id).
    pub position: i64,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Last change, epoch ms.
    pub updated_at: i64,
}

/// Returns a conversion error for a stored value this binary cannot read.
fn bad_column(idx: usize, what: &str, detail: impl std::fmt::Display) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        idx,
        rusqlite::types::Type::Text,
        format!("unreadable {what} in the store: {detail}").into(),
    )
}

fn json_column<T: serde::de::DeserializeOwned>(row: &Row<'_>, idx: usize, what: &str) -> rusqlite::Result<T> {
    let text: String = row.get(idx)?;
    serde_json::from_str(&text).map_err(|e| bad_column(idx, what, e))
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
pub(crate) struct NewSchedule<'a> {
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

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Serializing these plain enums and structs cannot fail (no maps with non-string
    // keys, no custom errors); "null" would be refused on read, never silently used.
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// Inserts a schedule and returns its id.
pub(crate) fn insert_schedule(tx: &Tx<'_>, s: &NewSchedule<'_>) -> Result<i64> {
    tx.execute(
        "INSERT INTO schedules (task_id, trigger_kind, trigger, zone, missed, action_kind, action, next_fire_at,
             event_cursor, max_active, conversation_id, created_at, created_by, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?12)",
        params![
            s.task_id,
            s.when.kind(),
            s.when.to_json().to_string(),
            s.zone,
            to_json(s.missed),
            s.action.kind(),
            to_json(s.action),
            s.next_fire_at,
            s.event_cursor,
            s.max_active,
            s.conversation_id,
            s.now,
            s.actor,
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Replaces a schedule's trigger, zone, policy, action and limits, bumping its plan
/// version; the paused flag, conversation and history stay.
pub(crate) fn replace_schedule(tx: &Tx<'_>, id: i64, s: &NewSchedule<'_>) -> Result<()> {
    tx.execute(
        "UPDATE schedules SET trigger_kind = ?2, trigger = ?3, zone = ?4, missed = ?5, action_kind = ?6,
             action = ?7, next_fire_at = ?8, event_cursor = ?9, max_active = ?10, conversation_id = ?11,
             plan_version = plan_version + 1, updated_at = ?12
         WHERE id = ?1",
        params![
            id,
            s.when.kind(),
            s.when.to_json().to_string(),
            s.zone,
            to_json(s.missed),
            s.action.kind(),
            to_json(s.action),
            s.next_fire_at,
            s.event_cursor,
            s.max_active,
            s.conversation_id,
            s.now,
        ],
    )?;
    Ok(())
}

/// Reads one schedule.
pub(crate) fn schedule(conn: &Connection, id: i64) -> Result<Schedule> {
    let sql = format!("SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id WHERE s.id = ?1");
    Ok(conn.query_row(&sql, [id], row_to_schedule)?)
}

/// Returns the task's live (not removed) schedule, if it has one.
pub(crate) fn live_schedule_of_task(conn: &Connection, task_id: i64) -> Result<Option<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.task_id = ?1 AND s.removed_at IS NULL"
    );
    Ok(conn.query_row(&sql, [task_id], row_to_schedule).optional()?)
}

/// Returns the task's most recent schedule, live or removed.
pub(crate) fn latest_schedule_of_task(conn: &Connection, task_id: i64) -> Result<Option<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.task_id = ?1 ORDER BY s.removed_at IS NOT NULL, s.id DESC LIMIT 1"
    );
    Ok(conn.query_row(&sql, [task_id], row_to_schedule).optional()?)
}

/// Lists schedules by id; removed ones only when asked.
pub(crate) fn list_schedules(conn: &Connection, include_removed: bool) -> Result<Vec<Schedule>> {
    let sql = format!(
        "SELECT {SCHEDULE_COLUMNS} FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE ?1 OR s.removed_at IS NULL ORDER BY s.id"
    );
    let mut stmt = conn.prepare(&sql)?;
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
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], row_to_schedule)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the earliest next firing of any live, unpaused schedule.
pub(crate) fn earliest_next_fire(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn.query_row("SELECT min(next_fire_at) FROM schedules WHERE removed_at IS NULL AND paused = 0", [], |r| {
        r.get(0)
    })?)
}

/// Sets the next planned firing.
pub(crate) fn set_next_fire_at(tx: &Tx<'_>, id: i64, next: Option<i64>, now: i64) -> Result<()> {
    tx.execute("UPDATE schedules SET next_fire_at = ?2, updated_at = ?3 WHERE id = ?1", params![id, next, now])?;
    Ok(())
}

/// Sets the event cursor (no `updated_at` bump: matching is not an edit).
pub(crate) fn set_event_cursor(tx: &Tx<'_>, id: i64, cursor: i64) -> Result<()> {
    tx.execute("UPDATE schedules SET event_cursor = ?2 WHERE id = ?1", params![id, cursor])?;
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
    tx.execute(
        "UPDATE schedules SET paused = ?2, next_fire_at = ?3, event_cursor = ?4, updated_at = ?5 WHERE id = ?1",
        params![id, paused, next_fire_at, event_cursor, now],
    )?;
    Ok(())
}

/// Marks a schedule removed: it fires nothing more; its row and history stay.
pub(crate) fn set_removed(tx: &Tx<'_>, id: i64, actor: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE schedules SET removed_at = ?2, removed_by = ?3, updated_at = ?2 WHERE id = ?1",
        params![id, now, actor],
    )?;
    Ok(())
}

/// Returns the newest `task_events` id (0 for none): where a new event trigger starts.
pub(crate) fn last_task_event_id(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT coalesce(max(id), 0) FROM task_events", [], |r| r.get(0))?)
}

const JOB_COLUMNS: &str = "j.id, j.schedule_id, j.task_id, t.key, j.kind, j.idempotency_key, j.plan_version,
    j.scheduled_for, j.event_subject, j.state, j.reason, j.snapshot, j.attempts, j.retry_at, j.created_at,
    j.updated_at, j.started_at, j.finished_at";

fn row_to_job(row: &Row<'_>) -> rusqlite::Result<Job> {
    let kind: String = row.get(4)?;
    let state: String = row.get(9)?;
    Ok(Job {
        id: row.get(0)?,
        schedule_id: row.get(1)?,
        task_id: row.get(2)?,
        task_key: row.get(3)?,
        kind: JobKind::parse(&kind).ok_or_else(|| bad_column(4, "job kind", &kind))?,
        idempotency_key: row.get(5)?,
        plan_version: row.get(6)?,
        scheduled_for: row.get(7)?,
        event_subject: row.get(8)?,
        state: JobState::parse(&state).ok_or_else(|| bad_column(9, "job state", &state))?,
        reason: row.get(10)?,
        snapshot: json_column(row, 11, "job snapshot")?,
        attempts: row.get(12)?,
        retry_at: row.get(13)?,
        created_at: row.get(14)?,
        updated_at: row.get(15)?,
        started_at: row.get(16)?,
        finished_at: row.get(17)?,
    })
}

/// The values of a new Job row.
pub(crate) struct NewJob<'a> {
    pub schedule_id: i64,
    pub task_id: i64,
    pub kind: JobKind,
    pub key: &'a str,
    pub plan_version: i64,
    pub scheduled_for: i64,
    pub event_subject: Option<&'a str>,
    pub state: JobState,
    pub reason: Option<&'a str>,
    pub snapshot: &'a JobSnapshot,
    pub now: i64,
}

/// Inserts a Job unless its idempotency key exists; returns the new id, or `None`.
pub(crate) fn insert_job(tx: &Tx<'_>, j: &NewJob<'_>) -> Result<Option<i64>> {
    let finished = (!j.state.is_active()).then_some(j.now);
    Ok(tx
        .query_row(
            "INSERT INTO jobs (schedule_id, task_id, kind, action_kind, idempotency_key, plan_version, scheduled_for,
                 event_subject, state, reason, snapshot, created_at, updated_at, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?13)
             ON CONFLICT (idempotency_key) DO NOTHING
             RETURNING id",
            params![
                j.schedule_id,
                j.task_id,
                j.kind.as_str(),
                j.snapshot.action.kind(),
                j.key,
                j.plan_version,
                j.scheduled_for,
                j.event_subject,
                j.state.as_str(),
                j.reason,
                to_json(j.snapshot),
                j.now,
                finished,
            ],
            |r| r.get(0),
        )
        .optional()?)
}

/// Reads one Job.
pub(crate) fn job(conn: &Connection, id: i64) -> Result<Option<Job>> {
    let sql = format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.id = ?1");
    Ok(conn.query_row(&sql, [id], row_to_job).optional()?)
}

/// Reads the Job with this idempotency key.
pub(crate) fn job_by_key(conn: &Connection, key: &str) -> Result<Option<Job>> {
    let sql = format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.idempotency_key = ?1");
    Ok(conn.query_row(&sql, [key], row_to_job).optional()?)
}

/// Lists Jobs newest first, of one task and/or in one state, at most `limit`.
pub(crate) fn list_jobs(
    conn: &Connection,
    task_id: Option<i64>,
    state: Option<JobState>,
    limit: usize,
) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE (?1 IS NULL OR j.task_id = ?1) AND (?2 IS NULL OR j.state = ?2)
         ORDER BY j.id DESC LIMIT ?3"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params![task_id, state.map(JobState::as_str), limit as i64], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the active Jobs of a schedule (queued, running, waiting, deferred), oldest first.
pub(crate) fn active_jobs(conn: &Connection, schedule_id: i64) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.schedule_id = ?1 AND j.state IN ('queued', 'running', 'waiting_approval', 'deferred')
         ORDER BY j.id"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([schedule_id], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the Jobs in `running` whose action the daemon runs (due, command).
pub(crate) fn daemon_running_jobs(conn: &Connection) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.state = 'running' AND j.action_kind IN ('due', 'command') ORDER BY j.id"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the oldest Job the daemon may start now: a queued due/command Job, or a
/// deferred one whose retry time has come, of a schedule with a free active slot.
///
/// `skip` lists Jobs the caller already looked at and passed over.
pub(crate) fn next_startable_job(conn: &Connection, now: i64, skip: &[i64]) -> Result<Option<Job>> {
    let skip_json = serde_json::to_string(skip).unwrap_or_else(|_| "[]".into());
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id JOIN schedules s ON s.id = j.schedule_id
         WHERE j.action_kind IN ('due', 'command')
           AND (j.state = 'queued' OR (j.state = 'deferred' AND j.retry_at <= ?1))
           AND j.id NOT IN (SELECT value FROM json_each(?2))
           AND (SELECT count(*) FROM jobs r WHERE r.schedule_id = j.schedule_id AND r.state = 'running')
               < s.max_active
         ORDER BY j.id LIMIT 1"
    );
    Ok(conn.query_row(&sql, params![now, skip_json], row_to_job).optional()?)
}

/// Returns when the next deferred Job may retry, if any waits.
pub(crate) fn next_retry_at(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn.query_row("SELECT min(retry_at) FROM jobs WHERE state = 'deferred'", [], |r| r.get(0))?)
}

/// Returns the `scheduled_for` of the schedule's latest event Job, of one subject when
/// given (the dedupe window) or of any (the cooldown).
pub(crate) fn last_event_job_at(conn: &Connection, schedule_id: i64, subject: Option<&str>) -> Result<Option<i64>> {
    Ok(conn.query_row(
        "SELECT max(scheduled_for) FROM jobs
         WHERE schedule_id = ?1 AND kind = 'event' AND state <> 'skipped' AND (?2 IS NULL OR event_subject = ?2)",
        params![schedule_id, subject],
        |r| r.get(0),
    )?)
}

/// Sets a Job's state and reason; a final state also sets `finished_at`.
pub(crate) fn set_job_state(tx: &Tx<'_>, id: i64, state: JobState, reason: Option<&str>, now: i64) -> Result<()> {
    let finished = (!state.is_active()).then_some(now);
    tx.execute(
        "UPDATE jobs SET state = ?2, reason = ?3, updated_at = ?4, finished_at = ?5, retry_at = NULL WHERE id = ?1",
        params![id, state.as_str(), reason, now, finished],
    )?;
    Ok(())
}

/// Marks a Job deferred until `retry_at`.
pub(crate) fn defer_job(tx: &Tx<'_>, id: i64, retry_at: i64, reason: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE jobs SET state = 'deferred', reason = ?2, retry_at = ?3, updated_at = ?4 WHERE id = ?1",
        params![id, reason, retry_at, now],
    )?;
    Ok(())
}

/// Marks a Job running and counts one more Run; returns the Run's attempt number.
pub(crate) fn start_job(tx: &Tx<'_>, id: i64, now: i64) -> Result<u32> {
    Ok(tx.query_row(
        "UPDATE jobs SET state = 'running', reason = NULL, retry_at = NULL, attempts = attempts + 1,
             started_at = coalesce(started_at, ?2), updated_at = ?2
         WHERE id = ?1 RETURNING attempts",
        params![id, now],
        |r| r.get(0),
    )?)
}

const RUN_COLUMNS: &str =
    "id, job_id, attempt, state, started_at, finished_at, exit_code, output, output_dropped, error, pid";

fn row_to_run(row: &Row<'_>) -> rusqlite::Result<Run> {
    let state: String = row.get(3)?;
    Ok(Run {
        id: row.get(0)?,
        job_id: row.get(1)?,
        attempt: row.get(2)?,
        state: RunState::parse(&state).ok_or_else(|| bad_column(3, "run state", &state))?,
        started_at: row.get(4)?,
        finished_at: row.get(5)?,
        exit_code: row.get(6)?,
        output: row.get(7)?,
        output_dropped: row.get::<_, i64>(8)?.max(0) as u64,
        error: row.get(9)?,
        pid: row.get(10)?,
    })
}

/// Inserts a running Run and returns its id.
pub(crate) fn insert_run(tx: &Tx<'_>, job_id: i64, attempt: u32, now: i64) -> Result<i64> {
    tx.execute(
        "INSERT INTO runs (job_id, attempt, state, started_at) VALUES (?1, ?2, 'running', ?3)",
        params![job_id, attempt, now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Returns a Job's Runs, first attempt first.
pub(crate) fn runs_of_job(conn: &Connection, job_id: i64) -> Result<Vec<Run>> {
    let sql = format!("SELECT {RUN_COLUMNS} FROM runs WHERE job_id = ?1 ORDER BY attempt");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([job_id], row_to_run)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The end of a Run.
pub(crate) struct RunEnd<'a> {
    pub state: RunState,
    pub exit_code: Option<i32>,
    pub output: Option<&'a str>,
    pub output_dropped: u64,
    pub error: Option<&'a str>,
}

/// Records how a Run ended.
pub(crate) fn finish_run(tx: &Tx<'_>, id: i64, end: &RunEnd<'_>, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE runs SET state = ?2, exit_code = ?3, output = ?4, output_dropped = ?5, error = ?6, finished_at = ?7
         WHERE id = ?1",
        params![
            id,
            end.state.as_str(),
            end.exit_code,
            end.output,
            i64::try_from(end.output_dropped).unwrap_or(i64::MAX),
            end.error,
            now
        ],
    )?;
    Ok(())
}

/// Marks every running Run of a Job interrupted.
pub(crate) fn interrupt_runs(tx: &Tx<'_>, job_id: i64, error: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE runs SET state = 'interrupted', error = ?2, finished_at = ?3 WHERE job_id = ?1 AND state = 'running'",
        params![job_id, error, now],
    )?;
    Ok(())
}

/// Records the process id of a Run's program.
pub(crate) fn set_run_pid(tx: &Tx<'_>, id: i64, pid: u32) -> Result<()> {
    tx.execute("UPDATE runs SET pid = ?2 WHERE id = ?1", params![id, pid])?;
    Ok(())
}

/// Inserts a text artifact of a Job.
pub(crate) fn insert_artifact(
    tx: &Tx<'_>,
    job_id: i64,
    run_id: Option<i64>,
    kind: &str,
    text: &str,
    now: i64,
) -> Result<()> {
    tx.execute(
        "INSERT INTO artifacts (job_id, run_id, kind, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![job_id, run_id, kind, text, now],
    )?;
    Ok(())
}

/// Returns a Job's artifacts, oldest first.
pub(crate) fn artifacts_of_job(conn: &Connection, job_id: i64) -> Result<Vec<Artifact>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, job_id, run_id, kind, path, text, created_at FROM artifacts WHERE job_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([job_id], |r| {
        Ok(Artifact {
            id: r.get(0)?,
            job_id: r.get(1)?,
            run_id: r.get(2)?,
            kind: r.get(3)?,
            path: r.get(4)?,
            text: r.get(5)?,
            created_at: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the local conversation, creating it on first use.
pub(crate) fn local_conversation(tx: &Tx<'_>, title: &str, now: i64) -> Result<i64> {
    let found: Option<i64> = tx
        .query_row("SELECT id FROM conversations WHERE kind = 'local' ORDER BY id LIMIT 1", [], |r| r.get(0))
        .optional()?;
    if let Some(id) = found {
        return Ok(id);
    }
    tx.execute("INSERT INTO conversations (kind, title, created_at) VALUES ('local', ?1, ?2)", params![title, now])?;
    Ok(tx.last_insert_rowid())
}

/// Reads one conversation.
pub(crate) fn conversation(conn: &Connection, id: i64) -> Result<Option<Conversation>> {
    Ok(conn
        .query_row("SELECT id, kind, title, external_id, created_at FROM conversations WHERE id = ?1", [id], |r| {
            Ok(Conversation {
                id: r.get(0)?,
                kind: r.get(1)?,
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
        .query_row("SELECT id FROM conversations WHERE kind = 'local' ORDER BY id LIMIT 1", [], |r| r.get(0))
        .optional()?)
}

/// Appends a message to a conversation.
pub(crate) fn insert_message(
    tx: &Tx<'_>,
    conversation_id: i64,
    role: &str,
    text: &str,
    task_id: Option<i64>,
    job_id: Option<i64>,
    now: i64,
) -> Result<i64> {
    tx.execute(
        "INSERT INTO conversation_messages (conversation_id, role, text, task_id, job_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![conversation_id, role, text, task_id, job_id, now],
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
            role: r.get(2)?,
            text: r.get(3)?,
            task_key: r.get(4)?,
            job_id: r.get(5)?,
            created_at: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

const QUEUE_COLUMNS: &str = "id, conversation_id, kind, job_id, payload, state, position, created_at, updated_at";

fn row_to_item(row: &Row<'_>) -> rusqlite::Result<QueueItem> {
    Ok(QueueItem {
        id: row.get(0)?,
        conversation_id: row.get(1)?,
        kind: row.get(2)?,
        job_id: row.get(3)?,
        payload: json_column(row, 4, "queue payload")?,
        state: row.get(5)?,
        position: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

/// Appends a pending item at the tail of a conversation's queue; returns its id.
pub(crate) fn enqueue(
    tx: &Tx<'_>,
    conversation_id: i64,
    kind: &str,
    job_id: Option<i64>,
    payload: &Value,
    now: i64,
) -> Result<i64> {
    tx.execute(
        "INSERT INTO conversation_queue (conversation_id, kind, job_id, payload, state, position, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'pending',
                 (SELECT coalesce(max(position), 0) + 1 FROM conversation_queue WHERE conversation_id = ?1), ?5, ?5)",
        params![conversation_id, kind, job_id, payload.to_string(), now],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Reads one queue item.
pub(crate) fn queue_item(conn: &Connection, id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE id = ?1");
    Ok(conn.query_row(&sql, [id], row_to_item).optional()?)
}

/// Returns the queue item of a firing's Job.
pub(crate) fn queue_item_of_job(conn: &Connection, job_id: i64) -> Result<Option<QueueItem>> {
    let sql = format!("SELECT {QUEUE_COLUMNS} FROM conversation_queue WHERE job_id = ?1 ORDER BY id DESC LIMIT 1");
    Ok(conn.query_row(&sql, [job_id], row_to_item).optional()?)
}

/// Returns the running and pending items, in queue order, of one conversation or all.
pub(crate) fn live_queue(conn: &Connection, conversation_id: Option<i64>) -> Result<Vec<QueueItem>> {
    let sql = format!(
        "SELECT {QUEUE_COLUMNS} FROM conversation_queue
         WHERE state IN ('pending', 'running') AND (?1 IS NULL OR conversation_id = ?1)
         ORDER BY conversation_id, state <> 'running', position, id"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([conversation_id], row_to_item)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets a queue item's state.
pub(crate) fn set_queue_state(tx: &Tx<'_>, id: i64, state: &str, now: i64) -> Result<()> {
    tx.execute("UPDATE conversation_queue SET state = ?2, updated_at = ?3 WHERE id = ?1", params![id, state, now])?;
    Ok(())
}

/// Moves a queue item ahead of every live item of its conversation.
pub(crate) fn move_to_head(tx: &Tx<'_>, id: i64, conversation_id: i64, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE conversation_queue SET updated_at = ?3, position =
             (SELECT coalesce(min(position), 1) - 1 FROM conversation_queue
              WHERE conversation_id = ?2 AND state IN ('pending', 'running'))
         WHERE id = ?1",
        params![id, conversation_id, now],
    )?;
    Ok(())
}
