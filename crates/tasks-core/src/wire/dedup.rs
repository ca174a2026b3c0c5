//! Shapes of the duplicate check: candidates, `check`, the review queue, merges,
//! retraining, evaluations and the import check report (SPEC §5, §10).

use serde_json::{Value, json};

use super::task;
use crate::dedup::eval::{Dataset, Metrics, Run};
use crate::dedup::{Candidate, Decision};
use crate::model::Task;
use crate::ops::duplicates::{MergeOutcome, RetrainOutcome, ReviewItem};
use crate::ops::import::CheckLine;
use crate::time::rfc3339;

/// Returns a duplicate candidate (SPEC §10).
pub fn candidate(c: &Candidate) -> Value {
    json!({
        "key": c.key,
        "id": c.uuid,
        "title": c.title,
        "score": (c.score * 10.0).round() / 10.0,
        "band": c.band.as_str(),
        "probability": (c.probability * 1000.0).round() / 1000.0,
        "reasons": c.reasons,
        "status": c.status.as_str(),
        "closed_at": c.closed_at.map(crate::time::rfc3339),
    })
}

/// Returns `check`'s answer: `{"candidates": [...]}`; with `with_levels` (`--all`) each
/// candidate also carries the level every comparison took.
pub fn check(candidates: &[Candidate], with_levels: bool) -> Value {
    let list: Vec<Value> = candidates
        .iter()
        .map(|c| {
            let mut v = candidate(c);
            if with_levels {
                v["levels"] = json!(c.levels.to_map());
            }
            v
        })
        .collect();
    json!({ "candidates": list })
}

/// Returns the review queue (`duplicates`): each pair with both tasks.
pub fn review_items(items: &[ReviewItem], now_ms: i64) -> Value {
    json!({ "items": items.iter().map(|i| json!({
        "task": task(&i.task, now_ms),
        "candidate": task(&i.candidate, now_ms),
        "score": (i.pair.score * 10.0).round() / 10.0,
        "band": i.pair.band,
        "reasons": i.pair.reasons,
        "queued_at": rfc3339(i.pair.created_at),
    })).collect::<Vec<_>>() })
}

/// Returns the outcome of `duplicates reject A B`.
pub fn rejected(a: &Task, b: &Task, now_ms: i64) -> Value {
    json!({ "task": task(a, now_ms), "other": task(b, now_ms), "decision": Decision::Reject.as_str() })
}

/// Returns the outcome of `merge` / `unmerge`.
pub fn merged(out: &MergeOutcome, now_ms: i64) -> Value {
    json!({ "task": task(&out.duplicate, now_ms), "into": task(&out.into, now_ms), "moved_messages": out.moved_messages })
}

/// One row of a retraining report: a level with its weight before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightChange {
    /// The comparison.
    pub comparison: &'static str,
    /// The level.
    pub level: &'static str,
    /// Weight in use before (0 when the old table lacked the level).
    pub old: f64,
    /// Weight counted now.
    pub new: f64,
}

/// Returns the rows of a retraining report, sorted by comparison and level name.
pub fn weight_changes(out: &RetrainOutcome) -> Vec<WeightChange> {
    let mut rows: Vec<WeightChange> = out
        .new
        .stats
        .iter()
        .map(|(l, s)| WeightChange {
            comparison: l.comparison().as_str(),
            level: l.as_str(),
            old: out.old.stat(*l).map(|o| o.weight()).unwrap_or(0.0),
            new: s.weight(),
        })
        .collect();
    rows.sort_by(|a, b| (a.comparison, a.level).cmp(&(b.comparison, b.level)));
    rows
}

/// Returns the outcome of `duplicates retrain`.
pub fn retrained(out: &RetrainOutcome) -> Value {
    json!({
        "labelled_duplicates": out.labelled.0,
        "labelled_different": out.labelled.1,
        "random_pairs": out.random_pairs,
        "reviewed": out.reviewed,
        "band_changes": out.band_changes,
        "applied": out.applied,
        "weights": weight_changes(out).iter().map(|r| json!({
            "comparison": r.comparison, "level": r.level, "old": r.old, "new": r.new,
        })).collect::<Vec<_>>(),
    })
}

/// Returns the figures of one evaluation run.
pub fn metrics(m: &Metrics) -> Value {
    json!({
        "duplicates": m.duplicates,
        "recall": m.recall(),
        "precision": m.precision(),
        "likely_recall": m.likely_recall(),
        "likely_precision": m.likely_precision(),
        "cross_language": m.cross,
        "cross_recall": m.cross_recall(),
        "shown_pairs": m.shown,
        "likely_pairs": m.likely,
        "tasks": m.tasks,
        "flagged_rate": m.flagged_rate(),
        "hard_negatives": m.negatives,
        "hard_negatives_shown": m.negatives_shown,
    })
}

/// Returns the outcome of `duplicates eval`: the set's size and each labelled run, with
/// its curve (`--curve`: the metrics at each possible-band threshold) when it has one.
pub fn evaluation(set: &Dataset, runs: &[Run]) -> Value {
    let run = |r: &Run| {
        let mut v = json!({ "label": r.label, "metrics": metrics(&r.metrics) });
        if !r.curve.is_empty() {
            v["curve"] = r.curve.iter().map(|(t, m)| json!({ "possible_from": t, "metrics": metrics(m) })).collect();
        }
        v
    };
    json!({
        "tasks": set.tasks.len(),
        "pairs": set.pairs.len(),
        "negatives": set.negatives.len(),
        "runs": runs.iter().map(run).collect::<Vec<_>>(),
    })
}

/// Returns one line of `import --check-report` (SPEC §10): the caller id and the
/// candidates the check would have shown at that line's `created_at`, each named by
/// its caller id (the UUID when it has none).
pub fn check_report_line(line: &CheckLine) -> Value {
    let candidates: Vec<Value> = line
        .candidates
        .iter()
        .map(|c| {
            json!({
                "id": c.external_id.clone().unwrap_or_else(|| c.uuid.clone()),
                "key": c.key,
                "score": (c.score * 100.0).round() / 100.0,
                "band": c.band.as_str(),
                "probability": (c.probability * 1000.0).round() / 1000.0,
                "reasons": c.reasons,
            })
        })
        .collect();
    json!({ "id": line.id, "candidates": candidates })
}

/// `tasks duplicates reindex --json`: how many tasks' index rows were rewritten.
pub fn reindexed(tasks: usize) -> Value {
    json!({ "reindexed": tasks })
}
