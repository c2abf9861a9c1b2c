//! Collection jobs: what a job does and where it stands (stored by name in `collection_jobs`).

use serde::Serialize;

use crate::{Code, Invalid};

/// What a collection job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// Collects a tracker's new posts from one connector, again and again.
    Poll,
    /// Collects the posts of a past period once, page after page.
    Backfill,
}

/// Where a collection job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Runs when due.
    Active,
    /// A backfill that read its whole period.
    Done,
    /// Gave up after too many failed attempts.
    Failed,
}

macro_rules! named {
    ($ty:ident { $($v:ident => $s:literal),+ $(,)? }) => {
        impl $ty {
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$v => $s,)+
                }
            }

            pub fn parse(name: &str) -> Option<Self> {
                match name {
                    $($s => Some(Self::$v),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// A value equals its stored name (`kind == "poll"`).
        impl PartialEq<&str> for $ty {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        /// Read from a stored name (a row of `collection_jobs`).
        impl TryFrom<String> for $ty {
            type Error = Invalid;

            fn try_from(name: String) -> Result<Self, Invalid> {
                Self::parse(&name).ok_or_else(|| Invalid::new(Code::InvalidChoice, format!("Unknown {} '{name}'.", stringify!($ty))))
            }
        }
    };
}

named!(JobKind { Poll => "poll", Backfill => "backfill" });
named!(JobState { Active => "active", Done => "done", Failed => "failed" });

/// What an export job makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportKind {
    /// One workbook: a sheet per dashboard panel and the posts.
    Xlsx,
    /// The designed report.
    Pdf,
    /// A Google Sheets spreadsheet.
    Sheets,
}

/// Where an export job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportState {
    /// Waiting for a worker, or its worker stopped and its lease ran out.
    Pending,
    /// A worker holds its lease and writes the file.
    Running,
    /// The file is there until the job expires.
    Ready,
    /// Gave up; `error` says why.
    Failed,
}

named!(ExportKind { Xlsx => "xlsx", Pdf => "pdf", Sheets => "sheets" });
named!(ExportState { Pending => "pending", Running => "running", Ready => "ready", Failed => "failed" });

impl ExportKind {
    /// The name users see in notices: 'We were unable to generate the XLS.'
    pub const fn label(self) -> &'static str {
        match self {
            Self::Xlsx => "XLS",
            Self::Pdf => "PDF",
            Self::Sheets => "spreadsheet",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in [JobKind::Poll, JobKind::Backfill] {
            assert_eq!(JobKind::parse(k.as_str()), Some(k));
        }
        for s in [JobState::Active, JobState::Done, JobState::Failed] {
            assert_eq!(JobState::try_from(s.to_string()).unwrap(), s);
        }
        assert!(JobKind::try_from("sometimes".to_string()).is_err());
    }
}
