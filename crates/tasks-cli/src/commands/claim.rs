//! `tasks claim`, `tasks release`, `tasks next [--claim]`: leases for agents (SPEC §4).

use clap::Args;
use tasks_core::claims;
use tasks_core::model::TaskType;
use tasks_core::ops::query::{self, ListQuery};
use tasks_core::time::rfc3339;
use tasks_core::wire;

use super::App;
use super::view::TaskArg;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct ClaimArgs {
    /// The task
    pub task: String,
    /// Lease length: 30m, 2h, 1h30m [default: 30m]
    #[arg(long = "for", value_name = "LENGTH")]
    pub lease: Option<String>,
}

pub fn lease(text: Option<&str>) -> Result<std::time::Duration, CliError> {
    Ok(match text {
        Some(t) => claims::parse_lease(t)?,
        None => claims::DEFAULT_LEASE,
    })
}

pub fn claim(app: &mut App, a: ClaimArgs) -> Result<(), CliError> {
    let length = lease(a.lease.as_deref())?;
    let t = claims::claim(&mut app.store, &app.ctx, &a.task, length)?;
    let until = t.claimed_until.map(rfc3339).unwrap_or_default();
    app.print(|| wire::task_only(&t, app.ctx.now_ms()), || format!("Claimed {} until {until}: {}\n", t.key, t.title));
    Ok(())
}

pub fn release(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let t = claims::release(&mut app.store, &app.ctx, &a.task)?;
    app.print(|| wire::task_only(&t, app.ctx.now_ms()), || format!("Released {}\n", t.key));
    Ok(())
}

#[derive(Debug, Args)]
pub struct NextArgs {
    /// Claim the task in the same transaction (what a pool of agents wants)
    #[arg(long)]
    pub claim: bool,
    /// Lease length with --claim [default: 30m]
    #[arg(long = "for", value_name = "LENGTH")]
    pub lease: Option<String>,
    /// Only this project
    #[arg(long, short = 'p')]
    pub project: Option<String>,
    /// Only this type
    #[arg(long = "type", short = 't')]
    pub task_type: Option<TaskType>,
    /// Only tasks with this tag
    #[arg(long)]
    pub tag: Option<String>,
}

pub fn next(app: &mut App, a: NextArgs) -> Result<(), CliError> {
    let q =
        ListQuery { project: a.project.clone(), task_type: a.task_type, tag: a.tag.clone(), ..ListQuery::default() };
    let describe = [
        a.project.as_ref().map(|p| format!("project {p}")),
        a.task_type.map(|t| format!("type {t}")),
        a.tag.as_ref().map(|t| format!("tag {t}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let filter = query::to_filter(&app.store, &q)?
        .ok_or_else(|| tasks_core::Error::NothingReady { filter: describe.clone() })?;
    let t = if a.claim {
        claims::next(&mut app.store, &app.ctx, filter, lease(a.lease.as_deref())?, &describe)?
    } else {
        query::next_ready(&app.store, &app.ctx, filter)?.ok_or(tasks_core::Error::NothingReady { filter: describe })?
    };
    app.print(|| wire::next(&t, a.claim, app.ctx.now_ms()), || next_text(&t, a.claim));
    Ok(())
}

/// The human text of `tasks next`.
pub fn next_text(t: &tasks_core::Task, claimed: bool) -> String {
    if claimed {
        format!("Claimed {} until {}: {}\n", t.key, t.claimed_until.map(rfc3339).unwrap_or_default(), t.title)
    } else {
        format!("Next: {} {}\n", t.key, t.title)
    }
}
