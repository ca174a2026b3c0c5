//! `tasks-core`: every rule of `tasks` — model, store, keys, graph, claims, duplicate
//! check and the operations the edges call — as a synchronous library.
//!
//! What it deliberately does not do: no async, no network, no terminal, no clap, no
//! exit codes; it reads no environment variable, clock or config file. `now`, the
//! actor, the time zone and the store path arrive as arguments (see [`ops::Context`]),
//! which is what makes `TASKS_NOW` trivial and the tests exact.
//!
//! Start reading at [`ops`]: one function per verb, each running one [`store::Tx`].
#![warn(missing_docs)]

pub mod claims;
pub mod dedup;
pub mod error;
pub mod files;
pub mod graph;
pub mod input;
pub mod interop;
pub mod keys;
pub mod limits;
pub mod model;
pub mod ops;
pub mod port;
pub mod store;
pub mod time;
pub mod wire;
pub mod workload;

#[cfg(test)]
mod fixtures;

pub use error::{Error, Result};
pub use model::{Due, DueKind, LinkKind, Money, Project, ProjectKind, Source, Status, Task, TaskType};
pub use ops::Context;
pub use store::Store;
