-- Retweets and stories on the link: `post_kind` is 1 for a twitter retweet, 2 for an instagram
-- story and 0 for every other post (the same definitions as the hourly rollups' `retweets` and
-- `stories`). The posts page's "Exclude Retweets" and "Filter by Stories" then read the link, not
-- the post: a page or a count with one of them needs no post row, and the sort keys' indexes
-- (migration 0014) lead with (platform, post_kind), so a walk reads the stories' own stream
-- instead of testing every instagram post, and drops the retweets' stream. The score's index
-- carries post_kind beside the platform at its end, checked on the index entries.
-- A post's kind never changes: ingest writes it with the link.

ALTER TABLE tracker_posts ADD COLUMN post_kind INTEGER NOT NULL DEFAULT 0;
UPDATE tracker_posts SET post_kind = 1 WHERE platform = 'twitter'
    AND post_id IN (SELECT id FROM posts WHERE platform = 'twitter' AND post_type = 'retweet');
UPDATE tracker_posts SET post_kind = 2 WHERE platform = 'instagram'
    AND post_id IN (SELECT id FROM posts WHERE platform = 'instagram' AND is_story = TRUE);

DROP INDEX tracker_posts_page_engagement_idx;
DROP INDEX tracker_posts_page_followers_idx;
DROP INDEX tracker_posts_page_rate_idx;
DROP INDEX tracker_posts_page_impressions_idx;
DROP INDEX tracker_posts_page_author_idx;
DROP INDEX tracker_posts_page_sentiment_idx;
CREATE INDEX tracker_posts_page_engagement_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, engagement, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_followers_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, followers, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_rate_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, rate, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_impressions_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, impressions, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_author_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, author_sort, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_sentiment_idx ON tracker_posts(tracker_id, (bucket || ''), sentiment, created_at, post_id, (platform || ''), post_kind, subtrackers);
