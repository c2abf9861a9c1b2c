-- Posts page at a million posts, without a cost per post at ingest.
--
-- Sort bounds: per (tracker, hour, platform) the largest and smallest value of each numeric sort
-- key of the posts page. The best posts of a range by a key are read hour by hour in the order of
-- these bounds, stopping once no remaining hour can hold a better post. They are bounds, not
-- exact: ingest only widens them (a repeat of a post with higher counts widens its hours), and
-- deletes leave them. NULL: no post seen in the hour yet.
--
-- Counts per hour for the totals of the posts page: posts by shown sentiment bucket, Twitter
-- retweets and Instagram stories (moved like `posts` by deletes, undo and sentiment changes).

ALTER TABLE rollup_hourly ADD COLUMN max_engagement INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_engagement INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_followers INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_followers INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_rate REAL;
ALTER TABLE rollup_hourly ADD COLUMN min_rate REAL;
ALTER TABLE rollup_hourly ADD COLUMN max_impressions INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_impressions INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_sentiment REAL;
ALTER TABLE rollup_hourly ADD COLUMN min_sentiment REAL;
ALTER TABLE rollup_hourly ADD COLUMN max_likes INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_likes INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_comments INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_comments INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_shares INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_shares INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN max_views INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN min_views INTEGER;
ALTER TABLE rollup_hourly ADD COLUMN s_positive INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN s_slight_positive INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN s_neutral INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN s_slight_negative INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN s_negative INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN retweets INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rollup_hourly ADD COLUMN stories INTEGER NOT NULL DEFAULT 0;
-- Bounds over every link (a deleted post may come back), counts over live links.
UPDATE rollup_hourly SET max_engagement = s.max_engagement,
    min_engagement = s.min_engagement,
    max_followers = s.max_followers,
    min_followers = s.min_followers,
    max_rate = s.max_rate,
    min_rate = s.min_rate,
    max_impressions = s.max_impressions,
    min_impressions = s.min_impressions,
    max_sentiment = s.max_sentiment,
    min_sentiment = s.min_sentiment,
    max_likes = s.max_likes,
    min_likes = s.min_likes,
    max_comments = s.max_comments,
    min_comments = s.min_comments,
    max_shares = s.max_shares,
    min_shares = s.min_shares,
    max_views = s.max_views,
    min_views = s.min_views,
    s_positive = s.s_positive,
    s_slight_positive = s.s_slight_positive,
    s_neutral = s.s_neutral,
    s_slight_negative = s.s_slight_negative,
    s_negative = s.s_negative,
    retweets = s.retweets,
    stories = s.stories
FROM (
    SELECT tp.tracker_id, tp.created_at - (((tp.created_at % 3600000) + 3600000) % 3600000) AS hour, tp.platform,
           MAX(p.engagement) AS max_engagement,
           MIN(p.engagement) AS min_engagement,
           MAX(p.author_followers) AS max_followers,
           MIN(p.author_followers) AS min_followers,
           MAX(COALESCE(p.engagement_rate, 0)) AS max_rate,
           MIN(COALESCE(p.engagement_rate, 0)) AS min_rate,
           MAX(p.impressions) AS max_impressions,
           MIN(p.impressions) AS min_impressions,
           MAX(COALESCE(p.sentiment, 0)) AS max_sentiment,
           MIN(COALESCE(p.sentiment, 0)) AS min_sentiment,
           MAX(p.likes) AS max_likes,
           MIN(p.likes) AS min_likes,
           MAX(p.comments) AS max_comments,
           MIN(p.comments) AS min_comments,
           MAX(p.shares) AS max_shares,
           MIN(p.shares) AS min_shares,
           MAX(p.views) AS max_views,
           MIN(p.views) AS min_views,
           SUM(CASE WHEN tp.deleted_at IS NULL AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') = 'positive' THEN 1 ELSE 0 END) AS s_positive,
           SUM(CASE WHEN tp.deleted_at IS NULL AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') = 'slight_positive' THEN 1 ELSE 0 END) AS s_slight_positive,
           SUM(CASE WHEN tp.deleted_at IS NULL AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') NOT IN ('positive', 'slight_positive', 'slight_negative', 'negative') THEN 1 ELSE 0 END) AS s_neutral,
           SUM(CASE WHEN tp.deleted_at IS NULL AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') = 'slight_negative' THEN 1 ELSE 0 END) AS s_slight_negative,
           SUM(CASE WHEN tp.deleted_at IS NULL AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') = 'negative' THEN 1 ELSE 0 END) AS s_negative,
           SUM(CASE WHEN tp.deleted_at IS NULL AND tp.platform = 'twitter' AND p.post_type = 'retweet' THEN 1 ELSE 0 END) AS retweets,
           SUM(CASE WHEN tp.deleted_at IS NULL AND tp.platform = 'instagram' AND p.is_story THEN 1 ELSE 0 END) AS stories
    FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id
    GROUP BY 1, 2, 3
) s WHERE rollup_hourly.tracker_id = s.tracker_id AND rollup_hourly.hour = s.hour AND rollup_hourly.platform = s.platform;
