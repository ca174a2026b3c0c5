//! The conversation view (seed 004 §9, §10): its messages — each automatic result
//! labelled with the Task's name, what triggered it and when — a task bar of the
//! conversation's Tasks, the live queue with remove and "interrupt and promote", and the
//! composer.

use std::collections::HashMap;

use maud::{Markup, html};
use tasks_core::model::conversation::{MessageRole, QueueKind, QueuePayload, QueueState};
use tasks_core::model::schedule::JobKind;
use tasks_core::ops::schedule::center::{CenterRow, ConversationChoiceInfo};
use tasks_core::ops::schedule::{Conversation, Message, QueueItem, local_text};

use super::{action_form, clean, fire_time};
use crate::access::CSRF_FIELD;

/// What a schedule message needs to be labelled: its Task's title and its Job's kind.
pub struct Labels {
    /// Task key → title.
    pub titles: HashMap<String, String>,
    /// Job id → kind.
    pub job_kinds: HashMap<i64, JobKind>,
}

/// The list of conversations.
pub fn index(convs: &[ConversationChoiceInfo]) -> Markup {
    html! {
        h1 { "Conversations" }
        @if convs.is_empty() {
            p.empty { "No conversation yet: one is made when a Task posts or you write." }
        } @else {
            ul.conversations {
                @for c in convs {
                    li { a href=(format!("/conversations/{}", c.conversation.id)) { (clean(&c.conversation.title)) }
                        " " span.muted { (c.conversation.kind.to_string()) " · " (c.tasks) " Task" @if c.tasks != 1 { "s" } } }
                }
            }
        }
    }
}

fn trigger_of(kind: Option<JobKind>) -> &'static str {
    match kind {
        Some(JobKind::ScheduledOccurrence) => "scheduled",
        Some(JobKind::Manual) => "run now",
        Some(JobKind::Event) => "event",
        None => "schedule",
    }
}

fn message(m: &Message, labels: &Labels, zone: &str) -> Markup {
    let role = m.role.to_string();
    html! {
        li class=(format!("msg {role}")) data-message=(m.id) {
            p.label {
                @match m.role {
                    MessageRole::User => { "You" }
                    MessageRole::Assistant => { "tasks" }
                    MessageRole::System => { "Note" }
                    MessageRole::Schedule => {
                        @let title = m.task_key.as_ref().and_then(|k| labels.titles.get(k)).cloned().unwrap_or_default();
                        @let kind = m.job_id.and_then(|j| labels.job_kinds.get(&j).copied());
                        (clean(&title)) @if let Some(k) = &m.task_key { " (" (k) ")" }
                        " · " (trigger_of(kind))
                    }
                }
                " · " time { (local_text(m.created_at, zone)) }
            }
            div.text { (clean(&m.text)) }
        }
    }
}

fn queue_item(item: &QueueItem, csrf: &str, back: &str) -> Markup {
    let what = match &item.payload {
        QueuePayload::Message(m) => clean(&m.text),
        QueuePayload::Firing(f) => format!("{} Job #{}: {}", f.task, f.job, clean(&f.prompt)),
    };
    html! {
        li.queued data-queue=(item.id) {
            span class=(format!("state {}", item.state)) { (item.state.to_string()) }
            " #" (item.id) " " (if item.kind == QueueKind::Firing { "firing" } else { "message" }) ": " (what)
            @if item.state == QueueState::Pending {
                (action_form(&format!("/queue/{}/remove", item.id), "Remove", csrf, back, &[], "remove"))
                (action_form(&format!("/queue/{}/promote", item.id), "Interrupt and promote", csrf, back, &[], "promote"))
            }
        }
    }
}

/// The page of one conversation.
#[allow(clippy::too_many_arguments)]
pub fn view(
    conv: &Conversation,
    tasks: &[&CenterRow],
    messages: &[Message],
    queue: &[QueueItem],
    labels: &Labels,
    zone: &str,
    csrf: &str,
    answered_here: bool,
) -> Markup {
    let back = format!("/conversations/{}", conv.id);
    html! {
        h1 { (clean(&conv.title)) " " span.muted { (conv.kind.to_string()) } }
        nav.taskbar aria-label="Tasks of this conversation" {
            @if tasks.is_empty() { span.muted { "No scheduled Task posts here." } }
            @for r in tasks {
                a.task href=(format!("/center/{}", r.schedule.task_key)) {
                    (clean(&r.schedule.task_title))
                    @if let Some(ms) = r.schedule.next_fire_at { " · " (fire_time(ms, &r.schedule.zone)) }
                }
            }
        }
        ol.messages {
            @for m in messages { (message(m, labels, zone)) }
        }
        section.queue aria-labelledby="queue-title" {
            h2 #queue-title { "Queue" }
            @if queue.is_empty() {
                p.empty { "Nothing waiting." }
            } @else {
                ol { @for item in queue { (queue_item(item, csrf, &back)) } }
            }
        }
        form.composer method="post" action=(format!("/conversations/{}/send", conv.id)) data-lock {
            input type="hidden" name=(CSRF_FIELD) value=(csrf);
            label for="composer" { "Message" }
            textarea #composer name="text" rows="2" required placeholder="/today, /add Buy milk, or write what you need" {}
            button type="submit" { "Send" }
            @if !answered_here {
                p.muted { "No model is configured: slash commands and plain requests are answered at once by the offline parser when the queue is empty; otherwise the message waits in the queue." }
            }
        }
    }
}
