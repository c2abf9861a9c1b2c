-- The audit log: who changed a team member's rank, handed a tracker over, changed or revoked its
-- share link, or deleted a tracker or posts, and when. Each entry is written in the transaction
-- of the change it records. Entries outlive their tracker (no foreign key), so the instance
-- administrator still reads who deleted one; the title and hash are kept as they were.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER,
    tracker_hash TEXT,
    tracker_title TEXT NOT NULL DEFAULT '',
    actor_id INTEGER,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    -- JSON object of what changed (ranks before and after, toggles, post counts).
    detail TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
);

CREATE INDEX audit_log_tracker_idx ON audit_log (tracker_id, id);
