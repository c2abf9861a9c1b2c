-- A repeat of a stored post refreshes its counts; the update keeps the engagement it replaced so
-- the same statement tells the ingest which posts were new and how far engagement moved.
-- (The SQLite side of this step also stores its rollups WITHOUT ROWID, which has no counterpart here.)
ALTER TABLE posts ADD COLUMN prev_engagement BIGINT;

-- The bucket a tracker's custom sentiment keywords gave a post (NULL when none matched). A post's
-- sentiment in a tracker is its manual edit, else this, else the scored bucket.
ALTER TABLE tracker_posts ADD COLUMN sentiment_rule TEXT;
