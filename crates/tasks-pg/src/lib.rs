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
//! What it holds: SQL and connection handling only. [`PgStore`] implements the core's
//! port ([`tasks_core::port::Engine`], in [`engine`]), so the operations of
//! `tasks_core::ops` — projects, add with the duplicate check, edit, the statuses,
//! claims and `next --claim`, links with the cycle check, notes, search, undo, merge —
//! run here unchanged, each guarantee given by PostgreSQL's own means (row locks, the
//! conditional claim, an advisory lock around checked writes). Besides the port: the
//! lossless export/import ([`dump`]) and the LISTEN/NOTIFY that wakes daemons
//! ([`Listener`]).
//!
//! Start reading at [`PgStore::connect`] and [`engine`].

pub mod dedup;
pub mod dump;
pub mod engine;
mod merge;
mod pool;
pub mod rows;
mod store;

pub use pool::{MAX_IDLE, PgPool, Pooled};
pub use store::{Listener, PgStore, SCHEDULES_CHANNEL, SCHEMA_VERSION, is_postgres_url, redacted};
