//! DST scenarios for every trigger type in zones with unusual transitions.
//!
//! Expected firings are literal RFC 3339 strings (local time with its offset), worked
//! out by hand from the 2026 (and 2011 for Apia) tz rules written beside each table;
//! they are not computed by the code under test. This file does not test cron parsing
//! or missed runs (see `cron.rs` and `tests/missed.rs`).

use jiff::Timestamp;
use jiff::civil::{Time, Weekday};
use tasks_schedule::{MonthDay, Plan, Trigger};

/// Checks the firings strictly after `after` (local RFC 3339 with offset).
#[track_caller]
fn check(trigger: Trigger, zone: &str, after: &str, expected: &[&str]) {
    let plan = Plan::new(trigger, zone).expect("valid plan");
    let after: Timestamp = after.parse().expect("valid RFC 3339 instant");
    let got: Vec<String> = plan
        .preview(after, expected.len())
        .into_iter()
        .map(|f| {
            assert_eq!(f.local.timestamp(), f.at, "local and instant agree");
            assert_eq!(f.local.time_zone().iana_name(), Some(plan.zone_name()));
            f.at.display_with_offset(f.local.offset()).to_string()
        })
        .collect();
    assert_eq!(got, expected, "{zone} after {after}");
}

fn at(h: i8, m: i8) -> Time {
    Time::constant(h, m, 0, 0)
}

fn daily(h: i8, m: i8) -> Trigger {
    Trigger::Daily { time: at(h, m) }
}

fn weekly(days: &[Weekday], h: i8, m: i8) -> Trigger {
    Trigger::Weekly { weekdays: days.to_vec(), time: at(h, m) }
}

fn monthly(day: MonthDay, h: i8, m: i8) -> Trigger {
    Trigger::Monthly { day, time: at(h, m) }
}

fn cron(expression: &str) -> Trigger {
    Trigger::Cron { expression: expression.into() }
}

/// America/New_York 2026: gap 02:00–03:00 on Sun Mar 8 (EST -05 → EDT -04);
/// fold 01:00–02:00 on Sun Nov 1 (EDT -04 → EST -05).
#[test]
#[rustfmt::skip]
fn new_york() {
    const NY: &str = "America/New_York";
    // The gap time fires at 03:00, the first valid minute — not jiff's 03:30.
    check(daily(2, 30), NY, "2026-03-07T00:00:00-05:00", &["2026-03-07T02:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"]);
    check(daily(2, 0), NY, "2026-03-07T12:00:00-05:00", &["2026-03-08T03:00:00-04:00", "2026-03-09T02:00:00-04:00"]);
    check(daily(2, 59), NY, "2026-03-07T12:00:00-05:00", &["2026-03-08T03:00:00-04:00", "2026-03-09T02:59:00-04:00"]);
    check(daily(3, 0), NY, "2026-03-07T12:00:00-05:00", &["2026-03-08T03:00:00-04:00", "2026-03-09T03:00:00-04:00"]);
    // The fold fires on its first pass only.
    check(daily(1, 30), NY, "2026-10-31T12:00:00-04:00", &["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"]);
    check(daily(1, 0), NY, "2026-10-31T12:00:00-04:00", &["2026-11-01T01:00:00-04:00", "2026-11-02T01:00:00-05:00"]);
    check(daily(2, 0), NY, "2026-10-31T12:00:00-04:00", &["2026-11-01T02:00:00-05:00", "2026-11-02T02:00:00-05:00"]);
    // Asked from inside the second pass: 01:30 already fired on the first pass.
    check(daily(1, 30), NY, "2026-11-01T01:10:00-05:00", &["2026-11-02T01:30:00-05:00"]);
    check(cron("*/15 * * * *"), NY, "2026-11-01T01:10:00-05:00", &["2026-11-01T02:00:00-05:00"]);
    // Cron: four gap matches and 03:00 itself collapse into one 03:00 firing.
    check(cron("*/15 * * * *"), NY, "2026-03-08T01:30:00-05:00", &["2026-03-08T01:45:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T03:15:00-04:00"]);
    check(cron("30 2 * * *"), NY, "2026-03-07T12:00:00-05:00", &["2026-03-08T03:00:00-04:00", "2026-03-09T02:30:00-04:00"]);
    check(
        cron("*/15 * * * *"),
        NY,
        "2026-11-01T00:40:00-04:00",
        &["2026-11-01T00:45:00-04:00", "2026-11-01T01:00:00-04:00", "2026-11-01T01:15:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:45:00-04:00", "2026-11-01T02:00:00-05:00", "2026-11-01T02:15:00-05:00"],
    );
    check(cron("0,30 1 * * *"), NY, "2026-10-31T12:00:00-04:00", &["2026-11-01T01:00:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:00:00-05:00"]);
    // Weekly: 2026-03-01 and 03-08 are Sundays.
    check(weekly(&[Weekday::Sunday], 2, 30), NY, "2026-02-28T00:00:00-05:00", &["2026-03-01T02:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-15T02:30:00-04:00"]);
    check(weekly(&[Weekday::Sunday], 1, 30), NY, "2026-10-30T00:00:00-04:00", &["2026-11-01T01:30:00-04:00", "2026-11-08T01:30:00-05:00"]);
    // Monthly on the 8th and on the 1st at gap/fold times.
    check(monthly(MonthDay::Day(8), 2, 30), NY, "2026-02-01T00:00:00-05:00", &["2026-02-08T02:30:00-05:00", "2026-03-08T03:00:00-04:00", "2026-04-08T02:30:00-04:00"]);
    check(monthly(MonthDay::Day(1), 1, 30), NY, "2026-10-02T00:00:00-04:00", &["2026-11-01T01:30:00-04:00", "2026-12-01T01:30:00-05:00"]);
}

/// Europe/Berlin 2026: gap 02:00–03:00 on Sun Mar 29 (+01 → +02);
/// fold 02:00–03:00 on Sun Oct 25 (+02 → +01).
#[test]
#[rustfmt::skip]
fn berlin() {
    const BERLIN: &str = "Europe/Berlin";
    check(daily(2, 30), BERLIN, "2026-03-27T12:00:00+01:00", &["2026-03-28T02:30:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"]);
    check(daily(2, 30), BERLIN, "2026-10-24T12:00:00+02:00", &["2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"]);
    check(cron("0 2 * * 0"), BERLIN, "2026-03-21T00:00:00+01:00", &["2026-03-22T02:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-04-05T02:00:00+02:00"]);
    // Three gap matches (02:00, 02:20, 02:40) collapse into a single 03:00.
    check(cron("*/20 2 * * *"), BERLIN, "2026-03-29T00:00:00+01:00", &["2026-03-29T03:00:00+02:00", "2026-03-30T02:00:00+02:00", "2026-03-30T02:20:00+02:00"]);
    check(cron("*/20 2 * * *"), BERLIN, "2026-10-25T00:00:00+02:00", &["2026-10-25T02:00:00+02:00", "2026-10-25T02:20:00+02:00", "2026-10-25T02:40:00+02:00", "2026-10-26T02:00:00+01:00"]);
    check(monthly(MonthDay::Day(25), 2, 30), BERLIN, "2026-10-01T00:00:00+02:00", &["2026-10-25T02:30:00+02:00", "2026-11-25T02:30:00+01:00"]);
    check(monthly(MonthDay::Day(29), 2, 30), BERLIN, "2026-03-01T00:00:00+01:00", &["2026-03-29T03:00:00+02:00", "2026-04-29T02:30:00+02:00"]);
    check(weekly(&[Weekday::Sunday], 2, 30), BERLIN, "2026-03-28T00:00:00+01:00", &["2026-03-29T03:00:00+02:00", "2026-04-05T02:30:00+02:00"]);
}

/// Australia/Lord_Howe 2026: a 30-minute DST. Gap 02:00–02:30 on Sun Oct 4
/// (+10:30 → +11); fold 01:30–02:00 on Sun Apr 5 (+11 → +10:30).
#[test]
#[rustfmt::skip]
fn lord_howe() {
    const LH: &str = "Australia/Lord_Howe";
    check(daily(2, 15), LH, "2026-10-02T12:00:00+10:30", &["2026-10-03T02:15:00+10:30", "2026-10-04T02:30:00+11:00", "2026-10-05T02:15:00+11:00"]);
    check(daily(2, 0), LH, "2026-10-03T12:00:00+10:30", &["2026-10-04T02:30:00+11:00"]);
    check(daily(2, 30), LH, "2026-10-03T12:00:00+10:30", &["2026-10-04T02:30:00+11:00", "2026-10-05T02:30:00+11:00"]);
    check(daily(1, 45), LH, "2026-04-03T12:00:00+11:00", &["2026-04-04T01:45:00+11:00", "2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"]);
    check(cron("*/15 * * * *"), LH, "2026-10-04T01:50:00+10:30", &["2026-10-04T02:30:00+11:00", "2026-10-04T02:45:00+11:00"]);
    check(cron("0,30 * * * *"), LH, "2026-04-05T00:59:00+11:00", &["2026-04-05T01:00:00+11:00", "2026-04-05T01:30:00+11:00", "2026-04-05T02:00:00+10:30", "2026-04-05T02:30:00+10:30"]);
    check(weekly(&[Weekday::Sunday], 2, 0), LH, "2026-10-01T00:00:00+10:30", &["2026-10-04T02:30:00+11:00", "2026-10-11T02:00:00+11:00"]);
    check(monthly(MonthDay::Day(5), 1, 45), LH, "2026-03-06T00:00:00+11:00", &["2026-04-05T01:45:00+11:00", "2026-05-05T01:45:00+10:30"]);
}

/// Asia/Kolkata: +05:30 all year, no DST; the US and EU transition dates are ordinary.
#[test]
#[rustfmt::skip]
fn kolkata() {
    const KOLKATA: &str = "Asia/Kolkata";
    check(daily(2, 30), KOLKATA, "2026-03-07T00:00:00+05:30", &["2026-03-07T02:30:00+05:30", "2026-03-08T02:30:00+05:30", "2026-03-09T02:30:00+05:30"]);
    // 2026-03-06 is a Friday.
    check(cron("*/30 9-18 * * 1-5"), KOLKATA, "2026-03-06T18:10:00+05:30", &["2026-03-06T18:30:00+05:30", "2026-03-09T09:00:00+05:30", "2026-03-09T09:30:00+05:30"]);
    check(monthly(MonthDay::Last, 9, 0), KOLKATA, "2026-01-31T10:00:00+05:30", &["2026-02-28T09:00:00+05:30", "2026-03-31T09:00:00+05:30", "2026-04-30T09:00:00+05:30"]);
}

/// Pacific/Apia 2011: Thu Dec 29 at 24:00 (-10) was followed by Sat Dec 31 00:00 (+14):
/// Friday Dec 30 does not exist, so nothing fires on it.
#[test]
#[rustfmt::skip]
fn apia_skipped_day() {
    const APIA: &str = "Pacific/Apia";
    check(daily(9, 0), APIA, "2011-12-28T12:00:00-10:00", &["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"]);
    check(daily(0, 0), APIA, "2011-12-28T12:00:00-10:00", &["2011-12-29T00:00:00-10:00", "2011-12-31T00:00:00+14:00"]);
    check(daily(23, 59), APIA, "2011-12-29T12:00:00-10:00", &["2011-12-29T23:59:00-10:00", "2011-12-31T23:59:00+14:00"]);
    check(cron("0 12 * * *"), APIA, "2011-12-28T12:00:00-10:00", &["2011-12-29T12:00:00-10:00", "2011-12-31T12:00:00+14:00"]);
    check(cron("0 */6 * * *"), APIA, "2011-12-29T17:00:00-10:00", &["2011-12-29T18:00:00-10:00", "2011-12-31T00:00:00+14:00", "2011-12-31T06:00:00+14:00"]);
    check(weekly(&[Weekday::Friday], 9, 0), APIA, "2011-12-20T00:00:00-10:00", &["2011-12-23T09:00:00-10:00", "2012-01-06T09:00:00+14:00"]);
    check(monthly(MonthDay::Day(30), 9, 0), APIA, "2011-11-01T00:00:00-10:00", &["2011-11-30T09:00:00-10:00", "2012-01-30T09:00:00+14:00"]);
}

/// America/Santiago 2026, transitions at midnight: on Sun Sep 6 the day starts at
/// 01:00 (-04 → -03); on Sat Apr 4, 23:00–24:00 repeats (-03 → -04).
#[test]
#[rustfmt::skip]
fn santiago_midnight() {
    const SCL: &str = "America/Santiago";
    check(daily(0, 0), SCL, "2026-09-05T12:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00"]);
    check(daily(0, 30), SCL, "2026-09-05T12:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-09-07T00:30:00-03:00"]);
    check(daily(1, 0), SCL, "2026-09-05T12:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-09-07T01:00:00-03:00"]);
    check(daily(23, 30), SCL, "2026-04-03T12:00:00-03:00", &["2026-04-03T23:30:00-03:00", "2026-04-04T23:30:00-03:00", "2026-04-05T23:30:00-04:00"]);
    check(daily(0, 0), SCL, "2026-04-03T12:00:00-03:00", &["2026-04-04T00:00:00-03:00", "2026-04-05T00:00:00-04:00", "2026-04-06T00:00:00-04:00"]);
    check(cron("0 0 * * 0"), SCL, "2026-09-01T00:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-09-13T00:00:00-03:00"]);
    check(cron("*/30 23 * * *"), SCL, "2026-04-04T12:00:00-03:00", &["2026-04-04T23:00:00-03:00", "2026-04-04T23:30:00-03:00", "2026-04-05T23:00:00-04:00"]);
    check(cron("*/20 0 * * *"), SCL, "2026-09-05T12:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00"]);
    check(monthly(MonthDay::Day(6), 0, 15), SCL, "2026-08-07T00:00:00-04:00", &["2026-09-06T01:00:00-03:00", "2026-10-06T00:15:00-03:00"]);
    check(weekly(&[Weekday::Saturday], 23, 0), SCL, "2026-04-01T00:00:00-03:00", &["2026-04-04T23:00:00-03:00", "2026-04-11T23:00:00-04:00"]);
}

/// One-off triggers resolve by the same rules.
#[test]
fn once() {
    let once = |s: &str| Trigger::Once { at: s.parse().expect("valid local date-time") };
    check(once("2026-03-08T02:30"), "America/New_York", "2026-01-01T00:00:00Z", &["2026-03-08T03:00:00-04:00"]);
    check(once("2026-11-01T01:30"), "America/New_York", "2026-01-01T00:00:00Z", &["2026-11-01T01:30:00-04:00"]);
    check(once("2026-09-06T00:00"), "America/Santiago", "2026-01-01T00:00:00Z", &["2026-09-06T01:00:00-03:00"]);
    check(once("2026-10-04T02:10"), "Australia/Lord_Howe", "2026-01-01T00:00:00Z", &["2026-10-04T02:30:00+11:00"]);
    // Only one firing: asked from its own instant, or from the fold's second pass.
    let plan = Plan::new(once("2026-11-01T01:30"), "America/New_York").expect("valid plan");
    for after in ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"] {
        let after: Timestamp = after.parse().expect("valid instant");
        assert_eq!(plan.next_after(after), None, "after {after}");
    }
}

/// The zone is always the stored one: the same trigger in two zones differs.
#[test]
fn zone_is_the_schedules_own() {
    check(daily(9, 0), "Asia/Tokyo", "2026-05-31T12:00:00Z", &["2026-06-01T09:00:00+09:00"]);
    check(daily(9, 0), "Europe/London", "2026-05-31T12:00:00Z", &["2026-06-01T09:00:00+01:00"]);
}
