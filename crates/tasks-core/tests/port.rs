//! The operations through the port, on both engines from one source (issue 34): each
//! scenario asks what an engine owes — counters with no gap, a claim only one of two
//! takes, the `ready` order, the list filters, notes in search, merge and unmerge, a
//! batch that fails whole, a rehearsal that leaves nothing, the exact match of a rule —
//! and a deliberate break of one engine's method fails here on that engine only.

use std::time::Duration;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_core::model::{Status, TaskType};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::edit::{self, EditRequest};
use tasks_core::ops::query::{self, AgendaView, ListQuery, SearchQuery};
use tasks_core::ops::{duplicates, link, note, project, status};
use tasks_core::port::Engine;
use tasks_core::{Context, Error, LinkKind, claims, input};

fn at(time: &str, actor: &str) -> Context {
    Context::new(time.parse::<Timestamp>().expect("time"), actor, TimeZone::get("Europe/Berlin").expect("zone"))
}

fn me() -> Context {
    at("2026-11-30T09:00:00Z", "me")
}

/// Adds a task past the duplicate check; returns its key.
fn add_new(store: &mut dyn Engine, c: &Context, title: &str, change: impl FnOnce(&mut AddRequest)) -> String {
    let mut req = AddRequest::titled(title);
    req.dup_choice = DupChoice::New;
    change(&mut req);
    add::add(store, c, &req).expect("add").task.key
}

fn keys(tasks: &[tasks_core::Task]) -> Vec<&str> {
    tasks.iter().map(|t| t.key.as_str()).collect()
}

fn listed(store: &dyn Engine, q: ListQuery) -> Vec<String> {
    query::list(store, &q).expect("list").into_iter().map(|t| t.key).collect()
}

on_both_engines! {
    /// Keys count per project with no gap and no repeat: a failed add gives its number
    /// back; a typed task in the inbox takes its prefix's own counter.
    fn keys_have_no_gap_after_a_failed_add(store) {
        let c = me();
        project::add(store, &c, "hrb", "Harbour", "").expect("project");
        assert_eq!(add_new(store, &c, "Pour the foundation", |r| r.project = Some("HRB".into())), "HRB-1");
        let mut bad = AddRequest::titled("Raise the walls");
        bad.project = Some("HRB".into());
        bad.blocked_by = vec!["HRB-99".into()];
        bad.dup_choice = DupChoice::New;
        assert!(matches!(add::add(store, &c, &bad), Err(Error::NotFound { .. })));
        assert_eq!(add_new(store, &c, "Raise the walls", |r| r.project = Some("HRB".into())), "HRB-2");
        assert_eq!(add_new(store, &c, "Which timber supplier?", |r| r.task_type = TaskType::Question), "Q-1");
        assert_eq!(add_new(store, &c, "Which roofer?", |r| r.task_type = TaskType::Question), "Q-2");
        let err = project::add(store, &c, "HRB", "Again", "").expect_err("a key exists");
        assert!(matches!(err, Error::ProjectExists { .. }), "{err:?}");
    }

    /// `ready` orders by priority (none last), then due (none last), then age; a task
    /// with an open blocker or another's live lease is not ready.
    fn ready_orders_by_priority_due_and_age(store) {
        let c = me();
        let low = add_new(store, &c, "Sweep the yard", |_| {});
        let urgent = add_new(store, &c, "Fix the leak", |r| r.priority = Some(0));
        let soon = add_new(store, &c, "Order bricks", |r| r.due = Some(input::parse_due_at("tomorrow", &c).expect("due")));
        let later = add_new(store, &c, "Order tiles", |r| r.due = Some(input::parse_due_at("friday", &c).expect("due")));
        let blocked = add_new(store, &c, "Lay the tiles", |r| r.blocked_by = vec![later.to_string()]);
        let held = add_new(store, &c, "Paint the fence", |r| r.priority = Some(0));
        claims::claim(store, &at("2026-11-30T09:00:00Z", "agent-7"), &held, claims::DEFAULT_LEASE).expect("claim");
        let ready = query::ready(store, &c, None).expect("ready");
        assert_eq!(keys(&ready), [urgent.as_str(), soon.as_str(), later.as_str(), low.as_str()]);
        assert!(!keys(&ready).contains(&blocked.as_str()));
        // The holder sees it, after the older task of the same priority.
        let theirs = query::ready(store, &at("2026-11-30T09:00:00Z", "agent-7"), None).expect("ready");
        assert_eq!(keys(&theirs)[..2], [urgent.as_str(), held.as_str()]);
    }

    /// A claim is refused while another actor's lease lives, taken once it lapsed, and
    /// closing ends it; `next --claim` takes the best ready task nobody holds.
    fn claims_are_leases(store) {
        let c = me();
        let a = add_new(store, &c, "Write the migration", |r| r.priority = Some(1));
        let b = add_new(store, &c, "Deploy to staging", |_| {});
        let one = at("2026-11-30T09:00:00Z", "agent-1");
        let two = at("2026-11-30T09:10:00Z", "agent-2");
        claims::claim(store, &one, &a, Duration::from_secs(30 * 60)).expect("claim");
        match claims::claim(store, &two, &a, claims::DEFAULT_LEASE) {
            Err(Error::Claimed { holder, .. }) => assert_eq!(holder, "agent-1"),
            other => panic!("expected Claimed, got {other:?}"),
        }
        let filter = query::to_filter(store, &ListQuery::default()).expect("filter").expect("some");
        let next = claims::next(store, &two, filter.clone(), claims::DEFAULT_LEASE, "").expect("next");
        assert_eq!((next.key.as_str(), next.claimed_by.as_deref()), (b.as_str(), Some("agent-2")));
        assert!(matches!(
            claims::next(store, &two, filter, claims::DEFAULT_LEASE, ""),
            Err(Error::NothingReady { .. })
        ));
        // Forty minutes on, agent-1's lease has lapsed.
        let late = at("2026-11-30T09:40:00Z", "agent-2");
        assert_eq!(claims::claim(store, &late, &a, claims::DEFAULT_LEASE).expect("lapsed").claimed_by.as_deref(), Some("agent-2"));
        let done = status::done(store, &late, &a).expect("done");
        assert_eq!((done.task.status, done.task.claimed_by), (Status::Done, None));
    }

    /// Every list filter answers the same tasks on both engines.
    fn list_filters_select_the_same_tasks(store) {
        let c = me();
        project::add(store, &c, "HRB", "Harbour", "").expect("project");
        let login = add_new(store, &c, "Write the login screen", |r| {
            r.project = Some("HRB".into());
            r.tags = vec!["ui".into()];
            r.priority = Some(1);
            r.due = Some(input::parse_due_at("2026-11-28", &c).expect("due"));
        });
        let tiles = add_new(store, &c, "Купить плитку в ванную", |r| {
            r.person = Some("@ivan".into());
            r.due = Some(input::parse_due_at("friday", &c).expect("due"));
        });
        let invoice = add_new(store, &c, "Send the invoice", |r| r.task_type = TaskType::Chore);
        claims::claim(store, &c, &invoice, claims::DEFAULT_LEASE).expect("claim");
        assert_eq!(listed(store, ListQuery { tag: Some("UI".into()), ..ListQuery::default() }), [login.as_str()]);
        assert_eq!(listed(store, ListQuery { text: Some("плит".into()), ..ListQuery::default() }), [tiles.as_str()]);
        assert_eq!(listed(store, ListQuery { text: Some("log scr".into()), ..ListQuery::default() }), [login.as_str()]);
        assert!(listed(store, ListQuery { text: Some("\"NEAR*".into()), ..ListQuery::default() }).is_empty());
        assert_eq!(listed(store, ListQuery { person: Some("@ivan".into()), ..ListQuery::default() }), [tiles.as_str()]);
        assert!(listed(store, ListQuery { person: Some("@nobody".into()), ..ListQuery::default() }).is_empty());
        assert_eq!(listed(store, ListQuery { priority: Some(1), ..ListQuery::default() }), [login.as_str()]);
        assert_eq!(listed(store, ListQuery { project: Some("hrb".into()), ..ListQuery::default() }), [login.as_str()]);
        assert_eq!(listed(store, ListQuery { task_type: Some(TaskType::Chore), ..ListQuery::default() }), [invoice.as_str()]);
        assert_eq!(
            listed(store, ListQuery { claimed_by: Some(("me".into(), c.now_ms())), ..ListQuery::default() }),
            [invoice.as_str()]
        );
        assert_eq!(listed(store, ListQuery { overdue_at: Some((c.today(), c.now_ms())), ..ListQuery::default() }), [login.as_str()]);
        let friday = input::parse_due_at("saturday", &c).expect("due").date;
        assert_eq!(
            listed(store, ListQuery { due_before: Some(friday), sort: query::Sort::Due, ..ListQuery::default() }),
            [login.as_str(), tiles.as_str()]
        );
        // Latest due first, read from the due index (the chat's today-and-overdue
        // candidates): Friday's tiles before the overdue login screen, the undated
        // invoice last.
        assert_eq!(
            listed(store, ListQuery { sort: query::Sort::LatestDue, ..ListQuery::default() }),
            [tiles.as_str(), login.as_str(), invoice.as_str()]
        );
        assert_eq!(
            listed(store, ListQuery { due_before: Some(friday), sort: query::Sort::LatestDue, ..ListQuery::default() }),
            [tiles.as_str(), login.as_str()]
        );
        let overdue = query::agenda(store, &c, AgendaView::Overdue, false, None).expect("agenda");
        assert_eq!(keys(&overdue), [login.as_str()]);
        match query::list(store, &ListQuery { project: Some("NOPE".into()), ..ListQuery::default() }) {
            Err(Error::NotFound { what: "project", .. }) => {}
            other => panic!("expected NotFound, got {other:?}"),
        }
    }

    /// Search finds a task by its title, by a note, and across scripts.
    fn search_reads_titles_and_notes(store) {
        let c = me();
        let tiles = add_new(store, &c, "Купить плитку в ванную", |_| {});
        let call = add_new(store, &c, "Call the plumber", |_| {});
        note::add(store, &c, &call, "ask about the blue tiles, 20 m²").expect("note");
        let search = |store: &dyn Engine, text: &str| -> Vec<String> {
            let q = SearchQuery { text: text.into(), open_only: true, limit: 10 };
            query::search(store, &q).expect("search").into_iter().map(|t| t.key).collect()
        };
        // The note's "tiles" is the same concept as «плитку»: both, the title first.
        assert_eq!(search(store, "плитка"), [tiles.as_str(), call.as_str()]);
        assert_eq!(search(store, "plumber"), [call.as_str()]);
        assert_eq!(search(store, "blue"), [call.as_str()], "a note's words find its task");
        assert!(search(store, "\" OR NEAR(").is_empty(), "FTS syntax is words, never an error");
        // Undoing the note takes it out of the index.
        tasks_core::ops::undo::undo(store, &c).expect("undo the note");
        assert!(search(store, "blue").is_empty(), "an undone note is not searched");
    }

    /// Merge moves a duplicate under its twin and unmerge restores it, with history.
    fn merge_and_unmerge_round_trip(store) {
        let c = me();
        let first = add_new(store, &c, "Renew the passport", |_| {});
        let second = add_new(store, &c, "Renew passport before the trip", |_| {});
        let out = duplicates::merge(store, &c, &second, &first).expect("merge");
        assert_eq!((out.duplicate.status, out.into.key.as_str()), (Status::Dismissed, first.as_str()));
        assert!(matches!(duplicates::merge(store, &c, &second, &first), Err(Error::WrongState { .. }) | Err(Error::Invalid { .. })));
        let back = duplicates::unmerge(store, &c, &second).expect("unmerge");
        assert_eq!(back.duplicate.status, Status::Open);
        let detail = query::show(store, &second).expect("show");
        assert!(detail.links.iter().all(|l| l.kind != LinkKind::DuplicateOf), "{:?}", detail.links);
        let (_, events) = query::history(store, &second).expect("history");
        assert!(events.len() >= 3, "created, merged, unmerged: {events:?}");
    }

    /// A batch is one transaction: a failing step writes nothing of the steps before
    /// it; a rehearsal writes nothing at all.
    fn a_batch_fails_whole_and_a_rehearsal_leaves_nothing(store) {
        let c = me();
        let a = add_new(store, &c, "Pour the foundation", |_| {});
        let b = add_new(store, &c, "Raise the walls", |r| r.blocked_by = vec![a.to_string()]);
        let failed = store.batch(|store| {
            claims::claim(store, &c, &a, claims::DEFAULT_LEASE)?;
            link::link(store, &c, &a, LinkKind::BlockedBy, &b)
        });
        assert!(matches!(failed, Err(Error::Cycle { .. })), "{failed:?}");
        assert_eq!(query::get(store, &a).expect("get").claimed_by, None, "the claim rolled back with the batch");
        let edited = edit::rehearse(store, &c, &a, &EditRequest { title: Some("Pour it".into()), ..EditRequest::default() })
            .expect("rehearse");
        assert_eq!(edited.title, "Pour it");
        assert_eq!(query::get(store, &a).expect("get").title, "Pour the foundation");
        let would = add::rehearse(store, &c, &AddRequest { dup_choice: DupChoice::New, ..AddRequest::titled("Lay bricks") })
            .expect("rehearse add");
        assert_eq!(would.task.key, "INBOX-3");
        assert_eq!(add_new(store, &c, "Lay bricks", |_| {}), "INBOX-3", "the rehearsal took no number");
        // Several writes of one batch are one operation: one undo reverts them all.
        store.batch(|store| {
            status::tag(store, &c, &a, &["site".into()])?;
            note::add(store, &c, &a, "concrete on Monday")
        }).expect("batch");
        let undone = tasks_core::ops::undo::undo(store, &c).expect("undo");
        assert_eq!(undone.reverted.len(), 2, "{:?}", undone.reverted);
        assert!(query::get(store, &a).expect("get").tags.is_empty());
    }

    /// The one exact match: the same rule on the same message gives the task it made;
    /// `--attach` makes a message evidence of an existing task and fills its gaps.
    fn a_rule_on_a_message_matches_exactly_and_attach_fills_gaps(store) {
        let c = me();
        let mut req = AddRequest::titled("Send the deck to Anna");
        req.source_message = Some("msg:telegram/me/anna/17".into());
        req.rule = Some("promise".into());
        let made = add::add(store, &c, &req).expect("rule add");
        assert!(made.created);
        let again = add::add(store, &c, &req).expect("again");
        assert_eq!((again.created, again.task.key.as_str()), (false, made.task.key.as_str()));
        assert!(again.exact_match.is_some());
        let mut attach = AddRequest::titled("Deck for Anna by Friday");
        attach.source_message = Some("msg:telegram/me/anna/18".into());
        attach.due = Some(input::parse_due_at("friday", &c).expect("due"));
        attach.dup_choice = DupChoice::Attach(made.task.key.clone());
        let out = add::add(store, &c, &attach).expect("attach");
        assert_eq!(out.attached_to.as_deref(), Some(made.task.key.as_str()));
        assert!(out.task.due.is_some(), "the due it lacked was filled");
        let links = query::show(store, &made.task.key).expect("show").links;
        assert_eq!(links.iter().filter(|l| l.message.is_some()).count(), 2, "{links:?}");
    }

    /// A link that would close a cycle is refused with the whole path; a self-link too.
    fn a_cycle_error_names_the_whole_path(store) {
        let c = me();
        let ids: Vec<String> = (0..4).map(|i| add_new(store, &c, &format!("step {i} {}", "x".repeat(i)), |_| {})).collect();
        for pair in ids.windows(2) {
            link::link(store, &c, &pair[0], LinkKind::BlockedBy, &pair[1]).expect("link");
        }
        match link::link(store, &c, &ids[3], LinkKind::BlockedBy, &ids[0]) {
            Err(Error::Cycle { path, kind }) => {
                assert_eq!(kind, "blocked-by");
                assert_eq!(path, [&ids[3], &ids[0], &ids[1], &ids[2], &ids[3]].map(|k| k.clone()));
            }
            other => panic!("expected a cycle, got {other:?}"),
        }
        assert!(matches!(link::link(store, &c, &ids[0], LinkKind::BlockedBy, &ids[0]), Err(Error::SelfLink { .. })));
        // A related-to link may go both ways: no cycle check.
        link::link(store, &c, &ids[3], LinkKind::RelatedTo, &ids[0]).expect("related");
        let unchanged = link::link(store, &c, &ids[0], LinkKind::BlockedBy, &ids[1]).expect("again");
        assert!(!unchanged.changed, "an existing link is not made twice");
    }

    /// `duplicates retrain` counts m from the merges and, with enough of them, keeps the
    /// counted weights, which the next check then uses.
    fn retrain_keeps_weights_counted_from_merges(store) {
        let c = me();
        let needed = duplicates::MIN_LABELLED_DUPLICATES;
        let too_few = duplicates::retrain(store, &c, true).expect_err("no merges yet");
        assert!(matches!(too_few, Error::Invalid { field: "apply", .. }), "{too_few:?}");
        for i in 0..needed {
            let words = ["passport", "invoice", "dentist", "tiles", "report"][i % 5];
            let a = add_new(store, &c, &format!("Renew the {words} number {i} before the trip"), |_| {});
            let b = add_new(store, &c, &format!("Renew {words} number {i} before trip"), |_| {});
            duplicates::merge(store, &c, &b, &a).expect("merge");
        }
        let out = duplicates::retrain(store, &c, true).expect("retrain");
        assert_eq!((out.labelled.0, out.applied), (needed, true));
        let learned = store.reader().check_source().expect("source").learned_weights().expect("weights");
        assert!(!learned.is_empty(), "the counted weights are kept");
    }

    /// A probable duplicate is refused before it is created, naming its twin.
    fn a_probable_duplicate_is_refused(store) {
        let c = me();
        add_new(store, &c, "Renew the passport before the March trip", |_| {});
        let later = at("2026-11-30T10:00:00Z", "me");
        match add::add(store, &later, &AddRequest::titled("Renew the passport before the March trip")) {
            Err(Error::ProbableDuplicate { candidates, .. }) => assert_eq!(candidates[0].key, "INBOX-1"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        let pending = duplicates::pending(store, 10).expect("pending");
        assert!(pending.is_empty(), "a person's refusal queues nothing");
    }
}

/// Eight threads, each with its own connection to one store, call `next --claim` until
/// nothing is ready: every task is handed out exactly once, on either engine.
fn next_claim_from_eight_connections(open: &(dyn Fn() -> Box<dyn Engine + Send> + Sync)) {
    let c = me();
    let mut store = open();
    for i in 0..40 {
        add_new(&mut *store, &c, &format!("job number {i} {}", "x".repeat(i % 7)), |_| {});
    }
    let got = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for agent in 0..8 {
            let got = &got;
            s.spawn(move || {
                let mut store = open();
                let ctx = at("2026-11-30T09:00:00Z", &format!("agent-{agent}"));
                loop {
                    let filter = query::to_filter(&*store, &ListQuery::default()).expect("filter").expect("some");
                    match claims::next(&mut *store, &ctx, filter, claims::DEFAULT_LEASE, "") {
                        Ok(t) => got.lock().expect("lock").push(t.key),
                        Err(Error::NothingReady { .. }) => break,
                        Err(e) => panic!("agent-{agent}: {e}"),
                    }
                }
            });
        }
    });
    let mut got = got.into_inner().expect("lock");
    got.sort();
    let before = got.len();
    got.dedup();
    assert_eq!((before, got.len()), (40, 40), "every task once, none twice");
}

#[test]
fn next_claim_from_eight_connections_on_sqlite() {
    let (dir, _) = crate::engines::sqlite();
    let path = dir.path().join("t.db");
    next_claim_from_eight_connections(&|| Box::new(tasks_core::Store::open(&path).expect("open")));
}

#[test]
fn next_claim_from_eight_connections_on_postgres() {
    let Some(url) = crate::engines::postgres_url("port_next_claim_eight") else { return };
    next_claim_from_eight_connections(&|| Box::new(tasks_pg::PgStore::connect(&url).expect("connect")));
}
