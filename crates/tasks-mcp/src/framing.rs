//! Line framing of MCP over stdio around rmcp: a line that is not JSON gets the
//! JSON-RPC parse error (-32700) it is owed, instead of silence (issue 10), and every
//! answer reaches stdout as one whole line.

use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// Bytes buffered between stdin, rmcp and stdout.
pub const PIPE_BYTES: usize = 1 << 20;

/// JSON-RPC 2.0's code for "invalid JSON was received".
pub const PARSE_ERROR: i64 = -32700;

/// A JSON-RPC error response with no id (the request's id could not be read).
#[derive(Debug, Serialize)]
pub struct ParseErrorResponse {
    jsonrpc: &'static str,
    id: Option<()>,
    error: RpcError,
}

/// The error member of a response.
#[derive(Debug, Serialize)]
struct RpcError {
    code: i64,
    message: String,
}

/// Returns the answer to a line that is not JSON, saying what was wrong with it.
pub fn parse_error(line: &str) -> Option<String> {
    let problem = serde_json::from_str::<serde_json::Value>(line).err()?;
    let response = ParseErrorResponse {
        jsonrpc: "2.0",
        id: None,
        error: RpcError { code: PARSE_ERROR, message: format!("Parse error: {problem}") },
    };
    serde_json::to_string(&response).ok()
}

/// Reads stdin a line at a time: JSON goes on to rmcp, anything else is answered with
/// a parse error. Ends rmcp's input when stdin ends.
pub async fn read_stdin(mut to_server: DuplexStream, errors: UnboundedSender<String>) {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        match parse_error(&line) {
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

    #[test]
    fn only_a_line_that_is_not_json_gets_a_parse_error() {
        let answer = parse_error("this is not json").expect("an answer");
        let v: serde_json::Value = serde_json::from_str(&answer).expect("json");
        assert_eq!(v["error"]["code"], PARSE_ERROR);
        assert_eq!(v["id"], serde_json::Value::Null);
        assert!(v["error"]["message"].as_str().unwrap_or("").starts_with("Parse error"));
        assert_eq!(parse_error(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
    }
}
