//! The pages, rendered with `maud`: every value is escaped by construction, and text
//! from people or models additionally goes through `tasks_text::printable` (no control
//! characters, no bidi overrides) as it does on a terminal.

pub mod center;
pub mod conversation;
pub mod today;

use maud::{DOCTYPE, Markup, html};
use tasks_core::ops::schedule::local_text;

use crate::access::CSRF_FIELD;

/// Which section the navigation marks as current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nav {
    /// The Task Center.
    Center,
    /// A conversation.
    Conversation,
    /// Today.
    Today,
}

/// What every page carries besides its body.
pub struct Chrome<'a> {
    /// The document title.
    pub title: &'a str,
    /// The current section.
    pub nav: Nav,
    /// The CSRF token forms and scripts send.
    pub csrf: &'a str,
    /// The store's change stamp when the page was rendered.
    pub stamp: i64,
    /// A line to show at the top (the outcome of the last action, or its error).
    pub notice: Option<&'a str>,
}

/// Wraps a body in the page: head, navigation, notice, scripts.
pub fn page(chrome: &Chrome<'_>, body: Markup) -> Markup {
    let current = |n: Nav| if chrome.nav == n { Some("page") } else { None };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="csrf-token" content=(chrome.csrf);
                title { (chrome.title) " · tasks" }
                link rel="stylesheet" href="/assets/app.css";
            }
            body data-stamp=(chrome.stamp) {
                header.top {
                    nav aria-label="Sections" {
                        a href="/center" aria-current=[current(Nav::Center)] { "Task Center" }
                        a href="/conversations" aria-current=[current(Nav::Conversation)] { "Conversations" }
                        a href="/today" aria-current=[current(Nav::Today)] { "Today" }
                    }
                }
                main #main {
                    @if let Some(n) = chrome.notice {
                        p.notice role="status" { (clean(n)) }
                    }
                    (body)
                }
                script src="/assets/app.js" {}
            }
        }
    }
}

/// Text from a person or a model, made safe to show (as on a terminal).
pub fn clean(text: &str) -> String {
    tasks_text::printable(text).into_owned()
}

/// A firing time: the schedule's zone in the text, the instant in `datetime`, so the
/// script can add the browser's own time when the zones differ.
pub fn fire_time(ms: i64, zone: &str) -> Markup {
    let rfc = jiff::Timestamp::from_millisecond(ms).map(|t| t.to_string()).unwrap_or_default();
    html! { time.fire datetime=(rfc) data-zone=(zone) { (local_text(ms, zone)) } }
}

/// A POST form with the CSRF field, one button, and the path to come back to.
pub fn action_form(action: &str, label: &str, csrf: &str, back: &str, extra: &[(&str, &str)], class: &str) -> Markup {
    html! {
        form.inline method="post" action=(action) data-lock {
            input type="hidden" name=(CSRF_FIELD) value=(csrf);
            input type="hidden" name="back" value=(back);
            @for (name, value) in extra {
                input type="hidden" name=(name) value=(value);
            }
            button type="submit" class=(class) { (label) }
        }
    }
}
