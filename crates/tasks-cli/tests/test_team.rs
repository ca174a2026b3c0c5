//! The team store: the `tasks` binary against PostgreSQL (`TASKS_DB=postgres://…`), a
//! throwaway cluster from Debian's packages. Many processes at once, several daemons on
//! one schedule, the lossless move from SQLite and back, and the same session printing
//! the same answers on both engines. Skipped, with a logged reason, where PostgreSQL
//! cannot be had.

use std::collections::{BTreeMap, BTreeSet};
use std::thread;

use serde_json::Value;

use crate::common::TestEnv;
use crate::test_concurrency::{agents_claim, seed_ready};

#[test]
fn sixteen_agents_claiming_fifty_times_each_never_get_one_task_twice() {
    let Some(env) = TestEnv::postgres("pg_sixteen_agents") else { return };
    const AGENTS: usize = 16;
    const EACH: usize = 50;
    const TASKS: usize = 700;
    seed_ready(&env, TASKS);
    let results = agents_claim(&env, AGENTS, EACH);
    let claimed: Vec<&String> = results.iter().filter_map(|(_, k)| k.as_ref()).collect();
    let unique: BTreeSet<&&String> = claimed.iter().collect();
    assert_eq!(unique.len(), claimed.len(), "a task was claimed twice");
    assert_eq!(claimed.len(), TASKS, "every task claimed once");
    assert_eq!(results.len() - claimed.len(), AGENTS * EACH - TASKS, "the rest found nothing ready (exit 6)");
    // The store agrees with what each agent was told.
    let listed = env.json(&["list", "--limit", "1000"]);
    let holders: BTreeMap<&str, &str> = listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|t| (t["key"].as_str().expect("key"), t["claimed_by"].as_str().expect("every task is held")))
        .collect();
    for (agent, key) in results.iter().filter_map(|(a, k)| k.as_ref().map(|k| (a, k))) {
        assert_eq!(holders.get(key.as_str()), Some(&agent.as_str()), "{key}");
    }
}

#[test]
fn eight_writers_adding_fifty_each_get_keys_one_to_four_hundred() {
    let Some(env) = TestEnv::postgres("pg_eight_writers") else { return };
    env.ok(&["project", "add", "HRB", "Harbour"]);
    const WRITERS: usize = 8;
    const EACH: usize = 50;
    let keys: Vec<String> = thread::scope(|s| {
        let handles: Vec<_> = (0..WRITERS)
            .map(|w| {
                let env = &env;
                s.spawn(move || {
                    (0..EACH)
                        .map(|i| {
                            let title = format!("writer {w} item {i} code {}", w * 1000 + i);
                            env.json(&["add", &title, "-p", "HRB", "--new", "--agent"])["task"]["key"]
                                .as_str()
                                .expect("key")
                                .to_string()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    });
    let unique: BTreeSet<&String> = keys.iter().collect();
    assert_eq!(unique.len(), WRITERS * EACH, "no key given twice");
    let expected: BTreeSet<String> = (1..=WRITERS * EACH).map(|n| format!("HRB-{n}")).collect();
    assert_eq!(unique.into_iter().cloned().collect::<BTreeSet<_>>(), expected, "keys 1..400 with no gap");
}

#[test]
fn eight_writers_adding_one_title_at_once_create_it_once() {
    // The duplicate check runs under the same lock as the insert: of eight processes
    // adding one task at the same moment, one creates it and seven are refused with it
    // as the candidate.
    let Some(env) = TestEnv::postgres("pg_one_title_at_once") else { return };
    env.init_store_for_team();
    let codes: Vec<(i32, String)> = thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let env = &env;
                s.spawn(move || {
                    let r = env.run(&["--json", "add", "Renew the domain tasks.example before it lapses"]);
                    (r.code, if r.code == 0 { r.stdout } else { r.stderr })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    let created = codes.iter().filter(|(c, _)| *c == 0).count();
    let refused = codes.iter().filter(|(c, _)| *c == 7).count();
    assert_eq!((created, refused), (1, 7), "{codes:?}");
    for (_, err) in codes.iter().filter(|(c, _)| *c == 7) {
        let v: Value = serde_json::from_str(err.trim()).expect("error JSON");
        assert_eq!(v["error"]["details"]["candidates"][0]["key"], "INBOX-1", "{err}");
    }
    assert_eq!(crate::common::keys(&env.json(&["list"])), vec!["INBOX-1"]);
}

#[test]
fn two_daemons_on_one_schedule_fire_each_of_twenty_firings_once() {
    let Some(team) = TestEnv::postgres("pg_two_daemons") else { return };
    // The schedule is made on a SQLite store and moved over with the lossless export.
    let mut local = TestEnv::new();
    local.now = "2026-12-01T08:00:00Z".into();
    local.tz = "UTC".into();
    local.ok(&["add", "Rotate the on-call pager"]);
    local.ok(&["schedule", "add", "INBOX-1", "--cron", "*/15 * * * *", "--tz", "UTC"]);
    let dump = local.ok(&["export"]).stdout;
    let file = team.write("export.jsonl", &dump);
    team.ok(&["import", file.to_str().expect("utf-8 path")]);
    let start = jiff::Timestamp::from_second(1_796_198_400).expect("2026-12-01T08:00:00Z");
    let mut made: Vec<Value> = Vec::new();
    for i in 1..=20 {
        let now = start + jiff::SignedDuration::from_secs(i * 15 * 60 + 5);
        let runs: Vec<Value> = thread::scope(|s| {
            let handles: Vec<_> = (0..2)
                .map(|d| {
                    let team = &team;
                    let now = now.to_string();
                    s.spawn(move || {
                        let mut cmd = team.command(&["--json", "daemon", "--once", "--as", &format!("daemon-{d}")]);
                        cmd.env("TASKS_NOW", &now);
                        let r = crate::common::collect(cmd.output().expect("run the daemon"));
                        assert_eq!(r.code, 0, "daemon {d} at {now}: {}", r.stderr);
                        r.json()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("thread")).collect()
        });
        // One daemon may make the Job and the other run it: both report it, by its id,
        // and the report of the one that ran it says how it ended.
        let mut this_tick: std::collections::BTreeMap<i64, Value> = std::collections::BTreeMap::new();
        for job in runs.iter().flat_map(|v| v["jobs"].as_array().expect("jobs").iter()) {
            let kept = this_tick.entry(job["id"].as_i64().expect("id")).or_insert_with(|| job.clone());
            if job["state"] == "succeeded" {
                *kept = job.clone();
            }
        }
        assert_eq!(this_tick.len(), 1, "firing {i}: one Job between the two daemons: {runs:?}");
        made.extend(this_tick.into_values());
    }
    let keys: BTreeSet<&str> = made.iter().map(|j| j["key"].as_str().expect("key")).collect();
    assert_eq!(keys.len(), 20, "twenty distinct firings");
    assert!(made.iter().all(|j| j["state"] == "succeeded"), "each due firing ran: {made:?}");
    // The store holds exactly twenty Jobs, each with one Run.
    let exported = team.ok(&["export"]).stdout;
    let count = |kind: &str| exported.lines().filter(|l| l.contains(&format!("\"kind\":\"{kind}\""))).count();
    assert_eq!((count("job"), count("run")), (20, 20));
}

/// Returns the export's records, header aside, sorted: the rows, whatever order an
/// engine wrote them in.
fn records(export: &str) -> Vec<String> {
    let mut lines: Vec<String> = export.lines().skip(1).map(str::to_string).collect();
    lines.sort();
    lines
}

#[test]
fn a_store_moves_from_sqlite_to_postgres_and_back_without_losing_a_row() {
    let Some(team) = TestEnv::postgres("pg_round_trip") else { return };
    let local = TestEnv::new();
    local.ok(&["project", "add", "HRB", "Harbour", "--description", "the boat"]);
    local.ok(&[
        "add",
        "Pour the foundation",
        "-p",
        "HRB",
        "--tag",
        "site",
        "--due",
        "2026-12-05",
        "--amount",
        "1200 EUR",
    ]);
    local.ok(&["add", "Raise the walls", "-p", "HRB", "--blocked-by", "HRB-1", "--priority", "1"]);
    local.ok(&["add", "Ask Lena about the permit", "--type", "question", "--person", "@lena"]);
    local.ok(&["note", "HRB-1", "concrete ordered — «бетон заказан»"]);
    local.ok(&["claim", "HRB-1", "--for", "2h"]);
    local.ok(&["done", "Q-1"]);
    local.ok(&["schedule", "add", "HRB-2", "--daily", "09:00"]);
    let first = local.ok(&["export"]).stdout;
    let file = team.write("from-sqlite.jsonl", &first);
    team.ok(&["import", file.to_str().expect("utf-8 path")]);
    let middle = team.ok(&["export"]).stdout;
    assert_eq!(records(&middle), records(&first), "SQLite → PostgreSQL keeps every row as it was");
    let back = TestEnv::new();
    let file = back.write("from-postgres.jsonl", &middle);
    back.ok(&["import", file.to_str().expect("utf-8 path")]);
    let last = back.ok(&["export"]).stdout;
    assert_eq!(records(&last), records(&first), "and back to SQLite");
    // The team store works on the moved data: keys continue, history is there.
    assert_eq!(team.json(&["add", "Fit the windows", "-p", "HRB", "--new"])["task"]["key"], "HRB-3");
    assert_eq!(team.json(&["show", "HRB-2"])["task"]["blocked_by"], serde_json::json!(["HRB-1"]));
    // A second import into the store, which has data now, merges by UUID (issue 34):
    // every task is kept as it is, nothing is written twice.
    let again = team.json(&["import", file.to_str().expect("utf-8 path")]);
    assert_eq!(
        (again["mode"].clone(), again["kept"].clone()),
        (serde_json::json!("merge"), serde_json::json!(3)),
        "{again}"
    );
    assert!(again["written"].get("task").is_none(), "{again}");
    assert_eq!(crate::common::keys(&team.json(&["list", "-s", "all"])).len(), 4, "three moved and one added");
}

/// Replaces what differs between two stores by nature (UUIDs, the wall clock of a
/// lease written from a fixed clock is equal anyway) with placeholders.
fn normalized(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let uuid = (k == "id" || k == "external_ref") && x.is_string();
                    (k.clone(), if uuid { Value::String("<uuid>".into()) } else { normalized(x) })
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalized).collect()),
        other => other.clone(),
    }
}

/// Runs `steps` (each with `--json`) on every engine, in order, and asserts that
/// PostgreSQL answered each one as SQLite did: exit code and JSON, `normalized`. With
/// `must_succeed`, a step that fails stops the test naming the engine. Returns the
/// PostgreSQL environment (when it could be had) for what the test does next.
fn alike_on_both(test: &str, steps: &[&[&str]], must_succeed: bool) -> Option<TestEnv> {
    let mut answers: Vec<Vec<(i32, Value)>> = Vec::new();
    let mut team = None;
    for env in TestEnv::engines(test) {
        let mut these = Vec::new();
        for args in steps {
            let mut all = vec!["--json"];
            all.extend_from_slice(args);
            let r = env.run(&all);
            assert!(!must_succeed || r.code == 0, "{}: tasks {args:?} failed:\n{}{}", env.engine(), r.stdout, r.stderr);
            let out = if r.code == 0 { r.json() } else { r.error() };
            these.push((r.code, normalized(&out)));
        }
        answers.push(these);
        if env.store_url.is_some() {
            team = Some(env);
        }
    }
    if answers.len() == 2 {
        for (i, args) in steps.iter().enumerate() {
            assert_eq!(answers[1][i], answers[0][i], "tasks {args:?}: PostgreSQL (left) and SQLite (right) differ");
        }
    }
    team
}

#[test]
fn one_session_gives_the_same_answers_on_both_engines() {
    // Every command PostgreSQL runs, with what it prints compared field by field.
    let session: &[&[&str]] = &[
        &["project", "add", "HRB", "Harbour"],
        &["add", "Pour the foundation", "-p", "HRB", "--due", "2026-12-03", "--priority", "1", "--tag", "site"],
        &["add", "Raise the walls", "-p", "HRB", "--blocked-by", "HRB-1"],
        &["add", "Which timber supplier?", "--type", "question"],
        &["add", "Pour the foundation", "-p", "HRB", "--dry-run", "--new"],
        &["check", "Pour the foundations", "--all"],
        &["ready"],
        &["blocked"],
        &["next"],
        &["claim", "HRB-1", "--for", "1h"],
        &["next", "--claim", "--as", "agent-2"],
        &["release", "Q-1", "--as", "agent-2"],
        &["link", "HRB-1", "related-to", "Q-1"],
        &["show", "HRB-1"],
        &["done", "HRB-1"],
        &["ready"],
        &["start", "Q-1"],
        &["stop", "Q-1"],
        &["dismiss", "Q-1", "--reason", "asked elsewhere"],
        &["reopen", "Q-1"],
        &["unlink", "HRB-1", "related-to", "Q-1"],
        &["tag", "HRB-1", "HRB-2", "site", "Concrete"],
        &["untag", "HRB-1", "concrete"],
        &["note", "HRB-2", "scaffolding", "arrives", "Monday"],
        &["search", "walls"],
        &["search", "foundation", "--all"],
        &["search", "стены"],
        &[
            "edit",
            "HRB-2",
            "--title",
            "Raise the walls (north)",
            "--priority",
            "2",
            "--due",
            "2026-12-10",
            "--category",
            "site",
        ],
        &["edit", "Q-1", "--project", "HRB", "--amount", "120 EUR", "--dry-run"],
        &["edit", "Q-1", "--project", "HRB", "--type", "task"],
        &["done", "HRB-2", "Q-1"],
        &["history", "HRB-1"],
        &["history", "Q-1"],
        &["list", "-s", "all"],
        &["project", "list"],
    ];
    alike_on_both("pg_same_session", session, false);
    // Refusals on both: a duplicate (exit 7) and a cycle (exit 2).
    for env in TestEnv::engines("pg_same_refusals") {
        env.ok(&["add", "Pour the foundation"]);
        env.ok(&["add", "Raise the walls", "--blocked-by", "INBOX-1"]);
        env.fails(&["add", "Pour the foundation"], 7);
        let blocked = env.fails(&["done", "INBOX-2"], 15);
        assert_eq!(blocked["details"]["blockers"], serde_json::json!(["INBOX-1"]), "{}", env.engine());
        env.ok(&["done", "INBOX-2", "--force"]);
        let cycle = env.fails(&["link", "INBOX-1", "blocked-by", "INBOX-2"], 2);
        assert_eq!(cycle["details"]["path"], serde_json::json!(["INBOX-1", "INBOX-2", "INBOX-1"]), "{}", env.engine());
    }
}

#[test]
fn a_command_that_runs_only_on_sqlite_is_refused_by_name() {
    let Some(env) = TestEnv::postgres("pg_refuses_by_name") else { return };
    env.ok(&["add", "Pour the foundation"]);
    for (args, name) in
        [(vec!["backup", "x.db"], "`tasks backup`"), (vec!["restore", "x.db", "--yes"], "`tasks restore`")]
    {
        let err = env.fails(&args, 3);
        let message = err["message"].as_str().expect("message");
        assert!(message.contains(name) && message.contains("PostgreSQL store"), "{args:?}: {err}");
        assert!(!message.contains("secret"), "no password: {err}");
    }
    assert_eq!(crate::common::keys(&env.json(&["list"])), vec!["INBOX-1"], "nothing changed");
}

#[test]
fn a_bad_postgres_url_is_a_configuration_error_without_the_password() {
    let mut env = TestEnv::new();
    env.store_url = Some("postgres://ops:s3cret-pw@127.0.0.1:1/tasks?connect_timeout=2".into());
    let r = env.run(&["--json", "list"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("postgres://ops@127.0.0.1:1/tasks"), "{}", r.stderr);
    assert!(!r.stderr.contains("s3cret-pw"), "the password leaked: {}", r.stderr);
}

#[test]
fn the_config_file_can_point_every_command_at_the_team_store() {
    let Some(team) = TestEnv::postgres("pg_config_file") else { return };
    let url = team.store_url.clone().expect("url");
    let config = team.dir.path().join("config").join("tasks");
    std::fs::create_dir_all(&config).expect("config dir");
    std::fs::write(config.join("config.toml"), format!("db = \"{url}\"\n")).expect("config file");
    let run = |args: &[&str]| {
        let mut cmd = team.command(args);
        cmd.env_remove("TASKS_DB").env("XDG_CONFIG_HOME", team.dir.path().join("config"));
        crate::common::collect(cmd.output().expect("run tasks"))
    };
    let added = run(&["--json", "add", "Order the scaffolding"]);
    assert_eq!(added.code, 0, "{}", added.stderr);
    // The task is in the team store, not in a SQLite file beside the config.
    assert_eq!(crate::common::keys(&team.json(&["list"])), vec!["INBOX-1"]);
    assert!(!team.db().exists(), "no SQLite store was created");
}

/// A team store that an older version indexed is rebuilt by the first command of this
/// one, which says so once on stderr, as the SQLite store's upgrade does.
#[test]
fn an_upgrade_rebuilds_the_team_index_once_and_says_so() {
    const TEST: &str = "pg_upgrade_note";
    let Some(env) = TestEnv::postgres(TEST) else { return };
    env.ok(&["add", "Pagar el gas, llegó de 41 mil"]);
    let server = tasks_testkit::pg::shared(TEST).expect("the server the store is on");
    let url = env.store_url.clone().expect("a team store");
    // As an older version left it: the index table carries no version.
    let unversion = std::process::Command::new(server.bin_dir().join("psql"))
        .args([url.as_str(), "-qc", "COMMENT ON TABLE task_terms IS NULL"])
        .output()
        .expect("psql");
    assert!(unversion.status.success(), "{}", String::from_utf8_lossy(&unversion.stderr));
    let r = env.ok(&["add", "Renew the passport", "--new"]);
    assert!(r.stderr.contains("rebuilt the duplicate check's index of 1 task(s)"), "{}", r.stderr);
    let again = env.ok(&["add", "Book the dentist", "--new"]);
    assert!(!again.stderr.contains("rebuilt"), "once: {}", again.stderr);
}

/// The day issue 34 was measured with, as a new team would try it, run on both engines
/// from one list: what PostgreSQL refused before the store became a port (filtered
/// `list`, `agenda`, `graph`, `undo`, notes in `search`, `merge`, `--person`,
/// `--attach`, a beads export, the conversation's slash commands and offline parser)
/// now answers exactly as on SQLite, field for field.
#[test]
fn a_whole_day_gives_the_same_answers_on_both_engines() {
    let day: &[&[&str]] = &[
        &["project", "add", "HRB", "Harbour", "--description", "the mobile app"],
        &["add", "Write the login screen", "-p", "HRB", "--due", "tomorrow 9am", "--tag", "ui", "--priority", "1"],
        &["add", "Test the login screen", "-p", "HRB", "--blocked-by", "HRB-1"],
        &["add", "Купить плитку в ванную", "--due", "в субботу", "--person", "@ivan"],
        &["add", "Send the invoice for 15 000 ₽ by Friday", "--person", "@ivan"],
        &["list", "--tag", "ui"],
        &["list", "--due-before", "friday", "--sort", "due"],
        &["list", "--text", "login"],
        &["list", "--priority", "1", "--project", "HRB"],
        &["agenda"],
        &["note", "INBOX-1", "the blue ones, 20 m²"],
        &["search", "плитка"],
        &["search", "blue"],
        &["graph", "HRB-2", "--format", "mermaid"],
        &["next", "--claim", "--as", "agent-7"],
        &["list", "--claimed-by", "agent-7"],
        &["done", "HRB-1", "--as", "agent-7"],
        &["undo", "--as", "agent-7"],
        &["history", "HRB-1"],
        &["add", "Buy tiles for the bathroom", "--new"],
        &["merge", "INBOX-3", "--into", "INBOX-1"],
        &["duplicates"],
        &["duplicates", "retrain"],
        &["unmerge", "INBOX-3"],
        &["add", "Купить плитку", "--attach", "INBOX-1"],
        &["edit", "HRB-2", "--person", "@lena", "--title", "Test the login screen on Android"],
        &["dismiss", "INBOX-2", "--reason", "paid by card"],
        &["list", "-s", "all", "--sort", "updated"],
        &["chat", "/today"],
        &["chat", "--offline", "купить молоко завтра"],
        &["chat", "--offline", "what's on my list today?"],
        &["chat", "/inbox"],
        &["chat", "/del", "1"],
        &["chat", "/done", "week"],
        &["chat", "--offline", "--dry-run", "перенеси плитку на понедельник"],
        &["undo"],
        &["export", "--to", "beads"],
        &["project", "list"],
    ];
    alike_on_both("pg_whole_day", day, true);
}

/// Issue 34: an export merges into a store that has data by the same rules on both
/// engines — new tasks come in (a taken key gets the project's next one, and says so)
/// with their notes, tags and links; a second import keeps what is there.
#[test]
fn an_export_merges_into_a_store_with_data_as_on_sqlite() {
    let source = TestEnv::new();
    source.ok(&["add", "Pour the foundation", "--tag", "site"]);
    source.ok(&["add", "Raise the walls", "--blocked-by", "INBOX-1"]);
    source.ok(&["note", "INBOX-2", "scaffolding arrives on Monday"]);
    let export = source.ok(&["export"]).stdout;
    let mut answers: Vec<Vec<Value>> = Vec::new();
    for env in TestEnv::engines("pg_merge_export") {
        env.ok(&["add", "Order the bricks"]);
        let file = env.write("source-export.jsonl", &export);
        let file = file.to_str().expect("utf-8 path");
        let first = env.json(&["import", file]);
        assert_eq!(first["mode"], "merge", "{}: {first}", env.engine());
        let again = env.json(&["import", file]);
        assert_eq!(again["kept"], 2, "{}: a second import keeps both: {again}", env.engine());
        let listed = env.json(&["list", "-s", "all"]);
        // The counter moved past the export's (2), so the taken INBOX-1 comes in as
        // INBOX-3; INBOX-2 was free and is kept.
        assert_eq!(crate::common::keys(&listed), ["INBOX-1", "INBOX-3", "INBOX-2"], "{}", env.engine());
        let found = env.json(&["search", "scaffolding"]);
        assert_eq!(crate::common::keys(&found), ["INBOX-2"], "{}: the merged note is searched", env.engine());
        let walls = env.json(&["show", "INBOX-2"]);
        assert_eq!(walls["task"]["blocked_by"], serde_json::json!(["INBOX-3"]), "{}: the link follows", env.engine());
        answers.push(vec![normalized(&first), normalized(&again), normalized(&listed), normalized(&walls)]);
    }
    if answers.len() == 2 {
        assert_eq!(answers[1], answers[0], "PostgreSQL (left) and SQLite (right) merge alike");
    }
}

/// Issue 34: schedules, their Jobs and Runs read through the port on both engines —
/// a store with a schedule and a run-now Job moved to PostgreSQL lists, shows and
/// previews them as SQLite does; changing a schedule there is refused by name.
#[test]
fn schedules_and_jobs_read_alike_on_both_engines() {
    let Some(team) = TestEnv::postgres("pg_schedule_reads") else { return };
    let local = TestEnv::new();
    local.ok(&["add", "Water the plants"]);
    local.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00"]);
    local.ok(&["schedule", "run-now", "INBOX-1", "--key", "first"]);
    let file = team.write("with-schedule.jsonl", &local.ok(&["export"]).stdout);
    team.ok(&["import", file.to_str().expect("utf-8 path")]);
    for args in [
        &["schedule", "list"][..],
        &["schedule", "show", "INBOX-1"],
        &["schedule", "preview", "INBOX-1", "--count", "3"],
        &["schedule", "messages"],
        &["jobs"],
        &["jobs", "INBOX-1", "--state", "succeeded"],
    ] {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let (on_sqlite, on_pg) = (local.run(&all), team.run(&all));
        assert_eq!(on_pg.code, 0, "tasks {args:?} on PostgreSQL: {}", on_pg.stderr);
        assert_eq!(
            normalized(&on_pg.json()),
            normalized(&on_sqlite.json()),
            "tasks {args:?}: PostgreSQL (left), SQLite"
        );
    }
    // Run now makes the Job on the team store too; the daemons run it.
    let made = team.json(&["schedule", "run-now", "INBOX-1", "--key", "second"]);
    assert_eq!((made["created"].as_bool(), made["job"]["state"].as_str()), (Some(true), Some("queued")), "{made}");
    let again = team.json(&["schedule", "run-now", "INBOX-1", "--key", "second"]);
    assert_eq!(
        (again["created"].as_bool(), &again["job"]["id"]),
        (Some(false), &made["job"]["id"]),
        "one key, one Job"
    );
}

/// Issue 34: adding and changing a schedule runs through the port on both engines with
/// the same answers and history; on PostgreSQL the team daemon then makes its Jobs.
#[test]
fn schedule_changes_answer_alike_on_both_engines() {
    let steps: &[&[&str]] = &[
        &["add", "Water the plants"],
        &["schedule", "add", "INBOX-1", "--daily", "09:00", "--tz", "Europe/Berlin"],
        &["schedule", "pause", "INBOX-1"],
        &["schedule", "resume", "INBOX-1"],
        &["schedule", "add", "INBOX-1", "--workdays", "10:00", "--tz", "Europe/Berlin", "--replace"],
        &["schedule", "show", "INBOX-1"],
        &["schedule", "list"],
        &["schedule", "queue", "--push", "hello from the team"],
        &["schedule", "queue"],
        &["schedule", "messages"],
        &["history", "INBOX-1"],
    ];
    let Some(team) = alike_on_both("pg_schedule_changes", steps, true) else { return };
    // The team daemon makes the Jobs of what `schedule add` made there, once.
    let mut later = TestEnv { now: "2026-12-01T12:00:00Z".into(), ..team };
    later.actor = "daemon-1".into();
    let fired = later.json(&["daemon", "--once"]);
    assert_eq!(
        fired["jobs"].as_array().map(Vec::len),
        Some(1),
        "one missed firing, run once (run-once policy): {fired}"
    );
    assert_eq!(later.json(&["daemon", "--once"])["jobs"], serde_json::json!([]), "never twice");
    let jobs = later.json(&["jobs", "INBOX-1"]);
    assert_eq!(jobs["items"].as_array().map(Vec::len), Some(1), "{jobs}");
    later.ok(&["schedule", "remove", "INBOX-1"]);
    assert_eq!(later.json(&["schedule", "list"])["items"], serde_json::json!([]));
}

/// Issue 34: the daemon sleeps on PostgreSQL's LISTEN/NOTIFY — a schedule added on
/// another machine wakes it at once, and it makes the due firing's Job. Its poll and
/// lease are set to an hour, so only the notification can wake it within the wait.
#[test]
fn the_team_daemon_wakes_when_a_schedule_is_added() {
    let Some(team) = TestEnv::postgres("pg_daemon_notify") else { return };
    let url = team.store_url.clone().expect("a postgres store");
    team.ok(&["add", "Water the plants"]);
    // The daemon lives a day after the person: what they schedule now is due for it.
    let mut daemon = spawn_daemon(&url, &["--poll", "1h", "--lease", "1h"], std::process::Stdio::null());
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    crate::web_common::wait_until("the daemon to listen", || {
        let n: i64 = admin
            .query_one("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN tasks_schedules%'", &[])
            .expect("activity")
            .get(0);
        n == 1
    });
    team.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--tz", "Europe/Berlin"]);
    // wait_until gives up after 20 s, long before the daemon's hour-long poll.
    crate::web_common::wait_until("the daemon to make the Job", || {
        team.json(&["jobs", "INBOX-1"])["items"].as_array().map(Vec::len) == Some(1)
    });
    let _ = daemon.kill();
    let _ = daemon.wait();
}

/// Issue 34: the server ends every connection of a running team daemon (its planner's
/// and its listener's, as `pg_terminate_backend` or a restart would): the daemon
/// connects again, listens again, and still makes the next schedule's Job — once.
#[test]
fn the_team_daemon_reconnects_after_the_server_ends_its_connections() {
    let Some(team) = TestEnv::postgres("pg_daemon_reconnect") else { return };
    let url = team.store_url.clone().expect("a postgres store");
    team.ok(&["add", "Water the plants"]);
    team.ok(&["add", "Feed the cat"]);
    let mut daemon = spawn_daemon(&url, &[], std::process::Stdio::piped());
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let mut listener_pid = || -> Option<i32> {
        admin
            .query_opt(
                "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN tasks_schedules%' AND pid <> pg_backend_pid()",
                &[],
            )
            .expect("activity")
            .map(|r| r.get(0))
    };
    let mut first = None;
    crate::web_common::wait_until("the daemon to listen", || {
        first = listener_pid();
        first.is_some()
    });
    team.ok(&["schedule", "add", "INBOX-1", "--daily", "09:00", "--tz", "Europe/Berlin"]);
    let jobs_of = |key: &str| team.json(&["jobs", key])["items"].as_array().map_or(0, Vec::len);
    crate::web_common::wait_until("the first Job", || jobs_of("INBOX-1") == 1);
    // The server ends every session of the daemon.
    let mut killer = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let ended = end_sessions(&mut killer);
    assert!(ended >= 1, "the daemon's sessions were ended");
    crate::web_common::wait_until("the daemon to listen again", || listener_pid().is_some_and(|p| Some(p) != first));
    team.ok(&["schedule", "add", "INBOX-2", "--daily", "09:00", "--tz", "Europe/Berlin"]);
    crate::web_common::wait_until("the second Job", || jobs_of("INBOX-2") == 1);
    assert_eq!(jobs_of("INBOX-1"), 1, "nothing was made twice");
    assert!(daemon.try_wait().expect("wait").is_none(), "the daemon is still running");
    let _ = daemon.kill();
    let output = daemon.wait_with_output().expect("reaped");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(!log.contains("password"), "{log}");
}

/// Runs `tasks --json daemon --once` on `team` at `now` with `extra` arguments and the
/// scripted model when given; returns its JSON answer.
fn daemon_once(team: &TestEnv, now: &str, who: &str, model: Option<&str>, extra: &[&str]) -> Value {
    let mut args = vec!["--json", "daemon", "--once", "--as", who];
    args.extend_from_slice(extra);
    let mut cmd = team.command(&args);
    cmd.env("TASKS_NOW", now);
    if let Some(url) = model {
        cmd.env("TASKS_LLM_BASE_URL", url).env("TASKS_LLM_MODEL", "test-model");
    }
    let r = crate::common::collect(cmd.output().expect("run the daemon"));
    assert_eq!(r.code, 0, "{who} at {now}: {}", r.stderr);
    r.json()
}

/// A team store at 2026-12-01 08:00 UTC holding INBOX-1 `title` with a `*/15` schedule
/// that runs `sh -c` the script made from the path of its log file; the store and the
/// log's path.
fn quarter_hourly_command(
    test: &str,
    title: &str,
    script: impl Fn(&str) -> String,
) -> Option<(TestEnv, std::path::PathBuf)> {
    let mut team = TestEnv::postgres(test)?;
    team.now = "2026-12-01T08:00:00Z".into();
    team.tz = "UTC".into();
    let log = team.dir.path().join("command.log");
    let script = script(&log.display().to_string());
    team.ok(&["add", title]);
    team.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--cron",
        "*/15 * * * *",
        "--tz",
        "UTC",
        "--env-allow",
        "PATH",
        "--command",
        "sh",
        "-c",
        &script,
    ]);
    Some((team, log))
}

/// Issue 34: two daemons on one PostgreSQL store, a `*/15` command schedule and a
/// `*/15` prompt schedule, four firings each, both daemons looking at every firing at
/// the same moment: every command runs once (its own log has one line per firing), the
/// model is asked once per prompt firing, and the store holds eight Jobs of one Run.
#[test]
fn two_daemons_run_every_command_and_prompt_firing_once() {
    let Some((team, log)) = quarter_hourly_command("pg_two_daemons_command_prompt", "Rotate the logs", |log| {
        format!("echo \"$TASKS_JOB_ID $TASKS_SCHEDULED_FOR\" >> {log}")
    }) else {
        return;
    };
    team.ok(&["add", "Morning digest"]);
    team.ok(&["schedule", "add", "INBOX-2", "--cron", "*/15 * * * *", "--tz", "UTC", "--prompt", "What is overdue?"]);
    let model = tasks_testkit::openai::FakeModel::start();
    for i in 0..8 {
        let answer = serde_json::json!({
            "id": format!("chatcmpl-{i}"),
            "object": "chat.completion",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": format!("digest {i}: nothing overdue")}}]
        });
        model.then(tasks_testkit::http::Response::json(200, answer.to_string()));
    }
    let start = jiff::Timestamp::from_second(1_796_198_400).expect("2026-12-01T08:00:00Z");
    for i in 1..=4 {
        let now = (start + jiff::SignedDuration::from_secs(i * 15 * 60 + 5)).to_string();
        thread::scope(|s| {
            for d in 0..2 {
                let (team, now, url) = (&team, &now, model.base_url());
                s.spawn(move || daemon_once(team, now, &format!("daemon-{d}"), Some(&url), &[]));
            }
        });
    }
    let lines = std::fs::read_to_string(&log).expect("the command's log");
    let ran: Vec<&str> = lines.lines().collect();
    assert_eq!(ran.len(), 4, "each command firing ran once: {ran:?}");
    assert_eq!(ran.iter().collect::<BTreeSet<_>>().len(), 4, "four different firings: {ran:?}");
    assert_eq!(model.requests().len(), 4, "the model was asked once per prompt firing");
    let jobs = team.json(&["jobs"]);
    let items = jobs["items"].as_array().expect("items");
    assert_eq!(items.len(), 8, "{jobs}");
    for job in items {
        assert_eq!(job["state"], "succeeded", "{job}");
        assert_eq!(job["runs"].as_array().map(Vec::len), Some(1), "one Run: {job}");
    }
}

/// Issue 34: a daemon killed with SIGKILL while its command runs leaves the Job
/// `running` under its lease. Another daemon looking before the lease ends leaves it
/// alone; the first to look after records it interrupted — once — and no daemon ever
/// runs it again.
#[test]
fn a_killed_daemons_job_is_interrupted_once_by_another_and_never_rerun() {
    let Some((team, log)) = quarter_hourly_command("pg_killed_daemon_lease", "Rebuild the search index", |log| {
        format!("echo started >> {log}; sleep 60")
    }) else {
        return;
    };
    let fired = "2026-12-01T08:15:05Z";
    let mut a = team.command(&["--json", "daemon", "--once", "--lease", "10s", "--as", "daemon-a"]);
    a.env("TASKS_NOW", fired).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut a = a.spawn().expect("daemon a");
    let job = || team.json(&["jobs", "INBOX-1"])["items"][0].clone();
    crate::web_common::wait_until("daemon a to run the command", || {
        job()["state"] == "running" && std::fs::read_to_string(&log).is_ok_and(|l| l.lines().count() == 1)
    });
    a.kill().expect("kill -9");
    a.wait().expect("reaped");
    // Before the lease ends: the Job is still another daemon's.
    let early = daemon_once(&team, "2026-12-01T08:15:10Z", "daemon-b", None, &["--lease", "10s"]);
    assert_eq!(early["recovered"], serde_json::json!([]), "a live lease is left alone: {early}");
    assert_eq!(job()["state"], "running");
    // After it: interrupted once, by the first daemon that looks.
    let late = thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|d| {
                let team = &team;
                s.spawn(move || daemon_once(team, "2026-12-01T08:15:20Z", &format!("daemon-c{d}"), None, &[]))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect::<Vec<_>>()
    });
    let recovered: Vec<&Value> = late.iter().flat_map(|v| v["recovered"].as_array().expect("recovered")).collect();
    assert_eq!(recovered.len(), 1, "recorded once between two daemons: {late:?}");
    let j = job();
    assert_eq!(j["state"], "interrupted", "{j}");
    assert!(j["reason"].as_str().is_some_and(|r| r.contains("daemon-a") || r.contains("lease")), "{j}");
    assert_eq!(j["runs"].as_array().map(Vec::len), Some(1), "never run again: {j}");
    let again = daemon_once(&team, "2026-12-01T08:16:00Z", "daemon-d", None, &[]);
    assert_eq!((again["recovered"].clone(), again["jobs"].clone()), (serde_json::json!([]), serde_json::json!([])));
    assert_eq!(std::fs::read_to_string(&log).expect("log").lines().count(), 1, "the command started once");
}

/// Issue 34: the server ends every session of a running daemon again and again — while
/// it plans, starts, runs and finishes Jobs — as ten run-now Jobs arrive: the daemon
/// connects again each time, and each Job's command runs exactly once.
#[test]
fn a_daemon_whose_sessions_keep_being_ended_runs_each_job_once() {
    let Some(team) = TestEnv::postgres("pg_daemon_terminated_mid_tick") else { return };
    let url = team.store_url.clone().expect("a postgres store");
    let log = team.dir.path().join("ran.log");
    let script = format!("echo \"$TASKS_JOB_ID\" >> {}", log.display());
    team.ok(&["add", "Sync the mirrors"]);
    team.ok(&[
        "schedule",
        "add",
        "INBOX-1",
        "--daily",
        "23:00",
        "--env-allow",
        "PATH",
        "--command",
        "sh",
        "-c",
        &script,
    ]);
    let mut daemon = team
        .command(&["daemon", "--lease", "3s"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn the daemon");
    let mut killer = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let mut ended = 0;
    for i in 0..10 {
        team.ok(&["schedule", "run-now", "INBOX-1", "--key", &format!("deploy-{i}")]);
        std::thread::sleep(std::time::Duration::from_millis(150 + 50 * (i % 4)));
        ended += end_sessions(&mut killer);
    }
    assert!(ended >= 5, "the daemon's sessions were ended ({ended})");
    let finished = || {
        let jobs = team.json(&["jobs", "INBOX-1"]);
        jobs["items"]
            .as_array()
            .is_some_and(|items| items.len() == 10 && items.iter().all(|j| j["state"] == "succeeded"))
    };
    crate::web_common::wait_until("ten Jobs to succeed", finished);
    let lines = std::fs::read_to_string(&log).expect("the command's log");
    let ran: Vec<&str> = lines.lines().collect();
    assert_eq!(ran.len(), 10, "each Job's command ran once: {ran:?}");
    assert_eq!(ran.iter().collect::<BTreeSet<_>>().len(), 10, "{ran:?}");
    for job in team.json(&["jobs", "INBOX-1"])["items"].as_array().expect("items") {
        assert_eq!(job["runs"].as_array().map(Vec::len), Some(1), "one Run: {job}");
    }
    assert!(daemon.try_wait().expect("wait").is_none(), "the daemon is still running");
    let _ = daemon.kill();
    let _ = daemon.wait();
}

/// Issue 34: task lines, a Taskwarrior export and beads issues import through the same
/// operation on both engines — projects made from a line, tags, notes, people, blockers
/// by caller id, a recurring line made a schedule, a bad line skipped with its number —
/// and answer alike: the import's report, the list, a task's card and history, the
/// schedule; importing the same file again creates nothing twice.
#[test]
fn task_lines_taskwarrior_and_beads_import_alike_on_both_engines() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks-core/tests/fixtures/interop");
    let env = TestEnv::new();
    let lines = [
        r#"{"id": "f1", "title": "Pour the foundation", "project": "HRB", "project_name": "Harbour", "tags": ["site"], "due": "2026-12-05", "priority": 1}"#,
        r#"{"id": "w1", "title": "Raise the walls", "project": "HRB", "blocked_by": ["f1"], "person": "@lena"}"#,
        r#"{"id": "n1", "title": "Water the plants", "recur": "daily 09:00", "notes": [{"at": "2026-11-28T10:00:00Z", "text": "the ficus needs less"}]}"#,
        r#"{"id": "bad", "title": ""}"#,
        r#"{"id": "d1", "title": "Book the crane", "status": "done", "closed_at": "2026-11-27T10:00:00Z"}"#,
    ];
    let file = env.write("lines.jsonl", &(lines.join("\n") + "\n"));
    let file = file.to_str().expect("utf-8 path").to_string();
    let tw = fixtures.join("taskwarrior-export.json").to_str().expect("path").to_string();
    let beads = fixtures.join("beads-issues.jsonl").to_str().expect("path").to_string();
    let steps: &[&[&str]] = &[
        &["import", &file, "--skip-bad"],
        &["import", &file, "--skip-bad"],
        &["import", "--from", "taskwarrior", &tw],
        &["import", "--from", "beads", &beads],
        &["list", "--status", "all", "--limit", "1000"],
        &["show", "HRB-2"],
        &["history", "HRB-1"],
        &["blocked"],
        &["schedule", "list"],
        &["search", "ficus"],
    ];
    let Some(team) = alike_on_both("pg_import_lines", steps, true) else { return };
    let listed = team.json(&["list", "--status", "all", "--limit", "1000"]);
    assert!(listed["items"].as_array().is_some_and(|i| i.len() > 6), "the three imports landed: {listed}");
}

/// Ends every session of the database but this one and the test's own queries (what
/// `pg_terminate_backend` or a server restart does to a daemon); returns how many.
fn end_sessions(killer: &mut postgres::Client) -> i64 {
    killer
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ''
               AND query NOT LIKE '%pg_stat_activity%'",
            &[],
        )
        .expect("terminate")
        .get(0)
}

/// Starts `tasks daemon EXTRA` on the team store at `url`, living a day after the
/// person (what they schedule now is due for it), its stdout dropped.
fn spawn_daemon(url: &str, extra: &[&str], stderr: std::process::Stdio) -> std::process::Child {
    let env = TestEnv { now: "2026-11-30T12:00:00Z".into(), store_url: Some(url.to_string()), ..TestEnv::new() };
    let mut args = vec!["daemon"];
    args.extend_from_slice(extra);
    env.command(&args).stdout(std::process::Stdio::null()).stderr(stderr).spawn().expect("spawn the daemon")
}
