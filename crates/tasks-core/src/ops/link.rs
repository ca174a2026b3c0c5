//! `tasks link` / `tasks unlink`: task → task relations with their checks (SPEC §4).

use crate::error::Result;
use crate::graph;
use crate::keys;
use crate::model::{LinkKind, Task};
use crate::ops::Context;
use crate::port::Engine;

/// The outcome of `link` / `unlink`.
#[derive(Debug, Clone)]
pub struct LinkOutcome {
    /// The task the link starts from, after the change.
    pub task: Task,
    /// The other task.
    pub other: Task,
    /// The kind.
    pub kind: LinkKind,
    /// False when nothing changed (the link existed, or did not exist for unlink).
    pub changed: bool,
}

/// Links `task kind other` (e.g. `HRB-3 blocked-by HRB-1`).
pub fn link(store: &mut dyn Engine, ctx: &Context, task: &str, kind: LinkKind, other: &str) -> Result<LinkOutcome> {
    store.write(|tx| {
        let from = keys::resolve(tx, task)?;
        let to = keys::resolve(tx, other)?;
        let changed = graph::add_link(tx, ctx, from, kind, to)?;
        Ok(LinkOutcome { task: tx.task(from)?, other: tx.task(to)?, kind, changed })
    })
}

/// Removes the live link `task kind other` (it stays in history as removed).
pub fn unlink(store: &mut dyn Engine, ctx: &Context, task: &str, kind: LinkKind, other: &str) -> Result<LinkOutcome> {
    store.write(|tx| {
        let from = keys::resolve(tx, task)?;
        let to = keys::resolve(tx, other)?;
        let changed = graph::remove_link(tx, ctx, from, kind, to)?;
        Ok(LinkOutcome { task: tx.task(from)?, other: tx.task(to)?, kind, changed })
    })
}
