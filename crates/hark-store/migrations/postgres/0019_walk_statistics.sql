-- The planner's estimate of a posts page walk's streams (migrations 0014, 0015). A stream is the
-- links of one platform and kind, or, in the sentiment score's order, of one bucket with a filter
-- on `(platform || '')` and the kind, read in its index's order with a small limit. The three
-- columns are far from independent (retweets are twitter's only, stories instagram's), and an
-- expression has no statistics of its own: the stories of the neutral bucket over 30 days were
-- estimated at 2 links where there were about 1,400. Below its limit a stream looks cheaper read
-- whole and sorted than read in index order, and whether it did turned on the sample of the last
-- ANALYZE: after one more, stories in the score's order took 0.1-0.4 s instead of 2-4 ms. The
-- most common combinations of the three give the planner the true share of each stream.

CREATE STATISTICS tracker_posts_stream_stats (mcv) ON platform, post_kind, bucket FROM tracker_posts;
CREATE STATISTICS tracker_posts_score_stream_stats (mcv) ON (platform || ''), post_kind, bucket FROM tracker_posts;
ANALYZE tracker_posts;
