-- 0003: scheduled tasks (SPEC §6, issue 5). A schedule belongs to one task and fires
-- Jobs; each attempt of a Job is a Run; what a Job produced is an artifact. Every
-- schedule posts into a conversation, whose durable FIFO queue is shared by firings and
-- (later, issue 6) chat messages. Times are epoch milliseconds UTC; a wall-clock rule
-- keeps its IANA zone beside it. Nothing is deleted: a removed schedule keeps its row
-- (removed_at), and its Jobs, Runs and messages stay as history.

CREATE TABLE conversations (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('local', 'telegram')),
    title       TEXT NOT NULL,
    -- The provider's chat id for a telegram conversation; NULL for a local one.
    external_id TEXT,
    created_at  INTEGER NOT NULL,
    UNIQUE (kind, external_id)
);

CREATE TABLE schedules (
    id              INTEGER PRIMARY KEY,
    task_id         INTEGER NOT NULL REFERENCES tasks(id),
    -- 'time': `trigger` is a tasks_schedule::Trigger; 'event': an event trigger with its
    -- filter, dedupe window and cooldown.
    trigger_kind    TEXT NOT NULL CHECK (trigger_kind IN ('time', 'event')),
    trigger         TEXT NOT NULL,
    zone            TEXT NOT NULL,
    -- tasks_schedule::MissedPolicy as JSON.
    missed          TEXT NOT NULL,
    action_kind     TEXT NOT NULL CHECK (action_kind IN ('due', 'command', 'prompt')),
    -- The action with everything frozen at creation (argv, working dir, env allow-list,
    -- timeout, output budget; prompt text and mode).
    action          TEXT NOT NULL,
    -- Bumped by every edit; part of a scheduled Job's idempotency key.
    plan_version    INTEGER NOT NULL DEFAULT 1 CHECK (plan_version >= 1),
    -- The next planned firing of a time trigger; NULL when none is left (a past once).
    next_fire_at    INTEGER,
    -- For an event trigger: the last task_events id already matched.
    event_cursor    INTEGER NOT NULL DEFAULT 0,
    paused          INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    -- How many Jobs of this schedule may be active at once (1 = no overlap).
    max_active      INTEGER NOT NULL DEFAULT 1 CHECK (max_active >= 1),
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    created_at      INTEGER NOT NULL,
    created_by      TEXT NOT NULL,
    updated_at      INTEGER NOT NULL,
    removed_at      INTEGER,
    removed_by      TEXT
);
-- One live schedule per task: `schedule pause TASK` names exactly one.
CREATE UNIQUE INDEX schedules_live_task ON schedules (task_id) WHERE removed_at IS NULL;
CREATE INDEX schedules_next ON schedules (next_fire_at) WHERE removed_at IS NULL AND paused = 0;

CREATE TABLE jobs (
    id              INTEGER PRIMARY KEY,
    schedule_id     INTEGER NOT NULL REFERENCES schedules(id),
    task_id         INTEGER NOT NULL REFERENCES tasks(id),
    kind            TEXT NOT NULL CHECK (kind IN ('scheduled_occurrence', 'manual', 'event')),
    -- The snapshot's action kind, for the runner's queries (prompt Jobs are run by the
    -- conversation, not the daemon).
    action_kind     TEXT NOT NULL CHECK (action_kind IN ('due', 'command', 'prompt')),
    -- '<schedule>:<plan version>:<scheduled_for ms>' for a firing,
    -- 'manual:<schedule>:<caller key>' for run-now, 'event:<schedule>:<source>' for events.
    idempotency_key TEXT NOT NULL UNIQUE,
    plan_version    INTEGER NOT NULL,
    scheduled_for   INTEGER NOT NULL,
    -- For an event Job: what fired it ('task:<id>' or 'job:<id>'), for the dedupe window.
    event_subject   TEXT,
    state           TEXT NOT NULL CHECK (state IN ('queued', 'running', 'waiting_approval', 'succeeded',
                        'failed', 'skipped', 'deferred', 'cancelled', 'interrupted', 'outcome_unknown')),
    -- Why the Job is in its state (skipped for overlap, failed with timeout, parked …).
    reason          TEXT,
    -- Action, trigger, zone, task key and plan version as they were when the Job was made.
    snapshot        TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    -- For a `deferred` Job: when its next Run may start (after a transient failure).
    retry_at        INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER
);
CREATE INDEX jobs_schedule ON jobs (schedule_id, id);
CREATE INDEX jobs_task ON jobs (task_id, id);
CREATE INDEX jobs_active ON jobs (state, id) WHERE state IN ('queued', 'running', 'waiting_approval', 'deferred');

CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    job_id           INTEGER NOT NULL REFERENCES jobs(id),
    attempt          INTEGER NOT NULL CHECK (attempt >= 1),
    state            TEXT NOT NULL CHECK (state IN ('running', 'succeeded', 'failed', 'interrupted', 'outcome_unknown')),
    started_at       INTEGER NOT NULL,
    finished_at      INTEGER,
    exit_code        INTEGER,
    -- Captured stdout and stderr, cut to the snapshot's output budget.
    output           TEXT,
    -- Bytes dropped beyond the budget.
    output_dropped   INTEGER NOT NULL DEFAULT 0,
    error            TEXT,
    -- The process id of the command (informational; never signalled after a restart).
    pid              INTEGER,
    UNIQUE (job_id, attempt)
);

CREATE TABLE artifacts (
    id         INTEGER PRIMARY KEY,
    job_id     INTEGER NOT NULL REFERENCES jobs(id),
    run_id     INTEGER REFERENCES runs(id),
    kind       TEXT NOT NULL,
    path       TEXT,
    text       TEXT,
    created_at INTEGER NOT NULL,
    CHECK ((path IS NULL) <> (text IS NULL))
);
CREATE INDEX artifacts_job ON artifacts (job_id);

CREATE TABLE conversation_messages (
    id              INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'schedule', 'system')),
    text            TEXT NOT NULL,
    task_id         INTEGER REFERENCES tasks(id),
    job_id          INTEGER REFERENCES jobs(id),
    created_at      INTEGER NOT NULL
);
CREATE INDEX conversation_messages_conversation ON conversation_messages (conversation_id, id);

-- The durable FIFO of a conversation: ordered by position, then id. Promote moves an
-- item to the head (position below the smallest) and marks the running item interrupted.
CREATE TABLE conversation_queue (
    id              INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    kind            TEXT NOT NULL CHECK (kind IN ('message', 'firing')),
    job_id          INTEGER REFERENCES jobs(id),
    payload         TEXT NOT NULL DEFAULT '{}',
    state           TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'removed', 'interrupted')),
    position        INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    CHECK ((kind = 'firing') = (job_id IS NOT NULL))
);
CREATE INDEX conversation_queue_live ON conversation_queue (conversation_id, position, id)
    WHERE state IN ('pending', 'running');
