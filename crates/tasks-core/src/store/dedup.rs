//! Rows of the duplicate check: the FTS5 indexes `task_words` / `task_stems` (rowid =
//! task id), the review queue `dup_pairs`, and the labelled decisions `dup_decisions`.

use rusqlite::params;

use super::Tx;
use crate::dedup::Candidate;
use crate::error::Result;

/// Replaces a task's rows in both FTS5 indexes.
pub(crate) fn index_task(tx: &Tx<'_>, task_id: i64, words: &str, stems: &str) -> Result<()> {
    tx.execute("DELETE FROM task_words WHERE rowid = ?1", [task_id])?;
    tx.execute("INSERT INTO task_words (rowid, words) VALUES (?1, ?2)", params![task_id, words])?;
    tx.execute("DELETE FROM task_stems WHERE rowid = ?1", [task_id])?;
    tx.execute("INSERT INTO task_stems (rowid, stems) VALUES (?1, ?2)", params![task_id, stems])?;
    Ok(())
}

/// Appends a decision row.
pub(crate) fn insert_decision(
    tx: &Tx<'_>,
    task_id: Option<i64>,
    candidate_id: i64,
    decision: &str,
    candidate: Option<&Candidate>,
    actor: &str,
    now: i64,
) -> Result<()> {
    let levels = candidate.map(|c| serde_json::to_string(&c.levels).unwrap_or_default()).unwrap_or_else(|| "{}".into());
    tx.execute(
        "INSERT INTO dup_decisions (task_id, candidate_id, decision, score, band, levels, actor, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            task_id,
            candidate_id,
            decision,
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
    tx.execute(
        "INSERT OR IGNORE INTO dup_pairs (task_id, candidate_id, score, band, reasons, levels, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            task_id,
            c.task_id,
            c.score,
            c.band.as_str(),
            serde_json::to_string(&c.reasons).unwrap_or_default(),
            serde_json::to_string(&c.levels).unwrap_or_default(),
            now
        ],
    )?;
    Ok(())
}
