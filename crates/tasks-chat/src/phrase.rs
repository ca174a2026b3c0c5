//! A message split into words the parsers can point at: each original word with its
//! normalized tokens, so a date phrase or a command word found on normalized tokens can
//! be cut out of the person's own spelling («Напомни купить подарок Свете к 1 апреля» →
//! "купить подарок Свете").
//!
//! Also: finding a date phrase inside a message (the longest run of words that reads as
//! a `--due` value), task keys written in it (`HRB-12`), and positions in a numbered
//! list («вторую», "the first and third", `2`).

use jiff::civil::Date;
use tasks_text::{Due, parse_due};

/// One token of the normalized message and the original word it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The normalized token.
    pub text: String,
    /// Index of the original word.
    pub word: usize,
}

/// A message as words and tokens.
#[derive(Debug, Clone)]
pub struct Phrase {
    /// The original words (split on white space), as typed.
    pub words: Vec<String>,
    /// The normalized tokens, in order.
    pub tokens: Vec<Token>,
}

impl Phrase {
    /// Splits a message.
    pub fn new(text: &str) -> Phrase {
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        let mut tokens = Vec::new();
        for (i, w) in words.iter().enumerate() {
            for t in tasks_text::normalize(w).split(' ').filter(|t| !t.is_empty()) {
                tokens.push(Token { text: t.to_string(), word: i });
            }
        }
        Phrase { words, tokens }
    }

    /// Returns the normalized tokens as text.
    pub fn token_texts(&self) -> Vec<&str> {
        self.tokens.iter().map(|t| t.text.as_str()).collect()
    }

    /// Returns the original text of the words not covered by `drop` (token indexes),
    /// trimmed of the punctuation a command leaves around them (`todo: buy milk` →
    /// `buy milk`).
    pub fn text_without(&self, drop: &[usize]) -> String {
        let dropped_words: Vec<usize> = {
            // A word goes when all its tokens go.
            let mut out = Vec::new();
            for w in 0..self.words.len() {
                let tokens: Vec<usize> = (0..self.tokens.len()).filter(|i| self.tokens[*i].word == w).collect();
                if !tokens.is_empty() && tokens.iter().all(|i| drop.contains(i)) {
                    out.push(w);
                }
            }
            out
        };
        let kept: Vec<&str> = self
            .words
            .iter()
            .enumerate()
            .filter(|(i, _)| !dropped_words.contains(i))
            .map(|(_, w)| w.as_str())
            .collect();
        kept.join(" ")
            .trim_matches(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | ';' | '-' | '—' | '.' | '!' | '?'))
            .to_string()
    }
}

/// Words a date phrase may start with that are not part of a task's text.
const DATE_LEADS: &[&str] =
    &["на", "до", "к", "ко", "в", "во", "by", "on", "before", "until", "till", "to", "for", "due"];

/// Longest date phrase tried, in tokens (`в следующую пятницу`, `by the end of the month`).
const DATE_MAX_TOKENS: usize = 6;

/// A date phrase found in a message: its due and its tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateSpan {
    /// The due.
    pub due: Due,
    /// First token.
    pub start: usize,
    /// One past the last token.
    pub end: usize,
}

/// Finds the date phrase of a message: the longest run of tokens that reads whole as a
/// `--due` value, preferring one at the end, then at the start. A lone number is not a
/// date here ("PR 42", "#2"), nor a lone weekday abbreviation that is also a word.
pub fn find_date(phrase: &Phrase, today: Date) -> Option<DateSpan> {
    let tokens = phrase.token_texts();
    let n = tokens.len();
    let mut best: Option<(i32, DateSpan)> = None;
    for len in (1..=DATE_MAX_TOKENS.min(n)).rev() {
        for start in 0..=(n - len) {
            let end = start + len;
            let window = &tokens[start..end];
            // A lead word the date reader does not know ("to mon", "for friday") is
            // skipped; after a lead, a weak word is a date ("to mon").
            let led = DATE_LEADS.contains(&window[0]) && len > 1;
            let body = if led { &window[1..] } else { window };
            if body.len() == 1 && is_weak_date_word(body[0]) && !led {
                continue;
            }
            if led && body.len() == 1 && body[0].chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let Ok(due) = parse_due(&body.join(" "), today) else { continue };
            // A lead word (на, by …) alone before nothing is not a date.
            if window.iter().all(|t| DATE_LEADS.contains(t)) {
                continue;
            }
            let place = if end == n {
                2
            } else if start == 0 {
                1
            } else {
                0
            };
            let rank = (len as i32) * 4 + place;
            if best.is_none_or(|(r, _)| rank > r) {
                best = Some((rank, DateSpan { due, start, end }));
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, span)| span)
}

/// A single token `--due` would read but a message means otherwise.
fn is_weak_date_word(token: &str) -> bool {
    token.chars().all(|c| c.is_ascii_digit())
        || matches!(token, "mon" | "sat" | "sun" | "ср" | "вс" | "среда" | "среды" | "среде" | "domingo" | "a" | "el")
}

/// Returns the task keys written in a message (`HRB-12`, `work-3`), upper-cased, with
/// the indexes of the words they were.
pub fn keys_in(phrase: &Phrase) -> Vec<(String, usize)> {
    phrase
        .words
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            let (letters, digits) = w.split_once('-')?;
            let ok = !letters.is_empty()
                && letters.chars().count() <= 12
                && letters.chars().all(|c| c.is_ascii_alphabetic())
                && !digits.is_empty()
                && digits.chars().all(|c| c.is_ascii_digit());
            ok.then(|| (format!("{}-{digits}", letters.to_ascii_uppercase()), i))
        })
        .collect()
}

/// Returns the 1-based positions a message names in a numbered list, and the token
/// indexes that named them: «вторую», «первую и третью», "the 2nd", "#3", `2`.
/// `bare_numbers` also reads a lone digit as a position (when a list was shown).
pub fn positions(phrase: &Phrase, bare_numbers: bool) -> (Vec<usize>, Vec<usize>) {
    let mut found = Vec::new();
    let mut used = Vec::new();
    for (i, t) in phrase.tokens.iter().enumerate() {
        let n = ordinal(&t.text).or_else(|| {
            let digits = t.text.trim_start_matches('#');
            let word = &phrase.words[t.word];
            let marked = word.starts_with('#') || word.starts_with('№');
            (digits.chars().all(|c| c.is_ascii_digit()) && !digits.is_empty() && (bare_numbers || marked))
                .then(|| digits.parse::<usize>().ok())
                .flatten()
                .filter(|n| (1..=99).contains(n))
        });
        if let Some(n) = n {
            if !found.contains(&n) {
                found.push(n);
            }
            used.push(i);
        }
    }
    (found, used)
}

/// The ordinal words of a list position and the position each names; `0` stands for
/// "the last".
pub const ORDINALS: &[(&str, usize)] = &[
    ("first", 1),
    ("1st", 1),
    ("первую", 1),
    ("первая", 1),
    ("первое", 1),
    ("первый", 1),
    ("первой", 1),
    ("первого", 1),
    ("second", 2),
    ("2nd", 2),
    ("вторую", 2),
    ("вторая", 2),
    ("второе", 2),
    ("второй", 2),
    ("второго", 2),
    ("third", 3),
    ("3rd", 3),
    ("третью", 3),
    ("третья", 3),
    ("третье", 3),
    ("третий", 3),
    ("третьей", 3),
    ("третьего", 3),
    ("fourth", 4),
    ("4th", 4),
    ("четвертую", 4),
    ("четвертая", 4),
    ("четвертое", 4),
    ("четвертый", 4),
    ("четвертой", 4),
    ("fifth", 5),
    ("5th", 5),
    ("пятую", 5),
    ("пятая", 5),
    ("пятое", 5),
    ("пятый", 5),
    ("пятой", 5),
    ("sixth", 6),
    ("6th", 6),
    ("шестую", 6),
    ("шестая", 6),
    ("шестое", 6),
    ("шестой", 6),
    ("seventh", 7),
    ("7th", 7),
    ("седьмую", 7),
    ("седьмая", 7),
    ("седьмое", 7),
    ("седьмой", 7),
    ("last", 0),
    ("последнюю", 0),
    ("последняя", 0),
    ("последнее", 0),
    ("последний", 0),
    ("последней", 0),
];

/// The ordinal words alone (for reading their typos).
pub const ORDINAL_WORDS: [&str; ORDINALS.len()] = {
    let mut out = [""; ORDINALS.len()];
    let mut i = 0;
    while i < ORDINALS.len() {
        out[i] = ORDINALS[i].0;
        i += 1;
    }
    out
};

/// Returns the position an ordinal word names; `0` stands for "the last".
fn ordinal(token: &str) -> Option<usize> {
    ORDINALS.iter().find(|(w, _)| *w == token).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> Date {
        jiff::civil::date(2026, 3, 11)
    }

    #[track_caller]
    fn check_date(text: &str, expected: Option<(&str, &str)>) {
        let p = Phrase::new(text);
        let found = find_date(&p, today());
        match (found, expected) {
            (None, None) => {}
            (Some(span), Some((date, rest))) => {
                assert_eq!(span.due.date.to_string(), date, "{text}");
                let drop: Vec<usize> = (span.start..span.end).collect();
                assert_eq!(p.text_without(&drop), rest, "{text}");
            }
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn date_phrases_inside_messages() {
        check_date("купить хлеб завтра", Some(("2026-03-12", "купить хлеб")));
        check_date("добавь позвонить бабушке в пятницу", Some(("2026-03-13", "добавь позвонить бабушке")));
        check_date("Напомни купить подарок Свете к 1 апреля", Some(("2026-04-01", "Напомни купить подарок Свете")));
        check_date("через неделю продлить подписку на музыку", Some(("2026-03-18", "продлить подписку на музыку")));
        check_date("add renew domain by the end of the month", Some(("2026-03-31", "add renew domain")));
        check_date("tomorrow: submit expense claim", Some(("2026-03-12", "submit expense claim")));
        check_date("review PR 42", None);
        check_date("перенеси рубрику вопросов на следующую пятницу", Some(("2026-03-20", "перенеси рубрику вопросов")));
    }

    #[test]
    fn keys_and_positions() {
        let p = Phrase::new("done WORK-3, and work-12.");
        assert_eq!(keys_in(&p), vec![("WORK-3".to_string(), 1), ("WORK-12".to_string(), 3)]);
        assert_eq!(positions(&Phrase::new("сделала первую и третью"), false).0, vec![1, 3]);
        assert_eq!(positions(&Phrase::new("the second one"), false).0, vec![2]);
        assert_eq!(positions(&Phrase::new("2"), true).0, vec![2]);
        assert_eq!(positions(&Phrase::new("2"), false).0, Vec::<usize>::new());
        assert_eq!(positions(&Phrase::new("закрой #3"), false).0, vec![3]);
        assert_eq!(positions(&Phrase::new("последнюю"), false).0, vec![0]);
    }
}
