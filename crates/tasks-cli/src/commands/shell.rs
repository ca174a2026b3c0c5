//! `tasks completions SHELL` and `tasks man`: generated from the clap definitions, so
//! they never drift from the real flags. The man page adds ENVIRONMENT and EXIT STATUS
//! from the same tables the code uses; `tasks man COMMAND` prints one command's page,
//! `tasks man --dir DIR` writes every page.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;
use crate::error::{CliError, EXIT_CODES};

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

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A command whose own page to print (`tasks man add`, `tasks man schedule add`)
    #[arg(num_args = 0..)]
    pub command: Vec<String>,
    /// Write every page into this directory (tasks.1, tasks-add.1, …) instead
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn man(a: &ManArgs) -> Result<(), CliError> {
    let root = Cli::command();
    if let Some(dir) = &a.dir {
        std::fs::create_dir_all(dir).map_err(|e| CliError::other(format!("cannot create {}: {e}", dir.display())))?;
        let mut pages = vec![(String::from("tasks"), root.clone())];
        collect(&root, "tasks", &mut pages);
        for (name, cmd) in &pages {
            let path = dir.join(format!("{name}.1"));
            let page = render(cmd.clone(), name, name == "tasks")?;
            std::fs::write(&path, page)
                .map_err(|e| CliError::other(format!("cannot write {}: {e}", path.display())))?;
        }
        println!("Wrote {} pages to {}", pages.len(), dir.display());
        return Ok(());
    }
    let (name, cmd) = if a.command.is_empty() {
        ("tasks".to_string(), root)
    } else {
        let mut cmd = root;
        let mut name = String::from("tasks");
        for word in &a.command {
            cmd = cmd.find_subcommand(word).cloned().ok_or_else(|| {
                CliError::validation(
                    format!("man: no command {name} {word}"),
                    Some("hint: tasks --help lists the commands".into()),
                )
            })?;
            name = format!("{name}-{word}");
        }
        (name, cmd)
    };
    let page = render(cmd, &name, a.command.is_empty())?;
    std::io::stdout().write_all(&page).map_err(|e| CliError::other(format!("cannot write the man page: {e}")))
}

/// Every subcommand, depth first, named `tasks-a-b`.
fn collect(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("{prefix}-{}", sub.get_name());
        out.push((name.clone(), sub.clone()));
        collect(sub, &name, out);
    }
}

/// Renders one page; the main page also gets ENVIRONMENT and EXIT STATUS.
fn render(cmd: clap::Command, name: &str, main: bool) -> Result<Vec<u8>, CliError> {
    // clap names are `&'static str` (its `string` feature is off); a man page is printed
    // once per process, so the few bytes of each page's name are leaked on purpose.
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    let cmd = cmd.name(name);
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| CliError::other(format!("cannot render the man page: {e}")))?;
    if main {
        out.extend_from_slice(b".SH ENVIRONMENT\n");
        for (var, meaning) in crate::env::DESCRIBED {
            out.extend_from_slice(format!(".TP\n\\fB{}\\fR\n{}\n", roff(var), roff(meaning)).as_bytes());
        }
        out.extend_from_slice(b".SH \"EXIT STATUS\"\n");
        for (code, name, meaning) in EXIT_CODES {
            out.extend_from_slice(format!(".TP\n\\fB{code}\\fR\n{} ({name})\n", roff(meaning)).as_bytes());
        }
        out.extend_from_slice(b".SH \"SEE ALSO\"\ntasks man COMMAND for one command's page; tasks COMMAND --help.\n");
    }
    Ok(out)
}

/// Escapes text for roff: backslashes, and a leading dot or quote.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') { format!("\\&{t}") } else { t }
}
