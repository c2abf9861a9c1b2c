use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::{limits::TITLE_PREFIX, Invalid};
use crate::Code;

const HASH_LEN: usize = 8;
const HASH_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// The public identifier of a tracker in URLs: 8 characters of an unambiguous alphabet.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrackerHash(String);

impl TrackerHash {
    pub fn generate() -> Self {
        let mut rng = rand::thread_rng();
        Self(
            (0..HASH_LEN)
                .map(|_| HASH_ALPHABET[rng.gen_range(0..HASH_ALPHABET.len())] as char)
                .collect(),
        )
    }

    pub fn parse(s: &str) -> Result<Self, Invalid> {
        let ok = (4..=32).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric());
        if ok {
            Ok(Self(s.to_string()))
        } else {
            Err(Invalid::new(Code::TrackerNotFound, "No tracker has this address."))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for TrackerHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The URL slug of a tracker: lowercase ASCII letters, digits and single dashes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Friendly(String);

impl Friendly {
    /// Builds a slug from any text; diacritics and symbols fold away, an empty result becomes
    /// `tracker`.
    pub fn from_text(text: &str) -> Self {
        use unicode_normalization::UnicodeNormalization;
        let mut out = String::new();
        let mut dash = false;
        for c in text.nfkd() {
            if c.is_ascii_alphanumeric() {
                if dash && !out.is_empty() {
                    out.push('-');
                }
                dash = false;
                out.push(c.to_ascii_lowercase());
            } else if c.is_alphanumeric() || c.is_whitespace() || c.is_ascii_punctuation() {
                dash = true;
            }
            if out.len() >= 48 {
                break;
            }
        }
        if out.is_empty() {
            out.push_str("tracker");
        }
        Self(out)
    }

    /// The slug with a numeric suffix, used when the plain slug is taken.
    pub fn with_suffix(&self, n: u32) -> Self {
        Self(format!("{}-{n}", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrackerStatus {
    Running,
    Paused,
}

impl TrackerStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Paused => "paused",
        }
    }

    pub fn parse(s: &str) -> Self {
        if s == "paused" {
            Self::Paused
        } else {
            Self::Running
        }
    }
}

/// The default title: 'Real-time Tracker: ' plus the first term.
pub fn default_title(first_term: &str) -> String {
    format!("{TITLE_PREFIX}{first_term}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_generated_valid_and_distinct() {
        let a = TrackerHash::generate();
        let b = TrackerHash::generate();
        assert_ne!(a, b);
        assert_eq!(TrackerHash::parse(a.as_str()).unwrap(), a);
        assert!(TrackerHash::parse("../etc").is_err());
        assert!(TrackerHash::parse("").is_err());
    }

    #[test]
    fn friendly_slugs_fold_text() {
        assert_eq!(Friendly::from_text("Real-time Tracker: #Nike Air").as_str(), "real-time-tracker-nike-air");
        assert_eq!(Friendly::from_text("São Paulo").as_str(), "sao-paulo");
        assert_eq!(Friendly::from_text("🔥🔥").as_str(), "tracker");
        assert_eq!(Friendly::from_text("x").with_suffix(2).as_str(), "x-2");
    }

    #[test]
    fn default_title_uses_prefix() {
        assert_eq!(default_title("#nike"), "Real-time Tracker: #nike");
    }
}
