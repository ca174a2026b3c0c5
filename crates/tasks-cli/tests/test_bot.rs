//! The Telegram bot and scheduled prompts (issue 13), against a fake Bot API and a
//! scripted model on 127.0.0.1: the real binary, a real store. Today is Sunday
//! 2026-11-29, 13:00 in Berlin.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tasks_testkit::openai::FakeModel;
use tasks_testkit::telegram::{FakeTelegram, message, press, reply};

use crate::common::{Run, TestEnv};

const TOKEN: &str = "123456:TEST-token-never-shown";
const CHAT: i64 = 4711;
const STRANGER: i64 = 666;

fn bot_command(env: &TestEnv, tg: &FakeTelegram, model: Option<&FakeModel>, args: &[&str]) -> std::process::Command {
    let mut cmd = env.command(args);
    cmd.env("TELEGRAM_BOT_TOKEN", TOKEN)
        .env("TASKS_TELEGRAM_CHATS", CHAT.to_string())
        .env("TASKS_TELEGRAM_API_URL", tg.api_url());
    if let Some(m) = model {
        cmd.env("TASKS_LLM_BASE_URL", m.base_url()).env("TASKS_LLM_MODEL", "test-model");
    }
    cmd
}

/// Runs `tasks bot telegram --once`; the token is in no output.
fn once(env: &TestEnv, tg: &FakeTelegram, model: Option<&FakeModel>) -> Run {
    let r = crate::common::collect(bot_command(env, tg, model, &["bot", "telegram", "--once"]).output().expect("bot"));
    assert!(!r.stdout.contains(TOKEN) && !r.stderr.contains(TOKEN), "the token reached the output: {}", r.stderr);
    r
}

fn world() -> TestEnv {
    world_in(TestEnv::new())
}

/// The same three tasks in `env` (a SQLite file or a PostgreSQL database).
fn world_in(env: TestEnv) -> TestEnv {
    env.ok(&["project", "add", "HOME", "Дом"]);
    for t in ["Позвонить Ане про плитку", "Позвонить Ане насчёт дня рождения", "Купить затирку"]
    {
        env.ok(&["add", t, "--project", "HOME", "--new"]);
    }
    env
}

fn status(env: &TestEnv, key: &str) -> String {
    env.json(&["show", key])["task"]["status"].as_str().expect("status").to_string()
}

/// On both engines (issue 34).
#[test]
fn an_allowed_chat_is_answered_and_any_other_chat_gets_nothing() {
    for env in TestEnv::engines("pg_bot_allowed") {
        an_allowed_chat_is_answered_and_any_other_chat_gets_nothing_on(world_in(env));
    }
}

fn an_allowed_chat_is_answered_and_any_other_chat_gets_nothing_on(env: TestEnv) {
    let tg = FakeTelegram::start(TOKEN);
    tg.push(vec![message(1, STRANGER, 10, "сделала купить затирку"), message(2, CHAT, 11, "/today")]);
    let r = once(&env, &tg, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(tg.texts_to(STRANGER).is_empty(), "no answer to a stranger");
    assert_eq!(status(&env, "HOME-3"), "open", "and no action");
    assert!(r.stderr.contains(&format!("chat {STRANGER}")), "{}", r.stderr);
    assert!(!r.stderr.contains("затирку"), "the log never holds a message's text: {}", r.stderr);
    let to_me = tg.texts_to(CHAT);
    assert_eq!(to_me.len(), 1, "{to_me:?}");
    assert!(to_me[0].contains("Today: nothing.") || to_me[0].contains("На сегодня: пусто."), "{to_me:?}");
    // The offset moved past both: a second run fetches nothing old.
    let r = once(&env, &tg, None);
    assert_eq!(r.code, 0);
    assert_eq!(tg.offsets().last().copied().flatten(), Some(3));
    assert_eq!(tg.texts_to(CHAT).len(), 1, "nothing answered twice");
}

#[test]
fn it_refuses_to_start_without_an_allow_list_or_a_token() {
    let env = TestEnv::new();
    env.init_store();
    let tg = FakeTelegram::start(TOKEN);
    let mut cmd = bot_command(&env, &tg, None, &["--json", "bot", "telegram", "--once"]);
    cmd.env_remove("TASKS_TELEGRAM_CHATS");
    let r = crate::common::collect(cmd.output().expect("bot"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.error()["message"].as_str().expect("message").contains("TASKS_TELEGRAM_CHATS"), "{}", r.stderr);
    let mut cmd = bot_command(&env, &tg, None, &["--json", "bot", "telegram", "--once"]);
    cmd.env_remove("TELEGRAM_BOT_TOKEN");
    let r = crate::common::collect(cmd.output().expect("bot"));
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.error()["message"].as_str().expect("message").contains("TELEGRAM_BOT_TOKEN"));
    // A wrong token: Telegram's 401, exit 4, and the token is not said.
    let mut cmd = bot_command(&env, &tg, None, &["--json", "bot", "telegram", "--once"]);
    cmd.env("TELEGRAM_BOT_TOKEN", "999:wrong-secret");
    let r = crate::common::collect(cmd.output().expect("bot"));
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(!r.stderr.contains("wrong-secret"), "{}", r.stderr);
}

#[test]
fn a_reply_passes_the_quoted_message_to_the_model() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    model.then_calls(&[("close_task", json!({"id": "HOME-3"}))]);
    tg.push(vec![reply(1, CHAT, 21, "done with this one", "📅 Today (1):\n1. HOME-3 «Купить затирку»")]);
    let r = once(&env, &tg, Some(&model));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let body = model.requests()[0].json();
    let user = body["messages"][1]["content"].as_str().expect("user message");
    assert!(
        user.contains("The person replies to this bot message:\n«📅 Today (1):\n1. HOME-3 «Купить затирку»»"),
        "{user}"
    );
    assert!(tg.calls().iter().any(|c| c.method == "sendchataction"), "typing while the model works");
    let sent = tg.calls().into_iter().filter(|c| c.method == "sendmessage").collect::<Vec<_>>();
    assert_eq!(sent[0].body["reply_parameters"]["message_id"], 21, "the answer replies to the message");
    assert_eq!(status(&env, "HOME-3"), "done");
}

/// On both engines (issue 34).
#[test]
fn a_clarify_button_runs_the_chosen_action_once() {
    for env in TestEnv::engines("pg_bot_button") {
        a_clarify_button_runs_the_chosen_action_once_on(world_in(env));
    }
}

fn a_clarify_button_runs_the_chosen_action_once_on(env: TestEnv) {
    let tg = FakeTelegram::start(TOKEN);
    // Offline: the two «Аня» tasks make a question with a button per task.
    tg.push(vec![message(1, CHAT, 31, "сделала позвонить Ане")]);
    once(&env, &tg, None);
    let sent = tg.calls().into_iter().filter(|c| c.method == "sendmessage").collect::<Vec<_>>();
    let keyboard = &sent[0].body["reply_markup"]["inline_keyboard"];
    assert_eq!(keyboard.as_array().expect("rows").len(), 2, "{}", sent[0].body);
    let rows = keyboard.as_array().expect("rows");
    let row =
        rows.iter().find(|r| r[0]["text"].as_str().unwrap_or("").contains("HOME-2")).expect("a button for HOME-2");
    let second = row[0]["callback_data"].as_str().expect("data").to_string();
    // The press runs it.
    tg.push(vec![press(2, CHAT, &second)]);
    once(&env, &tg, None);
    assert_eq!(status(&env, "HOME-2"), "done");
    assert_eq!(status(&env, "HOME-1"), "open");
    assert!(tg.calls().iter().any(|c| c.method == "answercallbackquery"));
    // A second press of the same button does nothing.
    let before = env.json(&["history", "HOME-2"]);
    tg.push(vec![press(3, CHAT, &second)]);
    once(&env, &tg, None);
    assert_eq!(env.json(&["history", "HOME-2"]), before, "nothing changed");
    let last = tg.texts_to(CHAT).last().cloned().unwrap_or_default();
    assert!(last.contains("закрыт") || last.contains("closed already"), "{last}");
}

#[test]
fn a_scheduled_prompt_and_a_message_in_one_chat_are_answered_in_order() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    prompt_fired(&env, "Morning digest", "Что просрочено?", &[]);
    // The firing waits in the chat's queue; then the person writes.
    tg.push(vec![message(1, CHAT, 41, "/today")]);
    model.then_calls(&[("list_tasks", json!({"filter": "overdue"}))]);
    model.then(tasks_testkit::http::Response::json(
        200,
        json!({"choices": [{"message": {"content": "Ничего не просрочено."}}]}).to_string(),
    ));
    let r = once(&env, &tg, Some(&model));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let texts = tg.texts_to(CHAT);
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].contains("INBOX-1") && texts[0].contains("Ничего не просрочено."), "the firing first: {texts:?}");
    assert!(texts[1].contains("На сегодня") || texts[1].contains("Today"), "then the message: {texts:?}");
    // The read's result went back to the model as a tool message.
    let second = model.requests()[1].json();
    let roles: Vec<&str> =
        second["messages"].as_array().expect("messages").iter().filter_map(|m| m["role"].as_str()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
    let jobs = env.json(&["jobs", "INBOX-1"]);
    assert_eq!(jobs["items"][0]["state"], "succeeded", "{jobs}");
}

/// On both engines (issue 34).
#[test]
fn a_killed_bot_answers_its_pending_item_once_after_a_restart() {
    for env in TestEnv::engines("pg_bot_killed") {
        a_killed_bot_answers_its_pending_item_once_after_a_restart_on(world_in(env));
    }
}

fn a_killed_bot_answers_its_pending_item_once_after_a_restart_on(env: TestEnv) {
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    // The first message's answer is slow: the bot is killed while it waits.
    model.then_late(Duration::from_secs(30), &[("reject", json!({"reason": "late"}))]);
    model.then_calls(&[("close_task", json!({"id": "HOME-3"}))]);
    tg.push(vec![message(1, CHAT, 51, "first thing"), message(2, CHAT, 52, "купила затирку")]);
    let mut bot: Child = bot_command(&env, &tg, Some(&model), &["bot", "telegram"])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("bot");
    let started = Instant::now();
    while model.requests().is_empty() {
        assert!(started.elapsed() < Duration::from_secs(20), "the bot never asked the model");
        std::thread::sleep(Duration::from_millis(50));
    }
    bot.kill().expect("kill -9");
    bot.wait().expect("reaped");
    assert!(tg.texts_to(CHAT).is_empty(), "nothing was answered before the kill");
    // A new bot: the interrupted item is said, the pending one answered — once.
    let r = once(&env, &tg, Some(&model));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let texts = tg.texts_to(CHAT);
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].contains("stopped while answering «first thing»"), "{texts:?}");
    assert!(texts[1].contains("HOME-3"), "{texts:?}");
    assert_eq!(status(&env, "HOME-3"), "done");
    let r = once(&env, &tg, Some(&model));
    assert_eq!(r.code, 0);
    assert_eq!(tg.texts_to(CHAT).len(), 2, "answered exactly once");
}

#[test]
fn a_long_reply_arrives_as_two_messages() {
    let env = TestEnv::new();
    // Thirty long titles due today: the list is longer than one Telegram message.
    let lines: Vec<String> = (0..30)
        .map(|i| json!({"title": format!("Task {i:02}: {}", "a long description of what to do ".repeat(4)), "due": "2026-11-29"}).to_string())
        .collect();
    let file = env.write("long.jsonl", &(lines.join("\n") + "\n"));
    env.ok(&["import", file.to_str().expect("path")]);
    let tg = FakeTelegram::start(TOKEN);
    tg.push(vec![message(1, CHAT, 61, "/today")]);
    once(&env, &tg, None);
    let texts = tg.texts_to(CHAT);
    assert_eq!(texts.len(), 2, "{}", texts.iter().map(|t| t.len().to_string()).collect::<Vec<_>>().join(","));
    assert!(texts.iter().all(|t| t.encode_utf16().count() <= 4096));
    assert!(texts[1].starts_with(|c: char| c.is_ascii_digit()), "split at a line end: {:?}", &texts[1][..40]);
    assert_eq!(texts.concat().matches("INBOX-").count(), 30, "nothing lost");
}

#[test]
fn slash_commands_work_when_free_text_is_off() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    tg.push(vec![
        message(1, CHAT, 71, "/del 3"),
        message(2, CHAT, 72, "/inbox"),
        message(3, CHAT, 73, "купила затирку"),
    ]);
    let mut cmd = bot_command(&env, &tg, None, &["bot", "telegram", "--once"]);
    cmd.env("TASKS_CONVERSATIONAL", "off");
    let r = crate::common::collect(cmd.output().expect("bot"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let texts = tg.texts_to(CHAT);
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[0].contains("no list was shown"), "{texts:?}");
    assert!(texts[2].contains("switched off"), "{texts:?}");
    assert_eq!(status(&env, "HOME-3"), "open");
}

#[test]
fn the_queue_answers_queue_commands_at_once() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    env.ok(&["add", "Digest", "--new"]);
    env.ok(&["schedule", "add", "INBOX-1", "--daily", "08:00", "--prompt", "digest", "--telegram", &CHAT.to_string()]);
    env.ok(&["schedule", "run-now", "INBOX-1"]);
    tg.push(vec![message(1, CHAT, 81, "/queue")]);
    // Without a model the firing would fail: answer only the queue command.
    let mut cmd = bot_command(&env, &tg, None, &["bot", "telegram", "--once"]);
    cmd.env("TASKS_CONVERSATIONAL", "on");
    crate::common::collect(cmd.output().expect("bot"));
    let texts = tg.texts_to(CHAT);
    assert!(texts[0].contains("#1 pending firing: INBOX-1"), "{texts:?}");
    // The firing then ran and failed for want of a model, and said so.
    assert!(texts.iter().any(|t| t.contains("no model is configured")), "{texts:?}");
    tg.push(vec![message(2, CHAT, 82, "/cancel 99")]);
    once(&env, &tg, None);
    assert!(tg.texts_to(CHAT).last().expect("reply").contains("Cannot remove #99"));
}

/// Adds a task (INBOX-1), schedules `prompt` into the chat daily at 08:00 with `extra`
/// flags, and fires it once (run-now): the firing waits in the chat's queue.
fn prompt_fired(env: &TestEnv, title: &str, prompt: &str, extra: &[&str]) {
    env.ok(&["add", title, "--new"]);
    let chat = CHAT.to_string();
    let mut args = vec!["schedule", "add", "INBOX-1", "--daily", "08:00", "--prompt", prompt];
    args.extend_from_slice(extra);
    args.extend(["--telegram", chat.as_str()]);
    env.ok(&args);
    env.ok(&["schedule", "run-now", "INBOX-1"]);
}

fn job_of(env: &TestEnv, key: &str) -> Value {
    env.json(&["jobs", key])["items"][0].clone()
}

#[test]
fn an_execute_prompt_waits_for_approval_and_approval_finishes_the_same_job() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    prompt_fired(&env, "Tidy up", "Close what I bought", &["--mode", "execute"]);
    model.then_calls(&[("close_task", json!({"id": "HOME-3"}))]);
    once(&env, &tg, Some(&model));
    let job = job_of(&env, "INBOX-1");
    assert_eq!(job["state"], "waiting_approval", "{job}");
    assert_eq!(status(&env, "HOME-3"), "open", "nothing written before approval");
    let asked = tg.calls().into_iter().rfind(|c| c.method == "sendmessage").expect("asked");
    let buttons = &asked.body["reply_markup"]["inline_keyboard"][0];
    let id = job["id"].as_i64().expect("id");
    assert_eq!(buttons[0]["callback_data"], format!("a:{id}:y"));
    // Approve from the command line: the same Job ends succeeded, the write done.
    let v = env.json(&["jobs", "approve", &id.to_string()]);
    assert_eq!(v["job"]["state"], "succeeded", "{v}");
    assert_eq!(v["job"]["id"], id);
    assert_eq!(status(&env, "HOME-3"), "done");
    // An approval is used once.
    assert_eq!(env.fails(&["jobs", "approve", &id.to_string()], 15)["details"]["status"], "succeeded");
}

#[test]
fn a_rejected_prompt_does_nothing_and_fails() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    prompt_fired(&env, "Tidy up", "Cancel it", &["--mode", "execute"]);
    model.then_calls(&[("cancel_task", json!({"id": "HOME-3"}))]);
    once(&env, &tg, Some(&model));
    let id = job_of(&env, "INBOX-1")["id"].as_i64().expect("id");
    // The chat's Reject button.
    tg.push(vec![press(1, CHAT, &format!("a:{id}:n"))]);
    once(&env, &tg, Some(&model));
    let job = job_of(&env, "INBOX-1");
    assert_eq!(job["state"], "failed", "{job}");
    assert!(job["reason"].as_str().expect("reason").contains("rejected"), "{job}");
    assert_eq!(status(&env, "HOME-3"), "open");
}

#[test]
fn an_ask_prompt_can_never_write() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    prompt_fired(&env, "Digest", "Summarize", &[]);
    let before = env.json(&["list", "--status", "all"]);
    // The model asks for a write in ask mode: refused, recorded, nothing written.
    model.then_calls(&[("close_task", json!({"id": "HOME-3"}))]);
    model.then(tasks_testkit::http::Response::json(
        200,
        json!({"choices": [{"message": {"content": "Done summarizing."}}]}).to_string(),
    ));
    once(&env, &tg, Some(&model));
    assert_eq!(env.json(&["list", "--status", "all"]), before, "the store is unchanged");
    let job = job_of(&env, "INBOX-1");
    assert_eq!(job["state"], "succeeded", "{job}");
    let detail = env.json(&["jobs", "--id", &job["id"].as_i64().expect("id").to_string()]);
    let output = detail["job"]["runs"][0]["output"].as_str().unwrap_or_default().to_string();
    assert!(output.contains("refused: close_task (ask mode offers read-only tools only)"), "{detail}");
    // Only the read tool was offered.
    let tools: Vec<String> = model.requests()[0].json()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect();
    assert_eq!(tools, ["list_tasks"]);
}

#[test]
fn a_prompt_that_exceeds_its_budget_fails_with_the_reason() {
    let env = world();
    let tg = FakeTelegram::start(TOKEN);
    let model = FakeModel::start();
    prompt_fired(&env, "Digest", "Look around", &["--max-tool-calls", "2"]);
    let read = ("list_tasks", json!({"filter": "today"}));
    model.then_calls(&[read.clone(), read.clone(), read]);
    once(&env, &tg, Some(&model));
    let job = job_of(&env, "INBOX-1");
    assert_eq!(job["state"], "failed", "{job}");
    assert_eq!(job["reason"], "budget: more than 2 tool calls");
}

/// On both engines (issue 34): on PostgreSQL the team daemon runs the bot beside its
/// planning.
#[test]
fn the_daemon_runs_the_bot_beside_the_scheduler() {
    for env in TestEnv::engines("pg_bot_daemon") {
        the_daemon_runs_the_bot_on(world_in(env));
    }
}

fn the_daemon_runs_the_bot_on(env: TestEnv) {
    let tg = FakeTelegram::start(TOKEN);
    tg.push(vec![message(1, CHAT, 91, "/today")]);
    let r = crate::common::collect(
        bot_command(&env, &tg, None, &["daemon", "--once", "--telegram"]).output().expect("daemon"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(tg.texts_to(CHAT).len(), 1, "{:?}", tg.texts_to(CHAT));
    // Without --telegram the daemon leaves Telegram alone.
    tg.push(vec![message(2, CHAT, 92, "/today")]);
    let r = crate::common::collect(bot_command(&env, &tg, None, &["daemon", "--once"]).output().expect("daemon"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(tg.texts_to(CHAT).len(), 1);
}

/// The keys of a list the bot sent, in its order.
fn keys_of_list(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            n.trim().parse::<usize>().ok()?;
            rest.split_whitespace().next().map(str::to_string)
        })
        .collect()
}

/// Issue 35 (seed 001: the reply is the context). A reply «сделала первую и третью» to
/// the bot's own `/today` closes exactly those two tasks, with no question, though the
/// chat was shown another list since; a quoted list the bot did not send is read by
/// exact titles; a line that is the title of two open tasks is asked about.
#[test]
fn a_reply_to_a_list_is_read_against_that_list() {
    let env = TestEnv::new();
    for t in ["Купить затирку", "Позвонить маляру", "Забрать плитку", "Оплатить интернет"]
    {
        env.ok(&["add", t, "--due", "2026-11-29", "--new"]);
    }
    env.ok(&["add", "Полить цветы", "--new"]);
    env.ok(&["add", "Полить цветы", "--new"]);
    env.ok(&["add", "Сдать куртку в химчистку", "--due", "2026-11-20", "--new"]);
    let tg = FakeTelegram::start(TOKEN);
    tg.push(vec![message(1, CHAT, 11, "/today")]);
    assert_eq!(once(&env, &tg, None).code, 0);
    let list = tg.texts_to(CHAT)[0].clone();
    let keys = keys_of_list(&list);
    assert_eq!(keys.len(), 5, "today and overdue: {list}");
    // Another list is shown in between: the reply still means the quoted one.
    tg.push(vec![message(2, CHAT, 13, "/overdue")]);
    once(&env, &tg, None);
    tg.push(vec![reply(3, CHAT, 15, "сделала первую и третью", &list)]);
    once(&env, &tg, None);
    let answer = tg.texts_to(CHAT).last().cloned().unwrap_or_default();
    assert!(!answer.contains('?'), "no question: {answer}");
    for (i, key) in keys.iter().enumerate() {
        let want = if i == 0 || i == 2 { "done" } else { "open" };
        assert_eq!(status(&env, key), want, "position {} ({key}): {answer}", i + 1);
    }
    // A list the bot never sent, quoted: its lines are exact titles.
    let open: Vec<&String> = keys.iter().enumerate().filter(|(i, _)| *i == 1 || *i == 3).map(|(_, k)| k).collect();
    let title_of = |key: &str| env.json(&["show", key])["task"]["title"].as_str().expect("title").to_string();
    let theirs = format!("мой список на сегодня:\n1. {}\n2. {}", title_of(open[1]), title_of(open[0]));
    tg.push(vec![reply(4, CHAT, 17, "сделала первую", &theirs)]);
    once(&env, &tg, None);
    assert_eq!(status(&env, open[1]), "done", "the first quoted line");
    assert_eq!(status(&env, open[0]), "open");
    // A line that is the title of two open tasks: asked, neither closed.
    let before = tg.texts_to(CHAT).len();
    tg.push(vec![reply(5, CHAT, 19, "сделала первую", "1. Полить цветы\n2. Купить хлеб")]);
    once(&env, &tg, None);
    let asked = tg.texts_to(CHAT)[before..].join("\n");
    assert!(asked.contains("INBOX-5") && asked.contains("INBOX-6"), "both are offered: {asked}");
    assert_eq!((status(&env, "INBOX-5"), status(&env, "INBOX-6")), ("open".to_string(), "open".to_string()));
}
