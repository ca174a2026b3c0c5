//! Helpers for the tests of every `tasks` crate (dev-dependency only): a visible,
//! counted skip for tests whose outside input is missing, and fake servers on
//! 127.0.0.1 standing in for remote services (an OpenAI-compatible model, the Telegram
//! Bot API).
//!
//! What it deliberately does not do: touch a store (tests use the real one through
//! `ops` or the real binary), or reach beyond loopback.

pub mod http;
pub mod openai;
pub mod pg;
pub mod skip;
pub mod telegram;
