//! The ambiguity guard (SPEC §7, issue 11): before a model's close, cancel or update
//! runs, the person's own words must point at that task and at no other. A pure
//! function of (text, quoted message, the calls, the open tasks, the last list shown).
//!
//! A target passes when the message writes its key, names its position in the list
//! the person saw («вторую», "the first"), or when the words of the clause that speaks
//! of it fit it clearly and no other open task about as well (`offline::target`, the
//! same measure the offline parser uses). Otherwise nothing of that action runs: it
//! becomes a question listing the candidates, numbered, whose answer runs it — a model
//! never guesses between two tasks, and neither does this code.

use crate::calls::Call;
use crate::matching::{Candidate, Resolution};
use crate::offline::{self, Lang, Question, Step};
use crate::phrase::{self, Phrase};

/// Words that separate the clauses of one message ("buy tiles tomorrow and drop the
/// metaphor post idea"): each action is checked against its own clause.
const CLAUSE_BREAKS: &[&str] = &["and", "и", "а", "then", "потом", "also", "также", "плюс", "plus"];

/// Checks every call of a model's answer; returns what may run and what must be asked.
pub fn check(
    text: &str,
    quoted: Option<&str>,
    calls: Vec<Call>,
    tasks: &[Candidate],
    shown: &[String],
    today: jiff::civil::Date,
) -> Vec<Step> {
    let lang = Lang::of(text);
    let p = Phrase::new(text);
    let written_keys: Vec<String> = phrase::keys_in(&p).into_iter().map(|(k, _)| k).collect();
    let listed = quoted.map(crate::quoted::keys).filter(|k| !k.is_empty()).unwrap_or_else(|| shown.to_vec());
    let (positions, _) = phrase::positions(&p, !listed.is_empty());
    let named_by_position: Vec<String> =
        positions.iter().filter_map(|n| if *n == 0 { listed.last() } else { listed.get(n - 1) }).cloned().collect();
    let targets: Vec<String> = calls.iter().filter_map(|c| c.target().map(str::to_string)).collect();
    // The kind of change the person's words ask for, as the offline parser reads them.
    let asked = offline::kind_asked(text, today);
    calls
        .into_iter()
        .map(|call| {
            let Some(key) = call.target().map(str::to_string) else { return Step::Run(call) };
            // The kind must be what the phrase asks: a deadline phrase never closes or
            // cancels, a report of completion never moves.
            let wrong_kind = matches!(
                (&call, asked),
                (Call::CloseTask { .. } | Call::CancelTask { .. }, Some(offline::Kind::Move))
                    | (Call::UpdateTask { deadline: Some(_), .. }, Some(offline::Kind::Done))
            );
            if wrong_kind {
                return ask(&call, &key, &[], tasks, lang);
            }
            if written_keys.contains(&key) || named_by_position.contains(&key) {
                return Step::Run(call);
            }
            // A reply to a bot message that showed exactly this one task ("done with this
            // one" under "1. HOME-3 …"): the quote names it.
            if quoted.is_some() && listed.len() == 1 && listed[0] == key {
                return Step::Run(call);
            }
            if !positions.is_empty() && !listed.is_empty() {
                // The person named positions, and this is not one of them.
                return ask(&call, &key, &named_by_position, tasks, lang);
            }
            // A task that is not open (or not known) is for the dispatcher to report.
            if !tasks.iter().any(|t| t.key == key) {
                return Step::Run(call);
            }
            // Judge against the clause that speaks of this task, with the other calls'
            // targets out of the running.
            let others: Vec<Candidate> =
                tasks.iter().filter(|t| t.key == key || !targets.contains(&t.key)).cloned().collect();
            let clause = best_clause(text, &key, &others);
            let (objects, verbs) = offline::mention_of(&Phrase::new(&clause), today);
            let own = others.iter().position(|t| t.key == key);
            match offline::target(&objects, &verbs, &others) {
                Resolution::One(i) if Some(i) == own => Step::Run(call),
                Resolution::One(i) => ask(&call, &key, &[others[i].key.clone()], tasks, lang),
                Resolution::Several(ix) => {
                    let keys: Vec<String> = ix.iter().map(|i| others[*i].key.clone()).collect();
                    ask(&call, &key, &keys, tasks, lang)
                }
                Resolution::Nothing => ask(&call, &key, &[], tasks, lang),
            }
        })
        .collect()
}

/// Returns the question asked instead of running `call`: the model's target first, then
/// the other tasks the words fit.
fn ask(call: &Call, key: &str, others: &[String], tasks: &[Candidate], lang: Lang) -> Step {
    let mut keys = vec![key.to_string()];
    keys.extend(others.iter().filter(|k| k.as_str() != key).cloned());
    let options = keys
        .iter()
        .map(|k| (k.clone(), tasks.iter().find(|t| &t.key == k).map(|t| t.title.clone()).unwrap_or_default()))
        .collect();
    let question = if keys.len() == 1 {
        match lang {
            Lang::Ru => "Правильно понимаю, речь об этой задаче?".to_string(),
            Lang::En => "Do you mean this task?".to_string(),
        }
    } else {
        offline::which_task(lang)
    };
    Step::Ask(Question { question, options, action: Some(call.clone()) })
}

/// Returns the clause of the message that fits task `key` best (the whole message when
/// it has one clause).
fn best_clause(text: &str, key: &str, tasks: &[Candidate]) -> String {
    let clauses = clauses(text);
    if clauses.len() <= 1 {
        return text.to_string();
    }
    let Some(target) = tasks.iter().position(|t| t.key == key) else { return text.to_string() };
    clauses
        .into_iter()
        .map(|c| {
            let fit = crate::matching::fit_all(&crate::matching::words(&c), tasks)[target];
            (fit.score, c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
        .unwrap_or_else(|| text.to_string())
}

/// Splits a message at commas, semicolons and joining words.
fn clauses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        if CLAUSE_BREAKS.contains(&bare.as_str()) {
            if !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            }
            continue;
        }
        let ends = word.ends_with([',', ';', '.']);
        current.push(word);
        if ends {
            out.push(current.join(" "));
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks() -> Vec<Candidate> {
        [
            ("HOME-1", "Позвонить Ане про плитку"),
            ("LIFE-1", "Позвонить Ане насчёт дня рождения"),
            ("CHAN-1", "Написать пост про метафору"),
            ("HOME-6", "Купить плитку для ванной"),
            ("WORK-9", "Send the invoice to Acme"),
        ]
        .iter()
        .map(|(k, t)| Candidate::new(k, t))
        .collect()
    }

    fn verdicts(text: &str, calls: Vec<Call>, shown: &[&str]) -> Vec<String> {
        let shown: Vec<String> = shown.iter().map(|s| s.to_string()).collect();
        check(text, None, calls, &tasks(), &shown, jiff::civil::date(2026, 3, 11))
            .into_iter()
            .map(|s| match s {
                Step::Run(c) => format!("run {}", c.target().unwrap_or(c.tool())),
                Step::Ask(q) => format!("ask {}", q.options.iter().map(|o| o.0.as_str()).collect::<Vec<_>>().join(",")),
            })
            .collect()
    }

    fn close(k: &str) -> Call {
        Call::CloseTask { id: k.into() }
    }

    #[test]
    fn one_of_two_near_twins_is_asked_not_run() {
        assert_eq!(verdicts("сделала позвонить Ане", vec![close("HOME-1")], &[]), ["ask HOME-1,LIFE-1"]);
        assert_eq!(verdicts("позвонила Ане про плитку", vec![close("HOME-1")], &[]), ["run HOME-1"]);
    }

    #[test]
    fn the_kind_must_be_what_the_phrase_asks() {
        // A deadline named: a model's close is asked about, its move runs.
        assert_eq!(verdicts("срок по посту про метафору — пятница", vec![close("CHAN-1")], &[]), ["ask CHAN-1"]);
        assert_eq!(verdicts("the deadline for the acme invoice is friday", vec![close("WORK-9")], &[]), ["ask WORK-9"]);
        let move_to = |k: &str| Call::UpdateTask {
            id: k.into(),
            text: None,
            project: None,
            deadline: Some(crate::calls::Deadline {
                kind: crate::calls::DeadlineKind::Day,
                date: Some(jiff::civil::date(2026, 3, 13)),
            }),
        };
        assert_eq!(
            verdicts("the deadline for the acme invoice is friday", vec![move_to("WORK-9")], &[]),
            ["run WORK-9"]
        );
        // A report of completion: a model's move is asked about, its close runs.
        assert_eq!(verdicts("sent the acme invoice", vec![move_to("WORK-9")], &[]), ["ask WORK-9"]);
        assert_eq!(verdicts("sent the acme invoice", vec![close("WORK-9")], &[]), ["run WORK-9"]);
    }

    #[test]
    fn keys_and_positions_pass() {
        assert_eq!(verdicts("done LIFE-1", vec![close("LIFE-1")], &[]), ["run LIFE-1"]);
        assert_eq!(verdicts("вторую", vec![close("LIFE-1")], &["HOME-1", "LIFE-1"]), ["run LIFE-1"]);
        assert_eq!(verdicts("вторую", vec![close("HOME-1")], &["HOME-1", "LIFE-1"]), ["ask HOME-1,LIFE-1"]);
        assert_eq!(
            verdicts("сделала первую и вторую", vec![close("HOME-1"), close("LIFE-1")], &["HOME-1", "LIFE-1"]),
            ["run HOME-1", "run LIFE-1"]
        );
    }

    #[test]
    fn a_reply_to_a_message_that_showed_one_task_names_it() {
        let verdict = |quoted: &str, key: &str| {
            check("done with this one", Some(quoted), vec![close(key)], &tasks(), &[], jiff::civil::date(2026, 3, 11))
                .into_iter()
                .map(|s| matches!(s, Step::Run(_)))
                .collect::<Vec<_>>()
        };
        assert_eq!(verdict("Today (1):\n1. HOME-6 Купить плитку для ванной", "HOME-6"), [true]);
        assert_eq!(
            verdict("Today (1):\n1. HOME-6 Купить плитку для ванной", "HOME-1"),
            [false],
            "another task than the one shown"
        );
        assert_eq!(verdict("1. HOME-6 …\n2. HOME-1 …", "HOME-6"), [false], "two shown: which one?");
    }

    #[test]
    fn words_that_hardly_fit_are_confirmed() {
        assert_eq!(verdicts("done with the taxes", vec![close("WORK-9")], &[]), ["ask WORK-9"]);
    }

    #[test]
    fn each_action_of_a_message_is_judged_on_its_own_clause() {
        let calls = vec![
            Call::CreateTask {
                text: "buy tiles".into(),
                project: None,
                deadline: crate::calls::Deadline { kind: crate::calls::DeadlineKind::None, date: None },
            },
            Call::CancelTask { id: "CHAN-1".into() },
        ];
        assert_eq!(
            verdicts("buy tiles tomorrow and drop the metaphor post idea", calls, &[]),
            ["run create_task", "run CHAN-1"]
        );
    }
}
