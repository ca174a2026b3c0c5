//! The duplicate check through the real binary: the seed's worked example, refusal
//! with exit 7 and the two ways on (`--attach`, `--new`), rule-created tasks queued for
//! review, reject, merge/unmerge leaving the store as it was, FTS syntax in titles,
//! and the evaluation command.

use serde_json::{Value, json};

use crate::common::{TestEnv, keys};

/// A store holding seed 000's worked example: REQ-19 (ten days ago) and REQ-22
/// (yesterday), both from the same person, among closed requests from others.
fn worked_example() -> TestEnv {
    let env = TestEnv::new();
    let mut lines = String::new();
    let filler = |i: usize, day: &str| {
        format!(
            "{{\"id\":\"f{i}\",\"title\":\"Old errand number {i}\",\"type\":\"request\",\"person\":\"p{i}\",\"created_at\":\"2026-06-{day}T09:00:00Z\",\"status\":\"done\",\"closed_at\":\"2026-06-{day}T10:00:00Z\"}}\n"
        )
    };
    for i in 1..=18 {
        lines.push_str(&filler(i, "01"));
    }
    lines.push_str("{\"id\":\"req19\",\"title\":\"Send the contract invoice, 40 000 ₽\",\"type\":\"request\",\"person\":\"ivan\",\"category\":\"money\",\"created_at\":\"2026-11-19T10:00:00Z\"}\n");
    lines.push_str(&filler(20, "02"));
    lines.push_str(&filler(21, "03"));
    lines.push_str("{\"id\":\"req22\",\"title\":\"Send the invoice for 15000 ₽\",\"type\":\"request\",\"person\":\"ivan\",\"category\":\"money\",\"created_at\":\"2026-11-28T10:00:00Z\"}\n");
    let file = env.write("seed.jsonl", &lines);
    env.ok(&["import", file.to_str().expect("path")]);
    assert_eq!(env.json(&["show", "REQ-22"])["task"]["title"], "Send the invoice for 15000 ₽");
    assert_eq!(env.json(&["show", "REQ-19"])["task"]["title"], "Send the contract invoice, 40 000 ₽");
    env
}

const NEW_REQUEST: &[&str] = &["Send the invoice for 15 000 ₽ by Friday", "--type", "request", "--person", "ivan"];

fn with(base: &[&str], extra: &[&str]) -> Vec<String> {
    base.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn the_seed_worked_example_holds() {
    let env = worked_example();
    let v = env.json(&args(&with(&["check"], NEW_REQUEST)));
    let candidates = v["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 1, "REQ-19 is different, REQ-22 the only candidate: {v}");
    let c = &candidates[0];
    assert_eq!(c["key"], "REQ-22");
    assert_eq!(c["band"], "likely");
    let score = c["score"].as_f64().expect("score");
    assert!((12.0..=18.0).contains(&score), "≈15, got {score}");
    assert_eq!(c["reasons"], json!(["same person", "same amount", "3 of 4 stems shared"]));
    assert!(c["probability"].as_f64().is_some_and(|p| p > 0.9), "{c}");
    // `check` never writes.
    assert_eq!(keys(&env.json(&["list"])).len(), 2);
}

#[test]
fn add_refuses_with_exit_7_and_attach_or_new_go_on() {
    let env = worked_example();
    let e = env.fails(&args(&with(&["add"], NEW_REQUEST)), 7);
    assert_eq!(e["code"], "confirmation_required");
    assert_eq!(e["details"]["candidates"][0]["key"], "REQ-22");
    let human = env.run(&args(&with(&["add"], NEW_REQUEST)));
    assert_eq!(human.code, 7);
    assert!(human.stderr.contains("REQ-22") && human.stderr.contains("same person, same amount, 3 of 4 stems shared"));
    assert!(human.stderr.contains("hint: rerun with --attach REQ-22"), "{}", human.stderr);
    // --attach: nothing new, the source message is attached as evidence.
    let a = env.json(&args(&with(
        &["add"],
        &[NEW_REQUEST, &["--attach", "REQ-22", "--source", "msg:telegram/me/c1/77"]].concat(),
    )));
    assert_eq!(a["created"], false);
    assert_eq!(a["attached_to"], "REQ-22");
    let shown = env.json(&["show", "REQ-22"]);
    assert!(
        shown["links"]
            .as_array()
            .expect("links")
            .iter()
            .any(|l| l["kind"] == "evidence" && l["message"] == "msg:telegram/me/c1/77")
    );
    // --new: created anyway, with the candidates it was shown.
    let n = env.json(&args(&with(&["add"], &[NEW_REQUEST, &["--new"]].concat())));
    assert_eq!(n["created"], true);
    assert_eq!(n["candidates"][0]["key"], "REQ-22");
    assert_eq!(keys(&env.json(&["list"])).len(), 3);
}

#[test]
fn a_rule_created_task_is_created_and_queued_for_review() {
    let env = worked_example();
    let v = env.json(&args(&with(
        &["add"],
        &[NEW_REQUEST, &["--source", "msg:telegram/me/c9/5", "--rule", "invoice"]].concat(),
    )));
    assert_eq!(v["created"], true);
    assert_eq!(v["queued_for_review"], true);
    let new_key = v["task"]["key"].as_str().expect("key").to_string();
    let q = env.json(&["duplicates"]);
    assert_eq!(q["items"][0]["task"]["key"], new_key.as_str());
    assert_eq!(q["items"][0]["candidate"]["key"], "REQ-22");
    assert_eq!(q["items"][0]["band"], "likely");
    let human = env.ok(&["duplicates"]).stdout;
    assert!(human.contains(&format!("{new_key} ~ REQ-22")), "{human}");
    // Rejected: never offered again.
    env.ok(&["duplicates", "reject", &new_key, "REQ-22"]);
    assert!(env.json(&["duplicates"])["items"].as_array().expect("items").is_empty());
}

fn snapshot(env: &TestEnv, key: &str) -> Value {
    let mut v = env.json(&["show", key]);
    v["task"]["updated_at"] = Value::Null;
    v
}

#[test]
fn merge_then_unmerge_leaves_the_store_as_it_was() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "WEB", "Website"]);
    env.ok(&["add", "Renew the domain", "--project", "WEB", "--source", "msg:mail/me/inbox/1", "--tag", "web"]);
    env.ok(&["add", "Domain renewal for the site", "--project", "WEB", "--new", "--source", "msg:mail/me/inbox/2"]);
    env.ok(&["start", "WEB-2"]);
    let before = (snapshot(&env, "WEB-1"), snapshot(&env, "WEB-2"));
    let m = env.json(&["merge", "WEB-2", "--into", "WEB-1"]);
    assert_eq!(m["task"]["status"], "dismissed");
    assert_eq!(m["task"]["close_reason"], "duplicate");
    assert_eq!(m["moved_messages"], 1);
    let kept = env.json(&["show", "WEB-1"]);
    let messages: Vec<&str> =
        kept["links"].as_array().expect("links").iter().filter_map(|l| l["message"].as_str()).collect();
    assert_eq!(messages.len(), 2, "the duplicate's message moved: {kept}");
    let dup = env.json(&["show", "WEB-2"]);
    assert!(
        dup["links"].as_array().expect("links").iter().any(|l| l["kind"] == "duplicate-of" && l["task"] == "WEB-1")
    );
    // Merging twice, or into a merged task, is refused.
    env.fails(&["merge", "WEB-2", "--into", "WEB-1"], 15);
    env.fails(&["merge", "WEB-1", "--into", "WEB-1"], 2);
    let u = env.json(&["unmerge", "WEB-2"]);
    assert_eq!(u["task"]["status"], "in_progress");
    assert_eq!(u["moved_messages"], 1);
    assert_eq!((snapshot(&env, "WEB-1"), snapshot(&env, "WEB-2")), before);
    env.fails(&["unmerge", "WEB-2"], 15);
    let h = env.json(&["history", "WEB-2"]);
    let kinds: Vec<&str> = h["items"].as_array().expect("items").iter().filter_map(|e| e["kind"].as_str()).collect();
    assert!(kinds.ends_with(&["merge", "link", "unlink", "unmerge"]) || kinds.contains(&"unmerge"), "{kinds:?}");
}

#[test]
fn query_syntax_in_titles_is_only_words() {
    let env = TestEnv::new();
    for title in [r#"Fix "quoted" * stars"#, "NEAR(a b) OR c AND NOT d", "'; -- ^col:x", "\"", "*", "OR", "NEAR"] {
        env.ok(&["add", title, "--new"]);
        let r = env.run(&["--json", "check", title]);
        assert_eq!(r.code, 0, "check {title:?}: {}", r.stderr);
        let v = r.json();
        assert!(v["candidates"].is_array(), "{v}");
    }
}

#[test]
fn retrain_shows_old_and_new_weights_and_refuses_to_apply_without_labels() {
    let env = worked_example();
    let v = env.json(&["duplicates", "retrain"]);
    assert_eq!(v["applied"], false);
    assert!(v["weights"].as_array().is_some_and(|w| w.len() > 20), "{v}");
    let e = env.fails(&["duplicates", "retrain", "--apply"], 2);
    assert!(e["message"].as_str().unwrap_or("").contains("labelled duplicates"), "{e}");
}

/// Twenty-two merges are labelled duplicates: `retrain --apply` keeps the weights counted
/// from them, and the check scores with those from then on.
#[test]
fn retrain_applies_counted_weights_after_twenty_merges() {
    let env = TestEnv::new();
    let things = [
        "passport",
        "bicycle",
        "printer",
        "sofa",
        "laptop",
        "camera",
        "guitar",
        "heater",
        "kettle",
        "blender",
        "router",
        "scanner",
        "monitor",
        "tablet",
        "drone",
        "vacuum",
        "mixer",
        "toaster",
        "speaker",
        "projector",
        "microwave",
        "treadmill",
    ];
    let mut lines = String::new();
    for (i, thing) in things.iter().enumerate() {
        let day = i + 1;
        lines.push_str(&format!(
            "{{\"id\":\"a{i}\",\"title\":\"Repair the {thing}\",\"person\":\"p{i}\",\"created_at\":\"2026-05-{day:02}T09:00:00Z\"}}\n"
        ));
        lines.push_str(&format!(
            "{{\"id\":\"b{i}\",\"title\":\"The {thing} is broken again, fix it\",\"person\":\"p{i}\",\"created_at\":\"2026-05-{day:02}T10:00:00Z\"}}\n"
        ));
    }
    let file = env.write("pairs.jsonl", &lines);
    env.ok(&["import", file.to_str().expect("path")]);
    for i in 0..things.len() {
        let (a, b) = (format!("INBOX-{}", 2 * i + 1), format!("INBOX-{}", 2 * i + 2));
        env.ok(&["merge", &b, "--into", &a]);
    }
    let probe = ["check", "The kettle broke, fix it", "--person", "p8", "--all"];
    let before = env.json(&probe)["candidates"][0]["score"].clone();
    let v = env.json(&["duplicates", "retrain", "--apply"]);
    assert_eq!(v["labelled_duplicates"], 22, "{v}");
    assert_eq!(v["applied"], true, "{v}");
    let changed = v["weights"].as_array().expect("weights").iter().filter(|w| w["old"] != w["new"]).count();
    assert!(changed > 0, "counting changed no weight: {v}");
    let after = env.json(&probe)["candidates"][0]["score"].clone();
    assert_ne!(before, after, "the check scores with the applied weights");
}

/// A tiny labelled set in the format of shared/data/dedup-dev, written for this test.
const MINI_TASKS: &str = r#"{"id":"m1","title":"Pay the electricity bill, 2 300 ₽","description":"","type":"task","person":null,"chat":null,"reply_to":null,"category":"home","created_at":"2026-05-01T09:00:00+03:00","status":"open","closed_at":null}
{"id":"m2","title":"Book a table for Friday","description":"","type":"task","person":null,"chat":null,"reply_to":null,"category":"family","created_at":"2026-05-01T10:00:00+03:00","status":"open","closed_at":null}
{"id":"m3","title":"Электричество оплатить 2300 руб","description":"","type":"task","person":null,"chat":null,"reply_to":null,"category":"home","created_at":"2026-05-02T09:00:00+03:00","status":"open","closed_at":null}
{"id":"m4","title":"Call the plumber about the leak","description":"","type":"task","person":null,"chat":null,"reply_to":null,"category":"home","created_at":"2026-05-02T11:00:00+03:00","status":"open","closed_at":null}
"#;

#[test]
fn eval_reads_a_labelled_set_and_reports_figures() {
    let env = TestEnv::new();
    let dir = env.path("mini");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("tasks.jsonl"), MINI_TASKS).expect("write");
    std::fs::write(dir.join("pairs.jsonl"), "{\"dup\":\"m3\",\"of\":\"m1\",\"lang\":\"cross\",\"kind\":\"amount\"}\n")
        .expect("write");
    std::fs::write(dir.join("negatives.jsonl"), "{\"a\":\"m1\",\"b\":\"m4\",\"kind\":\"hard\"}\n").expect("write");
    let v = env.json(&["duplicates", "eval", dir.to_str().expect("path")]);
    assert_eq!(v["tasks"], 4);
    assert_eq!(v["pairs"], 1);
    let m = &v["runs"][0]["metrics"];
    assert_eq!(m["duplicates"], 1);
    assert_eq!(m["cross_language"], 1);
    assert!(m["recall"].as_f64().is_some(), "{m}");
    let e = env.fails(&["duplicates", "eval", "nowhere"], 6);
    assert!(e["message"].as_str().unwrap_or("").contains("tasks.jsonl"), "{e}");
    assert_eq!(e["code"], "not_found", "a set that is not there is not found: {e}");
}

/// The quality floor on the labelled dev set (skipped when ../shared is absent). The
/// figures are the ones reported on issue 4; a change that lowers them fails here.
#[test]
fn dev_set_quality_does_not_regress() {
    let Some(dir) = tasks_testkit::skip::shared_dir("dev_set_quality_does_not_regress", "data/dedup-dev") else {
        return;
    };
    let env = TestEnv::new();
    let v = env.json(&["duplicates", "eval", dir.to_str().expect("path")]);
    let m = &v["runs"][0]["metrics"];
    let get = |k: &str| m[k].as_f64().unwrap_or(0.0);
    // The targets of issue 4 (recall ≥ 0.90 at precision ≥ 0.65, likely precision
    // ≥ 0.85, cross-language recall ≥ 0.70), held at what is measured today (precision
    // and likely precision raised from 0.85 / 0.90 with the age level `closed`).
    assert!(get("recall") >= 0.90, "recall {m}");
    assert!(get("precision") >= 0.88, "precision {m}");
    assert!(get("likely_precision") >= 0.95, "likely precision {m}");
    assert!(get("cross_recall") >= 0.76, "cross-language recall {m}");
}

/// The held-out set (`data/dedup-holdout`, in the repository, written apart from the
/// check's code) is scored with the built-in weights; figures may only go up (one trade
/// is said at the floors). The floors are the measured values rounded down (see
/// docs/decisions.md for the numbers).
#[test]
fn holdout_set_quality_does_not_regress() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-holdout");
    let env = TestEnv::new();
    let v = env.json(&["duplicates", "eval", dir.to_str().expect("path")]);
    let m = &v["runs"][0]["metrics"];
    assert_eq!(m["duplicates"], 47, "{m}");
    let get = |k: &str| m[k].as_f64().unwrap_or(0.0);
    assert!(get("recall") >= HOLDOUT_FLOOR.0, "recall {m}");
    assert!(get("precision") >= HOLDOUT_FLOOR.1, "precision {m}");
    assert!(get("cross_recall") >= HOLDOUT_FLOOR.2, "cross-language recall {m}");
    // The issue's target, met once the same words around another name stopped being
    // `likely` (84.6 % measured, 11 of 13).
    assert!(get("likely_precision") >= HOLDOUT_LIKELY_PRECISION_FLOOR, "likely precision {m}");
}

/// Likely precision floor on the held-out set.
const HOLDOUT_LIKELY_PRECISION_FLOOR: f64 = 0.8;

/// One template filled in for two people (the same words around another name) is shown
/// as a `possible` look-alike and never refuses, even with the same person and due date
/// (which alone would refuse a possible candidate): the second review is created.
#[test]
fn the_same_words_around_another_name_are_shown_not_refused() {
    let env = TestEnv::new();
    let base = ["--due", "2026-03-27", "--person", "@hr-bot", "--category", "work"];
    let first = ["add", "Complete Q1 performance review: Chloe Lin"];
    env.json(&[&first[..], &base[..]].concat());
    let second = ["add", "Complete Q1 performance review: Samir Haddad"];
    let v = env.json(&[&second[..], &base[..]].concat());
    assert_eq!(v["created"], true, "{v}");
    let c = &v["candidates"][0];
    assert_eq!(c["band"], "possible", "{v}");
    assert!(c["score"].as_f64().unwrap_or(0.0) >= 10.0, "scored as likely, banded possible: {v}");
    let reasons = c["reasons"].to_string();
    assert!(reasons.contains("only the names or months differ"), "{reasons}");
    // The same words for the same person stay likely: refused with exit 7.
    let again = ["add", "Complete Q1 performance review: Chloe Lin!"];
    let e = env.fails(&[&again[..], &base[..]].concat(), 7);
    assert_eq!(e["code"], "confirmation_required", "{e}");
    // A monthly repeat: the same fee for another month.
    let fee = ["--person", "@academy", "--category", "money"];
    env.json(&[&["add", "Football academy: May fee for Misha — 120 ₾"][..], &fee[..]].concat());
    let june = env.json(&[&["add", "Football academy: June fee for Misha — 120 ₾"][..], &fee[..]].concat());
    assert_eq!(june["created"], true, "{june}");
    assert_eq!(june["candidates"][0]["band"], "possible", "{june}");
}

/// `--weights-from DIR` counts on DIR and scores the set: from the set itself it is
/// exactly `--counted`.
#[test]
fn weights_from_another_set_are_counted_there() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-holdout");
    let dir = dir.to_str().expect("path");
    let env = TestEnv::new();
    let from = env.json(&["duplicates", "eval", dir, "--weights-from", dir]);
    let counted = env.json(&["duplicates", "eval", dir, "--counted"]);
    assert_eq!(from["runs"][0]["metrics"], counted["runs"][0]["metrics"]);
    assert_eq!(from["runs"][0]["label"], "weights counted on the other set");
    let err = env.fails(&["duplicates", "eval", dir, "--weights-from", "/nonexistent/set"], 6);
    assert_eq!(err["code"], "not_found", "{err}");
    assert!(err["message"].as_str().unwrap_or_default().contains("/nonexistent/set"), "{err}");
}

/// `--split --misses` explains every duplicate each half missed under the other half's
/// weights: one line per miss, marked with the half it was scored in.
#[test]
fn split_misses_explain_each_half() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-holdout");
    let env = TestEnv::new();
    let r = env.ok(&["--json", "duplicates", "eval", dir.to_str().expect("path"), "--split", "--misses"]);
    let v = r.json();
    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 2, "{v}");
    let missed_in = |m: &serde_json::Value| {
        let n = m["duplicates"].as_f64().unwrap_or(0.0);
        (n - n * m["recall"].as_f64().unwrap_or(0.0)).round() as usize
    };
    // The first run counts on half A and scores half B.
    for (half, run) in ["B", "A"].iter().zip(runs) {
        let lines = r.stderr.lines().filter(|l| l.starts_with(&format!("missed ({half}) "))).count();
        assert_eq!(lines, missed_in(&run["metrics"]), "half {half}:\n{}", r.stderr);
    }
    assert!(r.stderr.contains("text="), "a miss names its levels: {}", r.stderr);
}

/// `--curve` tallies one replay at thresholds 0–10 bits: its row at 5 is the run itself,
/// and moving the threshold down shows more pairs and finds more duplicates, never fewer.
#[test]
fn a_curve_moves_the_possible_threshold_and_agrees_with_the_band_at_five() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-third");
    let env = TestEnv::new();
    let v = env.json(&["duplicates", "eval", dir.to_str().expect("path"), "--curve"]);
    let run = &v["runs"][0];
    let curve = run["curve"].as_array().expect("curve");
    assert_eq!(curve.len(), 11, "{run}");
    let at = |bits: f64| {
        curve.iter().find(|r| r["possible_from"].as_f64() == Some(bits)).map(|r| &r["metrics"]).expect("row")
    };
    assert_eq!(at(5.0), &run["metrics"], "the SPEC's threshold is the run");
    let num = |m: &serde_json::Value, k: &str| m[k].as_f64().unwrap_or(f64::NAN);
    for pair in curve.windows(2) {
        let (lower, higher) = (&pair[0]["metrics"], &pair[1]["metrics"]);
        for k in ["recall", "flagged_rate", "shown_pairs", "hard_negatives_shown"] {
            assert!(num(lower, k) >= num(higher, k), "{k} rose with the threshold: {run}");
        }
    }
    assert!(num(at(0.0), "shown_pairs") > num(at(5.0), "shown_pairs"), "{run}");
    assert!(num(at(5.0), "shown_pairs") > num(at(10.0), "shown_pairs"), "{run}");
    for row in curve {
        for k in ["likely_pairs", "likely_recall", "likely_precision"] {
            assert_eq!(row["metrics"][k], run["metrics"][k], "likely does not move: {row}");
        }
    }
    let text = env.ok(&["duplicates", "eval", dir.to_str().expect("path"), "--curve"]).stdout;
    assert!(text.contains("   5 bits *"), "the SPEC's row is marked:\n{text}");
}

/// Counting on two sets adds their counts, however the run is asked for: this set
/// counted with another (`--counted --count-also`) scores exactly as both named as the
/// sets to count on (`--weights-from` twice).
#[test]
fn weights_counted_on_two_sets_are_the_same_either_way() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let (holdout, third) = (root.join("dedup-holdout"), root.join("dedup-third"));
    let (holdout, third) = (holdout.to_str().expect("path"), third.to_str().expect("path"));
    let env = TestEnv::new();
    let also = env.json(&["duplicates", "eval", holdout, "--counted", "--count-also", third]);
    let named = env.json(&["duplicates", "eval", holdout, "--weights-from", holdout, "--weights-from", third]);
    assert_eq!(also["runs"][0]["metrics"], named["runs"][0]["metrics"]);
    // Options a run would ignore are refused, not ignored.
    let r = env.run(&["duplicates", "eval", holdout, "--count-also", third]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--count-also"), "{}", r.stderr);
    let r = env.run(&["duplicates", "eval", holdout, "--emit-weights", "--curve"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let alone = env.json(&["duplicates", "eval", holdout, "--counted"]);
    assert_ne!(alone["runs"][0]["metrics"], also["runs"][0]["metrics"], "the other set's counts were added");
}

/// `duplicates reindex` rewrites what an older version read into the check's index: a
/// signature stored as rubles for «65к» (as versions before the unstated currency read
/// it; the frequency of a same amount is counted from signatures) is read again. What
/// the check shows is unchanged, and a second reindex changes nothing.
#[test]
fn reindex_rereads_what_an_older_version_stored() {
    let env = TestEnv::new();
    env.json(&["add", "Аренда за июнь, 65к — перевести Арсену"]);
    env.json(&["add", "Renew the passport", "--new"]);
    let probe = ["check", "June rent to Arsen, 65 000 €", "--all"];
    let before = env.json(&probe);
    assert_eq!(before["candidates"][0]["levels"]["amount"], "same", "{before}");
    let currency = || -> Vec<String> {
        let conn = rusqlite::Connection::open(env.db()).expect("open the store");
        let mut stmt = conn.prepare("SELECT currency FROM task_signatures WHERE currency IS NOT NULL").expect("sql");
        stmt.query_map([], |r| r.get(0)).expect("query").collect::<rusqlite::Result<_>>().expect("rows")
    };
    assert_eq!(currency(), ["XXX"]);
    rusqlite::Connection::open(env.db())
        .expect("open the store")
        .execute("UPDATE task_signatures SET currency = 'RUB' WHERE currency = 'XXX'", [])
        .expect("age the signature");
    let v = env.json(&["duplicates", "reindex"]);
    assert_eq!(v["reindexed"], 2, "{v}");
    assert_eq!(currency(), ["XXX"], "read again as this version reads it");
    assert_eq!(env.json(&probe), before);
    env.json(&["duplicates", "reindex"]);
    assert_eq!(currency(), ["XXX"]);
    assert_eq!(env.json(&probe), before, "a second reindex changes nothing");
    let text = env.ok(&["duplicates", "reindex"]).stdout;
    assert!(text.contains("index of 2 task(s)"), "{text}");
}

/// A store whose index an older version wrote (its `user_version` below
/// `dedup::INDEX_VERSION`; every store before versioning has 0) is reindexed once, by the
/// first command that writes: the aged signatures and index terms are read again, the
/// kept document frequencies follow, and the command says so on stderr. A command that
/// only reads, and a dry run, leave the store as it is; `--json` keeps stderr for errors.
#[test]
fn an_upgrade_reindexes_once_when_a_command_writes() {
    let env = TestEnv::new();
    env.json(&["add", "Pagar el gas, llegó de 41 mil"]);
    env.json(&["add", "Аренда за июнь, 65к — перевести Арсену", "--new"]);
    let db = || rusqlite::Connection::open(env.db()).expect("open the store");
    let stems = || -> String {
        db().query_row("SELECT stems FROM task_stems WHERE rowid = 1", [], |r| r.get(0)).expect("stems")
    };
    // Every term's kept document frequency against FTS5's own count of it.
    let term_docs_off = || -> i64 {
        db().query_row(
            "SELECT (SELECT count(*) FROM (SELECT term, doc FROM task_stems_vocab
                                           EXCEPT SELECT term, docs FROM term_docs))
                  + (SELECT count(*) FROM term_docs WHERE docs > 0
                         AND term NOT IN (SELECT term FROM task_stems_vocab))",
            [],
            |r| r.get(0),
        )
        .expect("compare")
    };
    let amounts = || -> Vec<String> {
        let conn = db();
        let mut stmt = conn
            .prepare(
                "SELECT amount_minor || ' ' || currency FROM task_signatures WHERE currency IS NOT NULL ORDER BY 1",
            )
            .expect("sql");
        stmt.query_map([], |r| r.get(0)).expect("query").collect::<rusqlite::Result<_>>().expect("rows")
    };
    let (current, fresh_stems) = (index_version(&env), stems());
    assert!(current >= 1, "a new store is at the current index version: {current}");
    assert_eq!(amounts(), ["4100000 XXX", "6500000 XXX"]);
    assert_eq!(term_docs_off(), 0);
    let age = || age_index(&env);
    age();
    let aged = (index_version(&env), amounts().len(), stems());
    assert_eq!(aged, (0, 0, "agedstem".to_owned()));
    // Reading commands and dry runs do not write.
    env.ok(&["list"]);
    env.ok(&["add", "Renew the passport", "--dry-run"]);
    assert_eq!((index_version(&env), amounts().len(), stems()), aged, "a read and a dry run left the store as it was");
    let r = env.ok(&["add", "Renew the passport", "--new"]);
    assert!(r.stderr.contains("rebuilt the duplicate check's index of 2 task(s)"), "{}", r.stderr);
    assert_eq!(index_version(&env), current);
    assert_eq!(amounts(), ["4100000 XXX", "6500000 XXX"], "read again as this version reads them");
    assert_eq!(stems(), fresh_stems, "the index terms too");
    assert_eq!(term_docs_off(), 0, "and the kept document frequencies follow");
    let again = env.ok(&["add", "Book the dentist", "--new"]);
    assert!(!again.stderr.contains("rebuilt"), "once: {}", again.stderr);
    // With --json the note stays off stderr; the reindex still happens.
    age();
    let r = env.run(&["--json", "add", "Call the plumber", "--new"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert_eq!((index_version(&env), amounts().len(), stems()), (current, 2, fresh_stems));
}

/// Leaves the store's duplicate index as an older version left it: other terms, no
/// amounts, document frequencies to match, index version 0.
fn age_index(env: &TestEnv) {
    rusqlite::Connection::open(env.db())
        .and_then(|db| {
            db.execute_batch(
                "UPDATE task_signatures SET amount_minor = NULL, currency = NULL;
                 UPDATE task_stems SET stems = 'agedstem' WHERE rowid = 1;
                 DELETE FROM term_docs;
                 INSERT INTO term_docs (term, docs) SELECT term, doc FROM task_stems_vocab;
                 PRAGMA user_version = 0;",
            )
        })
        .expect("age the store");
}

fn index_version(env: &TestEnv) -> i64 {
    rusqlite::Connection::open(env.db())
        .and_then(|db| db.query_row("PRAGMA user_version", [], |r| r.get(0)))
        .expect("user_version")
}

/// A store of one task, aged as an older version left it, with its write lock held by
/// this test process (as a long import would hold it); also the current index version.
fn aged_store_under_a_held_lock() -> (TestEnv, i64, rusqlite::Connection) {
    let env = TestEnv::new();
    env.ok(&["add", "Pagar el gas, llegó de 41 mil"]);
    let current = index_version(&env);
    age_index(&env);
    let conn = rusqlite::Connection::open(env.db()).expect("open");
    conn.execute_batch("BEGIN IMMEDIATE").expect("take the write lock");
    (env, current, conn)
}

/// The reindex an upgrade needs waits for the write lock like any write, and a wait
/// that runs out says who holds the lock and leaves the store as it was.
#[test]
fn an_upgrade_that_waits_too_long_names_the_holder_and_changes_nothing() {
    let (env, current, conn) = aged_store_under_a_held_lock();
    let mut cmd = env.command(&["--json", "add", "Renew the passport", "--new"]);
    cmd.env("TASKS_BUSY_TIMEOUT", "1s");
    let r = crate::common::collect(cmd.output().expect("run"));
    conn.execute_batch("ROLLBACK").expect("release");
    assert_eq!(r.code, 9, "{}", r.stderr);
    let e: Value = serde_json::from_str(r.stderr.trim()).expect("one JSON error");
    assert_eq!(e["error"]["code"], "timeout", "{e}");
    let holders = e["error"]["details"]["holders"].as_array().expect("holders");
    assert!(holders.iter().any(|h| h["pid"] == std::process::id()), "this test process is named: {e}");
    assert_eq!(index_version(&env), 0, "not reindexed");
    assert_eq!(keys(&env.json(&["list"])), ["INBOX-1"], "and not added");
    // Once the lock is free the same command upgrades and adds.
    env.ok(&["add", "Renew the passport", "--new"]);
    assert_eq!(index_version(&env), current);
}

/// Two writers that find one aged store both wait for the lock; the first rebuilds
/// the index, and the second, reading the version again under the lock, does not.
#[test]
fn two_writers_at_an_upgrade_rebuild_the_index_once() {
    let (env, current, conn) = aged_store_under_a_held_lock();
    let spawn = |title: &str| {
        let mut cmd = env.command(&["add", title, "--new"]);
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        cmd.spawn().expect("spawn")
    };
    let writers = [spawn("Renew the passport"), spawn("Book the dentist")];
    // Both must have read the aged version and be queued for the lock before it is
    // released, or one would find the index current and prove nothing: wait until both
    // sleep in SQLite's busy handler (the kernel names where a process sleeps).
    let start = std::time::Instant::now();
    let busy_waiting =
        |pid: u32| std::fs::read_to_string(format!("/proc/{pid}/wchan")).is_ok_and(|w| w.contains("nanosleep"));
    while !writers.iter().all(|w| busy_waiting(w.id())) {
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "the writers never queued for the lock");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    conn.execute_batch("ROLLBACK").expect("release");
    let runs: Vec<_> =
        writers.into_iter().map(|w| crate::common::collect(w.wait_with_output().expect("wait"))).collect();
    for r in &runs {
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let rebuilt = runs.iter().filter(|r| r.stderr.contains("rebuilt the duplicate check's index")).count();
    assert_eq!(rebuilt, 1, "{:?}", runs.iter().map(|r| &r.stderr).collect::<Vec<_>>());
    assert_eq!(index_version(&env), current);
    assert_eq!(env.json(&["list"])["items"].as_array().map(Vec::len), Some(3));
}

/// A miss is explained by what the check saw as of the task's creation, so its best
/// in-cluster candidate is never `possible` or `likely` (that would have been a hit).
/// Scored in the full store instead, the third set's t0090 read 9.5 "possible": the
/// rare-word level and the idf weights only start at 100 tasks.
#[test]
fn a_miss_is_explained_as_of_its_creation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/dedup-third");
    let env = TestEnv::new();
    let r = env.ok(&["duplicates", "eval", dir.to_str().expect("path"), "--misses"]);
    let lines: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("missed ")).collect();
    assert!(!lines.is_empty(), "{}", r.stderr);
    for line in lines {
        assert!(
            line.contains(" different: ") || line.ends_with("no cluster member retrieved"),
            "a miss shown as a hit: {line}"
        );
    }
}

/// (recall, precision, cross-language recall) floors on the held-out set. Precision
/// went from 0.67 to 0.65 once, for a trade said in docs/decisions.md (another person
/// with no chat in common is one source level: +2 true pairs on the third set, +1
/// false pair here). Raised to (0.59, 0.66) when a derivation the stemmer leaves apart
/// became one word (`compare::NEAR_STEM_PREFIX`); precision to 0.71 when a candidate
/// already done became the age level `closed`.
const HOLDOUT_FLOOR: (f64, f64, f64) = (0.59, 0.71, 0.54);

/// (recall, precision, cross-language recall, likely precision) floors on the third
/// set (raised from (0.64, 0.67) when amounts of an unstated currency and the lari were
/// read; likely precision 0.85 when the next instance of a recurring errand became at
/// most possible; (0.70, 0.76, 0.59, 0.89) when a candidate already done became the age
/// level `closed`).
const THIRD_FLOOR: (f64, f64, f64, f64) = (0.70, 0.76, 0.59, 0.89);

/// (recall, precision, cross-language recall, likely precision) floors on the fourth set (raised from
/// (0.61, 0.68, 0.40) when Spanish `mil`, model names in two scripts and Spanish `gu`/`qu`
/// were read; (0.66, 0.75, 0.48) with the age level `closed`).
const FOURTH_FLOOR: (f64, f64, f64, f64) = (0.66, 0.75, 0.48, 0.85);

/// (recall, precision, cross-language recall, likely precision) floors on the fifth set,
/// a little under what it scored when it arrived (its misses are not read); precision
/// raised from 0.82 with the age level `closed`.
const FIFTH_FLOOR: (f64, f64, f64, f64) = (0.73, 0.89, 0.55, 0.98);

/// (recall, precision, cross-language recall, likely precision) floors on the sixth set,
/// a little under what it scored when it arrived (its misses are not read); precision
/// and likely precision raised from (0.82, 0.90) with the age level `closed`.
const SIXTH_FLOOR: (f64, f64, f64, f64) = (0.68, 0.84, 0.57, 0.93);

/// The most a set may flag: the issue's 35 %, except where more tasks than that have
/// an earlier duplicate. In the sixth set 133 of 282 tasks (47 %) do — half its pairs
/// are an agent's notice against the owner's own note — so a perfect check would flag
/// 47 %; there the ceiling is a little over what it flagged when it arrived (37.2 %),
/// raised from 0.38 when the words the chat's ninth round added to the lexicon found one
/// more true pair there (flagged 38.3 %, recall 70.7 → 71.4 %, precision 85.0 → 85.2 %).
const FLAGGED_CEILING: f64 = 0.35;
const SIXTH_FLAGGED_CEILING: f64 = 0.39;

/// The third to sixth sets (`data/dedup-third` … `-sixth`: other worlds, written apart
/// from the check, never counted in the built-in weights) are scored with the built-in
/// weights; floors and flagged ceilings as above.
#[test]
fn later_sets_quality_does_not_regress() {
    for (name, duplicates, floor, ceiling) in [
        ("dedup-third", 64, THIRD_FLOOR, FLAGGED_CEILING),
        ("dedup-fourth", 94, FOURTH_FLOOR, FLAGGED_CEILING),
        ("dedup-fifth", 103, FIFTH_FLOOR, FLAGGED_CEILING),
        ("dedup-sixth", 133, SIXTH_FLOOR, SIXTH_FLAGGED_CEILING),
    ] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(name);
        let env = TestEnv::new();
        let v = env.json(&["duplicates", "eval", dir.to_str().expect("path")]);
        let m = &v["runs"][0]["metrics"];
        assert_eq!(m["duplicates"], duplicates, "{name}: {m}");
        let get = |k: &str| m[k].as_f64().unwrap_or(0.0);
        assert!(get("recall") >= floor.0, "{name}: recall {m}");
        assert!(get("precision") >= floor.1, "{name}: precision {m}");
        assert!(get("cross_recall") >= floor.2, "{name}: cross-language recall {m}");
        assert!(get("likely_precision") >= floor.3, "{name}: likely precision {m}");
        assert!(get("flagged_rate") <= ceiling, "{name}: flagged {m}");
    }
}

/// A request repeated a week after the first one is refused while the first is still
/// open, and not once the first was done before it came: the age comparison reads
/// `older` (−1.3 bits) or `closed` (−7.9), issue 16. Same words, same store, same
/// clock; only the first task's status differs.
#[test]
fn a_request_repeated_after_the_first_was_done_is_a_new_one() {
    for close_first in [false, true] {
        let mut env = TestEnv::new();
        env.now = "2026-03-02T09:00:00Z".into();
        let first = env.json(&["add", "Renew the car insurance"])["task"]["key"].as_str().expect("key").to_string();
        if close_first {
            env.now = "2026-03-05T09:00:00Z".into();
            env.ok(&["done", &first]);
        }
        env.now = "2026-03-12T09:00:00Z".into();
        let all = env.json(&["check", "Renew car insurance with Alcor", "--all"]);
        let c = &all["candidates"][0];
        assert_eq!(c["key"], first.as_str(), "{all}");
        let shown = env.json(&["check", "Renew car insurance with Alcor"]);
        if close_first {
            assert_eq!(c["levels"]["age"], "closed", "{all}");
            assert_eq!(c["band"], "different", "{all}");
            assert_eq!(shown["candidates"], json!([]), "{shown}");
            let text = env.ok(&["check", "Renew car insurance with Alcor", "--all"]).stdout;
            assert!(text.contains("the earlier one was done before this one came"), "{text}");
        } else {
            assert_eq!(c["levels"]["age"], "older", "{all}");
            assert_ne!(c["band"], "different", "{all}");
            assert_eq!(shown["candidates"][0]["key"], first.as_str(), "{shown}");
        }
    }
}

/// A version number ("2.0") is as common as its parts, not the rarest word of the
/// store: before, "upgrade snakeyaml to 2.0" searched first for every task whose
/// version ends in ".2.0" (30 here, past the search's 20) and never saw the earlier
/// snakeyaml report, and "2.0" counted as a shared rare word (GitBugs Hadoop, issue 16).
#[test]
fn a_version_number_does_not_crowd_the_real_words_out_of_the_search() {
    let env = TestEnv::new();
    let mut lines: Vec<String> = (0..30)
        .map(|i| {
            json!({"title": format!("Upgrade lib{i} to {i}.2.0"), "created_at": "2026-01-01T00:00:00Z"}).to_string()
        })
        .collect();
    lines.extend((0..80).map(|i| {
        json!({"title": format!("Review chapter {i} of the guide"), "created_at": "2026-01-01T00:00:00Z"}).to_string()
    }));
    lines.push(json!({"title": "Update to Apache LDAP API 2.0.x", "created_at": "2026-01-01T00:00:00Z"}).to_string());
    lines.push(
        json!({"id": "yaml", "title": "snakeyaml dependency: upgrade to v2.0", "created_at": "2026-01-02T00:00:00Z"})
            .to_string(),
    );
    let file = env.write("reports.jsonl", &lines.join("\n"));
    env.ok(&["import", file.to_str().expect("path")]);
    let all = env.json(&["check", "upgrade snakeyaml to 2.0", "--all"]);
    let found = all["candidates"].as_array().expect("candidates");
    let yaml = found.iter().find(|c| c["title"] == "snakeyaml dependency: upgrade to v2.0");
    assert!(yaml.is_some(), "the snakeyaml report is a candidate: {all}");
    let ldap = env.json(&["check", "Release notes for 2.0", "--all"]);
    let ldap = ldap["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .find(|c| c["title"] == "Update to Apache LDAP API 2.0.x")
        .cloned();
    let ldap = ldap.expect("the task sharing \"2.0\" is a candidate");
    assert_eq!(ldap["levels"]["text"], "common", "a version 31 tasks carry is not a rare word: {ldap}");
}

/// A camel-case identifier in one title and the same words apart in another are one
/// thing: the earlier task is found and its words are shared.
#[test]
fn a_camel_case_word_finds_the_same_words_written_apart() {
    let env = TestEnv::new();
    env.ok(&["add", "Update Bouncy Castle to 1.68 or later"]);
    env.ok(&["add", "Water the plants"]);
    let all = env.json(&["check", "Upgrade BouncyCastle to 1.69", "--all"]);
    let found = all["candidates"].as_array().expect("candidates");
    let castle = found.iter().find(|c| c["title"] == "Update Bouncy Castle to 1.68 or later");
    let castle = castle.unwrap_or_else(|| panic!("the task with the words apart is a candidate: {all}"));
    assert_ne!(castle["levels"]["text"], "none", "{castle}");
}

#[test]
fn check_all_shows_the_candidates_that_were_not_flagged_and_why() {
    let env = TestEnv::new();
    env.ok(&["add", "Call the plumber about the leak"]);
    let quiet = env.json(&["check", "Call mom about Sunday"]);
    assert_eq!(quiet["candidates"], json!([]), "a different candidate is not shown by default");
    let all = env.json(&["check", "Call mom about Sunday", "--all"]);
    let c = &all["candidates"][0];
    assert_eq!(c["band"], "different", "{all}");
    assert_eq!(c["title"], "Call the plumber about the leak");
    for comparison in ["text", "source", "age", "amount", "due", "category", "context", "entity"] {
        assert!(c["levels"][comparison].is_string(), "level of {comparison} in {c}");
    }
    let text = env.ok(&["check", "Call mom about Sunday", "--all"]).stdout;
    assert!(text.contains("text=common"), "{text}");
}

/// Imports a JSONL stream with `--check-report` and returns the report's lines.
fn check_report(env: &TestEnv, text: &str) -> Vec<Value> {
    let file = env.write("stream.jsonl", text);
    let report = env.path("report.jsonl");
    env.ok(&["import", file.to_str().expect("path"), "--check-report", report.to_str().expect("path")]);
    std::fs::read_to_string(&report)
        .expect("report")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// A reminder re-sent by the same person in the same chat without a reply link is still
/// offered: the source levels are pooled so that the same person is never weaker
/// evidence than an unknown or another one (docs/decisions.md).
#[test]
fn a_reminder_from_the_same_person_in_the_same_chat_is_offered() {
    let env = TestEnv::new();
    let text = r#"{"id":"a","title":"Пришли счёт за март","type":"request","person":"p1","chat":"c1","created_at":"2026-05-04T09:00:00Z"}
{"id":"b","title":"Пришли, пожалуйста, счёт за март","type":"request","person":"p1","chat":"c1","created_at":"2026-05-05T09:00:00Z"}
"#;
    let lines = check_report(&env, text);
    assert_eq!(lines[1]["candidates"][0]["id"], "a", "{}", lines[1]);
    assert!(lines[1]["candidates"][0]["reasons"].to_string().contains("same person"), "{}", lines[1]);
}

#[test]
fn the_check_report_sees_each_line_as_of_its_created_at() {
    let env = TestEnv::new();
    // a1 is closed on 05-20: still open when b1 arrives (05-10), long closed when c1
    // arrives (06-20, more than 14 days after).
    let text = r#"{"id":"a1","title":"Renew the Figma subscription, $15","person":"p9","category":"admin","created_at":"2026-05-01T09:00:00Z","status":"done","closed_at":"2026-05-20T09:00:00Z"}
{"id":"b1","title":"Figma subscription renewal $15","person":"p9","category":"admin","created_at":"2026-05-10T09:00:00Z"}
{"id":"c1","title":"Renew the Figma subscription, $15","person":"p9","category":"admin","created_at":"2026-06-20T09:00:00Z"}
"#;
    let lines = check_report(&env, text);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["id"], "a1");
    assert!(lines[0]["candidates"].as_array().expect("candidates").is_empty());
    assert_eq!(lines[1]["id"], "b1");
    assert_eq!(lines[1]["candidates"][0]["id"], "a1", "a task closed later counts as open then: {}", lines[1]);
    for k in ["key", "score", "band", "reasons"] {
        assert!(lines[1]["candidates"][0].get(k).is_some(), "report candidate has {k}");
    }
    let later: Vec<&str> =
        lines[2]["candidates"].as_array().expect("candidates").iter().filter_map(|c| c["id"].as_str()).collect();
    assert!(!later.contains(&"a1"), "closed more than 14 days before: not live: {}", lines[2]);
    // Import never refuses a duplicate: all three are in the store.
    assert_eq!(keys(&env.json(&["list", "--status", "all"])).len(), 3);
}

#[test]
fn a_declared_blocker_is_never_a_duplicate_candidate() {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HRB", "Harbor"]);
    env.ok(&["add", "Write the login screen", "--project", "HRB"]);
    // Without the link, the look-alike is refused (to an agent; a person is shown it) …
    env.fails(&["add", "Test the login screen", "--project", "HRB", "--agent", "--dry-run"], 7);
    // … and `check` agrees with `add` both ways: it runs the same check.
    let shown = env.json(&["check", "Test the login screen", "--project", "HRB"]);
    assert_eq!(shown["candidates"][0]["key"], "HRB-1", "{shown}");
    let hidden = env.json(&["check", "Test the login screen", "--project", "HRB", "--blocked-by", "HRB-1", "--all"]);
    assert_eq!(hidden["candidates"], json!([]), "a declared blocker is not even scored: {hidden}");
    // … with it, the user has said the two are different tasks.
    let v = env.json(&["add", "Test the login screen", "--project", "HRB", "--blocked-by", "HRB-1"]);
    assert_eq!(v["created"], true);
    assert_eq!(v["task"]["blocked_by"], json!(["HRB-1"]));
}

/// Issue 16: the very same title of an open task added minutes ago is `likely`.
#[test]
fn the_same_title_added_again_minutes_later_is_likely() {
    let env = TestEnv::new();
    env.ok(&["add", "Renew the car insurance"]);
    let v = env.json(&["check", "Renew the car insurance"]);
    let first = &v["candidates"][0];
    assert_eq!(first["key"], "INBOX-1", "{v}");
    assert_eq!(first["band"], "likely", "{v}");
}
