//! The `tasks` store on PostgreSQL: one shared store for a team whose agents run on
//! several machines, with the guarantees the SQLite store gives on one computer — a task
//! is never claimed twice, keys have no gaps and no repeats, and the duplicate check and
//! the cycle check run under the same lock as the insert they guard.
//!
//! Why a separate crate: `tasks-core` stays free of any PostgreSQL client (and of the
//! tokio runtime the `postgres` crate drives inside its blocking API). This crate uses
//! the core's model, limits, event payloads, wire shapes and its duplicate check (the
//! comparison, the weights and the candidate ranking run in `tasks-core` over
//! [`tasks_core::dedup::source::CheckSource`], which this crate implements), so the
//! decisions are the same code on both engines; only the SQL differs.
//!
//! What it covers: the team's daily loop — projects, `add` (with the duplicate check
//! and `--blocked-by`), `list`, `ready`, `show`, `claim`, `release`, `next --claim`,
//! `done`, `link` (with the cycle check), the schedule firing that several daemons
//! share, and the lossless export/import to and from a SQLite store. The rest of the
//! CLI (edit, undo, notes, the conversation, the web page, the bot) runs on SQLite
//! only; on PostgreSQL it is refused with a message naming the command.
//!
//! Start reading at [`PgStore::connect`] and [`ops`].

pub mod dedup;
pub mod dump;
pub mod ops;
pub mod rows;
pub mod schedule;
mod store;

pub use store::{PgStore, SCHEMA_VERSION, is_postgres_url, redacted};
