//! `tasks edit`: change fields of a task, one event per kind of change (`edit`, `due`,
//! `category`), and the search index when the text changes — one transaction.
//!
//! Moving a task to another project keeps its key: a key quoted in a chat or a commit
//! must keep meaning the same task (docs/decisions.md).

use serde_json::{Map, Value, json};

use crate::dedup;
use crate::error::Result;
use crate::keys;
use crate::model::{Due, Money, Task, TaskType};
use crate::ops::add::{check_priority, check_title};
use crate::ops::{Context, project};
use crate::store::tasks::{self as task_rows, Column};
use crate::store::{Store, events, persons};

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

fn due_json(due: Option<Due>) -> Value {
    due.map(|d| json!({ "date": d.date.to_string(), "kind": d.kind.as_str() })).unwrap_or(Value::Null)
}

/// Applies an edit; returns the task after it.
pub fn edit(store: &mut Store, ctx: &Context, reference: &str, req: &EditRequest) -> Result<Task> {
    if let Some(t) = &req.title {
        check_title(t)?;
    }
    if let Some(p) = req.priority {
        check_priority(p)?;
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        let before = task_rows::get(tx, id)?;
        let mut edit = Map::new();
        if let Some(t) = req.title.as_deref().filter(|t| *t != before.title) {
            task_rows::set_column(tx, id, Column::Title(t), now)?;
            edit.insert("title".into(), json!([before.title, t]));
        }
        if let Some(d) = req.description.as_deref().filter(|d| *d != before.description) {
            task_rows::set_column(tx, id, Column::Description(d), now)?;
            edit.insert("description".into(), json!([before.description, d]));
        }
        if let Some(p) = req.priority.filter(|p| *p != before.priority) {
            task_rows::set_column(tx, id, Column::Priority(p), now)?;
            edit.insert("priority".into(), json!([before.priority, p]));
        }
        if let Some(ty) = req.task_type.filter(|t| *t != before.task_type) {
            task_rows::set_column(tx, id, Column::TaskType(ty), now)?;
            edit.insert("type".into(), json!([before.task_type.as_str(), ty.as_str()]));
        }
        if let Some(key) = &req.project {
            let p = project::resolve_or_inbox(tx, Some(key), now)?;
            if p.key != before.project {
                task_rows::set_column(tx, id, Column::ProjectId(p.id), now)?;
                edit.insert("project".into(), json!([before.project, p.key]));
            }
        }
        if let Some(person) = &req.person {
            let pid = person.as_deref().map(|h| persons::resolve_or_create(tx, h, now)).transpose()?;
            task_rows::set_column(tx, id, Column::PersonId(pid), now)?;
            edit.insert("person".into(), json!([before.person, person]));
        }
        if let Some(amount) = &req.amount
            && *amount != before.amount
        {
            task_rows::set_column(tx, id, Column::Amount(amount.as_ref()), now)?;
            let show = |m: &Option<Money>| m.as_ref().map(|m| format!("{} {}", m.minor, m.currency));
            edit.insert("amount".into(), json!([show(&before.amount), show(amount)]));
        }
        if !edit.is_empty() {
            events::record(tx, id, now, &ctx.actor, "edit", &Value::Object(edit.clone()))?;
        }
        if let Some(due) = req.due.filter(|d| *d != before.due) {
            task_rows::set_column(tx, id, Column::Due(due), now)?;
            events::record(tx, id, now, &ctx.actor, "due", &json!({ "due": [due_json(before.due), due_json(due)] }))?;
        }
        if let Some(cat) = req.category.as_ref().filter(|c| **c != before.category) {
            task_rows::set_column(tx, id, Column::Category(cat.as_deref()), now)?;
            events::record(tx, id, now, &ctx.actor, "category", &json!({ "category": [before.category, cat] }))?;
        }
        // Text, amount or due may have changed: keep the check's index and signature in step.
        dedup::index(tx, id)?;
        task_rows::get(tx, id)
    })
}
