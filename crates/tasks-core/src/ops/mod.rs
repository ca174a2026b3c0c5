//! One function per verb (add, edit, done, link, claim, import …), called alike by the
//! CLI, the MCP server and the chat dispatcher. Each runs one `store::Tx`, writes its
//! `task_events` row and index rows in it, and returns plain model values; `wire`
//! turns them into JSON.

pub mod add;
pub mod backup;
pub mod checks;
pub mod conversation;
pub mod dump;
pub mod duplicates;
pub mod edit;
pub mod import;
pub mod link;
pub mod note;
pub mod project;
pub mod query;
pub mod schedule;
pub mod status;
pub mod undo;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use crate::time;

/// What every operation needs from its caller: the clock, the actor and the zone.
///
/// The core reads none of these itself (STYLE: core invariants), so `TASKS_NOW`,
/// `TASKS_ACTOR` and `--as` are resolved once at the edge.
#[derive(Debug, Clone)]
pub struct Context {
    /// Now.
    pub now: Timestamp,
    /// Who is acting (`--as`, `TASKS_ACTOR`, the OS user).
    pub actor: String,
    /// The zone that decides what "today" is for due dates and agenda views.
    pub zone: TimeZone,
}

impl Context {
    /// Builds a context.
    pub fn new(now: Timestamp, actor: impl Into<String>, zone: TimeZone) -> Context {
        Context { now, actor: actor.into(), zone }
    }

    /// Returns now as epoch milliseconds.
    pub fn now_ms(&self) -> i64 {
        time::to_ms(self.now)
    }

    /// Returns today's date in the context's zone.
    pub fn today(&self) -> Date {
        time::local_today(self.now, &self.zone)
    }
}
