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
    (1990i16..2190, 1i8..=12, 1i8..=28).prop_map(|(y, m, d)| date(y, m, d))
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

    #[test]
    fn text_features_never_panic(text in phrase(), today in today()) {
        let n = normalize(&text);
        prop_assert_eq!(normalize(&n), n.clone(), "normalization is idempotent");
        let _ = stems(&text);
        let _ = trigrams(&text);
        let _ = Fingerprint::of(&text, &text, today);
    }
}
