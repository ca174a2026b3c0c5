//! Server time of the Task Center and Today pages on a 100k-task store with 1,000
//! schedules (issue 14: ≤ 50 ms). Each iteration is one request through the router —
//! the guard, the store reads on the blocking pool, the HTML — without the TCP socket.
//!
//! The store is built once into the temp dir (`tasks-bench-web-100k.db`; delete it to
//! rebuild) by the deterministic workload generator.

use std::path::PathBuf;

use axum::body::{Body, to_bytes};
use axum::http::Request;
use criterion::{Criterion, criterion_group, criterion_main};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_bot::runner::Settings;
use tasks_core::model::schedule::{Action, PromptAction, PromptMode, When};
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::ops::query::{self, ListQuery};
use tasks_core::ops::schedule::manage::{self, AddRequest};
use tasks_core::{Context, Store};
use tasks_schedule::{MissedPolicy, Trigger, parse_cron, parse_time, parse_weekdays};
use tower::ServiceExt;

const TASKS: usize = 100_000;
const SCHEDULES: usize = 1_000;
const NOW: &str = "2026-11-29T12:00:00Z";
const TOKEN: &str = "bench-token-0123456789";

fn ctx() -> Context {
    Context::new(NOW.parse::<Timestamp>().expect("time"), "bench", TimeZone::get("Europe/Berlin").expect("zone"))
}

fn trigger(i: usize) -> Trigger {
    let time = parse_time(&format!("{:02}:{:02}", 6 + i % 14, (i * 7) % 60)).expect("time");
    match i % 4 {
        0 => Trigger::Daily { time },
        1 => Trigger::Weekly { weekdays: parse_weekdays("mon,thu").expect("days"), time },
        2 => Trigger::Monthly { day: tasks_schedule::MonthDay::Last, time },
        _ => Trigger::Cron { expression: parse_cron("*/30 9-18 * * 1-5").expect("cron").to_string() },
    }
}

fn store() -> PathBuf {
    let path = std::env::temp_dir().join("tasks-bench-web-100k.db");
    if path.exists() {
        return path;
    }
    let tmp = path.with_extension("building");
    let _ = std::fs::remove_file(&tmp);
    let mut store = Store::open(&tmp).expect("open");
    let c = ctx();
    let text = tasks_core::workload::lines(TASKS, 42, c.now_ms()).join("\n");
    import::import_text(&mut store, &c, &text, &ImportOptions::default(), &mut |_| {}).expect("import");
    let q = ListQuery { limit: Some(SCHEDULES), ..ListQuery::default() };
    let tasks = query::list(&store, &q).expect("list");
    for (i, t) in tasks.iter().enumerate() {
        let action = match i % 3 {
            0 => Action::Due,
            1 => Action::Prompt(PromptAction::new("Sum up what changed", PromptMode::Ask)),
            _ => Action::Prompt(PromptAction::new("Close what is paid", PromptMode::Execute)),
        };
        let req = AddRequest {
            task: t.key.clone(),
            when: When::Time(trigger(i)),
            zone: if i % 2 == 0 { "Europe/Berlin".into() } else { "America/New_York".into() },
            missed: MissedPolicy::RunOnce,
            action,
            max_active: 1,
            conversation: None,
            replace: false,
        };
        manage::add(&mut store, &c, &req).expect("schedule");
        if i % 5 == 0 {
            manage::run_now(&mut store, &c, &t.key, "bench").expect("run now");
        }
    }
    drop(store);
    std::fs::rename(&tmp, &path).expect("rename");
    path
}

fn bench(c: &mut Criterion) {
    let path = store();
    let settings = Settings {
        open: None,
        store_path: path,
        actor: "bench".into(),
        zone: TimeZone::get("Europe/Berlin").expect("zone"),
        fixed_now: Some(NOW.parse().expect("now")),
        conversational: true,
        llm: None,
    };
    let listen = "127.0.0.1:7878".parse().expect("addr");
    let config = tasks_web::ServeConfig { settings, listen, token: TOKEN.into() };
    let state = tasks_web::AppState::new(&config).expect("state");
    let app = tasks_web::router(state);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let get = |path: &'static str| {
        let app = app.clone();
        rt.block_on(async move {
            let req = Request::get(path)
                .header("host", "127.0.0.1:7878")
                .header("authorization", format!("Bearer {TOKEN}"))
                .body(Body::empty())
                .expect("request");
            let resp = app.oneshot(req).await.expect("response");
            assert!(resp.status().is_success(), "{path}: {}", resp.status());
            to_bytes(resp.into_body(), usize::MAX).await.expect("body").len()
        })
    };
    let size = get("/center");
    eprintln!("Task Center page: {size} bytes");
    let mut g = c.benchmark_group("pages_100k_tasks_1000_schedules");
    g.sample_size(30);
    g.bench_function("task_center", |b| b.iter(|| get("/center")));
    g.bench_function("today", |b| b.iter(|| get("/today")));
    g.bench_function("stamp", |b| b.iter(|| get("/api/stamp")));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
