//! Read-only commands: `list`, `search`, `show`, `history`, `ready`, `blocked`, `agenda`,
//! `graph`.

use clap::{Args, ValueEnum};
use tasks_core::model::{Status, TaskType};
use tasks_core::ops::query::{self, AgendaView, ListQuery, Sort};
use tasks_core::{graph, input, wire};

use super::App;
use crate::error::CliError;
use crate::render;

/// One task reference: a key (HRB-12), task:<…>, a UUID or 8+ hex digits of one.
#[derive(Debug, Args)]
pub struct TaskArg {
    /// The task: HRB-12, REQ-22, task:<uuid>, or 8+ hex digits of its UUID
    pub task: String,
}

#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Most rows to show [default: 200]
    #[arg(long, short = 'n')]
    pub limit: Option<usize>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Status: open, in_progress, done, dismissed, or all [default: open and in_progress] (can be repeated)
    #[arg(long, short = 's')]
    pub status: Vec<String>,
    /// Only this project
    #[arg(long, short = 'p')]
    pub project: Option<String>,
    /// Only this type
    #[arg(long = "type", short = 't')]
    pub task_type: Option<TaskType>,
    /// Only tasks with this tag
    #[arg(long)]
    pub tag: Option<String>,
    /// Only tasks about this person
    #[arg(long)]
    pub person: Option<String>,
    /// Only tasks due before this day (a date or a phrase: friday, "next week", завтра)
    #[arg(long, value_name = "WHEN")]
    pub due_before: Option<String>,
    /// Only tasks due after this day
    #[arg(long, value_name = "WHEN")]
    pub due_after: Option<String>,
    /// Only overdue tasks (a day before today, or a time already past)
    #[arg(long)]
    pub overdue: bool,
    /// Only tasks of this priority (0–4)
    #[arg(long, value_parser = |s: &str| tasks_core::model::parse_priority(s).map_err(|e| e.to_string()))]
    pub priority: Option<u8>,
    /// Only tasks whose live claim this actor holds ("me" for you)
    #[arg(long, value_name = "ACTOR")]
    pub claimed_by: Option<String>,
    /// Only tasks whose title or description has words starting with these
    #[arg(long)]
    pub text: Option<String>,
    /// Order: created (oldest first), due (soonest first), priority (highest first), updated (newest first)
    #[arg(long, value_enum, default_value = "created")]
    pub sort: SortArg,
    #[command(flatten)]
    pub limit: LimitArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SortArg {
    Created,
    Due,
    Priority,
    Updated,
}

impl From<SortArg> for Sort {
    fn from(s: SortArg) -> Sort {
        match s {
            SortArg::Created => Sort::Created,
            SortArg::Due => Sort::Due,
            SortArg::Priority => Sort::Priority,
            SortArg::Updated => Sort::Updated,
        }
    }
}

pub fn parse_statuses(values: &[String]) -> Result<Vec<Status>, CliError> {
    let mut out = Vec::new();
    for v in values.iter().flat_map(|v| v.split(',')) {
        if v.trim().eq_ignore_ascii_case("all") {
            return Ok(Status::ALL.to_vec());
        }
        out.push(v.parse::<Status>()?);
    }
    Ok(out)
}

pub fn list(app: &App, a: ListArgs) -> Result<(), CliError> {
    let today = app.ctx.today();
    let day = |w: &Option<String>| w.as_deref().map(|w| input::parse_due(w, today).map(|d| d.date)).transpose();
    let q = ListQuery {
        statuses: parse_statuses(&a.status)?,
        project: a.project,
        task_type: a.task_type,
        tag: a.tag,
        person: a.person,
        limit: a.limit.limit,
        due_before: day(&a.due_before)?,
        due_after: day(&a.due_after)?,
        overdue_at: a.overdue.then(|| (today, app.ctx.now_ms())),
        priority: a.priority,
        claimed_by: a.claimed_by.map(|who| (if who == "me" { app.ctx.actor.clone() } else { who }, app.ctx.now_ms())),
        text: a.text.filter(|t| !t.trim().is_empty()),
        sort: a.sort.into(),
    };
    let items = query::list(&app.store, &q)?;
    app.print(|| wire::task_list(&items, app.ctx.now_ms()), || render::tasks(&items, &app.style, "No tasks."));
    Ok(())
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for, in any form or script: words of titles, descriptions and notes
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
    /// Closed tasks too
    #[arg(long)]
    pub all: bool,
    /// Most results
    #[arg(long, short = 'n', default_value_t = 20)]
    pub limit: usize,
}

/// The search a command line asks for.
pub fn search_query(a: &SearchArgs) -> query::SearchQuery {
    query::SearchQuery { text: a.text.join(" "), open_only: !a.all, limit: a.limit.clamp(1, 1000) }
}

/// What an empty search answer says.
pub fn no_match(all: bool) -> &'static str {
    if all { "Nothing matches." } else { "No open task matches (--all looks at closed ones too)." }
}

pub fn search(app: &App, a: SearchArgs) -> Result<(), CliError> {
    let items = query::search(&app.store, &search_query(&a))?;
    app.print(|| wire::task_list(&items, app.ctx.now_ms()), || render::tasks(&items, &app.style, no_match(a.all)));
    Ok(())
}

pub fn show(app: &App, a: TaskArg) -> Result<(), CliError> {
    let d = query::show(&app.store, &a.task)?;
    app.print(|| wire::task_detail(&d, app.ctx.now_ms()), || render::detail(&d, &app.style));
    Ok(())
}

pub fn history(app: &App, a: TaskArg) -> Result<(), CliError> {
    let (task, events) = query::history(&app.store, &a.task)?;
    app.print(|| wire::history(&task, &events, app.ctx.now_ms()), || render::history(&task, &events, &app.style));
    Ok(())
}

#[derive(Debug, Args)]
pub struct ReadyArgs {
    #[command(flatten)]
    pub limit: LimitArgs,
}

pub fn ready(app: &App, a: ReadyArgs) -> Result<(), CliError> {
    let items = query::ready(&app.store, &app.ctx, a.limit.limit)?;
    app.print(|| wire::task_list(&items, app.ctx.now_ms()), || render::tasks(&items, &app.style, "Nothing is ready."));
    Ok(())
}

pub fn blocked(app: &App, a: LimitArgs) -> Result<(), CliError> {
    let items = query::blocked(&app.store, a.limit)?;
    app.print(
        || wire::task_list(&items, app.ctx.now_ms()),
        || render::tasks(&items, &app.style, "Nothing is blocked."),
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct AgendaArgs {
    /// The view: today (due today or overdue), inbox, overdue, week (next 7 days)
    #[arg(default_value = "today")]
    pub view: String,
    /// Also show tasks claimed by others
    #[arg(long)]
    pub claimed: bool,
    #[command(flatten)]
    pub limit: LimitArgs,
}

pub fn agenda(app: &App, a: AgendaArgs) -> Result<(), CliError> {
    let view: AgendaView = a.view.parse()?;
    let agenda = query::agenda_view(&app.store, &app.ctx, view, a.claimed, a.limit.limit)?;
    app.print(|| wire::agenda(&agenda, app.ctx.today(), app.ctx.now_ms()), || render::agenda(&agenda, &app.style));
    Ok(())
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GraphFormat {
    Tree,
    Dot,
    Mermaid,
}

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// The task
    pub task: String,
    /// Output format
    #[arg(long, value_enum, default_value = "tree")]
    pub format: GraphFormat,
}

pub fn graph(app: &App, a: GraphArgs) -> Result<(), CliError> {
    let n = query::neighbourhood(&app.store, &a.task)?;
    app.print(
        || wire::graph(&n, app.ctx.now_ms()),
        || match a.format {
            GraphFormat::Tree => graph::render_tree(&n),
            GraphFormat::Dot => graph::render_dot(&n),
            GraphFormat::Mermaid => graph::render_mermaid(&n),
        },
    );
    Ok(())
}
