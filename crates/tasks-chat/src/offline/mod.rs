//! The offline parser (issue 11): the common phrases of a task list in Russian and
//! English — done, cancel, move to a date, add (with a date), show today / inbox /
//! overdue / done — read without a model. Used with `--offline`, when no model is
//! configured, and as the fallback when the model cannot be reached.
//!
//! A pure function of (text, open tasks, today, the last list shown, projects). It
//! picks a target only when the words fit one task clearly (`matching`); words that
//! fit several become a question; words that fit none, or a sentence it does not
//! recognise, are "not understood" — never a guess.
//!
//! How a message is read, in this order: a task key in it (`done HRB-3`) names the
//! target; a leading "add / добавь / напомни" makes a task of the rest; a question about
//! today, the inbox, overdue or done tasks shows that list; "move everything from today
//! to tomorrow" defers; a cancel word, a move word (with a date), a done word or a verb
//! in the past tense («купила», "reviewed") acts on the task the other words name; a
//! message that starts with an infinitive or a plain task verb («купить хлеб завтра»,
//! "buy printer paper tomorrow") is a new task.
//!
//! Where each step lives: `words` holds the word lists, `typo_reading` what may be read
//! as a typo, `intent` which action and which kind of change the words ask, `mention`
//! the words that name a task, `target` which task they name, `morphology` verb forms,
//! `create` new tasks and project lead-ins, `list` the lists; this module keeps the
//! order of the steps (`parse_phrase`) and the types the rest of the crate sees.

use jiff::civil::Date;

use std::collections::BTreeSet;

use crate::calls::{Call, Deadline, DeadlineKind, ListView, Period};
use crate::matching::{self, Candidate, Resolution};
use crate::phrase::{self, DateSpan, Phrase};
pub use crate::typos::Correction;

mod create;
mod intent;
mod list;
mod mention;
mod morphology;
mod target;
#[cfg(test)]
mod tests;
mod typo_reading;
mod words;

use create::*;
use intent::*;
use list::*;
use mention::*;
use morphology::*;
use target::*;
use typo_reading::*;
use words::*;

pub use intent::{Kind, kind_asked};
pub use mention::mention_of;
pub use target::target;

/// A project a new task may be filed into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectName {
    /// Its key.
    pub key: String,
    /// Its name.
    pub name: String,
    /// Its description: a lead-in may name the project by one of its words («для
    /// школы:» for a project about the children's school).
    pub description: String,
}

/// What the parser reads a message against.
#[derive(Debug, Clone, Copy)]
pub struct Situation<'a> {
    /// The open tasks.
    pub tasks: &'a [Candidate],
    /// Today in the person's zone.
    pub today: Date,
    /// The keys of the last numbered list shown, in order.
    pub shown: &'a [String],
    /// The projects.
    pub projects: &'a [ProjectName],
}

/// A question for the person, and the action their answer completes.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The question.
    pub question: String,
    /// The tasks to choose from: (key, title).
    pub options: Vec<(String, String)>,
    /// The action to run on the chosen task(s), aimed at the first option until then.
    pub action: Option<Call>,
}

/// One step of what a message asks.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Run this.
    Run(Call),
    /// Ask this first.
    Ask(Question),
}

/// What the parser understood.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    /// These steps.
    Steps(Vec<Step>),
    /// Nothing it can act on; the reason, for the reply.
    NotUnderstood(NotUnderstood),
}

/// Why a message was not understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotUnderstood {
    /// No phrase it knows.
    UnknownPhrase,
    /// A task action whose words fit no open task.
    NoTaskFits,
    /// A task key that is not an open task.
    UnknownKey,
    /// A move without a date.
    NoDate,
    /// Something for many tasks at once ("delete everything").
    Batch,
    /// A statement that something was not done («ещё не позвонила», "haven't paid").
    Negated,
    /// A question ("did I call Dima?"): asked, not ordered.
    Question,
}

/// The language a reply is written in: the message's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Russian (the message has Cyrillic letters).
    Ru,
    /// English.
    En,
}

impl Lang {
    /// Returns the language of a message: Russian when it has a Cyrillic letter.
    pub fn of(text: &str) -> Lang {
        if text.chars().any(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё')) { Lang::Ru } else { Lang::En }
    }
}

/// Which action a message asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Intent {
    Done,
    Cancel,
    Move,
}

/// Reads a message.
pub fn parse(text: &str, s: &Situation<'_>) -> Parsed {
    parse_reading(text, s).0
}

/// Reads a message, with the words it read as another (a typo of a command, date or
/// position word: «завтро» read as «завтра»), so the reply can say so.
pub fn parse_reading(text: &str, s: &Situation<'_>) -> (Parsed, Vec<Correction>) {
    let mut p = Phrase::new(text);
    let corrections = read_typos(&mut p, s);
    (parse_phrase(text, &p, s), corrections)
}

/// Returns the task keys a message writes out, leaving out a word shaped like a key that
/// is a word of an open task's title and no task's key: the form "I-130" of «Заполнить
/// форму I-130 для мамы» is the form, not a task of a project "I".
fn keys_named(p: &Phrase, s: &Situation<'_>) -> Vec<(String, usize)> {
    let in_a_title = |key: &str| {
        s.tasks.iter().any(|t| {
            t.title
                .split(|c: char| c.is_whitespace())
                .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).eq_ignore_ascii_case(key))
        })
    };
    let mut keys: Vec<(String, usize)> = phrase::keys_in(p)
        .into_iter()
        .filter(|(key, _)| s.tasks.iter().any(|t| &t.key == key) || !in_a_title(key))
        .collect();
    // ("fam 7 готово": a key written with a space, when it is an open task's.)
    if keys.is_empty() {
        for (i, pair) in p.words.windows(2).enumerate() {
            let written = format!("{}-{}", pair[0].to_uppercase(), pair[1]);
            if pair[1].chars().all(|c| c.is_ascii_digit()) && s.tasks.iter().any(|t| t.key == written) {
                keys.push((written, i));
            }
        }
    }
    keys
}

/// Returns the tokens of a date and the word after it when an open task's title has
/// the two in a row: "saturday shift" of "Swap Saturday shift with Tanya" names the
/// task, it sets no deadline.
fn words_of_a_title_at(tokens: &[&str], d: DateSpan, tasks: &[Candidate]) -> Option<std::ops::Range<usize>> {
    let (last, next) = (tokens.get(d.end.checked_sub(1)?)?, tokens.get(d.end)?);
    a_title_has_in_a_row(tasks, &[last, next]).then_some(d.start..d.end + 1)
}

/// Returns true when the tokens of a date are a number and a word at least, written in a
/// row in an open task's title: "8 марта" of «Купить маме подарок к 8 марта».
fn a_date_written_in_a_title(tokens: &[&str], d: DateSpan, tasks: &[Candidate]) -> bool {
    let Some(span) = tokens.get(d.start..d.end) else { return false };
    let has_a_number = span.iter().any(|t| t.chars().any(|c| c.is_ascii_digit()));
    let has_a_word = span.iter().any(|t| t.chars().any(char::is_alphabetic));
    has_a_number && has_a_word && a_title_has_in_a_row(tasks, span)
}

/// Returns true when an open task's normalized title has these tokens in a row.
fn a_title_has_in_a_row(tasks: &[Candidate], row: &[&str]) -> bool {
    tasks.iter().any(|t| {
        let title = tasks_text::normalize(&t.title);
        let words: Vec<&str> = title.split(' ').collect();
        words.windows(row.len()).any(|w| w == row)
    })
}

fn parse_phrase(text: &str, p: &Phrase, s: &Situation<'_>) -> Parsed {
    let p = p.clone();
    let tokens = p.token_texts();
    if tokens.is_empty() {
        return Parsed::NotUnderstood(NotUnderstood::UnknownPhrase);
    }
    let lang = Lang::of(text);
    let date = phrase::find_date(&p, s.today);
    // "swapped the saturday shift with tanya": a date followed by the word that follows
    // it in an open task's title ("Swap Saturday shift with Tanya") is the title's words,
    // no date — nor is that word an order ("shift" is no move there).
    let titles_words = date.and_then(|d| words_of_a_title_at(&tokens, d, s.tasks));
    // «маме подарок к 8 марта купила» for «Купить маме подарок к 8 марта»: a day and a
    // month written in an open task's title are its words (a holiday), unless a move
    // word orders the date.
    // (Its words then name the task as the title's other words do; its number is no list
    // position.)
    let written_in_a_title = date.filter(|d| {
        titles_words.is_none()
            && !tokens.iter().any(|t| MOVE_WORDS.contains(t))
            && a_date_written_in_a_title(&tokens, *d, s.tasks)
    });
    let titles_words = titles_words.or(written_in_a_title.map(|d| d.start..d.end));
    let date = date.filter(|_| titles_words.is_none());
    let as_a_date = date.or(written_in_a_title);
    // Whether the message says an open task again, verb and all, with a date: asked by
    // up to four rules below, and a whole resolution over the candidates, so read once
    // and only when asked.
    let restated_once = std::cell::OnceCell::new();
    let restated = || *restated_once.get_or_init(|| restated_with_a_date(&tokens, date, s));
    // "need to email hughes the clips by friday", «надо записать соню до пятницы»: a need
    // with a date that says an open task again is its deadline — a move — not a new task.
    let need = matches!(tokens.first(), Some(&("need" | "надо" | "нужно"))) || tokens.starts_with(&["i", "need"]);
    if let Some(create) = create_after_lead(&p, s).filter(|_| !(need && restated())) {
        return create;
    }
    if let Some(create) = create_after_project_lead(&p, s, &restated) {
        return create;
    }
    // «в пятницу опять дождь обещают», "so windy today": the weather, talked about, is
    // no task (a weather word an open task has is its thing: "snow tyres to friday").
    // (A weather word beside a task's key is the key's project: "snow 8 to next week".)
    if weather_talk(&tokens, s.tasks) && keys_named(&p, s).is_empty() {
        return Parsed::NotUnderstood(NotUnderstood::UnknownPhrase);
    }
    if is_defer_today(&tokens) {
        return Parsed::Steps(vec![Step::Run(Call::DeferTodayToTomorrow)]);
    }
    // «закрой всё что на сегодня» asks for many tasks closed, not for the list.
    if is_batch(&tokens) {
        return Parsed::NotUnderstood(NotUnderstood::Batch);
    }
    if let Some(view) = list_view(&tokens) {
        return Parsed::Steps(vec![Step::Run(view)]);
    }
    let arrow = text.contains("->") || text.contains('→') || text.contains("=>");
    // «йогу на завтра», "the dentist to friday": a task's words and a date, no verb, is a
    // move of that task.
    // «не успела, давай в понедельник», "didn't get to it, friday then": not managed,
    // and a date after — a move. ("won't go to yoga tomorrow" names the day it is not
    // done, so only a miss said before the date counts.)
    // (A date today is the day of the miss, "didn't get to the blood test today".)
    let missed_then_date = date.is_some_and(|d| {
        d.due.date > s.today
            && (1..d.start).any(|i| {
                (tokens[i - 1] == "не"
                    && matches!(
                        tokens[i],
                        "успела" | "успел" | "успели" | "успеваю" | "успеваем" | "получилось" | "вышло"
                    ))
                    || (matches!(tokens[i - 1], "didn" | "didnt") && matches!(tokens[i], "get" | "manage"))
                    || (matches!(tokens[i - 1], "t") && matches!(tokens[i], "get" | "manage"))
                    || (tokens[i - 1] == "no" && tokens[i] == "time")
            })
    });
    // "haven't finished the report, move it to monday": a move word of its own wins over
    // the negated activity, as a cancel word does.
    // "RUN-5 next week", «INBOX-3 на 3 октября»: a key and a date is a move of that task.
    let keyed_date = date.is_some() && !keys_named(&p, s).is_empty();
    // «энел оплачу завтра»: «энел» ends like a short past («ел») and is "Enel" of a
    // title — a name, no report.
    // «не удаляй прививку, перенеси на пятницу», "dont remove the lab dips approval i
    // approved them already": a cancel said not to be done leaves the order beside it —
    // a move or a report — and says no "not done" of the task.
    let kept = negated_cancel_words(&tokens);
    let unnegated: Vec<&str> =
        tokens.iter().enumerate().map(|(i, t)| if kept.contains(&i) { "·" } else { *t }).collect();
    let intent_tokens: Vec<&str> = unnegated
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let titles = titles_words.as_ref().is_some_and(|r| r.contains(&i));
            if titles || (is_past(t) && a_name_not_a_verb(t, s.tasks)) { "·" } else { *t }
        })
        .collect();
    // «баллоны сдам в четверг», «кариму заплачу на следующей неделе», "ill pay ahmed on
    // monday": a future of an open task's verb, with a date, is when — a deadline.
    // (A cancel word said beside it is the order: «сдавать не буду, удали».)
    let future_may_be_when = date.is_some() && !tokens.iter().any(|t| CANCEL_WORDS.contains(t));
    let futures: Vec<(String, String)> = if future_may_be_when {
        tokens
            .iter()
            .filter_map(|t| {
                infinitives_of_future(t)
                    .into_iter()
                    .find(|inf| s.tasks.iter().any(|task| task.first == *inf))
                    .map(|inf| (t.to_string(), inf))
            })
            .collect()
    } else {
        Vec::new()
    };
    let english_future =
        tokens.windows(2).any(|w| matches!(w[0], "ll" | "ill" | "will" | "gonna") && is_task_verb(w[1]));
    let intent = if future_may_be_when && (!futures.is_empty() || english_future) {
        Some(Intent::Move)
    } else {
        intent_of(&intent_tokens, date, arrow, s.today)
    };
    let intent = intent.or_else(|| {
        (keyed_date || missed_then_date || bare_date_move(&intent_tokens, date, s) || restated())
            .then_some(Intent::Move)
    });
    let Some(mut intent) = intent else {
        if !kept.is_empty() {
            return Parsed::NotUnderstood(NotUnderstood::Negated);
        }
        return implicit_create(&p, s, date).unwrap_or(Parsed::NotUnderstood(NotUnderstood::UnknownPhrase));
    };
    // «отменила подписку» when the task is «Отменить подписку…»: the cancel word in the
    // past is the task's own verb done — a report of completion, not a cancel.
    let cancel_was_the_verb = intent == Intent::Cancel && cancel_is_the_tasks_verb(&tokens, s.tasks);
    if cancel_was_the_verb {
        intent = Intent::Done;
    }
    // "move the spotify cancel to next month", "spotify cancel needs to be done next
    // week": a cancel word that is a word of the title the rest names, beside a date and
    // a move word or a need, is the task's name — the order is the move.
    // (So is a done word beside them: "spotify cancel needs to be done by friday".)
    if (intent == Intent::Cancel || cancel_was_the_verb)
        && date.is_some()
        && tokens.iter().any(|t| MOVE_WORDS.contains(t) || OBLIGATION_WORDS.contains(t))
        && cancel_is_a_titles_word(&tokens, s.tasks)
    {
        intent = Intent::Move;
    }
    let weak_move = intent == Intent::Move && !arrow && !tokens.iter().any(|t| MOVE_WORDS.contains(t));
    // "haven't paid yet", «так и не дозвонилась»: the words name a task, but say it was
    // not done. And a question («диме позвонила?») asks, it does not order. A cancel
    // word of its own wins over a negated activity («на йогу не пойду, убери», "won't
    // write it, drop it") — unless the cancel word itself is negated («не удаляй»).
    let cancel_stands = intent == Intent::Cancel && kept.is_empty();
    let move_stands = tokens.iter().any(|t| MOVE_WORDS.contains(t)) && date.is_some();
    let negated = is_negated(&unnegated);
    if negated && !cancel_stands && (missed_then_date || move_stands) && intent != Intent::Cancel {
        intent = Intent::Move;
    } else if negated && !cancel_stands && !fault_gone(&tokens) {
        return Parsed::NotUnderstood(NotUnderstood::Negated);
    }
    // "is the hall rent paid", "did I call mom": English asks by its first word too.
    // ("were not doing it" is "we're" without its apostrophe).
    let were_not = tokens.first() == Some(&"were") && tokens.get(1) == Some(&"not");
    // ("have the jack back by thursday" orders: "have" before an article.)
    // ("have olya's mugs packed by sunday" too: "have" before anything but a person
    // asked.)
    let have_it_done = matches!(tokens.first(), Some(&("have" | "has")))
        && tokens.get(1).is_some_and(|t| {
            ARTICLES.contains(t)
                || (date.is_some() && !matches!(*t, "you" | "u" | "i" | "we" | "they" | "he" | "she" | "it"))
        });
    // ("did the lyova thing", "did lyubas thing" report: "did" before an article or a
    // name, not before a pronoun that asks.)
    // ("did the clocks change already" asks: a verb as it is, then "already" or "yet".)
    let asks_already = tokens.len() >= 4
        && matches!(tokens.last(), Some(&("already" | "yet")))
        && tokens[tokens.len() - 2].is_ascii()
        && is_task_verb(tokens[tokens.len() - 2])
        && !is_past(tokens[tokens.len() - 2]);
    let did_it = tokens.first() == Some(&"did")
        && !asks_already
        && tokens.get(1).is_some_and(|t| ARTICLES.contains(t) || names_in_a_title(t, s.tasks));
    let asks = !were_not
        && !have_it_done
        && !did_it
        && matches!(tokens.first(), Some(&("is" | "are" | "was" | "were" | "did" | "do" | "does" | "have" | "has")));
    // "if it rains move the long run", «если будет дождь, перенеси»: a condition is not
    // met yet; nothing is done on it.
    if matches!(tokens.first(), Some(&("if" | "если" | "unless"))) {
        return Parsed::NotUnderstood(NotUnderstood::Question);
    }
    // «какой сегодня курс юаня», "why is it raining": a question word first asks, with
    // or without its mark ("what" and «что» lead lists: "what's today").
    let question_word = matches!(
        tokens.first(),
        Some(
            &("какой"
                | "какая"
                | "какое"
                | "какие"
                | "сколько"
                | "почему"
                | "зачем"
                | "где"
                | "кто"
                | "how"
                | "why"
                | "where"
                | "who"
                | "which")
        )
    );
    // («во сколько сегодня переводят часы»: "at what time", though «во вторник» leads a
    // move.)
    // («что посмотреть на выходных», "what to cook tonight": what to do, asked.)
    let what_to_do = (matches!(tokens.first(), Some(&("что" | "чего")))
        && tokens.get(1).is_some_and(|t| !t.is_ascii() && is_task_verb(t)))
        || tokens.starts_with(&["what", "to"]);
    let question_word = question_word || tokens.starts_with(&["во", "сколько"]) || what_to_do;
    if text.contains('?') || asks || question_word {
        return Parsed::NotUnderstood(NotUnderstood::Question);
    }
    // "asked the tutor to extend the quiz deadline": with no date and no move word, a
    // past verb and a deadline word that a task's title has too is a report of that task.
    // («тренировку с жуаном перенесла» for «Перенести тренировку с Жуаном»: the move
    // was the task.)
    if intent == Intent::Move
        && date.is_none()
        && (deadline_of_a_title(&tokens, s.tasks) || moved_is_the_tasks_verb(&tokens, s.tasks))
    {
        intent = Intent::Done;
    }
    if intent == Intent::Move && date.is_none() {
        return Parsed::NotUnderstood(NotUnderstood::NoDate);
    }
    let action = |key: &str| match intent {
        Intent::Done => Call::CloseTask { id: key.to_string() },
        Intent::Cancel => Call::CancelTask { id: key.to_string() },
        Intent::Move => {
            Call::UpdateTask { id: key.to_string(), text: None, project: None, deadline: date.map(deadline_of) }
        }
    };
    // A key written out names the task.
    let keys = keys_named(&p, s);
    if !keys.is_empty() {
        let mut steps = Vec::new();
        for (key, _) in &keys {
            if !s.tasks.iter().any(|t| &t.key == key) {
                return Parsed::NotUnderstood(NotUnderstood::UnknownKey);
            }
            steps.push(Step::Run(action(key)));
        }
        return Parsed::Steps(steps);
    }
    // Positions in the last list shown.
    // A number of the date phrase ("for march 20"), or of a date a title writes ("к 8
    // марта"), is no list position.
    let mut undated = p.clone();
    if let Some(d) = as_a_date {
        for t in &mut undated.tokens[d.start..d.end] {
            t.text.clear();
        }
    }
    let (positions, position_tokens) = phrase::positions(&undated, !s.shown.is_empty());
    if !positions.is_empty() && !s.shown.is_empty() {
        let mut steps = Vec::new();
        for n in positions {
            let key = if n == 0 { s.shown.last() } else { s.shown.get(n - 1) };
            match key {
                // A quoted line that is the title of several open tasks: ask which.
                Some(k) if k.contains(crate::quoted::ALTERNATIVES) => {
                    let options: Vec<(String, String)> = k
                        .split(crate::quoted::ALTERNATIVES)
                        .map(|k| {
                            let title = s.tasks.iter().find(|t| t.key == k).map(|t| t.title.clone());
                            (k.to_string(), title.unwrap_or_default())
                        })
                        .collect();
                    let first = options[0].0.clone();
                    steps.push(Step::Ask(Question {
                        question: which_task(lang),
                        options,
                        action: Some(action(&first)),
                    }));
                }
                Some(k) if !k.is_empty() => steps.push(Step::Run(action(k))),
                _ => return Parsed::NotUnderstood(NotUnderstood::NoTaskFits),
            }
        }
        return Parsed::Steps(steps);
    }
    if is_batch(&tokens) {
        return Parsed::NotUnderstood(NotUnderstood::Batch);
    }
    let mut skipped = position_tokens.clone();
    skipped.extend(reason_clause(&p));
    // ("the flaky test is green now": the state reached names no task.)
    // («лампочки уже дома»: home is where they are now, not the task's home.)
    if intent == Intent::Done {
        skipped.extend(state_reached(&tokens).into_iter().flatten());
        // (A place that is a title's verb stays: "the w-2s are in the mail" for "Mail the
        // W-2s".)
        let a_titles_verb =
            |t: &str| matching::words(t).first().is_some_and(|w| s.tasks.iter().any(|c| starts_with_verb(c, w)));
        skipped.extend(where_it_is_now(&tokens).into_iter().flatten().filter(|i| !a_titles_verb(tokens[*i])));
        skipped.extend((1..tokens.len()).filter(|i| tokens[*i] == "дома" && tokens[i - 1] == "уже"));
    }
    // "car: filter replaced", «дом: фильтр поменял»: a project named first scopes the
    // report to its tasks.
    // (A lead-in that, with the rest, says an open task again with a date scopes
    // nothing: «стоматолог: записаться надо через неделю».)
    let lead_in = project_lead(&p, s).filter(|_| !restated());
    let from_a_lead_in = lead_in.is_some();
    let scope = lead_in.or_else(|| {
        // «в семье иссык-куль готово»: «в»/«по» and a project, no colon.
        project_at(&tokens, 0, s.projects).map(|(key, used)| (key, (0..used).collect()))
    });
    let mut without_lead = skipped.clone();
    if let Some((_, lead)) = &scope {
        without_lead.extend(lead.iter().copied());
    }
    // («хоккей — сделала»: with nothing after the lead but the report, the lead is what
    // the report is about. Then a lead before a dash or a colon that names the project
    // only by a word of its description scopes nothing where a task outside the project
    // has all its words: «прививка от гриппа — всё» may be "Get my flu shot", not only
    // the flu-shot clinic the work project's description mentions.)
    let (objects, verbs, scope) = match mention_skipping(&tokens, date, &without_lead) {
        (o, v) if o.is_empty() && v.is_empty() => {
            let (o, v) = mention_skipping(&tokens, date, &skipped);
            // (Its words as said, nouns and what reads like a verb alike: «родители».)
            let lead_words = matching::words(&o.iter().chain(&v).cloned().collect::<Vec<_>>().join(" "));
            let said_elsewhere = |key: &str| {
                s.tasks.iter().any(|t| {
                    !t.in_project(key) && explains_all(&lead_words, t) && !matching::fits_only_broadly(&lead_words, t)
                })
            };
            let scope = scope.filter(|(key, lead)| {
                !from_a_lead_in
                    || lead_words.is_empty()
                    || lead_names_project_by_name(&tokens, lead, key, s)
                    || !said_elsewhere(key)
            });
            (o, v, scope)
        }
        (o, v) => (o, v, scope),
    };
    // «баллоны сдам в четверг»: a future of a title's verb is that verb.
    let (objects, verbs) = if futures.is_empty() {
        (objects, verbs)
    } else {
        let objects: Vec<String> = objects.into_iter().filter(|o| !futures.iter().any(|(t, _)| t == o)).collect();
        let mut verbs: Vec<String> = verbs.into_iter().filter(|v| !futures.iter().any(|(t, _)| t == v)).collect();
        verbs.extend(futures.iter().map(|(_, inf)| inf.clone()));
        (objects, verbs)
    };
    // «на прогулку не поеду, удали»: beside a cancel word of its own, the activity not
    // done names the task only where a title has it («продавать не буду» for «Продать
    // доску»); otherwise it is how the person said no, not a word the task lacks.
    let objects: Vec<String> = if intent == Intent::Cancel && cancel_stands {
        let negated: Vec<&str> = negated_activities(&tokens).into_iter().map(|i| tokens[i]).collect();
        let in_a_title = |o: &str| {
            matching::words(o).iter().any(|m| s.tasks.iter().any(|t| t.words.iter().any(|w| matching::fits(m, w))))
        };
        // (A small word the matcher drops stays: it weighs nothing either way.)
        let unexplained = |o: &str| !matching::words(o).is_empty() && !in_a_title(o);
        objects.into_iter().filter(|o| !(negated.contains(&o.as_str()) && unexplained(o))).collect()
    } else {
        objects
    };
    // «кармен готово»: a word that ends like a participle («оплачен») and is a name in a
    // title past its verb («Order red velvet for Carmen») is the name.
    let mut objects = objects;
    objects
        .extend(tokens.iter().filter(|t| is_done_participle(t) && names_in_a_title(t, s.tasks)).map(|t| t.to_string()));
    let objects = spell_out_initials(&objects, s.tasks);
    let objects = read_by_the_lexicon(objects, s.tasks);
    let verbs_as_said = verbs.clone();
    let (objects, mut verbs) = nouns_that_look_like_verbs(objects, verbs, s.tasks);
    // «спотифай отменил» for "Cancel the Spotify family plan": the cancel word, the task's
    // own verb, is evidence as any verb of a title is.
    if cancel_was_the_verb {
        verbs.extend(tokens.iter().filter(|t| CANCEL_WORDS.contains(t)).map(|t| t.to_string()));
    }
    // "not buying ox gall, hikmet gave me some, delete it": beside a cancel word of its
    // own, where nothing fits with them, the words no open task has are the reason given;
    // beside a date, the words no title has are how the finishing was said ("gotta finish
    // sonyas invites by the 10th").
    // (The task is looked for a second time only where some word would be dropped;
    // whether one would stops at the first title each word fits.)
    let reasoned = (intent == Intent::Cancel && cancel_stands) || (intent == Intent::Move && date.is_some());
    let (objects, mut verbs) =
        match reasoned.then(|| without_the_reason(&objects, &verbs, s.tasks, intent == Intent::Move)).flatten() {
            Some(fewer) if matches!(target(&objects, &verbs, s.tasks), Resolution::Nothing) => fewer,
            _ => (objects, verbs),
        };
    // "aya's swimming is paid": a state after "to be" is a verb only where a title about
    // the same things has it («Оплатить Айе плавание»); otherwise it says done and no
    // more ("the cardiologist is booked" when only other tasks are booked).
    let states: Vec<&str> = tokens
        .windows(2)
        .filter(|w| matches!(w[0], "is" | "are" | "was" | "were" | "been" | "be") && w[1].is_ascii() && is_past(w[1]))
        .map(|w| w[1])
        .collect();
    let object_words = matching::words(&objects.join(" "));
    let about_the_objects = |t: &Candidate| object_words.iter().any(|m| t.words.iter().any(|tw| matching::fits(m, tw)));
    let verbs_said = verbs.len();
    verbs.retain(|v| {
        !states.contains(&v.as_str())
            || matching::words(v)
                .first()
                .is_some_and(|w| s.tasks.iter().any(|t| about_the_objects(t) && starts_with_verb(t, w)))
    });
    // "the gym was packed yesterday": a state no title's verb says, kept as a bare "done",
    // with one object word closes only a task whose words it names in full («Renew the
    // gym membership» is asked about, not closed).
    let state_dropped = verbs.len() < verbs_said;
    let named_in_full =
        |t: &Candidate| t.after_verb().iter().all(|w| object_words.iter().any(|m| matching::fits(m, w)));
    let resolved = narrow_by_participle(target(&objects, &verbs, s.tasks), &tokens, s.tasks);
    let resolved = match (&scope, resolved) {
        (Some((key, _)), resolved) => within_project(resolved, key, &objects, &verbs, s.tasks),
        (None, Resolution::Several(ix)) => narrow_by_project_word(ix, &objects, s),
        (None, resolved) => resolved,
    };
    // «продлила свой паспорт» is not «Продлить паспорт Гены»: one's own thing is no task
    // that names someone else.
    // Nor is "booked the dentist for myself" «Записать Давида к стоматологу».
    let own = tokens.iter().any(|t| OWN_WORDS.contains(t));
    // (A name of two letters is a place's or a firm's — "Renew my NY pharmacist
    // license" — and a title that says "my" is one's own.)
    let names_another = |i: usize| {
        !tasks_text::normalize(&s.tasks[i].title).split(' ').any(|w| OWN_WORDS.contains(&w))
            && s.tasks[i]
                .words
                .iter()
                .any(|t| t.name && t.text.chars().count() >= 3 && !object_words.iter().any(|m| matching::fits(m, t)))
    };
    // «купила новую стамеску» is no «Купить новый чайник»: a word that says which of a
    // kind is no evidence of the task alone (beside its noun it tells "a new compass"
    // from "the old compass").
    let only_modifiers = |i: usize| {
        let fitting: Vec<&matching::Word> =
            object_words.iter().filter(|m| s.tasks[i].words.iter().any(|w| matching::fits(m, w))).collect();
        !fitting.is_empty() && fitting.iter().all(|m| MODIFIERS.contains(&m.text.as_str()))
    };
    // «постригла газон» is no «Записаться на стрижку»: where only the act said fits the
    // title (a verb read as its noun), a thing the lexicon knows and the title lacks is
    // what the act was done to.
    let act_on_another_thing = |i: usize| {
        let fits_title =
            |o: &String| matching::words(o).iter().any(|m| s.tasks[i].words.iter().any(|w| matching::fits(m, w)));
        // (A word as written in the title is the title's thing, though it ends like a
        // verb: «профнастил», "ComEd".)
        let as_written =
            |o: &String| matching::words(o).iter().any(|m| s.tasks[i].words.iter().any(|w| matching::literally(m, w)));
        let fitting: Vec<&String> = objects.iter().filter(|o| fits_title(o)).collect();
        !fitting.is_empty()
            && fitting.iter().all(|o| verbs_as_said.contains(o) && !as_written(o))
            && objects.iter().any(|o| {
                !fits_title(o) && matching::words(o).iter().any(|m| !m.concepts.is_empty() && m.names.is_empty())
            })
    };
    // «купить хлеб на лаики в среду» beside «Купить черешню на лаики»: an order that
    // leads with the title's own verb and a date, with no move word, and names a thing
    // the lexicon knows and the title lacks, is a new task (the bread is no cherries).
    let another_thing_to_do = |i: usize| {
        let task = &s.tasks[i];
        let leads_with_its_verb = tokens
            .first()
            .is_some_and(|t| is_task_verb(t) && matching::words(t).first().is_some_and(|w| starts_with_verb(task, w)));
        weak_move
            && leads_with_its_verb
            && object_words.iter().any(|m| {
                !m.concepts.is_empty() && m.names.is_empty() && !task.words.iter().any(|w| matching::fits(m, w))
            })
    };
    let resolved = match resolved {
        Resolution::One(i)
            if (own && names_another(i))
                || only_modifiers(i)
                || act_on_another_thing(i)
                || another_thing_to_do(i)
                || another_complement(&tokens, &objects, &s.tasks[i])
                || another_kind(&tokens, &objects, &s.tasks[i])
                || (intent == Intent::Done
                    && act_and_thing_unsaid(&object_words, &matching::words(&verbs.join(" ")), &s.tasks[i])) =>
        {
            Resolution::Nothing
        }
        other => other,
    };
    // «газ оплачен», «торт заказан»: a participle of the title's own verb is a second
    // word of it, as the verb itself would be.
    let participles: Vec<matching::Word> =
        tokens.iter().filter(|t| is_done_participle(t)).flat_map(|t| matching::words(t)).collect();
    // (Only where no other task has the object's word: «счёт выставлен» may be "Invoice
    // Tidewater", whose verb is the word.)
    let object_elsewhere = |i: usize| (0..s.tasks.len()).any(|j| j != i && about_the_objects(&s.tasks[j]));
    let participle_is_its_verb =
        |i: usize| participles.iter().any(|p| starts_with_verb(&s.tasks[i], p)) && !object_elsewhere(i);
    // What makes thin evidence enough: the title's verb as a participle, the word "task"
    // said, or a name alone for a move or a cancel.
    let thin_but_backed = |i: usize| {
        participle_is_its_verb(i)
            || names_the_task(&tokens)
            || (matches!(intent, Intent::Move | Intent::Cancel) && names_alone(&objects, s.tasks, i))
    };
    match resolved {
        // One word of the message, a small part of the title: ask before acting («налоговая
        // всё» may be about the tax return written in German, which no word here names).
        Resolution::One(i)
            if (thin(&objects, &verbs, &s.tasks[i]) && !thin_but_backed(i))
                || matching::fits_only_broadly(&object_words, &s.tasks[i])
                || (state_dropped && object_words.len() < 2 && !named_in_full(&s.tasks[i]))
                || (intent == Intent::Done
                    && (verb_unexplained(&objects, &verbs, s.tasks, i)
                        || synonym_only(&objects, &verbs, &s.tasks[i]))) =>
        {
            Parsed::Steps(vec![Step::Ask(Question {
                question: match lang {
                    Lang::Ru => "Правильно понимаю, речь об этой задаче?".to_string(),
                    Lang::En => "Do you mean this task?".to_string(),
                },
                options: vec![(s.tasks[i].key.clone(), s.tasks[i].title.clone())],
                action: Some(action(&s.tasks[i].key)),
            })])
        }
        Resolution::One(i) => Parsed::Steps(vec![Step::Run(action(&s.tasks[i].key))]),
        Resolution::Several(ix) => {
            let options: Vec<(String, String)> =
                ix.iter().map(|i| (s.tasks[*i].key.clone(), s.tasks[*i].title.clone())).collect();
            let first = options[0].0.clone();
            Parsed::Steps(vec![Step::Ask(Question {
                question: which_task(lang),
                options,
                action: Some(action(&first)),
            })])
        }
        // "wrap up the quarterly survey next week", "complete the studio inventory by
        // friday": an order to finish, with a date, what no open task is — a new task.
        Resolution::Nothing
            if intent == Intent::Move
                && date.is_some()
                && tokens.first().is_some_and(|t| FINISHING_VERBS.contains(t)) =>
        {
            create(&p, s, Vec::new(), None)
        }
        // "set up the router tomorrow": a weak move word that names no task starts one.
        Resolution::Nothing if weak_move => {
            implicit_create(&p, s, date).unwrap_or(Parsed::NotUnderstood(NotUnderstood::NoTaskFits))
        }
        Resolution::Nothing => Parsed::NotUnderstood(NotUnderstood::NoTaskFits),
    }
}

/// Returns "which task?" in the message's language.
pub fn which_task(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Какую задачу вы имеете в виду?".to_string(),
        Lang::En => "Which task do you mean?".to_string(),
    }
}
