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

use crate::dedup::compare::{COMPARISONS, TEXT_LEVELS, levels_of};

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

/// Comparisons whose levels are ordered by strength of agreement, so their weights must
/// not increase down the list; violations are pooled (isotonic regression, pool
/// adjacent violators). An exact title cannot be weaker evidence than most stems
/// shared just because the dev set has no verbatim duplicate.
pub const ORDERED: &[(&str, &[&str])] = &[
    ("text", TEXT_LEVELS),
    ("context", &["high", "mid", "low"]),
    ("age", &["day", "days3", "week", "older"]),
    // Agreement, then no information, then disagreement (Fellegi–Sunter's order).
    // Source: for a fixed chat relation, the same person is never weaker evidence than
    // an unknown one, nor an unknown one than another person. Chat relations are not
    // ordered (a repeat in another chat — group vs private — is typical of duplicates).
    // On the dev set no duplicate came from the same person in the same chat without
    // a reply link (they are all replies there), which counted alone gave that level
    // −6.6 bits: a reminder re-sent without a reply would have been refused as
    // evidence; pooled with its chain it weighs what "same chat" weighs.
    ("source", &["same_person_same_chat", "same_chat", "same_chat_other_person"]),
    ("source", &["same_person_other_chat", "other_chat", "different"]),
    ("source", &["same_person", "unknown", "other_person"]),
    ("amount", &["same", "unknown", "different"]),
    ("due", &["same", "unknown", "different"]),
    ("category", &["same", "unknown", "different"]),
    // No conflict is never weaker evidence than a conflict.
    ("entity", &["none", "name", "month", "relative"]),
];

/// Levels that exist only when an optional input is present (the embedding level needs
/// an embedder attached, cargo feature `embed`). Such a level is counted only when the
/// counted pairs reached it at least once; otherwise it is left out of the table and of
/// the smoothing, so a check without the embedder is counted exactly as before the
/// level existed (and it weighs 0 if it ever occurs).
pub const OPTIONAL_LEVELS: &[(&str, &str)] = &[("text", "embed_close")];

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

/// The weights in use: comparison → level → (m, u), and the prior.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// comparison → level → stat.
    pub stats: BTreeMap<String, BTreeMap<String, LevelStat>>,
    /// Share of random pairs that are duplicates (for the printed probability).
    pub prior: f64,
}

/// Counts behind a weight table: how often each level occurred among duplicates and
/// among random pairs.
#[derive(Debug, Clone, Default)]
pub struct LevelCounts {
    /// comparison → level → count among duplicate pairs.
    pub matches: BTreeMap<String, BTreeMap<String, f64>>,
    /// comparison → level → count among random pairs.
    pub randoms: BTreeMap<String, BTreeMap<String, f64>>,
    /// Number of duplicate pairs.
    pub n_matches: f64,
    /// Number of random pairs.
    pub n_randoms: f64,
}

impl LevelCounts {
    /// Adds one compared pair's levels, to m when it is a duplicate, else to u.
    pub fn add(&mut self, levels: &BTreeMap<String, String>, duplicate: bool) {
        if duplicate {
            self.n_matches += 1.0;
        } else {
            self.n_randoms += 1.0;
        }
        let side = if duplicate { &mut self.matches } else { &mut self.randoms };
        for (k, l) in levels {
            *side.entry(k.clone()).or_default().entry(l.clone()).or_default() += 1.0;
        }
    }

    /// Estimates m and u per level by counting, with [`PSEUDO_COUNT`] smoothing.
    pub fn estimate(&self, prior_pairs: Option<f64>) -> Weights {
        let mut stats: BTreeMap<String, BTreeMap<String, LevelStat>> = BTreeMap::new();
        for comparison in COMPARISONS {
            let seen = |level: &str| {
                [&self.matches, &self.randoms]
                    .iter()
                    .any(|side| side.get(*comparison).and_then(|m| m.get(level)).is_some_and(|n| *n > 0.0))
            };
            let levels: Vec<&str> = levels_of(comparison)
                .iter()
                .copied()
                .filter(|l| !OPTIONAL_LEVELS.contains(&(*comparison, *l)) || seen(l))
                .collect();
            let k = levels.len() as f64;
            // Pairs that carry this comparison: decisions recorded before a comparison
            // existed (the source comparison replaced person and thread) say nothing
            // about it and must not dilute it.
            let carried = |side: &BTreeMap<String, BTreeMap<String, f64>>| {
                side.get(*comparison).map(|m| m.values().sum::<f64>()).unwrap_or(0.0)
            };
            let (n_matches, n_randoms) = (carried(&self.matches), carried(&self.randoms));
            for level in levels {
                let cm = self.matches.get(*comparison).and_then(|m| m.get(level)).copied().unwrap_or(0.0);
                let cu = self.randoms.get(*comparison).and_then(|m| m.get(level)).copied().unwrap_or(0.0);
                let u = ((cu + PSEUDO_COUNT) / (n_randoms + PSEUDO_COUNT * k)).max(U_FLOOR);
                let m = (cm + M_PSEUDO_PAIRS / k) / (n_matches + M_PSEUDO_PAIRS);
                stats.entry(comparison.to_string()).or_default().insert(level.to_string(), LevelStat { m, u });
            }
        }
        for (comparison, order) in ORDERED {
            if let Some(levels) = stats.get_mut(*comparison) {
                pool_adjacent_violators(levels, order);
            }
        }
        let prior = prior_pairs.unwrap_or(self.n_matches / self.n_randoms.max(1.0)).clamp(1e-6, 0.5);
        Weights { stats, prior }
    }
}

/// Makes weights non-increasing along `order` by pooling adjacent violators: a pooled
/// block's levels share the block's summed m and u (divided evenly), hence one weight.
fn pool_adjacent_violators(levels: &mut BTreeMap<String, LevelStat>, order: &[&str]) {
    // Blocks of (first index, last index, m sum, u sum).
    let mut blocks: Vec<(usize, usize, f64, f64)> = Vec::new();
    for (i, name) in order.iter().enumerate() {
        let Some(s) = levels.get(*name) else { continue };
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
            if let Some(s) = levels.get_mut(*name) {
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
        let mut stats: BTreeMap<String, BTreeMap<String, LevelStat>> = BTreeMap::new();
        for (c, l, m, u) in BUILTIN {
            stats.entry(c.to_string()).or_default().insert(l.to_string(), LevelStat { m: *m, u: *u });
        }
        Weights { stats, prior: BUILTIN_PRIOR }
    }

    /// Returns the stat of a level, if the table has it.
    pub fn stat(&self, comparison: &str, level: &str) -> Option<LevelStat> {
        self.stats.get(comparison).and_then(|m| m.get(level)).copied()
    }

    /// Returns the weight of one comparison's level, with the term-frequency adjustment
    /// for a same person or amount (Splink's idea: agreeing on a value half the store
    /// carries is weaker evidence than agreeing on a rare one). The counted weight is
    /// for an average agreeing value; the adjustment is log2(average tf / this tf),
    /// capped at ±[`TF_MAX_ADJUST`].
    pub fn weight(&self, comparison: &str, level: &str, tf: &TermFrequencies) -> f64 {
        let Some(stat) = self.stat(comparison, level) else { return 0.0 };
        let tf_value = match (comparison, level) {
            ("source", "same_person_same_chat" | "same_person_other_chat" | "same_person") => tf.person,
            ("amount", "same") => tf.amount,
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
        let mut out = String::from("const BUILTIN: &[(&str, &str, f64, f64)] = &[\n");
        for comparison in COMPARISONS {
            for level in levels_of(comparison) {
                if let Some(s) = self.stat(comparison, level) {
                    out.push_str(&format!(
                        "    (\"{comparison}\", \"{level}\", {:.4}, {:.5}), // {:+.2}\n",
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
const BUILTIN: &[(&str, &str, f64, f64)] = &[
    ("source", "reply", 0.3121, 0.00296),                  // +6.72
    ("source", "same_thread", 0.0010, 0.00111),            // -0.14
    ("source", "same_person_same_chat", 0.0084, 0.05681),  // -2.75
    ("source", "same_person_other_chat", 0.0455, 0.01853), // +1.29
    ("source", "same_person", 0.0677, 0.01371),            // +2.30
    ("source", "same_chat", 0.0084, 0.05681),              // -2.75
    ("source", "same_chat_other_person", 0.0084, 0.05681), // -2.75
    ("source", "unknown", 0.3455, 0.31382),                // +0.14
    ("source", "other_chat", 0.0121, 0.02223),             // -0.88
    ("source", "other_person", 0.0343, 0.13968),           // -2.02
    ("source", "different", 0.1566, 0.31753),              // -1.02
    ("amount", "same", 0.0926, 0.00100),                   // +6.53
    ("amount", "different", 0.0037, 0.10145),              // -4.78
    ("amount", "unknown", 0.9037, 0.89781),                // +0.01
    ("text", "exact", 0.1065, 0.00143),                    // +6.22
    ("text", "most", 0.1065, 0.00143),                     // +6.22
    ("text", "half", 0.1898, 0.00426),                     // +5.48
    ("text", "units_most", 0.1898, 0.00426),               // +5.48
    ("text", "trigram", 0.0824, 0.00860),                  // +3.26
    ("text", "rare", 0.0824, 0.00860),                     // +3.26
    ("text", "units_half", 0.0824, 0.00860),               // +3.26
    ("text", "units_two", 0.0676, 0.02444),                // +1.47
    ("text", "common", 0.0565, 0.18037),                   // -1.68
    ("text", "concept_cross", 0.0231, 0.09778),            // -2.08
    ("text", "concept", 0.0120, 0.08333),                  // -2.79
    ("text", "none", 0.0009, 0.57815),                     // -8.00
    ("context", "high", 0.1028, 0.00260),                  // +5.30
    ("context", "mid", 0.2472, 0.02600),                   // +3.25
    ("context", "low", 0.3694, 0.75000),                   // -1.02
    ("context", "empty", 0.2806, 0.22140),                 // +0.34
    ("due", "same", 0.1926, 0.00595),                      // +5.02
    ("due", "different", 0.0926, 0.13489),                 // -0.54
    ("due", "unknown", 0.7148, 0.85916),                   // -0.27
    ("category", "same", 0.4981, 0.33779),                 // +0.56
    ("category", "different", 0.0037, 0.32441),            // -6.45
    ("category", "unknown", 0.4981, 0.33779),              // +0.56
    ("age", "day", 0.4806, 0.09064),                       // +2.41
    ("age", "days3", 0.4139, 0.14747),                     // +1.49
    ("age", "week", 0.0583, 0.27712),                      // -2.25
    ("age", "older", 0.0472, 0.48477),                     // -3.36
    ("entity", "relative", 0.0028, 0.00947),               // -1.77
    ("entity", "month", 0.0028, 0.00947),                  // -1.77
    ("entity", "name", 0.0583, 0.18128),                   // -1.64
    ("entity", "none", 0.9361, 0.79978),                   // +0.23
];
const BUILTIN_PRIOR: f64 = 0.033110;

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(m: f64, u: f64) -> LevelStat {
        LevelStat { m, u }
    }

    #[test]
    fn pooling_makes_ordered_weights_non_increasing_and_keeps_the_rest() {
        let order = ["a", "b", "c", "d"];
        let mut levels: BTreeMap<String, LevelStat> = BTreeMap::new();
        // b is stronger than a: a violation; c, d already ordered.
        levels.insert("a".into(), stat(0.01, 0.01));
        levels.insert("b".into(), stat(0.2, 0.002));
        levels.insert("c".into(), stat(0.1, 0.1));
        levels.insert("d".into(), stat(0.01, 0.5));
        let before_c = levels["c"].weight();
        pool_adjacent_violators(&mut levels, &order);
        let w: Vec<f64> = order.iter().map(|l| levels[*l].weight()).collect();
        assert!(w.windows(2).all(|p| p[0] >= p[1] - 1e-9), "{w:?}");
        assert!((w[0] - w[1]).abs() < 1e-9, "a and b pooled: {w:?}");
        assert!((w[2] - before_c).abs() < 1e-9, "c untouched");
    }

    #[test]
    fn pairs_without_a_comparison_do_not_dilute_it() {
        let pair = |levels: &[(&str, &str)]| -> BTreeMap<String, String> {
            levels.iter().map(|(k, l)| (k.to_string(), l.to_string())).collect()
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
        // Ten decisions recorded before "source" existed.
        for _ in 0..10 {
            with_old.add(&pair(&[("person", "same"), ("amount", "same")]), true);
        }
        let (a, b) = (with_old.estimate(None), without.estimate(None));
        assert_eq!(a.stat("source", "reply"), b.stat("source", "reply"));
        assert!(a.stat("amount", "same").expect("amount").m > 0.9);
    }

    #[test]
    fn the_builtin_table_is_monotone_where_levels_are_ordered() {
        let w = Weights::builtin();
        for (comparison, order) in ORDERED {
            let ws: Vec<f64> = order.iter().filter_map(|l| w.stat(comparison, l)).map(|s| s.weight()).collect();
            assert!(ws.windows(2).all(|p| p[0] >= p[1] - 1e-6), "{comparison}: {ws:?}");
        }
    }
}
