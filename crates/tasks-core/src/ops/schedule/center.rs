//! The Task Center's reads and its create (issue 14; seed 004 §5, §11): one row per
//! scheduled Task however often it fired, what needs the person's attention, the
//! conversations a new Task may post into, the deterministic summary shown before a
//! create, and the create itself — task, conversation and schedule in ONE transaction.
//!
//! Read by the web page; nothing here knows HTML or HTTP. The page's fields arrive as
//! typed values ([`CreateRequest`]); their errors name the field so the page can show
//! each beside its input.

use std::collections::HashMap;

use tasks_schedule::{Firing, MissedPolicy, Trigger};

use super::manage::{self, AddRequest as ScheduleRequest};
use super::{Job, Schedule, plan_of};
use crate::error::{Error, Result};
use crate::model::conversation::ConversationKind;
use crate::model::schedule::{Action, JobState, PromptMode, When};
use crate::model::{Source, Task, TaskType};
use crate::ops::Context;
use crate::ops::add::{self, DupChoice};
use crate::port::Engine;
use crate::store::conversations::Conversation;

/// How many Jobs a Task's detail lists.
pub const DETAIL_JOBS: usize = 20;

/// Why a Task needs the person, most urgent first (seed 004 §11).
pub const ATTENTION: &[JobState] =
    &[JobState::WaitingApproval, JobState::OutcomeUnknown, JobState::Failed, JobState::Interrupted];

/// One scheduled Task, as the Task Center lists it.
#[derive(Debug, Clone)]
pub struct CenterRow {
    /// The live schedule (its task key, title, trigger, zone, next firing, paused).
    pub schedule: Schedule,
    /// The conversation it posts into.
    pub conversation: Conversation,
    /// Its newest Job, if it fired or ran at all: the "last progress".
    pub last_job: Option<Job>,
    /// Its Jobs waiting for an approval, oldest first.
    pub waiting: Vec<Job>,
    /// Why it needs attention, if it does: a waiting approval, or the state of its last
    /// Job when that ended badly.
    pub attention: Option<JobState>,
}

/// Lists every live schedule with its last Job and what needs attention, in five
/// queries whatever the number of schedules.
pub fn rows(store: &dyn Engine) -> Result<Vec<CenterRow>> {
    let conn = store.reader();
    let schedules = conn.schedules(false)?;
    let mut latest = conn.latest_jobs()?;
    let mut waiting: HashMap<i64, Vec<Job>> = HashMap::new();
    for j in conn.jobs_in_state(JobState::WaitingApproval)? {
        waiting.entry(j.schedule_id).or_default().push(j);
    }
    let convs: HashMap<i64, Conversation> =
        conn.conversations_with_schedules()?.into_iter().map(|(c, _)| (c.id, c)).collect();
    let mut out = Vec::with_capacity(schedules.len());
    for schedule in schedules {
        let Some(conversation) = convs.get(&schedule.conversation_id).cloned() else {
            return Err(Error::NotFound { what: "conversation", value: schedule.conversation_id.to_string() });
        };
        let last_job = latest.remove(&schedule.id);
        let waiting = waiting.remove(&schedule.id).unwrap_or_default();
        let attention = if waiting.is_empty() {
            last_job.as_ref().map(|j| j.state).filter(|s| ATTENTION.contains(s))
        } else {
            Some(JobState::WaitingApproval)
        };
        out.push(CenterRow { schedule, conversation, last_job, waiting, attention });
    }
    Ok(out)
}

/// A conversation a new Task may post into, with how many Tasks already do.
#[derive(Debug, Clone)]
pub struct ConversationChoiceInfo {
    /// The conversation.
    pub conversation: Conversation,
    /// Live schedules posting into it.
    pub tasks: usize,
}

/// Lists the conversations, oldest first, with their Task counts.
pub fn conversations(store: &dyn Engine) -> Result<Vec<ConversationChoiceInfo>> {
    Ok(store
        .reader()
        .conversations_with_schedules()?
        .into_iter()
        .map(|(conversation, tasks)| ConversationChoiceInfo { conversation, tasks })
        .collect())
}

/// The detail of one Task: its row and its recent Jobs (Jobs and Runs appear only here).
#[derive(Debug, Clone)]
pub struct Detail {
    /// The row.
    pub row: CenterRow,
    /// Its newest Jobs, newest first, at most [`DETAIL_JOBS`].
    pub jobs: Vec<Job>,
}

/// Returns one Task's detail.
pub fn detail(store: &dyn Engine, reference: &str) -> Result<Detail> {
    let schedule = manage::for_task(store, reference)?;
    let row = rows(store)?
        .into_iter()
        .find(|r| r.schedule.id == schedule.id)
        .ok_or_else(|| Error::NotFound { what: "schedule of task", value: reference.to_string() })?;
    let jobs = store.reader().jobs_of_schedule(schedule.id, DETAIL_JOBS)?;
    Ok(Detail { row, jobs })
}

/// Where a new Task posts: a conversation that exists, or a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConversationChoice {
    /// An existing conversation by id.
    Existing(i64),
    /// A new local conversation with this title (the Task's name unless changed).
    New {
        /// Its title.
        title: String,
    },
}

/// What the create modal sends, already read into typed values.
#[derive(Debug, Clone)]
pub struct CreateRequest {
    /// The Task's name (its title).
    pub name: String,
    /// The requirement: the prompt a firing runs, and the task's description.
    pub requirement: String,
    /// Where its results are written.
    pub conversation: ConversationChoice,
    /// What a firing does: a prompt (Execute or Ask) or making the task due. Commands
    /// (shell) are created only from the CLI.
    pub action: Action,
    /// When it fires.
    pub trigger: Trigger,
    /// The IANA zone of the trigger.
    pub zone: String,
    /// What to do with firings missed while nothing ran.
    pub missed: MissedPolicy,
}

/// The outcome of [`create`].
#[derive(Debug, Clone)]
pub struct CreateOutcome {
    /// The new task.
    pub task: Task,
    /// Its schedule.
    pub schedule: Schedule,
    /// The conversation it posts into.
    pub conversation: Conversation,
    /// True when the conversation was made by this create.
    pub new_conversation: bool,
}

fn check_request(req: &CreateRequest) -> Result<()> {
    add::check_title(&req.name).map_err(|_| Error::invalid("name", req.name.clone(), "a Task needs a name"))?;
    match &req.action {
        Action::Command(_) => Err(Error::invalid(
            "action",
            "command",
            "a command (shell) schedule is created from the CLI: tasks schedule add TASK --command …",
        )),
        Action::Prompt(p) if p.text.trim().is_empty() => {
            Err(Error::invalid("requirement", "", "say what the Task should do each time it runs"))
        }
        _ => Ok(()),
    }?;
    if let ConversationChoice::New { title } = &req.conversation
        && title.trim().is_empty()
    {
        return Err(Error::invalid("conversation_title", "", "a new conversation needs a title"));
    }
    Ok(())
}

/// Creates the task, the conversation when a new one was chosen, and the schedule, in
/// one transaction: a failure anywhere writes nothing.
///
/// The task is the person's own (no duplicate refusal: a scheduled Task is named on
/// purpose; the page's quick add is where the check speaks).
pub fn create(store: &mut dyn Engine, ctx: &Context, req: &CreateRequest) -> Result<CreateOutcome> {
    check_request(req)?;
    let now = ctx.now_ms();
    store.write(|tx| {
        let mut task_req = add::AddRequest::titled(req.name.trim());
        task_req.description = req.requirement.trim().to_string();
        task_req.task_type = TaskType::Task;
        task_req.dup_choice = DupChoice::New;
        task_req.origin = Source::Owner;
        let task = add::add_in(tx, ctx, &task_req)?.task;
        let (conversation_id, new_conversation) = match &req.conversation {
            ConversationChoice::Existing(id) => {
                let c = tx
                    .conversation(*id)?
                    .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?;
                (c.id, false)
            }
            ConversationChoice::New { title } => {
                let external = format!("page:{}", task.key);
                (tx.create_conversation(ConversationKind::Local, &external, title.trim(), now)?, true)
            }
        };
        let sreq = ScheduleRequest {
            task: task.key.clone(),
            when: When::Time(req.trigger.clone()),
            zone: req.zone.clone(),
            missed: req.missed,
            action: req.action.clone(),
            max_active: 1,
            conversation: Some(conversation_id),
            replace: false,
        };
        let schedule = manage::add_in(tx, ctx, &sreq)?.schedule;
        let conversation = tx
            .conversation(conversation_id)?
            .ok_or_else(|| Error::NotFound { what: "conversation", value: conversation_id.to_string() })?;
        Ok(CreateOutcome { task, schedule, conversation, new_conversation })
    })
}

/// What the modal shows before submit: the next firings and the summary.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The zone's canonical name.
    pub zone: String,
    /// The next firings from now.
    pub firings: Vec<Firing>,
    /// The deterministic summary (seed 004 §5.2), one line each, without the ✓.
    pub summary: Vec<String>,
}

/// Previews a create without writing: validates the trigger in its zone (errors name
/// the field), computes the next `count` firings from now, and writes the summary.
pub fn preview(store: &dyn Engine, ctx: &Context, req: &CreateRequest, count: usize) -> Result<Preview> {
    manage::check_count(count)?;
    let plan = plan_of(&req.trigger, &req.zone)?;
    let firings = plan.preview(ctx.now, count);
    let conversation = match &req.conversation {
        ConversationChoice::Existing(id) => {
            let info = conversations(store)?
                .into_iter()
                .find(|c| c.conversation.id == *id)
                .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?;
            Target::Existing { title: info.conversation.title, tasks: info.tasks }
        }
        ConversationChoice::New { title } => Target::New { title: title.trim().to_string() },
    };
    let when = When::Time(plan.trigger().clone());
    let summary = summary(req, &when, plan.zone_name(), &conversation, firings.first());
    Ok(Preview { zone: plan.zone_name().to_string(), firings, summary })
}

/// The conversation a summary speaks of.
enum Target {
    Existing { title: String, tasks: usize },
    New { title: String },
}

/// The summary lines: same request, same lines (no clock beyond the first firing).
fn summary(req: &CreateRequest, when: &When, zone: &str, target: &Target, first: Option<&Firing>) -> Vec<String> {
    let name = req.name.trim();
    let mut lines = Vec::new();
    lines.push(match target {
        Target::Existing { title, tasks: 0 } => format!("Adds the Task «{name}» to the conversation «{title}»"),
        Target::Existing { title, tasks } => format!(
            "Adds the Task «{name}» to the conversation «{title}», which has {tasks} other Task{} (they share its context)",
            if *tasks == 1 { "" } else { "s" }
        ),
        Target::New { title } => format!("Creates a new conversation «{title}» for the Task «{name}»"),
    });
    lines.push(match &req.action {
        Action::Prompt(p) if p.mode == PromptMode::Execute => {
            "Runs in Execute mode: it may change tasks, and each change waits for your approval".to_string()
        }
        Action::Prompt(_) => "Runs in Ask mode: it reads tasks and answers, and changes nothing".to_string(),
        Action::Due => "Makes the task due at each firing (a reminder; nothing runs)".to_string(),
        Action::Command(_) => "Runs a command".to_string(),
    });
    let first = match first {
        Some(f) => format!("; first {}", f.local.strftime("%a %Y-%m-%d %H:%M %Z")),
        None => "; it has no firing left".to_string(),
    };
    lines.push(format!("Fires {when} ({zone}){first}"));
    let where_ = match target {
        Target::Existing { title, .. } | Target::New { title } => title.clone(),
    };
    lines.push(format!("Writes each result into the conversation «{where_}»"));
    lines.push(format!("Missed firings (nothing running at the time): {}", super::fire::policy_name(&req.missed)));
    lines
}
