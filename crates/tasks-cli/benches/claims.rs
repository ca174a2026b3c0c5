//! Claims per second with 8 agent processes (issue 3): each round seeds 160 ready
//! tasks and lets 8 threads each run 20 `tasks next --claim` processes against one
//! store — real processes, real SQLite locking, the primitive a pool of agents uses.
//! Criterion reports the time of one round of 160 claims.

use std::process::Command;
use std::thread;

use criterion::{Criterion, criterion_group, criterion_main};

const AGENTS: usize = 8;
const EACH: usize = 20;

fn seed(dir: &std::path::Path) -> std::path::PathBuf {
    let db = dir.join("t.db");
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(dir.join("t.db-wal"));
    let _ = std::fs::remove_file(dir.join("t.db-shm"));
    let lines: String = (0..AGENTS * EACH).map(|i| format!("{{\"id\":\"t{i}\",\"title\":\"job {i}\"}}\n")).collect();
    let file = dir.join("seed.jsonl");
    std::fs::write(&file, lines).expect("write");
    let ok = Command::new(env!("CARGO_BIN_EXE_tasks"))
        .args(["import", file.to_str().expect("path")])
        .env("TASKS_DB", &db)
        .status()
        .expect("import");
    assert!(ok.success());
    db
}

fn round(db: &std::path::Path) {
    thread::scope(|s| {
        for a in 0..AGENTS {
            s.spawn(move || {
                for _ in 0..EACH {
                    let out = Command::new(env!("CARGO_BIN_EXE_tasks"))
                        .args(["--json", "next", "--claim", "--as", &format!("agent-{a}")])
                        .env("TASKS_DB", db)
                        .output()
                        .expect("next");
                    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                }
            });
        }
    });
}

fn claims(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    c.bench_function("claims_8_processes_160", |b| {
        b.iter_batched(|| seed(dir.path()), |db| round(&db), criterion::BatchSize::PerIteration)
    });
}

criterion_group! {
    name = bench;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(20));
    targets = claims
}
criterion_main!(bench);
