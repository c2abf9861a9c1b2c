-- A re-analysis is leased by one worker at a time, like collection and export jobs: the worker
-- renews its lease while it runs and saves where it got to with each page, so that when its
-- server dies another server's worker takes the job over after the lease runs out and goes on
-- from the last saved page.
ALTER TABLE tracker_edits ADD COLUMN lease_owner TEXT;
ALTER TABLE tracker_edits ADD COLUMN lease_until BIGINT;
ALTER TABLE tracker_edits ADD COLUMN after_post_id BIGINT NOT NULL DEFAULT 0;
