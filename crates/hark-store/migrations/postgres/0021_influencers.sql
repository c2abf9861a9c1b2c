-- Influencers page: each author's reach (the follower counts of its posts, summed) and impressions
-- beside its posts and engagement, per day and over the tracker's life; and each account's
-- latest profile (name, picture, bio, location), which the page shows and searches.
ALTER TABLE rollup_authors ADD COLUMN reach BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_authors ADD COLUMN impressions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_author_totals ADD COLUMN reach BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_author_totals ADD COLUMN impressions BIGINT NOT NULL DEFAULT 0;

UPDATE rollup_authors SET reach = s.reach, impressions = s.impressions FROM (
    SELECT tp.tracker_id AS tracker_id,
           tp.created_at - (((tp.created_at % 86400000) + 86400000) % 86400000) AS day,
           tp.platform AS platform,
           CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END AS author,
           SUM(p.author_followers)::bigint AS reach, SUM(p.impressions)::bigint AS impressions
    FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id
    WHERE NOT EXISTS (SELECT 1 FROM tracker_deleted_posts d WHERE d.tracker_id = tp.tracker_id AND d.post_id = tp.post_id)
    GROUP BY 1, 2, 3, 4
) AS s
WHERE rollup_authors.tracker_id = s.tracker_id AND rollup_authors.day = s.day
  AND rollup_authors.platform = s.platform AND rollup_authors.author = s.author;

UPDATE rollup_author_totals SET reach = s.reach, impressions = s.impressions FROM (
    SELECT tracker_id, platform, author, SUM(reach)::bigint AS reach, SUM(impressions)::bigint AS impressions
    FROM rollup_authors GROUP BY tracker_id, platform, author
) AS s
WHERE rollup_author_totals.tracker_id = s.tracker_id AND rollup_author_totals.platform = s.platform
  AND rollup_author_totals.author = s.author;

-- One row per account (platform and author key: the username, or the account id when the
-- username is empty), from its newest post by date; shared by every tracker.
CREATE TABLE author_profiles (
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    author_id TEXT NOT NULL DEFAULT '',
    username TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    avatar TEXT,
    bio TEXT,
    location TEXT,
    verified BOOLEAN NOT NULL DEFAULT FALSE,
    followers BIGINT NOT NULL DEFAULT 0,
    seen_at BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (platform, author)
);

INSERT INTO author_profiles (platform, author, author_id, username, name, avatar, bio, location, verified, followers, seen_at)
SELECT DISTINCT ON (p.platform, CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END)
       p.platform, CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END,
       p.author_id, p.author_username, p.author_name, p.author_avatar,
       p.data::jsonb -> 'author' ->> 'bio',
       p.author_location, p.author_verified, p.author_followers, p.created_at
FROM posts p
ORDER BY p.platform, CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END, p.id DESC;

-- Each write of a tracker's author rollups takes the tracker's next `author_version` and marks
-- the day rows it wrote with it, so a reader holding the rows of an older version reads only the
-- rows written since.
ALTER TABLE trackers ADD COLUMN author_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_authors ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX rollup_authors_version_idx ON rollup_authors(tracker_id, version);
