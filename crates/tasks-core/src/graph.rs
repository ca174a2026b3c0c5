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
use crate::port::{Engine, Reads, Writes};
use crate::store::events::{EventChange, LinkChange};

/// Most tasks a drawn graph holds; a larger component is cut (and says so).
pub const MAX_GRAPH_NODES: usize = 300;

/// Adds a live link `from kind to`, refusing self-links and cycles; returns false when
/// the link existed already.
pub(crate) fn add_link(tx: &dyn Writes, ctx: &Context, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    let now = ctx.now_ms();
    if !kind.joins_tasks() {
        return Err(Error::invalid("link kind", kind.as_str(), "links a task to a message, not to a task"));
    }
    if from == to {
        let key = tx.task(from)?.key;
        return Err(Error::SelfLink { key, kind: kind.as_str() });
    }
    if kind.must_be_acyclic() {
        // The walk below and the insert after it see one graph: no other checked write
        // (a link, a new task) comes between them.
        tx.lock_checked_writes()?;
    }
    if tx.link_exists(from, kind, to)? {
        return Ok(false);
    }
    if kind.must_be_acyclic() && tx.reachable(to, kind, from)? {
        let back = stored_path(tx, to, kind, from)?;
        return Err(cycle_error(tx, kind, from, &back)?);
    }
    insert_checked(tx, ctx, from, kind, to, now)?;
    Ok(true)
}

/// Writes a link whose checks are done, with its event.
fn insert_checked(tx: &dyn Writes, ctx: &Context, from: i64, kind: LinkKind, to: i64, now: i64) -> Result<()> {
    tx.insert_link(from, kind, to, &ctx.actor, now)?;
    let to_key = tx.task_key(to)?;
    tx.record_event(from, now, &ctx.actor, &EventChange::Link(LinkChange { kind, to: to_key }))
}

/// Returns the cycle error of the edge `from → to` closing over `back` (the path
/// `to → … → from`): keys along the cycle, first == last.
fn cycle_error(conn: &dyn Reads, kind: LinkKind, from: i64, back: &[i64]) -> Result<Error> {
    let mut ids = vec![from];
    ids.extend_from_slice(back);
    let path = ids.iter().map(|id| conn.task(*id).map(|t| t.key)).collect::<Result<Vec<_>>>()?;
    Ok(Error::Cycle { kind: kind.as_str(), path })
}

/// Returns a path `from → … → to` along stored live links (breadth-first, so the
/// shortest), walking each task once. Called only once [`Reads::reachable`] said yes.
fn stored_path(conn: &dyn Reads, from: i64, kind: LinkKind, to: i64) -> Result<Vec<i64>> {
    let mut parent: BTreeMap<i64, i64> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            break;
        }
        for next in conn.link_targets(node, kind)? {
            if seen.insert(next) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    Ok(path_back(&parent, from, to))
}

/// Follows `parent` from `to` back to `from`; returns `from → … → to`.
fn path_back(parent: &BTreeMap<i64, i64>, from: i64, to: i64) -> Vec<i64> {
    let mut path = vec![to];
    let mut node = to;
    while node != from {
        match parent.get(&node) {
            Some(p) => {
                node = *p;
                path.push(node);
            }
            None => break,
        }
    }
    path.reverse();
    path
}

/// One link an import asks for, with the line that asked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewLink {
    /// The import line.
    pub line: usize,
    /// From this task …
    pub from: i64,
    /// … to this one.
    pub to: i64,
}

/// Adds many links of one kind at once (import), checking cycles ONCE for the whole
/// set instead of a walk per link (issue 10: 10,000 chained `blocked_by` took more than
/// 15 minutes that way).
///
/// Every existing live link of the kind and every new one go into one in-memory graph;
/// its strongly connected components (Tarjan, linear) show which new links lie on a
/// cycle at all. Links on none are written as they are. The few that do are then taken
/// in line order, each checked against what was accepted before it, so the link that
/// closes a cycle is the one refused, with its line and the cycle's path. Returns the
/// refused links' errors when `skip_bad`; without it, the first refusal is the error.
pub(crate) fn add_links_acyclic(
    tx: &dyn Writes,
    ctx: &Context,
    kind: LinkKind,
    new: &[NewLink],
    skip_bad: bool,
) -> Result<Vec<Error>> {
    let now = ctx.now_ms();
    tx.lock_checked_writes()?;
    let line_error =
        |line: usize, e: Error| Error::ImportLine { line, field: Some("blocked_by"), message: e.to_string() };
    let mut refused = Vec::new();
    let mut candidates = Vec::new();
    for l in new {
        let checked = if l.from == l.to {
            let key = tx.task(l.from)?.key;
            Err(Error::SelfLink { key, kind: kind.as_str() })
        } else {
            Ok(!tx.link_exists(l.from, kind, l.to)?)
        };
        match checked {
            Ok(true) if !candidates.iter().any(|c: &NewLink| c.from == l.from && c.to == l.to) => candidates.push(*l),
            Ok(_) => {}
            Err(e) if skip_bad => refused.push(line_error(l.line, e)),
            Err(e) => return Err(line_error(l.line, e)),
        }
    }
    let mut graph: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (a, b) in tx.links_of_kind(kind)? {
        graph.entry(a).or_default().push(b);
    }
    for l in &candidates {
        graph.entry(l.from).or_default().push(l.to);
    }
    let component = strongly_connected(&graph);
    let on_a_cycle = |l: &NewLink| component.get(&l.from).is_some_and(|c| component.get(&l.to) == Some(c));
    // Links on no cycle can be written now; the rest wait for the one-by-one check.
    let (suspects, safe): (Vec<NewLink>, Vec<NewLink>) = candidates.into_iter().partition(|l| on_a_cycle(l));
    if !skip_bad && let Some(first) = suspects.first() {
        // Refused anyway: name one cycle, blamed on its latest line (the link that
        // closed it when the file is read in order). Linear in the component.
        let back = memory_path(&graph, first.to, first.from).unwrap_or_default();
        let mut cycle = vec![first.from];
        cycle.extend_from_slice(&back);
        let on_cycle = |l: &&NewLink| cycle.windows(2).any(|w| w[0] == l.from && w[1] == l.to);
        let culprit = suspects.iter().filter(on_cycle).max_by_key(|l| l.line).unwrap_or(first);
        let back = memory_path(&graph, culprit.to, culprit.from).unwrap_or_default();
        return Err(line_error(culprit.line, cycle_error(tx, kind, culprit.from, &back)?));
    }
    let suspect_set: BTreeSet<(i64, i64)> = suspects.iter().map(|l| (l.from, l.to)).collect();
    let mut accepted: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (a, bs) in &graph {
        for b in bs.iter().filter(|b| !suspect_set.contains(&(*a, **b))) {
            accepted.entry(*a).or_default().push(*b);
        }
    }
    for l in &safe {
        insert_checked(tx, ctx, l.from, kind, l.to, now)?;
    }
    // With `skip_bad`: in line order, refuse each link that closes a cycle with what
    // was accepted before it (cycles are rare; this part sees only their links).
    for l in suspects {
        if let Some(back) = memory_path(&accepted, l.to, l.from) {
            let e = line_error(l.line, cycle_error(tx, kind, l.from, &back)?);
            if skip_bad {
                refused.push(e);
                continue;
            }
            return Err(e);
        }
        accepted.entry(l.from).or_default().push(l.to);
        insert_checked(tx, ctx, l.from, kind, l.to, now)?;
    }
    Ok(refused)
}

/// Returns a path `from → … → to` in an in-memory graph, if there is one.
fn memory_path(graph: &BTreeMap<i64, Vec<i64>>, from: i64, to: i64) -> Option<Vec<i64>> {
    let mut parent: BTreeMap<i64, i64> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(node) = queue.pop_front() {
        if node == to {
            return Some(path_back(&parent, from, to));
        }
        for next in graph.get(&node).into_iter().flatten() {
            if seen.insert(*next) {
                parent.insert(*next, node);
                queue.push_back(*next);
            }
        }
    }
    None
}

/// Returns the strongly connected component of every node that lies in one with more
/// than one node (Tarjan's algorithm, iterative so a 100k-long chain cannot overflow
/// the stack). Nodes on no cycle are absent.
fn strongly_connected(graph: &BTreeMap<i64, Vec<i64>>) -> BTreeMap<i64, usize> {
    let mut index: BTreeMap<i64, usize> = BTreeMap::new();
    let mut low: BTreeMap<i64, usize> = BTreeMap::new();
    let mut on_stack: BTreeSet<i64> = BTreeSet::new();
    let mut stack: Vec<i64> = Vec::new();
    let mut component: BTreeMap<i64, usize> = BTreeMap::new();
    let mut next_index = 0;
    let mut components = 0;
    let empty = Vec::new();
    for &start in graph.keys() {
        if index.contains_key(&start) {
            continue;
        }
        // Each frame: the node and how many of its successors were looked at.
        let mut frames: Vec<(i64, usize)> = vec![(start, 0)];
        index.insert(start, next_index);
        low.insert(start, next_index);
        next_index += 1;
        stack.push(start);
        on_stack.insert(start);
        while let Some(&mut (node, ref mut i)) = frames.last_mut() {
            let successors = graph.get(&node).unwrap_or(&empty);
            if let Some(&next) = successors.get(*i) {
                *i += 1;
                if let std::collections::btree_map::Entry::Vacant(slot) = index.entry(next) {
                    slot.insert(next_index);
                    low.insert(next, next_index);
                    next_index += 1;
                    stack.push(next);
                    on_stack.insert(next);
                    frames.push((next, 0));
                } else if on_stack.contains(&next) {
                    let l = low[&node].min(index[&next]);
                    low.insert(node, l);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                let l = low[&parent].min(low[&node]);
                low.insert(parent, l);
            }
            if low[&node] == index[&node] {
                let mut members = Vec::new();
                while let Some(m) = stack.pop() {
                    on_stack.remove(&m);
                    members.push(m);
                    if m == node {
                        break;
                    }
                }
                if members.len() > 1 {
                    for m in members {
                        component.insert(m, components);
                    }
                    components += 1;
                }
            }
        }
    }
    component
}

/// Marks the live link `from kind to` removed; returns false when there was none.
pub(crate) fn remove_link(tx: &dyn Writes, ctx: &Context, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
    let now = ctx.now_ms();
    if !tx.remove_link(from, kind, to, &ctx.actor, now)? {
        return Ok(false);
    }
    let to_key = tx.task(to)?.key;
    tx.record_event(from, now, &ctx.actor, &EventChange::Unlink(LinkChange { kind, to: to_key }))?;
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
pub(crate) fn neighbourhood(conn: &dyn Reads, root: i64) -> Result<Neighbourhood> {
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
        tasks.insert(id, conn.task(id)?);
        for link in conn.links_of_task(id)? {
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
pub fn edges(store: &dyn Engine, kind: LinkKind) -> Result<Vec<(String, String)>> {
    let conn = store.reader();
    conn.links_of_kind(kind)?.into_iter().map(|(a, b)| Ok((conn.task(a)?.key, conn.task(b)?.key))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(i64, i64)]) -> BTreeMap<i64, Vec<i64>> {
        let mut g: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(*a).or_default().push(*b);
        }
        g
    }

    #[track_caller]
    fn check(edges: &[(i64, i64)], on_cycles: &[i64]) {
        let components = strongly_connected(&graph(edges));
        let mut found: Vec<i64> = components.keys().copied().collect();
        found.sort_unstable();
        assert_eq!(found, on_cycles, "{edges:?}");
    }

    #[test]
    fn components_find_exactly_the_tasks_on_cycles() {
        check(&[], &[]);
        check(&[(1, 2), (2, 3)], &[]);
        check(&[(1, 2), (2, 1)], &[1, 2]);
        check(&[(1, 2), (2, 3), (3, 1), (3, 4)], &[1, 2, 3]);
        check(&[(1, 2), (2, 1), (3, 4), (4, 3), (2, 3)], &[1, 2, 3, 4]);
        check(&[(5, 6), (6, 7), (7, 6), (7, 8)], &[6, 7]);
    }

    #[test]
    fn two_separate_cycles_are_two_components() {
        let c = strongly_connected(&graph(&[(1, 2), (2, 1), (3, 4), (4, 3), (2, 3)]));
        assert_eq!(c[&1], c[&2]);
        assert_eq!(c[&3], c[&4]);
        assert_ne!(c[&1], c[&3], "2 → 3 joins them one way only");
    }

    #[test]
    fn a_chain_of_a_hundred_thousand_needs_no_deep_stack() {
        let edges: Vec<(i64, i64)> = (1..100_000).map(|i| (i + 1, i)).collect();
        assert!(strongly_connected(&graph(&edges)).is_empty());
        let mut closed = edges.clone();
        closed.push((1, 100_000));
        assert_eq!(strongly_connected(&graph(&closed)).len(), 100_000);
    }

    #[test]
    fn paths_in_memory_are_shortest() {
        let g = graph(&[(1, 2), (2, 3), (3, 4), (1, 4)]);
        assert_eq!(memory_path(&g, 1, 4), Some(vec![1, 4]));
        assert_eq!(memory_path(&g, 2, 4), Some(vec![2, 3, 4]));
        assert_eq!(memory_path(&g, 4, 1), None);
    }
}
