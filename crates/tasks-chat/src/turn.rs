//! One turn of a conversation (SPEC §7): a message in, actions run, a reply out, and
//! what the conversation remembers written back — all through `tasks-core`'s `ops`.
//!
//! The order of reading a message:
//! 1. `/command` → the slash commands (no model, whatever the kill switch says).
//! 2. Free text while `conversational` is off → refused, pointing at the commands.
//! 3. An answer to the question the conversation asked («вторую», «да») → completes
//!    the action the question held.
//! 4. Otherwise the router: the model (its calls then pass the ambiguity guard), or the
//!    offline parser when there is no model, or when the model is down and the
//!    offline parser understands the phrase.
//!
//! A dry run stops before anything is written: no action runs and the conversation
//! remembers nothing of it.

use tasks_core::ops::Context;
use tasks_core::ops::conversation::{self, ConversationRef, TurnRecord};
use tasks_core::port::Engine;

use crate::answer::{self, Answer};
use crate::calls::{BadCall, Call};
use crate::dispatch::{self, Outcome};
use crate::guard;
use crate::llm::{LlmClient, LlmError};
use crate::offline::{self, Lang, Parsed, Step};
use crate::prompt;
use crate::reply::Voice;
use crate::situation::Situation;
use crate::slash::{self, Slash};
use crate::state::{ConversationState, Pending, Shown, StoredCall, Waits};

/// Who turns free text into calls.
#[derive(Debug, Clone, Copy)]
pub enum Route<'a> {
    /// The offline parser only (`--offline`, or no model configured).
    Offline,
    /// The model, with the offline parser as the fallback when it is down.
    Model(&'a LlmClient),
}

/// One message to answer.
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// The person's message.
    pub text: &'a str,
    /// The bot message the person replied to (`--reply-to`, Telegram's reply).
    pub quoted: Option<&'a str>,
    /// The conversation it belongs to.
    pub conversation: &'a ConversationRef,
    /// Plan only: write nothing.
    pub dry_run: bool,
    /// Whether free text is accepted (`TASKS_CONVERSATIONAL`, `conversational`).
    pub conversational: bool,
    /// Who reads free text.
    pub route: Route<'a>,
    /// A button press: the nonce of the question it was shown with (`text` holds the
    /// choice: a number, `yes`, `no`).
    pub button: Option<u64>,
}

/// What read the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A slash command.
    Slash,
    /// An answer to the conversation's question.
    Answer,
    /// The offline parser.
    Offline,
    /// The model (through the guard).
    Model,
    /// The offline parser, because the model could not be reached.
    OfflineFallback,
}

impl Source {
    /// Returns the name in `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Slash => "slash",
            Source::Answer => "answer",
            Source::Offline => "offline",
            Source::Model => "model",
            Source::OfflineFallback => "offline_fallback",
        }
    }
}

/// What a turn did.
#[derive(Debug, Clone)]
pub struct TurnOutput {
    /// The calls planned, in order (a question is a `clarify` call).
    pub calls: Vec<Call>,
    /// What each ran (empty on a dry run).
    pub outcomes: Vec<Outcome>,
    /// The reply.
    pub reply: String,
    /// What read the message.
    pub source: Source,
    /// Why the model was not used, when the offline parser stood in.
    pub model_error: Option<LlmError>,
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// Buttons to show under the reply (the open question's answers), in rows.
    pub buttons: Vec<Vec<Button>>,
}

/// A button under a reply: its label and the data a press sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    /// What it says.
    pub label: String,
    /// What a press sends: `p:<nonce>:<answer>` for a question, `a:<job>:y|n` for an
    /// approval.
    pub data: String,
}

/// Returns the buttons of a conversation's open question.
pub fn buttons_of(state: &ConversationState, lang: Lang) -> Vec<Vec<Button>> {
    let Some(p) = &state.pending else { return Vec::new() };
    let button = |label: String, answer: &str| Button { label, data: format!("p:{}:{answer}", p.nonce) };
    match p.waits {
        Waits::Choice if p.options.len() > 1 => p
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let title: String = o.title.chars().take(40).collect();
                vec![button(format!("{}. {} {}", i + 1, o.key, tasks_text::printable(&title)), &(i + 1).to_string())]
            })
            .collect(),
        Waits::Choice => match lang {
            Lang::Ru => vec![vec![button("Да".into(), "1"), button("Нет".into(), "no")]],
            Lang::En => vec![vec![button("Yes".into(), "1"), button("No".into(), "no")]],
        },
        Waits::CreateAnyway => match lang {
            Lang::Ru => vec![vec![button("Создать".into(), "yes"), button("Не надо".into(), "no")]],
            Lang::En => vec![vec![button("Create it".into(), "yes"), button("No".into(), "no")]],
        },
    }
}

/// Returns the Approve / Reject buttons of a prompt Job waiting for approval.
pub fn approval_buttons(job_id: i64, lang: Lang) -> Vec<Vec<Button>> {
    let (yes, no) = match lang {
        Lang::Ru => ("Разрешить", "Отклонить"),
        Lang::En => ("Approve", "Reject"),
    };
    vec![vec![
        Button { label: yes.into(), data: format!("a:{job_id}:y") },
        Button { label: no.into(), data: format!("a:{job_id}:n") },
    ]]
}

/// Why a turn could not be answered. Nothing of the turn was written.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// Free text while the conversation is switched off.
    #[error(
        "free text is switched off (TASKS_CONVERSATIONAL=off or conversational = false); slash commands still work"
    )]
    Off,
    /// The model could not be used and the offline parser could not stand in.
    #[error("can't reach the model — try again or use /commands ({0})")]
    Model(LlmError),
    /// The model answered with a call that cannot run.
    #[error("didn't understand the model's answer: {0}; nothing was changed")]
    BadCall(BadCall),
    /// The model answered with no call and no text.
    #[error("didn't understand the model's answer: it made no tool call; nothing was changed")]
    NoCall,
    /// A slash command that cannot be read: its usage.
    #[error("{0}")]
    Usage(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] tasks_core::Error),
}

impl ChatError {
    /// Returns the error's code string (SPEC §9).
    pub fn code(&self) -> &'static str {
        match self {
            ChatError::Off => "configuration",
            ChatError::Model(e) => match e {
                LlmError::Timeout(_) => "timeout",
                LlmError::Network(_) => "network",
                LlmError::Authentication(_) => "authentication",
                LlmError::RateLimited => "rate_limited",
                LlmError::Provider(_) => "provider_error",
                LlmError::Unavailable(_) => "provider_unavailable",
                LlmError::InvalidResponse(_) => "invalid_response",
            },
            ChatError::BadCall(_) | ChatError::NoCall => "invalid_response",
            ChatError::Usage(_) => "validation",
            ChatError::Store(e) => tasks_core::wire::error_code(e),
        }
    }

    /// Returns what the person can do about it.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            ChatError::Off => Some("hint: /help lists the commands; unset TASKS_CONVERSATIONAL to talk freely again"),
            ChatError::Model(LlmError::Authentication(_)) => {
                Some("hint: check TASKS_LLM_API_KEY (or [llm] api_key); --offline uses the offline parser")
            }
            ChatError::Model(_) => Some("hint: --offline uses the offline parser; /today, /done, /del N need no model"),
            ChatError::BadCall(_) | ChatError::NoCall => Some("hint: say it differently, or use /commands"),
            _ => None,
        }
    }
}

/// Whether a model error means "down" (the offline parser may stand in) rather than
/// "misconfigured" (the person must hear about it).
fn model_is_down(e: &LlmError) -> bool {
    matches!(e, LlmError::Timeout(_) | LlmError::Network(_) | LlmError::Unavailable(_) | LlmError::RateLimited)
}

/// What to do, before anything runs.
struct Plan {
    steps: Vec<Step>,
    source: Source,
    /// Create even when the duplicate check holds the task back (a "yes").
    force_new: bool,
    /// Text said besides the outcomes (help, a dropped question).
    said: Option<String>,
    model_error: Option<LlmError>,
    /// `/undo`: revert the actor's last change.
    undo: bool,
    /// `/approve N` (true) or `/reject N` (false).
    approval: Option<(i64, bool)>,
}

impl Plan {
    fn of(steps: Vec<Step>, source: Source) -> Plan {
        Plan { steps, source, force_new: false, said: None, model_error: None, undo: false, approval: None }
    }

    fn say(text: String, source: Source) -> Plan {
        Plan { said: Some(text), ..Plan::of(Vec::new(), source) }
    }
}

/// Keeps a finished turn in its conversation: the message, the reply, what it remembers.
fn record(
    store: &mut dyn Engine,
    ctx: &Context,
    turn: &Turn<'_>,
    reply: &str,
    state: &ConversationState,
) -> Result<(), ChatError> {
    let record = TurnRecord { user_text: turn.text, reply, state: &state.to_text() };
    conversation::record_turn(store, ctx, turn.conversation, &record)?;
    Ok(())
}

/// Ends a turn that ran one action beside the plan (a pressed button, `/undo`): records
/// it in the conversation (unless a dry run) and shapes the output.
#[allow(clippy::too_many_arguments)]
fn answered(
    store: &mut dyn Engine,
    ctx: &Context,
    turn: &Turn<'_>,
    state: &mut ConversationState,
    lang: Lang,
    calls: Vec<Call>,
    outcome: Outcome,
    reply: String,
    source: Source,
) -> Result<TurnOutput, ChatError> {
    if !turn.dry_run {
        state.lang = Some(lang);
        record(store, ctx, turn, &reply, state)?;
    }
    Ok(TurnOutput {
        calls,
        outcomes: vec![outcome],
        reply,
        source,
        model_error: None,
        dry_run: turn.dry_run,
        buttons: Vec::new(),
    })
}

/// Answers one message.
pub fn run(store: &mut dyn Engine, ctx: &Context, turn: &Turn<'_>) -> Result<TurnOutput, ChatError> {
    let mut state = ConversationState::read(conversation::state(store, turn.conversation)?.as_deref());
    let lang = lang_of(turn.text, state.lang);
    let voice = Voice { lang, today: ctx.today(), zone: ctx.zone.clone(), now_ms: ctx.now_ms() };
    let text = turn.text.trim();
    let plan = plan(store, ctx, turn, text, &state, &voice)?;
    let calls: Vec<Call> = plan.steps.iter().map(planned_call).collect();
    if let Some((job, yes)) = plan.approval {
        let said = if turn.dry_run {
            voice.would_approve(job, yes)
        } else if yes {
            match crate::approval::approve(store, ctx, job) {
                Ok(done) => voice.approved(job, &done.reply),
                Err(e) => format!("🤷 {}", tasks_text::printable(&e.to_string())),
            }
        } else {
            match crate::approval::reject(store, ctx, job) {
                Ok(_) => voice.rejected(job),
                Err(e) => format!("🤷 {}", tasks_text::printable(&e.to_string())),
            }
        };
        let outcome = Outcome::Said(said.clone());
        return answered(store, ctx, turn, &mut state, lang, calls, outcome, said, plan.source);
    }
    if plan.undo {
        let outcome = dispatch::undo(store, ctx, turn.dry_run)?;
        let reply = voice.outcome(&outcome);
        if !turn.dry_run {
            state.pending = None;
        }
        return answered(store, ctx, turn, &mut state, lang, calls, outcome, reply, plan.source);
    }
    if turn.dry_run {
        let reply = preview(&plan, &calls, &voice);
        return Ok(TurnOutput {
            calls,
            outcomes: Vec::new(),
            reply,
            source: plan.source,
            model_error: plan.model_error,
            dry_run: true,
            buttons: Vec::new(),
        });
    }
    let projects = Situation::project_list(store)?;
    let mut outcomes = Vec::new();
    for step in &plan.steps {
        outcomes.push(match step {
            Step::Run(call) => dispatch::run(store, ctx, call, &projects, plan.force_new)?,
            Step::Ask(q) => Outcome::Asked(q.clone()),
        });
    }
    remember(&mut state, &plan, &outcomes, lang);
    let mut lines: Vec<String> = Vec::new();
    if let Some(e) = &plan.model_error {
        lines.push(voice.offline_note(&e.to_string()));
    }
    lines.extend(plan.said.clone());
    lines.extend(outcomes.iter().map(|o| voice.outcome(o)));
    let reply = lines.join("\n");
    record(store, ctx, turn, &reply, &state)?;
    let buttons = buttons_of(&state, lang);
    Ok(TurnOutput {
        calls,
        outcomes,
        reply,
        source: plan.source,
        model_error: plan.model_error,
        dry_run: false,
        buttons,
    })
}

/// Decides what a message asks, without writing anything.
fn plan(
    store: &dyn Engine,
    ctx: &Context,
    turn: &Turn<'_>,
    text: &str,
    state: &ConversationState,
    voice: &Voice,
) -> Result<Plan, ChatError> {
    let today = ctx.today();
    // A button answers the question it was shown with, once; any other press is stale.
    if let Some(nonce) = turn.button {
        let Some(pending) = state.pending.as_ref().filter(|p| p.nonce == nonce) else {
            return Ok(Plan::say(voice.stale_button(), Source::Answer));
        };
        return Ok(match answer::read(text, pending) {
            Some(Answer::No) | None => Plan::say(voice.dropped(), Source::Answer),
            Some(Answer::Yes) => match pending.action.as_ref().and_then(StoredCall::call) {
                Some(call) => Plan { force_new: true, ..Plan::of(vec![Step::Run(call)], Source::Answer) },
                None => Plan::say(voice.dropped(), Source::Answer),
            },
            Some(Answer::Choose(keys)) => match pending.action.as_ref().and_then(StoredCall::call) {
                Some(call) => Plan::of(keys.iter().map(|k| Step::Run(call.retarget(k))).collect(), Source::Answer),
                None => Plan::say(voice.dropped(), Source::Answer),
            },
        });
    }
    if text.starts_with('/') {
        return match slash::parse(text, &state.shown_keys(), today, voice.lang) {
            Slash::Run(call) => Ok(Plan::of(vec![Step::Run(call)], Source::Slash)),
            Slash::Help => Ok(Plan::say(slash::help(voice.lang), Source::Slash)),
            Slash::Undo => Ok(Plan { undo: true, ..Plan::of(Vec::new(), Source::Slash) }),
            Slash::Queue | Slash::CancelItem(_) | Slash::Now(_) => Ok(Plan::say(
                queue_command(store, turn.conversation, &slash_of(text, state, today, voice))?,
                Source::Slash,
            )),
            Slash::Approve(job) => Ok(Plan { approval: Some((job, true)), ..Plan::of(Vec::new(), Source::Slash) }),
            Slash::Reject(job) => Ok(Plan { approval: Some((job, false)), ..Plan::of(Vec::new(), Source::Slash) }),
            Slash::Usage(u) => Err(ChatError::Usage(u)),
        };
    }
    if !turn.conversational {
        return Err(ChatError::Off);
    }
    if let Some(pending) = &state.pending {
        match answer::read(text, pending) {
            Some(Answer::No) => return Ok(Plan::say(voice.dropped(), Source::Answer)),
            Some(Answer::Yes) => {
                if let Some(call) = pending.action.as_ref().and_then(StoredCall::call) {
                    return Ok(Plan { force_new: true, ..Plan::of(vec![Step::Run(call)], Source::Answer) });
                }
            }
            Some(Answer::Choose(keys)) => {
                if let Some(call) = pending.action.as_ref().and_then(StoredCall::call) {
                    let steps = keys.iter().map(|k| Step::Run(call.retarget(k))).collect();
                    return Ok(Plan::of(steps, Source::Answer));
                }
            }
            None => {}
        }
    }
    // The question asked, when the person answers it without quoting it.
    let quoted = turn.quoted.or(state.pending.as_ref().map(|p| p.question.as_str()));
    let shown = state.shown_keys();
    let mut situation = Situation::gather(store, ctx, text, quoted, &shown)?;
    // A reply to a numbered list: its positions are that list's lines (the bot's own
    // list by the keys it wrote, a quoted one by exact titles), not the last one shown.
    let shown = match turn.quoted.and_then(|q| crate::quoted::listed(q, &situation.candidates)) {
        Some(listed) => {
            let keys: Vec<String> = listed
                .iter()
                .flat_map(|k| k.split(crate::quoted::ALTERNATIVES))
                .filter(|k| !k.is_empty())
                .map(str::to_string)
                .collect();
            situation.add_keys(store, &keys)?;
            listed
        }
        None => shown,
    };
    let names = situation.project_names();
    let offline = |situation: &Situation| {
        offline::parse_reading(
            text,
            &offline::Situation { tasks: &situation.candidates, today, shown: &shown, projects: &names },
        )
    };
    let client = match turn.route {
        Route::Offline => {
            let (parsed, read) = offline(&situation);
            let mut plan = offline_plan(parsed, Source::Offline, voice);
            plan.said = voice.read_as(&read);
            return Ok(plan);
        }
        Route::Model(client) => client,
    };
    let lines = situation.task_lines();
    let messages = prompt::messages(&prompt::Context {
        today,
        projects: &situation.projects,
        tasks: &lines,
        shown: &shown,
        quoted,
        text,
    });
    let reply = match client.complete(&messages, &prompt::tools()) {
        Ok(reply) => reply,
        Err(e) if model_is_down(&e) => {
            return match offline(&situation).0 {
                Parsed::Steps(steps) => Ok(Plan { model_error: Some(e), ..Plan::of(steps, Source::OfflineFallback) }),
                Parsed::NotUnderstood(_) => Err(ChatError::Model(e)),
            };
        }
        Err(e) => return Err(ChatError::Model(e)),
    };
    let mut calls = reply
        .tool_calls
        .iter()
        .map(|c| Call::from_tool(&c.name, &c.arguments))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ChatError::BadCall)?;
    if calls.is_empty() {
        // Prose instead of a call: said as a refusal, never acted on.
        calls.push(Call::Reject { reason: reply.content.ok_or(ChatError::NoCall)? });
    }
    // A target the model named that was not among the candidates is judged too.
    let targets: Vec<String> = calls.iter().filter_map(|c| c.target().map(str::to_string)).collect();
    situation.add_keys(store, &targets)?;
    let steps = guard::check(text, quoted, calls, &situation.candidates, &shown, today);
    Ok(Plan::of(steps, Source::Model))
}

fn slash_of(text: &str, state: &ConversationState, today: jiff::civil::Date, voice: &Voice) -> Slash {
    slash::parse(text, &state.shown_keys(), today, voice.lang)
}

/// Answers `/queue`, `/cancel N`, `/now N` in `tasks chat`: it shows the conversation's
/// queue and names the command that removes or promotes an item (the bot acts on them
/// at once, before queueing; `tasks chat` answers directly and has no queue of its own).
fn queue_command(store: &dyn Engine, conversation: &ConversationRef, slash: &Slash) -> Result<String, ChatError> {
    use tasks_core::ops::schedule::queue;
    let Some(id) = conversation::find(store, conversation)? else { return Ok("The queue is empty.".into()) };
    let items = queue::list(store, Some(id))?;
    let describe = |i: &tasks_core::ops::schedule::QueueItem| {
        format!("#{} {} {}: {}", i.id, i.state, i.kind, tasks_text::printable(&i.payload.summary()))
    };
    Ok(match slash {
        Slash::Queue if items.is_empty() => "The queue is empty.".into(),
        Slash::Queue => items.iter().map(describe).collect::<Vec<_>>().join("\n"),
        Slash::CancelItem(n) | Slash::Now(n) if !items.iter().any(|i| i.id == *n) => {
            format!("There is no item #{n} in this conversation's queue (/queue shows them).")
        }
        Slash::CancelItem(n) => format!("#{n}: tasks schedule queue --remove {n} removes it."),
        Slash::Now(n) => format!("#{n}: tasks schedule queue --promote {n} puts it next."),
        _ => String::new(),
    })
}

fn offline_plan(parsed: Parsed, source: Source, voice: &Voice) -> Plan {
    match parsed {
        Parsed::Steps(steps) => Plan::of(steps, source),
        Parsed::NotUnderstood(why) => {
            Plan::of(vec![Step::Run(Call::Reject { reason: voice.not_understood(why) })], source)
        }
    }
}

/// Returns a step as the call it plans: a question is a `clarify`.
fn planned_call(step: &Step) -> Call {
    match step {
        Step::Run(call) => call.clone(),
        Step::Ask(q) => Call::Clarify {
            question: q.question.clone(),
            options: q
                .options
                .iter()
                .map(|(k, t)| if k.is_empty() { t.clone() } else { format!("{k}: {t}") })
                .collect(),
        },
    }
}

/// Returns the reply of a dry run: what would be done.
fn preview(plan: &Plan, calls: &[Call], voice: &Voice) -> String {
    let mut lines = vec![match voice.lang {
        Lang::Ru => "Пробный прогон — ничего не изменено. План:".to_string(),
        Lang::En => "Dry run — nothing changed. The plan:".to_string(),
    }];
    if let Some(e) = &plan.model_error {
        lines.push(voice.offline_note(&e.to_string()));
    }
    lines.extend(plan.said.clone());
    for (step, call) in plan.steps.iter().zip(calls) {
        lines.push(match step {
            Step::Ask(q) => voice.question(q),
            Step::Run(Call::Reject { reason }) => format!("🤷 {}", tasks_text::printable(reason)),
            Step::Run(_) => format!("• {} {}", call.tool(), tasks_text::printable(&call.arguments().to_string())),
        });
    }
    lines.join("\n")
}

/// Updates what the conversation remembers after the outcomes.
fn remember(state: &mut ConversationState, plan: &Plan, outcomes: &[Outcome], lang: Lang) {
    state.lang = Some(lang);
    state.pending = None;
    for (step, outcome) in plan.steps.iter().zip(outcomes) {
        match outcome {
            Outcome::Listed { tasks, .. } | Outcome::Deferred(tasks) if !tasks.is_empty() => {
                state.shown = tasks.iter().map(|t| Shown { key: t.key.clone(), title: t.title.clone() }).collect();
            }
            Outcome::Asked(q) if state.pending.is_none() => {
                let options: Vec<Shown> = q
                    .options
                    .iter()
                    .filter(|(k, _)| !k.is_empty())
                    .map(|(k, t)| Shown { key: k.clone(), title: t.clone() })
                    .collect();
                if !options.is_empty() {
                    state.shown = options.clone();
                }
                state.asked += 1;
                state.pending = Some(Pending {
                    question: q.question.clone(),
                    options,
                    action: q.action.as_ref().map(StoredCall::of),
                    waits: Waits::Choice,
                    nonce: state.asked,
                });
            }
            Outcome::HeldBack { candidates, .. } if state.pending.is_none() => {
                if let Step::Run(call) = step {
                    state.asked += 1;
                    state.pending = Some(Pending {
                        question: "create anyway?".to_string(),
                        options: candidates
                            .iter()
                            .map(|c| Shown { key: c.key.clone(), title: c.title.clone() })
                            .collect(),
                        action: Some(StoredCall::of(call)),
                        waits: Waits::CreateAnyway,
                        nonce: state.asked,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Returns the language to answer in: the message's when it has words, else the
/// conversation's (a slash command, a bare number).
pub fn lang_of(text: &str, previous: Option<Lang>) -> Lang {
    if Lang::of(text) == Lang::Ru {
        return Lang::Ru;
    }
    let words = text
        .trim()
        .strip_prefix('/')
        .map(|rest| rest.split_once(char::is_whitespace).map(|(_, r)| r).unwrap_or(""))
        .unwrap_or(text);
    let has_words = words
        .split_whitespace()
        .filter(|w| crate::situation::keys_written(w).is_empty())
        .any(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2);
    if has_words { Lang::En } else { previous.unwrap_or(Lang::En) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_follows_the_words_else_the_conversation() {
        assert_eq!(lang_of("сделала вторую", None), Lang::Ru);
        assert_eq!(lang_of("done the second", Some(Lang::Ru)), Lang::En);
        assert_eq!(lang_of("/today", Some(Lang::Ru)), Lang::Ru);
        assert_eq!(lang_of("/today", None), Lang::En);
        assert_eq!(lang_of("2", Some(Lang::Ru)), Lang::Ru);
        assert_eq!(lang_of("HOME-3", Some(Lang::Ru)), Lang::Ru);
        assert_eq!(lang_of("/text 1 Fix the tap", Some(Lang::Ru)), Lang::En);
    }
}
