-- The posts page reads its orders from the tracker's in-memory table (posts/memory.rs), a common
-- search word or influencer tags included: its candidates come in the page's order and only they
-- are tested here. The links' indexes per sort key (0014, 0015, 0023) were walked by no other
-- read, and each cost every write of a link; a tracker the table does not hold sorts its matching
-- links instead.
DROP INDEX IF EXISTS tracker_posts_page_engagement_idx;
DROP INDEX IF EXISTS tracker_posts_page_followers_idx;
DROP INDEX IF EXISTS tracker_posts_page_rate_idx;
DROP INDEX IF EXISTS tracker_posts_page_impressions_idx;
DROP INDEX IF EXISTS tracker_posts_page_author_idx;
DROP INDEX IF EXISTS tracker_posts_page_sentiment_idx;
DROP INDEX IF EXISTS tracker_posts_page_text_idx;
