-- Posts page: full-text search over text, title, author names and locations; the owner's last
-- visit (posts collected after it are marked new).

-- The 'simple' configuration: no stemming or stop words, the same tokens in every language.
CREATE INDEX posts_fts_idx ON posts USING GIN (to_tsvector('simple'::regconfig,
    text || ' ' || COALESCE(title, '') || ' ' || author_name || ' ' || author_username || ' ' || COALESCE(author_location, '')));

CREATE TABLE tracker_visits (
    tracker_id BIGINT NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    visited_at BIGINT NOT NULL,
    PRIMARY KEY (tracker_id, user_id)
);
