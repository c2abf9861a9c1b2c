-- A write adds to the day's and the lifetime counts of each term its posts carry: on a tweet
-- vocabulary most of a batch's rows already exist and are updated in place. Room on each page lets
-- PostgreSQL keep the new row version there without a new primary-key entry (a HOT update): on a
-- bulk delete of 10,000 real-text posts these two upserts took about a quarter less time. Pages
-- written from now on keep the room; older ones gain it when the table is rewritten.
ALTER TABLE rollup_terms SET (fillfactor = 80);
ALTER TABLE rollup_term_totals SET (fillfactor = 80);
