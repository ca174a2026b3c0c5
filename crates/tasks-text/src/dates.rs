//! Due dates in Russian, English and Spanish: the CLI's `--due` value ([`parse_due`])
//! and a due phrase inside a title or description ([`find_due`]) for the duplicate
//! check's signature (SPEC §5.1, §7).
//!
//! Both read normalized tokens (see [`normalize()`](crate::normalize::normalize)), so case, `ё` and
//! Spanish accents do not matter (`Mañana` = `manana`). Today's date always arrives as
//! an argument; nothing here reads a clock.
//!
//! Besides, the day words of the countries Russian speakers live in are read as they say
//! them between Russian and English words: Portuguese (`hoje`, `amanhã`), Dutch and
//! German (`morgen`, `overmorgen`, `volgende week`, `vrijdag`, `Freitag`), French
//! (`demain`, `vendredi`, `la semaine prochaine`), Greek in either script (`avrio`,
//! «аврио») and Japanese in Latin letters (`ashita`, `raishuu`); and "in a fortnight"
//! (fourteen days).
//!
//! Rules:
//! - A weekday (`friday`, `в пятницу`, `до пятницы`, `el lunes`) is the next such day
//!   *after* today: said on a Friday, "friday" is next week's Friday (today is "today").
//! - `next <weekday>` / `в следующую пятницу` / `el próximo viernes` is that weekday in
//!   the next calendar week (weeks run Monday–Sunday); `this <weekday>` is the plain one.
//! - `before X`, `by X`, `до X`, `к X`, `antes del X` all mean X is the due day.
//! - A week-kind due (`next week`, `end of week`, `до конца недели`, `на следующей
//!   неделе`, `la próxima semana`) carries the Sunday that ends that week.
//! - `end of month` / `до конца месяца` is the month's last day (day kind), and `end of
//!   April` / `до конца апреля` / `a finales de abril` April's; `eod` is today; `end of
//!   year` is 31 December.
//! - A day and month without a year (`20 мая`, `до 10.04`, `Apr 28`) is this year's,
//!   unless that is more than [`DAY_MONTH_PAST_TOLERANCE_DAYS`] ago, then next year's.
//! - A day of month alone (`before the 5th`, `до 5 числа`, `до 5-го`, `на 21-е`,
//!   `antes del 5`) is the next such day on or after today; a day the month lacks is
//!   its last day (`the 31st` in April is 30 April).
//! - In text, `dd.mm` needs a two-digit month (`10.04`, `1.06`), so decimals like `3.5`
//!   are not dates; the `--due` flag also takes `3.5`.
//! - In text, words that are often something else need a preposition or `next`/`this`
//!   before them: `mon`, `sat`, `sun`, `среда`/`среды`/`среде` (also "environment"),
//!   `ср`, `вс`, `domingo` (also a name), a bare English ordinal (`the 5th`).
//!
//! What it deliberately does not do: no times of day here (`15:00`, `7pm` are
//! [`crate::clock`]'s; a title's time is ignored), no
//! recurrence (`every friday`), no ranges, no `mm/dd` (ambiguous between US and
//! European order), no typo correction (`fryday` is an error).

use std::ops::Range;

use jiff::Span;
use jiff::civil::{Date, Weekday};
use thiserror::Error;

use crate::calendar::{month_word, weekday_word};
use crate::normalize::normalize;

/// How far in the past (days) a day-and-month without a year may be and still mean this
/// year.
///
/// A title written a few days late ("до 28.04" on 2 May) still means this year's date,
/// while "10.01" written in December means next January. A month covers the first case
/// and keeps the second.
pub const DAY_MONTH_PAST_TOLERANCE_DAYS: i64 = 30;

/// Largest count read in `in N days` / `через N недель`.
///
/// Relative phrases in tasks count days or weeks, not years; a larger number is more
/// likely an amount or a code than a due date.
const MAX_RELATIVE_COUNT: i64 = 999;

/// Earliest year taken as a year in a date (`20 мая 2026`, `10.04.2026`).
const MIN_YEAR: i16 = 1900;

/// Latest year taken as a year in a date.
const MAX_YEAR: i16 = 2199;

/// Years before this one that a numeric date in running text (dotted, slashed or ISO)
/// may name (`10.04.25` written in January 2026 about last year's invoice) …
const TEXT_YEARS_BACK: i16 = 1;
/// … and after it. A year further off is no due date: `4.1.86` is a version number, and
/// «от 12.03.2019» the date of a contract.
const TEXT_YEARS_AHEAD: i16 = 5;

/// Two-digit years (`10.04.26`) are taken in this century.
const TWO_DIGIT_YEAR_BASE: i16 = 2000;

/// Rank of an explicit calendar date (`20 мая`, `2026-12-01`, `before the 5th`) when a
/// text holds several due phrases: the most specific wins.
const RANK_CALENDAR: u8 = 3;

/// Rank of a relative phrase (`tomorrow`, `next week`, `end of month`).
const RANK_RELATIVE: u8 = 2;

/// Rank of a weekday (`friday`, `в пятницу`): weakest, since a title may also name the
/// weekday of a meeting.
const RANK_WEEKDAY: u8 = 1;

/// Whether a due is a day or a whole week.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DueKind {
    /// Due on that day.
    Day,
    /// Due some time that week; the date is the week's Sunday.
    Week,
}

impl DueKind {
    /// Returns the stored name: `day` or `week` (SPEC §2 `due_kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            DueKind::Day => "day",
            DueKind::Week => "week",
        }
    }
}

/// A due date and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Due {
    /// The day (for [`DueKind::Week`], the Sunday that ends the week).
    pub date: Date,
    /// Day or week.
    pub kind: DueKind,
}

/// A due phrase found in normalized text, with the tokens it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueMatch {
    /// The due.
    pub due: Due,
    /// Indices of the tokens (`normalized.split(' ')`) of the phrase, prepositions
    /// included (`до пятницы` is two tokens).
    pub tokens: (usize, usize),
}

impl DueMatch {
    /// Returns the token range of the phrase.
    pub fn range(&self) -> Range<usize> {
        self.tokens.0..self.tokens.1
    }
}

/// Why a `--due` value could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DateError {
    /// No accepted form matches the whole input.
    #[error("cannot read {input:?} as a date")]
    Unreadable {
        /// The text as given.
        input: String,
    },
    /// The input has a date's shape but names no calendar day (`2026-02-30`).
    #[error("{input:?} is not a calendar date")]
    NotADate {
        /// The text as given.
        input: String,
    },
    /// The input counts backwards (`in -5 days`): a due date is never read as the past
    /// by flipping a sign.
    #[error("{input:?} counts a negative number of days or weeks")]
    Negative {
        /// The text as given.
        input: String,
    },
    /// The input holds a character no date is written with (an emoji, a symbol).
    #[error("{input:?} holds {found:?}, which is not part of a date")]
    Junk {
        /// The text as given.
        input: String,
        /// The first such character.
        found: char,
    },
}

impl DateError {
    /// Returns a hint listing the accepted forms, for the CLI's `hint:` line.
    pub fn hint(&self) -> &'static str {
        "accepted: 2026-12-01, 10.04, 20 мая, May 20, today, tomorrow, friday, next friday, \
         next week, in 3 days, end of week, end of month, end of April, eod; сегодня, \
         завтра, послезавтра, в пятницу, через неделю, до конца недели, до конца месяца, \
         до конца апреля, к 21-му; hoy, mañana, el lunes, la próxima semana, a finales de abril"
    }
}

/// Reads the CLI's `--due` value relative to `today`.
///
/// Takes every form [`find_due`] finds, alone (optionally after `by`, `on`, `до`, `к`,
/// `в`, `el`, `antes del` …), plus bare `3.5`, `mon`, `sat`, `sun`, `5th`.
///
/// # Errors
/// [`DateError::NotADate`] for an impossible date (`2026-02-30`, `31.04`),
/// [`DateError::Unreadable`] for anything else; both quote `input`.
pub fn parse_due(input: &str, today: Date) -> Result<Due, DateError> {
    check_flag_characters(input)?;
    let normalized = normalize(input);
    let tokens: Vec<&str> = normalized.split(' ').filter(|t| !t.is_empty()).collect();
    let start = tokens.iter().take_while(|t| is_preposition(t)).count();
    match match_at(&tokens, start, today, Mode::Flag) {
        Some(Hit::Found(found)) if found.end == tokens.len() => Ok(found.due),
        Some(Hit::Invalid) => Err(DateError::NotADate { input: input.to_owned() }),
        _ => Err(DateError::Unreadable { input: input.to_owned() }),
    }
}

/// Characters a `--due` value may hold besides letters, digits and white space: the
/// separators of dates and times (`10.04`, `2026-12-01`, `2026/12/24`, `15:00`, `May 20,
/// 2026`). Normalization would drop anything else silently, so `tomorrow🎉` or
/// `in -5 days` would be read as `tomorrow` and `in 5 days`; they are refused instead.
const DUE_SEPARATORS: &[char] = &['.', ',', ':', '/', '-', '\'', '’'];

/// Refuses a `--due` value that counts backwards or holds a character no date has.
fn check_flag_characters(input: &str) -> Result<(), DateError> {
    let chars: Vec<char> = input.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let before = if i == 0 { None } else { Some(chars[i - 1]) };
        let after = chars.get(i + 1);
        let minus = matches!(c, '-' | '−' | '–');
        if minus && after.is_some_and(|a| a.is_ascii_digit()) && before.is_none_or(|b| b.is_whitespace()) {
            return Err(DateError::Negative { input: input.to_owned() });
        }
        if !(c.is_alphanumeric() || c.is_whitespace() || DUE_SEPARATORS.contains(c)) {
            return Err(DateError::Junk { input: input.to_owned(), found: *c });
        }
    }
    let words: Vec<String> = input.split_whitespace().map(str::to_lowercase).collect();
    if words.iter().any(|w| w == "minus" || w == "минус") {
        return Err(DateError::Negative { input: input.to_owned() });
    }
    Ok(())
}

/// Finds the due phrase in a title or description, relative to `today`.
///
/// When several phrases occur, an explicit calendar date beats a relative phrase, which
/// beats a weekday; among equals the first wins.
pub fn find_due(text: &str, today: Date) -> Option<Due> {
    find_due_match(&normalize(text), today).map(|m| m.due)
}

/// Finds the due phrase in already normalized text and the tokens it spans.
pub fn find_due_match(normalized: &str, today: Date) -> Option<DueMatch> {
    let tokens = tokens_of(normalized);
    best_match(&tokens, &phrases(&tokens, today))
}

/// Returns every calendar day a text names (normalized text, relative phrases read
/// against `today`), in order of appearance, without repeats. A day range names both
/// ends, in any of its notations: "21–23.05", "May 21–23", «20–24 мая», "del 20 al
/// 24/5" (a bare day number right before or after a date, or before it across `al`,
/// `to`, `по`, takes the date's month). Two tasks about one trip then agree on a day
/// however each writes the range, where [`find_due_match`] reads one end or the other.
pub fn find_dates(normalized: &str, today: Date) -> Vec<Date> {
    let tokens = tokens_of(normalized);
    days_named(&tokens, &phrases(&tokens, today))
}

/// [`find_due_match`] and [`find_dates`] of one text, reading its phrases once (a
/// title is read for both).
pub fn find_due_and_dates(normalized: &str, today: Date) -> (Option<DueMatch>, Vec<Date>) {
    let tokens = tokens_of(normalized);
    let found = phrases(&tokens, today);
    (best_match(&tokens, &found), days_named(&tokens, &found))
}

fn tokens_of(normalized: &str) -> Vec<&str> {
    normalized.split(' ').filter(|t| !t.is_empty()).collect()
}

/// Every phrase of running text, with the token it starts at.
fn phrases(tokens: &[&str], today: Date) -> Vec<(usize, Found)> {
    (0..tokens.len())
        .filter_map(|i| match match_at(tokens, i, today, Mode::Text) {
            Some(Hit::Found(found)) => Some((i, found)),
            _ => None,
        })
        .collect()
}

/// The due phrase among `found`: the first of the highest rank, with the prepositions
/// before it.
fn best_match(tokens: &[&str], found: &[(usize, Found)]) -> Option<DueMatch> {
    let mut best: Option<&(usize, Found)> = None;
    for hit in found {
        if best.is_none_or(|(_, b)| hit.1.rank > b.rank) {
            best = Some(hit);
        }
    }
    best.map(|(i, found)| {
        let start = i - tokens[..*i].iter().rev().take_while(|t| is_preposition(t)).count();
        DueMatch { due: found.due, tokens: (start, found.end) }
    })
}

/// The days `found` names, with the other ends of ranges (see [`find_dates`]).
fn days_named(tokens: &[&str], found: &[(usize, Found)]) -> Vec<Date> {
    let bare_day =
        |k: usize| -> Option<i8> { day_number(tokens.get(k)?).filter(|(_, ordinal)| !ordinal).map(|(day, _)| day) };
    let mut out: Vec<Date> = Vec::new();
    let mut push = |d: Date| {
        if !out.contains(&d) {
            out.push(d);
        }
    };
    for (i, found) in found.iter().filter(|(_, f)| f.due.kind == DueKind::Day) {
        let (i, date) = (*i, found.due.date);
        let other_end = [
            i.checked_sub(1).and_then(bare_day),
            i.checked_sub(2)
                .filter(|_| i >= 1 && matches!(tokens[i - 1], "al" | "to" | "по" | "till"))
                .and_then(bare_day),
            bare_day(found.end),
        ];
        push(date);
        for day in other_end.into_iter().flatten() {
            if let Ok(d) = date.with().day(day).build() {
                push(d);
            }
        }
    }
    out
}

/// Where the tokens come from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The `--due` flag: the input is meant to be a date.
    Flag,
    /// A title or description: only read what is clearly a date.
    Text,
}

/// A phrase read at one position.
struct Found {
    /// The due.
    due: Due,
    /// Index after the phrase's last token.
    end: usize,
    /// `RANK_*` of the phrase.
    rank: u8,
}

/// The outcome of reading at one position.
enum Hit {
    /// A due phrase.
    Found(Found),
    /// A date's shape naming no calendar day.
    Invalid,
}

/// Returns true for words that may stand before a due phrase and are skipped.
fn is_preposition(token: &str) -> bool {
    matches!(
        token,
        "by" | "on"
            | "before"
            | "until"
            | "till"
            | "due"
            | "the"
            | "до"
            | "к"
            | "ко"
            | "в"
            | "во"
            | "на"
            | "el"
            | "la"
            | "antes"
            | "del"
            | "de"
            | "para"
            | "hasta"
            | "a"
            | "al"
    )
}

/// How a word before a weekday shifts it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shift {
    /// The next such day after today.
    Coming,
    /// That weekday in the next calendar week.
    NextWeek,
}

/// Returns the shift a word before a weekday names (`next`, `this`, `следующую` …).
fn weekday_modifier(token: &str) -> Option<Shift> {
    WEEKDAY_MODIFIERS.iter().find(|(w, _)| *w == token).map(|(_, shift)| *shift)
}

/// Words before a weekday that shift it (`next friday`, `в эту пятницу`).
const WEEKDAY_MODIFIERS: &[(&str, Shift)] = &[
    ("this", Shift::Coming),
    ("coming", Shift::Coming),
    ("эту", Shift::Coming),
    ("этот", Shift::Coming),
    ("это", Shift::Coming),
    ("этой", Shift::Coming),
    ("ближайшую", Shift::Coming),
    ("ближайший", Shift::Coming),
    ("ближайшее", Shift::Coming),
    ("este", Shift::Coming),
    ("esta", Shift::Coming),
    ("next", Shift::NextWeek),
    ("следующую", Shift::NextWeek),
    ("следующий", Shift::NextWeek),
    ("следующее", Shift::NextWeek),
    ("следующей", Shift::NextWeek),
    ("след", Shift::NextWeek),
    ("proximo", Shift::NextWeek),
    ("proxima", Shift::NextWeek),
];

/// Case endings of a Russian ordinal day («5-го», «21-е», «к 21-му»), a token of their
/// own once the hyphen is a space.
const RU_ORDINAL_ENDINGS: &[&str] = &["го", "е", "му", "ое", "ого", "ому"];

/// Nouns an ordinal often qualifies that are no day («на 1-е место», «на 2-е сутки»):
/// after one, the ordinal is not read as a day of the month.
const RU_ORDINAL_NOUNS: &[&str] = &[
    "место",
    "места",
    "месте",
    "сутки",
    "суток",
    "лицо",
    "лица",
    "полугодие",
    "полугодия",
    "издание",
    "издания",
    "занятие",
    "задание",
    "поколение",
    "чтение",
    "блюдо",
    "раз",
];

/// Words for "the end of" before a month's name, and whether they need `of` / `de` /
/// `del` before it: English and Spanish ones do ("end of April", "a finales de abril";
/// "the final may be moved" is no date), Russian ones take the month's genitive
/// directly («до конца апреля», «в конце мая»).
const MONTH_END_WORDS: &[(&str, bool)] = &[
    ("end", true),
    ("fin", true),
    ("final", true),
    ("finales", true),
    ("конца", false),
    ("конец", false),
    ("конце", false),
];

/// Words a count phrase starts with (`in 3 days`, `через неделю`, `dentro de 2
/// semanas`; `dentro` only before `de`).
const COUNT_STARTS: &[&str] = &["in", "через", "en", "dentro"];

/// Every word a due phrase's core can start with, besides a token with a digit: the
/// month and weekday words, the weekday modifiers, the count and the fixed relative
/// phrases' first words. [`match_at`] tries nothing else, so a long description's
/// other words are passed over with one lookup.
static PHRASE_STARTS: std::sync::LazyLock<std::collections::HashSet<&'static str>> = std::sync::LazyLock::new(|| {
    let calendar = crate::calendar::WEEKDAY_WORDS
        .iter()
        .map(|(w, _, _)| *w)
        .chain(crate::calendar::MONTH_WORDS.iter().map(|(w, _, _)| *w));
    calendar
        .chain(WEEKDAY_MODIFIERS.iter().map(|(w, _)| *w))
        .chain(COUNT_STARTS.iter().copied())
        .chain(MONTH_END_WORDS.iter().map(|(w, _)| *w))
        .chain(RELATIVE_PHRASES.iter().filter_map(|(words, _)| words.first().copied()))
        .collect()
});

/// Returns false when no due phrase can start at this token (see [`PHRASE_STARTS`]).
fn may_start_phrase(token: &str) -> bool {
    token.bytes().any(|b| b.is_ascii_digit()) || PHRASE_STARTS.contains(token)
}

/// Returns the day of month (1–31) a token names, and whether it carried an ordinal
/// suffix (`5th`, `1st`, `1o` from `1º`).
fn day_number(token: &str) -> Option<(i8, bool)> {
    let digits_end = token.find(|c: char| !c.is_ascii_digit()).unwrap_or(token.len());
    if digits_end == 0 || digits_end > 2 {
        return None;
    }
    let suffix = &token[digits_end..];
    let ordinal = match suffix {
        "" => false,
        "st" | "nd" | "rd" | "th" | "o" => true,
        _ => return None,
    };
    let day: i8 = token[..digits_end].parse().ok()?;
    (1..=31).contains(&day).then_some((day, ordinal))
}

/// Returns a four-digit year token as a year.
fn year_number(token: &str) -> Option<i16> {
    if token.len() != 4 || !token.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let year: i16 = token.parse().ok()?;
    (MIN_YEAR..=MAX_YEAR).contains(&year).then_some(year)
}

/// Returns a small count written in digits or as a word (`3`, `a`, `три`, `dos`).
fn count_word(token: &str) -> Option<i64> {
    if !token.is_empty() && token.chars().all(|c| c.is_ascii_digit()) {
        let n: i64 = token.parse().ok()?;
        return (1..=MAX_RELATIVE_COUNT).contains(&n).then_some(n);
    }
    Some(match token {
        "a" | "an" | "one" | "один" | "одну" | "одна" | "un" | "uno" | "una" => 1,
        "two" | "два" | "две" | "dos" => 2,
        "three" | "три" | "tres" => 3,
        "four" | "четыре" | "cuatro" => 4,
        "five" | "пять" | "cinco" => 5,
        "six" | "шесть" | "seis" => 6,
        "seven" | "семь" | "siete" => 7,
        "eight" | "восемь" | "ocho" => 8,
        "nine" | "девять" | "nueve" => 9,
        "ten" | "десять" | "diez" => 10,
        _ => return None,
    })
}

/// A unit of a relative phrase.
#[derive(Clone, Copy)]
enum Unit {
    /// Days.
    Day,
    /// Weeks.
    Week,
    /// Months.
    Month,
}

/// Returns the unit a token names (`days`, `недели`, `semanas` …).
fn unit_word(token: &str) -> Option<Unit> {
    Some(match token {
        "day" | "days" | "день" | "дня" | "дней" | "dia" | "dias" => Unit::Day,
        "week" | "weeks" | "неделю" | "недели" | "недель" | "неделя" | "semana" | "semanas" => {
            Unit::Week
        }
        "month" | "months" | "месяц" | "месяца" | "месяцев" | "mes" | "meses" => Unit::Month,
        _ => return None,
    })
}

/// A relative due named by a fixed phrase.
#[derive(Clone, Copy)]
enum Relative {
    /// Today (`today`, `eod`, `сегодня`, `hoy`).
    Today,
    /// Tomorrow.
    Tomorrow,
    /// The day after tomorrow.
    DayAfterTomorrow,
    /// Fourteen days from today ("in a fortnight").
    Fortnight,
    /// This week (week kind).
    ThisWeek,
    /// Next week (week kind).
    NextWeek,
    /// The last day of this month.
    EndOfMonth,
    /// The last day of next month.
    EndOfNextMonth,
    /// The coming Saturday (today on a Saturday).
    Weekend,
    /// 31 December of this year.
    EndOfYear,
}

/// Fixed relative phrases, longest first so that `end of the month` wins over `end`.
static RELATIVE_PHRASES: &[(&[&str], Relative)] = &[
    (&["end", "of", "the", "month"], Relative::EndOfMonth),
    (&["end", "of", "the", "week"], Relative::ThisWeek),
    (&["end", "of", "the", "year"], Relative::EndOfYear),
    (&["end", "of", "the", "day"], Relative::Today),
    (&["final", "de", "la", "semana"], Relative::ThisWeek),
    (&["finales", "de", "la", "semana"], Relative::ThisWeek),
    (&["day", "after", "tomorrow"], Relative::DayAfterTomorrow),
    (&["in", "a", "fortnight"], Relative::Fortnight),
    (&["day", "after", "tommorow"], Relative::DayAfterTomorrow),
    (&["end", "of", "month"], Relative::EndOfMonth),
    (&["end", "of", "week"], Relative::ThisWeek),
    (&["end", "of", "year"], Relative::EndOfYear),
    (&["end", "of", "day"], Relative::Today),
    (&["semana", "que", "viene"], Relative::NextWeek),
    // The local words of a Russian speaker abroad, as they say them: Portuguese
    // ("amanhã"), Dutch and German ("morgen", "volgende week"), Greek in Latin and
    // Cyrillic letters ("avrio", «аврио»).
    (&["depois", "de", "amanha"], Relative::DayAfterTomorrow),
    (&["fin", "de", "mes"], Relative::EndOfMonth),
    (&["fin", "del", "mes"], Relative::EndOfMonth),
    (&["final", "de", "mes"], Relative::EndOfMonth),
    (&["final", "del", "mes"], Relative::EndOfMonth),
    (&["finales", "de", "mes"], Relative::EndOfMonth),
    (&["finales", "del", "mes"], Relative::EndOfMonth),
    (&["fin", "de", "ano"], Relative::EndOfYear),
    (&["fin", "del", "ano"], Relative::EndOfYear),
    (&["final", "de", "ano"], Relative::EndOfYear),
    (&["final", "del", "ano"], Relative::EndOfYear),
    (&["final", "de", "semana"], Relative::ThisWeek),
    (&["finales", "de", "semana"], Relative::ThisWeek),
    (&["fin", "del", "dia"], Relative::Today),
    (&["final", "del", "dia"], Relative::Today),
    (&["next", "week"], Relative::NextWeek),
    (&["nxt", "week"], Relative::NextWeek),
    (&["next", "month"], Relative::EndOfNextMonth),
    (&["this", "weekend"], Relative::Weekend),
    (&["fin", "de", "semana"], Relative::Weekend),
    (&["следующем", "месяце"], Relative::EndOfNextMonth),
    (&["следующий", "месяц"], Relative::EndOfNextMonth),
    (&["конец", "месяца"], Relative::EndOfMonth),
    (&["конец", "недели"], Relative::ThisWeek),
    (&["конец", "года"], Relative::EndOfYear),
    (&["this", "week"], Relative::ThisWeek),
    (&["следующей", "неделе"], Relative::NextWeek),
    (&["следующую", "неделю"], Relative::NextWeek),
    (&["следующая", "неделя"], Relative::NextWeek),
    // «до следующей недели», «подождёт до следующей недели».
    (&["следующей", "недели"], Relative::NextWeek),
    (&["след", "неделе"], Relative::NextWeek),
    (&["след", "неделю"], Relative::NextWeek),
    (&["след", "месяце"], Relative::EndOfNextMonth),
    (&["след", "месяц"], Relative::EndOfNextMonth),
    (&["этой", "неделе"], Relative::ThisWeek),
    (&["эту", "неделю"], Relative::ThisWeek),
    (&["конца", "недели"], Relative::ThisWeek),
    (&["концу", "недели"], Relative::ThisWeek),
    (&["конце", "недели"], Relative::ThisWeek),
    (&["конца", "месяца"], Relative::EndOfMonth),
    (&["концу", "месяца"], Relative::EndOfMonth),
    (&["конце", "месяца"], Relative::EndOfMonth),
    (&["конца", "года"], Relative::EndOfYear),
    (&["концу", "года"], Relative::EndOfYear),
    (&["конце", "года"], Relative::EndOfYear),
    (&["конца", "дня"], Relative::Today),
    (&["концу", "дня"], Relative::Today),
    (&["конце", "дня"], Relative::Today),
    (&["proxima", "semana"], Relative::NextWeek),
    (&["semana", "proxima"], Relative::NextWeek),
    (&["esta", "semana"], Relative::ThisWeek),
    (&["pasado", "manana"], Relative::DayAfterTomorrow),
    (&["volgende", "week"], Relative::NextWeek),
    (&["semaine", "prochaine"], Relative::NextWeek),
    (&["apres", "demain"], Relative::DayAfterTomorrow),
    (&["nachste", "woche"], Relative::NextWeek),
    (&["weekend"], Relative::Weekend),
    (&["выходные"], Relative::Weekend),
    (&["выходных"], Relative::Weekend),
    // «к выходным»; «выходными».
    (&["выходным"], Relative::Weekend),
    (&["выходными"], Relative::Weekend),
    (&["today"], Relative::Today),
    (&["tonight"], Relative::Today),
    (&["eod"], Relative::Today),
    (&["сегодня"], Relative::Today),
    (&["hoy"], Relative::Today),
    (&["tomorrow"], Relative::Tomorrow),
    (&["tmrw"], Relative::Tomorrow),
    (&["tmr"], Relative::Tomorrow),
    // Misspellings common enough to be spellings: two letters off ("tommorow") is past
    // the typo reader's one edit (which reads "tomorow" and says so).
    (&["tommorow"], Relative::Tomorrow),
    (&["2morrow"], Relative::Tomorrow),
    (&["2moro"], Relative::Tomorrow),
    (&["седня"], Relative::Today),
    (&["завтра"], Relative::Tomorrow),
    (&["manana"], Relative::Tomorrow),
    (&["послезавтра"], Relative::DayAfterTomorrow),
    (&["hoje"], Relative::Today),
    (&["demain"], Relative::Tomorrow),
    (&["kyou"], Relative::Today),
    (&["ashita"], Relative::Tomorrow),
    (&["asatte"], Relative::DayAfterTomorrow),
    (&["raishuu"], Relative::NextWeek),
    (&["raishu"], Relative::NextWeek),
    (&["aujourdhui"], Relative::Today),
    (&["amanha"], Relative::Tomorrow),
    (&["vandaag"], Relative::Today),
    (&["morgen"], Relative::Tomorrow),
    (&["overmorgen"], Relative::DayAfterTomorrow),
    (&["heute"], Relative::Today),
    (&["ubermorgen"], Relative::DayAfterTomorrow),
    (&["simera"], Relative::Today),
    (&["avrio"], Relative::Tomorrow),
    (&["methavrio"], Relative::DayAfterTomorrow),
    (&["metavrio"], Relative::DayAfterTomorrow),
    (&["симера"], Relative::Today),
    (&["аврио"], Relative::Tomorrow),
    (&["метаврио"], Relative::DayAfterTomorrow),
    (&["eow"], Relative::ThisWeek),
    (&["eom"], Relative::EndOfMonth),
];

/// Words before `mañana` that make it "morning", not "tomorrow" (`por la mañana`,
/// `esta mañana`).
const MORNING_MARKERS: [&str; 3] = ["la", "esta", "cada"];

/// Returns `date + days`, or `None` past jiff's range.
fn add_days(date: Date, days: i64) -> Option<Date> {
    date.checked_add(Span::new().try_days(days).ok()?).ok()
}

/// Returns the Sunday that ends `date`'s Monday–Sunday week.
fn end_of_week(date: Date) -> Option<Date> {
    add_days(date, i64::from(date.weekday().until(Weekday::Sunday)))
}

/// Returns the next `weekday` strictly after `today`.
fn coming_weekday(today: Date, weekday: Weekday) -> Option<Date> {
    let ahead = match today.weekday().until(weekday) {
        0 => 7,
        n => n,
    };
    add_days(today, i64::from(ahead))
}

/// Returns the first day from `today` on, this month or the next two, that is the
/// `day`th of its month and falls on `weekday`, if any (else the pair is read as the
/// weekday alone: "Fri 23" with no Friday the 23rd near is likelier a slip).
fn weekday_with_day(today: Date, weekday: Weekday, day: i8) -> Option<Date> {
    if !(1..=31).contains(&day) {
        return None;
    }
    let first = today.first_of_month();
    (0..3)
        .filter_map(|k| first.checked_add(jiff::Span::new().months(k)).ok())
        .filter_map(|month| month.with().day(day).build().ok())
        .find(|d| *d >= today && d.weekday() == weekday)
}

/// Returns `weekday` in the calendar week after `today`'s.
fn weekday_next_week(today: Date, weekday: Weekday) -> Option<Date> {
    let next_monday = add_days(end_of_week(today)?, 1)?;
    add_days(next_monday, i64::from(Weekday::Monday.until(weekday)))
}

/// Returns the date of a day and month without a year (see
/// [`DAY_MONTH_PAST_TOLERANCE_DAYS`]).
fn resolve_day_month(today: Date, day: i8, month: i8) -> Option<Date> {
    this_or_next_year(today, |year| Date::new(year, month, day).ok())
}

/// Returns `date_in(this year)`, unless it is missing or more than
/// [`DAY_MONTH_PAST_TOLERANCE_DAYS`] before `today`, then `date_in(next year)`.
fn this_or_next_year(today: Date, date_in: impl Fn(i16) -> Option<Date>) -> Option<Date> {
    let earliest = add_days(today, -DAY_MONTH_PAST_TOLERANCE_DAYS)?;
    match date_in(today.year()) {
        Some(date) if date >= earliest => Some(date),
        _ => date_in(today.year().checked_add(1)?),
    }
}

/// Returns the last day of a month named without a year: this year's, unless that is
/// more than [`DAY_MONTH_PAST_TOLERANCE_DAYS`] ago, then next year's.
fn resolve_month_end(today: Date, month: i8) -> Option<Date> {
    this_or_next_year(today, |year| Some(Date::new(year, month, 1).ok()?.last_of_month()))
}

/// Returns the next date on or after `today` with day of month `day`, clamped to the
/// month's last day.
fn resolve_day_of_month(today: Date, day: i8) -> Option<Date> {
    let first = today.first_of_month();
    let month = if day >= today.day() { first } else { first.checked_add(Span::new().try_months(1).ok()?).ok()? };
    Date::new(month.year(), month.month(), day.min(month.days_in_month())).ok()
}

/// Returns the due a fixed relative phrase names.
fn resolve_relative(today: Date, relative: Relative) -> Option<Due> {
    let day = |date| Due { date, kind: DueKind::Day };
    let week = |date| Due { date, kind: DueKind::Week };
    Some(match relative {
        Relative::Today => day(today),
        Relative::Tomorrow => day(add_days(today, 1)?),
        Relative::DayAfterTomorrow => day(add_days(today, 2)?),
        Relative::Fortnight => day(add_days(today, 14)?),
        Relative::ThisWeek => week(end_of_week(today)?),
        Relative::NextWeek => week(add_days(end_of_week(today)?, 7)?),
        Relative::EndOfMonth => day(today.last_of_month()),
        Relative::EndOfNextMonth => {
            day(today.first_of_month().checked_add(Span::new().try_months(1).ok()?).ok()?.last_of_month())
        }
        Relative::Weekend => day(add_days(today, i64::from(today.weekday().until(Weekday::Saturday)))?),
        Relative::EndOfYear => day(today.last_of_year()),
    })
}

/// Returns true when the token names a currency, so that a number beside it is an
/// amount, not a date.
fn is_currency_token(token: &str) -> bool {
    crate::amount::is_currency_word(token)
}

/// Reads a due phrase whose core starts at token `i`.
fn match_at(t: &[&str], i: usize, today: Date, mode: Mode) -> Option<Hit> {
    if !may_start_phrase(t.get(i)?) {
        return None;
    }
    match_at_unfiltered(t, i, today, mode)
}

/// [`match_at`] without its first-word filter (a test holds the filter exact).
fn match_at_unfiltered(t: &[&str], i: usize, today: Date, mode: Mode) -> Option<Hit> {
    let token = *t.get(i)?;
    let prev = |k: usize| i.checked_sub(k).and_then(|j| t.get(j).copied());
    // `the` alone does not qualify a word (`the sun icon`, `the 5th floor`); `by the`,
    // `before the` do.
    let after_preposition = match prev(1) {
        Some("the") => prev(2).is_some_and(|p| p != "the" && is_preposition(p)),
        Some(p) => is_preposition(p),
        None => false,
    };
    let found = |due: Option<Due>, end: usize, rank: u8| due.map(|due| Hit::Found(Found { due, end, rank }));
    let day = |date: Option<Date>| date.map(|date| Due { date, kind: DueKind::Day });

    if let Some(hit) = match_numeric_date(t, i, today, mode) {
        return Some(hit);
    }
    if let Some(hit) = match_day_month(t, i, today) {
        return Some(hit);
    }

    // A day of month alone.
    if let Some((d, ordinal)) = day_number(token) {
        let ru_day_word = matches!(t.get(i + 1).copied(), Some("числа" | "число" | "числу"));
        // «до 5-го», «на 21-е», «к 21-му»: the ordinal's case ending is a token of its own
        // by now; after a preposition it is a day («21-е место» is not), unless a noun
        // it qualifies follows («на 1-е место», «на 2-е сутки»).
        let ru_ordinal = t.get(i + 1).is_some_and(|e| RU_ORDINAL_ENDINGS.contains(e))
            && !t.get(i + 2).is_some_and(|n| RU_ORDINAL_NOUNS.contains(n))
            && (after_preposition || mode == Mode::Flag);
        let en_ordinal = ordinal && (after_preposition || mode == Mode::Flag);
        let es_day = !ordinal
            && matches!(prev(1), Some("del" | "el"))
            && matches!(prev(2), Some("antes" | "hasta" | "para"))
            && !t.get(i + 1).is_some_and(|n| is_currency_token(n));
        if ru_day_word || ru_ordinal {
            return found(day(resolve_day_of_month(today, d)), i + 2, RANK_CALENDAR);
        }
        if en_ordinal || es_day {
            return found(day(resolve_day_of_month(today, d)), i + 1, RANK_CALENDAR);
        }
    }

    // In N days / через N недель / en N días / dentro de N semanas.
    let count_at = match token {
        "dentro" => (t.get(i + 1) == Some(&"de")).then_some(i + 2),
        _ => COUNT_STARTS.contains(&token).then_some(i + 1),
    };
    if let Some(at) = count_at {
        let explicit = t.get(at).and_then(|w| count_word(w));
        let (n, unit_at) = match explicit {
            Some(n) => (Some(n), at + 1),
            // `через неделю`, `через месяц`: one of the unit.
            None if token == "через" => (Some(1), at),
            None => (None, at),
        };
        if let (Some(n), Some(unit)) = (n, t.get(unit_at).and_then(|w| unit_word(w))) {
            let date = match unit {
                Unit::Day => add_days(today, n),
                Unit::Week => add_days(today, n.checked_mul(7)?),
                Unit::Month => Span::new().try_months(n).ok().and_then(|s| today.checked_add(s).ok()),
            };
            return found(day(date), unit_at + 1, RANK_RELATIVE);
        }
    }

    // The end of a named month: "end of April", «до конца апреля», "a finales de abril".
    if let Some((_, needs_of)) = MONTH_END_WORDS.iter().find(|(w, _)| *w == token) {
        let month_at = match (needs_of, t.get(i + 1).copied(), t.get(i + 2).copied()) {
            (false, _, _) => Some(i + 1),
            (true, Some("of"), Some("the")) => Some(i + 3),
            (true, Some("of" | "de" | "del"), _) => Some(i + 2),
            (true, _, _) => None,
        };
        // A month word that is often another word (`march`, `may`) counts only right
        // after `of`: "the end of the march" is a protest's.
        let month = month_at.and_then(|at| t.get(at)).and_then(|w| month_word(w));
        if let (Some(at), Some((month, other_word))) = (month_at, month)
            && (!other_word || at == i + 2)
        {
            return found(day(resolve_month_end(today, month)), at + 1, RANK_CALENDAR);
        }
    }

    for (words, relative) in RELATIVE_PHRASES {
        if t.get(i..i + words.len()) == Some(words) {
            if words == &["manana"] && prev(1).is_some_and(|p| MORNING_MARKERS.contains(&p)) {
                continue;
            }
            // "on weekends", «в выходные не шуметь»: in running text a weekend is a
            // rule's time more often than a due date; as a flag it is the coming Saturday.
            if matches!(relative, Relative::Weekend) && mode == Mode::Text {
                continue;
            }
            return found(resolve_relative(today, *relative), i + words.len(), RANK_RELATIVE);
        }
    }

    // [next|this] weekday.
    let (shift, wd_at) = match weekday_modifier(token) {
        Some(shift) => (Some(shift), i + 1),
        None => (None, i),
    };
    if let Some((weekday, needs_context)) = t.get(wd_at).and_then(|w| weekday_word(w)) {
        let qualified = shift.is_some() || after_preposition || mode == Mode::Flag;
        if !needs_context || qualified {
            // A weekday with its day of the month ("el viernes 22", "Fri 22", "Fri
            // 22nd") is that day: the first one from today on that falls on this weekday.
            if shift.is_none()
                && let Some((d, _)) = t.get(wd_at + 1).and_then(|n| day_number(n))
                && let Some(date) = weekday_with_day(today, weekday, d)
            {
                return found(Some(Due { date, kind: DueKind::Day }), wd_at + 2, RANK_WEEKDAY);
            }
            let date = match shift {
                Some(Shift::NextWeek) => weekday_next_week(today, weekday),
                Some(Shift::Coming) | None => coming_weekday(today, weekday),
            };
            return found(day(date), wd_at + 1, RANK_WEEKDAY);
        }
    }
    None
}

/// Reads `2026-12-01`, `10.04`, `10.04.2026`, `10.04.26` at token `i`.
fn match_numeric_date(t: &[&str], i: usize, today: Date, mode: Mode) -> Option<Hit> {
    let token = t[i];
    let found =
        |date: Date| Hit::Found(Found { due: Due { date, kind: DueKind::Day }, end: i + 1, rank: RANK_CALENDAR });
    let parts: Vec<&str> = token.split('-').collect();
    if let [y, m, d] = parts[..]
        && y.len() == 4
        && m.len() == 2
        && d.len() == 2
        && token.chars().all(|c| c.is_ascii_digit() || c == '-')
    {
        let (y, m, d) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
        if far_in_text(today, y, mode) {
            return None;
        }
        return Some(Date::new(y, m, d).map_or(Hit::Invalid, found));
    }
    if let Some(hit) = match_slash_date(token, i, today, mode) {
        return Some(hit);
    }
    let parts: Vec<&str> = token.split('.').collect();
    if !(2..=3).contains(&parts.len()) || parts.iter().any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let (d, m) = (parts[0], parts[1]);
    let year_part = parts.get(2).copied();
    if d.len() > 2 || m.len() > 2 {
        return None;
    }
    if mode == Mode::Text {
        let beside_amount = [i.checked_sub(1), Some(i + 1)]
            .into_iter()
            .flatten()
            .filter_map(|j| t.get(j))
            .any(|n| is_currency_token(n));
        if beside_amount || (m.len() != 2 && year_part.is_none()) {
            return None;
        }
    }
    let (d, m): (i8, i8) = (d.parse().ok()?, m.parse().ok()?);
    let year = match year_part {
        None => None,
        Some(y) if y.len() == 4 => Some(y.parse::<i16>().ok()?),
        Some(y) if y.len() == 2 => Some(TWO_DIGIT_YEAR_BASE + y.parse::<i16>().ok()?),
        Some(_) => return None,
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return (mode == Mode::Flag).then_some(Hit::Invalid);
    }
    // In running text a dotted date's year is near: "4.1.86" and "2.10.19" are versions
    // ("Bump netty to 4.1.86"), «договор от 12.03.2019» a reference, not a due date.
    if year.is_some_and(|y| far_in_text(today, y, mode)) {
        return None;
    }
    let date = match year {
        Some(y) => Date::new(y, m, d).ok(),
        None => resolve_day_month(today, d, m),
    };
    Some(date.map_or(Hit::Invalid, found))
}

/// Returns true when a numeric date in running text names a year too far from today to
/// be a due date ([`TEXT_YEARS_BACK`], [`TEXT_YEARS_AHEAD`]); a flag takes any year.
fn far_in_text(today: Date, year: i16, mode: Mode) -> bool {
    mode == Mode::Text && !(today.year() - TEXT_YEARS_BACK..=today.year() + TEXT_YEARS_AHEAD).contains(&year)
}

/// Reads `2026/12/24`, and `19/03` or `19/03/2026` where the first number is above 12:
/// only then is day/month certain (`03/04` is the 3rd of April in Europe and March 4th
/// in the US, so it is refused).
fn match_slash_date(token: &str, i: usize, today: Date, mode: Mode) -> Option<Hit> {
    let parts: Vec<&str> = token.split('/').collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit())) {
        return None;
    }
    let found =
        |date: Date| Hit::Found(Found { due: Due { date, kind: DueKind::Day }, end: i + 1, rank: RANK_CALENDAR });
    let num = |p: &str| p.parse::<i16>().ok();
    match parts[..] {
        [y, m, d] if y.len() == 4 => {
            let (y, m, d) = (num(y)?, num(m)?, num(d)?);
            if far_in_text(today, y, mode) {
                return None;
            }
            Some(Date::new(y, i8::try_from(m).ok()?, i8::try_from(d).ok()?).map_or(Hit::Invalid, found))
        }
        [d, m] | [d, m, _] if d.len() <= 2 && m.len() <= 2 => {
            let (d, m) = (num(d)?, num(m)?);
            if d <= 12 {
                // Day and month could be swapped: never guess.
                return (mode == Mode::Flag).then_some(Hit::Invalid);
            }
            let (d, m) = (i8::try_from(d).ok()?, i8::try_from(m).ok()?);
            if !(1..=12).contains(&m) || d > 31 {
                return (mode == Mode::Flag).then_some(Hit::Invalid);
            }
            let date = match parts.get(2) {
                Some(y) if y.len() == 4 && far_in_text(today, num(y)?, mode) => return None,
                Some(y) if y.len() == 4 => Date::new(num(y)?, m, d).ok(),
                Some(_) => None,
                None => resolve_day_month(today, d, m),
            };
            Some(date.map_or(Hit::Invalid, found))
        }
        _ => None,
    }
}

/// Reads `20 мая`, `5 de mayo [de 2026]`, `3 May`, `Apr 20`, `April 20th 2026` at `i`.
fn match_day_month(t: &[&str], i: usize, today: Date) -> Option<Hit> {
    let token = t[i];
    let (d, month, mut end) = if let Some((d, _)) = day_number(token) {
        let mut at = i + 1;
        // A day range, "22–24 апреля" / "22–24 de abril" (the dash is a space by now):
        // read as its first day, as "Apr 22–24" is, so one trip is one date however
        // it is written.
        if let Some((d2, _)) = t.get(at).and_then(|x| day_number(x))
            && d2 > d
        {
            at += 1;
        }
        // «на 8-е марта», «до 5-го мая»: the ordinal's ending stands between.
        if t.get(at) == Some(&"de") || t.get(at).is_some_and(|e| RU_ORDINAL_ENDINGS.contains(e)) {
            at += 1;
        }
        (d, month_word(t.get(at)?)?.0, at + 1)
    } else {
        let month = month_word(token)?.0;
        let (d, _) = day_number(t.get(i + 1)?)?;
        (d, month, i + 2)
    };
    let mut year = None;
    let year_at = if t.get(end) == Some(&"de") { end + 1 } else { end };
    if let Some(y) = t.get(year_at).and_then(|y| year_number(y)) {
        year = Some(y);
        end = year_at + 1;
    }
    let date = match year {
        Some(y) => Date::new(y, month, d).ok(),
        None => resolve_day_month(today, d, month),
    };
    Some(match date {
        Some(date) => Hit::Found(Found { due: Due { date, kind: DueKind::Day }, end, rank: RANK_CALENDAR }),
        None => Hit::Invalid,
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn common_misspellings_of_tomorrow_today_and_next_are_spellings() {
        let today = jiff::civil::date(2026, 5, 1); // a Friday
        let due = |t: &str| super::find_due_match(&crate::normalize(t), today).map(|m| m.due.date);
        assert_eq!(due("buy oil tommorow"), Some(jiff::civil::date(2026, 5, 2)));
        assert_eq!(due("call mum day after tommorow"), Some(jiff::civil::date(2026, 5, 3)));
        assert_eq!(due("call mum 2moro"), Some(jiff::civil::date(2026, 5, 2)));
        assert_eq!(due("позвонить маме сёдня"), Some(today));
        assert_eq!(due("call mum nxt week"), due("call mum next week"));
        assert!(due("call mum nxt week").is_some());
    }

    #[test]
    fn a_weekday_with_its_day_of_the_month_is_that_day() {
        let today = jiff::civil::date(2026, 5, 1); // a Friday
        let due = |t: &str| super::find_due_match(&crate::normalize(t), today).map(|m| m.due.date);
        assert_eq!(due("Reservar cena para el equipo el viernes 22"), Some(jiff::civil::date(2026, 5, 22)));
        assert_eq!(due("Dinner with the team on Fri 22"), Some(jiff::civil::date(2026, 5, 22)));
        assert_eq!(due("Dinner with the team on Fri 22nd"), Some(jiff::civil::date(2026, 5, 22)));
        assert_eq!(due("Cena con el equipo el viernes 22º"), Some(jiff::civil::date(2026, 5, 22)));
        // No Friday the 23rd this month or the next two: the weekday alone.
        assert_eq!(due("Dinner with the team on Fri 23"), Some(jiff::civil::date(2026, 5, 8)));
        // A day and a month still win: "Friday 22 May".
        assert_eq!(due("Dinner on Friday 22 May"), Some(jiff::civil::date(2026, 5, 22)));
    }

    #[test]
    fn a_range_names_both_ends_in_every_notation() {
        let today = jiff::civil::date(2026, 5, 1);
        let days = |t: &str| super::find_dates(&crate::normalize(t), today);
        let may = |d: i8| jiff::civil::date(2026, 5, d);
        for t in ["room, 21–23.05 — 1 350 ₾", "team week (May 21–23)", "гостиница 21–23 мая", "del 21 al 23/5"]
        {
            let found = days(t);
            assert!(found.contains(&may(21)) && found.contains(&may(23)), "{t}: {found:?}");
        }
        // Every date of a text, not only the first: "Riga 17–21 Jun — prepay by 1 June".
        let found = days("Hotel Riga 17–21 Jun — prepay 1.200,50 € by 1 June");
        assert!(found.contains(&jiff::civil::date(2026, 6, 1)), "{found:?}");
        // A number that is no day stays out: an amount, a count.
        assert_eq!(days("Pay 850 to Giorgi by 1.05"), vec![may(1)]);
        assert_eq!(days("Order 6 chairs"), vec![]);
    }

    use super::*;
    use jiff::civil::date;

    /// Wednesday 2026-04-01: the fixed "today" of every case.
    const TODAY: Date = date(2026, 4, 1);

    fn day(y: i16, m: i8, d: i8) -> Option<Due> {
        Some(Due { date: date(y, m, d), kind: DueKind::Day })
    }

    fn week(y: i16, m: i8, d: i8) -> Option<Due> {
        Some(Due { date: date(y, m, d), kind: DueKind::Week })
    }

    fn check(input: &str, expected: Option<Due>) {
        assert_eq!(parse_due(input, TODAY).ok(), expected, "parse_due({input:?})");
    }

    fn check_text(text: &str, expected: Option<Due>) {
        assert_eq!(find_due(text, TODAY), expected, "find_due({text:?})");
    }

    /// The date notations of issue 16: a relayed task writes the same day another way.
    #[test]
    fn one_day_in_several_notations() {
        let march7 = day(2026, 3, 7);
        check_text("Оплатить до 7 марта", march7);
        check_text("Pay by March 7", march7);
        check_text("pagar antes del 7 de marzo", march7);
        check_text("pay by 07.03", march7);
        let march19 = day(2026, 3, 19);
        check_text("pay by 19/03", march19);
        check_text("оплатить до 19.03", march19);
        // 03/04 is the 3rd of April in Europe and March 4th in the US: not read.
        check_text("pay by 03/04", None);
    }

    #[test]
    fn today_is_a_wednesday() {
        assert_eq!(TODAY.weekday(), Weekday::Wednesday);
    }

    #[test]
    fn flag_english() {
        check("2026-12-01", day(2026, 12, 1));
        check("today", day(2026, 4, 1));
        check("eod", day(2026, 4, 1));
        check("tomorrow", day(2026, 4, 2));
        check("day after tomorrow", day(2026, 4, 3));
        check("friday", day(2026, 4, 3));
        check("Fri", day(2026, 4, 3));
        check("on friday", day(2026, 4, 3));
        check("by Friday", day(2026, 4, 3));
        check("wednesday", day(2026, 4, 8));
        check("tuesday", day(2026, 4, 7));
        check("mon", day(2026, 4, 6));
        check("sun", day(2026, 4, 5));
        check("next friday", day(2026, 4, 10));
        check("next wednesday", day(2026, 4, 8));
        check("this friday", day(2026, 4, 3));
        check("next week", week(2026, 4, 12));
        check("this week", week(2026, 4, 5));
        check("end of week", week(2026, 4, 5));
        check("by the end of the week", week(2026, 4, 5));
        check("end of month", day(2026, 4, 30));
        check("end of April", day(2026, 4, 30));
        check("by the end of May", day(2026, 5, 31));
        check("end of the month", day(2026, 4, 30));
        check("end of year", day(2026, 12, 31));
        check("in 3 days", day(2026, 4, 4));
        check("in 2 weeks", day(2026, 4, 15));
        check("in a week", day(2026, 4, 8));
        check("in 1 month", day(2026, 5, 1));
        check("May 20", day(2026, 5, 20));
        check("20 May 2027", day(2027, 5, 20));
        check("April 20th", day(2026, 4, 20));
        check("the 5th", day(2026, 4, 5));
        check("before the 5th", day(2026, 4, 5));
        check("the 1st", day(2026, 4, 1));
        check("10.04", day(2026, 4, 10));
        check("3.5", day(2026, 5, 3));
        check("10.04.2027", day(2027, 4, 10));
        check("10.04.27", day(2027, 4, 10));
    }

    #[test]
    fn flag_russian() {
        check("сегодня", day(2026, 4, 1));
        check("завтра", day(2026, 4, 2));
        check("послезавтра", day(2026, 4, 3));
        check("в пятницу", day(2026, 4, 3));
        check("пятница", day(2026, 4, 3));
        check("до пятницы", day(2026, 4, 3));
        check("к пятнице", day(2026, 4, 3));
        check("в среду", day(2026, 4, 8));
        check("во вторник", day(2026, 4, 7));
        check("в следующую пятницу", day(2026, 4, 10));
        check("через неделю", day(2026, 4, 8));
        check("через 3 дня", day(2026, 4, 4));
        check("через две недели", day(2026, 4, 15));
        check("через месяц", day(2026, 5, 1));
        check("до конца недели", week(2026, 4, 5));
        check("до конца месяца", day(2026, 4, 30));
        check("к концу года", day(2026, 12, 31));
        check("на следующей неделе", week(2026, 4, 12));
        check("до следующей недели", week(2026, 4, 12));
        check("на этой неделе", week(2026, 4, 5));
        check("20 мая", day(2026, 5, 20));
        check("к 20 мая", day(2026, 5, 20));
        check("до 10.04", day(2026, 4, 10));
        check("до 5 числа", day(2026, 4, 5));
        check("до 5-го", day(2026, 4, 5));
        check("к 21-му", day(2026, 4, 21));
        check("на 21-е", day(2026, 4, 21));
        check("до конца апреля", day(2026, 4, 30));
        check("конец мая", day(2026, 5, 31));
        check("Ё-моё", None);
    }

    #[test]
    fn flag_spanish() {
        check("hoy", day(2026, 4, 1));
        check("mañana", day(2026, 4, 2));
        check("pasado mañana", day(2026, 4, 3));
        check("el lunes", day(2026, 4, 6));
        check("antes del viernes", day(2026, 4, 3));
        check("el miércoles", day(2026, 4, 8));
        check("la próxima semana", week(2026, 4, 12));
        check("la semana que viene", week(2026, 4, 12));
        check("el próximo viernes", day(2026, 4, 10));
        check("en 3 días", day(2026, 4, 4));
        check("dentro de dos semanas", day(2026, 4, 15));
        check("a fin de mes", day(2026, 4, 30));
        check("5 de mayo", day(2026, 5, 5));
        check("el 5 de mayo de 2027", day(2027, 5, 5));
        check("antes del 5", day(2026, 4, 5));
        check("a finales de abril", day(2026, 4, 30));
        check("fin de mayo", day(2026, 5, 31));
    }

    /// The local words of a Russian speaker abroad (today is Wednesday 2026-04-01).
    #[test]
    fn flag_local_words_abroad() {
        check("amanhã", day(2026, 4, 2));
        check("depois de amanhã", day(2026, 4, 3));
        check("hoje", day(2026, 4, 1));
        check("morgen", day(2026, 4, 2));
        check("overmorgen", day(2026, 4, 3));
        check("übermorgen", day(2026, 4, 3));
        check("volgende week", week(2026, 4, 12));
        check("nächste Woche", week(2026, 4, 12));
        check("vrijdag", day(2026, 4, 3));
        check("Freitag", day(2026, 4, 3));
        check("maandag", day(2026, 4, 6));
        check("avrio", day(2026, 4, 2));
        check("аврио", day(2026, 4, 2));
        check("methavrio", day(2026, 4, 3));
        check("demain", day(2026, 4, 2));
        check("in a fortnight", day(2026, 4, 15));
        check("ashita", day(2026, 4, 2));
        check("raishuu", week(2026, 4, 12));
        check("après-demain", day(2026, 4, 3));
        check("vendredi", day(2026, 4, 3));
        check("la semaine prochaine", week(2026, 4, 12));
    }

    #[test]
    fn year_and_month_rollover() {
        // More than DAY_MONTH_PAST_TOLERANCE_DAYS ago: next year.
        check("10.01", day(2027, 1, 10));
        check("10 февраля", day(2027, 2, 10));
        // Within the tolerance: this year, overdue.
        check("28.03", day(2026, 3, 28));
        check("Mar 20", day(2026, 3, 20));
        // Day of month already past: next month; a missing day clamps.
        assert_eq!(parse_due("the 31st", date(2026, 4, 1)).ok(), day(2026, 4, 30));
        assert_eq!(parse_due("the 3rd", date(2026, 4, 20)).ok(), day(2026, 5, 3));
        assert_eq!(parse_due("end of month", date(2028, 2, 10)).ok(), day(2028, 2, 29));
        assert_eq!(parse_due("friday", date(2026, 4, 3)).ok(), day(2026, 4, 10));
        assert_eq!(parse_due("next week", date(2026, 4, 5)).ok(), week(2026, 4, 12));
        assert_eq!(parse_due("end of week", date(2026, 4, 5)).ok(), week(2026, 4, 5));
        assert_eq!(parse_due("tomorrow", date(2026, 12, 31)).ok(), day(2027, 1, 1));
    }

    #[test]
    fn flag_refuses_negative_counts_and_junk() {
        let today = jiff::civil::date(2026, 12, 1);
        let refused = |input: &str| parse_due(input, today).expect_err(input);
        assert!(matches!(refused("in -5 days"), DateError::Negative { .. }));
        assert!(matches!(refused("через -3 дня"), DateError::Negative { .. }));
        assert!(matches!(refused("in −2 weeks"), DateError::Negative { .. }));
        assert!(matches!(refused("через минус 3 дня"), DateError::Negative { .. }));
        assert!(matches!(refused("tomorrow🎉"), DateError::Junk { found: '🎉', .. }));
        assert!(matches!(refused("завтра😀"), DateError::Junk { .. }));
        assert!(matches!(refused("friday!!!"), DateError::Junk { found: '!', .. }));
        assert!(matches!(refused("next\u{1b}[31mweek"), DateError::Junk { .. }));
        // Separators of real dates are not junk, nor a hyphen inside one.
        for ok in ["2026-12-24", "10.04", "May 20, 2027", "tomorrow"] {
            assert!(parse_due(ok, today).is_ok(), "{ok}");
        }
    }

    #[test]
    fn flag_errors() {
        let err = |input: &str| parse_due(input, TODAY).map_err(|e| e.to_string());
        assert_eq!(err("next fryday"), Err("cannot read \"next fryday\" as a date".into()));
        assert_eq!(err(""), Err("cannot read \"\" as a date".into()));
        assert_eq!(err("by"), Err("cannot read \"by\" as a date".into()));
        assert_eq!(err("friday please"), Err("cannot read \"friday please\" as a date".into()));
        assert_eq!(err("2026-02-30"), Err("\"2026-02-30\" is not a calendar date".into()));
        assert_eq!(err("31.04"), Err("\"31.04\" is not a calendar date".into()));
        assert_eq!(err("40.04"), Err("\"40.04\" is not a calendar date".into()));
        assert_eq!(err("in 5000 days"), Err("cannot read \"in 5000 days\" as a date".into()));
        assert!(DateError::Unreadable { input: String::new() }.hint().contains("через неделю"));
    }

    #[test]
    fn text_phrases() {
        check_text("Send the invoice for the deck by Friday", day(2026, 4, 3));
        check_text("Раскладка плитки — решить до пятницы", day(2026, 4, 3));
        check_text("Прислать Ирине концепции вывески к 20 апреля", day(2026, 4, 20));
        check_text("Сдать 1 500 руб. на экскурсию до 10.04", day(2026, 4, 10));
        check_text("Presupuesto web — Javier lo espera el lunes", day(2026, 4, 6));
        check_text("Hacer la web antes del viernes", day(2026, 4, 3));
        check_text("Landing hero — need it before the 5th", day(2026, 4, 5));
        check_text("Invoice Q2 — $700 by end of month", day(2026, 4, 30));
        check_text("ship it EOD", day(2026, 4, 1));
        check_text("Варианты обложки меню — прислать к среде", day(2026, 4, 8));
        check_text("podcast rec w/ Max thu 7pm", day(2026, 4, 2));
        check_text("draft by Thu", day(2026, 4, 2));
        check_text("Pay self-employed tax for March (due Apr 28)", day(2026, 4, 28));
        check_text("OSAGO renewal — policy expires May 3", day(2026, 5, 3));
        check_text("Созвон: вывеска — чт 23.04, 15:00", day(2026, 4, 23));
        check_text("Prep for review (Thu 30 Apr, 16:00 MSK)", day(2026, 4, 30));
        check_text("Сдать учебники до конца недели", week(2026, 4, 5));
        check_text("factura anticipo 1500 EUR — ¿hoy?", day(2026, 4, 1));
        check_text("Купить билеты на поезд на 10 июля", day(2026, 7, 10));
        check_text("Deadline 2026-05-15", day(2026, 5, 15));
        check_text("Цветы маме на 21-е — заказать доставку", day(2026, 4, 21));
        check_text("Отчёт к 15-му", day(2026, 4, 15));
        check_text("Записаться на техосмотр до конца апреля", day(2026, 4, 30));
        check_text("ITV by the end of April", day(2026, 4, 30));
        check_text("Renovar el seguro a finales de febrero", day(2027, 2, 28));
        check_text("Закрыть счета в конце мая", day(2026, 5, 31));
        check_text("Close the books at the end of the month", day(2026, 4, 30));
        check_text("Подарок на 8-е марта", day(2026, 3, 8));
        check_text("Подарок на 8-е мая", day(2026, 5, 8));
        check_text("Сдать до 5-го мая", day(2026, 5, 5));
        check_text("Paperwork by the end of May", day(2026, 5, 31));
        check_text("Сдать до 3-го", day(2026, 4, 3));
    }

    #[test]
    fn text_non_phrases() {
        check_text("Back up the laptop to the SSD", None);
        check_text("Предупредить бригаду: в выходные не шуметь до 10:00", None);
        check_text("no drilling before 10 on weekends", None);
        // «к выходным»: by the coming Saturday.
        check("к выходным", day(2026, 4, 4));
        check("выходными", day(2026, 4, 4));
        // «след» for «следующей»: the week after this one, as «следующая неделя».
        assert_eq!(parse_due("на след неделю", TODAY).ok(), parse_due("на следующую неделю", TODAY).ok());
        assert!(parse_due("на след неделю", TODAY).is_ok());
        assert_eq!(parse_due("в след месяце", TODAY).ok(), parse_due("в следующем месяце", TODAY).ok());
        check_text("Купить 3.5 кг краски", None);
        check_text("Pay $1.10 fee", None);
        check_text("Hacer los ejercicios del tema 7", None);
        check_text("Reissue the card (expires 05/26)", None);
        check_text("Тестовая среда для стенда", None);
        check_text("Review the sun icon", None);
        check_text("Ask Domingo about prints", None);
        check_text("desayuno por la mañana", None);
        check_text("you may 2x the price", None);
        check_text("the 5th floor lamp", None);
        check_text("Пробить чеки в «Мой налог» за март", None);
        check_text("Столик на 5 человек", None);
        check_text("Занять 21-е место в очереди", None);
        check_text("The end of an era", None);
        check_text("The end may justify it", None);
        check_text("the final may be moved", None);
        check_text("Photos from the end of the march", None);
        check_text("Вышли на 1-е место", None);
        check_text("Выписка на 2-е сутки", None);
        // A dotted "date" whose year is far off is a version or a reference.
        check_text("Bump netty to the latest 4.1.86", None);
        check_text("Upgrade Netty to 4.1.89.Final", None);
        check_text("Fix the regression from 2.10.19", None);
        check_text("Копия договора от 12.03.2019", None);
    }

    /// A numeric date with a near year is still a date in text: one year back, five
    /// ahead (today is 1 April 2026 here); a flag takes any year.
    #[test]
    fn a_numeric_date_in_text_names_a_near_year() {
        check_text("Оплатить до 10.04.26", day(2026, 4, 10));
        check_text("Pay by 10.04.2027", day(2027, 4, 10));
        check_text("Сдать отчёт за 15.12.25", day(2025, 12, 15));
        check_text("Renew by 10.04.2025", day(2025, 4, 10));
        check_text("Renew by 10.04.2031", day(2031, 4, 10));
        check_text("Renew by 10.04.2024", None);
        check_text("Renew by 10.04.2032", None);
        check_text("Копия договора от 19/03/2019", None);
        check_text("Since the 2019-03-12 release", None);
        check_text("Deploy on 2026-05-12", day(2026, 5, 12));
        check("10.04.2035", day(2035, 4, 10));
        check("2019-03-12", day(2019, 3, 12));
    }

    #[test]
    fn a_day_range_is_its_first_day_in_either_order() {
        check_text("Book flights Madrid–Lisbon (Apr 22–24)", day(2026, 4, 22));
        check_text("Mirar vuelos a Lisboa, 22–24 de abril", day(2026, 4, 22));
        check_text("Купить билеты на 1–5 апреля", day(2026, 4, 1));
    }

    #[test]
    fn text_picks_the_most_specific() {
        check_text("Созвон в четверг, 9 апреля", day(2026, 4, 9));
        check_text("tomorrow or friday", day(2026, 4, 2));
        check_text("friday, then monday", day(2026, 4, 3));
        check_text("Пятница: тестовая среда", day(2026, 4, 3));
        check_text("в среду", day(2026, 4, 8));
    }

    /// The first-word filter of `match_at` is exact: where it passes a token over, the
    /// full reading finds nothing either — for every token of a vocabulary of phrase
    /// words, numbers and others, before every pair of them, after each of a few
    /// prepositions.
    #[test]
    fn the_first_word_filter_loses_no_phrase() {
        let vocabulary = [
            "by",
            "the",
            "до",
            "к",
            "на",
            "antes",
            "del",
            "el",
            "end",
            "final",
            "finales",
            "конец",
            "конце",
            "of",
            "week",
            "month",
            "mes",
            "fin",
            "de",
            "la",
            "semana",
            "que",
            "viene",
            "конца",
            "недели",
            "месяца",
            "day",
            "after",
            "tomorrow",
            "завтра",
            "manana",
            "pasado",
            "today",
            "hoy",
            "сегодня",
            "го",
            "е",
            "му",
            "числа",
            "al",
            "dentro",
            "in",
            "через",
            "en",
            "days",
            "dias",
            "дня",
            "дней",
            "weeks",
            "недель",
            "next",
            "следующую",
            "proximo",
            "this",
            "эту",
            "friday",
            "пятницу",
            "sat",
            "may",
            "мая",
            "mar",
            "ago",
            "3",
            "21",
            "5th",
            "10.04",
            "19/03",
            "2026-05-15",
            "two",
            "две",
            "fee",
            "lamp",
            "$",
            "€",
        ];
        let mut checked = 0;
        for before in [None, Some("by"), Some("на")] {
            for token in vocabulary.iter().filter(|t| !may_start_phrase(t)) {
                for next1 in vocabulary {
                    for next2 in vocabulary {
                        let tokens: Vec<&str> = before.into_iter().chain([*token, next1, next2]).collect();
                        let i = usize::from(before.is_some());
                        for mode in [Mode::Text, Mode::Flag] {
                            assert!(
                                match_at_unfiltered(&tokens, i, TODAY, mode).is_none(),
                                "{tokens:?} reads a phrase"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "the vocabulary has words no phrase starts with");
    }

    #[test]
    fn match_reports_tokens() {
        let normalized = normalize("Счёт Олегу до пятницы, 15 000 ₽");
        let m = find_due_match(&normalized, TODAY).expect("a due phrase");
        assert_eq!(m.range(), 2..4);
        assert_eq!(DueKind::Week.as_str(), "week");
    }
}
