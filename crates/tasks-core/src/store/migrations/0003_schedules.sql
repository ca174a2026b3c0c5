-- 0003: scheduled tasks (SPEC §6, issue 5): schedules, jobs, runs, artifacts, and the
-- conversations with their durable FIFO queue. (Filled in by the schedules work.)
CREATE TABLE schedules_placeholder (id INTEGER PRIMARY KEY);
