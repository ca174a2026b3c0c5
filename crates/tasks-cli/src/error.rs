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
    /// The duplicate candidates of a refused add, shown before the hints (rendered by
    /// the caller of [`CliError::report`]: errors know no presentation).
    pub candidates: Vec<tasks_core::dedup::Candidate>,
}

/// Every exit code `tasks` uses, with its code string and what it means (the man page's
/// EXIT STATUS section and the README's table; a test keeps the README in step).
pub const EXIT_CODES: &[(u8, &str, &str)] = &[
    (0, "ok", "the command did what it was asked"),
    (1, "other", "something else failed (a file that cannot be written)"),
    (2, "validation", "bad input: a flag, date, amount, cron, JSON line or command that cannot be read; a cycle"),
    (3, "configuration", "a bad variable or config file; a store that is not a tasks store or is damaged"),
    (4, "authentication", "the model provider refused the API key"),
    (5, "permission", "the store cannot be written (read-only file or directory)"),
    (6, "not_found", "a task, project, file or change (undo) that is not there"),
    (7, "confirmation_required", "a probable duplicate: rerun with --attach KEY or --new"),
    (8, "rate_limited", "the model provider is rate limiting"),
    (9, "timeout", "another process held the store's write lock too long; the model did not answer in time"),
    (10, "network", "the model cannot be reached"),
    (11, "provider_error", "the model provider refused the request"),
    (12, "provider_unavailable", "the model provider failed (5xx)"),
    (13, "invalid_response", "the model's answer was not a valid tool call"),
    (15, "conflict", "a claim held by someone else, a blocked task, a later change undo would overwrite"),
];

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
            candidates: Vec::new(),
        }
    }

    /// Builds a validation error (exit 2).
    pub fn validation(message: impl Into<String>, hint: Option<String>) -> CliError {
        CliError {
            code: "validation",
            message: message.into(),
            details: Value::Object(Map::new()),
            hints: hint.into_iter().collect(),
            candidates: Vec::new(),
        }
    }

    /// Builds an error of another kind (exit 1).
    pub fn other(message: impl Into<String>) -> CliError {
        CliError {
            code: "other",
            message: message.into(),
            details: Value::Object(Map::new()),
            hints: Vec::new(),
            candidates: Vec::new(),
        }
    }

    /// Prints the error (human text or JSON on stderr) and returns its exit code;
    /// `render` draws the duplicate candidates of the human text.
    pub fn report(&self, json: bool, render: &dyn Fn(&[tasks_core::dedup::Candidate]) -> String) -> ExitCode {
        if json {
            eprintln!("{}", wire::error_object(self.code, &self.message, self.details.clone()));
        } else {
            // A message quotes what was given (a title, a value): shown, never run.
            for (i, line) in self.message.lines().enumerate() {
                let line = tasks_text::printable(line);
                if i == 0 { eprintln!("error: {line}") } else { eprintln!("{line}") }
            }
            if !self.candidates.is_empty() {
                eprint!("{}", render(&self.candidates));
            }
            for h in &self.hints {
                eprintln!("{}", tasks_text::printable(h));
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
        let candidates = match &e {
            Error::ProbableDuplicate { candidates, .. } => candidates.clone(),
            _ => Vec::new(),
        };
        CliError {
            code: wire::error_code(&e),
            message: e.to_string(),
            details: wire::error_details(&e),
            hints: hints_for(&e),
            candidates,
        }
    }
}

/// Reports a clap parse failure: help and version go to stdout with exit 0; a usage
/// error is a validation error (exit 2), as JSON when `--json` was on the line.
pub fn clap_failure(e: clap::Error, json: bool) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::InvalidSubcommand
        && let Some(ContextValue::String(word)) = e.get(ContextKind::InvalidSubcommand)
    {
        return unknown_verb(word).report(json, &|_| String::new());
    }
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

/// Verbs of other task tools, and common slips, with what `tasks` calls them. Checked
/// before any spelling guess: `delete` must never be answered with a command that
/// changes something else (clap's nearest spelling of it is `release`).
const VERB_EQUIVALENTS: &[(&str, &str, &str)] = &[
    ("delete", "dismiss", "tasks never deletes a task; dismiss closes it without doing it"),
    ("rm", "dismiss", "tasks never deletes a task; dismiss closes it without doing it"),
    ("remove", "dismiss", "tasks never deletes a task; dismiss closes it without doing it"),
    ("del", "dismiss", "tasks never deletes a task; dismiss closes it without doing it"),
    ("cancel", "dismiss", "a cancelled task is dismissed"),
    ("complete", "done", ""),
    ("finish", "done", ""),
    ("close", "done", "or dismiss, when it was not done"),
    ("new", "add", ""),
    ("create", "add", ""),
    ("ls", "list", ""),
    ("find", "search", ""),
    ("grep", "search", ""),
    ("annotate", "note", ""),
    ("comment", "note", ""),
    ("revert", "undo", ""),
    ("modify", "edit", ""),
    ("mod", "edit", ""),
    ("info", "show", ""),
    ("view", "show", ""),
    ("log", "history", ""),
    ("today", "agenda", "tasks agenda today"),
    ("take", "claim", ""),
    ("unclaim", "release", ""),
];

/// Commands a spelling guess may name: they only read, so a wrong guess costs nothing.
const READ_ONLY_VERBS: &[&str] =
    &["list", "search", "show", "history", "ready", "blocked", "agenda", "graph", "check", "export", "jobs", "prime"];

/// The error of an unknown subcommand, with the command it most likely means.
fn unknown_verb(word: &str) -> CliError {
    let lower = word.to_lowercase();
    let tip = if let Some((_, verb, why)) = VERB_EQUIVALENTS.iter().find(|(w, _, _)| *w == lower) {
        if why.is_empty() {
            format!("hint: did you mean tasks {verb}?")
        } else {
            format!("hint: did you mean tasks {verb}? ({why})")
        }
    } else {
        match READ_ONLY_VERBS.iter().map(|v| (edit_distance(&lower, v), *v)).min() {
            Some((d, verb)) if d <= 2 => format!("hint: did you mean tasks {verb}?"),
            _ => "hint: tasks --help lists the commands".to_string(),
        }
    };
    let shown = tasks_text::printable(word).into_owned();
    let mut details = Map::new();
    details.insert("subcommand".into(), Value::String(shown.clone()));
    CliError {
        code: "validation",
        message: format!("unknown command '{shown}'"),
        details: Value::Object(details),
        hints: vec![tip],
        candidates: Vec::new(),
    }
}

/// Levenshtein distance over characters (short words only).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod verb_tests {
    use super::*;

    #[test]
    fn a_mistyped_verb_suggests_an_equivalent_or_a_read_only_one() {
        let tip = |w: &str| unknown_verb(w).hints[0].clone();
        assert!(tip("delete").contains("tasks dismiss"), "{}", tip("delete"));
        assert!(tip("rm").contains("tasks dismiss"));
        assert!(tip("serch").contains("tasks search"));
        assert!(tip("lst").contains("tasks list"));
        assert_eq!(tip("frobnicate"), "hint: tasks --help lists the commands");
        // Never a command that changes something for a guess.
        for w in ["relase", "dne", "strat", "claimm"] {
            let t = tip(w);
            assert!(
                !["release", "done", "start", "claim"].iter().any(|v| t.contains(&format!("tasks {v}?"))),
                "{w}: {t}"
            );
        }
    }
}
