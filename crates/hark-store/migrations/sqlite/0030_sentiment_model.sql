-- The sentiment model the stored posts were scored with. When the server runs a newer model, its
-- background worker scores the stored posts again, page by page from after_post_id up to
-- last_post_id (the newest post when the run began: later posts are scored by the new model as
-- they arrive), and moves the counts of every tracker that shows the analysed bucket.
CREATE TABLE sentiment_model (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version TEXT,
    target TEXT,
    after_post_id INTEGER NOT NULL DEFAULT 0,
    last_post_id INTEGER NOT NULL DEFAULT 0,
    processed INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    changed INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER,
    finished_at INTEGER
);
INSERT INTO sentiment_model (id) VALUES (1);
