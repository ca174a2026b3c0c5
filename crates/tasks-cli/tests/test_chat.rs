//! `tasks chat` (issue 11) against a scripted OpenAI-compatible model on 127.0.0.1:
//! the real binary, a real store, real HTTP. Today is Sunday 2026-11-29 (Berlin).

use std::time::Duration;

use serde_json::{Value, json};
use tasks_testkit::openai::FakeModel;

use crate::common::{Run, TestEnv};

const KEY: &str = "sk-test-SECRET-4711";

/// A store with two near-twin «Аня» tasks, one due today, one overdue, one idea.
fn world() -> TestEnv {
    world_in(TestEnv::new())
}

/// The same store in `env`: built on a SQLite file, and on PostgreSQL moved there by
/// `tasks export` and `tasks import`, as a team moves in.
fn world_in(env: TestEnv) -> TestEnv {
    let sqlite = TestEnv::new();
    sqlite.ok(&["project", "add", "HOME", "Дом", "--description", "квартира, ремонт, семья"]);
    sqlite.ok(&["project", "add", "WORK", "Work", "--description", "the job: reports, reviews"]);
    let lines = [
        r#"{"title":"Позвонить Ане про плитку","project":"HOME"}"#,
        r#"{"title":"Позвонить Ане насчёт дня рождения","project":"HOME"}"#,
        r#"{"title":"Купить плитку в ванную","project":"HOME","due":"2026-11-29"}"#,
        r#"{"title":"Write the quarterly report","project":"WORK","due":"2026-11-27"}"#,
        r#"{"title":"Идея поста про метафоры","project":"WORK"}"#,
        r#"{"title":"Buy printer paper"}"#,
    ];
    let file = sqlite.write("world.jsonl", &(lines.join("\n") + "\n"));
    sqlite.ok(&["import", file.to_str().expect("path")]);
    if env.store_url.is_none() {
        return sqlite;
    }
    let dump = env.write("world-export.jsonl", &sqlite.ok(&["export"]).stdout);
    env.ok(&["import", dump.to_str().expect("path")]);
    env
}

/// Runs `tasks chat` with the model at `model` (and the key), returns the run.
fn chat(env: &TestEnv, model: &FakeModel, args: &[&str]) -> Run {
    chat_env(env, model, args, &[])
}

fn chat_env(env: &TestEnv, model: &FakeModel, args: &[&str], extra: &[(&str, &str)]) -> Run {
    let mut all = vec!["chat"];
    all.extend_from_slice(args);
    let mut cmd = env.command(&all);
    cmd.env("TASKS_LLM_BASE_URL", model.base_url()).env("TASKS_LLM_MODEL", "test-model").env("TASKS_LLM_API_KEY", KEY);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let run = crate::common::collect(cmd.output().expect("run tasks"));
    assert!(
        !run.stdout.contains(KEY) && !run.stderr.contains(KEY),
        "the API key reached the output:\n{}{}",
        run.stdout,
        run.stderr
    );
    run
}

fn status(env: &TestEnv, key: &str) -> String {
    env.json(&["show", key])["task"]["status"].as_str().expect("status").to_string()
}

fn task(env: &TestEnv, key: &str) -> Value {
    env.json(&["show", key])["task"].clone()
}

/// Every open task's key and status and due, to compare a store before and after.
fn snapshot(env: &TestEnv) -> Vec<(String, String, String)> {
    let v = env.json(&["list", "--status", "all"]);
    v["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|t| (t["key"].to_string(), t["status"].to_string(), format!("{}{}", t["due"], t["title"])))
        .collect()
}

/// On both engines (issue 34): the model's calls run through the same operations on a
/// PostgreSQL store.
#[test]
fn every_tool_runs_through_the_same_operations() {
    for env in TestEnv::engines("pg_chat_every_tool") {
        every_tool_runs_on(world_in(env));
    }
}

fn every_tool_runs_on(env: TestEnv) {
    let model = FakeModel::start();
    model.then_calls(&[(
        "create_task",
        json!({"text": "Купить затирку", "project": "HOME", "deadline_kind": "day", "deadline": "2026-11-30"}),
    )]);
    let r = chat(&env, &model, &["--json", "купить затирку завтра"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["results"][0]["status"], "created");
    assert_eq!(v["results"][0]["task"]["key"], "HOME-4");
    assert_eq!(task(&env, "HOME-4")["due"], "2026-11-30");
    assert!(
        v["reply"].as_str().expect("reply").contains("HOME-4 «Купить затирку» — HOME, срок: завтра (2026-11-30)"),
        "{v}"
    );

    model.then_calls(&[("update_task", json!({"id": "WORK-1", "deadline_kind": "day", "deadline": "2026-12-04"}))]);
    let r = chat(&env, &model, &["move the quarterly report to friday"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "WORK-1 \"Write the quarterly report\" — WORK, due Friday (2026-12-04) (was: due 2026-11-27, overdue)"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(task(&env, "WORK-1")["due"], "2026-12-04");

    model.then_calls(&[("close_task", json!({"id": "INBOX-1"}))]);
    let r = chat(&env, &model, &["bought the printer paper"]);
    assert!(r.stdout.contains("Done: INBOX-1"), "{}", r.stdout);
    assert_eq!(status(&env, "INBOX-1"), "done");

    model.then_calls(&[("cancel_task", json!({"id": "WORK-2"}))]);
    let r = chat(&env, &model, &["удали идею про метафоры"]);
    assert!(r.stdout.contains("Отменена: WORK-2"), "{}", r.stdout);
    assert_eq!(status(&env, "WORK-2"), "dismissed");
    assert_eq!(task(&env, "WORK-2")["close_reason"], "cancelled");

    model.then_calls(&[("list_tasks", json!({"filter": "today"}))]);
    let r = chat(&env, &model, &["что на сегодня"]);
    assert!(r.stdout.contains("На сегодня (1):\n1. HOME-3"), "{}", r.stdout);

    model.then_calls(&[("list_tasks", json!({"filter": "done", "period": "week"}))]);
    let r = chat(&env, &model, &["--json", "what did I finish this week"]);
    let v = r.json();
    let keys: Vec<&str> =
        v["results"][0]["tasks"].as_array().expect("tasks").iter().filter_map(|t| t["key"].as_str()).collect();
    assert_eq!(keys, ["INBOX-1"]);

    model.then_calls(&[("defer_today_to_tomorrow", json!({}))]);
    let r = chat(&env, &model, &["перенеси всё сегодняшнее на завтра"]);
    assert!(r.stdout.contains("Перенесено на завтра: 1"), "{}", r.stdout);
    assert_eq!(task(&env, "HOME-3")["due"], "2026-11-30");

    model.then_calls(&[(
        "clarify",
        json!({"question": "Which report?", "options": ["WORK-1: Write the quarterly report"]}),
    )]);
    let r = chat(&env, &model, &["--json", "the report"]);
    assert_eq!(r.json()["calls"][0]["tool"], "clarify");
    assert!(r.json()["reply"].as_str().expect("reply").contains("Which report?\n1. WORK-1 Write the quarterly report"));

    model.then_calls(&[("reject", json!({"reason": "I only handle tasks"}))]);
    let before = snapshot(&env);
    let r = chat(&env, &model, &["how is the weather"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("I only handle tasks"), "{}", r.stdout);
    assert_eq!(snapshot(&env), before, "a reject changes nothing");
}

#[test]
fn several_calls_run_in_order_and_the_reply_lists_each() {
    let env = world();
    let model = FakeModel::start();
    model.then_calls(&[
        (
            "create_task",
            json!({"text": "Book a plumber", "project": "HOME", "deadline_kind": "day", "deadline": "2026-11-30"}),
        ),
        ("cancel_task", json!({"id": "WORK-2"})),
    ]);
    let r = chat(&env, &model, &["book a plumber tomorrow and drop the metaphor post idea"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(lines[0].contains("Created: HOME-4 \"Book a plumber\" — HOME, due tomorrow (2026-11-30)"), "{}", r.stdout);
    assert!(lines[1].contains("Cancelled: WORK-2"), "{}", r.stdout);
    assert_eq!(status(&env, "WORK-2"), "dismissed");
}

/// On both engines (issue 34): the guard's question and its answer.
#[test]
fn a_guess_between_two_anya_tasks_becomes_a_question_and_the_answer_runs_it() {
    for env in TestEnv::engines("pg_chat_guess") {
        guess_between_twins_on(world_in(env));
    }
}

fn guess_between_twins_on(env: TestEnv) {
    let model = FakeModel::start();
    let before = snapshot(&env);
    // The model picks one of the twins; the words fit both.
    model.then_calls(&[("close_task", json!({"id": "HOME-1"}))]);
    let r = chat(&env, &model, &["--json", "сделала позвонить Ане"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["calls"][0]["tool"], "clarify", "{v}");
    let options: Vec<&str> =
        v["calls"][0]["arguments"]["options"].as_array().expect("options").iter().filter_map(Value::as_str).collect();
    assert_eq!(options, ["HOME-1: Позвонить Ане про плитку", "HOME-2: Позвонить Ане насчёт дня рождения"]);
    assert_eq!(snapshot(&env), before, "nothing ran");
    // «вторую» answers the question: no model needed, the second option closes.
    let asked = model.requests().len();
    let r = chat(&env, &model, &["вторую"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Сделано: HOME-2"), "{}", r.stdout);
    assert_eq!(model.requests().len(), asked, "an answer needs no model");
    assert_eq!(status(&env, "HOME-2"), "done");
    assert_eq!(status(&env, "HOME-1"), "open");
}

#[test]
fn a_clear_target_runs_and_an_unclear_one_is_asked_about() {
    let env = world();
    let model = FakeModel::start();
    // The words name one twin clearly.
    model.then_calls(&[("close_task", json!({"id": "HOME-1"}))]);
    let r = chat(&env, &model, &["позвонила Ане про плитку"]);
    assert!(r.stdout.contains("Сделано: HOME-1"), "{}", r.stdout);
    // The words do not fit the target at all: asked, not run.
    model.then_calls(&[("cancel_task", json!({"id": "WORK-1"}))]);
    let r = chat(&env, &model, &["--json", "удали идею про метафоры"]);
    assert_eq!(r.json()["calls"][0]["tool"], "clarify", "{}", r.stdout);
    assert_eq!(status(&env, "WORK-1"), "open");
    // A numbered answer to a list closes both.
    model.then_calls(&[("list_tasks", json!({"filter": "all_by_project"}))]);
    chat(&env, &model, &["покажи всё"]);
    let listed = chat(&env, &model, &["--json", "/today"]).json();
    assert_eq!(listed["results"][0]["tasks"][1]["key"], "HOME-3");
    model.then_calls(&[("close_task", json!({"id": "HOME-3"}))]);
    let r = chat(&env, &model, &["сделала вторую"]);
    assert!(r.stdout.contains("Сделано: HOME-3"), "{}", r.stdout);
}

#[test]
fn an_unknown_key_is_skipped_and_said_and_the_rest_runs() {
    let env = world();
    let model = FakeModel::start();
    model.then_calls(&[("close_task", json!({"id": "HOME-99"})), ("close_task", json!({"id": "WORK-1"}))]);
    let r = chat(&env, &model, &["--json", "done HOME-99 and WORK-1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["results"][0]["status"], "skipped");
    assert_eq!(v["results"][0]["reason"], "no open task HOME-99");
    assert_eq!(v["results"][1]["status"], "closed");
    assert!(v["reply"].as_str().expect("reply").contains("Skipped (close_task HOME-99): no open task HOME-99"));
    assert_eq!(status(&env, "WORK-1"), "done");
}

#[test]
fn a_model_that_fails_exits_with_its_code_and_changes_nothing() {
    let env = world();
    let model = FakeModel::start();
    let before = snapshot(&env);
    // Text the offline parser does not understand, so no fallback.
    let text = "hmm what about that thing";
    model.then_status(503, r#"{"error":{"message":"overloaded"}}"#);
    let r = chat(&env, &model, &["--json", text]);
    assert_eq!(r.code, 12, "{}", r.stderr);
    assert_eq!(r.error()["code"], "provider_unavailable");
    assert!(
        r.error()["message"].as_str().expect("message").contains("can't reach the model — try again or use /commands")
    );

    model.then_status(400, r#"{"error":{"message":"bad model name"}}"#);
    assert_eq!(chat(&env, &model, &[text]).code, 11);
    model.then_status(401, r#"{"error":{"message":"invalid key sk-test-SECRET-4711"}}"#);
    let r = chat(&env, &model, &[text]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    model.then_status(429, "{}");
    assert_eq!(chat(&env, &model, &[text]).code, 8);
    // Garbage, an error inside a 200, an unknown tool, bad arguments: didn't understand.
    model.then_status(200, "<html>oops</html>");
    let r = chat(&env, &model, &[text]);
    assert_eq!(r.code, 13, "{}", r.stderr);
    model.then_calls(&[("close_task", json!({"id": "WORK-1"})), ("delete_everything", json!({}))]);
    let r = chat(&env, &model, &["--json", text]);
    assert_eq!(r.code, 13, "{}", r.stderr);
    assert!(r.error()["message"].as_str().expect("message").contains("didn't understand"), "{}", r.stderr);
    model.then_calls(&[("update_task", json!({"id": "WORK-1", "deadline_kind": "day", "deadline": "friday"}))]);
    assert_eq!(chat(&env, &model, &[text]).code, 13);
    assert_eq!(snapshot(&env), before, "no failure wrote anything");
}

#[test]
fn a_model_that_does_not_answer_in_time_exits_9() {
    let env = world();
    let model = FakeModel::start();
    model.then_late(Duration::from_secs(4), &[("close_task", json!({"id": "WORK-1"}))]);
    let r = chat_env(&env, &model, &["--json", "hmm what about that thing"], &[("TASKS_LLM_TIMEOUT", "1s")]);
    assert_eq!(r.code, 9, "{}", r.stderr);
    assert_eq!(r.error()["code"], "timeout");
    assert_eq!(status(&env, "WORK-1"), "open");
}

#[test]
fn when_the_model_is_down_a_simple_phrase_falls_back_to_the_offline_parser() {
    let env = world();
    let model = FakeModel::start();
    model.then_status(502, "bad gateway");
    let r = chat(&env, &model, &["--json", "сделала отчет WORK-1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = r.json();
    assert_eq!(v["source"], "offline_fallback");
    assert_eq!(v["results"][0]["status"], "closed");
    assert!(v["reply"].as_str().expect("reply").contains("модель недоступна"), "{v}");
    // Nothing reaches the model's address when there is none: unreachable port.
    let dead = FakeModel::start();
    let url = dead.base_url();
    drop(dead);
    let mut cmd = env.command(&["chat", "--json", "hmm what about that thing"]);
    cmd.env("TASKS_LLM_BASE_URL", &url).env("TASKS_LLM_MODEL", "m");
    let r = crate::common::collect(cmd.output().expect("run"));
    assert_eq!(r.code, 10, "{}", r.stderr);
}

#[test]
fn every_request_carries_the_tools_the_quoted_message_and_the_key_only_as_a_header() {
    let env = world();
    let model = FakeModel::start();
    model.then_calls(&[("reject", json!({"reason": "I only handle tasks"}))]);
    model.then_calls(&[("reject", json!({"reason": "I only handle tasks"}))]);
    chat(&env, &model, &["hello there"]);
    chat(&env, &model, &["--reply-to", "На сегодня (1):\n1. HOME-3 Купить плитку", "а это когда?"]);
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    for r in &requests {
        let body = r.json();
        let tools: Vec<&str> =
            body["tools"].as_array().expect("tools").iter().filter_map(|t| t["function"]["name"].as_str()).collect();
        assert_eq!(
            tools,
            [
                "create_task",
                "update_task",
                "close_task",
                "cancel_task",
                "list_tasks",
                "defer_today_to_tomorrow",
                "clarify",
                "reject"
            ]
        );
        assert_eq!(body["model"], "test-model");
        assert_eq!(r.header("authorization"), Some(format!("Bearer {KEY}").as_str()));
        assert!(!r.body.contains(KEY), "the key is not in the body");
        let user = body["messages"][1]["content"].as_str().expect("user message");
        assert!(user.contains("Today: 2026-11-29 (Sunday)"), "{user}");
        assert!(user.contains("HOME-1 | Позвонить Ане про плитку | HOME | - | none"), "{user}");
        let system = body["messages"][0]["content"].as_str().expect("system");
        assert!(system.contains("- HOME: Дом — квартира, ремонт, семья"), "{system}");
    }
    let quoted = requests[1].json()["messages"][1]["content"].as_str().expect("user").to_string();
    assert!(
        quoted.contains("The person replies to this bot message:\n«На сегодня (1):\n1. HOME-3 Купить плитку»"),
        "{quoted}"
    );
}

#[test]
fn free_text_can_be_switched_off_and_slash_commands_still_work() {
    let env = world();
    let model = FakeModel::start();
    let r = chat_env(&env, &model, &["--json", "сделала позвонить Ане"], &[("TASKS_CONVERSATIONAL", "off")]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.error()["message"].as_str().expect("message").contains("switched off"));
    let r = chat_env(&env, &model, &["/today"], &[("TASKS_CONVERSATIONAL", "off")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("2. HOME-3"), "{}", r.stdout);
    assert!(model.requests().is_empty(), "the model was never asked");
    let r = chat_env(&env, &model, &["hi"], &[("TASKS_CONVERSATIONAL", "maybe")]);
    assert_eq!(r.code, 3, "{}", r.stderr);
}

#[test]
fn slash_commands_act_on_the_last_list_shown() {
    let env = world();
    env.init_store();
    let run = |args: &[&str]| {
        let mut all = vec!["chat"];
        all.extend_from_slice(args);
        env.ok(&all)
    };
    let r = run(&["/overdue"]);
    assert!(r.stdout.contains("1. WORK-1"), "{}", r.stdout);
    run(&["/date", "1", "friday"]);
    assert_eq!(task(&env, "WORK-1")["due"], "2026-12-04");
    run(&["/inbox"]);
    run(&["/text 1 Buy A4 printer paper"]);
    assert_eq!(task(&env, "INBOX-1")["title"], "Buy A4 printer paper");
    run(&["/proj", "1", "work"]);
    assert_eq!(task(&env, "INBOX-1")["project"], "WORK");
    run(&["/del", "WORK-2"]);
    assert_eq!(status(&env, "WORK-2"), "dismissed");
    let r = run(&["/done", "week"]);
    assert!(r.stdout.contains("Done this week: nothing."), "{}", r.stdout);
    let r = env.run(&["chat", "/del", "7"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("the last list has"), "{}", r.stderr);
    let r = run(&["/help"]);
    assert!(r.stdout.contains("/today"), "{}", r.stdout);
    // Conversations are apart: another has shown no list.
    let r = env.run(&["chat", "--conversation", "phone", "/del", "1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_dry_run_plans_and_writes_nothing() {
    let env = world();
    let before = snapshot(&env);
    let v = env.json(&["chat", "--offline", "--dry-run", "сделала позвонить Ане"]);
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["calls"][0]["tool"], "clarify");
    assert!(v.get("results").is_none());
    // Nothing remembered: «вторую» is no answer now.
    let v = env.json(&["chat", "--offline", "--dry-run", "вторую"]);
    assert_eq!(v["calls"][0]["tool"], "reject", "{v}");
    let v = env.json(&["chat", "--offline", "--dry-run", "перенеси отчёт WORK-1 на пятницу"]);
    assert_eq!(
        v["calls"][0],
        json!({"tool": "update_task", "arguments": {"id": "WORK-1", "deadline_kind": "day", "deadline": "2026-12-04"}})
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn without_a_model_the_offline_parser_answers_and_says_when_it_cannot() {
    let env = world();
    let r = env.ok(&["chat", "купить хлеб завтра"]);
    assert!(r.stdout.contains("Создана: INBOX-2 «купить хлеб» — Входящие, срок: завтра (2026-11-30)"), "{}", r.stdout);
    let r = env.ok(&["chat", "как дела?"]);
    assert!(r.stdout.contains("Не понял"), "{}", r.stdout);
    // A held-back duplicate, then «да».
    let r = env.ok(&["chat", "добавь купить плитку в ванную"]);
    assert!(r.stdout.contains("похоже на то, что уже есть"), "{}", r.stdout);
    assert!(r.stdout.contains("HOME-3"), "{}", r.stdout);
    let r = env.ok(&["chat", "да"]);
    assert!(r.stdout.contains("Создана:"), "{}", r.stdout);
}

#[test]
fn text_from_people_and_models_is_never_written_raw() {
    let env = world();
    let model = FakeModel::start();
    model.then_calls(&[(
        "create_task",
        json!({"text": "evil \u{1b}]52;c;SGVsbG8=\u{7} title", "deadline_kind": "none"}),
    )]);
    let r = chat(&env, &model, &["add evil title"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\u{1b}'), "{:?}", r.stdout);
    assert!(r.stdout.contains("\\x1b]52"), "{:?}", r.stdout);
}

/// Against a real provider: `TASKS_LLM_API_KEY=… cargo test -p tasks-cli -- --ignored live`.
#[test]
#[ignore = "needs a real provider: set TASKS_LLM_API_KEY (and TASKS_LLM_MODEL, TASKS_LLM_BASE_URL)"]
fn live_provider_closes_the_clear_task_and_asks_about_twins() {
    let Ok(key) = std::env::var("TASKS_LLM_API_KEY") else {
        tasks_testkit::skip::skipped("live_provider", "TASKS_LLM_API_KEY is not set");
        return;
    };
    let env = world();
    let with_model = |args: &[&str]| {
        let mut all = vec!["chat", "--json"];
        all.extend_from_slice(args);
        let mut cmd = env.command(&all);
        cmd.env("TASKS_LLM_API_KEY", &key)
            .env("TASKS_LLM_MODEL", std::env::var("TASKS_LLM_MODEL").unwrap_or_else(|_| "openai/gpt-4o-mini".into()));
        if let Ok(url) = std::env::var("TASKS_LLM_BASE_URL") {
            cmd.env("TASKS_LLM_BASE_URL", url);
        }
        crate::common::collect(cmd.output().expect("run"))
    };
    let r = with_model(&["сделала позвонить Ане"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["calls"][0]["tool"], "clarify", "{}", r.stdout);
    let r = with_model(&["write the quarterly report is done"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(status(&env, "WORK-1"), "done", "{}", r.stdout);
    assert!(!r.stdout.contains(&key) && !r.stderr.contains(&key));
}
