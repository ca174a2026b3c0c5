//! Commands that change a task: `edit` (flags, or `$EDITOR` on a small TOML), `start`,
//! `stop`, `done`, `dismiss`, `reopen`, `tag`, `untag`, `note`, `link`, `unlink`, `undo`.
//! `start`, `done`, `dismiss` and `tag` take several tasks: all change, or none.

use clap::Args;
use tasks_core::model::{LinkKind, Task, TaskType};
use tasks_core::ops::edit::EditRequest;
use tasks_core::ops::status::{self, StatusOutcome};
use tasks_core::ops::{edit as edit_op, link as link_op, note as note_op, query, undo as undo_op};
use tasks_core::{input, wire};

use super::App;
use super::view::TaskArg;
use crate::error::CliError;
use crate::render::{self, safe};

mod editor;

#[derive(Debug, Args)]
pub struct EditArgs {
    /// The task (with no field flags, opens $VISUAL or $EDITOR on its fields)
    pub task: String,
    /// New title
    #[arg(long)]
    pub title: Option<String>,
    /// New description
    #[arg(long, short = 'd')]
    pub description: Option<String>,
    /// New due date: 2026-12-24, friday, "tomorrow 15:00", «завтра в 10:00» ("none" clears it)
    #[arg(long)]
    pub due: Option<String>,
    /// New priority 0–4 ("none" clears it)
    #[arg(long)]
    pub priority: Option<String>,
    /// Move to this project (the key stays the same)
    #[arg(long, short = 'p')]
    pub project: Option<String>,
    /// New category ("none" clears it)
    #[arg(long)]
    pub category: Option<String>,
    /// New person ("none" clears it)
    #[arg(long)]
    pub person: Option<String>,
    /// New amount ("none" clears it)
    #[arg(long)]
    pub amount: Option<String>,
    /// New type
    #[arg(long = "type", short = 't')]
    pub task_type: Option<TaskType>,
    /// Edit even though another actor holds the task's claim
    #[arg(long)]
    pub force: bool,
    /// Show what would change and write nothing
    #[arg(long)]
    pub dry_run: bool,
}

fn clearable(v: &Option<String>) -> Option<Option<String>> {
    v.as_ref().map(|s| if s.trim().eq_ignore_ascii_case("none") { None } else { Some(s.clone()) })
}

/// Builds the edit the field flags ask for (empty when none is given).
pub fn edit_request(ctx: &tasks_core::Context, a: &EditArgs) -> Result<EditRequest, CliError> {
    let priority = match clearable(&a.priority) {
        None => None,
        Some(None) => Some(None),
        Some(Some(p)) => Some(Some(tasks_core::model::parse_priority(&p)?)),
    };
    Ok(EditRequest {
        title: a.title.clone(),
        description: a.description.clone(),
        due: clearable(&a.due).map(|d| d.map(|d| input::parse_due_at(&d, ctx)).transpose()).transpose()?,
        priority,
        project: a.project.clone(),
        category: clearable(&a.category),
        person: clearable(&a.person),
        amount: clearable(&a.amount).map(|m| m.map(|m| input::parse_amount(&m)).transpose()).transpose()?,
        task_type: a.task_type,
        force: a.force,
    })
}

/// The refusal of an edit with no field flag where the editor cannot run.
pub fn nothing_to_edit() -> CliError {
    CliError::validation(
        "edit: nothing to change",
        Some("hint: give at least one of --title, --due, --priority, --project, --category … (the editor needs a terminal, not --json)".into()),
    )
}

pub fn edit(app: &mut App, a: EditArgs) -> Result<(), CliError> {
    let before = query::get(&app.store, &a.task)?;
    let mut req = edit_request(&app.ctx, &a)?;
    if req.is_empty() {
        if app.json {
            return Err(nothing_to_edit());
        }
        match editor::edit_in_editor(app, &before)? {
            Some(from_editor) => req = EditRequest { force: a.force, ..from_editor },
            None => {
                println!("Nothing changed: {} is as it was.", before.key);
                return Ok(());
            }
        }
    }
    let after = if a.dry_run {
        edit_op::rehearse(&mut app.store, &app.ctx, &a.task, &req)?
    } else {
        edit_op::edit(&mut app.store, &app.ctx, &a.task, &req)?
    };
    let changes = changes(&before, &after, &app.style);
    app.print(
        || wire::edited(&after, &changes, a.dry_run, app.ctx.now_ms()),
        || edited_text(&after, &changes, a.dry_run),
    );
    Ok(())
}

/// The human text of an edit: what changed, field by field.
pub fn edited_text(after: &Task, changes: &[String], dry_run: bool) -> String {
    let verb = if dry_run { "Would change" } else { "Changed" };
    if changes.is_empty() {
        format!("{} is as it was: nothing to change\n", after.key)
    } else {
        let mut s = format!("{verb} {}: {}\n", after.key, safe(&after.title));
        for c in changes {
            s.push_str(&format!("  {c}\n"));
        }
        s
    }
}

/// Says what differs between two versions of a task, one line per field: `due: none →
/// Fri 11 Dec`.
pub fn changes(before: &Task, after: &Task, style: &render::Style) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            let show = |v: String| if v.is_empty() { "none".to_string() } else { v };
            out.push(format!("{name}: {} → {}", show(a), show(b)));
        }
    };
    field("title", safe(&before.title), safe(&after.title));
    if before.description != after.description {
        let size = |d: &str| format!("{} characters", d.chars().count());
        field("description", size(&before.description), size(&after.description));
    }
    let due = |t: &Task| t.due.as_ref().map(|d| render::due_words(d, &style.zone)).unwrap_or_default();
    field("due", due(before), due(after));
    field("priority", opt(before.priority), opt(after.priority));
    field("project", before.project.clone(), after.project.clone());
    field("type", before.task_type.to_string(), after.task_type.to_string());
    field(
        "category",
        safe(before.category.as_deref().unwrap_or_default()),
        safe(after.category.as_deref().unwrap_or_default()),
    );
    field(
        "person",
        safe(before.person.as_deref().unwrap_or_default()),
        safe(after.person.as_deref().unwrap_or_default()),
    );
    let money = |t: &Task| t.amount.as_ref().map(|m| m.to_major_text()).unwrap_or_default();
    field("amount", money(before), money(after));
    out
}

fn opt(p: Option<u8>) -> String {
    p.map(|p| p.to_string()).unwrap_or_default()
}

/// Several tasks and the flags every status change shares.
#[derive(Debug, Args)]
pub struct ManyArgs {
    /// The tasks (all change, or none)
    #[arg(required = true, value_name = "TASK")]
    pub tasks: Vec<String>,
    /// Change them even though another actor holds a claim, or open tasks block them
    #[arg(long)]
    pub force: bool,
}

fn refs(tasks: &[String]) -> Vec<&str> {
    tasks.iter().map(String::as_str).collect()
}

fn print_statuses(app: &App, outs: &[StatusOutcome], verb: &str) {
    app.print(|| statuses_value(outs, app.ctx.now_ms()), || statuses_text(outs, verb));
}

/// The JSON of status changes: one object for one task, a list for several.
pub fn statuses_value(outs: &[StatusOutcome], now_ms: i64) -> serde_json::Value {
    if outs.len() == 1 { wire::status_changed(&outs[0], now_ms) } else { wire::statuses_changed(outs, now_ms) }
}

/// The human text of status changes, naming the tasks each one made ready.
pub fn statuses_text(outs: &[StatusOutcome], verb: &str) -> String {
    let mut s = String::new();
    for out in outs {
        if out.changed {
            s.push_str(&format!("{verb} {}: {}\n", out.task.key, safe(&out.task.title)));
        } else {
            s.push_str(&format!("{} was already {}\n", out.task.key, out.task.status));
        }
        if !out.unblocked.is_empty() {
            let keys: Vec<&str> = out.unblocked.iter().map(|t| t.key.as_str()).collect();
            s.push_str(&format!("Ready now: {}\n", keys.join(", ")));
        }
    }
    s
}

pub fn start(app: &mut App, a: ManyArgs) -> Result<(), CliError> {
    let outs = status::start_many(&mut app.store, &app.ctx, &refs(&a.tasks), a.force)?;
    print_statuses(app, &outs, "Started");
    Ok(())
}

#[derive(Debug, Args)]
pub struct StopArgs {
    /// The task in progress
    pub task: String,
    /// Stop it even though another actor holds its claim
    #[arg(long)]
    pub force: bool,
}

pub fn stop(app: &mut App, a: StopArgs) -> Result<(), CliError> {
    let out = status::stop(&mut app.store, &app.ctx, &a.task, a.force)?;
    print_statuses(app, &[out], "Stopped");
    Ok(())
}

pub fn done(app: &mut App, a: ManyArgs) -> Result<(), CliError> {
    let outs = status::done_many(&mut app.store, &app.ctx, &refs(&a.tasks), a.force)?;
    print_statuses(app, &outs, "Done");
    Ok(())
}

#[derive(Debug, Args)]
pub struct DismissArgs {
    /// The tasks (all change, or none)
    #[arg(required = true, value_name = "TASK")]
    pub tasks: Vec<String>,
    /// Why: cancelled, duplicate, not needed … [default: cancelled]
    #[arg(long)]
    pub reason: Option<String>,
    /// Dismiss them even though another actor holds a claim
    #[arg(long)]
    pub force: bool,
}

pub fn dismiss(app: &mut App, a: DismissArgs) -> Result<(), CliError> {
    let outs = status::dismiss_many(&mut app.store, &app.ctx, &refs(&a.tasks), a.reason.as_deref(), a.force)?;
    print_statuses(app, &outs, "Dismissed");
    Ok(())
}

pub fn reopen(app: &mut App, a: TaskArg) -> Result<(), CliError> {
    let out = status::reopen(&mut app.store, &app.ctx, &a.task)?;
    print_statuses(app, &[out], "Reopened");
    Ok(())
}

#[derive(Debug, Args)]
pub struct TagArgs {
    /// Tasks, then tags: `tasks tag HRB-1 HRB-2 urgent home` (leading arguments shaped
    /// like keys are the tasks)
    #[arg(required = true, num_args = 2.., value_name = "TASK… TAG")]
    pub args: Vec<String>,
}

/// Splits `tag` arguments into tasks (the leading ones shaped like keys, at least one)
/// and tags (the rest, at least one).
pub fn split_tag_args(args: &[String]) -> Result<(Vec<String>, Vec<String>), CliError> {
    let looks_like_key = |s: &str| {
        s.split_once('-').is_some_and(|(p, n)| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && p.chars().all(|c| c.is_ascii_alphanumeric())
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
        })
    };
    let leading = args.iter().take_while(|a| looks_like_key(a)).count().clamp(1, args.len() - 1);
    Ok((args[..leading].to_vec(), args[leading..].to_vec()))
}

pub fn tag(app: &mut App, a: TagArgs, add: bool) -> Result<(), CliError> {
    let (tasks, tags) = split_tag_args(&a.args)?;
    let store: &mut dyn tasks_core::port::Engine = &mut app.store;
    let results = store.batch(|store| {
        tasks
            .iter()
            .map(
                |t| if add { status::tag(store, &app.ctx, t, &tags) } else { status::untag(store, &app.ctx, t, &tags) },
            )
            .collect::<tasks_core::Result<Vec<_>>>()
    })?;
    app.print(|| tagged_value(&results, app.ctx.now_ms()), || tagged_text(&results));
    Ok(())
}

/// The JSON of a tag or untag: one object for one task, a list for several.
pub fn tagged_value(results: &[(Task, Vec<String>)], now_ms: i64) -> serde_json::Value {
    if results.len() == 1 {
        wire::tagged(&results[0].0, &results[0].1, now_ms)
    } else {
        wire::tagged_many(results, now_ms)
    }
}

/// The human text of a tag or untag: each task's tags after it.
pub fn tagged_text(results: &[(Task, Vec<String>)]) -> String {
    results
        .iter()
        .map(|(t, _)| {
            let tags = if t.tags.is_empty() { "(none)".to_string() } else { safe(&t.tags.join(", ")) };
            format!("{} tags: {tags}\n", t.key)
        })
        .collect()
}

#[derive(Debug, Args)]
pub struct NoteArgs {
    /// The task
    pub task: String,
    /// The note (several words are joined with spaces)
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
}

pub fn note(app: &mut App, a: NoteArgs) -> Result<(), CliError> {
    let out = note_op::add(&mut app.store, &app.ctx, &a.task, &a.text.join(" "))?;
    app.print(
        || wire::noted(&out, app.ctx.now_ms()),
        || format!("Noted on {}: {}\n", out.task.key, safe(&out.note.text)),
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// Show what would be undone and change nothing
    #[arg(long)]
    pub dry_run: bool,
}

pub fn undo(app: &mut App, a: UndoArgs) -> Result<(), CliError> {
    let out =
        if a.dry_run { undo_op::preview(&mut app.store, &app.ctx)? } else { undo_op::undo(&mut app.store, &app.ctx)? };
    app.print(
        || wire::undone(&out, app.ctx.now_ms(), a.dry_run),
        || {
            let when = render::moment(out.change_at, &app.style);
            let mut s = if a.dry_run {
                format!("Would undo your change of {when}:\n")
            } else {
                format!("Undid your change of {when}:\n")
            };
            for r in &out.reverted {
                s.push_str(&format!("  {}: you {}\n", r.key, safe(&r.what)));
                if let Some(k) = &r.kept {
                    s.push_str(&format!("    (note: {})\n", safe(k)));
                }
            }
            for t in &out.tasks {
                s.push_str(&format!("{} is now {}: {}\n", t.key, t.status, safe(&t.title)));
            }
            s
        },
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct LinkArgs {
    /// The task the link starts from
    pub task: String,
    /// blocked-by, follow-up-of, related-to, duplicate-of, discovered-from
    pub kind: String,
    /// The other task
    pub other: String,
}

pub fn link(app: &mut App, a: LinkArgs, add: bool) -> Result<(), CliError> {
    let kind: LinkKind = a.kind.parse()?;
    let out = if add {
        link_op::link(&mut app.store, &app.ctx, &a.task, kind, &a.other)?
    } else {
        link_op::unlink(&mut app.store, &app.ctx, &a.task, kind, &a.other)?
    };
    app.print(|| wire::linked(&out, app.ctx.now_ms()), || link_text(&out, add));
    Ok(())
}

/// The human text of a link or unlink.
pub fn link_text(out: &tasks_core::ops::link::LinkOutcome, add: bool) -> String {
    let kind = out.kind;
    match (add, out.changed) {
        (true, true) => format!("Linked {} {} {}\n", out.task.key, kind, out.other.key),
        (true, false) => format!("{} was already {} {}\n", out.task.key, kind, out.other.key),
        (false, true) => format!("Unlinked {} {} {}\n", out.task.key, kind, out.other.key),
        (false, false) => format!("{} was not {} {}\n", out.task.key, kind, out.other.key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_keys_are_the_tasks() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(split_tag_args(&s(&["HRB-1", "urgent"])).expect("split"), (s(&["HRB-1"]), s(&["urgent"])));
        assert_eq!(
            split_tag_args(&s(&["HRB-1", "hrb-2", "urgent", "home"])).expect("split"),
            (s(&["HRB-1", "hrb-2"]), s(&["urgent", "home"]))
        );
        // A tag shaped like a key after the last task stays a tag only if something follows.
        assert_eq!(split_tag_args(&s(&["HRB-1", "v-2"])).expect("split"), (s(&["HRB-1"]), s(&["v-2"])));
        // A uuid prefix is one task.
        assert_eq!(split_tag_args(&s(&["0193abcd", "x"])).expect("split"), (s(&["0193abcd"]), s(&["x"])));
    }
}
