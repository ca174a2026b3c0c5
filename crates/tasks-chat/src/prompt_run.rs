//! A scheduled prompt's run (issue 13, seed 004 §6, §14): the stored prompt goes to the
//! model with exactly the tools its snapshot allows; reads run and their results go
//! back to the model; writes never run here — they are collected for a person to
//! approve. The run ends when the model answers with text, or a budget is hit.
//!
//! - `ask` mode offers `list_tasks` only: a model asking for anything else gets a
//!   refusal as that call's result, and the refusal is recorded in the Run's output;
//!   nothing is written, ever.
//! - `execute` mode offers the task tools; every write a model asks for waits for
//!   approval (the snapshot's policy is `writes`): the Job parks in `waiting_approval`.
//! - Budgets, frozen at the schedule's creation: model calls, tool calls, and the run's
//!   length. Hitting one fails the Run with the reason.

use std::time::{Duration, Instant};

use tasks_core::model::schedule::PromptMode;
use tasks_core::ops::Context;
use tasks_core::ops::schedule::prompt::PromptTurn;
use tasks_core::port::Engine;

use crate::calls::{Call, ListView};
use crate::dispatch::{self, Outcome};
use crate::llm::{LlmClient, Message};
use crate::offline::Lang;
use crate::prompt;
use crate::reply::Voice;
use crate::situation::Situation;
use crate::state::StoredCall;

/// The tools a read-only (`ask`) prompt is offered.
pub const ASK_TOOLS: &[&str] = &["list_tasks"];

/// The tools an `execute` prompt is offered (writes wait for approval).
pub const EXECUTE_TOOLS: &[&str] =
    &["create_task", "update_task", "close_task", "cancel_task", "list_tasks", "defer_today_to_tomorrow"];

/// Most tasks a read returns to the model.
pub const READ_RESULT_TASKS: usize = 50;

/// How a prompt's run ended.
#[derive(Debug, Clone)]
pub enum PromptResult {
    /// The model answered; `output` is its answer, with any refusals.
    Done {
        /// What to post.
        output: String,
    },
    /// The model asked for writes: they wait for a person.
    NeedsApproval {
        /// The writes, in order.
        calls: Vec<Call>,
        /// The question for the person.
        question: String,
        /// Refusals so far.
        output: String,
    },
    /// A budget was hit, the model failed, or free text is off.
    Failed {
        /// Why.
        reason: String,
        /// Refusals and partial answer so far.
        output: String,
    },
}

/// Returns the calls as stored for approval (JSON).
pub fn calls_json(calls: &[Call]) -> String {
    serde_json::to_string(&calls.iter().map(StoredCall::of).collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

/// Reads calls stored for approval.
pub fn calls_of(json: &str) -> Vec<Call> {
    serde_json::from_str::<Vec<StoredCall>>(json).unwrap_or_default().iter().filter_map(StoredCall::call).collect()
}

/// Runs a prompt Job's turn.
pub fn run(
    store: &mut dyn Engine,
    ctx: &Context,
    client: Option<&LlmClient>,
    conversational: bool,
    turn: &PromptTurn,
) -> PromptResult {
    let failed = |reason: String, output: String| PromptResult::Failed { reason, output };
    if !conversational {
        return failed(
            "free text is switched off (TASKS_CONVERSATIONAL=off); prompts need the model".into(),
            String::new(),
        );
    }
    let Some(client) = client else {
        return failed("no model is configured (TASKS_LLM_MODEL); prompts need one".into(), String::new());
    };
    let a = &turn.action;
    let allowed: &[&str] = match a.mode {
        PromptMode::Ask => ASK_TOOLS,
        PromptMode::Execute => EXECUTE_TOOLS,
    };
    let deadline = Instant::now() + Duration::from_secs(a.timeout_seconds.max(1));
    let situation = match Situation::gather(store, ctx, &a.text, None, &[]) {
        Ok(s) => s,
        Err(e) => return failed(format!("cannot read the tasks: {e}"), String::new()),
    };
    let lines = situation.task_lines();
    let mut messages = prompt::prompt_messages(&prompt::Context {
        today: ctx.today(),
        projects: &situation.projects,
        tasks: &lines,
        shown: &[],
        quoted: None,
        text: &a.text,
    });
    let tools = prompt::tools_named(allowed);
    let mut notes: Vec<String> = Vec::new();
    let mut tool_calls = 0u32;
    for round in 0..a.max_model_calls.max(1) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return failed(format!("budget: the run took longer than {} s", a.timeout_seconds), notes.join("\n"));
        }
        let mut config = client.config().clone();
        config.timeout = config.timeout.min(left);
        let reply = match LlmClient::new(config).complete(&messages, &tools) {
            Ok(r) => r,
            Err(e) => return failed(format!("the model: {e}"), notes.join("\n")),
        };
        if reply.tool_calls.is_empty() {
            let mut output = reply.content.unwrap_or_default().trim().to_string();
            if !notes.is_empty() {
                output = format!("{output}\n{}", notes.join("\n")).trim().to_string();
            }
            return PromptResult::Done { output };
        }
        messages.push(Message::assistant(&reply.tool_calls));
        let mut writes: Vec<Call> = Vec::new();
        for tc in &reply.tool_calls {
            tool_calls += 1;
            if tool_calls > a.max_tool_calls {
                return failed(format!("budget: more than {} tool calls", a.max_tool_calls), notes.join("\n"));
            }
            let result = if !allowed.contains(&tc.name.as_str()) {
                let why = match a.mode {
                    PromptMode::Ask => "ask mode offers read-only tools only".to_string(),
                    PromptMode::Execute => "not among the tools this schedule allows".to_string(),
                };
                notes.push(format!("refused: {} ({why})", tasks_text::printable(&tc.name)));
                format!("refused: {why}")
            } else {
                match Call::from_tool(&tc.name, &tc.arguments) {
                    Err(e) => {
                        notes.push(format!("refused: {e}"));
                        format!("refused: {e}")
                    }
                    Ok(Call::ListTasks { filter, period }) => read(store, ctx, filter, period),
                    Ok(call) => {
                        // A firing never approves anything by itself.
                        writes.push(call);
                        "waiting for a person's approval".to_string()
                    }
                }
            };
            messages.push(Message::tool(tc.id.clone(), result));
        }
        if !writes.is_empty() {
            let question = approval_question(store, &writes, Lang::of(&a.text));
            return PromptResult::NeedsApproval { calls: writes, question, output: notes.join("\n") };
        }
        if round + 1 == a.max_model_calls.max(1) {
            break;
        }
    }
    failed(format!("budget: more than {} model calls", a.max_model_calls), notes.join("\n"))
}

/// Runs a read and returns its result for the model: one line per task.
fn read(store: &mut dyn Engine, ctx: &Context, filter: ListView, period: Option<crate::calls::Period>) -> String {
    match dispatch::run(store, ctx, &Call::ListTasks { filter, period }, &[], false) {
        Ok(Outcome::Listed { tasks, .. }) => {
            if tasks.is_empty() {
                return "no tasks".into();
            }
            tasks
                .iter()
                .take(READ_RESULT_TASKS)
                .map(|t| {
                    let due = t.due.map(|d| d.date.to_string()).unwrap_or_else(|| "-".into());
                    format!("{} | {} | {} | {} | {}", t.key, t.title, t.project, due, t.status)
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
        Ok(_) => "nothing".into(),
        Err(e) => format!("error: {e}"),
    }
}

/// Says what the writes would do, for the person to approve.
fn approval_question(store: &dyn Engine, writes: &[Call], lang: Lang) -> String {
    let name = |id: &str| {
        tasks_core::ops::query::get(store, id)
            .map(|t| format!("{id} «{}»", tasks_text::printable(&t.title)))
            .unwrap_or_else(|_| id.to_string())
    };
    let lines: Vec<String> = writes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let what = match c {
                Call::CreateTask { text, .. } => format!("create «{}»", tasks_text::printable(text)),
                Call::UpdateTask { id, .. } => format!("change {} ({})", name(id), c.arguments()),
                Call::CloseTask { id } => format!("close {}", name(id)),
                Call::CancelTask { id } => format!("cancel {}", name(id)),
                Call::DeferTodayToTomorrow => "move today's tasks to tomorrow".to_string(),
                other => other.tool().to_string(),
            };
            format!("{}. {what}", i + 1)
        })
        .collect();
    let head = match lang {
        Lang::Ru => "Разрешить?",
        Lang::En => "Approve?",
    };
    format!("{head}\n{}", lines.join("\n"))
}

/// Runs approved calls and returns the reply lines (each action with text, project, due).
pub fn run_approved(
    store: &mut dyn Engine,
    ctx: &Context,
    calls: &[Call],
    voice: &Voice,
) -> tasks_core::Result<String> {
    let projects = Situation::project_list(store)?;
    let mut lines = Vec::new();
    for call in calls {
        let outcome = dispatch::run(store, ctx, call, &projects, false)?;
        lines.push(voice.outcome(&outcome));
    }
    Ok(lines.join("\n"))
}
