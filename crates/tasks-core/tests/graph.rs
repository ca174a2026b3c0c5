//! Core scenarios for the task graph on a real SQLite file in a temp dir, through
//! `ops` (far cheaper than end-to-end), and the property test of issue 2: random
//! sequences of link inserts never leave a cycle in `blocked-by` / `follow-up-of`, and
//! every refused insert really would have closed one.
//!
//! On SQLite only for speed: the property test makes a fresh store per case (48
//! cases); the cycle check's SQL on PostgreSQL is covered by `port.rs`, which runs
//! the cycle and the refused-add cases on both engines.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use proptest::prelude::*;
use tasks_core::model::LinkKind;
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::link;
use tasks_core::{Context, Error, Store, graph};

fn ctx() -> Context {
    Context::new("2026-11-29T12:00:00Z".parse::<Timestamp>().expect("time"), "prop", TimeZone::UTC)
}

/// A temp store with `n` tasks T-1 … T-n (distinct titles, the check bypassed).
fn store_with(n: usize) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("t.db")).expect("open");
    let c = ctx();
    tasks_core::ops::project::add(&mut store, &c, "T", "Test", "").expect("project");
    for i in 0..n {
        let mut req = AddRequest::titled(format!("node {i} {}", "x".repeat(i)));
        req.project = Some("T".into());
        req.dup_choice = DupChoice::New;
        add::add(&mut store, &c, &req).expect("add");
    }
    (dir, store)
}

/// Returns true when `to` reaches `from` along `edges` (so from → to closes a cycle).
fn reaches(edges: &BTreeSet<(usize, usize)>, start: usize, goal: usize) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(n) = stack.pop() {
        if n == goal {
            return true;
        }
        if seen.insert(n) {
            stack.extend(edges.iter().filter(|(a, _)| *a == n).map(|(_, b)| *b));
        }
    }
    false
}

fn has_cycle(edges: &BTreeSet<(usize, usize)>) -> bool {
    edges.iter().any(|(a, b)| reaches(edges, *b, *a))
}

const NODES: usize = 7;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn link_sequences_never_leave_a_cycle(ops in prop::collection::vec((0..NODES, 0..NODES, prop::bool::ANY), 1..30)) {
        let (_dir, mut store) = store_with(NODES);
        let c = ctx();
        let mut model: BTreeMap<LinkKind, BTreeSet<(usize, usize)>> = BTreeMap::new();
        for (a, b, follow) in ops {
            let kind = if follow { LinkKind::FollowUpOf } else { LinkKind::BlockedBy };
            let edges = model.entry(kind).or_default();
            let result = link::link(&mut store, &c, &format!("T-{}", a + 1), kind, &format!("T-{}", b + 1));
            let would_cycle = a == b || reaches(edges, b, a);
            match result {
                Ok(_) => {
                    prop_assert!(!would_cycle, "accepted {a} {kind} {b} which closes a cycle");
                    edges.insert((a, b));
                }
                Err(Error::Cycle { path, .. }) => {
                    prop_assert!(would_cycle, "refused {a} {kind} {b} though no cycle: {path:?}");
                    prop_assert_eq!(path.first(), path.last());
                    prop_assert_eq!(path.first().cloned(), Some(format!("T-{}", a + 1)));
                }
                Err(Error::SelfLink { .. }) => prop_assert_eq!(a, b),
                Err(other) => prop_assert!(false, "unexpected error {other}"),
            }
        }
        // The store agrees with the model, and holds no cycle of either kind.
        for kind in [LinkKind::BlockedBy, LinkKind::FollowUpOf] {
            let stored: BTreeSet<(usize, usize)> = graph::edges(&store, kind)
                .expect("edges")
                .into_iter()
                .map(|(a, b)| (a[2..].parse::<usize>().expect("n") - 1, b[2..].parse::<usize>().expect("n") - 1))
                .collect();
            let expected = model.get(&kind).cloned().unwrap_or_default();
            prop_assert_eq!(&stored, &expected);
            prop_assert!(!has_cycle(&stored));
        }
    }
}

#[test]
fn a_cycle_error_names_the_whole_path() {
    let (_dir, mut store) = store_with(4);
    let c = ctx();
    for (a, b) in [(1, 2), (2, 3), (3, 4)] {
        link::link(&mut store, &c, &format!("T-{a}"), LinkKind::BlockedBy, &format!("T-{b}")).expect("link");
    }
    match link::link(&mut store, &c, "T-4", LinkKind::BlockedBy, "T-1") {
        Err(Error::Cycle { path, kind }) => {
            assert_eq!(kind, "blocked-by");
            assert_eq!(path, ["T-4", "T-1", "T-2", "T-3", "T-4"]);
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
}

#[test]
fn a_failed_write_leaves_nothing_behind() {
    let (_dir, mut store) = store_with(1);
    let c = ctx();
    // A bad blocker makes the whole add fail: no task, no counter step, no event.
    let mut req = AddRequest::titled("needs a missing blocker");
    req.project = Some("T".into());
    req.blocked_by = vec!["T-99".into()];
    assert!(matches!(add::add(&mut store, &c, &req), Err(Error::NotFound { .. })));
    let mut ok = AddRequest::titled("a fine task");
    ok.project = Some("T".into());
    let out = add::add(&mut store, &c, &ok).expect("add");
    assert_eq!(out.task.key, "T-2", "the refused add did not use up a number");
}
