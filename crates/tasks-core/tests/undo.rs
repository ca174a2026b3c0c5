//! `ops::undo` on a real store: every field an edit can change comes back; a time due
//! comes back as a time; an undo is itself never undone by the next one; a later change
//! by someone else blocks it. On both engines.

use jiff::Timestamp;
use tasks_core::model::{DueKind, TaskType};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::edit::{self, EditRequest};
use tasks_core::ops::{project, query, undo};
use tasks_core::port::Engine;
use tasks_core::{Context, Error, claims, input};

fn ctx(actor: &str) -> Context {
    Context::new(
        "2026-11-30T09:00:00Z".parse::<Timestamp>().expect("instant"),
        actor,
        jiff::tz::TimeZone::get("Europe/Berlin").expect("zone"),
    )
}

on_both_engines! {
fn every_edited_field_comes_back(store) {
    let me = ctx("me");
    project::add(store, &me, "WORK", "Work", "").expect("project");
    let mut req = AddRequest::titled("Send the invoice");
    req.dup_choice = DupChoice::New;
    req.due = Some(input::parse_due_at("tomorrow 15:00", &me).expect("due"));
    req.amount = Some(input::parse_amount("1200 EUR").expect("amount"));
    req.person = Some("@acme".into());
    req.category = Some("money".into());
    let key = add::add(store, &me, &req).expect("add").task.key;
    let before = query::get(store, &key).expect("get");
    assert_eq!(before.due.map(|d| d.kind), Some(DueKind::Time));
    let change = EditRequest {
        title: Some("Send the corrected invoice".into()),
        description: Some("with VAT".into()),
        due: Some(None),
        priority: Some(Some(0)),
        project: Some("WORK".into()),
        category: Some(None),
        person: Some(Some("@other".into())),
        amount: Some(Some(input::parse_amount("1500 EUR").expect("amount"))),
        task_type: Some(TaskType::Chore),
        force: false,
    };
    edit::edit(store, &me, &key, &change).expect("edit");
    let out = undo::undo(store, &me).expect("undo");
    assert_eq!(out.reverted.len(), 3, "edit, due and category are three events of one change: {:?}", out.reverted);
    let after = query::get(store, &key).expect("get");
    assert_eq!(
        (
            &after.title,
            &after.description,
            after.due,
            after.priority,
            &after.project,
            &after.category,
            &after.person,
            &after.amount,
            after.task_type
        ),
        (
            &before.title,
            &before.description,
            before.due,
            before.priority,
            &before.project,
            &before.category,
            &before.person,
            &before.amount,
            before.task_type
        )
    );
}

fn undo_walks_back_and_respects_others(store) {
    let (me, agent) = (ctx("me"), ctx("agent-7"));
    let add = |store: &mut dyn Engine, title: &str| {
        let mut req = AddRequest::titled(title);
        req.dup_choice = DupChoice::New;
        add::add(store, &me, &req).expect("add").task.key
    };
    let a = add(store, "First");
    let b = add(store, "Second");
    // The newest change first, then the one before it.
    assert_eq!(undo::undo(store, &me).expect("undo").reverted[0].key, b);
    assert_eq!(undo::undo(store, &me).expect("undo").reverted[0].key, a);
    assert!(matches!(undo::undo(store, &me), Err(Error::NothingToUndo { .. })));
    // Someone else's later claim blocks my undo of the task they hold.
    let c = add(store, "Third");
    claims::claim(store, &agent, &c, claims::DEFAULT_LEASE).expect("claim");
    match undo::undo(store, &me) {
        Err(Error::UndoBlocked { key, by, .. }) => assert_eq!((key.as_str(), by.as_str()), (c.as_str(), "agent-7")),
        other => panic!("{other:?}"),
    }
    assert_eq!(query::get(store, &c).expect("get").status.as_str(), "open", "nothing written");
}
}
