-- 0003: a running Run has an owner and a lease (SQLite's 0009, column for column).
-- Several daemons share a team store: each leases the Runs it starts (owner =
-- host:pid:start, lease_until = epoch ms) and renews the lease while they go on; a
-- daemon interrupts only Runs whose lease ended, so a killed daemon's Job is recorded
-- interrupted once and never rerun by another.
ALTER TABLE runs ADD COLUMN owner TEXT;
ALTER TABLE runs ADD COLUMN lease_until BIGINT;
CREATE INDEX runs_running ON runs (job_id) WHERE state = 'running';
