use serde::{Deserialize, Serialize};

use crate::{limits::TAG_NAME_MAX, Invalid};
use crate::Code;

/// A tag name: non-blank after trimming and at most 45 characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TagName(String);

impl TagName {
    pub fn parse(s: &str) -> Result<Self, Invalid> {
        let t = s.trim();
        if t.is_empty() {
            return Err(Invalid::new(Code::TagNameRequired, "Tag name is required."));
        }
        if t.chars().count() > TAG_NAME_MAX {
            return Err(Invalid::new(
                Code::TagNameTooLong,
                format!("Tag name must be at most {TAG_NAME_MAX} characters."),
            ));
        }
        Ok(Self(t.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The nine palette colours; Tomato is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TagColor {
    #[default]
    Tomato,
    Flamingo,
    Orange,
    Banana,
    Forest,
    Peacock,
    Blueberry,
    Grape,
    Graphite,
}

impl TagColor {
    pub const ALL: [TagColor; 9] = [
        Self::Tomato,
        Self::Flamingo,
        Self::Orange,
        Self::Banana,
        Self::Forest,
        Self::Peacock,
        Self::Blueberry,
        Self::Grape,
        Self::Graphite,
    ];

    pub fn hex(self) -> &'static str {
        match self {
            Self::Tomato => "#c0392b",
            Self::Flamingo => "#E67C73",
            Self::Orange => "#F57336",
            Self::Banana => "#FFB733",
            Self::Forest => "#047878",
            Self::Peacock => "#2980b9",
            Self::Blueberry => "#3F51B5",
            Self::Grape => "#800080",
            Self::Graphite => "#616161",
        }
    }

    /// Accepts a palette name or its hex value (case-insensitive).
    pub fn parse(s: &str) -> Result<Self, Invalid> {
        let s = s.trim();
        Self::ALL
            .into_iter()
            .find(|c| c.hex().eq_ignore_ascii_case(s) || format!("{c:?}").eq_ignore_ascii_case(s))
            .ok_or_else(|| Invalid::new(Code::InvalidTagColor, "Tag colour must be one of the palette colours."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(TagName::parse("  urgent ").unwrap().as_str(), "urgent");
        assert_eq!(TagName::parse("   ").unwrap_err().code, "tag_name_required");
        assert!(TagName::parse(&"a".repeat(45)).is_ok());
        assert_eq!(TagName::parse(&"a".repeat(46)).unwrap_err().code, "tag_name_too_long");
    }

    #[test]
    fn colours_parse_by_name_or_hex() {
        assert_eq!(TagColor::default(), TagColor::Tomato);
        assert_eq!(TagColor::parse("#C0392B").unwrap(), TagColor::Tomato);
        assert_eq!(TagColor::parse("grape").unwrap(), TagColor::Grape);
        assert!(TagColor::parse("#000000").is_err());
    }
}
