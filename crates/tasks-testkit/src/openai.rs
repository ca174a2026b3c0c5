//! A scripted OpenAI-compatible model on 127.0.0.1: each `POST …/chat/completions`
//! takes the next scripted answer (tool calls, a status, raw text, a delay) and every
//! request is kept, so a test can check what the client sent — the quoted message, the
//! tool definitions, the `Authorization` header.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::http::{Request, Response, Server};

/// The model.
pub struct FakeModel {
    server: Server,
    script: Arc<Mutex<VecDeque<Response>>>,
}

impl FakeModel {
    /// Starts the model with nothing scripted (an unscripted request gets a 500 that
    /// names itself, so a test that asks once too often fails visibly).
    pub fn start() -> FakeModel {
        let script: Arc<Mutex<VecDeque<Response>>> = Arc::new(Mutex::new(VecDeque::new()));
        let queue = script.clone();
        let server = Server::start(move |r: &Request| {
            if r.method != "POST" || !r.path.ends_with("/chat/completions") {
                return Response::json(404, r#"{"error":{"message":"not found"}}"#);
            }
            queue
                .lock()
                .ok()
                .and_then(|mut q| q.pop_front())
                .unwrap_or_else(|| Response::json(500, r#"{"error":{"message":"fake model: no scripted answer"}}"#))
        });
        FakeModel { server, script }
    }

    /// Returns the base URL to give the client (`http://127.0.0.1:PORT/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.url())
    }

    /// Scripts the next answer.
    pub fn then(&self, response: Response) -> &FakeModel {
        if let Ok(mut q) = self.script.lock() {
            q.push_back(response);
        }
        self
    }

    /// Scripts an answer of tool calls: `(name, arguments)`.
    pub fn then_calls(&self, calls: &[(&str, Value)]) -> &FakeModel {
        self.then(Response::json(200, completion(calls).to_string()))
    }

    /// Scripts a status with a body.
    pub fn then_status(&self, status: u16, body: &str) -> &FakeModel {
        self.then(Response::json(status, body))
    }

    /// Scripts an answer that comes after `delay`.
    pub fn then_late(&self, delay: Duration, calls: &[(&str, Value)]) -> &FakeModel {
        self.then(Response::json(200, completion(calls).to_string()).after(delay))
    }

    /// Returns the requests received.
    pub fn requests(&self) -> Vec<Request> {
        self.server.requests()
    }
}

/// Returns a chat completion carrying tool calls the way providers send them: content
/// `null`, arguments as a JSON string.
pub fn completion(calls: &[(&str, Value)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, arguments))| {
            json!({"id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}})
        })
        .collect();
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}}]
    })
}
