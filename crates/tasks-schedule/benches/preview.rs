//! Measures `tasks schedule preview`'s planning cost: 1000 previews of 5 firings.
//!
//! The goal (SPEC §6 preview, the daemon recomputing `next_fire_at` for every
//! schedule) is 1000 previews in at most 25 ms, i.e. 25 µs each. The mix is what users
//! create: daily, workdays, weekly, monthly `last`, monthly 31, and the cron
//! `*/30 9-18 * * 1-5`, in zones with and without DST, from starting points spread over
//! a year (some right before a DST change). It does not measure parsing or storage.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use jiff::civil::{Time, Weekday};
use jiff::{SignedDuration, Timestamp};
use tasks_schedule::limits::PREVIEW_COUNT;
use tasks_schedule::{MonthDay, Plan, Trigger};

const ZONES: [&str; 6] =
    ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago", "Europe/London"];

fn triggers() -> Vec<Trigger> {
    let nine = Time::constant(9, 0, 0, 0);
    vec![
        Trigger::Daily { time: nine },
        Trigger::Daily { time: Time::constant(2, 30, 0, 0) },
        Trigger::workdays(nine),
        Trigger::Weekly { weekdays: vec![Weekday::Monday, Weekday::Thursday], time: nine },
        Trigger::Monthly { day: MonthDay::Last, time: nine },
        Trigger::Monthly { day: MonthDay::Day(31), time: nine },
        Trigger::Cron { expression: "*/30 9-18 * * 1-5".into() },
        Trigger::Cron { expression: "0 9 1 * 1".into() },
    ]
}

/// Returns 1000 (plan, starting point) pairs cycling through triggers and zones, with
/// starting points every ~8.8 hours through 2026.
fn cases() -> Vec<(Plan, Timestamp)> {
    let triggers = triggers();
    let start: Timestamp = "2026-01-01T00:00:00Z".parse().expect("valid instant");
    (0..1000i64)
        .map(|i| {
            let trigger = triggers[i as usize % triggers.len()].clone();
            let zone = ZONES[i as usize % ZONES.len()];
            let plan = Plan::new(trigger, zone).expect("valid plan");
            let from = start.checked_add(SignedDuration::from_mins(i * 527)).expect("in range");
            (plan, from)
        })
        .collect()
}

fn preview(c: &mut Criterion) {
    let cases = cases();
    c.bench_function("1000 previews of 5 firings", |b| {
        b.iter(|| {
            for (plan, from) in &cases {
                black_box(plan.preview(black_box(*from), PREVIEW_COUNT));
            }
        })
    });
    let triggers = triggers();
    c.bench_function("1000 x Plan::new + preview", |b| {
        b.iter(|| {
            for (i, (_, from)) in cases.iter().enumerate() {
                let plan = Plan::new(triggers[i % triggers.len()].clone(), ZONES[i % ZONES.len()]).expect("valid plan");
                black_box(plan.preview(*from, PREVIEW_COUNT));
            }
        })
    });
}

criterion_group!(benches, preview);
criterion_main!(benches);
