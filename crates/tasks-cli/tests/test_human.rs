//! Snapshots of the human output people read every day (issue 12): `list`, `agenda`,
//! `show`, `history`, `undo` — real commands on a real store, the pinned clock (Sunday
//! 2026-11-29, 13:00 in Berlin), no colour, not a terminal (no width cut).

use crate::common::TestEnv;

/// A small day: a project, an overdue task, one due today at a time, one claimed by an
/// agent, tags, a person, a note, a blocker.
fn day() -> TestEnv {
    let env = TestEnv::new();
    env.ok(&["project", "add", "HOME", "Home"]);
    env.ok(&["add", "Renew the passport", "--due", "2026-11-25", "--priority", "0", "--project", "HOME"]);
    env.ok(&["add", "Call mom", "--due", "today 18:30", "--person", "@mom", "--tag", "family"]);
    env.ok(&["add", "Buy tiles for the bathroom", "--due", "friday", "--project", "HOME", "--tag", "reno"]);
    env.ok(&["add", "Lay the tiles", "--project", "HOME", "--blocked-by", "HOME-2"]);
    env.ok(&["add", "File the taxes", "--due", "today"]);
    env.ok(&["--as", "claude", "claim", "INBOX-2"]);
    env.ok(&["note", "HOME-2", "the blue ones, 20 m²"]);
    env
}

fn without_ids(text: &str) -> String {
    text.lines()
        .map(|l| if l.trim_start().starts_with("id ") { "  id          [uuid]" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn list_shows_person_and_tags_and_marks_what_is_late() {
    let env = day();
    insta::assert_snapshot!("list", env.run(&["list"]).snapshot());
}

#[test]
fn agenda_has_headings_and_says_what_is_hidden() {
    let env = day();
    insta::assert_snapshot!("agenda_today", env.run(&["agenda"]).snapshot());
    insta::assert_snapshot!("agenda_week", env.run(&["agenda", "week"]).snapshot());
}

#[test]
fn show_reads_as_a_card_with_notes_and_links() {
    let env = day();
    insta::assert_snapshot!("show", without_ids(&env.run(&["show", "HOME-2"]).snapshot()));
}

#[test]
fn history_reads_as_sentences() {
    let env = day();
    env.ok(&["edit", "HOME-2", "--due", "monday", "--priority", "1"]);
    env.ok(&["done", "HOME-2"]);
    env.ok(&["undo"]);
    insta::assert_snapshot!("history_undone", env.run(&["history", "HOME-2"]).snapshot());
    insta::assert_snapshot!("history_claimed", env.run(&["history", "INBOX-2"]).snapshot());
}

#[test]
fn undo_says_what_it_reverted() {
    let env = day();
    env.ok(&["done", "INBOX-1", "HOME-1"]);
    insta::assert_snapshot!("undo", env.run(&["undo"]).snapshot());
}
