//! Time conventions of the store: instants are epoch milliseconds UTC; due dates are
//! floating calendar days stored as the epoch milliseconds of that day's 00:00 UTC.
//!
//! The core never reads the clock: every operation receives `now` (the CLI reads
//! `TASKS_NOW` or the system clock once, at the edge).

use jiff::civil::Date;
use jiff::{Timestamp, tz::TimeZone};

const MS_PER_DAY: i64 = 86_400_000;

/// Returns the epoch milliseconds of a timestamp.
pub fn to_ms(ts: Timestamp) -> i64 {
    ts.as_millisecond()
}

/// Returns the timestamp of epoch milliseconds (clamped into jiff's range).
pub fn from_ms(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 { Timestamp::MIN } else { Timestamp::MAX })
}

/// Formats epoch milliseconds as RFC 3339 in UTC (`2026-11-29T17:54:00Z`).
pub fn rfc3339(ms: i64) -> String {
    let ts = from_ms(ms);
    if ms % 1000 == 0 { ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string() } else { ts.to_string() }
}

/// Returns the epoch milliseconds of a floating date (00:00 UTC of that day).
pub fn floating_date_to_ms(date: Date) -> i64 {
    let days = date.since(Date::constant(1970, 1, 1)).map(|s| s.get_days() as i64).unwrap_or(0);
    // `since` in days: jiff returns the span in days by default for dates.
    days * MS_PER_DAY
}

/// Returns the floating date stored as epoch milliseconds, if in range.
pub fn floating_date_from_ms(ms: i64) -> Option<Date> {
    let days = ms.div_euclid(MS_PER_DAY);
    Date::constant(1970, 1, 1).checked_add(jiff::Span::new().try_days(days).ok()?).ok()
}

/// Returns the local calendar day of `now` in `zone`.
pub fn local_today(now: Timestamp, zone: &TimeZone) -> Date {
    now.to_zoned_datetime(zone.clone()).date()
}

/// Returns the epoch milliseconds of the first instant of `date` in `zone` (the
/// start of that local day; on a DST gap at midnight, the first existing instant).
pub fn local_midnight_ms(date: Date, zone: &TimeZone) -> i64 {
    zone.to_ambiguous_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
        .compatible()
        .map(|ts| ts.as_millisecond())
        .unwrap_or_else(|_| floating_date_to_ms(date))
}

/// Parses a length such as `90s`, `10m`, `1h30m` or `2d` for the named flag.
pub fn parse_duration(field: &'static str, text: &str) -> crate::Result<std::time::Duration> {
    let bad = |reason: &str| crate::Error::invalid(field, text, reason);
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(bad("expected a length like 90s, 10m or 1h30m"));
    }
    let mut total: u64 = 0;
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit: u64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad("expected a length like 90s, 10m or 1h30m (units s, m, h, d)")),
        };
        let n: u64 = number.parse().map_err(|_| bad("a unit needs a number before it, as in 10m"))?;
        total = total.saturating_add(n.saturating_mul(unit));
        number.clear();
    }
    if !number.is_empty() {
        return Err(bad("a number needs a unit: s, m, h or d (10m)"));
    }
    Ok(std::time::Duration::from_secs(total))
}

/// Returns a new UUID v7 whose time part is `at_ms` (a task's creation time), so the
/// core takes its time from the caller's clock (`TASKS_NOW`, an import line's
/// `created_at`) and never from the machine's. The other 74 bits are random.
pub fn uuid_v7_at(at_ms: i64) -> String {
    let ms = at_ms.max(0) as u64;
    let ts = uuid::Timestamp::from_unix(uuid::NoContext, ms / 1000, ((ms % 1000) * 1_000_000) as u32);
    uuid::Uuid::new_v7(ts).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floating_dates_round_trip() {
        for (y, m, d) in [(1970, 1, 1), (2026, 11, 29), (2000, 2, 29), (1969, 12, 31), (2099, 12, 31)] {
            let date = Date::new(y, m, d).expect("valid test date");
            let ms = floating_date_to_ms(date);
            assert_eq!(floating_date_from_ms(ms), Some(date), "{date}");
        }
        assert_eq!(floating_date_to_ms(Date::constant(1970, 1, 2)), MS_PER_DAY);
    }

    #[test]
    fn rfc3339_is_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_500), "1970-01-01T00:00:01.5Z");
    }
}
