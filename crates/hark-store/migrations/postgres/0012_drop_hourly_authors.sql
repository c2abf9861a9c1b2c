-- Author activity per hour cost nearly one row per post at ingest; the partial first and last
-- days of a range are read from post rows instead (as the other panels do).
DROP TABLE rollup_authors_hourly;

-- Influencers read authors in order of an upper bound of their lifetime figures instead of the
-- figures themselves: a bound is raised (to the next power of two above the figure) only when
-- the figure passes it, so most batches leave these indexes alone. Any bound at or above the
-- figure is valid; deletes leave bounds as they are.
ALTER TABLE rollup_author_totals ADD COLUMN engagement_bound BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rollup_author_totals ADD COLUMN posts_bound BIGINT NOT NULL DEFAULT 0;
UPDATE rollup_author_totals SET engagement_bound = 2 * engagement + 1, posts_bound = 2 * posts + 1;
DROP INDEX rollup_author_totals_engagement_idx;
DROP INDEX rollup_author_totals_posts_idx;
CREATE INDEX rollup_author_totals_engagement_idx ON rollup_author_totals(tracker_id, engagement_bound);
CREATE INDEX rollup_author_totals_posts_idx ON rollup_author_totals(tracker_id, posts_bound);

-- An author's latest post (display name and avatar) is the last entry of the author's run in
-- this index; without the id PostgreSQL walks the whole table backwards for a rare author.
-- (SQLite's index ends with the row id already.)
DROP INDEX posts_author_idx;
CREATE INDEX posts_author_idx ON posts(platform, author_username, id);
