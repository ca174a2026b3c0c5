//! One test binary for the CLI (jj: relinking one binary instead of many saves tens of
//! seconds per build). Every file in this directory must be listed here; the test
//! below fails on a forgotten one.

mod common;
mod test_add;
mod test_bot;
mod test_browser;
mod test_chat;
mod test_chat_holdout;
mod test_claim;
mod test_concurrency;
mod test_contract;
mod test_daemon;
mod test_daily;
mod test_duplicates;
mod test_gitbugs;
mod test_graph;
mod test_hardening;
mod test_human;
mod test_import;
mod test_mcp;
mod test_schedule;
mod test_team;
mod test_transfer;
mod test_web;
mod web_common;

#[test]
fn every_test_file_is_listed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let listed = include_str!("main.rs");
    for name in common::test_files(&dir) {
        let module = name.trim_end_matches(".rs");
        assert!(listed.contains(&format!("mod {module};")), "tests/{name} is not listed in tests/main.rs");
    }
}
