//! Daily use at 100k tasks (issue 12), whole process: `search`, the new `list`
//! filters, and `undo` (after a `done`, so each iteration has a change to revert).

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = common::copy_of(&common::cached_store(), dir.path());
    for (name, args) in [
        ("search_100k", vec!["--json", "search", "invoice"]),
        ("search_ru_100k", vec!["--json", "search", "счёт"]),
        ("list_overdue_sort_due_100k", vec!["--json", "list", "--overdue", "--sort", "due"]),
        ("list_due_before_100k", vec!["--json", "list", "--due-before", "friday"]),
        ("list_priority_100k", vec!["--json", "list", "--priority", "1"]),
        ("list_text_100k", vec!["--json", "list", "--text", "invoice"]),
        ("list_claimed_by_100k", vec!["--json", "list", "--claimed-by", "me"]),
    ] {
        c.bench_function(name, |b| b.iter(|| common::run(&db, &args)));
    }
    // One open task to close and reopen by undo.
    let listed = common::run(&db, &["--json", "list", "--limit", "1"]);
    let v: serde_json::Value = serde_json::from_slice(&listed).expect("json");
    let key = v["items"][0]["key"].as_str().expect("a task").to_string();
    c.bench_function("undo_after_done_100k", |b| {
        b.iter_batched(|| common::run(&db, &["done", &key]), |_| common::run(&db, &["undo"]), BatchSize::PerIteration)
    });
}

criterion_group! {
    name = daily;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = benches
}
criterion_main!(daily);
