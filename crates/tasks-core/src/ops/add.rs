//! `tasks add`: checks, the exact match, the duplicate check, then one insert with its
//! key, links, tags, message, event and index rows — all in one transaction.

use crate::dedup::{self, Band, Candidate, Decision, Probe};
use crate::error::{Error, Result};
use crate::graph;
use crate::keys::{self, MessageLocator};
use crate::model::{Due, LinkKind, Money, ProjectKind, Source, Status, Task, TaskType};
pub use crate::ops::checks::{check_description, check_name, check_priority, check_tag, check_tags, check_title};
use crate::ops::{Context, project};
use crate::port::{Engine, Reads, Writes};
use crate::store::events::{Attached, Created, EventChange};
use crate::store::tasks as task_rows;
use crate::time;

/// What to do about duplicate candidates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DupChoice {
    /// Refuse when a candidate is possible or likely (the default).
    #[default]
    Check,
    /// The caller saw the candidates and wants a new task anyway (`--new`).
    New,
    /// Do not create: attach the source to this existing task (`--attach`).
    Attach(String),
}

/// A request to add a task. No `Default`: the caller decides every field it sets.
#[derive(Debug, Clone)]
pub struct AddRequest {
    /// Title, kept byte for byte.
    pub title: String,
    /// Project key; `None` files it in the inbox.
    pub project: Option<String>,
    /// Type.
    pub task_type: TaskType,
    /// Description.
    pub description: String,
    /// Due date.
    pub due: Option<Due>,
    /// Priority 0–4.
    pub priority: Option<u8>,
    /// Category.
    pub category: Option<String>,
    /// Person handle.
    pub person: Option<String>,
    /// Money.
    pub amount: Option<Money>,
    /// Tags.
    pub tags: Vec<String>,
    /// Source message locator (`msg:…`).
    pub source_message: Option<String>,
    /// The rule that made the task from the message.
    pub rule: Option<String>,
    /// Tasks this one is blocked by.
    pub blocked_by: Vec<String>,
    /// Duplicate handling.
    pub dup_choice: DupChoice,
    /// Who creates it (owner or agent).
    pub origin: Source,
}

impl AddRequest {
    /// Builds a request for a plain task with this title, everything else empty.
    pub fn titled(title: impl Into<String>) -> AddRequest {
        AddRequest {
            title: title.into(),
            project: None,
            task_type: TaskType::Task,
            description: String::new(),
            due: None,
            priority: None,
            category: None,
            person: None,
            amount: None,
            tags: Vec::new(),
            source_message: None,
            rule: None,
            blocked_by: Vec::new(),
            dup_choice: DupChoice::Check,
            origin: Source::Owner,
        }
    }
}

/// Why an existing task answered instead of a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactMatch {
    /// The rule.
    pub rule: String,
    /// The message locator.
    pub message: String,
}

/// The outcome of `add`.
#[derive(Debug, Clone)]
pub struct AddOutcome {
    /// The created task, or the existing one (exact match, attach).
    pub task: Task,
    /// True when a new task was written.
    pub created: bool,
    /// Set when `--attach` attached the source to an existing task.
    pub attached_to: Option<String>,
    /// Candidates the check found (possible and likely), best first.
    pub candidates: Vec<Candidate>,
    /// Set when the same rule on the same message made a task before.
    pub exact_match: Option<ExactMatch>,
    /// True when candidates were queued for review instead of refusing (rule-created).
    pub queued_for_review: bool,
    /// True when `--attach` reopened a closed task.
    pub reopened: bool,
    /// The fields `--attach` set on the task, which it did not have.
    pub filled: Vec<&'static str>,
}

/// Adds a task (SPEC §10 `tasks add`), or refuses a probable duplicate.
pub fn add(store: &mut dyn Engine, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    store.write(|tx| add_in(tx, ctx, req))
}

/// Runs `add` and rolls it back: what would happen, with nothing written (`--dry-run`).
pub fn rehearse(store: &mut dyn Engine, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    store.rehearse(|tx| add_in(tx, ctx, req))
}

/// Checks every text field of a request against the limits of [`crate::limits`] — the
/// first step of every write path (CLI, MCP, chat, import), before any lock is taken
/// for long.
pub fn check_request(req: &AddRequest) -> Result<()> {
    check_title(&req.title)?;
    check_description(&req.description)?;
    check_priority(req.priority)?;
    check_tags(&req.tags)?;
    if let Some(c) = &req.category {
        check_name("category", c)?;
    }
    if let Some(p) = &req.person {
        check_name("person", p)?;
    }
    if let Some(p) = &req.project {
        check_name("project", p)?;
    }
    Ok(())
}

/// The duplicate check as `add` runs it and `tasks check` shows it: every candidate
/// scored for the request, best first, in every band.
///
/// A task the new one is declared to wait for (`blockers`) is, by that declaration,
/// another task: "Test the login screen --blocked-by HRB-1" is never a duplicate of
/// HRB-1 "Write the login screen".
pub(crate) fn scored_candidates(
    conn: &dyn Reads,
    req: &AddRequest,
    person_id: Option<i64>,
    chat: Option<&str>,
    blockers: &[i64],
    at_ms: i64,
) -> Result<Vec<Candidate>> {
    let probe = Probe {
        title: &req.title,
        description: &req.description,
        person_id,
        amount: req.amount.as_ref(),
        due: req.due,
        category: req.category.as_deref(),
        chat,
        reply_to_id: None,
        at_ms,
    };
    Ok(dedup::check_in(conn, &probe, 0)?.into_iter().filter(|c| !blockers.contains(&c.task_id)).collect())
}

/// What every path of `add` reads first: the request checked, its person and its
/// source message resolved.
struct Prepared {
    locator: Option<MessageLocator>,
    person_id: Option<i64>,
    message_id: Option<i64>,
}

fn prepare(tx: &dyn Writes, req: &AddRequest, now: i64) -> Result<Prepared> {
    check_request(req)?;
    let locator = req.source_message.as_deref().map(MessageLocator::parse).transpose()?;
    if req.rule.is_some() && locator.is_none() {
        return Err(Error::invalid("rule", req.rule.clone().unwrap_or_default(), "--rule needs --source msg:…"));
    }
    let person_id = req.person.as_deref().map(|p| tx.person_id_or_create(p, now)).transpose()?;
    let message_id = match &locator {
        Some(loc) => Some(tx.upsert_message(loc, person_id, &req.title, now)?),
        None => None,
    };
    Ok(Prepared { locator, person_id, message_id })
}

pub(crate) fn add_in(tx: &dyn Writes, ctx: &Context, req: &AddRequest) -> Result<AddOutcome> {
    let now = ctx.now_ms();
    // The duplicate check reads what the insert below depends on: no other checked
    // write may come between them (a no-op under SQLite's one writer).
    tx.lock_checked_writes()?;
    let prepared = prepare(tx, req, now)?;

    // The one exact match (SPEC §5.2): the same rule on the same message.
    if let (Some(mid), Some(rule)) = (prepared.message_id, req.rule.as_deref())
        && let Some(existing) = tx.rule_hit(mid, rule)?
    {
        return Ok(AddOutcome {
            task: tx.task(existing)?,
            created: false,
            attached_to: None,
            candidates: Vec::new(),
            exact_match: Some(ExactMatch {
                rule: rule.to_string(),
                message: prepared.locator.as_ref().map(ToString::to_string).unwrap_or_default(),
            }),
            queued_for_review: false,
            reopened: false,
            filled: Vec::new(),
        });
    }

    let blockers: Vec<i64> = req.blocked_by.iter().map(|r| keys::resolve(tx, r)).collect::<Result<_>>()?;
    let chat = prepared.locator.as_ref().map(|l| l.chat.as_str());
    let scored = scored_candidates(tx, req, prepared.person_id, chat, &blockers, now)?;
    if let DupChoice::Attach(target) = &req.dup_choice {
        return attach_in(tx, ctx, req, &prepared, target, scored);
    }
    let candidates: Vec<Candidate> = scored.into_iter().filter(|c| c.band >= Band::Possible).collect();
    let rule_created = req.rule.is_some();
    // Who asks decides how much evidence refuses (`Candidate::refuses`); the rest are
    // told beside the new task, never silently dropped.
    let by_person = req.origin == Source::Owner;
    if candidates.iter().any(|c| c.refuses(by_person)) && req.dup_choice == DupChoice::Check && !rule_created {
        return Err(Error::ProbableDuplicate { title: req.title.clone(), candidates });
    }
    create_in(tx, ctx, req, &prepared, &blockers, candidates)
}

/// Attaches the request to an existing task instead of creating one (`--attach`): the
/// source message becomes evidence of the target, the decision a labelled pair with the
/// levels the check saw for it.
fn attach_in(
    tx: &dyn Writes,
    ctx: &Context,
    req: &AddRequest,
    prepared: &Prepared,
    target: &str,
    scored: Vec<Candidate>,
) -> Result<AddOutcome> {
    let now = ctx.now_ms();
    let target_id = keys::resolve(tx, target)?;
    let seen = scored.into_iter().find(|c| c.task_id == target_id);
    let before = tx.task(target_id)?;
    let (fill, filled) = attach_fields(req, &before)?;
    let reopened = before.status.is_closed();
    if reopened {
        crate::ops::status::change(tx, ctx, before, Status::Open, None)?;
    }
    if !fill.is_empty() {
        crate::ops::edit::edit_in(tx, ctx, target_id, &fill)?;
    }
    if let Some(mid) = prepared.message_id {
        tx.insert_message_link(target_id, LinkKind::Evidence, mid, &ctx.actor, now)?;
        if let Some(rule) = req.rule.as_deref() {
            tx.insert_rule_hit(mid, rule, target_id, now)?;
        }
    }
    tx.record_decision(None, target_id, Decision::Attach, seen.as_ref(), &ctx.actor, now)?;
    let attached = Attached { title: req.title.clone(), message: prepared.locator.as_ref().map(ToString::to_string) };
    tx.record_event(target_id, now, &ctx.actor, &EventChange::Attached(attached))?;
    let task = tx.task(target_id)?;
    Ok(AddOutcome {
        attached_to: Some(task.key.clone()),
        task,
        created: false,
        candidates: Vec::new(),
        exact_match: None,
        queued_for_review: false,
        reopened,
        filled,
    })
}

/// Returns what `--attach` sets on the target: the request's fields the target lacks.
/// A field the target has with another value is refused — the new request's due date
/// or amount is never dropped silently — naming both values.
fn attach_fields(req: &AddRequest, target: &Task) -> Result<(crate::ops::edit::EditRequest, Vec<&'static str>)> {
    let mut fill = crate::ops::edit::EditRequest::default();
    let mut filled = Vec::new();
    let conflict = |field: &str, has: String, asked: String| Error::WrongState {
        key: target.key.clone(),
        status: format!("{field} {has}"),
        reason: format!(
            "the new request says {field} {asked}; change it with tasks edit {} first, or add it as a new task with --new",
            target.key
        ),
    };
    if let Some(due) = req.due {
        match target.due {
            None => {
                fill.due = Some(Some(due));
                filled.push("due");
            }
            Some(d) if d != due => return Err(conflict("due", d.date.to_string(), due.date.to_string())),
            Some(_) => {}
        }
    }
    if let Some(p) = req.priority {
        match target.priority {
            None => {
                fill.priority = Some(Some(p));
                filled.push("priority");
            }
            Some(q) if q != p => return Err(conflict("priority", q.to_string(), p.to_string())),
            Some(_) => {}
        }
    }
    if let Some(m) = &req.amount {
        match &target.amount {
            None => {
                fill.amount = Some(Some(m.clone()));
                filled.push("amount");
            }
            Some(a) if a != m => return Err(conflict("amount", a.to_major_text(), m.to_major_text())),
            Some(_) => {}
        }
    }
    if let Some(c) = &req.category {
        match &target.category {
            None => {
                fill.category = Some(Some(c.clone()));
                filled.push("category");
            }
            Some(t) if !t.eq_ignore_ascii_case(c) => return Err(conflict("category", t.clone(), c.clone())),
            Some(_) => {}
        }
    }
    if !req.description.trim().is_empty() && target.description.trim().is_empty() {
        fill.description = Some(req.description.clone());
        filled.push("description");
    }
    Ok((fill, filled))
}

/// Creates the task: key, row, index rows, the `created` event, tags, blockers and the
/// source message; then the candidates it was created beside — queued for review when
/// a rule made it, else recorded as "new" decisions.
fn create_in(
    tx: &dyn Writes,
    ctx: &Context,
    req: &AddRequest,
    prepared: &Prepared,
    blockers: &[i64],
    candidates: Vec<Candidate>,
) -> Result<AddOutcome> {
    let now = ctx.now_ms();
    let rule_created = req.rule.is_some();
    let project = match (&req.project, &prepared.locator) {
        (None, Some(loc)) => project::account_inbox(tx, &loc.account_id(), now)?,
        (p, _) => project::resolve_or_inbox(tx, p.as_deref(), now)?,
    };
    let uuid = time::uuid_v7_at(now);
    let key = next_key(tx, &project, req.task_type)?;
    let source = if rule_created { Source::Rule } else { req.origin };
    let id = tx.insert_task(&task_rows::NewTaskRow {
        uuid: &uuid,
        key: &key,
        legacy_key: None,
        external_id: None,
        project_id: project.id,
        task_type: req.task_type,
        title: &req.title,
        description: &req.description,
        status: Status::Open,
        close_reason: None,
        priority: req.priority,
        due: req.due,
        category: req.category.as_deref(),
        person_id: prepared.person_id,
        amount: req.amount.as_ref(),
        chat: prepared.locator.as_ref().map(|l| l.chat.as_str()),
        reply_to_id: None,
        created_at: now,
        closed_at: None,
        source,
    })?;
    tx.index_task(id)?;
    let created =
        Created { key: key.clone(), title: req.title.clone(), project: project.key.clone(), source, line: None };
    tx.record_event(id, now, &ctx.actor, &EventChange::Created(created))?;
    for tag in &req.tags {
        tx.add_tag(id, tag, now)?;
    }
    for blocker in blockers {
        graph::add_link(tx, ctx, id, LinkKind::BlockedBy, *blocker)?;
    }
    if let Some(mid) = prepared.message_id {
        tx.insert_message_link(id, LinkKind::CreatedFrom, mid, &ctx.actor, now)?;
        if let Some(rule) = req.rule.as_deref() {
            tx.insert_rule_hit(mid, rule, id, now)?;
        }
    }
    let mut queued = false;
    for c in &candidates {
        if rule_created && req.dup_choice == DupChoice::Check {
            tx.queue_pair(id, c, now)?;
            queued = true;
        } else {
            tx.record_decision(Some(id), c.task_id, Decision::New, Some(c), &ctx.actor, now)?;
        }
    }
    Ok(AddOutcome {
        task: tx.task(id)?,
        created: true,
        attached_to: None,
        candidates,
        exact_match: None,
        queued_for_review: queued,
        reopened: false,
        filled: Vec::new(),
    })
}

/// Takes the next key for a task of `task_type` in `project` (SPEC §3).
///
/// Inbox tasks of message types get typed keys (`Q-`, `REQ-`, `M-`, `PR-`); everything
/// else takes the project's counter. Both counters move in the inserting transaction.
pub(crate) fn next_key(tx: &dyn Writes, project: &crate::model::Project, task_type: TaskType) -> Result<String> {
    if project.kind == ProjectKind::Inbox
        && let Some(prefix) = task_type.typed_prefix()
    {
        let n = tx.next_typed_number(prefix)?;
        return Ok(format!("{prefix}-{n}"));
    }
    let n = tx.next_project_number(project.id)?;
    Ok(format!("{}-{n}", project.key))
}
