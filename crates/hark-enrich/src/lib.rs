//! Enrichment of collected posts, as pure functions on strings and numbers: sentiment,
//! language, country and gender. Every data table is compiled in (from the crates named in
//! Cargo.toml); nothing here reads files or the network at run time.

pub mod sentiment;
