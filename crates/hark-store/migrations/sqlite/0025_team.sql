-- Team: an invitation to a tracker for an address without an account yet. Its link carries a
-- random token of which only the SHA-256 is kept; accepting it makes the account and the
-- membership, and removes the invitation. One open invitation per tracker and address.
CREATE TABLE tracker_invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    permission INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    CONSTRAINT tracker_invitations_token_key UNIQUE (token_hash),
    CONSTRAINT tracker_invitations_email_key UNIQUE (tracker_id, email),
    CONSTRAINT tracker_invitations_permission_check CHECK (permission BETWEEN 1 AND 3)
);
