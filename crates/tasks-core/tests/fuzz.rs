//! Fuzzing of import lines (issue 10): any bytes, JSON or not, through `import` with
//! `--skip-bad` on a real store. Nothing panics, every line is accounted for (imported,
//! imported before, or skipped with its number), and the store holds exactly the tasks
//! reported.
//!
//! Bounded for CI; run longer with
//! `PROPTEST_CASES=5000 cargo test --release -p tasks-core --test core fuzz`.
//!
//! On SQLite only: task-line import is SQLite's bulk loader (a team store imports the
//! lossless export, whose bad lines `tasks-pg`'s tests cover).

use proptest::prelude::*;
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::ops::query::{self, ListQuery};
use tasks_core::{Context, Store};

/// Cases when `PROPTEST_CASES` is not set: each opens a store, so fewer than the text
/// fuzzers.
const FUZZ_CASES: u32 = 48;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(FUZZ_CASES);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// A line: a plausible task object with hostile values, or anything at all.
fn line() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just("null".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "\\PC{0,30}".prop_map(|s| serde_json::Value::String(s).to_string()),
        prop::sample::select(
            &["\"2026-13-45\"", "\"tomorrow\"", "\"-5 EUR\"", "\"1 200,50 €\"", "[\"x\",\"y\"]", "{}", "\"a\\u0000b\""]
                [..]
        )
        .prop_map(str::to_string),
    ];
    let field = prop::sample::select(
        &[
            "id",
            "title",
            "description",
            "type",
            "status",
            "priority",
            "due",
            "amount",
            "tags",
            "blocked_by",
            "reply_to",
            "created_at",
            "closed_at",
            "key",
            "project",
            "bogus",
        ][..],
    );
    prop_oneof![
        prop::collection::vec((field, value), 0..6).prop_map(|pairs| {
            let body: Vec<String> = pairs.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{\"title\":\"Fuzzed task\",{}}}", body.join(","))
        }),
        "\\PC{0,60}",
        any::<Vec<u8>>().prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_import_line_is_imported_or_named(lines in prop::collection::vec(line(), 1..12)) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut store = Store::open(&dir.path().join("t.db")).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let ctx = Context::new("2026-11-30T09:00:00Z".parse().expect("time"), "fuzz", jiff::tz::TimeZone::UTC);
        let text = lines.iter().map(|l| l.replace('\n', " ")).collect::<Vec<_>>().join("\n");
        let opts = ImportOptions { skip_bad: true, ..ImportOptions::default() };
        let out = import::import_text(&mut store, &ctx, &text, &opts, &mut |_| {})
            .map_err(|e| TestCaseError::fail(format!("import failed as a whole: {e}")))?;
        let nonblank = text.lines().filter(|l| !l.trim().is_empty()).count();
        // A skipped link can name a line that was imported: count lines, not errors.
        prop_assert!(out.imported + out.already_imported.len() <= nonblank);
        for e in &out.skipped {
            prop_assert!(e.to_string().starts_with("line "), "a skip names its line: {e}");
        }
        let all = ListQuery { statuses: tasks_core::Status::ALL.to_vec(), limit: Some(1000), ..ListQuery::default() };
        let stored = query::list(&store, &all).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(stored.len(), out.imported, "the store holds what was reported");
    }
}
