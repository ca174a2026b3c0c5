//! The `tasks` binary: parse arguments, resolve the environment once (store path,
//! clock, actor, zone), call one `tasks-core` operation, render, exit with the code of
//! SPEC §9. All rules live in `tasks-core`; this crate is glue.

mod commands;
mod config;
mod env;
mod error;
mod render;

use std::process::ExitCode;

use clap::Parser;

use crate::commands::Cli;
use crate::error::CliError;

fn main() -> ExitCode {
    env::capture();
    let argv: Vec<String> = std::env::args().collect();
    let json = argv.iter().any(|a| a == "--json");
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => return error::clap_failure(e, json),
    };
    let json = cli.global.json;
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(json),
    }
}

/// Keeps the error type in scope for commands.
#[allow(dead_code)]
type Result<T> = std::result::Result<T, CliError>;
