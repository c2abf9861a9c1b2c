-- Streaming connectors (Bluesky Jetstream, X filtered stream) read one connection for every
-- tracker at once: one row per connector with its persisted stream cursor and a lease, so a
-- single worker of the cluster holds the connection and a restart resumes where it stopped.
CREATE TABLE connector_streams (
    connector TEXT PRIMARY KEY,
    -- JSON: the connector's position in its stream (Jetstream: the last stored event's time_us).
    cursor TEXT NOT NULL DEFAULT '{}',
    lease_owner TEXT,
    lease_until INTEGER,
    batches INTEGER NOT NULL DEFAULT 0,
    posts_collected INTEGER NOT NULL DEFAULT 0,
    last_collected_at INTEGER,
    last_error TEXT,
    last_error_at INTEGER,
    updated_at INTEGER NOT NULL
);
