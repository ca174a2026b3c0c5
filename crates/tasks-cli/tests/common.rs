//! The test environment: a temp dir with its own store, and a runner for the real
//! `tasks` binary with `TASKS_DB`, `TASKS_NOW`, `TASKS_ACTOR` and `TASKS_TZ` pinned, so
//! every run is exact and nothing depends on the machine (jj's TestEnvironment).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The pinned clock of the tests.
pub const NOW: &str = "2026-11-29T12:00:00Z";

/// A temp dir with a store path and pinned environment.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
    pub now: String,
    pub actor: String,
    pub tz: String,
    /// The team store (`postgres://…`) the runs use instead of the SQLite file.
    pub store_url: Option<String>,
}

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Run {
    /// Parses stdout as one JSON value, failing with both streams when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!("stdout is not one JSON value ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr)
        })
    }

    /// Parses stderr as the JSON error object and returns its `error` member.
    pub fn error(&self) -> Value {
        let v: Value = serde_json::from_str(self.stderr.trim())
            .unwrap_or_else(|e| panic!("stderr is not one JSON value ({e}):\n{}", self.stderr));
        v["error"].clone()
    }

    /// Returns stdout, a divider, stderr and the exit status, for snapshots (jj style).
    pub fn snapshot(&self) -> String {
        let mut s = self.stdout.clone();
        if !self.stderr.is_empty() {
            s.push_str("------- stderr -------\n");
            s.push_str(&self.stderr);
        }
        if self.code != 0 {
            s.push_str(&format!("[exit status: {}]\n", self.code));
        }
        s
    }
}

impl TestEnv {
    pub fn new() -> TestEnv {
        TestEnv {
            dir: tempfile::tempdir().expect("temp dir"),
            now: NOW.into(),
            actor: "tester".into(),
            tz: "Europe/Berlin".into(),
            store_url: None,
        }
    }

    /// A test environment on a fresh, empty database of the shared throwaway
    /// PostgreSQL server; `None` (the skip logged) where PostgreSQL cannot be had.
    pub fn postgres(test: &str) -> Option<TestEnv> {
        static DATABASES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let server = tasks_testkit::pg::shared(test)?;
        let n = DATABASES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let url = server.create_database(&format!("cli_{}_{n}", test.replace(['-', ' '], "_")));
        Some(TestEnv { store_url: Some(url), ..TestEnv::new() })
    }

    /// The SQLite environment, and the PostgreSQL one when it can be had: a test that
    /// loops over these runs against both engines.
    pub fn engines(test: &str) -> Vec<TestEnv> {
        let mut all = vec![TestEnv::new()];
        all.extend(TestEnv::postgres(test));
        all
    }

    /// Which engine the runs use, for messages.
    pub fn engine(&self) -> &'static str {
        if self.store_url.is_some() { "postgres" } else { "sqlite" }
    }

    /// Creates the (empty) store, as the first write would: read-only commands on a
    /// machine with no store say so on stderr, which most tests are not about.
    pub fn init_store(&self) {
        self.ok(&["import", "-"]);
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("tasks.db")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Builds a command for the real binary with the pinned environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tasks"));
        cmd.args(args)
            .env_clear()
            .env("TASKS_DB", self.store_url.as_deref().map_or_else(|| self.db().into_os_string(), Into::into))
            .env("TASKS_NOW", &self.now)
            .env("TASKS_ACTOR", &self.actor)
            .env("TASKS_TZ", &self.tz)
            .env("NO_COLOR", "1")
            .env("HOME", self.dir.path())
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        cmd
    }

    /// Runs the binary and collects its output.
    pub fn run(&self, args: &[&str]) -> Run {
        collect(self.command(args).output().expect("run tasks"))
    }

    /// Runs the binary and fails unless it exits 0.
    pub fn ok(&self, args: &[&str]) -> Run {
        let r = self.run(args);
        assert_eq!(r.code, 0, "tasks {args:?} failed:\n{}{}", r.stdout, r.stderr);
        r
    }

    /// Runs with `--json` and fails unless it exits 0; returns the JSON.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        self.ok(&all).json()
    }

    /// Runs with `--json`, expects the exit code, returns the JSON error member.
    pub fn fails(&self, args: &[&str], code: i32) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let r = self.run(&all);
        assert_eq!(r.code, code, "tasks {all:?}: wrong exit code\nstdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
        assert!(r.stdout.is_empty(), "an error prints nothing on stdout: {}", r.stdout);
        r.error()
    }

    /// Makes the store exist (an empty import), on either engine.
    pub fn init_store_for_team(&self) {
        if self.store_url.is_none() {
            self.init_store();
        }
    }

    /// Imports task lines (JSON Lines of the import format) into this environment's
    /// store. A PostgreSQL store imports only the lossless export, so there the lines go
    /// into a SQLite store first and move over through `tasks export` — as a team moves.
    pub fn import_lines(&self, lines: &str) {
        let file = self.write("lines.jsonl", lines);
        let file = file.to_str().expect("utf-8 path");
        if self.store_url.is_none() {
            self.ok(&["import", file]);
            return;
        }
        let staging = TestEnv::new();
        staging.ok(&["import", file]);
        let dump = staging.ok(&["export"]).stdout;
        let dump_file = self.write("staged-export.jsonl", &dump);
        self.ok(&["import", dump_file.to_str().expect("utf-8 path")]);
    }

    /// Writes a file in the temp dir.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).expect("write test file");
        p
    }
}

pub fn collect(out: Output) -> Run {
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Returns the keys of a `{"items": [...]}` answer.
pub fn keys(v: &Value) -> Vec<String> {
    v["items"].as_array().expect("items").iter().map(|t| t["key"].as_str().expect("key").to_string()).collect()
}

/// Returns the file names of the test directory (for the forgotten-module check).
pub fn test_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("tests dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs") && n != "main.rs")
        .collect();
    names.sort();
    names
}
