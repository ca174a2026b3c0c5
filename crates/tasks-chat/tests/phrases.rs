//! The offline parser on `data/chat-phrases` — 274 phrases and a task list written apart
//! from this parser (see that folder's README) — scored the way the issue measures it:
//! plain phrases right, ambiguous ones turned into a question naming exactly the tasks
//! that fit, unknown ones left alone, and never a destructive call on a wrong task.

use serde_json::Value;
use tasks_chat::calls::Call;
use tasks_chat::matching::Candidate;
use tasks_chat::offline::{self, Parsed, ProjectName, Situation, Step};

/// Shares that must come out right. This table was written apart from the parser, but
/// the parser was then developed against it, so these are in-sample floors (measured:
/// plain 98.0 %, ambiguous 92.3 %, unknown 100 %); the held-out figures come from
/// `data/chat-phrases-holdout`, which is only ever run to report.
const PLAIN_FLOOR: f64 = 0.95;
const AMBIGUOUS_FLOOR: f64 = 0.90;
const UNKNOWN_FLOOR: f64 = 0.95;

fn data(name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/chat-phrases").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("json line")).collect()
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

/// Returns whether a parse is what the row expects, and whether it acted on a wrong task.
fn judge(expect: &Value, parsed: &Parsed) -> (bool, bool) {
    let tool = s(expect, "tool");
    let steps = match parsed {
        Parsed::Steps(steps) => steps.clone(),
        Parsed::NotUnderstood(_) => return (tool == "none", false),
    };
    let destructive_on = |c: &Call| match c {
        Call::CloseTask { id } | Call::CancelTask { id } | Call::UpdateTask { id, .. } => Some(id.clone()),
        _ => None,
    };
    let wrong_target = steps.iter().any(|st| match st {
        Step::Run(c) => {
            destructive_on(c).is_some_and(|id| tool == "none" || tool == "clarify" || id != s(expect, "id"))
        }
        Step::Ask(_) => false,
    });
    if steps.len() != 1 {
        return (false, wrong_target);
    }
    let ok = match (&steps[0], tool.as_str()) {
        (Step::Ask(q), "clarify") => {
            let mut got: Vec<String> = q.options.iter().map(|o| o.0.clone()).collect();
            let mut want: Vec<String> = expect["options"]
                .as_array()
                .expect("options")
                .iter()
                .map(|o| o.as_str().unwrap_or("").to_string())
                .collect();
            got.sort();
            want.sort();
            got == want
        }
        (Step::Run(Call::CloseTask { id }), "close_task") | (Step::Run(Call::CancelTask { id }), "cancel_task") => {
            *id == s(expect, "id")
        }
        (Step::Run(Call::UpdateTask { id, deadline: Some(d), .. }), "update_task") => {
            *id == s(expect, "id")
                && d.kind.as_str() == s(expect, "deadline_kind")
                && d.date.map(|x| x.to_string()).unwrap_or_default() == s(expect, "deadline")
        }
        (Step::Run(Call::CreateTask { text, project, deadline }), "create_task") => {
            text.to_lowercase() == s(expect, "text").to_lowercase()
                && deadline.kind.as_str() == s(expect, "deadline_kind")
                && deadline.date.map(|x| x.to_string()).unwrap_or_default() == s(expect, "deadline")
                && project.clone().unwrap_or_default() == s(expect, "project")
        }
        (Step::Run(Call::ListTasks { filter, .. }), "list_tasks") => filter.as_str() == s(expect, "filter"),
        (Step::Run(Call::DeferTodayToTomorrow), "defer_today_to_tomorrow") => true,
        _ => false,
    };
    (ok, wrong_target)
}

#[test]
fn the_written_apart_phrase_table() {
    let tasks: Vec<Candidate> =
        data("tasks.jsonl").iter().map(|t| Candidate::new(&s(t, "key"), &s(t, "title"))).collect();
    let projects: Vec<ProjectName> = data("projects.jsonl")
        .iter()
        .map(|p| ProjectName { key: s(p, "key"), name: s(p, "name"), description: s(p, "description") })
        .collect();
    let situation = Situation { tasks: &tasks, today: jiff::civil::date(2026, 3, 11), shown: &[], projects: &projects };
    let rows = data("phrases.jsonl");
    assert!(rows.len() >= 150, "{} phrases", rows.len());
    let mut by_kind: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut wrong_targets = Vec::new();
    let mut misses = Vec::new();
    for row in &rows {
        let parsed = offline::parse(&s(row, "text"), &situation);
        let (ok, wrong) = judge(&row["expect"], &parsed);
        let e = by_kind.entry(s(row, "kind")).or_default();
        e.0 += 1;
        e.1 += usize::from(ok);
        if wrong {
            wrong_targets.push(format!("{:?} → {:?}", s(row, "text"), parsed));
        }
        if !ok {
            misses.push(format!(
                "[{}] {:?}: expected {} got {:?}",
                s(row, "kind"),
                s(row, "text"),
                row["expect"],
                parsed
            ));
        }
    }
    for (kind, (n, ok)) in &by_kind {
        eprintln!("{kind}: {ok}/{n} ({:.1}%)", 100.0 * *ok as f64 / *n as f64);
    }
    for m in &misses {
        eprintln!("miss {m}");
    }
    assert!(wrong_targets.is_empty(), "destructive calls on a wrong task:\n{}", wrong_targets.join("\n"));
    for (kind, floor) in [("plain", PLAIN_FLOOR), ("ambiguous", AMBIGUOUS_FLOOR), ("unknown", UNKNOWN_FLOOR)] {
        let (n, ok) = by_kind[kind];
        assert!(ok as f64 >= floor * n as f64, "{kind} {ok}/{n}");
    }
}
