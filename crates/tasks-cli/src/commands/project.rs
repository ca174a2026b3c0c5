//! `tasks project add KEY NAME [--description TEXT]` and `tasks project list`.

use clap::{Args, Subcommand};
use tasks_core::{ops, wire};

use super::App;
use crate::error::CliError;

#[derive(Debug, Subcommand)]
pub enum ProjectCommand {
    /// Create a project; its KEY prefixes task keys (HRB → HRB-1)
    Add(ProjectAddArgs),
    /// List projects with their open task counts
    List,
}

#[derive(Debug, Args)]
pub struct ProjectAddArgs {
    /// Key: a Latin letter, then letters or digits (uppercased)
    pub key: String,
    /// Name [default: the key]
    pub name: Option<String>,
    /// What belongs here (used to classify free text)
    #[arg(long, default_value = "")]
    pub description: String,
}

pub fn run(app: &mut App, cmd: ProjectCommand) -> Result<(), CliError> {
    match cmd {
        ProjectCommand::Add(a) => {
            let p =
                ops::project::add(&mut app.store, &app.ctx, &a.key, a.name.as_deref().unwrap_or(""), &a.description)?;
            app.print(|| wire::project_created(&p), || format!("Created project {}\n", p.key));
        }
        ProjectCommand::List => {
            let list = ops::project::list(&app.store)?;
            app.print(|| wire::project_list(&list), || list_text(&list));
        }
    }
    Ok(())
}

/// The human text of the project list.
pub fn list_text(list: &[ops::project::ProjectSummary]) -> String {
    if list.is_empty() {
        return "No projects yet.\nhint: tasks project add KEY NAME\n".into();
    }
    let mut out = String::new();
    for s in list {
        out.push_str(&format!(
            "{:<12} {:>4} open  {:<7} {}{}\n",
            s.project.key,
            s.open_tasks,
            s.project.kind.as_str(),
            s.project.name,
            if s.project.description.is_empty() { String::new() } else { format!(" — {}", s.project.description) }
        ));
    }
    out
}
