//! The PostgreSQL store against a real server (a throwaway cluster from Debian's
//! packages, see `tasks_testkit::pg`), beside a real SQLite store on disk: the same
//! operations must give the same answers. Skipped, with a logged reason, where
//! PostgreSQL cannot be had.

use std::sync::atomic::{AtomicU32, Ordering};

use tasks_core::dedup::Candidate;
use tasks_core::ops::add::{AddRequest, DupChoice};
use tasks_core::{Context, Error, LinkKind, Store};
use tasks_pg::PgStore;
use tasks_testkit::pg;

static DB: AtomicU32 = AtomicU32::new(0);

/// A fresh, empty PostgreSQL store, or `None` (skip logged).
fn fresh(test: &str) -> Option<(PgStore, String)> {
    let server = pg::shared(test)?;
    let name = format!("{}_{}", test.replace(['-', ' '], "_"), DB.fetch_add(1, Ordering::SeqCst));
    let url = server.create_database(&name);
    let store = PgStore::connect(&url).expect("connect to the fresh database");
    Some((store, url))
}

/// `next --claim` as the CLI asks it: the best ready task, claimed for ten minutes.
fn next(pg: &mut PgStore, c: &Context) -> tasks_core::Result<tasks_core::Task> {
    let filter = tasks_core::ops::query::to_filter(pg, &tasks_core::ops::query::ListQuery::default())?
        .expect("no project named: a filter");
    tasks_core::claims::next(pg, c, filter, std::time::Duration::from_secs(600), "")
}

fn ctx(at: &str, actor: &str) -> Context {
    Context::new(at.parse().expect("a time"), actor, jiff::tz::TimeZone::UTC)
}

#[test]
fn the_schema_mirrors_the_sqlite_store_table_for_table_and_column_for_column() {
    let Some((mut pg, url)) = fresh("pg_schema_mirrors_sqlite") else { return };
    drop(pg);
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let dir = tempfile_dir();
    let sqlite = Store::open(&dir.path().join("t.db")).expect("sqlite");
    assert_eq!(
        tasks_pg::dump::MIRRORS_SQLITE_SCHEMA,
        tasks_core::store::SCHEMA_VERSION,
        "a SQLite migration needs its PostgreSQL twin"
    );
    for (table, _) in tasks_core::store::DUMP_TABLES {
        let pg_cols: Vec<String> = client
            .query(
                "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = $1::text::regclass AND a.attnum > 0
                 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attname",
                &[table],
            )
            .expect("columns")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut sqlite_cols = tasks_core::store::stored_columns(&sqlite, table).expect("sqlite columns");
        sqlite_cols.sort();
        assert_eq!(pg_cols, sqlite_cols, "table {table}");
    }
    pg = PgStore::connect(&url).expect("reconnect: the schema is current, nothing to migrate");
    drop(pg);
}

/// A temporary directory, removed when dropped.
fn tempfile_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("tasks-pg-test-").tempdir().expect("temp dir")
}

#[test]
fn a_newer_schema_is_refused() {
    let Some((pg, url)) = fresh("pg_newer_schema_refused") else { return };
    drop(pg);
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    client.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)", &[]).expect("bump");
    match PgStore::connect(&url) {
        Err(Error::StoreTooNew { found: 99, supported, .. }) => assert_eq!(supported, tasks_pg::SCHEMA_VERSION),
        other => panic!("expected StoreTooNew, got {other:?}"),
    }
}

#[test]
fn a_connection_failure_names_the_store_without_its_password() {
    let err = PgStore::connect("postgres://bob:hunter2@127.0.0.1:1/tasks?connect_timeout=2")
        .expect_err("no server on port 1");
    let text = err.to_string();
    assert!(text.contains("postgres://bob@127.0.0.1:1/tasks"), "{text}");
    assert!(!text.contains("hunter2"), "the password leaked: {text}");
}

#[test]
fn keys_claims_ready_and_cycles_behave_as_on_sqlite() {
    let Some((mut pg, _)) = fresh("pg_keys_claims_ready") else { return };
    let owner = ctx("2026-12-01T10:00:00Z", "owner");
    tasks_core::ops::project::add(&mut pg, &owner, "hrb", "Harbour", "").expect("project");
    let add = |pg: &mut PgStore, title: &str, blocked_by: Vec<String>| {
        let mut req = AddRequest::titled(title);
        req.project = Some("HRB".into());
        req.blocked_by = blocked_by;
        req.dup_choice = DupChoice::New;
        tasks_core::ops::add::add(pg, &owner, &req).expect("add").task
    };
    let a = add(&mut pg, "Pour the foundation", vec![]);
    let b = add(&mut pg, "Raise the walls", vec![a.key.clone()]);
    assert_eq!((a.key.as_str(), b.key.as_str()), ("HRB-1", "HRB-2"));
    assert_eq!(b.open_blockers, vec!["HRB-1".to_string()]);
    let ready: Vec<String> =
        tasks_core::ops::query::ready(&pg, &owner, None).expect("ready").into_iter().map(|t| t.key).collect();
    assert_eq!(ready, vec!["HRB-1"], "HRB-2 waits for HRB-1");
    match tasks_core::ops::link::link(&mut pg, &owner, "HRB-1", LinkKind::BlockedBy, "HRB-2") {
        Err(Error::Cycle { path, .. }) => assert_eq!(path, vec!["HRB-1", "HRB-2", "HRB-1"]),
        other => panic!("expected a cycle, got {other:?}"),
    }
    let agent = ctx("2026-12-01T10:01:00Z", "agent-1");
    let claimed =
        tasks_core::claims::claim(&mut pg, &agent, "hrb-1", std::time::Duration::from_secs(600)).expect("claim");
    assert_eq!(claimed.claimed_by.as_deref(), Some("agent-1"));
    let other = ctx("2026-12-01T10:02:00Z", "agent-2");
    match tasks_core::claims::claim(&mut pg, &other, "HRB-1", std::time::Duration::from_secs(600)) {
        Err(Error::Claimed { holder, .. }) => assert_eq!(holder, "agent-1"),
        other => panic!("expected Claimed, got {other:?}"),
    }
    match next(&mut pg, &other) {
        Err(Error::NothingReady { .. }) => {}
        other => panic!("HRB-2 is blocked and HRB-1 held: nothing ready, got {other:?}"),
    }
    let done = tasks_core::ops::status::done(&mut pg, &agent, "HRB-1").expect("done");
    assert_eq!(done.unblocked.iter().map(|t| t.key.as_str()).collect::<Vec<_>>(), vec!["HRB-2"]);
    let next = next(&mut pg, &other).expect("next");
    assert_eq!(next.key, "HRB-2");
    // A typed task in the inbox takes its prefix's counter.
    let mut q = AddRequest::titled("Which timber supplier?");
    q.task_type = tasks_core::TaskType::Question;
    assert_eq!(tasks_core::ops::add::add(&mut pg, &owner, &q).expect("question").task.key, "Q-1");
}

/// Counts the terms whose kept document frequency (`term_docs`) differs from the tasks
/// holding them (`task_terms`).
fn term_docs_off(raw: &mut postgres::Client) -> i64 {
    raw.query_one(
        "SELECT count(*) FROM (SELECT term, count(*) AS n FROM task_terms GROUP BY term) t
         FULL JOIN term_docs d USING (term) WHERE coalesce(d.docs, 0) <> coalesce(t.n, 0)",
        &[],
    )
    .expect("compare")
    .get(0)
}

#[test]
fn a_probable_duplicate_is_refused_on_postgres_too() {
    let Some((mut pg, url)) = fresh("pg_duplicate_refused") else { return };
    let owner = ctx("2026-12-01T10:00:00Z", "owner");
    let req = AddRequest::titled("Renew the passport before the March trip");
    tasks_core::ops::add::add(&mut pg, &owner, &req).expect("first");
    let later = ctx("2026-12-01T10:05:00Z", "owner");
    match tasks_core::ops::add::add(&mut pg, &later, &req) {
        Err(Error::ProbableDuplicate { candidates, .. }) => assert_eq!(candidates[0].key, "INBOX-1"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let mut anyway = req.clone();
    anyway.dup_choice = DupChoice::New;
    let out = tasks_core::ops::add::add(&mut pg, &later, &anyway).expect("--new");
    assert_eq!(out.task.key, "INBOX-2");
    assert_eq!(out.candidates[0].key, "INBOX-1", "shown beside the new task");
    // The kept document frequencies and statistics agree with the rows they count.
    let mut raw = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let off = term_docs_off(&mut raw);
    assert_eq!(off, 0, "term_docs counts every task holding a term");
    // An edit moves the task's terms, and the counts follow.
    let retitle = tasks_core::ops::edit::EditRequest { title: Some("Renew the ID card".into()), ..Default::default() };
    tasks_core::ops::edit::edit(&mut pg, &later, "INBOX-1", &retitle).expect("edit");
    let off = term_docs_off(&mut raw);
    assert_eq!(off, 0, "after an edit too");
    // Refreshed as SQLite's are: when the store grew by more than 1 % (at least one
    // task) since — so after the second task the count still says 1, after a third 3.
    let tasks_n = |raw: &mut postgres::Client| -> f64 {
        raw.query_one("SELECT value FROM dup_stats WHERE name = 'tasks_n'", &[]).expect("stats").get(0)
    };
    assert_eq!(tasks_n(&mut raw), 1.0);
    tasks_core::ops::add::add(&mut pg, &later, &AddRequest::titled("Book the flights to Lisbon")).expect("third");
    assert_eq!(tasks_n(&mut raw), 3.0);
}

/// A team store whose index an older version wrote (no version on `task_terms`' comment,
/// as every store before versioning) is rebuilt once when a version with a higher one
/// connects, as SQLite's writing open does; a current one is left as it is.
#[test]
fn an_upgrade_reindexes_the_team_store_once() {
    let Some((mut pg, url)) = fresh("pg_upgrade_reindex") else { return };
    let owner = ctx("2026-12-01T10:00:00Z", "owner");
    tasks_core::ops::add::add(&mut pg, &owner, &AddRequest::titled("Pagar el gas, llegó de 41 mil")).expect("first");
    let mut raw = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let amounts = |raw: &mut postgres::Client| -> Vec<String> {
        let rows = raw
            .query("SELECT amount_minor::text || ' ' || currency FROM task_signatures WHERE currency IS NOT NULL", &[])
            .expect("signatures");
        rows.iter().map(|r| r.get(0)).collect()
    };
    assert_eq!(amounts(&mut raw), ["4100000 XXX"]);
    // Aged but marked current: left alone (a current store pays one read).
    raw.batch_execute("UPDATE task_signatures SET amount_minor = NULL, currency = NULL").expect("age");
    assert_eq!(PgStore::connect(&url).expect("reconnect").reindexed(), None);
    assert!(amounts(&mut raw).is_empty());
    // Marked as an older version's: rebuilt, once.
    raw.batch_execute("COMMENT ON TABLE task_terms IS NULL").expect("unversion");
    assert_eq!(PgStore::connect(&url).expect("reconnect").reindexed(), Some(1));
    assert_eq!(amounts(&mut raw), ["4100000 XXX"], "read again as this version reads it");
    assert_eq!(term_docs_off(&mut raw), 0, "the kept document frequencies follow");
    assert_eq!(PgStore::connect(&url).expect("reconnect").reindexed(), None, "once");
}

/// Imports task lines into a fresh SQLite store and returns it with its lossless
/// export (how a team's data reaches PostgreSQL) and the directory holding it.
fn sqlite_with(lines: &str, c: &Context) -> (Store, String, tempfile::TempDir) {
    let dir = tempfile_dir();
    let mut sqlite = Store::open(&dir.path().join("lines.db")).expect("sqlite");
    let opts = tasks_core::ops::import::ImportOptions::default();
    tasks_core::ops::import::import_text(&mut sqlite, c, lines, &opts, &mut |_| {}).expect("import into sqlite");
    let mut dump = Vec::new();
    tasks_core::ops::dump::export(&sqlite, c, &mut dump, &mut |_| {}).expect("export");
    (sqlite, String::from_utf8(dump).expect("utf-8"), dir)
}

/// Restores an export into a PostgreSQL store.
fn restore(pg: &mut PgStore, export: &str) -> tasks_core::Result<tasks_core::ops::dump::DumpOutcome> {
    let (header, rest) = export.split_once('\n').expect("a header");
    tasks_pg::dump::import(pg, header, &mut rest.as_bytes())
}

/// Imports a labelled set into a SQLite store, moves it to PostgreSQL through the
/// lossless export, and checks every task on both engines as of its creation.
fn engines_agree_on(set_dir: &std::path::Path, test: &str) {
    let Some((mut pg, _)) = fresh(test) else { return };
    let c = ctx("2026-12-01T10:00:00Z", "eval");
    let text = std::fs::read_to_string(set_dir.join("tasks.jsonl")).expect("tasks.jsonl");
    let (sqlite, export, _dir) = sqlite_with(&text, &c);
    restore(&mut pg, &export).expect("restore into postgres");
    let every = tasks_core::ops::query::ListQuery { statuses: tasks_core::Status::ALL.to_vec(), ..Default::default() };
    let ids: Vec<i64> =
        tasks_core::ops::query::list(&sqlite, &every).expect("list").into_iter().map(|t| t.id).collect();
    assert!(ids.len() > 100, "the set has its tasks: {}", ids.len());
    let shape = |list: Vec<Candidate>| -> Vec<(String, u64, String, Vec<String>)> {
        list.into_iter().map(|c| (c.key, c.score.to_bits(), c.band.as_str().to_string(), c.reasons)).collect()
    };
    let (mut compared, mut with_candidates) = (0, 0);
    for id in ids {
        let on_sqlite = shape(tasks_core::dedup::check_existing(&sqlite, id).expect("sqlite check"));
        let on_pg = shape(tasks_core::dedup::check_existing(&pg, id).expect("postgres check"));
        assert_eq!(on_pg, on_sqlite, "task #{id}: candidates, scores (to the bit), bands and reasons");
        compared += 1;
        with_candidates += usize::from(!on_sqlite.is_empty());
    }
    assert!(with_candidates * 2 > compared, "most tasks have candidates to compare: {with_candidates}/{compared}");
    eprintln!(
        "{}: {compared} tasks checked on both engines, {with_candidates} with candidates: identical",
        set_dir.display()
    );
}

#[test]
fn both_engines_give_identical_candidates_and_scores_on_the_holdout_set() {
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-holdout");
    engines_agree_on(&set, "pg_identical_holdout");
}

#[test]
fn both_engines_give_identical_candidates_and_scores_on_the_third_set() {
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-third");
    engines_agree_on(&set, "pg_identical_third");
}

/// The fourth set writes sums with no currency («18 тыс драм», "41 mil", "400 mil"): its
/// same-amount frequencies go through `amount_count` with an unstated currency, which
/// must count the number in any currency on PostgreSQL as on SQLite.
#[test]
fn both_engines_give_identical_candidates_and_scores_on_the_fourth_set() {
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-fourth");
    engines_agree_on(&set, "pg_identical_fourth");
}

#[test]
fn both_engines_give_identical_candidates_and_scores_on_the_dev_set() {
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/dedup-dev");
    if !set.join("tasks.jsonl").exists() {
        tasks_testkit::skip::skipped(
            "pg_identical_dev",
            "the dev labelled set (../shared/data/dedup-dev) is not beside the repository",
        );
        return;
    }
    engines_agree_on(&set, "pg_identical_dev");
}

#[test]
fn list_and_ready_answer_the_default_two_hundred_rows_as_on_sqlite() {
    let Some((mut pg, _)) = fresh("pg_default_limit") else { return };
    let c = ctx("2026-12-01T10:00:00Z", "owner");
    let lines: String = (0..250).map(|i| format!("{{\"id\":\"t{i}\",\"title\":\"job number {i}\"}}\n")).collect();
    let (sqlite, export, _dir) = sqlite_with(&lines, &c);
    restore(&mut pg, &export).expect("restore");
    let listed = tasks_core::ops::query::list(&pg, &tasks_core::ops::query::ListQuery::default()).expect("list");
    let ready = tasks_core::ops::query::ready(&pg, &c, None).expect("ready");
    let on_sqlite = tasks_core::ops::query::ready(&sqlite, &c, None).expect("sqlite ready");
    assert_eq!((listed.len(), ready.len()), (tasks_core::ops::query::DEFAULT_LIMIT, on_sqlite.len()));
    assert_eq!(ready.iter().map(|t| &t.key).collect::<Vec<_>>(), on_sqlite.iter().map(|t| &t.key).collect::<Vec<_>>());
}

#[test]
fn a_bad_record_in_an_export_names_its_line_and_nothing_is_written() {
    let Some((mut pg, _)) = fresh("pg_bad_record") else { return };
    let c = ctx("2026-12-01T10:00:00Z", "owner");
    let lines =
        "{\"id\":\"a\",\"title\":\"first\"}\n{\"id\":\"b\",\"title\":\"second\\twith a tab\\\\ and a backslash\"}\n";
    let (_, text, _dir) = sqlite_with(lines, &c);
    let numbered: Vec<&str> = text.lines().collect();
    let second_task = numbered.iter().rposition(|l| l.contains("\"kind\":\"task\"")).expect("a task line");
    let restore = |pg: &mut PgStore, lines: &[String]| restore(pg, &lines.join("\n"));
    // A status the schema's CHECK refuses: found by the server inside a COPY, still
    // reported at its line of the file.
    let mut broken: Vec<String> = numbered.iter().map(|l| l.to_string()).collect();
    broken[second_task] = broken[second_task].replace("\"status\":\"open\"", "\"status\":\"weird\"");
    match restore(&mut pg, &broken) {
        Err(Error::ImportLine { line, message, .. }) => {
            assert_eq!(line, second_task + 1, "{message}");
            assert!(message.contains("task was refused"), "{message}");
        }
        other => panic!("expected a line error, got {other:?}"),
    }
    // A value of the wrong type: found before anything is sent.
    let mut wrong: Vec<String> = numbered.iter().map(|l| l.to_string()).collect();
    wrong[second_task] = wrong[second_task].replace("\"priority\":null", "\"priority\":\"high\"");
    match restore(&mut pg, &wrong) {
        Err(Error::ImportLine { line, message, .. }) => {
            assert_eq!(line, second_task + 1);
            assert!(message.contains("column priority"), "{message}");
        }
        other => panic!("expected a line error, got {other:?}"),
    }
    let all = tasks_core::ops::query::ListQuery { statuses: tasks_core::Status::ALL.to_vec(), ..Default::default() };
    assert!(tasks_core::ops::query::list(&pg, &all).expect("list").is_empty(), "nothing was written");
    // The good export restores, text with a tab and a backslash byte for byte.
    let good: Vec<String> = numbered.iter().map(|l| l.to_string()).collect();
    restore(&mut pg, &good).expect("restore");
    let second = tasks_core::ops::query::show(&pg, "INBOX-2").expect("show").task;
    assert_eq!(second.title, "second\twith a tab\\ and a backslash");
}
