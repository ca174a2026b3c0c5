//! The contract scripts and agents rely on (SPEC §9, §10): JSON shapes, one JSON value
//! on stdout, errors as one JSON object on stderr, exit codes, configuration errors,
//! the schema guard, help, completions and the man page.

use serde_json::{Value, json};

use crate::common::TestEnv;

/// The fields every task object carries (SPEC §10).
const TASK_FIELDS: &[&str] = &[
    "id",
    "key",
    "title",
    "description",
    "type",
    "status",
    "project",
    "priority",
    "due",
    "due_kind",
    "category",
    "person",
    "amount",
    "currency",
    "tags",
    "blocked_by",
    "claimed_by",
    "claimed_until",
    "created_at",
    "updated_at",
    "closed_at",
    "close_reason",
];

fn redact(mut v: Value) -> Value {
    v["id"] = json!("[uuid]");
    v
}

#[test]
fn task_json_shape() {
    let env = TestEnv::new();
    let v = env.json(&["add", "Shape", "--due", "2026-12-01", "--priority", "2", "--tag", "t"]);
    for f in TASK_FIELDS {
        assert!(v["task"].get(f).is_some(), "task JSON lacks {f}: {v}");
    }
    insta::assert_json_snapshot!(redact(v["task"].clone()), @r#"
    {
      "amount": null,
      "amount_minor": null,
      "blocked": false,
      "blocked_by": [],
      "category": null,
      "chat": null,
      "claimed_by": null,
      "claimed_until": null,
      "close_reason": null,
      "closed_at": null,
      "created_at": "2026-11-29T12:00:00Z",
      "currency": null,
      "description": "",
      "due": "2026-12-01",
      "due_kind": "day",
      "external_id": null,
      "id": "[uuid]",
      "key": "INBOX-1",
      "legacy_key": null,
      "person": null,
      "priority": 2,
      "project": "INBOX",
      "reply_to": null,
      "source": "owner",
      "status": "open",
      "tags": [
        "t"
      ],
      "title": "Shape",
      "type": "task",
      "updated_at": "2026-11-29T12:00:00Z"
    }
    "#);
    let add_keys: Vec<&str> = v.as_object().expect("object").keys().map(String::as_str).collect();
    for k in ["task", "created", "attached_to", "candidates"] {
        assert!(add_keys.contains(&k), "add answers {k}: {add_keys:?}");
    }
    let list = env.json(&["list"]);
    assert!(list["items"].is_array());
    let projects = env.json(&["project", "list"]);
    assert_eq!(projects["items"][0]["key"], "INBOX");
}

#[test]
fn json_errors_are_one_object_on_stderr() {
    let env = TestEnv::new();
    let r = env.run(&["--json", "show", "X-1"]);
    assert_eq!(r.code, 6);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr.trim().lines().count(), 1, "one line: {}", r.stderr);
    let v: Value = serde_json::from_str(r.stderr.trim()).expect("JSON");
    assert_eq!(v["error"]["code"], "not_found");
    assert!(v["error"]["message"].is_string());
    assert!(v["error"]["details"].is_object());
}

#[test]
fn configuration_errors_exit_3() {
    let env = TestEnv::new();
    let mut cmd = env.command(&["--json", "list"]);
    cmd.env("TASKS_NOW", "last tuesday");
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 3);
    assert_eq!(r.error()["code"], "configuration");
    assert!(r.error()["message"].as_str().unwrap_or("").contains("last tuesday"));
    let mut cmd = env.command(&["list"]);
    cmd.env("TASKS_TZ", "Mars/Olympus");
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("Mars/Olympus"), "{}", r.stderr);
    // A store path that cannot be created.
    let blocker = env.write("file", "not a dir");
    let mut cmd = env.command(&["list"]);
    cmd.env("TASKS_DB", blocker.join("tasks.db"));
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 3, "{}", r.stderr);
}

/// `~/.config/tasks/config.toml` (here under `XDG_CONFIG_HOME`) gives the store, the
/// actor and the zone; the environment wins over it; a mistake in it is exit 3 naming
/// the file, the line and the key, and nothing is written.
#[test]
fn the_config_file_is_read_and_the_environment_wins() {
    let env = TestEnv::new();
    let config_home = env.path("config");
    std::fs::create_dir_all(config_home.join("tasks")).expect("config dir");
    let from_file = env.path("from-config.db");
    std::fs::write(
        config_home.join("tasks/config.toml"),
        format!("db = \"{}\"\nactor = \"filed\"\ntz = \"Asia/Tokyo\"\n", from_file.display()),
    )
    .expect("write config");
    let run = |args: &[&str], keep_env: bool| {
        let mut cmd = env.command(args);
        cmd.env("XDG_CONFIG_HOME", &config_home);
        if !keep_env {
            cmd.env_remove("TASKS_DB").env_remove("TASKS_ACTOR").env_remove("TASKS_TZ");
        }
        crate::common::collect(cmd.output().expect("run"))
    };
    let r = run(&["--json", "add", "Configured"], false);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(from_file.exists(), "the store named in the config file is used");
    let r = run(&["--json", "claim", "INBOX-1"], false);
    assert_eq!(r.json()["task"]["claimed_by"], "filed", "{}", r.stdout);
    // The environment wins: TASKS_DB (the test store) is another, empty store.
    let r = run(&["--json", "list"], true);
    assert_eq!(r.json()["items"], json!([]), "{}", r.stdout);

    for (text, expected) in [
        ("acter = \"me\"\n", "line 1: acter: unknown key"),
        ("db = \"/tmp/x.db\"\n[llm]\nmodle = \"m\"\n", "line 3: llm.modle: unknown key"),
        ("actor = \"me\n", "line 1"),
    ] {
        std::fs::write(config_home.join("tasks/config.toml"), text).expect("write config");
        let r = run(&["--json", "add", "Never written"], false);
        assert_eq!(r.code, 3, "{text:?}: {}", r.stderr);
        let message = r.error()["message"].as_str().unwrap_or_default().to_string();
        assert!(message.contains("config.toml") && message.contains(expected), "{text:?}: {message}");
    }
    let r = run(&["--json", "list", "--status", "all"], false);
    assert_eq!(r.code, 3, "a broken config file is an error for every command");
    std::fs::remove_file(config_home.join("tasks/config.toml")).expect("remove");
    let r = run(&["--json", "list", "--status", "all", "--db", from_file.to_str().expect("path")], false);
    assert_eq!(r.json()["items"].as_array().map(Vec::len), Some(1), "nothing more was written: {}", r.stdout);
}

#[test]
fn a_store_from_a_newer_tasks_is_refused_untouched() {
    let env = TestEnv::new();
    env.ok(&["add", "keep me"]);
    {
        let conn = rusqlite::Connection::open(env.db()).expect("open");
        conn.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)", [])
            .expect("insert");
    }
    let e = env.fails(&["list"], 3);
    assert_eq!(e["details"]["found"], 999);
    let conn = rusqlite::Connection::open(env.db()).expect("open");
    let n: i64 = conn.query_row("SELECT count(*) FROM tasks", [], |r| r.get(0)).expect("count");
    assert_eq!(n, 1);
}

#[test]
fn the_default_store_lives_in_the_xdg_data_dir() {
    let env = TestEnv::new();
    let mut cmd = env.command(&["add", "xdg"]);
    cmd.env_remove("TASKS_DB").env("XDG_DATA_HOME", env.path("data"));
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(env.path("data").join("tasks").join("tasks.db").exists());
}

#[test]
fn human_output_has_no_colour_without_a_terminal() {
    let env = TestEnv::new();
    env.ok(&["add", "plain", "--due", "2026-11-20"]);
    let mut cmd = env.command(&["list"]);
    cmd.env_remove("NO_COLOR");
    let r = crate::common::collect(cmd.output().expect("run"));
    assert!(!r.stdout.contains('\u{1b}'), "no escape codes when piped: {:?}", r.stdout);
    insta::assert_snapshot!(r.stdout, @r"
     KEY      STATUS  P  DUE         PROJECT  TITLE
     INBOX-1  open       9 days ago  INBOX    plain
    ");
}

#[test]
fn help_completions_and_man() {
    let env = TestEnv::new();
    let help = env.ok(&["--help"]).stdout;
    for verb in ["add", "ready", "claim", "next", "import", "export", "graph", "agenda", "mcp", "prime"] {
        assert!(help.contains(&format!("  {verb}")), "--help lists {verb}:\n{help}");
    }
    let add_help = env.ok(&["add", "--help"]).stdout;
    assert!(add_help.contains("--attach <TASK>") && add_help.contains("--dry-run"), "{add_help}");
    let bash = env.ok(&["completions", "bash"]).stdout;
    assert!(bash.contains("_tasks()"), "bash completion function");
    let zsh = env.ok(&["completions", "zsh"]).stdout;
    assert!(zsh.starts_with("#compdef tasks"), "{}", &zsh[..40.min(zsh.len())]);
    let man = env.ok(&["man"]).stdout;
    assert!(man.contains(".TH tasks"), "roff man page");
    let prime = env.ok(&["prime"]).stdout;
    assert!(prime.contains("next --claim") && prime.contains("--attach"), "{prime}");
}
