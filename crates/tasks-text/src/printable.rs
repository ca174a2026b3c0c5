//! Text from people and models on its way to a terminal or a chat reply. A title is
//! typed by a person, pasted from a message or written by a model; written raw, an
//! escape sequence in it (`ESC ]52;…` sets the clipboard, `ESC [2J` clears the screen)
//! would act on the reader's terminal, and a right-to-left override would show a
//! different text than the one stored. [`printable`] keeps the text readable and makes
//! every such character visible instead of active.
//!
//! What it deliberately does not do: change the store (the text is kept as given) or
//! touch ordinary letters, emoji or combining marks.

use std::borrow::Cow;

/// Returns `text` safe to print on one line: line breaks and tabs become spaces, other
/// control characters become `\xNN`, and bidirectional controls become `\u{NNNN}`.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_care) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}' => out.push(' '),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_bidi_control(c) => out.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_care(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The characters that reorder text on screen (Unicode bidi controls).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_untouched() {
        for t in ["Позвонить Ане про плитку", "Buy tiles 🧱", "café", "a\u{301}"] {
            assert!(matches!(printable(t), Cow::Borrowed(_)), "{t}");
        }
    }

    #[test]
    fn escapes_and_overrides_are_shown_not_run() {
        assert_eq!(printable("a\u{1b}]52;c;ZXZpbA==\u{7}b"), "a\\x1b]52;c;ZXZpbA==\\x07b");
        assert_eq!(printable("x\u{9b}2Jy"), "x\\x9b2Jy");
        assert_eq!(printable("line\none\tmore\r"), "line one more ");
        assert_eq!(printable("pay \u{202e}gnp.exe"), "pay \\u{202e}gnp.exe");
        assert_eq!(printable("del\u{7f}"), "del\\x7f");
    }
}
