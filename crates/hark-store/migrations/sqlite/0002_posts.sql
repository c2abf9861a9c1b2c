-- Posts page: full-text search over text, title, author names and locations; the owner's last
-- visit (posts collected after it are marked new).

-- External content (the text lives in posts only); detail=none keeps the index smallest: queries
-- are token conjunctions, never phrases or column filters. Filled per ingest batch.
CREATE VIRTUAL TABLE posts_fts USING fts5(
    text, title, author_name, author_username, author_location,
    content='posts', content_rowid='id', detail='none',
    tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO posts_fts(posts_fts) VALUES ('rebuild');

CREATE TABLE tracker_visits (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    visited_at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, user_id)
);
