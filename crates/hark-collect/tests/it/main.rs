//! The crate's integration tests, one binary: each module was its own test file.

mod common;
mod bluesky;
mod discourse;
mod hackernews;
mod mastodon;
mod meta;
mod reddit;
mod rss;
mod tiktok;
mod twitter;
mod twitter_stream;
mod youtube;
