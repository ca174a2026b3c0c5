//! Data in and out (issue 15): the lossless export and its import (restore and merge),
//! backups while others write, Taskwarrior (the real `task` program) and beads.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::common::TestEnv;

/// A store with something of every common kind: projects, a moved task, a claim, a
/// note, tags, a link, a merged duplicate, a schedule that ran, conversation messages,
/// a chat turn, an undo.
fn rich() -> TestEnv {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HRB", "Harbor"]);
    env.ok(&["project", "add", "HOME", "Home"]);
    env.ok(&["add", "Pay rent", "--due", "today", "--tag", "home", "--priority", "1"]);
    env.ok(&["add", "Send invoice to Acme", "--project", "HRB", "--amount", "1500 EUR"]);
    env.ok(&["add", "Call the bank", "--blocked-by", "INBOX-1", "--due", "tomorrow 15:00"]);
    env.ok(&["note", "INBOX-1", "the blue form"]);
    env.ok(&["claim", "HRB-1"]);
    env.ok(&["edit", "INBOX-2", "--project", "HOME"]);
    env.ok(&["add", "Send the invoice to Acme", "--project", "HRB", "--new"]);
    env.ok(&["merge", "HRB-2", "--into", "HRB-1"]);
    env.ok(&["schedule", "add", "INBOX-2", "--daily", "09:00"]);
    env.ok(&["schedule", "run-now", "INBOX-2"]);
    env.ok(&["chat", "--offline", "/today"]);
    env.ok(&["add", "Mistake", "--new"]);
    env.ok(&["undo"]);
    env
}

fn export(env: &TestEnv) -> String {
    env.ok(&["export"]).stdout
}

fn body(export: &str) -> String {
    export.lines().skip(1).collect::<Vec<_>>().join("\n")
}

fn kinds(export: &str) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for l in export.lines().skip(1) {
        let v: Value = serde_json::from_str(l).expect("a record");
        *m.entry(v["kind"].as_str().expect("kind").to_string()).or_default() += 1;
    }
    m
}

#[test]
fn export_import_export_is_byte_identical_and_every_task_shows_the_same() {
    let env = rich();
    let first = export(&env);
    let header: Value = serde_json::from_str(first.lines().next().expect("header")).expect("json");
    assert_eq!(header["format"], "tasks");
    assert_eq!(header["version"], 2);
    let other = TestEnv::new();
    let file = other.write("all.jsonl", &first);
    let v = other.json(&["import", file.to_str().expect("path")]);
    assert_eq!(v["mode"], "restore", "{v}");
    let second = export(&other);
    assert_eq!(body(&second), body(&first), "the second export differs");
    let keys: Vec<String> = env.json(&["list", "--status", "all", "--limit", "100"])["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|t| t["key"].as_str().expect("key").to_string())
        .collect();
    assert!(keys.len() >= 5, "{keys:?}");
    for key in &keys {
        assert_eq!(other.json(&["show", key]), env.json(&["show", key]), "{key}");
        assert_eq!(other.json(&["history", key]), env.json(&["history", key]), "{key}");
    }
    assert_eq!(other.json(&["schedule", "list"]), env.json(&["schedule", "list"]));
    assert_eq!(other.json(&["jobs"]), env.json(&["jobs"]));
    // Counters continue: the next key is the one the original store would give.
    assert_eq!(other.json(&["add", "Next one", "--project", "HRB", "--new"])["task"]["key"], "HRB-3");
    // The indexes were rebuilt: search and the duplicate check see the restored tasks.
    assert!(other.ok(&["search", "blue"]).stdout.contains("INBOX-1"));
    let check = other.json(&["check", "Send the invoice to Acme"]);
    assert!(check.to_string().contains("HRB-1"), "{check}");
}

#[test]
fn every_record_kind_of_the_store_survives_the_round_trip() {
    let env = rich();
    let first = export(&env);
    let counts = kinds(&first);
    for kind in [
        "project",
        "task",
        "link",
        "tag",
        "tagging",
        "operation",
        "event",
        "note",
        "dup_decision",
        "conversation",
        "conversation_state",
        "schedule",
        "job",
        "run",
        "artifact",
        "conversation_message",
    ] {
        assert!(counts.get(kind).copied().unwrap_or(0) > 0, "the rich store has no {kind}: {counts:?}");
    }
    let header: Value = serde_json::from_str(first.lines().next().expect("header")).expect("json");
    for (kind, n) in &counts {
        assert_eq!(header["counts"][kind], json!(n), "header count of {kind}");
    }
    let other = TestEnv::new();
    let file = other.write("all.jsonl", &first);
    other.ok(&["import", file.to_str().expect("path")]);
    assert_eq!(kinds(&export(&other)), counts);
}

#[test]
fn into_a_store_with_data_it_merges_by_uuid_and_says_what_it_did_not_merge() {
    let env = rich();
    let first = export(&env);
    let other = TestEnv::new();
    other.ok(&["add", "Pay rent", "--new"]);
    let file = other.write("all.jsonl", &first);
    let v = other.json(&["import", file.to_str().expect("path")]);
    assert_eq!(v["mode"], "merge", "{v}");
    assert!(v["conflicts"].to_string().contains("INBOX-1"), "the taken key is reported: {v}");
    assert!(v["not_merged"]["schedule"].as_u64().unwrap_or(0) >= 1, "{v}");
    // Imported again: nothing twice.
    let count = |e: &TestEnv| e.json(&["list", "--status", "all", "--limit", "100"])["items"].as_array().map(Vec::len);
    let before = count(&other);
    let again = other.json(&["import", file.to_str().expect("path")]);
    assert_eq!(count(&other), before, "{again}");
    assert!(again["kept"].as_u64().unwrap_or(0) >= 5, "{again}");
    // The moved task kept its tags, notes and link.
    let moved = other.json(&["list", "--text", "Pay rent", "--status", "all"])["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|t| t["tags"].to_string().contains("home"))
        .cloned()
        .expect("the imported Pay rent");
    let key = moved["key"].as_str().expect("key");
    let shown = other.json(&["show", key]);
    assert_eq!(shown["notes"][0]["text"], "the blue form", "{shown}");
}

#[test]
fn a_bad_export_line_names_its_line_and_writes_nothing() {
    let env = rich();
    let mut lines: Vec<String> = export(&env).lines().map(str::to_string).collect();
    lines[3] = "{\"kind\":\"spaceship\",\"row\":{}}".into();
    let other = TestEnv::new();
    let file = other.write("bad.jsonl", &lines.join("\n"));
    let e = other.fails(&["import", file.to_str().expect("path")], 2);
    assert!(e["message"].as_str().unwrap_or("").starts_with("line 4"), "{e}");
    lines[3] = "{\"kind\":\"task\",\"row\":{\"warp\":1}}".into();
    let file = other.write("bad.jsonl", &lines.join("\n"));
    let e = other.fails(&["import", file.to_str().expect("path")], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("warp"), "{e}");
    assert_eq!(other.json(&["list", "--status", "all"])["items"].as_array().map(Vec::len), Some(0));
    let mut newer: Vec<String> = export(&env).lines().map(str::to_string).collect();
    newer[0] = newer[0].replace("\"schema\":", "\"schema\":9999,\"old_schema\":");
    let file = other.write("newer.jsonl", &newer.join("\n"));
    let e = other.fails(&["import", file.to_str().expect("path")], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("newer tasks"), "{e}");
}

#[test]
fn task_lines_still_import_and_carry_notes_times_and_new_projects() {
    let env = TestEnv::new();
    let lines = [
        json!({"id": "a", "title": "Water plants", "project": "GARDEN", "project_name": "Garden",
               "notes": [{"at": "2026-11-20T10:00:00Z", "text": "twice a week"}],
               "due_at": "2026-12-02T16:30:00Z", "recur": {"trigger": "weekly", "weekdays": ["wed"], "time": "17:30"}}),
        json!({"id": "b", "title": "Buy soil", "project": "GARDEN", "blocked_by": ["a"]}),
    ];
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    let file = env.write("lines.jsonl", &text.join("\n"));
    let v = env.json(&["import", file.to_str().expect("path")]);
    assert_eq!(v["imported"], 2, "{v}");
    assert_eq!(v["scheduled"], 1, "{v}");
    let shown = env.json(&["show", "GARDEN-1"]);
    assert_eq!(shown["notes"][0]["text"], "twice a week", "{shown}");
    assert_eq!(shown["task"]["due_kind"], "time", "{shown}");
    assert_eq!(env.json(&["schedule", "show", "GARDEN-1"])["schedule"]["trigger_text"], "weekly wed 17:30");
    assert!(env.json(&["project", "list"]).to_string().contains("Garden"));
    // The task-lines export carries them back out.
    let out = env.ok(&["export", "--format", "lines"]).stdout;
    assert!(out.contains("twice a week") && out.contains("\"project_name\":\"Garden\""), "{out}");
}

#[test]
fn restore_asks_and_a_backup_taken_under_eight_writers_is_whole() {
    let env = TestEnv::new();
    env.init_store();
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let mut cmd = env.command(&["import", "-"]);
            cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
            (w, cmd)
        })
        .map(|(w, mut cmd)| {
            let mut child = cmd.spawn().expect("writer");
            let lines: Vec<String> =
                (0..300).map(|i| json!({"title": format!("writer {w} task {i}")}).to_string()).collect();
            let mut stdin = child.stdin.take().expect("stdin");
            std::thread::spawn(move || {
                use std::io::Write;
                let _ = stdin.write_all(lines.join("\n").as_bytes());
            });
            child
        })
        .collect();
    let adders: Vec<_> = (0..8)
        .map(|w| {
            let mut cmd = env.command(&["add", &format!("adder {w}"), "--new"]);
            cmd.stdout(Stdio::null()).stderr(Stdio::null());
            cmd.spawn().expect("adder")
        })
        .collect();
    let backup = env.path("backup.db");
    let r = env.json(&["backup", backup.to_str().expect("path")]);
    for mut c in writers.into_iter().chain(adders) {
        assert!(c.wait().expect("wait").success());
    }
    assert!(r["bytes"].as_u64().unwrap_or(0) > 0, "{r}");
    let conn = rusqlite::Connection::open(&backup).expect("open the backup");
    let ok: String = conn.query_row("PRAGMA integrity_check", [], |q| q.get(0)).expect("check");
    assert_eq!(ok, "ok");
    let tasks: i64 = conn.query_row("SELECT count(*) FROM tasks", [], |q| q.get(0)).expect("count");
    assert_eq!(tasks, r["tasks"].as_i64().expect("tasks"));
    // A file that exists is not overwritten.
    env.fails(&["backup", backup.to_str().expect("path")], 2);
    // Restore: asks first (exit 7), then puts back exactly the backup's tasks.
    env.ok(&["add", "after the backup", "--new"]);
    let e = env.fails(&["restore", backup.to_str().expect("path")], 7);
    assert!(e["message"].as_str().unwrap_or("").contains("replaces"), "{e}");
    let v = env.json(&["restore", backup.to_str().expect("path"), "--yes"]);
    assert_eq!(v["tasks"], json!(tasks));
    let now = env.json(&["list", "--status", "all", "--limit", "5000"])["items"].as_array().map(Vec::len);
    assert_eq!(now, Some(tasks as usize));
    // Not a store: refused, naming why.
    let junk = env.write("junk.db", "not sqlite at all");
    let e = env.fails(&["restore", junk.to_str().expect("path"), "--yes"], 3);
    assert!(e["message"].as_str().unwrap_or("").contains("junk.db"), "{e}");
}

// ---- Taskwarrior --------------------------------------------------------------------

/// A private Taskwarrior: its own rc and data directory.
struct Tw {
    dir: tempfile::TempDir,
}

impl Tw {
    fn new() -> Option<Tw> {
        if Command::new("task").arg("--version").output().is_err() {
            tasks_testkit::skip::skipped(
                "test_transfer::taskwarrior",
                "Taskwarrior (`task`) is not installed: scripts/install-test-tools.sh installs Debian's taskwarrior",
            );
            return None;
        }
        let dir = tempfile::tempdir().expect("dir");
        let rc = dir.path().join("taskrc");
        std::fs::write(
            &rc,
            format!(
                "data.location={}\nconfirmation=off\nverbose=nothing\ngc=off\nhooks=off\nrecurrence=off\n",
                dir.path().join("data").display()
            ),
        )
        .expect("rc");
        Some(Tw { dir })
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> String {
        let mut cmd = Command::new("task");
        cmd.args(args)
            .env("TASKRC", self.dir.path().join("taskrc"))
            .env("TZ", "Europe/Berlin")
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("task");
        if let Some(text) = stdin {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write");
        }
        let out = child.wait_with_output().expect("task");
        assert!(out.status.success(), "task {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn export(&self) -> Vec<Value> {
        serde_json::from_str(&self.run(&["export"], None)).expect("task export JSON")
    }
}

fn uuid(i: usize) -> String {
    format!("{:08x}-1111-4222-8333-{:012x}", i + 1, i + 1)
}

/// 200 Taskwarrior tasks: projects, priorities, tags, annotations, dependencies, dues,
/// completed and deleted ones, and one recurring template.
fn taskwarrior_tasks() -> Vec<Value> {
    let projects = ["Home.Garden", "Home.Kitchen", "Work", "Work.Reports", "Errands"];
    (0..200)
        .map(|i| {
            let mut t = json!({
                "uuid": uuid(i),
                "description": format!("Task number {i} about {}", projects[i % 5]),
                "entry": format!("202611{:02}T0{}0000Z", 1 + i % 28, i % 9),
                "status": "pending",
                "project": projects[i % 5],
                "tags": [format!("t{}", i % 7), "imported"],
            });
            match i % 4 {
                0 => t["priority"] = json!("H"),
                1 => t["priority"] = json!("M"),
                2 => t["priority"] = json!("L"),
                _ => {}
            }
            if i % 3 == 0 {
                t["annotations"] = json!([{"entry": "20261115T100000Z", "description": format!("note on {i}")}]);
            }
            if i % 5 == 1 && i > 0 {
                t["depends"] = json!(uuid(i - 1));
            }
            if i % 6 == 0 {
                t["due"] = json!("20261210T230000Z");
            }
            if i % 11 == 0 {
                t["status"] = json!("completed");
                t["end"] = json!("20261120T120000Z");
            }
            if i % 13 == 0 && i % 11 != 0 {
                t["status"] = json!("deleted");
                t["end"] = json!("20261121T120000Z");
            }
            t
        })
        .chain(std::iter::once(json!({
            "uuid": uuid(500), "description": "Water the tomatoes", "entry": "20261101T080000Z",
            "status": "recurring", "recur": "weekly", "due": "20261202T170000Z", "project": "Home.Garden",
        })))
        .collect()
}

#[test]
fn two_hundred_taskwarrior_tasks_survive_import_field_by_field() {
    let Some(tw) = Tw::new() else { return };
    let input: Vec<String> = taskwarrior_tasks().iter().map(ToString::to_string).collect();
    tw.run(&["import"], Some(&input.join("\n")));
    let exported = tw.export();
    assert!(exported.len() >= 201, "{}", exported.len());
    let env = TestEnv::new();
    let file = env.write("tw.json", &serde_json::to_string(&exported).expect("json"));
    let v = env.json(&["import", "--from", "taskwarrior", file.to_str().expect("path")]);
    assert_eq!(v["imported"].as_u64(), Some(exported.len() as u64), "{v}");
    assert_eq!(v["scheduled"], 1, "the recurring template became a schedule: {v}");
    let ours = env.json(&["export", "--format", "lines"])["items"].clone();
    let ours = ours.as_array().expect("lines");
    let by_id = |id: &str| ours.iter().find(|l| l["id"] == id).cloned();
    let mut compared = 0;
    for t in &exported {
        let id = t["uuid"].as_str().expect("uuid");
        let line = by_id(id).unwrap_or_else(|| panic!("{id} was not imported"));
        assert_eq!(line["title"], t["description"], "{id}");
        let status = match t["status"].as_str() {
            Some("completed") => "done",
            Some("deleted") => "dismissed",
            _ => "open",
        };
        assert_eq!(line["status"], status, "{id}");
        let priority = match t["priority"].as_str() {
            Some("H") => json!(1),
            Some("M") => json!(2),
            Some("L") => json!(3),
            _ => Value::Null,
        };
        assert_eq!(line["priority"], priority, "{id}");
        let mut tags: Vec<String> = t["tags"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        tags.sort();
        let mut got: Vec<String> = line["tags"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        got.sort();
        assert_eq!(got, tags, "{id}");
        let annotations: Vec<&str> = t["annotations"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x["description"].as_str()).collect())
            .unwrap_or_default();
        let notes: Vec<&str> =
            line["notes"].as_array().map(|a| a.iter().filter_map(|x| x["text"].as_str()).collect()).unwrap_or_default();
        for a in &annotations {
            assert!(notes.contains(a), "{id}: annotation {a} missing from {notes:?}");
        }
        let depends: Vec<String> = match &t["depends"] {
            Value::String(s) => s.split(',').map(str::to_string).collect(),
            Value::Array(a) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
        let blocked: Vec<String> = line["blocked_by"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        assert_eq!(blocked, depends, "{id}");
        if let Some(project) = t["project"].as_str() {
            let first = project.split('.').next().expect("segment");
            assert_eq!(line["project_name"], first, "{id}");
        }
        if t.get("due").is_some() {
            assert!(line["due"].is_string(), "{id}: due lost");
        }
        compared += 1;
    }
    assert_eq!(compared, exported.len());
}

#[test]
fn our_tasks_go_to_taskwarrior_and_come_back() {
    let Some(tw) = Tw::new() else { return };
    let env = rich();
    let out = env.ok(&["export", "--to", "taskwarrior"]).stdout;
    tw.run(&["import"], Some(&out));
    let back = tw.export();
    let ours = env.json(&["list", "--status", "all", "--limit", "100"])["items"].clone();
    let ours = ours.as_array().expect("items");
    assert_eq!(back.len(), ours.len());
    for t in ours {
        let title = t["title"].as_str().expect("title");
        let w = back.iter().find(|b| b["description"] == title).unwrap_or_else(|| panic!("{title} missing"));
        let status = match t["status"].as_str() {
            Some("done") => "completed",
            Some("dismissed") => "deleted",
            _ => "pending",
        };
        assert_eq!(w["status"], status, "{title}");
    }
    // And back into a fresh store: nothing twice, the same titles.
    let again = TestEnv::new();
    let file = again.write("tw.json", &serde_json::to_string(&back).expect("json"));
    again.ok(&["import", "--from", "taskwarrior", file.to_str().expect("path")]);
    again.ok(&["import", "--from", "taskwarrior", file.to_str().expect("path")]);
    assert_eq!(
        again.json(&["list", "--status", "all", "--limit", "100"])["items"].as_array().map(Vec::len),
        Some(ours.len())
    );
}

// ---- beads ------------------------------------------------------------------------

const BEADS: &str = include_str!("../../tasks-core/tests/fixtures/interop/beads-issues.jsonl");

#[test]
fn beads_issues_import_and_their_ids_resolve() {
    let env = TestEnv::new();
    let file = env.write("issues.jsonl", BEADS);
    let v = env.json(&["import", "--from", "beads", file.to_str().expect("path")]);
    let issues: Vec<Value> =
        BEADS.lines().filter(|l| !l.trim().is_empty()).filter_map(|l| serde_json::from_str(l).ok()).collect();
    let real: Vec<&Value> = issues.iter().filter(|i| i.get("title").is_some() && i["status"] != "tombstone").collect();
    assert_eq!(v["imported"].as_u64(), Some(real.len() as u64), "{v}");
    for issue in &real {
        let id = issue["id"].as_str().expect("id");
        let shown = env.json(&["show", &format!("task:{id}")]);
        assert_eq!(shown["task"]["title"], issue["title"], "{id}");
    }
    // And out again: the same ids.
    let out = env.ok(&["export", "--to", "beads"]).stdout;
    for issue in &real {
        assert!(out.contains(&format!("\"id\":\"{}\"", issue["id"].as_str().expect("id"))), "{out}");
    }
}

// ---- Issue 36: a killed backup leaves nothing behind -------------------------------

/// Runs `tasks ARGS` under `umask`, through `sh` (which sets it, then execs the binary
/// with the pinned environment).
fn under_umask(env: &TestEnv, umask: &str, args: &[&str]) -> Command {
    let base = env.command(args);
    let mut sh = Command::new("/bin/sh");
    sh.arg("-c").arg(format!("umask {umask}; exec \"$0\" \"$@\"")).arg(base.get_program()).args(base.get_args());
    sh.env_clear().current_dir(env.dir.path()).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    for (k, v) in base.get_envs() {
        if let Some(v) = v {
            sh.env(k, v);
        }
    }
    sh
}

/// Every file in `dir` and its mode.
fn files_with_modes(dir: &std::path::Path) -> Vec<(String, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out: Vec<(String, u32)> = std::fs::read_dir(dir)
        .expect("read dir")
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let mode = e.metadata().expect("meta").permissions().mode() & 0o777;
            (e.file_name().to_string_lossy().into_owned(), mode)
        })
        .collect();
    out.sort();
    out
}

/// `tasks backup` of a 40k-task store killed with SIGKILL at several moments, under
/// umask 000 and 022: the target is there only whole (a restorable store), any
/// leftover is a temporary named for what it is, every file the run made is 0600, and
/// the next backup to the same name removes the leftover and succeeds.
#[test]
fn a_killed_backup_leaves_no_file_and_nothing_readable_by_others() {
    let env = TestEnv::new();
    let lines = env.ok(&["workload", "40000"]).stdout;
    let file = env.write("w.jsonl", &lines);
    env.ok(&["import", file.to_str().expect("path")]);
    let out = tempfile::tempdir().expect("backup dir");
    let mut killed_before_done = 0;
    for (i, (umask, delay_ms)) in
        [("000", 0), ("022", 10), ("000", 40), ("022", 80), ("000", 150), ("022", 250), ("000", 400), ("022", 2000)]
            .iter()
            .enumerate()
    {
        let target = out.path().join(format!("b{i}.db"));
        let mut child =
            under_umask(&env, umask, &["backup", target.to_str().expect("path")]).spawn().expect("spawn backup");
        std::thread::sleep(std::time::Duration::from_millis(*delay_ms));
        let _ = child.kill();
        let status = child.wait().expect("reaped");
        let finished = status.success();
        if target.exists() {
            // Only a whole store is ever at the target: `restore` checks it (a tasks
            // store, undamaged) and then asks for --yes (exit 7).
            let e = env.fails(&["restore", target.to_str().expect("path")], 7);
            assert!(e["message"].as_str().is_some_and(|m| m.contains("replaces")), "{e}");
        } else {
            assert!(!finished, "a backup that succeeded left its file");
            killed_before_done += 1;
        }
        for (name, mode) in files_with_modes(out.path()) {
            assert_eq!(mode, 0o600, "umask {umask}, kill after {delay_ms} ms: {name} is {mode:o}");
            assert!(
                name.starts_with('b') || name.contains(".tasks-partial-"),
                "only backups and named temporaries: {name}"
            );
        }
        // The next backup to the same name cleans up after the killed one.
        if !target.exists() {
            let r = env.json(&["backup", target.to_str().expect("path")]);
            assert!(r["tasks"].as_i64().is_some_and(|n| n >= 40000), "{r}");
            assert!(
                files_with_modes(out.path()).iter().all(|(n, _)| !n.contains(&format!(".b{i}.db.tasks-partial-"))),
                "the stale temporary was removed: {r}"
            );
        }
    }
    assert!(killed_before_done >= 3, "the kills came before the end often enough: {killed_before_done}");
}

/// Issue 36: `restore` first keeps the store it replaces in a backup beside it (0600,
/// named with the time) and says where; that backup restores the store as it was.
#[test]
fn restore_keeps_the_store_it_replaces_and_that_copy_restores() {
    let env = TestEnv::new();
    env.ok(&["add", "Only in the backup", "--new"]);
    let backup = env.path("old.db");
    env.ok(&["backup", backup.to_str().expect("path")]);
    env.ok(&["add", "Added after the backup", "--new"]);
    let v = env.json(&["restore", backup.to_str().expect("path"), "--yes"]);
    let kept = v["kept"].as_str().expect("kept").to_string();
    assert!(kept.contains(".before-restore-"), "{v}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&kept).expect("kept file").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{kept}");
    }
    assert_eq!(crate::common::keys(&env.json(&["list"])), vec!["INBOX-1"]);
    // The kept copy puts back what the restore replaced.
    env.json(&["restore", &kept, "--yes"]);
    assert_eq!(crate::common::keys(&env.json(&["list"])), vec!["INBOX-1", "INBOX-2"]);
    // --no-keep keeps nothing.
    let v = env.json(&["restore", backup.to_str().expect("path"), "--yes", "--no-keep"]);
    assert_eq!(v["kept"], json!(null), "{v}");
}

/// Issue 36: `export --output FILE` writes a new private file, whole: it refuses an
/// existing file and leaves nothing when the export fails.
#[test]
fn export_to_a_file_is_private_and_never_over_another() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.ok(&["add", "Export me", "--new"]);
    let target = env.path("all.jsonl");
    env.ok(&["export", "--output", target.to_str().expect("path")]);
    let text = std::fs::read_to_string(&target).expect("export file");
    assert!(text.contains("Export me"));
    assert_eq!(std::fs::metadata(&target).expect("meta").permissions().mode() & 0o777, 0o600);
    let before = std::fs::read_to_string(&target).expect("read");
    env.fails(&["export", "--output", target.to_str().expect("path")], 2);
    assert_eq!(std::fs::read_to_string(&target).expect("read"), before, "never over another file");
}
