//! `tasks add`: build an `AddRequest` from flags, run it (or rehearse it with
//! `--dry-run`), render the task, the exact match or the attach.

use clap::Args;
use tasks_core::model::{Source, TaskType};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::{input, wire};

use super::App;
use crate::error::CliError;
use crate::render::{self, safe};

/// Says every field a new task got, as it was understood: "due Fri 11 Dec 15:00 ·
/// priority 1 · project HRB · tags a, b".
pub fn understood(t: &tasks_core::model::Task, style: &render::Style) -> String {
    let mut parts = Vec::new();
    if let Some(d) = &t.due {
        parts.push(format!("due {}", render::due_words(d, &style.zone)));
    }
    if let Some(p) = t.priority {
        parts.push(format!("priority {p}"));
    }
    parts.push(format!("project {}", t.project));
    if t.task_type != TaskType::Task {
        parts.push(format!("type {}", t.task_type));
    }
    if let Some(p) = &t.person {
        parts.push(format!("person {}", safe(p)));
    }
    if let Some(c) = &t.category {
        parts.push(format!("category {}", safe(c)));
    }
    if let Some(m) = &t.amount {
        parts.push(format!("amount {}", m.to_major_text()));
    }
    if !t.tags.is_empty() {
        parts.push(format!("tags {}", safe(&t.tags.join(", "))));
    }
    if !t.blocked_by.is_empty() {
        parts.push(format!("blocked by {}", t.blocked_by.join(", ")));
    }
    parts.join(" · ")
}

/// Fields of a new task, shared by `add` and `check`.
#[derive(Debug, Args)]
pub struct TaskFields {
    /// The title, kept byte for byte
    pub title: String,
    /// Project key [default: the inbox]
    #[arg(long, short = 'p')]
    pub project: Option<String>,
    /// Type: task, bug, feature, chore, question, request, mention, promise
    #[arg(long = "type", short = 't', default_value = "task")]
    pub task_type: TaskType,
    /// Longer text
    #[arg(long, short = 'd', default_value = "")]
    pub description: String,
    /// Due: 2026-12-01, today, tomorrow, friday, next week, "tomorrow 15:00", "fri 9am", "in 2 hours", завтра, «в пятницу в 14:00» …
    #[arg(long)]
    pub due: Option<String>,
    /// Priority: 0 (highest) to 4
    #[arg(long, value_parser = |s: &str| tasks_core::model::parse_priority(s).map_err(|e| e.to_string()))]
    pub priority: Option<u8>,
    /// Category (a field, never part of the key)
    #[arg(long)]
    pub category: Option<String>,
    /// Person the task is about or came from: person:42, p07, @lena
    #[arg(long)]
    pub person: Option<String>,
    /// Amount with currency: "15000 RUB", "15 000 ₽", "$1,200.50"
    #[arg(long)]
    pub amount: Option<String>,
    /// Tag (can be repeated)
    #[arg(long = "tag")]
    pub tags: Vec<String>,
    /// The message it came from: msg:<provider>/<account>/<chat>/<id>
    #[arg(long = "source")]
    pub source_message: Option<String>,
    /// The rule that made it from the message (needs --source)
    #[arg(long, requires = "source_message")]
    pub rule: Option<String>,
    /// A task this one waits for (can be repeated)
    #[arg(long = "blocked-by")]
    pub blocked_by: Vec<String>,
    /// Created by an agent rather than by hand (recorded as the source)
    #[arg(long)]
    pub agent: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    #[command(flatten)]
    pub fields: TaskFields,
    /// Do not create: attach the source to this existing task (after a duplicate refusal)
    #[arg(long, value_name = "TASK", conflicts_with = "new")]
    pub attach: Option<String>,
    /// Create it even though the duplicate check found candidates
    #[arg(long)]
    pub new: bool,
    /// Show what would happen and write nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Builds the core request from the flags.
pub fn request(ctx: &tasks_core::Context, f: &TaskFields, dup_choice: DupChoice) -> Result<AddRequest, CliError> {
    Ok(AddRequest {
        title: f.title.clone(),
        project: f.project.clone(),
        task_type: f.task_type,
        description: f.description.clone(),
        due: f.due.as_deref().map(|d| input::parse_due_at(d, ctx)).transpose()?,
        priority: f.priority,
        category: f.category.clone(),
        person: f.person.clone(),
        amount: f.amount.as_deref().map(input::parse_amount).transpose()?,
        tags: f.tags.clone(),
        source_message: f.source_message.clone(),
        rule: f.rule.clone(),
        blocked_by: f.blocked_by.clone(),
        dup_choice,
        origin: if f.agent { Source::Agent } else { Source::Owner },
    })
}

/// The duplicate handling the flags ask for.
pub fn choice(a: &AddArgs) -> DupChoice {
    match (&a.attach, a.new) {
        (Some(t), _) => DupChoice::Attach(t.clone()),
        (None, true) => DupChoice::New,
        (None, false) => DupChoice::Check,
    }
}

pub fn run(app: &mut App, a: AddArgs) -> Result<(), CliError> {
    let req = request(&app.ctx, &a.fields, choice(&a))?;
    let out = if a.dry_run {
        add::rehearse(&mut app.store, &app.ctx, &req)?
    } else {
        add::add(&mut app.store, &app.ctx, &req)?
    };
    let now = app.ctx.now_ms();
    app.print(|| wire::added(&out, now, a.dry_run), || added_text(&out, a.dry_run, &app.style));
    Ok(())
}

/// The human text of an add: created, would create, exact match or attached, with the
/// fields understood and the candidates shown beside it.
pub fn added_text(out: &add::AddOutcome, dry_run: bool, style: &render::Style) -> String {
    let t = &out.task;
    let title = safe(&t.title);
    let mut s = if let Some(m) = &out.exact_match {
        format!(
            "{} exists already: rule {} made it from {}; nothing new was created\n",
            t.key,
            safe(&m.rule),
            safe(&m.message)
        )
    } else if let Some(k) = &out.attached_to {
        let mut s = format!("Attached to {k}: {title}\n");
        if out.reopened {
            s.push_str(&format!("  it was closed: reopened {k}\n"));
        }
        if !out.filled.is_empty() {
            s.push_str(&format!("  set on {k}: {}\n", out.filled.join(", ")));
        }
        s
    } else if dry_run {
        format!("Would create {}: {title}\n", t.key)
    } else {
        format!("Created {}: {title}\n", t.key)
    };
    if out.created || dry_run {
        let fields = understood(t, style);
        if !fields.is_empty() {
            s.push_str(&format!("  {fields}\n"));
        }
    }
    if out.queued_for_review && !out.candidates.is_empty() {
        s.push_str("It looks like an open task; the pair is queued for review (tasks duplicates):\n");
        s.push_str(&crate::render::candidates(&out.candidates, style));
    } else if out.created && !out.candidates.is_empty() {
        let all_closed = out.candidates.iter().all(|c| c.status.is_closed());
        s.push_str(if all_closed {
            "Like these closed tasks (not a refusal: only the words agree):\n"
        } else {
            "It looks like these (shown, not refused: you asked for it yourself):\n"
        });
        s.push_str(&crate::render::candidates(&out.candidates, style));
    }
    s
}
