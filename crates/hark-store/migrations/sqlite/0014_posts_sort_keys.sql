-- Posts page sorts at a million posts: each sort key of the page sits on the post's link with an
-- index, so a page in any of these orders is read in index order from its first post instead of
-- sorting the range. The indexes lead with the platform (the sentiment score's with the shown
-- sentiment bucket): a page reads one stream per platform (bucket) and merges them, so a platform
-- (bucket) filter, or a key that runs differently on each platform (or with the bucket, as the
-- score does), never makes a stream pass posts the filter drops. The bucket (platform) and the
-- subtrackers ride at the end of each index, so those filters are checked on the index entries
-- (not the deletion: a bulk delete would move every index). Ties are broken by time, then post
-- id, in the sort's direction (the index walked forwards or backwards).
--
-- followers: the author's followers (reach); rate: engagement rate (0 when unknown); impressions;
-- sentiment: the analysed score (0 when unknown); bucket: the sentiment bucket shown (manual edit,
-- else keyword rule, else the analysed bucket), moved by edits and rules; author_sort: the
-- author's name lowercased.
-- Ingest writes them with the link and keeps the counts equal to the post's on every repeat.
-- The platform is indexed as an expression, `(platform || '')`, and so is the leading bucket:
-- SQLite plans without statistics, and a plain column would draw its other queries (a range of
-- time on some platforms, a count of tagged posts) to these indexes.

ALTER TABLE tracker_posts ADD COLUMN followers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tracker_posts ADD COLUMN rate REAL NOT NULL DEFAULT 0;
ALTER TABLE tracker_posts ADD COLUMN impressions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tracker_posts ADD COLUMN sentiment REAL NOT NULL DEFAULT 0;
ALTER TABLE tracker_posts ADD COLUMN bucket TEXT NOT NULL DEFAULT 'neutral';
ALTER TABLE tracker_posts ADD COLUMN author_sort TEXT NOT NULL DEFAULT '';
UPDATE tracker_posts SET followers = p.author_followers,
    rate = COALESCE(p.engagement_rate, 0),
    impressions = p.impressions,
    sentiment = COALESCE(p.sentiment, 0),
    author_sort = LOWER(p.author_name),
    bucket = COALESCE(tracker_posts.sentiment_override, tracker_posts.sentiment_rule, p.sentiment_bucket, 'neutral')
FROM posts p WHERE p.id = tracker_posts.post_id;

CREATE INDEX tracker_posts_page_engagement_idx ON tracker_posts(tracker_id, (platform || ''), engagement, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_followers_idx ON tracker_posts(tracker_id, (platform || ''), followers, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_rate_idx ON tracker_posts(tracker_id, (platform || ''), rate, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_impressions_idx ON tracker_posts(tracker_id, (platform || ''), impressions, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_author_idx ON tracker_posts(tracker_id, (platform || ''), author_sort, created_at, post_id, bucket, subtrackers);
CREATE INDEX tracker_posts_page_sentiment_idx ON tracker_posts(tracker_id, (bucket || ''), sentiment, created_at, post_id, (platform || ''), subtrackers);
