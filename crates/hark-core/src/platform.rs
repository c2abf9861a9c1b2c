use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

use crate::Invalid;
use crate::Code;

/// A source of posts. The short code is the one the spec and the URL use (`twt`, `ig`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Platform {
    Twitter,
    Instagram,
    Youtube,
    Facebook,
    Tiktok,
    News,
    Blogs,
    Forums,
    Bluesky,
    Mastodon,
}

impl Platform {
    pub const ALL: [Platform; 10] = [
        Platform::Twitter,
        Platform::Instagram,
        Platform::Youtube,
        Platform::Facebook,
        Platform::Tiktok,
        Platform::News,
        Platform::Blogs,
        Platform::Forums,
        Platform::Bluesky,
        Platform::Mastodon,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Self::Twitter => "twt",
            Self::Instagram => "ig",
            Self::Youtube => "yt",
            Self::Facebook => "fb",
            Self::Tiktok => "tt",
            Self::News => "news",
            Self::Blogs => "blogs",
            Self::Forums => "forums",
            Self::Bluesky => "bsky",
            Self::Mastodon => "mastodon",
        }
    }

    /// The long name used in post keys (`twitter;123`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Twitter => "twitter",
            Self::Instagram => "instagram",
            Self::Youtube => "youtube",
            Self::Facebook => "facebook",
            Self::Tiktok => "tiktok",
            Self::News => "news",
            Self::Blogs => "blogs",
            Self::Forums => "forums",
            Self::Bluesky => "bluesky",
            Self::Mastodon => "mastodon",
        }
    }

    /// The name people read (reports and exports).
    pub fn label(self) -> &'static str {
        match self {
            Self::Twitter => "X (Twitter)",
            Self::Instagram => "Instagram",
            Self::Youtube => "YouTube",
            Self::Facebook => "Facebook",
            Self::Tiktok => "TikTok",
            Self::News => "News",
            Self::Blogs => "Blogs",
            Self::Forums => "Forums",
            Self::Bluesky => "Bluesky",
            Self::Mastodon => "Mastodon",
        }
    }

    /// Accepts either the short code or the long name.
    pub fn parse(s: &str) -> Result<Self, Invalid> {
        let s = s.trim();
        Self::ALL
            .into_iter()
            .find(|p| p.code().eq_ignore_ascii_case(s) || p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| Invalid::new(Code::InvalidPlatform, format!("Unknown platform '{s}'.")))
    }

    fn bit(self) -> u16 {
        1 << (self as u8)
    }

    /// Platforms that can carry a location (the dashboard asks for geography only with one on).
    pub fn bears_location(self) -> bool {
        !matches!(self, Self::Youtube | Self::Tiktok | Self::Bluesky | Self::Mastodon)
    }

    pub fn is_web(self) -> bool {
        matches!(self, Self::News | Self::Blogs | Self::Forums)
    }

    /// The public profile page of an account, from its username (or, for YouTube, its channel
    /// id). None for web sources, and for names with characters no platform allows in one (so
    /// nothing user-made lands in the address unescaped).
    pub fn profile_url(self, username: &str, account_id: &str) -> Option<String> {
        let safe = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        match self {
            Self::Youtube if account_id.starts_with("UC") && safe(account_id) => {
                Some(format!("https://www.youtube.com/channel/{account_id}"))
            }
            Self::Mastodon => {
                let (user, host) = username.split_once('@')?;
                (safe(user) && safe(host)).then(|| format!("https://{host}/@{user}"))
            }
            _ if !safe(username) => None,
            Self::Twitter => Some(format!("https://x.com/{username}")),
            Self::Instagram => Some(format!("https://www.instagram.com/{username}/")),
            Self::Youtube => Some(format!("https://www.youtube.com/@{username}")),
            Self::Facebook => Some(format!("https://www.facebook.com/{username}")),
            Self::Tiktok => Some(format!("https://www.tiktok.com/@{username}")),
            Self::Bluesky => Some(format!("https://bsky.app/profile/{username}")),
            Self::News | Self::Blogs | Self::Forums => None,
        }
    }
}

/// A set of platforms, stored as a small bitmask and shown to clients as `{twt: 0|1, ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct PlatformSet(u16);

impl PlatformSet {
    pub const fn empty() -> Self {
        Self(0)
    }

    pub fn all() -> Self {
        Platform::ALL.into_iter().collect()
    }

    pub fn from_bits(bits: i64) -> Self {
        Self((bits & 0xffff) as u16)
    }

    pub fn bits(self) -> i64 {
        self.0 as i64
    }

    pub fn contains(self, p: Platform) -> bool {
        self.0 & p.bit() != 0
    }

    pub fn insert(&mut self, p: Platform) {
        self.0 |= p.bit();
    }

    pub fn remove(&mut self, p: Platform) {
        self.0 &= !p.bit();
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn intersect(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    pub fn iter(self) -> impl Iterator<Item = Platform> {
        Platform::ALL.into_iter().filter(move |p| self.contains(*p))
    }

    /// Parses a comma-separated list of codes or names (`twt,ig`).
    pub fn parse_list(s: &str) -> Result<Self, Invalid> {
        let mut set = Self::empty();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            set.insert(Platform::parse(part)?);
        }
        Ok(set)
    }

    pub fn to_map(self) -> BTreeMap<&'static str, u8> {
        Platform::ALL.into_iter().map(|p| (p.code(), self.contains(p) as u8)).collect()
    }
}

impl FromIterator<Platform> for PlatformSet {
    fn from_iter<I: IntoIterator<Item = Platform>>(iter: I) -> Self {
        let mut s = Self::empty();
        for p in iter {
            s.insert(p);
        }
        s
    }
}

impl Serialize for PlatformSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for PlatformSet {
    /// Accepts `{twt: 1, ig: 0}` (values 0/1 or booleans); unknown keys are an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, serde_json::Value>::deserialize(d)?;
        let mut set = Self::empty();
        for (k, v) in map {
            let p = Platform::parse(&k).map_err(serde::de::Error::custom)?;
            let on = match v {
                serde_json::Value::Bool(b) => b,
                serde_json::Value::Number(n) => n.as_i64() == Some(1),
                serde_json::Value::String(s) => s == "1" || s == "on" || s == "true",
                serde_json::Value::Null => false,
                _ => return Err(serde::de::Error::custom(format!("platform '{k}' must be 0 or 1"))),
            };
            if on {
                set.insert(p);
            }
        }
        Ok(set)
    }
}

/// The stored name (`name`).
impl std::fmt::Display for Platform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for p in Platform::ALL {
            assert_eq!(Platform::parse(p.code()).unwrap(), p);
            assert_eq!(Platform::parse(p.name()).unwrap(), p);
        }
        assert!(Platform::parse("myspace").is_err());
    }

    #[test]
    fn set_serializes_as_flag_map() {
        let set: PlatformSet = [Platform::Twitter, Platform::News].into_iter().collect();
        let json = serde_json::to_value(set).unwrap();
        assert_eq!(json["twt"], 1);
        assert_eq!(json["ig"], 0);
        assert_eq!(json["news"], 1);
        let back: PlatformSet = serde_json::from_value(json).unwrap();
        assert_eq!(back, set);
        assert_eq!(PlatformSet::from_bits(set.bits()), set);
    }

    #[test]
    fn set_rejects_unknown_codes() {
        let r: Result<PlatformSet, _> = serde_json::from_str(r#"{"zz":1}"#);
        assert!(r.is_err());
        assert_eq!(PlatformSet::parse_list("twt, ig").unwrap().len(), 2);
    }

    #[test]
    fn profile_links_only_for_safe_names() {
        assert_eq!(Platform::Twitter.profile_url("hark_app", "1").as_deref(), Some("https://x.com/hark_app"));
        assert_eq!(Platform::Twitter.profile_url("a\"><script>", "1"), None);
        assert_eq!(Platform::Mastodon.profile_url("ann@mastodon.social", "").as_deref(), Some("https://mastodon.social/@ann"));
        assert_eq!(Platform::Youtube.profile_url("", "UCabc_123").as_deref(), Some("https://www.youtube.com/channel/UCabc_123"));
        assert_eq!(Platform::News.profile_url("bbc", ""), None);
    }
}
