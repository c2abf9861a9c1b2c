-- Dashboard: influential users look up an author's display fields by platform and username.
CREATE INDEX posts_author_idx ON posts(platform, author_username);
