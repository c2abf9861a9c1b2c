//! The crate's integration tests, one binary: each module was its own test file.

mod import;
mod log;
mod pipeline;
