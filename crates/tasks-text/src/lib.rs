//! `tasks-text`: pure text functions for the duplicate check (SPEC §5.1) and for
//! due-date and amount flags (SPEC §7, §10).
//!
//! - [`normalize()`]: lowercase, `ё`→`е`, Latin diacritics, digit
//!   groups, punctuation; idempotent.
//! - [`stems()`]: stop-words out, Snowball stems chosen by script.
//! - [`trigrams()`]: pg_trgm-style character trigrams, Jaccard.
//! - [`amounts`], [`parse_amount_flag`]:
//!   money in every common ru/en/es notation, in minor units.
//! - [`calendar`]: the one list of weekday and month words.
//! - [`find_due`], [`parse_due`]: due phrases in
//!   Russian, English and Spanish; [`parse_when`] the same with a time of day.
//! - [`concepts_of`]: a cross-language lexicon of task words.
//! - [`printable()`]: user and model text made safe for a terminal.
//! - [`Fingerprint`]: all of the above for one task, as the duplicate check needs it.
//!
//! What it deliberately does not do: no SQLite, no clock reads (today's date is always
//! an argument), no environment or config reads, no scoring or weights (those live in
//! the duplicate check's weights module), no language detection.
#![warn(missing_docs)]

pub mod amount;
pub mod calendar;
pub mod clock;
pub mod dates;
pub mod lexicon;
pub mod memo;
pub mod names;
pub mod normalize;
pub mod printable;
pub mod stems;
pub mod trigrams;

use std::collections::BTreeSet;

use jiff::civil::Date;

pub use amount::{Amount, AmountError, Currency, amounts, parse_amount_flag};
pub use clock::{When, parse_when};
pub use dates::{DateError, Due, DueKind, find_due, parse_due};
pub use lexicon::{ConceptId, concepts_of};
pub use normalize::normalize;
pub use printable::printable;
pub use stems::stems;
pub use trigrams::{trigram_jaccard, trigrams};

/// Everything the duplicate check compares about one task's text.
#[derive(Clone, Debug, PartialEq)]
pub struct Fingerprint {
    /// The normalized title.
    pub normalized: String,
    /// Unique stems of the title, in first-seen order.
    pub stems: Vec<String>,
    /// Unique stems of the description, in first-seen order.
    pub description_stems: Vec<String>,
    /// Character trigrams of the title.
    pub trigrams: BTreeSet<String>,
    /// Amounts in the title; when it has none, those in the description.
    pub amounts: Vec<Amount>,
    /// The due phrase of the title; when it has none, the description's.
    pub due: Option<Due>,
    /// Every day the title names (both ends of a range); when it names none, the day of
    /// the description's due phrase.
    pub dates: Vec<Date>,
    /// Lexicon concepts of the title.
    ///
    /// Title only: on the dev set, adding the description left true cross-language
    /// pairs sharing a concept unchanged (20 of 21) while random cross-language pairs
    /// sharing one rose from 5.6 % to 9.8 %.
    pub concepts: Vec<ConceptId>,
}

impl Fingerprint {
    /// Computes the fingerprint of a task's title and description, reading relative
    /// due phrases against `today`.
    pub fn of(title: &str, description: &str, today: Date) -> Fingerprint {
        Fingerprint::build(title, description, today, true)
    }

    /// As [`Fingerprint::of`], with `description_stems` left empty: for a candidate
    /// compared with a task that has no description, where nothing reads them (the
    /// description comparison needs both sides). A long description's stems were about
    /// a ninth of a title-only check on a store of bug reports.
    pub fn of_without_description_stems(title: &str, description: &str, today: Date) -> Fingerprint {
        Fingerprint::build(title, description, today, false)
    }

    fn build(title: &str, description: &str, today: Date, stem_description: bool) -> Fingerprint {
        let normalized = normalize(title);
        let description_normalized = normalize(description);
        let title_amounts = amount::amounts_of_normalized(&normalized);
        // The description's due phrase, read at most once (a long description is the
        // costly part of a profile): the due when the title has none, and the dates
        // when the title names no day.
        let description_due = std::cell::OnceCell::new();
        let description_due = || *description_due.get_or_init(|| dates::find_due_match(&description_normalized, today));
        let (title_due, title_dates) = dates::find_due_and_dates(&normalized, today);
        Fingerprint {
            stems: stems::stems_of_normalized(&normalized),
            description_stems: if stem_description {
                stems::stems_of_normalized(&description_normalized)
            } else {
                Vec::new()
            },
            trigrams: trigrams::trigrams_of_normalized(&normalized),
            amounts: if title_amounts.is_empty() {
                amount::amounts_of_normalized(&description_normalized)
            } else {
                title_amounts
            },
            due: title_due.or_else(description_due).map(|m| m.due),
            dates: if title_dates.is_empty() {
                // A description quotes messages that name many days; only its due
                // phrase speaks for the task.
                description_due().filter(|m| m.due.kind == DueKind::Day).map(|m| m.due.date).into_iter().collect()
            } else {
                title_dates
            },
            concepts: concepts_of(title),
            normalized,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;
    use proptest::prelude::*;

    proptest! {
        /// Every text function takes any input without panicking, even at the ends of
        /// jiff's date range.
        #[test]
        fn never_panics(
            s in "[0-9 .,:/a-zа-я€$₽-]{0,30}|\\PC{0,30}",
            today in prop_oneof![Just(Date::MIN), Just(Date::MAX), Just(date(2026, 4, 1))],
        ) {
            let _ = Fingerprint::of(&s, &s, today);
            let _ = parse_due(&s, today);
            let _ = parse_amount_flag(&s);
            let _ = trigram_jaccard(&s, "send invoice");
        }
    }

    #[test]
    fn seed_worked_example() {
        let today = date(2026, 4, 1);
        let new = Fingerprint::of("Send the invoice for 15 000 ₽ by Friday", "", today);
        let req22 = Fingerprint::of("Send the invoice for 15000 ₽", "", today);
        assert_eq!(new.stems, ["send", "invoic", "15000", "friday"]);
        let shared = new.stems.iter().filter(|s| req22.stems.contains(s)).count();
        assert_eq!(shared, 3);
        assert_eq!(new.amounts, req22.amounts);
        assert_eq!(new.amounts[0].minor, 1_500_000);
        assert_eq!(new.due.map(|d| d.date), Some(date(2026, 4, 3)));
        assert_eq!(req22.due, None);
        assert_eq!(new.concepts, req22.concepts);
    }

    #[test]
    fn description_fills_in() {
        let today = date(2026, 3, 31);
        let f = Fingerprint::of(
            "Сделать 3 варианта обложки летнего меню",
            "Ирина: к среде нужны три варианта, 5 000 ₽",
            today,
        );
        assert_eq!(f.due.map(|d| d.date), Some(date(2026, 4, 1)));
        assert_eq!(f.amounts.len(), 1);
        assert!(f.description_stems.contains(&"ирин".to_owned()));
    }
}
