-- The posts page's total sums the hourly rollup's post counts (of the filter's column) over a
-- range: 720 hours of a dozen platforms for the default 30 days. Read through the primary key,
-- each row's heap page is visited too (about 250 pages, 4 ms); with the counts in the index the
-- sum is an index-only scan (about 1.6 ms). The other columns (engagement, bounds) stay in the
-- table only.

CREATE INDEX rollup_hourly_counts_idx ON rollup_hourly(tracker_id, hour, platform)
    INCLUDE (posts, retweets, stories, s_positive, s_slight_positive, s_neutral, s_slight_negative, s_negative);
