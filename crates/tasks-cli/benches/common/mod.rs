//! What the whole-process benchmarks share: a 100k-task store built once by
//! `tasks_core::workload` (deterministic) into the temp dir and copied per run, since
//! the benchmarks write to it. Delete `tasks-bench-cli-100k.db` there to rebuild it.

// Each benchmark uses part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::{Context, Store};

/// Tasks in the store.
pub const TASKS: usize = 100_000;

/// The pinned clock of every run.
pub const NOW: &str = "2026-11-29T12:00:00Z";

/// The context of the pinned clock in Berlin.
pub fn ctx() -> Context {
    Context::new(NOW.parse::<Timestamp>().expect("time"), "bench", TimeZone::get("Europe/Berlin").expect("zone"))
}

/// Returns the cached 100k store, building it on first use.
pub fn cached_store() -> PathBuf {
    let path = std::env::temp_dir().join("tasks-bench-cli-100k.db");
    if !path.exists() {
        let tmp = path.with_extension("building");
        let _ = std::fs::remove_file(&tmp);
        let mut store = Store::open(&tmp).expect("open");
        let text = tasks_core::workload::lines(TASKS, 42, ctx().now_ms()).join("\n");
        let started = std::time::Instant::now();
        import::import_text(&mut store, &ctx(), &text, &ImportOptions::default(), &mut |_| {}).expect("import");
        eprintln!("built {TASKS} tasks in {:.1?}", started.elapsed());
        drop(store);
        std::fs::rename(&tmp, &path).expect("rename");
    }
    path
}

/// Copies the cached store into `dir`.
pub fn copy_of(cached: &Path, dir: &Path) -> PathBuf {
    let db = dir.join("bench.db");
    std::fs::copy(cached, &db).expect("copy the store");
    db
}

/// Runs the real binary on `db` with the pinned clock; panics on failure.
pub fn run(db: &Path, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tasks"))
        .args(args)
        .env("TASKS_DB", db)
        .env("TASKS_NOW", NOW)
        .env("TASKS_TZ", "Europe/Berlin")
        .env("TASKS_ACTOR", "bench")
        .output()
        .expect("run tasks");
    assert!(out.status.success(), "tasks {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}
