//! Text normalization shared by the duplicate check, stems, trigrams, amounts and due
//! phrases (SPEC §5.1, seed 000 "1. Нормализация").
//!
//! [`normalize`] lowercases, folds `ё` to `е`, strips diacritics from Latin letters only
//! (`café` → `cafe`, while `й` stays `й`), joins digit groups (`15 000` → `15000`), turns
//! punctuation into spaces and collapses whitespace. It is idempotent.
//!
//! What it deliberately does not do: no stemming, no stop-words, no language detection,
//! no interpretation of what a number means (amounts and dates read the normalized text
//! in their own modules).
//!
//! # Number rules
//!
//! A *run* is a sequence of ASCII digit groups joined by single separators: `.`, `,`,
//! an apostrophe (`1'000`), or a space — a space (or apostrophe) only when the group
//! after it has exactly three digits. A run is rewritten as follows:
//!
//! | run | rule | result |
//! |---|---|---|
//! | `15 000`, `2 500 000`, `1.500`, `2,400`, `12.000.000` | *grouped*: first group 1–3 digits not starting with `0`, every later group exactly 3 digits, one separator kind | `15000`, `2500000`, `1500`, `2400`, `12000000` |
//! | `1,200.50`, `1.500,50`, `1 500,50` | grouped, then a decimal separator of the other kind | `1200.50`, `1500.50`, `1500.50` |
//! | `3.5`, `10.04`, `0.500`, `1,5` | two groups, not grouped: a decimal (a comma becomes a dot) | `3.5`, `10.04`, `0.500`, `1.5` |
//! | `10.04.2026`, `1,2,3`, `2026 100` | anything else: dots and spaces kept, commas become spaces | `10.04.2026`, `1 2 3`, `2026 100` |
//!
//! So a thousands separator is a `.` or `,` followed by *exactly* three digits (`1.500 €`
//! is fifteen hundred euros, `1,500` is fifteen hundred), and a dot before one, two or
//! four-plus digits is kept (`10.04` stays a date, `3.5` a decimal). `:`, `-` and `/`
//! between two digits are kept (`11:30`, `8-10`, `2026-12-01`); everywhere else they are
//! punctuation.
//!
//! Currency symbols (`₽ € $ £ …`) are kept as tokens of their own: `€120` → `€ 120`.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Upper bound on normalization passes.
///
/// One pass is a fixed point for every input seen in practice; the rules only delete
/// separators or turn commas into dots or spaces, so repeated passes always converge.
/// [`normalize`] repeats the pass until the text stops changing (which makes it
/// idempotent by construction) and stops at this bound as a guard. The property test
/// `normalize_is_idempotent` checks that the bound is never the reason it stops.
const MAX_NORMALIZE_PASSES: usize = 8;

/// Returns `text` normalized for comparison: lowercase, `ё`→`е`, Latin diacritics
/// stripped, digit groups joined, punctuation turned into spaces, whitespace collapsed.
///
/// The number rules are in the module documentation. The result is a sequence of
/// tokens separated by single spaces, with no leading or trailing space, and
/// `normalize(&normalize(x)) == normalize(x)` for every `x`.
pub fn normalize(text: &str) -> String {
    let mut current = one_pass(text);
    for _ in 1..MAX_NORMALIZE_PASSES {
        let next = one_pass(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// Runs the character folds and the number rules once.
fn one_pass(text: &str) -> String {
    let folded = fold_chars(text);
    shape(&folded)
}

/// Returns true for characters kept as standalone currency tokens.
pub(crate) fn is_currency_symbol(c: char) -> bool {
    matches!(c, '$' | '£' | '¥' | '¢' | '¤') || ('\u{20A0}'..='\u{20CF}').contains(&c)
}

/// Returns true for Latin letters whose diacritics are stripped.
///
/// The Latin-1 Supplement, Latin Extended-A and -B, and Latin Extended Additional blocks;
/// Cyrillic (`й`) is outside them by construction.
fn is_latin_with_marks(c: char) -> bool {
    matches!(c,
        '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
}

/// Folds one Latin letter without a canonical decomposition to plain ASCII.
fn fold_latin_special(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'ł' => "l",
        'đ' => "d",
        'ð' => "d",
        'þ' => "th",
        'ı' => "i",
        _ => return None,
    })
}

/// Applies NFKC, lowercase, `ё`→`е`, Latin diacritic stripping, and drops every other
/// combining mark (stress marks on Cyrillic vowels, stray accents).
///
/// NFKC first maps compatibility forms (no-break spaces, full-width digits, `№`)
/// to plain ones; NFC-style recomposition keeps `й` and `ё` whole so that only the
/// letters we choose lose their marks.
fn fold_chars(text: &str) -> String {
    if text.is_ascii() {
        // NFKC and NFC leave ASCII as it is and it has no marks: only the case and the
        // whitespace fold. A long English description is profiled several times per
        // check (as a candidate), and the Unicode passes were the largest part of it.
        return text.chars().map(|c| if c.is_whitespace() { ' ' } else { c.to_ascii_lowercase() }).collect();
    }
    let lowered: String = text.nfkc().flat_map(char::to_lowercase).collect();
    let mut out = String::with_capacity(lowered.len());
    for c in lowered.nfc() {
        match c {
            'ё' => out.push('е'),
            _ if is_combining_mark(c) => {}
            _ if c.is_whitespace() => out.push(' '),
            _ if is_latin_with_marks(c) => {
                if let Some(s) = fold_latin_special(c) {
                    out.push_str(s);
                } else {
                    out.extend(c.to_string().nfd().filter(|d| !is_combining_mark(*d)));
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// A separator inside a digit run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sep {
    /// A space or apostrophe: thousands only.
    Space,
    /// `.`
    Dot,
    /// `,`
    Comma,
}

/// Returns the separator kind of `c` when it may sit inside a digit run.
fn sep_of(c: char) -> Option<Sep> {
    match c {
        ' ' | '\'' | '’' => Some(Sep::Space),
        '.' => Some(Sep::Dot),
        ',' => Some(Sep::Comma),
        _ => None,
    }
}

/// Number of digits in a thousands group.
const THOUSANDS_GROUP_DIGITS: usize = 3;

/// Largest number of digits in the first group of a grouped number (`999 000`).
const MAX_LEADING_GROUP_DIGITS: usize = 3;

/// Rewrites digit runs and punctuation of already folded text; collapses spaces.
fn shape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev_digit = i > 0 && chars[i - 1].is_ascii_digit();
        let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if c.is_ascii_digit() && !prev_digit {
            let (text_of_run, end) = read_run(&chars, i);
            out.push_str(&text_of_run);
            i = end;
            continue;
        }
        if is_currency_symbol(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else if c.is_alphanumeric() || (matches!(c, ':' | '-' | '/') && prev_digit && next_digit) {
            // Letters and digits, and `11:30`, `8-10`, `2026-12-01`, `05/26` kept whole.
            out.push(c);
        } else {
            out.push(' ');
        }
        i += 1;
    }
    out.split(' ').filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

/// Reads the digit run starting at `start` and returns its rewritten text and the index
/// just after it.
fn read_run(chars: &[char], start: usize) -> (String, usize) {
    let digits_from = |from: usize| chars[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut groups: Vec<String> = Vec::new();
    let mut seps: Vec<Sep> = Vec::new();
    let mut i = start;
    let len = digits_from(i);
    groups.push(chars[i..i + len].iter().collect());
    i += len;
    while let Some(sep) = chars.get(i).copied().and_then(sep_of) {
        let next_len = if chars.get(i + 1).is_some_and(char::is_ascii_digit) { digits_from(i + 1) } else { 0 };
        let accepted = match sep {
            Sep::Space => next_len == THOUSANDS_GROUP_DIGITS,
            Sep::Dot | Sep::Comma => next_len > 0,
        };
        if !accepted {
            break;
        }
        seps.push(sep);
        groups.push(chars[i + 1..i + 1 + next_len].iter().collect());
        i += 1 + next_len;
    }
    (rewrite_run(&groups, &seps), i)
}

/// Returns true when `groups` joined by `seps` form a grouped (thousands) number.
fn is_grouped(groups: &[String], seps: &[Sep]) -> bool {
    let Some(first) = groups.first() else {
        return false;
    };
    let Some(kind) = seps.first() else {
        return false;
    };
    (1..=MAX_LEADING_GROUP_DIGITS).contains(&first.len())
        && !first.starts_with('0')
        && seps.iter().all(|s| s == kind)
        && groups[1..].iter().all(|g| g.len() == THOUSANDS_GROUP_DIGITS)
}

/// Rewrites one run by the rules in the module documentation.
fn rewrite_run(groups: &[String], seps: &[Sep]) -> String {
    let n = seps.len();
    if n == 0 {
        return groups[0].clone();
    }
    if is_grouped(groups, seps) {
        return groups.concat();
    }
    let last = seps[n - 1];
    if last != Sep::Space {
        let integer = &groups[..n];
        let integer_seps = &seps[..n - 1];
        let decimal_ok = if n == 1 { true } else { is_grouped(integer, integer_seps) && integer_seps[0] != last };
        if decimal_ok {
            return format!("{}.{}", integer.concat(), groups[n]);
        }
    }
    let mut out = groups[0].clone();
    for (sep, group) in seps.iter().zip(&groups[1..]) {
        out.push(match sep {
            Sep::Dot => '.',
            Sep::Space | Sep::Comma => ' ',
        });
        out.push_str(group);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(normalize(input), expected, "normalize({input:?})");
    }

    #[test]
    fn letters() {
        check("Send the Invoice", "send the invoice");
        check("Счёт на оплату", "счет на оплату");
        check("ЁЛОЧКА", "елочка");
        check("Café Lucía", "cafe lucia");
        check("Redacción", "redaccion");
        check("mañana señalética", "manana senaletica");
        check("Выбрать раскладку: ёлочка или прямая", "выбрать раскладку елочка или прямая");
        check("Купить клей йогурт", "купить клей йогурт");
        check("за\u{301}мок", "замок");
        check("cafe\u{301}", "cafe");
        check("Straße", "strasse");
        check("Ærø", "aero");
        check("İstanbul", "istanbul");
        check("Ｆｕｌｌｗｉｄｔｈ １２３", "fullwidth 123");
        check("№ 4471", "no 4471");
        check("¿hoy?", "hoy");
        check("2ª ilustración", "2a ilustracion");
    }

    #[test]
    fn punctuation_and_space() {
        check("  a\t\tb \n c  ", "a b c");
        check("Баннеры для Яндекс Еды: 4 размера", "баннеры для яндекс еды 4 размера");
        check("Счёт — отправить «Олегу»!!", "счет отправить олегу");
        check("T-Bank card (expires 05/26)", "t bank card expires 05/26");
        check("PO-2291", "po 2291");
        check("rec w/ Max", "rec w max");
        check("", "");
        check("—", "");
    }

    #[test]
    fn digit_groups() {
        check("15 000 ₽", "15000 ₽");
        check("15\u{a0}000", "15000");
        check("15\u{202f}000", "15000");
        check("2 500 000", "2500000");
        check("1'000", "1000");
        check("1.500 €", "1500 €");
        check("2.000 €", "2000 €");
        check("12.000.000", "12000000");
        check("$2,400", "$ 2400");
        check("$1,200.50", "$ 1200.50");
        check("1.500,50 €", "1500.50 €");
        check("1 500,50", "1500.50");
        check("5 000,5", "5000.5");
        check("3,000,000", "3000000");
    }

    #[test]
    fn decimals_dates_times() {
        check("3.5", "3.5");
        check("до 10.04", "до 10.04");
        check("10.04.2026", "10.04.2026");
        check("0.500", "0.500");
        check("1234.567", "1234.567");
        check("1,5 млн", "1.5 млн");
        check("1,50 €", "1.50 €");
        check("в 11:30", "в 11:30");
        check("2026-12-01", "2026-12-01");
        check("8-10 posts", "8-10 posts");
        check("15 000-20 000", "15000-20000");
        check("1,2,3", "1 2 3");
        check("2026 100", "2026 100");
        check("Thu 28 May, 19:00", "thu 28 may 19:00");
        check("$15/mo", "$ 15 mo");
        check("€120", "€ 120");
        check("120€", "120 €");
        check("65к", "65к");
        check("85 т.р.", "85 т р");
        check("x5", "x5");
        check("v1.2.3", "v1.2.3");
        check("end.", "end");
        check("1.", "1");
        check(".5", "5");
    }

    proptest! {
        #[test]
        fn normalize_is_idempotent(s in "[0-9 .,:'/a-zA-Zа-яА-ЯёЁйé€$-]{0,24}") {
            let once = normalize(&s);
            prop_assert_eq!(normalize(&once), once.clone());
            prop_assert_eq!(one_pass(&once), once);
        }

        #[test]
        fn ascii_folds_as_the_unicode_passes_do(s in "[ -~\t\n\x0b\x0c\r]{0,40}") {
            // The fast path for ASCII must be exactly the general one: `é` after the
            // ASCII text sends the whole string through the Unicode passes.
            let general = fold_chars(&format!("{s}é"));
            prop_assert_eq!(format!("{}e", fold_chars(&s)), general);
        }

        #[test]
        fn normalize_is_idempotent_on_any_text(s in "\\PC{0,24}") {
            let once = normalize(&s);
            prop_assert_eq!(one_pass(&once), once);
        }
    }
}
