-- 0004: sentence embeddings of task titles, for the optional embedding level of the
-- duplicate check (dedup::embed, cargo feature `embed`). Created by every build, with
-- or without the feature, so one store file works with both. One vector per task: the
-- one of the model last used; a vector stored under another model id is ignored and
-- recomputed. Written by the same transaction as the task (dedup::index).

CREATE TABLE task_embeddings (
    task_id INTEGER PRIMARY KEY REFERENCES tasks(id),
    model   TEXT NOT NULL,  -- model file, size and prefix ("e5-small-q4.bin:71622400:passage")
    vector  BLOB NOT NULL   -- little-endian f32, L2-normalized
);
