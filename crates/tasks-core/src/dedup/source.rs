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

/// One term's task ids, strictly decreasing (newest first), as an engine reads them.
pub type IdsNewestFirst<'a, E> = Box<dyn Iterator<Item = std::result::Result<i64, E>> + 'a>;

/// Ranks like [`rank_hits`] with the same result, reading each term's ids newest first
/// and stopping as soon as no unread task can enter the top `pool`: unread ids are older
/// than every id read, so they lose ties, and none can score more than the idf of the
/// terms whose lists are not finished. A check asks for the best 400
/// ([`BM25_POOL`]) and keeps the first 20 live ones; a title of common
/// words searches its three rarest terms anyway, each held by thousands of tasks.
///
/// The same result as [`rank_hits`] needs what engines give: every idf ≥ 0 (a term's
/// idf is ln(1 + …)), and each stream strictly decreasing (FTS5 `ORDER BY rowid
/// DESC`), which debug builds assert. A task's score is summed in term order, as
/// [`rank_hits`] sums it, so equal floats tie the same way. An error is the first one
/// read; ids past the point where reading stops are never read, so an error there is
/// not seen.
pub fn rank_newest_first<E>(
    mut streams: Vec<(f64, IdsNewestFirst<'_, E>)>,
    pool: usize,
) -> std::result::Result<Vec<i64>, E> {
    if pool == 0 {
        return Ok(Vec::new());
    }
    debug_assert!(streams.iter().all(|(idf, _)| *idf >= 0.0), "an idf below 0 or NaN");
    let mut heads: Vec<Option<i64>> = Vec::with_capacity(streams.len());
    for (_, ids) in &mut streams {
        heads.push(ids.next().transpose()?);
    }
    // The best `pool` so far, best first: higher score, then the newer (higher) id.
    let mut top: Vec<(f64, i64)> = Vec::with_capacity(pool + 1);
    while let Some(id) = heads.iter().flatten().copied().max() {
        let mut score = 0.0;
        for (i, (idf, ids)) in streams.iter_mut().enumerate() {
            if heads[i] == Some(id) {
                score += *idf;
                heads[i] = ids.next().transpose()?;
                debug_assert!(heads[i].is_none_or(|next| next < id), "ids not strictly decreasing");
            }
        }
        let at = top.partition_point(|&(s, other)| s > score || (s == score && other > id));
        if at < pool {
            top.insert(at, (score, id));
            top.truncate(pool);
        }
        if top.len() == pool {
            let mut bound = 0.0;
            for (i, (idf, _)) in streams.iter().enumerate() {
                if heads[i].is_some() {
                    bound += *idf;
                }
            }
            if top.last().is_some_and(|&(worst, _)| worst >= bound) {
                break;
            }
        }
    }
    Ok(top.into_iter().map(|(_, id)| id).collect())
}

/// Ranks term hits as [`CheckSource::ranked_matches`] says: `hits` gives, per term with
/// its idf, the ids holding it.
pub fn rank_hits(hits: impl IntoIterator<Item = (f64, Vec<i64>)>, pool: usize) -> Vec<i64> {
    // foldhash, not SipHash: a title's three rarest terms may each be held by thousands
    // of tasks, and each hit is one table operation.
    let mut scores: foldhash::HashMap<i64, f64> = foldhash::HashMap::default();
    for (idf, mut ids) in hits {
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            *scores.entry(id).or_default() += idf;
        }
    }
    let mut ranked: Vec<(i64, f64)> = scores.into_iter().collect();
    ranked.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    ranked.truncate(pool);
    ranked.into_iter().map(|(id, _)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Stopping early never changes the ranking: the same ids in the same order as
        /// summing every hit, ties and equal idfs included (idfs are drawn from a few
        /// values so that ties are common).
        #[test]
        fn reading_newest_first_ranks_like_reading_everything(
            lists in proptest::collection::vec(
                (0usize..4, proptest::collection::btree_set(1i64..60, 0..40)),
                0..6,
            ),
            pool in 0usize..25,
        ) {
            let idfs = [0.5, 1.25, 2.0, 3.7];
            let hits: Vec<(f64, Vec<i64>)> =
                lists.iter().map(|(i, ids)| (idfs[*i], ids.iter().copied().collect())).collect();
            let streams: Vec<(f64, IdsNewestFirst<'_, ()>)> = hits
                .iter()
                .map(|(idf, ids)| {
                    let newest_first: Vec<std::result::Result<i64, ()>> = ids.iter().rev().map(|&id| Ok(id)).collect();
                    (*idf, Box::new(newest_first.into_iter()) as IdsNewestFirst<'_, ()>)
                })
                .collect();
            prop_assert_eq!(rank_newest_first(streams, pool), Ok(rank_hits(hits, pool)));
        }
    }

    #[test]
    fn reading_newest_first_stops_once_the_top_is_settled() {
        // Every task holds both terms: the top two are the two newest, found after
        // reading two ids of each list, never the rest.
        let read = std::cell::Cell::new(0);
        let list = |idf: f64| -> (f64, IdsNewestFirst<'_, ()>) {
            (
                idf,
                Box::new((1..=1000).rev().map(|id| {
                    read.set(read.get() + 1);
                    Ok(id)
                })),
            )
        };
        assert_eq!(rank_newest_first(vec![list(1.0), list(2.0)], 2), Ok(vec![1000, 999]));
        assert!(read.get() <= 6, "read {} ids", read.get());
    }
}
