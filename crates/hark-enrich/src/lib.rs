//! Enrichment of collected posts, as pure functions on strings and numbers: sentiment,
//! language, country and gender. Every data table is compiled in (from the crates named in
//! Cargo.toml) and built once per process on first use; nothing here reads files or the
//! network at run time, and no input makes these functions panic.

pub mod gender;
pub mod geo;
pub mod language;
pub mod sentiment;

pub use gender::Gender;
pub use sentiment::{Bucket, CustomKeywords, KeywordMatcher};
