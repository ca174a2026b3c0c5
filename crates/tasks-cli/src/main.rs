//! The `tasks` binary: parse arguments, resolve the environment once (store path,
//! clock, actor, zone), call one `tasks-core` operation, render, exit with the code of
//! SPEC §9. All rules live in `tasks-core`; this crate is glue.

mod commands;
mod config;
mod env;
mod error;
mod locks;
mod render;
mod vars;

use std::process::ExitCode;

use clap::Parser;

use crate::commands::Cli;
use crate::error::CliError;

fn main() -> ExitCode {
    env::capture();
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let json = raw.iter().any(|a| a == "--json");
    let argv = match utf8_arguments(raw) {
        Ok(argv) => argv,
        Err(e) => return e.report(json, &render_candidates),
    };
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => return error::clap_failure(e, json),
    };
    let json = cli.global.json;
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(json, &render_candidates),
    }
}

/// Returns the arguments as text, or a validation error (exit 2) naming the first one
/// that is not UTF-8. Every value `tasks` reads from the command line is text (titles,
/// keys, dates); a path given as a non-UTF-8 argument is refused rather than guessed.
fn utf8_arguments(raw: Vec<std::ffi::OsString>) -> Result<Vec<String>> {
    raw.into_iter()
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                CliError::validation(
                    format!("argument {i} is not valid UTF-8: {}", a.to_string_lossy()),
                    Some("hint: arguments must be UTF-8 text; check the terminal's locale".into()),
                )
            })
        })
        .collect()
}

/// The binary's result type.
type Result<T> = std::result::Result<T, CliError>;

/// Draws a refused add's duplicate candidates for the error's human text.
fn render_candidates(candidates: &[tasks_core::dedup::Candidate]) -> String {
    render::candidates(candidates, &render::Style::from_env())
}
