-- A day that gains posts all the time (today, while a tracker collects) is read again only from
-- the posts that changed: every write that marks a tracker's days (rollups::mark_days) also logs,
-- per day, the lowest post id it changed there (its floor; 0 when the writer does not know). A
-- table at version v whose log still holds v reads each day logged after v from the day's lowest
-- floor on (new posts have the newest ids); the log keeps a tracker's last few hundred versions,
-- and a table further behind reads the marked days whole, as before.
CREATE TABLE post_day_log (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    day INTEGER NOT NULL,
    floor INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, version, day)
) WITHOUT ROWID;
