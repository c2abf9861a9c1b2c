//! A tracker's posts: the posts page's query (filtered, searched, sorted and paged, with the
//! total) and the work on posts (tags, sentiment edits, ignored authors, bulk delete and undo).
//!
//! Search uses the full-text index (SQLite FTS5 `posts_fts`; on PostgreSQL the stored `posts.fts`
//! tsvector and its GIN index) over text, title, author names and location.
//!
//! A page without a search or tags is selected in the tracker's in-memory table (the posts page's
//! keys of every post, kept beside the trending topics' columns and exact by the same day
//! versions): the range's posts that pass the filters are kept among twice as many as the page
//! needs, in the plain query's order ([`memory`]). In an order whose key is kept on the link
//! (engagement, reach, engagement rate, impressions, sentiment, user, text), a common search word
//! or influencer tags are answered there too: the table gives the candidates in order, a piece
//! at a time, and the database tests each piece's links. So no index of the links is kept per
//! sort key: each would cost every write (migration 0034 dropped them).
//!
//! The page's SQL strategies, for what the table does not answer ([`list`] picks one):
//! - date order reads the (tracker, time) index;
//! - engagement, reach, engagement rate, impressions, sentiment, user and text sort the matching
//!   links (post tags, a rare search, a tracker not read into memory yet or too large to keep);
//! - engagement pages from the 1,000th post on, with no filter but the platforms, skip to the
//!   page in the dashboard's engagement index, one statement ([`top_k`]);
//! - likes, comments, shares and views read the window's hours in the order of their per-hour
//!   bound of the key (`rollup_hourly.max_<key>` / `min_<key>`), a few hours at a time, until no
//!   hour left can hold a post of the page (the page's last key strictly beats the next hour's
//!   bound) ([`top_k`]);
//! - post tags and rare searches are driven from the tagged posts / the search's matches
//!   ([`plan`] tells a rare word from a common one);
//! - the total comes from the hourly rollups when only platforms, the range and one of
//!   sentiment, retweets, stories or subtracker filter; otherwise it is counted, exactly for tags
//!   and rare searches, and up to a cap (flagged) for the rest ([`total`]).
//!
//! Where one strategy gives way to another is set by [`PostListTuning`], a value of the store.
//! The media wall reads the links of posts with media from partial indexes of its own ([`wall`]).
//!
//! Every fast strategy must give the page the plain query gives (every matching post sorted):
//! the store tests compare them on both databases.

mod actions;
mod delete;
mod list;
mod lookup;
mod memory;
mod plan;
mod query;
mod sqlite_read;
mod top_k;
mod total;
mod tuning;
mod wall;

pub use actions::SentimentEdit;
pub use list::PostRow;
pub use lookup::PostCountFilter;
pub(crate) use query::pg_document;
pub use query::{PostQuery, PostSort};
pub use total::PostTotal;
pub use tuning::PostListTuning;
pub use wall::{visibility as wall_visibility, WallQuery, WallRow};
