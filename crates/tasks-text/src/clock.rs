//! Due values with a time of day (issue 12): "tomorrow 15:00", «завтра в 10:00», "fri
//! 9am", "at 7pm", «в пятницу в 14:00», «сегодня в 7 вечера», "in 2 hours", «через 30
//! минут». The day part is read by [`parse_due`](crate::dates::parse_due), so every day
//! phrase works with a time too.
//!
//! Rules:
//! - A time alone ("at 7pm", «в 15:00») is today's when it is still ahead, else
//!   tomorrow's.
//! - A time with a day is that day's; a week (`next week 5pm`) has no day to put a time
//!   on and is refused.
//! - `in N hours|minutes` / `через N часов|минут` (and "in an hour", «через час»,
//!   «через полчаса») count from now and stand alone.
//! - 12-hour times need am/pm (or утра/дня/вечера/ночи in Russian); `noon`, `midnight`,
//!   «полдень», «полночь» are words for 12:00 and 00:00.
//!
//! What it deliberately does not do: read the clock (now is an argument), know zones
//! (the wall clock is local; the caller puts it in a zone), or read a bare number as an
//! hour (`в 9` is a date's day as often as an hour).

use jiff::civil::{Date, DateTime, Time};
use jiff::{Span, ToSpan};

use crate::dates::{DateError, Due, DueKind, parse_due};

/// Largest count read in `in N hours` / `через N минут` (a week of minutes).
const MAX_CLOCK_COUNT: i64 = 10_080;

/// What a due value says: a day (or week), or a moment on a local wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// A day or a week, as [`parse_due`] reads it.
    Day(Due),
    /// A local date and time.
    At(DateTime),
}

/// Reads a `--due` value that may carry a time of day, against `now` (local).
pub fn parse_when(input: &str, now: DateTime) -> Result<When, DateError> {
    let lowered = input.trim().to_lowercase().replace('ё', "е");
    let words: Vec<&str> = lowered.split_whitespace().collect();
    let unreadable = || DateError::Unreadable { input: input.to_owned() };
    if let Some(span) = relative(&words) {
        let at = now.checked_add(span?).map_err(|_| unreadable())?;
        return Ok(When::At(at));
    }
    let Some((time, used)) =
        time_of_day(&words).transpose().map_err(|()| DateError::NotADate { input: input.to_owned() })?
    else {
        return parse_due(input, now.date()).map(When::Day);
    };
    let rest: Vec<&str> = words.iter().enumerate().filter(|(i, _)| !used.contains(i)).map(|(_, w)| *w).collect();
    if rest.is_empty() {
        let today = now.date();
        let date = if time > now.time() { today } else { today.tomorrow().map_err(|_| unreadable())? };
        return Ok(When::At(date.to_datetime(time)));
    }
    let day = parse_due(&rest.join(" "), now.date()).map_err(|_| unreadable())?;
    match day.kind {
        DueKind::Day => Ok(When::At(day.date.to_datetime(time))),
        DueKind::Week => Err(unreadable()),
    }
}

/// Reads "in 2 hours", «через 30 минут», "in an hour", «через полчаса» as the whole
/// input; `Some(Err)` for the shape with a count out of range.
fn relative(words: &[&str]) -> Option<Result<Span, DateError>> {
    let lead = *words.first()?;
    if !matches!(lead, "in" | "через") {
        return None;
    }
    let (count, unit): (i64, &str) = match &words[1..] {
        [half] if matches!(*half, "полчаса") => (30, "минут"),
        ["half", "an", "hour"] => (30, "minutes"),
        ["an" | "one", unit] | [unit] => (1, unit),
        [n, unit] => (n.parse().ok()?, unit),
        _ => return None,
    };
    let minutes = if is_hours(unit) {
        count.checked_mul(60)?
    } else if is_minutes(unit) {
        count
    } else {
        return None;
    };
    if !(1..=MAX_CLOCK_COUNT).contains(&minutes) {
        return Some(Err(DateError::Unreadable { input: words.join(" ") }));
    }
    Some(Ok(minutes.minutes()))
}

fn is_hours(unit: &str) -> bool {
    matches!(unit, "hour" | "hours" | "hr" | "hrs" | "h" | "час" | "часа" | "часов")
}

fn is_minutes(unit: &str) -> bool {
    matches!(unit, "minute" | "minutes" | "min" | "mins" | "m" | "минуту" | "минуты" | "минут" | "мин")
}

/// Finds a time of day in the words: the time and the indexes of the words it used
/// (with a preposition before it and a part-of-day word after it). `Some(Err)` for a
/// time's shape naming no time (`25:00`, `13pm`).
fn time_of_day(words: &[&str]) -> Option<Result<(Time, Vec<usize>), ()>> {
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied();
        let found: Option<(Result<Time, ()>, usize)> = if let Some(t) = named(w) {
            Some((Ok(t), 1))
        } else if let Some(t) = clock(w) {
            // `15:00`, `9:30pm`, `9:30 pm`, `9 утра`.
            match next.and_then(meridiem) {
                Some(m) => Some((t.and_then(|t| apply_meridiem(t.hour() as i64, t.minute() as i64, m)), 2)),
                None => Some((t, 1)),
            }
        } else if let Some((h, m)) = hour_with_meridiem(w) {
            Some((apply_meridiem(h, 0, m), 1))
        } else if let Ok(h) = w.parse::<i64>() {
            // `9 am`, `в 7 вечера`: a bare number only with its part of the day — and a
            // Russian one only after «в»/«к» (`через 3 дня` is three days, not 15:00).
            let russian = next.is_some_and(|n| n.chars().any(|c| c.is_alphabetic() && !c.is_ascii()));
            let led = i > 0 && matches!(words[i - 1], "в" | "во" | "к" | "около" | "до");
            next.and_then(meridiem).filter(|_| !russian || led).map(|m| (apply_meridiem(h, 0, m), 2))
        } else {
            None
        };
        if let Some((time, len)) = found {
            let mut used: Vec<usize> = (i..i + len).collect();
            if i > 0 && matches!(words[i - 1], "at" | "@" | "в" | "во" | "к" | "by" | "до" | "around" | "около")
            {
                used.push(i - 1);
            }
            return Some(time.map(|t| (t, used)));
        }
    }
    None
}

/// `noon`, `midnight`, «полдень», «полночь».
fn named(word: &str) -> Option<Time> {
    match word {
        "noon" | "midday" | "полдень" => Some(Time::constant(12, 0, 0, 0)),
        "midnight" | "полночь" => Some(Time::constant(0, 0, 0, 0)),
        _ => None,
    }
}

/// Part of the day after an hour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meridiem {
    Am,
    Pm,
}

fn meridiem(word: &str) -> Option<Meridiem> {
    match word.trim_end_matches('.') {
        "am" | "a.m" | "утра" | "ночи" => Some(Meridiem::Am),
        "pm" | "p.m" | "дня" | "вечера" => Some(Meridiem::Pm),
        _ => None,
    }
}

/// `9am`, `11pm`, `9:30pm` (the last through [`clock`]).
fn hour_with_meridiem(word: &str) -> Option<(i64, Meridiem)> {
    let (digits, m) = if let Some(d) = word.strip_suffix("am").or_else(|| word.strip_suffix("a.m.")) {
        (d, Meridiem::Am)
    } else if let Some(d) = word.strip_suffix("pm").or_else(|| word.strip_suffix("p.m.")) {
        (d, Meridiem::Pm)
    } else {
        return None;
    };
    Some((digits.parse().ok()?, m))
}

/// `15:00`, `9:05`, `9:30pm`: `Some(Err)` when the shape names no time.
fn clock(word: &str) -> Option<Result<Time, ()>> {
    let (body, m) = match hour_with_meridiem_suffix(word) {
        Some((b, m)) => (b, Some(m)),
        None => (word, None),
    };
    let (h, rest) = body.split_once(':')?;
    if h.is_empty() || h.len() > 2 || rest.len() != 2 || !h.chars().chain(rest.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (hour, minute): (i64, i64) = (h.parse().ok()?, rest.parse().ok()?);
    Some(match m {
        Some(m) => apply_meridiem(hour, minute, m),
        None => time_of(hour, minute),
    })
}

fn hour_with_meridiem_suffix(word: &str) -> Option<(&str, Meridiem)> {
    if let Some(b) = word.strip_suffix("am") {
        Some((b, Meridiem::Am))
    } else {
        word.strip_suffix("pm").map(|b| (b, Meridiem::Pm))
    }
}

fn apply_meridiem(hour: i64, minute: i64, m: Meridiem) -> Result<Time, ()> {
    // 12-hour clock, and the Russian parts of the day: «в 3 ночи» is 03:00, «в 12 дня»
    // is noon, «в 7 вечера» is 19:00.
    if !(1..=12).contains(&hour) {
        return Err(());
    }
    let h24 = match (m, hour) {
        (Meridiem::Am, 12) => 0,
        (Meridiem::Am, h) => h,
        (Meridiem::Pm, 12) => 12,
        (Meridiem::Pm, h) => h + 12,
    };
    time_of(h24, minute)
}

fn time_of(hour: i64, minute: i64) -> Result<Time, ()> {
    if !(0..24).contains(&hour) || !(0..60).contains(&minute) {
        return Err(());
    }
    Time::new(hour as i8, minute as i8, 0, 0).map_err(|_| ())
}

/// Returns the date and time of a [`When::At`] (convenience for callers and tests).
pub fn at_of(when: When) -> Option<(Date, Time)> {
    match when {
        When::At(dt) => Some((dt.date(), dt.time())),
        When::Day(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    fn now() -> DateTime {
        date(2026, 3, 11).at(10, 0, 0, 0)
    }

    #[track_caller]
    fn at(text: &str, expected: &str) {
        match parse_when(text, now()) {
            Ok(When::At(dt)) => assert_eq!(dt.strftime("%Y-%m-%dT%H:%M").to_string(), expected, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn times_of_day() {
        at("tomorrow 15:00", "2026-03-12T15:00");
        at("завтра в 10:00", "2026-03-12T10:00");
        at("fri 9am", "2026-03-13T09:00");
        at("friday 9:30 pm", "2026-03-13T21:30");
        at("at 7pm", "2026-03-11T19:00");
        at("at 9am", "2026-03-12T09:00");
        at("в 15:00", "2026-03-11T15:00");
        at("сегодня в 7 вечера", "2026-03-11T19:00");
        at("завтра в 9 утра", "2026-03-12T09:00");
        at("в 3 ночи", "2026-03-12T03:00");
        at("tomorrow at noon", "2026-03-12T12:00");
        at("in 2 hours", "2026-03-11T12:00");
        at("через 30 минут", "2026-03-11T10:30");
        at("через час", "2026-03-11T11:00");
        at("через полчаса", "2026-03-11T10:30");
        at("in an hour", "2026-03-11T11:00");
    }

    #[test]
    fn days_stay_days_and_nonsense_is_refused() {
        assert_eq!(parse_when("friday", now()), Ok(When::Day(Due { date: date(2026, 3, 13), kind: DueKind::Day })));
        assert_eq!(
            parse_when("через 3 дня", now()),
            Ok(When::Day(Due { date: date(2026, 3, 14), kind: DueKind::Day }))
        );
        for bad in ["25:00", "tomorrow 26:00", "13pm", "next week 5pm", "in 2 fortnights", "at 7", "tomorrow 15:60"] {
            assert!(parse_when(bad, now()).is_err(), "{bad}");
        }
    }
}
