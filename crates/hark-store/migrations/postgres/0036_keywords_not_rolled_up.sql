-- Keywords are no longer rolled up (a post's keywords are counted over the tracker's in-memory
-- table, or from the post rows): their day and lifetime rows are no longer kept up to date.
DELETE FROM rollup_terms WHERE kind = 'keyword';
DELETE FROM rollup_term_totals WHERE kind = 'keyword';
