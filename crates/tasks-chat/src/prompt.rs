//! What the model is told (SPEC §7, seed 001): a system prompt with its role, the
//! projects and their descriptions, the date and matching rules and the tools; then,
//! per message, today's date and weekday, the open tasks that may matter, the last list
//! shown, the quoted bot message, and the message.
//!
//! The open tasks are bounded: a store may hold 100,000. The router sends the ones the
//! message's words retrieve, today's and overdue, and the ones the conversation just
//! showed — at most [`MAX_TASKS_SENT`], each line cut to [`MAX_TITLE_CHARS`] — which
//! keeps the prompt under 8k tokens whatever the store's size. The guard checks targets
//! against the whole store, not only what was sent.

use jiff::civil::Date;
use serde_json::{Value, json};

use crate::llm::Message;
use crate::offline::ProjectName;

/// Most open tasks sent to the model. A typical line is ~20 tokens (120 lines ≈ 2.5k);
/// even 120 lines of 80 Cyrillic characters, the worst case, stay with the rules and the
/// tools under 8k tokens (tested).
pub const MAX_TASKS_SENT: usize = 120;

/// Longest title sent, in characters.
pub const MAX_TITLE_CHARS: usize = 80;

/// Longest quoted message sent, in characters.
pub const MAX_QUOTE_CHARS: usize = 2_000;

/// An open task as the model sees it.
#[derive(Debug, Clone)]
pub struct TaskLine {
    /// Key.
    pub key: String,
    /// Title.
    pub title: String,
    /// Project key.
    pub project: String,
    /// Due date, `YYYY-MM-DD`.
    pub due: Option<String>,
    /// `none`, `day` or `week`.
    pub due_kind: String,
}

/// Everything one request carries.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    /// Today.
    pub today: Date,
    /// The projects.
    pub projects: &'a [(ProjectName, String)],
    /// The open tasks sent (at most [`MAX_TASKS_SENT`] are used).
    pub tasks: &'a [TaskLine],
    /// The last numbered list shown: keys in order.
    pub shown: &'a [String],
    /// The bot message the person replied to.
    pub quoted: Option<&'a str>,
    /// The message.
    pub text: &'a str,
}

const RULES: &str = "You turn one message about a person's task list into tool calls. \
You only handle tasks: for greetings, questions about anything else or chit-chat call reject \
with reason \"I only handle tasks\" (in the message's language). \
Call one or more tools, in the order the message asks; never answer with prose.\n\
Matching: a task is named by its key, its position in the last list shown (\"the second\", \
«вторую»), or words of its title in any form or language (\"called Anya\" fits «Позвонить Ане …»). \
Act on a task only when exactly one open task fits. When two or more fit about as well \
(two tasks about Аня, two invoices), call clarify with the question and every fitting task as \
\"KEY: title\" — never pick one. When none fits, call reject and say so. \
Close (close_task) what the person did; cancel (cancel_task) what is no longer needed; \
move (update_task with a deadline) what they reschedule.\n\
Dates: deadline is YYYY-MM-DD. A weekday is the next such day after today; \"next <weekday>\" \
is that day in the next calendar week (weeks run Monday–Sunday); \"this week\", \"end of week\", \
«до конца недели» are deadline_kind week with that week's Sunday; \"next week\" the next Sunday; \
\"end of month\" its last day; no date means deadline_kind none. \
New tasks: text without the command words and the date; choose the project whose description \
fits, else leave project empty (inbox).";

/// Returns the tool definitions (OpenAI function-calling format).
pub fn tools() -> Value {
    let deadline = json!({
        "deadline_kind": {"type": "string", "enum": ["none", "day", "week"], "description": "none, a day, or a week (deadline = its Sunday)"},
        "deadline": {"type": "string", "description": "YYYY-MM-DD"}
    });
    let tool = |name: &str, description: &str, properties: Value, required: &[&str]| {
        json!({"type": "function", "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required}
        }})
    };
    let mut create = json!({"text": {"type": "string"}, "project": {"type": "string", "description": "project key; empty for the inbox"}});
    let mut update = json!({"id": {"type": "string", "description": "task key, e.g. HOME-3"}, "text": {"type": "string"}, "project": {"type": "string"}});
    for (k, v) in deadline.as_object().into_iter().flatten() {
        create[k] = v.clone();
        update[k] = v.clone();
    }
    let id = json!({"id": {"type": "string", "description": "task key, e.g. HOME-3"}});
    Value::Array(vec![
        tool("create_task", "Create a task.", create, &["text", "deadline_kind"]),
        tool("update_task", "Change a task's text, project or deadline.", update, &["id"]),
        tool("close_task", "Mark a task done.", id.clone(), &["id"]),
        tool("cancel_task", "Cancel a task that is no longer needed.", id, &["id"]),
        tool(
            "list_tasks",
            "Show tasks.",
            json!({"filter": {"type": "string", "enum": ["today", "inbox", "overdue", "done", "all_by_project"]},
                   "period": {"type": "string", "enum": ["today", "week", "all"], "description": "for done"}}),
            &["filter"],
        ),
        tool("defer_today_to_tomorrow", "Move every task due today to tomorrow.", json!({}), &[]),
        tool(
            "clarify",
            "Ask which task is meant when several fit.",
            json!({"question": {"type": "string"}, "options": {"type": "array", "items": {"type": "string"}, "description": "\"KEY: title\" for each task that fits"}}),
            &["question", "options"],
        ),
        tool("reject", "Refuse: not about tasks, or nothing fits.", json!({"reason": {"type": "string"}}), &["reason"]),
    ])
}

/// Returns the definitions of the named tools only, in [`tools`] order (a scheduled
/// prompt is offered exactly the tools its snapshot allows).
pub fn tools_named(names: &[&str]) -> Value {
    let all = tools();
    Value::Array(
        all.as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["function"]["name"].as_str().is_some_and(|n| names.contains(&n)))
            .cloned()
            .collect(),
    )
}

/// The rules of a scheduled prompt's run (seed 004 §6).
const PROMPT_RULES: &str = "You run a prompt a person scheduled to run by itself. Use the tools offered \
to read (and, when offered, change) their task list, then answer with a short plain-text result for them \
to read later in their chat — in the language of the prompt. Do only what the prompt asks. The tools \
you are offered are all you may use; when the prompt needs more, say so in your answer.";

/// Returns the messages of a scheduled prompt's first model call: the rules, the
/// projects, today and the open tasks, then the prompt.
pub fn prompt_messages(c: &Context<'_>) -> Vec<Message> {
    let mut m = messages(c);
    let first = m[0].text().replacen(RULES, PROMPT_RULES, 1);
    m[0] = Message::system(first);
    m
}

/// Returns a text cut to `max` characters on one line (a task line must stay one line:
/// a title with a line break would read as another task).
fn cut(text: &str, max: usize) -> String {
    cut_lines(text, max).replace('\n', " ")
}

/// Returns a text cut to `max` characters, its lines kept (a quoted list reads as one).
fn cut_lines(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out.replace("\r\n", "\n").replace('\r', "\n")
}

/// Returns the messages of one request: the system prompt and the message with its
/// context.
pub fn messages(c: &Context<'_>) -> Vec<Message> {
    let mut system = String::from(RULES);
    system.push_str("\n\nProjects (key: name — description):\n");
    for (p, description) in c.projects {
        system.push_str(&format!("- {}: {} — {}\n", p.key, p.name, cut(description, 200)));
    }
    system.push_str("- INBOX: tasks without a project\n");
    let mut user = format!("Today: {} ({})\n", c.today, c.today.strftime("%A"));
    user.push_str("Open tasks (key | text | project | deadline | deadline_kind):\n");
    for t in c.tasks.iter().take(MAX_TASKS_SENT) {
        user.push_str(&format!(
            "{} | {} | {} | {} | {}\n",
            t.key,
            cut(&t.title, MAX_TITLE_CHARS),
            t.project,
            t.due.as_deref().unwrap_or("-"),
            t.due_kind
        ));
    }
    if !c.shown.is_empty() {
        user.push_str("Last list shown to the person, numbered: ");
        let numbered: Vec<String> = c.shown.iter().enumerate().map(|(i, k)| format!("{}. {k}", i + 1)).collect();
        user.push_str(&numbered.join(", "));
        user.push('\n');
    }
    if let Some(q) = c.quoted {
        user.push_str(&format!("The person replies to this bot message:\n«{}»\n", cut_lines(q, MAX_QUOTE_CHARS)));
    }
    user.push_str(&format!("Message: {}", c.text));
    vec![Message::system(system), Message::user(user)]
}

/// Returns a rough count of the tokens of some messages (4 characters a token for
/// Latin text, 2 for Cyrillic), for the prompt-size benchmark and tests.
pub fn approx_tokens(messages: &[Message]) -> usize {
    messages
        .iter()
        .map(|m| {
            let cyr = m.text().chars().filter(|c| matches!(c, 'а'..='я' | 'А'..='Я')).count();
            let other = m.text().chars().count() - cyr;
            cyr / 2 + other / 4
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_defined_once() {
        let tools = tools();
        let names: Vec<&str> =
            tools.as_array().expect("array").iter().filter_map(|t| t["function"]["name"].as_str()).collect();
        assert_eq!(names, crate::calls::TOOL_NAMES);
    }

    #[test]
    fn the_prompt_stays_bounded_however_many_tasks_are_given() {
        let tasks: Vec<TaskLine> = (0..1000)
            .map(|i| TaskLine {
                key: format!("HRB-{i}"),
                title: "Позвонить Ане про плитку и обсудить доставку материалов на следующей неделе".repeat(3),
                project: "HRB".into(),
                due: Some("2026-03-12".into()),
                due_kind: "day".into(),
            })
            .collect();
        let projects = vec![(
            ProjectName { key: "HRB".into(), name: "Harbor".into(), description: String::new() },
            "the app".to_string(),
        )];
        let c = Context {
            today: jiff::civil::date(2026, 3, 11),
            projects: &projects,
            tasks: &tasks,
            shown: &[],
            quoted: Some("quoted"),
            text: "сделала позвонить Ане",
        };
        let m = messages(&c);
        let tokens = approx_tokens(&m) + tools().to_string().len() / 4;
        assert!(tokens < 8_000, "{tokens} tokens");
        assert!(m[1].text().contains("Today: 2026-03-11 (Wednesday)"));
        assert!(m[1].text().contains("quoted"));
    }
}
