//! Evaluation of the duplicate check on a labelled set in the format of
//! `shared/data/dedup-dev` (tasks.jsonl, pairs.jsonl, negatives.jsonl), and the
//! counting of m and u from such a set (SPEC §5.7, issue 4).
//!
//! The stream is imported in order into an in-memory store with the check report on,
//! so each task is checked against the earlier ones as they were at its `created_at`
//! — exactly what `tasks import --check-report` does. A candidate counts as correct
//! when it is any earlier member of the task's duplicate cluster.
//!
//! Metrics (per shown pair unless said otherwise):
//! - recall: duplicate tasks (the `dup` side of a pair) with a correct candidate shown;
//! - precision: shown (task, candidate) pairs that are correct;
//! - flagged: tasks that got at least one candidate (would be refused by `add`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;

use crate::dedup::weights::POSSIBLE;
use crate::dedup::weights::{LevelCounts, Weights};
use crate::dedup::{Band, Candidate};
use crate::error::{Error, Result};
use crate::ops::Context;
use crate::ops::import::{self, CheckLine, ImportOptions};
use crate::store::Store;

/// A labelled set.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The tasks file's text.
    pub tasks_jsonl: String,
    /// Parsed tasks (id → object).
    pub tasks: Vec<Value>,
    /// Duplicate pairs: (dup, of, lang).
    pub pairs: Vec<(String, String, String)>,
    /// Hard negatives: (a, b, kind).
    pub negatives: Vec<(String, String, String)>,
    /// The embedder attached to every store the set is replayed in (`None`: lexical
    /// levels only). Not read from the files: the caller sets it.
    pub embedding: Option<crate::dedup::embed::Embedding>,
}

/// Opens the in-memory store a replay imports into, with the set's embedder attached.
fn replay_store(set: &Dataset) -> Result<Store> {
    let store = Store::open(Path::new(":memory:"))?;
    if let Some(e) = &set.embedding {
        e.attach(&store)?;
    }
    Ok(store)
}

fn read(dir: &Path, name: &str) -> Result<String> {
    let path = dir.join(name);
    std::fs::read_to_string(&path).map_err(|source| Error::Io { path: path.display().to_string(), source })
}

fn jsonl(text: &str, file: &str) -> Result<Vec<Value>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::ImportLine {
                line: i + 1,
                field: None,
                message: format!("{file}: {e}"),
            })
        })
        .collect()
}

fn field(v: &Value, name: &str) -> String {
    v.get(name).and_then(Value::as_str).unwrap_or_default().to_string()
}

impl Dataset {
    /// Reads a set from a directory (negatives.jsonl is optional).
    pub fn load(dir: &Path) -> Result<Dataset> {
        let tasks_jsonl = read(dir, "tasks.jsonl")?;
        let tasks = jsonl(&tasks_jsonl, "tasks.jsonl")?;
        let pairs = jsonl(&read(dir, "pairs.jsonl")?, "pairs.jsonl")?
            .iter()
            .map(|p| (field(p, "dup"), field(p, "of"), field(p, "lang")))
            .collect();
        let negatives = match read(dir, "negatives.jsonl") {
            Ok(text) => jsonl(&text, "negatives.jsonl")?
                .iter()
                .map(|p| (field(p, "a"), field(p, "b"), field(p, "kind")))
                .collect(),
            Err(_) => Vec::new(),
        };
        Ok(Dataset { tasks_jsonl, tasks, pairs, negatives, embedding: None })
    }

    /// Returns the cluster id (smallest member) of every task in a pair.
    pub fn clusters(&self) -> HashMap<String, String> {
        let mut parent: HashMap<String, String> = HashMap::new();
        fn find(p: &mut HashMap<String, String>, x: &str) -> String {
            let mut cur = x.to_string();
            while let Some(next) = p.get(&cur).filter(|n| **n != cur).cloned() {
                cur = next;
            }
            cur
        }
        for (a, b, _) in &self.pairs {
            parent.entry(a.clone()).or_insert_with(|| a.clone());
            parent.entry(b.clone()).or_insert_with(|| b.clone());
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                parent.insert(hi, lo);
            }
        }
        let keys: Vec<String> = parent.keys().cloned().collect();
        keys.into_iter().map(|k| (k.clone(), find(&mut parent, &k))).collect()
    }
}

/// The figures of one evaluation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics {
    /// Duplicate tasks evaluated.
    pub duplicates: usize,
    /// … with a correct candidate in possible or likely.
    pub found: usize,
    /// … with a correct candidate in likely.
    pub found_likely: usize,
    /// Cross-language duplicates evaluated / found.
    pub cross: usize,
    /// Cross-language duplicates found (possible or likely).
    pub cross_found: usize,
    /// Shown pairs (possible + likely) / correct ones.
    pub shown: usize,
    /// Correct shown pairs.
    pub shown_correct: usize,
    /// Shown likely pairs.
    pub likely: usize,
    /// Correct likely pairs.
    pub likely_correct: usize,
    /// Tasks evaluated / tasks with at least one candidate.
    pub tasks: usize,
    /// Tasks with at least one candidate.
    pub flagged: usize,
    /// Hard negatives shown as a pair.
    pub negatives_shown: usize,
    /// Hard negatives evaluated.
    pub negatives: usize,
    /// Duplicates with no correct candidate shown.
    pub missed: Vec<String>,
    /// Why each of `missed` was missed, in its order: the best candidate of its
    /// duplicate cluster the check scored as of the task's creation (score, band,
    /// levels), or that retrieval brought none.
    pub miss_reasons: Vec<String>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

impl Metrics {
    /// Recall of possible + likely.
    pub fn recall(&self) -> f64 {
        ratio(self.found, self.duplicates)
    }
    /// Precision of shown pairs.
    pub fn precision(&self) -> f64 {
        ratio(self.shown_correct, self.shown)
    }
    /// Recall of likely alone.
    pub fn likely_recall(&self) -> f64 {
        ratio(self.found_likely, self.duplicates)
    }
    /// Precision of likely pairs.
    pub fn likely_precision(&self) -> f64 {
        ratio(self.likely_correct, self.likely)
    }
    /// Recall on cross-language duplicates.
    pub fn cross_recall(&self) -> f64 {
        ratio(self.cross_found, self.cross)
    }
    /// Share of tasks refused (at least one candidate).
    pub fn flagged_rate(&self) -> f64 {
        ratio(self.flagged, self.tasks)
    }
}

/// One shown pair, for the per-pair listing.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The new task's id.
    pub task: String,
    /// The candidate's id.
    pub candidate: String,
    /// Score.
    pub score: f64,
    /// Band.
    pub band: Band,
    /// Correct?
    pub correct: bool,
    /// Reasons.
    pub reasons: Vec<String>,
}

/// The possible-band thresholds (bits) `duplicates eval --curve` reads the trade-off at;
/// SPEC §5.5 fixes the band at 5, the others show what moving it would buy and cost.
pub const CURVE_THRESHOLDS: [f64; 11] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];

/// Imports the set in order with a check report of every scored candidate.
fn replay_report(set: &Dataset, weights: &Weights) -> Result<Vec<CheckLine>> {
    let mut store = replay_store(set)?;
    let ctx = Context::new(jiff::Timestamp::UNIX_EPOCH, "eval", jiff::tz::TimeZone::UTC);
    // Every band is reported so a miss can be explained by what the check saw then, and
    // a curve can move the threshold; what counts as shown is the tally's predicate.
    let opts = ImportOptions {
        check_report: true,
        weights: Some(weights.clone()),
        report_all_bands: true,
        ..Default::default()
    };
    Ok(import::import_text(&mut store, &ctx, &set.tasks_jsonl, &opts, &mut |_| {})?.report)
}

/// The metrics at each possible-band threshold (bits), lowest first.
pub type Curve = Vec<(f64, Metrics)>;

/// One scored run of an evaluation: which weights it used, its metrics, and its curve
/// (empty unless one was asked for).
#[derive(Debug, Clone)]
pub struct Run {
    /// What the weights were counted on ("built-in weights", "trained on half A …").
    pub label: String,
    /// The metrics at the SPEC's bands.
    pub metrics: Metrics,
    /// The metrics at other possible-band thresholds.
    pub curve: Curve,
}

/// Replays the set through the check with `weights`; metrics count only the tasks for
/// which `scored(id)` is true (all of them, or one half of a split), and only possible
/// and likely candidates, as `add` shows them.
pub fn replay(set: &Dataset, weights: &Weights, scored: &dyn Fn(&str) -> bool) -> Result<(Metrics, Vec<Shown>)> {
    let (metrics, shown, _) = replay_with_curve(set, weights, scored, &[])?;
    Ok((metrics, shown))
}

/// Like [`replay`], and tallies the same replay as if the possible band began at each of
/// `thresholds` (bits) instead of [`POSSIBLE`]: the curve of `duplicates eval --curve`.
/// A likely candidate stays shown at every threshold (likely figures do not move), and
/// so does a candidate a band rule lifted above its score (the same title within a
/// day); at [`POSSIBLE`] the curve's row equals the metrics.
pub fn replay_with_curve(
    set: &Dataset,
    weights: &Weights,
    scored: &dyn Fn(&str) -> bool,
    thresholds: &[f64],
) -> Result<(Metrics, Vec<Shown>, Curve)> {
    let report = replay_report(set, weights)?;
    let labels = Labels::of(set);
    let (metrics, shown) = tally(set, &labels, &report, scored, &|c| c.band >= Band::Possible);
    let curve = thresholds
        .iter()
        .map(|&t| {
            let shown_at = |c: &Candidate| {
                c.band == Band::Likely || c.score >= t || (c.band >= Band::Possible && c.score < POSSIBLE)
            };
            (t, tally(set, &labels, &report, scored, &shown_at).0)
        })
        .collect();
    Ok((metrics, shown, curve))
}

/// What the set's labels say, looked up once per replay however many thresholds tally it.
struct Labels<'a> {
    /// Task id → title.
    titles: HashMap<&'a str, String>,
    /// Task id → its duplicate cluster.
    clusters: HashMap<String, String>,
    /// Duplicate task id → `lang` of its pair.
    dups: BTreeMap<&'a str, &'a str>,
    /// Hard negatives as (later task, earlier task).
    negatives: BTreeSet<(&'a str, &'a str)>,
}

impl<'a> Labels<'a> {
    fn of(set: &'a Dataset) -> Labels<'a> {
        Labels {
            titles: set.tasks.iter().map(|v| (v["id"].as_str().unwrap_or_default(), field(v, "title"))).collect(),
            clusters: set.clusters(),
            dups: set.pairs.iter().map(|(d, _, lang)| (d.as_str(), lang.as_str())).collect(),
            negatives: set.negatives.iter().map(|(a, b, _)| (b.as_str(), a.as_str())).collect(),
        }
    }
}

/// Counts one replay's report: `shown_at` says which candidates `add` would show.
fn tally(
    set: &Dataset,
    labels: &Labels<'_>,
    report: &[CheckLine],
    scored: &dyn Fn(&str) -> bool,
    shown_at: &dyn Fn(&Candidate) -> bool,
) -> (Metrics, Vec<Shown>) {
    let Labels { titles, clusters, dups, negatives } = labels;
    let same = |a: &str, b: &str| match (clusters.get(a), clusters.get(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    };
    let mut m = Metrics::default();
    let mut shown = Vec::new();
    for line in report {
        if !scored(&line.id) {
            continue;
        }
        m.tasks += 1;
        if line.candidates.iter().any(shown_at) {
            m.flagged += 1;
        }
        let mut found = false;
        let mut found_likely = false;
        for c in line.candidates.iter().filter(|c| shown_at(c)) {
            let cid = c.external_id.clone().unwrap_or_default();
            let correct = same(&line.id, &cid);
            m.shown += 1;
            m.shown_correct += usize::from(correct);
            if c.band == Band::Likely {
                m.likely += 1;
                m.likely_correct += usize::from(correct);
            }
            found |= correct;
            found_likely |= correct && c.band == Band::Likely;
            if negatives.contains(&(line.id.as_str(), cid.as_str())) {
                m.negatives_shown += 1;
            }
            shown.push(Shown {
                task: line.id.clone(),
                candidate: cid,
                score: c.score,
                band: c.band,
                correct,
                reasons: c.reasons.clone(),
            });
        }
        if let Some(lang) = dups.get(line.id.as_str()) {
            if !found {
                m.missed.push(line.id.clone());
                let title = titles.get(line.id.as_str()).cloned().unwrap_or_default();
                let best = line.candidates.iter().find(|c| same(&line.id, &c.external_id.clone().unwrap_or_default()));
                m.miss_reasons.push(match best {
                    Some(c) => format!(
                        "{} \"{title}\" ~ {} \"{}\": {:.1} {}: {}",
                        line.id,
                        c.external_id.clone().unwrap_or_default(),
                        c.title,
                        c.score,
                        c.band.as_str(),
                        c.levels.all().map(|l| format!("{}={}", l.comparison().as_str(), l.as_str())).join(" ")
                    ),
                    None => format!("{} \"{title}\": no cluster member retrieved", line.id),
                });
            }
            m.duplicates += 1;
            m.found += usize::from(found);
            m.found_likely += usize::from(found_likely);
            if *lang == "cross" {
                m.cross += 1;
                m.cross_found += usize::from(found);
            }
        }
    }
    m.negatives = set.negatives.iter().filter(|(_, b, _)| scored(b)).count();
    (m, shown)
}

/// Counts level frequencies the way the check meets them: every task of the set that
/// passes `train` is checked against the earlier tasks (as of its creation); each
/// retrieved candidate from its duplicate cluster counts toward m, every other retrieved
/// candidate toward u. So u is the share of a level among the *non-duplicate pairs the
/// check actually scores* — random pairs drawn through the same retrieval — rather than
/// among all pairs, which would overstate every field that retrieval itself selects on
/// (same person, same category, same thread, a shared rare word).
pub fn count_levels(set: &Dataset, train: &dyn Fn(&str) -> bool) -> Result<LevelCounts> {
    let mut store = replay_store(set)?;
    let ctx = Context::new(jiff::Timestamp::UNIX_EPOCH, "eval", jiff::tz::TimeZone::UTC);
    let opts = ImportOptions::default();
    let out = import::import_text(&mut store, &ctx, &set.tasks_jsonl, &opts, &mut |_| {})?;
    let clusters = set.clusters();
    let weights = Weights::builtin();
    let mut counts = LevelCounts::default();
    let conn = store.conn();
    for (caller_id, key) in &out.keys {
        if !train(caller_id) {
            continue;
        }
        let Some(id) = crate::store::tasks::id_by_key(conn, key)? else { continue };
        let row = crate::store::dedup::candidate_row(conn, id)?;
        let probe = super::probe_of_row(&row);
        for c in super::check_with(conn, &probe, &weights, id)? {
            let cid = c.external_id.clone().unwrap_or_default();
            if !train(&cid) {
                continue;
            }
            let same = matches!((clusters.get(caller_id), clusters.get(&cid)), (Some(x), Some(y)) if x == y);
            counts.add(&c.levels.all(), same);
        }
    }
    Ok(counts)
}

/// Assigns each task to one half of a split: whole duplicate clusters stay together,
/// by a stable hash of the cluster id (or the task id for a task in no pair).
pub fn half_of(set: &Dataset) -> impl Fn(&str) -> bool {
    let clusters = set.clusters();
    move |id: &str| {
        let key = clusters.get(id).map(String::as_str).unwrap_or(id);
        let mut h: u32 = 0x811c_9dc5;
        for b in key.bytes() {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        h.is_multiple_of(2)
    }
}
