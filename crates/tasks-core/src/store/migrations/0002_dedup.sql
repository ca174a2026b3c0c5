-- 0002: the duplicate check (SPEC §5, issue 4). Two FTS5 indexes kept by the same
-- write that changes a task (rowid = tasks.id): task_words holds the normalized title
-- and description, task_stems their Snowball stems. dup_pairs is the review queue of
-- pairs the check left in the possible/likely bands; dup_decisions keeps every
-- decision (merge, reject, attach, new) as a labelled pair for retraining.

CREATE VIRTUAL TABLE task_words USING fts5 (words, tokenize = 'unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE task_stems USING fts5 (stems, tokenize = 'unicode61 remove_diacritics 0');

-- The signature each task was checked with (amount, due) and its text features, kept
-- by the same write, so candidates need no re-parsing and term frequencies are counts.
CREATE TABLE task_signatures (
    task_id      INTEGER PRIMARY KEY REFERENCES tasks(id),
    amount_minor INTEGER,
    currency     TEXT,
    due_at       INTEGER
);
CREATE INDEX task_signatures_amount ON task_signatures (amount_minor, currency) WHERE amount_minor IS NOT NULL;

-- Document frequencies of stems, for "a shared rare stem".
CREATE VIRTUAL TABLE task_stems_vocab USING fts5vocab (task_stems, 'row');

CREATE TABLE dup_pairs (
    id           INTEGER PRIMARY KEY,
    task_id      INTEGER NOT NULL REFERENCES tasks(id),
    candidate_id INTEGER NOT NULL REFERENCES tasks(id),
    score        REAL NOT NULL,
    band         TEXT NOT NULL CHECK (band IN ('likely', 'possible')),
    reasons      TEXT NOT NULL DEFAULT '[]',
    levels       TEXT NOT NULL DEFAULT '{}',
    created_at   INTEGER NOT NULL,
    resolved_at  INTEGER,
    resolution   TEXT CHECK (resolution IN ('merge', 'reject', 'attach', 'new')),
    UNIQUE (task_id, candidate_id)
);
CREATE INDEX dup_pairs_pending ON dup_pairs (created_at) WHERE resolved_at IS NULL;

CREATE TABLE dup_decisions (
    id           INTEGER PRIMARY KEY,
    task_id      INTEGER REFERENCES tasks(id),
    candidate_id INTEGER NOT NULL REFERENCES tasks(id),
    decision     TEXT NOT NULL CHECK (decision IN ('merge', 'reject', 'attach', 'new', 'unmerge')),
    score        REAL,
    band         TEXT,
    levels       TEXT NOT NULL DEFAULT '{}',
    actor        TEXT NOT NULL,
    at           INTEGER NOT NULL
);
CREATE INDEX dup_decisions_pair ON dup_decisions (task_id, candidate_id);

-- Learned weights (`tasks duplicates retrain --apply`): one row per comparison level.
CREATE TABLE dup_weights (
    comparison TEXT NOT NULL,
    level      TEXT NOT NULL,
    m          REAL NOT NULL,
    u          REAL NOT NULL,
    weight     REAL NOT NULL,
    trained_at INTEGER NOT NULL,
    PRIMARY KEY (comparison, level)
);

-- Cached store-wide sums the check needs on every call but that cost a GROUP BY over
-- all tasks: Σ over persons (and amounts) of task count². Refreshed by writes when the
-- store has grown by more than 1 % since (`store::dedup::refresh_stats`).
CREATE TABLE dup_stats (
    name  TEXT PRIMARY KEY,
    value REAL NOT NULL,
    tasks INTEGER NOT NULL
);
