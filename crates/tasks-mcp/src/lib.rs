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
mod framing;
mod lean;
mod server;
mod tools;

use std::path::PathBuf;

use rmcp::ServiceExt;

/// What the server needs from the edge: where the store is, who acts, the clock, the zone.
pub struct ServerConfig {
    /// Store file, or the team store's `postgres://…` URL (then the same tools run on
    /// PostgreSQL: the store is the core's port either way).
    pub store_path: PathBuf,
    /// Default actor for claims and history (a tool call may name another).
    pub actor: String,
    /// A fixed clock (`TASKS_NOW`), or `None` for the system clock at each call.
    pub now: Option<jiff::Timestamp>,
    /// Zone for "today".
    pub zone: jiff::tz::TimeZone,
    /// The team store's connections, kept between calls (none for a SQLite file, which
    /// each call opens: an open costs microseconds there).
    pool: Option<tasks_pg::PgPool>,
}

impl ServerConfig {
    /// A configuration; a `postgres://` store gets a pool of connections that the
    /// calls share.
    pub fn new(store_path: PathBuf, actor: String, now: Option<jiff::Timestamp>, zone: jiff::tz::TimeZone) -> Self {
        let pool = store_path.to_str().filter(|p| tasks_pg::is_postgres_url(p)).map(tasks_pg::PgPool::new);
        ServerConfig { store_path, actor, now, zone, pool }
    }
}

/// Serves MCP over stdin/stdout until the client closes stdin.
///
/// Builds its own single-threaded tokio runtime; the core work of each call runs on
/// the runtime's blocking pool.
pub fn serve_stdio(config: ServerConfig) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        // rmcp drops a line it cannot parse without a word; JSON-RPC wants a -32700
        // answer. So stdin passes through `framing`, which answers such a line itself
        // and hands the rest on; both answers reach stdout whole lines at a time.
        let (to_server, server_in) = tokio::io::duplex(framing::PIPE_BYTES);
        let (server_out, from_server) = tokio::io::duplex(framing::PIPE_BYTES);
        let (errors, error_lines) = tokio::sync::mpsc::unbounded_channel();
        let reader = tokio::spawn(framing::read_stdin(to_server, errors));
        let writer = tokio::spawn(framing::write_stdout(from_server, error_lines));
        let service = server::TasksServer::new(config).serve((server_in, server_out)).await?;
        service.waiting().await?;
        reader.abort();
        let _ = writer.await;
        anyhow::Ok(())
    })
}
