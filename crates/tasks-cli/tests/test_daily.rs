//! Daily use (issue 12): undo, several tasks at once, stop, search, list filters, notes,
//! the editor, times of day, claims that hold, duplicate refusals a person can trust,
//! store errors that say where, safe output. Real binary, real store. Today is Sunday
//! 2026-11-29, 13:00 in Berlin.

use serde_json::{Value, json};

use crate::common::{Run, TestEnv, keys};

fn add(env: &TestEnv, args: &[&str]) -> String {
    let mut all = vec!["add"];
    all.extend_from_slice(args);
    env.json(&all)["task"]["key"].as_str().expect("key").to_string()
}

fn task(env: &TestEnv, key: &str) -> Value {
    env.json(&["show", key])["task"].clone()
}

fn as_actor(env: &TestEnv, actor: &str, args: &[&str]) -> Run {
    let mut all = vec!["--as", actor];
    all.extend_from_slice(args);
    env.run(&all)
}

#[test]
fn undo_reverts_each_kind_of_write_and_goes_further_back() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HOME", "Home"]);
    let a = add(&env, &["Buy tiles", "--project", "HOME"]);
    let b = add(&env, &["Call the plumber", "--project", "HOME"]);

    env.ok(&["edit", &a, "--title", "Buy blue tiles", "--due", "friday", "--priority", "1"]);
    let v = env.json(&["undo"]);
    assert_eq!(v["reverted"][0]["task"], a.as_str(), "{v}");
    let t = task(&env, &a);
    assert_eq!(
        (t["title"].as_str(), t["due"].as_str(), t["priority"].as_u64()),
        (Some("Buy tiles"), None, None),
        "{t}"
    );

    env.ok(&["done", &a, &b]);
    let v = env.json(&["undo"]);
    assert_eq!(v["reverted"].as_array().expect("reverted").len(), 2, "one undo reverts the whole command: {v}");
    assert_eq!(task(&env, &a)["status"], "open");
    assert_eq!(task(&env, &b)["status"], "open");

    env.ok(&["dismiss", &b, "--reason", "not needed"]);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &b)["status"], "open");
    assert_eq!(task(&env, &b)["close_reason"], Value::Null);

    env.ok(&["link", &b, "blocked-by", &a]);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &b)["blocked_by"], json!([]));

    env.ok(&["tag", &a, &b, "urgent"]);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &a)["tags"], json!([]));
    assert_eq!(task(&env, &b)["tags"], json!([]));

    env.ok(&["claim", &a]);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &a)["claimed_by"], Value::Null);

    env.ok(&["note", &a, "ask", "for", "the", "blue", "ones"]);
    env.ok(&["undo"]);
    assert_eq!(env.json(&["show", &a])["notes"], json!([]));
    assert_eq!(keys(&env.json(&["search", "blue"])), Vec::<String>::new(), "an undone note is not searched");

    let dup = add(&env, &["Buy tiles again", "--project", "HOME", "--new"]);
    env.ok(&["merge", &dup, "--into", &a]);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &dup)["status"], "open", "the merge is undone");
    // Then the add itself: dismissed as undone, never deleted.
    env.ok(&["undo"]);
    let t = task(&env, &dup);
    assert_eq!((t["status"].as_str(), t["close_reason"].as_str()), (Some("dismissed"), Some("undone")));
    // The history says what the undo did.
    let h = env.ok(&["history", &dup]).stdout;
    assert!(h.contains("dismissed it (undone) (undo)"), "{h}");
}

#[test]
fn undo_refuses_over_a_later_change_by_someone_else_and_writes_nothing() {
    let env = TestEnv::new();
    let a = add(&env, &["Write the report"]);
    assert_eq!(as_actor(&env, "agent-7", &["claim", &a]).code, 0);
    let e = env.fails(&["undo"], 15);
    assert_eq!(e["details"]["by"], "agent-7", "{e}");
    assert!(e["message"].as_str().expect("message").contains("changed later by agent-7"), "{e}");
    assert_eq!(task(&env, &a)["status"], "open", "nothing was written");
    // The agent's own undo is theirs: it reverts the claim, and then mine goes through.
    assert_eq!(as_actor(&env, "agent-7", &["undo"]).code, 0);
    env.ok(&["undo"]);
    assert_eq!(task(&env, &a)["close_reason"], "undone");
    let e = env.fails(&["undo"], 6);
    assert!(e["message"].as_str().expect("message").contains("nothing to undo"), "{e}");
    // A dry run shows and keeps.
    let b = add(&env, &["Second task"]);
    let v = env.json(&["undo", "--dry-run"]);
    assert_eq!((v["dry_run"].as_bool(), v["reverted"][0]["task"].as_str()), (Some(true), Some(b.as_str())));
    assert_eq!(task(&env, &b)["status"], "open");
}

#[test]
fn several_tasks_at_once_are_all_or_none_and_stop_puts_one_back() {
    let env = TestEnv::new();
    let a = add(&env, &["First"]);
    let b = add(&env, &["Second"]);
    let c = add(&env, &["Third"]);
    assert_eq!(as_actor(&env, "agent-7", &["claim", &c]).code, 0);
    // c is held by another: nothing of the command is written.
    let e = env.fails(&["done", &a, &b, &c], 15);
    assert_eq!(e["details"]["holder"], "agent-7");
    assert_eq!(task(&env, &a)["status"], "open");
    let v = env.json(&["done", &a, &b]);
    assert_eq!(v["items"].as_array().expect("items").len(), 2);
    env.ok(&["reopen", &a]);
    env.ok(&["start", &a]);
    assert_eq!(task(&env, &a)["status"], "in_progress");
    env.ok(&["stop", &a]);
    assert_eq!(task(&env, &a)["status"], "open");
    assert_eq!(env.fails(&["stop", &a], 15)["details"]["status"], "open", "only a task in progress stops");
}

#[test]
fn claims_and_blockers_hold_unless_forced() {
    let env = TestEnv::new();
    let a = add(&env, &["Deploy the fix"]);
    let b = add(&env, &["Announce the fix", "--blocked-by", &a]);
    assert_eq!(as_actor(&env, "agent-7", &["claim", &a]).code, 0);
    for args in [vec!["done", a.as_str()], vec!["dismiss", a.as_str()], vec!["edit", a.as_str(), "--title", "x"]] {
        let e = env.fails(&args, 15);
        assert_eq!(e["details"]["holder"], "agent-7", "{args:?}: {e}");
    }
    // The holder may; anyone may with --force.
    assert_eq!(as_actor(&env, "agent-7", &["edit", &a, "--priority", "1"]).code, 0);
    env.ok(&["edit", &a, "--title", "Deploy the fix to prod", "--force"]);
    // A blocked task cannot be started or done without --force.
    assert_eq!(env.fails(&["start", &b], 15)["details"]["blockers"], json!([a.clone()]));
    assert_eq!(env.fails(&["done", &b], 15)["details"]["blockers"], json!([a.clone()]));
    env.ok(&["done", &b, "--force"]);
    assert_eq!(task(&env, &b)["status"], "done");
}

#[test]
fn the_agenda_says_what_others_hold_instead_of_hiding_it_silently() {
    let env = TestEnv::new();
    let mine = add(&env, &["Pay the rent", "--due", "today"]);
    let theirs = add(&env, &["File the taxes", "--due", "2026-11-20"]);
    assert_eq!(as_actor(&env, "claude", &["claim", &theirs]).code, 0);
    let v = env.json(&["agenda"]);
    assert_eq!(keys(&v), vec![mine.clone()]);
    assert_eq!(v["hidden"], 1);
    assert_eq!(
        v["hidden_items"][0],
        json!({"key": theirs, "claimed_by": "claude", "claimed_until": "2026-11-29T12:30:00Z", "overdue": true})
    );
    let human = env.ok(&["agenda"]).stdout;
    assert!(
        human.contains(&format!("1 hidden: claimed by claude ({theirs} overdue) — --claimed shows them")),
        "{human}"
    );
    let all = env.json(&["agenda", "--claimed"]);
    assert_eq!(all["hidden"], 0);
    assert_eq!(keys(&all).len(), 2);
}

#[test]
fn search_finds_titles_descriptions_and_notes_in_both_scripts() {
    let env = TestEnv::new();
    let tiles = add(&env, &["Купить плитку в ванную"]);
    let report = add(&env, &["Write the quarterly report", "-d", "numbers from the accountant"]);
    let call = add(&env, &["Call the bank"]);
    env.ok(&["note", &call, "спросить про ипотеку"]);
    assert_eq!(keys(&env.json(&["search", "плитка"])), vec![tiles.clone()], "a word form");
    assert_eq!(keys(&env.json(&["search", "accountant"])), vec![report.clone()], "the description");
    assert_eq!(keys(&env.json(&["search", "ипотека"])), vec![call.clone()], "a note");
    env.ok(&["done", &tiles]);
    assert!(keys(&env.json(&["search", "плитка"])).is_empty(), "open tasks only by default");
    assert_eq!(keys(&env.json(&["search", "плитка", "--all"])), vec![tiles]);
    // Query syntax in the text is words, never FTS operators.
    for odd in ["\"", "*", "NEAR(", "a OR b", "x-", "AND"] {
        let r = env.run(&["--json", "search", odd]);
        assert_eq!(r.code, 0, "{odd}: {}", r.stderr);
    }
}

#[test]
fn every_list_filter_and_sort() {
    let env = TestEnv::new();
    let overdue = add(&env, &["Renew the passport", "--due", "2026-11-25", "--priority", "0"]);
    let today = add(&env, &["Call mom", "--due", "today 09:00"]);
    let later = add(&env, &["Buy a gift", "--due", "2026-12-10", "--priority", "2", "--tag", "Family"]);
    let undated = add(&env, &["Read the book", "--priority", "2"]);
    let list = |args: &[&str]| {
        let mut all = vec!["list"];
        all.extend_from_slice(args);
        keys(&env.json(&all))
    };
    assert_eq!(list(&["--overdue"]), vec![overdue.clone(), today.clone()], "a time due at 09:00 is overdue at 13:00");
    assert_eq!(list(&["--due-before", "friday"]), vec![overdue.clone(), today.clone()]);
    assert_eq!(list(&["--due-after", "tomorrow"]), vec![later.clone()]);
    assert_eq!(list(&["--priority", "2"]), vec![later.clone(), undated.clone()]);
    assert_eq!(list(&["--tag", "family"]), vec![later.clone()], "tags are case-insensitive");
    assert_eq!(list(&["--text", "pass"]), vec![overdue.clone()], "a word's start");
    assert_eq!(list(&["--sort", "due"]), vec![overdue.clone(), today.clone(), later.clone(), undated.clone()]);
    assert_eq!(list(&["--sort", "priority"]), vec![overdue.clone(), later.clone(), undated.clone(), today.clone()]);
    env.ok(&["claim", &undated]);
    assert_eq!(list(&["--claimed-by", "me"]), vec![undated.clone()]);
    assert!(list(&["--claimed-by", "agent-7"]).is_empty());
    // An hour later, one task changes: it sorts first by updated.
    let mut cmd = env.command(&["edit", &later, "--priority", "1"]);
    cmd.env("TASKS_NOW", "2026-11-29T13:00:00Z");
    assert_eq!(crate::common::collect(cmd.output().expect("edit")).code, 0);
    assert_eq!(list(&["--sort", "updated"])[0], later);
    assert_eq!(env.fails(&["list", "--due-before", "someday"], 2)["details"]["field"], "due");
    assert_eq!(env.fails(&["list", "--priority", "9"], 2)["code"], "validation");
}

#[test]
fn a_due_can_be_a_moment_and_add_says_what_it_understood() {
    let env = TestEnv::new();
    let r = env.ok(&["add", "Dentist", "--due", "tomorrow 15:00", "--priority", "1", "--tag", "health"]);
    assert!(r.stdout.contains("due Mon 30 Nov 15:00 · priority 1 · project INBOX · tags health"), "{}", r.stdout);
    let t = task(&env, "INBOX-1");
    assert_eq!((t["due"].as_str(), t["due_kind"].as_str()), (Some("2026-11-30T14:00:00Z"), Some("time")));
    let r = env.ok(&["add", "Call back", "--due", "«через 2 часа»".trim_matches(['«', '»']), "--dry-run"]);
    assert!(r.stdout.contains("due Sun 29 Nov 15:00"), "{}", r.stdout);
    assert_eq!(env.fails(&["add", "x", "--due", "tomorrow 25:00"], 2)["details"]["field"], "due");
}

#[test]
fn edit_in_the_editor_applies_at_once_reopens_on_a_mistake_and_changes_nothing_when_left() {
    let env = TestEnv::new();
    let a = add(&env, &["Write the report", "--priority", "2"]);
    // A fake editor: the first run breaks the file, the second fixes the title and due.
    let script = env.write(
        "editor.sh",
        "#!/bin/sh\n\
         n=$(cat \"$(dirname \"$0\")/count\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$(dirname \"$0\")/count\"\n\
         if [ $n -eq 1 ]; then echo 'title = \"unterminated' >> \"$1\"; exit 0; fi\n\
         grep -q '^# ERROR:' \"$1\" || exit 3\n\
         sed -i -e '/^title = \"unterminated/d' -e 's/^title = .*/title = \"Write the annual report\"/' -e 's/^due = .*/due = \"friday\"/' \"$1\"\n",
    );
    std::process::Command::new("chmod").arg("+x").arg(&script).status().expect("chmod");
    let mut cmd = env.command(&["edit", &a]);
    cmd.env("EDITOR", &script);
    let r = crate::common::collect(cmd.output().expect("edit"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("title: Write the report → Write the annual report"), "{}", r.stdout);
    assert!(r.stdout.contains("due: none → Fri 4 Dec"), "{}", r.stdout);
    let t = task(&env, &a);
    assert_eq!(
        (t["title"].as_str(), t["due"].as_str(), t["priority"].as_u64()),
        (Some("Write the annual report"), Some("2026-12-04"), Some(2))
    );
    // One change: one undo takes both fields back.
    env.ok(&["undo"]);
    assert_eq!(task(&env, &a)["title"], "Write the report");

    // An editor that leaves the file as it was, or empties it, changes nothing.
    for body in ["true", ": > \"$1\""] {
        let quiet = env.write("quiet.sh", &format!("#!/bin/sh\n{body}\n"));
        std::process::Command::new("chmod").arg("+x").arg(&quiet).status().expect("chmod");
        let mut cmd = env.command(&["edit", &a]);
        cmd.env("VISUAL", &quiet);
        let r = crate::common::collect(cmd.output().expect("edit"));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("Nothing changed"), "{}", r.stdout);
    }
    // An editor that fails: nothing changes, and it is said.
    let mut cmd = env.command(&["edit", &a]);
    cmd.env("EDITOR", "false");
    let r = crate::common::collect(cmd.output().expect("edit"));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("nothing was changed"), "{}", r.stderr);
    // No editor at all: a configuration error that says what to set.
    let r = env.run(&["edit", &a]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("EDITOR"), "{}", r.stderr);
    assert_eq!(task(&env, &a)["title"], "Write the report");
}

#[test]
fn edit_says_what_changed_and_a_dry_run_writes_nothing() {
    let env = TestEnv::new();
    let a = add(&env, &["Pay the rent"]);
    let r = env.ok(&["edit", &a, "--due", "friday", "--priority", "1", "--dry-run"]);
    assert!(
        r.stdout
            .starts_with(&format!("Would change {a}: Pay the rent\n  due: none → Fri 4 Dec\n  priority: none → 1\n")),
        "{}",
        r.stdout
    );
    assert_eq!(task(&env, &a)["due"], Value::Null);
    let v = env.json(&["edit", &a, "--due", "friday"]);
    assert_eq!(v["changes"], json!(["due: none → Fri 4 Dec"]));
}

#[test]
fn titles_with_control_characters_are_shown_not_run() {
    let env = TestEnv::new();
    let evil = "Pay \u{1b}]52;c;ZXZpbA==\u{7}now\nand \u{1b}[2Jthen \u{9b}31m";
    let key = add(&env, &[evil]);
    for args in [
        vec!["list"],
        vec!["show", key.as_str()],
        vec!["history", key.as_str()],
        vec!["search", "pay"],
        vec!["agenda", "inbox"],
    ] {
        let out = env.ok(&args).stdout;
        assert!(!out.chars().any(|c| c == '\u{1b}' || c == '\u{7}' || c == '\u{9b}'), "{args:?}: {out:?}");
        assert!(out.contains("\\x1b]52"), "{args:?}: {out:?}");
    }
    // The store keeps the text as given.
    assert_eq!(task(&env, &key)["title"], evil);
    // And an error quoting it does not run it either.
    let r = env.run(&["add", evil]);
    assert!(!r.stderr.contains('\u{1b}'), "{:?}", r.stderr);
}

#[test]
fn duplicate_refusals_a_person_can_trust() {
    let env = TestEnv::new();
    // A repeated errand after the last one was done: told, not refused.
    let milk = add(&env, &["Buy milk"]);
    env.ok(&["done", &milk]);
    let v = env.json(&["add", "Buy milk"]);
    assert_eq!(v["created"], true, "{v}");
    assert_eq!(v["candidates"][0]["key"], milk.as_str());
    assert_eq!(v["candidates"][0]["status"], "done");
    // The same title of an open task is refused, and the refusal says its status and age.
    let r = env.run(&["add", "Buy milk"]);
    assert_eq!(r.code, 7, "{}", r.stderr);
    assert!(r.stderr.contains("[open, added today]"), "{}", r.stderr);
    // --attach to a closed task reopens it and sets the fields it lacked; a conflicting
    // field is refused with both values.
    let v = env.json(&["add", "Buy milk", "--attach", &milk, "--due", "tomorrow", "--priority", "2"]);
    assert_eq!((v["reopened"].as_bool(), v["filled"].clone()), (Some(true), json!(["due", "priority"])), "{v}");
    let t = task(&env, &milk);
    assert_eq!((t["status"].as_str(), t["due"].as_str()), (Some("open"), Some("2026-11-30")));
    let e = env.fails(&["add", "Buy milk", "--attach", &milk, "--due", "friday"], 15);
    assert!(e["message"].as_str().expect("message").contains("2026-12-04"), "{e}");
    // An agent is refused where a person is shown: words alone, open task.
    add(&env, &["Review PR #42"]);
    assert_eq!(env.json(&["add", "review PR #43"])["created"], true);
    assert_eq!(env.fails(&["add", "review PR #44", "--agent"], 7)["code"], "confirmation_required");
}

#[test]
fn a_persons_everyday_list_added_one_by_one_is_refused_at_most_twice() {
    // data/everyday: 118 distinct tasks typed the way people type (see its README).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/everyday/tasks.jsonl");
    let text = std::fs::read_to_string(&path).expect("the everyday fixture");
    let env = TestEnv::new();
    env.init_store();
    let mut refused = Vec::new();
    let mut added = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let title = serde_json::from_str::<Value>(line).expect("json")["title"].as_str().expect("title").to_string();
        let r = env.run(&["add", &title]);
        match r.code {
            0 => added += 1,
            7 => refused.push(title),
            c => panic!("{title}: exit {c}: {}", r.stderr),
        }
    }
    eprintln!("everyday list: {added} added, {} refused: {refused:?}", refused.len());
    assert!(added >= 80, "the fixture has at least 80 tasks");
    assert!(refused.len() <= 2, "{} refused: {refused:?}", refused.len());
}

#[test]
fn store_errors_say_where() {
    let env = TestEnv::new();
    // Another program's SQLite database: refused, untouched.
    let foreign = env.path("notes.db");
    let conn = rusqlite::Connection::open(&foreign).expect("sqlite");
    conn.execute_batch(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('x');",
    )
    .expect("foreign");
    drop(conn);
    let mut cmd = env.command(&["--json", "add", "x"]);
    cmd.env("TASKS_DB", &foreign);
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    let e = r.error();
    assert!(e["message"].as_str().expect("message").contains("not a tasks store"), "{e}");
    assert_eq!(e["details"]["path"], foreign.display().to_string());
    let tables: i64 = rusqlite::Connection::open(&foreign)
        .expect("sqlite")
        .query_row("SELECT count(*) FROM sqlite_schema WHERE type = 'table'", [], |r| r.get(0))
        .expect("count");
    assert_eq!(tables, 1, "nothing was written into it");
    // A file that is not a database at all.
    let junk = env.write("junk.db", &"this is not a database\n".repeat(200));
    let mut cmd = env.command(&["list"]);
    cmd.env("TASKS_DB", &junk);
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(r.stderr.lines().next().map(|l| l.contains(&junk.display().to_string())), Some(true), "{}", r.stderr);
    assert!(r.stderr.contains("not an SQLite database"), "{}", r.stderr);
    // A new store says so once.
    let r = env.run(&["add", "first"]);
    assert!(r.stderr.contains(&format!("note: created a new store at {}", env.db().display())), "{}", r.stderr);
    assert!(!env.run(&["add", "second"]).stderr.contains("created a new store"));
}

#[test]
fn a_read_only_store_is_exit_5_naming_the_path() {
    // As root every file is writable: this needs an ordinary user.
    if rustix_uid_is_root() {
        tasks_testkit::skip::skipped(
            "a_read_only_store_is_exit_5_naming_the_path",
            "running as root, which writes any file",
        );
        return;
    }
    let env = TestEnv::new();
    env.ok(&["add", "x"]);
    let dir = env.path("ro");
    std::fs::create_dir(&dir).expect("dir");
    let db = dir.join("tasks.db");
    std::fs::copy(env.db(), &db).expect("copy");
    std::process::Command::new("chmod").args(["0555"]).arg(&dir).status().expect("chmod");
    std::process::Command::new("chmod").args(["0444"]).arg(&db).status().expect("chmod");
    let mut cmd = env.command(&["--json", "add", "y"]);
    cmd.env("TASKS_DB", &db);
    let r = crate::common::collect(cmd.output().expect("run"));
    std::process::Command::new("chmod").args(["0755"]).arg(&dir).status().expect("chmod");
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert_eq!(r.error()["details"]["path"], db.display().to_string());
}

fn rustix_uid_is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

#[test]
fn a_mistyped_verb_suggests_what_it_means_never_something_else() {
    let env = TestEnv::new();
    let r = env.run(&["delete", "HRB-1"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean tasks dismiss?"), "{}", r.stderr);
    assert!(!r.stderr.contains("release"), "{}", r.stderr);
    let r = env.run(&["serch", "x"]);
    assert!(r.stderr.contains("did you mean tasks search?"), "{}", r.stderr);
}

#[test]
fn the_man_page_has_environment_exit_status_and_one_page_per_command() {
    let env = TestEnv::new();
    let page = env.ok(&["man"]).stdout;
    for section in [".SH ENVIRONMENT", ".SH \"EXIT STATUS\"", "TASKS_DB", "\\fB15\\fR"] {
        assert!(page.contains(section), "{section}");
    }
    assert!(env.ok(&["man", "add"]).stdout.contains("tasks\\-add"));
    assert!(env.ok(&["man", "schedule", "add"]).stdout.contains("tasks\\-schedule\\-add"));
    assert_eq!(env.run(&["man", "frobnicate"]).code, 2);
    let dir = env.path("man");
    env.ok(&["man", "--dir", dir.to_str().expect("path")]);
    assert!(dir.join("tasks-undo.1").exists());
    // Every exit code the man page lists is in the README's table too.
    let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
        .expect("README");
    for code in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15] {
        assert!(readme.contains(&format!("\n| {code} |")), "README's exit code table lacks {code}");
    }
}

#[test]
fn an_absurd_workload_is_refused_not_aborted() {
    let env = TestEnv::new();
    let r = env.run(&["workload", "99999999999"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("more than the generator makes"), "{}", r.stderr);
}
