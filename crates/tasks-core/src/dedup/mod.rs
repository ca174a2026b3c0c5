//! The duplicate check (SPEC §5, seed 000): before a task is created, find the live
//! tasks it may repeat, score each field by field with Fellegi–Sunter weights, and
//! refuse a probable duplicate instead of creating it. Never merges by itself.

pub mod compare;
pub mod embed;
pub mod entities;
pub mod eval;
pub mod profile;
pub mod weights;

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::dedup::compare::{COMPARISONS, Comparison, DocFreq};
use crate::dedup::profile::{Profile, ProfileInput};
use crate::dedup::weights::{TermFrequencies, Weights};
use crate::error::Result;
use crate::model::{Due, DueKind, Money};
use crate::store::Tx;
use crate::store::dedup as store_dedup;
use crate::time;

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

/// How far back a closed task still counts as live: 14 days (SPEC §5.3).
pub const RECENT_CLOSED_MS: i64 = 14 * 86_400_000;
/// Candidates taken from the bm25 search over stems (SPEC §5.3: limit 20).
pub const BM25_LIMIT: usize = 20;
/// Candidates taken from each side query (same person, category, thread).
pub const SIDE_LIMIT: usize = 8;
/// Most candidates scored per check ("about 40", SPEC §5.3).
pub const MAX_CANDIDATES: usize = 40;

/// Document frequencies read from the store, each stem at most once per check: the
/// query terms and every candidate's shared stems ask for the same few stems again.
struct StoreDocFreq<'a> {
    conn: &'a Connection,
    total: i64,
    seen: std::cell::RefCell<std::collections::HashMap<String, i64>>,
}

impl StoreDocFreq<'_> {
    fn lookup(&self, stem: &str) -> Result<i64> {
        if let Some(n) = self.seen.borrow().get(stem) {
            return Ok(*n);
        }
        let n = store_dedup::doc_freq(self.conn, stem)?;
        self.seen.borrow_mut().insert(stem.to_string(), n);
        Ok(n)
    }
}

impl DocFreq for StoreDocFreq<'_> {
    fn doc_freq(&self, stem: &str) -> i64 {
        self.lookup(stem).unwrap_or(0)
    }
    fn total(&self) -> i64 {
        self.total
    }
}

/// A query term found in more than this share of the store's tasks is left out of the
/// bm25 search (it still counts in the comparison): such a term adds almost nothing to
/// bm25's ranking but makes FTS5 score every task that has it — at 100k tasks, common
/// stems and concepts matched tens of thousands of rows and cost ~50 ms per check.
pub const MAX_QUERY_TERM_SHARE: f64 = 0.02;
/// The rarest terms always kept, however common, so a title of common words still
/// searches.
pub const MIN_QUERY_TERMS: usize = 3;

/// Returns the query terms worth searching — the rare ones, and at least the
/// [`MIN_QUERY_TERMS`] rarest — each with its bm25 inverse document frequency,
/// ln(1 + (N − n + 0.5) / (n + 0.5)).
fn selective_terms(df: &StoreDocFreq<'_>, terms: Vec<String>) -> Result<Vec<(String, f64)>> {
    let limit = (df.total as f64 * MAX_QUERY_TERM_SHARE).max(50.0) as i64;
    let mut with_df: Vec<(i64, String)> = terms.into_iter().map(|t| Ok((df.lookup(&t)?, t))).collect::<Result<_>>()?;
    with_df.sort();
    let total = df.total.max(1) as f64;
    Ok(with_df
        .into_iter()
        .enumerate()
        .filter(|(i, (n, _))| *i < MIN_QUERY_TERMS || *n <= limit)
        .map(|(_, (n, t))| {
            let n = (n as f64).min(total);
            (t, (1.0 + (total - n + 0.5) / (n + 0.5)).ln())
        })
        .collect())
}

/// Returns the FTS5 query matching one term as a word: quoted, so `"`, `*`, `NEAR`,
/// `OR` in a title are words, never syntax; `None` for a blank term.
pub fn match_term(term: &str) -> Option<String> {
    (!term.trim().is_empty()).then(|| format!("\"{}\"", term.replace('"', "\"\"")))
}

fn probe_profile(probe: &Probe<'_>) -> Profile {
    Profile::of(&ProfileInput {
        id: 0,
        title: probe.title,
        description: probe.description,
        person_id: probe.person_id,
        amount: probe.amount.cloned(),
        due: probe.due,
        category: probe.category,
        chat: probe.chat,
        reply_to_id: probe.reply_to_id,
        created_at: probe.at_ms,
        today: time::from_ms(probe.at_ms).to_zoned_datetime(jiff::tz::TimeZone::UTC).date().into(),
    })
}

/// Builds the probe of a stored task, as the check would have seen it at creation.
pub(crate) fn probe_of_row(row: &store_dedup::CandidateRow) -> Probe<'_> {
    Probe {
        title: &row.title,
        description: &row.description,
        person_id: row.person_id,
        amount: row.amount.as_ref(),
        due: row.due_at.and_then(|ms| {
            let kind = row.due_kind.parse::<DueKind>().ok()?;
            Some(Due { date: time::floating_date_from_ms(ms)?, kind })
        }),
        category: row.category.as_deref(),
        chat: row.chat.as_deref(),
        reply_to_id: row.reply_to_id,
        at_ms: row.created_at,
    }
}

fn row_profile(row: &store_dedup::CandidateRow) -> Profile {
    let due = row.due_at.and_then(|ms| {
        let kind = row.due_kind.parse::<DueKind>().ok()?;
        Some(Due { date: time::floating_date_from_ms(ms)?, kind })
    });
    Profile::of(&ProfileInput {
        id: row.id,
        title: &row.title,
        description: &row.description,
        person_id: row.person_id,
        amount: row.amount.clone(),
        due,
        category: row.category.as_deref(),
        chat: row.chat.as_deref(),
        reply_to_id: row.reply_to_id,
        created_at: row.created_at,
        today: time::from_ms(row.created_at).to_zoned_datetime(jiff::tz::TimeZone::UTC).date().into(),
    })
}

/// Returns the root of a task's reply chain (bounded walk).
fn thread_root(conn: &Connection, id: i64) -> i64 {
    let mut current = id;
    for _ in 0..16 {
        match store_dedup::reply_parent(conn, current) {
            Ok(Some(parent)) => current = parent,
            _ => break,
        }
    }
    current
}

/// Returns (Σ person count², Σ amount count²): the cache kept by writes, else computed.
fn squares(conn: &Connection, cached: &mut Option<(f64, f64)>) -> Result<(f64, f64)> {
    if let Some(v) = *cached {
        return Ok(v);
    }
    let v = match store_dedup::cached_squares(conn)? {
        Some(v) => v,
        None => (store_dedup::person_tf_squares(conn)?, store_dedup::amount_tf_squares(conn)?),
    };
    *cached = Some(v);
    Ok(v)
}

/// Scores a comparison: the sum of level weights, with term frequencies.
pub fn score(weights: &Weights, c: &Comparison, tf: &TermFrequencies) -> f64 {
    c.levels.iter().map(|(k, l)| weights.weight(k, l, tf)).sum()
}

/// Returns human reasons for a comparison, in the fixed comparison order (person,
/// amount, text, …), agreeing evidence first, then what speaks against.
pub fn reasons(weights: &Weights, c: &Comparison, tf: &TermFrequencies) -> Vec<String> {
    let mut pro = Vec::new();
    let mut con = Vec::new();
    for comparison in COMPARISONS {
        let Some(level) = c.levels.get(comparison) else { continue };
        let w = weights.weight(comparison, level, tf);
        let text = match (*comparison, *level) {
            ("source", "same_person") => "same person".to_string(),
            // Counted, this level weighs against: repeats in one chat come as replies.
            ("source", "same_person_same_chat") => "same person in the same chat, not a reply".to_string(),
            ("source", "same_person_other_chat") => "same person, another chat".to_string(),
            ("source", "reply") => "replies to it".to_string(),
            ("source", "same_thread") => "same reply thread".to_string(),
            ("source", "same_chat") => "same chat, not a reply".to_string(),
            ("source", "same_chat_other_person") => "another person in the same chat".to_string(),
            ("source", "other_person" | "different") => "different person".to_string(),
            ("amount", "same") => "same amount".to_string(),
            ("amount", "different") => "different amount".to_string(),
            ("text", "exact") => "same title".to_string(),
            ("text", "most" | "half" | "common") => {
                format!("{} of {} stems shared", c.text.shared, c.text.of)
            }
            ("text", "units_most" | "units_half" | "units_two") => format!(
                "{} of {} words match{}",
                c.text.units_shared,
                c.text.of,
                if c.text.cross_language { " across languages" } else { " in meaning" }
            ),
            ("text", "embed_close") => format!(
                "close in meaning{} (embedding {:.2})",
                if c.text.cross_language { " across languages" } else { "" },
                c.text.cosine.unwrap_or_default()
            ),
            ("text", "trigram") => format!("similar spelling ({:.0}% of trigrams)", c.text.trigram * 100.0),
            ("text", "rare") => format!("shares the rare word \"{}\"", c.text.rare.clone().unwrap_or_default()),
            ("context", "high" | "mid") => "descriptions agree".to_string(),
            ("context", "low") => "descriptions differ".to_string(),
            ("text", "concept" | "concept_cross") => format!(
                "same meaning{}: {}",
                if c.text.cross_language { " across languages" } else { "" },
                c.text.concepts.join(", ")
            ),
            ("due", "same") => "same due date".to_string(),
            ("due", "different") => "different due date".to_string(),
            ("category", "same") => "same category".to_string(),
            ("category", "different") => "different category".to_string(),
            ("age", "day") => "created within a day".to_string(),
            ("age", "older") => "a week or more apart".to_string(),
            ("entity", "relative" | "month" | "name") => format!("names a different {}", c.conflicts.join(" and ")),
            _ => continue,
        };
        if w >= 0.5 {
            pro.push(text);
        } else if w <= -0.5 {
            con.push(text);
        }
    }
    pro.extend(con);
    pro
}

/// Loads the weights in use: those kept by `duplicates retrain --apply`, else the
/// built-in counted table.
pub fn current_weights(conn: &Connection) -> Result<Weights> {
    let learned = store_dedup::learned_weights(conn)?;
    if learned.is_empty() {
        return Ok(Weights::builtin());
    }
    let mut w = Weights::builtin();
    for (c, l, m, u) in learned {
        w.stats.entry(c).or_default().insert(l, weights::LevelStat { m, u });
    }
    Ok(w)
}

/// Returns the scored candidates for a probe, best first (every band).
///
/// Candidates are the union of bm25 over stems and concepts, same person, same
/// category and same reply thread, live as of `probe.at_ms`; a shared chat alone never
/// makes a candidate (seed 000).
pub fn check(conn: &Connection, probe: &Probe<'_>) -> Result<Vec<Candidate>> {
    check_with(conn, probe, &current_weights(conn)?, 0)
}

/// Like [`check`], with given weights, excluding the task `self_id` (0 for none).
pub fn check_with(conn: &Connection, probe: &Probe<'_>, weights: &Weights, self_id: i64) -> Result<Vec<Candidate>> {
    let mut new = probe_profile(probe);
    // The embedder attached to this connection, if any (dedup::embed); the probe's
    // vector is computed only once a candidate needs it.
    let embed_model = embed::attached_model(conn)?;
    let (total, with_person, with_amount) = store_dedup::totals(conn)?;
    let df = StoreDocFreq { conn, total, seen: Default::default() };
    let terms = selective_terms(&df, new.query_terms())?;
    let thread_ids: Vec<i64> = probe.reply_to_id.map(|r| vec![r, thread_root(conn, r)]).unwrap_or_default();
    let category = new.category.clone();
    let ids = store_dedup::candidate_ids(
        conn,
        &store_dedup::CandidateQuery {
            terms: &terms,
            bm25_limit: BM25_LIMIT,
            person_id: probe.person_id,
            category: category.as_deref(),
            thread_ids: &thread_ids,
            side_limit: SIDE_LIMIT,
            at: probe.at_ms,
            since: probe.at_ms - RECENT_CLOSED_MS,
            self_id,
        },
    )?;
    let root = |id: i64| thread_root(conn, id);
    // Σ tf² per field, computed once per check and only when a candidate agrees.
    let mut cached: Option<(f64, f64)> = None;
    let mut person_avg: Option<f64> = None;
    let mut amount_avg: Option<f64> = None;
    let mut out = Vec::new();
    for id in ids.into_iter().take(MAX_CANDIDATES) {
        let row = store_dedup::candidate_row(conn, id)?;
        let mut cand = row_profile(&row);
        let mut c = compare::compare(&new, &cand, &df, &root);
        if let Some(model) = &embed_model
            && c.levels.get("text").is_some_and(|l| compare::EMBED_CONSULTED.contains(l))
        {
            if new.embedding.is_none() {
                new.embedding = Some(embed::embed_text(conn, probe.title)?);
            }
            cand.embedding = Some(embed::task_vector(conn, row.id, &row.title, model)?);
            c = compare::compare(&new, &cand, &df, &root);
        }
        let mut tf = TermFrequencies::default();
        if let (Some(true), Some(pid)) = (c.levels.get("source").map(|l| l.starts_with("same_person")), cand.person_id)
            && with_person >= weights::TF_MIN_TASKS
        {
            let avg = match person_avg {
                Some(a) => a,
                None => *person_avg.insert(squares(conn, &mut cached)?.0 / (with_person as f64).powi(2)),
            };
            tf.person = Some((store_dedup::person_count(conn, pid)? as f64 / with_person as f64, avg));
        }
        if let (Some(&"same"), Some(m)) = (c.levels.get("amount"), &cand.amount)
            && with_amount >= weights::TF_MIN_TASKS
        {
            let avg = match amount_avg {
                Some(a) => a,
                None => *amount_avg.insert(squares(conn, &mut cached)?.1 / (with_amount as f64).powi(2)),
            };
            tf.amount = Some((store_dedup::amount_count(conn, m.minor, &m.currency)? as f64 / with_amount as f64, avg));
        }
        let s = score(weights, &c, &tf);
        out.push(Candidate {
            task_id: row.id,
            key: row.key.clone(),
            uuid: row.uuid.clone(),
            title: row.title.clone(),
            external_id: row.external_id.clone(),
            score: s,
            band: weights::band(s),
            probability: weights.probability(s),
            reasons: reasons(weights, &c, &tf),
            levels: c.levels.iter().map(|(k, l)| (k.to_string(), l.to_string())).collect(),
        });
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.task_id.cmp(&b.task_id)));
    Ok(out)
}

/// Writes a task's rows in the FTS5 indexes, its signature and, when an embedder is
/// attached, its title embedding (same transaction as the task write).
pub(crate) fn index(tx: &Tx<'_>, task_id: i64) -> Result<()> {
    let row = store_dedup::candidate_row(tx, task_id)?;
    let p = row_profile(&row);
    let words = format!("{} {}", tasks_text::normalize(&row.title), tasks_text::normalize(&row.description));
    store_dedup::index_task(tx, task_id, &words, &p.index_terms())?;
    store_dedup::refresh_stats(tx)?;
    store_dedup::upsert_signature(tx, task_id, p.amount.as_ref(), p.due.map(|d| time::floating_date_to_ms(d.date)))?;
    embed::index(tx, task_id, &row.title)
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
