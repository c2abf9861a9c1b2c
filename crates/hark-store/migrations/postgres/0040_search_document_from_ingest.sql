-- The search document is written by ingest (crates/hark-store/src/posts/query.rs, pg_document):
-- the words of the post's text, title and author fields, lowercased, each once, split where
-- SQLite's index splits them. Computed here by to_tsvector, the document cost the database
-- nearly as much as its GIN index. The rows stored before keep the documents to_tsvector made.
-- (DROP EXPRESSION needs PostgreSQL 13 or later.)
ALTER TABLE posts ALTER COLUMN fts DROP EXPRESSION;
