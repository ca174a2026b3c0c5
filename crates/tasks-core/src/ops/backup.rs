//! `tasks backup FILE` and `tasks restore FILE` (issue 15).
//!
//! A backup is `VACUUM INTO`: one read transaction, so it is a consistent copy of the
//! store as of one moment while other processes keep writing (WAL readers do not block
//! writers), compacted, and a plain SQLite file any `tasks` opens. A restore checks the
//! file first (a tasks store, not newer than this binary, `PRAGMA integrity_check` ok)
//! and then copies it over the live store with SQLite's online backup API, which takes
//! the store's write lock for the copy: every other process sees the old store or the
//! restored one, never half of each.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Error, Result};
use crate::files::NewFile;
use crate::store::{SCHEMA_VERSION, Store};

/// What a backup wrote.
#[derive(Debug, Clone)]
pub struct BackupOutcome {
    /// Bytes of the backup file.
    pub bytes: u64,
    /// Tasks in it.
    pub tasks: i64,
    /// Partial backups of dead earlier runs to the same file, removed first.
    pub removed_partials: Vec<String>,
}

/// Writes a consistent copy of the store to `to`, which must not exist.
///
/// The copy is made into a temporary file beside `to` (mode 0600 from its first byte,
/// see [`crate::files`]), checked (`integrity_check`, the schema version), flushed and
/// only then given the name `to`: a backup killed at any point leaves no `to`.
pub fn backup(store: &Store, to: &Path) -> Result<BackupOutcome> {
    let file = NewFile::create(to)?;
    let temp = file.temp_path().to_path_buf();
    let text = temp.to_str().ok_or_else(|| Error::invalid("file", to.display().to_string(), "is not UTF-8"))?;
    // VACUUM INTO writes into an empty file it is given.
    store.conn().execute("VACUUM INTO ?1", [text])?;
    let tasks = check(&temp).map_err(|e| match e {
        Error::StoreOpen { reason, .. } => Error::StoreOpen { path: to.display().to_string(), reason },
        other => other,
    })?;
    let removed_partials = file.removed().iter().map(|p| p.display().to_string()).collect();
    let bytes = file.commit()?;
    Ok(BackupOutcome { bytes, tasks, removed_partials })
}

/// Checks a backup file: a tasks store this binary can read, undamaged. Returns its
/// number of tasks.
pub fn check(file: &Path) -> Result<i64> {
    let path = file.display().to_string();
    if !file.exists() {
        return Err(Error::NotFound { what: "file", value: path });
    }
    let bad = |reason: String| Error::StoreOpen { path: path.clone(), reason };
    let conn = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| bad(e.to_string()))?;
    let schema: Option<i64> = conn
        .query_row("SELECT max(version) FROM schema_migrations", [], |r| r.get(0))
        .map_err(|_| bad("not a tasks store (no schema_migrations table)".into()))?;
    match schema {
        Some(v) if v > SCHEMA_VERSION => {
            return Err(Error::StoreTooNew { path: path.clone(), found: v, supported: SCHEMA_VERSION });
        }
        None => return Err(bad("not a tasks store (no schema version)".into())),
        _ => {}
    }
    let integrity: String =
        conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(|e| bad(e.to_string()))?;
    if integrity != "ok" {
        return Err(bad(format!("damaged: {integrity}")));
    }
    conn.query_row("SELECT count(*) FROM tasks", [], |r| r.get(0)).map_err(|e| bad(e.to_string()))
}

/// What a restore did.
#[derive(Debug, Clone)]
pub struct RestoreOutcome {
    /// Tasks in the restored store.
    pub tasks: i64,
    /// Where the store as it was before is kept (a backup), unless asked not to.
    pub kept: Option<String>,
}

/// Replaces the store's content with the backup's. The caller asked the person first.
///
/// With `keep`, the store as it is now is first written to that file, a backup like
/// any other (0600, checked, whole or absent): what a restore replaces can be restored.
pub fn restore(store: &mut Store, from: &Path, keep: Option<&Path>) -> Result<RestoreOutcome> {
    let tasks = check(from)?;
    let kept = match keep {
        Some(path) => {
            backup(store, path)?;
            Some(path.display().to_string())
        }
        None => None,
    };
    let src = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    {
        let backup = rusqlite::backup::Backup::new(&src, store.conn_mut())?;
        backup.run_to_completion(256, Duration::from_millis(5), None)?;
    }
    // The restored file may be of an older schema: bring it up to date.
    store.reopen()?;
    Ok(RestoreOutcome { tasks, kept })
}

/// Returns where a restore keeps the store it replaces: beside it, named for the store
/// and the moment (`tasks.db.before-restore-20261206T041500Z.db`; `-2`, `-3` … when
/// a restore in the same second kept one already).
pub fn keep_path(store_path: &Path, now_ms: i64) -> std::path::PathBuf {
    let stamp = crate::time::rfc3339(now_ms).replace([':', '-'], "");
    let name = store_path.file_name().and_then(|n| n.to_str()).unwrap_or("tasks.db");
    let mut n = 1;
    loop {
        let suffix = if n == 1 { String::new() } else { format!("-{n}") };
        let path = store_path.with_file_name(format!("{name}.before-restore-{stamp}{suffix}.db"));
        if !path.exists() {
            return path;
        }
        n += 1;
    }
}
