//! Job, Run and artifact rows (issue 5): a firing is a Job, each attempt a Run, and
//! what a Job produced an artifact. Every statement about them, through the
//! connection's statement cache; states are the model's enums, the active ones listed
//! once ([`JobState::ACTIVE`]).

use std::collections::HashMap;

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
    /// The daemon running it (`host:pid:start`), when a daemon leased it.
    pub owner: Option<String>,
    /// Until when its owner's lease lasts, epoch ms; renewed while the Run goes on.
    pub lease_until: Option<i64>,
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
#[derive(Debug)]
pub struct NewJob<'a> {
    /// The schedule that fired.
    pub schedule_id: i64,
    /// Its task.
    pub task_id: i64,
    /// Scheduled, manual or event.
    pub kind: JobKind,
    /// The idempotency key (unique: one firing, one Job).
    pub key: &'a str,
    /// The schedule's plan version when it fired.
    pub plan_version: i64,
    /// The firing, epoch ms.
    pub scheduled_for: i64,
    /// What an event Job is about (`task:<id>`).
    pub event_subject: Option<&'a str>,
    /// Queued, or skipped with a reason.
    pub state: JobState,
    /// Why it is in that state.
    pub reason: Option<&'a str>,
    /// The schedule's action, trigger and zone, frozen now.
    pub snapshot: &'a JobSnapshot,
    /// Now, epoch ms.
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

/// Returns the newest Job of every schedule that has one, by schedule id (the Task
/// Center's "last progress": one query for every row, not one per schedule).
pub(crate) fn latest_jobs(conn: &Connection) -> Result<HashMap<i64, Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.id IN (SELECT max(id) FROM jobs GROUP BY schedule_id)"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], row_to_job)?;
    rows.map(|r| r.map(|j| (j.schedule_id, j)).map_err(Into::into)).collect()
}

/// Returns the Jobs in one state, oldest first (the waiting approvals of the Task Center).
pub(crate) fn jobs_in_state(conn: &Connection, state: JobState) -> Result<Vec<Job>> {
    let sql =
        format!("SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.state = ?1 ORDER BY j.id");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([state.as_str()], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Lists the Jobs of one schedule, newest first, at most `limit`.
pub(crate) fn jobs_of_schedule(conn: &Connection, schedule_id: i64, limit: usize) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.schedule_id = ?1 ORDER BY j.id DESC LIMIT ?2"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![schedule_id, limit as i64], row_to_job)?;
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

/// Returns the Jobs in `running` whose action the daemon runs (due, command); with
/// `lease_ended_before`, only those with no running Run whose lease lasts to then.
pub(crate) fn daemon_running_jobs(conn: &Connection, lease_ended_before: Option<i64>) -> Result<Vec<Job>> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN tasks t ON t.id = j.task_id
         WHERE j.state = 'running' AND j.action_kind IN ('due', 'command')
           AND (?1 IS NULL OR NOT EXISTS (SELECT 1 FROM runs r
                WHERE r.job_id = j.id AND r.state = 'running' AND r.lease_until >= ?1))
         ORDER BY j.id"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([lease_ended_before], row_to_job)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Gives a running Run an owner and a lease.
pub(crate) fn lease_run(tx: &Tx<'_>, id: i64, owner: &str, until: i64) -> Result<()> {
    tx.exec_cached("UPDATE runs SET owner = ?2, lease_until = ?3 WHERE id = ?1", params![id, owner, until])?;
    Ok(())
}

/// Renews the lease of every running Run an owner holds; returns how many.
pub(crate) fn renew_leases(tx: &Tx<'_>, owner: &str, until: i64) -> Result<usize> {
    Ok(tx.exec_cached(
        "UPDATE runs SET lease_until = ?2 WHERE owner = ?1 AND state = 'running'",
        params![owner, until],
    )?)
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

const RUN_COLUMNS: &str = "id, job_id, attempt, state, started_at, finished_at, exit_code, output, output_dropped, error, pid, owner, lease_until";

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
        owner: row.get(11)?,
        lease_until: row.get(12)?,
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
#[derive(Debug)]
pub struct RunEnd<'a> {
    /// How it ended.
    pub state: RunState,
    /// The program's exit code, when it exited.
    pub exit_code: Option<i32>,
    /// What it printed, within the budget.
    pub output: Option<&'a str>,
    /// Bytes dropped beyond the budget.
    pub output_dropped: u64,
    /// What went wrong, in words.
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

/// Sets (or clears) the calls a prompt Job waits to have approved.
pub(crate) fn set_pending_calls(tx: &Tx<'_>, id: i64, calls: Option<&str>) -> Result<()> {
    tx.exec_cached("UPDATE jobs SET pending_calls = ?2 WHERE id = ?1", params![id, calls])?;
    Ok(())
}

/// Returns the calls a prompt Job waits to have approved.
pub(crate) fn pending_calls(conn: &Connection, id: i64) -> Result<Option<String>> {
    Ok(conn
        .query_row_cached("SELECT pending_calls FROM jobs WHERE id = ?1", [id], |r| r.get::<_, Option<String>>(0))
        .optional()?
        .flatten())
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

#[cfg(test)]
mod tests {
    use jiff::civil::Time;
    use tasks_schedule::{MissedPolicy, Trigger};

    use super::*;
    use crate::model::schedule::{Action, CommandAction, PromptAction, PromptMode, When};
    use crate::store::schedules::{self, NewSchedule};
    use crate::store::{Store, conversations};

    /// 2026-11-29T12:00:00Z, the clock of every write here.
    const NOW: i64 = 1_795_953_600_000;

    /// Every Job state, in declaration order.
    const ALL_STATES: [JobState; 10] = [
        JobState::Queued,
        JobState::Running,
        JobState::WaitingApproval,
        JobState::Succeeded,
        JobState::Failed,
        JobState::Skipped,
        JobState::Deferred,
        JobState::Cancelled,
        JobState::Interrupted,
        JobState::OutcomeUnknown,
    ];

    /// A store with tasks 1..=n, the local conversation and one schedule per task (schedule
    /// i on task i), each allowing `max_active` active Jobs.
    fn store_with_schedules(dir: &std::path::Path, n: usize, max_active: u32) -> Store {
        let mut store = Store::open(&dir.join("t.db")).expect("store");
        for i in 0..n {
            crate::fixtures::add_task(&mut store, NOW, &format!("job owner {i}"));
        }
        let when = When::Time(Trigger::Daily { time: Time::constant(9, 0, 0, 0) });
        store
            .write(|tx| {
                let conversation_id = conversations::local_conversation(tx, "local", NOW)?;
                for task_id in 1..=n as i64 {
                    let new = NewSchedule {
                        task_id,
                        when: &when,
                        zone: "UTC",
                        missed: &MissedPolicy::RunOnce,
                        action: &Action::Due,
                        next_fire_at: Some(NOW),
                        event_cursor: 0,
                        max_active,
                        conversation_id,
                        actor: "tester",
                        now: NOW,
                    };
                    schedules::insert_schedule(tx, &new)?;
                }
                Ok(())
            })
            .expect("schedules");
        store
    }

    fn command() -> Action {
        Action::Command(CommandAction {
            argv: vec!["true".into()],
            workdir: "/".into(),
            env_allow: Vec::new(),
            timeout_seconds: 60,
            output_budget_bytes: 1024,
        })
    }

    fn prompt() -> Action {
        Action::Prompt(PromptAction {
            text: "Summarize".into(),
            mode: PromptMode::Ask,
            tools: "read_only".into(),
            approval: "never".into(),
            timeout_seconds: 60,
            max_tool_calls: 5,
            output_budget_bytes: 1024,
            max_model_calls: 6,
        })
    }

    fn snapshot(action: Action) -> JobSnapshot {
        JobSnapshot {
            task: "INBOX-1".into(),
            action,
            trigger: serde_json::json!({"type": "daily", "time": "09:00"}),
            trigger_text: "daily 09:00".into(),
            zone: "UTC".into(),
            plan_version: 1,
            conversation_id: 1,
        }
    }

    /// The values of a scheduled Job of schedule (and task) `schedule_id`.
    fn new_job<'a>(schedule_id: i64, key: &'a str, state: JobState, snapshot: &'a JobSnapshot) -> NewJob<'a> {
        NewJob {
            schedule_id,
            task_id: schedule_id,
            kind: JobKind::ScheduledOccurrence,
            key,
            plan_version: 1,
            scheduled_for: NOW,
            event_subject: None,
            state,
            reason: None,
            snapshot,
            now: NOW,
        }
    }

    /// Inserts a Job of `schedule_id` with this action and state; returns its id.
    fn insert(store: &mut Store, schedule_id: i64, key: &str, state: JobState, action: Action) -> i64 {
        let snapshot = snapshot(action);
        store
            .write(|tx| insert_job(tx, &new_job(schedule_id, key, state, &snapshot)))
            .expect("insert")
            .expect("a new key makes a Job")
    }

    fn read(store: &Store, id: i64) -> Job {
        job(store.conn(), id).expect("read").expect("the Job exists")
    }

    fn job_ids(jobs: &[Job]) -> Vec<i64> {
        jobs.iter().map(|j| j.id).collect()
    }

    fn startable(store: &Store, now: i64, skip: &[i64]) -> Option<i64> {
        next_startable_job(store.conn(), now, skip).expect("next").map(|j| j.id)
    }

    #[test]
    fn a_second_insert_with_the_same_key_makes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let snapshot = snapshot(Action::Due);
        let first = new_job(1, "1:1:1000", JobState::Queued, &snapshot);
        let again = NewJob {
            scheduled_for: NOW + 99,
            state: JobState::Skipped,
            ..new_job(1, "1:1:1000", JobState::Queued, &snapshot)
        };
        assert!(store.write(|tx| insert_job(tx, &first)).expect("insert").is_some());
        assert_eq!(store.write(|tx| insert_job(tx, &again)).expect("insert"), None);
        let kept = job_by_key(store.conn(), "1:1:1000").expect("read").expect("the first Job");
        assert_eq!((kept.scheduled_for, kept.state), (NOW, JobState::Queued), "the first Job is untouched");
        assert_eq!(list_jobs(store.conn(), None, None, 10).expect("list").len(), 1);
        assert_eq!(job_by_key(store.conn(), "1:1:2000").expect("read"), None);
    }

    #[test]
    fn a_job_reads_back_as_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 1);
        let snapshot = snapshot(command());
        let new = NewJob {
            kind: JobKind::Event,
            plan_version: 4,
            scheduled_for: NOW - 5,
            event_subject: Some("task:1"),
            reason: Some("why not"),
            ..new_job(2, "event:2:task_event:9", JobState::Queued, &snapshot)
        };
        let id = store.write(|tx| insert_job(tx, &new)).expect("insert").expect("new");
        let j = read(&store, id);
        assert_eq!((j.schedule_id, j.task_id, j.task_key.as_str()), (2, 2, "INBOX-2"));
        assert_eq!((j.kind, j.idempotency_key.as_str(), j.plan_version), (JobKind::Event, "event:2:task_event:9", 4));
        assert_eq!(
            (j.scheduled_for, j.event_subject.as_deref(), j.reason.as_deref()),
            (NOW - 5, Some("task:1"), Some("why not"))
        );
        assert_eq!(j.snapshot, snapshot);
        assert_eq!((j.attempts, j.retry_at, j.started_at), (0, None, None));
        assert_eq!((j.created_at, j.updated_at), (NOW, NOW));
    }

    #[test]
    fn a_job_made_in_a_final_state_is_finished_at_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        for state in ALL_STATES {
            let id = insert(&mut store, 1, &format!("key-{state}"), state, Action::Due);
            let j = read(&store, id);
            assert_eq!(j.state, state);
            assert_eq!(j.finished_at, (!state.is_active()).then_some(NOW), "{state}");
        }
    }

    #[test]
    fn active_jobs_are_exactly_the_active_states_of_that_schedule() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 1);
        for state in ALL_STATES {
            insert(&mut store, 1, &format!("one-{state}"), state, Action::Due);
        }
        insert(&mut store, 2, "other-queued", JobState::Queued, Action::Due);
        let states: Vec<JobState> = active_jobs(store.conn(), 1).expect("active").iter().map(|j| j.state).collect();
        assert_eq!(states, JobState::ACTIVE, "every active state, oldest first, and nothing else");
        assert_eq!(active_jobs(store.conn(), 2).expect("active").len(), 1);
    }

    #[test]
    fn the_oldest_due_or_command_job_starts_first_and_prompt_jobs_never() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 16);
        let parked = insert(&mut store, 1, "prompt", JobState::Queued, prompt());
        let due = insert(&mut store, 1, "due", JobState::Queued, Action::Due);
        let cmd = insert(&mut store, 1, "command", JobState::Queued, command());
        insert(&mut store, 1, "done", JobState::Succeeded, Action::Due);
        assert_ne!(startable(&store, NOW, &[]), Some(parked), "the conversation runs prompt Jobs");
        assert_eq!(startable(&store, NOW, &[]), Some(due));
        assert_eq!(startable(&store, NOW, &[due]), Some(cmd), "a passed-over Job is skipped");
        assert_eq!(startable(&store, NOW, &[due, cmd]), None);
    }

    #[test]
    fn a_deferred_job_starts_once_its_retry_time_has_come() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let id = insert(&mut store, 1, "k", JobState::Queued, command());
        store.write(|tx| defer_job(tx, id, NOW + 1000, "transient", NOW)).expect("defer");
        assert_eq!(startable(&store, NOW + 999, &[]), None);
        assert_eq!(startable(&store, NOW + 1000, &[]), Some(id));
        assert_eq!(next_retry_at(store.conn()).expect("retry"), Some(NOW + 1000));
    }

    #[track_caller]
    fn check_slots(max_active: u32, running: usize, startable_now: bool) {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, max_active);
        for i in 0..running {
            let id = insert(&mut store, 1, &format!("running-{i}"), JobState::Queued, Action::Due);
            store.write(|tx| start_job(tx, id, NOW)).expect("start");
        }
        // Jobs that wait or are parked hold an active slot but do not stop a start.
        insert(&mut store, 1, "deferred-later", JobState::Deferred, Action::Due);
        let waiting = insert(&mut store, 1, "waiting", JobState::Queued, Action::Due);
        let found = startable(&store, NOW, &[]);
        assert_eq!(found == Some(waiting), startable_now, "max_active {max_active}, running {running}: {found:?}");
    }

    #[test]
    fn a_schedule_with_max_active_running_jobs_starts_no_more() {
        check_slots(1, 0, true);
        check_slots(1, 1, false);
        check_slots(2, 1, true);
        check_slots(2, 2, false);
        check_slots(16, 15, true);
    }

    #[test]
    fn starting_counts_attempts_and_keeps_the_first_start_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let id = insert(&mut store, 1, "k", JobState::Queued, command());
        assert_eq!(store.write(|tx| start_job(tx, id, NOW + 1)).expect("start"), 1);
        store.write(|tx| defer_job(tx, id, NOW + 50, "exit 75", NOW + 2)).expect("defer");
        let deferred = read(&store, id);
        assert_eq!(
            (deferred.state, deferred.retry_at, deferred.reason.as_deref()),
            (JobState::Deferred, Some(NOW + 50), Some("exit 75"))
        );
        assert_eq!(store.write(|tx| start_job(tx, id, NOW + 50)).expect("start"), 2);
        let j = read(&store, id);
        assert_eq!((j.state, j.attempts, j.started_at, j.updated_at), (JobState::Running, 2, Some(NOW + 1), NOW + 50));
        assert_eq!((j.retry_at, j.reason), (None, None), "a new Run clears the wait and its reason");
    }

    #[test]
    fn a_final_state_sets_finished_at_and_clears_the_retry_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let id = insert(&mut store, 1, "k", JobState::Queued, command());
        store.write(|tx| defer_job(tx, id, NOW + 50, "exit 75", NOW)).expect("defer");
        store.write(|tx| set_job_state(tx, id, JobState::Cancelled, Some("removed"), NOW + 7)).expect("cancel");
        let j = read(&store, id);
        assert_eq!((j.state, j.reason.as_deref(), j.retry_at), (JobState::Cancelled, Some("removed"), None));
        assert_eq!((j.finished_at, j.updated_at), (Some(NOW + 7), NOW + 7));
        store.write(|tx| set_job_state(tx, id, JobState::Queued, None, NOW + 8)).expect("requeue");
        assert_eq!(read(&store, id).finished_at, None, "an active state is not finished");
    }

    #[test]
    fn a_finished_run_reads_back_with_how_it_ended() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let id = insert(&mut store, 1, "k", JobState::Queued, command());
        let (first, second) = store
            .write(|tx| {
                let first = insert_run(tx, id, 1, NOW)?;
                set_run_pid(tx, first, 4321)?;
                let end = RunEnd {
                    state: RunState::Failed,
                    exit_code: Some(75),
                    output: Some("busy"),
                    output_dropped: 12,
                    error: Some("exit code 75"),
                };
                finish_run(tx, first, &end, NOW + 3)?;
                let second = insert_run(tx, id, 2, NOW + 4)?;
                let end = RunEnd {
                    state: RunState::Succeeded,
                    exit_code: Some(0),
                    output: None,
                    output_dropped: u64::MAX,
                    error: None,
                };
                finish_run(tx, second, &end, NOW + 5)?;
                Ok((first, second))
            })
            .expect("runs");
        let runs = runs_of_job(store.conn(), id).expect("runs");
        assert_eq!(
            runs[0],
            Run {
                id: first,
                job_id: id,
                attempt: 1,
                state: RunState::Failed,
                started_at: NOW,
                finished_at: Some(NOW + 3),
                exit_code: Some(75),
                output: Some("busy".into()),
                output_dropped: 12,
                error: Some("exit code 75".into()),
                pid: Some(4321),
                owner: None,
                lease_until: None,
            }
        );
        assert_eq!((runs[1].id, runs[1].attempt, runs[1].state), (second, 2, RunState::Succeeded));
        assert_eq!(runs[1].output_dropped, i64::MAX as u64, "a count beyond SQLite's integers is kept at its largest");
        assert_eq!(runs.len(), 2);
    }

    #[test]
    fn interrupting_ends_only_the_running_runs_of_that_job() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 1);
        let a = insert(&mut store, 1, "a", JobState::Queued, command());
        let b = insert(&mut store, 2, "b", JobState::Queued, command());
        store
            .write(|tx| {
                let done = insert_run(tx, a, 1, NOW)?;
                let end = RunEnd {
                    state: RunState::Failed,
                    exit_code: Some(75),
                    output: None,
                    output_dropped: 0,
                    error: None,
                };
                finish_run(tx, done, &end, NOW + 1)?;
                insert_run(tx, a, 2, NOW + 2)?;
                insert_run(tx, b, 1, NOW + 2)?;
                interrupt_runs(tx, a, "shutting down", NOW + 9)
            })
            .expect("runs");
        let summary = |job: i64| -> Vec<(u32, RunState, Option<i64>, Option<String>)> {
            runs_of_job(store.conn(), job)
                .expect("runs")
                .into_iter()
                .map(|r| (r.attempt, r.state, r.finished_at, r.error))
                .collect()
        };
        assert_eq!(
            summary(a),
            [
                (1, RunState::Failed, Some(NOW + 1), None),
                (2, RunState::Interrupted, Some(NOW + 9), Some("shutting down".into())),
            ]
        );
        assert_eq!(summary(b), [(1, RunState::Running, None, None)], "another Job's Run keeps running");
    }

    #[test]
    fn artifacts_read_back_oldest_first_and_only_their_jobs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 1);
        let a = insert(&mut store, 1, "a", JobState::Queued, Action::Due);
        let b = insert(&mut store, 2, "b", JobState::Queued, Action::Due);
        let run = store
            .write(|tx| {
                let run = insert_run(tx, a, 1, NOW)?;
                insert_artifact(tx, a, Some(run), "task_change", r#"{"due":[null,"2026-11-30"]}"#, NOW + 1)?;
                insert_artifact(tx, b, None, "prompt", "other job", NOW + 2)?;
                insert_artifact(tx, a, None, "prompt", "second", NOW + 3)?;
                Ok(run)
            })
            .expect("artifacts");
        let got: Vec<_> = artifacts_of_job(store.conn(), a)
            .expect("artifacts")
            .into_iter()
            .map(|x| (x.job_id, x.run_id, x.kind, x.path, x.text, x.created_at))
            .collect();
        assert_eq!(
            got,
            [
                (a, Some(run), "task_change".into(), None, Some(r#"{"due":[null,"2026-11-30"]}"#.into()), NOW + 1),
                (a, None, "prompt".into(), None, Some("second".into()), NOW + 3),
            ]
        );
        assert!(artifacts_of_job(store.conn(), 99).expect("artifacts").is_empty());
    }

    #[test]
    fn jobs_are_listed_newest_first_by_task_and_state() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 16);
        let a1 = insert(&mut store, 1, "a1", JobState::Queued, Action::Due);
        let b1 = insert(&mut store, 2, "b1", JobState::Failed, Action::Due);
        let a2 = insert(&mut store, 1, "a2", JobState::Failed, Action::Due);
        let a3 = insert(&mut store, 1, "a3", JobState::Queued, Action::Due);
        let check = |task: Option<i64>, state: Option<JobState>, limit: usize, expected: &[i64]| {
            assert_eq!(
                job_ids(&list_jobs(store.conn(), task, state, limit).expect("list")),
                expected,
                "{task:?} {state:?} {limit}"
            );
        };
        check(None, None, 10, &[a3, a2, b1, a1]);
        check(None, None, 2, &[a3, a2]);
        check(Some(1), None, 10, &[a3, a2, a1]);
        check(None, Some(JobState::Failed), 10, &[a2, b1]);
        check(Some(1), Some(JobState::Queued), 10, &[a3, a1]);
        check(Some(2), Some(JobState::Queued), 10, &[]);
    }

    #[test]
    fn the_daemon_sees_its_running_jobs_and_not_the_conversations() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 16);
        let ids: Vec<i64> = [Action::Due, command(), prompt(), Action::Due]
            .into_iter()
            .enumerate()
            .map(|(i, action)| insert(&mut store, 1, &format!("k{i}"), JobState::Queued, action))
            .collect();
        for id in &ids[..3] {
            store.write(|tx| start_job(tx, *id, NOW)).expect("start");
        }
        assert_eq!(
            job_ids(&daemon_running_jobs(store.conn(), None).expect("running")),
            ids[..2],
            "the prompt Job and the queued one are not"
        );
    }

    #[test]
    fn only_runs_whose_lease_ended_are_abandoned_and_renewing_keeps_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 16);
        let ids: Vec<i64> =
            (0..3).map(|i| insert(&mut store, 1, &format!("k{i}"), JobState::Queued, command())).collect();
        // Job 0: a live lease of daemon a; Job 1: daemon b's lease ended; Job 2: no lease.
        store
            .write(|tx| {
                for (id, lease) in ids.iter().zip([Some(("a", NOW + 10)), Some(("b", NOW - 1)), None]) {
                    let attempt = start_job(tx, *id, NOW - 100)?;
                    let run = insert_run(tx, *id, attempt, NOW - 100)?;
                    if let Some((owner, until)) = lease {
                        lease_run(tx, run, owner, until)?;
                    }
                }
                Ok(())
            })
            .expect("runs");
        let abandoned = |store: &Store| job_ids(&daemon_running_jobs(store.conn(), Some(NOW)).expect("running"));
        assert_eq!(abandoned(&store), [ids[1], ids[2]], "a live lease is its owner's");
        assert_eq!(store.write(|tx| renew_leases(tx, "b", NOW + 60)).expect("renew"), 1);
        assert_eq!(abandoned(&store), [ids[2]], "a renewed lease is live again");
        assert_eq!(store.write(|tx| renew_leases(tx, "nobody", NOW + 60)).expect("renew"), 0);
        let run = &runs_of_job(store.conn(), ids[1]).expect("runs")[0];
        assert_eq!((run.owner.as_deref(), run.lease_until), (Some("b"), Some(NOW + 60)));
    }

    #[test]
    fn the_next_retry_is_the_earliest_deferred_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 16);
        assert_eq!(next_retry_at(store.conn()).expect("retry"), None);
        let late = insert(&mut store, 1, "late", JobState::Queued, command());
        let early = insert(&mut store, 1, "early", JobState::Queued, command());
        store
            .write(|tx| {
                defer_job(tx, late, NOW + 60_000, "exit 75", NOW)?;
                defer_job(tx, early, NOW + 1000, "exit 75", NOW)
            })
            .expect("defer");
        assert_eq!(next_retry_at(store.conn()).expect("retry"), Some(NOW + 1000));
        store.write(|tx| set_job_state(tx, early, JobState::Failed, None, NOW)).expect("fail");
        assert_eq!(next_retry_at(store.conn()).expect("retry"), Some(NOW + 60_000));
    }

    #[test]
    fn the_last_event_job_counts_made_jobs_of_that_subject_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 2, 16);
        let snapshot = snapshot(Action::Due);
        let event = |key: &'static str, at: i64, subject: &'static str, state: JobState| NewJob {
            kind: JobKind::Event,
            scheduled_for: at,
            event_subject: Some(subject),
            ..new_job(1, key, state, &snapshot)
        };
        store
            .write(|tx| {
                insert_job(tx, &event("e1", NOW, "task:1", JobState::Succeeded))?;
                insert_job(tx, &event("e2", NOW + 10, "task:2", JobState::Queued))?;
                insert_job(tx, &event("e3", NOW + 20, "task:1", JobState::Skipped))?;
                let manual = NewJob {
                    kind: JobKind::Manual,
                    scheduled_for: NOW + 30,
                    ..new_job(1, "m", JobState::Queued, &snapshot)
                };
                insert_job(tx, &manual)?;
                Ok(())
            })
            .expect("jobs");
        let last = |subject: Option<&str>| last_event_job_at(store.conn(), 1, subject).expect("last");
        assert_eq!(last(Some("task:1")), Some(NOW), "a skipped Job does not count");
        assert_eq!(last(Some("task:2")), Some(NOW + 10));
        assert_eq!(last(None), Some(NOW + 10), "a manual Job is not an event Job");
        assert_eq!(last(Some("task:3")), None);
        assert_eq!(last_event_job_at(store.conn(), 2, None).expect("last"), None, "another schedule's");
    }

    #[test]
    fn an_unreadable_stored_state_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_schedules(dir.path(), 1, 1);
        let id = insert(&mut store, 1, "k", JobState::Queued, Action::Due);
        store
            .write(|tx| {
                tx.execute_batch("PRAGMA ignore_check_constraints = ON")?;
                tx.execute("UPDATE jobs SET state = 'paused' WHERE id = ?1", [id])?;
                Ok(tx.execute_batch("PRAGMA ignore_check_constraints = OFF")?)
            })
            .expect("corrupt");
        let err = job(store.conn(), id).expect_err("an unknown state is refused").to_string();
        assert!(err.contains("unreadable job state in the store: paused"), "{err}");
    }
}
