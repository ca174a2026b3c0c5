//! Human output: aligned tables, relative due dates, colour only on a terminal and never
//! with `NO_COLOR`. JSON output is `tasks_core::wire`'s job, not this module's.

use comfy_table::{Attribute, Cell, Color, ContentArrangement, Table, presets};
use jiff::civil::Date;
use tasks_core::dedup::Candidate;
use tasks_core::model::{Due, DueKind, Status, Task};
use tasks_core::ops::query::TaskDetail;
use tasks_core::store::events::Event;
use tasks_core::time::rfc3339;

/// What the renderer needs to know about the run.
pub struct Style {
    /// Use colour.
    pub colour: bool,
    /// Today in the user's zone, for relative dates.
    pub today: Date,
    /// Now, epoch ms, for live leases.
    pub now_ms: i64,
}

/// Describes a due date relative to today: `today`, `tomorrow`, `in 3 days`,
/// `2 days ago`, or the date itself beyond two weeks.
pub fn relative_due(due: &Due, today: Date) -> String {
    let days = today.until(due.date).map(|s| s.get_days() as i64).unwrap_or(0);
    let base = match days {
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "yesterday".to_string(),
        2..=13 => format!("in {days} days ({})", weekday(due.date)),
        -13..=-2 => format!("{} days ago", -days),
        _ => due.date.to_string(),
    };
    match due.kind {
        DueKind::Week => format!("week of {base}"),
        _ => base,
    }
}

fn weekday(d: Date) -> &'static str {
    use jiff::civil::Weekday::*;
    match d.weekday() {
        Monday => "Mon",
        Tuesday => "Tue",
        Wednesday => "Wed",
        Thursday => "Thu",
        Friday => "Fri",
        Saturday => "Sat",
        Sunday => "Sun",
    }
}

fn new_table(style: &Style) -> Table {
    let mut t = Table::new();
    t.load_style(presets::NOTHING).set_content_arrangement(ContentArrangement::Disabled);
    if !style.colour {
        t.force_no_tty();
    } else {
        t.enforce_styling();
    }
    t
}

fn state(task: &Task, now_ms: i64) -> String {
    let mut s = task.status.as_str().to_string();
    if task.is_blocked() && !task.status.is_closed() {
        s.push_str(" (blocked)");
    }
    if let Some((who, _)) = task.live_claim(now_ms) {
        s.push_str(&format!(" @{who}"));
    }
    s
}

/// Renders tasks as an aligned table, or a line saying there are none.
pub fn tasks(list: &[Task], style: &Style, empty: &str) -> String {
    if list.is_empty() {
        return format!("{empty}\n");
    }
    let mut t = new_table(style);
    t.set_header(
        ["KEY", "STATUS", "P", "DUE", "PROJECT", "TITLE"].map(|h| Cell::new(h).add_attribute(Attribute::Bold)),
    );
    for task in list {
        let due = task.due.as_ref().map(|d| relative_due(d, style.today)).unwrap_or_default();
        let overdue = task.due.is_some_and(|d| d.date < style.today) && !task.status.is_closed();
        let mut due_cell = Cell::new(due);
        if overdue {
            due_cell = due_cell.fg(Color::Red);
        }
        let status_cell = match task.status {
            Status::Done | Status::Dismissed => Cell::new(state(task, style.now_ms)).fg(Color::DarkGrey),
            Status::InProgress => Cell::new(state(task, style.now_ms)).fg(Color::Yellow),
            Status::Open if task.is_blocked() => Cell::new(state(task, style.now_ms)).fg(Color::Magenta),
            Status::Open => Cell::new(state(task, style.now_ms)),
        };
        t.add_row(vec![
            Cell::new(&task.key).fg(Color::Cyan),
            status_cell,
            Cell::new(task.priority.map(|p| p.to_string()).unwrap_or_default()),
            due_cell,
            Cell::new(&task.project),
            Cell::new(&task.title),
        ]);
    }
    let mut out = String::new();
    for line in t.to_string().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Renders one task with its links.
pub fn detail(d: &TaskDetail, style: &Style) -> String {
    let t = &d.task;
    let mut out = format!("{}  {}\n", t.key, t.title);
    let mut field = |name: &str, value: String| {
        if !value.is_empty() {
            out.push_str(&format!("  {name:<11} {value}\n"));
        }
    };
    field("status", state(t, style.now_ms));
    if let Some(r) = &t.close_reason {
        field("reason", r.clone());
    }
    field("type", t.task_type.to_string());
    field("project", t.project.clone());
    field("priority", t.priority.map(|p| p.to_string()).unwrap_or_default());
    field("due", t.due.as_ref().map(|d| format!("{} ({})", d.date, relative_due(d, style.today))).unwrap_or_default());
    field("category", t.category.clone().unwrap_or_default());
    field("person", t.person.clone().unwrap_or_default());
    field("amount", t.amount.as_ref().map(|m| m.to_major_text()).unwrap_or_default());
    field("tags", t.tags.join(", "));
    if let Some((who, until)) = t.live_claim(style.now_ms) {
        field("claimed", format!("by {who} until {}", rfc3339(until)));
    }
    field("created", rfc3339(t.created_at));
    field("updated", rfc3339(t.updated_at));
    if let Some(c) = t.closed_at {
        field("closed", rfc3339(c));
    }
    field("id", t.uuid.clone());
    if let Some(l) = &t.legacy_key {
        field("legacy key", l.clone());
    }
    if !t.description.is_empty() {
        out.push('\n');
        for line in t.description.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if !d.links.is_empty() {
        out.push_str("\nlinks\n");
        for l in &d.links {
            let kind = if l.incoming {
                match l.kind.as_str() {
                    "blocked-by" => "blocks".to_string(),
                    k => format!("← {k}"),
                }
            } else {
                l.kind.to_string()
            };
            match (&l.task, &l.message) {
                (Some(o), _) => out.push_str(&format!("  {kind:<16} {} [{}] {}\n", o.key, o.status, o.title)),
                (None, Some(m)) => out.push_str(&format!("  {kind:<16} {m}\n")),
                _ => {}
            }
        }
    }
    out
}

/// Renders duplicate candidates, best first, with score, probability and reasons.
pub fn candidates(list: &[Candidate]) -> String {
    let mut out = String::new();
    for c in list {
        out.push_str(&format!(
            "  {:<10} {:>5.1} {:<8} p={:.2}  {}\n",
            c.key,
            c.score,
            c.band.as_str(),
            c.probability,
            c.title
        ));
        if !c.reasons.is_empty() {
            out.push_str(&format!("  {:<10} {}\n", "", c.reasons.join(", ")));
        }
    }
    out
}

/// Renders a task's history.
pub fn history(task: &Task, events: &[Event]) -> String {
    let mut out = format!("{}  {}\n", task.key, task.title);
    for e in events {
        out.push_str(&format!("  {}  {:<10} {:<9} {}\n", rfc3339(e.at), e.actor, e.change.kind(), e.change.to_json()));
    }
    out
}
