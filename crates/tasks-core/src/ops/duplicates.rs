//! Duplicate review (SPEC §5.6–5.7): `tasks check`, the review queue, `merge`,
//! `unmerge`, `duplicates reject` and `duplicates retrain`. Every decision is a
//! labelled pair; nothing is ever deleted (a merge dismisses and links, an unmerge
//! reopens and marks the link removed).

use crate::dedup::weights::{LevelCounts, TermFrequencies, Weights, band};
use crate::dedup::{self, Band, Candidate, Decision};
use crate::error::{Error, Result};
use crate::keys::{self, MessageLocator};
use crate::model::{LinkKind, Status, Task};
use crate::ops::Context;
use crate::ops::add::AddRequest;
use crate::port::{Engine, Reads, Writes};
use crate::store::Store;
use crate::store::dedup::PendingPair;
use crate::store::events::{Change, EventChange, MergedFrom, MergedInto, NotDuplicate, Returned, Unmerged};

/// The close reason of a merged duplicate.
pub const MERGED_REASON: &str = "duplicate";

/// Runs the duplicate check alone for a would-be task; never writes. Returns the
/// possible and likely candidates, or with `every_band` every candidate scored (the
/// "why was this not flagged?" view).
pub fn check(store: &dyn Engine, ctx: &Context, req: &AddRequest, every_band: bool) -> Result<Vec<Candidate>> {
    crate::ops::add::check_title(&req.title)?;
    let conn = store.reader();
    let person_id = match &req.person {
        Some(p) => conn.person_id(p)?,
        None => None,
    };
    let chat = req.source_message.as_deref().map(MessageLocator::parse).transpose()?;
    let blockers: Vec<i64> = req.blocked_by.iter().map(|r| keys::resolve(conn, r)).collect::<Result<_>>()?;
    let scored = crate::ops::add::scored_candidates(
        conn,
        req,
        person_id,
        chat.as_ref().map(|l| l.chat.as_str()),
        &blockers,
        ctx.now_ms(),
    )?;
    Ok(scored.into_iter().filter(|c| every_band || c.band >= Band::Possible).collect())
}

/// A pending pair with both tasks.
#[derive(Debug, Clone)]
pub struct ReviewItem {
    /// The queue row.
    pub pair: PendingPair,
    /// The newer task.
    pub task: Task,
    /// The task it looked like.
    pub candidate: Task,
}

/// Lists pairs waiting for review, newest first, with their reasons.
pub fn pending(store: &dyn Engine, limit: usize) -> Result<Vec<ReviewItem>> {
    let conn = store.reader();
    conn.pending_pairs(limit)?
        .into_iter()
        .map(|pair| Ok(ReviewItem { task: conn.task(pair.task_id)?, candidate: conn.task(pair.candidate_id)?, pair }))
        .collect()
}

/// Returns the levels of `candidate` as the check sees it against `task` now.
fn levels_between(conn: &dyn Reads, task_id: i64, candidate_id: i64) -> Result<Option<Candidate>> {
    let row = conn.check_source()?.candidate_row(task_id)?;
    let probe = dedup::probe_of_row(&row);
    // The pair is judged as of the later task's creation, like the check itself.
    let found = dedup::check_in(conn, &probe, task_id)?.into_iter().find(|c| c.task_id == candidate_id);
    Ok(found)
}

/// Records that two tasks are not the same; the pair is never offered again.
pub fn reject(store: &mut dyn Engine, ctx: &Context, a: &str, b: &str) -> Result<(Task, Task)> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let ia = keys::resolve(tx, a)?;
        let ib = keys::resolve(tx, b)?;
        if ia == ib {
            let key = tx.task(ia)?.key;
            return Err(Error::SelfLink { key, kind: "a duplicate of" });
        }
        let (later, earlier) = if ia > ib { (ia, ib) } else { (ib, ia) };
        let cand = levels_between(tx, later, earlier)?;
        tx.record_decision(Some(later), earlier, Decision::Reject, cand.as_ref(), &ctx.actor, now)?;
        tx.resolve_pairs(ia, ib, Decision::Reject, now)?;
        let other = tx.task(ib)?.key;
        tx.record_event(ia, now, &ctx.actor, &EventChange::NotDuplicate(NotDuplicate { of: other }))?;
        Ok((tx.task(ia)?, tx.task(ib)?))
    })
}

/// The outcome of a merge or unmerge.
#[derive(Debug, Clone)]
pub struct MergeOutcome {
    /// The duplicate after the change.
    pub duplicate: Task,
    /// The task it was merged into.
    pub into: Task,
    /// Message links moved.
    pub moved_messages: usize,
}

/// Merges `dup` into `into`: moves its message links, dismisses it as a duplicate with
/// a `duplicate-of` link, records the decision. Refuses self-merges, merging a task
/// already merged, and merging into a merged task.
pub fn merge(store: &mut dyn Engine, ctx: &Context, dup: &str, into: &str) -> Result<MergeOutcome> {
    store.write(|tx| {
        let d = keys::resolve(tx, dup)?;
        let t = keys::resolve(tx, into)?;
        merge_in(tx, ctx, d, t)
    })
}

/// Merges inside the caller's transaction.
pub(crate) fn merge_in(tx: &dyn Writes, ctx: &Context, d: i64, t: i64) -> Result<MergeOutcome> {
    let now = ctx.now_ms();
    {
        let dup_task = tx.task(d)?;
        let into_task = tx.task(t)?;
        if d == t {
            return Err(Error::SelfLink { key: dup_task.key, kind: LinkKind::DuplicateOf.as_str() });
        }
        for (task, role) in [(&dup_task, "the duplicate"), (&into_task, "the target")] {
            if let Some(target) = merged_into(tx, task.id)? {
                return Err(Error::WrongState {
                    key: task.key.clone(),
                    status: format!("merged into {target}"),
                    reason: format!("{role} of a merge must not be a merged task; unmerge it first"),
                });
            }
        }
        let cand = levels_between(tx, d.max(t), d.min(t))?;
        let moved_ids = tx.move_message_links(d, t, &ctx.actor, now)?;
        let moved = moved_ids.len();
        crate::graph::add_link(tx, ctx, d, LinkKind::DuplicateOf, t)?;
        let before_status = dup_task.status;
        let before_reason = dup_task.close_reason.clone();
        tx.set_task_status(d, Status::Dismissed, Some(MERGED_REASON), now)?;
        tx.record_event(
            d,
            now,
            &ctx.actor,
            &EventChange::MergedInto(MergedInto {
                into: into_task.key.clone(),
                status: Change(before_status, Status::Dismissed),
                close_reason: Change(before_reason, Some(MERGED_REASON.to_string())),
                moved_messages: moved_ids,
            }),
        )?;
        tx.record_event(
            t,
            now,
            &ctx.actor,
            &EventChange::MergedFrom(MergedFrom { from: dup_task.key.clone(), moved_messages: moved }),
        )?;
        tx.record_decision(Some(d.max(t)), d.min(t), Decision::Merge, cand.as_ref(), &ctx.actor, now)?;
        tx.resolve_pairs(d, t, Decision::Merge, now)?;
        Ok(MergeOutcome { duplicate: tx.task(d)?, into: tx.task(t)?, moved_messages: moved })
    }
}

/// Returns the key of the task `id` is merged into, if any.
fn merged_into(conn: &dyn Reads, id: i64) -> Result<Option<String>> {
    for l in conn.links_of_task(id)? {
        if l.kind == LinkKind::DuplicateOf
            && !l.incoming
            && let Some(t) = l.task_id
        {
            return Ok(Some(conn.task(t)?.key));
        }
    }
    Ok(None)
}

/// Undoes a merge: removes the `duplicate-of` link, moves the message links back,
/// restores the status the duplicate had, and records the decision.
pub fn unmerge(store: &mut dyn Engine, ctx: &Context, dup: &str) -> Result<MergeOutcome> {
    store.write(|tx| {
        let d = keys::resolve(tx, dup)?;
        unmerge_in(tx, ctx, d)
    })
}

/// Undoes a merge inside the caller's transaction.
pub(crate) fn unmerge_in(tx: &dyn Writes, ctx: &Context, d: i64) -> Result<MergeOutcome> {
    let now = ctx.now_ms();
    {
        let dup_task = tx.task(d)?;
        let target = tx
            .links_of_task(d)?
            .into_iter()
            .find(|l| l.kind == LinkKind::DuplicateOf && !l.incoming)
            .and_then(|l| l.task_id)
            .ok_or_else(|| Error::WrongState {
                key: dup_task.key.clone(),
                status: dup_task.status.to_string(),
                reason: "it is not merged into another task".into(),
            })?;
        // The last merge event says what to restore; a merge recorded without one (by
        // hand, or an import) restores an open task with no message links to move.
        let merged = tx.events_of_task(d)?.into_iter().rev().find_map(|e| match e.change {
            EventChange::MergedInto(m) => Some(m),
            _ => None,
        });
        let (status_before, reason_before, moved) = match merged {
            Some(m) => (m.status.0, m.close_reason.0, m.moved_messages),
            None => (Status::Open, None, Vec::new()),
        };
        crate::graph::remove_link(tx, ctx, d, LinkKind::DuplicateOf, target)?;
        let mut moved_back = 0;
        for m in &moved {
            moved_back += tx.move_message_link(target, d, *m, &ctx.actor, now)?;
        }
        // A duplicate closed before the merge gets now as its close time; the original
        // one stays in its history.
        tx.set_task_status(d, status_before, reason_before.as_deref(), now)?;
        let target_key = tx.task(target)?.key;
        tx.record_event(
            d,
            now,
            &ctx.actor,
            &EventChange::Unmerged(Unmerged {
                from: target_key,
                status: Change(Status::Dismissed, status_before),
                moved_messages: moved_back,
            }),
        )?;
        tx.record_event(target, now, &ctx.actor, &EventChange::Returned(Returned { returned: dup_task.key.clone() }))?;
        tx.record_decision(Some(d.max(target)), d.min(target), Decision::Unmerge, None, &ctx.actor, now)?;
        Ok(MergeOutcome { duplicate: tx.task(d)?, into: tx.task(target)?, moved_messages: moved_back })
    }
}

/// Fewest labelled duplicates (merges and attaches) before `retrain --apply` may
/// replace the built-in weights: below this, counted m values are mostly pseudo-counts.
pub const MIN_LABELLED_DUPLICATES: usize = 20;

/// Tasks sampled as "random pairs" drawn through retrieval for u.
pub const RETRAIN_SAMPLE: usize = 400;

/// What retraining would change.
#[derive(Debug, Clone)]
pub struct RetrainOutcome {
    /// Weights in use before.
    pub old: Weights,
    /// Weights counted now.
    pub new: Weights,
    /// Labelled duplicates (merge, attach) and non-duplicates (reject, new).
    pub labelled: (usize, usize),
    /// Random candidate pairs counted for u.
    pub random_pairs: usize,
    /// Reviewed pairs whose band would change under the new weights.
    pub band_changes: usize,
    /// Reviewed pairs scored.
    pub reviewed: usize,
    /// True when the new weights were kept.
    pub applied: bool,
}

/// Rewrites the duplicate check's index rows and signatures of every task as this
/// version reads text, in one transaction, and returns how many tasks it rewrote.
/// `progress(done, total)` is called after each task. Nothing a user wrote changes; the
/// history records nothing (the index is derived data, like a restore's).
pub fn reindex(store: &mut Store, progress: &mut dyn FnMut(usize, usize)) -> Result<usize> {
    store.write(|tx| {
        let ids = crate::store::dump::task_ids(tx)?;
        dedup::reindex_stored(tx, &ids, progress)?;
        Ok(ids.len())
    })
}

/// Re-estimates m from the store's labelled decisions and u from random tasks'
/// retrieved candidates, by counting (as Splink does); with `apply`, keeps them.
pub fn retrain(store: &mut dyn Engine, ctx: &Context, apply: bool) -> Result<RetrainOutcome> {
    let conn = store.reader();
    let source = conn.check_source()?;
    let old = dedup::weights_of(&*source)?;
    let decisions = conn.labelled_decisions()?;
    let mut counts = LevelCounts::default();
    let mut labelled = (0, 0);
    for d in &decisions {
        if d.decision.is_duplicate() {
            labelled.0 += 1;
            counts.add(&d.levels, true);
        } else {
            labelled.1 += 1;
        }
    }
    let mut random_pairs = 0;
    for id in conn.sample_task_ids(RETRAIN_SAMPLE)? {
        let row = source.candidate_row(id)?;
        let probe = dedup::probe_of_row(&row);
        for c in dedup::check_on(&*source, &probe, &old, id)? {
            if conn.is_merged_pair(id, c.task_id)? {
                continue;
            }
            counts.add(&c.levels.all(), false);
            random_pairs += 1;
        }
    }
    drop(source);
    let mut new = counts.estimate(Some(old.prior));
    if counts.n_matches == 0.0 {
        // No labelled duplicates yet: m stays as it was; only u is re-counted.
        for (level, stat) in new.stats.iter_mut() {
            if let Some(o) = old.stat(*level) {
                stat.m = o.m;
            }
        }
    }
    let tf = TermFrequencies::default();
    let mut reviewed = 0;
    let mut band_changes = 0;
    for d in &decisions {
        reviewed += 1;
        let score = |w: &Weights| d.levels.iter().map(|l| w.weight(*l, &tf)).sum::<f64>();
        if band(score(&old)) != band(score(&new)) {
            band_changes += 1;
        }
    }
    let applied = apply && labelled.0 >= MIN_LABELLED_DUPLICATES;
    if apply && !applied {
        return Err(Error::invalid(
            "apply",
            labelled.0.to_string(),
            format!(
                "only {} labelled duplicates (merges and attaches); at least {MIN_LABELLED_DUPLICATES} are needed before counted weights replace the built-in ones",
                labelled.0
            ),
        ));
    }
    if applied {
        let rows: Vec<_> = new.stats.iter().map(|(l, s)| (*l, s.m, s.u, s.weight())).collect();
        store.write(|tx| tx.store_weights(&rows, ctx.now_ms()))?;
    }
    Ok(RetrainOutcome { old, new, labelled, random_pairs, band_changes, reviewed, applied })
}
