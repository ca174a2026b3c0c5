//! Answers to a question the conversation asked: «вторую», "the first and the third",
//! `2`, a key among the options, «да» / "yes" to create a task the duplicate check held
//! back, «нет» / "never mind" to drop the question. A message that is more than an
//! answer («удали вторую», "move the first to Friday") is not read here: it goes the
//! normal way, with the question's options as the list shown.

use crate::phrase::{self, Phrase};
use crate::state::{Pending, Waits};

/// Words an answer may carry besides the positions.
const ANSWER_FILLER: &[&str] = &[
    "the",
    "one",
    "ones",
    "number",
    "no",
    "please",
    "and",
    "both",
    "task",
    "that",
    "this",
    "ok",
    "okay",
    "i",
    "mean",
    "it",
    "is",
    "its",
    "номер",
    "ту",
    "эту",
    "которая",
    "которую",
    "и",
    "обе",
    "оба",
    "задачу",
    "задача",
    "давай",
    "пожалуйста",
    "вот",
    "это",
    "я",
    "имею",
    "виду",
    "имела",
    "имел",
    "в",
    "конечно",
    "ну",
];

/// "Yes" to creating anyway.
const YES: &[&str] = &[
    "yes",
    "y",
    "yep",
    "yeah",
    "sure",
    "create",
    "new",
    "anyway",
    "да",
    "ага",
    "конечно",
    "создай",
    "создать",
    "новую",
    "всё",
    "все",
    "равно",
    "давай",
    "ок",
    "ok",
    "okay",
    "please",
    "it",
    "пожалуйста",
    "a",
    "one",
    "task",
    "задачу",
];

/// "No" to any question.
const NO: &[&str] = &[
    "no",
    "nope",
    "cancel",
    "never",
    "mind",
    "nothing",
    "forget",
    "it",
    "нет",
    "не",
    "надо",
    "отмена",
    "неважно",
    "забудь",
    "ничего",
    "нужно",
];

/// What a message answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// These options (keys), in the order named.
    Choose(Vec<String>),
    /// Yes: create the held-back task anyway.
    Yes,
    /// No: drop the question.
    No,
}

/// Reads a message as the answer to `pending`; `None` when it is not just an answer.
pub fn read(text: &str, pending: &Pending) -> Option<Answer> {
    let p = Phrase::new(text);
    let tokens = p.token_texts();
    if tokens.is_empty() {
        return None;
    }
    if tokens.iter().all(|t| NO.contains(t))
        && tokens.iter().any(|t| {
            matches!(
                *t,
                "no" | "nope"
                    | "нет"
                    | "не"
                    | "отмена"
                    | "cancel"
                    | "неважно"
                    | "забудь"
                    | "forget"
                    | "never"
                    | "nothing"
                    | "ничего"
            )
        })
    {
        return Some(Answer::No);
    }
    match pending.waits {
        Waits::CreateAnyway => (tokens.iter().all(|t| YES.contains(t))
            && tokens.iter().any(|t| !matches!(*t, "it" | "please" | "пожалуйста" | "a" | "one" | "task" | "задачу")))
        .then_some(Answer::Yes),
        Waits::Choice => {
            let keys: Vec<String> = pending.options.iter().map(|o| o.key.clone()).collect();
            let written: Vec<(String, usize)> = phrase::keys_in(&p);
            // Positions are read with the keys taken out (`work-7` is no seventh option).
            let key_tokens: Vec<usize> =
                (0..p.tokens.len()).filter(|i| written.iter().any(|(_, w)| p.tokens[*i].word == *w)).collect();
            let rest = Phrase::new(&p.text_without(&key_tokens));
            let (positions, used) = phrase::positions(&rest, true);
            let rest_is_filler =
                rest.token_texts().iter().enumerate().all(|(i, t)| used.contains(&i) || ANSWER_FILLER.contains(t));
            if !rest_is_filler {
                return None;
            }
            let mut chosen = Vec::new();
            for n in positions {
                let key = if n == 0 { keys.last() } else { keys.get(n - 1) };
                chosen.push(key?.clone());
            }
            for (k, _) in written {
                if !keys.contains(&k) {
                    return None;
                }
                if !chosen.contains(&k) {
                    chosen.push(k);
                }
            }
            if tokens.iter().any(|t| matches!(*t, "both" | "обе" | "оба")) && chosen.is_empty() && keys.len() == 2
            {
                chosen = keys;
            }
            (!chosen.is_empty()).then_some(Answer::Choose(chosen))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Shown;

    fn pending(waits: Waits) -> Pending {
        Pending {
            question: "?".into(),
            options: ["HOME-1", "HOME-2", "WORK-7"]
                .iter()
                .map(|k| Shown { key: k.to_string(), title: String::new() })
                .collect(),
            action: None,
            waits,
            nonce: 1,
        }
    }

    #[track_caller]
    fn choose(text: &str) -> Option<Answer> {
        read(text, &pending(Waits::Choice))
    }

    #[test]
    fn positions_keys_and_refusals() {
        let keys = |ks: &[&str]| Some(Answer::Choose(ks.iter().map(|k| k.to_string()).collect()));
        assert_eq!(choose("вторую"), keys(&["HOME-2"]));
        assert_eq!(choose("2"), keys(&["HOME-2"]));
        assert_eq!(choose("the first and the third"), keys(&["HOME-1", "WORK-7"]));
        assert_eq!(choose("первую и третью"), keys(&["HOME-1", "WORK-7"]));
        assert_eq!(choose("work-7"), keys(&["WORK-7"]));
        assert_eq!(choose("последнюю"), keys(&["WORK-7"]));
        assert_eq!(choose("нет"), Some(Answer::No));
        assert_eq!(choose("never mind"), Some(Answer::No));
        assert_eq!(choose("4"), None, "no fourth option");
        assert_eq!(choose("HOME-9"), None, "not an option");
        assert_eq!(choose("удали вторую"), None, "more than an answer");
        assert_eq!(choose("купить хлеб"), None);
    }

    #[test]
    fn yes_to_a_held_back_task() {
        let p = pending(Waits::CreateAnyway);
        assert_eq!(read("да", &p), Some(Answer::Yes));
        assert_eq!(read("yes, create it", &p), Some(Answer::Yes));
        assert_eq!(read("создай новую", &p), Some(Answer::Yes));
        assert_eq!(read("нет", &p), Some(Answer::No));
        assert_eq!(read("купить хлеб", &p), None);
        assert_eq!(read("please", &p), None);
    }
}
