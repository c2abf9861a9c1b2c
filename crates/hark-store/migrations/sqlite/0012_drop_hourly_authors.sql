-- Author activity per hour cost nearly one row per post at ingest; the partial first and last
-- days of a range are read from post rows instead (as the other panels do).
DROP TABLE rollup_authors_hourly;
