//! `tasks schedule …` (add, preview, list, show, pause, resume, remove, run-now, queue,
//! messages), `tasks jobs` and `tasks daemon` (SPEC §6, §10; issue 5).
//!
//! Args structs and one function per verb: each calls one `tasks_core::ops::schedule`
//! operation and renders it (JSON through `tasks_core::wire`). The daemon and the
//! command runner are in [`daemon`], the only async code of the CLI besides MCP. No
//! scheduling rule lives here.

mod daemon;
mod flags;

use clap::{Args, Subcommand};
use comfy_table::{Cell, ContentArrangement, Table, presets};
use tasks_core::ops::schedule::{
    self as sched, JobState, When, fire,
    manage::{self, AddRequest, JobDetail},
    queue,
};
use tasks_core::time::rfc3339;
use tasks_core::wire;
use tasks_schedule::{Firing, Plan, Trigger};

use super::App;
use super::view::TaskArg;
use crate::env;
use crate::error::CliError;
pub use daemon::{DaemonArgs, daemon};
use flags::{ActionArgs, EventArgs, TriggerArgs};

#[derive(Debug, Subcommand)]
pub enum ScheduleCommand {
    /// Schedule a task: when it fires and what a firing does
    Add(Box<AddArgs>),
    /// Show the next firings of a task's schedule, or of trigger flags alone
    Preview(PreviewArgs),
    /// List schedules
    List(ListArgs),
    /// Show a task's schedule and its recent Jobs
    Show(TaskArg),
    /// Pause a task's schedule (it fires nothing until resumed)
    Pause(TaskArg),
    /// Resume a paused schedule from now (firings while paused are not made up)
    Resume(TaskArg),
    /// Remove a task's schedule: no more firings; Jobs not started are cancelled
    Remove(TaskArg),
    /// Make a Job now, once per key; never moves the next planned firing
    RunNow(RunNowArgs),
    /// Show the conversation queue, or remove / promote / push an item
    Queue(QueueArgs),
    /// Show the conversation's messages (every firing posts one)
    Messages(MessagesArgs),
}

impl ScheduleCommand {
    /// Returns whether the command writes; preview, list, show and messages only read,
    /// and a queue listing too.
    pub fn writes(&self) -> bool {
        match self {
            ScheduleCommand::Preview(_)
            | ScheduleCommand::List(_)
            | ScheduleCommand::Show(_)
            | ScheduleCommand::Messages(_) => false,
            ScheduleCommand::Queue(q) => q.remove.is_some() || q.promote.is_some() || q.push.is_some(),
            _ => true,
        }
    }
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The task: HRB-12, REQ-22, task:<uuid>
    pub task: String,
    #[command(flatten)]
    pub trigger: TriggerArgs,
    #[command(flatten)]
    pub event: EventArgs,
    /// IANA time zone of the trigger, stored with it [default: $TASKS_TZ, else this machine's]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
    /// Jobs of this schedule that may be active at once (1: no overlap)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_active: u32,
    /// Post into this conversation [default: the local one]
    #[arg(long, value_name = "ID", conflicts_with = "telegram")]
    pub conversation: Option<i64>,
    /// Post into this Telegram chat's conversation (the bot answers it there)
    #[arg(long, value_name = "CHAT_ID", allow_hyphen_values = true)]
    pub telegram: Option<i64>,
    /// Longest a prompt's run may take [default: 5m]
    #[arg(long, value_name = "LENGTH")]
    pub prompt_timeout: Option<String>,
    /// Most tool calls a prompt's run may make [default: 20]
    #[arg(long, value_name = "N")]
    pub max_tool_calls: Option<u32>,
    /// Most model calls a prompt's run may make [default: 6]
    #[arg(long, value_name = "N")]
    pub max_model_calls: Option<u32>,
    /// Replace the task's schedule (bumps its plan version; running Jobs keep theirs)
    #[arg(long)]
    pub replace: bool,
    #[command(flatten)]
    pub action: ActionArgs,
}

#[derive(Debug, Args)]
pub struct PreviewArgs {
    /// A scheduled task (or give trigger flags instead)
    pub task: Option<String>,
    #[command(flatten)]
    pub trigger: TriggerArgs,
    /// IANA time zone for trigger flags [default: $TASKS_TZ, else this machine's]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
    /// How many firings
    #[arg(long, default_value_t = tasks_schedule::limits::PREVIEW_COUNT)]
    pub count: usize,
    /// Show firings strictly after this time: RFC 3339, or a local date-time in the zone [default: now]
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Include removed schedules
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct RunNowArgs {
    /// The task
    pub task: String,
    /// Idempotency key: a second run-now with the same key makes no new Job [default: a new key]
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
    /// Only make the Job; leave it to the daemon
    #[arg(long)]
    pub no_wait: bool,
}

#[derive(Debug, Args)]
pub struct QueueArgs {
    /// The conversation [default: the local one]
    #[arg(long, value_name = "ID")]
    pub conversation: Option<i64>,
    /// Remove a pending item (a firing's Job is cancelled)
    #[arg(long, value_name = "ITEM", conflicts_with_all = ["promote", "push"])]
    pub remove: Option<i64>,
    /// Move a pending item to the head and interrupt the running one
    #[arg(long, value_name = "ITEM", conflicts_with = "push")]
    pub promote: Option<i64>,
    /// Append a chat message to the queue
    #[arg(long, value_name = "TEXT")]
    pub push: Option<String>,
}

#[derive(Debug, Args)]
pub struct MessagesArgs {
    /// The conversation [default: the local one]
    #[arg(long, value_name = "ID")]
    pub conversation: Option<i64>,
    /// How many of the latest messages
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct JobsArgs {
    /// Approve or reject what a prompt Job waits for
    #[command(subcommand)]
    pub decide: Option<JobsDecision>,
    /// Only Jobs of this task
    pub task: Option<String>,
    /// Only Jobs in this state (queued, running, succeeded, failed, skipped, interrupted …)
    #[arg(long, value_name = "STATE")]
    pub state: Option<String>,
    /// Show this one Job with its Runs and output
    #[arg(long, value_name = "ID", conflicts_with_all = ["task", "state"])]
    pub id: Option<i64>,
    /// At most this many, newest first
    #[arg(long, default_value_t = sched::limits::JOBS_LIST_LIMIT)]
    pub limit: usize,
}

/// `tasks jobs approve JOB` / `tasks jobs reject JOB`.
#[derive(Debug, Subcommand)]
pub enum JobsDecision {
    /// Run the writes a prompt Job proposed; the same Job ends succeeded
    Approve(JobIdArg),
    /// Refuse them: nothing runs; the Job ends failed
    Reject(JobIdArg),
}

/// One Job.
#[derive(Debug, Args)]
pub struct JobIdArg {
    /// The Job's number (tasks jobs shows it)
    pub job: i64,
}

/// Runs one `tasks schedule` subcommand.
pub fn run(app: &mut App, command: ScheduleCommand) -> Result<(), CliError> {
    match command {
        ScheduleCommand::Add(a) => add(app, *a),
        ScheduleCommand::Preview(a) => preview(app, a),
        ScheduleCommand::List(a) => list(app, a),
        ScheduleCommand::Show(a) => show(app, a),
        ScheduleCommand::Pause(a) => change(app, a, Change::Pause),
        ScheduleCommand::Resume(a) => change(app, a, Change::Resume),
        ScheduleCommand::Remove(a) => change(app, a, Change::Remove),
        ScheduleCommand::RunNow(a) => daemon::run_now(app, a),
        ScheduleCommand::Queue(a) => queue_cmd(app, a),
        ScheduleCommand::Messages(a) => messages(app, a),
    }
}

fn add(app: &mut App, a: AddArgs) -> Result<(), CliError> {
    let conversation = match a.telegram {
        Some(chat) => {
            let chat_ref = tasks_core::ops::conversation::ConversationRef {
                kind: tasks_core::model::conversation::ConversationKind::Telegram,
                external_id: chat.to_string(),
            };
            Some(tasks_core::ops::conversation::ensure(&mut app.store, &app.ctx, &chat_ref)?)
        }
        None => a.conversation,
    };
    let mut action = a.action.action()?;
    let budgets = a.prompt_timeout.is_some() || a.max_tool_calls.is_some() || a.max_model_calls.is_some();
    match &mut action {
        tasks_core::model::schedule::Action::Prompt(p) => {
            if let Some(t) = &a.prompt_timeout {
                p.timeout_seconds = tasks_core::input::parse_duration("prompt-timeout", t)?.as_secs().max(1);
            }
            if let Some(n) = a.max_tool_calls {
                p.max_tool_calls = n;
            }
            if let Some(n) = a.max_model_calls {
                p.max_model_calls = n.max(1);
            }
        }
        _ if budgets => {
            return Err(CliError::validation(
                "--prompt-timeout, --max-tool-calls and --max-model-calls go with --prompt",
                None,
            ));
        }
        _ => {}
    }
    let req = AddRequest {
        task: a.task.clone(),
        when: flags::when(&a.trigger, &a.event)?,
        zone: flags::zone_name(a.tz.as_deref())?,
        missed: a.action.missed()?,
        action,
        max_active: a.max_active,
        conversation,
        replace: a.replace,
    };
    let out = manage::add(&mut app.store, &app.ctx, &req)?;
    let s = &out.schedule;
    app.print(
        || wire::schedule_added(&out),
        || {
            let verb = if out.replaced { "Changed" } else { "Scheduled" };
            format!(
                "{verb} {} (schedule #{}, plan version {}): {}\n",
                s.task_key,
                s.id,
                s.plan_version,
                manage::describe(s)
            )
        },
    );
    Ok(())
}

/// Reads `--from`: an RFC 3339 instant, or a local date-time in the zone.
fn from_time(text: Option<&str>, zone: &str, now: jiff::Timestamp) -> Result<jiff::Timestamp, CliError> {
    let Some(text) = text else { return Ok(now) };
    if let Ok(ts) = text.trim().parse::<jiff::Timestamp>() {
        return Ok(ts);
    }
    let bad = || {
        CliError::validation(
            format!("from: cannot read \"{text}\" as a time"),
            Some("hint: --from 2026-03-07T12:00:00Z, or a local 2026-03-07T12:00".into()),
        )
    };
    let local: jiff::civil::DateTime = text.trim().parse().map_err(|_| bad())?;
    let tz = tasks_schedule::time_zone(zone).map_err(|e| CliError::from(tasks_core::Error::from(e)))?;
    Ok(tz.to_ambiguous_zoned_datetime(local).compatible().map_err(|_| bad())?.timestamp())
}

fn preview(app: &mut App, a: PreviewArgs) -> Result<(), CliError> {
    manage::check_count(a.count)?;
    let (when, zone, firings) = match (&a.task, a.trigger.given()) {
        (Some(_), true) => {
            return Err(CliError::validation(
                "give a task or trigger flags, not both",
                Some("hint: tasks schedule preview HRB-3, or tasks schedule preview --daily 09:00".into()),
            ));
        }
        (Some(task), false) => {
            let s = manage::for_task(&app.store, task)?;
            let from = from_time(a.from.as_deref(), &s.zone, app.ctx.now)?;
            let (s, firings) = manage::preview(&app.store, task, from, a.count)?;
            (s.when, s.zone, firings)
        }
        (None, true) => {
            let trigger = a.trigger.trigger()?.unwrap_or(Trigger::Daily { time: jiff::civil::Time::midnight() });
            let zone = flags::zone_name(a.tz.as_deref())?;
            let plan = Plan::new(trigger, &zone).map_err(|e| CliError::from(tasks_core::Error::from(e)))?;
            let from = from_time(a.from.as_deref(), &zone, app.ctx.now)?;
            let firings = plan.preview(from, a.count);
            (When::Time(plan.trigger().clone()), plan.zone_name().to_string(), firings)
        }
        (None, false) => {
            return Err(CliError::validation(
                "give a scheduled task or trigger flags",
                Some("hint: tasks schedule preview --daily 09:00 --tz Europe/Berlin".into()),
            ));
        }
    };
    app.print(|| wire::preview(&firings, &zone, &when), || render_preview(&when, &zone, &firings));
    Ok(())
}

/// Renders firings in local time and UTC, noting a time moved by a DST gap.
fn render_preview(when: &When, zone: &str, firings: &[Firing]) -> String {
    if firings.is_empty() {
        return format!("{when} ({zone}) fires no more.\n");
    }
    let wanted = match when {
        When::Time(Trigger::Daily { time } | Trigger::Weekly { time, .. } | Trigger::Monthly { time, .. }) => {
            Some(*time)
        }
        When::Time(Trigger::Once { at }) => Some(at.time()),
        _ => None,
    };
    let mut out =
        format!("Next {} firing{} of {when} ({zone}):\n", firings.len(), if firings.len() == 1 { "" } else { "s" });
    for f in firings {
        let local = f.local.strftime("%a %Y-%m-%d %H:%M %Z (%:z)").to_string();
        let mut line = format!("  {local:<36} {}", rfc3339(f.at.as_millisecond()));
        if let Some(t) = wanted
            && (f.local.time().hour(), f.local.time().minute()) != (t.hour(), t.minute())
        {
            line.push_str(&format!("  ({:02}:{:02} does not exist that day)", t.hour(), t.minute()));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn table(headers: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING).set_content_arrangement(ContentArrangement::Disabled).force_no_tty();
    t.set_header(headers.iter().map(Cell::new).collect::<Vec<_>>());
    for r in rows {
        t.add_row(r);
    }
    let mut out = String::new();
    for line in t.to_string().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn list(app: &mut App, a: ListArgs) -> Result<(), CliError> {
    let items = manage::list(&app.store, a.all)?;
    app.print(
        || wire::schedule_list(&items),
        || {
            if items.is_empty() {
                return "No schedules.\nhint: tasks schedule add TASK --daily 09:00\n".into();
            }
            let rows = items
                .iter()
                .map(|s| {
                    vec![
                        s.id.to_string(),
                        s.task_key.clone(),
                        s.when.to_string(),
                        s.zone.clone(),
                        s.action.kind().to_string(),
                        s.next_fire_at.map(|ms| sched::local_text(ms, &s.zone)).unwrap_or_default(),
                        s.state_name().to_string(),
                    ]
                })
                .collect();
            table(&["ID", "TASK", "TRIGGER", "ZONE", "ACTION", "NEXT", "STATE"], rows)
        },
    );
    Ok(())
}

/// Holds how many recent Jobs `schedule show` lists.
const SHOW_JOBS: usize = 10;

fn show(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let s = manage::latest_for_task(&app.store, &a.task)?;
    let jobs = manage::jobs(&app.store, Some(&a.task), None, SHOW_JOBS)?;
    app.print(
        || wire::schedule_detail(&s, &jobs),
        || {
            let mut out = format!("{} schedule #{} ({}): {}\n", s.task_key, s.id, s.state_name(), manage::describe(&s));
            out.push_str(&format!(
                "  missed {}, plan version {}, conversation #{}, at most {} active\n",
                fire::policy_name(&s.missed),
                s.plan_version,
                s.conversation_id,
                s.max_active
            ));
            if !jobs.is_empty() {
                out.push('\n');
                out.push_str(&jobs_table(&jobs));
            }
            out
        },
    );
    Ok(())
}

enum Change {
    Pause,
    Resume,
    Remove,
}

fn change(app: &mut App, a: TaskArg, which: Change) -> Result<(), CliError> {
    let (out, verb) = match which {
        Change::Pause => (manage::pause(&mut app.store, &app.ctx, &a.task)?, "Paused"),
        Change::Resume => (manage::resume(&mut app.store, &app.ctx, &a.task)?, "Resumed"),
        Change::Remove => (manage::remove(&mut app.store, &app.ctx, &a.task)?, "Removed"),
    };
    let s = &out.schedule;
    app.print(
        || wire::schedule_changed(&out),
        || {
            let mut line = if out.changed {
                format!("{verb} schedule #{} of {}", s.id, s.task_key)
            } else {
                format!("Schedule #{} of {} was already {}", s.id, s.task_key, s.state_name())
            };
            if matches!(which, Change::Resume) && out.changed {
                line.push_str(&format!(": {}", manage::describe(s)));
            }
            if !out.cancelled.is_empty() {
                line.push_str(&format!("; {} Job(s) not started were cancelled", out.cancelled.len()));
            }
            line.push_str(".\n");
            line
        },
    );
    Ok(())
}

fn jobs_table(jobs: &[JobDetail]) -> String {
    let rows = jobs
        .iter()
        .map(|d| {
            let j = &d.job;
            vec![
                j.id.to_string(),
                j.task_key.clone(),
                j.kind.to_string(),
                sched::local_text(j.scheduled_for, &j.snapshot.zone),
                j.state.to_string(),
                d.runs.len().to_string(),
                j.reason.clone().unwrap_or_default(),
            ]
        })
        .collect();
    table(&["JOB", "TASK", "KIND", "FOR", "STATE", "RUNS", "REASON"], rows)
}

/// Runs `tasks jobs`.
pub fn jobs(app: &mut App, a: JobsArgs) -> Result<(), CliError> {
    match a.decide {
        Some(JobsDecision::Approve(j)) => {
            let done = tasks_chat::approval::approve(app.store.engine(), &app.ctx, j.job)?;
            let d = manage::job(&app.store, done.job.id)?;
            app.print(
                || wire::job_one(&d),
                || format!("Approved Job #{}: {}\n{}\n", j.job, done.job.state, crate::render::safe_lines(&done.reply)),
            );
            return Ok(());
        }
        Some(JobsDecision::Reject(j)) => {
            let job = tasks_chat::approval::reject(app.store.engine(), &app.ctx, j.job)?;
            let d = manage::job(&app.store, job.id)?;
            app.print(
                || wire::job_one(&d),
                || format!("Rejected Job #{}: {} — nothing of it was done\n", j.job, job.state),
            );
            return Ok(());
        }
        None => {}
    }
    if let Some(id) = a.id {
        let d = manage::job(&app.store, id)?;
        app.print(|| wire::job_one(&d), || render_job(&d));
        return Ok(());
    }
    let state = a
        .state
        .as_deref()
        .map(|s| {
            JobState::parse(s.trim()).ok_or_else(|| {
                CliError::validation(
                    format!("state: cannot use \"{s}\""),
                    Some("hint: queued, running, waiting_approval, succeeded, failed, skipped, deferred, cancelled, interrupted, outcome_unknown".into()),
                )
            })
        })
        .transpose()?;
    let items = manage::jobs(&app.store, a.task.as_deref(), state, a.limit)?;
    app.print(|| wire::job_list(&items), || if items.is_empty() { "No Jobs.\n".into() } else { jobs_table(&items) });
    Ok(())
}

fn render_job(d: &JobDetail) -> String {
    let j = &d.job;
    let mut out = format!(
        "Job #{} of {} ({}, {}): {}\n  for {} · key {}\n",
        j.id,
        j.task_key,
        j.kind,
        j.snapshot.trigger_text,
        j.state,
        sched::local_text(j.scheduled_for, &j.snapshot.zone),
        j.idempotency_key
    );
    if let Some(r) = &j.reason {
        out.push_str(&format!("  {r}\n"));
    }
    for r in &d.runs {
        out.push_str(&format!(
            "  Run {} {} started {}{}{}\n",
            r.attempt,
            r.state,
            rfc3339(r.started_at),
            r.exit_code.map(|c| format!(", exit code {c}")).unwrap_or_default(),
            r.error.as_ref().map(|e| format!(", {e}")).unwrap_or_default()
        ));
        if let Some(o) = r.output.as_ref().filter(|o| !o.is_empty()) {
            for line in o.lines() {
                out.push_str(&format!("    | {line}\n"));
            }
        }
    }
    out
}

fn queue_cmd(app: &mut App, a: QueueArgs) -> Result<(), CliError> {
    if let Some(id) = a.remove {
        let item = queue::remove(&mut app.store, &app.ctx, id)?;
        app.print(|| wire::queue_one(&item), || format!("Removed queue item #{id}.\n"));
        return Ok(());
    }
    if let Some(id) = a.promote {
        let p = queue::promote(&mut app.store, &app.ctx, id)?;
        app.print(
            || wire::promoted(&p),
            || {
                let ids: Vec<String> = p.interrupted.iter().map(|i| format!("#{}", i.id)).collect();
                if ids.is_empty() {
                    format!("Promoted queue item #{id} to the head.\n")
                } else {
                    format!("Promoted queue item #{id} to the head; interrupted {}.\n", ids.join(", "))
                }
            },
        );
        return Ok(());
    }
    if let Some(text) = &a.push {
        let item = queue::push_message(&mut app.store, &app.ctx, a.conversation, text)?;
        app.print(|| wire::queue_one(&item), || format!("Queued message as item #{}.\n", item.id));
        return Ok(());
    }
    let items = queue::list(&app.store, a.conversation)?;
    app.print(
        || wire::queue_list(&items),
        || {
            if items.is_empty() {
                return "The queue is empty.\n".into();
            }
            let rows = items
                .iter()
                .map(|i| vec![i.id.to_string(), i.state.to_string(), i.kind.to_string(), i.payload.summary()])
                .collect();
            table(&["ITEM", "STATE", "KIND", "WHAT"], rows)
        },
    );
    Ok(())
}

fn messages(app: &mut App, a: MessagesArgs) -> Result<(), CliError> {
    let items = queue::messages(&app.store, a.conversation, a.limit)?;
    app.print(
        || wire::message_list(&items),
        || {
            let zone = env::zone().ok().and_then(|z| z.iana_name().map(str::to_string)).unwrap_or_else(|| "UTC".into());
            items
                .iter()
                .map(|m| format!("[{}] {}: {}\n", sched::local_text(m.created_at, &zone), m.role, m.text))
                .collect()
        },
    );
    Ok(())
}
