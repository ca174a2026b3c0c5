//! The conversation runner (issue 13): it answers conversation queues one item at a
//! time per conversation — a person's message through `tasks-chat`'s turn, a prompt
//! firing through `tasks-chat`'s prompt run — and, with Telegram, fetches updates and
//! sends replies.
//!
//! Durability: an update is queued in the same transaction as the bot's offset
//! (`ops::conversation::enqueue_incoming`), so a crash before the commit leaves it to
//! be fetched again, and after it never queues it twice. An item is `running` while it
//! is answered; a runner that dies leaves it so, and the next one marks it interrupted
//! and tells the chat ([`Runner::recover`]) — it is never answered twice. Pending items
//! are answered after a restart, each once.
//!
//! Every store step opens its own connection on the blocking pool (SQLite's WAL lets the
//! scheduler, the poller and the worker write in turn); no connection lives across an
//! `.await`, and no lock is held while the model thinks.

use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_chat::llm::{LlmClient, LlmConfig};
use tasks_chat::offline::Lang;
use tasks_chat::prompt_run::{self, PromptResult};
use tasks_chat::turn::{self, Route, Turn};
use tasks_core::model::conversation::{ConversationKind, MessagePayload, QueueKind, QueuePayload};
use tasks_core::ops::conversation::{self, ConversationRef, Offset};
use tasks_core::ops::schedule::fire::firing_message;
use tasks_core::ops::schedule::prompt::{self, PromptEnd};
use tasks_core::ops::schedule::{QueueItem, queue};
use tasks_core::port::Engine;
use tasks_core::{Context, Store};

use crate::split;
use crate::telegram::{BotApi, BotError, Button, Update};

/// The bot's name in the offsets table.
pub const TELEGRAM: &str = "telegram";

/// Opens the store for one step, on the blocking pool: a pooled team-store connection
/// (given by the edge, which knows the engines). Without one, each step opens the
/// SQLite file at [`Settings::store_path`].
#[derive(Clone)]
pub struct Opener(pub std::sync::Arc<dyn Fn() -> tasks_core::Result<Box<dyn Engine + Send>> + Send + Sync>);

impl std::fmt::Debug for Opener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Opener")
    }
}

/// What every step needs: where the store is, who acts, and the clock.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The store file (for a team store, its URL without the password; see `open`).
    pub store_path: PathBuf,
    /// Opens the team store; `None` opens the SQLite file at `store_path`.
    pub open: Option<Opener>,
    /// The actor the conversation's changes are recorded as.
    pub actor: String,
    /// The person's zone.
    pub zone: TimeZone,
    /// `TASKS_NOW`, for tests; else the system clock at each step.
    pub fixed_now: Option<Timestamp>,
    /// Whether free text is accepted.
    pub conversational: bool,
    /// The model, when one is configured.
    pub llm: Option<LlmConfig>,
}

impl Settings {
    /// Opens the store for one step.
    pub fn open_store(&self) -> tasks_core::Result<Box<dyn Engine + Send>> {
        match &self.open {
            Some(open) => (open.0)(),
            None => Ok(Box::new(Store::open(&self.store_path)?)),
        }
    }

    fn context(&self) -> Context {
        Context::new(self.fixed_now.unwrap_or_else(Timestamp::now), self.actor.clone(), self.zone.clone())
    }
}

/// Why the runner stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] tasks_core::Error),
    /// The Bot API failed.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// A blocking step could not run.
    #[error("a runner step failed: {0}")]
    Join(String),
}

/// The Telegram side: the API and the chats allowed to talk.
#[derive(Debug, Clone)]
pub struct Telegram {
    /// The client.
    pub api: BotApi,
    /// The allow-list of chat ids.
    pub chats: Vec<i64>,
}

/// The runner.
#[derive(Debug, Clone)]
pub struct Runner {
    settings: Settings,
    telegram: Option<Telegram>,
}

/// Runs one store step on the blocking pool with a fresh connection and context.
async fn step<T, F>(settings: &Settings, f: F) -> Result<T, RunnerError>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Engine, &Context) -> tasks_core::Result<T> + Send + 'static,
{
    let s = settings.clone();
    tokio::task::spawn_blocking(move || {
        let mut store = s.open_store()?;
        f(&mut *store, &s.context())
    })
    .await
    .map_err(|e| RunnerError::Join(e.to_string()))?
    .map_err(RunnerError::from)
}

/// Logs a line on stderr: ids and states only, never a message's text.
fn log(line: impl AsRef<str>) {
    eprintln!("tasks bot: {}", line.as_ref());
}

impl Runner {
    /// Builds a runner; `telegram` adds the bot.
    pub fn new(settings: Settings, telegram: Option<Telegram>) -> Runner {
        Runner { settings, telegram }
    }

    /// Whether it runs the Telegram bot.
    pub fn has_telegram(&self) -> bool {
        self.telegram.is_some()
    }

    /// Whether it answers any conversation at all (a bot, or a model for local ones).
    pub fn answers_anything(&self) -> bool {
        !self.kinds().is_empty()
    }

    /// The conversation kinds this runner answers: Telegram chats when it has the bot,
    /// and local conversations when a model is configured (their prompt firings wait
    /// for one otherwise).
    fn kinds(&self) -> Vec<ConversationKind> {
        let mut k = Vec::new();
        if self.telegram.is_some() {
            k.push(ConversationKind::Telegram);
        }
        if self.settings.llm.is_some() {
            k.push(ConversationKind::Local);
        }
        k
    }

    /// Marks items a dead runner left `running` as interrupted and tells their chats.
    pub async fn recover(&self) -> Result<usize, RunnerError> {
        let kinds = self.kinds();
        let stale = step(&self.settings, move |s, c| conversation::interrupt_stale(s, c, &kinds)).await?;
        for item in &stale {
            log(format!("queue item #{} was running when the runner stopped: interrupted, not replayed", item.id));
            let text = match &item.payload {
                QueuePayload::Message(m) => format!(
                    "⚠️ I was stopped while answering «{}». Part of it may be done — check /today, and send it again if it still stands.",
                    tasks_text::printable(&cut(&m.text, 80))
                ),
                QueuePayload::Firing(f) => {
                    format!(
                        "⚠️ I was stopped while running the scheduled prompt of {}; it is marked interrupted.",
                        f.task
                    )
                }
            };
            self.send_to_conversation(item.conversation_id, &text, None, &[]).await;
        }
        Ok(stale.len())
    }

    /// Fetches the updates waiting (up to `wait` for one) and queues what the allowed
    /// chats sent; answers queue commands and button presses at once. Returns how many
    /// updates it saw.
    pub async fn poll(&self, wait: Duration) -> Result<usize, RunnerError> {
        let Some(tg) = &self.telegram else { return Ok(0) };
        let offset = step(&self.settings, |s, _| conversation::bot_offset(s, TELEGRAM)).await?;
        let updates = tg.api.get_updates(offset.map(|o| o + 1), wait).await?;
        let n = updates.len();
        for update in updates {
            self.take(tg, update).await?;
        }
        Ok(n)
    }

    async fn take(&self, tg: &Telegram, update: Update) -> Result<(), RunnerError> {
        let id = update.update_id;
        let skip = |settings: &Settings| {
            let s = settings.clone();
            async move { step(&s, move |st, c| conversation::skip_update(st, c, TELEGRAM, id)).await }
        };
        let Some(chat) = update.chat_id() else { return skip(&self.settings).await };
        if !tg.chats.contains(&chat) {
            // No answer and no action; the log names the chat, never what it said.
            log(format!("ignored an update from chat {chat}, which is not in the allow-list"));
            return skip(&self.settings).await;
        }
        let cref = ConversationRef { kind: ConversationKind::Telegram, external_id: chat.to_string() };
        if let Some(cb) = update.callback_query {
            let _ = tg.api.answer_callback(&cb.id, None).await;
            let Some(payload) = cb.data.as_deref().and_then(|d| payload_of_button(d, &self.settings.actor)) else {
                return skip(&self.settings).await;
            };
            return self.enqueue(cref, payload, id).await;
        }
        let Some(message) = update.message else { return skip(&self.settings).await };
        let Some(text) = message.text.clone().filter(|t| !t.trim().is_empty()) else {
            return skip(&self.settings).await;
        };
        // Queue commands act on the queue itself, at once.
        if let Some(reply) = self.queue_command(&cref, &text).await? {
            step(&self.settings, move |s, c| conversation::skip_update(s, c, TELEGRAM, id)).await?;
            self.send(chat, &reply, Some(message.message_id), &[]).await;
            return Ok(());
        }
        let payload = MessagePayload {
            text,
            from: self.settings.actor.clone(),
            quoted: message.reply_to_message.and_then(|r| r.text),
            external_id: Some(message.message_id),
            button: None,
        };
        self.enqueue(cref, payload, id).await
    }

    async fn enqueue(&self, cref: ConversationRef, payload: MessagePayload, update_id: i64) -> Result<(), RunnerError> {
        let offset_bot = TELEGRAM;
        let queued = step(&self.settings, move |s, c| {
            conversation::enqueue_incoming(s, c, &cref, payload, Some(Offset { bot: offset_bot, update_id }))
        })
        .await?;
        if let Some(item) = queued {
            log(format!("queued item #{} (update {update_id})", item.id));
        }
        Ok(())
    }

    /// Answers `/queue`, `/cancel N`, `/now N` — commands about the queue, which cannot
    /// wait in it. `None` for anything else.
    async fn queue_command(&self, cref: &ConversationRef, text: &str) -> Result<Option<String>, RunnerError> {
        let mut words = text.split_whitespace();
        let command = words.next().unwrap_or("").trim_start_matches('/').split('@').next().unwrap_or("").to_lowercase();
        if !text.starts_with('/') || !matches!(command.as_str(), "queue" | "cancel" | "now") {
            return Ok(None);
        }
        let n: Option<i64> = words.next().and_then(|w| w.trim_start_matches('#').parse().ok());
        let cref = cref.clone();
        let reply = step(&self.settings, move |s, c| {
            let id = conversation::ensure(s, c, &cref)?;
            let describe =
                |i: &QueueItem| format!("#{} {} {}: {}", i.id, i.state, i.kind, cut(&i.payload.summary(), 60));
            Ok(match (command.as_str(), n) {
                ("queue", _) => {
                    let items = queue::list(s, Some(id))?;
                    if items.is_empty() {
                        "The queue is empty.".to_string()
                    } else {
                        items.iter().map(describe).collect::<Vec<_>>().join("\n")
                    }
                }
                ("cancel", Some(n)) => match own_item(s, id, n).and_then(|_| queue::remove(s, c, n)) {
                    Ok(i) => format!("Removed {}", describe(&i)),
                    Err(e) => format!("Cannot remove #{n}: {e}"),
                },
                ("now", Some(n)) => match own_item(s, id, n).and_then(|_| queue::promote(s, c, n)) {
                    Ok(p) => {
                        let stopped: Vec<String> = p.interrupted.iter().map(|i| format!("#{}", i.id)).collect();
                        if stopped.is_empty() {
                            format!("#{n} is next.")
                        } else {
                            format!("#{n} is next; interrupted {}.", stopped.join(", "))
                        }
                    }
                    Err(e) => format!("Cannot promote #{n}: {e}"),
                },
                (cmd, None) => format!("/{cmd} N: N is the number /queue shows."),
                _ => String::new(),
            })
        })
        .await?;
        Ok(Some(reply.lines().map(|l| tasks_text::printable(l).into_owned()).collect::<Vec<_>>().join("\n")))
    }

    /// Answers queued items until none can start; returns how many it answered.
    pub async fn work(&self) -> Result<usize, RunnerError> {
        let mut done = 0;
        loop {
            let kinds = self.kinds();
            if kinds.is_empty() {
                return Ok(done);
            }
            let Some(item) = step(&self.settings, move |s, c| conversation::start_next(s, c, &kinds)).await? else {
                return Ok(done);
            };
            log(format!("answering queue item #{} ({})", item.id, item.kind));
            match item.kind {
                QueueKind::Message => self.answer_message(&item).await?,
                QueueKind::Firing => self.run_firing(&item).await?,
            }
            let id = item.id;
            // Interrupted meanwhile (/now): the item keeps that state.
            let _ = step(&self.settings, move |s, c| queue::finish(s, c, id)).await;
            done += 1;
        }
    }

    async fn answer_message(&self, item: &QueueItem) -> Result<(), RunnerError> {
        let QueuePayload::Message(m) = item.payload.clone() else { return Ok(()) };
        let conv_id = item.conversation_id;
        let conv = step(&self.settings, move |s, _| conversation::get(s, conv_id)).await?;
        let chat = chat_of(&conv);
        let cref = ConversationRef {
            kind: conv.kind,
            external_id: conv.external_id.clone().unwrap_or_else(|| conv.title.clone()),
        };
        if let Some(chat) = chat
            && self.settings.llm.is_some()
            && m.button.is_none()
            && !m.text.starts_with('/')
            && let Some(tg) = &self.telegram
        {
            let _ = tg.api.typing(chat).await;
        }
        let settings = self.settings.clone();
        let answer = tokio::task::spawn_blocking(move || -> tasks_core::Result<(String, Vec<Vec<Button>>)> {
            let mut store = settings.open_store()?;
            let ctx = settings.context();
            let client = settings.llm.clone().map(LlmClient::new);
            let route = client.as_ref().map(Route::Model).unwrap_or(Route::Offline);
            let t = Turn {
                text: &m.text,
                quoted: m.quoted.as_deref(),
                conversation: &cref,
                dry_run: false,
                conversational: settings.conversational,
                route,
                button: m.button,
            };
            Ok(match turn::run(&mut *store, &ctx, &t) {
                Ok(out) => {
                    (out.reply, out.buttons.into_iter().map(|row| row.into_iter().map(button).collect()).collect())
                }
                // The person hears what went wrong, as `tasks chat` says it.
                Err(e) => (tasks_text::printable(&e.to_string()).into_owned(), Vec::new()),
            })
        })
        .await
        .map_err(|e| RunnerError::Join(e.to_string()))??;
        if let Some(chat) = chat {
            self.send(chat, &answer.0, m.external_id, &answer.1).await;
        }
        Ok(())
    }

    async fn run_firing(&self, item: &QueueItem) -> Result<(), RunnerError> {
        let item = item.clone();
        let settings = self.settings.clone();
        let conv_id = item.conversation_id;
        let posted = tokio::task::spawn_blocking(move || -> tasks_core::Result<Option<(String, Vec<Vec<Button>>)>> {
            let mut opened = settings.open_store()?;
            let store: &mut dyn tasks_core::port::Engine = &mut *opened;
            let ctx = settings.context();
            let Some(turn) = prompt::turn_of(store, &item)? else { return Ok(None) };
            let client = settings.llm.clone().map(LlmClient::new);
            let lang = Lang::of(&turn.action.text);
            let result = prompt_run::run(store, &ctx, client.as_ref(), settings.conversational, &turn);
            let (job, text, buttons) = match result {
                PromptResult::Done { output } => {
                    let end = PromptEnd { succeeded: true, output: output.clone(), reason: None };
                    let job = prompt::finish(store, &ctx, turn.job.id, turn.run_id, &end)?;
                    (job, output, Vec::new())
                }
                PromptResult::Failed { reason, output } => {
                    let end = PromptEnd { succeeded: false, output: output.clone(), reason: Some(reason.clone()) };
                    let job = prompt::finish(store, &ctx, turn.job.id, turn.run_id, &end)?;
                    (job, format!("failed: {reason}\n{output}").trim().to_string(), Vec::new())
                }
                PromptResult::NeedsApproval { calls, question, output } => {
                    let json = prompt_run::calls_json(&calls);
                    let job = prompt::park_for_approval(store, &ctx, turn.job.id, &json, &question)?;
                    let buttons = turn::approval_buttons(job.id, lang)
                        .into_iter()
                        .map(|row| row.into_iter().map(button).collect())
                        .collect();
                    let text = format!("{question}\n(/approve {} · /reject {})\n{output}", job.id, job.id);
                    (job, text.trim().to_string(), buttons)
                }
            };
            let header = firing_message(&job, &turn.title, &job.state.to_string());
            Ok(Some((format!("⏰ {header}\n{text}"), buttons)))
        })
        .await
        .map_err(|e| RunnerError::Join(e.to_string()))??;
        if let Some((text, buttons)) = posted {
            self.send_to_conversation(conv_id, &text, None, &buttons).await;
        }
        Ok(())
    }

    /// Sends to the chat of a conversation, if it is a Telegram one.
    async fn send_to_conversation(
        &self,
        conversation_id: i64,
        text: &str,
        reply_to: Option<i64>,
        buttons: &[Vec<Button>],
    ) {
        let Ok(conv) = step(&self.settings, move |s, _| conversation::get(s, conversation_id)).await else { return };
        if let Some(chat) = chat_of(&conv) {
            self.send(chat, text, reply_to, buttons).await;
        }
    }

    /// Sends a reply, split for Telegram; the buttons go under its last part. A failure
    /// is logged: the item is answered either way (never answered twice).
    async fn send(&self, chat: i64, text: &str, reply_to: Option<i64>, buttons: &[Vec<Button>]) {
        let Some(tg) = &self.telegram else { return };
        let parts = split::for_telegram(text);
        let last = parts.len().saturating_sub(1);
        for (i, part) in parts.iter().enumerate() {
            let rows: &[Vec<Button>] = if i == last { buttons } else { &[] };
            if let Err(e) = tg.api.send_message(chat, part, if i == 0 { reply_to } else { None }, rows).await {
                log(format!("could not send to chat {chat}: {e}"));
                return;
            }
        }
    }
}

/// Refuses a queue command on an item of another conversation.
fn own_item(store: &dyn Engine, conversation_id: i64, item: i64) -> tasks_core::Result<()> {
    match queue::list(store, Some(conversation_id))?.iter().any(|i| i.id == item) {
        true => Ok(()),
        false => Err(tasks_core::Error::NotFound { what: "queue item", value: format!("#{item} in this chat") }),
    }
}

/// Reads a button's data into what it answers: `p:<nonce>:<answer>` answers a question,
/// `a:<job>:y|n` approves or rejects a Job.
pub fn payload_of_button(data: &str, actor: &str) -> Option<MessagePayload> {
    let mut parts = data.splitn(3, ':');
    match (parts.next()?, parts.next()?, parts.next()?) {
        ("p", nonce, answer) => {
            let mut p = MessagePayload::text(answer, actor);
            p.button = Some(nonce.parse().ok()?);
            Some(p)
        }
        ("a", job, yes) => {
            let job: i64 = job.parse().ok()?;
            let verb = if yes == "y" { "approve" } else { "reject" };
            Some(MessagePayload::text(format!("/{verb} {job}"), actor))
        }
        _ => None,
    }
}

fn button(b: tasks_chat::turn::Button) -> Button {
    Button { label: b.label, data: b.data }
}

fn chat_of(c: &tasks_core::ops::conversation::Conversation) -> Option<i64> {
    (c.kind == ConversationKind::Telegram).then(|| c.external_id.as_deref().and_then(|e| e.parse().ok())).flatten()
}

fn cut(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_data_reads_back() {
        let p = payload_of_button("p:7:2", "me").expect("question");
        assert_eq!((p.text.as_str(), p.button), ("2", Some(7)));
        assert_eq!(payload_of_button("a:12:y", "me").expect("approve").text, "/approve 12");
        assert_eq!(payload_of_button("a:12:n", "me").expect("reject").text, "/reject 12");
        assert!(payload_of_button("x", "me").is_none());
        assert!(payload_of_button("p:seven:2", "me").is_none());
    }
}
