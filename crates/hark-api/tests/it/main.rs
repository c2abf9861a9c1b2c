//! The crate's integration tests, one binary: each module was its own test file.

mod admin_api;
mod answers_api;
mod api;
mod authz;
mod collection;
mod exports_api;
mod hardening_api;
mod influencers_api;
mod media_wall_api;
mod notifications_api;
mod posts_api;
mod preview;
mod sharing_api;
mod sheets_api;
mod team_api;
mod topics_api;
