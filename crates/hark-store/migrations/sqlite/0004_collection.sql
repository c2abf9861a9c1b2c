-- Live collection: connector settings (credentials, base URL, last check) and collection jobs
-- (one per tracker, connector and kind) with their persisted cursor, lease and status.
CREATE TABLE connector_settings (
    connector TEXT PRIMARY KEY,
    enabled INTEGER NOT NULL DEFAULT 0,
    base_url TEXT,
    -- JSON object of field name to value; secrets included, never sent back by the API.
    config TEXT NOT NULL DEFAULT '{}',
    updated_at INTEGER NOT NULL,
    check_state TEXT NOT NULL DEFAULT 'unchecked',
    check_message TEXT,
    checked_at INTEGER,
    -- Connector-wide state that outlives one job (quota used today, hashtags searched this week).
    usage TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE collection_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    connector TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'poll',
    state TEXT NOT NULL DEFAULT 'active',
    cursor TEXT NOT NULL DEFAULT '{}',
    range_start INTEGER,
    range_end INTEGER,
    next_run_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    heartbeat_at INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    pages INTEGER NOT NULL DEFAULT 0,
    posts_collected INTEGER NOT NULL DEFAULT 0,
    last_collected_at INTEGER,
    last_error TEXT,
    last_error_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CONSTRAINT collection_jobs_kind_check CHECK (kind IN ('poll', 'backfill')),
    CONSTRAINT collection_jobs_state_check CHECK (state IN ('active', 'done', 'failed'))
);
CREATE UNIQUE INDEX collection_jobs_poll_key ON collection_jobs(tracker_id, connector) WHERE kind = 'poll';
CREATE INDEX collection_jobs_due_idx ON collection_jobs(state, next_run_at);
CREATE INDEX collection_jobs_tracker_idx ON collection_jobs(tracker_id);
