//! The store: one SQLite file, opened in WAL mode with a busy timeout and foreign keys,
//! migrated forward by numbered SQL files embedded in the binary. This module and its
//! children are the only code that writes SQL (SPEC §11: a second backend is a new
//! module, not a rewrite).
//!
//! Every write goes through [`Store::write`], which runs one `BEGIN IMMEDIATE`
//! transaction: SQLite admits one writer at a time across processes, so counters,
//! claims and cycle checks read and write under the same lock. The store never reads
//! the clock or the environment: `now` arrives from the caller.

mod columns;
pub(crate) mod conversations;
pub(crate) mod dedup;
pub(crate) mod dump;

/// The tables the lossless export holds, in export order, with their record kinds (so
/// another engine — `tasks-pg` — exports and restores the same records).
pub use dump::DATA as DUMP_TABLES;

/// Returns the stored (not generated) columns of a table, in table order: what another
/// engine's schema must mirror for the lossless export to move rows between them.
pub fn stored_columns(store: &Store, table: &str) -> crate::Result<Vec<String>> {
    dump::columns(store.conn(), table)
}
pub(crate) mod embeddings;
pub(crate) mod engine;
pub mod events;
pub(crate) mod jobs;
pub(crate) mod links;
pub(crate) mod messages;
pub(crate) mod notes;
pub(crate) mod operations;
pub(crate) mod persons;
pub(crate) mod projects;
pub(crate) mod queue;
pub(crate) mod schedules;
pub(crate) mod tags;
pub(crate) mod tasks;

/// The stored columns of a due date (`due_at`, `due_kind`, `due_instant`), shared with
/// the PostgreSQL store so both engines write a due date the same way.
pub use tasks::{StoredTask, due_columns, order_by};

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::error::{Error, Result};

/// The page cache of a bulk write, KiB (256 MiB: a 100k-task store with its indexes
/// is ~80 MB, so an import's working set stays in memory).
pub const BULK_CACHE_KIB: i64 = 256 * 1024;

/// How long a writer waits for another process's write lock before giving up.
///
/// Writes here take well under 10 ms, so a 30 s wait only runs out when something holds
/// the lock pathologically; 8 processes claiming at once (issue 3) wait far less.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The migrations, in order: (version, name, SQL). Forward-only; a landed migration is
/// never edited — add a new one.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("migrations/0001_init.sql")),
    (2, "dedup", include_str!("migrations/0002_dedup.sql")),
    (3, "schedules", include_str!("migrations/0003_schedules.sql")),
    (4, "embeddings", include_str!("migrations/0004_embeddings.sql")),
    (5, "conversation_state", include_str!("migrations/0005_conversation_state.sql")),
    (6, "daily_use", include_str!("migrations/0006_daily_use.sql")),
    (7, "bot", include_str!("migrations/0007_bot.sql")),
    (8, "term_docs", include_str!("migrations/0008_term_docs.sql")),
    (9, "run_leases", include_str!("migrations/0009_run_leases.sql")),
];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// `execute` and `query_row` through the connection's statement cache. rusqlite's own
/// `Connection::execute`/`query_row` parse and plan their SQL on every call; the store
/// runs the same few dozen statements for every task written or read.
pub(crate) trait Cached {
    /// Like `Connection::execute`, with a cached statement.
    fn exec_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;
    /// Like `Connection::query_row`, with a cached statement.
    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl Cached for Connection {
    fn exec_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}

/// Prepared statements kept per connection (see [`Store::open`]).
pub const STATEMENT_CACHE: usize = 128;

/// An open store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The operation of the write transaction under way (see [`Tx::operation`]).
    op: Cell<Option<i64>>,
    /// Whether `open` made the file.
    created: bool,
}

/// A write transaction (`BEGIN IMMEDIATE`, or a savepoint of a [`Store::batch`]);
/// dereferences to the connection for reads.
pub struct Tx<'a> {
    tx: TxKind<'a>,
    /// The operation this transaction's events belong to (made on the first event).
    op: &'a Cell<Option<i64>>,
}

enum TxKind<'a> {
    Top(rusqlite::Transaction<'a>),
    Nested(rusqlite::Savepoint<'a>),
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        match &self.tx {
            TxKind::Top(t) => t,
            TxKind::Nested(s) => s,
        }
    }
}

impl Tx<'_> {
    /// Returns the id of this transaction's operation, making it on first use: every
    /// event of one command (and of one batch) belongs to one operation, which is what
    /// `tasks undo` reverts.
    pub(crate) fn operation(&self, at: i64, actor: &str) -> Result<i64> {
        if let Some(id) = self.op.get() {
            // A savepoint rolled back may have taken the row with it.
            let alive: Option<i64> =
                self.query_row_cached("SELECT id FROM operations WHERE id = ?1", [id], |r| r.get(0)).optional()?;
            if alive.is_some() {
                return Ok(id);
            }
        }
        self.exec_cached("INSERT INTO operations (at, actor) VALUES (?1, ?2)", rusqlite::params![at, actor])?;
        let id = self.last_insert_rowid();
        self.op.set(Some(id));
        Ok(id)
    }

    fn commit(self) -> Result<()> {
        match self.tx {
            TxKind::Top(t) => t.commit()?,
            TxKind::Nested(s) => s.commit()?,
        }
        Ok(())
    }

    fn rollback(self) -> Result<()> {
        match self.tx {
            TxKind::Top(t) => t.rollback()?,
            TxKind::Nested(mut s) => {
                s.rollback()?;
                // Releases the savepoint, now empty.
                s.commit()?;
            }
        }
        Ok(())
    }
}

/// SQLite's name for a database in memory.
const IN_MEMORY: &str = ":memory:";

/// The mode of a new store file: read and write for its owner only.
pub const STORE_FILE_MODE: u32 = 0o600;
/// The mode of a directory made for a store.
pub const STORE_DIR_MODE: u32 = 0o700;

/// Turns a failure to open or migrate the file at `path` into an error that names the
/// path in one line: read-only (exit 5), not a database or damaged (exit 3); other
/// errors pass through.
fn open_error(path: &Path, e: Error) -> Error {
    let shown = path.display().to_string();
    let Error::Sqlite(rusqlite::Error::SqliteFailure(f, message)) = &e else { return e };
    let detail = message.clone().unwrap_or_else(|| f.to_string());
    let read_only = || Error::StoreReadOnly {
        path: shown.clone(),
        reason: "the file or its directory cannot be written (tasks keeps a write-ahead log beside it)".into(),
    };
    match f.code {
        rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::PermissionDenied => read_only(),
        rusqlite::ErrorCode::CannotOpen if is_read_only(path) => read_only(),
        rusqlite::ErrorCode::CannotOpen => Error::StoreOpen { path: shown.clone(), reason: detail },
        rusqlite::ErrorCode::NotADatabase => {
            Error::StoreOpen { path: shown, reason: "it is not an SQLite database, or it is damaged".into() }
        }
        rusqlite::ErrorCode::DatabaseCorrupt => Error::StoreOpen {
            path: shown,
            reason: "the database is damaged; restore it from a backup (tasks backup/restore)".into(),
        },
        _ => e,
    }
}

/// Returns whether the file or its directory refuses writes.
fn is_read_only(path: &Path) -> bool {
    let file_ro = std::fs::metadata(path).map(|m| m.permissions().readonly()).unwrap_or(false);
    let dir_ro = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .and_then(|d| std::fs::metadata(d).ok())
        .is_some_and(|m| m.permissions().readonly());
    file_ro || dir_ro
}

/// Returns whether the store file exists; a dangling symlink is an error.
fn path_exists(path: &Path) -> Result<bool> {
    let open_error = |reason: String| Error::StoreOpen { path: path.display().to_string(), reason };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(open_error(e.to_string())),
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::metadata(path) {
            Ok(_) => Ok(true),
            Err(_) => {
                let target = std::fs::read_link(path).map(|t| t.display().to_string()).unwrap_or_default();
                Err(open_error(format!("it is a symlink to {target}, which does not exist")))
            }
        },
        Ok(_) => Ok(true),
    }
}

/// Creates the directories of a new store (0700) and its empty file (0600).
fn create_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    let open_error = |reason: String| Error::StoreOpen { path: path.display().to_string(), reason };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(STORE_DIR_MODE)
            .create(dir)
            .map_err(|e| open_error(format!("cannot create {}: {e}", dir.display())))?;
    }
    // The mode is masked by the umask at creation, which can only take bits away;
    // setting it again makes it exactly 0600.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(STORE_FILE_MODE)
        .open(path)
        .map_err(|e| open_error(format!("cannot create it: {e}")))?;
    file.set_permissions(std::fs::Permissions::from_mode(STORE_FILE_MODE))
        .map_err(|e| open_error(format!("cannot make it private: {e}")))?;
    Ok(())
}

impl Store {
    /// Opens (creating if needed) the store at `path` and migrates it to the newest schema.
    ///
    /// Refuses a store whose schema is newer than this binary, so an old `tasks` never
    /// writes rows a newer one would misread.
    ///
    /// A new store and the directories made for it are private whatever the umask
    /// (0600 and 0700: a task list is nobody else's business); SQLite gives its WAL and
    /// shared-memory files the store file's mode. A symlink whose target does not exist
    /// is refused: SQLite would create a file wherever it points.
    ///
    /// A store whose duplicate-check index an older version of `tasks` wrote
    /// ([`crate::dedup::INDEX_VERSION`]) is reindexed here, once, in one transaction: a
    /// migration of derived rows, as the schema's are of tables. A second process that
    /// waited for the lock meanwhile finds it done.
    pub fn open(path: &Path) -> Result<Store> {
        let mut store = Store::open_leaving_index(path)?;
        store.reindex_if_outdated(&mut |_, _| {})?;
        Ok(store)
    }

    /// Like [`Store::open`], but leaves an index an older version wrote as it is: for a
    /// caller that sets its own lock wait or progress first and then calls
    /// [`Store::reindex_if_outdated`], or that must write nothing it was not asked to
    /// (a dry run; `tasks duplicates reindex`, which rewrites it anyway; a restore).
    pub fn open_leaving_index(path: &Path) -> Result<Store> {
        // SQLite's name for a store in memory (tests) is no file to create.
        let create = path.as_os_str() != IN_MEMORY && !path_exists(path)?;
        if create {
            create_private(path)?;
        }
        let mut store = Store::connect(path)?;
        store.created = create;
        Ok(store)
    }

    /// Reindexes every task when the check's index is older than this version's
    /// ([`crate::dedup::INDEX_VERSION`]), in one transaction, calling `progress(done,
    /// total)` after each task; returns how many tasks it rewrote (`None` when the index
    /// was current or the store empty).
    ///
    /// # Errors
    /// A store that cannot be written (named by its path), or a write lock another
    /// writer held past the busy timeout ([`Error::is_busy`]), as any write gives.
    pub fn reindex_if_outdated(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<Option<usize>> {
        let path = self.path.clone();
        self.bring_index_up_to_date(progress).map_err(|e| open_error(&path, e))
    }

    fn bring_index_up_to_date(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<Option<usize>> {
        if dedup::index_version(&self.conn)? >= crate::dedup::INDEX_VERSION {
            return Ok(None);
        }
        self.write(|tx| {
            // Another process may have done it while this one waited for the lock.
            if dedup::index_version(tx)? >= crate::dedup::INDEX_VERSION {
                return Ok(None);
            }
            let ids = dump::task_ids(tx)?;
            if ids.is_empty() {
                // A new store: nothing to rewrite, and no statistics to count yet.
                dedup::set_index_version(tx, crate::dedup::INDEX_VERSION)?;
                return Ok(None);
            }
            crate::dedup::reindex_stored(tx, &ids, progress)?;
            Ok(Some(ids.len()))
        })
    }

    /// Returns whether [`Store::open`] made a new store file (the CLI says so once, so a
    /// mistyped `TASKS_DB` is noticed).
    pub fn created(&self) -> bool {
        self.created
    }

    /// Opens the store at `path` only if it exists (read-only commands: they never
    /// create a store, or a directory, by looking).
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path_exists(path)? {
            return Err(Error::NotFound { what: "store", value: path.display().to_string() });
        }
        Store::connect(path)
    }

    fn connect(path: &Path) -> Result<Store> {
        let conn = Connection::open(path).map_err(|e| open_error(path, e.into()))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL lets readers run beside the one writer; NORMAL sync is durable at commit
        // boundaries in WAL mode except on power loss, the usual trade-off for a local tool.
        // The first statement reads the file: a damaged or foreign file fails here.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| open_error(path, e.into()))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Map the file instead of read() per page: at 100k tasks, page reads were half
        // of a `ready`'s wall time.
        conn.pragma_update(None, "mmap_size", 256 * 1024 * 1024)?;
        // rusqlite keeps 16 prepared statements by default; an add or an import line runs
        // more distinct ones than that (task row, keys, FTS, signature, stats, events,
        // the duplicate check's queries), so the cache evicted them in turn and every
        // statement was parsed and planned again.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let mut store = Store { conn, path: path.to_path_buf(), op: Cell::new(None), created: false };
        store.migrate().map_err(|e| open_error(path, e))?;
        Ok(store)
    }

    /// Sets how long a write waits for another process's write lock before it gives up
    /// (default [`BUSY_TIMEOUT`]).
    pub fn set_busy_timeout(&self, wait: Duration) -> Result<()> {
        Ok(self.conn.busy_timeout(wait)?)
    }

    /// Returns the path the store was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lets a bulk write (an import) keep its working set in memory: a page cache of
    /// [`BULK_CACHE_KIB`] instead of SQLite's 2 MiB default, which otherwise spills dirty
    /// pages into the WAL mid-transaction and rereads them (measured: most of an
    /// import's time at 20k lines). Set back by [`Store::end_bulk`].
    pub fn begin_bulk(&self) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -BULK_CACHE_KIB)?;
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        Ok(())
    }

    /// Restores the page cache after [`Store::begin_bulk`].
    pub fn end_bulk(&self) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -2000)?;
        Ok(())
    }

    /// Returns SQLite's `data_version` of this connection: it changes when another
    /// connection commits, so a long-lived watcher learns of every write (the daemon's,
    /// the bot's, a CLI's) without reading any table.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// Returns the connection for a restore's online backup (which needs it mutably).
    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Opens the same file again (after a restore replaced its content: the schema may
    /// be older and need the migrations).
    pub(crate) fn reopen(&mut self) -> Result<()> {
        let fresh = Store::connect(&self.path)?;
        *self = fresh;
        Ok(())
    }

    /// Returns the connection for reads.
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Runs `f` inside one `BEGIN IMMEDIATE` transaction and commits when it returns `Ok`.
    ///
    /// On `Err` the transaction rolls back: nothing of a failed operation is written.
    pub(crate) fn write<T>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T>) -> Result<T> {
        let tx = self.begin()?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `f` inside a write transaction and always rolls it back: `--dry-run` sees
    /// exactly what the write would do (keys, candidates) and leaves the store as it was.
    pub(crate) fn rehearse<T>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T>) -> Result<T> {
        let tx = self.begin()?;
        let value = f(&tx)?;
        tx.rollback()?;
        Ok(value)
    }

    /// Runs several operations as ONE transaction: each [`Store::write`] inside `f`
    /// becomes a savepoint of a single `BEGIN IMMEDIATE`, and an error anywhere rolls
    /// every step back. For a caller that composes verbs (MCP `task_update`: claim,
    /// links, fields, tags, status) and must not leave half of them written.
    pub fn batch<T>(&mut self, f: impl FnOnce(&mut Store) -> Result<T>) -> Result<T> {
        if !self.conn.is_autocommit() {
            return f(self);
        }
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        self.op.set(None);
        let out = f(self);
        let end = if out.is_ok() { "COMMIT" } else { "ROLLBACK" };
        if let Err(e) = self.conn.execute_batch(end) {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
        out
    }

    fn begin(&mut self) -> Result<Tx<'_>> {
        // Outside autocommit means inside a batch: nest as a savepoint (and keep the
        // batch's operation).
        let tx = if !self.conn.is_autocommit() {
            TxKind::Nested(self.conn.savepoint()?)
        } else {
            self.op.set(None);
            TxKind::Top(self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?)
        };
        Ok(Tx { tx, op: &self.op })
    }

    fn migrate(&mut self) -> Result<()> {
        let path = self.path.display().to_string();
        // Most opens find the schema current: check with a read, so a read-only command
        // never queues for the write lock behind other processes.
        let current: Option<i64> = self
            .conn
            .query_row("SELECT max(version) FROM schema_migrations", [], |r| r.get::<_, Option<i64>>(0))
            .optional()
            .ok()
            .flatten()
            .flatten();
        if current == Some(SCHEMA_VERSION) {
            return Ok(());
        }
        if let Some(found) = current.filter(|v| *v > SCHEMA_VERSION) {
            return Err(Error::StoreTooNew { path, found, supported: SCHEMA_VERSION });
        }
        if current.is_none() {
            // No migrations table: a new, empty file — or another program's database,
            // which must not get our tables written into it.
            let tables: i64 = self.conn.query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
                [],
                |r| r.get(0),
            )?;
            if tables > 0 {
                return Err(Error::StoreOpen {
                    path,
                    reason:
                        "it is an SQLite database, but not a tasks store (it has tables and no schema_migrations); \
                             point TASKS_DB at another file"
                            .into(),
                });
            }
        }
        self.write(|tx| {
            tx.execute_batch(
                "CREATE TABLE IF NOT EXISTS schema_migrations (
                     version    INTEGER PRIMARY KEY,
                     name       TEXT NOT NULL,
                     applied_at INTEGER NOT NULL
                 )",
            )?;
            let current: i64 = tx
                .query_row("SELECT max(version) FROM schema_migrations", [], |r| r.get::<_, Option<i64>>(0))
                .optional()?
                .flatten()
                .unwrap_or(0);
            if current > SCHEMA_VERSION {
                return Err(Error::StoreTooNew { path: path.clone(), found: current, supported: SCHEMA_VERSION });
            }
            for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
                tx.execute_batch(sql)?;
                // The applied time is informational; the core reads no clock, so it comes
                // from SQLite itself.
                tx.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at)
                     VALUES (?1, ?2, CAST(unixepoch('subsec') * 1000 AS INTEGER))",
                    rusqlite::params![version, name],
                )?;
            }
            Ok(())
        })
    }

    /// Returns the schema version of the open store.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("SELECT max(version) FROM schema_migrations", [], |r| r.get(0))?)
    }
}

#[cfg(test)]
mod batch_tests {
    use super::*;

    fn count(store: &Store) -> i64 {
        store.conn().query_row("SELECT count(*) FROM tasks", [], |r| r.get(0)).expect("count")
    }

    #[test]
    fn a_batch_commits_all_its_writes_or_none() {
        let mut store = Store::open(Path::new(":memory:")).expect("store");
        let add = |store: &mut Store, title: &str| crate::fixtures::try_add_task(store, 0, title);
        store
            .batch(|s| {
                add(s, "Write the report")?;
                add(s, "Call the bank")
            })
            .expect("batch");
        assert_eq!(count(&store), 2);
        let failed = store.batch(|s| {
            add(s, "Book the flights")?;
            add(s, "   ") // an empty title is refused after the first write
        });
        assert!(failed.is_err());
        assert_eq!(count(&store), 2, "the first write of a failed batch is rolled back");
        // A rehearsal inside a batch leaves nothing either, and the batch goes on.
        store
            .batch(|s| {
                s.rehearse(|tx| Ok(tx.execute("DELETE FROM task_stems", [])?))?;
                add(s, "Renew the passport")
            })
            .expect("batch");
        assert_eq!(count(&store), 3);
        add(&mut store, "Water the plants").expect("a plain write after batches");
        assert_eq!(count(&store), 4);
    }
}

#[cfg(test)]
mod open_error_tests {
    use super::*;

    fn sqlite(code: rusqlite::ErrorCode) -> Error {
        let raw = match code {
            rusqlite::ErrorCode::ReadOnly => 8,
            rusqlite::ErrorCode::NotADatabase => 26,
            rusqlite::ErrorCode::DatabaseCorrupt => 11,
            _ => 1,
        };
        Error::Sqlite(rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(raw), None))
    }

    #[test]
    fn failures_to_open_name_the_path_and_say_why() {
        let path = Path::new("/home/me/tasks.db");
        assert!(
            matches!(open_error(path, sqlite(rusqlite::ErrorCode::ReadOnly)), Error::StoreReadOnly { path, .. } if path == "/home/me/tasks.db")
        );
        assert!(
            matches!(open_error(path, sqlite(rusqlite::ErrorCode::NotADatabase)), Error::StoreOpen { reason, .. } if reason.contains("not an SQLite database"))
        );
        assert!(
            matches!(open_error(path, sqlite(rusqlite::ErrorCode::DatabaseCorrupt)), Error::StoreOpen { reason, .. } if reason.contains("damaged"))
        );
        // Anything else passes through as it was.
        assert!(matches!(open_error(path, Error::invalid("x", "y", "z")), Error::Invalid { .. }));
    }
}
