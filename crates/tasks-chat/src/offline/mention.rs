//! The words of a message that name a task, split into objects and verbs.

use super::*;

/// Returns the words of a message that name a task — objects and verbs — leaving out
/// command words, filler, the date phrase and list positions (the guard reads a model's
/// target against these).
pub fn mention_of(p: &Phrase, today: Date) -> (Vec<String>, Vec<String>) {
    let tokens = p.token_texts();
    let date = phrase::find_date(p, today);
    let (_, position_tokens) = phrase::positions(p, false);
    mention_skipping(&tokens, date, &position_tokens)
}

pub(super) fn mention_skipping(
    tokens: &[&str],
    date: Option<DateSpan>,
    positions: &[usize],
) -> (Vec<String>, Vec<String>) {
    let mut skip: Vec<usize> = positions.to_vec();
    skip.extend(ticked_off(tokens).into_iter().flatten());
    if let Some(d) = date {
        skip.extend(d.start..d.end);
    }
    // "mark the yoga as done", «отметь химчистку сделанной»: the first word is the
    // command's, not the task's.
    if tokens.first().is_some_and(|t| MARK_WORDS.contains(t)) {
        skip.push(0);
        // "mark … as cancelled": the state marked, not a verb of the task.
        skip.extend((1..tokens.len()).filter(|i| matches!(tokens[*i], "cancelled" | "canceled")));
    }
    let (objects, mut verbs) = mention(tokens, &skip);
    // «посудомойку надо сделать до среды»: with a date, the light verb of doing says when
    // it is to be done, not which task («Сделать дубликат ключа» keeps its object).
    if date.is_some() {
        verbs.retain(|v| !matches!(v.as_str(), "сделать" | "сделай"));
    }
    let objects: Vec<String> = objects
        .into_iter()
        .flat_map(|o| expand_abbreviation(&o))
        .filter(|o| !FILLER.contains(&o.as_str()) && !CREATE_FILLER.contains(&o.as_str()))
        .collect();
    // «день рождения» is one word, "birthday": its «день» names nothing of its own.
    let objects = (0..objects.len())
        .filter(|i| !objects.get(i + 1).is_some_and(|next| matching::is_day_before_its_name(&objects[*i], next)))
        .map(|i| objects[i].clone())
        .collect();
    (objects, verbs)
}

/// Moves to the objects a "verb" that is a word of a title past its verb and no title's
/// verb: «медали» ends like a past plural («сделали») and is the medals of «Заказать
/// медали для турнира».
pub(super) fn nouns_that_look_like_verbs(
    mut objects: Vec<String>,
    verbs: Vec<String>,
    tasks: &[Candidate],
) -> (Vec<String>, Vec<String>) {
    let mut kept = Vec::new();
    for v in verbs {
        let word = matching::words(&v);
        let Some(w) = word.first() else {
            kept.push(v);
            continue;
        };
        let strong = |t: &matching::Word| matching::fit_of(w, t) == Some(matching::Strength::Strong);
        let an_object = tasks.iter().any(|t| t.after_verb().iter().any(strong));
        let a_verb = tasks.iter().any(|t| starts_with_verb(t, w));
        // ("ahmed done": an English "past" that is a name in a title is the name.)
        let cyrillic = v.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
        if (!a_verb && an_object && cyrillic) || (v.is_ascii() && a_name_not_a_verb(&v, tasks)) {
            objects.push(v);
        } else {
            kept.push(v);
        }
    }
    (objects, kept)
}

/// Returns the tokens of a reason given after the command, in a clause of its own that
/// starts with a pronoun ("remove the suture kits order, we got them locally", «удали
/// заказ ваты, мы купили сами»): why, not which task.
pub(super) fn reason_clause(p: &Phrase) -> Vec<usize> {
    let commands = |w: &str| {
        let t = tasks_text::normalize(w);
        CANCEL_WORDS.contains(&t.as_str()) || MOVE_WORDS.contains(&t.as_str()) || DONE_WORDS.contains(&t.as_str())
    };
    // The first word of each clause after the first: a word after one ending in , ; or —.
    let ends_clause = |w: &str| w.ends_with(',') || w.ends_with(';') || w.ends_with('.') || w == "—" || w == "-";
    let Some(command_at) = p.words.iter().position(|w| commands(w)) else { return Vec::new() };
    let start = (command_at + 1..p.words.len()).find(|i| {
        ends_clause(&p.words[i - 1])
            && matches!(
                tasks_text::normalize(&p.words[*i]).as_str(),
                "we" | "i" | "they" | "мы" | "я" | "они" | "it" | "уже" | "already"
            )
    });
    match start {
        Some(start) => (0..p.tokens.len()).filter(|t| p.tokens[*t].word >= start).collect(),
        None => Vec::new(),
    }
}

/// Splits the words that name the task into objects and verbs, leaving out command
/// words and the tokens at `skip` (a date, list positions).
pub(super) fn mention(tokens: &[&str], skip: &[usize]) -> (Vec<String>, Vec<String>) {
    let mut objects = Vec::new();
    let mut verbs = Vec::new();
    // "water bill is paid", "the slides are done": what stands before the verb "to be"
    // is the subject, a noun, whatever it could be read as.
    let subject_end = tokens.iter().position(|t| matches!(*t, "is" | "are" | "was" | "were")).unwrap_or(0);
    let mut joined_with_previous = false;
    let mut skip_next = 0;
    for (i, t) in tokens.iter().enumerate() {
        if std::mem::take(&mut joined_with_previous) {
            continue;
        }
        if skip_next > 0 {
            skip_next -= 1;
            continue;
        }
        // "wrap up the otter reply": one verb of finishing in two words.
        if *t == "wrap" && tokens.get(i + 1) == Some(&"up") && !skip.contains(&i) {
            verbs.push("wrap".to_string());
            skip_next = 1;
            continue;
        }
        // "make sure the clay order is done": what to be sure of follows.
        if *t == "make" && tokens.get(i + 1) == Some(&"sure") {
            skip_next = 1;
            continue;
        }
        // "mother-in-law" (the hyphens split off): one word the lexicon knows.
        if t.is_ascii() && tokens.get(i + 1) == Some(&"in") && tokens.get(i + 2) == Some(&"law") {
            let joined = format!("{t}inlaw");
            if !tasks_text::concepts_of(&joined).is_empty() {
                objects.push(joined);
                skip_next = 2;
                continue;
            }
        }
        // "dry cleaning", "light bulbs", "chess board": English writes as two words what
        // the lexicon knows as one («химчистка», «лампочка»).
        let next = tokens.get(i + 1).filter(|n| n.is_ascii() && t.is_ascii() && !skip.contains(&(i + 1)));
        if let Some(n) = next.filter(|n| !skip.contains(&i) && matching::compound_of(t, n).is_some()) {
            // Written apart still: the matcher joins it, and keeps its parts for a title
            // that writes them apart ("Wash the car").
            // ("x ray": a one-letter part would be dropped as no word, so it is joined.)
            objects.push(if t.chars().count() == 1 { format!("{t}{n}") } else { format!("{t} {n}") });
            joined_with_previous = true;
            continue;
        }
        // "water bill paid", "book club done": a plain verb first, before a noun, in a
        // report is the noun's modifier, not what was done.
        let reported_after = tokens.iter().skip(i + 2).any(|n| n.is_ascii() && (is_past(n) || DONE_WORDS.contains(n)));
        let modifier = i == 0
            && tokens.get(1).is_some_and(|n| n.is_ascii() && !is_task_verb(n) && !is_past(n) && !FILLER.contains(n))
            && reported_after;
        if (i < subject_end || modifier) && !skip.contains(&i) && t.is_ascii() && (is_task_verb(t) || is_past(t)) {
            objects.push(t.to_string());
            continue;
        }
        let after_verb = i > 0 && (is_past(tokens[i - 1]) || is_task_verb(tokens[i - 1]));
        // "picked up the parcel", "pick up the suit": one verb in two words, the one the
        // lexicon knows as «забрать».
        // "gave sergey his drill back": a giving back is a return; after another verb
        // "back" is the verb's particle ("called … back").
        if *t == "back" {
            let given = |v: &String| matches!(v.as_str(), "gave" | "give" | "given" | "brought" | "handed" | "hand");
            // "the drill goes back in 3 days": going back is a return too.
            let goes = i > 0 && matches!(tokens[i - 1], "goes" | "go" | "went" | "going");
            if goes || verbs.iter().any(given) {
                verbs.retain(|v| !given(v));
                verbs.push("returned".to_string());
                continue;
            }
            if !verbs.is_empty() {
                continue;
            }
        }
        // "barsik's": the possessive's "s" is no word; nor are "won't"'s two halves.
        let contraction = |w: &str| CONTRACTED.contains(&w);
        if (*t == "s" && i > 0)
            || (*t == "t" && i > 0 && contraction(tokens[i - 1]))
            || (contraction(t) && tokens.get(i + 1) == Some(&"t"))
        {
            continue;
        }
        // "taken care of", "took care of mom": one verb, a report of done — "care" names
        // no task.
        if *t == "care" && i > 0 && matches!(tokens[i - 1], "took" | "taken") {
            if tokens.get(i + 1) == Some(&"of") {
                skip_next = 1;
            }
            continue;
        }
        if *t == "up" && after_verb && tokens[i - 1].starts_with("pick") {
            verbs.retain(|v: &String| v != tokens[i - 1]);
            verbs.push("pickup".to_string());
            continue;
        }
        // "signed katya up", "sign up for the course": «записать», «записаться».
        if *t == "up" && verbs.iter().any(|v| v.starts_with("sign")) {
            verbs.retain(|v| !v.starts_with("sign"));
            verbs.push("signup".to_string());
            continue;
        }
        // "tied up the tomatoes", "tomatoes tied up": any other verb's particle.
        if *t == "up" && (after_verb || verbs.last().is_some_and(|v: &String| v == tokens[i - 1])) {
            continue;
        }
        // "the water bill", "my review": after an article or a possessive, a word that can
        // be a verb is a noun.
        // "self review", "mom call": after a noun, an English verb form is a noun too.
        let after_noun = i > 0
            && objects.last().is_some_and(|o: &String| o == tokens[i - 1] && o.is_ascii() && o.len() >= 3)
            && !CONTRACTED.contains(&tokens[i - 1]);
        let command = CANCEL_WORDS.contains(t) || MOVE_WORDS.contains(t) || DONE_WORDS.contains(t);
        let noun_like = (in_noun_phrase(tokens, i) || after_noun) && !command;
        if noun_like && !skip.contains(&i) && is_task_verb(t) && !is_past(t) && t.is_ascii() {
            objects.push(t.to_string());
            continue;
        }
        // «насчёт дедлайна» is the task's topic; "the duty schedule" a noun.
        let topic_word =
            (is_deadline_word(t) && is_topic(tokens, i)) || (!is_deadline_word(t) && in_noun_phrase(tokens, i));
        let taken_off = matches!(*t, "сними" | "снять") && tokens.get(i + 1).is_some_and(|n| n.starts_with("задач"));
        if skip.contains(&i)
            || taken_off
            || CANCEL_WORDS.contains(t)
            || MOVE_WORDS.contains(t)
            || (WEAK_MOVE_WORDS.contains(t) && !topic_word)
            || DONE_WORDS.contains(t)
            || matches!(
                *t,
                "не" | "надо"
                    | "нужно"
                    | "нужна"
                    | "нужен"
                    | "больше"
                    | "актуально"
                    | "never"
                    | "mind"
                    | "no"
                    | "longer"
                    | "needed"
                    | "not"
            )
        {
            continue;
        }
        // «столик не бронирую, отмени»: a present verb after «не» is the activity not
        // done: a verb, no object («струны не покупаю» is «Купить струны»).
        let present_after_ne = i > 0
            && tokens[i - 1] == "не"
            && !t.is_ascii()
            && [
                "ую", "юю", "аю", "яю", "ею", "ишу", "ожу", "ажу", "ем", "ешь", "ет", "им", "ит", "ут", "ют", "ат",
                "ят",
            ]
            .iter()
            .any(|e| t.ends_with(e));
        if present_after_ne {
            verbs.push(t.to_string());
            continue;
        }
        // A participle («оплачен») says done, as a done word does; its stem is often not
        // the title verb's («оплач» / «оплат»), so it is no verb to match.
        if is_done_participle(t) && !is_task_verb(t) {
            continue;
        }
        // «кати» is Катя's name before it is «катить»'s imperative.
        let a_name = !tasks_text::names::name_groups(t).is_empty() && !is_past(t);
        // "the sensor is clean now", "the ladder is back": a state word after "to be".
        if i > 0 && matches!(tokens[i - 1], "is" | "are") && STATE_WORDS.contains(t) {
            continue;
        }
        // "not buying the webcam", "won't be calling": a gerund after a negation or "be"
        // is the activity, a verb.
        let gerund = t.is_ascii()
            && t.len() >= 5
            && t.ends_with("ing")
            && i > 0
            && matches!(tokens[i - 1], "not" | "t" | "be" | "am" | "are" | "were" | "was" | "is" | "dont" | "wont");
        if (is_past(t) || is_task_verb(t) || gerund) && !a_name {
            verbs.push(t.to_string());
        } else {
            objects.push(t.to_string());
        }
    }
    (objects, verbs)
}

/// Returns true when token `i` stands in an English noun phrase: after an article or a
/// possessive, before any preposition ("the water bill", "the hoffmann call").
pub(super) fn in_noun_phrase(tokens: &[&str], i: usize) -> bool {
    let mut k = i;
    while k > 0 && i - k < NOUN_PHRASE_MAX_WORDS {
        k -= 1;
        if ARTICLES.contains(&tokens[k]) {
            return true;
        }
        if NOUN_PHRASE_ENDS.contains(&tokens[k]) || !tokens[k].is_ascii() {
            return false;
        }
    }
    false
}

/// Most words after an article read as one noun phrase ("the new water bill").
pub(super) const NOUN_PHRASE_MAX_WORDS: usize = 3;

/// Words that end an English noun phrase.
pub(super) const NOUN_PHRASE_ENDS: &[&str] =
    &["to", "for", "at", "on", "in", "by", "with", "about", "from", "of", "and", "or", "is", "are", "was", "were"];

/// English words after which a word is a noun ("the water bill", "my review").
pub(super) const ARTICLES: &[&str] = &["the", "a", "an", "my", "our", "your", "his", "her", "their"];

/// Returns true when a word that reads like a verb is a name in an open task's title,
/// past its verb, and no task's verb: «энел» is "Enel" of «Оплатить Enel за свет»,
/// "ahmed" is Ahmed; «выставила» stays the verb of «Выставить счёт Мареку».
pub(super) fn a_name_not_a_verb(word: &str, tasks: &[Candidate]) -> bool {
    matching::words(word).first().is_some_and(|w| {
        let strong = |t: &matching::Word| matching::fit_of(w, t) == Some(matching::Strength::Strong);
        tasks.iter().any(|t| t.after_verb().iter().any(|tw| tw.name && strong(tw)))
            && !tasks.iter().any(|t| title_verbs(t).any(|v| same_verb(w, v)))
    })
}

/// Returns true when a word fits a name in an open task's title («кармен» / "Carmen").
pub(super) fn names_in_a_title(word: &str, tasks: &[Candidate]) -> bool {
    matching::words(word)
        .first()
        .is_some_and(|w| tasks.iter().any(|t| t.after_verb().iter().any(|tw| tw.name && matching::fits(w, tw))))
}
