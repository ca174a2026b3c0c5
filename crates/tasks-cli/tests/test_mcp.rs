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
        let dir = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tasks"))
            .arg("mcp")
            .env("TASKS_DB", dir.path().join("t.db"))
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
    assert_eq!(create["inputSchema"]["required"], json!(["subject"]), "{create}");
    for arg in [
        "subject",
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
    for arg in
        ["subject", "description", "addBlockedBy", "addBlocks", "owner", "due", "priority", "project", "metadata"]
    {
        assert!(update["inputSchema"]["properties"][arg].is_object(), "task_update lacks {arg}: {update}");
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

    // Completing A ends the claim and makes B ready.
    let done = mcp.ok("task_update", json!({ "taskId": a_key, "status": "completed" }));
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
}
