//! `tasks completions SHELL` and `tasks man`: generated from the clap definitions, so
//! they never drift from the real flags.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

pub fn completions(args: &CompletionsArgs) -> Result<(), CliError> {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "tasks", &mut std::io::stdout());
    Ok(())
}

pub fn man() -> Result<(), CliError> {
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd)
        .render(&mut std::io::stdout())
        .map_err(|e| CliError::other(format!("cannot write the man page: {e}")))
}
