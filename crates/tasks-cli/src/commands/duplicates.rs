//! `tasks duplicates …`: the review queue, reject, retrain, and evaluation on a
//! labelled set; plus `tasks check` (the duplicate check alone) and `merge`/`unmerge`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use serde_json::json;
use tasks_core::dedup::eval::{self, Dataset, Metrics};
use tasks_core::dedup::weights::Weights;

use super::App;
use crate::error::CliError;

#[derive(Debug, Subcommand)]
pub enum DuplicatesCommand {
    /// Score the check on a labelled set (tasks.jsonl, pairs.jsonl, negatives.jsonl)
    Eval(EvalArgs),
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
    #[arg(long)]
    pub emit_weights: bool,
    /// Also list every shown pair with its score and reasons
    #[arg(long)]
    pub pairs: bool,
    /// Also explain every missed duplicate (its best in-cluster candidate's levels)
    #[arg(long)]
    pub misses: bool,
}

fn metrics_json(m: &Metrics) -> serde_json::Value {
    json!({
        "duplicates": m.duplicates,
        "recall": m.recall(),
        "precision": m.precision(),
        "likely_recall": m.likely_recall(),
        "likely_precision": m.likely_precision(),
        "cross_language": m.cross,
        "cross_recall": m.cross_recall(),
        "shown_pairs": m.shown,
        "likely_pairs": m.likely,
        "tasks": m.tasks,
        "flagged_rate": m.flagged_rate(),
        "hard_negatives": m.negatives,
        "hard_negatives_shown": m.negatives_shown,
    })
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

pub fn run(app: &mut App, cmd: DuplicatesCommand) -> Result<(), CliError> {
    match cmd {
        DuplicatesCommand::Eval(a) => eval_cmd(app, a),
    }
}

fn eval_cmd(app: &App, a: EvalArgs) -> Result<(), CliError> {
    let set = Dataset::load(&a.dir)?;
    let all = |_: &str| true;
    if a.emit_weights {
        let w = eval::count_levels(&set, &all)?.estimate(None);
        print!("{}", w.to_rust());
        return Ok(());
    }
    let bar = (!app.json && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
        let b = ProgressBar::new_spinner();
        b.set_message("replaying the set through the check");
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    let mut runs: Vec<(String, Metrics)> = Vec::new();
    let mut listing = Vec::new();
    if a.split {
        let half = eval::half_of(&set);
        for (name, train_a) in [("trained on half A, scored on half B", true), ("trained on half B, scored on half A", false)] {
            let train = |id: &str| half(id) == train_a;
            let score = |id: &str| half(id) != train_a;
            let w = eval::count_levels(&set, &train)?.estimate(None);
            let (m, shown) = eval::replay(&set, &w, &score)?;
            runs.push((name.to_string(), m));
            listing.extend(shown);
        }
    } else {
        let (label, w) = if a.counted {
            ("weights counted on this set", eval::count_levels(&set, &all)?.estimate(None))
        } else {
            ("built-in weights", Weights::builtin())
        };
        let (m, shown) = eval::replay(&set, &w, &all)?;
        if a.misses {
            for line in eval::explain_misses(&set, &w, &m.missed)? {
                eprintln!("missed {line}");
            }
        }
        runs.push((label.to_string(), m));
        listing = shown;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let cross_pairs = set.pairs.iter().filter(|p| p.2 == "cross").count();
    app.print(
        || {
            json!({
                "tasks": set.tasks.len(),
                "pairs": set.pairs.len(),
                "negatives": set.negatives.len(),
                "runs": runs.iter().map(|(l, m)| json!({ "label": l, "metrics": metrics_json(m) })).collect::<Vec<_>>(),
            })
        },
        || {
            let mut s = format!(
                "set: {} tasks, {} duplicate pairs ({cross_pairs} cross-language), {} hard negatives\n",
                set.tasks.len(),
                set.pairs.len(),
                set.negatives.len()
            );
            for (label, m) in &runs {
                s.push_str(&metrics_text(label, m));
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
