//! What the duplicate check knows about one task: its text features (normalized title,
//! stems per token, trigrams, concepts, distinguishing entities) and its signature
//! fields (person, amount, due, category, chat, reply thread, age).
//!
//! Built the same way for the new task and for every candidate, so a comparison never
//! mixes two ways of reading text. No SQL here and no scoring.

use std::collections::BTreeSet;

use jiff::civil::Date;
use tasks_text::stems::{Script, TokenStems, token_stems};
use tasks_text::{Fingerprint, lexicon};

use crate::dedup::entities::{self, Entities};
use crate::model::{Due, Money};

/// One task as the check sees it.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Row id (0 for the new task).
    pub id: i64,
    /// The normalized title.
    pub normalized: String,
    /// Content tokens of the title with their stems.
    pub tokens: Vec<TokenStems>,
    /// Every stem of the title.
    pub stems: BTreeSet<String>,
    /// Stems of the description alone (empty when there is none): the context
    /// comparison's, so the title is never measured a second time.
    pub description_stems: BTreeSet<String>,
    /// Character trigrams of the title.
    pub trigrams: BTreeSet<String>,
    /// Cross-language concepts of the title.
    pub concepts: BTreeSet<&'static str>,
    /// Per title token, the keys it can match by in another language: its stems, its
    /// lexicon concepts, and its transliterated prefix (Тверской / Tverskaya).
    pub token_units: Vec<BTreeSet<String>>,
    /// Union of `token_units`.
    pub units: BTreeSet<String>,
    /// The scripts the title is written in (for "cross-language" reasons).
    pub latin: bool,
    /// True when the title has Cyrillic words.
    pub cyrillic: bool,
    /// Distinguishing entities: months, kin, named people or clients.
    pub entities: Entities,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money: the flag's, else the first amount in the text.
    pub amount: Option<Money>,
    /// Due: the flag's, else the due phrase in the text.
    pub due: Option<Due>,
    /// Every day the task names: the due field's and those of the title (else the
    /// description), both ends of a range. The due comparison reads these.
    pub dates: BTreeSet<jiff::civil::Date>,
    /// Category.
    pub category: Option<String>,
    /// Chat of the source message.
    pub chat: Option<String>,
    /// The task this one's message replies to.
    pub reply_to_id: Option<i64>,
    /// Creation time, epoch ms.
    pub created_at: i64,
    /// Close time, epoch ms (`None` while open).
    pub closed_at: Option<i64>,
    /// Sentence embedding of the title (dedup::embed), set by the check only when an
    /// embedder is attached and the lexical text levels are weak; `None` otherwise.
    pub embedding: Option<Vec<f32>>,
}

/// Shortest word matched by its transliterated prefix across scripts.
pub const TRANSLIT_MIN: usize = 4;
/// Letters of the transliterated prefix compared: names and loan words agree on their
/// first four letters across scripts and case endings (Тверской / Tverskaya → "tver").
pub const TRANSLIT_PREFIX: usize = 4;

/// The fields a profile is built from.
#[derive(Debug, Clone, Default)]
pub struct ProfileInput<'a> {
    /// Row id, 0 for a task not written yet.
    pub id: i64,
    /// Title.
    pub title: &'a str,
    /// Description.
    pub description: &'a str,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money given as a field (wins over the text).
    pub amount: Option<Money>,
    /// Due given as a field (wins over the text).
    pub due: Option<Due>,
    /// Category.
    pub category: Option<&'a str>,
    /// Chat.
    pub chat: Option<&'a str>,
    /// Reply-to task id.
    pub reply_to_id: Option<i64>,
    /// Creation time, epoch ms.
    pub created_at: i64,
    /// Close time, epoch ms (`None` while open, and for the new task).
    pub closed_at: Option<i64>,
    /// The day relative due phrases are read against (the creation day).
    pub today: Option<Date>,
}

/// What [`Profile::for_index`] computes.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexProfile {
    /// The normalized title and whole description (`task_words`).
    pub words: String,
    /// Stems and concept terms (`task_stems`), as [`Profile::index_terms`].
    pub terms: String,
    /// The amount (the field, else the first one in the text).
    pub amount: Option<Money>,
    /// The due (the field, else a phrase in the text).
    pub due: Option<Due>,
}

/// How much of a description the check reads, in characters. A check builds up to 41
/// profiles under the write lock (the new task and its candidates), at about 1 ms per
/// KB of text: reading whole 32,768-character descriptions could hold every other
/// writer for a second and a half. The first 4,000 characters of a quoted message carry
/// its gist; the labelled sets' longest description is 221 characters, so no measured
/// figure moves.
pub const DESCRIPTION_CHECKED_CHARS: usize = 4_000;

/// Returns the start of a description the check reads (whole characters).
fn checked_part(description: &str) -> &str {
    match description.char_indices().nth(DESCRIPTION_CHECKED_CHARS) {
        Some((end, _)) => &description[..end],
        None => description,
    }
}

impl Profile {
    /// Builds the profile of a task.
    pub fn of(input: &ProfileInput<'_>) -> Profile {
        Profile::build(input, true)
    }

    /// Builds the profile of a candidate for a new task that has no description: the
    /// same, with `description_stems` left empty ([`Fingerprint::of_without_description_stems`]);
    /// the comparisons read them only when both sides have a description.
    pub(crate) fn of_candidate_without_description_stems(input: &ProfileInput<'_>) -> Profile {
        Profile::build(input, false)
    }

    fn build(input: &ProfileInput<'_>, stem_description: bool) -> Profile {
        let description = checked_part(input.description);
        let input = &ProfileInput { description, ..input.clone() };
        let today = input.today.unwrap_or(Date::constant(2000, 1, 1));
        let fp = if stem_description {
            Fingerprint::of(input.title, input.description, today)
        } else {
            Fingerprint::of_without_description_stems(input.title, input.description, today)
        };
        let tokens = token_stems(input.title);
        let concepts = lexicon::concepts(&tokens).into_iter().map(|c| c.name()).collect();
        let stems: BTreeSet<String> = tokens.iter().flat_map(|t| t.all_stems().cloned()).collect();
        let amount = input.amount.clone().or_else(|| fp.amounts.first().map(crate::input::from_text_amount));
        let due = input.due.or_else(|| fp.due.map(crate::input::from_text_due));
        let mut dates: BTreeSet<jiff::civil::Date> = fp.dates.iter().copied().collect();
        dates.extend(input.due.map(|d| d.date));
        let token_units = units_of(&tokens);
        let units: BTreeSet<String> = token_units.iter().flatten().cloned().collect();
        Profile {
            id: input.id,
            description_stems: fp.description_stems.iter().cloned().collect(),
            token_units,
            units,
            latin: tokens.iter().any(|t| t.script == Script::Latin),
            cyrillic: tokens.iter().any(|t| t.script == Script::Cyrillic),
            entities: entities::of(input.title, input.description),
            normalized: fp.normalized,
            stems,
            trigrams: fp.trigrams,
            concepts,
            tokens,
            person_id: input.person_id,
            amount,
            due,
            dates,
            category: input.category.map(|c| c.trim().to_lowercase()).filter(|c| !c.is_empty()),
            chat: input.chat.map(str::to_string),
            reply_to_id: input.reply_to_id,
            created_at: input.created_at,
            closed_at: input.closed_at,
            embedding: None,
        }
    }

    /// Computes only what the index rows of a new task need — the terms, the amount and
    /// the due — with the same results as [`Profile::of`] (a test holds them equal) at
    /// about half its cost: no trigrams, entities or matching units. A bulk import runs it
    /// once per line. Also returns the normalized title and description, which the words
    /// index holds.
    pub fn for_index(input: &ProfileInput<'_>) -> IndexProfile {
        let full_description = input.description;
        let description = checked_part(full_description);
        let today = input.today.unwrap_or(Date::constant(2000, 1, 1));
        let title_normalized = tasks_text::normalize(input.title);
        let description_normalized = tasks_text::normalize(description);
        let tokens = token_stems(input.title);
        let concepts: BTreeSet<&'static str> = lexicon::concepts(&tokens).into_iter().map(|c| c.name()).collect();
        let mut terms: BTreeSet<String> = tokens.iter().flat_map(|t| t.all_stems().cloned()).collect();
        terms.extend(tasks_text::stems::stems_of_normalized(&description_normalized));
        let mut index_terms: Vec<String> = terms.into_iter().collect();
        index_terms.extend(concepts.iter().map(|c| concept_term(c)));
        let amount = input.amount.clone().or_else(|| {
            let title_amounts = tasks_text::amount::amounts_of_normalized(&title_normalized);
            let found = if title_amounts.is_empty() {
                tasks_text::amount::amounts_of_normalized(&description_normalized)
            } else {
                title_amounts
            };
            found.first().map(crate::input::from_text_amount)
        });
        let due = input.due.or_else(|| {
            tasks_text::dates::find_due_match(&title_normalized, today)
                .or_else(|| tasks_text::dates::find_due_match(&description_normalized, today))
                .map(|m| crate::input::from_text_due(m.due))
        });
        let words_description = if description.len() == full_description.len() {
            description_normalized
        } else {
            tasks_text::normalize(full_description)
        };
        IndexProfile {
            words: format!("{title_normalized} {words_description}"),
            terms: index_terms.join(" "),
            amount,
            due,
        }
    }

    /// Returns the terms written to the `task_stems` index: stems of title and
    /// description, plus one pseudo-term per concept so that bm25 finds a task written
    /// in another language.
    pub fn index_terms(&self) -> String {
        // The union of two sorted sets, in order: each stem once.
        let mut terms: Vec<String> = self.stems.union(&self.description_stems).cloned().collect();
        terms.extend(self.concepts.iter().map(|c| concept_term(c)));
        terms.join(" ")
    }

    /// Returns the terms a bm25 query for this task uses: title stems and concepts.
    pub fn query_terms(&self) -> Vec<String> {
        let mut terms: Vec<String> = self.stems.iter().cloned().collect();
        terms.extend(self.concepts.iter().map(|c| concept_term(c)));
        terms
    }
}

/// Returns, per token, the keys it can match by: its stems, its lexicon concepts, and
/// its transliterated prefix.
fn units_of(tokens: &[TokenStems]) -> Vec<BTreeSet<String>> {
    tokens
        .iter()
        .map(|t| {
            let mut u: BTreeSet<String> = t.all_stems().map(|s| format!("s:{s}")).collect();
            for c in lexicon::concepts(std::slice::from_ref(t)) {
                u.insert(format!("c:{}", c.name()));
            }
            // A month matches its name in any language (март / March / marzo).
            if t.token.chars().count() >= 3
                && let Some(m) = entities::month_of_word(&t.token)
            {
                u.insert(format!("m:{m}"));
            }
            // So does a weekday (четверг / Thursday / jueves).
            if let Some(d) = entities::weekday_of_word(&t.token) {
                u.insert(format!("w:{d}"));
            }
            if t.token.chars().count() >= TRANSLIT_MIN && t.token.chars().all(char::is_alphabetic) {
                for key in entities::name_keys(&t.token) {
                    let prefix: String = key.chars().take(TRANSLIT_PREFIX).collect();
                    u.insert(format!("t:{prefix}"));
                }
            }
            // A model name in either script (Рав4 / RAV4, Х5 / X5): the whole word, digits
            // and all. A key holds a digit, so it never meets a name's letter prefix.
            for key in entities::model_keys(&t.token).unwrap_or_default() {
                u.insert(format!("t:{key}"));
            }
            u
        })
        .collect()
}

/// Returns the index term of a concept: `cx` + its letters, a word no language has.
pub fn concept_term(name: &str) -> String {
    let letters: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    format!("cx{letters}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bulk import's cheap profile must index a task exactly as the full one does.
    #[test]
    fn the_index_profile_gives_what_the_full_profile_gives() {
        let long = "описание ".repeat(700);
        let cases: &[(&str, &str, Option<Money>, Option<Due>)] = &[
            ("Send the invoice for 15 000 ₽ by Friday", "", None, None),
            ("Купить плитку в ванную", "синяя, 20 м² к субботе", None, None),
            ("Pagar el alquiler", "antes del 5 de mayo, 950 €", None, None),
            ("Call the dentist tomorrow", "", None, Some(Due::day(jiff::civil::date(2026, 3, 3)))),
            ("Renew passport", &long, Some(Money { minor: 5000, currency: "EUR".into() }), None),
            ("", "only a description with 40 USD", None, None),
            ("Upgrade BouncyCastle to 1.69", "ITestS3SelectLandsat times out", None, None),
        ];
        for (title, description, amount, due) in cases {
            let input = ProfileInput {
                id: 0,
                title,
                description,
                person_id: None,
                amount: amount.clone(),
                due: *due,
                category: None,
                chat: None,
                reply_to_id: None,
                created_at: 0,
                closed_at: None,
                today: Some(jiff::civil::date(2026, 3, 1)),
            };
            let full = Profile::of(&input);
            let quick = Profile::for_index(&input);
            assert_eq!(quick.terms, full.index_terms(), "{title}");
            assert_eq!(quick.amount, full.amount, "{title}");
            assert_eq!(quick.due, full.due, "{title}");
            assert_eq!(
                quick.words,
                format!("{} {}", tasks_text::normalize(title), tasks_text::normalize(description)),
                "{title}"
            );
        }
    }
}
