-- Trending topics and sentiment: a per-server, in-memory table of each tracker's posts (time,
-- platform, shown sentiment bucket, subtrackers, words and hashtags) stays exact by reading again
-- only the days that changed. Every write that changes a tracker's posts takes the tracker's next
-- post_version and marks the days it touched with it (rollups::write), in the same transaction.
ALTER TABLE trackers ADD COLUMN post_version BIGINT NOT NULL DEFAULT 0;
CREATE TABLE post_days (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    day BIGINT NOT NULL,
    version BIGINT NOT NULL,
    PRIMARY KEY (tracker_id, day)
);
