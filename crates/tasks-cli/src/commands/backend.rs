//! The store a command runs on: a SQLite file, or the team's PostgreSQL store when
//! `TASKS_DB`/`--db` is a `postgres://` URL. Both are the core's port
//! ([`tasks_core::port::Engine`]): every command that goes through `tasks_core::ops`
//! calls the same function on either. A command that still needs what only the SQLite
//! store has asks for it with [`Backend::sqlite`], which refuses on PostgreSQL with the
//! reason, before anything is read or written.

use tasks_core::Store;
use tasks_core::port::Engine;
use tasks_pg::PgStore;

use crate::error::CliError;

/// The store of this run.
pub enum Backend {
    /// A SQLite file (or an empty store in memory for a read before the first write).
    Sqlite(Store),
    /// The team store.
    Postgres(Box<PgStore>),
}

impl Backend {
    /// Returns the store as the port, for writes.
    pub fn engine(&mut self) -> &mut dyn Engine {
        match self {
            Backend::Sqlite(s) => s,
            Backend::Postgres(p) => &mut **p,
        }
    }

    /// Returns the store as the port, for reads.
    pub fn reads(&self) -> &dyn Engine {
        match self {
            Backend::Sqlite(s) => s,
            Backend::Postgres(p) => &**p,
        }
    }

    /// Returns the SQLite store, or refuses on PostgreSQL: `what` names the command and
    /// `why` says what the team store lacks for it.
    pub fn sqlite(&mut self, what: &str, why: &str) -> Result<&mut Store, CliError> {
        match self {
            Backend::Sqlite(s) => Ok(s),
            Backend::Postgres(p) => Err(refusal(what, why, p.target())),
        }
    }

    /// Like [`Backend::sqlite`], for a read.
    pub fn sqlite_ref(&self, what: &str, why: &str) -> Result<&Store, CliError> {
        match self {
            Backend::Sqlite(s) => Ok(s),
            Backend::Postgres(p) => Err(refusal(what, why, p.target())),
        }
    }

    /// The SQLite store of a command that runs on a file only (the daemon's lock, the
    /// in-process run of `run-now`); refused by name on a team store.
    pub fn file_ref(&self) -> Result<&Store, CliError> {
        self.sqlite_ref("this command", SQLITE_ONLY)
    }

    /// Returns where the store is, for messages (a URL without its password).
    pub fn describe(&self) -> String {
        match self {
            Backend::Sqlite(s) => s.path().display().to_string(),
            Backend::Postgres(p) => p.target().to_string(),
        }
    }
}

/// The store of a run is the port: `ops::x(&mut app.store, …)` runs on either engine.
impl Engine for Backend {
    fn reader(&self) -> &dyn tasks_core::port::Reads {
        self.reads().reader()
    }

    fn run_write(
        &mut self,
        end: tasks_core::port::WriteEnd,
        f: &mut dyn FnMut(&dyn tasks_core::port::Writes) -> tasks_core::Result<()>,
    ) -> tasks_core::Result<()> {
        self.engine().run_write(end, f)
    }

    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn Engine) -> tasks_core::Result<()>) -> tasks_core::Result<()> {
        self.engine().run_batch(f)
    }

    fn reconnect_if_lost(&mut self) -> tasks_core::Result<()> {
        self.engine().reconnect_if_lost()
    }
}

/// The general reason of [`Backend::file`].
const SQLITE_ONLY: &str = "it runs on a SQLite store only so far";

/// The refusal of a command the team store cannot run yet (exit 3: a configuration
/// the command does not fit).
pub(super) fn refusal(what: &str, why: &str, target: &str) -> CliError {
    CliError::config(
        format!("`tasks {what}` does not run on a PostgreSQL store ({target}): {why}"),
        Some("hint: run it against a SQLite store (TASKS_DB=PATH), or tasks export | TASKS_DB=PATH tasks import -"),
    )
}
