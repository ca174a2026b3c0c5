//! The duplicate check's comparisons and their ordered levels, as types.
//!
//! Every place that must agree on a level — the comparison that produces it, the weight
//! table, the reasons, retraining — matches on these enums, so a new level breaks every
//! `match` that must decide about it, and an unknown level cannot be spelled. Strings
//! appear only where a level meets SQL (`dup_decisions.levels`, `dup_weights`) or JSON
//! (`--json` candidates): [`Level::as_str`], [`Levels::to_map`], [`Level::parse`].
//!
//! What it deliberately does not do: decide levels (that is `compare`) or weigh them
//! (that is `weights`).

use std::collections::BTreeMap;

/// Declares one comparison's level enum with its spellings, strongest agreement first.
macro_rules! levels {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every level, in the order the enum lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// Returns the spelling used in the store and in JSON.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// Reads a stored spelling; `None` for one this version does not know.
            pub fn parse(text: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|l| l.as_str() == text)
            }
        }
    };
}

levels! {
    /// Where the two requests came from, read as ONE piece of evidence: who wrote them,
    /// in which chat and whether one replies to the other are not independent (a reply
    /// usually comes from another member of the same chat; a group-vs-private repeat
    /// has the same person in another chat), so each combination is its own level.
    SourceLevel {
        /// The new task's message replies to the candidate's.
        Reply = "reply",
        /// Both are in one reply thread.
        SameThread = "same_thread",
        /// Same person, same chat, not a reply.
        SamePersonSameChat = "same_person_same_chat",
        /// Same person in another chat (group vs private).
        SamePersonOtherChat = "same_person_other_chat",
        /// Same person, chat unknown on a side.
        SamePerson = "same_person",
        /// Same chat, person unknown on a side.
        SameChat = "same_chat",
        /// Another person in the same chat.
        SameChatOtherPerson = "same_chat_other_person",
        /// Nothing known about either.
        Unknown = "unknown",
        /// Another chat, person unknown on a side.
        OtherChat = "other_chat",
        /// Another person, and no chat in common (another chat, or none on a side).
        Different = "different",
    }
}

impl SourceLevel {
    /// True for the levels where both tasks come from the same person (the ones whose
    /// weight gets the person's term-frequency adjustment).
    pub fn is_same_person(self) -> bool {
        matches!(self, SourceLevel::SamePersonSameChat | SourceLevel::SamePersonOtherChat | SourceLevel::SamePerson)
    }
}

levels! {
    /// How alike the titles are, strongest agreement first; the first that holds is
    /// taken (three measures of title similarity are never summed).
    TextLevel {
        /// The same normalized title.
        Exact = "exact",
        /// Most stems shared.
        Most = "most",
        /// About half the stems shared.
        Half = "half",
        /// Most words match through stems, concepts or transliteration.
        UnitsMost = "units_most",
        /// The words the stems missed are spelled alike (typos, word forms).
        Trigram = "trigram",
        /// A rare stem is shared.
        Rare = "rare",
        /// About half the words match in meaning.
        UnitsHalf = "units_half",
        /// Two words match in meaning.
        UnitsTwo = "units_two",
        /// Close title embeddings across scripts (only with an embedder attached).
        EmbedClose = "embed_close",
        /// Some common stem shared.
        Common = "common",
        /// Only a concept shared, across languages.
        ConceptCross = "concept_cross",
        /// Only a concept shared.
        Concept = "concept",
        /// Nothing shared.
        None = "none",
    }
}

levels! {
    /// How alike the descriptions are (the title is not measured twice).
    ContextLevel {
        /// Many description units shared.
        High = "high",
        /// Some shared.
        Mid = "mid",
        /// Few or none shared.
        Low = "low",
        /// A side has no description: no information.
        Empty = "empty",
    }
}

levels! {
    /// Whether one field (amount, due, category) agrees.
    Agreement {
        /// Both have it and it is equal.
        Same = "same",
        /// Both have it and it differs.
        Different = "different",
        /// A side lacks it.
        Unknown = "unknown",
    }
}

levels! {
    /// How the amounts agree, closest first (issue 16): a relayed duplicate rounds
    /// («за свет 96 евро» for "96,40 €") or writes a total a little off.
    AmountLevel {
        /// The same amount and currency.
        Same = "same",
        /// The same currency and, rounded to the whole unit, the same amount — or
        /// within [`AMOUNT_CLOSE_SHARE`] of each other.
        Close = "close",
        /// Both have one and they differ (another currency, or further apart).
        Different = "different",
        /// A side lacks it.
        Unknown = "unknown",
    }
}

/// Two amounts in one currency within this share of the larger are `close`: a relayed
/// figure is rounded or quoted before a small fee, never 10 % off.
pub const AMOUNT_CLOSE_SHARE: f64 = 0.03;

levels! {
    /// How far apart in time the two tasks were created.
    AgeLevel {
        /// Within a day.
        Day = "day",
        /// Within three days.
        Days3 = "days3",
        /// Within a week.
        Week = "week",
        /// A week or more, the earlier one still open.
        Older = "older",
        /// Three days or more, and the earlier one was closed before the later one was
        /// created: a request repeated after it was done is a new instance far more
        /// often than a duplicate (issue 16: on every labelled set at most one
        /// duplicate in a hundred, while most random pairs are such).
        Closed = "closed",
    }
}

levels! {
    /// Whether the tasks name different things of one class — the one place that
    /// orders the classes: agreement first, then conflicts from weakest to strongest,
    /// so the strongest conflict is the last one listed (a different relative says more
    /// than a different month, which says more than another name).
    EntityLevel {
        /// No conflicting entity.
        NoConflict = "none",
        /// Each side names someone the other never mentions.
        Name = "name",
        /// Different months (the May rent vs the June rent).
        Month = "month",
        /// Different relatives (a gift for mum vs for dad).
        Relative = "relative",
    }
}

impl EntityLevel {
    /// Returns the strongest of the conflicts found, or [`EntityLevel::NoConflict`]:
    /// classes are not summed, the strongest speaks.
    pub fn strongest(conflicts: &[EntityLevel]) -> EntityLevel {
        EntityLevel::ALL.iter().rev().copied().find(|l| conflicts.contains(l)).unwrap_or(EntityLevel::NoConflict)
    }
}

/// One piece of evidence the check compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Comparison {
    /// Person × chat × reply thread.
    Source,
    /// Amount and currency.
    Amount,
    /// The titles.
    Text,
    /// The descriptions.
    Context,
    /// The due dates.
    Due,
    /// The categories.
    Category,
    /// Creation times.
    Age,
    /// Conflicting months, relatives, names.
    Entity,
}

impl Comparison {
    /// Every comparison, in the order reasons are printed.
    pub const ALL: &'static [Comparison] = &[
        Comparison::Source,
        Comparison::Amount,
        Comparison::Text,
        Comparison::Context,
        Comparison::Due,
        Comparison::Category,
        Comparison::Age,
        Comparison::Entity,
    ];

    /// Returns the spelling used in the store and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Comparison::Source => "source",
            Comparison::Amount => "amount",
            Comparison::Text => "text",
            Comparison::Context => "context",
            Comparison::Due => "due",
            Comparison::Category => "category",
            Comparison::Age => "age",
            Comparison::Entity => "entity",
        }
    }

    /// Reads a stored spelling; `None` for a comparison this version does not have (the
    /// retired `person` and `thread`, which `source` replaced).
    pub fn parse(text: &str) -> Option<Comparison> {
        Comparison::ALL.iter().copied().find(|c| c.as_str() == text)
    }

    /// Returns every level this comparison can produce, in its enum's order.
    pub fn levels(self) -> Vec<Level> {
        match self {
            Comparison::Source => SourceLevel::ALL.iter().map(|l| Level::Source(*l)).collect(),
            Comparison::Amount => AmountLevel::ALL.iter().map(|l| Level::Amount(*l)).collect(),
            Comparison::Text => TextLevel::ALL.iter().map(|l| Level::Text(*l)).collect(),
            Comparison::Context => ContextLevel::ALL.iter().map(|l| Level::Context(*l)).collect(),
            Comparison::Due => Agreement::ALL.iter().map(|l| Level::Due(*l)).collect(),
            Comparison::Category => Agreement::ALL.iter().map(|l| Level::Category(*l)).collect(),
            Comparison::Age => AgeLevel::ALL.iter().map(|l| Level::Age(*l)).collect(),
            Comparison::Entity => EntityLevel::ALL.iter().map(|l| Level::Entity(*l)).collect(),
        }
    }
}

/// The level one comparison took: the comparison and its level in one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// See [`SourceLevel`].
    Source(SourceLevel),
    /// See [`AmountLevel`].
    Amount(AmountLevel),
    /// See [`TextLevel`].
    Text(TextLevel),
    /// See [`ContextLevel`].
    Context(ContextLevel),
    /// See [`Agreement`].
    Due(Agreement),
    /// See [`Agreement`].
    Category(Agreement),
    /// See [`AgeLevel`].
    Age(AgeLevel),
    /// See [`EntityLevel`].
    Entity(EntityLevel),
}

impl Level {
    /// Returns the comparison this level belongs to.
    pub fn comparison(self) -> Comparison {
        match self {
            Level::Source(_) => Comparison::Source,
            Level::Amount(_) => Comparison::Amount,
            Level::Text(_) => Comparison::Text,
            Level::Context(_) => Comparison::Context,
            Level::Due(_) => Comparison::Due,
            Level::Category(_) => Comparison::Category,
            Level::Age(_) => Comparison::Age,
            Level::Entity(_) => Comparison::Entity,
        }
    }

    /// Returns the level's own spelling (`most`, `same`), without the comparison.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Source(l) => l.as_str(),
            Level::Amount(l) => l.as_str(),
            Level::Due(l) | Level::Category(l) => l.as_str(),
            Level::Text(l) => l.as_str(),
            Level::Context(l) => l.as_str(),
            Level::Age(l) => l.as_str(),
            Level::Entity(l) => l.as_str(),
        }
    }

    /// Reads a stored (comparison, level) pair; `None` when either is unknown to this
    /// version (levels recorded by an older one).
    pub fn parse(comparison: &str, level: &str) -> Option<Level> {
        // "Another person, chat unknown" was a level of its own until issue 16 read it
        // as another source; a decision recorded with it is that level now.
        if (comparison, level) == ("source", "other_person") {
            return Some(Level::Source(SourceLevel::Different));
        }
        Comparison::parse(comparison)?.levels().into_iter().find(|l| l.as_str() == level)
    }

    /// Returns the Rust expression of this level, for the generated weight table.
    pub fn to_rust(self) -> String {
        let (family, variant) = match self {
            Level::Source(l) => ("SourceLevel", format!("{l:?}")),
            Level::Amount(l) => ("AmountLevel", format!("{l:?}")),
            Level::Due(l) | Level::Category(l) => ("Agreement", format!("{l:?}")),
            Level::Text(l) => ("TextLevel", format!("{l:?}")),
            Level::Context(l) => ("ContextLevel", format!("{l:?}")),
            Level::Age(l) => ("AgeLevel", format!("{l:?}")),
            Level::Entity(l) => ("EntityLevel", format!("{l:?}")),
        };
        format!("Level::{:?}({family}::{variant})", self.comparison())
    }
}

/// The level every comparison took for one pair. A struct, not a map: a pair always
/// has all of them, and a comparison cannot be forgotten or spelled twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    /// Person × chat × thread.
    pub source: SourceLevel,
    /// Amount.
    pub amount: AmountLevel,
    /// Title.
    pub text: TextLevel,
    /// Description.
    pub context: ContextLevel,
    /// Due date.
    pub due: Agreement,
    /// Category.
    pub category: Agreement,
    /// Creation times.
    pub age: AgeLevel,
    /// Conflicting entities.
    pub entity: EntityLevel,
}

impl Levels {
    /// Returns whether anything beside the words agrees: the same person, chat or
    /// thread, the same amount, due or category.
    pub fn beyond_words(&self) -> bool {
        matches!(
            self.source,
            SourceLevel::Reply
                | SourceLevel::SameThread
                | SourceLevel::SamePersonSameChat
                | SourceLevel::SamePersonOtherChat
                | SourceLevel::SamePerson
                | SourceLevel::SameChat
        ) || matches!(self.amount, AmountLevel::Same | AmountLevel::Close)
            || self.due == Agreement::Same
            || self.category == Agreement::Same
    }

    /// Returns the levels in [`Comparison::ALL`] order.
    pub fn all(&self) -> [Level; 8] {
        [
            Level::Source(self.source),
            Level::Amount(self.amount),
            Level::Text(self.text),
            Level::Context(self.context),
            Level::Due(self.due),
            Level::Category(self.category),
            Level::Age(self.age),
            Level::Entity(self.entity),
        ]
    }

    /// Returns comparison → level spellings, for the store and JSON.
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.all().iter().map(|l| (l.comparison().as_str().to_string(), l.as_str().to_string())).collect()
    }
}

/// Reads stored comparison → level spellings, keeping the levels this version knows.
///
/// Decisions recorded by an older version may carry retired comparisons (`person`,
/// `thread`); they say nothing about today's comparisons and are left out, which is
/// what counting needs (see `LevelCounts`: a comparison is counted over the pairs
/// that carry it).
pub fn parse_map(map: &BTreeMap<String, String>) -> Vec<Level> {
    map.iter().filter_map(|(c, l)| Level::parse(c, l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_reads_back_from_its_spelling() {
        for c in Comparison::ALL {
            assert_eq!(Comparison::parse(c.as_str()), Some(*c));
            for l in c.levels() {
                assert_eq!(l.comparison(), *c);
                assert_eq!(Level::parse(c.as_str(), l.as_str()), Some(l), "{l:?}");
            }
        }
        assert_eq!(Level::parse("person", "same"), None, "a retired comparison");
        assert_eq!(
            Level::parse("source", "other_person"),
            Some(Level::Source(SourceLevel::Different)),
            "a retired level read as the one that took it over"
        );
        assert_eq!(Level::parse("text", "stems_most"), None, "an unknown level");
    }

    #[test]
    fn the_strongest_entity_conflict_speaks() {
        use EntityLevel::*;
        assert_eq!(EntityLevel::strongest(&[]), NoConflict);
        assert_eq!(EntityLevel::strongest(&[Name, Month]), Month);
        assert_eq!(EntityLevel::strongest(&[Name, Relative, Month]), Relative);
        assert_eq!(EntityLevel::strongest(&[Name]), Name);
    }

    #[test]
    fn levels_map_round_trips() {
        let levels = Levels {
            source: SourceLevel::Reply,
            amount: AmountLevel::Same,
            text: TextLevel::Most,
            context: ContextLevel::Empty,
            due: Agreement::Unknown,
            category: Agreement::Different,
            age: AgeLevel::Days3,
            entity: EntityLevel::Month,
        };
        let map = levels.to_map();
        assert_eq!(map["text"], "most");
        assert_eq!(map["entity"], "month");
        let mut read = parse_map(&map);
        read.sort();
        let mut all = levels.all().to_vec();
        all.sort();
        assert_eq!(read, all);
    }

    #[test]
    fn the_rust_spelling_names_the_family() {
        assert_eq!(Level::Due(Agreement::Same).to_rust(), "Level::Due(Agreement::Same)");
        assert_eq!(Level::Text(TextLevel::UnitsTwo).to_rust(), "Level::Text(TextLevel::UnitsTwo)");
    }
}
