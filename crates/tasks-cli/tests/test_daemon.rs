//! `tasks daemon` with real processes: missed-run policies after five days down, a
//! daemon killed with SIGKILL mid-Job, SIGTERM, the lock, and `command` actions (output
//! budget, timeout, environment allow-list, transient retries).

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{TestEnv, collect};
use crate::test_schedule::{items, job_states, json_at};

/// Holds how long a test waits for a daemon to reach a state before failing.
const PATIENCE: Duration = Duration::from_secs(30);

/// Starts `tasks daemon ARGS` at `now` in the background.
fn spawn_daemon(env: &TestEnv, now: &str, args: &[&str]) -> Child {
    let mut all = vec!["daemon"];
    all.extend_from_slice(args);
    let mut cmd = env.command(&all);
    cmd.env("TASKS_NOW", now).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    cmd.spawn().expect("spawn the daemon")
}

/// Waits until the task's newest Job is running with a recorded pid; returns the Job.
fn wait_running(env: &TestEnv, task: &str) -> Value {
    let start = Instant::now();
    loop {
        let v = env.json(&["jobs", task]);
        if let Some(job) = items(&v).first()
            && job["state"] == "running"
            && job["runs"][0]["pid"].is_u64()
        {
            return job.clone();
        }
        assert!(start.elapsed() < PATIENCE, "no running Job for {task}: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Kills a process this test started (a command left behind by a killed daemon).
fn kill_pid(pid: u64) {
    let _ = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
}

#[test]
fn missed_policies_after_five_days_down() {
    // (policy flags, Jobs made by the run five days later)
    let cases: [(&[&str], usize); 3] =
        [(&["--missed", "skip"], 0), (&["--missed", "run_once"], 1), (&["--missed", "catch_up"], 3)];
    for (flags, expected) in cases {
        let env = TestEnv::new();
        env.ok(&["add", "Water the plants"]);
        let mut args = vec!["schedule", "add", "INBOX-1", "--daily", "09:00"];
        args.extend_from_slice(flags);
        env.ok(&args);
        // The last run: on time, Monday 09:00 Berlin.
        let d = json_at(&env, "2026-11-30T08:00:20Z", &["daemon", "--once"]);
        assert_eq!(d["jobs"].as_array().expect("jobs").len(), 1, "{flags:?}: the on-time firing runs");
        // Five days later, half an hour after that day's firing: five firings were missed.
        let d = json_at(&env, "2026-12-05T08:30:00Z", &["daemon", "--once"]);
        let jobs = d["jobs"].as_array().expect("jobs");
        assert_eq!(jobs.len(), expected, "{flags:?}: {d}");
        assert_eq!(d["missed_skipped"], 5 - expected as u64, "{flags:?}");
        assert!(jobs.iter().all(|j| j["state"] == "succeeded"), "{flags:?}: {d}");
        let fors: Vec<&str> = jobs.iter().map(|j| j["scheduled_for"].as_str().unwrap_or("")).collect();
        let newest: Vec<&str> =
            ["2026-12-03T08:00:00Z", "2026-12-04T08:00:00Z", "2026-12-05T08:00:00Z"][3 - expected..].to_vec();
        assert_eq!(fors, newest, "{flags:?}: the most recent missed firings, oldest first");
        let list = env.json(&["schedule", "list"]);
        let s = &items(&list)[0];
        assert_eq!(s["next_fire_at"], "2026-12-06T08:00:00Z", "{flags:?}: next_fire_at persisted");
        // Run again at the same time: nothing new (idempotent).
        let d = json_at(&env, "2026-12-05T08:30:00Z", &["daemon", "--once"]);
        assert!(d["jobs"].as_array().expect("jobs").is_empty(), "{flags:?}: {d}");
    }
}

#[test]
fn catch_up_bounds_are_configurable() {
    let env = TestEnv::new();
    env.ok(&["add", "Backup"]);
    env.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "09:00",
        "--missed",
        "catch_up",
        "--catch-up-runs",
        "10",
        "--catch-up-days",
        "2",
    ]);
    // Twelve days down; only firings at most 2 days old may run.
    let d = json_at(&env, "2026-12-11T12:00:00Z", &["daemon", "--once"]);
    let fors: Vec<&str> =
        d["jobs"].as_array().expect("jobs").iter().map(|j| j["scheduled_for"].as_str().unwrap_or("")).collect();
    assert_eq!(fors, ["2026-12-10T08:00:00Z", "2026-12-11T08:00:00Z"]);
}

#[test]
fn a_daemon_killed_mid_job_leaves_it_interrupted_and_it_never_runs_again() {
    let env = TestEnv::new();
    env.ok(&["add", "Long backup"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--env-allow", "PATH", "--command", "sleep", "30"]);
    let mut daemon = spawn_daemon(&env, "2026-11-30T08:00:10Z", &["--once"]);
    let job = wait_running(&env, "INBOX-1");
    daemon.kill().expect("SIGKILL the daemon");
    let _ = daemon.wait();
    let orphan = job["runs"][0]["pid"].as_u64().expect("pid");
    // The command dies with the daemon (its parent-death signal), kill -9 or not.
    let start = Instant::now();
    while alive(orphan) {
        assert!(start.elapsed() < PATIENCE, "the command {orphan} outlived the daemon killed with -9");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The dead daemon's Job still says running until a daemon starts again.
    assert_eq!(job_states(&env, "INBOX-1"), ["running"]);
    let d = json_at(&env, "2026-11-30T08:05:00Z", &["daemon", "--once"]);
    assert_eq!(d["recovered"][0]["id"], job["id"], "{d}");
    assert_eq!(d["recovered"][0]["state"], "interrupted");
    assert!(d["jobs"].as_array().expect("jobs").is_empty(), "not replayed: {d}");
    let v = env.json(&["jobs", "INBOX-1"]);
    let j = &items(&v)[0];
    assert_eq!(j["state"], "interrupted");
    assert_eq!(j["runs"].as_array().expect("runs").len(), 1, "one Run only");
    assert_eq!(j["runs"][0]["state"], "interrupted");
    // And a later pass does not run it either.
    let d = json_at(&env, "2026-11-30T08:10:00Z", &["daemon", "--once"]);
    assert!(d["recovered"].as_array().expect("recovered").is_empty() && d["jobs"].as_array().expect("jobs").is_empty());
    assert_eq!(job_states(&env, "INBOX-1"), ["interrupted"]);
}

#[test]
fn a_daemon_killed_with_9_leaves_no_child_running() {
    let env = TestEnv::new();
    env.ok(&["add", "Long backup"]);
    // The command starts a child of its own and waits: the child is in the command's
    // process group and carries TASKS_JOB_ID, but no parent-death signal.
    let child_file = env.path("child.pid");
    let script = format!("sleep 300 & echo $! > {}; wait", child_file.display());
    shell_schedule(&env, "10m", &script);
    let mut daemon = spawn_daemon(&env, "2026-11-30T08:00:10Z", &["--once"]);
    let job = wait_running(&env, "INBOX-1");
    let start = Instant::now();
    while std::fs::read_to_string(&child_file).map(|t| t.trim().is_empty()).unwrap_or(true) {
        assert!(start.elapsed() < PATIENCE, "the command never started its child");
        std::thread::sleep(Duration::from_millis(20));
    }
    let child: u64 = std::fs::read_to_string(&child_file).expect("pid").trim().parse().expect("a pid");
    let shell = job["runs"][0]["pid"].as_u64().expect("pid");
    daemon.kill().expect("SIGKILL the daemon");
    let _ = daemon.wait();
    let start = Instant::now();
    while alive(shell) {
        assert!(start.elapsed() < PATIENCE, "the command {shell} outlived the daemon");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(alive(child), "the grandchild has no parent-death signal: only recovery can end it");
    let d = json_at(&env, "2026-11-30T08:05:00Z", &["daemon", "--once"]);
    assert_eq!(d["recovered"][0]["state"], "interrupted", "{d}");
    let start = Instant::now();
    while alive(child) {
        if start.elapsed() > PATIENCE {
            kill_pid(child);
            panic!("recovery left the command's child {child} running");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_daemon_lock_never_writes_through_a_symlink() {
    let env = TestEnv::new();
    env.ok(&["add", "Anything"]);
    let victim = env.write("victim.txt", "precious\n");
    let lock = env.path("tasks.db.daemon.lock");
    std::os::unix::fs::symlink(&victim, &lock).expect("symlink");
    let e = env.fails(&["daemon", "--once"], 3);
    assert!(e["message"].as_str().unwrap_or("").contains("daemon lock"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "precious\n", "the victim is untouched");
}

#[test]
fn the_daemons_secrets_are_not_readable_by_its_commands() {
    let env = TestEnv::new();
    env.ok(&["add", "Peek"]);
    shell_schedule(&env, "1m", "cat /proc/$PPID/environ | tr '\\0' '\\n' | grep -c SECRET_MARK || true");
    let out = env
        .command(&["--json", "daemon", "--once"])
        .env("TASKS_NOW", "2026-11-30T08:00:10Z")
        .env("TELEGRAM_BOT_TOKEN", "SECRET_MARK_123")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("daemon");
    let r = collect(out);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = env.json(&["jobs", "INBOX-1"]);
    let output = items(&v)[0]["runs"][0]["output"].as_str().unwrap_or("").to_string();
    assert!(!output.contains("SECRET_MARK"), "the command read the daemon's environment: {output}");
    assert!(output.trim().is_empty() || output.trim() == "0", "{output}");
}

#[test]
fn sigterm_interrupts_running_jobs_kills_the_command_and_exits_0() {
    let env = TestEnv::new();
    env.ok(&["add", "Long backup"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--env-allow", "PATH", "--command", "sleep", "30"]);
    let daemon = spawn_daemon(&env, "2026-11-30T08:00:10Z", &[]);
    let job = wait_running(&env, "INBOX-1");
    // A second daemon on the same store is refused while the first runs.
    let e = env.fails(&["daemon", "--once"], 15);
    assert!(e["details"]["lock"].as_str().unwrap_or("").ends_with(".daemon.lock"), "{e}");
    let status =
        std::process::Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status().expect("send SIGTERM");
    assert!(status.success());
    let out = collect(daemon.wait_with_output().expect("daemon exits"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("SIGTERM: stopping"), "{}", out.stderr);
    assert_eq!(job_states(&env, "INBOX-1"), ["interrupted"]);
    let pid = job["runs"][0]["pid"].as_u64().expect("pid");
    let start = Instant::now();
    while alive(pid) {
        assert!(start.elapsed() < PATIENCE, "the command {pid} outlived the daemon");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Returns true while a process runs: it exists and is not a zombie (a killed child
/// whose parent exited waits for init to reap it).
fn alive(pid: u64) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name: "123 (sleep) S …".
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn command_output_is_captured_and_cut_to_the_budget() {
    let env = TestEnv::new();
    env.ok(&["add", "Report"]);
    env.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "09:00",
        "--output-budget",
        "16",
        "--env-allow",
        "PATH",
        "--command",
        "sh",
        "-c",
        // One pipe for both streams (exec 2>&1) keeps the bytes in program order; with
        // two pipes, which stream the capture reads first depends on the scheduler.
        "exec 2>&1; printf 'ok:%s\\n' \"$TASKS_TASK\"; printf '%0100d' 0; echo err >&2; exit 3",
    ]);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "failed", "{d}");
    assert_eq!(d["jobs"][0]["reason"], "exit code 3");
    let jobs = env.json(&["jobs", "INBOX-1"]);
    let run = &items(&jobs)[0]["runs"][0];
    assert_eq!(run["exit_code"], 3);
    // 11 bytes of "ok:INBOX-1\n" + 5 zeros = the 16-byte budget; 95 zeros + "err\n" dropped.
    assert_eq!(run["output"], "ok:INBOX-1\n00000\n[… 99 more bytes dropped: the output budget is 16 bytes]");
    assert_eq!(run["output_dropped_bytes"], 99);
    let m = env.json(&["schedule", "messages"]);
    let last = items(&m).last().expect("message")["text"].as_str().expect("text").to_string();
    assert!(last.contains("Job #1 failed: exit code 3\nok:INBOX-1\n00000"), "the output is posted: {last}");
}

/// Schedules `sh -c SCRIPT` daily at 09:00 on INBOX-1 with a timeout.
fn shell_schedule(env: &TestEnv, timeout: &str, script: &str) {
    env.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "09:00",
        "--timeout",
        timeout,
        "--env-allow",
        "PATH",
        "--command",
        "sh",
        "-c",
        script,
    ]);
}

#[test]
fn a_timeout_kills_the_command_and_fails_the_job_without_retry() {
    let env = TestEnv::new();
    env.ok(&["add", "Hang"]);
    shell_schedule(&env, "1s", "echo started; sleep 30");
    let start = Instant::now();
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert!(start.elapsed() < Duration::from_secs(15), "killed at the timeout, took {:?}", start.elapsed());
    assert_eq!(d["jobs"][0]["state"], "failed");
    assert_eq!(d["jobs"][0]["reason"], "timeout: killed after 1s");
    let jobs = env.json(&["jobs", "INBOX-1"]);
    let run = &items(&jobs)[0]["runs"];
    assert_eq!(run.as_array().expect("runs").len(), 1, "a timeout is not retried");
    assert_eq!(run[0]["output"], "started\n");
}

/// A timeout kills the command's whole process group: a child it started in the
/// background dies with it.
#[test]
fn a_timeout_kills_the_children_the_command_started() {
    let env = TestEnv::new();
    env.ok(&["add", "Spawner"]);
    let pid_file = env.path("child.pid");
    let script = format!("sleep 60 & echo $! > {}; wait", pid_file.display());
    shell_schedule(&env, "1s", &script);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["reason"], "timeout: killed after 1s", "{d}");
    let child: u64 = std::fs::read_to_string(&pid_file).expect("pid file").trim().parse().expect("pid");
    let start = Instant::now();
    while alive(child) {
        assert!(start.elapsed() < PATIENCE, "the background child {child} outlived the timeout");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A program that exits while a child it left running still holds its output pipe
/// ends the Job with its own exit code (the output is read for a short grace only),
/// and the child is left alone.
#[test]
fn a_program_that_exits_is_done_even_if_its_child_keeps_the_pipe() {
    let env = TestEnv::new();
    env.ok(&["add", "Starter"]);
    let pid_file = env.path("child.pid");
    let script = format!("sleep 60 & echo $! > {}; echo started", pid_file.display());
    shell_schedule(&env, "50s", &script);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "succeeded", "not held until the timeout: {d}");
    let jobs = env.json(&["jobs", "INBOX-1"]);
    assert_eq!(items(&jobs)[0]["runs"][0]["output"], "started\n");
    let child: u64 = std::fs::read_to_string(&pid_file).expect("pid file").trim().parse().expect("pid");
    assert!(alive(child), "a child left by a program that ended normally is not killed");
    let _ = std::process::Command::new("kill").args(["-KILL", &child.to_string()]).status();
}

#[test]
fn only_allow_listed_variables_reach_the_command() {
    let env = TestEnv::new();
    env.ok(&["add", "Env"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--env-allow", "HOME", "--command", "/usr/bin/env"]);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert_eq!(d["jobs"][0]["state"], "succeeded", "{d}");
    let out = items(&env.json(&["jobs", "INBOX-1"]))[0]["runs"][0]["output"].as_str().expect("output").to_string();
    let mut names: Vec<&str> = out.lines().filter_map(|l| l.split_once('=').map(|(k, _)| k)).collect();
    names.sort();
    assert_eq!(names, ["HOME", "TASKS_JOB_ID", "TASKS_RUN_ATTEMPT", "TASKS_SCHEDULED_FOR", "TASKS_TASK"]);
}

#[test]
fn a_transient_failure_is_retried_with_a_bound_and_a_config_error_never() {
    let env = TestEnv::new();
    env.ok(&["add", "Flaky"]);
    env.ok(&["add", "Broken"]);
    env.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "09:00",
        "--env-allow",
        "PATH",
        "--command",
        "sh",
        "-c",
        "echo try $TASKS_RUN_ATTEMPT; exit 75",
    ]);
    env.ok(&["schedule", "add", "INBOX-2", "--daily", "09:00", "--command", "/no/such/program"]);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    let v = env.json(&["jobs", "INBOX-1"]);
    let runs = items(&v)[0]["runs"].as_array().expect("runs").clone();
    let outputs: Vec<&str> = runs.iter().map(|r| r["output"].as_str().unwrap_or("")).collect();
    assert_eq!(outputs, ["try 1\n", "try 2\n", "try 3\n"], "{d}");
    assert_eq!(items(&v)[0]["state"], "failed");
    assert!(items(&v)[0]["reason"].as_str().unwrap_or("").contains("gave up after 3 Runs"));
    let v = env.json(&["jobs", "INBOX-2"]);
    assert_eq!(items(&v)[0]["runs"].as_array().expect("runs").len(), 1);
    assert!(items(&v)[0]["reason"].as_str().unwrap_or("").contains("configuration; not retried"), "{v}");
}

#[test]
fn job_failed_events_fire_other_schedules_but_never_cascade() {
    let env = TestEnv::new();
    env.ok(&["add", "Nightly sync"]);
    env.ok(&["add", "Look at the failure"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--command", "/bin/false"]);
    env.ok(&["schedule", "add", "INBOX-2", "--on", "job.failed"]);
    let d = json_at(&env, "2026-11-30T08:00:10Z", &["daemon", "--once"]);
    assert_eq!(job_states(&env, "INBOX-1"), ["failed"], "{d}");
    assert_eq!(job_states(&env, "INBOX-2"), ["succeeded"], "the event Job ran in the same pass");
    assert_eq!(env.json(&["show", "INBOX-2"])["task"]["due"], "2026-11-30");
}
