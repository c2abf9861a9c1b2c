-- Dashboard at millions of posts: more rollups written at ingest (see DESIGN.md "Rollups"), each
-- filled here from the stored posts so existing trackers answer from them at once.

-- Top posts: the engagement of a tracker's post sits on its link, indexed, so the most engaging
-- posts of a range are read in index order instead of sorting every post of the range.
ALTER TABLE tracker_posts ADD COLUMN engagement BIGINT NOT NULL DEFAULT 0;
UPDATE tracker_posts SET engagement = p.engagement FROM posts p WHERE p.id = tracker_posts.post_id;
CREATE INDEX tracker_posts_engagement_idx ON tracker_posts(tracker_id, engagement DESC, created_at DESC, post_id);

-- Viewer sentiment: likes and dislikes per hour and platform. A repeat of a stored post keeps the
-- counts it replaced, as it does for engagement, so the rollups move by the difference.
ALTER TABLE rollup_hourly ADD COLUMN likes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN dislikes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE posts ADD COLUMN prev_likes BIGINT;
ALTER TABLE posts ADD COLUMN prev_dislikes BIGINT;
UPDATE rollup_hourly SET likes = s.likes, dislikes = s.dislikes FROM (
    SELECT tp.tracker_id, tp.created_at - (((tp.created_at % 3600000) + 3600000) % 3600000) AS hour, tp.platform,
           SUM(p.likes)::bigint AS likes, SUM(p.dislikes)::bigint AS dislikes
    FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.deleted_at IS NULL
    GROUP BY 1, 2, 3
) s WHERE rollup_hourly.tracker_id = s.tracker_id AND rollup_hourly.hour = s.hour AND rollup_hourly.platform = s.platform;

-- Share of voice: posts per subtracker (1-based), hour and platform.
CREATE TABLE rollup_subtrackers (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    hour BIGINT NOT NULL,
    platform TEXT NOT NULL,
    sub BIGINT NOT NULL,
    posts BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, hour, platform, sub)
);
INSERT INTO rollup_subtrackers (tracker_id, hour, platform, sub, posts)
SELECT tp.tracker_id, tp.created_at - (((tp.created_at % 3600000) + 3600000) % 3600000), tp.platform, bits.i, COUNT(*)
FROM tracker_posts tp JOIN generate_series(1, 63) AS bits(i) ON (tp.subtrackers & (1::bigint << (bits.i - 1))) <> 0
WHERE tp.deleted_at IS NULL AND tp.subtrackers <> 0
GROUP BY 1, 2, 3, 4;

-- Influencers: each author's activity over the tracker's whole life. It bounds what the author
-- can have in any range, so the top authors of a range are found by reading authors in this
-- order and stopping once no later author can reach the list.
CREATE TABLE rollup_author_totals (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    posts BIGINT NOT NULL DEFAULT 0,
    engagement BIGINT NOT NULL DEFAULT 0,
    followers BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, platform, author)
);
CREATE INDEX rollup_author_totals_engagement_idx ON rollup_author_totals(tracker_id, engagement);
CREATE INDEX rollup_author_totals_posts_idx ON rollup_author_totals(tracker_id, posts);
INSERT INTO rollup_author_totals (tracker_id, platform, author, posts, engagement, followers)
SELECT tracker_id, platform, author, SUM(posts)::bigint, SUM(engagement)::bigint, MAX(followers) FROM rollup_authors
GROUP BY tracker_id, platform, author;

-- Users: the days an author posted on, as bits of a 64-day block (day number = ms / 86,400,000;
-- block = day number / 64, bit = day number % 64). Distinct authors of a range are one row per
-- author and block instead of one per author and day.
CREATE TABLE rollup_author_days (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    block BIGINT NOT NULL,
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    days BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, block, platform, author)
);
INSERT INTO rollup_author_days (tracker_id, block, platform, author, days)
SELECT tracker_id, (day / 86400000) >> 6, platform, author, BIT_OR(1::bigint << ((day / 86400000) & 63)::int)
FROM rollup_authors WHERE posts > 0 AND day >= 0
GROUP BY 1, 2, 3, 4;

-- Author activity per hour: the whole hours of a range's partial first and last days, so that
-- only two partial hours are read from post rows.
CREATE TABLE rollup_authors_hourly (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    hour BIGINT NOT NULL,
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    posts BIGINT NOT NULL DEFAULT 0,
    engagement BIGINT NOT NULL DEFAULT 0,
    followers BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, hour, platform, author)
);
INSERT INTO rollup_authors_hourly (tracker_id, hour, platform, author, posts, engagement, followers)
SELECT tp.tracker_id, tp.created_at - (((tp.created_at % 3600000) + 3600000) % 3600000), tp.platform,
       CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END,
       COUNT(*), SUM(p.engagement)::bigint, MAX(p.author_followers)
FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.deleted_at IS NULL
GROUP BY 1, 2, 3, 4;

-- Location states: the state or province (ISO 3166-2, "US-TX") where the post's place resolves
-- to one; counted in rollup_terms as kind 'region'.
ALTER TABLE posts ADD COLUMN region TEXT;
