//! Every number of the duplicate check's scoring, in one place with its reason (SPEC §5,
//! STYLE "Numbers"): the level weights log2(m/u), how they are counted, the bands, the
//! prior behind the printed probability.
//!
//! The default m and u below are COUNTED, not tuned: m from the 85 labelled duplicate
//! pairs of `shared/data/dedup-dev` (each compared as of the later task's creation), u
//! from every other pair of its 260 tasks, with [`PSEUDO_COUNT`] added to each level,
//! u floored at [`U_FLOOR`], weights capped at ±[`WEIGHT_CAP`]. Regenerate them with
//! `tasks duplicates eval DIR --emit-weights`; `tasks duplicates retrain` re-counts them
//! from the store's own decisions and random pairs. The held-out set `data/dedup-holdout`
//! is never counted: `tasks duplicates eval data/dedup-holdout` scores it with this
//! table (`--weights-from DIR` with a table counted afresh on DIR).

use std::collections::BTreeMap;

use crate::dedup::levels::{
    AgeLevel, Agreement, AmountLevel, Comparison, ContextLevel, EntityLevel, Level, SourceLevel, TextLevel,
};

/// Score at and above which a candidate is "likely" the same task (SPEC §5.5).
pub const LIKELY: f64 = 10.0;
/// Score at and above which a candidate is "possible" (SPEC §5.5).
pub const POSSIBLE: f64 = 5.0;

/// Added to every level's count for u (Laplace smoothing over tens of thousands of
/// random pairs: it only matters for levels random pairs never reach).
pub const PSEUDO_COUNT: f64 = 1.0;

/// Pseudo-pairs added to the duplicates when counting m, spread evenly over a
/// comparison's levels: m = (count + 1/L) / (n + 1). One pseudo-pair keeps an unseen
/// level from weighing −∞ without drowning 85 real pairs. Three other priors were
/// tried on the dev set and rejected: one pseudo-count per level gave "names a
/// different relative" +2.9 bits from zero observations; a prior of two pairs
/// distributed like u gave every level unseen among the duplicates −5.4 bits however
/// rare it is among random pairs; priors as strong as the labels (or 1/u pairs) shrank
/// real evidence — "no shared word" fell from −5.7 to −1 bit.
pub const M_PSEUDO_PAIRS: f64 = 1.0;

/// Chains of levels ordered by strength of agreement, so their weights must not
/// increase down a chain; violations are pooled (isotonic regression, pool adjacent
/// violators). An exact title cannot be weaker evidence than most stems shared just
/// because the dev set has no verbatim duplicate.
pub fn ordered_chains() -> Vec<Vec<Level>> {
    use Agreement::{Different, Same, Unknown};
    use SourceLevel as S;
    vec![
        TextLevel::ALL.iter().map(|l| Level::Text(*l)).collect(),
        // `empty` (no description on a side) is no information, outside the chain.
        [ContextLevel::High, ContextLevel::Mid, ContextLevel::Low].map(Level::Context).to_vec(),
        AgeLevel::ALL.iter().map(|l| Level::Age(*l)).collect(),
        // Agreement, then no information, then disagreement (Fellegi–Sunter's order).
        // Source: for a fixed chat relation, the same person is never weaker evidence
        // than an unknown one, nor an unknown one than another person. Chat relations
        // are not ordered (a repeat in another chat — group vs private — is typical of
        // duplicates). On the dev set no duplicate came from the same person in the same
        // chat without a reply link (they are all replies there), which counted alone
        // gave that level −6.6 bits: a reminder re-sent without a reply would have been
        // refused as evidence; pooled with its chain it weighs what "same chat" weighs.
        // `Different` (another person, no chat in common) ends two chains. Pooling chain
        // by chain keeps both in order only while a shared level comes last in each:
        // pooling can only lower a chain's last weight, never raise it.
        [S::SamePersonSameChat, S::SameChat, S::SameChatOtherPerson].map(Level::Source).to_vec(),
        [S::SamePersonOtherChat, S::OtherChat, S::Different].map(Level::Source).to_vec(),
        [S::SamePerson, S::Unknown, S::Different].map(Level::Source).to_vec(),
        [AmountLevel::Same, AmountLevel::Close, AmountLevel::Unknown, AmountLevel::Different]
            .map(Level::Amount)
            .to_vec(),
        [Same, Unknown, Different].map(Level::Due).to_vec(),
        [Same, Unknown, Different].map(Level::Category).to_vec(),
        // No conflict is never weaker evidence than a conflict (the enum's own order).
        EntityLevel::ALL.iter().map(|l| Level::Entity(*l)).collect(),
    ]
}

/// Levels that exist only when an optional input is present (the embedding level needs
/// an embedder attached, cargo feature `embed`). Such a level is counted only when the
/// counted pairs reached it at least once; otherwise it is left out of the table and of
/// the smoothing, so a check without the embedder is counted exactly as before the
/// level existed. Absent from a table it weighs 0 — the only level allowed to be absent
/// (see the completeness test below).
pub const OPTIONAL_LEVELS: &[Level] = &[Level::Text(TextLevel::EmbedClose)];

/// The smallest u used: a level that random pairs almost never reach still says at
/// most log2(m / 0.001) ≈ 10 bits, so one comparison cannot decide alone.
pub const U_FLOOR: f64 = 0.001;

/// The largest magnitude one comparison's weight may have (bits). Keeps any single
/// field — even a rare exact title — from deciding a band by itself ("no single query
/// decides alone", seed 000).
pub const WEIGHT_CAP: f64 = 8.0;

/// Largest term-frequency adjustment (bits) of a same-person or same-amount match: a
/// rare value says more than an average one, a common value less, but never more than
/// this — the base weight was counted, the adjustment is a correction.
pub const TF_MAX_ADJUST: f64 = 3.0;

/// Fewest tasks carrying a value (a person, an amount) before term frequencies are
/// used: in a young store every frequency is an accident of the first few tasks.
pub const TF_MIN_TASKS: i64 = 50;

/// The counted m and u of one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelStat {
    /// P(level | duplicate).
    pub m: f64,
    /// P(level | not a duplicate).
    pub u: f64,
}

impl LevelStat {
    /// Returns log2(m/u), capped at ±[`WEIGHT_CAP`].
    pub fn weight(&self) -> f64 {
        (self.m / self.u.max(U_FLOOR)).log2().clamp(-WEIGHT_CAP, WEIGHT_CAP)
    }
}

/// The weights in use: level → (m, u), and the prior.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// level → stat.
    pub stats: BTreeMap<Level, LevelStat>,
    /// Share of random pairs that are duplicates (for the printed probability).
    pub prior: f64,
}

/// Counts behind a weight table: how often each level occurred among duplicates and
/// among random pairs.
#[derive(Debug, Clone, Default)]
pub struct LevelCounts {
    /// level → count among duplicate pairs.
    pub matches: BTreeMap<Level, f64>,
    /// level → count among random pairs.
    pub randoms: BTreeMap<Level, f64>,
    /// Number of duplicate pairs.
    pub n_matches: f64,
    /// Number of random pairs.
    pub n_randoms: f64,
}

impl LevelCounts {
    /// Adds one compared pair's levels, to m when it is a duplicate, else to u.
    pub fn add(&mut self, levels: &[Level], duplicate: bool) {
        if duplicate {
            self.n_matches += 1.0;
        } else {
            self.n_randoms += 1.0;
        }
        let side = if duplicate { &mut self.matches } else { &mut self.randoms };
        for l in levels {
            *side.entry(*l).or_default() += 1.0;
        }
    }

    /// Adds another set's counts: weights counted on two labelled sets together.
    pub fn merge(&mut self, other: &LevelCounts) {
        for (mine, theirs) in [(&mut self.matches, &other.matches), (&mut self.randoms, &other.randoms)] {
            for (level, n) in theirs {
                *mine.entry(*level).or_default() += n;
            }
        }
        self.n_matches += other.n_matches;
        self.n_randoms += other.n_randoms;
    }

    /// Estimates m and u per level by counting, with [`PSEUDO_COUNT`] smoothing.
    pub fn estimate(&self, prior_pairs: Option<f64>) -> Weights {
        let mut stats: BTreeMap<Level, LevelStat> = BTreeMap::new();
        for comparison in Comparison::ALL {
            let seen = |level: &Level| {
                [&self.matches, &self.randoms].iter().any(|side| side.get(level).is_some_and(|n| *n > 0.0))
            };
            let levels: Vec<Level> =
                comparison.levels().into_iter().filter(|l| !OPTIONAL_LEVELS.contains(l) || seen(l)).collect();
            let k = levels.len() as f64;
            // Pairs that carry this comparison: decisions recorded before a comparison
            // existed (the source comparison replaced person and thread) say nothing
            // about it and must not dilute it.
            let carried = |side: &BTreeMap<Level, f64>| {
                side.iter().filter(|(l, _)| l.comparison() == *comparison).map(|(_, n)| n).sum::<f64>()
            };
            let (n_matches, n_randoms) = (carried(&self.matches), carried(&self.randoms));
            for level in levels {
                let cm = self.matches.get(&level).copied().unwrap_or(0.0);
                let cu = self.randoms.get(&level).copied().unwrap_or(0.0);
                let u = ((cu + PSEUDO_COUNT) / (n_randoms + PSEUDO_COUNT * k)).max(U_FLOOR);
                let m = (cm + M_PSEUDO_PAIRS / k) / (n_matches + M_PSEUDO_PAIRS);
                stats.insert(level, LevelStat { m, u });
            }
        }
        for chain in ordered_chains() {
            pool_adjacent_violators(&mut stats, &chain);
        }
        let prior = prior_pairs.unwrap_or(self.n_matches / self.n_randoms.max(1.0)).clamp(1e-6, 0.5);
        Weights { stats, prior }
    }
}

/// Makes weights non-increasing along `order` by pooling adjacent violators: a pooled
/// block's levels share the block's summed m and u (divided evenly), hence one weight.
fn pool_adjacent_violators(levels: &mut BTreeMap<Level, LevelStat>, order: &[Level]) {
    // Blocks of (first index, last index, m sum, u sum).
    let mut blocks: Vec<(usize, usize, f64, f64)> = Vec::new();
    for (i, name) in order.iter().enumerate() {
        let Some(s) = levels.get(name) else { continue };
        blocks.push((i, i, s.m, s.u));
        while blocks.len() >= 2 {
            let n = blocks.len();
            let (prev, last) = (blocks[n - 2], blocks[n - 1]);
            if (prev.2 / prev.3) >= (last.2 / last.3) {
                break;
            }
            blocks.truncate(n - 2);
            blocks.push((prev.0, last.1, prev.2 + last.2, prev.3 + last.3));
        }
    }
    for (first, last, m, u) in blocks {
        let k = (last - first + 1) as f64;
        for name in &order[first..=last] {
            if let Some(s) = levels.get_mut(name) {
                *s = LevelStat { m: m / k, u: u / k };
            }
        }
    }
}

/// Term frequencies of the candidate's person and amount: (share of the store's tasks
/// carrying this value, the average such share over agreeing random pairs, Σ tf²).
#[derive(Debug, Clone, Copy, Default)]
pub struct TermFrequencies {
    /// (tf of this person, average tf).
    pub person: Option<(f64, f64)>,
    /// (tf of this amount, average tf).
    pub amount: Option<(f64, f64)>,
}

impl Weights {
    /// Returns the built-in weights (counted on the dev set, see the module doc).
    pub fn builtin() -> Weights {
        let stats = BUILTIN.iter().map(|(l, m, u)| (*l, LevelStat { m: *m, u: *u })).collect();
        Weights { stats, prior: BUILTIN_PRIOR }
    }

    /// Returns the stat of a level, if the table has it.
    pub fn stat(&self, level: Level) -> Option<LevelStat> {
        self.stats.get(&level).copied()
    }

    /// Returns the weight of one level, with the term-frequency adjustment for a same
    /// person or amount (Splink's idea: agreeing on a value half the store carries is
    /// weaker evidence than agreeing on a rare one). The counted weight is for an
    /// average agreeing value; the adjustment is log2(average tf / this tf), capped at
    /// ±[`TF_MAX_ADJUST`]. A level absent from the table weighs 0; only
    /// [`OPTIONAL_LEVELS`] may be absent from the built-in one (tested).
    pub fn weight(&self, level: Level, tf: &TermFrequencies) -> f64 {
        let Some(stat) = self.stat(level) else { return 0.0 };
        let tf_value = match level {
            Level::Source(s) if s.is_same_person() => tf.person,
            Level::Amount(AmountLevel::Same) => tf.amount,
            _ => None,
        };
        match tf_value {
            Some((this, average)) if this > 0.0 && average > 0.0 => {
                let adjust = (average / this).log2().clamp(-TF_MAX_ADJUST, TF_MAX_ADJUST);
                (stat.weight() + adjust).clamp(-WEIGHT_CAP, WEIGHT_CAP)
            }
            _ => stat.weight(),
        }
    }

    /// Returns the match probability of a score given the prior (printed beside it).
    pub fn probability(&self, score: f64) -> f64 {
        let prior_odds = (self.prior / (1.0 - self.prior)).log2();
        1.0 / (1.0 + (-(score + prior_odds)).exp2())
    }

    /// Renders the table as the Rust source of [`BUILTIN`], for `--emit-weights`.
    pub fn to_rust(&self) -> String {
        let mut out = String::from("const BUILTIN: &[(Level, f64, f64)] = &[\n");
        for comparison in Comparison::ALL {
            for level in comparison.levels() {
                if let Some(s) = self.stat(level) {
                    out.push_str(&format!(
                        "    ({}, {:.4}, {:.5}), // {:+.2}\n",
                        level.to_rust(),
                        s.m,
                        s.u,
                        s.weight()
                    ));
                }
            }
        }
        out.push_str(&format!("];\nconst BUILTIN_PRIOR: f64 = {:.6};\n", self.prior));
        out
    }
}

/// Returns the band of a pair: its score's, with three rules the counted weights cannot
/// express (issue 16).
///
/// - The same title within a day, naming nothing different, is at least `likely`.
///   Counted alone it weighs about 9.6 bits — "possible" — because the labelled sets
///   have few verbatim repeats; but a person or an agent adding the very same words
///   again within hours is the duplicate the check exists for, and random pairs never
///   do it.
/// - Titles that differ only in names or months (`only_slots_differ`: the same words
///   around another person's or client's name, or another month) are at most
///   `possible`. The check cannot tell the same errand said about two names from one
///   template filled in for two people (a review for Chloe and one for Samir): it shows
///   the pair and never refuses (`Candidate::refuses`). As a level it could not be
///   counted: random pairs almost never reach it, so its u sits at the floor and any
///   weight it got would be the pseudo-count's.
/// - A different due date a week or more apart is at most `possible`: the next
///   instance of a recurring errand (this month's bill, next week's report) says the
///   same words, comes from the same person and carries the same description, so the
///   text, source and context weights add up to `likely`, while due and age
///   ([`AgeLevel::Older`]), counted apart, each weigh little (−1.1, −1.3 bits).
///   Together they are the monthly repeat the issue keeps apart. On every labelled set
///   no true `likely` pair had both; on the third set two of five false `likely` pairs
///   did. When last month's instance is already done ([`AgeLevel::Closed`]) its own
///   weight keeps the pair apart, and the rule holds as well.
pub fn band_of(score: f64, levels: &crate::dedup::levels::Levels, open: bool, only_slots_differ: bool) -> super::Band {
    use crate::dedup::levels::{AgeLevel, Agreement, EntityLevel, TextLevel};
    let repeated = open
        && levels.text == TextLevel::Exact
        && levels.age == AgeLevel::Day
        && levels.entity == EntityLevel::NoConflict;
    let next_instance = levels.due == Agreement::Different && matches!(levels.age, AgeLevel::Older | AgeLevel::Closed);
    match band(score) {
        super::Band::Likely if only_slots_differ || next_instance => super::Band::Possible,
        super::Band::Likely => super::Band::Likely,
        _ if repeated => super::Band::Likely,
        b => b,
    }
}

/// Returns the band of a score.
pub fn band(score: f64) -> super::Band {
    if score >= LIKELY {
        super::Band::Likely
    } else if score >= POSSIBLE {
        super::Band::Possible
    } else {
        super::Band::Different
    }
}

// Counted on shared/data/dedup-dev (85 duplicate pairs, 33,500 random pairs) by
// `tasks duplicates eval shared/data/dedup-dev --emit-weights`. Do not edit by hand.
const BUILTIN: &[(Level, f64, f64)] = &[
    (Level::Source(SourceLevel::Reply), 0.3122, 0.00297),      // +6.72
    (Level::Source(SourceLevel::SameThread), 0.0011, 0.00111), // -0.00
    (Level::Source(SourceLevel::SamePersonSameChat), 0.0085, 0.05683), // -2.74
    (Level::Source(SourceLevel::SamePersonOtherChat), 0.0456, 0.01853), // +1.30
    (Level::Source(SourceLevel::SamePerson), 0.0678, 0.01371), // +2.31
    (Level::Source(SourceLevel::SameChat), 0.0085, 0.05683),   // -2.74
    (Level::Source(SourceLevel::SameChatOtherPerson), 0.0085, 0.05683), // -2.74
    (Level::Source(SourceLevel::Unknown), 0.3456, 0.31394),    // +0.14
    (Level::Source(SourceLevel::OtherChat), 0.0122, 0.02224),  // -0.86
    (Level::Source(SourceLevel::Different), 0.1900, 0.45701),  // -1.27
    (Level::Amount(AmountLevel::Same), 0.0917, 0.00100),       // +6.52
    (Level::Amount(AmountLevel::Close), 0.0028, 0.00100),      // +1.47
    (Level::Amount(AmountLevel::Different), 0.0028, 0.10104),  // -5.18
    (Level::Amount(AmountLevel::Unknown), 0.9028, 0.89747),    // +0.01
    (Level::Text(TextLevel::Exact), 0.1120, 0.00143),          // +6.30
    (Level::Text(TextLevel::Most), 0.1120, 0.00143),           // +6.30
    (Level::Text(TextLevel::Half), 0.1954, 0.00426),           // +5.52
    (Level::Text(TextLevel::UnitsMost), 0.1954, 0.00426),      // +5.52
    (Level::Text(TextLevel::Trigram), 0.0731, 0.00846),        // +3.11
    (Level::Text(TextLevel::Rare), 0.0731, 0.00846),           // +3.11
    (Level::Text(TextLevel::UnitsHalf), 0.0787, 0.00926),      // +3.09
    (Level::Text(TextLevel::UnitsTwo), 0.0787, 0.02407),       // +1.71
    (Level::Text(TextLevel::Common), 0.0565, 0.20593),         // -1.87
    (Level::Text(TextLevel::ConceptCross), 0.0120, 0.08167),   // -2.76
    (Level::Text(TextLevel::Concept), 0.0120, 0.08167),        // -2.76
    (Level::Text(TextLevel::None), 0.0009, 0.57037),           // -8.00
    (Level::Context(ContextLevel::High), 0.1139, 0.00149),     // +6.26
    (Level::Context(ContextLevel::Mid), 0.2028, 0.01374),      // +3.88
    (Level::Context(ContextLevel::Low), 0.4028, 0.76337),      // -0.92
    (Level::Context(ContextLevel::Empty), 0.2806, 0.22140),    // +0.34
    (Level::Due(Agreement::Same), 0.1926, 0.00557),            // +5.11
    (Level::Due(Agreement::Different), 0.0593, 0.12821),       // -1.11
    (Level::Due(Agreement::Unknown), 0.7481, 0.86622),         // -0.21
    (Level::Category(Agreement::Same), 0.4981, 0.33779),       // +0.56
    (Level::Category(Agreement::Different), 0.0037, 0.32441),  // -6.45
    (Level::Category(Agreement::Unknown), 0.4981, 0.33779),    // +0.56
    (Level::Age(AgeLevel::Day), 0.4800, 0.09061),              // +2.41
    (Level::Age(AgeLevel::Days3), 0.4133, 0.14742),            // +1.49
    (Level::Age(AgeLevel::Week), 0.0578, 0.10137),             // -0.81
    (Level::Age(AgeLevel::Older), 0.0467, 0.11437),            // -1.29
    (Level::Age(AgeLevel::Closed), 0.0022, 0.54623),           // -7.94
    (Level::Entity(EntityLevel::NoConflict), 0.9361, 0.80089), // +0.23
    (Level::Entity(EntityLevel::Name), 0.0583, 0.18016),       // -1.63
    (Level::Entity(EntityLevel::Month), 0.0028, 0.00947),      // -1.77
    (Level::Entity(EntityLevel::Relative), 0.0028, 0.00947),   // -1.77
];
const BUILTIN_PRIOR: f64 = 0.033110;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_title_within_a_day_is_at_least_likely() {
        use crate::dedup::levels::{AmountLevel, Levels};
        let levels = Levels {
            source: SourceLevel::Unknown,
            amount: AmountLevel::Unknown,
            text: TextLevel::Exact,
            context: ContextLevel::Empty,
            due: Agreement::Unknown,
            category: Agreement::Unknown,
            age: AgeLevel::Day,
            entity: EntityLevel::NoConflict,
        };
        assert_eq!(band_of(9.6, &levels, true, false), crate::dedup::Band::Likely);
        // Only the names differ: never more than possible, however high the score.
        assert_eq!(band_of(20.0, &levels, true, true), crate::dedup::Band::Possible);
        assert_eq!(band_of(20.0, &levels, true, false), crate::dedup::Band::Likely);
        assert_eq!(band_of(9.6, &levels, false, false), crate::dedup::Band::Possible, "a closed task stays possible");
        let older = Levels { age: AgeLevel::Week, ..levels };
        assert_eq!(band_of(9.6, &older, true, false), crate::dedup::Band::Possible);
        let other = Levels { entity: EntityLevel::Month, ..levels };
        assert_eq!(band_of(9.6, &other, true, false), crate::dedup::Band::Possible);
    }

    /// The next instance of a recurring errand: another due date, a week or more on (not
    /// three to seven days: `AgeLevel::Week`).
    #[test]
    fn the_next_instance_of_a_recurring_errand_is_at_most_possible() {
        use crate::dedup::levels::{AmountLevel, Levels};
        let next = Levels {
            source: SourceLevel::SamePerson,
            amount: AmountLevel::Same,
            text: TextLevel::Most,
            context: ContextLevel::High,
            due: Agreement::Different,
            category: Agreement::Same,
            age: AgeLevel::Older,
            entity: EntityLevel::NoConflict,
        };
        assert_eq!(band_of(15.0, &next, true, false), crate::dedup::Band::Possible);
        assert_eq!(band_of(15.0, &Levels { age: AgeLevel::Closed, ..next }, true, false), crate::dedup::Band::Possible);
        assert_eq!(band_of(15.0, &Levels { age: AgeLevel::Week, ..next }, true, false), crate::dedup::Band::Likely);
        assert_eq!(band_of(15.0, &Levels { age: AgeLevel::Days3, ..next }, true, false), crate::dedup::Band::Likely);
        assert_eq!(band_of(15.0, &Levels { due: Agreement::Unknown, ..next }, true, false), crate::dedup::Band::Likely);
        assert_eq!(band_of(4.0, &next, true, false), crate::dedup::Band::Different, "never lifted");
    }

    /// Two sets' counts merged are the counts of both sets' pairs added into one.
    #[test]
    fn merged_counts_are_the_counts_of_both_sets() {
        let day = [Level::Age(AgeLevel::Day), Level::Text(TextLevel::Most)];
        let older = [Level::Age(AgeLevel::Older), Level::Text(TextLevel::None)];
        let (mut a, mut b, mut both) = (LevelCounts::default(), LevelCounts::default(), LevelCounts::default());
        a.add(&day, true);
        a.add(&older, false);
        b.add(&older, false);
        b.add(&day, false);
        for (levels, dup) in [(&day, true), (&older, false), (&older, false), (&day, false)] {
            both.add(levels, dup);
        }
        a.merge(&b);
        assert_eq!((a.n_matches, a.n_randoms), (both.n_matches, both.n_randoms));
        assert_eq!(a.matches, both.matches);
        assert_eq!(a.randoms, both.randoms);
        assert_eq!(a.estimate(None), both.estimate(None));
    }

    fn stat(m: f64, u: f64) -> LevelStat {
        LevelStat { m, u }
    }

    #[test]
    fn pooling_makes_ordered_weights_non_increasing_and_keeps_the_rest() {
        let order: Vec<Level> =
            [AgeLevel::Day, AgeLevel::Days3, AgeLevel::Week, AgeLevel::Older].map(Level::Age).to_vec();
        let mut levels: BTreeMap<Level, LevelStat> = BTreeMap::new();
        // b is stronger than a: a violation; c, d already ordered.
        levels.insert(order[0], stat(0.01, 0.01));
        levels.insert(order[1], stat(0.2, 0.002));
        levels.insert(order[2], stat(0.1, 0.1));
        levels.insert(order[3], stat(0.01, 0.5));
        let before_c = levels[&order[2]].weight();
        pool_adjacent_violators(&mut levels, &order);
        let w: Vec<f64> = order.iter().map(|l| levels[l].weight()).collect();
        assert!(w.windows(2).all(|p| p[0] >= p[1] - 1e-9), "{w:?}");
        assert!((w[0] - w[1]).abs() < 1e-9, "a and b pooled: {w:?}");
        assert!((w[2] - before_c).abs() < 1e-9, "c untouched");
    }

    /// `Different` ends two source chains; counts where it outweighs its neighbours in
    /// both still leave every chain non-increasing after estimation.
    #[test]
    fn a_level_that_ends_two_chains_leaves_both_ordered() {
        use SourceLevel as S;
        let mut counts = LevelCounts::default();
        let source = |l: S| vec![Level::Source(l)];
        // Duplicates mostly "different", randoms mostly elsewhere: "different" would
        // weigh more than "other chat" and "unknown" counted alone.
        for _ in 0..30 {
            counts.add(&source(S::Different), true);
        }
        for l in [S::OtherChat, S::Unknown, S::SamePerson, S::SamePersonOtherChat] {
            counts.add(&source(l), true);
            for _ in 0..50 {
                counts.add(&source(l), false);
            }
        }
        counts.add(&source(S::Different), false);
        let w = counts.estimate(None);
        for chain in ordered_chains() {
            let weights: Vec<f64> = chain.iter().filter_map(|l| w.stat(*l)).map(|s| s.weight()).collect();
            assert!(weights.windows(2).all(|p| p[0] >= p[1] - 1e-9), "{chain:?}: {weights:?}");
        }
    }

    #[test]
    fn pairs_without_a_comparison_do_not_dilute_it() {
        let pair = |levels: &[(&str, &str)]| -> Vec<Level> {
            let map: BTreeMap<String, String> = levels.iter().map(|(k, l)| (k.to_string(), l.to_string())).collect();
            crate::dedup::levels::parse_map(&map)
        };
        let mut with_old = LevelCounts::default();
        let mut without = LevelCounts::default();
        for _ in 0..10 {
            let new = pair(&[("source", "reply"), ("amount", "same")]);
            with_old.add(&new, true);
            without.add(&new, true);
            let random = pair(&[("source", "unknown"), ("amount", "unknown")]);
            with_old.add(&random, false);
            without.add(&random, false);
        }
        // Ten decisions recorded before "source" existed: the retired comparison is
        // left out when they are read.
        for _ in 0..10 {
            with_old.add(&pair(&[("person", "same"), ("amount", "same")]), true);
        }
        let reply = Level::Source(SourceLevel::Reply);
        let (a, b) = (with_old.estimate(None), without.estimate(None));
        assert_eq!(a.stat(reply), b.stat(reply));
        assert!(a.stat(Level::Amount(AmountLevel::Same)).expect("amount").m > 0.9);
    }

    #[test]
    fn the_builtin_table_is_monotone_where_levels_are_ordered() {
        let w = Weights::builtin();
        for chain in ordered_chains() {
            let ws: Vec<f64> = chain.iter().filter_map(|l| w.stat(*l)).map(|s| s.weight()).collect();
            assert!(ws.windows(2).all(|p| p[0] >= p[1] - 1e-6), "{chain:?}: {ws:?}");
        }
    }

    #[test]
    fn every_level_a_comparison_can_produce_has_a_builtin_weight() {
        let w = Weights::builtin();
        for comparison in Comparison::ALL {
            for level in comparison.levels() {
                if OPTIONAL_LEVELS.contains(&level) {
                    continue;
                }
                assert!(w.stat(level).is_some(), "{level:?} has no weight in the built-in table");
            }
        }
        assert_eq!(
            w.stats.len() + OPTIONAL_LEVELS.len(),
            Comparison::ALL.iter().map(|c| c.levels().len()).sum::<usize>()
        );
    }

    #[test]
    fn the_emitted_table_is_the_builtin_table() {
        let emitted = Weights::builtin().to_rust();
        let source = include_str!("weights.rs");
        for line in emitted.lines().filter(|l| l.trim_start().starts_with("(Level::")) {
            let head = line.split("//").next().unwrap_or(line).trim();
            assert!(source.contains(head), "{head} is not in BUILTIN");
        }
    }
}
