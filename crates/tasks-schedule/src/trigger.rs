//! Triggers as stored with a schedule, and the parsers that build them from CLI text.
//!
//! A [`Trigger`] says *when, in local wall-clock terms*; the zone is stored beside it
//! and joined in [`crate::Plan`]. The JSON form (one DB column) is tagged by `type`:
//!
//! ```json
//! {"type":"once","at":"2026-12-01T09:00"}
//! {"type":"daily","time":"09:00"}
//! {"type":"weekly","weekdays":["mon","fri"],"time":"09:00"}
//! {"type":"monthly","day":"last","time":"09:00"}
//! {"type":"monthly","day":15,"time":"09:00"}
//! {"type":"cron","expression":"*/30 9-18 * * 1-5"}
//! ```
//!
//! Workdays is [`Trigger::workdays`], a weekly Mon–Fri trigger, not a stored type (SPEC
//! §6). This module does not check the rules that need a zone or the cron grammar
//! beyond storing the text; [`crate::Plan::new`] validates everything.

use std::fmt;

use jiff::civil::{DateTime, Time, Weekday};
use serde::{Deserialize, Serialize};

use crate::error::ScheduleError;

/// Describes when a schedule fires, in the local wall-clock time of its zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Trigger {
    /// Fires once at a local date-time.
    Once {
        /// The local date-time, whole minutes.
        #[serde(with = "stored::datetime")]
        at: DateTime,
    },
    /// Fires every day at a local time.
    Daily {
        /// The local time of day, whole minutes.
        #[serde(with = "stored::time")]
        time: Time,
    },
    /// Fires on the given weekdays at a local time.
    Weekly {
        /// The weekdays; at least one. Stored as `mon`…`sun`.
        #[serde(with = "stored::weekdays")]
        weekdays: Vec<Weekday>,
        /// The local time of day, whole minutes.
        #[serde(with = "stored::time")]
        time: Time,
    },
    /// Fires on one day of every month at a local time.
    Monthly {
        /// The day: 1–31 (months without it are skipped) or the last day.
        day: MonthDay,
        /// The local time of day, whole minutes.
        #[serde(with = "stored::time")]
        time: Time,
    },
    /// Fires by a restricted five-field cron pattern (see [`crate::parse_cron`]).
    Cron {
        /// The pattern text; parsed and validated by [`crate::Plan::new`].
        expression: String,
    },
}

impl Trigger {
    /// Returns a weekly trigger for Monday to Friday: the "workdays" preset.
    pub fn workdays(time: Time) -> Trigger {
        Trigger::Weekly {
            weekdays: vec![Weekday::Monday, Weekday::Tuesday, Weekday::Wednesday, Weekday::Thursday, Weekday::Friday],
            time,
        }
    }

    /// Returns the stored type name (`once`, `daily`, `weekly`, `monthly`, `cron`).
    pub fn kind(&self) -> &'static str {
        match self {
            Trigger::Once { .. } => "once",
            Trigger::Daily { .. } => "daily",
            Trigger::Weekly { .. } => "weekly",
            Trigger::Monthly { .. } => "monthly",
            Trigger::Cron { .. } => "cron",
        }
    }
}

/// Names the day of the month a monthly trigger fires on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MonthDay {
    /// A fixed day, 1–31; months without that day are skipped (no firing on the 30th
    /// of February, and none moved to the 28th).
    Day(u8),
    /// The last day of each month (28, 29, 30 or 31).
    Last,
}

impl fmt::Display for MonthDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MonthDay::Day(d) => write!(f, "{d}"),
            MonthDay::Last => f.write_str("last"),
        }
    }
}

impl Serialize for MonthDay {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MonthDay::Day(d) => s.serialize_u8(*d),
            MonthDay::Last => s.serialize_str("last"),
        }
    }
}

impl<'de> Deserialize<'de> for MonthDay {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = MonthDay;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a day of the month 1-31 or \"last\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<MonthDay, E> {
                parse_month_day(&v.to_string()).map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<MonthDay, E> {
                parse_month_day(&v.to_string()).map_err(E::custom)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<MonthDay, E> {
                parse_month_day(v).map_err(E::custom)
            }
        }
        d.deserialize_any(Visit)
    }
}

/// Parses a local time of day written `HH:MM` (or `H:MM`, or `HH:MM:00`).
///
/// Schedules fire on whole minutes, so non-zero seconds are refused rather than
/// silently dropped; `24:00` is refused (write `00:00` on the next day).
pub fn parse_time(input: &str) -> Result<Time, ScheduleError> {
    let refuse = |reason: &str| ScheduleError::Time { input: input.to_string(), reason: reason.to_string() };
    let text = input.trim();
    let mut parts = text.split(':');
    let (Some(h), Some(m)) = (parts.next(), parts.next()) else {
        return Err(refuse("write HH:MM, e.g. 09:00"));
    };
    let seconds = parts.next();
    if parts.next().is_some() {
        return Err(refuse("write HH:MM, e.g. 09:00"));
    }
    let number = |s: &str, width: std::ops::RangeInclusive<usize>| -> Option<i8> {
        if !width.contains(&s.len()) || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (Some(hour), Some(minute)) = (number(h, 1..=2), number(m, 2..=2)) else {
        return Err(refuse("write HH:MM, e.g. 09:00"));
    };
    if let Some(s) = seconds {
        match number(s, 2..=2) {
            Some(0) => {}
            Some(_) => {
                return Err(refuse("seconds are not supported; schedules fire on whole minutes"));
            }
            None => return Err(refuse("write HH:MM, e.g. 09:00")),
        }
    }
    if hour > 23 {
        return Err(refuse("hour must be 0-23"));
    }
    if minute > 59 {
        return Err(refuse("minute must be 0-59"));
    }
    Ok(Time::constant(hour, minute, 0, 0))
}

/// Parses a weekday list such as `mon,fri`, `mon-fri`, `1,5` or `пн,пт`.
///
/// Accepts English names and abbreviations (`mon`, `tue`/`tues`, `monday`), Russian
/// (`пн`…`вс`, `понедельник`…`воскресенье`), and cron numbers 0–7 (0 and 7 Sunday, 1
/// Monday), any case, separated by commas or spaces; `a-b` walks forward from `a` to
/// `b`, wrapping past Sunday (`fri-mon` is Fri, Sat, Sun, Mon). Returns the days sorted
/// Monday first, without duplicates.
pub fn parse_weekdays(input: &str) -> Result<Vec<Weekday>, ScheduleError> {
    let refuse = |reason: String| ScheduleError::Weekdays { input: input.to_string(), reason };
    let mut mask = 0u8;
    let items: Vec<&str> = input.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()).collect();
    if items.is_empty() {
        return Err(refuse("no weekdays given; write e.g. mon,fri or 1-5".into()));
    }
    for item in items {
        let (from, to) = match item.split_once('-') {
            Some((a, b)) => (a, b),
            None => (item, item),
        };
        let day = |s: &str| {
            weekday_from_word(s).ok_or_else(|| refuse(format!("\"{s}\" is not a weekday; use mon..sun, пн..вс or 0-7")))
        };
        let (from, to) = (day(from)?, day(to)?);
        let mut d = from;
        loop {
            mask |= 1 << d.to_monday_zero_offset();
            if d == to {
                break;
            }
            d = d.next();
        }
    }
    Ok(weekdays_from_mask(mask))
}

/// Returns the weekdays in a Monday-zero bit mask, Monday first.
pub(crate) fn weekdays_from_mask(mask: u8) -> Vec<Weekday> {
    let mut out = Vec::new();
    let mut d = Weekday::Monday;
    for i in 0..7 {
        if mask & (1 << i) != 0 {
            out.push(d);
        }
        d = d.next();
    }
    out
}

/// Reads one weekday word or cron number; `None` if it is neither.
fn weekday_from_word(word: &str) -> Option<Weekday> {
    use Weekday::*;
    let lower = word.trim().to_lowercase();
    let day = match lower.as_str() {
        "1" | "mon" | "monday" | "пн" | "пон" | "понедельник" => Monday,
        "2" | "tue" | "tues" | "tuesday" | "вт" | "вто" | "вторник" => Tuesday,
        "3" | "wed" | "wednesday" | "ср" | "сре" | "среда" => Wednesday,
        "4" | "thu" | "thur" | "thurs" | "thursday" | "чт" | "чет" | "четверг" => Thursday,
        "5" | "fri" | "friday" | "пт" | "пят" | "пятница" => Friday,
        "6" | "sat" | "saturday" | "сб" | "суб" | "суббота" => Saturday,
        "0" | "7" | "sun" | "sunday" | "вс" | "вос" | "воскресенье" => Sunday,
        _ => return None,
    };
    Some(day)
}

/// Returns the short English name (`mon`) used in the stored form.
pub fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Monday => "mon",
        Weekday::Tuesday => "tue",
        Weekday::Wednesday => "wed",
        Weekday::Thursday => "thu",
        Weekday::Friday => "fri",
        Weekday::Saturday => "sat",
        Weekday::Sunday => "sun",
    }
}

/// Parses the day of a monthly trigger: `1`–`31` or `last` (also `последний`).
pub fn parse_month_day(input: &str) -> Result<MonthDay, ScheduleError> {
    let refuse = |reason: &str| ScheduleError::MonthDay { input: input.to_string(), reason: reason.to_string() };
    let text = input.trim().to_lowercase();
    if text == "last" || text == "последний" || text == "последнее" {
        return Ok(MonthDay::Last);
    }
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refuse("write a day 1-31 or last"));
    }
    match text.parse::<u8>() {
        Ok(day @ 1..=31) => Ok(MonthDay::Day(day)),
        _ => Err(refuse("day must be 1-31 (or last)")),
    }
}

/// Parses the local date-time of a one-off trigger: `2026-12-01T09:00` (a space
/// instead of `T` works too).
///
/// Refuses an offset or zone suffix (`Z`, `+01:00`, `[Europe/Berlin]`): the time is
/// local to the schedule's zone, which is given separately, and a second zone in the
/// text would be silently ignored. Refuses a date without a time and non-zero seconds.
pub fn parse_once(input: &str) -> Result<DateTime, ScheduleError> {
    let refuse = |reason: String| ScheduleError::DateTime { input: input.to_string(), reason };
    let text = input.trim();
    let Some(time_part) =
        text.get(10..).filter(|rest| rest.starts_with('T') || rest.starts_with('t') || rest.starts_with(' '))
    else {
        return Err(refuse("write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00".into()));
    };
    if time_part.contains(['Z', 'z', '+', '[']) || time_part[1..].contains('-') {
        return Err(refuse(
            "give a local date-time without offset or zone; the schedule's zone is set \
             separately"
                .into(),
        ));
    }
    let at: DateTime = text
        .parse()
        .map_err(|e: jiff::Error| refuse(format!("write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00 ({e})")))?;
    if at.second() != 0 || at.subsec_nanosecond() != 0 {
        return Err(refuse("seconds are not supported; schedules fire on whole minutes".into()));
    }
    Ok(at)
}

/// Renders a whole-minute time as `HH:MM` (seconds, if any, as jiff prints them).
pub fn format_time(time: Time) -> String {
    if time.second() == 0 && time.subsec_nanosecond() == 0 {
        format!("{:02}:{:02}", time.hour(), time.minute())
    } else {
        time.to_string()
    }
}

/// Renders a whole-minute local date-time as `YYYY-MM-DDTHH:MM`.
pub fn format_datetime(at: DateTime) -> String {
    format!("{}T{}", at.date(), format_time(at.time()))
}

/// The stored (JSON) forms of jiff values, which carry no serde support here.
mod stored {
    /// Times as `"09:00"`.
    pub(super) mod time {
        use jiff::civil::Time;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(t: &Time, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&super::super::format_time(*t))
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
            let text = String::deserialize(d)?;
            super::super::parse_time(&text).map_err(serde::de::Error::custom)
        }
    }

    /// Local date-times as `"2026-12-01T09:00"`.
    pub(super) mod datetime {
        use jiff::civil::DateTime;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(t: &DateTime, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&super::super::format_datetime(*t))
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime, D::Error> {
            let text = String::deserialize(d)?;
            super::super::parse_once(&text).map_err(serde::de::Error::custom)
        }
    }

    /// Weekday lists as `["mon","fri"]`.
    pub(super) mod weekdays {
        use jiff::civil::Weekday;
        use serde::ser::SerializeSeq;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(days: &[Weekday], s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(days.len()))?;
            for day in days {
                seq.serialize_element(super::super::weekday_name(*day))?;
            }
            seq.end()
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Weekday>, D::Error> {
            let names = Vec::<String>::deserialize(d)?;
            names
                .iter()
                .map(|name| {
                    super::super::weekday_from_word(name)
                        .ok_or_else(|| serde::de::Error::custom(format!("\"{name}\" is not a weekday; use mon..sun")))
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a parser: the value rendered with `Debug`/`Display`, or the error text.
    #[track_caller]
    fn check<T>(got: Result<T, ScheduleError>, render: impl Fn(T) -> String, expected: &str) {
        let got = match got {
            Ok(v) => render(v),
            Err(e) => e.to_string(),
        };
        assert_eq!(got, expected);
    }

    #[track_caller]
    fn time(input: &str, expected: &str) {
        check(parse_time(input), format_time, expected);
    }

    #[track_caller]
    fn days(input: &str, expected: &str) {
        check(parse_weekdays(input), |v| v.into_iter().map(weekday_name).collect::<Vec<_>>().join(","), expected);
    }

    #[track_caller]
    fn month_day(input: &str, expected: &str) {
        check(parse_month_day(input), |d| d.to_string(), expected);
    }

    #[track_caller]
    fn once(input: &str, expected: &str) {
        check(parse_once(input), format_datetime, expected);
    }

    #[test]
    #[rustfmt::skip]
    fn times() {
        time("09:00", "09:00");
        time("9:05", "09:05");
        time(" 23:59 ", "23:59");
        time("00:00", "00:00");
        time("09:00:00", "09:00");
        time("09:00:30", "cannot read \"09:00:30\" as a time: seconds are not supported; schedules fire on whole minutes");
        time("24:00", "cannot read \"24:00\" as a time: hour must be 0-23");
        time("12:60", "cannot read \"12:60\" as a time: minute must be 0-59");
        time("9", "cannot read \"9\" as a time: write HH:MM, e.g. 09:00");
        time("9:5", "cannot read \"9:5\" as a time: write HH:MM, e.g. 09:00");
        time("9am", "cannot read \"9am\" as a time: write HH:MM, e.g. 09:00");
        time("", "cannot read \"\" as a time: write HH:MM, e.g. 09:00");
        time("-1:00", "cannot read \"-1:00\" as a time: write HH:MM, e.g. 09:00");
        time("1:2:3:4", "cannot read \"1:2:3:4\" as a time: write HH:MM, e.g. 09:00");
    }

    #[test]
    #[rustfmt::skip]
    fn weekdays() {
        days("mon,fri", "mon,fri");
        days("fri,mon,mon", "mon,fri");
        days("Mon, Tue", "mon,tue");
        days("monday friday", "mon,fri");
        days("mon-fri", "mon,tue,wed,thu,fri");
        days("fri-mon", "mon,fri,sat,sun");
        days("1-5", "mon,tue,wed,thu,fri");
        days("0", "sun");
        days("7", "sun");
        days("0-6", "mon,tue,wed,thu,fri,sat,sun");
        days("пн,ср,пт", "mon,wed,fri");
        days("ПН-ПТ", "mon,tue,wed,thu,fri");
        days("суббота,воскресенье", "sat,sun");
        days("thurs,tues", "tue,thu");
        days("", "cannot read \"\" as weekdays: no weekdays given; write e.g. mon,fri or 1-5");
        days("mon,funday", "cannot read \"mon,funday\" as weekdays: \"funday\" is not a weekday; use mon..sun, пн..вс or 0-7");
        days("8", "cannot read \"8\" as weekdays: \"8\" is not a weekday; use mon..sun, пн..вс or 0-7");
        days("mon-", "cannot read \"mon-\" as weekdays: \"\" is not a weekday; use mon..sun, пн..вс or 0-7");
    }

    #[test]
    #[rustfmt::skip]
    fn month_days() {
        month_day("1", "1");
        month_day("31", "31");
        month_day(" 15 ", "15");
        month_day("last", "last");
        month_day("LAST", "last");
        month_day("последний", "last");
        month_day("0", "cannot read \"0\" as a day of the month: day must be 1-31 (or last)");
        month_day("32", "cannot read \"32\" as a day of the month: day must be 1-31 (or last)");
        month_day("-1", "cannot read \"-1\" as a day of the month: write a day 1-31 or last");
        month_day("first", "cannot read \"first\" as a day of the month: write a day 1-31 or last");
        month_day("", "cannot read \"\" as a day of the month: write a day 1-31 or last");
    }

    #[test]
    #[rustfmt::skip]
    fn once_times() {
        once("2026-12-01T09:00", "2026-12-01T09:00");
        once("2026-12-01 09:00", "2026-12-01T09:00");
        once("2026-12-01t09:00:00", "2026-12-01T09:00");
        once("2026-12-01T09:00:30", "cannot read \"2026-12-01T09:00:30\" as a local date-time: seconds are not supported; schedules fire on whole minutes");
        once("2026-12-01", "cannot read \"2026-12-01\" as a local date-time: write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00");
        once("2026-12-01T09:00Z", "cannot read \"2026-12-01T09:00Z\" as a local date-time: give a local date-time without offset or zone; the schedule's zone is set separately");
        once("2026-12-01T09:00+01:00", "cannot read \"2026-12-01T09:00+01:00\" as a local date-time: give a local date-time without offset or zone; the schedule's zone is set separately");
        once("2026-12-01T09:00-05:00", "cannot read \"2026-12-01T09:00-05:00\" as a local date-time: give a local date-time without offset or zone; the schedule's zone is set separately");
        once("2026-12-01T09:00[Europe/Berlin]", "cannot read \"2026-12-01T09:00[Europe/Berlin]\" as a local date-time: give a local date-time without offset or zone; the schedule's zone is set separately");
        once("tomorrow 9:00", "cannot read \"tomorrow 9:00\" as a local date-time: write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00");
        once("Ünïcödé 9:00", "cannot read \"Ünïcödé 9:00\" as a local date-time: write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00");
    }

    #[test]
    fn once_invalid_calendar_date_names_jiff_reason() {
        let err = parse_once("2026-02-30T09:00").expect_err("Feb 30 does not exist");
        assert!(
            err.to_string().starts_with(
                "cannot read \"2026-02-30T09:00\" as a local date-time: write YYYY-MM-DDTHH:MM, e.g. 2026-12-01T09:00 ("
            ),
            "{err}"
        );
    }

    /// Checks one trigger's JSON form both ways.
    #[track_caller]
    fn json(trigger: Trigger, expected: &str) {
        let text = serde_json::to_string(&trigger).expect("serializable");
        assert_eq!(text, expected);
        let back: Trigger = serde_json::from_str(&text).expect("round-trips");
        assert_eq!(back, trigger);
    }

    #[test]
    fn stored_form() {
        let nine = Time::constant(9, 0, 0, 0);
        json(
            Trigger::Once { at: jiff::civil::date(2026, 12, 1).at(9, 0, 0, 0) },
            r#"{"type":"once","at":"2026-12-01T09:00"}"#,
        );
        json(Trigger::Daily { time: nine }, r#"{"type":"daily","time":"09:00"}"#);
        json(Trigger::workdays(nine), r#"{"type":"weekly","weekdays":["mon","tue","wed","thu","fri"],"time":"09:00"}"#);
        json(Trigger::Monthly { day: MonthDay::Last, time: nine }, r#"{"type":"monthly","day":"last","time":"09:00"}"#);
        json(Trigger::Monthly { day: MonthDay::Day(31), time: nine }, r#"{"type":"monthly","day":31,"time":"09:00"}"#);
        json(
            Trigger::Cron { expression: "*/30 9-18 * * 1-5".into() },
            r#"{"type":"cron","expression":"*/30 9-18 * * 1-5"}"#,
        );
    }

    #[test]
    fn stored_form_refusals() {
        let read = |s: &str| serde_json::from_str::<Trigger>(s).map_err(|e| e.to_string());
        assert_eq!(
            read(r#"{"type":"daily","time":"9am"}"#),
            Err("cannot read \"9am\" as a time: write HH:MM, e.g. 09:00".into())
        );
        assert!(read(r#"{"type":"monthly","day":0,"time":"09:00"}"#).is_err());
        assert!(read(r#"{"type":"weekly","weekdays":["mon","xx"],"time":"09:00"}"#).is_err());
        assert!(read(r#"{"type":"hourly"}"#).is_err());
        assert_eq!(
            read(r#"{"type":"monthly","day":"15","time":"09:00"}"#),
            Ok(Trigger::Monthly { day: MonthDay::Day(15), time: Time::constant(9, 0, 0, 0) })
        );
    }
}
