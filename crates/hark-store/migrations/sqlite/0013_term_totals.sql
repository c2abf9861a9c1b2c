-- Related Topics and the link lists over a tracker's whole life: each term's count over all its
-- days, so All Time reads one row per term instead of one per term and day. Kept for the term
-- kinds a post lists (hashtag, mention, keyword, domain, link); written with the daily rows.
CREATE TABLE rollup_term_totals (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    platform TEXT NOT NULL,
    term TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, kind, platform, term)
) WITHOUT ROWID;
INSERT INTO rollup_term_totals (tracker_id, kind, platform, term, count)
SELECT tracker_id, kind, platform, term, SUM(count) FROM rollup_terms
WHERE kind IN ('hashtag', 'mention', 'keyword', 'domain', 'link')
GROUP BY tracker_id, kind, platform, term;
