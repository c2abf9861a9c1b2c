-- PostgreSQL's 0035 leaves room on the term rollups' pages for updates in place; SQLite stores
-- those tables in their primary key (WITHOUT ROWID) and has no such setting. Kept so both
-- databases number their migrations alike.
SELECT 1;
