//! Files `tasks` writes for a person — a backup, an export to a file, the copy of the
//! store a restore keeps — appear whole or not at all, and are never readable by
//! anyone else, at any moment (issue 36).
//!
//! How: the bytes go into a temporary file in the target's directory, named for what it
//! is (`.NAME.tasks-partial-PID`), created with `O_EXCL` and mode 0600 before the first
//! byte; when it is complete (and checked, for a backup) it is flushed to disk, linked
//! to the target name — `link` fails when the target exists, so nothing is ever
//! replaced — and the directory is flushed too. A process killed at any point leaves
//! no target, only a temporary whose name says what it is; the next write of the same
//! target removes it when its process is gone, or names it when it still runs.
//!
//! Why `link` and not `rename`: `rename` replaces a target that appeared meanwhile; the
//! promise is "a new file, never over another".

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// What a temporary file's name carries between the target's name and the writer's
/// process id.
pub const PARTIAL_MARK: &str = ".tasks-partial-";

/// A file being written; it becomes the target on [`NewFile::commit`], and is removed
/// when dropped before that.
#[derive(Debug)]
pub struct NewFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<File>,
    /// Stale temporaries of dead writers removed on the way in.
    removed: Vec<PathBuf>,
}

impl NewFile {
    /// Starts writing `target`, which must not exist. Removes a temporary an earlier,
    /// dead writer of the same target left; refuses when a live one is writing it.
    pub fn create(target: &Path) -> Result<NewFile> {
        let io = |path: &Path, e: std::io::Error| Error::Io { path: path.display().to_string(), source: e };
        if target.exists() {
            return Err(Error::invalid("file", target.display().to_string(), "exists already; give a new file name"));
        }
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| Error::invalid("file", target.display().to_string(), "has no UTF-8 file name"))?;
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let prefix = format!(".{name}{PARTIAL_MARK}");
        let mut removed = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| io(&dir, e))?.flatten() {
            let Some(file_name) = entry.file_name().to_str().map(str::to_string) else { continue };
            let Some(rest) = file_name.strip_prefix(&prefix) else { continue };
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let Ok(pid) = digits.parse::<u32>() else { continue };
            let path = entry.path();
            if process_alive(pid) && pid != std::process::id() {
                return Err(Error::invalid(
                    "file",
                    target.display().to_string(),
                    format!(
                        "a partial copy {} is in the way: process {pid} is writing it (if no tasks process {pid} runs, remove the file)",
                        path.display()
                    ),
                ));
            }
            std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
            removed.push(path);
        }
        let temp = dir.join(format!("{prefix}{}", std::process::id()));
        let file = open_private(&temp).map_err(|e| io(&temp, e))?;
        Ok(NewFile { target: target.to_path_buf(), temp, file: Some(file), removed })
    }

    /// The temporary file's path (what a writer that opens files itself, as SQLite's
    /// `VACUUM INTO` does, writes into).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The temporary file, to write into.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("a NewFile holds its file until commit")
    }

    /// The stale temporaries of dead writers removed when this one started.
    pub fn removed(&self) -> &[PathBuf] {
        &self.removed
    }

    /// Flushes the file to disk, gives it the target's name (never over a file that
    /// appeared meanwhile), flushes the directory, and returns the file's size.
    pub fn commit(mut self) -> Result<u64> {
        let io = |path: &Path, e: std::io::Error| Error::Io { path: path.display().to_string(), source: e };
        let mut file = self.file.take().expect("a NewFile holds its file until commit");
        file.flush().map_err(|e| io(&self.temp, e))?;
        file.sync_all().map_err(|e| io(&self.temp, e))?;
        let bytes = file.metadata().map_err(|e| io(&self.temp, e))?.len();
        drop(file);
        std::fs::hard_link(&self.temp, &self.target).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Error::invalid(
                    "file",
                    self.target.display().to_string(),
                    "appeared while it was written; nothing was replaced",
                )
            } else {
                io(&self.target, e)
            }
        })?;
        std::fs::remove_file(&self.temp).map_err(|e| io(&self.temp, e))?;
        if let Some(dir) = self.target.parent().filter(|p| !p.as_os_str().is_empty()) {
            File::open(dir).and_then(|d| d.sync_all()).map_err(|e| io(dir, e))?;
        }
        // Committed: nothing for drop to remove.
        self.temp = PathBuf::new();
        Ok(bytes)
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.temp);
            let mut journal = self.temp.clone().into_os_string();
            journal.push("-journal");
            let _ = std::fs::remove_file(journal);
        }
    }
}

/// Creates a file that must not exist, readable and writable by its owner only from
/// its first moment, whatever the umask (the mode is set again after the open, since a
/// umask may only take bits away).
fn open_private(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).read(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// Returns whether a process with this id runs (Linux: `/proc/PID`; elsewhere a
/// temporary is never taken for stale).
fn process_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") { Path::new(&format!("/proc/{pid}")).exists() } else { true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_appears_whole_at_commit_and_private() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("out.txt");
        let mut f = NewFile::create(&target).expect("create");
        f.file().write_all(b"hello").expect("write");
        assert!(!target.exists(), "nothing at the target before the commit");
        let temp = f.temp_path().to_path_buf();
        assert!(temp.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(".out.txt.tasks-partial-")));
        assert_eq!(f.commit().expect("commit"), 5);
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "hello");
        assert!(!temp.exists(), "the temporary is gone");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&target).expect("meta").permissions().mode() & 0o777, 0o600);
        }
        // Never over an existing file.
        assert!(NewFile::create(&target).is_err());
    }

    #[test]
    fn a_dropped_file_leaves_nothing_and_a_dead_writers_partial_is_removed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("b.db");
        let f = NewFile::create(&target).expect("create");
        let temp = f.temp_path().to_path_buf();
        drop(f);
        assert!(!temp.exists() && !target.exists());
        // A partial of a process that is gone (pid 0 never names a user process).
        let stale = dir.path().join(format!(".b.db{PARTIAL_MARK}4000000000"));
        std::fs::write(&stale, b"half").expect("stale");
        let f = NewFile::create(&target).expect("create over a stale partial");
        assert_eq!(f.removed(), std::slice::from_ref(&stale));
        assert!(!stale.exists());
        // A partial of a live process (this test's own parent, pid 1) is named, not removed.
        drop(f);
        let live = dir.path().join(format!(".b.db{PARTIAL_MARK}1"));
        std::fs::write(&live, b"busy").expect("live");
        let err = NewFile::create(&target).expect_err("in the way").to_string();
        assert!(err.contains("process 1") && live.exists(), "{err}");
    }
}
