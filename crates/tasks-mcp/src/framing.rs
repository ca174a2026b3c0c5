//! Line framing of MCP over stdio around rmcp: a line that is not JSON gets the
//! JSON-RPC parse error (-32700) it is owed, instead of silence (issue 10); JSON that is
//! not a JSON-RPC 2.0 message gets -32600 saying what is wrong with it and carrying the
//! request's id when one can be read (rmcp's own answer says only "Invalid request" and
//! leaves out the `id` member JSON-RPC requires); and every answer reaches stdout as one
//! whole line.

use serde::Serialize;
use serde_json::Value;
use tasks_core::wire::json_kind;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// Bytes buffered between stdin, rmcp and stdout.
pub const PIPE_BYTES: usize = 1 << 20;

/// JSON-RPC 2.0's code for "invalid JSON was received".
pub const PARSE_ERROR: i64 = -32700;

/// JSON-RPC 2.0's code for "the JSON sent is not a valid Request object".
pub const INVALID_REQUEST: i64 = -32600;

/// A JSON-RPC error response: `id` is the request's when it could be read, else null.
#[derive(Debug, Serialize)]
pub struct ErrorResponse {
    jsonrpc: &'static str,
    id: Value,
    error: RpcError,
}

/// The error member of a response.
#[derive(Debug, Serialize)]
struct RpcError {
    code: i64,
    message: String,
}

/// Returns the answer to a line rmcp must not see: one that is not JSON, or JSON that
/// is not a JSON-RPC 2.0 message, saying what was wrong with it. `None`: hand it on.
pub fn refusal(line: &str) -> Option<String> {
    let (id, code, message) = match serde_json::from_str::<Value>(line) {
        Err(problem) => (Value::Null, PARSE_ERROR, format!("Parse error: {problem}")),
        Ok(message) => {
            let problem = not_a_message(&message)?;
            let id = match message.get("id") {
                Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
                _ => Value::Null,
            };
            (id, INVALID_REQUEST, format!("Invalid Request: {problem}"))
        }
    };
    serde_json::to_string(&ErrorResponse { jsonrpc: "2.0", id, error: RpcError { code, message } }).ok()
}

/// Says what keeps a JSON value from being one JSON-RPC 2.0 message (a request,
/// notification or response), or `None` when it is one. Only the envelope is checked:
/// whether the method and its params make sense is rmcp's to answer.
fn not_a_message(message: &Value) -> Option<String> {
    let Value::Object(members) = message else {
        return Some(match message {
            Value::Array(_) => "a batch (JSON array) is not taken: send one message per line".into(),
            other => format!("a message is a JSON object, not {}", json_kind(other)),
        });
    };
    if members.get("jsonrpc") != Some(&Value::from("2.0")) {
        return Some("the member \"jsonrpc\" must be \"2.0\"".into());
    }
    if let Some(id) = members.get("id")
        && !(id.is_string() || id.is_number())
    {
        return Some(format!("the member \"id\" must be a string or a number, not {}", json_kind(id)));
    }
    match members.get("method") {
        Some(Value::String(_)) => None,
        Some(other) => Some(format!("the member \"method\" must be a string, not {}", json_kind(other))),
        None if members.contains_key("id") && (members.contains_key("result") || members.contains_key("error")) => None,
        None => Some(
            "no \"method\" (a request or notification) and no \"id\" with \"result\" or \"error\" (a response)".into(),
        ),
    }
}

/// Reads stdin a line at a time: JSON-RPC messages go on to rmcp, anything else is
/// answered with a parse error or an invalid-request error. Ends rmcp's input when
/// stdin ends.
pub async fn read_stdin(mut to_server: DuplexStream, errors: UnboundedSender<String>) {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        match refusal(&line) {
            Some(answer) => {
                let _ = errors.send(answer);
            }
            None => {
                if to_server.write_all(line.as_bytes()).await.is_err() || to_server.write_all(b"\n").await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// Writes rmcp's answers and the parse errors to stdout, whole lines only.
pub async fn write_stdout(from_server: DuplexStream, mut errors: UnboundedReceiver<String>) {
    let mut out = tokio::io::stdout();
    let mut lines = BufReader::new(from_server).lines();
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(line)) => line,
                _ => break,
            },
            Some(answer) = errors.recv() => answer,
        };
        if out.write_all(line.as_bytes()).await.is_err() || out.write_all(b"\n").await.is_err() {
            break;
        }
        let _ = out.flush().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Returns the refusal of `line` as JSON.
    #[track_caller]
    fn refused(line: &str) -> Value {
        let answer = refusal(line).unwrap_or_else(|| panic!("{line} should be refused"));
        serde_json::from_str(&answer).expect("json")
    }

    #[test]
    fn only_a_line_that_is_not_json_gets_a_parse_error() {
        let v = refused("this is not json");
        assert_eq!(v["error"]["code"], PARSE_ERROR);
        assert_eq!(v.get("id"), Some(&Value::Null), "JSON-RPC requires the id member, null here: {v}");
        assert_eq!(v["jsonrpc"], "2.0");
        assert!(v["error"]["message"].as_str().unwrap_or("").starts_with("Parse error"));
        assert_eq!(refused(r#"{"jsonrpc":"2.0","id":1,"method":"ping""#)["error"]["code"], PARSE_ERROR);
    }

    #[test]
    fn json_that_is_not_a_json_rpc_message_gets_an_invalid_request_saying_why() {
        let cases: [(&str, Value, &str); 9] = [
            (r#"{"foo": 1}"#, Value::Null, "\"jsonrpc\" must be \"2.0\""),
            (r#"{"jsonrpc": "1.0", "id": 9, "method": "ping"}"#, Value::from(9), "\"jsonrpc\" must be \"2.0\""),
            (r#"{"jsonrpc": "2.0", "id": 7}"#, Value::from(7), "no \"method\""),
            (
                r#"{"jsonrpc": "2.0", "id": "a", "method": 5}"#,
                Value::from("a"),
                "\"method\" must be a string, not a number",
            ),
            (
                r#"{"jsonrpc": "2.0", "id": [1], "method": "ping"}"#,
                Value::Null,
                "\"id\" must be a string or a number, not an array",
            ),
            (
                r#"{"jsonrpc": "2.0", "id": null, "method": "ping"}"#,
                Value::Null,
                "\"id\" must be a string or a number, not null",
            ),
            (r#"[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]"#, Value::Null, "a batch"),
            ("42", Value::Null, "a message is a JSON object, not a number"),
            (r#""ping""#, Value::Null, "a message is a JSON object, not a string"),
        ];
        for (line, id, says) in cases {
            let v = refused(line);
            assert_eq!(v["error"]["code"], INVALID_REQUEST, "{line}: {v}");
            assert_eq!(v.get("id"), Some(&id), "{line}: {v}");
            let message = v["error"]["message"].as_str().unwrap_or("");
            assert!(message.starts_with("Invalid Request: ") && message.contains(says), "{line}: {message}");
        }
    }

    #[test]
    fn every_kind_of_json_rpc_message_is_handed_on() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"task_get"}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"no"}}"#,
            // An unknown method is a message; rmcp answers it with -32601.
            r#"{"jsonrpc":"2.0","id":5,"method":"nope/nope"}"#,
        ] {
            assert_eq!(refusal(line), None, "{line}");
        }
    }
}
