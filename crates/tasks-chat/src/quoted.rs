//! A reply to a list (seed 001: "the reply is the context"). When a person answers a
//! numbered list — the bot's own `/today`, or a list they quote that the bot never
//! recorded — «сделала первую и третью» means the first and third lines of *that*
//! list, whatever the conversation showed since.
//!
//! A line names its task by the key written in it (the bot's lists carry keys), else by
//! being exactly an open task's title. A line that is the title of several open tasks
//! names all of them, and the parser asks which (see [`ALTERNATIVES`]). The guard reads
//! a quote more loosely, every key in it ([`keys`]).

use crate::matching::Candidate;
use crate::phrase::{Phrase, keys_in};

/// Joins the keys of a line that names several open tasks, in a list position: the
/// parser asks which one is meant instead of acting.
pub const ALTERNATIVES: char = '|';

/// Returns what each numbered line of a quoted message names, by its number (position
/// 1 first): a key, several keys joined by [`ALTERNATIVES`], or an empty string for a
/// line that names no open task. `None` when the quote has no numbered line.
pub fn listed(quoted: &str, tasks: &[Candidate]) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for line in quoted.lines() {
        let Some((n, rest)) = numbered(line) else { continue };
        if n == 0 || n > 99 {
            continue;
        }
        if out.len() < n {
            out.resize(n, String::new());
        }
        out[n - 1] = named(rest, tasks);
    }
    (!out.is_empty()).then_some(out)
}

/// Returns the task keys a quoted message names, in order, each once (the guard's
/// reading: any key anywhere in the quote, numbered or not).
pub fn keys(quoted: &str) -> Vec<String> {
    keys_in(&Phrase::new(quoted)).into_iter().map(|(k, _)| k).fold(Vec::new(), |mut acc, k| {
        if !acc.contains(&k) {
            acc.push(k);
        }
        acc
    })
}

/// Splits `3. text` or `3) text` into the number and the text.
fn numbered(line: &str) -> Option<(usize, &str)> {
    let line = line.trim_start();
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = line.get(digits..)?;
    let rest = rest.strip_prefix('.').or_else(|| rest.strip_prefix(')'))?;
    Some((line[..digits].parse().ok()?, rest.trim()))
}

/// Returns the key(s) a line names.
fn named(line: &str, tasks: &[Candidate]) -> String {
    if let Some((key, _)) = keys_in(&Phrase::new(line)).into_iter().next() {
        return key;
    }
    let title = tasks_text::normalize(line.trim_matches(|c: char| matches!(c, '«' | '»' | '"' | '\'' | ' ')));
    let keys: Vec<&str> =
        tasks.iter().filter(|t| tasks_text::normalize(&t.title) == title).map(|t| t.key.as_str()).collect();
    keys.join(&ALTERNATIVES.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks() -> Vec<Candidate> {
        [
            ("HOME-1", "Купить затирку"),
            ("HOME-2", "Позвонить Ане"),
            ("HOME-3", "Позвонить Ане"),
            ("W-1", "Send the deck"),
        ]
        .iter()
        .map(|(k, t)| Candidate::new(k, t))
        .collect()
    }

    #[test]
    fn a_line_names_its_key_an_exact_title_or_several_tasks() {
        let own = "📅 На сегодня (2):\n1. W-1 «Send the deck» — Inbox, today\n2. HOME-1 «Купить затирку» — HOME";
        assert_eq!(listed(own, &tasks()), Some(vec!["W-1".into(), "HOME-1".into()]));
        let theirs = "мой список:\n1) купить затирку\n2. Позвонить Ане\n3. что-то ещё";
        assert_eq!(listed(theirs, &tasks()), Some(vec!["HOME-1".into(), "HOME-2|HOME-3".into(), String::new()]));
        assert_eq!(listed("no list here", &tasks()), None);
    }
}
