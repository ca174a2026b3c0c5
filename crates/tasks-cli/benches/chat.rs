//! The conversation at 100k tasks (issue 11): everything but the model — gathering the
//! candidates, building the prompt, the guard, the offline parser, a whole turn that
//! writes — and the whole `tasks chat` process against a scripted model on 127.0.0.1.
//! Also prints the prompt's size in tokens at 100k.
//!
//! The 100k store is the shared one of `common.rs`, copied per run (turns write to it).

use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use tasks_chat::calls::Call;
use tasks_chat::situation::Situation;
use tasks_chat::turn::{self, Route, Turn};
use tasks_chat::{guard, prompt};
use tasks_core::model::conversation::ConversationKind;
use tasks_core::ops::conversation::ConversationRef;
use tasks_core::ops::query::{self, ListQuery};
use tasks_core::{Status, Store};
use tasks_testkit::openai::FakeModel;

mod common;

use common::{NOW, TASKS, cached_store, copy_of, ctx};

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = copy_of(&cached_store(), dir.path());
    let mut store = Store::open(&db).expect("open");
    let ctx = ctx();
    // A real open task to talk about: its words, as a person would write them.
    let target =
        query::list(&store, &ListQuery { statuses: vec![Status::Open], limit: Some(1), ..ListQuery::default() })
            .expect("list")
            .remove(0);
    let done = format!("done {}", target.title.to_lowercase());
    let shown: Vec<String> = Vec::new();

    c.bench_function("chat_gather_100k", |b| {
        b.iter(|| Situation::gather(&store, &ctx, &done, None, &shown).expect("gather"))
    });
    let situation = Situation::gather(&store, &ctx, &done, None, &shown).expect("gather");
    let lines = situation.task_lines();
    let pc = prompt::Context {
        today: ctx.today(),
        projects: &situation.projects,
        tasks: &lines,
        shown: &shown,
        quoted: None,
        text: &done,
    };
    let messages = prompt::messages(&pc);
    let tokens = prompt::approx_tokens(&messages) + prompt::tools().to_string().len() / 4;
    eprintln!(
        "prompt at {TASKS} tasks: ~{tokens} tokens ({} candidates, {} sent, complete: {})",
        situation.tasks.len(),
        lines.len().min(prompt::MAX_TASKS_SENT),
        situation.complete
    );
    c.bench_function("chat_prompt_100k", |b| b.iter(|| prompt::messages(&pc)));
    // The offline parser alone, over the gathered candidates (typos, reports, the kind
    // rules, the matching): what a turn adds to the gathering.
    let names = situation.project_names();
    c.bench_function("chat_offline_parse_100k", |b| {
        b.iter(|| {
            let s = tasks_chat::offline::Situation {
                tasks: &situation.candidates,
                today: ctx.today(),
                shown: &shown,
                projects: &names,
            };
            tasks_chat::offline::parse_reading(&done, &s)
        })
    });
    c.bench_function("chat_guard_100k", |b| {
        b.iter(|| {
            let calls = vec![Call::CloseTask { id: target.key.clone() }];
            guard::check(&done, None, calls, &situation.candidates, &shown, ctx.today())
        })
    });
    let conversation = ConversationRef { kind: ConversationKind::Local, external_id: "bench".into() };
    c.bench_function("chat_offline_plan_100k", |b| {
        b.iter(|| {
            let t = Turn {
                text: &done,
                quoted: None,
                conversation: &conversation,
                dry_run: true,
                conversational: true,
                route: Route::Offline,
                button: None,
            };
            turn::run(&mut store, &ctx, &t).expect("turn")
        })
    });
    // A turn that writes: the due date moves between two days, the turn is recorded.
    let mut flip = false;
    c.bench_function("chat_offline_turn_writes_100k", |b| {
        b.iter(|| {
            flip = !flip;
            let text = format!("/date {} {}", target.key, if flip { "friday" } else { "monday" });
            let t = Turn {
                text: &text,
                quoted: None,
                conversation: &conversation,
                dry_run: false,
                conversational: true,
                route: Route::Offline,
                button: None,
            };
            turn::run(&mut store, &ctx, &t).expect("turn")
        })
    });
    drop(store);

    // The whole process: start, open the store, gather, ask the model (on 127.0.0.1),
    // guard, run, record, print.
    let model = FakeModel::start();
    let mut flip = false;
    c.bench_function("chat_process_fake_model_100k", |b| {
        b.iter_batched(
            || {
                flip = !flip;
                let (date, day) = if flip { ("2026-12-04", "friday") } else { ("2026-12-07", "monday") };
                model.then_calls(&[(
                    "update_task",
                    json!({"id": target.key, "deadline_kind": "day", "deadline": date}),
                )]);
                format!("move {} to {day}", target.title.to_lowercase())
            },
            |text| {
                let out = Command::new(env!("CARGO_BIN_EXE_tasks"))
                    .args(["--json", "chat", &text])
                    .env("TASKS_DB", &db)
                    .env("TASKS_NOW", NOW)
                    .env("TASKS_TZ", "Europe/Berlin")
                    .env("TASKS_LLM_BASE_URL", model.base_url())
                    .env("TASKS_LLM_MODEL", "bench")
                    .output()
                    .expect("tasks chat");
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            },
            criterion::BatchSize::PerIteration,
        )
    });
}

criterion_group! {
    name = chat;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = benches
}
criterion_main!(chat);
