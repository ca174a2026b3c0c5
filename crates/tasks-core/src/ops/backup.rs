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
use crate::store::{SCHEMA_VERSION, Store};

/// What a backup wrote.
#[derive(Debug, Clone)]
pub struct BackupOutcome {
    /// Bytes of the backup file.
    pub bytes: u64,
    /// Tasks in it.
    pub tasks: i64,
}

/// Writes a consistent copy of the store to `to`, which must not exist.
pub fn backup(store: &Store, to: &Path) -> Result<BackupOutcome> {
    if to.exists() {
        return Err(Error::invalid("file", to.display().to_string(), "exists already; give a new file name"));
    }
    let text = to.to_str().ok_or_else(|| Error::invalid("file", to.display().to_string(), "is not UTF-8"))?;
    store.conn().execute("VACUUM INTO ?1", [text])?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A task list is nobody else's business, in a backup too.
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::Io { path: to.display().to_string(), source: e })?;
    }
    let bytes = std::fs::metadata(to).map_err(|e| Error::Io { path: to.display().to_string(), source: e })?.len();
    let tasks = check(to)?;
    Ok(BackupOutcome { bytes, tasks })
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

/// Replaces the store's content with the backup's. The caller asked the person first.
pub fn restore(store: &mut Store, from: &Path) -> Result<i64> {
    let tasks = check(from)?;
    let src = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    {
        let backup = rusqlite::backup::Backup::new(&src, store.conn_mut())?;
        backup.run_to_completion(256, Duration::from_millis(5), None)?;
    }
    // The restored file may be of an older schema: bring it up to date.
    store.reopen()?;
    Ok(tasks)
}
