//! Ingest: what happens to a post between its source and the store. Enrichment computed once
//! per post, the import formats (NDJSON of posts or X API v2 responses, CSV), the demo traffic
//! generator and the `hark analyze` line analyser.

pub mod analyze;
pub mod demo;
pub mod demo_tracker;
pub mod enrich;
pub mod import;
pub mod keywords;
pub mod log;
pub mod pipeline;
pub mod reanalysis;
pub mod sentiment_model;

pub use enrich::{enrich, Enrichment};
