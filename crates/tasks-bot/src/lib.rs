//! `tasks-bot`: the Telegram bot of `tasks` (SPEC §7, issue 13) and the runner that
//! answers conversation queues — messages and scheduled prompts, in order, one at a time
//! per conversation.
//!
//! - [`telegram`]: a small typed Bot API client (getUpdates, sendMessage,
//!   answerCallbackQuery, sendChatAction); the token never reaches an error.
//! - [`split`]: replies longer than Telegram's 4,096 characters, split at line ends.
//! - [`runner`]: fetch, queue durably, answer, send; recover after a crash.
//!
//! What it deliberately does not do: decide anything about tasks (that is `tasks-chat`
//! and `tasks-core`), or keep a store connection across an `.await`.

pub mod runner;
pub mod split;
pub mod telegram;
