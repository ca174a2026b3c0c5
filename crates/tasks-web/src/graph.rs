//! A task's neighbourhood drawn as SVG on the server (issue 14 §6): no JavaScript graph
//! library to embed (Mermaid is ~3 MB), and the drawing is ordinary escaped markup.
//!
//! Layout: each link puts its target one column right of its source, found by a
//! breadth-first walk from the task asked about (column 0); tasks in a column are
//! stacked in key order. Good for the small neighbourhoods `graph` walks
//! (`MAX_GRAPH_NODES`); not a general graph layout.

use std::collections::{BTreeMap, HashMap, VecDeque};

use maud::{Markup, html};
use tasks_core::graph::Neighbourhood;

const BOX_W: i64 = 200;
const BOX_H: i64 = 44;
const GAP_X: i64 = 70;
const GAP_Y: i64 = 18;
const MARGIN: i64 = 12;
/// Characters of a title shown in a box.
const TITLE_CHARS: usize = 26;

/// Draws the neighbourhood; the task asked about is highlighted.
pub fn svg(n: &Neighbourhood) -> Markup {
    let mut column: HashMap<i64, i64> = HashMap::from([(n.root, 0)]);
    let mut queue = VecDeque::from([n.root]);
    while let Some(id) = queue.pop_front() {
        let c = column[&id];
        for (a, _, b) in &n.edges {
            let next = if *a == id {
                Some((*b, c + 1))
            } else if *b == id {
                Some((*a, c - 1))
            } else {
                None
            };
            if let Some((other, col)) = next
                && !column.contains_key(&other)
            {
                column.insert(other, col);
                queue.push_back(other);
            }
        }
    }
    // Tasks the walk reached by no edge (none in practice) stand in column 0.
    let mut columns: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for id in n.tasks.keys() {
        columns.entry(*column.get(id).unwrap_or(&0)).or_default().push(*id);
    }
    let min_col = columns.keys().next().copied().unwrap_or(0);
    let mut pos: HashMap<i64, (i64, i64)> = HashMap::new();
    let mut rows = 0;
    for (c, ids) in &mut columns {
        ids.sort_by(|a, b| n.tasks[a].key.cmp(&n.tasks[b].key));
        for (r, id) in ids.iter().enumerate() {
            let r = r as i64;
            pos.insert(*id, (MARGIN + (c - min_col) * (BOX_W + GAP_X), MARGIN + r * (BOX_H + GAP_Y)));
            rows = rows.max(r + 1);
        }
    }
    let width = MARGIN * 2 + columns.len() as i64 * (BOX_W + GAP_X) - GAP_X;
    let height = MARGIN * 2 + rows * (BOX_H + GAP_Y) - GAP_Y;
    html! {
        svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img"
            aria-label=(format!("Links of {}", n.tasks.get(&n.root).map(|t| t.key.as_str()).unwrap_or("")))
            width=(width) height=(height) viewBox=(format!("0 0 {width} {height}")) {
            defs {
                marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse" {
                    path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" {}
                }
            }
            @for (a, kind, b) in &n.edges {
                @if let (Some(&(ax, ay)), Some(&(bx, by))) = (pos.get(a), pos.get(b)) {
                    @let (x1, y1, x2, y2) = (ax + BOX_W, ay + BOX_H / 2, bx, by + BOX_H / 2);
                    @let (x1, x2) = if x2 > x1 { (x1, x2) } else { (ax, bx + BOX_W) };
                    line x1=(x1) y1=(y1) x2=(x2) y2=(y2) stroke="currentColor" marker-end="url(#arrow)" {}
                    text x=((x1 + x2) / 2) y=((y1 + y2) / 2 - 4) text-anchor="middle" class="edge" { (kind.to_string()) }
                }
            }
            @for (id, t) in &n.tasks {
                @if let Some(&(x, y)) = pos.get(id) {
                    g class=(if *id == n.root { "node root" } else { "node" }) {
                        rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="6" {}
                        text x=(x + 8) y=(y + 17) class="key" { (t.key) " · " (t.status.to_string()) }
                        text x=(x + 8) y=(y + 35) { (cut(&t.title)) }
                    }
                }
            }
        }
    }
}

fn cut(title: &str) -> String {
    let clean = tasks_text::printable(title);
    if clean.chars().count() <= TITLE_CHARS {
        clean.into_owned()
    } else {
        format!("{}…", clean.chars().take(TITLE_CHARS - 1).collect::<String>())
    }
}
