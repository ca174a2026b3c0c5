//! The held-out phrase set (`data/chat-phrases-holdout`, written apart from the parser
//! and never used to change it) through the real binary, the way issue 11 measures it:
//! `tasks chat --offline --dry-run --json TEXT` against the set's task list, scored by
//! the set's README. An evaluation, not a regression test: it is ignored by default so
//! that no failure here ever pulls the parser towards this set; run it to report:
//!
//! ```sh
//! cargo test -p tasks-cli --test cli -- --ignored --nocapture chat_holdout
//! ```

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::TestEnv;

fn data(set: &str, name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(set).join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("json line")).collect()
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

/// Text compared as the set's README says: case, spaces and ё/е do not count.
fn loose(text: &str) -> String {
    text.to_lowercase().replace('ё', "е").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Debug, Default)]
struct Score {
    right: usize,
    total: usize,
}

/// Returns (right, a destructive call of the wrong task or the wrong kind) for one
/// answer: a close, cancel or move where none was wanted, on another task than the one
/// wanted, or of another kind (a close where a move was wanted).
fn judge(expect: &Value, calls: &[Value]) -> (bool, bool) {
    let tool = s(expect, "tool");
    let want_id = s(expect, "id");
    let destructive = |c: &Value| matches!(c["tool"].as_str(), Some("close_task" | "cancel_task" | "update_task"));
    let wrong = calls.iter().any(|c| {
        destructive(c)
            && (!matches!(tool.as_str(), "close_task" | "cancel_task" | "update_task")
                || c["arguments"]["id"].as_str() != Some(want_id.as_str())
                || c["tool"].as_str() != Some(tool.as_str()))
    });
    if tool == "none" {
        return (calls.iter().all(|c| c["tool"] == "reject"), wrong);
    }
    if calls.len() != 1 {
        return (false, wrong);
    }
    let (got, a) = (s(&calls[0], "tool"), &calls[0]["arguments"]);
    let right = got == tool
        && match tool.as_str() {
            "close_task" | "cancel_task" => s(a, "id") == want_id,
            "update_task" => {
                s(a, "id") == want_id
                    && s(a, "deadline_kind") == s(expect, "deadline_kind")
                    && s(a, "deadline") == s(expect, "deadline")
            }
            "create_task" => {
                loose(&s(a, "text")) == loose(&s(expect, "text"))
                    && s(a, "deadline_kind") == s(expect, "deadline_kind")
                    && s(a, "deadline") == s(expect, "deadline")
                    && (expect.get("project").is_none()
                        || s(a, "project").eq_ignore_ascii_case(&s(expect, "project"))
                        // The inbox is no project: a create without one files it there.
                        || (s(expect, "project").eq_ignore_ascii_case("inbox") && s(a, "project").is_empty()))
            }
            "list_tasks" => s(a, "filter") == s(expect, "filter"),
            "clarify" => {
                let mut got: Vec<String> = a["options"]
                    .as_array()
                    .map(|o| {
                        o.iter()
                            .filter_map(Value::as_str)
                            .map(|x| x.split(':').next().unwrap_or("").to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                let mut want: Vec<String> = expect["options"]
                    .as_array()
                    .expect("options")
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect();
                got.sort();
                want.sort();
                got == want
            }
            _ => false,
        };
    (right, wrong)
}

#[test]
#[ignore = "evaluation of the held-out phrase set: run with --ignored to report its figures"]
fn chat_holdout_figures() {
    // Wednesday 2026-05-20, 09:30 in Berlin.
    figures("chat-phrases-holdout", "2026-05-20T07:30:00Z", "Europe/Berlin");
}

#[test]
#[ignore = "evaluation of the second held-out phrase set: run with --ignored to report its figures"]
fn chat_holdout_2_figures() {
    // Thursday 2026-10-08, 10:00 in Moscow.
    figures("chat-phrases-holdout-2", "2026-10-08T07:00:00Z", "Europe/Moscow");
}

#[test]
#[ignore = "evaluation of the third held-out phrase set: run with --ignored to report its figures"]
fn chat_holdout_3_figures() {
    // Monday 2026-02-16, 08:15 in Novosibirsk.
    figures("chat-phrases-holdout-3", "2026-02-16T01:15:00Z", "Asia/Novosibirsk");
}

#[test]
#[ignore = "evaluation of the fourth phrase set: run with --ignored to report its figures"]
fn chat_holdout_4_figures() {
    // Thursday 2027-10-21, 19:40 in Yekaterinburg.
    figures("chat-phrases-holdout-4", "2027-10-21T14:40:00Z", "Asia/Yekaterinburg");
}

#[test]
#[ignore = "evaluation of the fifth phrase set: run with --ignored to report its figures"]
fn chat_holdout_5_figures() {
    // Thursday 2027-10-14, 19:20 in Yekaterinburg.
    figures("chat-phrases-holdout-5", "2027-10-14T14:20:00Z", "Asia/Yekaterinburg");
}

#[test]
#[ignore = "evaluation of the sixth phrase set: run with --ignored to report its figures"]
fn chat_holdout_6_figures() {
    // Tuesday 2028-02-22, 19:40 in Toronto.
    figures("chat-phrases-holdout-6", "2028-02-23T00:40:00Z", "America/Toronto");
}

#[test]
#[ignore = "evaluation of the seventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_7_figures() {
    // Thursday 2028-06-08, 08:50 in Riga (summer time, UTC+3).
    figures("chat-phrases-holdout-7", "2028-06-08T05:50:00Z", "Europe/Riga");
}

#[test]
#[ignore = "evaluation of the eighth phrase set: run with --ignored to report its figures"]
fn chat_holdout_8_figures() {
    // Tuesday 2028-09-19, 21:15 in Almaty (UTC+5 since 2024).
    figures("chat-phrases-holdout-8", "2028-09-19T16:15:00Z", "Asia/Almaty");
}

#[test]
#[ignore = "evaluation of the ninth phrase set: run with --ignored to report its figures"]
fn chat_holdout_9_figures() {
    // Wednesday 2029-03-14, 12:30 in Belgrade (winter time, UTC+1).
    figures("chat-phrases-holdout-9", "2029-03-14T11:30:00Z", "Europe/Belgrade");
}

#[test]
#[ignore = "evaluation of the tenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_10_figures() {
    // Tuesday 2029-11-06, 18:05 in Tbilisi (UTC+4).
    figures("chat-phrases-holdout-10", "2029-11-06T14:05:00Z", "Asia/Tbilisi");
}

#[test]
#[ignore = "evaluation of the eleventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_11_figures() {
    // Wednesday 2030-04-17, 07:45 in Bishkek (UTC+6).
    figures("chat-phrases-holdout-11", "2030-04-17T01:45:00Z", "Asia/Bishkek");
}

#[test]
#[ignore = "evaluation of the twelfth phrase set: run with --ignored to report its figures"]
fn chat_holdout_12_figures() {
    // Tuesday 2030-09-03, 20:10 in Vilnius (summer time, UTC+3).
    figures("chat-phrases-holdout-12", "2030-09-03T17:10:00Z", "Europe/Vilnius");
}

#[test]
#[ignore = "evaluation of the thirteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_13_figures() {
    // Wednesday 2031-01-22, 09:40 in Chisinau (winter time, UTC+2).
    figures("chat-phrases-holdout-13", "2031-01-22T07:40:00Z", "Europe/Chisinau");
}

#[test]
#[ignore = "evaluation of the fourteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_14_figures() {
    // Wednesday 2031-06-11, 18:25 in Tashkent (UTC+5).
    figures("chat-phrases-holdout-14", "2031-06-11T13:25:00Z", "Asia/Tashkent");
}

#[test]
#[ignore = "evaluation of the fifteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_15_figures() {
    // Wednesday 2031-10-29, 08:05 in Minsk (UTC+3).
    figures("chat-phrases-holdout-15", "2031-10-29T05:05:00Z", "Europe/Minsk");
}

#[test]
#[ignore = "evaluation of the sixteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_16_figures() {
    // Wednesday 2032-03-17, 12:50 in Baku (UTC+4).
    figures("chat-phrases-holdout-16", "2032-03-17T08:50:00Z", "Asia/Baku");
}

#[test]
#[ignore = "evaluation of the seventeenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_17_figures() {
    // Wednesday 2032-07-28, 21:35 in Warsaw (UTC+2).
    figures("chat-phrases-holdout-17", "2032-07-28T19:35:00Z", "Europe/Warsaw");
}

#[test]
#[ignore = "evaluation of the eighteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_18_figures() {
    // Wednesday 2033-01-19, 10:10 in Yerevan (UTC+4).
    figures("chat-phrases-holdout-18", "2033-01-19T06:10:00Z", "Asia/Yerevan");
}

#[test]
#[ignore = "evaluation of the nineteenth phrase set: run with --ignored to report its figures"]
fn chat_holdout_19_figures() {
    // Thursday 2033-05-12, 04:40 in Krasnoyarsk (UTC+7).
    figures("chat-phrases-holdout-19", "2033-05-11T21:40:00Z", "Asia/Krasnoyarsk");
}

#[test]
#[ignore = "evaluation of the twentieth phrase set: run with --ignored to report its figures"]
fn chat_holdout_20_figures() {
    // Friday 2033-09-30, 11:20 in New York (UTC-4).
    figures("chat-phrases-holdout-20", "2033-09-30T15:20:00Z", "America/New_York");
}

#[test]
#[ignore = "evaluation of the twenty-first phrase set: run with --ignored to report its figures"]
fn chat_holdout_21_figures() {
    // Tuesday 2034-02-14, 09:05 in Lisbon (UTC+0).
    figures("chat-phrases-holdout-21", "2034-02-14T09:05:00Z", "Europe/Lisbon");
}

#[test]
#[ignore = "evaluation of the twenty-second phrase set: run with --ignored to report its figures"]
fn chat_holdout_22_figures() {
    // Thursday 2034-06-22, 04:45 in Vladivostok (UTC+10).
    figures("chat-phrases-holdout-22", "2034-06-21T18:45:00Z", "Asia/Vladivostok");
}

#[test]
#[ignore = "evaluation of the twenty-third phrase set: run with --ignored to report its figures"]
fn chat_holdout_23_figures() {
    // Wednesday 2034-11-08, 11:20 in Dushanbe (UTC+5).
    figures("chat-phrases-holdout-23", "2034-11-08T06:20:00Z", "Asia/Dushanbe");
}

#[test]
#[ignore = "evaluation of the twenty-fourth phrase set: run with --ignored to report its figures"]
fn chat_holdout_24_figures() {
    // Wednesday 2035-03-28, 01:10 in Helsinki (EEST, UTC+3; the UTC date is the 27th).
    figures("chat-phrases-holdout-24", "2035-03-27T22:10:00Z", "Europe/Helsinki");
}

#[test]
#[ignore = "evaluation of the twenty-fifth phrase set: run with --ignored to report its figures"]
fn chat_holdout_25_figures() {
    // Tuesday 2035-08-14, 00:30 in São Paulo (UTC-3).
    figures("chat-phrases-holdout-25", "2035-08-14T03:30:00Z", "America/Sao_Paulo");
}

#[test]
#[ignore = "evaluation of the twenty-sixth phrase set: run with --ignored to report its figures"]
fn chat_holdout_26_figures() {
    // Tuesday 2036-01-01, 05:00 in Tokyo (UTC+9; in UTC still 2035-12-31).
    figures("chat-phrases-holdout-26", "2035-12-31T20:00:00Z", "Asia/Tokyo");
}

#[test]
#[ignore = "evaluation of the twenty-seventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_27_figures() {
    // Sunday 2036-05-11, 02:30 in Cairo (EEST, UTC+3; in UTC still Saturday the 10th).
    figures("chat-phrases-holdout-27", "2036-05-10T23:30:00Z", "Africa/Cairo");
}

#[test]
#[ignore = "evaluation of the twenty-eighth phrase set: run with --ignored to report its figures"]
fn chat_holdout_28_figures() {
    // Sunday 2036-10-26, 01:30 in London (BST, UTC+1, the night summer time ends).
    figures("chat-phrases-holdout-28", "2036-10-26T00:30:00Z", "Europe/London");
}

#[test]
#[ignore = "evaluation of the twenty-ninth phrase set: run with --ignored to report its figures"]
fn chat_holdout_29_figures() {
    // Friday 2037-03-27, 00:30 in Haifa (IST, UTC+2; in UTC still Thursday the 26th).
    figures("chat-phrases-holdout-29", "2037-03-26T22:30:00Z", "Asia/Jerusalem");
}

#[test]
#[ignore = "evaluation of the thirtieth phrase set: run with --ignored to report its figures"]
fn chat_holdout_30_figures() {
    // Sunday 2037-04-05, 02:30 in Sydney (AEDT, UTC+11, the night summer time ends).
    figures("chat-phrases-holdout-30", "2037-04-04T15:30:00Z", "Australia/Sydney");
}

#[test]
#[ignore = "evaluation of the thirty-first phrase set: run with --ignored to report its figures"]
fn chat_holdout_31_figures() {
    // Sunday 2037-08-16, 00:15 in Bangalore (IST, UTC+5:30; in UTC still Saturday the 15th).
    figures("chat-phrases-holdout-31", "2037-08-15T18:45:00Z", "Asia/Kolkata");
}

#[test]
#[ignore = "evaluation of the thirty-second phrase set: run with --ignored to report its figures"]
fn chat_holdout_32_figures() {
    // Sunday 2037-11-01, 01:30 in Chicago (CDT, UTC-5, the night summer time ends).
    figures("chat-phrases-holdout-32", "2037-11-01T06:30:00Z", "America/Chicago");
}

#[test]
#[ignore = "evaluation of the thirty-third phrase set: run with --ignored to report its figures"]
fn chat_holdout_33_figures() {
    // Monday 2038-03-01, 00:30 in Tbilisi (UTC+4; a new month began half an hour ago).
    figures("chat-phrases-holdout-33", "2038-02-28T20:30:00Z", "Asia/Tbilisi");
}

#[test]
#[ignore = "evaluation of the thirty-fourth phrase set: run with --ignored to report its figures"]
fn chat_holdout_34_figures() {
    // Sunday 2038-03-28, 00:40 in Berlin (CET, UTC+1, the night summer time starts).
    figures("chat-phrases-holdout-34", "2038-03-27T23:40:00Z", "Europe/Berlin");
}

#[test]
#[ignore = "evaluation of the thirty-fifth phrase set: run with --ignored to report its figures"]
fn chat_holdout_35_figures() {
    // Sunday 2038-05-09, 00:10 in Riga (EEST, UTC+3; in UTC still Saturday the 8th).
    figures("chat-phrases-holdout-35", "2038-05-08T21:10:00Z", "Europe/Riga");
}

#[test]
#[ignore = "evaluation of the thirty-sixth phrase set: run with --ignored to report its figures"]
fn chat_holdout_36_figures() {
    // Friday 2038-12-31, 18:30 in New York (EST, UTC-5; New Year's Eve).
    figures("chat-phrases-holdout-36", "2038-12-31T23:30:00Z", "America/New_York");
}

#[test]
#[ignore = "evaluation of the thirty-seventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_37_figures() {
    // Monday 2039-02-28, 00:15 in Istanbul (UTC+3, no summer time; in UTC still Sunday
    // the 27th; the last day of February).
    figures("chat-phrases-holdout-37", "2039-02-27T21:15:00Z", "Europe/Istanbul");
}

#[test]
#[ignore = "evaluation of the thirty-eighth phrase set: run with --ignored to report its figures"]
fn chat_holdout_38_figures() {
    // Sunday 2039-03-13, 01:40 in Los Angeles (PST, UTC-8; the clocks go forward to PDT
    // at 02:00 this night).
    figures("chat-phrases-holdout-38", "2039-03-13T09:40:00Z", "America/Los_Angeles");
}

#[test]
#[ignore = "evaluation of the thirty-ninth phrase set: run with --ignored to report its figures"]
fn chat_holdout_39_figures() {
    // Sunday 2040-01-01, 00:30 in Moscow (UTC+3; in UTC still New Year's Eve).
    figures("chat-phrases-holdout-39", "2039-12-31T21:30:00Z", "Europe/Moscow");
}

#[test]
#[ignore = "evaluation of the fortieth phrase set: run with --ignored to report its figures"]
fn chat_holdout_40_figures() {
    // Sunday 2039-11-06, 01:40 CDT in Chicago, the first time: at 02:00 the clocks fall
    // back to CST and the hour from 01:00 comes again.
    figures("chat-phrases-holdout-40", "2039-11-06T06:40:00Z", "America/Chicago");
}

fn figures(set: &str, now: &str, tz: &str) {
    let data = |name: &str| data(set, name);
    let mut env = TestEnv::new();
    env.now = now.into();
    env.tz = tz.into();
    for p in data("projects.jsonl") {
        env.ok(&["project", "add", &s(&p, "key"), &s(&p, "name"), "--description", &s(&p, "description")]);
    }
    let lines: Vec<String> = data("tasks.jsonl")
        .iter()
        .map(|t| {
            let mut line = serde_json::Map::new();
            line.insert("title".into(), t["title"].clone());
            // A task with no project is INBOX, written as the key or as null.
            if t["project"] != "INBOX" && !t["project"].is_null() {
                line.insert("project".into(), t["project"].clone());
            }
            if !t["due"].is_null() {
                line.insert("due".into(), t["due"].clone());
                line.insert("due_kind".into(), t["due_kind"].clone());
            }
            Value::Object(line).to_string()
        })
        .collect();
    let file = env.write("holdout.jsonl", &(lines.join("\n") + "\n"));
    env.ok(&["import", file.to_str().expect("path")]);
    // The store's keys are the set's keys.
    for t in data("tasks.jsonl") {
        let shown = env.json(&["show", &s(&t, "key")]);
        assert_eq!(shown["task"]["title"], t["title"], "{}", s(&t, "key"));
    }
    let mut scores: BTreeMap<String, Score> = BTreeMap::new();
    let mut wrong_destructive = Vec::new();
    let mut misses = Vec::new();
    for row in data("phrases.jsonl") {
        let text = s(&row, "text");
        let v = env.json(&["chat", "--offline", "--dry-run", &text]);
        let calls = v["calls"].as_array().cloned().unwrap_or_default();
        let (right, wrong) = judge(&row["expect"], &calls);
        let mut keys = vec![s(&row, "kind"), format!("{} {}", s(&row, "kind"), s(&row, "lang"))];
        if row.get("class").is_some() {
            keys.push(format!("class {} {}", s(&row, "class"), s(&row, "lang")));
        }
        for key in keys {
            let e = scores.entry(key).or_default();
            e.total += 1;
            e.right += usize::from(right);
        }
        if wrong {
            wrong_destructive.push(format!("{text} → {}", Value::Array(calls.clone())));
        }
        if !right {
            misses.push(format!(
                "[{}] {text}\n    want {}\n    got  {}",
                s(&row, "kind"),
                row["expect"],
                Value::Array(calls)
            ));
        }
    }
    eprintln!("{set}: the offline parser through `tasks chat --offline --dry-run --json`:");
    for (k, sc) in &scores {
        eprintln!("  {k:<30} {:>3}/{:<3} {:.1} %", sc.right, sc.total, 100.0 * sc.right as f64 / sc.total as f64);
    }
    eprintln!("  destructive calls of the wrong task or kind: {}", wrong_destructive.len());
    for w in &wrong_destructive {
        eprintln!("    {w}");
    }
    eprintln!("misses:");
    for m in &misses {
        eprintln!("  {m}");
    }
    let share = |k: &str| scores.get(k).map(|s| s.right as f64 / s.total as f64).unwrap_or(0.0);
    assert!(wrong_destructive.is_empty(), "destructive calls on a wrong task");
    assert!(share("plain") >= 0.90, "plain {:.3}", share("plain"));
    assert!(share("ambiguous") >= 1.0, "ambiguous {:.3}", share("ambiguous"));
}

#[test]
#[ignore = "evaluation of the forty-first phrase set: run with --ignored to report its figures"]
fn chat_holdout_41_figures() {
    // Sunday 2039-05-01, 00:10 in Yekaterinburg (UTC+5): ten minutes into a new month.
    figures("chat-phrases-holdout-41", "2039-04-30T19:10:00Z", "Asia/Yekaterinburg");
}

#[test]
#[ignore = "evaluation of the forty-second phrase set: run with --ignored to report its figures"]
fn chat_holdout_42_figures() {
    // Sunday 2039-07-31, 23:20 in Madrid (CEST, UTC+2): forty minutes before a new month.
    figures("chat-phrases-holdout-42", "2039-07-31T21:20:00Z", "Europe/Madrid");
}

#[test]
#[ignore = "evaluation of the forty-third phrase set: run with --ignored to report its figures"]
fn chat_holdout_43_figures() {
    // Sunday 2039-10-30, 08:30 in Prague (CET, UTC+1): the morning the clocks went back.
    figures("chat-phrases-holdout-43", "2039-10-30T07:30:00Z", "Europe/Prague");
}

#[test]
#[ignore = "evaluation of the forty-fourth phrase set: run with --ignored to report its figures"]
fn chat_holdout_44_figures() {
    // Friday 2039-12-30, 23:45 in Ho Chi Minh City (UTC+7): fifteen minutes before the
    // last day of the year.
    figures("chat-phrases-holdout-44", "2039-12-30T16:45:00Z", "Asia/Ho_Chi_Minh");
}

#[test]
#[ignore = "evaluation of the forty-fifth phrase set: run with --ignored to report its figures"]
fn chat_holdout_45_figures() {
    // Saturday 2040-03-31, 23:30 in London (BST, UTC+1): half an hour before a new month,
    // a week after the clocks went forward.
    figures("chat-phrases-holdout-45", "2040-03-31T22:30:00Z", "Europe/London");
}

#[test]
#[ignore = "evaluation of the forty-sixth phrase set: run with --ignored to report its figures"]
fn chat_holdout_46_figures() {
    // Wednesday 2040-06-13, 23:20 in Denver (MDT, UTC-6): the UTC date is already the
    // 14th, the local date still the 13th.
    figures("chat-phrases-holdout-46", "2040-06-14T05:20:00Z", "America/Denver");
}

#[test]
#[ignore = "evaluation of the forty-seventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_47_figures() {
    // Saturday 2040-10-06, 22:30 in Adelaide (ACST, UTC+9:30): the night before the
    // clocks go forward.
    figures("chat-phrases-holdout-47", "2040-10-06T13:00:00Z", "Australia/Adelaide");
}

#[test]
#[ignore = "evaluation of the forty-eighth phrase set: run with --ignored to report its figures"]
fn chat_holdout_48_figures() {
    // Tuesday 2041-01-01, 00:30 in Mumbai (IST, UTC+5:30): half an hour into the new
    // year locally, the UTC date still 2040-12-31.
    figures("chat-phrases-holdout-48", "2040-12-31T19:00:00Z", "Asia/Kolkata");
}

#[test]
#[ignore = "evaluation of the forty-ninth phrase set: run with --ignored to report its figures"]
fn chat_holdout_49_figures() {
    // Saturday 2041-03-09, 02:30 in New York (EST, UTC-5): the night before the clocks
    // go forward.
    figures("chat-phrases-holdout-49", "2041-03-09T07:30:00Z", "America/New_York");
}

#[test]
#[ignore = "evaluation of the fiftieth phrase set: run with --ignored to report its figures"]
fn chat_holdout_50_figures() {
    // Friday 2041-03-01, 02:10 in Moscow (UTC+3): the local date a new month, the UTC
    // date still 2041-02-28.
    figures("chat-phrases-holdout-50", "2041-02-28T23:10:00Z", "Europe/Moscow");
}

#[test]
#[ignore = "evaluation of the fifty-first phrase set: run with --ignored to report its figures"]
fn chat_holdout_51_figures() {
    // Monday 2041-07-01, 00:45 in Yerevan (UTC+4): the local date a new week, month and
    // half-year, the UTC date still Sunday 2041-06-30.
    figures("chat-phrases-holdout-51", "2041-06-30T20:45:00Z", "Asia/Yerevan");
}

#[test]
#[ignore = "evaluation of the fifty-second phrase set: run with --ignored to report its figures"]
fn chat_holdout_52_figures() {
    // Thursday 2041-08-15, 23:40 in São Paulo (UTC−3): the UTC date already the 16th.
    figures("chat-phrases-holdout-52", "2041-08-16T02:40:00Z", "America/Sao_Paulo");
}

#[test]
#[ignore = "evaluation of the fifty-third phrase set: run with --ignored to report its figures"]
fn chat_holdout_53_figures() {
    // Sunday 2041-10-27, 01:30 in Berlin (UTC+2, summer time; the clocks go back at
    // 03:00 that night): the local date the last day of its week, the UTC date the 26th.
    figures("chat-phrases-holdout-53", "2041-10-26T23:30:00Z", "Europe/Berlin");
}

#[test]
#[ignore = "evaluation of the fifty-fourth phrase set: run with --ignored to report its figures"]
fn chat_holdout_54_figures() {
    // Saturday 2041-09-28, 22:15 in Auckland (UTC+12; daylight saving starts the next
    // morning at 02:00).
    figures("chat-phrases-holdout-54", "2041-09-28T10:15:00Z", "Pacific/Auckland");
}

#[test]
#[ignore = "evaluation of the fifty-fifth phrase set: run with --ignored to report its figures"]
fn chat_holdout_55_figures() {
    // Sunday 2042-06-01, 00:20 in Tokyo (UTC+9): the local date a new month and the last
    // day of its week, the UTC date still 2042-05-31.
    figures("chat-phrases-holdout-55", "2042-05-31T15:20:00Z", "Asia/Tokyo");
}

#[test]
#[ignore = "evaluation of the fifty-sixth phrase set: run with --ignored to report its figures"]
fn chat_holdout_56_figures() {
    // Saturday 2042-03-29, 22:30 in Lisbon (UTC+0; summer time starts the next night).
    figures("chat-phrases-holdout-56", "2042-03-29T22:30:00Z", "Europe/Lisbon");
}

#[test]
#[ignore = "evaluation of the fifty-seventh phrase set: run with --ignored to report its figures"]
fn chat_holdout_57_figures() {
    // Sunday 2042-11-02, 01:30 in Chicago (UTC−5; the clocks go back at 02:00, so 01:30
    // comes twice): the last day of its week.
    figures("chat-phrases-holdout-57", "2042-11-02T06:30:00Z", "America/Chicago");
}

#[test]
#[ignore = "evaluation of the fifty-eighth phrase set: run with --ignored to report its figures"]
fn chat_holdout_58_figures() {
    // Monday 2042-12-01, 00:05 in Istanbul (UTC+3): the local date a new week and month,
    // the UTC date still 2042-11-30.
    figures("chat-phrases-holdout-58", "2042-11-30T21:05:00Z", "Europe/Istanbul");
}

#[test]
#[ignore = "evaluation of the fifty-ninth phrase set: run with --ignored to report its figures"]
fn chat_holdout_59_figures() {
    // Sunday 2043-03-08, 04:30 in Halifax (UTC−3: the clocks went forward at 02:00 that
    // night, and 02:00–03:00 never was): the last day of its week.
    figures("chat-phrases-holdout-59", "2043-03-08T07:30:00Z", "America/Halifax");
}

#[test]
#[ignore = "evaluation of the sixtieth phrase set: run with --ignored to report its figures"]
fn chat_holdout_60_figures() {
    // Monday 2044-02-29, 00:25 in Kathmandu (UTC+5:45): a leap day, the local date a new
    // week and February's last day, the UTC date still 2044-02-28.
    figures("chat-phrases-holdout-60", "2044-02-28T18:40:00Z", "Asia/Kathmandu");
}

#[test]
#[ignore = "evaluation of the sixty-first phrase set: run with --ignored to report its figures"]
fn chat_holdout_61_figures() {
    // Sunday 2043-02-01, 01:10 in Brisbane (UTC+10): the local date a new month and the
    // last day of its week, the UTC date still Saturday 2043-01-31.
    figures("chat-phrases-holdout-61", "2043-01-31T15:10:00Z", "Australia/Brisbane");
}

#[test]
#[ignore = "evaluation of the sixty-second phrase set: run with --ignored to report its figures"]
fn chat_holdout_62_figures() {
    // Sunday 2043-03-29, 00:30 in London (UTC+0; the clocks go forward at 01:00): the
    // last day of its week.
    figures("chat-phrases-holdout-62", "2043-03-29T00:30:00Z", "Europe/London");
}
