//! The MCP server of `tasks` over stdio (`tasks mcp`): the same operations as the CLI
//! — create, update, get, list, ready, claim, release, next, link — for coding agents,
//! with the tool and argument names of Claude Code's task tools.
//!
//! What it does not do: it holds no task rules (every call runs a `tasks-core`
//! operation) and reads no environment (the CLI resolves store, actor, clock and zone
//! into a [`ServerConfig`]). Async lives only at this edge: each tool call opens the
//! store and runs the synchronous core on tokio's blocking pool.

#![warn(missing_docs)]

mod args;
mod server;
mod tools;

use std::path::PathBuf;

use rmcp::ServiceExt;

/// What the server needs from the edge: where the store is, who acts, the clock, the zone.
pub struct ServerConfig {
    /// Store file.
    pub store_path: PathBuf,
    /// Default actor for claims and history (a tool call may name another).
    pub actor: String,
    /// A fixed clock (`TASKS_NOW`), or `None` for the system clock at each call.
    pub now: Option<jiff::Timestamp>,
    /// Zone for "today".
    pub zone: jiff::tz::TimeZone,
}

/// Serves MCP over stdin/stdout until the client closes stdin.
///
/// Builds its own single-threaded tokio runtime; the core work of each call runs on
/// the runtime's blocking pool.
pub fn serve_stdio(config: ServerConfig) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let service = server::TasksServer::new(config).serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        anyhow::Ok(())
    })
}
