//! Hardening (issue 10): no input panics the binary, the environment is refused when it
//! cannot be read, and the files `tasks` makes cannot be turned against the user —
//! private modes whatever the umask, no store created by looking, no symlink followed
//! into a file that does not exist.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{TestEnv, collect};

/// Every subcommand, with the arguments it needs to get as far as reading them.
const SUBCOMMANDS: &[&[&str]] = &[
    &["project", "add"],
    &["project", "list"],
    &["add"],
    &["list", "--tag"],
    &["show"],
    &["history"],
    &["edit", "HRB-1", "--title"],
    &["start"],
    &["done"],
    &["dismiss"],
    &["reopen"],
    &["tag", "HRB-1"],
    &["untag", "HRB-1"],
    &["link", "HRB-1", "blocked-by"],
    &["unlink", "HRB-1", "blocked-by"],
    &["ready", "--as"],
    &["blocked", "--limit"],
    &["agenda"],
    &["graph"],
    &["claim"],
    &["release"],
    &["next", "--project"],
    &["check"],
    &["duplicates", "reject", "HRB-1"],
    &["merge", "HRB-1", "--into"],
    &["unmerge"],
    &["import"],
    &["export", "--format"],
    &["schedule", "add", "HRB-1", "--daily"],
    &["schedule", "preview", "--cron"],
    &["schedule", "pause"],
    &["jobs"],
    &["daemon", "--catch-up-max"],
    &["completions"],
    &["workload"],
];

#[test]
fn a_non_utf8_argument_is_refused_by_every_subcommand() {
    let env = TestEnv::new();
    let bad = std::ffi::OsStr::from_bytes(b"caf\xe9");
    for args in SUBCOMMANDS {
        let mut cmd = env.command(&["--json"]);
        cmd.args(*args).arg(bad);
        let r = collect(cmd.output().expect("run"));
        assert_eq!(r.code, 2, "tasks {args:?} <non-UTF-8>: {}", r.stderr);
        let e: serde_json::Value = serde_json::from_str(r.stderr.trim()).expect("one JSON error");
        assert!(e["error"]["message"].as_str().unwrap_or("").contains("not valid UTF-8"), "{args:?}: {e}");
    }
    assert!(!env.db().exists(), "nothing was written");
}

#[test]
fn a_non_utf8_variable_is_a_configuration_error_naming_it() {
    let env = TestEnv::new();
    for name in ["TASKS_NOW", "TASKS_ACTOR", "TASKS_TZ"] {
        let mut cmd = env.command(&["--json", "add", "Hello", "--new"]);
        cmd.env(name, std::ffi::OsStr::from_bytes(b"\xff\xfe"));
        let r = collect(cmd.output().expect("run"));
        assert_eq!(r.code, 3, "{name}: {}", r.stderr);
        assert!(r.stderr.contains(name), "{name}: {}", r.stderr);
    }
}

#[test]
fn read_only_commands_never_create_a_store() {
    let env = TestEnv::new();
    let deep = env.path("a/b/tasks.db");
    for args in [&["list"][..], &["ready"], &["agenda"], &["export"], &["jobs"], &["schedule", "list"]] {
        let mut cmd = env.command(args);
        cmd.env("TASKS_DB", &deep);
        let r = collect(cmd.output().expect("run"));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("there is no store at"), "{args:?} says so: {}", r.stderr);
    }
    assert!(!env.path("a").exists(), "no directory was made");
    // The first write makes it.
    let mut cmd = env.command(&["add", "First", "--new"]);
    cmd.env("TASKS_DB", &deep);
    assert_eq!(collect(cmd.output().expect("run")).code, 0);
    assert!(deep.exists());
}

#[test]
fn a_dangling_store_symlink_is_refused() {
    let env = TestEnv::new();
    let target = env.path("elsewhere/tasks.db");
    std::os::unix::fs::symlink(&target, env.db()).expect("symlink");
    let e = env.fails(&["add", "Hello", "--new"], 3);
    assert!(e["message"].as_str().unwrap_or("").contains("does not exist"), "{e}");
    assert!(!target.exists() && !env.path("elsewhere").exists(), "nothing made through the link");
}

/// Returns the permission bits of a path.
fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o777)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn store_files_are_private_whatever_the_umask() {
    let env = TestEnv::new();
    let db = env.path("data/tasks/tasks.db");
    env.write("seed.jsonl", "{\"title\":\"Water the plants\"}\n");
    let with_umask_0 = |args: &[&str]| {
        let mut cmd = env.command(args);
        cmd.env("TASKS_DB", &db);
        // SAFETY: umask is async-signal-safe and allocates nothing.
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::umask(rustix::fs::Mode::empty());
                Ok(())
            });
        }
        cmd
    };
    assert_eq!(collect(with_umask_0(&["import", "seed.jsonl"]).output().expect("import")).code, 0);
    assert_eq!(collect(with_umask_0(&["schedule", "add", "INBOX-1", "--daily", "09:00"]).output().expect("s")).code, 0);
    // A daemon keeps the store open, so its WAL and shared-memory files exist.
    let mut daemon = with_umask_0(&["daemon"]);
    daemon.stdout(Stdio::null()).stderr(Stdio::null());
    let mut daemon = daemon.spawn().expect("daemon");
    let wal = env.path("data/tasks/tasks.db-wal");
    let shm = env.path("data/tasks/tasks.db-shm");
    let start = Instant::now();
    while !(wal.exists() && shm.exists() && env.path("data/tasks/tasks.db.daemon.lock").exists()) {
        assert!(start.elapsed() < Duration::from_secs(30), "the daemon never opened the store");
        std::thread::sleep(Duration::from_millis(20));
    }
    let modes = [
        (env.path("data"), mode(&env.path("data"))),
        (env.path("data/tasks"), mode(&env.path("data/tasks"))),
        (db.clone(), mode(&db)),
        (wal.clone(), mode(&wal)),
        (shm.clone(), mode(&shm)),
        (env.path("data/tasks/tasks.db.daemon.lock"), mode(&env.path("data/tasks/tasks.db.daemon.lock"))),
    ];
    let _ = daemon.kill();
    let _ = daemon.wait();
    for (path, m) in &modes {
        let expected = if path.extension().is_some() || path.ends_with("tasks.db") { 0o600 } else { 0o700 };
        assert_eq!(*m, expected, "{} is {m:o}", path.display());
    }
}

#[test]
fn a_write_that_waits_too_long_exits_9_and_names_the_holder() {
    let env = TestEnv::new();
    env.ok(&["add", "Make the store", "--new"]);
    // This test process holds the write lock, as a long import would.
    let conn = rusqlite::Connection::open(env.db()).expect("open");
    conn.execute_batch("BEGIN IMMEDIATE").expect("take the write lock");
    let mut cmd = env.command(&["--json", "add", "Blocked write", "--new"]);
    cmd.env("TASKS_BUSY_TIMEOUT", "1s");
    let r = collect(cmd.output().expect("run"));
    conn.execute_batch("ROLLBACK").expect("release");
    assert_eq!(r.code, 9, "{}", r.stderr);
    let e: serde_json::Value = serde_json::from_str(r.stderr.trim()).expect("one JSON error");
    assert_eq!(e["error"]["code"], "timeout");
    assert!(e["error"]["message"].as_str().unwrap_or("").contains("stayed locked"), "{e}");
    let holders = e["error"]["details"]["holders"].as_array().expect("holders");
    assert!(holders.iter().any(|h| h["pid"] == std::process::id()), "this test process is named: {e}");
    // Nothing of the blocked write happened.
    assert_eq!(crate::common::keys(&env.json(&["list"])), ["INBOX-1"]);
}

/// Pieces of command lines: verbs, flags, values that break parsers.
const ARGV_PIECES: &[&str] = &[
    "add",
    "list",
    "show",
    "edit",
    "done",
    "link",
    "ready",
    "next",
    "check",
    "schedule",
    "preview",
    "import",
    "export",
    "graph",
    "agenda",
    "claim",
    "--json",
    "--due",
    "--amount",
    "--priority",
    "--tag",
    "--cron",
    "--daily",
    "--tz",
    "--for",
    "--limit",
    "--status",
    "--format",
    "--as",
    "--project",
    "--blocked-by",
    "--new",
    "--attach",
    "--claim",
    "INBOX-1",
    "HRB-0",
    "task:",
    "0",
    "-1",
    "4",
    "99999999999999999999",
    "tomorrow",
    "in -5 days",
    "31.02",
    "*/1 * * * *",
    "Europe/Nowhere",
    "30x",
    "",
    " ",
    "-",
    "--",
    "🎉",
    "\u{1b}[2J",
    "\u{9b}31m",
    "ё",
    "NEAR",
    "\"",
    "*",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48),
        ..Default::default()
    })]

    /// Any command line ends in an answer or a clear error: never a panic (exit 101),
    /// never a signal, never an error that is not one JSON object with --json.
    #[test]
    fn any_command_line_exits_cleanly(args in proptest::collection::vec(proptest::sample::select(ARGV_PIECES), 0..7)) {
        let env = TestEnv::new();
        env.init_store();
        let mut all = vec!["--json"];
        all.extend(args.iter().copied());
        let r = env.run(&all);
        proptest::prop_assert!(r.code >= 0 && r.code != 101, "tasks {all:?} exited {}: {}", r.code, r.stderr);
        if r.code != 0 && !r.stderr.trim().is_empty() {
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(r.stderr.trim());
            proptest::prop_assert!(parsed.is_ok(), "tasks {all:?}: stderr is not one JSON error: {}", r.stderr);
        }
    }
}
