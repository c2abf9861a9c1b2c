-- Rollup rows are only ever found by their primary key, so they are stored in it: one B-tree per
-- table instead of a table plus its key index, which halves the pages an ingest batch touches.
CREATE TABLE rollup_hourly_new (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    hour INTEGER NOT NULL,
    platform TEXT NOT NULL,
    posts INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    reach INTEGER NOT NULL DEFAULT 0,
    impressions INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, hour, platform)
) WITHOUT ROWID;
INSERT INTO rollup_hourly_new SELECT tracker_id, hour, platform, posts, engagement, reach, impressions FROM rollup_hourly;
DROP TABLE rollup_hourly;
ALTER TABLE rollup_hourly_new RENAME TO rollup_hourly;

CREATE TABLE rollup_terms_new (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    term TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, kind, day, platform, term)
) WITHOUT ROWID;
INSERT INTO rollup_terms_new SELECT tracker_id, kind, day, platform, term, count FROM rollup_terms;
DROP TABLE rollup_terms;
ALTER TABLE rollup_terms_new RENAME TO rollup_terms;

CREATE TABLE rollup_authors_new (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    posts INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    followers INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, day, platform, author)
) WITHOUT ROWID;
INSERT INTO rollup_authors_new SELECT tracker_id, day, platform, author, posts, engagement, followers FROM rollup_authors;
DROP TABLE rollup_authors;
ALTER TABLE rollup_authors_new RENAME TO rollup_authors;

-- A repeat of a stored post refreshes its counts; the update keeps the engagement it replaced so
-- the same statement tells the ingest which posts were new and how far engagement moved.
ALTER TABLE posts ADD COLUMN prev_engagement INTEGER;

-- The bucket a tracker's custom sentiment keywords gave a post (NULL when none matched). A post's
-- sentiment in a tracker is its manual edit, else this, else the scored bucket.
ALTER TABLE tracker_posts ADD COLUMN sentiment_rule TEXT;
