//! Fuzzing of everything `tasks-text` reads from people (issue 10): due phrases as a
//! flag and inside text, amounts as a flag and inside text, normalization, stems,
//! trigrams and the lexicon. Nothing may panic, and each answer must be sane (a due
//! date near today, an amount read back from a notation we wrote).
//!
//! Bounded for CI (`FUZZ_CASES` below, or `PROPTEST_CASES`); run longer with
//! `PROPTEST_CASES=200000 cargo test --release -p tasks-text --test fuzz` (see
//! docs/fuzzing.md).

use jiff::civil::{Date, date};
use proptest::prelude::*;
use tasks_text::{Fingerprint, amounts, find_due, normalize, parse_amount_flag, parse_due, stems, trigrams};

/// Cases per property when `PROPTEST_CASES` is not set.
const FUZZ_CASES: u32 = 400;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(FUZZ_CASES);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// Pieces people type into dates, amounts and titles, and pieces that break parsers.
const PIECES: &[&str] = &[
    "in",
    "next",
    "this",
    "by",
    "до",
    "к",
    "в",
    "через",
    "на",
    "el",
    "antes",
    "del",
    "friday",
    "пятницы",
    "пятницу",
    "tomorrow",
    "завтра",
    "послезавтра",
    "mañana",
    "week",
    "неделю",
    "недели",
    "конца",
    "end",
    "of",
    "month",
    "eod",
    "the",
    "5th",
    "31",
    "29",
    "02",
    "2026",
    "10.04",
    "31.02",
    "2026-02-30",
    "2028-02-29",
    "20",
    "мая",
    "May",
    "-5",
    "−3",
    "0",
    "999",
    "1000",
    "99999999999999999999",
    "days",
    "дня",
    "weeks",
    "15 000",
    "₽",
    "руб",
    "€",
    "$",
    "EUR",
    "usd",
    "1.500",
    "1,500.50",
    "2.350",
    "к",
    "тыс",
    "k",
    "🎉",
    "\u{1b}[31m",
    "\u{9b}",
    "\u{0}",
    "\u{200b}",
    "ё",
    "й",
    "İ",
    "ß",
    "ﬁ",
    "e\u{301}",
    "  ",
    "\t",
    "\n",
    ",",
    ".",
    ":",
    "/",
    "!",
    "?",
    "'",
    "\"",
    "*",
    "NEAR",
    "OR",
    // Russian ordinal days, the end of a named month, a weekday with its day.
    "21-е",
    "31-го",
    "29-му",
    "0-е",
    "32-го",
    "-е",
    "-му",
    "место",
    "сутки",
    "марта",
    "февраля",
    "конце",
    "finales",
    "de",
    "febrero",
    "Fri",
    "viernes",
    "Feb",
];

fn phrase() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.join(" ")),
        prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.concat()),
        any::<String>(),
        "\\PC{0,40}",
    ]
}

fn today() -> impl Strategy<Value = Date> {
    // Every day of every month, the 29th–31st included (clamped to the month's last).
    (1990i16..2190, 1i8..=12, 1i8..=31).prop_map(|(y, m, d)| date(y, m, d.min(date(y, m, 1).days_in_month())))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn due_phrases_never_panic_and_stay_near_today(text in phrase(), today in today()) {
        for due in [parse_due(&text, today).ok(), find_due(&text, today)].into_iter().flatten() {
            // Every phrase we read is within a few years of today (explicit dates are
            // bounded years; relative counts at most 999 weeks).
            let gap = (due.date - today).get_days().abs();
            prop_assert!(gap <= 366 * 220, "{text:?} on {today} gave {}", due.date);
        }
    }

    #[test]
    fn amounts_never_panic_and_are_positive(text in phrase()) {
        if let Ok(a) = parse_amount_flag(&text) {
            prop_assert!(a.minor >= 0, "{text:?} gave {}", a.minor);
        }
        for a in amounts(&text) {
            prop_assert!(a.minor >= 0, "{text:?} gave {}", a.minor);
        }
    }

    #[test]
    fn an_amount_we_write_is_read_back(whole in 0i64..10_000_000, cents in 0i64..100, cur in prop::sample::select(&["RUB", "EUR", "USD"][..])) {
        let text = format!("{whole}.{cents:02} {cur}");
        let a = parse_amount_flag(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(a.minor, whole * 100 + cents, "{}", text);
    }

    /// A Russian ordinal day after a preposition is the next such day from today on,
    /// clamped to a short month's last day, whether typed as the flag or in a title.
    #[test]
    fn a_russian_ordinal_day_is_the_next_such_day(
        day in 1i8..=31,
        phrase in prop::sample::select(&["на {}-е", "к {}-му", "до {}-го"][..]),
        today in today(),
    ) {
        let text = phrase.replace("{}", &day.to_string());
        for (how, due) in [("flag", parse_due(&text, today).ok()), ("title", find_due(&format!("Цветы маме {text}"), today))] {
            let due = due.ok_or_else(|| TestCaseError::fail(format!("{how} {text:?} on {today}: no date")))?;
            prop_assert!(due.date >= today, "{} {:?} on {}: {} is before today", how, text, today, due.date);
            prop_assert!((due.date - today).get_days() <= 31, "{} {:?} on {}: {}", how, text, today, due.date);
            prop_assert_eq!(due.date.day(), day.min(due.date.days_in_month()), "{} {:?} on {}", how, text, today);
        }
    }

    /// The end of a named month is that month's last day, this year's unless it ended
    /// more than a month ago, then next year's — in Russian, English and Spanish.
    #[test]
    fn the_end_of_a_named_month_is_its_last_day(month in 1i8..=12, lang in 0usize..3, today in today()) {
        const RU: [&str; 12] = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"];
        const EN: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
        const ES: [&str; 12] = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
        let i = (month - 1) as usize;
        let text = [format!("до конца {}", RU[i]), format!("by the end of {}", EN[i]), format!("a finales de {}", ES[i])][lang].clone();
        for (how, due) in [("flag", parse_due(&text, today).ok()), ("title", find_due(&format!("Renew the permit {text}"), today))] {
            let due = due.ok_or_else(|| TestCaseError::fail(format!("{how} {text:?} on {today}: no date")))?;
            prop_assert_eq!(due.date.month(), month, "{} {:?} on {}", how, text, today);
            prop_assert_eq!(due.date, due.date.last_of_month(), "{} {:?} on {}", how, text, today);
            // This year's, unless it ended more than a month ago (written late still
            // means this year's), then next year's.
            let this_year = date(today.year(), month, 1).last_of_month();
            let late = (today - this_year).get_days() > tasks_text::dates::DAY_MONTH_PAST_TOLERANCE_DAYS as i32;
            let want = if late { date(today.year() + 1, month, 1).last_of_month() } else { this_year };
            prop_assert_eq!(due.date, want, "{} {:?} on {}", how, text, today);
        }
    }

    #[test]
    fn text_features_never_panic(text in phrase(), today in today()) {
        let n = normalize(&text);
        prop_assert_eq!(normalize(&n), n.clone(), "normalization is idempotent");
        let _ = stems(&text);
        let _ = trigrams(&text);
        let _ = Fingerprint::of(&text, &text, today);
    }
}
