//! Missed-run planning after downtime: each policy, both catch-up bounds, the grace
//! for on-time firings, and bounded work for very long downtimes.
//!
//! Expected instants are literal RFC 3339 strings worked out by hand. This file does
//! not test DST placement itself (see `tests/dst.rs`).

use std::time::{Duration, Instant};

use jiff::civil::Time;
use jiff::{SignedDuration, Timestamp};
use tasks_schedule::limits::{CATCH_UP_MAX_RUNS, CATCH_UP_RUNS_CEILING, MISSED_GRACE, SKIPPED_COUNT_CAP};
use tasks_schedule::{MissedPlan, MissedPolicy, Plan, SkippedCount, Trigger, plan_missed};

fn ts(s: &str) -> Timestamp {
    s.parse().expect("valid RFC 3339 instant")
}

fn daily_nine_utc() -> Plan {
    Plan::new(Trigger::Daily { time: Time::constant(9, 0, 0, 0) }, "UTC").expect("valid plan")
}

/// Checks one call: the runs, the skipped count and the next firing.
#[track_caller]
fn check(
    plan: &Plan,
    last_planned: &str,
    now: &str,
    policy: MissedPolicy,
    run: &[&str],
    skipped: SkippedCount,
    next: &str,
) {
    let got = plan_missed(plan, ts(last_planned), ts(now), &policy);
    let expected = MissedPlan { run: run.iter().map(|s| ts(s)).collect(), skipped, next_fire_at: Some(ts(next)) };
    assert_eq!(got, expected, "{policy:?}");
}

/// Five days down with a daily trigger: six firings due (Jun 1 … Jun 6 at 09:00), all
/// older than the grace at 12:00.
#[test]
fn five_days_down_daily() {
    let plan = daily_nine_utc();
    let (last, now, next) = ("2026-06-01T09:00:00Z", "2026-06-06T12:00:00Z", "2026-06-07T09:00:00Z");
    check(&plan, last, now, MissedPolicy::Skip, &[], SkippedCount::Exactly(6), next);
    check(&plan, last, now, MissedPolicy::RunOnce, &["2026-06-06T09:00:00Z"], SkippedCount::Exactly(5), next);
    check(
        &plan,
        last,
        now,
        MissedPolicy::catch_up_default(),
        &["2026-06-04T09:00:00Z", "2026-06-05T09:00:00Z", "2026-06-06T09:00:00Z"],
        SkippedCount::Exactly(3),
        next,
    );
    assert_eq!(CATCH_UP_MAX_RUNS, 3);
}

/// Catch-up never reaches further back than `max_age`, however large `max_runs` is.
#[test]
fn catch_up_is_bounded_by_age() {
    let plan = daily_nine_utc();
    let policy = MissedPolicy::CatchUp { max_runs: 100, max_age: SignedDuration::from_hours(7 * 24) };
    // Twenty-one firings due (Jun 1 … Jun 21); only those from Jun 14 12:00 on are
    // young enough: Jun 15 … Jun 21.
    check(
        &plan,
        "2026-06-01T09:00:00Z",
        "2026-06-21T12:00:00Z",
        policy,
        &[
            "2026-06-15T09:00:00Z",
            "2026-06-16T09:00:00Z",
            "2026-06-17T09:00:00Z",
            "2026-06-18T09:00:00Z",
            "2026-06-19T09:00:00Z",
            "2026-06-20T09:00:00Z",
            "2026-06-21T09:00:00Z",
        ],
        SkippedCount::Exactly(14),
        "2026-06-22T09:00:00Z",
    );
    // The default bound is seven days too: a firing 7 days + 3 hours old is not run.
    check(
        &plan,
        "2026-05-30T09:00:00Z",
        "2026-06-06T12:00:00Z",
        MissedPolicy::CatchUp { max_runs: 100, max_age: tasks_schedule::limits::CATCH_UP_MAX_AGE },
        &[
            "2026-05-31T09:00:00Z",
            "2026-06-01T09:00:00Z",
            "2026-06-02T09:00:00Z",
            "2026-06-03T09:00:00Z",
            "2026-06-04T09:00:00Z",
            "2026-06-05T09:00:00Z",
            "2026-06-06T09:00:00Z",
        ],
        SkippedCount::Exactly(1),
        "2026-06-07T09:00:00Z",
    );
}

/// A firing at most `MISSED_GRACE` old is on time: it runs under every policy and is
/// not counted as missed.
#[test]
fn on_time_firing_runs_under_every_policy() {
    let plan = daily_nine_utc();
    let (last, now, next) = ("2026-06-01T09:00:00Z", "2026-06-06T09:00:30Z", "2026-06-07T09:00:00Z");
    check(&plan, last, now, MissedPolicy::Skip, &["2026-06-06T09:00:00Z"], SkippedCount::Exactly(5), next);
    // run_once: the on-time firing already is the one Job.
    check(&plan, last, now, MissedPolicy::RunOnce, &["2026-06-06T09:00:00Z"], SkippedCount::Exactly(5), next);
    check(
        &plan,
        last,
        now,
        MissedPolicy::catch_up_default(),
        &["2026-06-03T09:00:00Z", "2026-06-04T09:00:00Z", "2026-06-05T09:00:00Z", "2026-06-06T09:00:00Z"],
        SkippedCount::Exactly(2),
        next,
    );
    // The normal case: the daemon wakes right at the firing.
    for policy in [MissedPolicy::Skip, MissedPolicy::RunOnce, MissedPolicy::catch_up_default()] {
        check(
            &plan,
            "2026-06-06T09:00:00Z",
            "2026-06-06T09:00:00Z",
            policy,
            &["2026-06-06T09:00:00Z"],
            SkippedCount::Exactly(0),
            next,
        );
    }
}

/// One due firing noticed later than the grace is missed, so `skip` drops it.
#[test]
fn single_late_firing_is_missed() {
    let plan = daily_nine_utc();
    let grace_secs = MISSED_GRACE.as_secs();
    let just_in =
        Timestamp::from_second(ts("2026-06-06T09:00:00Z").as_second() + grace_secs).expect("in range").to_string();
    let just_out =
        Timestamp::from_second(ts("2026-06-06T09:00:00Z").as_second() + grace_secs + 1).expect("in range").to_string();
    let next = "2026-06-07T09:00:00Z";
    check(
        &plan,
        "2026-06-06T09:00:00Z",
        &just_in,
        MissedPolicy::Skip,
        &["2026-06-06T09:00:00Z"],
        SkippedCount::Exactly(0),
        next,
    );
    check(&plan, "2026-06-06T09:00:00Z", &just_out, MissedPolicy::Skip, &[], SkippedCount::Exactly(1), next);
    check(
        &plan,
        "2026-06-06T09:00:00Z",
        &just_out,
        MissedPolicy::RunOnce,
        &["2026-06-06T09:00:00Z"],
        SkippedCount::Exactly(0),
        next,
    );
}

/// Nothing is due when the persisted next firing is still ahead.
#[test]
fn nothing_due_yet() {
    let plan = daily_nine_utc();
    check(
        &plan,
        "2026-06-06T09:00:00Z",
        "2026-06-06T08:00:00Z",
        MissedPolicy::catch_up_default(),
        &[],
        SkippedCount::Exactly(0),
        "2026-06-06T09:00:00Z",
    );
}

/// A `*/15` pattern missed for three years (~105 000 firings) is planned with bounded
/// work: the skipped count stops at the cap and the runs come from a backward search.
#[test]
fn three_years_of_quarter_hours() {
    let plan = Plan::new(Trigger::Cron { expression: "*/15 * * * *".into() }, "Europe/Berlin").expect("valid plan");
    let (last, now, next) = ("2023-06-06T12:00:00Z", "2026-06-06T12:07:00Z", "2026-06-06T12:15:00Z");
    let started = Instant::now();
    check(&plan, last, now, MissedPolicy::Skip, &[], SkippedCount::AtLeast(SKIPPED_COUNT_CAP), next);
    check(
        &plan,
        last,
        now,
        MissedPolicy::RunOnce,
        &["2026-06-06T12:00:00Z"],
        SkippedCount::AtLeast(SKIPPED_COUNT_CAP),
        next,
    );
    check(
        &plan,
        last,
        now,
        MissedPolicy::catch_up_default(),
        &["2026-06-06T11:30:00Z", "2026-06-06T11:45:00Z", "2026-06-06T12:00:00Z"],
        SkippedCount::AtLeast(SKIPPED_COUNT_CAP),
        next,
    );
    // Generous for a debug build on a busy machine; enumerating every firing instead
    // would also show up as `Exactly(..)` above.
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
}

/// A sparse trigger missed long ago still finds its most recent missed firing.
#[test]
fn run_once_finds_an_old_firing() {
    let plan = Plan::new(Trigger::Cron { expression: "0 0 29 2 *".into() }, "UTC").expect("valid plan");
    check(
        &plan,
        "2020-02-29T00:00:00Z",
        "2026-06-06T12:00:00Z",
        MissedPolicy::RunOnce,
        &["2024-02-29T00:00:00Z"],
        SkippedCount::Exactly(1),
        "2028-02-29T00:00:00Z",
    );
}

/// Catch-up across a fold does not run the repeated hour twice.
#[test]
fn catch_up_across_fold_runs_each_minute_once() {
    let plan = Plan::new(Trigger::Cron { expression: "0,30 1 * * *".into() }, "America/New_York").expect("valid plan");
    // 2026-11-01: 01:00 and 01:30 EDT (05:00Z, 05:30Z) fire; their EST repeats do not.
    check(
        &plan,
        "2026-11-01T05:00:00Z",
        "2026-11-01T08:00:00Z",
        MissedPolicy::CatchUp { max_runs: 10, max_age: SignedDuration::from_hours(24) },
        &["2026-11-01T05:00:00Z", "2026-11-01T05:30:00Z"],
        SkippedCount::Exactly(0),
        "2026-11-02T06:00:00Z",
    );
}

/// A configured `max_runs` beyond the ceiling runs only the ceiling's worth, the most
/// recent ones, oldest first.
#[test]
fn catch_up_runs_are_capped_by_the_ceiling() {
    let plan = Plan::new(Trigger::Cron { expression: "*/15 * * * *".into() }, "UTC").expect("valid plan");
    let now = ts("2026-06-06T12:07:00Z");
    let got = plan_missed(
        &plan,
        ts("2026-05-06T12:00:00Z"),
        now,
        &MissedPolicy::CatchUp { max_runs: u32::MAX, max_age: SignedDuration::from_hours(24 * 3650) },
    );
    assert_eq!(got.run.len(), CATCH_UP_RUNS_CEILING as usize);
    assert_eq!(got.run.last(), Some(&ts("2026-06-06T12:00:00Z")));
    // 100 quarter hours before 12:00 (inclusive) start 24 h 45 min earlier.
    assert_eq!(got.run.first(), Some(&ts("2026-06-05T11:15:00Z")));
    assert!(got.run.windows(2).all(|w| w[0] < w[1]));
}
