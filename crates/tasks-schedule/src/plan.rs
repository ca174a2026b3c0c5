//! A validated trigger in its zone, and the search for its firings.
//!
//! [`Plan::new`] resolves the zone once and validates the trigger; [`Plan::next_after`]
//! walks candidate local dates day by day (skipping whole months where the trigger
//! allows), tries the trigger's minutes of each matching day in order, and places each
//! on the timeline with `resolve.rs`. Because a fold fires on its first pass and a gap
//! resolves to the gap's end, the instants of ascending local candidates never go
//! backwards; the first one strictly after `after` is the answer, and candidates that
//! collapse onto the same instant (several minutes inside one gap) fire once.
//!
//! This module reads no clock and no environment: `after` and `from` are arguments.

use jiff::civil::{Date, DateTime, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, ToSpan, ZonedDateTime};

use crate::cron::{CronDays, parse_cron};
use crate::error::ScheduleError;
use crate::limits::SEARCH_HORIZON_DAYS;
use crate::resolve::firing_instant;
use crate::trigger::{MonthDay, Trigger, format_datetime, format_time, weekdays_from_mask};
use crate::zone::time_zone;

/// Holds one planned firing: the instant and the same moment in the schedule's zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Firing {
    /// The instant (store it; print it as UTC).
    pub at: Timestamp,
    /// The instant in the schedule's zone (print it as local time with the zone).
    pub local: ZonedDateTime,
}

/// Holds a trigger validated against its zone, ready to compute firings.
///
/// Cheap to query and cheap to clone (the zone is reference counted).
#[derive(Debug, Clone)]
pub struct Plan {
    trigger: Trigger,
    zone: TimeZone,
    rule: Rule,
}

/// Holds the trigger in the form the search uses.
#[derive(Debug, Clone)]
enum Rule {
    /// A one-off firing, already resolved to its instant.
    Once(Timestamp),
    /// Recurring: on matching dates, at these minutes of the day (ascending).
    Days { days: DayRule, minutes: Vec<u16> },
}

/// Describes which local dates a recurring trigger fires on.
#[derive(Debug, Clone, Copy)]
enum DayRule {
    Every,
    /// Monday-zero bit mask.
    Weekdays(u8),
    /// A fixed day of the month; months without it are skipped.
    MonthDay(i8),
    LastOfMonth,
    Cron(CronDays),
}

impl DayRule {
    fn matches(self, date: Date) -> bool {
        match self {
            DayRule::Every => true,
            DayRule::Weekdays(mask) => mask & (1 << date.weekday().to_monday_zero_offset()) != 0,
            DayRule::MonthDay(day) => date.day() == day,
            DayRule::LastOfMonth => date.day() == date.days_in_month(),
            DayRule::Cron(days) => days.matches(date),
        }
    }

    /// Returns the next date worth checking after `date`, jumping over dates that
    /// cannot match so that sparse triggers stay cheap.
    fn next_candidate(self, date: Date) -> Option<Date> {
        let next_month = || date.last_of_month().tomorrow().ok();
        match self {
            DayRule::MonthDay(day) if date.day() < day && day <= date.days_in_month() => {
                date.with().day(day).build().ok()
            }
            DayRule::MonthDay(_) => next_month(),
            DayRule::LastOfMonth if date.day() < date.days_in_month() => Some(date.last_of_month()),
            DayRule::LastOfMonth => next_month()?.last_of_month().into(),
            DayRule::Cron(days) if !days.month_matches(date) => next_month(),
            _ => date.tomorrow().ok(),
        }
    }
}

impl Plan {
    /// Returns a plan for `trigger` in the IANA zone `zone`, or why it was refused.
    ///
    /// Resolves the zone once from the bundled tz database (never the machine's zone)
    /// and validates: times are whole minutes; a weekly trigger has at least one
    /// weekday (duplicates are dropped and the list is sorted Monday first); a monthly
    /// day is 1–31; a cron pattern obeys [`crate::parse_cron`]; a one-off time is a
    /// whole minute on a local day that exists in the zone.
    pub fn new(trigger: Trigger, zone: &str) -> Result<Plan, ScheduleError> {
        let zone = time_zone(zone)?;
        let whole_minutes = |time: Time, kind: &'static str| {
            if time.second() == 0 && time.subsec_nanosecond() == 0 {
                Ok(minute_of_day(time))
            } else {
                Err(ScheduleError::InvalidTrigger {
                    trigger: kind,
                    reason: format!("time {} has seconds; schedules fire on whole minutes", format_time(time)),
                })
            }
        };
        let (trigger, rule) = match trigger {
            Trigger::Once { at } => {
                whole_minutes(at.time(), "once")?;
                let Some(instant) = firing_instant(&zone, at) else {
                    return Err(ScheduleError::NeverOccurs {
                        at: format_datetime(at),
                        zone: zone_name(&zone).to_string(),
                    });
                };
                (Trigger::Once { at }, Rule::Once(instant))
            }
            Trigger::Daily { time } => {
                let minute = whole_minutes(time, "daily")?;
                (Trigger::Daily { time }, Rule::Days { days: DayRule::Every, minutes: vec![minute] })
            }
            Trigger::Weekly { weekdays, time } => {
                let minute = whole_minutes(time, "weekly")?;
                let mask = weekdays.iter().fold(0u8, |m, d: &Weekday| m | 1 << d.to_monday_zero_offset());
                if mask == 0 {
                    return Err(ScheduleError::InvalidTrigger {
                        trigger: "weekly",
                        reason: "needs at least one weekday".into(),
                    });
                }
                let weekdays = weekdays_from_mask(mask);
                (
                    Trigger::Weekly { weekdays, time },
                    Rule::Days { days: DayRule::Weekdays(mask), minutes: vec![minute] },
                )
            }
            Trigger::Monthly { day, time } => {
                let minute = whole_minutes(time, "monthly")?;
                let days = match day {
                    MonthDay::Day(d @ 1..=31) => DayRule::MonthDay(d as i8),
                    MonthDay::Day(d) => {
                        return Err(ScheduleError::InvalidTrigger {
                            trigger: "monthly",
                            reason: format!("day {d} is out of range 1-31"),
                        });
                    }
                    MonthDay::Last => DayRule::LastOfMonth,
                };
                (Trigger::Monthly { day, time }, Rule::Days { days, minutes: vec![minute] })
            }
            Trigger::Cron { expression } => {
                let pattern = parse_cron(&expression)?;
                let rule = Rule::Days { days: DayRule::Cron(pattern.days()), minutes: pattern.minutes_of_day() };
                let expression = pattern.as_str().to_string();
                (Trigger::Cron { expression }, rule)
            }
        };
        Ok(Plan { trigger, zone, rule })
    }

    /// Returns the trigger, normalized: weekdays sorted Monday first without
    /// duplicates, cron fields separated by single spaces.
    pub fn trigger(&self) -> &Trigger {
        &self.trigger
    }

    /// Returns the schedule's zone.
    pub fn zone(&self) -> &TimeZone {
        &self.zone
    }

    /// Returns the zone's canonical IANA name (`America/New_York` for
    /// `america/new_york`): the spelling to store.
    pub fn zone_name(&self) -> &str {
        zone_name(&self.zone)
    }

    /// Returns the first firing strictly after `after`, or `None` if there is none
    /// (a one-off already past, or nothing within [`SEARCH_HORIZON_DAYS`]).
    ///
    /// Firings strictly increase and `next_after(f[i]) == f[i + 1]`, so a store can
    /// persist only the next firing and recompute from it. No local minute fires twice.
    pub fn next_after(&self, after: Timestamp) -> Option<Timestamp> {
        match &self.rule {
            Rule::Once(at) => (*at > after).then_some(*at),
            Rule::Days { days, minutes } => self.next_on_days(*days, minutes, after),
        }
    }

    /// Returns the first `count` firings strictly after `from`, each with its local
    /// time, for `tasks schedule preview` (default count
    /// [`crate::limits::PREVIEW_COUNT`]).
    pub fn preview(&self, from: Timestamp, count: usize) -> Vec<Firing> {
        self.firings_after(from)
            .take(count)
            .map(|at| Firing { at, local: at.to_zoned_datetime(self.zone.clone()) })
            .collect()
    }

    /// Returns an iterator over the firings strictly after `after`, in order.
    pub fn firings_after(&self, after: Timestamp) -> impl Iterator<Item = Timestamp> + '_ {
        let mut cursor = after;
        std::iter::from_fn(move || {
            let next = self.next_after(cursor)?;
            cursor = next;
            Some(next)
        })
    }

    /// Returns the first firing at or after `at`.
    pub(crate) fn first_at_or_after(&self, at: Timestamp) -> Option<Timestamp> {
        let just_before = at.checked_sub(SignedDuration::from_nanos(1)).unwrap_or(Timestamp::MIN);
        self.next_after(just_before)
    }

    /// Walks local dates from the one containing `after`, trying each matching day's
    /// minutes in order.
    ///
    /// Starting at `after`'s local date is enough: a candidate earlier in local time
    /// resolves to an instant no later than `after` (a fold fires on its first pass,
    /// a gap at its end), and a gap never carries a candidate into a later date.
    fn next_on_days(&self, days: DayRule, minutes: &[u16], after: Timestamp) -> Option<Timestamp> {
        let local = self.zone.to_datetime(after);
        let mut date = local.date();
        let horizon = date.saturating_add(i64::from(SEARCH_HORIZON_DAYS).days());
        let mut from_minute = minute_of_day(local.time());
        while date <= horizon {
            if days.matches(date) {
                let start = minutes.partition_point(|&m| m < from_minute);
                for &m in &minutes[start..] {
                    let candidate = at_minute(date, m);
                    if let Some(at) = firing_instant(&self.zone, candidate)
                        && at > after
                    {
                        return Some(at);
                    }
                }
            }
            from_minute = 0;
            date = days.next_candidate(date)?;
        }
        None
    }
}

/// Returns the zone's IANA name; [`time_zone`] only hands out named zones.
fn zone_name(zone: &TimeZone) -> &str {
    zone.iana_name().unwrap_or("UTC")
}

/// Returns `hour * 60 + minute` of a time (seconds dropped).
fn minute_of_day(time: Time) -> u16 {
    (time.hour() as u16) * 60 + time.minute() as u16
}

/// Returns the local date-time of a minute of the day.
fn at_minute(date: Date, minute: u16) -> DateTime {
    // `minute` < 1440 by construction (from a Time or a cron bit set), so both parts
    // are in range and `at` cannot panic.
    date.at((minute / 60) as i8, (minute % 60) as i8, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a plan's next firings after an instant, as RFC 3339 UTC instants.
    #[track_caller]
    fn check(trigger: Trigger, zone: &str, after: &str, expected: &[&str]) {
        let plan = Plan::new(trigger, zone).expect("valid plan");
        let after: Timestamp = after.parse().expect("valid instant");
        let got: Vec<String> = plan.preview(after, expected.len()).into_iter().map(|f| f.at.to_string()).collect();
        assert_eq!(got, expected);
    }

    fn daily(h: i8, m: i8) -> Trigger {
        Trigger::Daily { time: Time::constant(h, m, 0, 0) }
    }

    #[test]
    fn next_firings() {
        check(daily(9, 0), "UTC", "2026-01-01T00:00:00Z", &["2026-01-01T09:00:00Z", "2026-01-02T09:00:00Z"]);
        check(daily(9, 0), "UTC", "2026-01-01T09:00:00Z", &["2026-01-02T09:00:00Z"]);
        check(daily(9, 0), "UTC", "2026-01-01T08:59:59.999Z", &["2026-01-01T09:00:00Z"]);
        check(
            Trigger::Monthly { day: MonthDay::Day(31), time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "2026-01-31T10:00:00Z",
            &["2026-03-31T09:00:00Z", "2026-05-31T09:00:00Z", "2026-07-31T09:00:00Z", "2026-08-31T09:00:00Z"],
        );
        check(
            Trigger::Monthly { day: MonthDay::Last, time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "2028-01-31T10:00:00Z",
            &["2028-02-29T09:00:00Z", "2028-03-31T09:00:00Z", "2028-04-30T09:00:00Z"],
        );
        check(
            Trigger::Monthly { day: MonthDay::Day(29), time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "2027-01-30T00:00:00Z",
            &["2027-03-29T09:00:00Z"],
        );
        check(
            Trigger::Cron { expression: "0 0 29 2 *".into() },
            "UTC",
            "2026-01-01T00:00:00Z",
            &["2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"],
        );
        // 2004-02-29 was a Sunday; the next Sunday Feb 29 is 2032, then 2060.
        check(
            Trigger::Cron { expression: "0 0 29 2 */7".into() },
            "UTC",
            "2004-03-01T00:00:00Z",
            &["2032-02-29T00:00:00Z", "2060-02-29T00:00:00Z"],
        );
        check(
            Trigger::Once { at: jiff::civil::date(2026, 12, 1).at(9, 0, 0, 0) },
            "Europe/Berlin",
            "2026-01-01T00:00:00Z",
            &["2026-12-01T08:00:00Z"],
        );
    }

    #[test]
    fn once_in_the_past_never_fires() {
        let plan =
            Plan::new(Trigger::Once { at: jiff::civil::date(2026, 12, 1).at(9, 0, 0, 0) }, "UTC").expect("valid plan");
        let at: Timestamp = "2026-12-01T09:00:00Z".parse().expect("valid");
        assert_eq!(plan.next_after(at), None);
    }

    /// Checks that a trigger is refused with exactly this message.
    #[track_caller]
    fn refused(trigger: Trigger, zone: &str, expected: &str) {
        let err = Plan::new(trigger, zone).expect_err("refused");
        assert_eq!(err.to_string(), expected);
    }

    #[test]
    fn refusals() {
        refused(daily(9, 0), "Mars/Olympus", "unknown time zone \"Mars/Olympus\"");
        refused(
            Trigger::Daily { time: Time::constant(9, 0, 30, 0) },
            "UTC",
            "daily trigger: time 09:00:30 has seconds; schedules fire on whole minutes",
        );
        refused(
            Trigger::Weekly { weekdays: vec![], time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "weekly trigger: needs at least one weekday",
        );
        refused(
            Trigger::Monthly { day: MonthDay::Day(32), time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "monthly trigger: day 32 is out of range 1-31",
        );
        refused(
            Trigger::Monthly { day: MonthDay::Day(0), time: Time::constant(9, 0, 0, 0) },
            "UTC",
            "monthly trigger: day 0 is out of range 1-31",
        );
        refused(
            Trigger::Cron { expression: "*/5 * * * *".into() },
            "UTC",
            "cron \"*/5 * * * *\": fires 5 minutes apart (00:00 → 00:05); the minimum is 15 minutes",
        );
        refused(
            Trigger::Once { at: jiff::civil::date(2011, 12, 30).at(9, 0, 0, 0) },
            "Pacific/Apia",
            "2011-12-30T09:00 never occurs in Pacific/Apia: that whole local day was skipped",
        );
    }

    #[test]
    fn normalizes_trigger_and_zone_name() {
        let plan = Plan::new(
            Trigger::Weekly {
                weekdays: vec![Weekday::Friday, Weekday::Monday, Weekday::Friday],
                time: Time::constant(9, 0, 0, 0),
            },
            "europe/berlin",
        )
        .expect("valid plan");
        assert_eq!(plan.zone_name(), "Europe/Berlin");
        let cron =
            Plan::new(Trigger::Cron { expression: "  */30   9-18 * *\t1-5 ".into() }, "UTC").expect("valid plan");
        assert_eq!(cron.trigger(), &Trigger::Cron { expression: "*/30 9-18 * * 1-5".into() });
        assert_eq!(
            plan.trigger(),
            &Trigger::Weekly { weekdays: vec![Weekday::Monday, Weekday::Friday], time: Time::constant(9, 0, 0, 0) }
        );
    }
}
