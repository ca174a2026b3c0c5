//! The model: an OpenAI-compatible `/chat/completions` endpoint with tool calling
//! (OpenRouter by default; llama.cpp, Ollama and vLLM serve the same API locally).
//!
//! The response types are lenient on purpose: providers omit fields, send `null`
//! content beside tool calls, leave `finish_reason` empty and put errors inside an HTTP
//! 200. Every failure is classified for SPEC §9's exit codes. The API key goes into one
//! header and nowhere else: not into `Debug`, an error or a log.
//!
//! Async (reqwest) lives here only: [`LlmClient::complete`] runs one request on a
//! current-thread tokio runtime it makes for the call, so a command that makes no request
//! starts no runtime.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// OpenRouter's API, the default provider (SPEC §8).
pub const DEFAULT_BASE_URL: &str = "https://openrouter.ai/api/v1";

/// How long connecting may take: a provider that does not accept a connection in five
/// seconds is down as far as a person waiting for a reply is concerned.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a whole request may take (`[llm] timeout_seconds`,
/// `TASKS_LLM_TIMEOUT`): a small model answers a 4k-token prompt in a few seconds; 30 s
/// covers a slow provider without leaving the person staring.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Where and how to reach the model.
#[derive(Clone)]
pub struct LlmConfig {
    /// The API base, e.g. `https://openrouter.ai/api/v1` or `http://127.0.0.1:8080/v1`.
    pub base_url: String,
    /// The model name.
    pub model: String,
    /// The API key, if the provider needs one.
    pub api_key: Option<String>,
    /// The whole request's timeout.
    pub timeout: Duration,
}

impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &printable_url(&self.base_url))
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// Why the model gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// No answer in time.
    #[error("the model did not answer within {0} s")]
    Timeout(u64),
    /// The provider could not be reached.
    #[error("cannot reach the model at {0}")]
    Network(String),
    /// The provider refused the key (401, 403).
    #[error("the model provider refused the API key (HTTP {0})")]
    Authentication(u16),
    /// Too many requests (429).
    #[error("the model provider is rate limiting (HTTP 429)")]
    RateLimited,
    /// The provider refused the request (another 4xx, or an error inside a 200).
    #[error("the model provider refused the request: {0}")]
    Provider(String),
    /// The provider failed (5xx).
    #[error("the model provider failed (HTTP {0})")]
    Unavailable(u16),
    /// The answer is not a chat completion.
    #[error("the model's answer cannot be read: {0}")]
    InvalidResponse(String),
}

/// One message of the conversation sent: the system prompt, the person's message, and —
/// in a scheduled prompt's run — the model's own tool calls and their results.
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: &'static str,
    /// Its text (`null` for an assistant message made only of tool calls).
    pub content: Option<String>,
    /// The assistant's tool calls, sent back with their results.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<OutgoingCall>,
    /// For a `tool` message: the call it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    /// The system prompt.
    pub fn system(text: impl Into<String>) -> Message {
        Message { role: "system", content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: None }
    }

    /// The person's message (with its context).
    pub fn user(text: impl Into<String>) -> Message {
        Message { role: "user", content: Some(text.into()), tool_calls: Vec::new(), tool_call_id: None }
    }

    /// The model's earlier answer, made of tool calls.
    pub fn assistant(calls: &[ToolCall]) -> Message {
        let tool_calls = calls
            .iter()
            .map(|c| OutgoingCall {
                id: c.id.clone(),
                kind: "function",
                function: OutgoingFunction {
                    name: c.name.clone(),
                    arguments: match &c.arguments {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                },
            })
            .collect();
        Message { role: "assistant", content: None, tool_calls, tool_call_id: None }
    }

    /// The result of one tool call.
    pub fn tool(call_id: impl Into<String>, result: impl Into<String>) -> Message {
        Message {
            role: "tool",
            content: Some(result.into()),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.into()),
        }
    }

    /// Returns the text, or "" (the length estimate of prompts).
    pub fn text(&self) -> &str {
        self.content.as_deref().unwrap_or("")
    }
}

/// A tool call as the model made it, sent back in an assistant message.
#[derive(Debug, Clone, Serialize)]
pub struct OutgoingCall {
    /// The call's id.
    pub id: String,
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Name and arguments.
    pub function: OutgoingFunction,
}

/// The function of an [`OutgoingCall`].
#[derive(Debug, Clone, Serialize)]
pub struct OutgoingFunction {
    /// The tool's name.
    pub name: String,
    /// The arguments as a JSON string.
    pub arguments: String,
}

/// A tool call of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The call's id (made up when the provider sent none).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Its arguments (a JSON object, or a string holding one).
    pub arguments: Value,
}

/// The model's answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelReply {
    /// The tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Text the model wrote instead of (or beside) calls.
    pub content: Option<String>,
}

/// The client.
#[derive(Debug, Clone)]
pub struct LlmClient {
    config: LlmConfig,
}

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    messages: &'a [Message],
    tools: &'a Value,
    tool_choice: &'static str,
    temperature: f32,
}

#[derive(Deserialize, Default)]
struct Response {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize, Default)]
struct Choice {
    #[serde(default)]
    message: Option<ResponseMessage>,
}

#[derive(Deserialize, Default)]
struct ResponseMessage {
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    tool_calls: Option<Vec<ResponseToolCall>>,
}

#[derive(Deserialize, Default)]
struct ResponseToolCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<ResponseFunction>,
}

#[derive(Deserialize, Default)]
struct ResponseFunction {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

impl LlmClient {
    /// Builds a client.
    pub fn new(config: LlmConfig) -> LlmClient {
        LlmClient { config }
    }

    /// Returns the configuration (the key redacted in `Debug`).
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Sends the messages and the tools; returns the answer.
    pub fn complete(&self, messages: &[Message], tools: &Value) -> Result<ModelReply, LlmError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Network(format!("cannot start the async runtime: {e}")))?;
        runtime.block_on(self.request(messages, tools))
    }

    async fn request(&self, messages: &[Message], tools: &Value) -> Result<ModelReply, LlmError> {
        let url = format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'));
        let shown = printable_url(&self.config.base_url);
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT.min(self.config.timeout))
            .timeout(self.config.timeout)
            .build()
            .map_err(|_| LlmError::Network(shown.clone()))?;
        let body = Request { model: &self.config.model, messages, tools, tool_choice: "auto", temperature: 0.0 };
        let mut request = client.post(&url).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| self.transport_error(&e, &shown))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| self.transport_error(&e, &shown))?;
        match status {
            200..=299 => {}
            401 | 403 => return Err(LlmError::Authentication(status)),
            429 => return Err(LlmError::RateLimited),
            408 | 504 => return Err(LlmError::Timeout(self.config.timeout.as_secs())),
            400..=499 => return Err(LlmError::Provider(format!("HTTP {status}: {}", error_text(&text)))),
            _ => return Err(LlmError::Unavailable(status)),
        }
        parse_reply(&text)
    }

    fn transport_error(&self, e: &reqwest::Error, shown: &str) -> LlmError {
        if e.is_timeout() {
            LlmError::Timeout(self.config.timeout.as_secs())
        } else if e.is_decode() || e.is_body() {
            LlmError::InvalidResponse("the answer was cut off".into())
        } else {
            LlmError::Network(shown.to_string())
        }
    }
}

/// Returns a URL without credentials or query (a key written into the URL by mistake
/// must not reach an error message).
fn printable_url(url: &str) -> String {
    let no_query = url.split(['?', '#']).next().unwrap_or(url);
    match no_query.split_once("://") {
        Some((scheme, rest)) => {
            let host_part = rest.rsplit_once('@').map(|(_, h)| h).unwrap_or(rest);
            format!("{scheme}://{host_part}")
        }
        None => no_query.to_string(),
    }
}

/// Returns the short reason of an error body, cut to a line.
fn error_text(body: &str) -> String {
    let message = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().or(v["message"].as_str()).map(str::to_string))
        .unwrap_or_else(|| body.to_string());
    message.lines().next().unwrap_or("").chars().take(200).collect()
}

/// Reads a chat completion leniently.
pub fn parse_reply(text: &str) -> Result<ModelReply, LlmError> {
    let response: Response =
        serde_json::from_str(text).map_err(|e| LlmError::InvalidResponse(format!("not JSON: {e}")))?;
    if let Some(error) = response.error {
        let message = error["message"].as_str().map(str::to_string).unwrap_or_else(|| error.to_string());
        return Err(LlmError::Provider(message.chars().take(200).collect()));
    }
    let Some(message) = response.choices.into_iter().next().and_then(|c| c.message) else {
        return Err(LlmError::InvalidResponse("no choices in the answer".into()));
    };
    let tool_calls = message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let f = c.function.unwrap_or_default();
            ToolCall {
                id: c.id.filter(|id| !id.is_empty()).unwrap_or_else(|| format!("call_{i}")),
                name: f.name.unwrap_or_default(),
                arguments: f.arguments.unwrap_or(Value::Null),
            }
        })
        .collect();
    let content = match message.content {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
        _ => None,
    };
    Ok(ModelReply { tool_calls, content })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_leniently() {
        let reply = parse_reply(
            r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"1","type":"function","function":{"name":"close_task","arguments":"{\"id\":\"HRB-1\"}"}}]},"finish_reason":null}]}"#,
        )
        .expect("a tool call");
        assert_eq!(reply.tool_calls[0].name, "close_task");
        assert_eq!(reply.content, None);
        let text = parse_reply(r#"{"choices":[{"message":{"content":"I only handle tasks"}}]}"#).expect("text");
        assert_eq!(text.content.as_deref(), Some("I only handle tasks"));
        assert!(text.tool_calls.is_empty());
    }

    #[test]
    fn errors_inside_a_200_and_garbage_are_errors() {
        assert!(
            matches!(parse_reply(r#"{"error":{"message":"model not found","code":404}}"#), Err(LlmError::Provider(m)) if m == "model not found")
        );
        assert!(matches!(parse_reply("<html>502</html>"), Err(LlmError::InvalidResponse(_))));
        assert!(matches!(parse_reply(r#"{"choices":[]}"#), Err(LlmError::InvalidResponse(_))));
    }

    #[test]
    fn the_key_is_never_shown() {
        let config = LlmConfig {
            base_url: "https://user:sk-secret@api.example/v1?key=sk-secret".into(),
            model: "m".into(),
            api_key: Some("sk-secret".into()),
            timeout: DEFAULT_TIMEOUT,
        };
        assert!(!format!("{config:?}").contains("sk-secret"), "{config:?}");
        assert_eq!(printable_url(&config.base_url), "https://api.example/v1");
    }
}
