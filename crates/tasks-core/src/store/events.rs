//! Task history: one `task_events` row per change, written in the same transaction as
//! the change itself, with the actor, a kind and the `changes` JSON.
//!
//! The `changes` payload is one typed [`EventChange`] — written and read here only,
//! with the SQL that looks inside it (`json_extract` for event triggers) beside its
//! definition — so a writer and a reader (history, unmerge, undo, event triggers) can
//! never disagree on a field's spelling. Field changes are `{field: [from, to]}`
//! ([`Change`]), as SPEC §2 describes.
//!
//! The JSON shapes are those older versions wrote, so a store keeps reading its past.

use rusqlite::{Connection, params};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Tx;
use crate::error::{Error, Result};
use crate::model::{LinkKind, Source, Status, TaskType};
use crate::store::Cached;

/// One field's value before and after a change, stored as `[from, to]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change<T>(pub T, pub T);

impl<T> Change<T> {
    /// Returns the value before the change.
    pub fn before(&self) -> &T {
        &self.0
    }

    /// Returns the value after the change.
    pub fn after(&self) -> &T {
        &self.1
    }
}

/// A due date as history keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DueValue {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// `day`, `week` or `time`.
    pub kind: crate::model::DueKind,
    /// For `time`: the moment, RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl From<crate::model::Due> for DueValue {
    fn from(d: crate::model::Due) -> Self {
        DueValue { date: d.date.to_string(), kind: d.kind, at: d.at.map(crate::time::rfc3339) }
    }
}

impl DueValue {
    /// Returns the due it records (`None` when it does not read: a hand-edited row).
    pub fn to_due(&self) -> Option<crate::model::Due> {
        let date: jiff::civil::Date = self.date.parse().ok()?;
        let at = match &self.at {
            Some(text) => Some(text.parse::<jiff::Timestamp>().ok()?.as_millisecond()),
            None => None,
        };
        Some(crate::model::Due { date, kind: self.kind, at })
    }
}

/// `created`: a task came into being.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Created {
    /// The key it got.
    pub key: String,
    /// Its title.
    pub title: String,
    /// Its project's key.
    pub project: String,
    /// Who created it.
    pub source: Source,
    /// The import line it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// `status`: the status changed, with the close reason and a lease a close ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatusChange {
    /// Status before and after.
    pub status: Change<Status>,
    /// Close reason before and after, when either has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_reason: Option<Change<Option<String>>>,
    /// The lease holder a close released.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_by: Option<Change<Option<String>>>,
}

/// `edit`: plain fields changed by `tasks edit` (only those that changed are present).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EditChange {
    /// Title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Change<String>>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Change<String>>,
    /// Priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Change<Option<u8>>>,
    /// Type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub task_type: Option<Change<TaskType>>,
    /// Project key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<Change<String>>,
    /// Person handle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<Change<Option<String>>>,
    /// Amount as `"<minor> <CUR>"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Change<Option<String>>>,
}

impl EditChange {
    /// True when no field changed.
    pub fn is_empty(&self) -> bool {
        *self == EditChange::default()
    }
}

/// `due`: the due date changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DueChange {
    /// Due before and after.
    pub due: Change<Option<DueValue>>,
}

/// `category`: the category changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryChange {
    /// Category before and after.
    pub category: Change<Option<String>>,
}

/// `claim`: a lease was taken or renewed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimChange {
    /// Holder before and after.
    pub claimed_by: Change<Option<String>>,
    /// Lease end before and after, RFC 3339.
    pub claimed_until: Change<Option<String>>,
    /// True when the holder renewed its own lease.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewal: Option<bool>,
    /// `next` when taken by `tasks next --claim`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// `release`: a lease was ended early.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReleaseChange {
    /// Holder before and after (`null`).
    pub claimed_by: Change<Option<String>>,
}

/// `link` / `unlink`: a task → task link was added or removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkChange {
    /// The link kind.
    pub kind: LinkKind,
    /// The other task's key.
    pub to: String,
}

/// `tag`: tags were added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TagChange {
    /// The tags that were new.
    pub added: Vec<String>,
}

/// `untag`: tags were removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UntagChange {
    /// The tags that were removed.
    pub removed: Vec<String>,
}

/// `merge`, on the duplicate: what unmerge must restore.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergedInto {
    /// The key it was merged into.
    pub into: String,
    /// Status before and after (`dismissed`).
    pub status: Change<Status>,
    /// Close reason before and after (`duplicate`).
    pub close_reason: Change<Option<String>>,
    /// Ids of the message links moved to the target.
    pub moved_messages: Vec<i64>,
}

/// `merge`, on the target: a duplicate was merged into it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergedFrom {
    /// The duplicate's key.
    pub from: String,
    /// How many message links moved in.
    pub moved_messages: usize,
}

/// `unmerge`, on the duplicate: it was separated again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmerged {
    /// The task it was merged into.
    pub from: String,
    /// Status before (`dismissed`) and after.
    pub status: Change<Status>,
    /// How many message links moved back.
    pub moved_messages: usize,
}

/// `unmerge`, on the former target: a duplicate was taken back out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Returned {
    /// The duplicate's key.
    pub returned: String,
}

/// `not-duplicate`: a person said two tasks are different.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotDuplicate {
    /// The other task's key.
    pub of: String,
}

/// `attach`: a new request was attached to this task instead of created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attached {
    /// The title that was not created.
    pub title: String,
    /// The message locator it came with.
    pub message: Option<String>,
}

/// `schedule`: the task's schedule was added, changed, paused, resumed or removed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScheduleChanged {
    /// Its one-line description before and after (`null` when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Change<Option<String>>>,
    /// The plan version after an add or change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_version: Option<i64>,
    /// Paused before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<Change<bool>>,
}

/// `note` / `note-removed`: a note was added to the task, or taken back (by undo).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteChange {
    /// The note's id.
    pub note: i64,
    /// Its text.
    pub text: String,
}

/// What one history row records: its kind and its typed payload.
#[derive(Debug, Clone, PartialEq)]
pub enum EventChange {
    /// `created`.
    Created(Created),
    /// `status`.
    Status(StatusChange),
    /// `edit`.
    Edit(EditChange),
    /// `due`.
    Due(DueChange),
    /// `category`.
    Category(CategoryChange),
    /// `claim`.
    Claim(ClaimChange),
    /// `release`.
    Release(ReleaseChange),
    /// `link`.
    Link(LinkChange),
    /// `unlink`.
    Unlink(LinkChange),
    /// `tag`.
    Tag(TagChange),
    /// `untag`.
    Untag(UntagChange),
    /// `merge` on the duplicate.
    MergedInto(MergedInto),
    /// `merge` on the target.
    MergedFrom(MergedFrom),
    /// `unmerge` on the duplicate.
    Unmerged(Unmerged),
    /// `unmerge` on the former target.
    Returned(Returned),
    /// `not-duplicate`.
    NotDuplicate(NotDuplicate),
    /// `attach`.
    Attached(Attached),
    /// `schedule`.
    Schedule(ScheduleChanged),
    /// `note`.
    NoteAdded(NoteChange),
    /// `note-removed`.
    NoteRemoved(NoteChange),
}

impl EventChange {
    /// Returns the stored kind (`task_events.kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            EventChange::Created(_) => "created",
            EventChange::Status(_) => "status",
            EventChange::Edit(_) => "edit",
            EventChange::Due(_) => "due",
            EventChange::Category(_) => "category",
            EventChange::Claim(_) => "claim",
            EventChange::Release(_) => "release",
            EventChange::Link(_) => "link",
            EventChange::Unlink(_) => "unlink",
            EventChange::Tag(_) => "tag",
            EventChange::Untag(_) => "untag",
            EventChange::MergedInto(_) | EventChange::MergedFrom(_) => "merge",
            EventChange::Unmerged(_) | EventChange::Returned(_) => "unmerge",
            EventChange::NotDuplicate(_) => "not-duplicate",
            EventChange::Attached(_) => "attach",
            EventChange::Schedule(_) => "schedule",
            EventChange::NoteAdded(_) => "note",
            EventChange::NoteRemoved(_) => "note-removed",
        }
    }

    /// Returns the payload as JSON (keys sorted, as stored).
    pub fn to_json(&self) -> Value {
        // Every payload is a struct of strings, numbers, booleans and lists: turning
        // one into a JSON value cannot fail.
        let value = match self {
            EventChange::Created(c) => serde_json::to_value(c),
            EventChange::Status(c) => serde_json::to_value(c),
            EventChange::Edit(c) => serde_json::to_value(c),
            EventChange::Due(c) => serde_json::to_value(c),
            EventChange::Category(c) => serde_json::to_value(c),
            EventChange::Claim(c) => serde_json::to_value(c),
            EventChange::Release(c) => serde_json::to_value(c),
            EventChange::Link(c) | EventChange::Unlink(c) => serde_json::to_value(c),
            EventChange::Tag(c) => serde_json::to_value(c),
            EventChange::Untag(c) => serde_json::to_value(c),
            EventChange::MergedInto(c) => serde_json::to_value(c),
            EventChange::MergedFrom(c) => serde_json::to_value(c),
            EventChange::Unmerged(c) => serde_json::to_value(c),
            EventChange::Returned(c) => serde_json::to_value(c),
            EventChange::NotDuplicate(c) => serde_json::to_value(c),
            EventChange::Attached(c) => serde_json::to_value(c),
            EventChange::Schedule(c) => serde_json::to_value(c),
            EventChange::NoteAdded(c) | EventChange::NoteRemoved(c) => serde_json::to_value(c),
        };
        value.expect("event payloads are plain structs")
    }

    /// Reads a stored row's kind and payload.
    ///
    /// `merge` and `unmerge` rows come in two shapes (the duplicate's side and the
    /// target's), told apart by the field only one of them has.
    pub fn from_stored(kind: &str, changes: &str) -> Result<EventChange> {
        let value: Value = serde_json::from_str(changes)?;
        fn read<T: DeserializeOwned>(v: Value) -> Result<T> {
            Ok(serde_json::from_value(v)?)
        }
        Ok(match kind {
            "created" => EventChange::Created(read(value)?),
            "status" => EventChange::Status(read(value)?),
            "edit" => EventChange::Edit(read(value)?),
            "due" => EventChange::Due(read(value)?),
            "category" => EventChange::Category(read(value)?),
            "claim" => EventChange::Claim(read(value)?),
            "release" => EventChange::Release(read(value)?),
            "link" => EventChange::Link(read(value)?),
            "unlink" => EventChange::Unlink(read(value)?),
            "tag" => EventChange::Tag(read(value)?),
            "untag" => EventChange::Untag(read(value)?),
            "merge" if value.get("into").is_some() => EventChange::MergedInto(read(value)?),
            "merge" => EventChange::MergedFrom(read(value)?),
            "unmerge" if value.get("returned").is_some() => EventChange::Returned(read(value)?),
            "unmerge" => EventChange::Unmerged(read(value)?),
            "not-duplicate" => EventChange::NotDuplicate(read(value)?),
            "attach" => EventChange::Attached(read(value)?),
            "schedule" => EventChange::Schedule(read(value)?),
            "note" => EventChange::NoteAdded(read(value)?),
            "note-removed" => EventChange::NoteRemoved(read(value)?),
            other => {
                return Err(Error::invalid("task_events.kind", other, "not an event kind this version of tasks knows"));
            }
        })
    }
}

impl EventChange {
    /// Says what the change did, as a sentence's predicate whose subject is the actor
    /// ("marked it done", "claimed it until …"). `when` formats the RFC 3339 times it
    /// mentions (the CLI shows them in the person's zone).
    pub fn summary(&self, when: &dyn Fn(&str) -> String) -> String {
        fn cut(text: &str) -> String {
            let short: String = text.chars().take(60).collect();
            if short.len() < text.len() { format!("{short}…") } else { short }
        }
        let due = |d: &Option<DueValue>| match d {
            Some(DueValue { at: Some(at), .. }) => when(at),
            Some(DueValue { date, kind: crate::model::DueKind::Week, .. }) => format!("the week ending {date}"),
            Some(DueValue { date, .. }) => date.clone(),
            None => "none".to_string(),
        };
        match self {
            EventChange::Created(c) => format!("created it in {}", c.project),
            EventChange::Status(s) => match (s.status.0, s.status.1) {
                (_, Status::Done) => "marked it done".to_string(),
                (_, Status::Dismissed) => match s.close_reason.as_ref().and_then(|c| c.1.as_deref()) {
                    Some(reason) => format!("dismissed it ({reason})"),
                    None => "dismissed it".to_string(),
                },
                (from, Status::Open) if from.is_closed() => "reopened it".to_string(),
                (_, Status::Open) => "stopped it".to_string(),
                (_, Status::InProgress) => "started it".to_string(),
            },
            EventChange::Edit(e) => {
                let mut parts = Vec::new();
                if let Some(t) = &e.title {
                    parts.push(format!("renamed it to \"{}\"", cut(&t.1)));
                }
                if e.description.is_some() {
                    parts.push("changed its description".to_string());
                }
                if let Some(p) = &e.priority {
                    parts.push(match p.1 {
                        Some(p) => format!("set its priority to {p}"),
                        None => "cleared its priority".to_string(),
                    });
                }
                if let Some(t) = &e.task_type {
                    parts.push(format!("made it a {}", t.1));
                }
                if let Some(p) = &e.project {
                    parts.push(format!("moved it to {}", p.1));
                }
                if let Some(p) = &e.person {
                    parts.push(match &p.1 {
                        Some(p) => format!("set its person to {p}"),
                        None => "cleared its person".to_string(),
                    });
                }
                if let Some(a) = &e.amount {
                    parts.push(match &a.1 {
                        Some(a) => format!("set its amount to {a}"),
                        None => "cleared its amount".to_string(),
                    });
                }
                if parts.is_empty() { "edited it".to_string() } else { parts.join(", ") }
            }
            EventChange::Due(d) => match &d.due.1 {
                Some(_) => format!("set it due {} (was {})", due(&d.due.1), due(&d.due.0)),
                None => format!("cleared its due (was {})", due(&d.due.0)),
            },
            EventChange::Category(c) => match &c.category.1 {
                Some(cat) => format!("set its category to {cat}"),
                None => "cleared its category".to_string(),
            },
            EventChange::Claim(c) => {
                let until = c.claimed_until.1.as_deref().map(when).unwrap_or_default();
                match (&c.claimed_by.1, c.renewal) {
                    (None, _) => "released it".to_string(),
                    (Some(_), Some(true)) => format!("renewed its claim until {until}"),
                    (Some(_), _) => format!("claimed it until {until}"),
                }
            }
            EventChange::Release(_) => "released it".to_string(),
            EventChange::Link(l) => format!("linked it {} {}", l.kind, l.to),
            EventChange::Unlink(l) => format!("removed its link {} {}", l.kind, l.to),
            EventChange::Tag(t) => format!("tagged it {}", t.added.join(", ")),
            EventChange::Untag(t) => format!("untagged {}", t.removed.join(", ")),
            EventChange::MergedInto(m) => format!("merged it into {}", m.into),
            EventChange::MergedFrom(m) => format!("merged {} into it", m.from),
            EventChange::Unmerged(u) => format!("unmerged it from {}", u.from),
            EventChange::Returned(r) => format!("took {} back out of it", r.returned),
            EventChange::NotDuplicate(n) => format!("marked it not a duplicate of {}", n.of),
            EventChange::Attached(a) => format!("attached \"{}\" to it", cut(&a.title)),
            EventChange::Schedule(sc) => match sc.schedule.as_ref().map(|c| &c.1) {
                Some(Some(text)) => format!("scheduled it: {text}"),
                Some(None) => "removed its schedule".to_string(),
                None => match sc.paused.as_ref().map(|p| p.1) {
                    Some(true) => "paused its schedule".to_string(),
                    Some(false) => "resumed its schedule".to_string(),
                    None => "changed its schedule".to_string(),
                },
            },
            EventChange::NoteAdded(n) => format!("noted \"{}\"", cut(&n.text)),
            EventChange::NoteRemoved(n) => format!("removed the note \"{}\"", cut(&n.text)),
        }
    }
}

/// One history row.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Row id, increasing.
    pub id: i64,
    /// When, epoch ms.
    pub at: i64,
    /// Who.
    pub actor: String,
    /// What changed.
    pub change: EventChange,
    /// Whether it was written by an undo (it reverts an earlier change).
    pub by_undo: bool,
}

/// Appends an event row, in the transaction's operation.
pub(crate) fn record(tx: &Tx<'_>, task_id: i64, at: i64, actor: &str, change: &EventChange) -> Result<()> {
    let op = tx.operation(at, actor)?;
    tx.exec_cached(
        "INSERT INTO task_events (task_id, at, actor, kind, changes, op_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![task_id, at, actor, change.kind(), change.to_json().to_string(), op],
    )?;
    Ok(())
}

/// The columns an [`Event`] is read from (with `task_id` first), for `e`.
pub(crate) const EVENT_COLUMNS: &str = "e.task_id, e.id, e.at, e.actor, e.kind, e.changes,
    (SELECT o.undoes IS NOT NULL FROM operations o WHERE o.id = e.op_id)";

/// Reads a row of [`EVENT_COLUMNS`]: the task id and the event.
pub(crate) fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, i64, i64, String, String, String, bool)> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get::<_, Option<bool>>(6)?.unwrap_or(false),
    ))
}

/// Reads the rows of a query selecting [`EVENT_COLUMNS`]: (task id, event).
pub(crate) fn read_events(
    stmt: &mut rusqlite::CachedStatement<'_>,
    args: impl rusqlite::Params,
) -> Result<Vec<(i64, Event)>> {
    let rows = stmt.query_map(args, read_row)?;
    let mut out = Vec::new();
    for row in rows {
        let (task_id, id, at, actor, kind, changes, by_undo) = row?;
        out.push((task_id, Event { id, at, actor, change: EventChange::from_stored(&kind, &changes)?, by_undo }));
    }
    Ok(out)
}

/// Reads a task's history, oldest first.
pub(crate) fn for_task(conn: &Connection, task_id: i64) -> Result<Vec<Event>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {EVENT_COLUMNS} FROM task_events e WHERE e.task_id = ?1 ORDER BY e.id"))?;
    Ok(read_events(&mut stmt, [task_id])?.into_iter().map(|(_, e)| e).collect())
}

/// A task turning `done`, read from its history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completion {
    /// The `task_events` row id.
    pub event_id: i64,
    /// The task.
    pub task_id: i64,
    /// When, epoch ms.
    pub at: i64,
}

/// Returns status changes to `done` after the cursor, oldest first, at most `limit`
/// (the `task.completed` event trigger's source).
///
/// Reads [`StatusChange::status`]'s "after" value in SQL: `$.status[1]` is
/// `Change.1` of a `status` row.
pub(crate) fn completions_after(conn: &Connection, cursor: i64, limit: usize) -> Result<Vec<Completion>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, task_id, at FROM task_events
         WHERE id > ?1 AND kind = 'status' AND json_extract(changes, '$.status[1]') = 'done'
         ORDER BY id LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![cursor, limit as i64], |r| {
        Ok(Completion { event_id: r.get(0)?, task_id: r.get(1)?, at: r.get(2)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DueKind;
    use crate::store::Store;

    /// A store with tasks 1..=n (events need a task to belong to).
    fn store_with_tasks(dir: &std::path::Path, n: usize) -> Store {
        let mut store = Store::open(&dir.join("t.db")).expect("store");
        for i in 0..n {
            crate::fixtures::add_task(&mut store, 0, &format!("task number {i}"));
        }
        store
    }

    fn some<T>(a: T, b: T) -> Option<Change<T>> {
        Some(Change(a, b))
    }

    /// One change of every kind, and both shapes of merge and unmerge.
    fn every_kind() -> Vec<EventChange> {
        let s = |x: &str| Some(x.to_string());
        vec![
            EventChange::Created(Created {
                key: "HRB-1".into(),
                title: "Write".into(),
                project: "HRB".into(),
                source: Source::Import,
                line: Some(3),
            }),
            EventChange::Status(StatusChange {
                status: Change(Status::InProgress, Status::Done),
                close_reason: None,
                claimed_by: some(s("agent-7"), None),
            }),
            EventChange::Edit(EditChange {
                title: some("a".into(), "b".into()),
                priority: some(None, Some(1)),
                task_type: some(TaskType::Task, TaskType::Bug),
                amount: some(None, s("150000 RUB")),
                ..EditChange::default()
            }),
            EventChange::Due(DueChange {
                due: Change(None, Some(DueValue { date: "2026-12-04".into(), kind: DueKind::Week, at: None })),
            }),
            EventChange::Category(CategoryChange { category: Change(s("home"), None) }),
            EventChange::Claim(ClaimChange {
                claimed_by: Change(None, s("agent-7")),
                claimed_until: Change(None, s("2026-12-01T10:30:00Z")),
                renewal: Some(false),
                via: s("next"),
            }),
            EventChange::Release(ReleaseChange { claimed_by: Change(s("agent-7"), None) }),
            EventChange::Link(LinkChange { kind: LinkKind::BlockedBy, to: "HRB-2".into() }),
            EventChange::Unlink(LinkChange { kind: LinkKind::RelatedTo, to: "HRB-3".into() }),
            EventChange::Tag(TagChange { added: vec!["x".into()] }),
            EventChange::Untag(UntagChange { removed: vec!["y".into()] }),
            EventChange::MergedInto(MergedInto {
                into: "HRB-1".into(),
                status: Change(Status::Open, Status::Dismissed),
                close_reason: Change(None, s("duplicate")),
                moved_messages: vec![4, 5],
            }),
            EventChange::MergedFrom(MergedFrom { from: "HRB-9".into(), moved_messages: 2 }),
            EventChange::Unmerged(Unmerged {
                from: "HRB-1".into(),
                status: Change(Status::Dismissed, Status::Open),
                moved_messages: 2,
            }),
            EventChange::Returned(Returned { returned: "HRB-9".into() }),
            EventChange::NotDuplicate(NotDuplicate { of: "HRB-4".into() }),
            EventChange::Attached(Attached { title: "Send it".into(), message: None }),
            EventChange::Schedule(ScheduleChanged { paused: some(false, true), ..ScheduleChanged::default() }),
        ]
    }

    #[test]
    fn every_kind_written_is_read_back() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_tasks(dir.path(), 2);
        let changes = every_kind();
        store
            .write(|tx| {
                for (i, c) in changes.iter().enumerate() {
                    record(tx, 2, i as i64, "me", c)?;
                }
                Ok(())
            })
            .expect("write");
        let read: Vec<EventChange> = for_task(store.conn(), 2).expect("read").into_iter().map(|e| e.change).collect();
        // Task 2's own `created` event comes first.
        assert!(matches!(read[0], EventChange::Created(_)));
        assert_eq!(read[1..], changes[..]);
    }

    #[test]
    fn the_stored_shapes_are_the_documented_ones() {
        let status = EventChange::Status(StatusChange {
            status: Change(Status::Open, Status::Done),
            close_reason: None,
            claimed_by: None,
        });
        assert_eq!(status.to_json().to_string(), r#"{"status":["open","done"]}"#);
        let merge = EventChange::from_stored("merge", r#"{"from":"HRB-2","moved_messages":0}"#).expect("read");
        assert!(matches!(merge, EventChange::MergedFrom(_)));
        assert!(EventChange::from_stored("teleport", "{}").is_err());
        assert!(EventChange::from_stored("status", r#"{"status":["open","flying"]}"#).is_err());
    }

    #[test]
    fn completions_read_the_status_field_the_change_writes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = store_with_tasks(dir.path(), 3);
        store
            .write(|tx| {
                for (task, to) in [(1, Status::Done), (2, Status::Dismissed), (3, Status::Done)] {
                    let c = StatusChange { status: Change(Status::Open, to), close_reason: None, claimed_by: None };
                    record(tx, task, 10, "me", &EventChange::Status(c))?;
                }
                Ok(())
            })
            .expect("write");
        let done: Vec<i64> = completions_after(store.conn(), 0, 10).expect("read").iter().map(|c| c.task_id).collect();
        assert_eq!(done, vec![1, 3]);
    }
}
