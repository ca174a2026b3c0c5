//! The MCP edge: the rmcp server that lists the nine tools and runs each call's
//! synchronous core work on tokio's blocking pool, answering the JSON as text and
//! structured content — a success, or a tool error (`isError: true`) holding the
//! `{"error": {code, message, details}}` object of the CLI — both made lean (`lean.rs`:
//! no null or empty members).
//!
//! What it does not do: no task rules (those are in `tools.rs` and `tasks-core`); no
//! connection is held across an `.await` — each call opens the store inside its
//! blocking task and drops it there.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, JsonObject};
use rmcp::{tool, tool_handler, tool_router};
use serde::de::DeserializeOwned;

use crate::ServerConfig;
use crate::args::{self, input_schema};
use crate::lean::lean;
use crate::tools::{self, Answer};

/// The MCP server of one `tasks mcp` process.
#[derive(Clone)]
pub struct TasksServer {
    config: Arc<ServerConfig>,
    tool_router: ToolRouter<TasksServer>,
}

impl TasksServer {
    /// Builds the server for a configuration.
    pub fn new(config: ServerConfig) -> TasksServer {
        TasksServer { config: Arc::new(config), tool_router: Self::tool_router() }
    }

    /// Reads the arguments and runs `op` on the blocking pool; every failure, a bad
    /// argument included, becomes a tool error result rather than a protocol error.
    async fn run<A>(&self, args: JsonObject, op: fn(&ServerConfig, A) -> Answer) -> CallToolResult
    where
        A: DeserializeOwned + Send + 'static,
    {
        let config = Arc::clone(&self.config);
        let joined = tokio::task::spawn_blocking(move || -> Answer { op(&config, args::parse::<A>(args)?) }).await;
        let (mut value, failed) = match joined {
            Ok(Ok(value)) => (value, false),
            Ok(Err(failure)) => (failure.to_json(), true),
            Err(e) => (
                tasks_core::wire::error_object(
                    "other",
                    &format!("the tool stopped unexpectedly: {e}"),
                    serde_json::Value::Object(serde_json::Map::new()),
                ),
                true,
            ),
        };
        lean(&mut value);
        if failed { CallToolResult::structured_error(value) } else { CallToolResult::structured(value) }
    }
}

#[tool_router]
impl TasksServer {
    #[tool(
        description = "Create a task. A probable duplicate is refused (code confirmation_required, candidates in details): retry with attach=<key> if it is the same job, or force_new=true.",
        input_schema = input_schema::<args::CreateArgs>()
    )]
    async fn task_create(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::create).await
    }

    #[tool(
        description = "Change a task: fields, status, links, owner. Each given field applies; nothing is ever erased.",
        input_schema = input_schema::<args::UpdateArgs>()
    )]
    async fn task_update(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::update).await
    }

    #[tool(
        description = "One task with its links.",
        input_schema = input_schema::<args::GetArgs>(),
        annotations(read_only_hint = true)
    )]
    async fn task_get(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::get).await
    }

    #[tool(
        description = "List tasks as {items}.",
        input_schema = input_schema::<args::ListArgs>(),
        annotations(read_only_hint = true)
    )]
    async fn task_list(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::list).await
    }

    #[tool(
        description = "Tasks ready to work on: open, unblocked, not claimed by others; best first.",
        input_schema = input_schema::<args::ReadyArgs>(),
        annotations(read_only_hint = true)
    )]
    async fn task_ready(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::ready).await
    }

    #[tool(
        description = "Claim a task (a lease that ends by itself; claim again to renew). Refused with code conflict when someone else holds it.",
        input_schema = input_schema::<args::ClaimArgs>()
    )]
    async fn task_claim(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::claim).await
    }

    #[tool(description = "End your claim early.", input_schema = input_schema::<args::ReleaseArgs>())]
    async fn task_release(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::release).await
    }

    #[tool(
        description = "Claim the best ready task atomically. Code not_found when nothing is ready.",
        input_schema = input_schema::<args::NextArgs>()
    )]
    async fn task_next(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::next).await
    }

    #[tool(description = "Link two tasks.", input_schema = input_schema::<args::LinkArgs>())]
    async fn task_link(&self, args: JsonObject) -> CallToolResult {
        self.run(args, tools::link).await
    }
}

#[tool_handler(
    router = self.tool_router,
    name = "tasks",
    instructions = "Local task store shared with a person and other agents; name a task by its key (HRB-12) or UUID. Results leave out null and empty fields.\nLoop: task_next (or task_ready + task_claim) -> work -> task_update status completed. Claims are 30m leases: renew with task_claim. Found more work? task_create, then task_link NEW discovered-from CURRENT.\nErrors are JSON {error:{code,message,details}}: conflict = someone else holds it, pick another; confirmation_required = probable duplicate, retry with attach=KEY (same job) or force_new=true."
)]
impl rmcp::ServerHandler for TasksServer {}
