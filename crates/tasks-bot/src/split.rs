//! Telegram takes at most 4,096 characters (UTF-16 code units) a message: a longer reply
//! is sent as several, split at line ends so no line is cut — unless one line alone is
//! longer, which is cut at the limit.

use crate::telegram::MESSAGE_MAX;

/// Splits `text` into parts of at most `max` UTF-16 code units, at line ends.
pub fn split(text: &str, max: usize) -> Vec<String> {
    let len = |s: &str| s.encode_utf16().count();
    if len(text) <= max {
        return vec![text.to_string()];
    }
    let mut parts = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if len(&current) + len(line) <= max {
            current.push_str(line);
            continue;
        }
        if !current.is_empty() {
            parts.push(std::mem::take(&mut current).trim_end_matches('\n').to_string());
        }
        // A line longer than a message is cut into pieces.
        let mut piece = String::new();
        for c in line.chars() {
            if len(&piece) + c.len_utf16() > max {
                parts.push(std::mem::take(&mut piece));
            }
            piece.push(c);
        }
        current = piece;
    }
    if !current.trim().is_empty() {
        parts.push(current.trim_end_matches('\n').to_string());
    }
    parts
}

/// Splits a reply for Telegram.
pub fn for_telegram(text: &str) -> Vec<String> {
    split(text, MESSAGE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_part() {
        assert_eq!(split("hello\nworld", 20), vec!["hello\nworld"]);
    }

    #[test]
    fn lines_stay_whole_and_parts_fit() {
        let text = (0..100).map(|i| format!("line number {i:03}")).collect::<Vec<_>>().join("\n");
        let parts = split(&text, 100);
        assert!(parts.iter().all(|p| p.encode_utf16().count() <= 100));
        assert!(parts.iter().all(|p| p.lines().all(|l| l.starts_with("line number "))));
        assert_eq!(parts.join("\n"), text, "nothing lost or added");
    }

    #[test]
    fn a_long_line_is_cut_and_utf16_is_counted() {
        let emoji = "🧱".repeat(60); // 2 code units each: 120
        let parts = split(&emoji, 50);
        assert!(parts.iter().all(|p| p.encode_utf16().count() <= 50), "{parts:?}");
        assert_eq!(parts.concat(), emoji);
        let five_thousand = "x".repeat(5000);
        assert_eq!(for_telegram(&five_thousand).len(), 2);
    }
}
