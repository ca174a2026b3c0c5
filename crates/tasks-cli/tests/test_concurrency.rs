//! Many processes on one store at once: keys with no gap and no duplicate, and
//! `next --claim` never handing one task to two agents (beads#3570, #4657, #5998 are
//! double claims; SQLite's single writer plus `BEGIN IMMEDIATE` is our answer).

use std::collections::BTreeSet;
use std::thread;

use crate::common::TestEnv;

#[test]
fn eight_processes_adding_get_keys_one_to_n() {
    for env in TestEnv::engines("eight_processes_adding") {
        eight_adding(&env);
    }
}

fn eight_adding(env: &TestEnv) {
    env.ok(&["project", "add", "HRB", "Harbor"]);
    const PROCESSES: usize = 8;
    const EACH: usize = 5;
    let keys: Vec<String> = thread::scope(|s| {
        let handles: Vec<_> = (0..PROCESSES)
            .map(|p| {
                s.spawn(move || {
                    (0..EACH)
                        .map(|i| {
                            let title = format!("process {p} task {i} {}", p * 1000 + i);
                            let v = env.json(&["add", &title, "--project", "HRB", "--new"]);
                            v["task"]["key"].as_str().expect("key").to_string()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    });
    let unique: BTreeSet<&String> = keys.iter().collect();
    assert_eq!(unique.len(), PROCESSES * EACH, "{}: no key given twice: {keys:?}", env.engine());
    let expected: BTreeSet<String> = (1..=PROCESSES * EACH).map(|n| format!("HRB-{n}")).collect();
    assert_eq!(
        unique.into_iter().cloned().collect::<BTreeSet<_>>(),
        expected,
        "{}: keys 1..N with no gap",
        env.engine()
    );
}

/// Runs `agents` processes at once, each asking `next --claim` `each` times as
/// `agent-<n>`; returns (agent, key claimed or `None` for "nothing ready", exit 6).
pub fn agents_claim(env: &TestEnv, agents: usize, each: usize) -> Vec<(String, Option<String>)> {
    thread::scope(|s| {
        let handles: Vec<_> = (0..agents)
            .map(|a| {
                s.spawn(move || {
                    let agent = format!("agent-{a}");
                    (0..each)
                        .map(|_| {
                            let r = env.run(&["--json", "next", "--claim", "--as", &agent]);
                            match r.code {
                                0 => (agent.clone(), Some(r.json()["task"]["key"].as_str().expect("key").to_string())),
                                6 => (agent.clone(), None),
                                other => panic!("{}: next --claim exited {other}: {}", env.engine(), r.stderr),
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    })
}

/// Writes `n` independent ready tasks with one import (one process, one transaction).
pub fn seed_ready(env: &TestEnv, n: usize) {
    let lines: String = (0..n).map(|i| format!("{{\"id\":\"t{i}\",\"title\":\"job {i}\"}}\n")).collect();
    env.import_lines(&lines);
}

#[test]
fn eight_agents_never_claim_one_task_twice() {
    const AGENTS: usize = 8;
    const EACH: usize = 20;
    const TASKS: usize = 120;
    const ROUNDS: usize = 20;
    for round in 0..ROUNDS {
        // Every round on SQLite; on PostgreSQL every fourth (a fresh database each).
        let env = if round % 4 == 0 { TestEnv::postgres("eight_agents_never_claim_twice") } else { None };
        let env = env.unwrap_or_else(TestEnv::new);
        seed_ready(&env, TASKS);
        let results = agents_claim(&env, AGENTS, EACH);
        let claimed: Vec<&String> = results.iter().filter_map(|(_, k)| k.as_ref()).collect();
        let unique: BTreeSet<&&String> = claimed.iter().collect();
        assert_eq!(unique.len(), claimed.len(), "round {round} ({}): a task was claimed twice", env.engine());
        assert_eq!(claimed.len(), TASKS, "round {round}: all {TASKS} tasks claimed");
        let nothing = results.iter().filter(|(_, k)| k.is_none()).count();
        assert_eq!(nothing, AGENTS * EACH - TASKS, "round {round}: the rest found nothing ready");
        // The store agrees: every task is held by exactly the agent that was told so.
        let listed = env.json(&["list", "--limit", "1000"]);
        for item in listed["items"].as_array().expect("items") {
            let key = item["key"].as_str().expect("key");
            let holder = item["claimed_by"].as_str().expect("every task is claimed");
            assert!(
                results.iter().any(|(a, k)| a == holder && k.as_deref() == Some(key)),
                "round {round}: {key} held by {holder}"
            );
        }
    }
}
