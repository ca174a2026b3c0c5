//! Store benchmarks at 100k tasks (issue 2 and 4): `ready`, `add` (the whole path with
//! the duplicate check, rolled back so the store stays at 100k) and `check`; and
//! `check` of a long bug report against 100k reports with long descriptions (issue 16:
//! the description cosine reads the document frequency of every description stem).
//!
//! The 100k stores are generated once by `tasks_core::workload` (deterministic) into
//! the temp dir and reused; delete `tasks-bench-100k.db` / `tasks-bench-reports-100k.db`
//! there to rebuild them.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_core::ops::add::{self, AddRequest};
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::ops::{duplicates, query};
use tasks_core::{Context, Store};

const TASKS: usize = 100_000;
const NOW: &str = "2026-11-29T12:00:00Z";

fn ctx() -> Context {
    Context::new(NOW.parse::<Timestamp>().expect("time"), "bench", TimeZone::UTC)
}

fn store_100k() -> Store {
    store_of("tasks-bench-100k.db", tasks_core::workload::lines)
}

fn reports_100k() -> Store {
    store_of("tasks-bench-reports-100k.db", tasks_core::workload::reports)
}

fn store_of(name: &str, make: fn(usize, u64, i64) -> Vec<String>) -> Store {
    let path: PathBuf = std::env::temp_dir().join(name);
    if !path.exists() {
        let tmp = path.with_extension("building");
        let _ = std::fs::remove_file(&tmp);
        let mut store = Store::open(&tmp).expect("open");
        let end = ctx().now_ms();
        let text = make(TASKS, 42, end).join("\n");
        let started = std::time::Instant::now();
        import::import_text(&mut store, &ctx(), &text, &ImportOptions::default(), &mut |_| {}).expect("import");
        eprintln!("built {TASKS} tasks in {:.1?}", started.elapsed());
        drop(store);
        std::fs::rename(&tmp, &path).expect("rename");
    }
    Store::open(&path).expect("open")
}

fn benches(c: &mut Criterion) {
    let mut store = store_100k();
    let ctx = ctx();
    c.bench_function("ready_100k_limit50", |b| b.iter(|| query::ready(&store, &ctx, Some(50)).expect("ready")));
    let list = query::ListQuery { limit: Some(200), ..query::ListQuery::default() };
    c.bench_function("list_100k_limit200", |b| b.iter(|| query::list(&store, &list).expect("list")));
    let mut req = AddRequest::titled("Отправить счёт Brightlane за дизайн презентации, 45 000 ₽");
    req.person = Some("p3".into());
    req.category = Some("money".into());
    c.bench_function("check_100k", |b| b.iter(|| duplicates::check(&store, &ctx, &req, false).expect("check")));
    req.dup_choice = add::DupChoice::New;
    c.bench_function("add_100k_rehearsed", |b| b.iter(|| add::rehearse(&mut store, &ctx, &req).expect("add")));
    drop(store);

    // A report the generator could have written (seed 43: not one of the stored ones),
    // with its long description.
    let reports = reports_100k();
    let generated = tasks_core::workload::report_texts(1, 43, ctx.now_ms()).remove(0);
    let mut report = AddRequest::titled(&generated.title);
    report.description = generated.description;
    eprintln!("checking a report of {} description bytes", report.description.len());
    c.bench_function("check_reports_100k_long_description", |b| {
        b.iter(|| duplicates::check(&reports, &ctx, &report, false).expect("check"))
    });
}

criterion_group! {
    name = store;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = benches
}
criterion_main!(store);
