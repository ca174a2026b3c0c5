//! The Task Center (seed 004 §11): one row per scheduled Task, its detail with Jobs, and
//! the create modal (§5) shared by create and edit.

use maud::{Markup, html};
use tasks_core::model::schedule::{Action, JobState, PromptMode, When};
use tasks_core::ops::schedule::center::{CenterRow, ConversationChoiceInfo, Detail};
use tasks_core::ops::schedule::{Job, Schedule, local_text};

use super::{action_form, clean, fire_time};
use crate::form::ScheduleForm;

/// The mode column: Execute, Ask, Remind (a due action), Command.
pub fn mode_label(s: &Schedule) -> &'static str {
    match &s.action {
        Action::Prompt(p) if p.mode == PromptMode::Execute => "Execute",
        Action::Prompt(_) => "Ask",
        Action::Due => "Remind",
        Action::Command(_) => "Command",
    }
}

fn attention_label(state: JobState) -> &'static str {
    match state {
        JobState::WaitingApproval => "waiting for approval",
        JobState::Failed => "failed",
        JobState::OutcomeUnknown => "outcome unknown",
        JobState::Interrupted => "interrupted",
        _ => "",
    }
}

fn next_firing(s: &Schedule) -> Markup {
    match (&s.when, s.next_fire_at) {
        (When::Event(e), _) => html! { "on " (e.event) },
        (_, Some(ms)) if !s.paused => fire_time(ms, &s.zone),
        (_, Some(_)) => html! { span.muted { "paused" } },
        (_, None) => html! { span.muted { "no firing left" } },
    }
}

fn last_progress(job: Option<&Job>, zone: &str) -> Markup {
    match job {
        None => html! { span.muted { "never ran" } },
        Some(j) => html! {
            span class=(format!("state {}", j.state)) { (j.state.to_string()) }
            " " span.muted { (local_text(j.updated_at, zone)) }
        },
    }
}

/// The run-now form: the key is made when the page is rendered, so a double click sends
/// it twice and makes one Job.
fn run_now(s: &Schedule, csrf: &str, back: &str, key_prefix: &str) -> Markup {
    let key = format!("{key_prefix}-{}", s.id);
    action_form(&format!("/tasks/{}/run-now", s.task_key), "Run now", csrf, back, &[("key", &key)], "run-now")
}

fn pause_resume(s: &Schedule, csrf: &str, back: &str) -> Markup {
    if s.paused {
        action_form(&format!("/tasks/{}/resume", s.task_key), "Resume", csrf, back, &[], "resume")
    } else {
        action_form(&format!("/tasks/{}/pause", s.task_key), "Pause", csrf, back, &[], "pause")
    }
}

/// The Task Center's body.
pub fn list(rows: &[CenterRow], convs: &[ConversationChoiceInfo], csrf: &str, key_prefix: &str) -> Markup {
    let attention = rows.iter().filter(|r| r.attention.is_some()).count();
    html! {
        div.heading {
            h1 { "Task Center" }
            button #new-task type="button" data-open-modal="create" { "New scheduled Task" }
        }
        p.summary {
            (rows.len()) " scheduled Task" @if rows.len() != 1 { "s" }
            @if attention > 0 { " · " strong { (attention) " need" @if attention == 1 { "s" } " attention" } }
        }
        @if rows.is_empty() {
            p.empty { "Nothing is scheduled yet. " a href="#" data-open-modal="create" { "Create a scheduled Task" } "." }
        } @else {
            table.center {
                thead { tr {
                    th scope="col" { "Task" } th scope="col" { "Conversation" } th scope="col" { "Status" }
                    th scope="col" { "Mode" } th scope="col" { "Last progress" } th scope="col" { "Next firing" }
                    th scope="col" { span.sr { "Actions" } }
                } }
                tbody {
                    @for r in rows {
                        @let s = &r.schedule;
                        tr data-task=(s.task_key) class=[r.attention.map(|_| "attention")] {
                            td {
                                a href=(format!("/center/{}", s.task_key)) { (s.task_key) " " (clean(&s.task_title)) }
                                br; span.muted { (s.when.to_string()) }
                            }
                            td { a href=(format!("/conversations/{}", r.conversation.id)) { (clean(&r.conversation.title)) } }
                            td {
                                (s.state_name())
                                @if let Some(a) = r.attention { " " span.badge { (attention_label(a)) } }
                            }
                            td { (mode_label(s)) }
                            td { (last_progress(r.last_job.as_ref(), &s.zone)) }
                            td { (next_firing(s)) }
                            td.actions {
                                (run_now(s, csrf, "/center", key_prefix))
                                (pause_resume(s, csrf, "/center"))
                            }
                        }
                    }
                }
            }
        }
        (modal(convs, None))
    }
}

/// One Task's detail: its row, actions, Jobs (with approve/reject when waiting).
pub fn detail(d: &Detail, convs: &[ConversationChoiceInfo], csrf: &str, key_prefix: &str, requirement: &str) -> Markup {
    let s = &d.row.schedule;
    let back = format!("/center/{}", s.task_key);
    let editable = !matches!(s.action, Action::Command(_)) && matches!(s.when, When::Time(_));
    let form = ScheduleForm::of_schedule(s, requirement);
    let form_json = serde_json::to_string(&form).unwrap_or_default();
    html! {
        p { a href="/center" { "← Task Center" } }
        div.heading {
            h1 { (s.task_key) " " (clean(&s.task_title)) }
            @if editable {
                button #edit-task type="button" data-open-modal="edit" data-task=(s.task_key) data-form=(form_json) { "Edit" }
            } @else {
                span.muted { "A command schedule is changed from the CLI: tasks schedule add " (s.task_key) " --replace …" }
            }
        }
        dl.facts {
            dt { "When" } dd { (s.when.to_string()) " (" (s.zone) ")" }
            dt { "Mode" } dd { (mode_label(s)) }
            dt { "Status" } dd { (s.state_name()) @if let Some(a) = d.row.attention { " " span.badge { (attention_label(a)) } } }
            dt { "Next firing" } dd { (next_firing(s)) }
            dt { "Conversation" } dd { a href=(format!("/conversations/{}", d.row.conversation.id)) { (clean(&d.row.conversation.title)) } }
            dt { "Plan version" } dd { (s.plan_version) }
            @if let Action::Prompt(p) = &s.action { dt { "Requirement" } dd.pre { (clean(&p.text)) } }
        }
        div.actions { (run_now(s, csrf, &back, key_prefix)) (pause_resume(s, csrf, &back)) }
        h2 { "Jobs" }
        @if d.jobs.is_empty() {
            p.empty { "No Job yet." }
        } @else {
            table.jobs {
                thead { tr { th scope="col" { "Job" } th scope="col" { "Kind" } th scope="col" { "For" } th scope="col" { "State" } th scope="col" { "Why" } th scope="col" { span.sr { "Actions" } } } }
                tbody {
                    @for j in &d.jobs {
                        tr data-job=(j.id) {
                            td { "#" (j.id) } td { (j.kind.to_string()) } td { (local_text(j.scheduled_for, &s.zone)) }
                            td { span class=(format!("state {}", j.state)) { (j.state.to_string()) } }
                            td { (clean(j.reason.as_deref().unwrap_or(""))) }
                            td.actions {
                                @if j.state == JobState::WaitingApproval {
                                    (action_form(&format!("/jobs/{}/approve", j.id), "Approve", csrf, &back, &[], "approve"))
                                    (action_form(&format!("/jobs/{}/reject", j.id), "Reject", csrf, &back, &[], "reject"))
                                }
                            }
                        }
                    }
                }
            }
        }
        (modal(convs, Some(s)))
    }
}

/// The create modal (seed 004 §5). Hidden until opened; the script moves focus into it,
/// keeps Tab inside, and previews the next firings as the fields change.
fn modal(convs: &[ConversationChoiceInfo], editing: Option<&Schedule>) -> Markup {
    let weekdays = [
        ("mon", "Mon"),
        ("tue", "Tue"),
        ("wed", "Wed"),
        ("thu", "Thu"),
        ("fri", "Fri"),
        ("sat", "Sat"),
        ("sun", "Sun"),
    ];
    let frequencies = [
        ("once", "Once"),
        ("daily", "Daily"),
        ("weekly", "Weekly"),
        ("monthly", "Monthly"),
        ("workdays", "Workdays"),
        ("cron", "Cron"),
    ];
    html! {
        div #modal-backdrop.backdrop hidden {
            div #modal.modal role="dialog" aria-modal="true" aria-labelledby="modal-title" aria-describedby="modal-desc"
                data-edit-task=[editing.map(|s| s.task_key.as_str())] {
                form #schedule-form novalidate {
                    h2 #modal-title { "New scheduled Task" }
                    p #modal-desc.muted { "A Task that runs on a schedule and keeps its results in a conversation." }
                    div.field {
                        label for="f-name" { "Task name " span aria-hidden="true" { "*" } }
                        input #f-name name="name" type="text" required aria-required="true" aria-describedby="e-name" autocomplete="off";
                        p #e-name.field-error {}
                    }
                    div.field {
                        label for="f-requirement" { "Requirement " span aria-hidden="true" { "*" } }
                        textarea #f-requirement name="requirement" rows="3" required aria-required="true" aria-describedby="e-requirement" {}
                        p #e-requirement.field-error {}
                    }
                    fieldset.field #f-conversation-set {
                        legend { "Conversation" }
                        label.choice {
                            input type="radio" name="conversation_kind" value="new" checked;
                            " New conversation"
                        }
                        div.sub {
                            label for="f-conversation-title" { "Title" }
                            input #f-conversation-title name="conversation_title" type="text" placeholder="the Task's name";
                        }
                        label.choice {
                            input type="radio" name="conversation_kind" value="existing" disabled[convs.is_empty()];
                            " Existing conversation"
                        }
                        div.sub {
                            label for="f-conversation" { "Conversation" }
                            select #f-conversation name="conversation" aria-describedby="e-conversation" {
                                @for c in convs {
                                    option value=(c.conversation.id) {
                                        (clean(&c.conversation.title)) " · " (c.conversation.kind.to_string())
                                        " · " (c.tasks) " Task" @if c.tasks != 1 { "s" }
                                    }
                                }
                            }
                            p #e-conversation.field-error {}
                        }
                    }
                    fieldset.field {
                        legend { "Mode" }
                        label.choice { input type="radio" name="mode" value="execute" checked; " Execute" }
                        label.choice { input type="radio" name="mode" value="ask"; " Ask" }
                        label.choice { input type="radio" name="mode" value="remind"; " Remind only" }
                        p #e-mode.field-error {}
                    }
                    fieldset.field {
                        legend { "Frequency" }
                        @for (value, label) in frequencies {
                            label.choice { input type="radio" name="frequency" value=(value) checked[value == "weekly"]; " " (label) }
                        }
                        p #e-frequency.field-error {}
                    }
                    fieldset.field data-for="weekly" {
                        legend { "Days" }
                        @for (value, label) in weekdays {
                            label.choice { input type="checkbox" name="weekday" value=(value); " " (label) }
                        }
                        p #e-weekdays.field-error {}
                    }
                    div.field data-for="monthly" {
                        label for="f-day" { "Day of the month (1–31 or last)" }
                        input #f-day name="day" type="text" value="1" aria-describedby="e-day";
                        p #e-day.field-error {}
                    }
                    div.field data-for="cron" {
                        label for="f-cron" { "Cron (minute hour day month weekday)" }
                        input #f-cron name="cron" type="text" placeholder="*/30 9-18 * * 1-5" aria-describedby="e-cron";
                        p #e-cron.field-error {}
                    }
                    div.row {
                        div.field data-for="once" {
                            label for="f-date" { "First run date" }
                            input #f-date name="date" type="text" inputmode="numeric" placeholder="YYYY-MM-DD" aria-describedby="e-date";
                            p #e-date.field-error {}
                        }
                        div.field data-for="once daily weekly monthly workdays" {
                            label for="f-time" { "Time" }
                            input #f-time name="time" type="text" inputmode="numeric" placeholder="HH:MM" value="09:00" aria-describedby="e-time";
                            p #e-time.field-error {}
                        }
                        div.field {
                            label for="f-zone" { "Time zone" }
                            input #f-zone name="zone" type="text" list="zones" aria-describedby="e-zone" autocomplete="off";
                            p #e-zone.field-error {}
                        }
                    }
                    section.preview aria-labelledby="preview-title" {
                        h3 #preview-title { "Next firings" }
                        ol #preview-list aria-live="polite" {}
                        ul #summary.summary aria-label="What will happen" {}
                    }
                    p #e-form.form-error role="alert" {}
                    div.buttons {
                        button #modal-cancel type="button" { "Cancel" }
                        button #modal-submit type="submit" { "Create Task" }
                    }
                }
            }
        }
    }
}
