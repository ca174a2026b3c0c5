//! Schedules on the team store: turning due firings into Jobs when several daemons on
//! several machines share one store, so each firing becomes exactly one Job and runs
//! once.
//!
//! Two locks make that so, each enough alone:
//! - planning one schedule takes its row with `FOR UPDATE SKIP LOCKED` — a second
//!   daemon passes over a schedule another is planning instead of waiting for it, and
//!   finds `next_fire_at` already moved on the next tick;
//! - a Job's idempotency key `<schedule>:<plan version>:<scheduled_for ms>` is unique,
//!   and Jobs are inserted `ON CONFLICT DO NOTHING`: a firing already made is never made
//!   twice, whatever crashed or raced between.
//!
//! What runs here: time triggers with their missed policy (the same planner,
//! `tasks_schedule::plan_missed`) and the `due` action (set the due date to the firing's
//! local day, reopen a done task), applied in the transaction that makes the Job. Jobs
//! of `command` and `prompt` actions are made and left `queued` with a reason: their
//! runner (processes, the conversation) runs on a SQLite store only so far.

use postgres::Transaction;
use tasks_core::model::schedule::{Action, JobSnapshot, JobState, When};
use tasks_core::model::{Due, Status};
use tasks_core::store::events::{Change, DueChange, DueValue, EventChange, StatusChange};
use tasks_core::{Context, Error, Result, time};
use tasks_schedule::{MissedPolicy, Plan, plan_missed};

use crate::PgStore;
use crate::store::{TxError, TxResult};

/// A Job this daemon made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fired {
    /// Job row id.
    pub job_id: i64,
    /// Its idempotency key.
    pub key: String,
    /// The task's key.
    pub task: String,
    /// The firing it stands for, epoch ms.
    pub scheduled_for: i64,
    /// Its state after this pass (`succeeded` for a due action, `queued` or `skipped`).
    pub state: JobState,
}

/// Why a Job of this action is left queued on PostgreSQL.
const NOT_RUN_HERE: &str = "this action runs only on a SQLite store so far; the PostgreSQL daemon runs due actions";

fn stored_json<T: serde::de::DeserializeOwned>(text: &str, what: &str, id: i64) -> TxResult<T> {
    serde_json::from_str(text)
        .map_err(|e| TxError::Core(Error::Postgres(format!("schedule #{id}: cannot read its {what}: {e}"))))
}

/// Makes Jobs for every due firing of every time schedule up to `ctx.now`, and runs the
/// due actions; one transaction per schedule.
pub fn plan_due(store: &mut PgStore, ctx: &Context) -> Result<Vec<Fired>> {
    let now = ctx.now_ms();
    let ids: Vec<i64> = store.read(|c| {
        Ok(c.query(
            "SELECT id FROM schedules WHERE removed_at IS NULL AND paused = 0 AND trigger_kind = 'time'
               AND next_fire_at IS NOT NULL AND next_fire_at <= $1 ORDER BY next_fire_at, id",
            &[&now],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect())
    })?;
    let mut fired = Vec::new();
    for id in ids {
        fired.extend(store.write(|tx| fire_schedule(tx, ctx, id))?);
    }
    Ok(fired)
}

fn fire_schedule(tx: &mut Transaction<'_>, ctx: &Context, id: i64) -> TxResult<Vec<Fired>> {
    let now = ctx.now_ms();
    let Some(row) = tx.query_opt(
        "SELECT s.trigger_kind, s.trigger, s.zone, s.missed, s.action, s.plan_version, s.next_fire_at,
                s.conversation_id, s.task_id, t.key, s.paused, s.removed_at
         FROM schedules s JOIN tasks t ON t.id = s.task_id
         WHERE s.id = $1 FOR UPDATE OF s SKIP LOCKED",
        &[&id],
    )?
    else {
        // Another daemon is planning it right now.
        return Ok(Vec::new());
    };
    let (kind, trigger_text, zone): (String, String, String) = (row.get(0), row.get(1), row.get(2));
    let next_fire_at: Option<i64> = row.get(6);
    let paused: i64 = row.get(10);
    let removed: Option<i64> = row.get(11);
    let Some(last_planned) = next_fire_at.filter(|at| *at <= now) else { return Ok(Vec::new()) };
    if paused != 0 || removed.is_some() {
        return Ok(Vec::new());
    }
    let when = When::from_stored(&kind, &trigger_text)
        .map_err(|e| TxError::Core(Error::Postgres(format!("schedule #{id}: cannot read its trigger: {e}"))))?;
    let When::Time(trigger) = &when else { return Ok(Vec::new()) };
    let missed_policy: MissedPolicy = stored_json(row.get(3), "missed policy", id)?;
    let action: Action = stored_json(row.get(4), "action", id)?;
    let plan_version: i64 = row.get(5);
    let task_id: i64 = row.get(8);
    let task_key: String = row.get(9);
    let plan = Plan::new(trigger.clone(), &zone).map_err(|e| TxError::Core(Error::from(e)))?;
    let missed = plan_missed(&plan, time::from_ms(last_planned), ctx.now, &missed_policy);
    let snapshot = JobSnapshot {
        task: task_key.clone(),
        action: action.clone(),
        trigger: when.to_json(),
        trigger_text: when.to_string(),
        zone: zone.clone(),
        plan_version,
        conversation_id: row.get(7),
    };
    let snapshot_text = serde_json::to_string(&snapshot).map_err(Error::from)?;
    let mut fired = Vec::new();
    for at in &missed.run {
        let at_ms = time::to_ms(*at);
        let key = format!("{id}:{plan_version}:{at_ms}");
        let status: String = tx.query_one("SELECT status FROM tasks WHERE id = $1", &[&task_id])?.get(0);
        let (state, reason) = if status == Status::Dismissed.as_str() {
            (JobState::Skipped, Some(format!("{task_key} is dismissed: a dismissed task's schedule does not fire")))
        } else if matches!(action, Action::Due) {
            (JobState::Queued, None)
        } else {
            (JobState::Queued, Some(NOT_RUN_HERE.to_string()))
        };
        let finished = (!state.is_active()).then_some(now);
        let made = tx.query_opt(
            "INSERT INTO jobs (schedule_id, task_id, kind, action_kind, idempotency_key, plan_version, scheduled_for,
                 state, reason, snapshot, created_at, updated_at, finished_at)
             VALUES ($1, $2, 'scheduled_occurrence', $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)
             ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
            &[
                &id,
                &task_id,
                &action.kind(),
                &key,
                &plan_version,
                &at_ms,
                &state.as_str(),
                &reason,
                &snapshot_text,
                &now,
                &finished,
            ],
        )?;
        let Some(made) = made else { continue };
        let job_id: i64 = made.get(0);
        let state = if state == JobState::Queued && matches!(action, Action::Due) {
            apply_due(tx, ctx, id, job_id, task_id, at_ms, &zone)?;
            JobState::Succeeded
        } else {
            state
        };
        fired.push(Fired { job_id, key, task: task_key.clone(), scheduled_for: at_ms, state });
    }
    tx.execute(
        "UPDATE schedules SET next_fire_at = $2, updated_at = $3 WHERE id = $1",
        &[&id, &missed.next_fire_at.map(time::to_ms), &now],
    )?;
    Ok(fired)
}

/// Runs a due action: the task's due date becomes the firing's local day, a done task
/// is reopened; the Job gets one succeeded Run saying what changed.
fn apply_due(
    tx: &mut Transaction<'_>,
    ctx: &Context,
    schedule_id: i64,
    job_id: i64,
    task_id: i64,
    at_ms: i64,
    zone: &str,
) -> TxResult<()> {
    let now = ctx.now_ms();
    let actor = format!("schedule:{schedule_id}");
    let tz = jiff::tz::TimeZone::get(zone)
        .map_err(|e| TxError::Core(Error::Postgres(format!("schedule #{schedule_id}: zone {zone}: {e}"))))?;
    let date = time::from_ms(at_ms).to_zoned_datetime(tz).date();
    let task = crate::rows::get(tx, task_id)?;
    let due = Some(Due::day(date));
    let mut said = vec![format!("due {date}")];
    let op: i64 =
        tx.query_one("INSERT INTO operations (at, actor) VALUES ($1, $2) RETURNING id", &[&now, &actor])?.get(0);
    let record = |tx: &mut Transaction<'_>, change: EventChange| -> TxResult<()> {
        tx.execute(
            "INSERT INTO task_events (task_id, at, actor, kind, changes, op_id) VALUES ($1, $2, $3, $4, $5, $6)",
            &[&task_id, &now, &actor, &change.kind(), &change.to_json().to_string(), &op],
        )?;
        Ok(())
    };
    if task.due != due {
        let (due_at, due_kind, due_instant) = tasks_core::store::due_columns(due);
        tx.execute(
            "UPDATE tasks SET due_at = $2, due_kind = $3, due_instant = $4, updated_at = $5 WHERE id = $1",
            &[&task_id, &due_at, &due_kind, &due_instant, &now],
        )?;
        record(tx, EventChange::Due(DueChange { due: Change(task.due.map(DueValue::from), due.map(DueValue::from)) }))?;
    }
    if task.status == Status::Done {
        tx.execute(
            "UPDATE tasks SET status = 'open', close_reason = NULL, closed_at = NULL, updated_at = $2 WHERE id = $1",
            &[&task_id, &now],
        )?;
        record(
            tx,
            EventChange::Status(StatusChange {
                status: Change(Status::Done, Status::Open),
                close_reason: task.close_reason.is_some().then(|| Change(task.close_reason.clone(), None)),
                claimed_by: None,
            }),
        )?;
        said.push("reopened".into());
    }
    crate::dedup::index(tx, task_id)?;
    let summary = said.join(", ");
    tx.execute(
        "INSERT INTO runs (job_id, attempt, state, started_at, finished_at, output) VALUES ($1, 1, 'succeeded', $2, $2, $3)",
        &[&job_id, &now, &summary],
    )?;
    tx.execute(
        "UPDATE jobs SET state = 'succeeded', attempts = 1, started_at = $2, finished_at = $2, updated_at = $2 WHERE id = $1",
        &[&job_id, &now],
    )?;
    Ok(())
}
