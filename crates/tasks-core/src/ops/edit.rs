//! `tasks edit`: change fields of a task, one event per kind of change (`edit`, `due`,
//! `category`), and the search index when the text changes — one transaction.
//!
//! Moving a task to another project keeps its key: a key quoted in a chat or a commit
//! must keep meaning the same task (docs/decisions.md).

use crate::error::Result;
use crate::keys;
use crate::model::{Due, Money, Task, TaskType};
use crate::ops::checks::{check_description, check_name, check_priority, check_title};
use crate::ops::{Context, project};
use crate::port::{Engine, Writes};
use crate::store::events::{CategoryChange, Change, DueChange, DueValue, EditChange, EventChange};
use crate::store::tasks::Column;

/// A field to set, or to clear (`Some(None)`).
#[derive(Debug, Clone, Default)]
pub struct EditRequest {
    /// New title.
    pub title: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// New due date, or clear it.
    pub due: Option<Option<Due>>,
    /// New priority, or clear it.
    pub priority: Option<Option<u8>>,
    /// Move to this project (key; `INBOX` for the inbox).
    pub project: Option<String>,
    /// New category, or clear it.
    pub category: Option<Option<String>>,
    /// New person, or clear it.
    pub person: Option<Option<String>>,
    /// New amount, or clear it.
    pub amount: Option<Option<Money>>,
    /// New type.
    pub task_type: Option<TaskType>,
    /// Edit even when another actor holds the task's lease.
    pub force: bool,
}

impl EditRequest {
    /// Returns true when the request changes nothing.
    pub fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.description.is_none()
            && self.due.is_none()
            && self.priority.is_none()
            && self.project.is_none()
            && self.category.is_none()
            && self.person.is_none()
            && self.amount.is_none()
            && self.task_type.is_none()
    }
}

/// Applies an edit; returns the task after it.
pub fn edit(store: &mut dyn Engine, ctx: &Context, reference: &str, req: &EditRequest) -> Result<Task> {
    check(req)?;
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        crate::ops::status::guard(&tx.task(id)?, ctx, req.force, false)?;
        edit_in(tx, ctx, id, req)
    })
}

/// Checks the values of an edit against the limits.
pub fn check(req: &EditRequest) -> Result<()> {
    if let Some(t) = &req.title {
        check_title(t)?;
    }
    if let Some(d) = &req.description {
        check_description(d)?;
    }
    for (field, value) in [("category", &req.category), ("person", &req.person)] {
        if let Some(Some(v)) = value {
            check_name(field, v)?;
        }
    }
    if let Some(p) = &req.project {
        check_name("project", p)?;
    }
    if let Some(p) = req.priority {
        check_priority(p)?;
    }
    Ok(())
}

/// Runs an edit and rolls it back: the task as it would be (`--dry-run`).
pub fn rehearse(store: &mut dyn Engine, ctx: &Context, reference: &str, req: &EditRequest) -> Result<Task> {
    check(req)?;
    store.rehearse(|tx| {
        let id = keys::resolve(tx, reference)?;
        crate::ops::status::guard(&tx.task(id)?, ctx, req.force, false)?;
        edit_in(tx, ctx, id, req)
    })
}

/// Applies an edit inside the caller's transaction (checked values).
pub(crate) fn edit_in(tx: &dyn Writes, ctx: &Context, id: i64, req: &EditRequest) -> Result<Task> {
    let now = ctx.now_ms();
    // A new text re-indexes the task and moves the check's document frequencies: as
    // for an add, no checked write may interleave.
    tx.lock_checked_writes()?;
    {
        let before = tx.task(id)?;
        let mut edit = EditChange::default();
        if let Some(t) = req.title.as_deref().filter(|t| *t != before.title) {
            tx.set_task_column(id, Column::Title(t), now)?;
            edit.title = Some(Change(before.title.clone(), t.to_string()));
        }
        if let Some(d) = req.description.as_deref().filter(|d| *d != before.description) {
            tx.set_task_column(id, Column::Description(d), now)?;
            edit.description = Some(Change(before.description.clone(), d.to_string()));
        }
        if let Some(p) = req.priority.filter(|p| *p != before.priority) {
            tx.set_task_column(id, Column::Priority(p), now)?;
            edit.priority = Some(Change(before.priority, p));
        }
        if let Some(ty) = req.task_type.filter(|t| *t != before.task_type) {
            tx.set_task_column(id, Column::TaskType(ty), now)?;
            edit.task_type = Some(Change(before.task_type, ty));
        }
        if let Some(key) = &req.project {
            let p = project::resolve_or_inbox(tx, Some(key), now)?;
            if p.key != before.project {
                tx.set_task_column(id, Column::ProjectId(p.id), now)?;
                edit.project = Some(Change(before.project.clone(), p.key.clone()));
            }
        }
        if let Some(person) = &req.person {
            let pid = person.as_deref().map(|h| tx.person_id_or_create(h, now)).transpose()?;
            tx.set_task_column(id, Column::PersonId(pid), now)?;
            edit.person = Some(Change(before.person.clone(), person.clone()));
        }
        if let Some(amount) = &req.amount
            && *amount != before.amount
        {
            tx.set_task_column(id, Column::Amount(amount.as_ref()), now)?;
            let show = |m: &Option<Money>| m.as_ref().map(|m| format!("{} {}", m.minor, m.currency));
            edit.amount = Some(Change(show(&before.amount), show(amount)));
        }
        if !edit.is_empty() {
            tx.record_event(id, now, &ctx.actor, &EventChange::Edit(edit))?;
        }
        if let Some(due) = req.due.filter(|d| *d != before.due) {
            tx.set_task_column(id, Column::Due(due), now)?;
            let due_change = DueChange { due: Change(before.due.map(DueValue::from), due.map(DueValue::from)) };
            tx.record_event(id, now, &ctx.actor, &EventChange::Due(due_change))?;
        }
        if let Some(cat) = req.category.as_ref().filter(|c| **c != before.category) {
            tx.set_task_column(id, Column::Category(cat.as_deref()), now)?;
            let category = Change(before.category.clone(), cat.clone());
            tx.record_event(id, now, &ctx.actor, &EventChange::Category(CategoryChange { category }))?;
        }
        // Text, amount or due may have changed: keep the check's index and signature in step.
        tx.index_task(id)?;
        tx.task(id)
    }
}
