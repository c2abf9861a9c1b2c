-- Streaming connectors (Bluesky Jetstream, X filtered stream) read one connection for every
-- tracker at once: one row per connector with its persisted stream cursor and a lease, so a
-- single worker of the cluster holds the connection and a restart resumes where it stopped.
CREATE TABLE connector_streams (
    connector TEXT PRIMARY KEY,
    -- JSON: the connector's position in its stream (Jetstream: the last stored event's time_us).
    cursor TEXT NOT NULL DEFAULT '{}',
    lease_owner TEXT,
    lease_until BIGINT,
    batches BIGINT NOT NULL DEFAULT 0,
    posts_collected BIGINT NOT NULL DEFAULT 0,
    last_collected_at BIGINT,
    last_error TEXT,
    last_error_at BIGINT,
    updated_at BIGINT NOT NULL
);
