//! One error value for the CLI: the core's error (or a CLI-level one) with its code
//! string, exit code (SPEC §9) and `hint:` lines. One value renders both the human text
//! and the `--json` error object, so the two never disagree.

use std::process::ExitCode;

use serde_json::{Map, Value};
use tasks_core::{Error, wire};

/// An error on its way out of the binary.
#[derive(Debug)]
pub struct CliError {
    /// Code string shared with MCP (`validation`, `conflict` …).
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// Machine-readable details.
    pub details: Value,
    /// Lines that tell the user what to do, each starting with `hint:`.
    pub hints: Vec<String>,
    /// Extra human text printed before the hints (e.g. duplicate candidates).
    pub body: Option<String>,
}

/// Returns the exit code of a code string (SPEC §9).
pub fn exit_code(code: &str) -> u8 {
    match code {
        "validation" => 2,
        "configuration" => 3,
        "authentication" => 4,
        "permission" => 5,
        "not_found" => 6,
        "confirmation_required" => 7,
        "rate_limited" => 8,
        "timeout" => 9,
        "network" => 10,
        "provider_error" => 11,
        "provider_unavailable" => 12,
        "invalid_response" => 13,
        "outcome_unknown" => 14,
        "conflict" => 15,
        "cancelled" => 130,
        _ => 1,
    }
}

impl CliError {
    /// Builds a configuration error (exit 3).
    pub fn config(message: impl Into<String>, hint: Option<&str>) -> CliError {
        CliError {
            code: "configuration",
            message: message.into(),
            details: Value::Object(Map::new()),
            hints: hint.map(|h| vec![h.to_string()]).unwrap_or_default(),
            body: None,
        }
    }

    /// Builds a validation error (exit 2).
    pub fn validation(message: impl Into<String>, hint: Option<String>) -> CliError {
        CliError {
            code: "validation",
            message: message.into(),
            details: Value::Object(Map::new()),
            hints: hint.into_iter().collect(),
            body: None,
        }
    }

    /// Builds an error of another kind (exit 1).
    pub fn other(message: impl Into<String>) -> CliError {
        CliError {
            code: "other",
            message: message.into(),
            details: Value::Object(Map::new()),
            hints: Vec::new(),
            body: None,
        }
    }

    /// Prints the error (human text or JSON on stderr) and returns its exit code.
    pub fn report(&self, json: bool) -> ExitCode {
        if json {
            eprintln!("{}", wire::error_object(self.code, &self.message, self.details.clone()));
        } else {
            eprintln!("error: {}", self.message);
            if let Some(body) = &self.body {
                eprint!("{body}");
            }
            for h in &self.hints {
                eprintln!("{h}");
            }
        }
        ExitCode::from(exit_code(self.code))
    }
}

fn hints_for(e: &Error) -> Vec<String> {
    match e {
        Error::NotFound { what: "task", .. } => vec!["hint: tasks list --status all shows every task".into()],
        Error::NotFound { what: "project", .. } => {
            vec!["hint: tasks project list shows the projects; tasks project add KEY NAME makes one".into()]
        }
        Error::Ambiguous { .. } => vec!["hint: give the key, or more digits of the UUID".into()],
        Error::Cycle { path, .. } => {
            vec![format!("hint: tasks graph {} shows the links", path.first().cloned().unwrap_or_default())]
        }
        Error::Claimed { .. } => vec!["hint: tasks next --claim picks another ready task".into()],
        Error::Blocked { key, .. } => vec![format!("hint: tasks graph {key} shows what it waits for")],
        Error::NothingReady { .. } => {
            vec!["hint: tasks blocked shows what waits; tasks list shows everything open".into()]
        }
        Error::ProbableDuplicate { candidates, .. } => {
            let best = candidates.first().map(|c| c.key.as_str()).unwrap_or("KEY");
            vec![format!(
                "hint: rerun with --attach {best} to attach it to that task, or with --new to create it anyway"
            )]
        }
        Error::StoreTooNew { .. } => vec!["hint: use a newer tasks, or point TASKS_DB at another store".into()],
        Error::ImportLine { .. } => {
            vec!["hint: fix the line, or rerun with --skip-bad to import the other lines".into()]
        }
        Error::Schedule(s) => match (s.hint(), s) {
            (Some(h), _) => vec![format!("hint: {h}")],
            (
                None,
                tasks_schedule::ScheduleError::CronField { .. } | tasks_schedule::ScheduleError::CronShape { .. },
            ) => {
                vec!["hint: five fields: minute hour day-of-month month day-of-week, e.g. --cron \"*/30 9-18 * * 1-5\" (numbers, *, ranges, lists, steps; weekday 0-7)".into()]
            }
            _ => Vec::new(),
        },
        Error::ScheduleExists { key, .. } => {
            vec![format!("hint: add --replace to change it (plan version + 1), or tasks schedule remove {key} first")]
        }
        Error::DaemonRunning { .. } => {
            vec!["hint: only one daemon runs per store; tasks jobs shows what it runs, systemctl --user stop tasks-daemon stops it".into()]
        }
        _ => Vec::new(),
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> CliError {
        let body = match &e {
            Error::ProbableDuplicate { candidates, .. } => Some(crate::render::candidates(candidates)),
            _ => None,
        };
        CliError {
            code: wire::error_code(&e),
            message: e.to_string(),
            details: wire::error_details(&e),
            hints: hints_for(&e),
            body,
        }
    }
}

/// Reports a clap parse failure: help and version go to stdout with exit 0; a usage
/// error is a validation error (exit 2), as JSON when `--json` was on the line.
pub fn clap_failure(e: clap::Error, json: bool) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        // A family named without its subcommand (`tasks schedule`): help for people,
        // one error object for scripts.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if !json => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ if json => {
            let message = e.to_string();
            let first = if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                "a subcommand is needed; see the usage".to_string()
            } else {
                message.lines().next().unwrap_or("").trim_start_matches("error: ").to_string()
            };
            let mut details = Map::new();
            details.insert("usage".into(), Value::String(message.clone()));
            eprintln!("{}", wire::error_object("validation", &first, Value::Object(details)));
            ExitCode::from(2)
        }
        _ => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}
