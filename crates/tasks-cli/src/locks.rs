//! Who holds the store's write lock, when a write gave up waiting for it (issue 10).
//!
//! SQLite takes POSIX advisory locks on the store file and, in WAL mode, on its
//! shared-memory file; Linux lists them in `/proc/locks` with the holder's pid and the
//! file's inode. This module reads that list; it never takes a lock itself. Elsewhere
//! than Linux, or when `/proc` cannot be read, it finds nobody and the error says less.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A process holding a lock on the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// Its pid.
    pub pid: u32,
    /// Its command line, for people (arguments joined by spaces, control characters
    /// replaced).
    pub command: String,
}

/// Returns the other processes holding a lock on the store at `db` or its WAL
/// shared-memory file.
pub fn holders(db: &Path) -> Vec<Holder> {
    let mut inodes = Vec::new();
    for suffix in ["", "-shm", "-wal"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        if let Ok(meta) = std::fs::metadata(&name) {
            inodes.push(meta.ino());
        }
    }
    let Ok(text) = std::fs::read_to_string("/proc/locks") else { return Vec::new() };
    let own = std::process::id();
    let mut pids: Vec<u32> = text.lines().filter_map(|line| holder_of(line, &inodes)).filter(|p| *p != own).collect();
    pids.sort_unstable();
    pids.dedup();
    pids.into_iter().map(|pid| Holder { pid, command: command_line(pid) }).collect()
}

/// Returns the pid of a `/proc/locks` line that holds (not waits for) a lock on one of
/// `inodes`: `1: POSIX  ADVISORY  WRITE 2383 00:2a:1837 0 EOF`.
fn holder_of(line: &str, inodes: &[u64]) -> Option<u32> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    // A waiter's line has "->" after the index.
    if fields.get(1) == Some(&"->") {
        return None;
    }
    let pid: u32 = fields.get(4)?.parse().ok()?;
    let inode: u64 = fields.get(5)?.rsplit(':').next()?.parse().ok()?;
    inodes.contains(&inode).then_some(pid)
}

/// Returns a process's command line, printable.
fn command_line(pid: u32) -> String {
    let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else { return String::from("?") };
    let text: String = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).chars().map(|c| if c.is_control() { '?' } else { c }).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ");
    const SHOWN: usize = 120;
    if text.chars().count() > SHOWN { format!("{}…", text.chars().take(SHOWN).collect::<String>()) } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_proc_locks() {
        let inodes = [1837, 99];
        assert_eq!(holder_of("1: POSIX  ADVISORY  WRITE 2383 00:2a:1837 0 EOF", &inodes), Some(2383));
        assert_eq!(holder_of("2: POSIX  ADVISORY  READ 17 fd:01:99 128 128", &inodes), Some(17));
        assert_eq!(holder_of("1: -> POSIX  ADVISORY  WRITE 2384 00:2a:1837 0 EOF", &inodes), None, "a waiter");
        assert_eq!(holder_of("3: FLOCK  ADVISORY  WRITE 55 00:2a:5 0 EOF", &inodes), None, "another file");
        assert_eq!(holder_of("garbage", &inodes), None);
    }
}
