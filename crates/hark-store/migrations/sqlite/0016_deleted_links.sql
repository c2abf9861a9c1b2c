-- The deleted links of each tracker, by time: a copy of `tracker_posts.deleted_at IS NOT NULL`
-- kept beside it (bulk delete adds the rows, undo removes them; removing a link or its tracker
-- removes them too). A walk of the posts page in a key's order (migrations 0014, 0015) reads the
-- range's deleted links from here (usually a few) and leaves them out itself, so it reads the
-- key's index alone, with no lookup of each link, when there is no search (or filter on the
-- post's author) to test. A separate table, not an index of `tracker_posts`: an index on
-- `deleted_at` would make every delete and undo write all of that table's indexes.

CREATE TABLE tracker_deleted_posts (
    tracker_id BIGINT NOT NULL,
    post_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (tracker_id, post_id),
    FOREIGN KEY (tracker_id, post_id) REFERENCES tracker_posts(tracker_id, post_id) ON DELETE CASCADE
);
CREATE INDEX tracker_deleted_posts_time_idx ON tracker_deleted_posts(tracker_id, created_at, post_id);
INSERT INTO tracker_deleted_posts (tracker_id, post_id, created_at)
    SELECT tracker_id, post_id, created_at FROM tracker_posts WHERE deleted_at IS NOT NULL;
