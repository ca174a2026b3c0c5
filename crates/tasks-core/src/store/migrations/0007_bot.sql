-- 0007: the Telegram bot and scheduled prompts (issue 13).
--
-- bot_offsets: the last Telegram update a bot has durably queued, written in the same
-- transaction as the queue item, so a crash neither loses nor repeats a message (the
-- next getUpdates starts after it; anything later is delivered again and queued once).
CREATE TABLE bot_offsets (
    bot        TEXT PRIMARY KEY,
    update_id  INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- A prompt Job waiting for approval keeps the calls a person must approve (JSON).
ALTER TABLE jobs ADD COLUMN pending_calls TEXT;
