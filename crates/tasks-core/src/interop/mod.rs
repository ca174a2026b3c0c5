//! Pure converters between our import lines (SPEC §10) and the task files of other
//! tools: Taskwarrior's `task export` / `task import` JSON ([`taskwarrior`]) and beads'
//! `.beads/issues.jsonl` ([`beads`]).
//!
//! Why pure: a converter reads text and returns JSON values — no store, no clock, no
//! file system — so `tasks import --from taskwarrior` is "convert, then the ordinary
//! import" and every rule of the import (limits, links, duplicate ids, one
//! transaction) applies to a converted file exactly as to a hand-written one. The
//! converters do not re-check those rules; they only produce lines the importer can
//! read, and say in [`Converted::skipped`] what they could not carry over.
//!
//! Both directions take an optional time zone (`*_in`): the foreign formats store a
//! due as an instant, ours as a local day or a local moment, and only the zone tells
//! "midnight of the 1st" from "21:00 on the 30th". The plain functions use UTC.
//!
//! Shared decisions (each submodule lists its own):
//! - A foreign due at local 00:00:00 or 23:59:59 (Taskwarrior's `sod`/`eod`) is a day
//!   due (`due` = that local date, `due_kind` = `day`); any other time of day is a
//!   time due (`due_kind` = `time`, `due_at` = the instant in UTC, `due` = its local
//!   date). Going out, a day or week due becomes 00:00 local of its day: a week due
//!   loses its week precision.
//! - Project keys are derived from a foreign project name: Latin diacritics stripped,
//!   Cyrillic transliterated, then ASCII letters and digits only, uppercased, leading
//!   digits dropped, at most 10 characters; an empty result becomes `PROJECT`, a
//!   reserved typed prefix (`Q`, `REQ`, `M`, `PR`) gets an `X`. Two different names
//!   that give the same key get `2`, `3`… in first-seen order (`HOME`, `HOME2`).
//! - Tags must be one word: runs of spaces or commas become `-`, control characters
//!   are dropped, a tag is cut at 64 characters and at most 32 are kept; every change
//!   is reported in `skipped`.
//! - A link to a task that is not in the converted input is dropped and reported (the
//!   importer refuses a whole file for one unknown `blocked_by`).
//! - A `closed_at` before `created_at` is moved to `created_at` and reported (the
//!   importer refuses it).
//! - Our own id (and legacy key) ride along in the foreign file so a round trip brings
//!   them back; when a copied foreign task repeats them, the copy gets its foreign id
//!   and no key, reported (two lines with one id or key would fail the whole import).
//! - `recur` on a line is `{"trigger": "daily"|"weekly"|"monthly"|"workdays", "raw":
//!   <the foreign text>}`, with `"weekdays": ["tue"]` (weekly) or `"day": 15`
//!   (monthly), `"time": "18:30"` (local, for a time due) and `"until": <RFC 3339>`
//!   when known; the first occurrence is the line's due.
//! - Errors name where (the element index of a JSON array, 0-based as in `jq '.[3]'`,
//!   or the 1-based line of a JSON Lines file) and the field.

pub mod beads;
pub mod taskwarrior;

use std::collections::{HashMap, HashSet};
use std::fmt;

use jiff::Timestamp;
use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use serde_json::{Map, Value, json};

use crate::keys::TYPED_PREFIXES;
use crate::limits::{TAG_MAX_CHARS, TAGS_MAX};

/// What a conversion into import lines gives: the lines, and what could not be mapped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Converted {
    /// Import lines (SPEC §10), one JSON object per task, in input order.
    pub lines: Vec<Value>,
    /// One sentence per thing that was dropped or changed on the way, each starting
    /// with the foreign task's id: shown to the person so nothing is lost silently.
    pub skipped: Vec<String>,
}

/// Where in the input an error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// The index of an element in a JSON array (0-based, as `jq '.[3]'` counts).
    Element(usize),
    /// A line of a JSON Lines file (1-based, as editors count).
    Line(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Element(i) => write!(f, "element {i}"),
            Location::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Why a conversion failed, and where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InteropError {
    /// The text is not JSON (or not JSON Lines).
    #[error("{at}: not valid JSON: {message}")]
    Json {
        /// The element or line.
        at: Location,
        /// What the JSON reader said.
        message: String,
    },
    /// A task is not a JSON object.
    #[error("{at}: expected a JSON object, found {found}")]
    NotAnObject {
        /// The element or line.
        at: Location,
        /// What kind of JSON value was there.
        found: &'static str,
    },
    /// A field every task of the format must have is missing or empty.
    #[error("{at}: field \"{field}\" is missing or empty; {needed}")]
    Missing {
        /// The element or line.
        at: Location,
        /// The field.
        field: String,
        /// Why it is needed.
        needed: &'static str,
    },
    /// A field has a value of the wrong type or shape.
    #[error("{at}: field \"{field}\": {message}")]
    BadField {
        /// The element or line.
        at: Location,
        /// The field (`annotations[2].entry` for a nested one).
        field: String,
        /// What was wrong, with the value.
        message: String,
    },
    /// Two tasks have the same id.
    #[error("{at}: id \"{id}\" is also the id of {first}")]
    DuplicateId {
        /// The later element or line.
        at: Location,
        /// The id.
        id: String,
        /// The first element or line with it.
        first: Location,
    },
    /// A task refers to an id no task of the input has, and the target format cannot
    /// name it without seeing it.
    #[error("{at}: field \"{field}\" names \"{id}\", which no line of this input has")]
    UnknownReference {
        /// The element or line.
        at: Location,
        /// The field.
        field: String,
        /// The id named.
        id: String,
    },
}

/// Returns a short rendering of a value for a message (long strings cut).
pub(crate) fn shown(v: &Value) -> String {
    crate::limits::preview(&v.to_string())
}

/// Returns true for a value that carries nothing: null, `""`, `[]`, `{}`, `false`, `0`.
pub(crate) fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// Reads a whole input as JSON elements: a JSON array (`task export`) or one object
/// per line (JSON Lines; blank lines skipped).
pub(crate) fn read_elements(input: &str) -> Result<Vec<(Location, Value)>, InteropError> {
    if input.trim_start().starts_with('[') {
        let value: Value = serde_json::from_str(input).map_err(|e| InteropError::Json {
            at: Location::Line(e.line()),
            message: format!("{e} (column {})", e.column()),
        })?;
        return match value {
            Value::Array(items) => Ok(items.into_iter().enumerate().map(|(i, v)| (Location::Element(i), v)).collect()),
            other => Err(InteropError::NotAnObject { at: Location::Element(0), found: crate::wire::json_kind(&other) }),
        };
    }
    read_json_lines(input)
}

/// Reads JSON Lines: one value per non-blank line, numbered from 1.
pub(crate) fn read_json_lines(input: &str) -> Result<Vec<(Location, Value)>, InteropError> {
    let mut out = Vec::new();
    for (i, text) in input.lines().enumerate() {
        let at = Location::Line(i + 1);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let value = serde_json::from_str(text).map_err(|e| InteropError::Json { at, message: e.to_string() })?;
        out.push((at, value));
    }
    Ok(out)
}

/// A JSON object of the input with its location: typed reads that name the field and
/// the place when the value is of the wrong kind.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    pub at: Location,
    pub map: &'a Map<String, Value>,
}

impl<'a> Obj<'a> {
    /// Views a value as an object, or says what it is instead.
    pub fn new(at: Location, value: &'a Value) -> Result<Obj<'a>, InteropError> {
        match value {
            Value::Object(map) => Ok(Obj { at, map }),
            other => Err(InteropError::NotAnObject { at, found: crate::wire::json_kind(other) }),
        }
    }

    pub fn bad(&self, field: &str, message: impl Into<String>) -> InteropError {
        InteropError::BadField { at: self.at, field: field.to_string(), message: message.into() }
    }

    pub fn missing(&self, field: &str, needed: &'static str) -> InteropError {
        InteropError::Missing { at: self.at, field: field.to_string(), needed }
    }

    /// Returns a string field, or `None` when absent or null.
    pub fn str(&self, field: &str) -> Result<Option<&'a str>, InteropError> {
        match self.map.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(self.bad(field, format!("expected a string, found {}", shown(other)))),
        }
    }

    /// Returns a string field that is not blank, or `None`.
    pub fn text(&self, field: &str) -> Result<Option<&'a str>, InteropError> {
        Ok(self.str(field)?.filter(|s| !s.trim().is_empty()))
    }

    /// Returns an id: a string, or a number written as its digits.
    pub fn id(&self, field: &str) -> Result<Option<String>, InteropError> {
        match self.map.get(field) {
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            _ => Ok(self.text(field)?.map(|s| s.trim().to_string())),
        }
    }

    /// Returns a list of strings; a single string is a list of one, numbers are read
    /// as their digits.
    pub fn strings(&self, field: &str) -> Result<Vec<String>, InteropError> {
        match self.map.get(field) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(n.to_string()),
                    other => {
                        Err(self.bad(&format!("{field}[{i}]"), format!("expected a string, found {}", shown(other))))
                    }
                })
                .collect(),
            Some(other) => Err(self.bad(field, format!("expected a list of strings, found {}", shown(other)))),
        }
    }

    /// Returns an array field (absent or null is empty).
    pub fn array(&self, field: &str) -> Result<&'a [Value], InteropError> {
        match self.map.get(field) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items.as_slice()),
            Some(other) => Err(self.bad(field, format!("expected a list, found {}", shown(other)))),
        }
    }

    /// Returns an RFC 3339 instant.
    pub fn rfc3339(&self, field: &str) -> Result<Option<Timestamp>, InteropError> {
        let Some(text) = self.text(field)? else { return Ok(None) };
        text.trim().parse::<Timestamp>().map(Some).map_err(|_| {
            self.bad(field, format!("cannot read \"{}\" as an RFC 3339 time (2026-12-01T09:00:00Z)", preview(text)))
        })
    }

    /// Returns a priority 0–4.
    pub fn priority(&self, field: &str) -> Result<Option<u8>, InteropError> {
        match self.map.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .filter(|p| *p <= u64::from(crate::model::PRIORITY_LOWEST))
                .map(|p| Some(p as u8))
                .ok_or_else(|| self.bad(field, format!("{n}: {}", crate::model::PRIORITY_HINT))),
            Some(other) => Err(self.bad(field, format!("{}: {}", shown(other), crate::model::PRIORITY_HINT))),
        }
    }
}

fn preview(text: &str) -> String {
    crate::limits::preview(text)
}

/// Returns a note of an import line.
pub(crate) fn note(at: Option<Timestamp>, text: &str) -> Value {
    match at {
        Some(at) => json!({ "at": at.to_string(), "text": text }),
        None => json!({ "text": text }),
    }
}

/// Puts `due`, `due_kind` and, for a time due, `due_at` on a line (see the module
/// docs for the day/time rule).
pub(crate) fn put_due(line: &mut Map<String, Value>, at: Timestamp, zone: &TimeZone) {
    let local = at.to_zoned_datetime(zone.clone());
    let time = local.time();
    let whole = time.subsec_nanosecond() == 0;
    let start_or_end_of_day =
        whole && (time == Time::midnight() || (time.hour(), time.minute(), time.second()) == (23, 59, 59));
    line.insert("due".into(), Value::String(local.date().to_string()));
    if start_or_end_of_day {
        line.insert("due_kind".into(), Value::String("day".into()));
    } else {
        line.insert("due_kind".into(), Value::String("time".into()));
        line.insert("due_at".into(), Value::String(at.to_string()));
    }
}

/// Returns the local date of an instant (a recurrence takes its weekday or day from it).
pub(crate) fn local_date(at: Timestamp, zone: &TimeZone) -> Date {
    at.to_zoned_datetime(zone.clone()).date()
}

/// Returns the first instant of a local day (a day due going out).
pub(crate) fn local_midnight(date: Date, zone: &TimeZone) -> Option<Timestamp> {
    zone.to_ambiguous_timestamp(date.to_datetime(Time::midnight())).compatible().ok()
}

/// The three-letter weekday names our schedules use (the planner's own).
pub(crate) use tasks_schedule::weekday_name;

/// Moves a `closed_at` before `created_at` to `created_at`, reporting it.
pub(crate) fn clamp_closed(
    who: &str,
    created: Option<Timestamp>,
    closed: Option<Timestamp>,
    skipped: &mut Vec<String>,
) -> Option<Timestamp> {
    match (created, closed) {
        (Some(c), Some(x)) if x < c => {
            skipped.push(format!("{who}: closed {x} before it was created {c}; closed_at set to the creation time"));
            Some(c)
        }
        _ => closed,
    }
}

/// Makes foreign tags valid tags of ours (see the module docs), reporting each change.
pub(crate) fn sanitize_tags(who: &str, raw: &[String], skipped: &mut Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tag in raw {
        let mut clean = String::new();
        let mut gap = false;
        for c in tag.trim().chars() {
            if c.is_whitespace() || c == ',' {
                gap = true;
            } else if !c.is_control() {
                if gap && !clean.is_empty() {
                    clean.push('-');
                }
                gap = false;
                clean.push(c);
            }
        }
        if clean.chars().count() > TAG_MAX_CHARS {
            clean = clean.chars().take(TAG_MAX_CHARS).collect();
        }
        if clean.is_empty() {
            skipped.push(format!("{who}: tag \"{}\" has no word in it; dropped", preview(tag)));
            continue;
        }
        if clean != *tag {
            skipped.push(format!("{who}: tag \"{}\" is not one word; imported as \"{clean}\"", preview(tag)));
        }
        if out.contains(&clean) {
            continue;
        }
        if out.len() == TAGS_MAX {
            skipped.push(format!("{who}: more than {TAGS_MAX} tags; \"{clean}\" dropped"));
            continue;
        }
        out.push(clean);
    }
    out
}

/// Picks each task's line id from (foreign id, id our own export left on it): ours
/// when it is unique, else the foreign id, reported. A copied task (`task duplicate`
/// copies every attribute) must not make two lines with one id, which the importer
/// would refuse for the whole file.
pub(crate) fn pick_line_ids(
    items: Vec<(String, Option<String>)>,
    what: &str,
    skipped: &mut Vec<String>,
) -> Vec<String> {
    let foreign: HashSet<String> = items.iter().map(|(f, _)| f.clone()).collect();
    let mut used: HashSet<String> = HashSet::new();
    items
        .into_iter()
        .map(|(f, restored)| {
            let id = match restored {
                Some(r) if r != f && (used.contains(&r) || foreign.contains(&r)) => {
                    skipped.push(format!("{f}: {what} \"{r}\" is another task's id too (a copy?); imported as {f}"));
                    f
                }
                Some(r) => r,
                None => f,
            };
            used.insert(id.clone());
            id
        })
        .collect()
}

/// Removes a legacy `key` a line repeats from an earlier line (a copied task), which
/// the importer would refuse, reporting it.
pub(crate) fn drop_repeated_keys(lines: &mut [Value], skipped: &mut Vec<String>) {
    let mut seen: HashSet<String> = HashSet::new();
    for line in lines.iter_mut().filter_map(Value::as_object_mut) {
        let Some(Value::String(key)) = line.get("key") else { continue };
        if !seen.insert(key.clone()) {
            let id = line.get("id").and_then(Value::as_str).unwrap_or("?");
            skipped.push(format!("{id}: key {key} is on an earlier task too (a copy?); dropped"));
            line.remove("key");
        }
    }
}

/// Longest derived project key (ours allow 16; foreign names are cut shorter so a key
/// stays easy to type).
pub const DERIVED_KEY_MAX: usize = 10;

/// Hands out project keys for foreign project names, deterministically and without
/// collisions (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct ProjectKeys {
    by_name: HashMap<String, String>,
    used: HashSet<String>,
}

impl ProjectKeys {
    /// Returns the key of a name: the same name always gets the same key.
    pub fn key_for(&mut self, name: &str) -> String {
        if let Some(key) = self.by_name.get(name) {
            return key.clone();
        }
        let base = base_key(name);
        let mut key = base.clone();
        let mut n = 1usize;
        while self.used.contains(&key) {
            n += 1;
            let suffix = n.to_string();
            let room = DERIVED_KEY_MAX.saturating_sub(suffix.len());
            key = format!("{}{suffix}", &base[..base.len().min(room)]);
        }
        self.used.insert(key.clone());
        self.by_name.insert(name.to_string(), key.clone());
        key
    }
}

/// Returns the key a name would get with no other names around.
pub fn base_key(name: &str) -> String {
    let latin = crate::dedup::entities::translit(&tasks_text::normalize(name));
    let mut key: String = latin
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .skip_while(|c| c.is_ascii_digit())
        .take(DERIVED_KEY_MAX)
        .collect();
    if key.is_empty() {
        key = "PROJECT".into();
    }
    if TYPED_PREFIXES.contains(&key.as_str()) {
        key.push('X');
    }
    key
}

/// FNV-1a, 64 bits, from a given offset basis: small, stable across versions and
/// machines (unlike `std`'s `DefaultHasher`), enough to derive ids that must never
/// change for the same input.
pub(crate) fn fnv1a64(basis: u64, bytes: &[u8]) -> u64 {
    let mut hash = basis;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The FNV-1a 64 offset basis.
pub(crate) const FNV_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// A recurrence carried by an import line (`recur`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Recur {
    /// `daily`, `weekly`, `monthly`, `workdays`, or whatever else a line says.
    pub trigger: String,
    /// The foreign text it came from.
    pub raw: Option<String>,
    /// The last instant it recurs, if any.
    pub until: Option<Timestamp>,
}

/// A due of an import line, read for going out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LineDue {
    /// The instant: `due_at`, or 00:00 local of `due`.
    pub at: Timestamp,
    /// True when the line has a time of day (`due_at`).
    pub timed: bool,
}

/// One of our import lines, read with the types the converters going out need.
///
/// Fields the foreign formats cannot hold (`amount`, `currency`, `chat`, `reply_to`,
/// `due_kind` week precision) are not read.
#[derive(Debug, Clone)]
pub(crate) struct OurLine {
    pub at: Location,
    pub id: Option<String>,
    pub key: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub task_type: Option<String>,
    pub project: Option<String>,
    pub project_name: Option<String>,
    pub person: Option<String>,
    pub category: Option<String>,
    pub priority: Option<u8>,
    pub created_at: Option<Timestamp>,
    pub status: crate::model::Status,
    pub closed_at: Option<Timestamp>,
    pub close_reason: Option<String>,
    pub due: Option<LineDue>,
    pub blocked_by: Vec<String>,
    pub tags: Vec<String>,
    pub notes: Vec<(Option<Timestamp>, String)>,
    pub recur: Option<Recur>,
}

/// Reads our import lines; the error names the element index and the field.
pub(crate) fn read_our_lines(lines: &[Value], zone: &TimeZone) -> Result<Vec<OurLine>, InteropError> {
    let mut seen: HashMap<String, Location> = HashMap::new();
    let mut out = Vec::with_capacity(lines.len());
    for (i, value) in lines.iter().enumerate() {
        let line = read_our_line(Obj::new(Location::Element(i), value)?, zone)?;
        if let Some(id) = &line.id {
            if let Some(first) = seen.get(id) {
                return Err(InteropError::DuplicateId { at: line.at, id: id.clone(), first: *first });
            }
            seen.insert(id.clone(), line.at);
        }
        out.push(line);
    }
    Ok(out)
}

fn read_our_line(o: Obj<'_>, zone: &TimeZone) -> Result<OurLine, InteropError> {
    let title = o.text("title")?.ok_or_else(|| o.missing("title", "a task needs a title"))?.to_string();
    let status = match o.text("status")? {
        Some(s) => s.parse::<crate::model::Status>().map_err(|e| o.bad("status", e.to_string()))?,
        None => crate::model::Status::Open,
    };
    let due = match (o.rfc3339("due_at")?, o.text("due")?) {
        (Some(at), _) => Some(LineDue { at, timed: true }),
        (None, Some(day)) => {
            let date: Date = day
                .trim()
                .parse()
                .map_err(|_| o.bad("due", format!("cannot read \"{}\" as a date YYYY-MM-DD", preview(day))))?;
            let at = local_midnight(date, zone).ok_or_else(|| o.bad("due", format!("{date} is out of range")))?;
            Some(LineDue { at, timed: false })
        }
        (None, None) => None,
    };
    let mut notes = Vec::new();
    for (i, n) in o.array("notes")?.iter().enumerate() {
        let field = format!("notes[{i}]");
        match n {
            Value::String(text) => notes.push((None, text.clone())),
            Value::Object(map) => {
                let item = Obj { at: o.at, map };
                let text = item.str("text").map_err(|e| rename(e, &field))?;
                let text = text.ok_or_else(|| o.missing(&format!("{field}.text"), "a note needs its text"))?;
                let at = item.rfc3339("at").map_err(|e| rename(e, &field))?;
                notes.push((at, text.to_string()));
            }
            other => return Err(o.bad(&field, format!("expected {{\"at\", \"text\"}}, found {}", shown(other)))),
        }
    }
    let recur = match o.map.get("recur") {
        None | Some(Value::Null) => None,
        Some(Value::Object(map)) => {
            let r = Obj { at: o.at, map };
            let trigger = r.text("trigger").map_err(|e| rename(e, "recur"))?;
            let trigger = trigger.ok_or_else(|| o.missing("recur.trigger", "a recurrence needs its trigger"))?;
            Some(Recur {
                trigger: trigger.trim().to_ascii_lowercase(),
                raw: r.text("raw").map_err(|e| rename(e, "recur"))?.map(str::to_string),
                until: r.rfc3339("until").map_err(|e| rename(e, "recur"))?,
            })
        }
        Some(Value::String(s)) => Some(Recur { trigger: s.trim().to_ascii_lowercase(), raw: None, until: None }),
        Some(other) => return Err(o.bad("recur", format!("expected {{\"trigger\", \"raw\"}}, found {}", shown(other)))),
    };
    let owned = |s: Option<&str>| s.map(|s| s.trim().to_string());
    Ok(OurLine {
        at: o.at,
        id: o.id("id")?,
        key: owned(o.text("key")?),
        title,
        description: o.text("description")?.map(str::to_string),
        task_type: o.text("type")?.map(|t| t.trim().to_ascii_lowercase()),
        project: owned(o.text("project")?),
        project_name: owned(o.text("project_name")?),
        person: owned(o.text("person")?),
        category: owned(o.text("category")?),
        priority: o.priority("priority")?,
        created_at: o.rfc3339("created_at")?,
        status,
        closed_at: o.rfc3339("closed_at")?,
        close_reason: owned(o.text("close_reason")?),
        due,
        blocked_by: o.strings("blocked_by")?.into_iter().map(|b| b.trim().to_string()).collect(),
        tags: o.strings("tags")?,
        notes,
        recur,
    })
}

/// Prefixes the field of a nested error with its parent (`notes[2]` + `at`).
pub(crate) fn rename(e: InteropError, parent: &str) -> InteropError {
    match e {
        InteropError::BadField { at, field, message } => {
            InteropError::BadField { at, field: format!("{parent}.{field}"), message }
        }
        InteropError::Missing { at, field, needed } => {
            InteropError::Missing { at, field: format!("{parent}.{field}"), needed }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_keys_are_derived_and_deduplicated_in_first_seen_order() {
        let mut keys = ProjectKeys::default();
        assert_eq!(keys.key_for("Home"), "HOME");
        assert_eq!(keys.key_for("home"), "HOME2");
        assert_eq!(keys.key_for("HOME!"), "HOME3");
        assert_eq!(keys.key_for("Home"), "HOME");
        assert_eq!(keys.key_for("Дом"), "DOM");
        assert_eq!(keys.key_for("Café Büro"), "CAFEBURO");
        assert_eq!(keys.key_for("2026 taxes and more"), "TAXESANDMO");
        assert_eq!(keys.key_for("2026 taxes and more!"), "TAXESANDM2");
        assert_eq!(keys.key_for("!!!"), "PROJECT");
        assert_eq!(keys.key_for("PR"), "PRX");
        assert_eq!(keys.key_for("m"), "MX");
        for key in ["HOME", "HOME2", "DOM", "CAFEBURO", "TAXESANDM2", "PROJECT", "PRX"] {
            assert!(crate::keys::parse_project_key(key).is_ok(), "{key}");
        }
    }

    #[test]
    fn tags_become_single_words_and_changes_are_reported() {
        let mut skipped = Vec::new();
        let raw: Vec<String> =
            ["ok", "two words", " , ", "a,b", "ok", &"x".repeat(70)].iter().map(|s| s.to_string()).collect();
        let tags = sanitize_tags("t1", &raw, &mut skipped);
        assert_eq!(tags, vec!["ok".to_string(), "two-words".into(), "a-b".into(), "x".repeat(64)]);
        assert_eq!(skipped.len(), 4, "{skipped:?}");
        assert!(crate::ops::add::check_tags(&tags).is_ok());
    }

    #[test]
    fn dues_at_midnight_or_end_of_day_are_days_others_are_times() {
        let zone = TimeZone::get("Europe/Moscow").expect("bundled tzdb");
        let mut line = Map::new();
        put_due(&mut line, "2026-11-30T21:00:00Z".parse().expect("ts"), &zone);
        assert_eq!(Value::Object(line.clone()), json!({"due": "2026-12-01", "due_kind": "day"}));
        put_due(&mut line, "2026-12-01T20:59:59Z".parse().expect("ts"), &zone);
        assert_eq!(Value::Object(line.clone()), json!({"due": "2026-12-01", "due_kind": "day"}));
        let mut line = Map::new();
        put_due(&mut line, "2026-12-01T12:30:00Z".parse().expect("ts"), &TimeZone::UTC);
        assert_eq!(
            Value::Object(line),
            json!({"due": "2026-12-01", "due_kind": "time", "due_at": "2026-12-01T12:30:00Z"})
        );
    }

    #[test]
    fn errors_name_the_place_and_the_field() {
        let e = read_elements("[{\"a\": 1},\n 3]").expect("an array");
        assert_eq!(e.len(), 2);
        assert_eq!(
            Obj::new(e[1].0, &e[1].1).err().map(|e| e.to_string()).as_deref(),
            Some("element 1: expected a JSON object, found a number")
        );
        let e = read_json_lines("{}\n\n{oops}\n").expect_err("bad line");
        assert!(e.to_string().starts_with("line 3: not valid JSON"), "{e}");
        let lines = [json!({"title": "a", "notes": [{"at": "yesterday", "text": "x"}]})];
        let e = read_our_lines(&lines, &TimeZone::UTC).expect_err("bad note time");
        assert!(e.to_string().starts_with("element 0: field \"notes[0].at\""), "{e}");
        let e = read_our_lines(&[json!({"id": "a", "title": "x"}), json!({"id": "a", "title": "y"})], &TimeZone::UTC)
            .expect_err("duplicate");
        assert_eq!(e.to_string(), "element 1: id \"a\" is also the id of element 0");
        let e = read_our_lines(&[json!({"title": "x", "priority": 7})], &TimeZone::UTC).expect_err("priority");
        assert!(e.to_string().contains("\"priority\""), "{e}");
    }
}
