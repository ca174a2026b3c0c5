//! `tasks import FILE.jsonl` and `tasks export` (SPEC §10).
//!
//! Import reads JSON Lines in file order, one task a line, in ONE transaction: a bad
//! line is reported with its number and field and nothing of the file is written,
//! unless `skip_bad`. Import never refuses a line as a duplicate; with a check report it
//! records, for each line before it is inserted, what the duplicate check would have
//! said at that line's `created_at` (a task closed later counts as open then).
//! `blocked_by` and `reply_to` name the caller ids of other lines; `reply_to` must be an
//! earlier line, `blocked_by` may also point forward (links are made after all lines).

use std::collections::HashMap;
use std::io::BufRead;

use jiff::Timestamp;
use serde_json::{Map, Value, json};

use crate::dedup::{self, Band, Probe};
use crate::error::{Error, Result};
use crate::input;
use crate::keys::canonical_key;
use crate::limits;
use crate::model::{Due, LinkKind, Money, Source, Status, Task, TaskType};
use crate::ops::add::{check_description, check_name, check_tags, check_title, next_key};
use crate::ops::{Context, project};
use crate::port::{Engine, Writes};
use crate::store::events::{Created, EventChange};
use crate::store::tasks as task_rows;
use crate::time;

/// The fields an import line may carry; anything else is refused as a likely typo.
pub const FIELDS: &[&str] = &[
    "id",
    "key",
    "title",
    "description",
    "type",
    "project",
    "person",
    "chat",
    "reply_to",
    "category",
    "priority",
    "created_at",
    "status",
    "closed_at",
    "close_reason",
    "due",
    "due_kind",
    "amount",
    "currency",
    "blocked_by",
    "tags",
    "project_name",
    "due_at",
    "notes",
    "recur",
];

/// Options of an import.
#[derive(Debug, Default)]
pub struct ImportOptions {
    /// Report bad lines and import the rest instead of refusing the file.
    pub skip_bad: bool,
    /// Run the duplicate check for every line before inserting it.
    pub check_report: bool,
    /// Weights for the check report (evaluation); `None` uses the store's.
    pub weights: Option<crate::dedup::weights::Weights>,
    /// Report every scored candidate, not only possible and likely ones: an evaluation
    /// explains a miss by what the check saw as of the task's creation.
    pub report_all_bands: bool,
}

/// One line of the check report.
#[derive(Debug, Clone)]
pub struct CheckLine {
    /// The caller id of the line (or its line number when it had none).
    pub id: String,
    /// Possible and likely candidates, best first (every scored one with
    /// [`ImportOptions::report_all_bands`]).
    pub candidates: Vec<dedup::Candidate>,
}

/// The outcome of an import.
#[derive(Debug, Default)]
pub struct ImportOutcome {
    /// Tasks written.
    pub imported: usize,
    /// (caller id, key) of lines whose id an earlier import brought in: skipped, so
    /// importing a file twice creates nothing twice.
    pub already_imported: Vec<(String, String)>,
    /// Bad lines skipped (only with `skip_bad`): the errors, with line numbers.
    pub skipped: Vec<Error>,
    /// (caller id, key) of each imported line.
    pub keys: Vec<(String, String)>,
    /// The check report, when asked for.
    pub report: Vec<CheckLine>,
    /// Schedules made for lines that recur.
    pub scheduled: usize,
}

/// A parsed, checked line.
struct Line {
    number: usize,
    id: Option<String>,
    legacy_key: Option<String>,
    title: String,
    description: String,
    task_type: TaskType,
    project: Option<String>,
    person: Option<String>,
    chat: Option<String>,
    reply_to: Option<String>,
    category: Option<String>,
    priority: Option<u8>,
    created_at: i64,
    status: Status,
    closed_at: Option<i64>,
    close_reason: Option<String>,
    due: Option<Due>,
    amount: Option<Money>,
    blocked_by: Vec<String>,
    tags: Vec<String>,
    project_name: Option<String>,
    notes: Vec<(i64, String)>,
    recur: Option<tasks_schedule::Trigger>,
}

fn line_error(line: usize, field: Option<&'static str>, message: impl Into<String>) -> Error {
    Error::ImportLine { line, field, message: message.into() }
}

fn field_name(name: &str) -> &'static str {
    FIELDS.iter().find(|f| **f == name).copied().unwrap_or("?")
}

fn opt_string(obj: &Map<String, Value>, name: &str, n: usize) -> Result<Option<String>> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(x)) if name == "id" || name == "reply_to" => Ok(Some(x.to_string())),
        Some(other) => Err(line_error(n, Some(field_name(name)), format!("expected a string, found {other}"))),
    }
}

fn opt_time(obj: &Map<String, Value>, name: &str, n: usize) -> Result<Option<i64>> {
    let Some(text) = opt_string(obj, name, n)? else { return Ok(None) };
    let ts: Timestamp = text.parse().map_err(|_| {
        line_error(
            n,
            Some(field_name(name)),
            format!("cannot read \"{text}\" as an RFC 3339 time (2026-03-30T09:00:00+03:00)"),
        )
    })?;
    Ok(Some(time::to_ms(ts)))
}

fn string_list(obj: &Map<String, Value>, name: &str, n: usize) -> Result<Vec<String>> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(x) => Ok(x.to_string()),
                other => Err(line_error(n, Some(field_name(name)), format!("expected strings, found {other}"))),
            })
            .collect(),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(other) => Err(line_error(n, Some(field_name(name)), format!("expected a list, found {other}"))),
    }
}

fn parse_line(text: &str, n: usize, ctx: &Context) -> Result<Line> {
    let value: Value = serde_json::from_str(text).map_err(|e| line_error(n, None, format!("not valid JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(line_error(n, None, "expected a JSON object"));
    };
    if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(line_error(n, None, format!("unknown field \"{unknown}\"; known fields: {}", FIELDS.join(", "))));
    }
    let wrap = |field: &'static str, e: Error| match e {
        Error::Invalid { value, reason, .. } => line_error(n, Some(field), format!("cannot use \"{value}\": {reason}")),
        other => line_error(n, Some(field), other.to_string()),
    };
    let title = opt_string(&obj, "title", n)?.unwrap_or_default();
    if title.trim().is_empty() {
        return Err(line_error(n, Some("title"), "a task needs a title"));
    }
    check_title(&title).map_err(|e| wrap("title", e))?;
    let task_type = match opt_string(&obj, "type", n)? {
        Some(t) => t.parse::<TaskType>().map_err(|e| wrap("type", e))?,
        None => TaskType::Task,
    };
    let status = match opt_string(&obj, "status", n)? {
        Some(s) => s.parse::<Status>().map_err(|e| wrap("status", e))?,
        None => Status::Open,
    };
    let created_at = opt_time(&obj, "created_at", n)?.unwrap_or_else(|| ctx.now_ms());
    let mut closed_at = opt_time(&obj, "closed_at", n)?;
    if status.is_closed() && closed_at.is_none() {
        closed_at = Some(created_at);
    }
    if !status.is_closed() && closed_at.is_some() {
        return Err(line_error(n, Some("closed_at"), format!("a task with status {status} has no closed_at")));
    }
    if let Some(c) = closed_at
        && c < created_at
    {
        return Err(line_error(n, Some("closed_at"), "closed_at is before created_at"));
    }
    let priority = match obj.get("priority") {
        None | Some(Value::Null) => None,
        Some(Value::Number(x)) => Some(
            x.as_u64()
                .ok_or_else(|| line_error(n, Some("priority"), format!("{x}: {}", crate::model::PRIORITY_HINT)))
                .and_then(|p| crate::model::check_priority(p).map_err(|e| wrap("priority", e)))?,
        ),
        Some(other) => {
            return Err(line_error(n, Some("priority"), format!("{other}: {}", crate::model::PRIORITY_HINT)));
        }
    };
    let created_day = time::local_today(time::from_ms(created_at), &ctx.zone);
    let due = match opt_string(&obj, "due", n)? {
        Some(d) if !d.trim().is_empty() => {
            let mut due = input::parse_due(&d, created_day).map_err(|e| wrap("due", e))?;
            if let Some(kind) = opt_string(&obj, "due_kind", n)? {
                due.kind = kind.parse().map_err(|e| wrap("due_kind", e))?;
            }
            Some(due)
        }
        _ => None,
    };
    let amount = match obj.get("amount") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(input::parse_amount(s).map_err(|e| wrap("amount", e))?),
        Some(Value::Number(x)) => {
            let currency = opt_string(&obj, "currency", n)?
                .ok_or_else(|| line_error(n, Some("currency"), "a numeric amount needs a currency"))?;
            let major = x.as_f64().ok_or_else(|| line_error(n, Some("amount"), "not a number"))?;
            Some(Money { minor: (major * 100.0).round() as i64, currency: currency.to_ascii_uppercase() })
        }
        Some(other) => return Err(line_error(n, Some("amount"), format!("expected \"15000 RUB\", found {other}"))),
    };
    let tags = string_list(&obj, "tags", n)?;
    check_tags(&tags).map_err(|e| wrap("tags", e))?;
    let description = opt_string(&obj, "description", n)?.unwrap_or_default();
    check_description(&description).map_err(|e| wrap("description", e))?;
    for field in ["project", "person", "chat", "category", "close_reason"] {
        if let Some(v) = opt_string(&obj, field, n)? {
            check_name(field_name(field), &v).map_err(|e| wrap(field_name(field), e))?;
        }
    }
    let legacy_key = match opt_string(&obj, "key", n)? {
        Some(k) => {
            Some(canonical_key(&k).ok_or_else(|| line_error(n, Some("key"), format!("\"{k}\" is not a task key")))?)
        }
        None => None,
    };
    let due = match opt_time(&obj, "due_at", n)? {
        Some(at) => Some(Due::at(time::local_today(time::from_ms(at), &ctx.zone), at)),
        None => due,
    };
    let notes = parse_notes(&obj, n, created_at)?;
    let recur = match obj.get("recur") {
        None | Some(Value::Null) => None,
        Some(Value::Object(r)) => Some(parse_recur(r, n)?),
        Some(other) => return Err(line_error(n, Some("recur"), format!("expected an object, found {other}"))),
    };
    let project_name = opt_string(&obj, "project_name", n)?;
    if let Some(v) = &project_name {
        check_name("project_name", v).map_err(|e| wrap("project_name", e))?;
    }
    Ok(Line {
        project_name,
        notes,
        recur,
        number: n,
        id: opt_string(&obj, "id", n)?,
        legacy_key,
        title,
        description,
        task_type,
        project: opt_string(&obj, "project", n)?,
        person: opt_string(&obj, "person", n)?.filter(|p| !p.trim().is_empty()),
        chat: opt_string(&obj, "chat", n)?,
        reply_to: opt_string(&obj, "reply_to", n)?,
        category: opt_string(&obj, "category", n)?,
        priority,
        created_at,
        status,
        closed_at,
        close_reason: opt_string(&obj, "close_reason", n)?,
        due,
        amount,
        blocked_by: string_list(&obj, "blocked_by", n)?,
        tags,
    })
}

/// Reads `notes`: a list of `{"at": RFC 3339, "text": …}` (or plain strings, noted at
/// the task's creation).
fn parse_notes(obj: &Map<String, Value>, n: usize, created_at: i64) -> Result<Vec<(i64, String)>> {
    let items = match obj.get("notes") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(line_error(n, Some("notes"), format!("expected a list, found {other}"))),
    };
    items
        .iter()
        .map(|item| {
            let (at, text) = match item {
                Value::String(t) => (created_at, t.clone()),
                Value::Object(o) => {
                    let text = opt_string(o, "text", n)?.unwrap_or_default();
                    (opt_time(o, "at", n)?.unwrap_or(created_at), text)
                }
                other => {
                    return Err(line_error(n, Some("notes"), format!("expected {{\"at\", \"text\"}}, found {other}")));
                }
            };
            crate::ops::note::check_note(&text).map_err(|e| line_error(n, Some("notes"), e.to_string()))?;
            Ok((at, text.trim().to_string()))
        })
        .collect()
}

/// Reads `recur`: `{"trigger": "daily"|"weekly"|"monthly"|"workdays", "weekdays": […],
/// "day": 1–31|"last", "time": "HH:MM"}` (time 09:00 when absent) — a schedule made for
/// the task, firing a due in the importing person's zone.
fn parse_recur(r: &Map<String, Value>, n: usize) -> Result<tasks_schedule::Trigger> {
    use tasks_schedule::{Trigger, parse_month_day, parse_time, parse_weekdays};
    let bad = |e: tasks_schedule::ScheduleError| line_error(n, Some("recur"), e.to_string());
    let time = parse_time(r.get("time").and_then(Value::as_str).unwrap_or("09:00")).map_err(bad)?;
    let trigger = r.get("trigger").and_then(Value::as_str).unwrap_or("");
    Ok(match trigger {
        "daily" => Trigger::Daily { time },
        "workdays" => Trigger::Weekly { weekdays: parse_weekdays("mon,tue,wed,thu,fri").map_err(bad)?, time },
        "weekly" => {
            let days: Vec<String> = match r.get("weekdays") {
                Some(Value::Array(d)) => d.iter().filter_map(Value::as_str).map(str::to_string).collect(),
                Some(Value::String(d)) => vec![d.clone()],
                _ => Vec::new(),
            };
            if days.is_empty() {
                return Err(line_error(n, Some("recur"), "a weekly recurrence needs \"weekdays\""));
            }
            Trigger::Weekly { weekdays: parse_weekdays(&days.join(",")).map_err(bad)?, time }
        }
        "monthly" => {
            let day = match r.get("day") {
                Some(Value::Number(d)) => d.to_string(),
                Some(Value::String(d)) => d.clone(),
                _ => return Err(line_error(n, Some("recur"), "a monthly recurrence needs \"day\"")),
            };
            Trigger::Monthly { day: parse_month_day(&day).map_err(bad)?, time }
        }
        other => {
            return Err(line_error(
                n,
                Some("recur"),
                format!("trigger \"{other}\" is not one of daily, weekly, monthly, workdays"),
            ));
        }
    })
}

/// What reading one line of an import gave.
enum LineRead {
    /// The input ended.
    End,
    /// A line (without its newline) is in the buffer.
    Line,
    /// The line was longer than the limit: its first bytes were dropped with the rest
    /// of it, and this many bytes were read.
    TooLong(usize),
}

/// Reads one line into `buf` without ever holding more than `max` bytes of it: a
/// gigabyte with no newline costs `max` bytes of memory, not a gigabyte.
fn read_line_bounded(input: &mut dyn BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<LineRead> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, newline) = match chunk.iter().position(|b| *b == b'\n') {
            Some(at) => (&chunk[..at], true),
            None => (chunk, false),
        };
        total += part.len();
        if total <= max {
            buf.extend_from_slice(part);
        }
        let used = part.len() + usize::from(newline);
        input.consume(used);
        if newline {
            break;
        }
    }
    if total > max {
        buf.clear();
        return Ok(LineRead::TooLong(total));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(if any { LineRead::Line } else { LineRead::End })
}

/// Imports JSON Lines read from `input` (a file, stdin), streaming: one line in memory
/// at a time, whatever the input's size.
///
/// `progress` is called with the number of lines done, for a progress bar.
pub fn import(
    store: &mut dyn Engine,
    ctx: &Context,
    input: &mut (dyn BufRead + Send),
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ImportOutcome> {
    store.bulk_session(true)?;
    // The input is read once, as it streams: an engine that runs a write again (after a
    // lost connection or a conflict, with nothing of the first attempt committed) must
    // not import what is left of it as if it were all.
    let mut attempts = 0;
    let out = store.write(|tx| {
        attempts += 1;
        if attempts > 1 {
            // Only PostgreSQL's store runs a write again (SQLite waits for its lock).
            return Err(Error::Postgres(
                "the import was interrupted (the connection was lost, or a writer conflicted) and nothing of it \
                 was written; run it again"
                    .into(),
            ));
        }
        import_in(tx, ctx, input, opts, progress)
    });
    store.bulk_session(false)?;
    out
}

/// Imports JSON Lines held in memory (tests, evaluations).
pub fn import_text(
    store: &mut dyn Engine,
    ctx: &Context,
    text: &str,
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ImportOutcome> {
    import(store, ctx, &mut text.as_bytes(), opts, progress)
}

/// What the writer keeps across lines of one import.
struct Bulk {
    /// Person handle → row id (each handle is looked up or made once).
    persons: HashMap<String, i64>,
    /// Project key as written → the project (each looked up once).
    projects: HashMap<Option<String>, crate::model::Project>,
    /// (line, key, trigger) of lines that recur: scheduled once every line is in.
    recurring: Vec<(usize, String, tasks_schedule::Trigger)>,
    /// Whether any task in the store had an external id before this import: when none
    /// did, a caller id can only name a line of this file, and no lookup is needed.
    known_external: bool,
    /// Index rows computed by the reader, written together at the end (`None` when the
    /// check report needs each line indexed before the next is checked).
    index: Option<Vec<(i64, dedup::IndexRows, String)>>,
    /// The weights every line's check report is scored with, read once per import (the
    /// caller's, or the store's: an import does not retrain); `None` without a report.
    check_weights: Option<crate::dedup::weights::Weights>,
}

/// One line as the reader thread hands it to the writer.
type Parsed = (usize, Result<Option<(Line, Option<dedup::IndexRows>)>>);

/// The reader: reads, parses and computes the index rows of each line (the CPU-heavy
/// text work) on its own thread, while the writer inserts the lines before it.
fn read_lines(
    input: &mut (dyn BufRead + Send),
    ctx: &Context,
    with_index: bool,
    send: std::sync::mpsc::SyncSender<Parsed>,
) {
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        let read = match read_line_bounded(input, &mut buf, limits::IMPORT_LINE_MAX_BYTES) {
            Ok(r) => r,
            Err(e) => {
                let _ = send.send((n + 1, Err(Error::Io { path: "the import input".into(), source: e })));
                return;
            }
        };
        n += 1;
        let result = match read {
            LineRead::End => return,
            LineRead::TooLong(len) => Err(line_error(
                n,
                None,
                format!("the line is {len} bytes long; the limit is {} bytes", limits::IMPORT_LINE_MAX_BYTES),
            )),
            LineRead::Line => match std::str::from_utf8(&buf) {
                Err(e) => Err(line_error(n, None, format!("not valid UTF-8 (at byte {})", e.valid_up_to() + 1))),
                Ok(raw) if raw.trim().is_empty() => Ok(None),
                Ok(raw) => parse_line(raw, n, ctx).map(|line| {
                    let rows = with_index.then(|| {
                        dedup::index_rows(&dedup::IndexInput {
                            title: &line.title,
                            description: &line.description,
                            amount: line.amount.as_ref(),
                            due: line.due,
                            category: line.category.as_deref(),
                            chat: line.chat.as_deref(),
                            created_at: line.created_at,
                        })
                    });
                    Some((line, rows))
                }),
            },
        };
        if send.send((n, result)).is_err() {
            // The writer stopped (an error): nothing more to read.
            return;
        }
    }
}

/// Lines the reader may run ahead of the writer.
const READ_AHEAD: usize = 1024;

fn import_in(
    tx: &dyn Writes,
    ctx: &Context,
    input: &mut (dyn BufRead + Send),
    opts: &ImportOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ImportOutcome> {
    let mut out = ImportOutcome::default();
    // Caller id → row id of the tasks lines name: imported now, or by an earlier import.
    let mut ids: HashMap<String, i64> = HashMap::new();
    // Caller id → the line of this file that carried it.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut pending_links: Vec<(usize, i64, String)> = Vec::new();
    let with_index = !opts.check_report;
    let mut bulk = Bulk {
        persons: HashMap::new(),
        projects: HashMap::new(),
        recurring: Vec::new(),
        known_external: tx.any_external_id()?,
        index: with_index.then(Vec::new),
        check_weights: match (&opts.weights, opts.check_report) {
            (_, false) => None,
            (Some(w), true) => Some(w.clone()),
            (None, true) => Some(dedup::weights_of(&*tx.check_source()?)?),
        },
    };
    // What the engine does for many inserts in one write (SQLite: references checked at
    // commit, and into an empty store the secondary indexes built once at the end).
    let dropped = tx.begin_bulk_insert()?;
    std::thread::scope(|scope| -> Result<()> {
        let (send, recv) = std::sync::mpsc::sync_channel::<Parsed>(READ_AHEAD);
        let reader_ctx = ctx.clone();
        scope.spawn(move || read_lines(input, &reader_ctx, with_index, send));
        for (n, parsed) in recv {
            progress(n);
            let result = parsed.and_then(|p| match p {
                None => Ok(None),
                Some((line, rows)) => take_line(tx, ctx, line, rows, &mut ids, &mut seen, &mut out, opts, &mut bulk),
            });
            match result {
                Ok(Some((row, blockers))) => pending_links.extend(blockers.into_iter().map(|b| (n, row, b))),
                Ok(None) => {}
                Err(e) if opts.skip_bad => out.skipped.push(e),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    })?;
    if let Some(rows) = &bulk.index {
        tx.index_new_tasks(rows)?;
    }
    tx.end_bulk_insert(&dropped)?;

    let mut new_links = Vec::new();
    for (n, row, blocker) in pending_links {
        match resolve_id(tx, &ids, &blocker, bulk.known_external)? {
            Some(target) => new_links.push(crate::graph::NewLink { line: n, from: row, to: target }),
            None => {
                let e = line_error(n, Some("blocked_by"), format!("no line has id \"{blocker}\""));
                if !opts.skip_bad {
                    return Err(e);
                }
                out.skipped.push(e);
            }
        }
    }
    out.skipped.extend(crate::graph::add_links_acyclic(tx, ctx, LinkKind::BlockedBy, &new_links, opts.skip_bad)?);
    let zone = ctx.zone.iana_name().unwrap_or("UTC").to_string();
    for (n, key, trigger) in std::mem::take(&mut bulk.recurring) {
        let req = crate::ops::schedule::manage::AddRequest {
            task: key,
            when: crate::model::schedule::When::Time(trigger),
            zone: zone.clone(),
            missed: tasks_schedule::MissedPolicy::RunOnce,
            action: crate::model::schedule::Action::Due,
            max_active: 1,
            conversation: None,
            replace: false,
        };
        match crate::ops::schedule::manage::add_in(tx, ctx, &req) {
            Ok(_) => out.scheduled += 1,
            Err(e) if opts.skip_bad => out.skipped.push(line_error(n, Some("recur"), e.to_string())),
            Err(e) => return Err(line_error(n, Some("recur"), e.to_string())),
        }
    }
    Ok(out)
}

/// Returns the row of a caller id: a line of this import, else a task an earlier
/// import made with that id.
fn resolve_id(tx: &dyn Writes, ids: &HashMap<String, i64>, id: &str, known_external: bool) -> Result<Option<i64>> {
    match ids.get(id) {
        Some(row) => Ok(Some(*row)),
        None if known_external => tx.task_id_by_external_id(id),
        None => Ok(None),
    }
}

/// Takes one parsed line: refuses an id this file used before (naming both lines),
/// skips a line whose id an earlier import brought in (re-importing a file creates
/// nothing twice; the line is reported), else inserts it.
#[allow(clippy::too_many_arguments)]
fn take_line(
    tx: &dyn Writes,
    ctx: &Context,
    line: Line,
    rows: Option<dedup::IndexRows>,
    ids: &mut HashMap<String, i64>,
    seen: &mut HashMap<String, usize>,
    out: &mut ImportOutcome,
    opts: &ImportOptions,
    bulk: &mut Bulk,
) -> Result<Inserted> {
    if let Some(id) = &line.id {
        if let Some(first) = seen.get(id) {
            return Err(line_error(line.number, Some("id"), format!("id \"{id}\" is also on line {first}")));
        }
        seen.insert(id.clone(), line.number);
        if bulk.known_external
            && let Some(existing) = tx.task_id_by_external_id(id)?
        {
            let key = tx.task(existing)?.key;
            ids.insert(id.clone(), existing);
            out.already_imported.push((id.clone(), key));
            return Ok(None);
        }
    }
    insert_line(tx, ctx, line, rows, ids, out, opts, bulk)
}

type Inserted = Option<(i64, Vec<String>)>;

#[allow(clippy::too_many_arguments)]
fn insert_line(
    tx: &dyn Writes,
    ctx: &Context,
    line: Line,
    rows: Option<dedup::IndexRows>,
    ids: &mut HashMap<String, i64>,
    out: &mut ImportOutcome,
    opts: &ImportOptions,
    bulk: &mut Bulk,
) -> Result<Inserted> {
    let n = line.number;
    let reply_to_id = match &line.reply_to {
        Some(r) => Some(
            resolve_id(tx, ids, r, bulk.known_external)?
                .ok_or_else(|| line_error(n, Some("reply_to"), format!("no earlier line has id \"{r}\"")))?,
        ),
        None => None,
    };
    let project = match bulk.projects.get(&line.project) {
        Some(p) => p.clone(),
        None => {
            let p = match project::resolve_or_inbox(tx, line.project.as_deref(), ctx.now_ms()) {
                Ok(p) => p,
                // A line that names its project (a converted export) brings it along.
                Err(Error::NotFound { .. }) if line.project_name.is_some() => {
                    let key = line.project.as_deref().unwrap_or_default();
                    let key = crate::keys::parse_project_key(key)
                        .map_err(|e| line_error(n, Some("project"), e.to_string()))?;
                    let name = line.project_name.as_deref().unwrap_or(&key).to_string();
                    tx.insert_project(&key, &name, "", crate::model::ProjectKind::Project, None, ctx.now_ms())?
                }
                Err(e) => return Err(line_error(n, Some("project"), e.to_string())),
            };
            bulk.projects.insert(line.project.clone(), p.clone());
            p
        }
    };
    let person_id = match line.person.as_deref() {
        Some(p) => Some(match bulk.persons.get(p) {
            Some(id) => *id,
            None => {
                let id = tx.person_id_or_create(p, line.created_at)?;
                bulk.persons.insert(p.to_string(), id);
                id
            }
        }),
        None => None,
    };
    if let Some(legacy) = &line.legacy_key
        && tx.task_id_by_key(legacy)?.is_some()
    {
        return Err(line_error(n, Some("key"), format!("{legacy} exists already")));
    }
    if let Some(weights) = &bulk.check_weights {
        let probe = Probe {
            title: &line.title,
            description: &line.description,
            person_id,
            amount: line.amount.as_ref(),
            due: line.due,
            category: line.category.as_deref(),
            chat: line.chat.as_deref(),
            reply_to_id,
            at_ms: line.created_at,
        };
        let candidates = dedup::check_on(&*tx.check_source()?, &probe, weights, 0)?
            .into_iter()
            .filter(|c| opts.report_all_bands || c.band >= Band::Possible)
            .collect();
        out.report.push(CheckLine { id: line.id.clone().unwrap_or_else(|| n.to_string()), candidates });
    }
    let uuid = time::uuid_v7_at(line.created_at);
    let key = next_key(tx, &project, line.task_type)?;
    let id = tx.insert_task(&task_rows::NewTaskRow {
        uuid: &uuid,
        key: &key,
        legacy_key: line.legacy_key.as_deref().filter(|k| *k != key),
        external_id: line.id.as_deref(),
        project_id: project.id,
        task_type: line.task_type,
        title: &line.title,
        description: &line.description,
        status: line.status,
        close_reason: line.close_reason.as_deref(),
        priority: line.priority,
        due: line.due,
        category: line.category.as_deref(),
        person_id,
        amount: line.amount.as_ref(),
        chat: line.chat.as_deref(),
        reply_to_id,
        created_at: line.created_at,
        closed_at: line.closed_at,
        source: Source::Import,
    })?;
    match (rows, bulk.index.as_mut()) {
        (Some(r), Some(all)) => all.push((id, r, line.title.clone())),
        _ => tx.index_task(id)?,
    }
    for t in &line.tags {
        tx.add_tag(id, t, line.created_at)?;
    }
    for (at, text) in &line.notes {
        tx.insert_note(id, *at, &ctx.actor, text, &dedup::text_terms(text))?;
    }
    if let Some(trigger) = line.recur.clone()
        && !line.status.is_closed()
    {
        bulk.recurring.push((n, key.clone(), trigger));
    }
    tx.record_event(
        id,
        line.created_at,
        &ctx.actor,
        &EventChange::Created(Created {
            key: key.clone(),
            title: line.title.clone(),
            project: project.key.clone(),
            source: Source::Import,
            line: Some(n),
        }),
    )?;
    if let Some(caller) = &line.id {
        ids.insert(caller.clone(), id);
    }
    out.imported += 1;
    out.keys.push((line.id.clone().unwrap_or_else(|| n.to_string()), key));
    Ok(Some((id, line.blocked_by)))
}

/// Returns every task as an import-shaped JSON line, oldest first: `tasks export`
/// output that `tasks import` reads back.
pub fn export(store: &dyn crate::port::Engine) -> Result<Vec<Value>> {
    let conn = store.reader();
    // Row order, not creation time: re-importing in insertion order hands out the same
    // keys and keeps every reply_to pointing at an earlier line.
    let mut all = conn.tasks(&task_rows::ListFilter::default())?;
    all.sort_by_key(|t| t.id);
    let by_key: HashMap<&str, &Task> = all.iter().map(|t| (t.key.as_str(), t)).collect();
    let names: HashMap<String, String> = conn.projects()?.into_iter().map(|p| (p.key, p.name)).collect();
    let export_id = |t: &Task| t.external_id.clone().unwrap_or_else(|| t.uuid.clone());
    all.iter()
        .map(|t| {
            let notes: Vec<Value> = conn
                .notes_of_task(t.id)?
                .into_iter()
                .map(|n| json!({ "at": time::rfc3339(n.at), "text": n.text }))
                .collect();
            let mut line = json!({
                "id": export_id(t),
                "key": t.legacy_key.clone().unwrap_or_else(|| t.key.clone()),
                "title": t.title,
                "description": t.description,
                "type": t.task_type.as_str(),
                "project": t.project,
                "project_name": names.get(&t.project),
                "person": t.person,
                "chat": t.chat,
                "reply_to": t.reply_to.as_deref().and_then(|k| by_key.get(k)).map(|r| export_id(r)),
                "category": t.category,
                "priority": t.priority,
                "created_at": time::rfc3339(t.created_at),
                "status": t.status.as_str(),
                "closed_at": t.closed_at.map(time::rfc3339),
                "close_reason": t.close_reason,
                "due": t.due.map(|d| d.date.to_string()),
                "due_kind": t.due.map(|d| d.kind.as_str()),
                "due_at": t.due.and_then(|d| d.at).map(time::rfc3339),
                "amount": t.amount.as_ref().map(|m| m.to_major_text()),
                "blocked_by": t.blocked_by.iter().filter_map(|k| by_key.get(k.as_str())).map(|b| export_id(b)).collect::<Vec<_>>(),
                "tags": t.tags,
            });
            if !notes.is_empty() {
                line["notes"] = Value::Array(notes);
            }
            Ok(line)
        })
        .collect()
}
