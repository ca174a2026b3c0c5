//! `project add` and `project list`, and the inbox made on first use (SPEC §3).

use crate::error::Result;
use crate::keys::{self, INBOX_KEY};
use crate::model::{Project, ProjectKind};
use crate::ops::Context;
use crate::port::{Engine, Writes};

/// Creates a project with an uppercase key.
pub fn add(store: &mut dyn Engine, ctx: &Context, key: &str, name: &str, description: &str) -> Result<Project> {
    let key = keys::parse_project_key(key)?;
    let name = if name.trim().is_empty() { key.clone() } else { name.trim().to_string() };
    store.write(|tx| tx.insert_project(&key, &name, description.trim(), ProjectKind::Project, None, ctx.now_ms()))
}

/// A project with its count of open tasks.
#[derive(Debug, Clone)]
pub struct ProjectSummary {
    /// The project.
    pub project: Project,
    /// Open and in-progress tasks in it.
    pub open_tasks: i64,
}

/// Lists every project with its open task count.
pub fn list(store: &dyn Engine) -> Result<Vec<ProjectSummary>> {
    let counts = store.reader().open_counts()?;
    Ok(store
        .reader()
        .projects()?
        .into_iter()
        .map(|p| ProjectSummary { open_tasks: counts.get(&p.id).copied().unwrap_or(0), project: p })
        .collect())
}

/// Lists every project without counting its tasks (what the conversation files tasks
/// into; the counts cost a scan of every task).
pub fn all(store: &dyn Engine) -> Result<Vec<Project>> {
    store.reader().projects()
}

/// Returns the project for `key`, or the inbox (made on first use) when `key` is `None`.
pub(crate) fn resolve_or_inbox(tx: &dyn Writes, key: Option<&str>, now: i64) -> Result<Project> {
    match key {
        Some(k) => {
            let upper = k.trim().to_ascii_uppercase();
            if upper == INBOX_KEY {
                return inbox(tx, now);
            }
            tx.project_by_key(&upper)?.ok_or_else(|| crate::Error::NotFound { what: "project", value: k.to_string() })
        }
        None => inbox(tx, now),
    }
}

/// Returns the default inbox, creating it on first use.
pub(crate) fn inbox(tx: &dyn Writes, now: i64) -> Result<Project> {
    if let Some(p) = tx.project_by_key(INBOX_KEY)? {
        return Ok(p);
    }
    tx.insert_project(INBOX_KEY, "Inbox", "Tasks not filed into a project yet", ProjectKind::Inbox, None, now)
}

/// Returns the inbox of a messaging account, creating it on first use.
pub(crate) fn account_inbox(tx: &dyn Writes, account_id: &str, now: i64) -> Result<Project> {
    if let Some(p) = tx.project_by_account(account_id)? {
        return Ok(p);
    }
    let key = keys::account_inbox_key(account_id);
    tx.insert_project(&key, &format!("Inbox {account_id}"), "", ProjectKind::Inbox, Some(account_id), now)
}
