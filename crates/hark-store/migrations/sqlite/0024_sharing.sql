-- Sharing: a tracker's custom URL (the last segment of its shared dashboard link) is unique among
-- trackers; a tracker without one has NULL, which the index lets repeat. The share hash itself is
-- made when the tracker is first shared and replaced when its link is revoked.
CREATE UNIQUE INDEX trackers_custom_url_key ON trackers(custom_url);
