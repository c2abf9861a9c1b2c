-- The media wall. A link says whether its post carries media (`has_media`), so the wall reads
-- only those, newest first or by engagement, from two partial indexes that start with the link's
-- visibility: 1 public, 0 hidden, 2 waiting in the moderation queue (posts with media that
-- arrive while the tracker's media moderation is on). The tracker keeps its wall settings (JSON)
-- and the key of its moderation link (NULL until the link is first made; rotating replaces it).
ALTER TABLE tracker_posts ADD COLUMN has_media SMALLINT NOT NULL DEFAULT 0;
UPDATE tracker_posts SET has_media = 1 WHERE post_id IN (SELECT id FROM posts WHERE media IS NOT NULL);
CREATE INDEX tracker_posts_wall_time_idx ON tracker_posts(tracker_id, visibility, created_at, post_id) WHERE has_media = 1;
CREATE INDEX tracker_posts_wall_engagement_idx ON tracker_posts(tracker_id, visibility, engagement, created_at, post_id) WHERE has_media = 1;
ALTER TABLE trackers ADD COLUMN media_wall TEXT NOT NULL DEFAULT '{}';
ALTER TABLE trackers ADD COLUMN moderation_key TEXT;
