//! The one list of weekday and month words (English, Russian, Spanish, and the weekdays
//! of Dutch, German and French; normalized:
//! lowercase, `ё`→`е`, no accents), read by the date parser ([`crate::dates`]) and by
//! the duplicate check, which matches a weekday or a month across languages (четверг /
//! Thursday / jueves), keeps them out of people's names and never takes one for a rare
//! identifier. Two lists drifted apart before: the check knew «пятницу» as no weekday.
//!
//! What it does not do: read dates (that is [`crate::dates`]), or stem.

use std::collections::HashMap;
use std::sync::LazyLock;

use jiff::civil::Weekday;

/// Every weekday word: the word, its weekday, and whether it is often something else
/// ("sat", "sun", «среда» the environment, "domingo" a name), so text needs a
/// preposition or a modifier before it to read it as a day.
pub const WEEKDAY_WORDS: &[(&str, Weekday, bool)] = {
    use Weekday::*;
    &[
        ("monday", Monday, false),
        ("понедельник", Monday, false),
        ("понедельника", Monday, false),
        ("понедельнику", Monday, false),
        ("пн", Monday, false),
        ("lunes", Monday, false),
        ("mon", Monday, true),
        ("tuesday", Tuesday, false),
        ("tue", Tuesday, false),
        ("tues", Tuesday, false),
        ("вторник", Tuesday, false),
        ("вторника", Tuesday, false),
        ("вторнику", Tuesday, false),
        ("вт", Tuesday, false),
        ("martes", Tuesday, false),
        ("wednesday", Wednesday, false),
        ("wed", Wednesday, false),
        ("среду", Wednesday, false),
        ("miercoles", Wednesday, false),
        ("среда", Wednesday, true),
        ("среды", Wednesday, true),
        ("среде", Wednesday, true),
        ("ср", Wednesday, true),
        ("thursday", Thursday, false),
        ("thu", Thursday, false),
        ("thur", Thursday, false),
        ("thurs", Thursday, false),
        ("четверг", Thursday, false),
        ("четверга", Thursday, false),
        ("четвергу", Thursday, false),
        ("чт", Thursday, false),
        ("jueves", Thursday, false),
        ("friday", Friday, false),
        ("fri", Friday, false),
        ("пятница", Friday, false),
        ("пятницу", Friday, false),
        ("пятницы", Friday, false),
        ("пятнице", Friday, false),
        ("пт", Friday, false),
        ("viernes", Friday, false),
        ("saturday", Saturday, false),
        ("суббота", Saturday, false),
        ("субботу", Saturday, false),
        ("субботы", Saturday, false),
        ("субботе", Saturday, false),
        ("сб", Saturday, false),
        ("sabado", Saturday, false),
        ("sat", Saturday, true),
        ("sunday", Sunday, false),
        ("воскресенье", Sunday, false),
        ("воскресенья", Sunday, false),
        ("воскресенью", Sunday, false),
        ("sun", Sunday, true),
        ("вс", Sunday, true),
        ("domingo", Sunday, true),
        // Dutch and German: the weekdays of a Russian speaker in Belgium, the
        // Netherlands, Germany or Austria, written as the signs around them say them.
        ("maandag", Monday, false),
        ("dinsdag", Tuesday, false),
        ("woensdag", Wednesday, false),
        ("donderdag", Thursday, false),
        ("vrijdag", Friday, false),
        ("zaterdag", Saturday, false),
        ("zondag", Sunday, false),
        ("montag", Monday, false),
        ("dienstag", Tuesday, false),
        ("mittwoch", Wednesday, false),
        ("donnerstag", Thursday, false),
        ("freitag", Friday, false),
        ("samstag", Saturday, false),
        ("sonntag", Sunday, false),
        // French, for Quebec, Belgium and France.
        ("lundi", Monday, false),
        ("mardi", Tuesday, false),
        ("mercredi", Wednesday, false),
        ("jeudi", Thursday, false),
        ("vendredi", Friday, false),
        ("samedi", Saturday, false),
        ("dimanche", Sunday, false),
    ]
};

/// Every month word as the date parser reads it whole: the word, its month (1–12),
/// and whether it is often something else ("may", "march" verbs, "mar" the sea, "ago").
/// The parser reads a month word only in a date — beside a day number ("May 3"; "you
/// may 2x" is none) or after "the end of" (a flagged word only right after `of`);
/// in running text [`month_mention`] takes a flagged word only capitalized.
pub const MONTH_WORDS: &[(&str, i8, bool)] = &[
    ("january", 1, false),
    ("jan", 1, false),
    ("января", 1, false),
    ("январь", 1, false),
    ("янв", 1, false),
    ("enero", 1, false),
    ("ene", 1, false),
    ("february", 2, false),
    ("feb", 2, false),
    ("февраля", 2, false),
    ("февраль", 2, false),
    ("фев", 2, false),
    ("февр", 2, false),
    ("febrero", 2, false),
    ("march", 3, true),
    ("mar", 3, true),
    ("марта", 3, false),
    ("март", 3, false),
    ("мар", 3, false),
    ("marzo", 3, false),
    ("april", 4, false),
    ("apr", 4, false),
    ("апреля", 4, false),
    ("апрель", 4, false),
    ("апр", 4, false),
    ("abril", 4, false),
    ("abr", 4, false),
    ("may", 5, true),
    ("мая", 5, false),
    ("май", 5, false),
    ("mayo", 5, false),
    ("june", 6, false),
    ("jun", 6, false),
    ("июня", 6, false),
    ("июнь", 6, false),
    ("июн", 6, false),
    ("junio", 6, false),
    ("july", 7, false),
    ("jul", 7, false),
    ("июля", 7, false),
    ("июль", 7, false),
    ("июл", 7, false),
    ("julio", 7, false),
    ("august", 8, false),
    ("aug", 8, false),
    ("августа", 8, false),
    ("август", 8, false),
    ("авг", 8, false),
    ("agosto", 8, false),
    ("ago", 8, true),
    ("september", 9, false),
    ("sep", 9, false),
    ("sept", 9, false),
    ("сентября", 9, false),
    ("сентябрь", 9, false),
    ("сен", 9, false),
    ("сент", 9, false),
    ("septiembre", 9, false),
    ("setiembre", 9, false),
    ("october", 10, false),
    ("oct", 10, false),
    ("октября", 10, false),
    ("октябрь", 10, false),
    ("окт", 10, false),
    ("octubre", 10, false),
    ("november", 11, false),
    ("nov", 11, false),
    ("ноября", 11, false),
    ("ноябрь", 11, false),
    ("ноя", 11, false),
    ("нояб", 11, false),
    ("noviembre", 11, false),
    ("december", 12, false),
    ("dec", 12, false),
    ("декабря", 12, false),
    ("декабрь", 12, false),
    ("дек", 12, false),
    ("diciembre", 12, false),
    ("dic", 12, false),
];

/// The start every case form of a Russian month name shares («в январе», «к январю»,
/// «до января»), with its month; May's forms are too short for a start and are listed
/// whole in [`MAY_RU`]. The date parser reads only the forms a date uses
/// ([`MONTH_WORDS`]); a mention outside a date takes any case.
pub const MONTH_STARTS_RU: &[(&str, i8)] = &[
    ("январ", 1),
    ("феврал", 2),
    ("март", 3),
    ("апрел", 4),
    ("июн", 6),
    ("июл", 7),
    ("август", 8),
    ("сентябр", 9),
    ("октябр", 10),
    ("ноябр", 11),
    ("декабр", 12),
];

/// Every case form of «май».
pub const MAY_RU: &[&str] = &["май", "мая", "мае", "маю", "маем"];

static WEEKDAYS: LazyLock<HashMap<&'static str, (Weekday, bool)>> =
    LazyLock::new(|| WEEKDAY_WORDS.iter().map(|(w, d, c)| (*w, (*d, *c))).collect());
static MONTHS: LazyLock<HashMap<&'static str, (i8, bool)>> =
    LazyLock::new(|| MONTH_WORDS.iter().map(|(w, m, c)| (*w, (*m, *c))).collect());

/// Returns the weekday a normalized token names, and whether text needs a preposition
/// or modifier before it to count (see [`WEEKDAY_WORDS`]).
pub fn weekday_word(token: &str) -> Option<(Weekday, bool)> {
    WEEKDAYS.get(token).copied()
}

/// Returns the month (1–12) a normalized token names whole, and whether it is often
/// another word (see [`MONTH_WORDS`]).
pub fn month_word(token: &str) -> Option<(i8, bool)> {
    MONTHS.get(token).copied()
}

/// Returns the month a normalized word names in running text: any case of a Russian
/// month, or a word of [`MONTH_WORDS`] — one that is often another word ("may",
/// "march") only when `capitalized`.
pub fn month_mention(lower: &str, capitalized: bool) -> Option<i8> {
    if let Some((_, m)) = MONTH_STARTS_RU.iter().find(|(p, _)| lower.starts_with(p)) {
        return Some(*m);
    }
    if MAY_RU.contains(&lower) {
        return Some(5);
    }
    match month_word(lower) {
        Some((m, other_word)) if !other_word || capitalized => Some(m),
        _ => None,
    }
}

/// Every word of the lists above, for those that need them all (the duplicate
/// check's calendar stems).
pub fn all_words() -> impl Iterator<Item = &'static str> {
    WEEKDAY_WORDS.iter().map(|(w, _, _)| *w).chain(MONTH_WORDS.iter().map(|(w, _, _)| *w)).chain(MAY_RU.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_listed_once_and_normalized() {
        let weekdays: Vec<&str> = WEEKDAY_WORDS.iter().map(|(w, _, _)| *w).collect();
        let months: Vec<&str> = MONTH_WORDS.iter().map(|(w, _, _)| *w).collect();
        for list in [weekdays, months, MAY_RU.to_vec()] {
            let unique: std::collections::BTreeSet<&str> = list.iter().copied().collect();
            assert_eq!(unique.len(), list.len(), "a word is listed twice in {list:?}");
        }
        for w in all_words() {
            assert_eq!(crate::normalize(w), w, "{w} is not in normalized form");
        }
    }

    #[test]
    fn words_name_their_day_and_month() {
        assert_eq!(weekday_word("пятницу"), Some((Weekday::Friday, false)));
        assert_eq!(weekday_word("jueves"), Some((Weekday::Thursday, false)));
        assert_eq!(weekday_word("sat"), Some((Weekday::Saturday, true)));
        assert_eq!(weekday_word("saturn"), None);
        assert_eq!(month_word("дек"), Some((12, false)));
        assert_eq!(month_word("may"), Some((5, true)));
        assert_eq!(month_mention("январе", false), Some(1));
        assert_eq!(month_mention("мае", false), Some(5));
        assert_eq!(month_mention("may", false), None);
        assert_eq!(month_mention("may", true), Some(5));
        assert_eq!(month_mention("ago", false), None);
        assert_eq!(month_mention("abril", false), Some(4));
        assert_eq!(month_mention("mayor", true), None);
    }
}
