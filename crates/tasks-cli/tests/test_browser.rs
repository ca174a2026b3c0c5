//! The Task Center in a real headless Chromium over WebDriver (issue 14): the modal by
//! keyboard only, its preview against `tasks schedule preview`, run now twice → one
//! Job, removing a queued item, approving a waiting Job. Screenshots go to
//! `$CARGO_TARGET_TMPDIR/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them when
//! missing). Where neither can be had, each test records a skip — never a pass.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tasks_testkit::openai::FakeModel;

use crate::common::TestEnv;
use crate::web_common::{Served, wait_until};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// A chromedriver process; killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn binary(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(default))
}

/// Starts chromedriver, or records the skip and returns `None`.
fn driver(test: &str) -> Option<Driver> {
    let driver = binary("TASKS_CHROMEDRIVER", CHROMEDRIVER);
    let chromium = binary("TASKS_CHROMIUM", CHROMIUM);
    for p in [&driver, &chromium] {
        if !p.exists() {
            tasks_testkit::skip::skipped(
                test,
                &format!("{} is missing: install Debian's chromium and chromium-driver (.ci/run does)", p.display()),
            );
            return None;
        }
    }
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port");
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let d = Driver { child, url: format!("http://127.0.0.1:{port}") };
    wait_until("chromedriver to listen", || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
    Some(d)
}

async fn browser(d: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": binary("TASKS_CHROMIUM", CHROMIUM),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US"],
        }),
    );
    // chromedriver is plain HTTP on loopback: no TLS stack needed.
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector).capabilities(caps).connect(&d.url).await.expect("a browser session")
}

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    let path = screenshots().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("write screenshot");
    eprintln!("screenshot: {}", path.display());
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

async fn active_id(c: &Client) -> String {
    c.execute("return document.activeElement ? (document.activeElement.id || document.activeElement.name + ':' + document.activeElement.value) : ''", vec![])
        .await
        .expect("active")
        .as_str()
        .unwrap_or("")
        .to_string()
}

async fn focus_in_modal(c: &Client) -> bool {
    c.execute("return document.getElementById('modal').contains(document.activeElement)", vec![])
        .await
        .expect("contains")
        .as_bool()
        .unwrap_or(false)
}

async fn press(c: &Client, keys: &str) {
    c.active_element().await.expect("active element").send_keys(keys).await.expect("keys");
}

fn key(k: Key) -> String {
    char::from(k).to_string()
}

/// Ctrl+A (modifiers stay down until Null), then the text.
fn select_all_then(text: &str) -> String {
    format!("{}a{}{text}", key(Key::Control), key(Key::Null))
}

/// Presses Tab until the focused element is `target` (an id, or `name:value`), checking
/// after every press that focus never left the modal.
async fn tab_to(c: &Client, target: &str) {
    for _ in 0..40 {
        if active_id(c).await == target {
            return;
        }
        press(c, &key(Key::Tab)).await;
        assert!(focus_in_modal(c).await, "Tab left the modal (looking for {target})");
    }
    panic!("Tab never reached {target}; at {}", active_id(c).await);
}

async fn wait_for(c: &Client, what: &str, script: &str) -> Value {
    for _ in 0..100 {
        let v = c.execute(script, vec![]).await.expect("script");
        if !v.is_null() && v != Value::Bool(false) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {what}");
}

/// Fills the open modal with the keyboard alone: "Weekly review", its requirement,
/// Fridays at 17:00 in Europe/Berlin (focus starts in the name field).
async fn fill_weekly_review(c: &Client) {
    press(c, "Weekly review").await;
    tab_to(c, "f-requirement").await;
    press(c, "List what I finished this week").await;
    tab_to(c, "weekday:fri").await;
    press(c, " ").await;
    tab_to(c, "f-time").await;
    press(c, &select_all_then("17:00")).await;
    tab_to(c, "f-zone").await;
    press(c, &select_all_then("Europe/Berlin")).await;
}

fn world() -> TestEnv {
    let env = TestEnv::new();
    env.ok(&["add", "Pay rent", "--due", "today"]);
    env.ok(&["add", "Call the bank", "--blocked-by", "INBOX-1"]);
    env
}

#[test]
fn the_modal_by_keyboard_run_now_once_and_a_queued_item_removed() {
    let test = "test_browser::the_modal_by_keyboard_run_now_once_and_a_queued_item_removed";
    let Some(d) = driver(test) else { return };
    let env = world();
    let s = Served::start(&env, &[]);
    runtime().block_on(async {
        let c = browser(&d).await;
        c.goto(&s.link()).await.expect("open the link");
        c.wait().for_element(Locator::Css("#new-task")).await.expect("the Task Center");
        shot(&c, "task-center-empty").await;

        // Open by keyboard; focus lands on the first required field; Escape returns it.
        c.find(Locator::Css("#new-task")).await.expect("button").send_keys(&key(Key::Enter)).await.expect("enter");
        wait_for(&c, "the modal", "return !document.getElementById('modal-backdrop').hidden").await;
        assert_eq!(active_id(&c).await, "f-name", "focus starts in the first required field");
        let dialog = c.find(Locator::Css("#modal")).await.expect("dialog");
        assert_eq!(dialog.attr("role").await.expect("role").as_deref(), Some("dialog"));
        assert_eq!(dialog.attr("aria-modal").await.expect("aria").as_deref(), Some("true"));
        press(&c, &key(Key::Escape)).await;
        wait_for(&c, "the modal to close", "return document.getElementById('modal-backdrop').hidden").await;
        assert_eq!(active_id(&c).await, "new-task", "Escape gives focus back to the opener");

        // Again, and fill it with the keyboard alone.
        press(&c, &key(Key::Enter)).await;
        wait_for(&c, "the modal", "return document.activeElement.id === 'f-name'").await;
        fill_weekly_review(&c).await;
        // Tab past the last button wraps to the first field, Shift+Tab back.
        tab_to(&c, "modal-submit").await;
        press(&c, &key(Key::Tab)).await;
        assert_eq!(active_id(&c).await, "f-name", "Tab wraps inside the modal");
        press(&c, &format!("{}{}{}", key(Key::Shift), key(Key::Tab), key(Key::Null))).await;
        assert_eq!(active_id(&c).await, "modal-submit", "Shift+Tab wraps back");

        // Five previewed firings, the CLI's.
        let at = wait_for(
            &c,
            "five firings of fri 17:00",
            "const li = document.querySelectorAll('#preview-list li[data-at]'); \
             return li.length === 5 && li[0].textContent.includes('Fri') && li[0].textContent.includes('17:00') \
               ? Array.from(li).map(x => x.dataset.at) : null",
        )
        .await;
        let cli = env.json(&["schedule", "preview", "--weekly", "fri", "17:00", "--tz", "Europe/Berlin"]);
        assert_eq!(at, cli["fires"], "the page previews what the CLI does");
        let summary = c.find(Locator::Css("#summary")).await.expect("summary").text().await.expect("text");
        assert!(summary.contains("✓ Creates a new conversation «Weekly review»"), "{summary}");
        assert!(summary.contains("Execute mode"), "{summary}");
        shot(&c, "create-modal").await;

        // Submit with the keyboard.
        press(&c, &key(Key::Enter)).await;
        c.wait().for_element(Locator::Css("#edit-task")).await.expect("the new Task's page");
        let url = c.current_url().await.expect("url");
        assert!(url.path().starts_with("/center/INBOX-3"), "{url}");
        let shown = env.json(&["schedule", "show", "INBOX-3"]);
        assert_eq!(shown["schedule"]["trigger_text"], "weekly fri 17:00", "{shown}");
        assert_eq!(shown["schedule"]["zone"], "Europe/Berlin");

        // Run now twice quickly (the same rendered key) → one Job; then a real click.
        c.execute_async(
            "const done = arguments[arguments.length - 1]; \
             const f = document.querySelector('form[action$=\"/run-now\"]'); \
             const body = new URLSearchParams(new FormData(f)); \
             Promise.all([fetch(f.action, {method: 'POST', body}), fetch(f.action, {method: 'POST', body})]).then(() => done(true));",
            vec![],
        )
        .await
        .expect("two quick posts");
        c.find(Locator::Css("button.run-now")).await.expect("run now").click().await.expect("click");
        c.wait().for_element(Locator::Css("p.notice")).await.expect("a notice");
        let jobs = env.json(&["jobs", "INBOX-3"]);
        assert_eq!(jobs["items"].as_array().map(Vec::len), Some(1), "one Job for one rendered button: {jobs}");
        assert_eq!(env.json(&["schedule", "show", "INBOX-3"])["schedule"]["next_fire_at"], shown["schedule"]["next_fire_at"]);

        // The conversation: the firing waits in the queue (no model here); remove it.
        let conv = shown["schedule"]["conversation_id"].as_i64().expect("conversation");
        c.goto(&format!("http://{}/conversations/{conv}", s.addr)).await.expect("conversation");
        let item = c.wait().for_element(Locator::Css("li.queued")).await.expect("a queued item");
        assert!(item.text().await.expect("text").contains("INBOX-3"));
        shot(&c, "conversation").await;
        c.find(Locator::Css("li.queued button.remove")).await.expect("remove").click().await.expect("click");
        c.wait().for_element(Locator::Css("p.notice")).await.expect("a notice");
        assert!(c.find_all(Locator::Css("li.queued")).await.expect("items").is_empty(), "the item is gone");
        let job = &env.json(&["jobs", "INBOX-3"])["items"][0];
        assert_eq!(job["state"], "cancelled", "{job}");

        // The daemon, the bot or a CLI writes: the page follows without a reload.
        c.goto(&format!("http://{}/center", s.addr)).await.expect("center");
        c.wait().for_element(Locator::Css("tr[data-task='INBOX-3']")).await.expect("the row");
        c.execute("window.notReloaded = true", vec![]).await.expect("mark");
        shot(&c, "task-center").await;
        env.ok(&["schedule", "pause", "INBOX-3"]);
        wait_for(
            &c,
            "the row to say paused",
            "const r = document.querySelector(\"tr[data-task='INBOX-3']\"); return r && r.textContent.includes('paused') && window.notReloaded === true",
        )
        .await;

        // Today, narrow: the modal is full width with 16 px margins.
        c.goto(&format!("http://{}/today?graph=INBOX-1", s.addr)).await.expect("today");
        c.wait().for_element(Locator::Css("svg.graph")).await.expect("the graph");
        shot(&c, "today").await;
        c.set_window_size(380, 800).await.expect("narrow");
        c.goto(&format!("http://{}/center", s.addr)).await.expect("center");
        c.find(Locator::Css("#new-task")).await.expect("button").click().await.expect("open");
        let margins = wait_for(
            &c,
            "the modal's box",
            "const r = document.getElementById('modal').getBoundingClientRect(); \
             const b = document.getElementById('modal-backdrop'); \
             return r.width > 0 ? [r.left, b.clientWidth - r.right] : null",
        )
        .await;
        let (left, right) = (margins[0].as_f64().expect("left"), margins[1].as_f64().expect("right"));
        assert!((15.0..=17.0).contains(&left) && (15.0..=17.0).contains(&right), "margins {left} / {right}");
        shot(&c, "create-modal-narrow").await;
        c.close().await.expect("close");
    });
}

#[test]
fn a_waiting_job_is_approved_from_the_page() {
    let test = "test_browser::a_waiting_job_is_approved_from_the_page";
    let Some(d) = driver(test) else { return };
    let env = world();
    env.ok(&["add", "Tidy up", "--new"]);
    env.ok(&["schedule", "add", "INBOX-3", "--daily", "08:00", "--prompt", "Close what I paid", "--mode", "execute"]);
    env.ok(&["schedule", "run-now", "INBOX-3"]);
    let model = FakeModel::start();
    model.then_calls(&[("close_task", json!({"id": "INBOX-1"}))]);
    let base = model.base_url();
    let s = Served::start(&env, &[("TASKS_LLM_BASE_URL", &base), ("TASKS_LLM_MODEL", "test-model")]);
    wait_until("the Job to wait for approval", || {
        env.json(&["jobs", "INBOX-3"])["items"][0]["state"] == "waiting_approval"
    });
    assert_eq!(env.json(&["show", "INBOX-1"])["task"]["status"], "open", "nothing written before approval");
    runtime().block_on(async {
        let c = browser(&d).await;
        c.goto(&s.link()).await.expect("open the link");
        let row = c.wait().for_element(Locator::Css("tr.attention")).await.expect("a row that needs attention");
        assert!(row.text().await.expect("text").contains("waiting for approval"));
        c.goto(&format!("http://{}/center/INBOX-3", s.addr)).await.expect("detail");
        shot(&c, "waiting-approval").await;
        c.find(Locator::Css("button.approve")).await.expect("approve").click().await.expect("click");
        let notice = c.wait().for_element(Locator::Css("p.notice")).await.expect("notice");
        assert!(notice.text().await.expect("text").contains("approved"), "{:?}", notice.text().await);
        c.close().await.expect("close");
    });
    let job = &env.json(&["jobs", "INBOX-3"])["items"][0];
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(env.json(&["show", "INBOX-1"])["task"]["status"], "done");
    drop(s);
}

/// Issue 34: the Task Center on a PostgreSQL store, in the browser — the page lists
/// the team's tasks, the modal creates a Task (task, conversation and schedule in one
/// transaction), its page opens, and the team store holds it.
#[test]
fn the_task_center_runs_on_a_postgresql_store() {
    let test = "test_browser::the_task_center_runs_on_a_postgresql_store";
    let Some(d) = driver(test) else { return };
    let Some(env) = TestEnv::postgres("pg_browser_center") else { return };
    env.ok(&["add", "Pay rent", "--due", "today"]);
    let s = Served::start(&env, &[]);
    runtime().block_on(async {
        let c = browser(&d).await;
        c.goto(&s.link()).await.expect("open the link");
        c.wait().for_element(Locator::Css("#new-task")).await.expect("the Task Center");
        c.find(Locator::Css("#new-task")).await.expect("button").send_keys(&key(Key::Enter)).await.expect("enter");
        wait_for(&c, "the modal", "return document.activeElement.id === 'f-name'").await;
        fill_weekly_review(&c).await;
        wait_for(
            &c,
            "the preview",
            "return document.querySelectorAll('#preview-list li[data-at]').length === 5 ? true : null",
        )
        .await;
        shot(&c, "postgres-create-modal").await;
        tab_to(&c, "modal-submit").await;
        press(&c, &key(Key::Enter)).await;
        c.wait().for_element(Locator::Css("#edit-task")).await.expect("the new Task's page");
        let url = c.current_url().await.expect("url");
        assert!(url.path().starts_with("/center/INBOX-2"), "{url}");
        shot(&c, "postgres-task-page").await;
        let shown = env.json(&["schedule", "show", "INBOX-2"]);
        assert_eq!(shown["schedule"]["trigger_text"], "weekly fri 17:00", "{shown}");
        let today = c.goto(&format!("http://{}/today", s.addr)).await;
        today.expect("today");
        let body = c.find(Locator::Css("body")).await.expect("body").text().await.expect("text");
        assert!(body.contains("Pay rent"), "the team's task is on the Today page: {body}");
        shot(&c, "postgres-today").await;
        c.close().await.expect("close");
    });
}
