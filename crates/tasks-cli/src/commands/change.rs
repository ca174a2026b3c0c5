//! Commands that change a task: `edit`, `start`, `done`, `dismiss`, `reopen`, `tag`,
//! `untag`, `link`, `unlink`.

use clap::Args;
use tasks_core::model::{LinkKind, TaskType};
use tasks_core::ops::edit::EditRequest;
use tasks_core::ops::status::{self, StatusOutcome};
use tasks_core::ops::{edit as edit_op, link as link_op};
use tasks_core::{input, wire};

use super::App;
use super::view::TaskArg;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct EditArgs {
    /// The task
    pub task: String,
    /// New title
    #[arg(long)]
    pub title: Option<String>,
    /// New description
    #[arg(long, short = 'd')]
    pub description: Option<String>,
    /// New due date ("none" clears it)
    #[arg(long)]
    pub due: Option<String>,
    /// New priority 0–4 ("none" clears it)
    #[arg(long)]
    pub priority: Option<String>,
    /// Move to this project (the key stays the same)
    #[arg(long, short = 'p')]
    pub project: Option<String>,
    /// New category ("none" clears it)
    #[arg(long)]
    pub category: Option<String>,
    /// New person ("none" clears it)
    #[arg(long)]
    pub person: Option<String>,
    /// New amount ("none" clears it)
    #[arg(long)]
    pub amount: Option<String>,
    /// New type
    #[arg(long = "type", short = 't')]
    pub task_type: Option<TaskType>,
}

fn clearable(v: &Option<String>) -> Option<Option<String>> {
    v.as_ref().map(|s| if s.trim().eq_ignore_ascii_case("none") { None } else { Some(s.clone()) })
}

pub fn edit(app: &mut App, a: EditArgs) -> Result<(), CliError> {
    let today = app.ctx.today();
    let priority = match clearable(&a.priority) {
        None => None,
        Some(None) => Some(None),
        Some(Some(p)) => Some(Some(tasks_core::model::parse_priority(&p)?)),
    };
    let req = EditRequest {
        title: a.title,
        description: a.description,
        due: clearable(&a.due).map(|d| d.map(|d| input::parse_due(&d, today)).transpose()).transpose()?,
        priority,
        project: a.project,
        category: clearable(&a.category),
        person: clearable(&a.person),
        amount: clearable(&a.amount).map(|m| m.map(|m| input::parse_amount(&m)).transpose()).transpose()?,
        task_type: a.task_type,
    };
    if req.is_empty() {
        return Err(CliError::validation(
            "edit: nothing to change",
            Some("hint: give at least one of --title, --due, --priority, --project, --category …".into()),
        ));
    }
    let t = edit_op::edit(&mut app.store, &app.ctx, &a.task, &req)?;
    app.print(|| wire::task_only(&t, app.ctx.now_ms()), || format!("Edited {}: {}\n", t.key, t.title));
    Ok(())
}

fn print_status(app: &App, out: &StatusOutcome, verb: &str) {
    app.print(
        || wire::status_changed(out, app.ctx.now_ms()),
        || {
            let mut s = if out.changed {
                format!("{verb} {}: {}\n", out.task.key, out.task.title)
            } else {
                format!("{} was already {}\n", out.task.key, out.task.status)
            };
            if !out.unblocked.is_empty() {
                let keys: Vec<&str> = out.unblocked.iter().map(|t| t.key.as_str()).collect();
                s.push_str(&format!("Ready now: {}\n", keys.join(", ")));
            }
            s
        },
    );
}

pub fn start(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let out = status::start(&mut app.store, &app.ctx, &a.task)?;
    print_status(app, &out, "Started");
    Ok(())
}

pub fn done(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let out = status::done(&mut app.store, &app.ctx, &a.task)?;
    print_status(app, &out, "Done");
    Ok(())
}

#[derive(Debug, Args)]
pub struct DismissArgs {
    /// The task
    pub task: String,
    /// Why: cancelled, duplicate, not needed … [default: cancelled]
    #[arg(long)]
    pub reason: Option<String>,
}

pub fn dismiss(app: &mut App, a: DismissArgs) -> Result<(), CliError> {
    let out = status::dismiss(&mut app.store, &app.ctx, &a.task, a.reason.as_deref())?;
    print_status(app, &out, "Dismissed");
    Ok(())
}

pub fn reopen(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let out = status::reopen(&mut app.store, &app.ctx, &a.task)?;
    print_status(app, &out, "Reopened");
    Ok(())
}

#[derive(Debug, Args)]
pub struct TagArgs {
    /// The task
    pub task: String,
    /// Tags (one word each)
    #[arg(required = true)]
    pub tags: Vec<String>,
}

pub fn tag(app: &mut App, a: TagArgs, add: bool) -> Result<(), CliError> {
    let (t, changed) = if add {
        status::tag(&mut app.store, &app.ctx, &a.task, &a.tags)?
    } else {
        status::untag(&mut app.store, &app.ctx, &a.task, &a.tags)?
    };
    app.print(
        || wire::tagged(&t, &changed, app.ctx.now_ms()),
        || format!("{} tags: {}\n", t.key, if t.tags.is_empty() { "(none)".into() } else { t.tags.join(", ") }),
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct LinkArgs {
    /// The task the link starts from
    pub task: String,
    /// blocked-by, follow-up-of, related-to, duplicate-of, discovered-from
    pub kind: String,
    /// The other task
    pub other: String,
}

pub fn link(app: &mut App, a: LinkArgs, add: bool) -> Result<(), CliError> {
    let kind: LinkKind = a.kind.parse()?;
    let out = if add {
        link_op::link(&mut app.store, &app.ctx, &a.task, kind, &a.other)?
    } else {
        link_op::unlink(&mut app.store, &app.ctx, &a.task, kind, &a.other)?
    };
    app.print(
        || wire::linked(&out, app.ctx.now_ms()),
        || match (add, out.changed) {
            (true, true) => format!("Linked {} {} {}\n", out.task.key, kind, out.other.key),
            (true, false) => format!("{} was already {} {}\n", out.task.key, kind, out.other.key),
            (false, true) => format!("Unlinked {} {} {}\n", out.task.key, kind, out.other.key),
            (false, false) => format!("{} was not {} {}\n", out.task.key, kind, out.other.key),
        },
    );
    Ok(())
}
