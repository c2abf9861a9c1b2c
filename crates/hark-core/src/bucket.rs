//! The spec's five sentiment buckets, one type from the enrichment that scores a post to the
//! store's rollup columns and the API's names.

use serde::{Deserialize, Serialize};

/// The spec's five sentiment levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bucket {
    Negative,
    SlightNegative,
    Neutral,
    SlightPositive,
    Positive,
}

impl Bucket {
    pub const ALL: [Bucket; 5] = [
        Bucket::Negative,
        Bucket::SlightNegative,
        Bucket::Neutral,
        Bucket::SlightPositive,
        Bucket::Positive,
    ];

    /// The wire name: `negative`, `slight_negative`, `neutral`, `slight_positive`, `positive`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Bucket::Negative => "negative",
            Bucket::SlightNegative => "slight_negative",
            Bucket::Neutral => "neutral",
            Bucket::SlightPositive => "slight_positive",
            Bucket::Positive => "positive",
        }
    }

    pub fn parse(name: &str) -> Option<Bucket> {
        Bucket::ALL.into_iter().find(|b| b.as_str() == name)
    }
}

impl std::fmt::Display for Bucket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
