//! Deciding which firings to run after the daemon was down (SPEC §6, missed firings).
//!
//! Given the persisted `next_fire_at` (`last_planned`) and `now`, every firing `f` with
//! `last_planned <= f <= now` is *due*. A due firing at most [`MISSED_GRACE`] old is
//! *on time*: it runs under every policy, because a daemon that wakes a few seconds late
//! has not missed anything. Older due firings are *missed* and obey the policy:
//!
//! - `skip` runs none of them;
//! - `run_once` runs the most recent one — unless an on-time firing runs, which already
//!   is the "one Job however many were missed";
//! - `catch_up_bounded` runs the most recent `max_runs` of those at most `max_age` old.
//!
//! Runs are returned oldest first. Work is bounded however long the downtime: the runs
//! are found by a backward search in doubling windows from `now`, and skipped firings
//! are counted one by one only up to [`SKIPPED_COUNT_CAP`] (a `*/15` pattern missed
//! for three years costs about a thousand steps, not a hundred thousand).
//!
//! This module creates no Jobs and writes nothing; the store turns the answer into Jobs
//! (idempotency key: schedule id + plan version + scheduled-for) and persists
//! `next_fire_at`.

use std::collections::VecDeque;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use crate::limits::{
    CATCH_UP_MAX_AGE, CATCH_UP_MAX_RUNS, CATCH_UP_RUNS_CEILING, MISSED_GRACE, MISSED_SEARCH_FIRST_WINDOW_HOURS,
    SKIPPED_COUNT_CAP,
};
use crate::plan::Plan;

/// Describes what to do with firings missed while the daemon was down.
///
/// Stored as `{"policy":"skip"}`, `{"policy":"run_once"}` or
/// `{"policy":"catch_up_bounded","max_runs":3,"max_age_seconds":604800}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "snake_case")]
pub enum MissedPolicy {
    /// Runs no missed firing.
    Skip,
    /// Runs one Job for the most recent missed firing, however many were missed.
    RunOnce,
    /// Runs the most recent missed firings, oldest first, within both bounds.
    #[serde(rename = "catch_up_bounded", alias = "catch_up")]
    CatchUp {
        /// The most missed firings to run (default [`CATCH_UP_MAX_RUNS`]).
        max_runs: u32,
        /// The oldest a missed firing may be and still run (default
        /// [`CATCH_UP_MAX_AGE`]); real elapsed time, not calendar days.
        #[serde(rename = "max_age_seconds", with = "seconds")]
        max_age: SignedDuration,
    },
}

impl MissedPolicy {
    /// Returns `catch_up_bounded` with the SPEC §6 defaults: 3 runs, 7 days.
    pub const fn catch_up_default() -> MissedPolicy {
        MissedPolicy::CatchUp { max_runs: CATCH_UP_MAX_RUNS, max_age: CATCH_UP_MAX_AGE }
    }
}

/// Counts the missed firings that will not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkippedCount {
    /// Exactly this many.
    Exactly(u64),
    /// At least this many ([`SKIPPED_COUNT_CAP`]); counting stopped there.
    AtLeast(u64),
}

/// Holds the answer of [`plan_missed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissedPlan {
    /// The firings to create Jobs for, oldest first (on-time ones included).
    pub run: Vec<Timestamp>,
    /// The missed firings that will not run.
    pub skipped: SkippedCount,
    /// The first firing strictly after `now`: the new `next_fire_at`.
    pub next_fire_at: Option<Timestamp>,
}

/// Returns which due firings to run, how many are skipped, and the next firing.
///
/// `last_planned` is the `next_fire_at` that was persisted before the downtime; a
/// firing exactly at it is due. When `last_planned` is after `now` nothing is due.
/// A configured `max_runs` above [`CATCH_UP_RUNS_CEILING`] counts as the ceiling, so
/// the work stays bounded whatever the configuration says.
pub fn plan_missed(plan: &Plan, last_planned: Timestamp, now: Timestamp, policy: &MissedPolicy) -> MissedPlan {
    let next_fire_at = plan.next_after(now);
    if last_planned > now {
        return MissedPlan { run: Vec::new(), skipped: SkippedCount::Exactly(0), next_fire_at };
    }
    // Firings before `missed_before` are missed; from it to `now` they are on time.
    let missed_before = earlier(now, MISSED_GRACE).max(last_planned);
    let on_time: Vec<Timestamp> = between(plan, missed_before, now).collect();
    let chosen = match *policy {
        MissedPolicy::Skip => Vec::new(),
        MissedPolicy::RunOnce if on_time.is_empty() => latest(plan, last_planned, missed_before, 1),
        MissedPolicy::RunOnce => Vec::new(),
        MissedPolicy::CatchUp { max_runs, max_age } => {
            let oldest = earlier(now, max_age).max(last_planned);
            let runs = max_runs.min(CATCH_UP_RUNS_CEILING);
            latest(plan, oldest, missed_before, runs as usize)
        }
    };
    let skipped = count_skipped(plan, last_planned, missed_before, chosen.len() as u64);
    let mut run = chosen;
    run.extend(on_time);
    MissedPlan { run, skipped, next_fire_at }
}

/// Returns the firings `f` with `from <= f <= until`, in order.
fn between(plan: &Plan, from: Timestamp, until: Timestamp) -> impl Iterator<Item = Timestamp> + '_ {
    let first = plan.first_at_or_after(from);
    std::iter::successors(first, move |&f| plan.next_after(f)).take_while(move |&f| f <= until)
}

/// Returns the last `k` firings `f` with `from <= f < before`, oldest first.
///
/// Searches backward from `before` in windows that double from
/// [`MISSED_SEARCH_FIRST_WINDOW_HOURS`], so the cost follows the number of firings near
/// `before`, not the length of the downtime.
fn latest(plan: &Plan, from: Timestamp, before: Timestamp, k: usize) -> Vec<Timestamp> {
    if k == 0 || from >= before {
        return Vec::new();
    }
    let mut width = SignedDuration::from_hours(MISSED_SEARCH_FIRST_WINDOW_HOURS);
    loop {
        let start = earlier(before, width).max(from);
        let mut found = VecDeque::new();
        let first = plan.first_at_or_after(start);
        for f in std::iter::successors(first, |&f| plan.next_after(f)).take_while(|&f| f < before) {
            found.push_back(f);
            if found.len() > k {
                found.pop_front();
            }
        }
        if found.len() >= k || start == from {
            return found.into();
        }
        width = width.saturating_mul(2);
    }
}

/// Counts the missed firings in `[from, before)` minus the `chosen` ones that run,
/// stopping at [`SKIPPED_COUNT_CAP`].
fn count_skipped(plan: &Plan, from: Timestamp, before: Timestamp, chosen: u64) -> SkippedCount {
    if from >= before {
        return SkippedCount::Exactly(0);
    }
    let limit = SKIPPED_COUNT_CAP + chosen;
    let first = plan.first_at_or_after(from);
    let seen = std::iter::successors(first, |&f| plan.next_after(f))
        .take_while(|&f| f < before)
        .take(limit as usize + 1)
        .count() as u64;
    if seen > limit { SkippedCount::AtLeast(SKIPPED_COUNT_CAP) } else { SkippedCount::Exactly(seen - chosen) }
}

/// Returns `at - by`, or the earliest instant jiff supports if that underflows.
fn earlier(at: Timestamp, by: SignedDuration) -> Timestamp {
    at.checked_sub(by).unwrap_or(Timestamp::MIN)
}

/// The stored form of a duration as whole seconds.
mod seconds {
    use jiff::SignedDuration;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &SignedDuration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(d.as_secs())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SignedDuration, D::Error> {
        let secs = i64::deserialize(d)?;
        if secs < 0 {
            return Err(serde::de::Error::custom(format!("max_age_seconds {secs} is negative")));
        }
        Ok(SignedDuration::from_secs(secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_stored_form() {
        let check = |p: MissedPolicy, s: &str| {
            assert_eq!(serde_json::to_string(&p).expect("serializable"), s);
            assert_eq!(serde_json::from_str::<MissedPolicy>(s).expect("readable"), p);
        };
        check(MissedPolicy::Skip, r#"{"policy":"skip"}"#);
        check(MissedPolicy::RunOnce, r#"{"policy":"run_once"}"#);
        check(
            MissedPolicy::catch_up_default(),
            r#"{"policy":"catch_up_bounded","max_runs":3,"max_age_seconds":604800}"#,
        );
        assert!(
            serde_json::from_str::<MissedPolicy>(r#"{"policy":"catch_up","max_runs":3,"max_age_seconds":-1}"#).is_err()
        );
    }
}
