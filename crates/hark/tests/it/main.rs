//! The crate's integration tests, one binary: each module was its own test file.

mod analyze_cli;
mod backup_cli;
mod faults;
mod import_cli;
mod nodes;
mod plans_file;
