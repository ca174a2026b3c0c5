//! The conversation's tools (SPEC §7, §10) as one typed value, [`Call`]: what a model's
//! tool call, a slash command or the offline parser asks for. Read from a model's
//! `(name, arguments)` with an error that names what was wrong, and written back as
//! `{"tool", "arguments"}` for `--dry-run`.
//!
//! What it deliberately does not do: decide whether a call may run (that is `guard`) or
//! run it (that is `dispatch`).

use jiff::civil::Date;
use serde_json::{Map, Value};

/// How precise a deadline is (seed 001's `deadline_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineKind {
    /// No deadline.
    None,
    /// Due on that day.
    Day,
    /// Due within the week ending on that day (a Sunday).
    Week,
}

impl DeadlineKind {
    /// Returns the spelling in tool arguments.
    pub fn as_str(self) -> &'static str {
        match self {
            DeadlineKind::None => "none",
            DeadlineKind::Day => "day",
            DeadlineKind::Week => "week",
        }
    }

    fn parse(text: &str) -> Option<DeadlineKind> {
        match text {
            "none" => Some(DeadlineKind::None),
            "day" => Some(DeadlineKind::Day),
            "week" => Some(DeadlineKind::Week),
            _ => None,
        }
    }
}

/// The views `list_tasks` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListView {
    /// Due today or overdue.
    Today,
    /// In the inbox.
    Inbox,
    /// Due before today.
    Overdue,
    /// Done (in a period).
    Done,
    /// Every open task, by project.
    AllByProject,
}

impl ListView {
    /// Returns the spelling in tool arguments.
    pub fn as_str(self) -> &'static str {
        match self {
            ListView::Today => "today",
            ListView::Inbox => "inbox",
            ListView::Overdue => "overdue",
            ListView::Done => "done",
            ListView::AllByProject => "all_by_project",
        }
    }

    fn parse(text: &str) -> Option<ListView> {
        match text {
            "today" => Some(ListView::Today),
            "inbox" => Some(ListView::Inbox),
            "overdue" => Some(ListView::Overdue),
            "done" => Some(ListView::Done),
            "all_by_project" => Some(ListView::AllByProject),
            _ => None,
        }
    }
}

/// How far back `list_tasks(done)` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// Today.
    Today,
    /// The last seven days.
    Week,
    /// Always.
    All,
}

impl Period {
    /// Returns the spelling in tool arguments.
    pub fn as_str(self) -> &'static str {
        match self {
            Period::Today => "today",
            Period::Week => "week",
            Period::All => "all",
        }
    }

    /// Reads a spelling.
    pub fn parse(text: &str) -> Option<Period> {
        match text {
            "today" => Some(Period::Today),
            "week" => Some(Period::Week),
            "all" => Some(Period::All),
            _ => None,
        }
    }
}

/// A deadline as a tool gives it: its kind and, unless `none`, its date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    /// Kind.
    pub kind: DeadlineKind,
    /// The day (for a week, its Sunday); `None` with kind `none`.
    pub date: Option<Date>,
}

/// One thing the conversation asks to be done.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// A new task.
    CreateTask {
        /// Its title.
        text: String,
        /// Project key or name; `None` for the inbox.
        project: Option<String>,
        /// Its deadline.
        deadline: Deadline,
    },
    /// Change a task.
    UpdateTask {
        /// The task's key.
        id: String,
        /// New title.
        text: Option<String>,
        /// New project.
        project: Option<String>,
        /// New deadline (kind `none` clears it).
        deadline: Option<Deadline>,
    },
    /// The task is done.
    CloseTask {
        /// The task's key.
        id: String,
    },
    /// The task is not needed (dismissed).
    CancelTask {
        /// The task's key.
        id: String,
    },
    /// Show a view.
    ListTasks {
        /// Which.
        filter: ListView,
        /// For `done`: how far back.
        period: Option<Period>,
    },
    /// Move everything due today to tomorrow.
    DeferTodayToTomorrow,
    /// Ask the person to choose.
    Clarify {
        /// The question.
        question: String,
        /// The choices, `KEY: text` for tasks.
        options: Vec<String>,
    },
    /// Not a task request, or not understood.
    Reject {
        /// Why, in the person's words.
        reason: String,
    },
}

/// Every tool name, in the order the prompt lists them.
pub const TOOL_NAMES: &[&str] = &[
    "create_task",
    "update_task",
    "close_task",
    "cancel_task",
    "list_tasks",
    "defer_today_to_tomorrow",
    "clarify",
    "reject",
];

/// Why a model's tool call could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadCall {
    /// A tool that does not exist.
    #[error("unknown tool {0:?}")]
    UnknownTool(String),
    /// Arguments that are not a JSON object.
    #[error("the arguments of {tool} are not a JSON object")]
    NotAnObject {
        /// The tool.
        tool: String,
    },
    /// A required argument is missing or empty.
    #[error("{tool}: {argument} is missing")]
    Missing {
        /// The tool.
        tool: String,
        /// The argument.
        argument: &'static str,
    },
    /// An argument has a value the tool does not take.
    #[error("{tool}: {argument} cannot be {value:?}")]
    Invalid {
        /// The tool.
        tool: String,
        /// The argument.
        argument: &'static str,
        /// The value as given.
        value: String,
    },
}

impl Call {
    /// Returns the tool name.
    pub fn tool(&self) -> &'static str {
        match self {
            Call::CreateTask { .. } => "create_task",
            Call::UpdateTask { .. } => "update_task",
            Call::CloseTask { .. } => "close_task",
            Call::CancelTask { .. } => "cancel_task",
            Call::ListTasks { .. } => "list_tasks",
            Call::DeferTodayToTomorrow => "defer_today_to_tomorrow",
            Call::Clarify { .. } => "clarify",
            Call::Reject { .. } => "reject",
        }
    }

    /// Returns the key of the task a call changes, for the calls that name one.
    pub fn target(&self) -> Option<&str> {
        match self {
            Call::UpdateTask { id, .. } | Call::CloseTask { id } | Call::CancelTask { id } => Some(id),
            _ => None,
        }
    }

    /// Returns the same call aimed at another task (a choice made after a clarify).
    pub fn retarget(&self, key: &str) -> Call {
        let mut call = self.clone();
        match &mut call {
            Call::UpdateTask { id, .. } | Call::CloseTask { id } | Call::CancelTask { id } => *id = key.to_string(),
            _ => {}
        }
        call
    }

    /// Returns the arguments as the tool takes them.
    pub fn arguments(&self) -> Value {
        let mut o = Map::new();
        let mut put = |k: &str, v: Value| {
            o.insert(k.to_string(), v);
        };
        let deadline = |put: &mut dyn FnMut(&str, Value), d: &Deadline| {
            put("deadline_kind", Value::from(d.kind.as_str()));
            if let Some(date) = d.date {
                put("deadline", Value::from(date.to_string()));
            }
        };
        match self {
            Call::CreateTask { text, project, deadline: d } => {
                put("text", Value::from(text.clone()));
                if let Some(p) = project {
                    put("project", Value::from(p.clone()));
                }
                deadline(&mut put, d);
            }
            Call::UpdateTask { id, text, project, deadline: d } => {
                put("id", Value::from(id.clone()));
                if let Some(t) = text {
                    put("text", Value::from(t.clone()));
                }
                if let Some(p) = project {
                    put("project", Value::from(p.clone()));
                }
                if let Some(d) = d {
                    deadline(&mut put, d);
                }
            }
            Call::CloseTask { id } | Call::CancelTask { id } => put("id", Value::from(id.clone())),
            Call::ListTasks { filter, period } => {
                put("filter", Value::from(filter.as_str()));
                if let Some(p) = period {
                    put("period", Value::from(p.as_str()));
                }
            }
            Call::DeferTodayToTomorrow => {}
            Call::Clarify { question, options } => {
                put("question", Value::from(question.clone()));
                put("options", Value::from(options.clone()));
            }
            Call::Reject { reason } => put("reason", Value::from(reason.clone())),
        }
        Value::Object(o)
    }

    /// Reads a model's tool call: its name and its arguments (a JSON object, or a string
    /// holding one, as OpenAI-compatible APIs send them).
    pub fn from_tool(name: &str, arguments: &Value) -> Result<Call, BadCall> {
        let tool = name.trim();
        if !TOOL_NAMES.contains(&tool) {
            return Err(BadCall::UnknownTool(name.to_string()));
        }
        let parsed;
        let args = match arguments {
            Value::Object(o) => o,
            Value::String(s) if s.trim().is_empty() => {
                parsed = Map::new();
                &parsed
            }
            Value::String(s) => match serde_json::from_str::<Value>(s) {
                Ok(Value::Object(o)) => {
                    parsed = o;
                    &parsed
                }
                _ => return Err(BadCall::NotAnObject { tool: tool.to_string() }),
            },
            Value::Null => {
                parsed = Map::new();
                &parsed
            }
            _ => return Err(BadCall::NotAnObject { tool: tool.to_string() }),
        };
        let reader = Args { tool, args };
        Ok(match tool {
            "create_task" => Call::CreateTask {
                text: reader.required("text")?,
                project: reader.optional("project")?,
                deadline: reader.deadline()?.unwrap_or(Deadline { kind: DeadlineKind::None, date: None }),
            },
            "update_task" => Call::UpdateTask {
                id: reader.key()?,
                text: reader.optional("text")?,
                project: reader.optional("project")?,
                deadline: reader.deadline()?,
            },
            "close_task" => Call::CloseTask { id: reader.key()? },
            "cancel_task" => Call::CancelTask { id: reader.key()? },
            "list_tasks" => {
                let filter = reader.required("filter")?;
                let filter = ListView::parse(&filter).ok_or_else(|| reader.invalid("filter", &filter))?;
                let period = match reader.optional("period")? {
                    Some(p) => Some(Period::parse(&p).ok_or_else(|| reader.invalid("period", &p))?),
                    None => None,
                };
                Call::ListTasks { filter, period }
            }
            "defer_today_to_tomorrow" => Call::DeferTodayToTomorrow,
            "clarify" => {
                let options = match args.get("options") {
                    Some(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
                    _ => Vec::new(),
                };
                Call::Clarify { question: reader.required("question")?, options }
            }
            _ => Call::Reject { reason: reader.optional("reason")?.unwrap_or_default() },
        })
    }
}

/// Reads one tool's arguments.
struct Args<'a> {
    tool: &'a str,
    args: &'a Map<String, Value>,
}

impl Args<'_> {
    fn invalid(&self, argument: &'static str, value: &str) -> BadCall {
        BadCall::Invalid { tool: self.tool.to_string(), argument, value: value.to_string() }
    }

    fn optional(&self, argument: &'static str) -> Result<Option<String>, BadCall> {
        match self.args.get(argument) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(self.invalid(argument, &other.to_string())),
        }
    }

    fn required(&self, argument: &'static str) -> Result<String, BadCall> {
        self.optional(argument)?.ok_or(BadCall::Missing { tool: self.tool.to_string(), argument })
    }

    /// A task key, as `HRB-12` (upper-cased; the store resolves it).
    fn key(&self) -> Result<String, BadCall> {
        Ok(self.required("id")?.to_ascii_uppercase())
    }

    fn deadline(&self) -> Result<Option<Deadline>, BadCall> {
        let kind = match self.optional("deadline_kind")? {
            Some(k) => Some(DeadlineKind::parse(&k).ok_or_else(|| self.invalid("deadline_kind", &k))?),
            None => None,
        };
        let date = match self.optional("deadline")? {
            Some(d) => Some(d.parse::<Date>().map_err(|_| self.invalid("deadline", &d))?),
            None => None,
        };
        Ok(match (kind, date) {
            (None, None) => None,
            (Some(DeadlineKind::None), _) => Some(Deadline { kind: DeadlineKind::None, date: None }),
            (Some(kind), Some(date)) => Some(Deadline { kind, date: Some(date) }),
            (None, Some(date)) => Some(Deadline { kind: DeadlineKind::Day, date: Some(date) }),
            (Some(_), None) => return Err(BadCall::Missing { tool: self.tool.to_string(), argument: "deadline" }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[track_caller]
    fn read(name: &str, args: Value) -> Result<Call, BadCall> {
        Call::from_tool(name, &args)
    }

    #[test]
    fn every_tool_reads_and_writes_back() {
        let cases = [
            (
                "create_task",
                json!({"text": "Buy tiles", "project": "HOME", "deadline_kind": "day", "deadline": "2026-03-12"}),
            ),
            ("update_task", json!({"id": "HOME-3", "deadline_kind": "week", "deadline": "2026-03-15"})),
            ("close_task", json!({"id": "HOME-3"})),
            ("cancel_task", json!({"id": "CHAN-1"})),
            ("list_tasks", json!({"filter": "done", "period": "week"})),
            ("defer_today_to_tomorrow", json!({})),
            ("clarify", json!({"question": "Which one?", "options": ["HOME-1: a", "LIFE-1: b"]})),
            ("reject", json!({"reason": "I only handle tasks"})),
        ];
        for (name, args) in cases {
            let call = read(name, args.clone()).expect(name);
            assert_eq!(call.tool(), name);
            assert_eq!(call.arguments(), args, "{name} writes back what it read");
        }
    }

    #[test]
    fn arguments_as_a_string_are_read_too() {
        let call = Call::from_tool("close_task", &json!("{\"id\": \"hrb-2\"}")).expect("read");
        assert_eq!(call, Call::CloseTask { id: "HRB-2".into() });
    }

    #[test]
    fn bad_calls_say_what_was_wrong() {
        assert_eq!(read("delete_everything", json!({})), Err(BadCall::UnknownTool("delete_everything".into())));
        assert!(matches!(read("close_task", json!({})), Err(BadCall::Missing { argument: "id", .. })));
        assert!(matches!(read("close_task", json!([1])), Err(BadCall::NotAnObject { .. })));
        assert!(matches!(read("close_task", json!("not json")), Err(BadCall::NotAnObject { .. })));
        assert!(matches!(
            read("list_tasks", json!({"filter": "yesterday"})),
            Err(BadCall::Invalid { argument: "filter", .. })
        ));
        assert!(matches!(
            read("create_task", json!({"text": "x", "deadline_kind": "day"})),
            Err(BadCall::Missing { argument: "deadline", .. })
        ));
        assert!(matches!(
            read("create_task", json!({"text": "x", "deadline": "next friday"})),
            Err(BadCall::Invalid { argument: "deadline", .. })
        ));
    }
}
