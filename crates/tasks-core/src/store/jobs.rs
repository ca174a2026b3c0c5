//! Job, Run and artifact rows (issue 5): a firing is a Job, each attempt a Run, and
//! what a Job produced an artifact. Every statement about them, through the
//! connection's statement cache; states are the model's enums, the active ones listed
//! once ([`JobState::ACTIVE`]).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::columns::{bad_column, json_column, sql_list, to_json};
use super::{Cached, Tx};
use crate::error::Result;
use crate::model::schedule::{JobKind, JobSnapshot, JobState, RunState};

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
        .query_row_cached(
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
    Ok(conn.query_row_cached(&sql, [id], row_to_job).optional()?)
}

/// Reads the Job with this idempotency key.
pub(crate) fn job_by_key(conn: &Connection, key: &str) -> Result<Option<Job>> {
    let sql = format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.idempotency_key = ?1");
    Ok(conn.query_row_cached(&sql, [key], row_to_job).optional()?)
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
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![task_id, state.map(JobState::as_str), limit as i64], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the active Jobs of a schedule (queued, running, waiting, deferred), oldest first.
pub(crate) fn active_jobs(conn: &Connection, schedule_id: i64) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.schedule_id = ?1 AND j.state IN ({}) ORDER BY j.id",
        sql_list(JobState::ACTIVE.iter().map(|s| s.as_str()))
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([schedule_id], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the Jobs in `running` whose action the daemon runs (due, command).
pub(crate) fn daemon_running_jobs(conn: &Connection) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.state = 'running' AND j.action_kind IN ('due', 'command') ORDER BY j.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the oldest Job the daemon may start now: a queued due/command Job, or a
/// deferred one whose retry time has come, of a schedule with a free active slot.
///
/// `skip` lists Jobs the caller already looked at and passed over.
pub(crate) fn next_startable_job(conn: &Connection, now: i64, skip: &[i64]) -> Result<Option<Job>> {
    let skip_json = to_json(&skip);
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id JOIN schedules s ON s.id = j.schedule_id
         WHERE j.action_kind IN ('due', 'command')
           AND (j.state = 'queued' OR (j.state = 'deferred' AND j.retry_at <= ?1))
           AND j.id NOT IN (SELECT value FROM json_each(?2))
           AND (SELECT count(*) FROM jobs r WHERE r.schedule_id = j.schedule_id AND r.state = 'running')
               < s.max_active
         ORDER BY j.id LIMIT 1"
    );
    Ok(conn.query_row_cached(&sql, params![now, skip_json], row_to_job).optional()?)
}

/// Returns when the next deferred Job may retry, if any waits.
pub(crate) fn next_retry_at(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn.query_row_cached("SELECT min(retry_at) FROM jobs WHERE state = 'deferred'", [], |r| r.get(0))?)
}

/// Returns the `scheduled_for` of the schedule's latest event Job, of one subject when
/// given (the dedupe window) or of any (the cooldown).
pub(crate) fn last_event_job_at(conn: &Connection, schedule_id: i64, subject: Option<&str>) -> Result<Option<i64>> {
    Ok(conn.query_row_cached(
        "SELECT max(scheduled_for) FROM jobs
         WHERE schedule_id = ?1 AND kind = 'event' AND state <> 'skipped' AND (?2 IS NULL OR event_subject = ?2)",
        params![schedule_id, subject],
        |r| r.get(0),
    )?)
}

/// Sets a Job's state and reason; a final state also sets `finished_at`.
pub(crate) fn set_job_state(tx: &Tx<'_>, id: i64, state: JobState, reason: Option<&str>, now: i64) -> Result<()> {
    let finished = (!state.is_active()).then_some(now);
    tx.exec_cached(
        "UPDATE jobs SET state = ?2, reason = ?3, updated_at = ?4, finished_at = ?5, retry_at = NULL WHERE id = ?1",
        params![id, state.as_str(), reason, now, finished],
    )?;
    Ok(())
}

/// Marks a Job deferred until `retry_at`.
pub(crate) fn defer_job(tx: &Tx<'_>, id: i64, retry_at: i64, reason: &str, now: i64) -> Result<()> {
    tx.exec_cached(
        "UPDATE jobs SET state = 'deferred', reason = ?2, retry_at = ?3, updated_at = ?4 WHERE id = ?1",
        params![id, reason, retry_at, now],
    )?;
    Ok(())
}

/// Marks a Job running and counts one more Run; returns the Run's attempt number.
pub(crate) fn start_job(tx: &Tx<'_>, id: i64, now: i64) -> Result<u32> {
    Ok(tx.query_row_cached(
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
    tx.exec_cached(
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
    tx.exec_cached(
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
    tx.exec_cached(
        "UPDATE runs SET state = 'interrupted', error = ?2, finished_at = ?3 WHERE job_id = ?1 AND state = 'running'",
        params![job_id, error, now],
    )?;
    Ok(())
}

/// Records the process id of a Run's program.
pub(crate) fn set_run_pid(tx: &Tx<'_>, id: i64, pid: u32) -> Result<()> {
    tx.exec_cached("UPDATE runs SET pid = ?2 WHERE id = ?1", params![id, pid])?;
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
    tx.exec_cached(
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
