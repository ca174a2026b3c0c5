//! Lean results: a tool's JSON answer without its `null`, `""`, `[]` and `{}` members,
//! because an agent pays for every token it reads and a task carries a dozen fields
//! that are usually unset (`due`, `amount`, `claimed_by`, `chat` …). An absent member
//! means what the empty one meant; the server's instructions say so.
//!
//! What it does not do: it changes no shape of `tasks_core::wire` (the CLI's `--json`
//! still prints every member), and it never drops an array element (a position can
//! carry meaning) — only object members.

use serde_json::Value;

/// Members kept even when empty, by their path from the root of a result through
/// objects. Both are documented shapes whose emptiness is itself the answer:
/// `task_list`'s description promises `{items}` (no items is "nothing matches", and
/// `task_ready` answers the same shape), and the server's instructions promise errors
/// as `{error: {code, message, details}}`.
const KEPT_WHEN_EMPTY: &[&[&str]] = &[&["items"], &["error", "details"]];

/// Strips a tool's result (success or error) down to the members that say something.
pub fn lean(value: &mut Value) {
    strip(value, KEPT_WHEN_EMPTY);
}

/// Removes, recursively, every object member whose value is `null`, `""`, `[]` or `{}`
/// — after its own members were stripped, so `{"a": {"b": null}}` loses `a` too —
/// except the members `kept` names (paths relative to `value`).
fn strip(value: &mut Value, kept: &[&[&str]]) {
    match value {
        Value::Object(members) => members.retain(|name, member| {
            let below: Vec<&[&str]> = kept
                .iter()
                .filter_map(|path| match path.split_first() {
                    Some((first, rest)) if first == name => Some(rest),
                    _ => None,
                })
                .collect();
            strip(member, &below);
            below.iter().any(|rest| rest.is_empty()) || !is_empty(member)
        }),
        Value::Array(items) => items.iter_mut().for_each(|item| strip(item, &[])),
        _ => {}
    }
}

/// Whether a value says nothing: `null`, `""`, `[]` or `{}` (`false` and `0` say something).
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Bool(_) | Value::Number(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[track_caller]
    fn leaned(mut value: Value) -> Value {
        lean(&mut value);
        value
    }

    #[test]
    fn null_and_empty_members_are_left_out_at_every_depth() {
        let task = json!({
            "key": "HRB-1", "title": "Send the invoice", "description": "", "due": null,
            "tags": [], "blocked_by": ["HRB-0"], "claimed_by": null, "priority": 0,
            "blocked": false, "amount": 0.0, "meta": {}, "note": " ",
        });
        let expected = json!({
            "key": "HRB-1", "title": "Send the invoice", "blocked_by": ["HRB-0"], "priority": 0,
            "blocked": false, "amount": 0.0, "note": " ",
        });
        assert_eq!(leaned(json!({ "task": task.clone(), "unblocked": [] })), json!({ "task": expected.clone() }));
        assert_eq!(
            leaned(json!({ "task": task.clone(), "other": task, "changed": true })),
            json!({ "task": expected.clone(), "other": expected, "changed": true })
        );
    }

    #[test]
    fn a_member_emptied_by_stripping_goes_too() {
        assert_eq!(leaned(json!({ "a": { "b": null, "c": { "d": [] } }, "e": 1 })), json!({ "e": 1 }));
        assert_eq!(leaned(json!({ "exact_match": { "rule": null, "message": null } })), json!({}));
    }

    #[test]
    fn array_elements_are_stripped_inside_but_never_removed() {
        assert_eq!(
            leaned(json!({ "links": [{ "kind": "blocked-by", "message": null }, { "message": null }, null, ""] })),
            json!({ "links": [{ "kind": "blocked-by" }, {}, null, ""] })
        );
    }

    #[test]
    fn documented_members_stay_when_empty_and_only_where_documented() {
        assert_eq!(leaned(json!({ "items": [] })), json!({ "items": [] }), "no items is the answer");
        assert_eq!(
            leaned(json!({ "items": [{ "key": "HRB-1", "due": null }] })),
            json!({ "items": [{ "key": "HRB-1" }] }),
            "the items themselves are lean"
        );
        assert_eq!(
            leaned(json!({ "error": { "code": "other", "message": "disk full", "details": {} } })),
            json!({ "error": { "code": "other", "message": "disk full", "details": {} } })
        );
        assert_eq!(
            leaned(
                json!({ "error": { "code": "validation", "message": "m", "details": { "field": "subject", "value": "" } } })
            ),
            json!({ "error": { "code": "validation", "message": "m", "details": { "field": "subject" } } })
        );
        // The same names elsewhere are not documented as meaningful when empty.
        assert_eq!(leaned(json!({ "task": { "items": [], "details": {} }, "details": {} })), json!({}));
        assert_eq!(leaned(json!({ "error": { "items": [] } })), json!({}));
    }

    #[test]
    fn a_path_keeps_only_its_own_member() {
        let mut value = json!({ "a": { "b": [], "c": [] }, "b": [] });
        strip(&mut value, &[&["a", "b"]]);
        assert_eq!(value, json!({ "a": { "b": [] } }));
        let mut value = json!({ "a": {} });
        strip(&mut value, &[&["a"]]);
        assert_eq!(value, json!({ "a": {} }));
    }

    #[test]
    fn scalars_and_the_root_are_left_alone() {
        for v in [json!(null), json!(""), json!([]), json!({}), json!(false), json!(0), json!("x")] {
            assert_eq!(leaned(v.clone()), v);
        }
    }
}
