//! What a schedule says: when it fires ([`When`]), what a firing does ([`Action`]),
//! and the states and kinds of its Jobs and Runs, with their stored spellings.
//!
//! Plain values with their JSON forms (one DB column each); no SQL and no clock. The
//! wall-clock triggers themselves are `tasks_schedule::Trigger`; event triggers are
//! here because matching them needs the store (task events, Jobs), which the pure
//! planning crate must not know.

use std::fmt;

use jiff::civil::Weekday;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tasks_schedule::{MonthDay, Trigger, format_datetime, format_time, weekday_name};

use crate::error::{Error, Result};

/// Describes when a schedule fires: on a wall-clock trigger or on an event.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// A wall-clock trigger in the schedule's zone.
    Time(Trigger),
    /// An event in the store.
    Event(EventTrigger),
}

impl When {
    /// Returns the stored kind (`time` or `event`).
    pub fn kind(&self) -> &'static str {
        match self {
            When::Time(_) => "time",
            When::Event(_) => "event",
        }
    }

    /// Returns the stored JSON (`{"type":"daily","time":"09:00"}`,
    /// `{"type":"event","event":"task.completed",…}`).
    pub fn to_json(&self) -> Value {
        match self {
            When::Time(t) => serde_json::to_value(t).unwrap_or(Value::Null),
            When::Event(e) => {
                let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
                v["type"] = json!("event");
                v
            }
        }
    }

    /// Reads the stored form back.
    pub fn from_stored(kind: &str, text: &str) -> std::result::Result<When, String> {
        match kind {
            "time" => serde_json::from_str(text).map(When::Time).map_err(|e| e.to_string()),
            "event" => serde_json::from_str(text).map(When::Event).map_err(|e| e.to_string()),
            other => Err(format!("unknown trigger kind {other:?}")),
        }
    }
}

impl fmt::Display for When {
    /// Writes the trigger as a person would say it: `daily 09:00`, `weekly mon,fri
    /// 17:00`, `workdays 09:00`, `monthly last 10:00`, `cron */30 9-18 * * 1-5`,
    /// `on task.completed (project HRB)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            When::Time(Trigger::Once { at }) => write!(f, "once {}", format_datetime(*at)),
            When::Time(Trigger::Daily { time }) => write!(f, "daily {}", format_time(*time)),
            When::Time(Trigger::Weekly { weekdays, time }) if is_workdays(weekdays) => {
                write!(f, "workdays {}", format_time(*time))
            }
            When::Time(Trigger::Weekly { weekdays, time }) => {
                let days: Vec<&str> = weekdays.iter().map(|d| weekday_name(*d)).collect();
                write!(f, "weekly {} {}", days.join(","), format_time(*time))
            }
            When::Time(Trigger::Monthly { day, time }) => match day {
                MonthDay::Day(d) => write!(f, "monthly {d} {}", format_time(*time)),
                MonthDay::Last => write!(f, "monthly last {}", format_time(*time)),
            },
            When::Time(Trigger::Cron { expression }) => write!(f, "cron {expression}"),
            When::Event(e) => {
                write!(f, "on {}", e.event)?;
                let filter = e.filter.describe();
                if !filter.is_empty() {
                    write!(f, " ({filter})")?;
                }
                Ok(())
            }
        }
    }
}

/// Returns true for exactly Monday to Friday, the "workdays" preset.
fn is_workdays(days: &[Weekday]) -> bool {
    use Weekday::*;
    days == [Monday, Tuesday, Wednesday, Thursday, Friday]
}

/// Names an event a schedule can fire on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    /// A task's status became `done` (read from `task_events`).
    #[serde(rename = "task.completed")]
    TaskCompleted,
    /// A Job of another schedule ended `failed`.
    #[serde(rename = "job.failed")]
    JobFailed,
}

impl EventKind {
    /// Returns the stored and CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::TaskCompleted => "task.completed",
            EventKind::JobFailed => "job.failed",
        }
    }

    /// Parses the CLI spelling; refuses anything else, naming the accepted ones.
    pub fn parse(text: &str) -> Result<EventKind> {
        match text.trim() {
            "task.completed" => Ok(EventKind::TaskCompleted),
            "job.failed" => Ok(EventKind::JobFailed),
            _ => Err(Error::invalid("on", text, "events are task.completed and job.failed")),
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Holds the deterministic filter of an event trigger: every given field must match
/// the task the event is about. Matching never calls a model (SPEC §6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventFilter {
    /// The task's project key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// A tag the task carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// The task's type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub task_type: Option<String>,
}

impl EventFilter {
    /// Returns `project HRB, tag x, type bug` for the given fields.
    pub fn describe(&self) -> String {
        [
            self.project.as_ref().map(|p| format!("project {p}")),
            self.tag.as_ref().map(|t| format!("tag {t}")),
            self.task_type.as_ref().map(|t| format!("type {t}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
    }

    /// Returns true when a task with this project, tags and type passes the filter.
    pub fn matches(&self, project: &str, tags: &[String], task_type: &str) -> bool {
        self.project.as_deref().is_none_or(|p| p.eq_ignore_ascii_case(project))
            && self.tag.as_deref().is_none_or(|t| tags.iter().any(|have| have == t))
            && self.task_type.as_deref().is_none_or(|t| t == task_type)
    }
}

/// Holds an event trigger: the event, its filter, the dedupe window and the cooldown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventTrigger {
    /// The event.
    pub event: EventKind,
    /// Which tasks' events count.
    #[serde(default)]
    pub filter: EventFilter,
    /// Events about the same task within this many seconds of the last Job's event make
    /// no new Job.
    pub dedupe_seconds: u64,
    /// After an event Job, further events within this many seconds make no Job at all.
    pub cooldown_seconds: u64,
}

/// Describes what a firing does. Frozen into every Job's snapshot at creation, so a
/// later edit of the schedule affects later Jobs only (SPEC §6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Sets the task's due to the firing's local date and reopens it if done: a
    /// recurring to-do stays one task.
    Due,
    /// Runs a program.
    Command(CommandAction),
    /// Stores a prompt for an LLM run with tools, run by the conversation (issue 6).
    Prompt(PromptAction),
}

impl Action {
    /// Returns the stored kind (`due`, `command`, `prompt`).
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Due => "due",
            Action::Command(_) => "command",
            Action::Prompt(_) => "prompt",
        }
    }
}

/// Holds a `command` action: argv without a shell, and its budgets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandAction {
    /// The program and its arguments, run without a shell.
    pub argv: Vec<String>,
    /// The absolute working directory, frozen at creation.
    pub workdir: String,
    /// Names of environment variables passed through from the daemon; nothing else is.
    pub env_allow: Vec<String>,
    /// Killed after this many seconds; the Job fails with reason timeout.
    pub timeout_seconds: u64,
    /// Output bytes kept (stdout and stderr together); the rest is dropped with a note.
    pub output_budget_bytes: u64,
}

/// Says what a `prompt` run may do with tools (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptMode {
    /// Read-only tools.
    Ask,
    /// The tools the snapshot allows; a tool that needs approval parks the Job in
    /// `waiting_approval`.
    Execute,
}

impl PromptMode {
    /// Returns the stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PromptMode::Ask => "ask",
            PromptMode::Execute => "execute",
        }
    }
}

/// Holds a `prompt` action with everything frozen at creation (SPEC §6: mode, tools,
/// approval policy, budgets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptAction {
    /// The prompt text.
    pub text: String,
    /// Ask (read-only tools) or execute.
    pub mode: PromptMode,
    /// The tool set: `read_only` for ask, `tasks` (the task tools) for execute.
    pub tools: String,
    /// When a tool call needs approval: `writes` (every write) for execute; `never`
    /// for ask, which has no write tools.
    pub approval: String,
    /// Longest run, seconds.
    pub timeout_seconds: u64,
    /// Most tool calls.
    pub max_tool_calls: u32,
    /// Output bytes kept.
    pub output_budget_bytes: u64,
    /// Most model calls (each round of tool results costs one).
    #[serde(default = "default_model_calls")]
    pub max_model_calls: u32,
}

impl PromptAction {
    /// A prompt action with the mode's tools and approval rule and the default budgets
    /// (`ops::schedule::limits`): what `schedule add --prompt` and the page's create both
    /// freeze.
    pub fn new(text: impl Into<String>, mode: PromptMode) -> PromptAction {
        use crate::ops::schedule::limits::{
            DEFAULT_OUTPUT_BUDGET, DEFAULT_PROMPT_MODEL_CALLS, DEFAULT_PROMPT_TIMEOUT, DEFAULT_PROMPT_TOOL_CALLS,
        };
        let (tools, approval) = match mode {
            PromptMode::Ask => ("read_only", "never"),
            PromptMode::Execute => ("tasks", "writes"),
        };
        PromptAction {
            text: text.into(),
            mode,
            tools: tools.into(),
            approval: approval.into(),
            timeout_seconds: DEFAULT_PROMPT_TIMEOUT.as_secs(),
            max_tool_calls: DEFAULT_PROMPT_TOOL_CALLS,
            output_budget_bytes: DEFAULT_OUTPUT_BUDGET,
            max_model_calls: DEFAULT_PROMPT_MODEL_CALLS,
        }
    }
}

fn default_model_calls() -> u32 {
    crate::ops::schedule::limits::DEFAULT_PROMPT_MODEL_CALLS
}

/// Names the kind of a Job (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// A planned firing.
    ScheduledOccurrence,
    /// `run-now`.
    Manual,
    /// An event trigger matched.
    Event,
}

/// Names the state of a Job (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    /// Waiting to start (or, for a prompt, parked in the conversation queue).
    Queued,
    /// A Run is in progress.
    Running,
    /// A prompt run waits for a person to approve a tool call.
    WaitingApproval,
    /// Ended well.
    Succeeded,
    /// Ended badly (exit code, timeout, configuration).
    Failed,
    /// Never ran (overlap, a dismissed task).
    Skipped,
    /// Waits for a retry after a transient failure.
    Deferred,
    /// Removed before it ran.
    Cancelled,
    /// The daemon stopped while it ran; never replayed.
    Interrupted,
    /// An external side effect may have happened; never retried.
    OutcomeUnknown,
}

macro_rules! spelled {
    ($ty:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        impl $ty {
            /// Returns the stored spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),+ }
            }

            /// Reads the stored spelling.
            pub fn parse(text: &str) -> Option<$ty> {
                match text { $($text => Some($ty::$variant),)+ _ => None }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

spelled!(JobKind { ScheduledOccurrence = "scheduled_occurrence", Manual = "manual", Event = "event" });
spelled!(JobState {
    Queued = "queued",
    Running = "running",
    WaitingApproval = "waiting_approval",
    Succeeded = "succeeded",
    Failed = "failed",
    Skipped = "skipped",
    Deferred = "deferred",
    Cancelled = "cancelled",
    Interrupted = "interrupted",
    OutcomeUnknown = "outcome_unknown",
});
spelled!(RunState {
    Running = "running",
    Succeeded = "succeeded",
    Failed = "failed",
    Interrupted = "interrupted",
    OutcomeUnknown = "outcome_unknown",
});

impl JobState {
    /// The states in which a Job holds one of its schedule's active slots — the one
    /// list the store's queries and the overlap rule both read.
    pub const ACTIVE: &'static [JobState] =
        &[JobState::Queued, JobState::Running, JobState::WaitingApproval, JobState::Deferred];

    /// Returns true while the Job holds one of its schedule's active slots.
    pub fn is_active(self) -> bool {
        JobState::ACTIVE.contains(&self)
    }
}

/// Names the state of a Run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunState {
    /// In progress.
    Running,
    /// Exit code 0.
    Succeeded,
    /// Non-zero exit, timeout, or the program could not start.
    Failed,
    /// The daemon stopped while it ran.
    Interrupted,
    /// Killed by a signal nobody here sent: it may have done part of its work.
    OutcomeUnknown,
}

/// Holds what a Job froze when it was made: the action, trigger, zone and plan version
/// of its schedule at that moment, and the task key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobSnapshot {
    /// The task key.
    pub task: String,
    /// The action to run.
    pub action: Action,
    /// The trigger as stored (`When::to_json`).
    pub trigger: Value,
    /// The trigger as text (`daily 09:00`).
    pub trigger_text: String,
    /// The schedule's zone.
    pub zone: String,
    /// The schedule's plan version.
    pub plan_version: i64,
    /// The conversation firings post into.
    pub conversation_id: i64,
}

#[cfg(test)]
mod tests {
    use jiff::civil::Time;

    use super::*;

    #[track_caller]
    fn check_text(when: When, expected: &str) {
        assert_eq!(when.to_string(), expected);
        let back = When::from_stored(when.kind(), &when.to_json().to_string()).expect("round trip");
        assert_eq!(back, when);
    }

    #[test]
    fn trigger_texts_round_trip() {
        let nine = Time::constant(9, 0, 0, 0);
        check_text(When::Time(Trigger::Daily { time: nine }), "daily 09:00");
        check_text(When::Time(Trigger::workdays(nine)), "workdays 09:00");
        check_text(
            When::Time(Trigger::Weekly { weekdays: vec![Weekday::Monday, Weekday::Friday], time: nine }),
            "weekly mon,fri 09:00",
        );
        check_text(When::Time(Trigger::Monthly { day: MonthDay::Last, time: nine }), "monthly last 09:00");
        check_text(When::Time(Trigger::Cron { expression: "*/30 9-18 * * 1-5".into() }), "cron */30 9-18 * * 1-5");
        check_text(
            When::Event(EventTrigger {
                event: EventKind::TaskCompleted,
                filter: EventFilter { project: Some("HRB".into()), tag: None, task_type: Some("bug".into()) },
                dedupe_seconds: 60,
                cooldown_seconds: 0,
            }),
            "on task.completed (project HRB, type bug)",
        );
    }

    #[test]
    fn filters() {
        let f = EventFilter { project: Some("hrb".into()), tag: Some("x".into()), task_type: None };
        assert!(f.matches("HRB", &["x".into(), "y".into()], "task"));
        assert!(!f.matches("HRB", &["y".into()], "task"));
        assert!(!f.matches("OPS", &["x".into()], "task"));
        assert!(EventFilter::default().matches("ANY", &[], "bug"));
    }
}
