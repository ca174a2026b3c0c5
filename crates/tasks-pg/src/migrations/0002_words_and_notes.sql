-- 0002: what the operations, written once for both engines, ask of the team store
-- beyond 0001 — the indexes SQLite keeps with FTS5 and this store did not:
-- task_words, the normalized words of a task's title and description (SQLite's
-- `task_words`), which `list --text` matches by word prefix; note_terms and
-- note_term_text, a note's index tokens and their stream (SQLite's `note_stems`), so
-- `search` reads notes here too. Derived rows, like task_terms: rebuilt from the tasks
-- and notes by the index rebuild, never exported.
CREATE TABLE task_words (
    task_id BIGINT PRIMARY KEY REFERENCES tasks(id),
    words   TEXT NOT NULL
);
CREATE TABLE note_terms (
    term    TEXT NOT NULL,
    note_id BIGINT NOT NULL REFERENCES notes(id),
    task_id BIGINT NOT NULL REFERENCES tasks(id),
    PRIMARY KEY (term, note_id)
);
CREATE INDEX note_terms_note ON note_terms (note_id);
CREATE TABLE note_term_text (
    note_id BIGINT PRIMARY KEY REFERENCES notes(id),
    task_id BIGINT NOT NULL REFERENCES tasks(id),
    tokens  TEXT NOT NULL
);
-- A store that 0001 built has no rows in these: the index's version is cleared, so the
-- next connection rebuilds every task's (and note's) index rows once, as after an
-- upgrade of the index itself.
COMMENT ON TABLE task_terms IS NULL;
