//! `tasks mcp` end to end: the real binary speaking newline-delimited JSON-RPC over its
//! stdin/stdout, with a fixed clock and a store in a temporary directory. Every tool is
//! called, and its effect is checked through later calls.
//!
//! What it does not do: no network, no MCP client library (a tiny line helper is the
//! client, so the test sees exactly the bytes an agent would), and no test of the core's
//! rules beyond what the tools promise.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// Most bytes the `tools/list` result may take (about 2k tokens of every agent session).
const TOOLS_LIST_BUDGET: usize = 8 * 1024;

/// Longest wait for one response line before the test fails instead of hanging.
const WAIT: Duration = Duration::from_secs(20);

/// A running `tasks mcp` and the client side of its pipes.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    _dir: tempfile::TempDir,
}

impl Mcp {
    /// Starts `tasks mcp` on a fresh store and completes the handshake.
    fn start() -> Mcp {
        let mut mcp = Mcp::spawn();
        let init = mcp.initialize();
        assert_eq!(init["serverInfo"]["name"], "tasks", "{init}");
        mcp
    }

    /// Starts `tasks mcp` on a fresh store without the handshake.
    fn spawn() -> Mcp {
        Mcp::spawn_on(None)
    }

    /// Starts `tasks mcp` on the team store at `url` and completes the handshake.
    fn start_on(url: &str) -> Mcp {
        let mut mcp = Mcp::spawn_on(Some(url));
        let init = mcp.initialize();
        assert_eq!(init["serverInfo"]["name"], "tasks", "{init}");
        mcp
    }

    /// Starts `tasks mcp` on a fresh SQLite store, or on the store at `url`.
    fn spawn_on(url: Option<&str>) -> Mcp {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: std::ffi::OsString = url.map_or_else(|| dir.path().join("t.db").into_os_string(), Into::into);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tasks"))
            .arg("mcp")
            .env("TASKS_DB", store)
            .env("TASKS_NOW", "2026-11-29T12:00:00Z")
            .env("TASKS_ACTOR", "agent-1")
            .env("TASKS_TZ", "UTC")
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn tasks mcp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Mcp { child, stdin, lines, next_id: 1, _dir: dir }
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").expect("write to tasks mcp");
        stdin.flush().expect("flush");
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let line = match self.lines.recv_timeout(WAIT) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => panic!("no response to {method} within {WAIT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("tasks mcp closed stdout while waiting for {method}"),
            };
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Writes one raw line (anything, JSON or not) and returns the next line the server
    /// answers, as JSON.
    fn raw(&mut self, line: &str) -> Value {
        {
            let stdin = self.stdin.as_mut().expect("stdin open");
            writeln!(stdin, "{line}").expect("write to tasks mcp");
            stdin.flush().expect("flush");
        }
        let answer = self.lines.recv_timeout(WAIT).unwrap_or_else(|e| panic!("no answer to {line}: {e}"));
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("the answer to {line} is not JSON ({e}): {answer}"))
    }

    fn notify(&mut self, method: &str) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method }));
    }

    fn initialize(&mut self) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "test_mcp", "version": "0" }
            }),
        );
        self.notify("notifications/initialized");
        response["result"].clone()
    }

    /// Calls a tool; returns (isError, the JSON of its text content).
    fn call(&mut self, tool: &str, arguments: Value) -> (bool, Value) {
        let response = self.request("tools/call", json!({ "name": tool, "arguments": arguments }));
        let result = &response["result"];
        assert!(result.is_object(), "{tool}: expected a tool result, got {response}");
        let text =
            result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{tool}: no text content: {response}"));
        let payload: Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{tool}: text is not JSON ({e}): {text}"));
        assert_eq!(result["structuredContent"], payload, "{tool}: structured content differs from the text");
        (result["isError"] == json!(true), payload)
    }

    /// Calls a tool that must succeed.
    fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let (is_error, payload) = self.call(tool, arguments.clone());
        assert!(!is_error, "{tool} {arguments} failed: {payload}");
        payload
    }

    /// Calls a tool that must fail; returns the `error` object.
    fn err(&mut self, tool: &str, arguments: Value) -> Value {
        let (is_error, payload) = self.call(tool, arguments.clone());
        assert!(is_error, "{tool} {arguments} should have failed: {payload}");
        let error = payload["error"].clone();
        assert!(error["code"].is_string() && error["message"].is_string(), "{tool}: not an error object: {payload}");
        error
    }

    /// Closes stdin and checks that the server exits cleanly.
    fn finish(mut self) {
        drop(self.stdin.take());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "tasks mcp exited with {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("tasks mcp did not exit after stdin closed");
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn keys(list: &Value) -> Vec<String> {
    list["items"].as_array().into_iter().flatten().filter_map(|t| t["key"].as_str().map(String::from)).collect()
}

#[test]
fn mcp_handshake_and_lean_tool_list() {
    let mut mcp = Mcp::spawn();
    let init = mcp.initialize();
    assert_eq!(init["serverInfo"]["name"], "tasks");
    assert!(init["capabilities"]["tools"].is_object(), "{init}");
    let instructions = init["instructions"].as_str().unwrap_or_default();
    assert!(instructions.contains("task_next") && instructions.lines().count() <= 3, "{instructions}");
    assert!(
        instructions.contains("leave out null and empty fields"),
        "an absent field must be explained: {instructions}"
    );

    let response = mcp.request("tools/list", json!({}));
    let result = &response["result"];
    let size = serde_json::to_string(result).expect("serialize").len();
    eprintln!("tools/list result: {size} bytes (budget {TOOLS_LIST_BUDGET})");
    assert!(size < TOOLS_LIST_BUDGET, "tools/list is {size} bytes, over the {TOOLS_LIST_BUDGET} budget");

    let tools = result["tools"].as_array().expect("tools array");
    let mut names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "task_claim",
            "task_create",
            "task_get",
            "task_link",
            "task_list",
            "task_next",
            "task_ready",
            "task_release",
            "task_update"
        ]
    );
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).cloned().unwrap_or_default();
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert!(t["description"].as_str().is_some_and(|d| !d.is_empty()), "{t}");
    }
    let create = tool("task_create");
    // subject is required, but may come as its alias title: the schema cannot require one
    // of two at its top level (the Anthropic API refuses anyOf there), so it requires
    // neither and says so; the server refuses a call without either.
    assert_eq!(create["inputSchema"].get("required"), None, "{create}");
    assert!(
        create["inputSchema"]["properties"]["subject"]["description"].as_str().is_some_and(|d| d.contains("required"))
    );
    for t in tools {
        assert!(t["inputSchema"].get("anyOf").is_none() && t["inputSchema"].get("oneOf").is_none(), "{t}");
    }
    for arg in [
        "subject",
        "title",
        "description",
        "project",
        "type",
        "due",
        "priority",
        "addBlockedBy",
        "attach",
        "force_new",
        "metadata",
    ] {
        assert!(create["inputSchema"]["properties"][arg].is_object(), "task_create lacks {arg}: {create}");
    }
    let update = tool("task_update");
    assert_eq!(update["inputSchema"]["required"], json!(["taskId"]), "{update}");
    assert_eq!(
        update["inputSchema"]["properties"]["status"]["enum"],
        json!(["pending", "in_progress", "completed", "deleted"]),
        "{update}"
    );
    for arg in [
        "subject",
        "title",
        "description",
        "addBlockedBy",
        "addBlocks",
        "owner",
        "due",
        "priority",
        "project",
        "metadata",
    ] {
        assert!(update["inputSchema"]["properties"][arg].is_object(), "task_update lacks {arg}: {update}");
    }
    for t in [&create, &update] {
        assert_eq!(t["inputSchema"]["properties"]["title"]["description"], "Same as subject.", "{t}");
    }
    assert_eq!(
        tool("task_link")["inputSchema"]["properties"]["kind"]["enum"],
        json!(["blocked-by", "follow-up-of", "related-to", "duplicate-of", "discovered-from"])
    );
    assert_eq!(tool("task_get")["annotations"]["readOnlyHint"], true);
    mcp.finish();
}

#[test]
fn mcp_every_tool_with_effects() {
    let mut mcp = Mcp::start();

    // Create A and B; B waits for A.
    let a = mcp.ok("task_create", json!({ "subject": "Write the migration", "priority": 1 }));
    assert_eq!(a["created"], true);
    assert_eq!(a["task"]["source"], "agent");
    let a_key = a["task"]["key"].as_str().expect("key").to_string();
    let b = mcp.ok(
        "task_create",
        json!({ "subject": "Deploy to staging", "description": "after the schema change", "due": "tomorrow" }),
    );
    let b_key = b["task"]["key"].as_str().expect("key").to_string();
    assert_eq!(b["task"]["due"], "2026-11-30");
    let updated = mcp.ok("task_update", json!({ "taskId": b_key, "addBlockedBy": [a_key] }));
    assert_eq!(updated["task"]["blocked_by"], json!([a_key]));
    assert_eq!(updated["task"]["blocked"], true);

    // Ready shows A, not B; list shows both.
    let ready = mcp.ok("task_ready", json!({}));
    assert_eq!(keys(&ready), [a_key.as_str()]);
    let all = mcp.ok("task_list", json!({ "status": "all" }));
    assert_eq!(keys(&all).len(), 2);

    // task_next claims A for agent-1 with the default 30 minute lease.
    let next = mcp.ok("task_next", json!({}));
    assert_eq!(next["task"]["key"], a_key.as_str());
    assert_eq!(next["task"]["claimed_by"], "agent-1");
    assert_eq!(next["task"]["claimed_until"], "2026-11-29T12:30:00Z");

    // Another owner cannot claim A; the error names the holder.
    let conflict = mcp.err("task_claim", json!({ "taskId": a_key, "owner": "agent-2" }));
    assert_eq!(conflict["code"], "conflict", "{conflict}");
    assert_eq!(conflict["details"]["holder"], "agent-1", "{conflict}");
    assert!(conflict["message"].as_str().unwrap_or_default().contains("agent-1"), "{conflict}");
    // Nothing else is ready for agent-2 (A is held, B is blocked).
    let nothing = mcp.err("task_next", json!({ "owner": "agent-2" }));
    assert_eq!(nothing["code"], "not_found", "{nothing}");
    assert_eq!(keys(&mcp.ok("task_ready", json!({ "owner": "agent-2" }))), Vec::<String>::new());

    // Release; now agent-2 may claim A with its own lease.
    let released = mcp.ok("task_release", json!({ "taskId": a_key }));
    assert_eq!(released["task"]["claimed_by"], Value::Null);
    let claimed = mcp.ok("task_claim", json!({ "taskId": a_key, "owner": "agent-2", "lease": "1h" }));
    assert_eq!(claimed["task"]["claimed_by"], "agent-2");
    assert_eq!(claimed["task"]["claimed_until"], "2026-11-29T13:00:00Z");
    // agent-1 cannot release agent-2's claim.
    let not_holder = mcp.err("task_release", json!({ "taskId": a_key }));
    assert_eq!(not_holder["code"], "conflict", "{not_holder}");

    // Completing A (as its holder) ends the claim and makes B ready.
    let done = mcp.ok("task_update", json!({ "taskId": a_key, "status": "completed", "owner": "agent-2" }));
    assert_eq!(done["task"]["status"], "done");
    assert_eq!(done["task"]["claimed_by"], Value::Null);
    assert_eq!(done["unblocked"], json!([b_key]));
    assert_eq!(keys(&mcp.ok("task_ready", json!({}))), [b_key.as_str()]);
    assert_eq!(keys(&mcp.ok("task_list", json!({ "status": "completed" }))), [a_key.as_str()]);

    // A link that closes a cycle is refused with the path.
    let c = mcp.ok("task_create", json!({ "subject": "Announce the release" }));
    let c_key = c["task"]["key"].as_str().expect("key").to_string();
    mcp.ok("task_link", json!({ "taskId": c_key, "kind": "blocked-by", "otherId": b_key }));
    let cycle = mcp.err("task_link", json!({ "taskId": b_key, "kind": "blocked-by", "otherId": c_key }));
    assert_eq!(cycle["code"], "validation", "{cycle}");
    let path: Vec<&str> = cycle["details"]["path"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    assert!(path.contains(&b_key.as_str()) && path.contains(&c_key.as_str()), "{cycle}");
    assert_eq!(path.first(), path.last(), "{cycle}");

    // task_get shows the link from both sides; a missing task is not_found.
    let got = mcp.ok("task_get", json!({ "taskId": c_key }));
    assert_eq!(got["task"]["key"], c_key.as_str());
    assert!(
        got["links"].as_array().into_iter().flatten().any(|l| l["kind"] == "blocked-by" && l["task"] == b_key.as_str()),
        "{got}"
    );
    let missing = mcp.err("task_get", json!({ "taskId": "NOPE-404" }));
    assert_eq!(missing["code"], "not_found", "{missing}");

    // addBlocks: the other task becomes blocked by this one.
    let d = mcp.ok("task_create", json!({ "subject": "Write the changelog" }));
    let d_key = d["task"]["key"].as_str().expect("key").to_string();
    mcp.ok("task_update", json!({ "taskId": d_key, "addBlocks": [c_key] }));
    let c_now = mcp.ok("task_get", json!({ "taskId": c_key }));
    let blockers = c_now["task"]["blocked_by"].as_array().cloned().unwrap_or_default();
    assert!(blockers.contains(&json!(d_key)) && blockers.contains(&json!(b_key)), "{c_now}");

    // Owner claims through task_update, fields change, "" releases.
    let mine = mcp.ok(
        "task_update",
        json!({ "taskId": b_key, "owner": "agent-3", "status": "in_progress", "subject": "Deploy to staging (eu)", "priority": 0 }),
    );
    assert_eq!(mine["task"]["claimed_by"], "agent-3");
    assert_eq!(mine["task"]["status"], "in_progress");
    assert_eq!(mine["task"]["title"], "Deploy to staging (eu)");
    assert_eq!(mine["task"]["priority"], 0);
    let held = mcp.err("task_update", json!({ "taskId": b_key, "status": "in_progress", "owner": "agent-4" }));
    assert_eq!(held["code"], "conflict", "{held}");
    // A failure at a late step writes nothing: the description edit before it is
    // rolled back with it (one transaction).
    let before = mcp.ok("task_get", json!({ "taskId": b_key }));
    let back = mcp.err("task_update", json!({ "taskId": b_key, "description": "eu-west", "status": "pending" }));
    assert_eq!(back["code"], "conflict", "{back}");
    assert_eq!(back["details"].get("applied"), None, "{back}");
    let after = mcp.ok("task_get", json!({ "taskId": b_key }));
    assert_eq!(after["task"]["description"], before["task"]["description"], "nothing written: {after}");
    assert_eq!(after["task"]["updated_at"], before["task"]["updated_at"], "{after}");
    // owner "" releases the server actor's claim; another actor's claim stays theirs.
    let not_mine = mcp.err("task_update", json!({ "taskId": b_key, "owner": "" }));
    assert_eq!(not_mine["code"], "conflict", "{not_mine}");
    let freed = mcp.ok("task_release", json!({ "taskId": b_key, "owner": "agent-3" }));
    assert_eq!(freed["task"]["claimed_by"], Value::Null, "{freed}");
    let claimed_d = mcp.ok("task_update", json!({ "taskId": d_key, "owner": "agent-1" }));
    assert_eq!(claimed_d["task"]["claimed_by"], "agent-1", "{claimed_d}");
    let free = mcp.ok("task_update", json!({ "taskId": d_key, "owner": "", "due": "2026-12-24" }));
    assert_eq!(free["task"]["claimed_by"], Value::Null, "{free}");
    assert_eq!(free["task"]["due"], "2026-12-24", "{free}");
    mcp.finish();
}

#[test]
fn mcp_delete_dismisses_and_metadata_is_tags_only() {
    let mut mcp = Mcp::start();
    let t = mcp
        .ok("task_create", json!({ "subject": "Clean the cache", "metadata": { "tags": ["ops"] }, "type": "chore" }));
    let key = t["task"]["key"].as_str().expect("key").to_string();
    assert_eq!(t["task"]["tags"], json!(["ops"]));
    assert_eq!(t["task"]["type"], "chore");

    let refused = mcp.err("task_create", json!({ "subject": "Other", "metadata": { "color": "red" } }));
    assert_eq!(refused["code"], "validation", "{refused}");
    assert_eq!(refused["details"]["field"], "metadata", "{refused}");

    let tagged = mcp.ok("task_update", json!({ "taskId": key, "metadata": { "tags": ["cleanup"] } }));
    assert_eq!(tagged["task"]["tags"], json!(["cleanup", "ops"]));

    let deleted = mcp.ok("task_update", json!({ "taskId": key, "status": "deleted" }));
    assert_eq!(deleted["task"]["status"], "dismissed");
    assert_eq!(deleted["task"]["close_reason"], "deleted");
    // Nothing is erased: it is still there, and "pending" reopens it.
    assert_eq!(keys(&mcp.ok("task_list", json!({ "status": "deleted" }))), [key.as_str()]);
    assert_eq!(mcp.ok("task_get", json!({ "taskId": key }))["task"]["status"], "dismissed");
    let reopened = mcp.ok("task_update", json!({ "taskId": key, "status": "pending" }));
    assert_eq!(reopened["task"]["status"], "open");
    mcp.finish();
}

#[test]
fn mcp_bad_arguments_are_tool_errors_and_the_server_keeps_serving() {
    let mut mcp = Mcp::start();
    let t = mcp.ok("task_create", json!({ "subject": "Rotate the keys" }));
    let key = t["task"]["key"].as_str().expect("key").to_string();

    let wrong_type = mcp.err("task_create", json!({ "subject": "Rotate again", "priority": "high" }));
    assert_eq!(wrong_type["code"], "validation", "{wrong_type}");
    assert_eq!(wrong_type["details"]["field"], "priority", "{wrong_type}");
    assert!(wrong_type["message"].as_str().unwrap_or_default().starts_with("priority:"), "{wrong_type}");

    let out_of_range = mcp.err("task_update", json!({ "taskId": key, "priority": 9 }));
    assert_eq!(out_of_range["details"]["field"], "priority", "{out_of_range}");

    let missing = mcp.err("task_update", json!({ "status": "completed" }));
    assert_eq!(missing["details"]["field"], "taskId", "{missing}");

    let unknown = mcp.err("task_update", json!({ "taskId": key, "activeForm": "Rotating" }));
    assert_eq!(unknown["code"], "validation", "{unknown}");
    assert!(unknown["message"].as_str().unwrap_or_default().contains("activeForm"), "{unknown}");

    let bad_status = mcp.err("task_list", json!({ "status": "finished" }));
    assert_eq!(bad_status["details"]["field"], "status", "{bad_status}");

    let bad_kind = mcp.err("task_link", json!({ "taskId": key, "kind": "parent-of", "otherId": key }));
    assert_eq!(bad_kind["details"]["field"], "kind", "{bad_kind}");

    let bad_lease = mcp.err("task_claim", json!({ "taskId": key, "lease": "forever" }));
    assert_eq!(bad_lease["details"]["field"], "lease", "{bad_lease}");

    let bad_due = mcp.err("task_create", json!({ "subject": "Someday", "due": "someday" }));
    assert_eq!(bad_due["details"]["field"], "due", "{bad_due}");

    let empty = mcp.err("task_create", json!({ "subject": "  " }));
    assert_eq!(empty["details"]["field"], "subject", "{empty}");

    let nothing = mcp.err("task_update", json!({ "taskId": key }));
    assert_eq!(nothing["code"], "validation", "{nothing}");

    let no_args = mcp.request("tools/call", json!({ "name": "task_get" }));
    assert_eq!(no_args["result"]["isError"], true, "{no_args}");

    // An unknown tool is a protocol error, and the server still answers afterwards.
    let unknown_tool = mcp.request("tools/call", json!({ "name": "task_explode", "arguments": {} }));
    assert!(unknown_tool["error"].is_object(), "{unknown_tool}");
    assert_eq!(keys(&mcp.ok("task_list", json!({}))), [key]);
    mcp.finish();
}

#[test]
fn mcp_attach_or_force_new() {
    let mut mcp = Mcp::start();
    let first = mcp.ok("task_create", json!({ "subject": "Send the invoice to Lena" }));
    let key = first["task"]["key"].as_str().expect("key").to_string();

    let both =
        mcp.err("task_create", json!({ "subject": "Send the invoice to Lena", "attach": key, "force_new": true }));
    assert_eq!(both["code"], "validation", "{both}");
    assert_eq!(both["details"]["field"], "attach", "{both}");

    let attached = mcp.ok("task_create", json!({ "subject": "Send the invoice to Lena", "attach": key }));
    assert_eq!(attached["created"], false);
    assert_eq!(attached["attached_to"], key.as_str());
    assert_eq!(attached["task"]["key"], key.as_str());
    assert_eq!(keys(&mcp.ok("task_list", json!({}))), [key.as_str()]);

    let forced = mcp.ok("task_create", json!({ "subject": "Send the invoice to Lena", "force_new": true }));
    assert_eq!(forced["created"], true);
    assert_ne!(forced["task"]["key"], key.as_str());
    assert_eq!(keys(&mcp.ok("task_list", json!({}))).len(), 2);
    mcp.finish();
}

#[test]
fn mcp_probable_duplicate_is_refused() {
    let mut mcp = Mcp::start();
    let first = mcp.ok("task_create", json!({ "subject": "Send the invoice to Lena for the October work" }));
    let key = first["task"]["key"].as_str().expect("key").to_string();
    let refused = mcp.err("task_create", json!({ "subject": "Send the invoice to Lena for the October work" }));
    assert_eq!(refused["code"], "confirmation_required", "{refused}");
    assert_eq!(refused["details"]["candidates"][0]["key"], key.as_str(), "{refused}");
    assert_eq!(keys(&mcp.ok("task_list", json!({}))), [key]);
    mcp.finish();
}

#[test]
fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let mut mcp = Mcp::start();
    {
        let stdin = mcp.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "this is not json {{").expect("write");
        stdin.flush().expect("flush");
    }
    let line = mcp.lines.recv_timeout(WAIT).expect("an answer to the bad line");
    let answer: Value = serde_json::from_str(&line).expect("the answer is JSON");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert_eq!(answer["id"], Value::Null);
    // The next request is served as if nothing happened.
    let tools = mcp.request("tools/list", json!({}));
    assert!(tools["result"]["tools"].as_array().is_some_and(|t| !t.is_empty()), "{tools}");
    // A line cut short is not JSON either.
    let cut = mcp.raw(r#"{"jsonrpc":"2.0","id":40,"method":"ping""#);
    assert_eq!(cut["error"]["code"], -32700, "{cut}");
    assert_eq!(cut.get("id"), Some(&Value::Null), "JSON-RPC requires the id member, null here: {cut}");
    assert_eq!(mcp.request("ping", json!({}))["result"], json!({}));
    mcp.finish();
}

#[test]
fn json_that_is_not_a_json_rpc_message_gets_an_invalid_request_and_the_session_goes_on() {
    let mut mcp = Mcp::start();
    // (line, the id the answer carries, what the message must say)
    let cases = [
        (r#"{"foo": 1}"#, Value::Null, r#""jsonrpc" must be "2.0""#),
        (r#"{"jsonrpc": "1.0", "id": 41, "method": "ping"}"#, json!(41), r#""jsonrpc" must be "2.0""#),
        (r#"{"jsonrpc": "2.0", "id": 42}"#, json!(42), r#"no "method""#),
        (r#"{"jsonrpc": "2.0", "id": "q", "method": ["tools/list"]}"#, json!("q"), r#""method" must be a string"#),
        (
            r#"{"jsonrpc": "2.0", "id": {"n": 1}, "method": "ping"}"#,
            Value::Null,
            r#""id" must be a string or a number"#,
        ),
        (r#"[{"jsonrpc": "2.0", "id": 43, "method": "ping"}]"#, Value::Null, "a batch"),
        ("42", Value::Null, "a message is a JSON object, not a number"),
    ];
    for (line, id, says) in cases {
        let answer = mcp.raw(line);
        assert_eq!(answer["jsonrpc"], "2.0", "{line}: {answer}");
        assert_eq!(answer["error"]["code"], -32600, "{line}: {answer}");
        assert_eq!(answer.get("id"), Some(&id), "{line}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("Invalid Request: ") && message.contains(says), "{line}: {message}");
    }
    // A well-formed request for a method nobody has is rmcp's -32601, with its id.
    let unknown = mcp.request("tasks/explode", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // And the tools still answer.
    mcp.ok("task_create", json!({ "subject": "Still here" }));
    mcp.finish();
}

#[test]
fn mcp_title_is_an_alias_of_subject() {
    let mut mcp = Mcp::start();
    let by_title = mcp.ok("task_create", json!({ "title": "Renew the TLS certificate" }));
    assert_eq!(by_title["task"]["title"], "Renew the TLS certificate", "{by_title}");
    let key = by_title["task"]["key"].as_str().expect("key").to_string();
    let both_same = mcp.ok("task_create", json!({ "subject": "Rotate the API keys", "title": "Rotate the API keys" }));
    assert_eq!(both_same["task"]["title"], "Rotate the API keys", "{both_same}");

    // Two different titles are refused, naming both arguments; nothing is created.
    let two = mcp.err("task_create", json!({ "subject": "Pay the rent", "title": "Pay the tax" }));
    assert_eq!(two["code"], "validation", "{two}");
    assert_eq!(two["details"]["field"], "title", "{two}");
    let message = two["message"].as_str().unwrap_or_default();
    assert!(message.contains("title") && message.contains("subject") && message.contains("Pay the rent"), "{two}");
    assert_eq!(keys(&mcp.ok("task_list", json!({}))).len(), 2);

    // Neither: subject is required, and the error says title would do.
    let none = mcp.err("task_create", json!({ "description": "no title at all" }));
    assert_eq!(none["details"]["field"], "subject", "{none}");
    assert!(none["message"].as_str().unwrap_or_default().contains("required (or its alias title)"), "{none}");

    // An error about the title names the argument the caller used.
    let blank = mcp.err("task_create", json!({ "title": "   " }));
    assert_eq!(blank["details"]["field"], "title", "{blank}");
    assert!(blank["message"].as_str().unwrap_or_default().starts_with("title:"), "{blank}");
    let blank = mcp.err("task_create", json!({ "subject": "   " }));
    assert_eq!(blank["details"]["field"], "subject", "{blank}");
    let wrong = mcp.err("task_create", json!({ "title": 7 }));
    assert_eq!(wrong["details"]["field"], "title", "{wrong}");

    // task_update takes it too, and refuses two different ones the same way.
    let renamed = mcp.ok("task_update", json!({ "taskId": key, "title": "Renew the TLS certificates" }));
    assert_eq!(renamed["task"]["title"], "Renew the TLS certificates", "{renamed}");
    let two = mcp.err("task_update", json!({ "taskId": key, "subject": "A", "title": "B" }));
    assert_eq!(two["details"]["field"], "title", "{two}");
    let blank = mcp.err("task_update", json!({ "taskId": key, "title": "" }));
    assert_eq!(blank["details"]["field"], "title", "{blank}");
    assert_eq!(mcp.ok("task_get", json!({ "taskId": key }))["task"]["title"], "Renew the TLS certificates");
    mcp.finish();
}

#[test]
fn mcp_bad_argument_errors_name_the_argument_and_say_what_was_wrong() {
    let mut mcp = Mcp::start();
    let t = mcp.ok("task_create", json!({ "subject": "Archive the old logs" }));
    let key = t["task"]["key"].as_str().expect("key").to_string();

    /// Checks an error names `field` (in details, when the error has a field, and first in
    /// the message) and says each of `says`.
    #[track_caller]
    fn names(error: &Value, field: &str, says: &[&str]) {
        let message = error["message"].as_str().unwrap_or_default();
        assert!(message.starts_with(&format!("{field}: ")), "{field} is not named first: {error}");
        for words in says {
            assert!(message.contains(words), "{words:?} missing: {error}");
        }
    }

    // A missing required argument.
    let missing = mcp.err("task_link", json!({ "taskId": key, "kind": "blocked-by" }));
    assert_eq!((missing["code"].as_str(), missing["details"]["field"].as_str()), (Some("validation"), Some("otherId")));
    names(&missing, "otherId", &["this argument is required"]);
    let missing = mcp.err("task_claim", json!({}));
    names(&missing, "taskId", &["required"]);

    // A value of the wrong type: the argument, the value, and what it takes.
    let wrong = mcp.err("task_list", json!({ "limit": "ten" }));
    assert_eq!(wrong["details"]["field"], "limit", "{wrong}");
    names(&wrong, "limit", &["\"ten\"", "invalid type", "use a whole number of 1 or more"]);
    let wrong = mcp.err("task_update", json!({ "taskId": key, "addBlocks": "HRB-9" }));
    names(&wrong, "addBlocks", &["use a list of task keys"]);
    let wrong = mcp.err("task_create", json!({ "subject": "Pay", "force_new": "yes" }));
    names(&wrong, "force_new", &["use true or false"]);

    // A value outside an enum: the argument, the value, and the values it takes.
    let status = mcp.err("task_update", json!({ "taskId": key, "status": "finished" }));
    assert_eq!(status["details"]["field"], "status", "{status}");
    names(&status, "status", &["unknown variant `finished`", "`pending`", "`completed`"]);
    let kind = mcp.err("task_link", json!({ "taskId": key, "kind": "parent-of", "otherId": key }));
    names(&kind, "kind", &["unknown variant `parent-of`", "`blocked-by`"]);

    // An unknown argument.
    let unknown = mcp.err("task_get", json!({ "taskId": key, "verbose": true }));
    names(&unknown, "arguments", &["unknown field `verbose`", "`taskId`"]);

    // A task key that is not there: not_found, naming the argument that held it.
    let gone = mcp.err("task_get", json!({ "taskId": "NOPE-404" }));
    assert_eq!(gone["code"], "not_found", "{gone}");
    assert_eq!(gone["details"]["value"], "NOPE-404", "{gone}");
    names(&gone, "taskId", &["\"NOPE-404\" not found"]);
    let other = mcp.err("task_link", json!({ "taskId": key, "kind": "related-to", "otherId": "NOPE-405" }));
    assert_eq!(other["code"], "not_found", "{other}");
    names(&other, "otherId", &["\"NOPE-405\" not found"]);
    let first = mcp.err("task_link", json!({ "taskId": "NOPE-406", "kind": "related-to", "otherId": key }));
    names(&first, "taskId", &["\"NOPE-406\" not found"]);
    let blocker = mcp.err("task_update", json!({ "taskId": key, "addBlockedBy": ["NOPE-407"] }));
    names(&blocker, "addBlockedBy", &["\"NOPE-407\" not found"]);
    let blocks = mcp.err("task_update", json!({ "taskId": key, "addBlocks": ["NOPE-408"] }));
    names(&blocks, "addBlocks", &["\"NOPE-408\" not found"]);
    let create = mcp.err("task_create", json!({ "subject": "Ship it", "addBlockedBy": ["NOPE-409"] }));
    names(&create, "addBlockedBy", &["\"NOPE-409\" not found"]);
    let attach = mcp.err("task_create", json!({ "subject": "Ship it", "attach": "NOPE-410" }));
    names(&attach, "attach", &["\"NOPE-410\" not found"]);
    for tool in ["task_claim", "task_release"] {
        let gone = mcp.err(tool, json!({ "taskId": "NOPE-411" }));
        names(&gone, "taskId", &["\"NOPE-411\" not found"]);
    }
    // An empty reference is the argument's, not the core's "task".
    let empty = mcp.err("task_link", json!({ "taskId": key, "kind": "related-to", "otherId": " " }));
    assert_eq!(empty["details"]["field"], "otherId", "{empty}");
    // A project that is not there.
    let project = mcp.err("task_list", json!({ "project": "NOPE" }));
    names(&project, "project", &["project \"NOPE\" not found"]);
    let project = mcp.err("task_next", json!({ "project": "NOPE" }));
    names(&project, "project", &["project \"NOPE\" not found"]);

    // None of it was written.
    assert_eq!(keys(&mcp.ok("task_list", json!({ "status": "all" }))), [key.as_str()]);
    mcp.finish();
}

/// Fails at the first member (by its path) that is null, "", [] or {} — except the
/// documented `items` of a list and `details` of an error.
#[track_caller]
fn assert_lean(value: &Value, path: &str) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let here = format!("{path}.{name}");
                let empty = match member {
                    Value::Null => true,
                    Value::String(s) => s.is_empty(),
                    Value::Array(a) => a.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    _ => false,
                };
                let documented = here == ".items" || here == ".error.details";
                assert!(!empty || documented, "{here} is {member}");
                assert_lean(member, &here);
            }
        }
        Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, item)| assert_lean(item, &format!("{path}[{i}]")))
        }
        _ => {}
    }
}

#[test]
fn mcp_results_leave_out_null_and_empty_fields() {
    let mut mcp = Mcp::start();
    // A bare task: no description, due, tags, links, claim, amount, chat …
    let created = mcp.ok("task_create", json!({ "subject": "Water the plants" }));
    assert_lean(&created, "");
    let task = &created["task"];
    for absent in ["description", "due", "tags", "blocked_by", "claimed_by", "claimed_until", "closed_at", "amount"] {
        assert_eq!(task.get(absent), None, "{absent} should be left out: {created}");
    }
    // What says something stays, false and 0 included.
    assert_eq!(task["blocked"], false, "{created}");
    assert_eq!(created["created"], true, "{created}");
    assert_eq!(created["dry_run"], false, "{created}");
    assert!(task["key"].is_string() && task["status"] == "open" && task["created_at"].is_string(), "{created}");
    let key = task["key"].as_str().expect("key").to_string();
    let zero = mcp.ok("task_create", json!({ "subject": "Fix the roof", "priority": 0, "description": "" }));
    assert_eq!(zero["task"]["priority"], 0, "{zero}");
    assert_eq!(zero["task"].get("description"), None, "{zero}");

    // Every tool's answer is lean; the one thing that says "nothing" stays: no items.
    let claimed = mcp.ok("task_claim", json!({ "taskId": key }));
    assert_lean(&claimed, "");
    assert_eq!(claimed["task"]["claimed_by"], "agent-1", "{claimed}");
    let released = mcp.ok("task_release", json!({ "taskId": key }));
    assert_lean(&released, "");
    assert_eq!(released["task"].get("claimed_by"), None, "{released}");
    let updated = mcp.ok("task_update", json!({ "taskId": key, "priority": 2 }));
    assert_lean(&updated, "");
    assert_eq!(updated.get("unblocked"), None, "nothing unblocked is left out: {updated}");
    assert_lean(&mcp.ok("task_get", json!({ "taskId": key })), "");
    assert_lean(&mcp.ok("task_list", json!({})), "");
    assert_lean(&mcp.ok("task_ready", json!({})), "");
    assert_lean(&mcp.ok("task_next", json!({})), "");
    let linked = mcp.ok("task_link", json!({ "taskId": key, "kind": "related-to", "otherId": zero["task"]["key"] }));
    assert_lean(&linked, "");
    let none = mcp.ok("task_list", json!({ "status": "deleted" }));
    assert_eq!(none, json!({ "items": [] }), "an empty list still answers items");

    // Errors keep their documented shape: code, message, details.
    let (is_error, payload) = mcp.call("task_get", json!({ "taskId": "NOPE-1" }));
    assert!(is_error, "{payload}");
    assert_lean(&payload, "");
    assert!(payload["error"]["details"].is_object(), "{payload}");
    // The text an agent reads is the lean JSON itself, with no null in it.
    let response = mcp.request("tools/call", json!({ "name": "task_get", "arguments": { "taskId": key } }));
    let text = response["result"]["content"][0]["text"].as_str().expect("text");
    assert!(!text.contains("null") && !text.contains("\"\"") && !text.contains("[]"), "{text}");
    mcp.finish();
}

#[test]
fn mcp_can_add_a_note_and_put_a_started_task_back() {
    let mut mcp = Mcp::start();
    let key = mcp.ok("task_create", json!({ "subject": "Ship it" }))["task"]["key"].as_str().expect("key").to_string();
    assert_eq!(
        mcp.ok("task_update", json!({ "taskId": key, "status": "in_progress" }))["task"]["status"],
        "in_progress"
    );
    let back = mcp.ok("task_update", json!({ "taskId": key, "status": "pending", "note": "tested on staging" }));
    assert_eq!(back["task"]["status"], "open", "{back}");
    let got = mcp.ok("task_get", json!({ "taskId": key }));
    assert_eq!(got["notes"][0]["text"], "tested on staging", "{got}");
    assert_eq!(mcp.err("task_update", json!({ "taskId": key, "note": "x".repeat(9000) }))["details"]["field"], "note");
    mcp.finish();
}

#[test]
fn mcp_on_postgres_runs_the_agents_loop() {
    let Some(env) = crate::common::TestEnv::postgres("pg_mcp") else { return };
    let mut mcp = Mcp::start_on(env.store_url.as_deref().expect("a postgres store"));
    let a = mcp.ok("task_create", json!({ "subject": "Write the migration", "priority": 1 }));
    assert_eq!(
        (a["created"].clone(), a["task"]["key"].clone(), a["task"]["source"].clone()),
        (json!(true), json!("INBOX-1"), json!("agent"))
    );
    mcp.ok("task_create", json!({ "subject": "Deploy to staging" }));
    let b = mcp.ok("task_update", json!({ "taskId": "INBOX-2", "addBlockedBy": ["INBOX-1"] }));
    assert_eq!(b["task"]["blocked"], true, "{b}");
    assert_eq!(keys(&mcp.ok("task_ready", json!({}))), ["INBOX-1"]);
    let next = mcp.ok("task_next", json!({}));
    assert_eq!((next["task"]["key"].clone(), next["task"]["claimed_by"].clone()), (json!("INBOX-1"), json!("agent-1")));
    let conflict = mcp.err("task_claim", json!({ "taskId": "INBOX-1", "owner": "agent-2" }));
    assert_eq!(
        (conflict["code"].clone(), conflict["details"]["holder"].clone()),
        (json!("conflict"), json!("agent-1"))
    );
    mcp.ok("task_release", json!({ "taskId": "INBOX-1" }));
    mcp.ok("task_claim", json!({ "taskId": "INBOX-1", "owner": "agent-2", "lease": "1h" }));
    let done = mcp.ok("task_update", json!({ "taskId": "INBOX-1", "status": "completed", "owner": "agent-2" }));
    assert_eq!((done["task"]["status"].clone(), done["unblocked"].clone()), (json!("done"), json!(["INBOX-2"])));
    let cycle = mcp.err("task_link", json!({ "taskId": "INBOX-1", "kind": "blocked-by", "otherId": "INBOX-2" }));
    assert_eq!(cycle["code"], "validation", "{cycle}");
    let got = mcp.ok("task_get", json!({ "taskId": "INBOX-1" }));
    assert!(got["links"].as_array().into_iter().flatten().any(|l| l["task"] == "INBOX-2"), "{got}");
    assert_eq!(keys(&mcp.ok("task_list", json!({ "status": "completed" }))), ["INBOX-1"]);
    let dup = mcp.err("task_create", json!({ "subject": "Deploy to staging" }));
    assert_eq!(dup["code"], "confirmation_required", "{dup}");
    // Tags, notes and fields, one change per call.
    let tagged = mcp.ok("task_update", json!({ "taskId": "INBOX-2", "metadata": { "tags": ["eu"] } }));
    assert_eq!(tagged["task"]["tags"], json!(["eu"]), "{tagged}");
    mcp.ok("task_update", json!({ "taskId": "INBOX-2", "note": "staging is eu-west-1" }));
    let renamed = mcp.ok("task_update", json!({ "taskId": "INBOX-2", "subject": "Deploy (eu)", "priority": 1 }));
    assert_eq!(
        (renamed["task"]["title"].clone(), renamed["task"]["priority"].clone()),
        (json!("Deploy (eu)"), json!(1))
    );
    mcp.ok("task_create", json!({ "subject": "Write the changelog" }));
    // Several changes in one call, as on SQLite: one transaction.
    let two = mcp.ok("task_update", json!({ "taskId": "INBOX-2", "owner": "agent-1", "addBlockedBy": ["INBOX-3"] }));
    assert_eq!(
        (two["task"]["claimed_by"].clone(), two["task"]["blocked_by"].clone()),
        (json!("agent-1"), json!(["INBOX-1", "INBOX-3"])),
        "{two}"
    );
    // A step that fails writes nothing of the others: the claim is not taken.
    let cycle = mcp.err("task_update", json!({ "taskId": "INBOX-3", "owner": "agent-2", "addBlockedBy": ["INBOX-2"] }));
    assert_eq!(cycle["code"], "validation", "{cycle}");
    let b = mcp.ok("task_get", json!({ "taskId": "INBOX-3" }));
    assert_eq!(
        (b["task"]["claimed_by"].clone(), b["task"]["blocked_by"].clone()),
        (Value::Null, Value::Null),
        "nothing written: {b}"
    );
    mcp.finish();
}

/// Ends every other backend of the test's database, as an operator's
/// `pg_terminate_backend` or a server restart would; returns how many it ended.
fn terminate_backends(url: &str) -> i64 {
    let mut admin = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .expect("terminate")
        .get(0)
}

/// Issue 34: the MCP server keeps its team-store connections between calls; when the
/// server ends them, the next call reconnects, and nothing is lost or done twice.
#[test]
fn mcp_on_postgres_reconnects_after_the_server_ends_its_connection() {
    let Some(env) = crate::common::TestEnv::postgres("pg_mcp_reconnect") else { return };
    let url = env.store_url.clone().expect("a postgres store");
    let mut mcp = Mcp::start_on(&url);
    mcp.ok("task_create", json!({ "subject": "Write the migration" }));
    assert_eq!(keys(&mcp.ok("task_list", json!({}))), ["INBOX-1"]);
    assert!(terminate_backends(&url) >= 1, "the server's pooled connection was open and is ended");
    // A write right after: it reconnects and runs once.
    let b = mcp.ok("task_create", json!({ "subject": "Deploy to staging" }));
    assert_eq!(b["task"]["key"], "INBOX-2", "{b}");
    assert_eq!(terminate_backends(&url), 1, "one pooled connection again, not one per call");
    // A read right after.
    assert_eq!(keys(&mcp.ok("task_list", json!({}))), ["INBOX-1", "INBOX-2"], "nothing lost or doubled");
    let claimed = mcp.ok("task_next", json!({}));
    assert_eq!(claimed["task"]["key"], "INBOX-1");
    mcp.finish();
}
