-- 0009: a running Run has an owner and a lease (issue 34). With several daemons on one
-- store (the team store on PostgreSQL, which mirrors this schema), "every running Job
-- at start belongs to a dead daemon" stops being true: a daemon leases each Run it
-- starts (owner = host:pid:start, lease_until = epoch ms), renews the lease while the
-- Run goes on, and a daemon interrupts only Runs whose lease ended — so a kill -9 is
-- recorded once, by whichever daemon sees the lease end, and the Job is never rerun.
-- SQLite's daemon still holds the file lock and recovers every running Job at start;
-- the columns say who ran what either way.
ALTER TABLE runs ADD COLUMN owner TEXT;
ALTER TABLE runs ADD COLUMN lease_until INTEGER;
CREATE INDEX runs_running ON runs (job_id) WHERE state = 'running';
