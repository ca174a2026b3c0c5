//! Restricted cron patterns: parsing, validation and calendar matching.
//!
//! The accepted language is the five-field core of crontab(5) (SPEC §6): numbers, `*`,
//! ranges `a-b`, lists `a,b`, steps `*/n` and `a-b/n`; day-of-week 0–7 with 0 and 7
//! Sunday. Everything else — seconds, years, `@` macros, `L`, `W`, `#`, `?`, month and
//! weekday names — is refused with a message naming the field and quoting the text.
//! A pattern must keep [`MIN_CRON_INTERVAL_MINUTES`] between firings and must be able
//! to fire at all.
//!
//! Day-of-month and day-of-week combine as in Vixie cron: when both fields are
//! restricted, a day matches if EITHER matches (`0 9 1 * 1` fires on the 1st and on
//! every Monday). A field counts as unrestricted when its text starts with `*`, so
//! `*/2` in one of them turns the rule into an AND, exactly as Vixie cron and cronie do.
//!
//! This module knows nothing of time zones or DST: it answers "does this local date
//! match" and "which minutes of a local day match". Placing those on the timeline is
//! `resolve.rs`'s and `plan.rs`'s job.

use std::fmt;

use jiff::civil::{Date, DateTime};

use crate::error::ScheduleError;
use crate::limits::{CRON_MAX_LEN, MIN_CRON_INTERVAL_MINUTES, MINUTES_PER_DAY};

/// Names one of the five cron fields, as crontab(5) orders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CronField {
    /// Minute of the hour, 0–59.
    Minute,
    /// Hour of the day, 0–23.
    Hour,
    /// Day of the month, 1–31.
    DayOfMonth,
    /// Month of the year, 1–12.
    Month,
    /// Day of the week, 0–7 (0 and 7 are Sunday).
    DayOfWeek,
}

impl CronField {
    const ALL: [CronField; 5] =
        [CronField::Minute, CronField::Hour, CronField::DayOfMonth, CronField::Month, CronField::DayOfWeek];

    /// Returns the field's name as used in error messages (`day-of-week`).
    pub fn name(self) -> &'static str {
        match self {
            CronField::Minute => "minute",
            CronField::Hour => "hour",
            CronField::DayOfMonth => "day-of-month",
            CronField::Month => "month",
            CronField::DayOfWeek => "day-of-week",
        }
    }

    /// Returns the inclusive range of numbers the field accepts.
    fn range(self) -> (u8, u8) {
        match self {
            CronField::Minute => (0, 59),
            CronField::Hour => (0, 23),
            CronField::DayOfMonth => (1, 31),
            CronField::Month => (1, 12),
            CronField::DayOfWeek => (0, 7),
        }
    }

    /// Returns the names people write in this field, with their numbers, so a refusal
    /// can say which number to write instead.
    fn names(self) -> &'static [(&'static str, u8)] {
        match self {
            CronField::Month => &[
                ("jan", 1),
                ("feb", 2),
                ("mar", 3),
                ("apr", 4),
                ("may", 5),
                ("jun", 6),
                ("jul", 7),
                ("aug", 8),
                ("sep", 9),
                ("oct", 10),
                ("nov", 11),
                ("dec", 12),
            ],
            CronField::DayOfWeek => {
                &[("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6)]
            }
            _ => &[],
        }
    }
}

impl fmt::Display for CronField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Holds the day part of a cron pattern: which local dates it fires on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CronDays {
    /// Bit `d` set for each day of the month 1–31.
    days_of_month: u32,
    /// Bit `m` set for each month 1–12.
    months: u16,
    /// Bit `w` set for each weekday, Sunday = 0.
    days_of_week: u8,
    /// True when both day fields are restricted, so either one matching suffices.
    either_day_field: bool,
}

impl CronDays {
    /// Returns whether the pattern fires on this local date.
    pub(crate) fn matches(&self, date: Date) -> bool {
        if self.months & (1 << date.month()) == 0 {
            return false;
        }
        let dom = self.days_of_month & (1 << date.day()) != 0;
        let dow = self.days_of_week & (1 << date.weekday().to_sunday_zero_offset()) != 0;
        // Vixie cron: both restricted → OR; otherwise the unrestricted field has every
        // bit set (or is a `*`-led step) and the AND is what crontab(5) does.
        if self.either_day_field { dom || dow } else { dom && dow }
    }

    /// Returns whether the month of `date` is in the pattern, letting the day walk
    /// skip a whole month at once.
    pub(crate) fn month_matches(&self, date: Date) -> bool {
        self.months & (1 << date.month()) != 0
    }
}

/// Holds a parsed, validated restricted cron pattern.
///
/// Built only by [`parse_cron`], so every value satisfies the rules of this module:
/// it can fire, and never more often than [`MIN_CRON_INTERVAL_MINUTES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronPattern {
    expression: String,
    minutes: u64,
    hours: u32,
    days: CronDays,
}

impl CronPattern {
    /// Returns the pattern text, fields separated by single spaces.
    pub fn as_str(&self) -> &str {
        &self.expression
    }

    /// Returns whether the pattern matches this local date and minute.
    ///
    /// Seconds are ignored: patterns name whole minutes. This is pure calendar
    /// matching; whether that local minute exists in a zone is `resolve.rs`'s concern.
    pub fn matches(&self, local: DateTime) -> bool {
        self.matches_date(local.date())
            && self.hours & (1 << local.hour()) != 0
            && self.minutes & (1 << local.minute()) != 0
    }

    /// Returns whether the pattern fires on some minute of this local date.
    pub fn matches_date(&self, date: Date) -> bool {
        self.days.matches(date)
    }

    /// Returns the matching minutes of a day (`hour * 60 + minute`), ascending.
    pub(crate) fn minutes_of_day(&self) -> Vec<u16> {
        let mut out = Vec::new();
        for h in 0..24u16 {
            if self.hours & (1 << h) == 0 {
                continue;
            }
            for m in 0..60u16 {
                if self.minutes & (1 << m) != 0 {
                    out.push(h * 60 + m);
                }
            }
        }
        out
    }

    /// Returns the day part, for the planner's day walk.
    pub(crate) fn days(&self) -> CronDays {
        self.days
    }
}

impl fmt::Display for CronPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.expression)
    }
}

/// Parses and validates a restricted five-field cron pattern.
///
/// Refuses, naming the field and quoting the text: names (`MON`, `JAN`), `L`, `W`,
/// `#`, `?`, out-of-range values, empty list items, step 0, a step after a single
/// value, reversed ranges; and, for the whole pattern: `@` macros, a field count other
/// than five, firings closer than [`MIN_CRON_INTERVAL_MINUTES`] (wrap-around included),
/// and patterns that can never fire (`0 0 31 2 *`).
pub fn parse_cron(input: &str) -> Result<CronPattern, ScheduleError> {
    let expression = input.trim();
    let shape = |reason: String| ScheduleError::CronShape { expression: expression.to_string(), reason };
    if expression.is_empty() {
        return Err(shape("is empty; need 5 fields: minute hour day-of-month month day-of-week".into()));
    }
    if expression.len() > CRON_MAX_LEN {
        return Err(shape(format!("is longer than {CRON_MAX_LEN} characters")));
    }
    if let Some(name) = expression.strip_prefix('@') {
        let instead = match name.to_ascii_lowercase().as_str() {
            "hourly" => "; write 0 * * * *",
            "daily" | "midnight" => "; write 0 0 * * * (or use a daily trigger)",
            "weekly" => "; write 0 0 * * 0 (or use a weekly trigger)",
            "monthly" => "; write 0 0 1 * * (or use a monthly trigger)",
            "yearly" | "annually" => "; write 0 0 1 1 *",
            _ => "",
        };
        return Err(shape(format!("macros like @{name} are not supported{instead}")));
    }
    let fields: Vec<&str> = expression.split_whitespace().collect();
    if fields.len() != 5 {
        let extra = if fields.len() > 5 { "; seconds and years are not supported" } else { "" };
        return Err(shape(format!(
            "has {} fields{extra}; need 5: minute hour day-of-month month day-of-week",
            fields.len()
        )));
    }

    let mut bits = [0u64; 5];
    for (i, field) in CronField::ALL.into_iter().enumerate() {
        bits[i] = parse_field(field, fields[i])?;
    }
    // Day-of-week 7 is another name for Sunday (0).
    let mut days_of_week = bits[4] as u8 & 0x7f;
    if bits[4] & (1 << 7) != 0 {
        days_of_week |= 1;
    }
    let days = CronDays {
        days_of_month: bits[2] as u32,
        months: bits[3] as u16,
        days_of_week,
        either_day_field: !fields[2].starts_with('*') && !fields[4].starts_with('*'),
    };
    let pattern = CronPattern {
        // One space between fields: the stored form does not depend on how it was typed.
        expression: fields.join(" "),
        minutes: bits[0],
        hours: bits[1] as u32,
        days,
    };
    check_can_fire(&pattern, fields[2], fields[3])?;
    check_interval(&pattern)?;
    Ok(pattern)
}

/// Parses one field into a bit set of its values.
fn parse_field(field: CronField, text: &str) -> Result<u64, ScheduleError> {
    let refuse = |text: &str, reason: String| ScheduleError::CronField { field, text: text.to_string(), reason };
    let (min, max) = field.range();
    let mut bits = 0u64;
    for item in text.split(',') {
        if item.is_empty() {
            return Err(refuse(text, "has an empty list item".into()));
        }
        check_characters(field, item)?;
        let (base, step) = match item.split_once('/') {
            None => (item, None),
            Some((base, step)) => {
                if step.contains('/') {
                    return Err(refuse(item, "has more than one step".into()));
                }
                if step.is_empty() || !step.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(refuse(item, format!("has step \"{step}\", which is not a number")));
                }
                // Digits only: overflow means "huge", which steps past every value.
                let step: u32 = step.parse().unwrap_or(u32::MAX);
                if step == 0 {
                    return Err(refuse(item, "has step 0; a step must be 1 or more".into()));
                }
                (base, Some(step))
            }
        };
        let number = |s: &str| -> Result<u8, ScheduleError> {
            if s.is_empty() {
                return Err(refuse(item, "has a range with a missing end".into()));
            }
            if !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(refuse(item, format!("has \"{s}\", which is not a number")));
            }
            // Digits only: a parse failure can only be overflow, which is out of range.
            let n: u32 = s.parse().unwrap_or(u32::MAX);
            if n < u32::from(min) || n > u32::from(max) {
                let reason = if item == s {
                    format!("is out of range {min}-{max}")
                } else {
                    format!("has {s}, out of range {min}-{max}")
                };
                return Err(refuse(item, reason));
            }
            Ok(n as u8)
        };
        let (lo, hi) = if base == "*" {
            (min, max)
        } else if let Some((a, b)) = base.split_once('-') {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(refuse(
                    item,
                    format!("is a reversed range; ranges do not wrap, write {a}-{max},{min}-{b}"),
                ));
            }
            (a, b)
        } else {
            let n = number(base)?;
            if let Some(step) = step {
                return Err(refuse(
                    item,
                    format!("has a step after a single value; write a range, e.g. {n}-{max}/{step}"),
                ));
            }
            (n, n)
        };
        let step = usize::try_from(step.unwrap_or(1)).unwrap_or(usize::MAX);
        for v in (lo..=hi).step_by(step) {
            bits |= 1 << v;
        }
    }
    Ok(bits)
}

/// Refuses the syntax of other cron dialects with a message saying what to write.
fn check_characters(field: CronField, item: &str) -> Result<(), ScheduleError> {
    let refuse = |reason: String| ScheduleError::CronField { field, text: item.to_string(), reason };
    if item.contains('#') {
        return Err(refuse("uses # (nth weekday of the month), which is not supported".into()));
    }
    if item.contains('?') {
        return Err(refuse("uses ?, which is not supported; write *".into()));
    }
    let upper = item.to_ascii_uppercase();
    let digits_then =
        |suffix: &str| upper.strip_suffix(suffix).is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit()));
    if matches!(field, CronField::DayOfMonth | CronField::DayOfWeek)
        && (upper == "L" || upper == "LW" || digits_then("L"))
    {
        return Err(refuse(
            "uses L (last), which is not supported; for the last day of the month use a \
             monthly trigger with day last"
                .into(),
        ));
    }
    if field == CronField::DayOfMonth && digits_then("W") {
        return Err(refuse("uses W (nearest weekday), which is not supported".into()));
    }
    if item.chars().any(|c| c.is_alphabetic()) {
        // Replace every known name by its number to show the exact fix.
        let mut fixed = String::new();
        let mut all_known = true;
        let mut word = String::new();
        let flush = |word: &mut String, fixed: &mut String, all_known: &mut bool| {
            if word.is_empty() {
                return;
            }
            let lower = word.to_lowercase();
            let key: String = lower.chars().take(3).collect();
            match field.names().iter().find(|(name, _)| *name == key) {
                Some((_, n)) if lower.len() == 3 || is_full_name(&lower) => fixed.push_str(&n.to_string()),
                _ => *all_known = false,
            }
            word.clear();
        };
        for c in item.chars() {
            if c.is_alphabetic() {
                word.push(c);
            } else {
                flush(&mut word, &mut fixed, &mut all_known);
                fixed.push(c);
            }
        }
        flush(&mut word, &mut fixed, &mut all_known);
        let reason = match (all_known, item.chars().all(|c| c.is_alphabetic())) {
            (true, true) => format!("is a name; use {fixed}"),
            (true, false) => format!("uses names; use {fixed}"),
            (false, _) => format!("is not a number; the {} field takes {}-{}", field, field.range().0, field.range().1),
        };
        return Err(refuse(reason));
    }
    if let Some(c) = item.chars().find(|c| !(c.is_ascii_digit() || matches!(c, '*' | '-' | '/'))) {
        return Err(refuse(format!(
            "contains \"{c}\", which is not allowed; use numbers, *, ranges a-b, lists a,b \
             and steps */n or a-b/n"
        )));
    }
    Ok(())
}

/// Returns whether a lowercase word is a full English month or weekday name.
fn is_full_name(word: &str) -> bool {
    const FULL: [&str; 19] = [
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "sunday",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sept",
    ];
    FULL.contains(&word)
}

/// Refuses a pattern whose day fields can never meet (e.g. `0 0 31 2 *`).
///
/// With the OR rule some weekday always matches, so only the AND rule can fail. Over
/// the 400-year Gregorian cycle every valid (month, day) pair falls on every weekday,
/// so only month and day-of-month decide; Feb 29 counts as possible.
fn check_can_fire(pattern: &CronPattern, dom_text: &str, month_text: &str) -> Result<(), ScheduleError> {
    let days = pattern.days;
    if days.either_day_field {
        return Ok(());
    }
    const MAX_DAYS: [u8; 13] = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let possible = (1..=12usize).any(|m| {
        days.months & (1 << m) != 0 && {
            let up_to = (1u64 << (MAX_DAYS[m] + 1)) - 1;
            u64::from(days.days_of_month) & up_to != 0
        }
    });
    if possible {
        return Ok(());
    }
    Err(ScheduleError::CronNeverFires {
        expression: pattern.expression.clone(),
        reason: format!("day-of-month \"{dom_text}\" never occurs in month \"{month_text}\""),
    })
}

/// Refuses a pattern with two consecutive firings closer than
/// [`MIN_CRON_INTERVAL_MINUTES`] in local wall-clock time.
///
/// Consecutive firings are neighbours in the day's sorted minute list, plus the
/// wrap from the day's last minute to the next day's first — counted only when two
/// consecutive dates can both match (`0,50 0,23 1 * *` never fires on two days in a
/// row, so its 23:50 → 00:00 pair never happens).
fn check_interval(pattern: &CronPattern) -> Result<(), ScheduleError> {
    let minutes = pattern.minutes_of_day();
    let (Some(&first), Some(&last)) = (minutes.first(), minutes.last()) else {
        // Every field has at least one value, so the list is never empty.
        return Ok(());
    };
    let minimum = MIN_CRON_INTERVAL_MINUTES;
    // The first of equally tight pairs is reported: it is the earliest in the day.
    let inner = minutes.windows(2).map(|p| (p[1] - p[0], p[0], p[1])).min_by_key(|t| t.0);
    let wrap = (MINUTES_PER_DAY - last + first, last, first);
    let tightest = match inner {
        Some(inner) if inner.0 <= wrap.0 => inner,
        _ if u32::from(wrap.0) < minimum && consecutive_days_possible(pattern.days) => wrap,
        Some(inner) => inner,
        None => return Ok(()),
    };
    let (gap, from, to) = tightest;
    if u32::from(gap) < minimum {
        return Err(too_frequent(pattern, gap, from, to));
    }
    Ok(())
}

fn too_frequent(pattern: &CronPattern, gap: u16, from: u16, to: u16) -> ScheduleError {
    let hhmm = |m: u16| format!("{:02}:{:02}", m / 60, m % 60);
    ScheduleError::CronTooFrequent {
        expression: pattern.expression.clone(),
        gap_minutes: u32::from(gap),
        from: hhmm(from),
        to: hhmm(to),
        minimum: MIN_CRON_INTERVAL_MINUTES,
    }
}

/// Returns whether two consecutive local dates can both match the day rule.
///
/// Checks one 28-year span, 2001–2028: between 1901 and 2099 the calendar repeats
/// every 28 years, so every (month, day, weekday, leap) combination of that range
/// appears. Only called on the rare path where the wrap-around gap is too short.
fn consecutive_days_possible(days: CronDays) -> bool {
    let mut date = Date::constant(2001, 1, 1);
    let end = Date::constant(2029, 1, 1);
    let mut previous = false;
    while date < end {
        let now = days.matches(date);
        if previous && now {
            return true;
        }
        previous = now;
        date = match date.tomorrow() {
            Ok(next) => next,
            Err(_) => return true,
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    /// Renders a bit set as compact ranges (`0,30` or `9-18`).
    fn ranges(bits: u64, min: u8, max: u8) -> String {
        let mut parts = Vec::new();
        let mut v = min;
        while v <= max {
            if bits & (1 << v) == 0 {
                v += 1;
                continue;
            }
            let start = v;
            while v < max && bits & (1 << (v + 1)) != 0 {
                v += 1;
            }
            parts.push(if start == v { start.to_string() } else { format!("{start}-{v}") });
            v += 1;
        }
        parts.join(",")
    }

    fn summary(p: &CronPattern) -> String {
        format!(
            "m {} | h {} | dom {} | mon {} | dow {} | {}",
            ranges(p.minutes, 0, 59),
            ranges(u64::from(p.hours), 0, 23),
            ranges(u64::from(p.days.days_of_month), 1, 31),
            ranges(u64::from(p.days.months), 1, 12),
            ranges(u64::from(p.days.days_of_week), 0, 6),
            if p.days.either_day_field { "or" } else { "and" }
        )
    }

    /// Checks one input: the summary of the parsed sets, or the exact error message.
    #[track_caller]
    fn check(input: &str, expected: &str) {
        let got = match parse_cron(input) {
            Ok(p) => summary(&p),
            Err(e) => e.to_string(),
        };
        assert_eq!(got, expected, "input {input:?}");
    }

    #[test]
    #[rustfmt::skip]
    fn accepted() {
        check("*/30 9-18 * * 1-5", "m 0,30 | h 9-18 | dom 1-31 | mon 1-12 | dow 1-5 | and");
        check("0 9 * * *", "m 0 | h 9 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("*/15 * * * *", "m 0,15,30,45 | h 0-23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("  0   0  1  1  *  ", "m 0 | h 0 | dom 1 | mon 1 | dow 0-6 | and");
        check("0 0 * * 7", "m 0 | h 0 | dom 1-31 | mon 1-12 | dow 0 | and");
        check("0 0 * * 0,7", "m 0 | h 0 | dom 1-31 | mon 1-12 | dow 0 | and");
        check("0 0 * * 5-7", "m 0 | h 0 | dom 1-31 | mon 1-12 | dow 0,5-6 | and");
        check("0 0 * * 0-7/2", "m 0 | h 0 | dom 1-31 | mon 1-12 | dow 0,2,4,6 | and");
        check("0 9 1 * 1", "m 0 | h 9 | dom 1 | mon 1-12 | dow 1 | or");
        check("0 9 */2 * 1", "m 0 | h 9 | dom 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 | mon 1-12 | dow 1 | and");
        check("0 9 1-15 * */2", "m 0 | h 9 | dom 1-15 | mon 1-12 | dow 0,2,4,6 | and");
        check("10-50/20 * * * *", "m 10,30,50 | h 0-23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("*/45 * * * *", "m 0,45 | h 0-23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("0 */90 * * *", "m 0 | h 0 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("05 08 * * *", "m 5 | h 8 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("0 0 29 2 *", "m 0 | h 0 | dom 29 | mon 2 | dow 0-6 | and");
        check("0 0 30,31 1-3 *", "m 0 | h 0 | dom 30-31 | mon 1-3 | dow 0-6 | and");
        check("0 0 31 2 1", "m 0 | h 0 | dom 31 | mon 2 | dow 1 | or");
        check("0,30 0,23 * * *", "m 0,30 | h 0,23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        // The 23:50 → 00:00 wrap never happens: day 1 is never followed by day 1.
        check("0,50 0,23 1 * *", "m 0,50 | h 0,23 | dom 1 | mon 1-12 | dow 0-6 | and");
    }

    #[test]
    #[rustfmt::skip]
    fn refused_shape() {
        check("", "cron \"\": is empty; need 5 fields: minute hour day-of-month month day-of-week");
        check("* * * *", "cron \"* * * *\": has 4 fields; need 5: minute hour day-of-month month day-of-week");
        check("0 0 * * * *", "cron \"0 0 * * * *\": has 6 fields; seconds and years are not supported; need 5: minute hour day-of-month month day-of-week");
        check("0 0 0 * * * 2026", "cron \"0 0 0 * * * 2026\": has 7 fields; seconds and years are not supported; need 5: minute hour day-of-month month day-of-week");
        check("@daily", "cron \"@daily\": macros like @daily are not supported; write 0 0 * * * (or use a daily trigger)");
        check("@reboot", "cron \"@reboot\": macros like @reboot are not supported");
        check(&"1,".repeat(200), &format!("cron \"{}\": is longer than 256 characters", "1,".repeat(200).trim()));
    }

    #[test]
    #[rustfmt::skip]
    fn refused_fields() {
        check("0 9 * * MON", "cron field day-of-week: \"MON\" is a name; use 1");
        check("0 9 * * mon-fri", "cron field day-of-week: \"mon-fri\" uses names; use 1-5");
        check("0 9 * JAN *", "cron field month: \"JAN\" is a name; use 1");
        check("0 9 * * Monday", "cron field day-of-week: \"Monday\" is a name; use 1");
        check("0 9 * * xyz", "cron field day-of-week: \"xyz\" is not a number; the day-of-week field takes 0-7");
        check("0 9 L * *", "cron field day-of-month: \"L\" uses L (last), which is not supported; for the last day of the month use a monthly trigger with day last");
        check("0 9 * * 5L", "cron field day-of-week: \"5L\" uses L (last), which is not supported; for the last day of the month use a monthly trigger with day last");
        check("0 9 15W * *", "cron field day-of-month: \"15W\" uses W (nearest weekday), which is not supported");
        check("0 9 * * 1#2", "cron field day-of-week: \"1#2\" uses # (nth weekday of the month), which is not supported");
        check("0 9 ? * 1", "cron field day-of-month: \"?\" uses ?, which is not supported; write *");
        check("60 * * * *", "cron field minute: \"60\" is out of range 0-59");
        check("0 24 * * *", "cron field hour: \"24\" is out of range 0-23");
        check("0 0 0 * *", "cron field day-of-month: \"0\" is out of range 1-31");
        check("0 0 32 * *", "cron field day-of-month: \"32\" is out of range 1-31");
        check("0 0 * 13 *", "cron field month: \"13\" is out of range 1-12");
        check("0 0 * 0 *", "cron field month: \"0\" is out of range 1-12");
        check("0 0 * * 8", "cron field day-of-week: \"8\" is out of range 0-7");
        check("0 0-30 * * *", "cron field hour: \"0-30\" has 30, out of range 0-23");
        check("99999 * * * *", "cron field minute: \"99999\" is out of range 0-59");
        check("0-99999 * * * *", "cron field minute: \"0-99999\" has 99999, out of range 0-59");
        check("*/0 * * * *", "cron field minute: \"*/0\" has step 0; a step must be 1 or more");
        check("*/x * * * *", "cron field minute: \"*/x\" is not a number; the minute field takes 0-59");
        check("*/1/2 * * * *", "cron field minute: \"*/1/2\" has more than one step");
        check("5/15 * * * *", "cron field minute: \"5/15\" has a step after a single value; write a range, e.g. 5-59/15");
        check("0 18-9 * * *", "cron field hour: \"18-9\" is a reversed range; ranges do not wrap, write 18-23,0-9");
        check("0 9 * * 5-1", "cron field day-of-week: \"5-1\" is a reversed range; ranges do not wrap, write 5-7,0-1");
        check("0, * * * *", "cron field minute: \"0,\" has an empty list item");
        check("0,,30 * * * *", "cron field minute: \"0,,30\" has an empty list item");
        check("0 9- * * *", "cron field hour: \"9-\" has a range with a missing end");
        check("0 -1 * * *", "cron field hour: \"-1\" has a range with a missing end");
        check("0 +9 * * *", "cron field hour: \"+9\" contains \"+\", which is not allowed; use numbers, *, ranges a-b, lists a,b and steps */n or a-b/n");
        check("0 9.5 * * *", "cron field hour: \"9.5\" contains \".\", which is not allowed; use numbers, *, ranges a-b, lists a,b and steps */n or a-b/n");
        check("0 *-5 * * *", "cron field hour: \"*-5\" has \"*\", which is not a number");
    }

    #[test]
    #[rustfmt::skip]
    fn refused_never_fires() {
        check("0 0 31 2 *", "cron \"0 0 31 2 *\": never fires: day-of-month \"31\" never occurs in month \"2\"");
        check("0 0 30,31 2 *", "cron \"0 0 30,31 2 *\": never fires: day-of-month \"30,31\" never occurs in month \"2\"");
        check("0 0 31 4,6,9,11 *", "cron \"0 0 31 4,6,9,11 *\": never fires: day-of-month \"31\" never occurs in month \"4,6,9,11\"");
        // A `*`-led day-of-week keeps the AND, so this cannot fire either.
        check("0 0 31 2 */2", "cron \"0 0 31 2 */2\": never fires: day-of-month \"31\" never occurs in month \"2\"");
    }

    #[test]
    #[rustfmt::skip]
    fn refused_too_frequent() {
        check("* * * * *", "cron \"* * * * *\": fires 1 minutes apart (00:00 → 00:01); the minimum is 15 minutes");
        check("*/5 * * * *", "cron \"*/5 * * * *\": fires 5 minutes apart (00:00 → 00:05); the minimum is 15 minutes");
        check("*/14 * * * *", "cron \"*/14 * * * *\": fires 4 minutes apart (00:56 → 01:00); the minimum is 15 minutes");
        check("0,50 * * * *", "cron \"0,50 * * * *\": fires 10 minutes apart (00:50 → 01:00); the minimum is 15 minutes");
        check("0,50 0,23 * * *", "cron \"0,50 0,23 * * *\": fires 10 minutes apart (23:50 → 00:00); the minimum is 15 minutes");
        check("0,10 9 * * *", "cron \"0,10 9 * * *\": fires 10 minutes apart (09:00 → 09:10); the minimum is 15 minutes");
        check("50 23 * * *", "m 50 | h 23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        // Day 1 can follow day 31 (or 30, 28, 29), so the wrap counts here.
        check("55 23 * * *", "m 55 | h 23 | dom 1-31 | mon 1-12 | dow 0-6 | and");
        check("55,5 0,23 1,31 * *", "cron \"55,5 0,23 1,31 * *\": fires 10 minutes apart (23:55 → 00:05); the minimum is 15 minutes");
        check("55,5 0,23 * * 1,2", "cron \"55,5 0,23 * * 1,2\": fires 10 minutes apart (23:55 → 00:05); the minimum is 15 minutes");
        check("55,5 0,23 * * 1,3", "m 5,55 | h 0,23 | dom 1-31 | mon 1-12 | dow 1,3 | and");
    }

    #[test]
    fn matching() {
        let p = parse_cron("0 9 1 * 1").expect("valid pattern");
        // 2026-06-01 is a Monday and the 1st; 2026-06-08 a Monday; 2026-07-01 a Wednesday.
        assert!(p.matches(date(2026, 6, 1).at(9, 0, 0, 0)));
        assert!(p.matches(date(2026, 6, 8).at(9, 0, 0, 0)));
        assert!(p.matches(date(2026, 7, 1).at(9, 0, 0, 0)));
        assert!(!p.matches(date(2026, 7, 2).at(9, 0, 0, 0)));
        assert!(!p.matches(date(2026, 6, 8).at(9, 1, 0, 0)));
        let p = parse_cron("*/30 9-18 * * 1-5").expect("valid pattern");
        assert!(p.matches(date(2026, 6, 5).at(18, 30, 0, 0)));
        assert!(!p.matches(date(2026, 6, 6).at(10, 0, 0, 0)));
        assert!(!p.matches(date(2026, 6, 5).at(19, 0, 0, 0)));
        let p = parse_cron("0 0 * * 7").expect("valid pattern");
        assert!(p.matches(date(2026, 6, 7).at(0, 0, 0, 0)));
    }
}
