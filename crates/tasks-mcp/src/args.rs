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
    /// Title; required (as subject or title).
    pub subject: Option<String>,
    /// Same as subject.
    pub title: Option<String>,
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
    /// New title.
    pub subject: Option<String>,
    /// Same as subject.
    pub title: Option<String>,
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
    /// Appends a timestamped note.
    pub note: Option<String>,
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

/// The name of a task's title in Claude Code's task tools, and so here.
pub const SUBJECT: &str = "subject";

/// The other name a task's title is taken under: the results, the CLI and most task
/// trackers call it `title`, so an agent may well send that, and refusing the word
/// would cost it a round trip.
pub const TITLE: &str = "title";

/// A task's title and the argument it came under, so that an error about it names the
/// argument the caller actually sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// The title as given.
    pub text: String,
    /// [`SUBJECT`] or [`TITLE`].
    pub argument: &'static str,
}

/// Reads `subject` and its alias `title` into one title: either may be given, or both
/// when they say the same; two different titles are refused naming both arguments
/// (guessing which one was meant would file the task under the wrong name).
fn subject(subject: Option<String>, title: Option<String>) -> Result<Option<Subject>, Error> {
    match (subject, title) {
        (Some(s), Some(t)) if s != t => Err(Error::invalid(
            TITLE,
            t,
            format!("differs from subject \"{s}\"; title is another name for subject: give one of them"),
        )),
        (Some(text), _) => Ok(Some(Subject { text, argument: SUBJECT })),
        (None, Some(text)) => Ok(Some(Subject { text, argument: TITLE })),
        (None, None) => Ok(None),
    }
}

impl CreateArgs {
    /// Takes the title, which is required under one of its two names.
    ///
    /// The schema cannot say "subject or title is required" where agents read it (the
    /// Anthropic API refuses `anyOf` at a tool schema's top level, and with it every
    /// tool of the server), so neither is marked required there and this says it.
    pub fn take_subject(&mut self) -> Result<Subject, Error> {
        subject(self.subject.take(), self.title.take())?
            .ok_or_else(|| Error::invalid(SUBJECT, "", "this argument is required (or its alias title)"))
    }
}

impl UpdateArgs {
    /// Takes the new title, if one is given under either name.
    pub fn take_subject(&mut self) -> Result<Option<Subject>, Error> {
        subject(self.subject.take(), self.title.take())
    }
}

/// Every argument name of every tool, so an error can name one as a `&'static str`.
const ARGUMENT_NAMES: &[&str] = &[
    SUBJECT,
    TITLE,
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
    "note",
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
    // A missing argument is named by serde itself; look no further (removing a present
    // argument serde reads earlier would also change the message and be blamed).
    if let Some(name) = first
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
        .and_then(|missing| ARGUMENT_NAMES.iter().find(|n| **n == missing))
    {
        return Err(Error::invalid(name, "", "this argument is required"));
    }
    // serde names an unknown field itself, but not the field whose value has the wrong
    // type. The culprit is the key whose removal changes the error.
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

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use serde_json::json;

    use super::*;

    fn object(args: Value) -> JsonObject {
        match args {
            Value::Object(o) => o,
            other => panic!("arguments are an object, not {other}"),
        }
    }

    /// Reads `args` as `A`, expecting success.
    #[track_caller]
    fn accepts<A: DeserializeOwned>(args: Value) -> A {
        match parse::<A>(object(args)) {
            Ok(a) => a,
            Err(e) => panic!("expected the arguments to be read, got {e}"),
        }
    }

    /// Reads `args` as `A`, expecting a refusal naming `(argument, value, reason)`.
    #[track_caller]
    fn check<A: DeserializeOwned + Debug>(args: Value, expected: (&str, &str, &str)) {
        match parse::<A>(object(args)) {
            Err(Error::Invalid { field, value, reason }) => {
                assert_eq!((field, value.as_str(), reason.as_str()), expected)
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    const PRIORITY: &str = tasks_core::model::PRIORITY_HINT;

    #[test]
    fn a_value_of_the_wrong_type_is_refused_naming_the_argument_and_what_it_takes() {
        let priority = |reason: &str| format!("{reason}; {PRIORITY}");
        check::<CreateArgs>(json!({"subject": 5}), ("subject", "5", "invalid type: integer `5`; use a string"));
        check::<CreateArgs>(json!({"title": 5}), ("title", "5", "invalid type: integer `5`; use a string"));
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "title": ["x"]}),
            ("title", "[\"x\"]", "invalid type: sequence; use a string"),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "type": 5}),
            ("type", "5", "invalid type: integer `5`; use a string"),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "due": ["tomorrow"]}),
            ("due", "[\"tomorrow\"]", "invalid type: sequence; use a string"),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "priority": "high"}),
            ("priority", "high", &priority("invalid type: string \"high\"")),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "priority": 300}),
            ("priority", "300", &priority("invalid value: integer `300`")),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "priority": -1}),
            ("priority", "-1", &priority("invalid value: integer `-1`")),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "priority": 1.5}),
            ("priority", "1.5", &priority("invalid type: floating point `1.5`")),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "force_new": "yes"}),
            ("force_new", "yes", "invalid type: string \"yes\"; use true or false"),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "addBlockedBy": "HRB-1"}),
            ("addBlockedBy", "HRB-1", "invalid type: string \"HRB-1\"; use a list of task keys, e.g. [\"HRB-1\"]"),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "addBlockedBy": [1]}),
            ("addBlockedBy", "[1]", "invalid type: integer `1`; use a list of task keys, e.g. [\"HRB-1\"]"),
        );
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "addBlocks": "HRB-2"}),
            ("addBlocks", "HRB-2", "invalid type: string \"HRB-2\"; use a list of task keys, e.g. [\"HRB-1\"]"),
        );
        check::<UpdateArgs>(json!({"taskId": 7}), ("taskId", "7", "invalid type: integer `7`; use a string"));
        check::<ListArgs>(
            json!({"limit": -1}),
            ("limit", "-1", "invalid value: integer `-1`; use a whole number of 1 or more"),
        );
        check::<ListArgs>(
            json!({"limit": "10"}),
            ("limit", "10", "invalid type: string \"10\"; use a whole number of 1 or more"),
        );
        check::<ReadyArgs>(
            json!({"limit": true}),
            ("limit", "true", "invalid type: boolean `true`; use a whole number of 1 or more"),
        );
        check::<ClaimArgs>(
            json!({"taskId": "HRB-1", "lease": 30}),
            ("lease", "30", "invalid type: integer `30`; use a string"),
        );
        check::<LinkArgs>(
            json!({"taskId": "HRB-1", "kind": "blocked-by", "otherId": 2}),
            ("otherId", "2", "invalid type: integer `2`; use a string"),
        );
    }

    /// Reads `task_create`'s arguments and takes the title, as the tool does.
    fn create_subject(args: Value) -> Result<Subject, Error> {
        parse::<CreateArgs>(object(args))?.take_subject()
    }

    #[test]
    fn a_missing_argument_is_named_as_required() {
        let required = "this argument is required";
        for args in [json!({}), json!({"description": "no title"}), json!({"subject": null}), json!({"title": null})] {
            match create_subject(args.clone()) {
                Err(Error::Invalid { field, value, reason }) => {
                    assert_eq!((field, value.as_str()), ("subject", ""), "{args}");
                    assert_eq!(reason, "this argument is required (or its alias title)", "{args}");
                }
                other => panic!("{args}: expected a refusal, got {other:?}"),
            }
        }
        check::<UpdateArgs>(json!({"status": "done"}), ("taskId", "", required));
        check::<GetArgs>(json!({}), ("taskId", "", required));
        check::<ClaimArgs>(json!({"owner": "agent-7"}), ("taskId", "", required));
        check::<ReleaseArgs>(json!({}), ("taskId", "", required));
        check::<LinkArgs>(json!({"kind": "blocked-by", "otherId": "HRB-2"}), ("taskId", "", required));
    }

    #[test]
    fn an_unknown_argument_is_refused_with_the_arguments_the_tool_takes() {
        let get = "expected `taskId`";
        check::<GetArgs>(
            json!({"taskId": "HRB-1", "colour": "red"}),
            ("arguments", "colour", &format!("unknown field `colour`, {get}")),
        );
        check::<GetArgs>(
            json!({"taskId": "HRB-1", "id": 4}),
            ("arguments", "id", &format!("unknown field `id`, {get}")),
        );
        // The argument of another tool is named, with serde's list and without a type hint.
        let release = "expected `taskId` or `owner`";
        check::<ReleaseArgs>(
            json!({"taskId": "HRB-1", "lease": "2h"}),
            ("lease", "2h", &format!("unknown field `lease`, {release}")),
        );
        let ready = "expected `limit` or `owner`";
        check::<ReadyArgs>(json!({"status": "open"}), ("status", "open", &format!("unknown field `status`, {ready}")));
        // Claude Code's camelCase is the only spelling.
        check::<GetArgs>(
            json!({"task_id": "HRB-1"}),
            ("arguments", "task_id", &format!("unknown field `task_id`, {get}")),
        );
    }

    #[test]
    fn metadata_other_than_tags_is_refused_saying_what_is_kept() {
        let kept = "only {\"tags\": [\"word\", …]} is stored; other keys are refused";
        check::<CreateArgs>(
            json!({"subject": "x", "metadata": {"colour": "red"}}),
            ("metadata", "{\"colour\":\"red\"}", &format!("unknown field `colour`; {kept}")),
        );
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "metadata": {"tags": "x"}}),
            ("metadata", "{\"tags\":\"x\"}", &format!("invalid type: string \"x\"; {kept}")),
        );
        check::<CreateArgs>(
            json!({"subject": "x", "metadata": "home"}),
            ("metadata", "home", &format!("invalid type: string \"home\"; {kept}")),
        );
        let a: CreateArgs = accepts(json!({"subject": "x", "metadata": {"tags": ["home", "money"]}}));
        assert_eq!(a.metadata.expect("metadata").tags, ["home", "money"]);
        let a: CreateArgs = accepts(json!({"subject": "x", "metadata": {}}));
        assert!(a.metadata.expect("metadata").tags.is_empty());
    }

    #[test]
    fn a_status_or_link_kind_outside_the_list_is_refused_with_serdes_list() {
        // Serde lists each alias before its name.
        let statuses = "expected one of `open`, `pending`, `in_progress`, `completed`, `done`, `deleted`, `dismissed`";
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "status": "archived"}),
            ("status", "archived", &format!("unknown variant `archived`, {statuses}")),
        );
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "status": "Done"}),
            ("status", "Done", &format!("unknown variant `Done`, {statuses}")),
        );
        check::<UpdateArgs>(
            json!({"taskId": "HRB-1", "status": "all"}),
            ("status", "all", &format!("unknown variant `all`, {statuses}")),
        );
        let kinds = "expected one of `blocked-by`, `follow-up-of`, `related-to`, `duplicate-of`, `discovered-from`";
        check::<LinkArgs>(
            json!({"taskId": "A", "kind": "blocked_by", "otherId": "B"}),
            ("kind", "blocked_by", &format!("unknown variant `blocked_by`, {kinds}")),
        );
        check::<LinkArgs>(
            json!({"taskId": "A", "kind": "evidence", "otherId": "B"}),
            ("kind", "evidence", &format!("unknown variant `evidence`, {kinds}")),
        );
    }

    #[test]
    fn statuses_are_read_in_claude_codes_words_and_the_stores() {
        let update = |status: &str| accepts::<UpdateArgs>(json!({"taskId": "HRB-1", "status": status})).status;
        assert_eq!(update("pending"), Some(UpdateStatus::Pending));
        assert_eq!(update("open"), Some(UpdateStatus::Pending));
        assert_eq!(update("in_progress"), Some(UpdateStatus::InProgress));
        assert_eq!(update("completed"), Some(UpdateStatus::Completed));
        assert_eq!(update("done"), Some(UpdateStatus::Completed));
        assert_eq!(update("deleted"), Some(UpdateStatus::Deleted));
        assert_eq!(update("dismissed"), Some(UpdateStatus::Deleted));
        let list = |status: &str| accepts::<ListArgs>(json!({"status": status})).status;
        assert_eq!(list("open"), Some(ListStatus::Pending));
        assert_eq!(list("done"), Some(ListStatus::Completed));
        assert_eq!(list("dismissed"), Some(ListStatus::Deleted));
        assert_eq!(list("all"), Some(ListStatus::All));
        assert_eq!(accepts::<ListArgs>(json!({})).status, None);
    }

    #[test]
    fn every_link_kind_maps_to_the_cores() {
        use tasks_core::LinkKind as K;
        let kind =
            |text: &str| accepts::<LinkArgs>(json!({"taskId": "A", "kind": text, "otherId": "B"})).kind.to_core();
        assert_eq!(kind("blocked-by"), K::BlockedBy);
        assert_eq!(kind("follow-up-of"), K::FollowUpOf);
        assert_eq!(kind("related-to"), K::RelatedTo);
        assert_eq!(kind("duplicate-of"), K::DuplicateOf);
        assert_eq!(kind("discovered-from"), K::DiscoveredFrom);
        for text in ["blocked-by", "follow-up-of", "related-to", "duplicate-of", "discovered-from"] {
            assert_eq!(kind(text).as_str(), text, "one spelling in MCP and the core");
        }
    }

    #[test]
    fn the_title_is_taken_as_subject_or_its_alias_title() {
        let create = |args: Value| create_subject(args).map_err(|e| e.to_string());
        let titled = |text: &str, argument| Ok(Subject { text: text.into(), argument });
        assert_eq!(create(json!({"subject": "Send the invoice"})), titled("Send the invoice", SUBJECT));
        assert_eq!(create(json!({"title": "Send the invoice"})), titled("Send the invoice", TITLE));
        assert_eq!(create(json!({"subject": "Pay", "title": "Pay"})), titled("Pay", SUBJECT), "the same twice");
        assert_eq!(create(json!({"subject": "Pay", "title": null})), titled("Pay", SUBJECT));
        // Two different titles: which was meant cannot be guessed; both are named.
        assert_eq!(
            create(json!({"subject": "Pay rent", "title": "Pay tax"})),
            Err("title: cannot use \"Pay tax\": differs from subject \"Pay rent\"; title is another name for subject: give one of them".into())
        );
        assert!(matches!(
            create_subject(json!({"subject": "Pay rent", "title": "Pay tax"})),
            Err(Error::Invalid { field: "title", .. })
        ));
        let update = |args: Value| {
            parse::<UpdateArgs>(object(args)).and_then(|mut a| a.take_subject()).map_err(|e| e.to_string())
        };
        assert_eq!(update(json!({"taskId": "HRB-1"})), Ok(None));
        assert_eq!(
            update(json!({"taskId": "HRB-1", "title": "New"})),
            Ok(Some(Subject { text: "New".into(), argument: TITLE }))
        );
        assert!(
            update(json!({"taskId": "HRB-1", "subject": "A", "title": "B"}))
                .is_err_and(|e| e.starts_with("title: ") && e.contains("subject \"A\"")),
            "task_update refuses two titles too"
        );
    }

    #[test]
    fn optional_arguments_take_their_defaults() {
        let a: CreateArgs = accepts(json!({"subject": "Send the invoice"}));
        assert_eq!(a.subject.as_deref(), Some("Send the invoice"));
        assert!(a.add_blocked_by.is_empty() && !a.force_new && a.metadata.is_none() && a.task_type.is_none());
        let a: CreateArgs = accepts(
            json!({"subject": "x", "type": "bug", "priority": 0, "force_new": true, "addBlockedBy": ["HRB-1"]}),
        );
        assert_eq!((a.task_type.as_deref(), a.priority, a.force_new), (Some("bug"), Some(0), true));
        assert_eq!(a.add_blocked_by, ["HRB-1"]);
        let u: UpdateArgs = accepts(json!({"taskId": "HRB-1", "owner": ""}));
        assert_eq!(u.owner.as_deref(), Some(""), "an empty owner is kept: it releases");
        assert!(u.add_blocks.is_empty() && u.add_blocked_by.is_empty());
        let n: NextArgs = accepts(json!({}));
        assert!(n.owner.is_none() && n.project.is_none() && n.lease.is_none());
    }

    #[test]
    fn each_argument_has_the_expectation_its_type_needs() {
        let check = |name: &str, expected: Option<&str>| assert_eq!(expectation(name), expected, "{name}");
        check("priority", Some(PRIORITY));
        check("limit", Some("use a whole number of 1 or more"));
        check("force_new", Some("use true or false"));
        check("addBlockedBy", Some("use a list of task keys, e.g. [\"HRB-1\"]"));
        check("addBlocks", Some("use a list of task keys, e.g. [\"HRB-1\"]"));
        check("metadata", Some("only {\"tags\": [\"word\", …]} is stored; other keys are refused"));
        check("status", None);
        check("kind", None);
        for name in [
            "subject",
            "title",
            "description",
            "project",
            "type",
            "due",
            "attach",
            "taskId",
            "owner",
            "lease",
            "otherId",
        ] {
            check(name, Some("use a string"));
        }
    }

    fn properties<A: JsonSchema>() -> Vec<String> {
        let schema = input_schema::<A>();
        let props = schema.get("properties").and_then(Value::as_object).expect("an object schema with properties");
        props.keys().cloned().collect()
    }

    #[test]
    fn every_argument_of_every_tool_can_be_named_in_an_error() {
        let all = [
            properties::<CreateArgs>(),
            properties::<UpdateArgs>(),
            properties::<GetArgs>(),
            properties::<ListArgs>(),
            properties::<ReadyArgs>(),
            properties::<ClaimArgs>(),
            properties::<ReleaseArgs>(),
            properties::<NextArgs>(),
            properties::<LinkArgs>(),
        ];
        for name in all.iter().flatten() {
            assert!(ARGUMENT_NAMES.contains(&name.as_str()), "{name} is missing from ARGUMENT_NAMES");
        }
        for name in ARGUMENT_NAMES {
            assert!(all.iter().flatten().any(|n| n == name), "{name} is no tool's argument");
        }
    }

    #[test]
    fn a_schema_keeps_what_a_caller_needs_and_drops_the_noise() {
        let schema = Value::Object((*input_schema::<UpdateArgs>()).clone());
        assert_eq!(schema["required"], json!(["taskId"]));
        assert_eq!(schema["properties"]["status"]["type"], json!("string"));
        assert_eq!(schema["properties"]["status"]["enum"], json!(["pending", "in_progress", "completed", "deleted"]));
        assert_eq!(schema["properties"]["priority"]["maximum"], json!(4));
        assert_eq!(schema["properties"]["subject"]["type"], json!("string"), "not [string, null]");
        assert_eq!(schema["properties"]["title"]["description"], json!("Same as subject."));
        // The argument named title is no noise; a schema's own "title" keyword is.
        let mut rest = schema.clone();
        rest["properties"].as_object_mut().map(|p| p.remove("title"));
        let text = rest.to_string();
        for noise in ["\"title\"", "\"format\"", "\"null\"", "\"anyOf\"", "\"oneOf\"", "\"$schema\"", "\"default\""] {
            assert!(!text.contains(noise), "{noise} in {text}");
        }
    }

    #[test]
    fn the_create_schema_documents_title_as_subjects_alias_and_requires_neither() {
        let schema = Value::Object((*input_schema::<CreateArgs>()).clone());
        let properties = &schema["properties"];
        assert_eq!(properties["subject"]["type"], json!("string"));
        assert_eq!(properties["subject"]["description"], json!("Title; required (as subject or title)."));
        assert_eq!(properties["title"], json!({"type": "string", "description": "Same as subject."}));
        // Requiring subject would refuse a call that gives title; requiring both, every call.
        // `anyOf` at the top would say "one of them", but the Anthropic API refuses a tool
        // schema with one, and every tool of the server with it: take_subject says it.
        assert_eq!(schema.get("required"), None, "{schema}");
        for combinator in ["anyOf", "oneOf", "allOf"] {
            assert_eq!(schema.get(combinator), None, "{schema}");
        }
    }

    #[test]
    fn a_missing_argument_is_named_even_when_others_are_given() {
        // Regression: the argument serde reads first was blamed for another's absence.
        let cases: [(&str, &str); 2] = [
            (r#"{"taskId": "HRB-1", "kind": "blocked-by"}"#, "otherId"),
            (r#"{"taskId": "HRB-1", "otherId": "HRB-2"}"#, "kind"),
        ];
        for (text, missing) in cases {
            let args: JsonObject = serde_json::from_str(text).expect("object");
            match parse::<LinkArgs>(args) {
                Err(Error::Invalid { field, reason, .. }) => {
                    assert_eq!(field, missing, "{text}");
                    assert_eq!(reason, "this argument is required", "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
