-- Exports: a file made in the background for one tracker and the view it was asked from. A job
-- is leased by one worker at a time; a job whose lease ran out (its worker stopped) is pending
-- again and made anew. The finished file sits in its own table, beside the narrow job row, so
-- that every node of a cluster can serve it, until the job expires.
CREATE TABLE export_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token TEXT NOT NULL,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    params TEXT NOT NULL,
    progress_done INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    filename TEXT,
    content_type TEXT,
    size INTEGER,
    url TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    CONSTRAINT export_jobs_token_key UNIQUE (token),
    CONSTRAINT export_jobs_kind_check CHECK (kind IN ('xlsx', 'pdf', 'sheets')),
    CONSTRAINT export_jobs_state_check CHECK (state IN ('pending', 'running', 'ready', 'failed'))
);
CREATE INDEX export_jobs_due_idx ON export_jobs(state, created_at);
CREATE INDEX export_jobs_tracker_idx ON export_jobs(tracker_id, user_id);
CREATE INDEX export_jobs_expiry_idx ON export_jobs(expires_at);

CREATE TABLE export_files (
    job_id INTEGER PRIMARY KEY REFERENCES export_jobs(id) ON DELETE CASCADE,
    body BLOB NOT NULL
);
