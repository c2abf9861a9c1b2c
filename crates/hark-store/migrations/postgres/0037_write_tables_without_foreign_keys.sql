-- The tables every ingest writes (links, rollups, the day marks) no longer check their foreign
-- keys row by row. PostgreSQL checks each inserted row with a query of its own, and in the
-- writer's transactions it planned that query again and again: those checks were about two fifths
-- of the database's time on an import of real tweets. What the keys did is done here instead:
-- - removing a tracker or a post removes its rows from these tables (the triggers below, as
--   ON DELETE CASCADE did);
-- - a write locks the trackers it adds to (`rollups::write`, FOR KEY SHARE) and fails when one is
--   gone, as the key check failed, so a tracker removed during a write loses every row of it.
-- The other tables keep their keys. SQLite keeps all of its keys (its checks are index probes in
-- the writer's process).
DO $$
DECLARE c record;
BEGIN
    FOR c IN
        SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
        WHERE contype = 'f'
          AND conrelid::regclass::text IN ('tracker_posts', 'rollup_hourly', 'rollup_terms', 'rollup_term_totals',
              'rollup_authors', 'rollup_author_totals', 'rollup_author_days', 'rollup_subtrackers', 'post_days', 'post_day_log')
          AND confrelid::regclass::text IN ('trackers', 'posts')
    LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tbl, c.conname);
    END LOOP;
END $$;

CREATE FUNCTION tracker_rows_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tracker_posts WHERE tracker_id = OLD.id;
    DELETE FROM rollup_hourly WHERE tracker_id = OLD.id;
    DELETE FROM rollup_terms WHERE tracker_id = OLD.id;
    DELETE FROM rollup_term_totals WHERE tracker_id = OLD.id;
    DELETE FROM rollup_authors WHERE tracker_id = OLD.id;
    DELETE FROM rollup_author_totals WHERE tracker_id = OLD.id;
    DELETE FROM rollup_author_days WHERE tracker_id = OLD.id;
    DELETE FROM rollup_subtrackers WHERE tracker_id = OLD.id;
    DELETE FROM post_days WHERE tracker_id = OLD.id;
    DELETE FROM post_day_log WHERE tracker_id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER trackers_remove_rows AFTER DELETE ON trackers FOR EACH ROW EXECUTE FUNCTION tracker_rows_remove();

CREATE FUNCTION post_links_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tracker_posts WHERE post_id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER posts_remove_links AFTER DELETE ON posts FOR EACH ROW EXECUTE FUNCTION post_links_remove();
