//! Human output: aligned tables cut to the terminal's width, relative due dates in the
//! person's zone, histories as sentences, colour only on a terminal and never with
//! `NO_COLOR`. JSON output is `tasks_core::wire`'s job, not this module's.
//!
//! Every text a person or a program wrote (titles, descriptions, notes, reasons, tags,
//! names) passes through [`safe`] before it reaches the terminal: an escape sequence in
//! a title must show as text, never act (issue 12).

use comfy_table::{Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets};
use jiff::civil::{Date, Weekday};
use jiff::tz::TimeZone;
use tasks_core::dedup::Candidate;
use tasks_core::model::{Due, DueKind, Note, Status, Task};
use tasks_core::ops::query::{Agenda, TaskDetail};
use tasks_core::store::events::Event;
use tasks_core::time::from_ms;

/// What the renderer needs to know about the run.
pub struct Style {
    /// Use colour.
    pub colour: bool,
    /// Today in the user's zone, for relative dates.
    pub today: Date,
    /// Now, epoch ms, for live leases and overdue times.
    pub now_ms: i64,
    /// The user's zone, for times of day.
    pub zone: TimeZone,
    /// The terminal's width in columns, when stdout is a terminal.
    pub width: Option<u16>,
}

impl Style {
    /// A plain style from the environment alone (for output made where no command
    /// context is at hand: an error's body).
    pub fn from_env() -> Style {
        let now = crate::env::now().unwrap_or_else(|_| jiff::Timestamp::now());
        let zone = crate::env::zone().unwrap_or(TimeZone::UTC);
        Style { colour: false, today: zone.to_datetime(now).date(), now_ms: now.as_millisecond(), zone, width: None }
    }
}

/// Returns text safe to print on one line (control and bidi characters shown, not run).
pub fn safe(text: &str) -> String {
    tasks_text::printable(text).into_owned()
}

/// Returns text of several lines safe to print: each line through [`safe`].
pub fn safe_lines(text: &str) -> String {
    text.lines().map(safe).collect::<Vec<_>>().join("\n")
}

/// Describes a due date relative to today: `today`, `tomorrow`, `in 3 days (Fri)`,
/// `2 days ago`, the date beyond two weeks; a time due adds its local time.
pub fn relative_due(due: &Due, style: &Style) -> String {
    let days = style.today.until(due.date).map(|s| s.get_days() as i64).unwrap_or(0);
    let base = match days {
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "yesterday".to_string(),
        2..=13 => format!("in {days} days ({})", weekday(due.date.weekday())),
        -13..=-2 => format!("{} days ago", -days),
        _ => due.date.to_string(),
    };
    match (due.kind, due.at) {
        (DueKind::Week, _) => format!("week of {base}"),
        (DueKind::Time, Some(at)) => format!("{base} {}", clock(at, &style.zone)),
        _ => base,
    }
}

/// Returns a due date as a person reads it: "Fri 11 Dec", "Fri 11 Dec 15:00", "the
/// week ending Sun 13 Dec".
pub fn due_words(due: &Due, zone: &TimeZone) -> String {
    let day = format!("{} {}", weekday(due.date.weekday()), due.date.strftime("%-d %b"));
    match (due.kind, due.at) {
        (DueKind::Week, _) => format!("the week ending {day}"),
        (DueKind::Time, Some(at)) => format!("{day} {}", clock(at, zone)),
        _ => day,
    }
}

/// Returns the local `HH:MM` of an instant.
fn clock(at: i64, zone: &TimeZone) -> String {
    zone.to_datetime(from_ms(at)).strftime("%H:%M").to_string()
}

/// Returns a moment as history shows it: "Mon 30 Nov 14:03" this year, else with the
/// year.
pub fn moment(at: i64, style: &Style) -> String {
    let local = style.zone.to_datetime(from_ms(at));
    if local.date().year() == style.today.year() {
        format!("{} {}", weekday(local.date().weekday()), local.strftime("%-d %b %H:%M"))
    } else {
        local.strftime("%Y-%m-%d %H:%M").to_string()
    }
}

/// Returns how long ago a moment was: "today", "yesterday", "3 days ago".
pub fn ago(at: i64, style: &Style) -> String {
    let day = style.zone.to_datetime(from_ms(at)).date();
    match day.until(style.today).map(|s| s.get_days() as i64).unwrap_or(0) {
        i64::MIN..=0 => "today".to_string(),
        1 => "yesterday".to_string(),
        n => format!("{n} days ago"),
    }
}

fn weekday(d: Weekday) -> &'static str {
    use Weekday::*;
    match d {
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
        s.push_str(&format!(" @{}", safe(who)));
    }
    s
}

/// Cuts a text to `max` characters with `…`.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Renders tasks as an aligned table, or a line saying there are none. Person and tags
/// get columns only when some task has them; on a terminal the title is cut to fit.
pub fn tasks(list: &[Task], style: &Style, empty: &str) -> String {
    if list.is_empty() {
        return format!("{empty}\n");
    }
    let with_person = list.iter().any(|t| t.person.is_some());
    let with_tags = list.iter().any(|t| !t.tags.is_empty());
    let mut header = vec!["KEY", "STATUS", "P", "DUE", "PROJECT"];
    if with_person {
        header.push("PERSON");
    }
    if with_tags {
        header.push("TAGS");
    }
    header.push("TITLE");
    let mut t = new_table(style);
    t.set_header(header.iter().map(|h| Cell::new(h).add_attribute(Attribute::Bold)).collect::<Vec<_>>());
    let rows: Vec<Vec<(String, Option<Color>)>> = list
        .iter()
        .map(|task| {
            let overdue = task.due.is_some_and(|d| d.is_overdue(style.today, style.now_ms)) && !task.status.is_closed();
            let due = task.due.as_ref().map(|d| relative_due(d, style)).unwrap_or_default();
            let status_colour = match task.status {
                Status::Done | Status::Dismissed => Some(Color::DarkGrey),
                Status::InProgress => Some(Color::Yellow),
                Status::Open if task.is_blocked() => Some(Color::Magenta),
                Status::Open => None,
            };
            let mut row = vec![
                (task.key.clone(), Some(Color::Cyan)),
                (state(task, style.now_ms), status_colour),
                (task.priority.map(|p| p.to_string()).unwrap_or_default(), None),
                (due, overdue.then_some(Color::Red)),
                (task.project.clone(), None),
            ];
            if with_person {
                row.push((safe(task.person.as_deref().unwrap_or_default()), None));
            }
            if with_tags {
                row.push((safe(&task.tags.join(",")), None));
            }
            row.push((safe(&task.title), None));
            row
        })
        .collect();
    // On a terminal, the last column (the title) gets what the others leave, at least 12.
    if let Some(width) = style.width {
        let columns = header.len();
        let used: usize = (0..columns - 1)
            .map(|c| rows.iter().map(|r| r[c].0.chars().count()).chain([header[c].len()]).max().unwrap_or(0) + 1)
            .sum();
        let room = (width as usize).saturating_sub(used + 1).max(12);
        t.set_constraints((0..columns).map(|c| {
            if c == columns - 1 {
                ColumnConstraint::UpperBoundary(Width::Fixed(room as u16))
            } else {
                ColumnConstraint::ContentWidth
            }
        }));
        for row in &rows {
            t.add_row(row.iter().enumerate().map(|(i, (text, colour))| {
                let text = if i == columns - 1 { cut(text, room) } else { text.clone() };
                colour_cell(text, *colour)
            }));
        }
    } else {
        for row in &rows {
            t.add_row(row.iter().map(|(text, colour)| colour_cell(text.clone(), *colour)));
        }
    }
    let mut out = String::new();
    for line in t.to_string().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn colour_cell(text: String, colour: Option<Color>) -> Cell {
    match colour {
        Some(c) => Cell::new(text).fg(c),
        None => Cell::new(text),
    }
}

/// Renders an agenda under headings — Overdue, Today, Inbox, This week — and says how
/// many tasks others' claims hide, so an overdue task an agent took never just vanishes.
pub fn agenda(a: &Agenda, style: &Style) -> String {
    let mut out = String::new();
    let sections = [
        (
            "Overdue",
            a.tasks
                .iter()
                .filter(|t| t.due.is_some_and(|d| d.is_overdue(style.today, style.now_ms)))
                .collect::<Vec<_>>(),
        ),
        (
            a.heading,
            a.tasks
                .iter()
                .filter(|t| !t.due.is_some_and(|d| d.is_overdue(style.today, style.now_ms)))
                .collect::<Vec<_>>(),
        ),
    ];
    for (heading, list) in sections {
        if list.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{heading} ({})\n", list.len()));
        let owned: Vec<Task> = list.into_iter().cloned().collect();
        out.push_str(&tasks(&owned, style, ""));
    }
    if out.is_empty() {
        out.push_str("Nothing on the agenda.\n");
    }
    if !a.hidden.is_empty() {
        let mut by: Vec<String> = Vec::new();
        for t in &a.hidden {
            let holder = safe(t.claimed_by.as_deref().unwrap_or("someone"));
            let overdue = if t.due.is_some_and(|d| d.is_overdue(style.today, style.now_ms)) { " overdue" } else { "" };
            by.push(format!("{holder} ({}{overdue})", t.key));
        }
        out.push_str(&format!("\n{} hidden: claimed by {} — --claimed shows them\n", a.hidden.len(), by.join(", ")));
    }
    out
}

/// Renders one task with its links and notes.
pub fn detail(d: &TaskDetail, style: &Style) -> String {
    let t = &d.task;
    let mut out = format!("{}  {}\n", t.key, safe(&t.title));
    let mut field = |name: &str, value: String| {
        if !value.is_empty() {
            out.push_str(&format!("  {name:<11} {value}\n"));
        }
    };
    field("status", state(t, style.now_ms));
    if let Some(r) = &t.close_reason {
        field("reason", safe(r));
    }
    field("type", t.task_type.to_string());
    field("project", t.project.clone());
    field("priority", t.priority.map(|p| p.to_string()).unwrap_or_default());
    field(
        "due",
        t.due
            .as_ref()
            .map(|d| format!("{} ({})", due_words(d, &style.zone), relative_due(d, style)))
            .unwrap_or_default(),
    );
    field("category", safe(t.category.as_deref().unwrap_or_default()));
    field("person", safe(t.person.as_deref().unwrap_or_default()));
    field("amount", t.amount.as_ref().map(|m| m.to_major_text()).unwrap_or_default());
    field("tags", safe(&t.tags.join(", ")));
    if let Some((who, until)) = t.live_claim(style.now_ms) {
        field("claimed", format!("by {} until {}", safe(who), moment(until, style)));
    }
    field("created", moment(t.created_at, style));
    field("updated", moment(t.updated_at, style));
    if let Some(c) = t.closed_at {
        field("closed", moment(c, style));
    }
    field("id", t.uuid.clone());
    if let Some(l) = &t.legacy_key {
        field("legacy key", l.clone());
    }
    if !t.description.is_empty() {
        out.push('\n');
        for line in t.description.lines() {
            out.push_str(&format!("  {}\n", safe(line)));
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
                (Some(o), _) => out.push_str(&format!("  {kind:<16} {} [{}] {}\n", o.key, o.status, safe(&o.title))),
                (None, Some(m)) => out.push_str(&format!("  {kind:<16} {}\n", safe(m))),
                _ => {}
            }
        }
    }
    if !d.notes.is_empty() {
        out.push_str("\nnotes\n");
        out.push_str(&notes(&d.notes, style));
    }
    out
}

/// Renders notes: "  Mon 30 Nov 14:03  lena  text".
pub fn notes(list: &[Note], style: &Style) -> String {
    let mut out = String::new();
    for n in list {
        let mut lines = n.text.lines();
        out.push_str(&format!("  {}  {}  {}\n", moment(n.at, style), safe(&n.actor), safe(lines.next().unwrap_or(""))));
        for more in lines {
            out.push_str(&format!("      {}\n", safe(more)));
        }
    }
    out
}

/// Renders duplicate candidates, best first, with score, probability, status and age,
/// and reasons.
pub fn candidates(list: &[Candidate], style: &Style) -> String {
    let mut out = String::new();
    for c in list {
        let state = match c.closed_at {
            Some(at) => format!("{} {}", c.status, ago(at, style)),
            None => format!("open, added {}", ago(c.created_at, style)),
        };
        out.push_str(&format!(
            "  {:<10} {:>5.1} {:<8} p={:.2}  {}  [{state}]\n",
            c.key,
            c.score,
            c.band.as_str(),
            c.probability,
            safe(&c.title)
        ));
        if !c.reasons.is_empty() {
            out.push_str(&format!("  {:<10} {}\n", "", safe(&c.reasons.join(", "))));
        }
    }
    out
}

/// Renders a task's history as sentences: "Mon 30 Nov 14:03  agent-7 claimed it until
/// 14:33".
pub fn history(task: &Task, events: &[Event], style: &Style) -> String {
    let mut out = format!("{}  {}\n", task.key, safe(&task.title));
    let when = |t: &str| match t.parse::<jiff::Timestamp>() {
        Ok(ts) => moment(ts.as_millisecond(), style),
        Err(_) => t.to_string(),
    };
    for e in events {
        let undo = if e.by_undo { " (undo)" } else { "" };
        out.push_str(&format!(
            "  {}  {} {}{undo}\n",
            moment(e.at, style),
            safe(&e.actor),
            safe(&e.change.summary(&when))
        ));
    }
    out
}
