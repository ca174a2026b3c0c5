//! The core's error type: every variant carries what the user needs to act (the value,
//! the field, the holder of a claim, the cycle path, the line of an import).
//!
//! Deliberately one enum rather than one per operation family (see docs/decisions.md):
//! the verbs share most failure modes (bad value, missing task, store trouble), and one
//! enum keeps the single translation to codes (`wire::error_code`) and exit codes
//! (`tasks-cli`) exhaustive. This module knows no exit codes and prints no hints.

use crate::dedup::Candidate;

/// Everything that can go wrong in a core operation.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A value could not be read or is out of range.
    #[error("{field}: cannot use \"{value}\": {reason}")]
    Invalid {
        /// Which field or flag.
        field: &'static str,
        /// The value as given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Something named does not exist.
    #[error("{what} \"{value}\" not found")]
    NotFound {
        /// What kind of thing (`task`, `project`).
        what: &'static str,
        /// The reference as given.
        value: String,
    },
    /// A reference matches more than one task.
    #[error("\"{value}\" matches {} tasks: {}", matches.len(), matches.join(", "))]
    Ambiguous {
        /// The reference as given.
        value: String,
        /// Keys it matched.
        matches: Vec<String>,
    },
    /// A project with this key exists already.
    #[error("project {key} exists already")]
    ProjectExists {
        /// The key.
        key: String,
    },
    /// The link would close a cycle; the path starts and ends at the same task.
    #[error("{kind} would close a cycle: {}", path.join(" → "))]
    Cycle {
        /// The link kind.
        kind: &'static str,
        /// Keys along the cycle, first == last.
        path: Vec<String>,
    },
    /// A task cannot be linked to itself.
    #[error("{key} cannot be {kind} itself")]
    SelfLink {
        /// The task.
        key: String,
        /// The link kind.
        kind: &'static str,
    },
    /// The claim is held by someone else.
    #[error("{key} is claimed by {holder} until {until}")]
    Claimed {
        /// The task.
        key: String,
        /// Who holds the lease.
        holder: String,
        /// Lease end, RFC 3339.
        until: String,
    },
    /// The task is blocked by open tasks.
    #[error("{key} is blocked by {}", blockers.join(", "))]
    Blocked {
        /// The task.
        key: String,
        /// Open blockers.
        blockers: Vec<String>,
    },
    /// The task's state does not allow the operation.
    #[error("{key} is {status}: {reason}")]
    WrongState {
        /// The task.
        key: String,
        /// Its status.
        status: String,
        /// Why that matters.
        reason: String,
    },
    /// The caller tried to release a lease it does not hold.
    #[error("{key} is not claimed by {actor}")]
    NotHolder {
        /// The task.
        key: String,
        /// Who asked.
        actor: String,
    },
    /// `undo` found nothing of this actor's to revert.
    #[error("nothing to undo: {actor} has made no change that is not undone yet")]
    NothingToUndo {
        /// Who asked.
        actor: String,
    },
    /// `undo` would revert a change that a later, standing change depends on.
    #[error("cannot undo: {key} was changed later by {by} ({what}); undo or revert that first")]
    UndoBlocked {
        /// The task changed later.
        key: String,
        /// Who changed it.
        by: String,
        /// What they did.
        what: String,
    },
    /// `undo` does not revert this kind of change.
    #[error("cannot undo {what} on {key}: {reason}")]
    CannotUndo {
        /// The task.
        key: String,
        /// The change.
        what: String,
        /// Why, and what to do instead.
        reason: String,
    },
    /// No task is ready to be claimed.
    #[error("no ready task{}", if filter.is_empty() { String::new() } else { format!(" matches {filter}") })]
    NothingReady {
        /// A description of the filters used, possibly empty.
        filter: String,
    },
    /// The new task looks like an existing one; the caller must choose.
    #[error("{} possible duplicate{} of \"{title}\": {}", candidates.len(), if candidates.len() == 1 { "" } else { "s" }, candidates.iter().map(|c| c.key.as_str()).collect::<Vec<_>>().join(", "))]
    ProbableDuplicate {
        /// The title that was refused.
        title: String,
        /// Ranked candidates, best first.
        candidates: Vec<Candidate>,
    },
    /// A line of an import file is bad; nothing of the file was written.
    #[error("line {line}{}: {message}", field.map(|f| format!(", field {f}")).unwrap_or_default())]
    ImportLine {
        /// 1-based line number.
        line: usize,
        /// The field at fault, when known.
        field: Option<&'static str>,
        /// What was wrong.
        message: String,
    },
    /// The store was written by a newer `tasks`.
    #[error("the store at {path} has schema version {found}, newer than this tasks ({supported})")]
    StoreTooNew {
        /// Store path.
        path: String,
        /// Version in the file.
        found: i64,
        /// Newest version this binary knows.
        supported: i64,
    },
    /// The store could not be opened where asked.
    #[error("cannot open the store at {path}: {reason}")]
    StoreOpen {
        /// Store path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The store file (or its directory) cannot be written.
    #[error("the store at {path} is read-only: {reason}")]
    StoreReadOnly {
        /// Store path.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// A trigger, zone or time of a schedule was refused (issue 5).
    #[error(transparent)]
    Schedule(#[from] tasks_schedule::ScheduleError),
    /// The task has a live schedule already; `--replace` edits it.
    #[error("{key} already has schedule #{schedule_id}")]
    ScheduleExists {
        /// The task.
        key: String,
        /// The live schedule.
        schedule_id: i64,
    },
    /// Another daemon (or run-now) holds the daemon lock of this store.
    #[error("a tasks daemon is already running for this store (lock {lock})")]
    DaemonRunning {
        /// The lock file.
        lock: String,
    },
    /// A JSON value kept in the store (event changes, decision levels, an action
    /// snapshot) could not be read or written: the file was edited by hand or is damaged.
    #[error("store holds malformed JSON: {0}")]
    StoredJson(#[from] serde_json::Error),
    /// SQLite failed.
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The team store on PostgreSQL (crate `tasks-pg`) failed; the message is the
    /// server's, never the connection string (which may hold a password).
    #[error("store (PostgreSQL): {0}")]
    Postgres(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
}

impl Error {
    /// Builds an `Invalid` error.
    pub fn invalid(field: &'static str, value: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Invalid { field, value: value.into(), reason: reason.into() }
    }

    /// Builds a `NotFound` error for a task reference.
    pub fn task_not_found(value: impl Into<String>) -> Self {
        Error::NotFound { what: "task", value: value.into() }
    }

    /// Returns true when SQLite gave up waiting for the write lock.
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    || e.code == rusqlite::ErrorCode::DatabaseLocked
        )
    }
}

/// The core's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
