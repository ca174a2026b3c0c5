//! `tasks serve` over HTTP, without a browser (issue 14): the token, the Host check,
//! CSRF on every write, GET never writes, the listen rule, and the operations behind
//! the page's buttons.

use serde_json::{Value, json};

use crate::common::TestEnv;
use crate::web_common::{Served, dump, wait_until};

fn world() -> TestEnv {
    world_in(TestEnv::new())
}

/// The same store in `env` (a SQLite file or a PostgreSQL database).
fn world_in(env: TestEnv) -> TestEnv {
    env.ok(&["add", "Pay rent", "--due", "today"]);
    env.ok(&["add", "Weekly digest", "--new"]);
    env.ok(&[
        "schedule",
        "add",
        "INBOX-2",
        "--weekly",
        "fri",
        "17:00",
        "--prompt",
        "Sum up my week",
        "--tz",
        "Europe/Berlin",
    ]);
    env
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs.iter().map(|(k, v)| format!("{k}={}", v.replace(' ', "+"))).collect::<Vec<_>>().join("&")
}

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

#[test]
fn a_request_without_the_token_gets_401_and_the_printed_link_sets_a_cookie() {
    let env = world();
    let s = Served::start(&env, &[]);
    assert_eq!(s.token.len(), 64, "a random 32-byte token, as hex");
    for path in ["/", "/center", "/today", "/api/stamp", "/assets/app.js", "/center/INBOX-2"] {
        let r = s.request("GET", path, &[], "");
        assert_eq!(r.status, 401, "{path}: {}", r.body);
        assert!(r.body.contains("tasks serve"), "the refusal says what to do: {}", r.body);
    }
    let wrong = s.request("GET", "/center", &[("Authorization", "Bearer not-the-token")], "");
    assert_eq!(wrong.status, 401);
    let wrong_cookie = s.request("GET", "/center", &[("Cookie", "tasks_session=nope")], "");
    assert_eq!(wrong_cookie.status, 401);
    // The link: a cookie that scripts cannot read and other sites do not send, and the
    // token gone from the address bar.
    let r = s.request("GET", &format!("/center?token={}", s.token), &[], "");
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some("/center"));
    let cookie = r.header("set-cookie").expect("a cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"));
    let page = s.request("GET", "/center", &[("Cookie", &s.cookie())], "");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("INBOX-2"), "{}", page.body);
    assert!(page.header("content-security-policy").is_some_and(|c| c.contains("frame-ancestors 'none'")));
}

#[test]
fn a_foreign_host_header_gets_403_even_with_the_token() {
    let env = world();
    let s = Served::start(&env, &[]);
    let auth = format!("Bearer {}", s.token);
    let port = s.addr.rsplit(':').next().expect("port");
    for host in [format!("evil.example:{port}"), "evil.example".to_string(), format!("127.0.0.1:{}1", port)] {
        let r = s.request("GET", "/center", &[("Host", &host), ("Authorization", &auth)], "");
        assert_eq!(r.status, 403, "{host}: {}", r.body);
    }
    let ok = s.request("GET", "/center", &[("Host", &format!("localhost:{port}")), ("Authorization", &auth)], "");
    assert_eq!(ok.status, 200, "localhost names loopback too");
}

#[test]
fn a_post_without_the_csrf_token_is_refused_and_writes_nothing() {
    let env = world();
    let s = Served::start(&env, &[]);
    let before = dump(&env.db());
    let cookie = s.cookie();
    let body = form(&[("key", "click-1"), ("back", "/center")]);
    // A browser's POST (cookie) without, or with a wrong, CSRF token.
    for extra in [None, Some("_csrf=wrong")] {
        let b = match extra {
            Some(e) => format!("{body}&{e}"),
            None => body.clone(),
        };
        let r = s.request("POST", "/tasks/INBOX-2/run-now", &[("Cookie", &cookie), FORM], &b);
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(r.body.contains("CSRF"), "{}", r.body);
    }
    let json_post = s.request(
        "POST",
        "/api/schedules",
        &[("Cookie", &cookie), ("Content-Type", "application/json"), ("X-CSRF-Token", "wrong")],
        "{}",
    );
    assert_eq!(json_post.status, 403);
    assert_eq!(dump(&env.db()), before, "a refused write changed the store");
    // Other methods are not writes this server takes.
    let put = s.request("PUT", "/tasks/INBOX-2/run-now", &[("Cookie", &cookie)], "");
    assert_eq!(put.status, 405);
    // With the token the same form makes the Job.
    let csrf = s.csrf();
    let r = s.request("POST", "/tasks/INBOX-2/run-now", &[("Cookie", &cookie), FORM], &format!("{body}&_csrf={csrf}"));
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(r.header("location").is_some_and(|l| l.starts_with("/center?notice=")), "{:?}", r.header("location"));
    assert_eq!(env.json(&["jobs", "INBOX-2"])["items"].as_array().map(Vec::len), Some(1));
}

#[test]
fn no_get_writes_anything() {
    let env = world();
    env.ok(&["add", "Call the bank", "--blocked-by", "INBOX-1"]);
    let s = Served::start(&env, &[]);
    // Pages and JSON read the store; make sure each answered before comparing.
    let conversation = env.json(&["schedule", "list"])["items"][0]["conversation_id"].as_i64().expect("conversation");
    let before = dump(&env.db());
    let paths = [
        "/".to_string(),
        "/center".into(),
        "/center/INBOX-2".into(),
        "/conversations".into(),
        format!("/conversations/{conversation}"),
        "/today".into(),
        "/today?graph=INBOX-1".into(),
        "/api/stamp".into(),
        "/api/preview?name=x&requirement=y&frequency=daily&time=09:00&zone=Europe/Berlin&mode=execute".into(),
        "/assets/app.js".into(),
        "/assets/app.css".into(),
        // Write paths asked with GET: not found as pages, and nothing done.
        "/tasks/INBOX-2/run-now?key=k".into(),
        "/tasks/INBOX-1/done".into(),
    ];
    for p in &paths {
        let r = s.get(p);
        assert!(r.status < 500, "{p}: {}", r.status);
    }
    assert_eq!(dump(&env.db()), before, "a GET changed the store");
    assert_eq!(env.json(&["show", "INBOX-1"])["task"]["status"], "open");
}

#[test]
fn a_non_loopback_listen_needs_a_token_chosen_by_the_person() {
    let env = world();
    let r = env.run(&["serve", "--listen", "0.0.0.0:0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--token"), "{}", r.stderr);
    assert!(r.stderr.contains("0.0.0.0"), "{}", r.stderr);
    let bad = env.run(&["serve", "--listen", "somewhere"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    let short = env.run(&["serve", "--token", "short"]);
    assert_eq!(short.code, 2, "{}", short.stderr);
}

#[test]
fn run_now_with_the_same_click_key_makes_one_job_and_leaves_the_next_firing() {
    let env = world();
    let s = Served::start(&env, &[]);
    let next = env.json(&["schedule", "show", "INBOX-2"])["schedule"]["next_fire_at"].clone();
    let csrf = s.csrf();
    let body = form(&[("key", "same-click"), ("_csrf", &csrf)]);
    let threads: Vec<_> = (0..3)
        .map(|_| {
            let addr = s.addr.clone();
            let cookie = s.cookie();
            let body = body.clone();
            std::thread::spawn(move || {
                crate::web_common::send(&addr, "POST", "/tasks/INBOX-2/run-now", &[("Cookie", &cookie), FORM], &body)
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("thread").status, 303);
    }
    let jobs = env.json(&["jobs", "INBOX-2"]);
    assert_eq!(jobs["items"].as_array().map(Vec::len), Some(1), "{jobs}");
    assert_eq!(env.json(&["schedule", "show", "INBOX-2"])["schedule"]["next_fire_at"], next);
    // Another click (another key) makes another Job.
    let other = form(&[("key", "next-click"), ("_csrf", &csrf)]);
    s.request("POST", "/tasks/INBOX-2/run-now", &[("Cookie", &s.cookie()), FORM], &other);
    assert_eq!(env.json(&["jobs", "INBOX-2"])["items"].as_array().map(Vec::len), Some(2));
}

fn post_json(s: &Served, path: &str, body: &Value) -> (u16, Value) {
    let auth = format!("Bearer {}", s.token);
    let r =
        s.request("POST", path, &[("Authorization", &auth), ("Content-Type", "application/json")], &body.to_string());
    (r.status, serde_json::from_str(&r.body).unwrap_or(Value::Null))
}

fn weekly_form() -> Value {
    json!({
        "name": "Weekly review", "requirement": "List what I finished this week",
        "conversation": "new", "mode": "execute", "frequency": "weekly",
        "weekdays": "fri", "time": "17:00", "zone": "Europe/Berlin"
    })
}

/// On both engines (issue 34); the byte-for-byte "nothing written" check reads the
/// SQLite file, on PostgreSQL the schedule list stands in for it.
#[test]
fn the_modal_creates_task_schedule_and_conversation_together_and_names_a_bad_field() {
    for env in TestEnv::engines("pg_web_modal") {
        modal_on(world_in(env));
    }
}

fn written(env: &TestEnv) -> String {
    match env.store_url {
        None => dump(&env.db()),
        Some(_) => format!("{}{}", env.json(&["schedule", "list"]), env.json(&["list", "-s", "all"])),
    }
}

fn modal_on(env: TestEnv) {
    let s = Served::start(&env, &[]);
    // A bad field: named, and nothing written.
    let before = written(&env);
    let mut bad = weekly_form();
    bad["zone"] = json!("Mars/Olympus");
    let (status, v) = post_json(&s, "/api/schedules", &bad);
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["error"]["field"], "zone", "{v}");
    let mut bad = weekly_form();
    bad["time"] = json!("25:99");
    assert_eq!(post_json(&s, "/api/schedules", &bad).1["error"]["field"], "time");
    let mut bad = weekly_form();
    bad["name"] = json!("  ");
    assert_eq!(post_json(&s, "/api/schedules", &bad).1["error"]["field"], "name");
    let mut bad = weekly_form();
    bad["requirement"] = json!("");
    assert_eq!(post_json(&s, "/api/schedules", &bad).1["error"]["field"], "requirement");
    assert_eq!(written(&env), before, "a refused create wrote something");
    // The preview: the CLI's firings, and the summary.
    let q = "name=Weekly+review&requirement=x&conversation=new&mode=execute&frequency=weekly&weekdays=fri&time=17:00&zone=Europe/Berlin";
    let p: Value = serde_json::from_str(&s.get(&format!("/api/preview?{q}")).body).expect("json");
    let cli = env.json(&["schedule", "preview", "--weekly", "fri", "17:00", "--tz", "Europe/Berlin"]);
    let page_at: Vec<&str> =
        p["firings"].as_array().expect("firings").iter().filter_map(|f| f["at"].as_str()).collect();
    let cli_at: Vec<&str> = cli["fires"].as_array().expect("fires").iter().filter_map(|f| f.as_str()).collect();
    assert_eq!(page_at, cli_at);
    let summary = p["summary"].to_string();
    assert!(summary.contains("new conversation «Weekly review»") && summary.contains("Execute"), "{summary}");
    // The create.
    let (status, v) = post_json(&s, "/api/schedules", &weekly_form());
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["new_conversation"], true);
    let key = v["task"].as_str().expect("key");
    let shown = env.json(&["schedule", "show", key]);
    assert_eq!(shown["schedule"]["trigger_text"], "weekly fri 17:00", "{shown}");
    assert_eq!(shown["schedule"]["action"]["mode"], "execute", "{shown}");
    assert_eq!(shown["schedule"]["conversation_id"], v["conversation"]);
    assert_eq!(env.json(&["show", key])["task"]["description"], "List what I finished this week");
    // Edit: later Jobs only — the plan version moves, the conversation stays.
    let mut edit = weekly_form();
    edit["weekdays"] = json!("mon,fri");
    edit["mode"] = json!("ask");
    let (status, e) = post_json(&s, &format!("/api/schedules/{key}"), &edit);
    assert_eq!(status, 200, "{e}");
    let shown = env.json(&["schedule", "show", key]);
    assert_eq!(shown["schedule"]["trigger_text"], "weekly mon,fri 17:00");
    assert_eq!(shown["schedule"]["plan_version"], 2);
    assert_eq!(shown["schedule"]["conversation_id"], v["conversation"]);
}

/// On both engines (issue 34).
#[test]
fn pages_escape_what_people_wrote() {
    for env in TestEnv::engines("pg_web_escape") {
        pages_escape_on(env);
    }
}

fn pages_escape_on(env: TestEnv) {
    env.ok(&["add", "<script>alert(1)</script> \u{202e}evil", "--due", "today"]);
    let s = Served::start(&env, &[]);
    let page = s.get("/today");
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("<script>alert"), "{}", page.body);
    assert!(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{}", page.body);
    assert!(!page.body.contains('\u{202e}'), "a bidi override reached the page");
}

/// On both engines (issue 34).
#[test]
fn quick_add_offers_the_look_alike_and_attach_or_create_anyway() {
    for env in TestEnv::engines("pg_web_quick_add") {
        quick_add_on(env);
    }
}

fn quick_add_on(env: TestEnv) {
    env.ok(&["add", "Renew passport at the consulate", "--due", "today"]);
    let s = Served::start(&env, &[]);
    let csrf = s.csrf();
    let cookie = s.cookie();
    let add = |title: &str, choice: &str| {
        let body = form(&[("title", title), ("choice", choice), ("_csrf", &csrf)]);
        s.request("POST", "/today/add", &[("Cookie", &cookie), FORM], &body)
    };
    let r = add("Renew passport at consulate", "");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("INBOX-1"), "the candidate is shown: {}", r.body);
    assert!(r.body.contains("Create anyway"), "{}", r.body);
    assert_eq!(env.json(&["list"])["items"].as_array().map(Vec::len), Some(1), "nothing written before the choice");
    let r = add("Renew passport at consulate", "new");
    assert!(r.body.contains("Added INBOX-2"), "{}", r.body);
    let r = add("Renew passport at consulate", "attach:INBOX-1");
    assert!(r.body.contains("Attached to INBOX-1"), "{}", r.body);
    assert_eq!(env.json(&["list"])["items"].as_array().map(Vec::len), Some(2), "attach made no third task");
    // A title like nothing else is added at once.
    let r = add("Water the orchids", "");
    assert!(r.body.contains("Added INBOX-3"), "{}", r.body);
}

/// On both engines (issue 34): SQLite's `data_version`, PostgreSQL's WAL position.
#[test]
fn the_stamp_moves_when_another_process_writes() {
    for env in TestEnv::engines("pg_web_stamp") {
        stamp_moves_on(world_in(env));
    }
}

fn stamp_moves_on(env: TestEnv) {
    let s = Served::start(&env, &[]);
    let stamp = |s: &Served| serde_json::from_str::<Value>(&s.get("/api/stamp").body).expect("json")["stamp"].clone();
    let first = stamp(&s);
    assert_eq!(stamp(&s), first, "nothing wrote");
    env.ok(&["done", "INBOX-1"]);
    wait_until("the stamp to move", || stamp(&s) != first);
}

#[test]
fn the_log_never_shows_a_secret_and_the_token_only_in_the_link() {
    let env = world();
    let model = tasks_testkit::openai::FakeModel::start();
    model.then_status(401, r#"{"error":{"message":"bad key"}}"#);
    let key = "sk-very-secret-key-0123456789";
    let base = model.base_url();
    let s = Served::start(&env, &[("TASKS_LLM_BASE_URL", &base), ("TASKS_LLM_MODEL", "m"), ("TASKS_LLM_API_KEY", key)]);
    // A message the worker sends to the model, which refuses it.
    let csrf = s.csrf();
    let conversation = env.json(&["schedule", "list"])["items"][0]["conversation_id"].as_i64().expect("id");
    let body = form(&[("text", "what is due today"), ("_csrf", &csrf)]);
    let r = s.request("POST", &format!("/conversations/{conversation}/send"), &[("Cookie", &s.cookie()), FORM], &body);
    assert_eq!(r.status, 303, "{}", r.body);
    wait_until("the model to be asked", || !model.requests().is_empty());
    let _ = s.get("/api/preview?frequency=cron&cron=bad&zone=Europe/Berlin");
    let log = s.log();
    assert!(!log.contains(key), "the API key reached the log: {log}");
    assert_eq!(log.matches(s.token.as_str()).count(), 1, "the token is printed once, in the link: {log}");
}
