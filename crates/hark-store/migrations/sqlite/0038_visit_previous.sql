-- The visit before the last one, set by the same upsert that records a visit: the posts page
-- reads and records a visit in one statement (see visits.rs).
ALTER TABLE tracker_visits ADD COLUMN previous_at INTEGER;
