//! One test binary for the core's scenario tests (jj: relinking one binary instead of
//! many saves tens of seconds per build). Every file in this directory must be listed
//! here; the test below fails on a forgotten one.

#[macro_use]
mod engines;
mod fuzz;
mod graph;
mod port;
mod real_pairs;
mod schedule;
mod undo;
mod wire;

#[test]
fn every_test_file_is_listed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let listed = include_str!("main.rs");
    let entries = std::fs::read_dir(&dir).expect("tests dir");
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name == "main.rs" || !name.ends_with(".rs") {
            continue;
        }
        let module = name.trim_end_matches(".rs");
        assert!(listed.contains(&format!("mod {module};")), "tests/{name} is not listed in tests/main.rs");
    }
}
