-- The sentiment page's posts table sorts by post text. Like the other keys of the posts page
-- (migrations 0014 and 0015), the key sits on the link with an index led by (platform,
-- post_kind), so a page in text order is read in index order instead of sorting the range's post
-- rows.
-- text_sort: the first 16 characters of the post's text, lowercased (in byte order, as SQLite
-- compares text); posts whose first 16 characters agree are ordered by time, then post id. Ingest
-- writes it with the link.
-- The index is kept small, as every index on the links costs ingest a random write per link
-- (measured on a million links: a 48-character key made an insert 60% slower, 16 characters
-- 34%), and unlike the other keys' indexes it leaves out the shown sentiment bucket: the
-- sentiment page's table has no bucket filter (one would be checked on the row), and a keyword
-- re-analysis, which moves many posts' buckets, has one index fewer to rewrite for each.
ALTER TABLE tracker_posts ADD COLUMN text_sort TEXT NOT NULL DEFAULT '';
UPDATE tracker_posts SET text_sort = (SELECT LOWER(SUBSTR(p.text, 1, 16)) FROM posts p WHERE p.id = tracker_posts.post_id)
WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = tracker_posts.post_id AND p.text <> '');
CREATE INDEX tracker_posts_page_text_idx ON tracker_posts(tracker_id, (platform || ''), post_kind, text_sort, created_at, post_id, subtrackers);
