-- A link's deletion (bulk delete) is kept in `tracker_deleted_posts` alone (migration 0016 made it
-- a copy of `tracker_posts.deleted_at`). Setting `deleted_at` rewrote each link: a link whose
-- page had no room for its new version (a bulk delete takes the posts of a time span, so whole
-- pages of links) was written to every index of the table, about ten, and a delete of 10,000
-- posts took 0.5-4 s. Now a delete adds 10,000 narrow rows and its undo removes them; queries
-- leave a link out when its row exists (an anti-join on the row's key).

DROP TRIGGER IF EXISTS tracker_posts_unlink_deleted ON tracker_posts;
DROP FUNCTION IF EXISTS tracker_deleted_posts_unlink();

-- The copy was kept exact in the same statements as the links; it is made complete in case.
INSERT INTO tracker_deleted_posts (tracker_id, post_id, created_at)
    SELECT tracker_id, post_id, created_at FROM tracker_posts WHERE deleted_at IS NOT NULL
    ON CONFLICT DO NOTHING;

ALTER TABLE tracker_posts DROP COLUMN deleted_at;

-- A removed link (re-analysis, a removed tracker) takes its deletion row with it: once per
-- statement, from the removed links (a tracker's million links on its removal are matched
-- against its deleted rows, usually a few, in one join).
CREATE FUNCTION tracker_deleted_posts_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tracker_deleted_posts d USING removed_links r
        WHERE d.tracker_id = r.tracker_id AND d.post_id = r.post_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER tracker_posts_unlink_deleted AFTER DELETE ON tracker_posts
    REFERENCING OLD TABLE AS removed_links
    FOR EACH STATEMENT EXECUTE FUNCTION tracker_deleted_posts_unlink();
