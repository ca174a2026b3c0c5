//! The `--json` answer of `tasks chat` (SPEC §10):
//! `{"calls": [{"tool", "arguments"}], "reply", "source", "dry_run", "results"?,
//! "model_error"?}`. A question is a `clarify` call; a message not understood is a
//! `reject` call. `results` (absent on a dry run) says what each call did, with the
//! task in the same shape as every other command's.

use serde::Serialize;
use serde_json::Value;
use tasks_core::wire as core_wire;

use crate::calls::Call;
use crate::dispatch::Outcome;
use crate::turn::TurnOutput;

#[derive(Serialize)]
struct TurnJson<'a> {
    calls: Vec<CallJson>,
    reply: &'a str,
    source: &'static str,
    dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<Vec<ResultJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_error: Option<String>,
}

#[derive(Serialize)]
struct CallJson {
    tool: &'static str,
    arguments: Value,
}

#[derive(Serialize)]
struct ResultJson {
    tool: &'static str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    task: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    candidates: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

impl ResultJson {
    fn new(tool: &'static str, status: &'static str) -> ResultJson {
        ResultJson { tool, status, task: None, before: None, tasks: None, candidates: None, reason: None }
    }
}

fn call(c: &Call) -> CallJson {
    CallJson { tool: c.tool(), arguments: c.arguments() }
}

fn result(o: &Outcome, tool: &'static str, now_ms: i64) -> ResultJson {
    let task = |t| Some(core_wire::task(t, now_ms));
    match o {
        Outcome::Created(t) => ResultJson { task: task(t), ..ResultJson::new(tool, "created") },
        Outcome::HeldBack { candidates, .. } => ResultJson {
            candidates: Some(candidates.iter().map(core_wire::candidate).collect()),
            ..ResultJson::new(tool, "held_back")
        },
        Outcome::Closed(t) => ResultJson { task: task(t), ..ResultJson::new(tool, "closed") },
        Outcome::Cancelled(t) => ResultJson { task: task(t), ..ResultJson::new(tool, "cancelled") },
        Outcome::Updated { before, after } => {
            ResultJson { task: task(after), before: task(before), ..ResultJson::new(tool, "updated") }
        }
        Outcome::Listed { tasks, .. } => ResultJson {
            tasks: Some(tasks.iter().map(|t| core_wire::task(t, now_ms)).collect()),
            ..ResultJson::new(tool, "listed")
        },
        Outcome::Deferred(tasks) => ResultJson {
            tasks: Some(tasks.iter().map(|t| core_wire::task(t, now_ms)).collect()),
            ..ResultJson::new(tool, "deferred")
        },
        Outcome::Undone(u) => ResultJson {
            tasks: Some(u.tasks.iter().map(|t| core_wire::task(t, now_ms)).collect()),
            ..ResultJson::new(tool, "undone")
        },
        Outcome::Said(text) => ResultJson { reason: Some(text.clone()), ..ResultJson::new(tool, "said") },
        Outcome::Asked(_) => ResultJson::new(tool, "asked"),
        Outcome::Rejected(reason) => ResultJson { reason: Some(reason.clone()), ..ResultJson::new(tool, "rejected") },
        Outcome::Skipped { reason, .. } => {
            ResultJson { reason: Some(reason.clone()), ..ResultJson::new(tool, "skipped") }
        }
    }
}

/// Returns the JSON answer of a turn.
pub fn turn(out: &TurnOutput, now_ms: i64) -> Value {
    let json = TurnJson {
        calls: out.calls.iter().map(call).collect(),
        reply: &out.reply,
        source: out.source.as_str(),
        dry_run: out.dry_run,
        // `/undo` has no tool call; its one result is named `undo`.
        results: (!out.dry_run).then(|| {
            if out.calls.is_empty() {
                out.outcomes.iter().map(|o| result(o, "undo", now_ms)).collect()
            } else {
                out.calls.iter().zip(&out.outcomes).map(|(c, o)| result(o, c.tool(), now_ms)).collect()
            }
        }),
        model_error: out.model_error.as_ref().map(ToString::to_string),
    };
    serde_json::to_value(json).unwrap_or(Value::Null)
}
