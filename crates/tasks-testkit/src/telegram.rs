//! A fake Telegram Bot API on 127.0.0.1: `getUpdates` hands out the updates a test
//! pushed, as Telegram does — every update from the requested offset on, until a later
//! offset confirms it — and `sendMessage`, `answerCallbackQuery`, `sendChatAction` are
//! recorded. Method names are matched case-insensitively (Telegram accepts both
//! `sendMessage` and `SendMessage`). A wrong token gets Telegram's 401.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::http::{Request, Response, Server};

/// A call the bot made (not `getUpdates`).
#[derive(Debug, Clone)]
pub struct Call {
    /// The method, lowercase.
    pub method: String,
    /// Its JSON body.
    pub body: Value,
}

#[derive(Default)]
struct State {
    updates: Vec<Value>,
    calls: Vec<Call>,
    offsets: Vec<Option<i64>>,
    next_message_id: i64,
}

/// The fake API.
pub struct FakeTelegram {
    server: Server,
    state: Arc<Mutex<State>>,
}

impl FakeTelegram {
    /// Starts the API for the bot with this token.
    pub fn start(token: &str) -> FakeTelegram {
        let state = Arc::new(Mutex::new(State { next_message_id: 1000, ..State::default() }));
        let shared = state.clone();
        let prefix = format!("/bot{token}/");
        let server = Server::start(move |r: &Request| {
            let Some(method) = r.path.strip_prefix(&prefix) else {
                return Response::json(401, r#"{"ok":false,"error_code":401,"description":"Unauthorized"}"#);
            };
            let method = method.split('?').next().unwrap_or("").to_lowercase();
            let body = r.json();
            if method == "getupdates" {
                let offset = body["offset"].as_i64();
                let wait = body["timeout"].as_u64().unwrap_or(0);
                let ready = {
                    let mut st = shared.lock().expect("state");
                    st.offsets.push(offset);
                    if let Some(o) = offset {
                        st.updates.retain(|u| u["update_id"].as_i64().unwrap_or(0) >= o);
                    }
                    st.updates.clone()
                };
                if ready.is_empty() && wait > 0 {
                    // Long polling with nothing to say: a short wait, then nothing.
                    std::thread::sleep(Duration::from_millis(300));
                }
                return Response::json(200, json!({"ok": true, "result": ready}).to_string());
            }
            let mut st = shared.lock().expect("state");
            st.calls.push(Call { method: method.clone(), body: body.clone() });
            match method.as_str() {
                "sendmessage" => {
                    st.next_message_id += 1;
                    let id = st.next_message_id;
                    let result = json!({"message_id": id, "chat": {"id": body["chat_id"]}, "text": body["text"]});
                    Response::json(200, json!({"ok": true, "result": result}).to_string())
                }
                "answercallbackquery" | "sendchataction" => Response::json(200, r#"{"ok":true,"result":true}"#),
                _ => Response::json(404, r#"{"ok":false,"error_code":404,"description":"Not Found"}"#),
            }
        });
        FakeTelegram { server, state }
    }

    /// Returns the API's base URL (`http://127.0.0.1:PORT`).
    pub fn api_url(&self) -> String {
        self.server.url()
    }

    /// Makes updates available to `getUpdates`.
    pub fn push(&self, updates: Vec<Value>) {
        self.state.lock().expect("state").updates.extend(updates);
    }

    /// Returns the calls the bot made, in order (not `getUpdates`).
    pub fn calls(&self) -> Vec<Call> {
        self.state.lock().expect("state").calls.clone()
    }

    /// Returns the texts sent to a chat, in order.
    pub fn texts_to(&self, chat: i64) -> Vec<String> {
        self.calls()
            .into_iter()
            .filter(|c| c.method == "sendmessage" && c.body["chat_id"].as_i64() == Some(chat))
            .map(|c| c.body["text"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Returns the offsets `getUpdates` was called with.
    pub fn offsets(&self) -> Vec<Option<i64>> {
        self.state.lock().expect("state").offsets.clone()
    }
}

/// An update carrying a text message.
pub fn message(update_id: i64, chat: i64, message_id: i64, text: &str) -> Value {
    json!({"update_id": update_id, "message": {"message_id": message_id, "chat": {"id": chat, "type": "private"}, "date": 0, "text": text}})
}

/// An update carrying a reply to an earlier message.
pub fn reply(update_id: i64, chat: i64, message_id: i64, text: &str, quoted: &str) -> Value {
    let mut u = message(update_id, chat, message_id, text);
    u["message"]["reply_to_message"] = json!({"message_id": message_id - 1, "chat": {"id": chat}, "text": quoted});
    u
}

/// An update carrying a button press.
pub fn press(update_id: i64, chat: i64, data: &str) -> Value {
    json!({"update_id": update_id, "callback_query": {"id": format!("cb{update_id}"), "data": data,
        "message": {"message_id": 1, "chat": {"id": chat}, "text": ""}}})
}
