//! The task graph (SPEC §4): adding and removing links with the checks they need (no
//! self-link, no cycle in `blocked-by` or `follow-up-of`), and the neighbourhood of a
//! task drawn as a tree, Graphviz dot or Mermaid.
//!
//! `ready` and `blocked` are queries in `store::tasks`; `blocked` is derived there from
//! live links on every read, never stored.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::model::{LinkKind, Task};
use crate::ops::Context;
use crate::store::events::{self, EventChange, LinkChange};
use crate::store::{Tx, links, tasks as task_rows};

/// Most tasks a drawn graph holds; a larger component is cut (and says so).
pub const MAX_GRAPH_NODES: usize = 300;

/// Adds a live link `from kind to`, refusing self-links and cycles; returns false when
/// the link existed already.
pub(crate) fn add_link(tx: &Tx<'_>, ctx: &Context, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    let now = ctx.now_ms();
    if !kind.joins_tasks() {
        return Err(Error::invalid("link kind", kind.as_str(), "links a task to a message, not to a task"));
    }
    if from == to {
        let key = task_rows::get(tx, from)?.key;
        return Err(Error::SelfLink { key, kind: kind.as_str() });
    }
    if links::exists(tx, from, kind, to)? {
        return Ok(false);
    }
    if kind.must_be_acyclic()
        && let Some(back) = links::path(tx, to, kind, from)?
    {
        // The new edge from → to plus the existing path to → … → from.
        let mut ids = vec![from];
        ids.extend(back);
        let path = ids.iter().map(|id| task_rows::get(tx, *id).map(|t| t.key)).collect::<Result<Vec<_>>>()?;
        return Err(Error::Cycle { kind: kind.as_str(), path });
    }
    links::insert(tx, from, kind, to, &ctx.actor, now)?;
    let to_key = task_rows::get(tx, to)?.key;
    events::record(tx, from, now, &ctx.actor, &EventChange::Link(LinkChange { kind, to: to_key }))?;
    Ok(true)
}

/// Marks the live link `from kind to` removed; returns false when there was none.
pub(crate) fn remove_link(tx: &Tx<'_>, ctx: &Context, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    let now = ctx.now_ms();
    if !links::remove(tx, from, kind, to, &ctx.actor, now)? {
        return Ok(false);
    }
    let to_key = task_rows::get(tx, to)?.key;
    events::record(tx, from, now, &ctx.actor, &EventChange::Unlink(LinkChange { kind, to: to_key }))?;
    Ok(true)
}

/// A task's neighbourhood: the tasks reachable through task links in either direction.
#[derive(Debug, Clone)]
pub struct Neighbourhood {
    /// The task asked about.
    pub root: i64,
    /// Every task in it, by row id.
    pub tasks: BTreeMap<i64, Task>,
    /// Live links among them: (from, kind, to).
    pub edges: Vec<(i64, LinkKind, i64)>,
    /// True when [`MAX_GRAPH_NODES`] cut the walk.
    pub truncated: bool,
}

/// Collects the neighbourhood of a task by breadth-first walk over live task links.
pub(crate) fn neighbourhood(conn: &rusqlite::Connection, root: i64) -> Result<Neighbourhood> {
    let mut tasks = BTreeMap::new();
    let mut edges = BTreeSet::new();
    let mut queue = VecDeque::from([root]);
    let mut truncated = false;
    while let Some(id) = queue.pop_front() {
        if tasks.contains_key(&id) {
            continue;
        }
        if tasks.len() >= MAX_GRAPH_NODES {
            truncated = true;
            break;
        }
        tasks.insert(id, task_rows::get(conn, id)?);
        for link in links::of_task(conn, id)? {
            let Some(other) = link.task_id else { continue };
            let edge = if link.incoming { (other, link.kind, id) } else { (id, link.kind, other) };
            edges.insert((edge.0, edge.1.as_str(), edge.2));
            if !tasks.contains_key(&other) {
                queue.push_back(other);
            }
        }
    }
    let edges = edges
        .into_iter()
        .filter(|(a, _, b)| tasks.contains_key(a) && tasks.contains_key(b))
        .filter_map(|(a, k, b)| k.parse::<LinkKind>().ok().map(|k| (a, k, b)))
        .collect();
    Ok(Neighbourhood { root, tasks, edges, truncated })
}

fn label(task: &Task) -> String {
    let state = if task.is_blocked() && !task.status.is_closed() {
        format!("{}, blocked", task.status)
    } else {
        task.status.to_string()
    };
    format!("{} {} [{state}]", task.key, task.title)
}

/// Draws the neighbourhood as an indented tree: what the root waits for (recursively),
/// then the other links of the root.
pub fn render_tree(n: &Neighbourhood) -> String {
    let mut out = String::new();
    let Some(root) = n.tasks.get(&n.root) else { return out };
    let _ = writeln!(out, "{}", label(root));
    let mut seen = BTreeSet::from([n.root]);
    tree_children(n, n.root, "", &mut seen, &mut out);
    if n.truncated {
        let _ = writeln!(out, "… cut at {MAX_GRAPH_NODES} tasks");
    }
    out
}

fn tree_children(n: &Neighbourhood, id: i64, indent: &str, seen: &mut BTreeSet<i64>, out: &mut String) {
    // Outgoing links first (what this task waits for / continues), then incoming ones.
    let mut children: Vec<(String, i64)> = Vec::new();
    for (a, k, b) in &n.edges {
        if *a == id {
            children.push((k.as_str().to_string(), *b));
        }
    }
    if id == n.root {
        for (a, k, b) in &n.edges {
            if *b == id {
                let inverse = match k {
                    LinkKind::BlockedBy => "blocks".to_string(),
                    other => format!("← {other}"),
                };
                children.push((inverse, *a));
            }
        }
    }
    let count = children.len();
    for (i, (kind, child)) in children.into_iter().enumerate() {
        let last = i + 1 == count;
        let branch = if last { "└── " } else { "├── " };
        let Some(task) = n.tasks.get(&child) else { continue };
        let again = !seen.insert(child);
        let _ = writeln!(out, "{indent}{branch}{kind} {}{}", label(task), if again { " (see above)" } else { "" });
        if !again && kind != "blocks" && !kind.starts_with('←') {
            let next_indent = format!("{indent}{}", if last { "    " } else { "│   " });
            tree_children(n, child, &next_indent, seen, out);
        }
    }
}

fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Draws the neighbourhood in Graphviz dot; an edge points from a task to what it names.
pub fn render_dot(n: &Neighbourhood) -> String {
    let mut out = String::from("digraph tasks {\n  rankdir=LR;\n  node [shape=box];\n");
    for t in n.tasks.values() {
        let style = if t.status.is_closed() { ", style=dashed" } else { "" };
        let _ = writeln!(out, "  \"{}\" [label=\"{}\"{style}];", t.key, quoted(&label(t)));
    }
    for (a, k, b) in &n.edges {
        let _ = writeln!(out, "  \"{}\" -> \"{}\" [label=\"{}\"];", n.tasks[a].key, n.tasks[b].key, k);
    }
    out.push_str("}\n");
    out
}

/// Draws the neighbourhood as a Mermaid flowchart.
pub fn render_mermaid(n: &Neighbourhood) -> String {
    let node_id = |t: &Task| t.key.replace('-', "_");
    let mut out = String::from("flowchart LR\n");
    for t in n.tasks.values() {
        let text = label(t).replace('"', "#quot;");
        let _ = writeln!(out, "  {}[\"{}\"]", node_id(t), text);
    }
    for (a, k, b) in &n.edges {
        let _ = writeln!(out, "  {} -->|{}| {}", node_id(&n.tasks[a]), k, node_id(&n.tasks[b]));
    }
    out
}

/// Returns every live link of one kind as (from key, to key), for checks and exports.
pub fn edges(store: &crate::Store, kind: LinkKind) -> Result<Vec<(String, String)>> {
    let conn = store.conn();
    links::all_of_kind(conn, kind)?
        .into_iter()
        .map(|(a, b)| Ok((task_rows::get(conn, a)?.key, task_rows::get(conn, b)?.key)))
        .collect()
}
