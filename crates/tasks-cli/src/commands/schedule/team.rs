//! `tasks daemon` on the team store: plans every due firing of the time schedules into
//! Jobs and runs their `due` actions (`tasks_pg::schedule`); any number of machines may
//! run one, and a firing becomes one Job whichever daemon gets there first. Between
//! passes it sleeps on PostgreSQL's LISTEN/NOTIFY: a schedule added or changed on any
//! machine wakes it at once; otherwise it looks again after [`DAEMON_POLL`].

use std::time::Duration;

use tasks_core::{Context, wire};
use tasks_pg::PgStore;

use crate::env;
use crate::error::CliError;

/// Longest sleep between two planning passes.
const DAEMON_POLL: Duration = Duration::from_secs(30);

/// Runs the planning passes (one with `once`) and prints the Jobs made; with a
/// `runner` (`--telegram`), the bot's poller and worker run beside them, as the SQLite
/// daemon runs them (`--once`: one poll and one round of answers after the pass).
pub fn daemon(
    store: &mut PgStore,
    actor: &str,
    json: bool,
    once: bool,
    runner: Option<tasks_bot::runner::Runner>,
) -> Result<(), CliError> {
    let Some(runner) = runner else { return plan(store, actor, json, once) };
    let runner = std::sync::Arc::new(runner);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the async runtime: {e}")))?;
    // The planning loop blocks (a PostgreSQL client, a LISTEN wait): it runs on a
    // connection of its own, on the blocking pool.
    let mut planner = store.pool().get()?;
    let actor = actor.to_string();
    rt.block_on(async move {
        use super::super::bot::{loops, runner_error};
        runner.recover().await.map_err(runner_error)?;
        let planning = tokio::task::spawn_blocking(move || plan(&mut planner, &actor, json, once));
        if once {
            let planned = planning.await.map_err(|e| CliError::other(e.to_string()))?;
            runner.poll(Duration::ZERO).await.map_err(runner_error)?;
            runner.work().await.map_err(runner_error)?;
            return planned;
        }
        tokio::select! {
            planned = planning => planned.map_err(|e| CliError::other(e.to_string()))?,
            _ = loops(runner.clone()) => unreachable!("the bot's loops never end"),
        }
    })
}

/// The planning passes alone.
fn plan(store: &mut PgStore, actor: &str, json: bool, once: bool) -> Result<(), CliError> {
    let mut fired = Vec::new();
    let mut listener = if once { None } else { Some(store.listen(tasks_pg::SCHEDULES_CHANNEL)?) };
    loop {
        // A connection the server ended while the daemon slept is made again.
        store.ping_or_reconnect()?;
        let ctx = env::context(None).map(|c| Context { actor: actor.to_string(), ..c })?;
        let pass = tasks_pg::schedule::plan_due(store, &ctx)?;
        if !once {
            for f in &pass {
                eprintln!("{} job #{} {} ({})", tasks_core::time::rfc3339(f.scheduled_for), f.job_id, f.task, f.state);
            }
        }
        fired.extend(pass);
        let Some(listener) = listener.as_mut() else { break };
        listener.wait(DAEMON_POLL)?;
    }
    let rows: Vec<wire::FiredJob<'_>> =
        fired.iter().map(|f| (f.job_id, f.key.as_str(), f.task.as_str(), f.scheduled_for, f.state.as_str())).collect();
    if json {
        println!("{}", wire::fired_jobs(&rows));
    } else if fired.is_empty() {
        println!("Nothing was due.");
    } else {
        for f in &fired {
            println!("Job #{} {} {} {}", f.job_id, f.task, tasks_core::time::rfc3339(f.scheduled_for), f.state);
        }
    }
    Ok(())
}
