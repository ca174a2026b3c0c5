//! What the duplicate check reads from a store, as one trait, so the same check — the
//! same candidates, comparisons, weights and bands — runs on the SQLite store and on
//! the PostgreSQL store (crate `tasks-pg`). Everything that decides stays in
//! [`crate::dedup`]; an engine only answers these questions.

use crate::error::Result;
use crate::model::{Money, Status};

/// Where candidates may come from, and how many of each.
#[derive(Debug, Clone)]
pub struct CandidateQuery<'a> {
    /// Query terms with their inverse document frequencies (see
    /// [`CheckSource::ranked_matches`]).
    pub terms: &'a [(String, f64)],
    /// Most candidates taken from the ranked term matches.
    pub bm25_limit: usize,
    /// Same person (row id).
    pub person_id: Option<i64>,
    /// Same category (lowercase).
    pub category: Option<&'a str>,
    /// The reply thread: the task replied to and its root.
    pub thread_ids: &'a [i64],
    /// Most candidates taken from each side query (person, category, thread).
    pub side_limit: usize,
    /// The check runs as of this moment (epoch ms).
    pub at: i64,
    /// Closed tasks count when closed at or after this moment.
    pub since: i64,
    /// A task never its own candidate (0 for none).
    pub self_id: i64,
}

/// The cached counts behind [`CheckSource::totals`] and [`CheckSource::squares`] are
/// refreshed when the store grew by more than this share since (every engine keeps the
/// same rule, so their weights agree).
pub use crate::store::dedup::STATS_REFRESH_SHARE;

/// Best-ranked term matches considered before the live filter: four times the old pool
/// of 100 open among 400 — in a store where three of four tasks are closed, 400 still
/// leaves about 100 live matches for the top 20.
pub const BM25_POOL: usize = 400;

/// The fields of a candidate the check compares.
#[derive(Debug, Clone)]
pub struct CandidateRow {
    /// Row id.
    pub id: i64,
    /// UUID.
    pub uuid: String,
    /// Key.
    pub key: String,
    /// The caller's id from an import line.
    pub external_id: Option<String>,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money (the field).
    pub amount: Option<Money>,
    /// Due day (epoch ms of the floating day).
    pub due_at: Option<i64>,
    /// Due kind as stored.
    pub due_kind: String,
    /// Category.
    pub category: Option<String>,
    /// Chat of the source message.
    pub chat: Option<String>,
    /// The task whose message this one replies to.
    pub reply_to_id: Option<i64>,
    /// Creation time.
    pub created_at: i64,
    /// Status.
    pub status: Status,
    /// Close time.
    pub closed_at: Option<i64>,
}

/// The questions the duplicate check asks a store.
pub trait CheckSource {
    /// Returns (tasks, tasks with a person, tasks with an amount).
    fn totals(&self) -> Result<(i64, i64, i64)>;
    /// Returns how many tasks hold an index term (a stem or a concept term).
    fn doc_freq(&self, term: &str) -> Result<i64>;
    /// Returns the document frequencies of many terms, in their order: one round trip
    /// on an engine across a network (the default asks term by term).
    fn doc_freqs(&self, terms: &[&str]) -> Result<Vec<i64>> {
        terms.iter().map(|t| self.doc_freq(t)).collect()
    }
    /// Returns the ids of the tasks holding any of `terms`, best first, at most `pool`:
    /// a task scores the sum of the idf of the terms it holds (bm25 with k1 = 0, b = 0),
    /// ties going to the newer task (higher id).
    fn ranked_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>>;
    /// Returns candidate ids: the ranked matches that are live, then same person, same
    /// category, same reply thread (newest first); each source bounded, no id twice.
    ///
    /// Live, as of `q.at`: created no later, open then or closed since `q.since`, not
    /// `q.self_id`, not merged into another task (a live `duplicate-of` link).
    fn candidate_ids(&self, q: &CandidateQuery<'_>) -> Result<Vec<i64>>;
    /// Reads a candidate's fields.
    fn candidate_row(&self, id: i64) -> Result<CandidateRow>;
    /// Reads many candidates' fields, in the order given: one round trip on an engine
    /// across a network (the default reads them one by one).
    fn candidate_rows(&self, ids: &[i64]) -> Result<Vec<CandidateRow>> {
        ids.iter().map(|id| self.candidate_row(*id)).collect()
    }
    /// Returns the task a task's message replies to.
    fn reply_parent(&self, id: i64) -> Result<Option<i64>>;
    /// Returns (Σ over persons of their task count², Σ over amounts of their count²).
    fn squares(&self) -> Result<(f64, f64)>;
    /// Returns how many tasks are about this person.
    fn person_count(&self, person_id: i64) -> Result<i64>;
    /// Returns how many tasks carry this amount (the field, else one read from text), in
    /// this currency or, for `None`, in any (an amount of an unstated currency agrees
    /// with the same number in every currency).
    fn amount_count(&self, minor: i64, currency: Option<&str>) -> Result<i64>;
    /// Returns the weights kept by `duplicates retrain --apply` as (level, m, u).
    fn learned_weights(&self) -> Result<Vec<(crate::dedup::levels::Level, f64, f64)>>;
    /// Gives both profiles their embeddings when the store has an embedder attached
    /// (SQLite with the `embed` feature); returns false when it has none.
    fn embed_pair(
        &self,
        _new: &mut crate::dedup::profile::Profile,
        _new_title: &str,
        _cand: &mut crate::dedup::profile::Profile,
        _cand_row: &CandidateRow,
    ) -> Result<bool> {
        Ok(false)
    }
}

/// Merges candidate id lists in order, each id once (what every engine's
/// [`CheckSource::candidate_ids`] does with its sources).
pub fn push_unique(out: &mut Vec<i64>, ids: impl IntoIterator<Item = i64>) {
    for id in ids {
        if !out.contains(&id) {
            out.push(id);
        }
    }
}

/// Ranks term hits as [`CheckSource::ranked_matches`] says: `hits` gives, per term with
/// its idf, the ids holding it.
pub fn rank_hits(hits: impl IntoIterator<Item = (f64, Vec<i64>)>, pool: usize) -> Vec<i64> {
    let mut scores: std::collections::HashMap<i64, f64> = std::collections::HashMap::new();
    for (idf, ids) in hits {
        let unique: std::collections::HashSet<i64> = ids.into_iter().collect();
        for id in unique {
            *scores.entry(id).or_default() += idf;
        }
    }
    let mut ranked: Vec<(i64, f64)> = scores.into_iter().collect();
    ranked.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    ranked.truncate(pool);
    ranked.into_iter().map(|(id, _)| id).collect()
}
