-- The deleted links' copy (migration 0016) loses its foreign key on PostgreSQL. The key checked
-- every row a bulk delete adds (about 90 ms of a delete of 10,000 posts, one lookup per row run as
-- a query of its own) and looked for rows to remove on every link removed, deleted or not (a
-- tracker's million links on its removal). A row trigger that fires only for a deleted link's
-- removal keeps the copy exact instead: bulk delete and undo write the copy in the same statement
-- as the links, so a row exists exactly when its link's `deleted_at` is set.

ALTER TABLE tracker_deleted_posts DROP CONSTRAINT IF EXISTS tracker_deleted_posts_tracker_id_post_id_fkey;

CREATE FUNCTION tracker_deleted_posts_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tracker_deleted_posts WHERE tracker_id = OLD.tracker_id AND post_id = OLD.post_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER tracker_posts_unlink_deleted AFTER DELETE ON tracker_posts
    FOR EACH ROW WHEN (OLD.deleted_at IS NOT NULL) EXECUTE FUNCTION tracker_deleted_posts_unlink();

