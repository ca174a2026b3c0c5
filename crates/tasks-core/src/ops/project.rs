//! `project add` and `project list`, and the inbox made on first use (SPEC §3).

use crate::error::Result;
use crate::keys::{self, INBOX_KEY};
use crate::model::{Project, ProjectKind};
use crate::ops::Context;
use crate::store::{Store, Tx, projects};

/// Creates a project with an uppercase key.
pub fn add(store: &mut Store, ctx: &Context, key: &str, name: &str, description: &str) -> Result<Project> {
    let key = keys::parse_project_key(key)?;
    let name = if name.trim().is_empty() { key.clone() } else { name.trim().to_string() };
    store.write(|tx| projects::insert(tx, &key, &name, description.trim(), ProjectKind::Project, None, ctx.now_ms()))
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
pub fn list(store: &Store) -> Result<Vec<ProjectSummary>> {
    let counts = projects::open_counts(store.conn())?;
    Ok(projects::list(store.conn())?
        .into_iter()
        .map(|p| ProjectSummary { open_tasks: counts.get(&p.id).copied().unwrap_or(0), project: p })
        .collect())
}

/// Lists every project without counting its tasks (what the conversation files tasks
/// into; the counts cost a scan of every task).
pub fn all(store: &Store) -> Result<Vec<Project>> {
    projects::list(store.conn())
}

/// Returns the project for `key`, or the inbox (made on first use) when `key` is `None`.
pub(crate) fn resolve_or_inbox(tx: &Tx<'_>, key: Option<&str>, now: i64) -> Result<Project> {
    match key {
        Some(k) => {
            let upper = k.trim().to_ascii_uppercase();
            if upper == INBOX_KEY {
                return inbox(tx, now);
            }
            projects::by_key(tx, &upper)?
                .ok_or_else(|| crate::Error::NotFound { what: "project", value: k.to_string() })
        }
        None => inbox(tx, now),
    }
}

/// Returns the default inbox, creating it on first use.
pub(crate) fn inbox(tx: &Tx<'_>, now: i64) -> Result<Project> {
    if let Some(p) = projects::by_key(tx, INBOX_KEY)? {
        return Ok(p);
    }
    projects::insert(tx, INBOX_KEY, "Inbox", "Tasks not filed into a project yet", ProjectKind::Inbox, None, now)
}

/// Returns the inbox of a messaging account, creating it on first use.
pub(crate) fn account_inbox(tx: &Tx<'_>, account_id: &str, now: i64) -> Result<Project> {
    if let Some(p) = projects::by_account(tx, account_id)? {
        return Ok(p);
    }
    let key = keys::account_inbox_key(account_id);
    projects::insert(tx, &key, &format!("Inbox {account_id}"), "", ProjectKind::Inbox, Some(account_id), now)
}
