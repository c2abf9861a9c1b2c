-- PostgreSQL's migration 0037 drops the foreign keys of the tables every ingest writes (its
-- row-by-row checks were planned again and again in the writer's transactions). SQLite keeps its
-- keys: each check is an index probe in the writer's own process.
SELECT 1;
