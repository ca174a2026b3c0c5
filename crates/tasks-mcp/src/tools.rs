//! The nine tools as plain synchronous functions: read the arguments into core
//! requests, open the store, run the core operations, and answer the JSON of
//! `tasks_core::wire` — the same shapes as the CLI's `--json`.
//!
//! What it does not do: no async and no MCP types (`server.rs` calls these inside
//! `spawn_blocking` and wraps the answer); no rule of its own beyond mapping Claude
//! Code's vocabulary (pending, completed, deleted, owner) onto the core's verbs.

use jiff::Timestamp;
use serde_json::Value;
use tasks_core::claims;
use tasks_core::model::{Status, TaskType};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::edit::{self as edit_op, EditRequest};
use tasks_core::ops::link as link_op;
use tasks_core::ops::note as note_op;
use tasks_core::ops::query::{self, ListQuery};
use tasks_core::ops::status;
use tasks_core::port::Engine;
use tasks_core::{Context, Error, LinkKind, Source, Store, input, wire};

use crate::ServerConfig;
use crate::args::{
    ClaimArgs, CreateArgs, GetArgs, LinkArgs, ListArgs, ListStatus, Metadata, NextArgs, ReadyArgs, ReleaseArgs,
    SUBJECT, UpdateArgs, UpdateStatus,
};

/// Rows `task_list` and `task_ready` answer when no `limit` is given: fewer than the
/// CLI's 200, because every row costs an agent tokens.
pub const DEFAULT_LIMIT: usize = 50;

/// The close reason of `task_update {status: "deleted"}`: the task is dismissed, never erased.
pub const DELETED_REASON: &str = "deleted";

/// A failed tool call: the core error, and the argument it is about when the core
/// could not say (see [`Given`]). Nothing of a failed call was written (a multi-step
/// `task_update` runs in one transaction).
#[derive(Debug)]
pub struct Failure {
    /// What went wrong.
    pub error: Error,
    /// The argument that held the value the error names, when the error itself does not
    /// name a field (a task key that is not found or matches several tasks).
    pub argument: Option<&'static str>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure { error, argument: None }
    }
}

impl Failure {
    /// Returns the `{"error": {code, message, details}}` object of `tasks_core::wire`;
    /// the message starts with the argument at fault, as an `Invalid` error's does.
    pub fn to_json(&self) -> Value {
        match self.argument {
            Some(argument) => wire::error_object(
                wire::error_code(&self.error),
                &format!("{argument}: {}", self.error),
                wire::error_details(&self.error),
            ),
            None => wire::error(&self.error),
        }
    }
}

/// The task and project references one call gave, by argument.
///
/// The core resolves a reference deep inside an operation and its "not found" or
/// "matches several tasks" error says the value, not which argument held it — and
/// `task_link` or `task_update` take several. The value names the argument.
#[derive(Default)]
struct Given<'a>(Vec<(&'static str, &'a str)>);

impl<'a> Given<'a> {
    fn one(mut self, argument: &'static str, value: Option<&'a str>) -> Self {
        self.0.extend(value.map(|v| (argument, v)));
        self
    }

    fn each(mut self, argument: &'static str, values: &'a [String]) -> Self {
        self.0.extend(values.iter().map(|v| (argument, v.as_str())));
        self
    }

    /// Names the argument an error is about: a not-found or ambiguous reference gets it
    /// beside the error, an empty reference (the core's field `task`) is renamed.
    fn blame(&self, e: Error) -> Failure {
        let value = match &e {
            Error::NotFound { value, .. } | Error::Ambiguous { value, .. } => value,
            Error::Invalid { field: "task", value, .. } => value,
            _ => return e.into(),
        };
        let argument = self.0.iter().find(|(_, given)| given == value).map(|(argument, _)| *argument);
        match (e, argument) {
            (Error::Invalid { value, reason, .. }, Some(field)) => Error::Invalid { field, value, reason }.into(),
            (error, argument) => Failure { error, argument },
        }
    }
}

/// What one tool call answers.
pub type Answer = Result<Value, Failure>;

impl ServerConfig {
    /// Returns the context of one call: the fixed or current clock, the acting owner
    /// (or the server's actor when none is named) and the zone.
    fn context(&self, owner: Option<&str>) -> Context {
        let actor = owner.map(str::trim).filter(|o| !o.is_empty()).unwrap_or(&self.actor);
        Context::new(self.now.unwrap_or_else(Timestamp::now), actor, self.zone.clone())
    }

    /// Runs `f` on the store: the SQLite file opened for this call, or a pooled
    /// connection to the team store.
    fn with_store<T>(&self, f: impl FnOnce(&mut dyn Engine) -> Result<T, Failure>) -> Result<T, Failure> {
        match &self.pool {
            Some(pool) => pool.with(|store| f(store))?,
            None => f(&mut Store::open(&self.store_path)?),
        }
    }
}

/// Renames a core error's field to the argument name the caller used.
fn as_argument(e: Error, core: &str, argument: &'static str) -> Error {
    match e {
        Error::Invalid { field, value, reason } if field == core => Error::Invalid { field: argument, value, reason },
        other => other,
    }
}

/// Renames every core field whose argument has another name here; the title is named
/// as the caller gave it (`subject`, or its alias `title`).
fn arguments_named(e: Error, subject: &'static str) -> Error {
    let e = as_argument(e, "title", subject);
    let e = as_argument(e, "for", "lease");
    as_argument(e, "tag", "metadata")
}

fn lease(text: Option<&str>) -> Result<std::time::Duration, Error> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => claims::parse_lease(t).map_err(|e| as_argument(e, "for", "lease")),
        None => Ok(claims::DEFAULT_LEASE),
    }
}

fn limit(n: Option<usize>) -> Result<usize, Error> {
    match n {
        Some(0) => Err(Error::invalid("limit", "0", "use a whole number of 1 or more")),
        Some(n) => Ok(n),
        None => Ok(DEFAULT_LIMIT),
    }
}

fn tags(metadata: Option<Metadata>) -> Result<Vec<String>, Error> {
    let tags = metadata.map(|m| m.tags).unwrap_or_default();
    for t in &tags {
        add::check_tag(t).map_err(|e| as_argument(e, "tag", "metadata"))?;
    }
    Ok(tags)
}

fn nonblank(text: Option<String>) -> Option<String> {
    text.filter(|t| !t.trim().is_empty())
}

/// `task_create`: the core `add` with origin agent and the duplicate check.
pub fn create(config: &ServerConfig, mut a: CreateArgs) -> Answer {
    let subject = a.take_subject()?;
    let ctx = config.context(None);
    let task_type = match nonblank(a.task_type) {
        Some(t) => t.parse::<TaskType>()?,
        None => TaskType::Task,
    };
    let dup_choice = match (nonblank(a.attach), a.force_new) {
        (Some(target), true) => {
            return Err(Error::invalid("attach", target, "give attach or force_new, not both").into());
        }
        (Some(target), false) => DupChoice::Attach(target),
        (None, true) => DupChoice::New,
        (None, false) => DupChoice::Check,
    };
    let req = AddRequest {
        project: nonblank(a.project),
        task_type,
        description: a.description.unwrap_or_default(),
        due: nonblank(a.due).map(|d| input::parse_due_at(&d, &ctx)).transpose()?,
        priority: a.priority,
        tags: tags(a.metadata)?,
        blocked_by: a.add_blocked_by,
        dup_choice,
        origin: Source::Agent,
        ..AddRequest::titled(subject.text)
    };
    let attach = match &req.dup_choice {
        DupChoice::Attach(target) => Some(target.as_str()),
        _ => None,
    };
    let given = Given::default()
        .each("addBlockedBy", &req.blocked_by)
        .one("attach", attach)
        .one("project", req.project.as_deref());
    let out = config.with_store(|store| {
        add::add(store, &ctx, &req).map_err(|e| given.blame(arguments_named(e, subject.argument)))
    })?;
    let now = ctx.now_ms();
    Ok(wire::added(&out, now, false))
}

/// `task_update`: edits, tags, links, claim and status of one task.
///
/// Every argument is read before anything is written, and the steps run in ONE
/// transaction (`Store::batch`): the claim (a task held by another actor is refused),
/// links (cycles), fields and tags, then the status. A failure at any step writes
/// nothing.
pub fn update(config: &ServerConfig, mut a: UpdateArgs) -> Answer {
    let subject = a.take_subject()?;
    let named = subject.as_ref().map_or(SUBJECT, |s| s.argument);
    let owner = a.owner.as_deref().map(str::trim);
    let ctx = config.context(owner);
    let due = match a.due.as_deref().map(str::trim) {
        None => None,
        Some("") => Some(None),
        Some(d) if d.eq_ignore_ascii_case("none") => Some(None),
        Some(d) => Some(Some(input::parse_due_at(d, &ctx)?)),
    };
    let note = a.note.filter(|n| !n.trim().is_empty());
    if let Some(n) = &note {
        note_op::check_note(n)?;
    }
    let edit = EditRequest {
        title: subject.map(|s| s.text),
        description: a.description,
        due,
        priority: a.priority.map(Some),
        project: nonblank(a.project),
        ..EditRequest::default()
    };
    if let Some(t) = &edit.title {
        add::check_title(t).map_err(|e| arguments_named(e, named))?;
    }
    add::check_priority(a.priority)?;
    let new_tags = tags(a.metadata)?;
    let closing = matches!(a.status, Some(UpdateStatus::Completed | UpdateStatus::Deleted));
    if edit.is_empty()
        && new_tags.is_empty()
        && a.add_blocked_by.is_empty()
        && a.add_blocks.is_empty()
        && owner.is_none()
        && a.status.is_none()
        && note.is_none()
    {
        return Err(Error::invalid(
            "arguments",
            "",
            "nothing to change: give status, subject (or title), description, due, priority, project, owner, addBlockedBy, addBlocks, metadata or note",
        )
        .into());
    }

    let given = Given::default()
        .one("taskId", Some(&a.task_id))
        .each("addBlockedBy", &a.add_blocked_by)
        .each("addBlocks", &a.add_blocks)
        .one("project", edit.project.as_deref());
    let plan = UpdatePlan {
        owner,
        closing,
        blocked_by: &a.add_blocked_by,
        blocks: &a.add_blocks,
        edit: &edit,
        tags: &new_tags,
        status: a.status,
        note: note.as_deref(),
    };
    config.with_store(|store| {
        let key = query::get(store, &a.task_id).map_err(|e| given.blame(e))?.key;
        let unblocked = store
            .batch(|store| apply_update(store, &ctx, &key, &plan))
            .map_err(|e| given.blame(arguments_named(e, named)))?;
        let task = query::get(store, &key)?;
        Ok(wire::task_updated(&task, &unblocked, ctx.now_ms()))
    })
}

/// What `task_update` will write, read and checked from its arguments.
struct UpdatePlan<'a> {
    owner: Option<&'a str>,
    closing: bool,
    blocked_by: &'a [String],
    blocks: &'a [String],
    edit: &'a EditRequest,
    tags: &'a [String],
    status: Option<UpdateStatus>,
    note: Option<&'a str>,
}

/// The writing steps of `task_update`, inside its batch; returns the keys the status
/// change unblocked.
fn apply_update(store: &mut dyn Engine, ctx: &Context, key: &str, plan: &UpdatePlan<'_>) -> Result<Vec<String>, Error> {
    let UpdatePlan { owner, closing, blocked_by, blocks, edit, tags: new_tags, status: target, note } = *plan;
    match owner {
        Some("") => {
            claims::release(store, ctx, key)?;
        }
        // Closing ends any lease, so a claim on the way to completed/deleted is moot.
        Some(_) if !closing => {
            claims::claim(store, ctx, key, claims::DEFAULT_LEASE)?;
        }
        _ => {}
    }
    for blocker in blocked_by {
        link_op::link(store, ctx, key, LinkKind::BlockedBy, blocker)?;
    }
    for dependant in blocks {
        link_op::link(store, ctx, dependant, LinkKind::BlockedBy, key)?;
    }
    if !edit.is_empty() {
        edit_op::edit(store, ctx, key, edit)?;
    }
    if !new_tags.is_empty() {
        status::tag(store, ctx, key, new_tags)?;
    }
    if let Some(text) = note {
        note_op::add(store, ctx, key, text)?;
    }
    if let Some(target) = target {
        let out = match target {
            UpdateStatus::Pending => {
                // A started task goes back to open (`tasks stop`); a closed one reopens.
                if query::get(store, key)?.status == Status::InProgress {
                    status::stop(store, ctx, key, false)
                } else {
                    status::reopen(store, ctx, key)
                }
            }
            UpdateStatus::InProgress => status::start(store, ctx, key),
            UpdateStatus::Completed => status::done(store, ctx, key),
            UpdateStatus::Deleted => status::dismiss(store, ctx, key, Some(DELETED_REASON)),
        }?;
        return Ok(out.unblocked.iter().map(|t| t.key.clone()).collect());
    }
    Ok(Vec::new())
}

/// `task_get`: one task with its links.
pub fn get(config: &ServerConfig, a: GetArgs) -> Answer {
    let ctx = config.context(None);
    let detail = config.with_store(|store| {
        query::show(store, &a.task_id).map_err(|e| Given::default().one("taskId", Some(&a.task_id)).blame(e))
    })?;
    Ok(wire::task_detail(&detail, ctx.now_ms()))
}

/// `task_list`: tasks by status and project.
pub fn list(config: &ServerConfig, a: ListArgs) -> Answer {
    let ctx = config.context(None);
    let statuses = match a.status {
        None => Vec::new(),
        Some(ListStatus::Pending) => vec![Status::Open],
        Some(ListStatus::InProgress) => vec![Status::InProgress],
        Some(ListStatus::Completed) => vec![Status::Done],
        Some(ListStatus::Deleted) => vec![Status::Dismissed],
        Some(ListStatus::All) => Status::ALL.to_vec(),
    };
    let q = ListQuery { statuses, project: nonblank(a.project), limit: Some(limit(a.limit)?), ..ListQuery::default() };
    let tasks = config.with_store(|store| {
        query::list(store, &q).map_err(|e| Given::default().one("project", q.project.as_deref()).blame(e))
    })?;
    Ok(wire::task_list(&tasks, ctx.now_ms()))
}

/// `task_ready`: open, unblocked tasks not claimed by others, best first.
pub fn ready(config: &ServerConfig, a: ReadyArgs) -> Answer {
    let ctx = config.context(a.owner.as_deref());
    let n = limit(a.limit)?;
    let tasks = config.with_store(|store| Ok(query::ready(store, &ctx, Some(n))?))?;
    Ok(wire::task_list(&tasks, ctx.now_ms()))
}

/// `task_claim`: lease a task for the owner.
pub fn claim(config: &ServerConfig, a: ClaimArgs) -> Answer {
    let ctx = config.context(a.owner.as_deref());
    let length = lease(a.lease.as_deref())?;
    let t = config.with_store(|store| {
        claims::claim(store, &ctx, &a.task_id, length)
            .map_err(|e| Given::default().one("taskId", Some(&a.task_id)).blame(e))
    })?;
    Ok(wire::task_only(&t, ctx.now_ms()))
}

/// `task_release`: end the owner's lease early.
pub fn release(config: &ServerConfig, a: ReleaseArgs) -> Answer {
    let ctx = config.context(a.owner.as_deref());
    let t = config.with_store(|store| {
        claims::release(store, &ctx, &a.task_id).map_err(|e| Given::default().one("taskId", Some(&a.task_id)).blame(e))
    })?;
    Ok(wire::task_only(&t, ctx.now_ms()))
}

/// `task_next`: pick the best ready task and claim it in one transaction.
pub fn next(config: &ServerConfig, a: NextArgs) -> Answer {
    let ctx = config.context(a.owner.as_deref());
    let length = lease(a.lease.as_deref())?;
    let project = nonblank(a.project);
    let describe = project.as_ref().map(|p| format!("project {p}")).unwrap_or_default();
    let q = ListQuery { project, ..ListQuery::default() };
    config.with_store(|store| {
        let filter = query::to_filter(store, &q)
            .map_err(|e| Given::default().one("project", q.project.as_deref()).blame(e))?
            .ok_or_else(|| Error::NothingReady { filter: describe.clone() })?;
        let t = claims::next(store, &ctx, filter, length, &describe)?;
        Ok(wire::next(&t, true, ctx.now_ms()))
    })
}

/// `task_link`: link two tasks (cycle-checked for blocked-by and follow-up-of).
pub fn link(config: &ServerConfig, a: LinkArgs) -> Answer {
    let ctx = config.context(None);
    let given = Given::default().one("taskId", Some(&a.task_id)).one("otherId", Some(&a.other_id));
    let out = config.with_store(|store| {
        link_op::link(store, &ctx, &a.task_id, a.kind.to_core(), &a.other_id).map_err(|e| given.blame(e))
    })?;
    Ok(wire::linked(&out, ctx.now_ms()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_that_is_not_found_is_blamed_on_the_argument_that_held_it() {
        let refs = ["HRB-2".to_string(), "HRB-3".to_string()];
        let given = Given::default().one("taskId", Some("HRB-1")).each("addBlockedBy", &refs).one("project", None);
        let failure = given.blame(Error::task_not_found("HRB-3"));
        assert_eq!(failure.argument, Some("addBlockedBy"));
        let json = failure.to_json();
        assert_eq!(json["error"]["code"], "not_found");
        assert_eq!(json["error"]["message"], "addBlockedBy: task \"HRB-3\" not found");
        assert_eq!(json["error"]["details"], serde_json::json!({"what": "task", "value": "HRB-3"}), "details as wire");
        let ambiguous =
            given.blame(Error::Ambiguous { value: "HRB-1".into(), matches: vec!["A-1".into(), "B-1".into()] });
        assert_eq!(ambiguous.argument, Some("taskId"));
        assert!(
            ambiguous.to_json()["error"]["message"].as_str().unwrap_or("").starts_with("taskId: \"HRB-1\" matches 2")
        );
    }

    #[test]
    fn an_empty_reference_is_renamed_to_its_argument_and_other_errors_pass_unchanged() {
        let given = Given::default().one("taskId", Some("HRB-1")).one("otherId", Some(" "));
        let empty = given.blame(Error::invalid("task", " ", "empty reference"));
        assert!(matches!(&empty.error, Error::Invalid { field: "otherId", .. }), "{:?}", empty.error);
        assert_eq!(empty.argument, None, "an Invalid error names its field itself");
        assert_eq!(empty.to_json()["error"]["details"]["field"], "otherId");
        // A value no argument held, or an error about something else: as the core said it.
        let unknown = given.blame(Error::task_not_found("#7"));
        assert_eq!(unknown.argument, None);
        assert_eq!(unknown.to_json(), wire::error(&Error::task_not_found("#7")));
        let other = given.blame(Error::invalid("due", "HRB-1", "not a date"));
        assert!(matches!(other.error, Error::Invalid { field: "due", .. }) && other.argument.is_none());
    }

    #[test]
    fn the_title_is_named_as_the_caller_gave_it() {
        let core = || Error::invalid("title", " ", "a task needs a title");
        assert!(matches!(arguments_named(core(), "subject"), Error::Invalid { field: "subject", .. }));
        assert!(matches!(arguments_named(core(), "title"), Error::Invalid { field: "title", .. }));
        assert!(matches!(
            arguments_named(Error::invalid("for", "x", "bad"), "title"),
            Error::Invalid { field: "lease", .. }
        ));
    }
}
