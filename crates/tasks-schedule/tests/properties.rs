//! Property tests: invariants of planned firings over random valid triggers, ten zones
//! with odd DST rules, and starting points across two years.
//!
//! Aimed cases (half) start up to 8 hours before a transition and put the trigger's
//! time at or around the skipped or repeated local minutes.
//!
//! Invariants: firings strictly increase; asking from any instant between two firings
//! gives the later one; no local minute fires twice; every firing is a first-pass match
//! or the end of a gap that swallowed a match on the same day; and (the oracle,
//! minute by minute over three days) no first-pass match and no such gap is left out.
//! Parsing refusals and literal DST cases live in `cron.rs` and `tests/dst.rs`.

use jiff::civil::{DateTime, Time, Weekday};
use jiff::tz::{Offset, TimeZone};
use jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use tasks_schedule::{LocalTime, MonthDay, Plan, Trigger, classify, parse_cron, time_zone};

/// Zones with DST of every shape: 1 h (New York, Berlin, London, Sydney), 30 min
/// (Lord Howe), 1 h at midnight (Santiago), none (Kolkata, Tehran since 2022), a
/// skipped day (Apia, 2011), and a +12:45 zone whose shift happens at 02:45 (Chatham).
const ZONES: [&str; 10] = [
    "America/New_York",
    "Europe/Berlin",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Pacific/Apia",
    "America/Santiago",
    "Europe/London",
    "Australia/Sydney",
    "Asia/Tehran",
    "Pacific/Chatham",
];

/// How many firings each case follows.
const FIRINGS: usize = 24;

/// How far the minute-by-minute oracle looks past the starting point.
const ORACLE_MINUTES: i64 = 3 * 24 * 60;

/// Returns the two-year window of starting points for a zone: 2026–2027, except Apia,
/// whose interesting years (the skipped 2011-12-30, DST until 2021) are 2011–2012.
fn window(zone: &str) -> (Timestamp, Timestamp) {
    let (from, to) = if zone == "Pacific/Apia" {
        ("2011-01-01T00:00:00Z", "2013-01-01T00:00:00Z")
    } else {
        ("2026-01-01T00:00:00Z", "2028-01-01T00:00:00Z")
    };
    (from.parse().expect("valid instant"), to.parse().expect("valid instant"))
}

/// Holds a DST transition the case aims at: the local minutes it skips or repeats, `[first_local, first_local + minutes)`.
#[derive(Debug, Clone, Copy)]
struct Target {
    first_local: DateTime,
    minutes: i32,
}

/// Returns a starting point and, half of the time, the transition it aims at: uniform
/// in the zone's window, or shortly before one of the zone's transitions (read from
/// jiff's tz data, not from the code under test).
fn start_point(
    zone: &TimeZone,
    name: &str,
    pick: u64,
    near_transition: bool,
    lead: i64,
) -> (Timestamp, Option<Target>) {
    let (from, to) = window(name);
    let transitions: Vec<Timestamp> = zone.following(from).map(|t| t.timestamp()).take_while(|t| *t < to).collect();
    if near_transition && !transitions.is_empty() {
        let at = transitions[(pick as usize) % transitions.len()];
        let before = offset_before(zone, at);
        let after = zone.to_offset(at);
        let (a, b) = (before.to_datetime(at), after.to_datetime(at));
        let target = Target { first_local: a.min(b), minutes: (after.seconds() - before.seconds()).abs() / 60 };
        // From `lead` seconds before the transition (up to 8 hours) to 1 hour after.
        let start = at.checked_sub(SignedDuration::from_secs(lead)).expect("in range");
        return (start, Some(target));
    }
    let span = to.as_second() - from.as_second();
    let start = Timestamp::from_second(from.as_second() + (pick % span as u64) as i64).expect("in range");
    (start, None)
}

/// Returns a local time of day at or around the target's skipped or repeated minutes
/// (`nudge` picks one, a few minutes either side included), or the given one.
fn aimed_time(target: Option<Target>, nudge: u32, h: i8, m: i8) -> (i8, i8, Option<DateTime>) {
    let Some(target) = target else {
        return (h, m, None);
    };
    let spread = target.minutes as i64 + 10;
    let offset = i64::from(nudge) % spread - 5;
    let local = target.first_local.checked_add(SignedDuration::from_mins(offset)).expect("in range");
    (local.hour(), local.minute(), Some(local))
}

/// Returns the offset in force just before `at`.
fn offset_before(zone: &TimeZone, at: Timestamp) -> Offset {
    zone.to_offset(at.checked_sub(SignedDuration::from_nanos(1)).expect("in range"))
}

/// Checks every invariant for one plan from one starting point, with an independent
/// matcher saying which local minutes the trigger wants.
fn check_invariants(plan: &Plan, start: Timestamp, matches: &dyn Fn(DateTime) -> bool) -> Result<(), TestCaseError> {
    let zone = plan.zone();
    let firings: Vec<Timestamp> = plan.firings_after(start).take(FIRINGS).collect();
    prop_assert!(!firings.is_empty(), "a valid recurring trigger fires");

    // Strictly increasing, and the first is strictly after the start.
    let mut previous = start;
    for &f in &firings {
        prop_assert!(f > previous, "{f} not after {previous}");
        previous = f;
    }

    // Asking from just before a firing, or from anywhere between two, gives the later.
    for pair in firings.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        prop_assert_eq!(plan.next_after(a), Some(b));
        let mid = Timestamp::from_second((a.as_second() + b.as_second()) / 2).expect("in range");
        if mid > a {
            prop_assert_eq!(plan.next_after(mid), Some(b), "from {}", mid);
        }
        let just_before = b.checked_sub(SignedDuration::from_secs(1)).expect("in range");
        prop_assert_eq!(plan.next_after(just_before), Some(b), "from {}", just_before);
    }

    // No local minute fires twice.
    let mut locals: Vec<DateTime> = firings.iter().map(|&f| zone.to_datetime(f)).collect();
    locals.sort();
    locals.dedup();
    prop_assert_eq!(locals.len(), firings.len(), "a local minute fired twice");

    // Each firing is a first-pass match, or the end of a gap that held a match on the
    // same local date.
    for &f in &firings {
        let local = zone.to_datetime(f);
        let first_pass = match classify(zone, local) {
            Some(LocalTime::Unique(at)) => at == f,
            Some(LocalTime::Repeated { first, .. }) => first == f,
            _ => false,
        };
        if first_pass && matches(local) {
            continue;
        }
        let transition = zone
            .preceding(f.checked_add(SignedDuration::from_nanos(1)).expect("in range"))
            .next()
            .map(|t| (t.timestamp(), t.offset()));
        let Some((at, after)) = transition.filter(|(at, _)| *at == f) else {
            return Err(TestCaseError::fail(format!("{local} ({f}) neither matches nor ends a gap")));
        };
        let before = offset_before(zone, at);
        prop_assert!(after > before, "{} ends a fold, not a gap", local);
        let gap_start = before.to_datetime(at);
        let gap_minutes = (after.seconds() - before.seconds()) / 60;
        let held_match = (0..gap_minutes).any(|i| {
            let dt = gap_start.checked_add(SignedDuration::from_mins(i64::from(i))).expect("in range");
            dt.date() == local.date() && matches(dt)
        });
        prop_assert!(held_match, "gap ending at {} held no match that day", local);
    }

    // Oracle: every first-pass match and every gap holding a same-day match within
    // three days of the start is among the firings.
    let last = *firings.last().expect("non-empty");
    let start_minute = start.as_second().div_euclid(60) * 60 + 60;
    for i in 0..ORACLE_MINUTES {
        let t = Timestamp::from_second(start_minute + i * 60).expect("in range");
        if t > last {
            break;
        }
        let local = zone.to_datetime(t);
        let first_pass = match classify(zone, local) {
            Some(LocalTime::Unique(at)) => at == t,
            Some(LocalTime::Repeated { first, .. }) => first == t,
            _ => false,
        };
        if first_pass && matches(local) {
            prop_assert!(firings.contains(&t), "match {} ({}) missing", local, t);
        }
    }
    let oracle_end = Timestamp::from_second(start_minute + ORACLE_MINUTES * 60).expect("in range");
    for transition in zone.following(start) {
        let at = transition.timestamp();
        if at > last || at > oracle_end {
            break;
        }
        let before = offset_before(zone, at);
        let after = transition.offset();
        if after <= before {
            continue;
        }
        let gap_start = before.to_datetime(at);
        let gap_end = after.to_datetime(at);
        let gap_minutes = (after.seconds() - before.seconds()) / 60;
        let held_match = (0..gap_minutes).any(|i| {
            let dt = gap_start.checked_add(SignedDuration::from_mins(i64::from(i))).expect("in range");
            dt.date() == gap_end.date() && matches(dt)
        });
        if held_match && at > start {
            prop_assert!(firings.contains(&at), "gap end {} ({}) missing", gap_end, at);
        }
    }
    Ok(())
}

/// Generates cron patterns from per-field generators; most pass the 15-minute rule
/// and the rest are filtered out by `parse_cron` itself.
fn cron_pattern() -> impl Strategy<Value = String> {
    let minute = prop_oneof![
        (0..60u8).prop_map(|m| m.to_string()),
        Just("*/15".to_string()),
        Just("*/20".to_string()),
        Just("*/30".to_string()),
        (0..15u8).prop_map(|a| format!("{a}-59/15")),
        (0..15u8, 15..=30u8).prop_map(|(a, d)| format!("{a},{}", a + d)),
    ];
    let hour = prop_oneof![
        Just("*".to_string()),
        (0..24u8).prop_map(|h| h.to_string()),
        (0..24u8, 0..24u8).prop_map(|(a, b)| format!("{}-{}", a.min(b), a.max(b))),
        (1..12u8).prop_map(|n| format!("*/{n}")),
        (0..12u8, 12..24u8).prop_map(|(a, b)| format!("{a},{b}")),
    ];
    let day_of_month = prop_oneof![
        4 => Just("*".to_string()),
        1 => (1..=31u8).prop_map(|d| d.to_string()),
        1 => (1..=31u8, 1..=31u8).prop_map(|(a, b)| format!("{}-{}", a.min(b), a.max(b))),
        1 => (2..10u8).prop_map(|n| format!("*/{n}")),
    ];
    let month = prop_oneof![
        4 => Just("*".to_string()),
        1 => (1..=12u8).prop_map(|m| m.to_string()),
        1 => (1..=12u8, 1..=12u8).prop_map(|(a, b)| format!("{}-{}", a.min(b), a.max(b))),
    ];
    let day_of_week = prop_oneof![
        3 => Just("*".to_string()),
        1 => (0..=7u8).prop_map(|d| d.to_string()),
        1 => Just("1-5".to_string()),
        1 => (0..=7u8, 0..=7u8).prop_map(|(a, b)| format!("{}-{}", a.min(b), a.max(b))),
    ];
    (minute, hour, day_of_month, month, day_of_week)
        .prop_map(|(m, h, dom, mon, dow)| format!("{m} {h} {dom} {mon} {dow}"))
        .prop_filter("valid restricted cron", |p| parse_cron(p).is_ok())
}

/// Generates a zone index, a pick, whether to aim at a transition, a lead time and a
/// nudge for aiming the trigger's time.
fn zone_and_start() -> impl Strategy<Value = (usize, u64, bool, i64, u32)> {
    (0..ZONES.len(), any::<u64>(), any::<bool>(), -3600..(8 * 3600i64), any::<u32>())
}

fn setup(zone_index: usize, pick: u64, near: bool, lead: i64) -> (&'static str, Timestamp, Option<Target>) {
    let name = ZONES[zone_index];
    let zone = time_zone(name).expect("known zone");
    let (start, target) = start_point(&zone, name, pick, near, lead);
    (name, start, target)
}

/// Returns the config: `cases` cases, failures saved in the crate's
/// `proptest-regressions/` (cargo runs tests from the crate root).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/properties.txt"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn cron_firings_obey_the_rules(pattern in cron_pattern(), (z, pick, near, lead, nudge) in zone_and_start()) {
        let (name, start, target) = setup(z, pick, near, lead);
        // Aimed cases put the transition's local hour into the hour field and free the
        // day fields, so the skipped or repeated minutes are candidates.
        let pattern = match aimed_time(target, nudge, 0, 0) {
            (_, _, Some(local)) => {
                let fields: Vec<&str> = pattern.split(' ').collect();
                let hour = local.hour();
                let hours = match nudge % 3 {
                    0 => hour.to_string(),
                    1 => format!("{}-{}", (hour - 1).max(0), (hour + 1).min(23)),
                    _ => "*".to_string(),
                };
                format!("{} {hours} * * *", fields[0])
            }
            _ => pattern,
        };
        let parsed = parse_cron(&pattern);
        prop_assume!(parsed.is_ok());
        let parsed = parsed.expect("checked");
        let plan = Plan::new(Trigger::Cron { expression: pattern.clone() }, name).expect("valid plan");
        check_invariants(&plan, start, &|dt| parsed.matches(dt))?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn daily_firings_obey_the_rules(h in 0..24i8, m in 0..60i8, (z, pick, near, lead, nudge) in zone_and_start()) {
        let (name, start, target) = setup(z, pick, near, lead);
        let (h, m, _) = aimed_time(target, nudge, h, m);
        let plan = Plan::new(Trigger::Daily { time: Time::constant(h, m, 0, 0) }, name).expect("valid plan");
        check_invariants(&plan, start, &|dt| dt.hour() == h && dt.minute() == m)?;
        // A daily trigger and the equivalent cron pattern plan the same firings.
        let cron = Plan::new(Trigger::Cron { expression: format!("{m} {h} * * *") }, name).expect("valid plan");
        let a: Vec<_> = plan.firings_after(start).take(FIRINGS).collect();
        let b: Vec<_> = cron.firings_after(start).take(FIRINGS).collect();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn weekly_firings_obey_the_rules(mask in 1..128u8, h in 0..24i8, m in 0..60i8, (z, pick, near, lead, nudge) in zone_and_start()) {
        let (name, start, target) = setup(z, pick, near, lead);
        let (h, m, aimed) = aimed_time(target, nudge, h, m);
        // Aimed cases include the transition's weekday.
        let mask = mask | aimed.map_or(0, |local| 1 << local.weekday().to_monday_zero_offset());
        let weekdays: Vec<Weekday> = (0..7)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| Weekday::from_monday_zero_offset(i).expect("0..7"))
            .collect();
        let plan = Plan::new(Trigger::Weekly { weekdays: weekdays.clone(), time: Time::constant(h, m, 0, 0) }, name).expect("valid plan");
        check_invariants(&plan, start, &|dt| {
            dt.hour() == h && dt.minute() == m && weekdays.contains(&dt.weekday())
        })?;
    }

    #[test]
    fn monthly_firings_obey_the_rules(day in 0..=31u8, h in 0..24i8, m in 0..60i8, (z, pick, near, lead, nudge) in zone_and_start()) {
        let (name, start, target) = setup(z, pick, near, lead);
        let (h, m, aimed) = aimed_time(target, nudge, h, m);
        // Aimed cases use the transition's day of the month. Day 0 stands for `last`.
        let day = aimed.map_or(day, |local| local.day() as u8);
        let month_day = if day == 0 { MonthDay::Last } else { MonthDay::Day(day) };
        let plan = Plan::new(Trigger::Monthly { day: month_day, time: Time::constant(h, m, 0, 0) }, name).expect("valid plan");
        check_invariants(&plan, start, &|dt| {
            let wanted = if day == 0 { dt.date().days_in_month() } else { day as i8 };
            dt.hour() == h && dt.minute() == m && dt.day() == wanted
        })?;
        if day != 0 {
            let cron = Plan::new(Trigger::Cron { expression: format!("{m} {h} {day} * *") }, name).expect("valid plan");
            let a: Vec<_> = plan.firings_after(start).take(FIRINGS).collect();
            let b: Vec<_> = cron.firings_after(start).take(FIRINGS).collect();
            prop_assert_eq!(a, b);
        }
    }
}
