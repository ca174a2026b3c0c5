-- 0006: daily use (issue 12).
--
-- Operations: every write transaction that records task events gets one row, and its
-- events point at it, so `tasks undo` reverts a whole command (`done A B C`, an add with
-- its links and tags) and knows whose it was. An undo is an operation too: `undoes`
-- names the one it reverted, which gets `undone_by`. Nothing is deleted.
CREATE TABLE operations (
    id        INTEGER PRIMARY KEY,
    at        INTEGER NOT NULL,
    actor     TEXT NOT NULL,
    undoes    INTEGER REFERENCES operations(id),
    undone_by INTEGER REFERENCES operations(id)
);
CREATE INDEX operations_actor ON operations (actor, id);
ALTER TABLE task_events ADD COLUMN op_id INTEGER REFERENCES operations(id);
CREATE INDEX task_events_op ON task_events (op_id) WHERE op_id IS NOT NULL;

-- Notes (annotations): timestamped text on a task, shown by `show` and searched
-- through their own stems index (rowid = notes.id). Undoing a note marks it removed.
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    task_id    INTEGER NOT NULL REFERENCES tasks(id),
    at         INTEGER NOT NULL,
    actor      TEXT NOT NULL,
    text       TEXT NOT NULL CHECK (length(trim(text)) > 0),
    removed_at INTEGER
);
CREATE INDEX notes_task ON notes (task_id, id);
CREATE VIRTUAL TABLE note_stems USING fts5 (stems, tokenize = 'unicode61 remove_diacritics 0');

-- A due with a time of day: the moment (epoch ms UTC). `due_at` keeps the floating local
-- day with kind `day`, so every day view and index treats it as a task of that day; the
-- model reads kind `time` when this is set.
ALTER TABLE tasks ADD COLUMN due_instant INTEGER;

-- `list` filters at 100k tasks (issue 12): due ranges and overdue walk open tasks by
-- their due day instead of reading every open row; `--claimed-by` finds the few leased.
CREATE INDEX tasks_due ON tasks (status, due_at) WHERE due_at IS NOT NULL;
CREATE INDEX tasks_claimed ON tasks (claimed_by, claimed_until) WHERE claimed_by IS NOT NULL;
