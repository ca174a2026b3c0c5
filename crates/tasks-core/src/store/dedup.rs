//! Rows of the duplicate check: the FTS5 indexes `task_words` / `task_stems` (rowid =
//! task id), the review queue `dup_pairs`, and the labelled decisions `dup_decisions`.

use crate::store::Cached;
use rusqlite::{OptionalExtension, params};

use super::Tx;
use crate::dedup::levels::{self, Level};
use crate::dedup::{Candidate, Decision};
use crate::error::Result;

/// Replaces a task's rows in both FTS5 indexes, and moves the document frequencies of
/// the terms it no longer holds / now holds.
pub(crate) fn index_task(tx: &Tx<'_>, task_id: i64, words: &str, stems: &str) -> Result<()> {
    tx.exec_cached("DELETE FROM task_words WHERE rowid = ?1", [task_id])?;
    tx.exec_cached("INSERT INTO task_words (rowid, words) VALUES (?1, ?2)", params![task_id, words])?;
    let old: Option<String> =
        tx.query_row_cached("SELECT stems FROM task_stems WHERE rowid = ?1", [task_id], |r| r.get(0)).optional()?;
    let mut counts = TermCounts::default();
    if let Some(old) = &old {
        counts.add(old, -1);
    }
    counts.add(stems, 1);
    tx.exec_cached("DELETE FROM task_stems WHERE rowid = ?1", [task_id])?;
    tx.exec_cached("INSERT INTO task_stems (rowid, stems) VALUES (?1, ?2)", params![task_id, stems])?;
    counts.write(tx)
}

/// Inserts the index rows of a new task (no earlier rows to delete); its terms'
/// document frequencies are added to `counts`, written once for a batch.
pub(crate) fn insert_index_rows(
    tx: &Tx<'_>,
    task_id: i64,
    words: &str,
    stems: &str,
    counts: &mut TermCounts,
) -> Result<()> {
    tx.exec_cached("INSERT INTO task_words (rowid, words) VALUES (?1, ?2)", params![task_id, words])?;
    tx.exec_cached("INSERT INTO task_stems (rowid, stems) VALUES (?1, ?2)", params![task_id, stems])?;
    counts.add(stems, 1);
    Ok(())
}

/// Changes to `term_docs` gathered before they are written: one statement per distinct
/// term of a batch, not one per term of every task (an import of 100k bug reports
/// holds some 150 distinct terms per report).
#[derive(Debug, Default)]
pub(crate) struct TermCounts(std::collections::HashMap<String, i64>);

impl TermCounts {
    /// Counts each distinct token of `terms` (indexed text) once, by `delta`.
    pub(crate) fn add(&mut self, terms: &str, delta: i64) {
        let distinct: std::collections::HashSet<String> = crate::dedup::index_tokens(terms).into_iter().collect();
        for t in distinct {
            *self.0.entry(t).or_default() += delta;
        }
    }

    /// Writes the changes (terms whose count did not move are skipped).
    pub(crate) fn write(self, tx: &Tx<'_>) -> Result<()> {
        let mut terms: Vec<(String, i64)> = self.0.into_iter().filter(|(_, d)| *d != 0).collect();
        terms.sort_unstable();
        for (term, delta) in terms {
            tx.exec_cached(
                "INSERT INTO term_docs (term, docs) VALUES (?1, max(?2, 0))
                 ON CONFLICT (term) DO UPDATE SET docs = max(docs + ?2, 0)",
                params![term, delta],
            )?;
        }
        Ok(())
    }
}

/// Appends a decision row.
pub(crate) fn insert_decision(
    tx: &Tx<'_>,
    task_id: Option<i64>,
    candidate_id: i64,
    decision: Decision,
    candidate: Option<&Candidate>,
    actor: &str,
    now: i64,
) -> Result<()> {
    let levels = crate::dedup::decision_levels(candidate)?;
    tx.exec_cached(
        "INSERT INTO dup_decisions (task_id, candidate_id, decision, score, band, levels, actor, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            task_id,
            candidate_id,
            decision.as_str(),
            candidate.map(|c| c.score),
            candidate.map(|c| c.band.as_str()),
            levels,
            actor,
            now
        ],
    )?;
    Ok(())
}

/// Queues a pair for review; a pair already queued keeps its first row.
pub(crate) fn insert_pair(tx: &Tx<'_>, task_id: i64, c: &Candidate, now: i64) -> Result<()> {
    tx.exec_cached(
        "INSERT OR IGNORE INTO dup_pairs (task_id, candidate_id, score, band, reasons, levels, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            task_id,
            c.task_id,
            c.score,
            c.band.as_str(),
            serde_json::to_string(&c.reasons)?,
            serde_json::to_string(&c.levels.to_map())?,
            now
        ],
    )?;
    Ok(())
}

/// Replaces a task's signature row (amount and due as the check read them).
pub(crate) fn upsert_signature(
    tx: &Tx<'_>,
    task_id: i64,
    amount: Option<&crate::model::Money>,
    due_at: Option<i64>,
) -> Result<()> {
    tx.exec_cached(
        "INSERT INTO task_signatures (task_id, amount_minor, currency, due_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (task_id) DO UPDATE SET amount_minor = ?2, currency = ?3, due_at = ?4",
        params![task_id, amount.map(|m| m.minor), amount.map(|m| m.currency.as_str()), due_at],
    )?;
    Ok(())
}

/// The live-task condition of the check, for `t`, as of `?at` with the recency window
/// starting at `?since`: created no later than the probe, open then or closed within
/// the window, and not merged into another task.
const LIVE: &str = "t.created_at <= :at AND (t.closed_at IS NULL OR t.closed_at >= :since)
    AND t.id <> :self
    AND NOT EXISTS (SELECT 1 FROM links d WHERE d.from_task_id = t.id AND d.kind = 'duplicate-of' AND d.removed_at IS NULL)";

pub use crate::dedup::source::{BM25_POOL, CandidateQuery, CandidateRow};

/// Returns candidate task ids: bm25 over stems first, then same person, same category,
/// same reply thread; each source bounded, live tasks only, no id twice.
pub(crate) fn candidate_ids(conn: &rusqlite::Connection, q: &CandidateQuery<'_>) -> Result<Vec<i64>> {
    let mut out: Vec<i64> = Vec::new();
    let mut push = |ids: Vec<i64>| crate::dedup::source::push_unique(&mut out, ids);
    let named = |sql: &str| sql.replace(":at", "?2").replace(":since", "?3").replace(":self", "?4");
    if !q.terms.is_empty() {
        let mut live = conn.prepare_cached(&named(&format!("SELECT 1 FROM tasks t WHERE t.id = ?1 AND {LIVE}")))?;
        let mut found = Vec::new();
        for id in ranked_matches(conn, q.terms, BM25_POOL)? {
            if found.len() >= q.bm25_limit {
                break;
            }
            if live.exists(params![id, q.at, q.since, q.self_id])? {
                found.push(id);
            }
        }
        push(found);
    }
    if let Some(pid) = q.person_id {
        let sql = named(&format!(
            "SELECT t.id FROM tasks t WHERE t.person_id = ?1 AND {LIVE} ORDER BY t.created_at DESC LIMIT ?5"
        ));
        let mut stmt = conn.prepare_cached(&sql)?;
        let ids = stmt
            .query_map(params![pid, q.at, q.since, q.self_id, q.side_limit as i64], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        push(ids);
    }
    if let Some(cat) = q.category {
        let sql = named(&format!(
            "SELECT t.id FROM tasks t WHERE lower(t.category) = ?1 AND {LIVE} ORDER BY t.created_at DESC LIMIT ?5"
        ));
        let mut stmt = conn.prepare_cached(&sql)?;
        let ids = stmt
            .query_map(params![cat, q.at, q.since, q.self_id, q.side_limit as i64], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        push(ids);
    }
    for &tid in q.thread_ids {
        let sql = named(&format!(
            "SELECT t.id FROM tasks t WHERE (t.id = ?1 OR t.reply_to_id = ?1) AND {LIVE} ORDER BY t.created_at DESC LIMIT ?5"
        ));
        let mut stmt = conn.prepare_cached(&sql)?;
        let ids = stmt
            .query_map(params![tid, q.at, q.since, q.self_id, q.side_limit as i64], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        push(ids);
    }
    Ok(out)
}

/// Returns the ids of the tasks whose stems contain any of `terms`, best first, at most
/// `pool` of them.
///
/// The ranking is bm25 with k1 = 0 and b = 0: a task scores the sum of the idf of the
/// query terms it contains, ties going to the newer task. On titles of a few words a
/// term occurs once, so term-frequency saturation and length normalization change
/// little, while FTS5's `bm25()` computes them for every matching row: at 100k tasks a
/// title of common words matched ~6,000 rows and ranking them took ~15 ms of a 28 ms
/// check. Reading each term's posting list (rowids only) and summing here costs a
/// fraction of that; since issue 16's seventh round the lists are read newest first and
/// only as far as the top `pool` is undecided ([`crate::dedup::source::rank_newest_first`]).
pub(crate) fn ranked_matches(conn: &rusqlite::Connection, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
    /// Statements kept in the cache for one check's terms: each term's list is read at
    /// the same time as the others', so each needs its own statement, and one SQL text
    /// is cached once. A term past the last slot prepares its own.
    const SLOTS: usize = 8;
    let mut queries = Vec::with_capacity(terms.len());
    for (term, idf) in terms {
        if let Some(expr) = crate::dedup::match_term(term) {
            let slot = queries.len().min(SLOTS - 1);
            let sql = format!("SELECT rowid FROM task_stems WHERE task_stems MATCH ?1 ORDER BY rowid DESC -- {slot}");
            queries.push((*idf, conn.prepare_cached(&sql)?, expr));
        }
    }
    let mut streams: Vec<(f64, crate::dedup::source::IdsNewestFirst<'_, rusqlite::Error>)> = Vec::new();
    for (idf, stmt, expr) in &mut queries {
        streams.push((*idf, Box::new(stmt.query_map([expr.as_str()], |r| r.get(0))?)));
    }
    Ok(crate::dedup::source::rank_newest_first(streams, pool)?)
}

/// Like [`ranked_matches`], with a task's notes counting as its text: a term found in
/// the task or in any of its notes adds its weight once. Every posting is read and
/// summed ([`crate::dedup::source::rank_hits`]): a search, not a check.
pub(crate) fn ranked_matches_with_notes(
    conn: &rusqlite::Connection,
    terms: &[(String, f64)],
    pool: usize,
) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached("SELECT rowid FROM task_stems WHERE task_stems MATCH ?1")?;
    let mut hits = Vec::with_capacity(terms.len());
    for (term, idf) in terms {
        let Some(expr) = crate::dedup::match_term(term) else { continue };
        let mut ids: Vec<i64> = stmt.query_map([expr.as_str()], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        ids.extend(crate::store::notes::tasks_matching(conn, &expr)?);
        hits.push((*idf, ids));
    }
    Ok(crate::dedup::source::rank_hits(hits, pool))
}

/// Reads the candidate rows of these ids.
pub(crate) fn candidate_row(conn: &rusqlite::Connection, id: i64) -> Result<CandidateRow> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, uuid, key, external_id, title, description, person_id, amount_minor, currency, due_at, due_kind,
                category, chat, reply_to_id, created_at, status, closed_at FROM tasks WHERE id = ?1",
    )?;
    Ok(stmt.query_row([id], |r| {
        let amount = match (r.get::<_, Option<i64>>(7)?, r.get::<_, Option<String>>(8)?) {
            (Some(minor), Some(currency)) => Some(crate::model::Money { minor, currency }),
            _ => None,
        };
        Ok(CandidateRow {
            id: r.get(0)?,
            uuid: r.get(1)?,
            key: r.get(2)?,
            external_id: r.get(3)?,
            title: r.get(4)?,
            description: r.get(5)?,
            person_id: r.get(6)?,
            amount,
            due_at: r.get(9)?,
            due_kind: r.get(10)?,
            category: r.get(11)?,
            chat: r.get(12)?,
            reply_to_id: r.get(13)?,
            created_at: r.get(14)?,
            status: r.get::<_, String>(15)?.parse().unwrap_or(crate::model::Status::Open),
            closed_at: r.get(16)?,
        })
    })?)
}

/// Returns how many indexed tasks contain a stem (0 for a term that is not one token as
/// FTS5 splits it, such as "16:00": it has no count of its own, and the check reads
/// its tokens' counts instead, see `dedup::split_term`).
pub(crate) fn doc_freq(conn: &rusqlite::Connection, stem: &str) -> Result<i64> {
    let mut stmt = conn.prepare_cached("SELECT docs FROM term_docs WHERE term = ?1")?;
    Ok(stmt.query_row([stem], |r| r.get(0)).optional()?.unwrap_or(0))
}

/// Returns the document frequencies of many terms, in their order, in one statement: a
/// long report's check asks for hundreds (its own description stems and its 40
/// candidates'), and a statement each was about a seventh of its profile.
pub(crate) fn doc_freqs(conn: &rusqlite::Connection, terms: &[&str]) -> Result<Vec<i64>> {
    let list = serde_json::to_string(terms)?;
    let mut stmt = conn.prepare_cached(
        "SELECT coalesce(d.docs, 0) FROM json_each(?1) j LEFT JOIN term_docs d ON d.term = j.value ORDER BY j.key",
    )?;
    let counts: Vec<i64> = stmt.query_map([list], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(counts)
}

/// Returns how many tasks there are, and how many have a person.
pub(crate) fn totals(conn: &rusqlite::Connection) -> Result<(i64, i64, i64)> {
    // The counts kept with the Σ tf² cache (refreshed by writes) save three scans.
    let mut stmt =
        conn.prepare_cached("SELECT name, value FROM dup_stats WHERE name IN ('tasks_n', 'person_n', 'amount_n')")?;
    let rows: Vec<(String, f64)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    let get = |n: &str| rows.iter().find(|(k, _)| k == n).map(|(_, v)| *v as i64);
    if let (Some(t), Some(p), Some(a)) = (get("tasks_n"), get("person_n"), get("amount_n")) {
        return Ok((t, p, a));
    }
    Ok(conn.query_row_cached(
        "SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM tasks WHERE person_id IS NOT NULL),
                (SELECT count(*) FROM task_signatures WHERE amount_minor IS NOT NULL)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?)
}

/// Returns how many tasks are by this person.
pub(crate) fn person_count(conn: &rusqlite::Connection, person_id: i64) -> Result<i64> {
    let mut stmt = conn.prepare_cached("SELECT count(*) FROM tasks WHERE person_id = ?1")?;
    Ok(stmt.query_row([person_id], |r| r.get(0))?)
}

/// Returns how many tasks carry this amount.
pub(crate) fn amount_count(conn: &rusqlite::Connection, minor: i64, currency: Option<&str>) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "SELECT count(*) FROM task_signatures WHERE amount_minor = ?1 AND (?2 IS NULL OR currency = ?2)",
    )?;
    Ok(stmt.query_row(params![minor, currency], |r| r.get(0))?)
}

/// Returns the reply parent of a task.
pub(crate) fn reply_parent(conn: &rusqlite::Connection, id: i64) -> Result<Option<i64>> {
    let mut stmt = conn.prepare_cached("SELECT reply_to_id FROM tasks WHERE id = ?1")?;
    Ok(stmt.query_row([id], |r| r.get(0)).optional()?.flatten())
}

/// Returns the weights kept by `duplicates retrain --apply`: (comparison, level, m, u).
///
/// A row whose level this version does not know (kept by an older one) is left out:
/// the built-in weight of today's levels stands in for it. A retired level that another
/// took over reads as that one (`Level::parse`); `dedup::weights_of` adds such rows up.
pub(crate) fn learned_weights(conn: &rusqlite::Connection) -> Result<Vec<(Level, f64, f64)>> {
    let mut stmt = conn.prepare_cached("SELECT comparison, level, m, u FROM dup_weights")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get(2)?, r.get(3)?)))?;
    let rows: Vec<(String, String, f64, f64)> = rows.collect::<rusqlite::Result<_>>()?;
    Ok(rows.into_iter().filter_map(|(c, l, m, u)| Some((Level::parse(&c, &l)?, m, u))).collect())
}

/// A queued pair as the review list shows it.
#[derive(Debug, Clone)]
pub struct PendingPair {
    /// Queue row id.
    pub id: i64,
    /// The newer task (row id).
    pub task_id: i64,
    /// The existing task it looked like.
    pub candidate_id: i64,
    /// Score when queued.
    pub score: f64,
    /// Band when queued.
    pub band: String,
    /// Reasons when queued.
    pub reasons: Vec<String>,
    /// When queued, epoch ms.
    pub created_at: i64,
}

/// Returns pending pairs, newest first, leaving out pairs someone rejected.
pub(crate) fn pending_pairs(conn: &rusqlite::Connection, limit: usize) -> Result<Vec<PendingPair>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.task_id, p.candidate_id, p.score, p.band, p.reasons, p.created_at FROM dup_pairs p
         WHERE p.resolved_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM dup_decisions d WHERE d.decision = 'reject'
                 AND ((d.task_id = p.task_id AND d.candidate_id = p.candidate_id)
                   OR (d.task_id = p.candidate_id AND d.candidate_id = p.task_id)))
         ORDER BY p.created_at DESC, p.id DESC LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        let reasons: String = r.get(5)?;
        Ok(PendingPair {
            id: r.get(0)?,
            task_id: r.get(1)?,
            candidate_id: r.get(2)?,
            score: r.get(3)?,
            band: r.get(4)?,
            reasons: serde_json::from_str(&reasons).unwrap_or_default(),
            created_at: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Marks queued pairs between two tasks resolved.
pub(crate) fn resolve_pairs(tx: &Tx<'_>, a: i64, b: i64, resolution: Decision, now: i64) -> Result<usize> {
    Ok(tx.exec_cached(
        "UPDATE dup_pairs SET resolved_at = ?3, resolution = ?4
         WHERE resolved_at IS NULL AND ((task_id = ?1 AND candidate_id = ?2) OR (task_id = ?2 AND candidate_id = ?1))",
        params![a, b, now, resolution.as_str()],
    )?)
}

/// A labelled decision with the levels seen when it was made.
#[derive(Debug, Clone)]
pub struct LabelledDecision {
    /// Merge, attach, reject or new.
    pub decision: Decision,
    /// The levels the check saw for the pair when it was decided.
    pub levels: Vec<Level>,
}

impl LabelledDecision {
    /// Reads a stored decision (its spelling and its levels as JSON), as every engine
    /// stores it; `None` for a decision of another kind.
    pub fn from_stored(decision: &str, levels: &str) -> Result<Option<LabelledDecision>> {
        let Some(decision) = Decision::parse(decision) else { return Ok(None) };
        let map: std::collections::BTreeMap<String, String> = serde_json::from_str(levels)?;
        Ok(Some(LabelledDecision { decision, levels: levels::parse_map(&map) }))
    }
}

/// Returns every decision that carries levels (merge, attach, reject, new).
pub(crate) fn labelled_decisions(conn: &rusqlite::Connection) -> Result<Vec<LabelledDecision>> {
    let mut stmt = conn.prepare_cached(
        "SELECT decision, levels FROM dup_decisions WHERE decision IN ('merge', 'attach', 'reject', 'new') AND levels <> '{}'",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (decision, stored) = row?;
        out.extend(LabelledDecision::from_stored(&decision, &stored)?);
    }
    Ok(out)
}

/// Replaces the learned weights.
pub(crate) fn store_weights(tx: &Tx<'_>, rows: &[(Level, f64, f64, f64)], now: i64) -> Result<()> {
    tx.exec_cached("DELETE FROM dup_weights", [])?;
    for (level, m, u, w) in rows {
        tx.exec_cached(
            "INSERT INTO dup_weights (comparison, level, m, u, weight, trained_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![level.comparison().as_str(), level.as_str(), m, u, w, now],
        )?;
    }
    Ok(())
}

/// Returns the ids of up to `n` tasks spread evenly over the store, for random pairs.
pub(crate) fn sample_ids(conn: &rusqlite::Connection, n: usize) -> Result<Vec<i64>> {
    let total: i64 = conn.query_row_cached("SELECT count(*) FROM tasks", [], |r| r.get(0))?;
    let step = (total / n.max(1) as i64).max(1);
    let mut stmt = conn.prepare_cached("SELECT id FROM tasks WHERE id % ?1 = 0 ORDER BY id LIMIT ?2")?;
    let rows = stmt.query_map(params![step, n as i64], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns whether a merge or attach decision joins the two tasks (either order).
pub(crate) fn is_merged_pair(conn: &rusqlite::Connection, a: i64, b: i64) -> Result<bool> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM dup_decisions WHERE decision IN ('merge', 'attach')
               AND ((task_id = ?1 AND candidate_id = ?2) OR (task_id = ?2 AND candidate_id = ?1)) LIMIT 1",
            params![a, b],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// Returns Σ over persons of (tasks by that person)².
pub(crate) fn person_tf_squares(conn: &rusqlite::Connection) -> Result<f64> {
    Ok(conn.query_row_cached(
        "SELECT coalesce(sum(c * c), 0) FROM (SELECT count(*) AS c FROM tasks WHERE person_id IS NOT NULL GROUP BY person_id)",
        [],
        |r| r.get::<_, f64>(0),
    )?)
}

/// Returns Σ over amounts of (tasks with that amount)².
pub(crate) fn amount_tf_squares(conn: &rusqlite::Connection) -> Result<f64> {
    Ok(conn.query_row_cached(
        "SELECT coalesce(sum(c * c), 0) FROM (SELECT count(*) AS c FROM task_signatures
           WHERE amount_minor IS NOT NULL GROUP BY amount_minor, currency)",
        [],
        |r| r.get::<_, f64>(0),
    )?)
}

/// Refresh the cached Σ tf² sums when the store grew by more than this share since.
pub const STATS_REFRESH_SHARE: f64 = 0.01;

/// Returns the cached (Σ person count², Σ amount count²), if any.
pub(crate) fn cached_squares(conn: &rusqlite::Connection) -> Result<Option<(f64, f64)>> {
    let mut stmt = conn.prepare_cached("SELECT name, value FROM dup_stats WHERE name IN ('person_sq', 'amount_sq')")?;
    let rows: Vec<(String, f64)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    let get = |n: &str| rows.iter().find(|(k, _)| k == n).map(|(_, v)| *v);
    Ok(get("person_sq").zip(get("amount_sq")))
}

/// Returns the version of the check's index ([`crate::dedup::INDEX_VERSION`]), kept in
/// SQLite's `user_version` header field, which the schema's own version (the
/// `schema_migrations` table) leaves unused: a store file carries it through a copy or
/// a `VACUUM INTO` backup with the rows it describes.
pub(crate) fn index_version(conn: &rusqlite::Connection) -> Result<i32> {
    Ok(conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

/// Records the version of the check's index (inside the write that made it so).
pub(crate) fn set_index_version(tx: &Tx<'_>, version: i32) -> Result<()> {
    tx.pragma_update(None, "user_version", version)?;
    Ok(())
}

/// Drops the cached sums, so the next [`refresh_stats`] recounts them whatever the
/// number of tasks (a reindex changes signatures, not the count).
pub(crate) fn forget_stats(tx: &Tx<'_>) -> Result<()> {
    tx.exec_cached("DELETE FROM dup_stats", [])?;
    Ok(())
}

/// Recomputes the cached sums when missing or stale (called inside writes).
pub(crate) fn refresh_stats(tx: &Tx<'_>) -> Result<()> {
    // max(id) stands in for count(*): O(log n) instead of a scan on every write.
    let total: i64 = tx.query_row_cached("SELECT coalesce(max(id), 0) FROM tasks", [], |r| r.get(0))?;
    let at: Option<i64> =
        tx.query_row_cached("SELECT tasks FROM dup_stats WHERE name = 'person_sq'", [], |r| r.get(0)).optional()?;
    let stale = match at {
        None => true,
        Some(at) => (total - at).abs() as f64 > (at as f64 * STATS_REFRESH_SHARE).max(1.0),
    };
    if !stale {
        return Ok(());
    }
    let person = person_tf_squares(tx)?;
    let amount = amount_tf_squares(tx)?;
    let (tasks_n, person_n, amount_n) = tx.query_row_cached(
        "SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM tasks WHERE person_id IS NOT NULL),
                (SELECT count(*) FROM task_signatures WHERE amount_minor IS NOT NULL)",
        [],
        |r| Ok((r.get::<_, f64>(0)?, r.get::<_, f64>(1)?, r.get::<_, f64>(2)?)),
    )?;
    for (name, value) in [
        ("person_sq", person),
        ("amount_sq", amount),
        ("tasks_n", tasks_n),
        ("person_n", person_n),
        ("amount_n", amount_n),
    ] {
        tx.exec_cached(
            "INSERT INTO dup_stats (name, value, tasks) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) DO UPDATE SET value = ?2, tasks = ?3",
            params![name, value, total],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Terms whose kept count (`term_docs`) differs from FTS5's own (`task_stems_vocab`).
    fn term_docs_off(conn: &rusqlite::Connection) -> Vec<(String, i64, i64)> {
        let mut stmt = conn
            .prepare(
                "SELECT coalesce(v.term, d.term), coalesce(v.doc, 0), coalesce(d.docs, 0)
                 FROM task_stems_vocab v FULL JOIN term_docs d ON d.term = v.term
                 WHERE coalesce(v.doc, 0) <> coalesce(d.docs, 0)",
            )
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<rusqlite::Result<_>>()
            .expect("rows")
    }

    /// A store in a fresh temp dir (kept alive by the returned dir), and a context.
    fn on_disk() -> (tempfile::TempDir, std::path::PathBuf, crate::store::Store, crate::Context) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t.db");
        let store = crate::store::Store::open(&path).expect("store");
        let ctx = crate::Context::new("2026-12-02T10:00:00Z".parse().expect("time"), "me", jiff::tz::TimeZone::UTC);
        (dir, path, store, ctx)
    }

    /// A reindex rewrites every task's rows in place: the kept document frequencies
    /// still equal FTS5's own, each task has one row, and the statistics are recounted.
    #[test]
    fn a_reindex_keeps_the_index_consistent() {
        use crate::ops::{add, duplicates};
        let (_dir, _, mut store, ctx) = on_disk();
        for title in ["Send the invoice to Brightlane", "Аренда за июнь, 65к", "Call the bank"] {
            let req = add::AddRequest { dup_choice: add::DupChoice::New, ..add::AddRequest::titled(title) };
            add::add(&mut store, &ctx, &req).expect("add");
        }
        store.conn().execute("DELETE FROM dup_stats", []).expect("drop the stats");
        let mut seen = Vec::new();
        let n = duplicates::reindex(&mut store, &mut |done, total| seen.push((done, total))).expect("reindex");
        assert_eq!(n, 3);
        assert_eq!(seen, [(1, 3), (2, 3), (3, 3)]);
        assert_eq!(term_docs_off(store.conn()), vec![]);
        let rows: i64 = store.conn().query_row("SELECT count(*) FROM task_stems", [], |r| r.get(0)).expect("count");
        assert_eq!(rows, 3);
        assert_eq!(totals(store.conn()).expect("totals"), (3, 0, 1), "tasks, with a person, with an amount");
    }

    /// An amount's count in one currency, or in any: an unstated currency («2.4к»)
    /// agrees with the same number in every currency, so its frequency is the number's.
    #[test]
    fn an_amount_is_counted_in_its_currency_or_in_any() {
        use crate::ops::add;
        let (_dir, _, mut store, ctx) = on_disk();
        for title in ["Pay Dasha 2 400 $", "Invoice for April, 2400 USD", "Rent 2400 €", "апрельские 2.4к", "Gym 40 $"]
        {
            let req = add::AddRequest { dup_choice: add::DupChoice::New, ..add::AddRequest::titled(title) };
            add::add(&mut store, &ctx, &req).expect("add");
        }
        assert_eq!(amount_count(store.conn(), 240_000, Some("USD")).expect("count"), 2);
        assert_eq!(amount_count(store.conn(), 240_000, Some("XXX")).expect("count"), 1);
        assert_eq!(amount_count(store.conn(), 240_000, None).expect("count"), 4);
    }

    #[test]
    fn term_docs_follow_every_write_that_changes_the_index() {
        use crate::ops::{add, edit, import, undo};
        let (dir, _, mut store, ctx) = on_disk();
        let mut req = add::AddRequest::titled("Send the invoice to Brightlane");
        req.description = "They asked twice; the invoice is INV-4471, 12:00 deadline".into();
        add::add(&mut store, &ctx, &req).expect("add");
        let bank = add::add(&mut store, &ctx, &add::AddRequest::titled("Call the bank about the card")).expect("add");
        let lines = "{\"title\": \"Renew the passport\", \"description\": \"the bank needs it too\"}\n\
                     {\"title\": \"Pay the rent\"}";
        import::import_text(&mut store, &ctx, lines, &import::ImportOptions::default(), &mut |_| {}).expect("import");
        assert_eq!(term_docs_off(store.conn()), vec![], "after adds and an import");
        assert_eq!(doc_freq(store.conn(), "bank").expect("df"), 2);
        let edit = edit::EditRequest {
            title: Some("Call the insurer about the card".into()),
            description: Some(String::new()),
            ..edit::EditRequest::default()
        };
        edit::edit(&mut store, &ctx, &bank.task.key, &edit).expect("edit");
        assert_eq!(term_docs_off(store.conn()), vec![], "after an edit");
        assert_eq!(doc_freq(store.conn(), "bank").expect("df"), 1, "the edited task no longer holds it");
        undo::undo(&mut store, &ctx).expect("undo");
        assert_eq!(term_docs_off(store.conn()), vec![], "after an undo");
        assert_eq!(doc_freq(store.conn(), "bank").expect("df"), 2);
        // A term FTS5 splits in two has no count of its own.
        assert_eq!(doc_freq(store.conn(), "12:00").expect("df"), 0);
        // A restore of an export rebuilds the counts with the rest of the index.
        let mut out = Vec::new();
        crate::ops::dump::export(&store, &ctx, &mut out, &mut |_| {}).expect("export");
        let text = String::from_utf8(out).expect("utf-8");
        let (header, rest) = text.split_once('\n').expect("a header line");
        let mut copy = crate::store::Store::open(&dir.path().join("copy.db")).expect("copy");
        crate::ops::dump::import(&mut copy, header, &mut rest.as_bytes(), &mut |_| {}).expect("restore");
        assert_eq!(term_docs_off(copy.conn()), vec![], "after a restore");
        assert_eq!(doc_freq(copy.conn(), "bank").expect("df"), 2);
    }

    #[test]
    fn a_store_from_before_term_docs_gets_its_counts_from_the_fts5_vocabulary() {
        use crate::ops::add;
        let (_dir, path, mut store, ctx) = on_disk();
        for title in ["Send the invoice", "Send the deck", "Call the bank"] {
            add::add(&mut store, &ctx, &add::AddRequest::titled(title)).expect("add");
        }
        // Back to schema 7, as a store written by the previous version was.
        store
            .conn()
            .execute_batch(
                "DROP TABLE term_docs; DROP INDEX runs_running; ALTER TABLE runs DROP COLUMN owner;
                 ALTER TABLE runs DROP COLUMN lease_until; DELETE FROM schema_migrations WHERE version >= 8;",
            )
            .expect("downgrade");
        drop(store);
        let store = crate::store::Store::open(&path).expect("migrate");
        assert_eq!(term_docs_off(store.conn()), vec![]);
        assert_eq!(doc_freq(store.conn(), "send").expect("df"), 2);
    }

    #[test]
    fn ranked_matches_sum_idf_and_prefer_the_newer_task_on_ties() {
        let store = crate::store::Store::open(std::path::Path::new(":memory:")).expect("store");
        let conn = store.conn();
        for (id, stems) in [(1, "send invoic"), (2, "send"), (3, "invoic deck"), (4, "send invoic"), (5, "call mom")] {
            conn.exec_cached("INSERT INTO task_stems (rowid, stems) VALUES (?1, ?2)", params![id, stems])
                .expect("insert");
        }
        let terms = [("send".to_string(), 0.5), ("invoic".to_string(), 1.0), ("deck".to_string(), 2.0)];
        // 3: invoic + deck = 3.0; 4 and 1: send + invoic = 1.5 (4 is newer); 2: send = 0.5.
        assert_eq!(ranked_matches(conn, &terms, 10).expect("rank"), [3, 4, 1, 2]);
        assert_eq!(ranked_matches(conn, &terms, 2).expect("rank"), [3, 4]);
        // Query syntax in a term is a word, never an operator.
        let odd = [("\"NEAR(*".to_string(), 1.0), ("OR".to_string(), 1.0)];
        assert_eq!(ranked_matches(conn, &odd, 10).expect("rank"), Vec::<i64>::new());
    }

    /// The check's ranking reads posting lists newest first and stops early; the search's
    /// reads them whole and sums. On a real FTS5 table with many ties and more terms than
    /// cached statements, both give the same ids in the same order at every pool size.
    #[test]
    fn ranking_newest_first_agrees_with_summing_every_posting() {
        let store = crate::store::Store::open(std::path::Path::new(":memory:")).expect("store");
        let conn = store.conn();
        let words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"];
        for id in 1..=300i64 {
            // Each task holds the words whose index divides a mix of its id: overlapping
            // lists of very different lengths.
            let held: Vec<&str> = words
                .iter()
                .enumerate()
                .filter(|(i, _)| (id * 7 + 3) % (*i as i64 + 2) == 0)
                .map(|(_, w)| *w)
                .collect();
            conn.exec_cached("INSERT INTO task_stems (rowid, stems) VALUES (?1, ?2)", params![id, held.join(" ")])
                .expect("insert");
        }
        let terms: Vec<(String, f64)> =
            words.iter().enumerate().map(|(i, w)| (w.to_string(), [0.5, 1.25, 2.0][i % 3])).collect();
        for pool in [0, 1, 5, 20, 50, 400] {
            assert_eq!(
                ranked_matches(conn, &terms, pool).expect("newest first"),
                ranked_matches_with_notes(conn, &terms, pool).expect("summed"),
                "pool {pool}"
            );
        }
    }

    #[test]
    fn document_frequencies_in_one_statement_match_one_by_one() {
        let store = crate::store::Store::open(std::path::Path::new(":memory:")).expect("store");
        let conn = store.conn();
        for (term, docs) in [("invoic", 3), ("\"quoted'", 2), ("счёт", 5), ("41", 1), ("null", 4)] {
            conn.exec_cached("INSERT INTO term_docs (term, docs) VALUES (?1, ?2)", params![term, docs])
                .expect("insert");
        }
        let terms = ["null", "missing", "счёт", "\"quoted'", "41", "invoic", "", "invoic", "a\\b"];
        let one_by_one: Vec<i64> = terms.iter().map(|t| doc_freq(conn, t).expect("one")).collect();
        assert_eq!(one_by_one, [4, 0, 5, 2, 1, 3, 0, 3, 0]);
        assert_eq!(doc_freqs(conn, &terms).expect("batch"), one_by_one);
        assert_eq!(doc_freqs(conn, &[]).expect("none"), Vec::<i64>::new());
    }
}
