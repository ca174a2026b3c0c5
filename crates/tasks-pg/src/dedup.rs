//! The duplicate check on PostgreSQL: the core's check ([`tasks_core::dedup::check_on`])
//! over this store, with candidate retrieval from the posting table `task_terms`
//! (term → task) in place of FTS5 — the same k1 = 0 ranking, summed in the same order,
//! so both engines give the same candidates and scores.

use postgres::GenericClient;
use tasks_core::dedup;
use tasks_core::dedup::levels::Level;
use tasks_core::dedup::source::{
    BM25_POOL, CandidateQuery, CandidateRow, CheckSource, STATS_REFRESH_SHARE, push_unique, rank_hits,
};
use tasks_core::model::{Money, Status};
use tasks_core::{Error, Result};

use crate::PgStore;
use crate::engine::Pg;
use crate::store::{TxError, TxResult, pg};

/// A client (or transaction) of the team store as the check's [`CheckSource`].
///
/// It borrows the client one statement at a time, so the operation that asked for it
/// may go on reading and writing through the same transaction while it lives.
pub struct PgSource<'a, C: GenericClient> {
    pg: &'a Pg<C>,
}

impl<'a, C: GenericClient> PgSource<'a, C> {
    /// Wraps a client or a transaction (its statements go through its cache).
    pub fn new(pg: &'a Pg<C>) -> Self {
        PgSource { pg }
    }

    /// Task ids matching search terms in titles, descriptions and notes, best first (the
    /// SQLite search's `ranked_matches_with_notes`: a note's match counts for its task).
    pub fn ranked_matches_with_notes(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
        let phrases = phrases_of(terms);
        let task_hits = self.phrase_hits(&phrases, "task_terms", "task_term_text", "task_id")?;
        let note_hits = self.phrase_hits(&phrases, "note_terms", "note_term_text", "note_id")?;
        let hits = task_hits.into_iter().zip(note_hits).map(|((idf, mut ids), (_, more))| {
            ids.extend(more);
            (idf, ids)
        });
        Ok(rank_hits(hits, pool))
    }

    /// For each phrase, the ids of the rows of `terms_table` holding it (a phrase of
    /// several tokens adjacent in `text_table`'s token stream, as FTS5 matches).
    ///
    /// `text_key` is the column both tables share (`task_id` for tasks, `note_id` for
    /// notes); the ids answered are task ids either way.
    fn phrase_hits(
        &self,
        phrases: &[(f64, Vec<String>)],
        terms_table: &str,
        text_table: &str,
        text_key: &str,
    ) -> Result<Vec<(f64, Vec<i64>)>> {
        let firsts: Vec<&str> = phrases.iter().filter_map(|(_, p)| p.first().map(String::as_str)).collect();
        let rows = self
            .pg
            .query(&format!("SELECT term, task_id, {text_key} FROM {terms_table} WHERE term = ANY($1)"), &[&firsts])?;
        // token → (id answered, key of the row holding the token stream)
        let mut by_token: std::collections::HashMap<String, Vec<(i64, i64)>> = std::collections::HashMap::new();
        for r in rows {
            by_token.entry(r.get(0)).or_default().push((r.get(1), r.get(2)));
        }
        let mut hits = Vec::with_capacity(phrases.len());
        for (idf, phrase) in phrases {
            let Some(first) = phrase.first() else {
                hits.push((*idf, Vec::new()));
                continue;
            };
            let holders = by_token.get(first).cloned().unwrap_or_default();
            let ids = if phrase.len() == 1 {
                holders.into_iter().map(|(id, _)| id).collect()
            } else {
                let keys: Vec<i64> = holders.iter().map(|(_, k)| *k).collect();
                let needle = format!(" {} ", phrase.join(" "));
                let matched: std::collections::HashSet<i64> = self
                    .pg
                    .query(
                        &format!(
                            "SELECT {text_key} FROM {text_table} WHERE {text_key} = ANY($1)
                               AND strpos(' ' || tokens || ' ', $2) > 0"
                        ),
                        &[&keys, &needle],
                    )?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                holders.into_iter().filter(|(_, k)| matched.contains(k)).map(|(id, _)| id).collect()
            };
            hits.push((*idf, ids));
        }
        Ok(hits)
    }

    fn one_i64(&self, sql: &str, params: &[&(dyn postgres::types::ToSql + Sync)]) -> Result<i64> {
        Ok(self.pg.query_one(sql, params)?.get(0))
    }
}

/// The live-task condition, for `t`, with $2 = at, $3 = since, $4 = self (as SQLite's).
const LIVE: &str = "t.created_at <= $2 AND (t.closed_at IS NULL OR t.closed_at >= $3)
    AND t.id <> $4
    AND NOT EXISTS (SELECT 1 FROM links d WHERE d.from_task_id = t.id AND d.kind = 'duplicate-of' AND d.removed_at IS NULL)";

impl<C: GenericClient> CheckSource for PgSource<'_, C> {
    fn totals(&self) -> Result<(i64, i64, i64)> {
        let cached = cached_stats(&mut *self.pg.client()).map_err(|e| self.pg.fail(e))?;
        let get = |n: &str| cached.get(n).map(|v| *v as i64);
        if let (Some(t), Some(p), Some(a)) = (get("tasks_n"), get("person_n"), get("amount_n")) {
            return Ok((t, p, a));
        }
        let row = self.pg.query_one(
            "SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM tasks WHERE person_id IS NOT NULL),
                        (SELECT count(*) FROM task_signatures WHERE amount_minor IS NOT NULL)",
            &[],
        )?;
        Ok((row.get(0), row.get(1), row.get(2)))
    }

    fn doc_freq(&self, term: &str) -> Result<i64> {
        Ok(self.doc_freqs(&[term])?.first().copied().unwrap_or(0))
    }

    fn doc_freqs(&self, terms: &[&str]) -> Result<Vec<i64>> {
        // FTS5's vocabulary holds tokens: a term that is not one token as it stands
        // ("16:00", or one with a capital) has no entry there, so its count is 0 here;
        // the check asks for a split term's tokens instead (`dedup::split_term`).
        let tokens: Vec<&str> = terms.iter().copied().filter(|t| dedup::split_term(t).is_none()).collect();
        let rows = self.pg.query("SELECT term, docs FROM term_docs WHERE term = ANY($1)", &[&tokens])?;
        let counts: std::collections::HashMap<String, i64> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        Ok(terms.iter().map(|t| counts.get(*t).copied().unwrap_or(0)).collect())
    }

    fn ranked_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
        // Summed term by term in the query's order, as on SQLite: equal floats.
        let hits = self.phrase_hits(&phrases_of(terms), "task_terms", "task_term_text", "task_id")?;
        Ok(rank_hits(hits, pool))
    }

    fn candidate_ids(&self, q: &CandidateQuery<'_>) -> Result<Vec<i64>> {
        let mut out = Vec::new();
        let side = q.side_limit as i64;
        if !q.terms.is_empty() {
            let ranked = self.ranked_matches(q.terms, BM25_POOL)?;
            let rows = self.pg.query(
                &format!(
                    "SELECT t.id FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, ord)
                         JOIN tasks t ON t.id = u.id WHERE {LIVE} ORDER BY u.ord LIMIT $5"
                ),
                &[&ranked, &q.at, &q.since, &q.self_id, &(q.bm25_limit as i64)],
            )?;
            push_unique(&mut out, rows.iter().map(|r| r.get::<_, i64>(0)));
        }
        let side_query = |cond: &str, arg: &(dyn postgres::types::ToSql + Sync)| -> Result<Vec<i64>> {
            let rows = self.pg.query(
                &format!("SELECT t.id FROM tasks t WHERE {cond} AND {LIVE} ORDER BY t.created_at DESC LIMIT $5"),
                &[arg, &q.at, &q.since, &q.self_id, &side],
            )?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        };
        if let Some(pid) = q.person_id {
            push_unique(&mut out, side_query("t.person_id = $1", &pid)?);
        }
        if let Some(cat) = q.category {
            push_unique(&mut out, side_query("lower(t.category) = $1", &cat)?);
        }
        for tid in q.thread_ids {
            push_unique(&mut out, side_query("(t.id = $1 OR t.reply_to_id = $1)", tid)?);
        }
        Ok(out)
    }

    fn candidate_row(&self, id: i64) -> Result<CandidateRow> {
        let r = self
            .pg
            .query_opt(&format!("SELECT {CANDIDATE_COLUMNS} FROM tasks WHERE id = $1"), &[&id])?
            .ok_or_else(|| Error::task_not_found(format!("#{id}")))?;
        Ok(candidate_of(&r))
    }

    fn candidate_rows(&self, ids: &[i64]) -> Result<Vec<CandidateRow>> {
        let rows = self.pg.query(&format!("SELECT {CANDIDATE_COLUMNS} FROM tasks WHERE id = ANY($1)"), &[&ids])?;
        let mut by_id: std::collections::HashMap<i64, CandidateRow> =
            rows.iter().map(candidate_of).map(|r| (r.id, r)).collect();
        ids.iter().map(|id| by_id.remove(id).ok_or_else(|| Error::task_not_found(format!("#{id}")))).collect()
    }

    fn reply_parent(&self, id: i64) -> Result<Option<i64>> {
        Ok(self.pg.query_opt("SELECT reply_to_id FROM tasks WHERE id = $1", &[&id])?.and_then(|r| r.get(0)))
    }

    fn squares(&self) -> Result<(f64, f64)> {
        let cached = cached_stats(&mut *self.pg.client()).map_err(|e| self.pg.fail(e))?;
        if let (Some(p), Some(a)) = (cached.get("person_sq"), cached.get("amount_sq")) {
            return Ok((*p, *a));
        }
        squares_of(&mut *self.pg.client()).map_err(|e| self.pg.fail(e))
    }

    fn person_count(&self, person_id: i64) -> Result<i64> {
        self.one_i64("SELECT count(*) FROM tasks WHERE person_id = $1", &[&person_id])
    }

    fn amount_count(&self, minor: i64, currency: Option<&str>) -> Result<i64> {
        self.one_i64(
            "SELECT count(*) FROM task_signatures WHERE amount_minor = $1 AND ($2::text IS NULL OR currency = $2)",
            &[&minor, &currency],
        )
    }

    fn learned_weights(&self) -> Result<Vec<(Level, f64, f64)>> {
        let rows = self.pg.query("SELECT comparison, level, m, u FROM dup_weights", &[])?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((Level::parse(r.get(0), r.get(1))?, r.get::<_, f64>(2), r.get::<_, f64>(3))))
            .collect())
    }
}

/// The terms a search or check asks for, as index token phrases with their idf.
fn phrases_of(terms: &[(String, f64)]) -> Vec<(f64, Vec<String>)> {
    terms
        .iter()
        .filter(|(t, _)| dedup::match_term(t).is_some())
        .map(|(t, idf)| (*idf, dedup::index_tokens(t)))
        .collect()
}

/// Returns the cached statistics (`dup_stats`) by name.
fn cached_stats(
    c: &mut impl GenericClient,
) -> std::result::Result<std::collections::HashMap<String, f64>, postgres::Error> {
    Ok(c.query("SELECT name, value FROM dup_stats", &[])?.iter().map(|r| (r.get(0), r.get(1))).collect())
}

/// Σ over persons of their task count², Σ over amounts of their count².
fn squares_of(c: &mut impl GenericClient) -> std::result::Result<(f64, f64), postgres::Error> {
    let row = c.query_one(
        "SELECT (SELECT coalesce(sum(c * c), 0)::float8 FROM (SELECT count(*) AS c FROM tasks
                    WHERE person_id IS NOT NULL GROUP BY person_id) p),
                (SELECT coalesce(sum(c * c), 0)::float8 FROM (SELECT count(*) AS c FROM task_signatures
                    WHERE amount_minor IS NOT NULL GROUP BY amount_minor, currency) a)",
        &[],
    )?;
    Ok((row.get(0), row.get(1)))
}

/// Recomputes the cached statistics when missing or stale — the SQLite store's rule:
/// the highest task id moved by more than [`STATS_REFRESH_SHARE`] since (at least 1).
fn refresh_stats(c: &mut impl GenericClient, force: bool) -> TxResult<()> {
    let total: i64 = c.query_one("SELECT coalesce(max(id), 0) FROM tasks", &[])?.get(0);
    let at: Option<i64> = c.query_opt("SELECT tasks FROM dup_stats WHERE name = 'person_sq'", &[])?.map(|r| r.get(0));
    let stale = match at {
        None => true,
        Some(at) => (total - at).abs() as f64 > (at as f64 * STATS_REFRESH_SHARE).max(1.0),
    };
    if !stale && !force {
        return Ok(());
    }
    let (person, amount) = squares_of(c)?;
    let counts = c.query_one(
        "SELECT (SELECT count(*) FROM tasks)::float8, (SELECT count(*) FROM tasks WHERE person_id IS NOT NULL)::float8,
                (SELECT count(*) FROM task_signatures WHERE amount_minor IS NOT NULL)::float8",
        &[],
    )?;
    let values: [(&str, f64); 5] = [
        ("person_sq", person),
        ("amount_sq", amount),
        ("tasks_n", counts.get(0)),
        ("person_n", counts.get(1)),
        ("amount_n", counts.get(2)),
    ];
    for (name, value) in values {
        c.execute(
            "INSERT INTO dup_stats (name, value, tasks) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET value = $2, tasks = $3",
            &[&name, &value, &total],
        )?;
    }
    Ok(())
}

/// Writes a task's index rows: its tokens in `task_terms` (and their document
/// frequencies), its token stream and its signature; then the statistics.
pub(crate) fn index(c: &mut impl GenericClient, id: i64) -> TxResult<()> {
    let row = c
        .query_opt(&format!("SELECT {CANDIDATE_COLUMNS} FROM tasks WHERE id = $1"), &[&id])?
        .map(|r| candidate_of(&r))
        .ok_or_else(|| Error::task_not_found(format!("#{id}")))?;
    let entry = dedup::index_entry(&row);
    c.execute(
        "INSERT INTO task_words (task_id, words) VALUES ($1, $2) ON CONFLICT (task_id) DO UPDATE SET words = $2",
        &[&id, &words_of(&row.title, &row.description)],
    )?;
    let tokens = dedup::index_tokens(&entry.terms);
    let mut distinct: Vec<&str> = tokens.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    // In term order, so two writers touching the same terms lock them in one order.
    c.execute(
        "UPDATE term_docs SET docs = docs - 1
         WHERE term IN (SELECT term FROM task_terms WHERE task_id = $1 ORDER BY term)",
        &[&id],
    )?;
    c.execute("DELETE FROM task_terms WHERE task_id = $1", &[&id])?;
    c.execute(
        "INSERT INTO task_terms (term, task_id) SELECT t, $2::bigint FROM unnest($1::text[]) AS t",
        &[&distinct, &id],
    )?;
    c.execute(
        "INSERT INTO term_docs (term, docs) SELECT t, 1 FROM unnest($1::text[]) AS t
         ON CONFLICT (term) DO UPDATE SET docs = term_docs.docs + 1",
        &[&distinct],
    )?;
    c.execute(
        "INSERT INTO task_term_text (task_id, tokens) VALUES ($1, $2)
         ON CONFLICT (task_id) DO UPDATE SET tokens = $2",
        &[&id, &tokens.join(" ")],
    )?;
    let (minor, currency) = match &entry.amount {
        Some(m) => (Some(m.minor), Some(m.currency.clone())),
        None => (None, None),
    };
    c.execute(
        "INSERT INTO task_signatures (task_id, amount_minor, currency, due_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (task_id) DO UPDATE SET amount_minor = $2, currency = $3, due_at = $4",
        &[&id, &minor, &currency, &entry.due_ms],
    )?;
    refresh_stats(c, false)
}

/// The normalized words of a task's title and description (SQLite's `task_words`),
/// which `list --text` matches by word prefix.
pub(crate) fn words_of(title: &str, description: &str) -> String {
    format!("{} {}", tasks_text::normalize(title), tasks_text::normalize(description))
}

/// Writes a note's index rows (its index terms' tokens, and their stream for phrases).
pub(crate) fn index_note(c: &mut impl GenericClient, note_id: i64, task_id: i64, terms: &str) -> TxResult<()> {
    let tokens = dedup::index_tokens(terms);
    let mut distinct: Vec<&str> = tokens.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    c.execute(
        "INSERT INTO note_terms (term, note_id, task_id) SELECT t, $2::bigint, $3::bigint FROM unnest($1::text[]) AS t
         ON CONFLICT DO NOTHING",
        &[&distinct, &note_id, &task_id],
    )?;
    c.execute(
        "INSERT INTO note_term_text (note_id, task_id, tokens) VALUES ($1, $2, $3)
         ON CONFLICT (note_id) DO UPDATE SET tokens = $3",
        &[&note_id, &task_id, &tokens.join(" ")],
    )?;
    Ok(())
}

/// The candidate fields of a task, for [`CheckSource::candidate_row`] and the bulk
/// reindex.
const CANDIDATE_COLUMNS: &str = "id, uuid, key, external_id, title, description, person_id, amount_minor, currency,
    due_at, due_kind, category, chat, reply_to_id, created_at, status, closed_at";

fn candidate_of(r: &postgres::Row) -> CandidateRow {
    let amount = match (r.get::<_, Option<i64>>(7), r.get::<_, Option<String>>(8)) {
        (Some(minor), Some(currency)) => Some(Money { minor, currency }),
        _ => None,
    };
    CandidateRow {
        id: r.get(0),
        uuid: r.get(1),
        key: r.get(2),
        external_id: r.get(3),
        title: r.get(4),
        description: r.get(5),
        person_id: r.get(6),
        amount,
        due_at: r.get(9),
        due_kind: r.get(10),
        category: r.get(11),
        chat: r.get(12),
        reply_to_id: r.get(13),
        created_at: r.get(14),
        status: r.get::<_, String>(15).parse().unwrap_or(Status::Open),
        closed_at: r.get(16),
    }
}

/// Rebuilds every task's index rows (after a restore): one read of the tasks, the
/// entries computed here, and three COPYs — not five statements per task.
pub(crate) fn reindex_all(tx: &mut postgres::Transaction<'_>) -> TxResult<()> {
    use std::fmt::Write as _;
    use std::io::Write as _;
    tx.batch_execute(
        "DELETE FROM task_terms; DELETE FROM task_term_text; DELETE FROM task_signatures; DELETE FROM term_docs;
         DELETE FROM task_words; DELETE FROM note_terms; DELETE FROM note_term_text;",
    )?;
    let rows = tx.query(&format!("SELECT {CANDIDATE_COLUMNS} FROM tasks ORDER BY id"), &[])?;
    let (mut terms, mut texts, mut signatures) = (String::new(), String::new(), String::new());
    let mut words = String::new();
    // COPY's text format: a backslash, tab or line break inside a value is escaped.
    let copy_text = |v: &str| v.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r");
    let null = |v: Option<String>| v.unwrap_or_else(|| "\\N".into());
    for r in &rows {
        let row = candidate_of(r);
        let entry = dedup::index_entry(&row);
        let tokens = dedup::index_tokens(&entry.terms);
        let mut seen = std::collections::HashSet::new();
        for t in &tokens {
            if seen.insert(t.as_str()) {
                let _ = writeln!(terms, "{t}\t{}", row.id);
            }
        }
        let _ = writeln!(texts, "{}\t{}", row.id, tokens.join(" "));
        let _ = writeln!(words, "{}\t{}", row.id, copy_text(&words_of(&row.title, &row.description)));
        let (minor, currency) = match &entry.amount {
            Some(m) => (Some(m.minor.to_string()), Some(m.currency.clone())),
            None => (None, None),
        };
        let _ = writeln!(
            signatures,
            "{}\t{}\t{}\t{}",
            row.id,
            null(minor),
            null(currency),
            null(entry.due_ms.map(|d| d.to_string()))
        );
    }
    for (sql, text) in [
        ("COPY task_terms (term, task_id) FROM STDIN", terms),
        ("COPY task_term_text (task_id, tokens) FROM STDIN", texts),
        ("COPY task_signatures (task_id, amount_minor, currency, due_at) FROM STDIN", signatures),
        ("COPY task_words (task_id, words) FROM STDIN", words),
    ] {
        let mut writer = tx.copy_in(sql)?;
        // A failed write is reported by finish(), with the server's reason.
        let _ = writer.write_all(text.as_bytes());
        writer.finish()?;
    }
    tx.batch_execute("INSERT INTO term_docs (term, docs) SELECT term, count(*) FROM task_terms GROUP BY term")?;
    let notes = tx.query("SELECT id, task_id, text FROM notes WHERE removed_at IS NULL ORDER BY id", &[])?;
    for n in &notes {
        let text: String = n.get(2);
        index_note(tx, n.get(0), n.get(1), &dedup::text_terms(&text))?;
    }
    refresh_stats(tx, true)?;
    set_index_version(tx)
}

/// How the version of the check's index ([`dedup::INDEX_VERSION`]) is written on the
/// `task_terms` table's comment: PostgreSQL's place for a fact about a table, as
/// SQLite's `user_version` is the file's. The schema mirrors SQLite's table for table,
/// so the version takes no table of its own.
const INDEX_VERSION_NOTE: &str = "tasks index version ";

/// Returns the version of the check's index (0 when none was written: a store built
/// before the index had one).
pub(crate) fn index_version(c: &mut impl GenericClient) -> TxResult<i32> {
    let note: Option<String> = c.query_one("SELECT obj_description('task_terms'::regclass, 'pg_class')", &[])?.get(0);
    Ok(note.and_then(|n| n.strip_prefix(INDEX_VERSION_NOTE).and_then(|v| v.trim().parse().ok())).unwrap_or(0))
}

/// Rebuilds the index when an older version wrote it, once, under the lock checked
/// writes take (no add is checked against a half-built index); returns how many tasks
/// it reindexed. Called by [`crate::PgStore::connect`], as SQLite's writing open does,
/// once it has read an older version outside the lock.
pub(crate) fn reindex_if_outdated(tx: &mut postgres::Transaction<'_>) -> TxResult<Option<i64>> {
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&crate::store::CHECKED_WRITE_LOCK])?;
    // Another connection may have done it while this one waited.
    if index_version(tx)? >= dedup::INDEX_VERSION {
        return Ok(None);
    }
    let tasks: i64 = tx.query_one("SELECT count(*) FROM tasks", &[])?.get(0);
    if tasks == 0 {
        // A new store: nothing to rewrite, and no statistics to count yet.
        set_index_version(tx)?;
        return Ok(None);
    }
    reindex_all(tx)?;
    Ok(Some(tasks))
}

/// Writes this version's [`dedup::INDEX_VERSION`] on the index table.
fn set_index_version(tx: &mut postgres::Transaction<'_>) -> TxResult<()> {
    tx.batch_execute(&format!("COMMENT ON TABLE task_terms IS '{INDEX_VERSION_NOTE}{}'", dedup::INDEX_VERSION))?;
    Ok(())
}

impl From<TxError> for Error {
    fn from(e: TxError) -> Error {
        match e {
            TxError::Core(e) => e,
            TxError::Db(e) => pg(e),
        }
    }
}

/// Rewrites every task's (and note's) index rows as this version reads text (`tasks
/// duplicates reindex`), under the lock checked writes take; returns how many tasks.
pub fn reindex(store: &mut PgStore) -> Result<usize> {
    store.write(|tx| {
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&crate::store::CHECKED_WRITE_LOCK])?;
        reindex_all(tx)?;
        let n: i64 = tx.query_one("SELECT count(*) FROM tasks", &[])?.get(0);
        Ok(usize::try_from(n).unwrap_or(0))
    })
}
