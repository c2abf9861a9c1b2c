//! The crate's integration tests, one binary: each module was its own test file.

mod dashboard;
mod influencers;
mod posts;
mod posts_page;
mod store;
mod topics;
