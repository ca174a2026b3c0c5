//! Character trigrams of a title and their Jaccard similarity (SPEC §5.1): they catch
//! typos and word forms the stemmer misses (`банеры`/`баннеры`, `illos`/`illustrations`).
//!
//! Trigrams are taken per word, with PostgreSQL `pg_trgm` padding: two spaces before the
//! word and one after, so `cat` gives `"  c"`, `" ca"`, `"cat"`, `"at "`. Per-word
//! padding makes word order irrelevant and marks word starts, which carry the most.
//! Only content tokens count (stop-words and currency symbols are dropped), because
//! shared `the`/`для` trigrams would make unrelated titles look alike.
//!
//! What it deliberately does not do: no weighting by trigram frequency, no edit
//! distance, no thresholds (those belong to the duplicate check's weights).

use std::collections::BTreeSet;

use crate::normalize::normalize;
use crate::stems::content_tokens;

/// Spaces put before each word (pg_trgm's convention).
const PAD_BEFORE: &str = "  ";

/// Spaces put after each word (pg_trgm's convention).
const PAD_AFTER: &str = " ";

/// Returns the set of character trigrams of `text`'s content words (see the module
/// documentation for padding).
pub fn trigrams(text: &str) -> BTreeSet<String> {
    trigrams_of_normalized(&normalize(text))
}

/// Returns the trigram set of already normalized text.
pub fn trigrams_of_normalized(normalized: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for word in content_tokens(normalized) {
        let padded: Vec<char> = PAD_BEFORE.chars().chain(word.chars()).chain(PAD_AFTER.chars()).collect();
        for window in padded.windows(3) {
            out.insert(window.iter().collect());
        }
    }
    out
}

/// Returns |A ∩ B| / |A ∪ B| of two trigram sets, or 0.0 when both are empty.
///
/// Two empty sets give 0.0, not 1.0: texts with no content words carry no evidence
/// that they describe the same job.
pub fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let shared = a.intersection(b).count();
    let union = a.len() + b.len() - shared;
    if union == 0 { 0.0 } else { shared as f64 / union as f64 }
}

/// Returns the trigram Jaccard similarity of two texts, from 0.0 to 1.0.
pub fn trigram_jaccard(a: &str, b: &str) -> f64 {
    jaccard(&trigrams(a), &trigrams(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: &str, b: &str, expected: f64) {
        let got = trigram_jaccard(a, b);
        assert!((got - expected).abs() < 0.005, "trigram_jaccard({a:?}, {b:?}) = {got:.3}, expected {expected:.3}");
    }

    #[test]
    fn padding() {
        let got: Vec<String> = trigrams("cat").into_iter().collect();
        assert_eq!(got, ["  c", " ca", "at ", "cat"]);
        assert!(trigrams("the и для").is_empty());
    }

    #[test]
    fn similarity() {
        check("Send the invoice", "send invoice", 1.0);
        check("invoice send", "Send the invoice", 1.0);
        check("Счёт", "счет", 1.0);
        check("", "", 0.0);
        check("cat", "", 0.0);
        check("cat", "dog", 0.0);
        check("банеры яндекс еда", "Баннеры для Яндекс Еды", 0.682);
        check("Redaccion", "Redacción", 1.0);
    }

    #[test]
    fn symmetric() {
        let pairs = [("банеры", "баннеры"), ("logo files", "Send Lucía the logo files")];
        for (a, b) in pairs {
            assert_eq!(trigram_jaccard(a, b), trigram_jaccard(b, a));
        }
    }
}
