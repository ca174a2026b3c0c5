//! Fuzzing of the cron reader and the planner behind it (issue 10): any text as a cron
//! expression either is refused with an error or plans firings that strictly increase,
//! in any zone — never a panic, never a hang.
//!
//! Bounded for CI; run longer with
//! `PROPTEST_CASES=100000 cargo test --release -p tasks-schedule --test fuzz`.

use jiff::Timestamp;
use proptest::prelude::*;
use tasks_schedule::{Plan, Trigger, parse_cron};

/// Cases per property when `PROPTEST_CASES` is not set.
const FUZZ_CASES: u32 = 300;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(FUZZ_CASES);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

const FIELDS: &[&str] = &[
    "*",
    "*/15",
    "*/7",
    "0",
    "5",
    "59",
    "60",
    "23",
    "24",
    "1-5",
    "5-1",
    "0-7",
    "1,15",
    "L",
    "W",
    "#2",
    "MON",
    "jan",
    "@daily",
    "?",
    "-",
    ",",
    "/",
    "*/0",
    "00",
    "999999999999",
    "1-5/2",
    "1,2,3,4,5,6,7,8,9,10",
    "",
    "é",
    "\u{0}",
];

fn expression() -> impl Strategy<Value = String> {
    prop_oneof![prop::collection::vec(prop::sample::select(FIELDS), 0..7).prop_map(|f| f.join(" ")), any::<String>(),]
}

fn zone() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        &["UTC", "Europe/Berlin", "America/New_York", "Pacific/Apia", "Australia/Lord_Howe", "Asia/Kathmandu"][..],
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_cron_text_is_refused_or_plans_increasing_firings(text in expression(), zone in zone(), start in 0i64..4_000_000_000) {
        let Ok(_) = parse_cron(&text) else { return Ok(()) };
        let Ok(plan) = Plan::new(Trigger::Cron { expression: text.clone() }, zone) else { return Ok(()) };
        let from = Timestamp::from_second(start).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let firings = plan.preview(from, 5);
        for pair in firings.windows(2) {
            prop_assert!(pair[0].at < pair[1].at, "{text:?} in {zone}: {:?}", firings);
        }
        if let Some(first) = firings.first() {
            prop_assert!(first.at > from, "{text:?}: a firing at or before {from}");
        }
    }
}
