//! What one turn is read against: the projects, and the open tasks that may matter —
//! bounded, because a store may hold 100,000 (issue 11).
//!
//! With at most [`FULL_SCAN_MAX_OPEN`] open tasks every one of them is a candidate, so
//! the guard and the offline parser judge against the whole list. Above that the
//! candidates are the ones the message's words retrieve from the store's index (stems,
//! cross-language concepts, and every form of a first name it mentions, so «Анечке»
//! finds «Ане»), today's and overdue tasks, the tasks written out by key in the message
//! or the quoted message, and the last list shown. A task that fits the words is
//! retrieved by them, so "another task fits about as well" is still judged against all
//! tasks that could fit; what retrieval misses (a typo in the only word that names a
//! task) leaves the guard with nothing that fits, and it asks.
//!
//! The order is the order the model sees them in (it is sent the first
//! [`crate::prompt::MAX_TASKS_SENT`]): named ones first, then the best retrieved, then
//! the agenda, then the rest.

use std::collections::HashSet;

use tasks_core::Error;
use tasks_core::model::{DueKind, Status, Task};
use tasks_core::ops::query::{self, ListQuery, SearchQuery, Sort};
use tasks_core::ops::{Context, project};
use tasks_core::port::Engine;

use crate::matching::Candidate;
use crate::offline::ProjectName;
use crate::phrase::{self, Phrase};
use crate::prompt::TaskLine;

/// Up to this many open tasks, every open task is a candidate. A candidate costs its
/// title's stems, concepts and name forms — about 14 µs (measured, release build) — so
/// 500 cost about 7 ms; above that the words' retrieval is as good and far cheaper.
pub const FULL_SCAN_MAX_OPEN: usize = 500;

/// Most tasks the words retrieve.
pub const SEARCH_LIMIT: usize = 100;

/// Most of today's and overdue tasks taken.
pub const AGENDA_LIMIT: usize = 50;

/// The candidates of one turn.
#[derive(Debug, Clone, Default)]
pub struct Situation {
    /// The open tasks that may matter, in the order the model sees them.
    pub tasks: Vec<Task>,
    /// The same tasks as the matcher reads them.
    pub candidates: Vec<Candidate>,
    /// Every project (not the inbox), with its description.
    pub projects: Vec<(ProjectName, String)>,
    /// Whether `tasks` holds every open task.
    pub complete: bool,
}

impl Situation {
    /// Gathers the situation of a message.
    pub fn gather(
        store: &dyn Engine,
        ctx: &Context,
        text: &str,
        quoted: Option<&str>,
        shown: &[String],
    ) -> tasks_core::Result<Situation> {
        let mut s = Situation { projects: projects(store)?, ..Situation::default() };
        let mut seen = HashSet::new();
        let mut named: Vec<String> = keys_written(text);
        if let Some(q) = quoted {
            named.extend(keys_written(q));
        }
        named.extend(shown.iter().cloned());
        for key in named {
            s.add_key(store, &key, &mut seen)?;
        }
        let mut words = text.to_string();
        for w in text.split_whitespace() {
            for form in tasks_text::names::name_forms(w.trim_matches(|c: char| !c.is_alphanumeric())) {
                words.push(' ');
                words.push_str(form);
            }
        }
        for t in query::search(store, &SearchQuery { text: words, open_only: true, limit: SEARCH_LIMIT })? {
            s.push(t, &mut seen);
        }
        // Today's and overdue tasks, latest due first: the ones a message is most likely
        // about, read from the due index alone (the agenda's readiness order read every
        // due row at 100k tasks to sort them: 3 of a turn's 8 ms).
        let agenda = ListQuery {
            due_before: ctx.today().tomorrow().ok(),
            sort: Sort::LatestDue,
            limit: Some(AGENDA_LIMIT),
            ..ListQuery::default()
        };
        for t in query::list(store, &agenda)? {
            s.push(t, &mut seen);
        }
        if query::count_open(store, FULL_SCAN_MAX_OPEN + 1)? <= FULL_SCAN_MAX_OPEN {
            s.complete = true;
            let open = ListQuery {
                statuses: vec![Status::Open, Status::InProgress],
                limit: Some(FULL_SCAN_MAX_OPEN),
                ..ListQuery::default()
            };
            for t in query::list(store, &open)? {
                s.push(t, &mut seen);
            }
        }
        Ok(s)
    }

    /// Adds the task of a key when it is open and not yet here (a model's target that
    /// was not sent to it is judged like any other).
    pub fn add_key(&mut self, store: &dyn Engine, key: &str, seen: &mut HashSet<String>) -> tasks_core::Result<()> {
        if seen.contains(key) {
            return Ok(());
        }
        match query::get(store, key) {
            Ok(t) if !t.status.is_closed() => self.push(t, seen),
            Ok(_) | Err(Error::NotFound { .. } | Error::Ambiguous { .. } | Error::Invalid { .. }) => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Adds the open tasks of keys not yet here.
    pub fn add_keys(&mut self, store: &dyn Engine, keys: &[String]) -> tasks_core::Result<()> {
        let mut seen: HashSet<String> = self.tasks.iter().map(|t| t.key.clone()).collect();
        for k in keys {
            self.add_key(store, k, &mut seen)?;
        }
        Ok(())
    }

    fn push(&mut self, t: Task, seen: &mut HashSet<String>) {
        if seen.insert(t.key.clone()) {
            self.candidates.push(Candidate::new(&t.key, &t.title));
            self.tasks.push(t);
        }
    }

    /// Returns the projects tasks may be filed into (what the dispatcher reads a
    /// project name against).
    pub fn project_list(store: &dyn Engine) -> tasks_core::Result<Vec<ProjectName>> {
        Ok(projects(store)?.into_iter().map(|(p, _)| p).collect())
    }

    /// Returns the project names the parser and the dispatcher file tasks into.
    pub fn project_names(&self) -> Vec<ProjectName> {
        self.projects.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Returns the tasks as the model sees them.
    pub fn task_lines(&self) -> Vec<TaskLine> {
        self.tasks
            .iter()
            .map(|t| TaskLine {
                key: t.key.clone(),
                title: t.title.clone(),
                project: t.project.clone(),
                due: t.due.map(|d| d.date.to_string()),
                due_kind: match t.due.map(|d| d.kind) {
                    None => "none",
                    Some(DueKind::Week) => "week",
                    Some(_) => "day",
                }
                .to_string(),
            })
            .collect()
    }
}

/// Returns the task keys written in a text, uppercase.
pub fn keys_written(text: &str) -> Vec<String> {
    phrase::keys_in(&Phrase::new(text)).into_iter().map(|(k, _)| k).collect()
}

fn projects(store: &dyn Engine) -> tasks_core::Result<Vec<(ProjectName, String)>> {
    Ok(project::all(store)?
        .into_iter()
        .filter(|p| p.kind == tasks_core::model::ProjectKind::Project)
        .map(|p| (ProjectName { key: p.key, name: p.name, description: p.description.clone() }, p.description))
        .collect())
}
