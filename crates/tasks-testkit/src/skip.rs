//! Skips that a green run cannot hide.
//!
//! A test that needs something outside the repository (the shared labelled sets, a
//! browser, PostgreSQL, Taskwarrior) and does not find it calls [`skipped`] and
//! returns. libtest has no "skipped" outcome and captures a passing test's stderr, so
//! the skip is also appended to a log: `$TASKS_SKIP_LOG` when set (`.ci/run` sets it
//! and prints the list and count after the tests), else `target/test-skips.log` in the
//! workspace.

use std::io::Write as _;
use std::path::PathBuf;

/// Returns the log file skips are appended to.
pub fn log_path() -> PathBuf {
    match std::env::var_os("TASKS_SKIP_LOG") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-skips.log"),
    }
}

/// Records that `test` did not run, and why; prints it too (seen with `--nocapture`).
pub fn skipped(test: &str, reason: &str) {
    let line = format!("SKIPPED {test}: {reason}");
    eprintln!("{line}");
    let path = log_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // A log that cannot be written must not fail the test run; the eprintln stands.
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&path) {
        let _ = writeln!(f, "{line}");
    }
}

/// Returns the directory of the shared data beside the repository (`../shared/…`), or
/// records the skip of `test` and returns `None` when it is absent.
pub fn shared_dir(test: &str, relative: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(relative);
    if dir.exists() {
        Some(dir)
    } else {
        skipped(test, &format!("{} is absent (data kept outside the repository)", dir.display()));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skip_is_written_to_the_log() {
        let dir = std::env::temp_dir().join(format!("tasks-skip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let log = dir.join("skips.log");
        // SAFETY of the test: this test alone sets the variable in this process.
        unsafe { std::env::set_var("TASKS_SKIP_LOG", &log) };
        skipped("demo", "nothing to run against");
        unsafe { std::env::remove_var("TASKS_SKIP_LOG") };
        let text = std::fs::read_to_string(&log).expect("log");
        assert!(text.contains("SKIPPED demo: nothing to run against"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
