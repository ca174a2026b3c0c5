//! People mistype the words the parser acts on: «завтро», «перенси», "tommorrow",
//! "postpine". A word one edit (Damerau: a letter dropped, added, replaced, or two
//! neighbours swapped) from exactly one word of the parser's lexicon — its verbs, its
//! date words, its list positions — is read as that word, and the reply says so.
//!
//! Why so narrow: a correction can turn a word of a title into a command ("clone" is
//! one edit from "close"). So only words of [`MIN_LETTERS`] letters or more are read
//! again, only when exactly one lexicon word is that close, never a word that is
//! itself in the lexicon or in an open task's title or a project's name, and the guard
//! still asks before acting on a task the rest of the words do not name clearly.

use std::collections::BTreeSet;

/// Holds the shortest word read again: 5 letters. Below that, one edit reaches too
/// many other words («сдал» / «сдам», "done" / "gone").
pub const MIN_LETTERS: usize = 5;

/// What a correction did: the word as written and the word it was read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// As written (normalized).
    pub wrote: String,
    /// As read.
    pub meant: String,
}

/// Returns the tokens with mistyped lexicon words read as meant, and what was read so.
///
/// `lexicon` is every word the parser acts on; `known` the words that must stay as
/// written (the open tasks' titles, the projects' names).
/// `allowed(i, meant)` says whether token `i` may be read as `meant` (the parser keeps a
/// command word's corrections to where commands stand, and a date phrase as it is).
/// `meaning` groups the forms of one word («пятницу», «пятница»): a typo one edit from
/// several forms of one meaning is read as the form of its own length.
pub fn correct(
    tokens: &[&str],
    lexicon: &BTreeSet<&str>,
    known: &BTreeSet<String>,
    allowed: &dyn Fn(usize, &str) -> bool,
    meaning: &dyn Fn(&str) -> Option<u32>,
) -> (Vec<String>, Vec<Correction>) {
    let mut out = Vec::with_capacity(tokens.len());
    let mut said = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match correction_of(t, lexicon, known, meaning).filter(|meant| allowed(i, meant)) {
            Some(meant) => {
                said.push(Correction { wrote: (*t).to_string(), meant: meant.to_string() });
                out.push(meant.to_string());
            }
            None => out.push((*t).to_string()),
        }
    }
    (out, said)
}

/// Returns the one lexicon word `token` is a typo of, if there is exactly one (forms of
/// one meaning count as one).
fn correction_of<'a>(
    token: &str,
    lexicon: &BTreeSet<&'a str>,
    known: &BTreeSet<String>,
    meaning: &dyn Fn(&str) -> Option<u32>,
) -> Option<&'a str> {
    let letters = token.chars().count();
    // Four letters only for two neighbours swapped ("weke" / "week"): a replaced letter
    // in so short a word is as often another word («сдал» / «сдам»).
    if letters == MIN_LETTERS - 1
        && token.chars().all(char::is_alphabetic)
        && !lexicon.contains(token)
        && !known.contains(token)
    {
        let swapped: Vec<&'a str> = lexicon
            .iter()
            .copied()
            .filter(|w| w.chars().count() == letters && one_edit(token, w))
            .filter(|w| !replaced(token, w))
            .collect();
        return match swapped.as_slice() {
            [one] => Some(one),
            _ => None,
        };
    }
    if letters < MIN_LETTERS
        || !token.chars().all(char::is_alphabetic)
        || lexicon.contains(token)
        || known.contains(token)
    {
        return None;
    }
    // "pushh", "weeek": a four-letter word with a key pressed twice (one edit from a word
    // shorter than the rule reads otherwise).
    if letters == MIN_LETTERS {
        let chars: Vec<char> = token.chars().collect();
        let bounced: BTreeSet<&'a str> = (1..chars.len())
            .filter(|i| chars[*i] == chars[i - 1])
            .filter_map(|i| {
                let once: String = chars.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, c)| c).collect();
                lexicon.get(once.as_str()).copied()
            })
            .collect();
        if bounced.len() == 1 {
            return bounced.into_iter().next();
        }
    }
    let close: Vec<&'a str> =
        lexicon.iter().copied().filter(|w| w.chars().count() >= MIN_LETTERS && one_edit(token, w)).collect();
    let first = *close.first()?;
    if close.len() == 1 {
        return Some(first);
    }
    // Several forms of one meaning: the one whose letter sits beside the typed one on
    // the keyboard («неделб»: б is ю's neighbour, so «неделю»), else the one of the
    // typo's own length (a letter replaced), else the first.
    let m = meaning(first)?;
    if !close.iter().all(|w| meaning(w) == Some(m)) {
        // Two words are as close: no reading is safer than a guess.
        return None;
    }
    let same_length = close.iter().copied().filter(|w| w.chars().count() == letters);
    let beside: Vec<&str> = same_length.clone().filter(|w| slipped_to_a_neighbour(token, w)).collect();
    match beside.as_slice() {
        [one] => Some(one),
        _ => Some(same_length.clone().next().unwrap_or(first)),
    }
}

/// Keyboard rows, Russian ЙЦУКЕН and English QWERTY: a finger that slips lands on a
/// neighbouring key.
const KEYBOARD_ROWS: &[&str] = &["йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю", "qwertyuiop", "asdfghjkl", "zxcvbnm"];

/// Returns true when `typed` differs from `meant` (of the same length) in one letter
/// whose key is next to the meant one's: on its row, or on the row above or below.
fn slipped_to_a_neighbour(typed: &str, meant: &str) -> bool {
    let Some((a, b)) = typed.chars().zip(meant.chars()).find(|(a, b)| a != b) else { return false };
    let place = |c: char| {
        KEYBOARD_ROWS.iter().enumerate().find_map(|(r, row)| row.chars().position(|k| k == c).map(|col| (r, col)))
    };
    let (Some((ra, ca)), Some((rb, cb))) = (place(a), place(b)) else { return false };
    // Rows of one keyboard only: Russian rows are 0–2, English 3–5.
    let one_board = (ra < 3) == (rb < 3);
    one_board && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
}

/// Returns true when two words of one length differ in exactly one place.
pub(crate) fn replaced(a: &str, b: &str) -> bool {
    a.chars().count() == b.chars().count() && a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() == 1
}

/// Returns true when two words differ by two neighbouring letters swapped.
pub(crate) fn swapped(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let diff: Vec<usize> = (0..a.len()).filter(|i| a[*i] != b[*i]).collect();
    matches!(diff.as_slice(), [i, j] if *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i])
}

/// Returns true when `a` and `b` differ by exactly one edit: a letter dropped, added or
/// replaced, or two neighbouring letters swapped (Damerau's optimal string alignment).
pub fn one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match ra.len().cmp(&rb.len()) {
        // Replaced, or two neighbours swapped.
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..] || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        // Added in `a`.
        std::cmp::Ordering::Greater => ra[1..] == *rb,
        // Dropped from `a`.
        std::cmp::Ordering::Less => *ra == rb[1..],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_is_two_neighbours_exchanged() {
        assert!(swapped("отпарвил", "отправил"));
        assert!(!swapped("записала", "написала"), "a replaced letter is no swap");
        assert!(!swapped("отправил", "отправил"));
        assert!(!swapped("abdc", "bacd"), "two swaps are not one");
    }

    #[test]
    fn one_edit_is_a_drop_an_addition_a_replacement_or_a_swap() {
        for (a, b) in [
            ("завтро", "завтра"),
            ("перенси", "перенеси"),
            ("tommorrow", "tomorrow"),
            ("postpine", "postpone"),
            ("firday", "friday"),
            ("суботу", "субботу"),
            ("удалм", "удали"),
        ] {
            assert!(one_edit(a, b), "{a} ~ {b}");
        }
        for (a, b) in [("завтра", "завтра"), ("tmrw", "tomorrow"), ("перенесла", "перенеси"), ("abcd", "badc")]
        {
            assert!(!one_edit(a, b), "{a} !~ {b}");
        }
    }

    fn lexicon() -> BTreeSet<&'static str> {
        [
            "завтра",
            "пятницу",
            "перенеси",
            "tomorrow",
            "friday",
            "close",
            "closed",
            "delete",
            "postpone",
            "удали",
            "удалить",
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn only_long_words_with_exactly_one_close_lexicon_word_are_read_again() {
        let known: BTreeSet<String> = ["clone".to_string()].into_iter().collect();
        let (tokens, said) = correct(
            &["перенси", "отчет", "на", "пятницк", "clone", "clsoe", "завтро"],
            &lexicon(),
            &known,
            &|_, _| true,
            &|_| None,
        );
        assert_eq!(tokens, ["перенеси", "отчет", "на", "пятницу", "clone", "close", "завтра"]);
        assert_eq!(said.len(), 4);
        // A title word stays as written even one edit from a command.
        assert!(!said.iter().any(|c| c.wrote == "clone"));
        // Four letters are never read again; a word close to two lexicon words neither.
        let (tokens, said) = correct(&["удал", "closd"], &lexicon(), &BTreeSet::new(), &|_, _| true, &|_| None);
        assert_eq!(tokens, ["удал", "closd"], "{said:?}");
    }

    #[test]
    fn english_typos_of_dates_and_verbs() {
        let (tokens, _) = correct(
            &["postpine", "it", "to", "firday", "tomorow"],
            &lexicon(),
            &BTreeSet::new(),
            &|_, _| true,
            &|_| None,
        );
        assert_eq!(tokens, ["postpone", "it", "to", "friday", "tomorrow"]);
    }

    #[test]
    fn among_forms_of_one_word_the_keyboard_neighbour_is_read() {
        let lexicon: BTreeSet<&str> = ["неделю", "недели", "неделе", "неделя", "через"].into_iter().collect();
        let week = |w: &str| w.starts_with("недел").then_some(1);
        // б is ю's neighbour on the Russian keyboard; е, и, я are not.
        let (tokens, _) = correct(&["через", "неделб"], &lexicon, &BTreeSet::new(), &|_, _| true, &week);
        assert_eq!(tokens, ["через", "неделю"]);
        // р is next to о, not to е, и, ю or я: no neighbour, the first form of its length.
        let (tokens, _) = correct(&["неделр"], &lexicon, &BTreeSet::new(), &|_, _| true, &week);
        assert_eq!(tokens, ["неделе"]);
        assert!(slipped_to_a_neighbour("tomorriw", "tomorrow"));
        assert!(!slipped_to_a_neighbour("tomorrqw", "tomorrow"));
    }

    #[test]
    fn four_letters_are_read_again_only_for_a_swap() {
        let lexicon: BTreeSet<&str> = ["week", "next", "done"].into_iter().collect();
        let none = |_: &str| None;
        let (tokens, _) = correct(&["next", "weke"], &lexicon, &BTreeSet::new(), &|_, _| true, &none);
        assert_eq!(tokens, ["next", "week"]);
        // A replaced letter ("gone" / "done") or a dropped one is not read again at four.
        let (tokens, said) = correct(&["gone", "wek", "nxet"], &lexicon, &BTreeSet::new(), &|_, _| true, &none);
        assert_eq!(tokens, ["gone", "wek", "next"], "{said:?}");
    }

    #[test]
    fn the_caller_decides_where_a_word_may_be_read_again() {
        let first_only = |i: usize, _: &str| i == 0;
        let (tokens, said) = correct(&["clsoe", "clsoe"], &lexicon(), &BTreeSet::new(), &first_only, &|_| None);
        assert_eq!(tokens, ["close", "clsoe"]);
        assert_eq!(said, [Correction { wrote: "clsoe".into(), meant: "close".into() }]);
    }
}
