//! The arguments of each MCP tool: their Rust types (which give the JSON Schemas that
//! `tools/list` shows), the lean schema generation, and the reading of a call's raw
//! arguments into those types with errors that name the argument at fault.
//!
//! What it does not do: no store access and no core rules (due dates, leases, statuses
//! are read by the tools in `tools.rs`); a bad argument here becomes the same
//! `validation` error object the core gives, never a JSON-RPC protocol error.

use std::sync::Arc;

use rmcp::model::JsonObject;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tasks_core::Error;

/// Tags carried in `metadata`; the only metadata the store keeps.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// Tags: one word each.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// `task_create`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateArgs {
    /// Title.
    pub subject: String,
    pub description: Option<String>,
    /// Project key; default the inbox.
    pub project: Option<String>,
    /// task|bug|feature|chore|question|request|mention|promise
    #[serde(rename = "type")]
    pub task_type: Option<String>,
    /// 2026-12-01, today, tomorrow.
    pub due: Option<String>,
    /// 0 (highest) to 4.
    #[schemars(range(max = 4))]
    pub priority: Option<u8>,
    /// Tasks this one waits for.
    #[serde(rename = "addBlockedBy", default)]
    pub add_blocked_by: Vec<String>,
    /// Same job as this existing task: create nothing, return it.
    pub attach: Option<String>,
    /// A different job: create it despite duplicate candidates.
    #[serde(default)]
    pub force_new: bool,
    /// Only {"tags": [..]} is stored; other keys are refused.
    pub metadata: Option<Metadata>,
}

/// A status as Claude Code's task tools spell it; the store's own names are accepted too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpdateStatus {
    /// Open.
    #[serde(alias = "open")]
    Pending,
    /// In progress.
    InProgress,
    /// Done.
    #[serde(alias = "done")]
    Completed,
    /// Dismissed with reason "deleted".
    #[serde(alias = "dismissed")]
    Deleted,
}

/// `task_update`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    #[serde(rename = "taskId")]
    pub task_id: String,
    /// deleted = dismissed (nothing is erased).
    pub status: Option<UpdateStatus>,
    pub subject: Option<String>,
    pub description: Option<String>,
    #[serde(rename = "addBlockedBy", default)]
    pub add_blocked_by: Vec<String>,
    /// These tasks become blocked by this one.
    #[serde(rename = "addBlocks", default)]
    pub add_blocks: Vec<String>,
    /// Claim for this actor (30m lease); "" releases.
    pub owner: Option<String>,
    /// Date; "none" clears.
    pub due: Option<String>,
    #[schemars(range(max = 4))]
    pub priority: Option<u8>,
    /// Move to this project (key stays).
    pub project: Option<String>,
    /// {"tags": [..]} adds tags; other keys are refused.
    pub metadata: Option<Metadata>,
}

/// `task_get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    #[serde(rename = "taskId")]
    pub task_id: String,
}

/// A status filter of `task_list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ListStatus {
    /// Open.
    #[serde(alias = "open")]
    Pending,
    /// In progress.
    InProgress,
    /// Done.
    #[serde(alias = "done")]
    Completed,
    /// Dismissed.
    #[serde(alias = "dismissed")]
    Deleted,
    /// Every status.
    All,
}

/// `task_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    /// Default: pending and in_progress.
    pub status: Option<ListStatus>,
    pub project: Option<String>,
    /// Default 50.
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
}

/// `task_ready`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadyArgs {
    /// Default 50.
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
    /// Whose view (claims by others are hidden).
    pub owner: Option<String>,
}

/// `task_claim`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimArgs {
    #[serde(rename = "taskId")]
    pub task_id: String,
    pub owner: Option<String>,
    /// 30m (default), 2h, 1h30m; at most 7d.
    pub lease: Option<String>,
}

/// `task_release`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleaseArgs {
    #[serde(rename = "taskId")]
    pub task_id: String,
    pub owner: Option<String>,
}

/// `task_next`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NextArgs {
    pub owner: Option<String>,
    pub project: Option<String>,
    /// Default 30m.
    pub lease: Option<String>,
}

/// The link kinds between two tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TaskLinkKind {
    /// Waits for the other.
    BlockedBy,
    /// Continues the other.
    FollowUpOf,
    /// Loosely related.
    RelatedTo,
    /// Same job as the other.
    DuplicateOf,
    /// Found while working on the other.
    DiscoveredFrom,
}

impl TaskLinkKind {
    /// Returns the core's link kind.
    pub fn to_core(self) -> tasks_core::LinkKind {
        use tasks_core::LinkKind as K;
        match self {
            TaskLinkKind::BlockedBy => K::BlockedBy,
            TaskLinkKind::FollowUpOf => K::FollowUpOf,
            TaskLinkKind::RelatedTo => K::RelatedTo,
            TaskLinkKind::DuplicateOf => K::DuplicateOf,
            TaskLinkKind::DiscoveredFrom => K::DiscoveredFrom,
        }
    }
}

/// `task_link`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkArgs {
    #[serde(rename = "taskId")]
    pub task_id: String,
    /// taskId KIND otherId; blocked-by and follow-up-of refuse cycles.
    pub kind: TaskLinkKind,
    #[serde(rename = "otherId")]
    pub other_id: String,
}

/// Every argument name of every tool, so an error can name one as a `&'static str`.
const ARGUMENT_NAMES: &[&str] = &[
    "subject",
    "description",
    "project",
    "type",
    "due",
    "priority",
    "addBlockedBy",
    "addBlocks",
    "attach",
    "force_new",
    "metadata",
    "taskId",
    "status",
    "owner",
    "limit",
    "lease",
    "kind",
    "otherId",
];

/// What an argument must look like, said to the caller after serde's own words.
fn expectation(name: &str) -> Option<&'static str> {
    Some(match name {
        "priority" => tasks_core::model::PRIORITY_HINT,
        "limit" => "use a whole number of 1 or more",
        "force_new" => "use true or false",
        "addBlockedBy" | "addBlocks" => "use a list of task keys, e.g. [\"HRB-1\"]",
        "metadata" => "only {\"tags\": [\"word\", …]} is stored; other keys are refused",
        "status" | "kind" => return None,
        _ => "use a string",
    })
}

/// Reads a call's raw arguments into `A`; a bad argument becomes `Error::Invalid` naming it.
pub fn parse<A: DeserializeOwned>(args: JsonObject) -> Result<A, Error> {
    let first = match serde_json::from_value::<A>(Value::Object(args.clone())) {
        Ok(a) => return Ok(a),
        Err(e) => e.to_string(),
    };
    // serde names a missing or unknown field itself, but not the field whose value has
    // the wrong type. The culprit is the key whose removal changes the error.
    let culprit = args.keys().find(|key| {
        let mut rest = args.clone();
        rest.remove(*key);
        match serde_json::from_value::<A>(Value::Object(rest)) {
            Ok(_) => true,
            Err(e) => e.to_string() != first,
        }
    });
    if let Some(key) = culprit {
        let value = match &args[key] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let unknown = first.starts_with("unknown field");
        return Err(match ARGUMENT_NAMES.iter().find(|n| **n == key.as_str()) {
            Some(name) => {
                let hint = expectation(name).filter(|_| !unknown || *name == "metadata");
                // serde's ", expected u8" speaks Rust; the hint speaks to the caller.
                let reason = match hint {
                    Some(hint) => format!("{}; {hint}", first.split(", expected").next().unwrap_or(&first)),
                    None => first,
                };
                Error::invalid(name, value, reason)
            }
            None => Error::invalid("arguments", key.clone(), first),
        });
    }
    if let Some(name) = first
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
        .and_then(|missing| ARGUMENT_NAMES.iter().find(|n| **n == missing))
    {
        return Err(Error::invalid(name, "", "this argument is required"));
    }
    Err(Error::invalid("arguments", Value::Object(args).to_string(), first))
}

/// Returns the input schema of a tool's arguments: JSON Schema 2020-12 with subschemas
/// inlined and without the noise an agent pays tokens for (titles, integer formats,
/// `null` alternatives of optional arguments, defaults the descriptions already say).
pub fn input_schema<A: JsonSchema>() -> Arc<JsonObject> {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let mut schema = settings.into_generator().into_root_schema_for::<A>();
    lean(&mut schema);
    if let Some(root) = schema.as_object_mut() {
        root.remove("title");
        root.remove("description");
    }
    match schema.to_value() {
        Value::Object(object) => Arc::new(object),
        // A struct always gives an object schema; an empty object schema is the safe answer.
        _ => Arc::new(JsonObject::from_iter([("type".to_string(), Value::from("object"))])),
    }
}

/// Strips one schema (and, first, its subschemas) down to what a caller needs.
fn lean(schema: &mut Schema) {
    schemars::transform::transform_subschemas(&mut lean, schema);
    let Some(object) = schema.as_object_mut() else { return };
    object.remove("format");
    object.remove("default");
    object.remove("title");
    if object.get("minimum") == Some(&Value::from(0)) {
        object.remove("minimum");
    }
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".into(), only);
        }
    }
    // `Option<Enum>` comes as anyOf [enum, null]: keep the enum, with this schema's description.
    if let Some(Value::Array(variants)) = object.get("anyOf") {
        let mut kept: Vec<Value> =
            variants.iter().filter(|v| v.get("type") != Some(&Value::from("null"))).cloned().collect();
        if kept.len() == 1 {
            let description = object.remove("description");
            object.remove("anyOf");
            if let Value::Object(inner) = kept.remove(0) {
                object.extend(inner);
            }
            if let Some(d) = description {
                object.insert("description".into(), d);
            }
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    // Enum variant docs come as oneOf [{const, description}]; a plain enum is shorter.
    if let Some(Value::Array(variants)) = object.get("oneOf")
        && variants.iter().all(|v| v.get("const").is_some())
    {
        let values: Vec<Value> = variants.iter().filter_map(|v| v.get("const").cloned()).collect();
        object.remove("oneOf");
        object.insert("type".into(), Value::from("string"));
        object.insert("enum".into(), Value::Array(values));
    }
}
