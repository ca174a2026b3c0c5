-- 0001: the first schema (SPEC §2): projects and key counters, tasks, links, messages,
-- rule hits, persons and identities, tags and taggings, task events.
-- Times are integer epoch milliseconds UTC. Nothing is deleted by a normal command:
-- tasks are closed or dismissed, links are marked removed (removed_at), so history and
-- merges stay reversible.

CREATE TABLE projects (
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE CHECK (key = upper(key) AND length(key) BETWEEN 1 AND 16),
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL CHECK (kind IN ('project', 'inbox')),
    account_id  TEXT UNIQUE,
    tasks_count INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);

-- One row per typed prefix (Q, REQ, M, PR): the last number given.
CREATE TABLE key_counters (
    prefix TEXT PRIMARY KEY,
    last   INTEGER NOT NULL
);

CREATE TABLE persons (
    id         INTEGER PRIMARY KEY,
    name       TEXT,
    created_at INTEGER NOT NULL
);

CREATE TABLE identities (
    id        INTEGER PRIMARY KEY,
    person_id INTEGER NOT NULL REFERENCES persons(id),
    provider  TEXT NOT NULL,
    handle    TEXT NOT NULL,
    UNIQUE (provider, handle)
);

CREATE TABLE tasks (
    id            INTEGER PRIMARY KEY,
    uuid          TEXT NOT NULL UNIQUE,
    key           TEXT NOT NULL UNIQUE,
    legacy_key    TEXT UNIQUE,
    external_id   TEXT,
    project_id    INTEGER NOT NULL REFERENCES projects(id),
    type          TEXT NOT NULL CHECK (type IN ('task', 'bug', 'feature', 'chore', 'question', 'request', 'mention', 'promise')),
    title         TEXT NOT NULL CHECK (length(trim(title)) > 0),
    description   TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'done', 'dismissed')),
    close_reason  TEXT,
    priority      INTEGER CHECK (priority BETWEEN 0 AND 4),
    due_at        INTEGER,
    due_kind      TEXT NOT NULL DEFAULT 'none' CHECK (due_kind IN ('none', 'day', 'week')),
    category      TEXT,
    person_id     INTEGER REFERENCES persons(id),
    amount_minor  INTEGER,
    currency      TEXT,
    chat          TEXT,
    reply_to_id   INTEGER REFERENCES tasks(id),
    claimed_by    TEXT,
    claimed_until INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    closed_at     INTEGER,
    source        TEXT NOT NULL CHECK (source IN ('owner', 'agent', 'rule', 'import')),
    -- Sort keys of `ready`: no priority and no due sort last. Generated so that one
    -- index serves "open tasks by priority, due, age" and `ready` stops after LIMIT rows
    -- instead of sorting every open task.
    ready_priority INTEGER GENERATED ALWAYS AS (coalesce(priority, 5)) VIRTUAL,
    ready_due      INTEGER GENERATED ALWAYS AS (coalesce(due_at, 9223372036854775807)) VIRTUAL,
    CHECK ((status IN ('done', 'dismissed')) = (closed_at IS NOT NULL)),
    CHECK ((due_at IS NULL) = (due_kind = 'none'))
);
-- `ready` walks open tasks in priority, due, age order.
CREATE INDEX tasks_ready ON tasks (status, ready_priority, ready_due, created_at, id);
CREATE INDEX tasks_project ON tasks (project_id, status);
-- The duplicate check reads a person's and a category's newest tasks (not partial
-- indexes: the planner cannot use them for `lower(category) = ?`).
CREATE INDEX tasks_person ON tasks (person_id, created_at);
CREATE INDEX tasks_category ON tasks (lower(category), created_at);
CREATE INDEX tasks_reply_to ON tasks (reply_to_id) WHERE reply_to_id IS NOT NULL;
CREATE INDEX tasks_external ON tasks (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX tasks_closed ON tasks (closed_at) WHERE closed_at IS NOT NULL;

CREATE TABLE messages (
    id               INTEGER PRIMARY KEY,
    locator          TEXT NOT NULL UNIQUE,
    provider         TEXT NOT NULL,
    account          TEXT NOT NULL,
    chat             TEXT NOT NULL,
    external_id      TEXT NOT NULL,
    author_person_id INTEGER REFERENCES persons(id),
    reply_to_locator TEXT,
    sent_at          INTEGER,
    text             TEXT NOT NULL DEFAULT ''
);

CREATE TABLE links (
    id            INTEGER PRIMARY KEY,
    from_task_id  INTEGER NOT NULL REFERENCES tasks(id),
    kind          TEXT NOT NULL CHECK (kind IN ('blocked-by', 'follow-up-of', 'related-to', 'duplicate-of', 'discovered-from', 'evidence', 'created-from')),
    to_task_id    INTEGER REFERENCES tasks(id),
    to_message_id INTEGER REFERENCES messages(id),
    created_at    INTEGER NOT NULL,
    created_by    TEXT NOT NULL,
    removed_at    INTEGER,
    removed_by    TEXT,
    CHECK ((to_task_id IS NULL) <> (to_message_id IS NULL)),
    CHECK (to_task_id IS NULL OR to_task_id <> from_task_id)
);
CREATE UNIQUE INDEX links_live_task ON links (from_task_id, kind, to_task_id)
    WHERE removed_at IS NULL AND to_task_id IS NOT NULL;
CREATE UNIQUE INDEX links_live_message ON links (from_task_id, kind, to_message_id)
    WHERE removed_at IS NULL AND to_message_id IS NOT NULL;
CREATE INDEX links_to_task ON links (to_task_id, kind) WHERE removed_at IS NULL;
-- "Has an open blocker" and "is merged" look up a task's own live links on every read.
CREATE INDEX links_from_task ON links (from_task_id, kind) WHERE removed_at IS NULL;

-- The one exact match (SPEC §5.2): the same rule on the same message is one task.
CREATE TABLE rule_hits (
    id         INTEGER PRIMARY KEY,
    message_id INTEGER NOT NULL REFERENCES messages(id),
    rule       TEXT NOT NULL,
    task_id    INTEGER NOT NULL REFERENCES tasks(id),
    created_at INTEGER NOT NULL,
    UNIQUE (message_id, rule)
);

CREATE TABLE tags (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

-- One tagging table for every taggable type, tasks included.
CREATE TABLE taggings (
    tag_id        INTEGER NOT NULL REFERENCES tags(id),
    taggable_type TEXT NOT NULL,
    taggable_id   INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (tag_id, taggable_type, taggable_id)
);
CREATE INDEX taggings_target ON taggings (taggable_type, taggable_id);

CREATE TABLE task_events (
    id      INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    at      INTEGER NOT NULL,
    actor   TEXT NOT NULL,
    kind    TEXT NOT NULL,
    changes TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX task_events_task ON task_events (task_id, id);
