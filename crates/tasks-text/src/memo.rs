//! A bounded per-thread memo of a pure function of one word, for the text work a
//! duplicate check repeats: it profiles the new task and up to 40 candidates, and the
//! words of their descriptions repeat from one to the next (a Latin token costs two
//! Snowball runs; a name key a normalization and a transliteration).
//!
//! What it does not do: share across threads (each thread fills its own), or evict one
//! by one — a full memo is emptied, which costs one refill of words still in use.

use std::cell::RefCell;
use std::thread::LocalKey;

/// Words a memo keeps before it is emptied: far more than the distinct words of one
/// check (at most a few thousand), few enough to stay a few MB (an entry is about 150
/// bytes for an ordinary word: the key, one or two short strings, the table's slot).
pub const MEMO_ENTRIES: usize = 1 << 14;

/// The values computed for words, up to [`MEMO_ENTRIES`].
#[derive(Debug, Default)]
pub struct WordMemo<V> {
    // foldhash rather than SipHash: a long report's check hashes every word of 40
    // descriptions, and SipHash was about 5 % of it. Seeded per process; the tables
    // live for one process and hold one check's words.
    values: foldhash::HashMap<String, V>,
}

impl<V: Clone> WordMemo<V> {
    /// Returns `compute()` for `word`, computed at most once per thread until the memo
    /// is emptied. `compute` runs with the memo unborrowed, so it may use other memos.
    pub fn get_or_compute(memo: &'static LocalKey<RefCell<WordMemo<V>>>, word: &str, compute: impl FnOnce() -> V) -> V {
        if let Some(hit) = memo.with(|m| m.borrow().values.get(word).cloned()) {
            return hit;
        }
        let value = compute();
        memo.with(|m| {
            let mut m = m.borrow_mut();
            if m.values.len() >= MEMO_ENTRIES {
                m.values.clear();
            }
            m.values.insert(word.to_owned(), value.clone());
        });
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static LENGTHS: RefCell<WordMemo<usize>> = RefCell::new(WordMemo::default());
    }

    #[test]
    fn a_word_is_computed_once_and_a_full_memo_is_emptied() {
        let mut calls = 0;
        for _ in 0..3 {
            assert_eq!(
                WordMemo::get_or_compute(&LENGTHS, "word", || {
                    calls += 1;
                    4
                }),
                4
            );
        }
        assert_eq!(calls, 1);
        for i in 0..MEMO_ENTRIES + 1 {
            WordMemo::get_or_compute(&LENGTHS, &i.to_string(), || i);
        }
        assert!(LENGTHS.with(|m| m.borrow().values.len()) <= MEMO_ENTRIES);
        assert_eq!(
            WordMemo::get_or_compute(&LENGTHS, "word", || {
                calls += 1;
                4
            }),
            4
        );
        assert_eq!(calls, 2, "emptied when full, so computed again");
    }
}
