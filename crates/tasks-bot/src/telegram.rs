//! A small typed client of the Telegram Bot API (the five methods the bot uses), over
//! the reqwest the model client already uses — see docs/decisions.md for why not
//! teloxide. Lenient reading: every field the bot does not need is ignored, every field
//! it reads may be missing.
//!
//! The token is part of every URL (`/bot<TOKEN>/getUpdates`), and reqwest's errors print
//! their URL: no reqwest error is ever shown. Failures say which method failed and at
//! which base URL, never with the token.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

/// Telegram's API.
pub const DEFAULT_API_URL: &str = "https://api.telegram.org";

/// Longest a Telegram message may be, in UTF-16 code units (the API's count).
pub const MESSAGE_MAX: usize = 4096;

/// Why a Bot API call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The API could not be reached, or did not answer in time.
    #[error("cannot reach the Telegram Bot API at {0} ({1})")]
    Network(String, &'static str),
    /// The API refused the call (`ok: false`).
    #[error("the Telegram Bot API refused {method}: {description}")]
    Refused {
        /// The method.
        method: &'static str,
        /// Telegram's words.
        description: String,
    },
    /// The answer is not what the API answers.
    #[error("the Telegram Bot API's answer to {0} cannot be read")]
    Unreadable(&'static str),
}

/// A chat.
#[derive(Debug, Clone, Deserialize)]
pub struct Chat {
    /// Its id.
    pub id: i64,
}

/// A message.
#[derive(Debug, Clone, Deserialize)]
pub struct TgMessage {
    /// Its id in the chat.
    pub message_id: i64,
    /// The chat.
    pub chat: Chat,
    /// Its text.
    #[serde(default)]
    pub text: Option<String>,
    /// The message it replies to.
    #[serde(default)]
    pub reply_to_message: Option<Box<TgMessage>>,
}

/// A button press.
#[derive(Debug, Clone, Deserialize)]
pub struct CallbackQuery {
    /// Its id (to answer it).
    pub id: String,
    /// The button's data.
    #[serde(default)]
    pub data: Option<String>,
    /// The message the button was under.
    #[serde(default)]
    pub message: Option<TgMessage>,
}

/// One update.
#[derive(Debug, Clone, Deserialize)]
pub struct Update {
    /// Its id, increasing.
    pub update_id: i64,
    /// A new message.
    #[serde(default)]
    pub message: Option<TgMessage>,
    /// A button press.
    #[serde(default)]
    pub callback_query: Option<CallbackQuery>,
}

impl Update {
    /// Returns the chat the update came from.
    pub fn chat_id(&self) -> Option<i64> {
        self.message
            .as_ref()
            .map(|m| m.chat.id)
            .or_else(|| self.callback_query.as_ref().and_then(|c| c.message.as_ref()).map(|m| m.chat.id))
    }
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    ok: bool,
    #[serde(default)]
    result: Value,
    #[serde(default)]
    description: Option<String>,
}

/// A button under a message.
#[derive(Debug, Clone)]
pub struct Button {
    /// What it says.
    pub label: String,
    /// What a press sends back.
    pub data: String,
}

/// The client.
#[derive(Clone)]
pub struct BotApi {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl std::fmt::Debug for BotApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotApi").field("base", &self.base).field("token", &"[redacted]").finish()
    }
}

impl BotApi {
    /// Builds a client of the API at `base` (no trailing `/bot…`).
    pub fn new(base: &str, token: &str) -> BotApi {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        BotApi { base: base.trim_end_matches('/').to_string(), token: token.to_string(), http }
    }

    /// Returns the base URL, for messages.
    pub fn base(&self) -> &str {
        &self.base
    }

    async fn call(&self, method: &'static str, body: Value, timeout: Duration) -> Result<Value, BotError> {
        let url = format!("{}/bot{}/{method}", self.base, self.token);
        let sent = self.http.post(&url).json(&body).timeout(timeout).send().await.map_err(|e| {
            BotError::Network(self.base.clone(), if e.is_timeout() { "timed out" } else { "no connection" })
        })?;
        let text = sent.text().await.map_err(|_| BotError::Network(self.base.clone(), "the answer was cut off"))?;
        let answer: Answer = serde_json::from_str(&text).map_err(|_| BotError::Unreadable(method))?;
        if !answer.ok {
            let description = answer.description.unwrap_or_else(|| "no reason given".into());
            // Telegram's words could quote the URL; keep the token out anyway.
            return Err(BotError::Refused { method, description: description.replace(&self.token, "[token]") });
        }
        Ok(answer.result)
    }

    /// Fetches the updates after `offset`, waiting up to `wait` for one.
    pub async fn get_updates(&self, offset: Option<i64>, wait: Duration) -> Result<Vec<Update>, BotError> {
        let mut body = json!({"timeout": wait.as_secs(), "allowed_updates": ["message", "callback_query"]});
        if let Some(o) = offset {
            body["offset"] = json!(o);
        }
        let result = self.call("getUpdates", body, wait + Duration::from_secs(10)).await?;
        // One update that does not read (an edit, a sticker) is skipped, not fatal.
        let raw: Vec<Value> = serde_json::from_value(result).map_err(|_| BotError::Unreadable("getUpdates"))?;
        Ok(raw
            .into_iter()
            .filter_map(|u| {
                let id = u["update_id"].as_i64();
                serde_json::from_value::<Update>(u)
                    .ok()
                    .or_else(|| id.map(|update_id| Update { update_id, message: None, callback_query: None }))
            })
            .collect())
    }

    /// Sends a message (optionally as a reply, with buttons); returns its id.
    pub async fn send_message(
        &self,
        chat: i64,
        text: &str,
        reply_to: Option<i64>,
        buttons: &[Vec<Button>],
    ) -> Result<i64, BotError> {
        let mut body = json!({"chat_id": chat, "text": text});
        if let Some(id) = reply_to {
            body["reply_parameters"] = json!({"message_id": id, "allow_sending_without_reply": true});
        }
        if !buttons.is_empty() {
            let rows: Vec<Vec<Value>> = buttons
                .iter()
                .map(|row| row.iter().map(|b| json!({"text": b.label, "callback_data": b.data})).collect())
                .collect();
            body["reply_markup"] = json!({"inline_keyboard": rows});
        }
        let result = self.call("sendMessage", body, Duration::from_secs(30)).await?;
        Ok(result["message_id"].as_i64().unwrap_or(0))
    }

    /// Answers a button press (stops the client's spinner), with an optional notice.
    pub async fn answer_callback(&self, id: &str, text: Option<&str>) -> Result<(), BotError> {
        let mut body = json!({"callback_query_id": id});
        if let Some(t) = text {
            body["text"] = json!(t);
        }
        self.call("answerCallbackQuery", body, Duration::from_secs(30)).await.map(|_| ())
    }

    /// Shows "typing…" in a chat.
    pub async fn typing(&self, chat: i64) -> Result<(), BotError> {
        self.call("sendChatAction", json!({"chat_id": chat, "action": "typing"}), Duration::from_secs(30))
            .await
            .map(|_| ())
    }
}
