-- A post the platform's search returned for a tracker whose text lacks its terms (they may be in
-- the comments): the posts page notes it.
ALTER TABLE tracker_posts ADD COLUMN indirect BOOLEAN NOT NULL DEFAULT FALSE;
