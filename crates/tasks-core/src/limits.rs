//! Bounds on what one task may hold (issue 10). Every write runs under SQLite's one
//! write lock, and every agent waits while it is held, so the work a single add, edit
//! or import line can cause must be bounded: these limits bound the text, and the text
//! pipeline (`tasks-text`, `dedup::profile`) is linear within them. The CLI, MCP, chat
//! and import all meet the same limits because they all call `ops`.
//!
//! A value over a limit is refused, naming the field and the limit — never cut
//! silently. Lengths are counted in characters (Unicode scalar values), as a person
//! counts them.

use crate::error::{Error, Result};

/// Longest title. A title is a line a person reads in a list; 1,000 characters is
/// several sentences — beyond that it is a description.
pub const TITLE_MAX_CHARS: usize = 1_000;

/// Longest description. Descriptions quote the message a task came from (an email,
/// a chat thread); 32,768 characters is a long email. The check reads all of it.
pub const DESCRIPTION_MAX_CHARS: usize = 32_768;

/// Longest note (annotation).
pub const NOTE_MAX_CHARS: usize = 8_192;

/// Longest short field: a category, a person handle, a project name, a close reason.
pub const NAME_MAX_CHARS: usize = 200;

/// Longest tag.
pub const TAG_MAX_CHARS: usize = 64;

/// Most tags on one task.
pub const TAGS_MAX: usize = 32;

/// Longest line of an import file, in bytes. A line holds one task within the limits
/// above, JSON-escaped (a character may take 6 bytes as `\uXXXX`): 1 MiB covers the
/// longest valid line with room, and bounds the memory one line can take.
pub const IMPORT_LINE_MAX_BYTES: usize = 1 << 20;

/// Returns the first characters of a long value, for an error that must not echo a
/// megabyte back.
pub fn preview(text: &str) -> String {
    const SHOWN: usize = 40;
    let mut out: String = text.chars().take(SHOWN).collect();
    if text.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

/// Checks one text field: at most `max` characters and no NUL (which C strings, the
/// terminal and other tools would cut the text at).
pub fn check_text(field: &'static str, text: &str, max: usize) -> Result<()> {
    if text.contains('\0') {
        return Err(Error::invalid(field, preview(&text.replace('\0', "\\0")), "contains a NUL character"));
    }
    // Counting stops one past the limit: a 50 MB value costs no more than a valid one.
    if text.chars().nth(max).is_some() {
        let n = text.chars().count();
        return Err(Error::invalid(field, preview(text), format!("is {n} characters long; the limit is {max}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, max: usize, ok: bool) {
        assert_eq!(check_text("title", text, max).is_ok(), ok, "{text:?} / {max}");
    }

    #[test]
    fn limits_count_characters_and_refuse_nul() {
        check("abc", 3, true);
        check("abcd", 3, false);
        check("жжж", 3, true);
        check("жжжж", 3, false);
        check("a\0b", 10, false);
        check("", 0, true);
        let e = check_text("description", &"x".repeat(100_000), DESCRIPTION_MAX_CHARS).expect_err("too long");
        let text = e.to_string();
        assert!(text.contains("description") && text.contains("100000") && text.contains("32768"), "{text}");
        assert!(text.len() < 300, "the error does not echo the value: {text}");
    }
}
