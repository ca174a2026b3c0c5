//! Today: the person's own tasks — overdue, due today, ready — with done and claim, a
//! quick add that runs the duplicate check (its candidates offered as Attach / Create
//! anyway), and a task's links drawn as a graph.

use maud::{Markup, html};
use tasks_core::dedup::Candidate;
use tasks_core::graph::Neighbourhood;
use tasks_core::model::Task;

use super::{action_form, clean};
use crate::access::CSRF_FIELD;

/// What the quick add answered, when the page is its answer.
pub enum Added {
    /// Nothing was added on this render.
    Nothing,
    /// A task was made; look-alikes the check showed, if any.
    Created {
        /// The new task's key.
        key: String,
        /// Look-alikes shown, not refused.
        candidates: Vec<Candidate>,
    },
    /// The check found a probable duplicate: the person chooses.
    Refused {
        /// The title as typed.
        title: String,
        /// Candidates, best first.
        candidates: Vec<Candidate>,
    },
}

/// A section of the page: its heading and tasks.
pub struct Section<'a> {
    /// Heading.
    pub heading: &'a str,
    /// Tasks.
    pub tasks: &'a [Task],
    /// Tasks hidden because someone else holds them.
    pub hidden: usize,
}

fn task_row(t: &Task, csrf: &str, actor: &str) -> Markup {
    html! {
        li.task data-task=(t.key) {
            span.key { (t.key) } " " span.title { (clean(&t.title)) }
            @if let Some(d) = &t.due { " " span.muted { "due " (d.date.to_string()) } }
            @if let Some(by) = &t.claimed_by { " " span.badge { "claimed by " (clean(by)) } }
            span.actions {
                (action_form(&format!("/tasks/{}/done", t.key), "Done", csrf, "/today", &[], "done"))
                @if t.claimed_by.as_deref() != Some(actor) {
                    (action_form(&format!("/tasks/{}/claim", t.key), "Claim", csrf, "/today", &[], "claim"))
                }
                a.graph-link href=(format!("/today?graph={}", t.key)) { "Links" }
            }
        }
    }
}

fn candidates_list(candidates: &[Candidate]) -> Markup {
    html! {
        ul.candidates {
            @for c in candidates {
                li { span.key { (c.key) } " " (clean(&c.title)) " " span.muted { (format!("{:.0} %", c.probability * 100.0)) " · " (c.band.as_str()) } }
            }
        }
    }
}

/// The page body.
pub fn view(
    sections: &[Section<'_>],
    added: &Added,
    graph: Option<(&Neighbourhood, Markup)>,
    csrf: &str,
    actor: &str,
) -> Markup {
    html! {
        h1 { "Today" }
        form.quick-add method="post" action="/today/add" data-lock {
            input type="hidden" name=(CSRF_FIELD) value=(csrf);
            label for="quick-title" { "Add a task" }
            input #quick-title name="title" type="text" required autocomplete="off";
            button type="submit" { "Add" }
        }
        @match added {
            Added::Nothing => {}
            Added::Created { key, candidates } => {
                p.notice role="status" { "Added " (key) "." }
                @if !candidates.is_empty() { p { "It looks like:" } (candidates_list(candidates)) }
            }
            Added::Refused { title, candidates } => {
                section.duplicates role="alert" aria-labelledby="dup-title" {
                    h2 #dup-title { "«" (clean(title)) "» looks like a task you have" }
                    ul.candidates {
                        @for c in candidates {
                            li {
                                span.key { (c.key) } " " (clean(&c.title)) " "
                                span.muted { (format!("{:.0} %", c.probability * 100.0)) }
                                (action_form("/today/add", &format!("Attach to {}", c.key), csrf, "/today", &[("title", title), ("choice", &format!("attach:{}", c.key))], "attach"))
                            }
                        }
                    }
                    (action_form("/today/add", "Create anyway", csrf, "/today", &[("title", title), ("choice", "new")], "create-anyway"))
                }
            }
        }
        @if let Some((n, svg)) = graph {
            section.graph-view aria-label=(format!("Links of {}", n.tasks.get(&n.root).map(|t| t.key.as_str()).unwrap_or(""))) {
                h2 { "Links" }
                (svg)
                @if n.truncated { p.muted { "Only the nearest tasks are drawn." } }
            }
        }
        @for s in sections {
            section.agenda {
                h2 { (s.heading) " " span.muted { "(" (s.tasks.len()) ")" } }
                @if s.tasks.is_empty() { p.empty { "Nothing." } }
                ul { @for t in s.tasks { (task_row(t, csrf, actor)) } }
                @if s.hidden > 0 { p.muted { (s.hidden) " more held by others." } }
            }
        }
    }
}
