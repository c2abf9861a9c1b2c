//! Hark's domain: the values that must be valid, the tracker search model and, later, the matcher
//! and enrichment. No I/O lives here.

pub mod bucket;
pub mod code;
pub mod criteria;
pub mod forecast;
pub mod gender;
pub mod job;
pub mod limits;
pub mod notify;
pub mod permission;
pub mod plans;
pub mod platform;
pub mod search;
pub mod spike;
pub mod tag;
pub mod tracker;

pub mod device;
pub mod engagement;
pub mod entities;
pub mod matcher;
pub mod post;
pub mod post_type;
pub mod query;
pub mod text;

pub use bucket::Bucket;
pub use code::Code;
pub use gender::Gender;
pub use job::{ExportKind, ExportState, JobKind, JobState};
pub use criteria::{AccountLimits, AccountLists, CriteriaInput, TrackerCriteria};
pub use permission::Permission;
pub use platform::{Platform, PlatformSet};
pub use search::{SearchError, SearchInput, SearchRow, SearchRowKind, TrackerSearch};
pub use tag::{TagColor, TagName};
pub use tracker::{Friendly, TrackerHash, TrackerStatus};

pub use matcher::{MatchScratch, MatchSet, TrackerMatch};
pub use post::{Post, PostKey};
pub use post_type::PostType;

/// Milliseconds since the Unix epoch; every stored instant uses it.
pub type Millis = i64;

pub fn now_millis() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A value that failed to parse: a stable code and a message fit to show a user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub code: Code,
    pub message: String,
}

impl Invalid {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
}
