//! The MCP server of `tasks` (stub: being written).
use std::path::PathBuf;

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
pub fn serve_stdio(_config: ServerConfig) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
