//! One post model for every platform (posts document section 3) and its key `platform;id`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Invalid, Millis, Platform};
use crate::Code;

const ID_MAX: usize = 256;

/// The identity of a stored post: platform and external id, written `twitter;123`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PostKey {
    pub platform: Platform,
    pub id: String,
}

impl PostKey {
    pub fn new(platform: Platform, id: impl Into<String>) -> Result<Self, Invalid> {
        let id = id.into();
        let id_ok = !id.trim().is_empty()
            && id.chars().count() <= ID_MAX
            && !id.contains(';')
            && !id.chars().any(char::is_control);
        if id_ok {
            Ok(Self { platform, id })
        } else {
            Err(Invalid::new(Code::InvalidPostKey, "A post id must be 1 to 256 characters, without ';'."))
        }
    }

    /// Accepts `platform;id` where the platform is its name or short code.
    pub fn parse(s: &str) -> Result<Self, Invalid> {
        let (p, id) = s
            .split_once(';')
            .ok_or_else(|| Invalid::new(Code::InvalidPostKey, "A post key is written platform;id."))?;
        Self::new(Platform::parse(p)?, id)
    }
}

impl std::fmt::Display for PostKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{};{}", self.platform.name(), self.id)
    }
}

impl Serialize for PostKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PostKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// The key of a social post from its address: twitter/x `/status/{id}`, instagram `/p/`, `/reel/`
/// or `/stories/{user}/{id}`, youtube `watch?v=`, `youtu.be/` or `/shorts/`, tiktok `/video/{id}`,
/// facebook `/posts/{id}` or `story_fbid=`. None for other addresses (web posts are found by URL).
pub fn post_key_from_url(url: &str) -> Option<PostKey> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.trim_start_matches("www.").trim_start_matches("m.").to_ascii_lowercase();
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let param = |name: &str| {
        query.split('&').find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    };
    let after = |word: &str| segs.iter().position(|s| *s == word).and_then(|i| segs.get(i + 1)).map(|s| s.to_string());
    let (platform, id) = match host.as_str() {
        "twitter.com" | "x.com" | "mobile.twitter.com" => (Platform::Twitter, after("status")?),
        "instagram.com" => {
            let id = after("p").or_else(|| after("reel")).or_else(|| segs.get(2).filter(|_| segs.first() == Some(&"stories")).map(|s| s.to_string()))?;
            (Platform::Instagram, id)
        }
        "youtube.com" => (Platform::Youtube, param("v").or_else(|| after("shorts"))?),
        "youtu.be" => (Platform::Youtube, segs.first()?.to_string()),
        "tiktok.com" => (Platform::Tiktok, after("video")?),
        "facebook.com" => (Platform::Facebook, after("posts").or_else(|| param("story_fbid"))?),
        _ => return None,
    };
    PostKey::new(platform, id).ok()
}

/// Serde for [`Platform`] as its long name (the form used in post keys).
pub mod platform_name {
    use super::*;

    pub fn serialize<S: Serializer>(p: &Platform, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Platform, D::Error> {
        let s = String::deserialize(d)?;
        Platform::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Converts a platform timestamp to milliseconds. Facebook values are used as they are (they
/// arrive in milliseconds already). Otherwise the digit count decides: up to 10 digits are
/// seconds, 11 to 13 milliseconds, 14 to 16 microseconds, more nanoseconds. Negative values
/// become 0.
pub fn normalize_timestamp(v: i64, platform: Platform) -> Millis {
    if platform == Platform::Facebook {
        return v;
    }
    if v <= 0 {
        return 0;
    }
    match digits(v) {
        0..=10 => v.saturating_mul(1000),
        11..=13 => v,
        14..=16 => v / 1_000,
        _ => v / 1_000_000,
    }
}

fn digits(v: i64) -> u32 {
    v.checked_ilog10().map_or(1, |l| l + 1)
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Author {
    /// The platform's account id.
    pub id: String,
    /// Screen name without '@'.
    pub username: String,
    /// Display name.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub followers: Option<i64>,
    #[serde(skip_serializing_if = "is_false")]
    pub verified: bool,
    /// Free-text location from the profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bio: Option<String>,
}

/// Counts as the platform reports them; `None` when the platform does not report one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Counts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub likes: Option<i64>,
    /// Retweets on twitter (its shares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retweets: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replies: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comments: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub views: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dislikes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saves: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impressions: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clicks: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotes: Option<i64>,
    /// Instagram story insights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exits: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taps_forward: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taps_back: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MediaKind {
    Photo,
    Video,
    Gif,
    Carousel,
    Reel,
    Audio,
    Link,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Media {
    pub kind: MediaKind,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
    /// Video variants carry a bitrate (twitter picks an mp4 of at least 320000; a gif, 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bitrate: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PostFlags {
    #[serde(skip_serializing_if = "is_false")]
    pub is_retweet: bool,
    /// The original author's username when this is a retweet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retweet_of: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub is_quote: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quoted_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quoted_url: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub is_reply: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub is_story: bool,
}

/// A collected post, the same shape for every platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    #[serde(with = "platform_name")]
    pub platform: Platform,
    /// The platform's id of the post.
    pub id: String,
    #[serde(default)]
    pub author: Author,
    #[serde(default)]
    pub text: String,
    /// Headline of a web post (news, blogs, forums).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub created_at: Millis,
    /// Language the platform reports, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    #[serde(default)]
    pub counts: Counts,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub media: Vec<Media>,
    #[serde(default)]
    pub flags: PostFlags,
    /// The client that posted it (twitter's `source`), raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Latitude and longitude.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<(f64, f64)>,
    /// The platform payload, kept for fields not modelled here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<serde_json::Value>,
}

impl Post {
    /// A post with only the required fields set.
    pub fn new(platform: Platform, id: impl Into<String>, text: impl Into<String>, created_at: Millis) -> Self {
        Self {
            platform,
            id: id.into(),
            author: Author::default(),
            text: text.into(),
            title: None,
            url: None,
            created_at,
            lang: None,
            counts: Counts::default(),
            media: Vec::new(),
            flags: PostFlags::default(),
            source: None,
            coordinates: None,
            raw: None,
        }
    }

    pub fn key(&self) -> Result<PostKey, Invalid> {
        PostKey::new(self.platform, self.id.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trips() {
        let k = PostKey::parse("twitter;123").unwrap();
        assert_eq!(k.platform, Platform::Twitter);
        assert_eq!(k.to_string(), "twitter;123");
        assert_eq!(PostKey::parse("ig;C0de_x").unwrap().to_string(), "instagram;C0de_x");
        for bad in ["twitter", "twitter;", "myspace;1", "twitter;a;b", "twitter; ", "twitter;a\nb"] {
            assert!(PostKey::parse(bad).is_err(), "{bad}");
        }
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(json, "\"twitter;123\"");
        assert_eq!(serde_json::from_str::<PostKey>(&json).unwrap(), k);
    }

    #[test]
    fn keys_from_addresses() {
        let k = |u: &str| post_key_from_url(u).map(|k| k.to_string());
        assert_eq!(k("https://x.com/hark/status/123?s=20").as_deref(), Some("twitter;123"));
        assert_eq!(k("https://www.instagram.com/p/C0de_x/").as_deref(), Some("instagram;C0de_x"));
        assert_eq!(k("https://www.instagram.com/stories/someone/3141/").as_deref(), Some("instagram;3141"));
        assert_eq!(k("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1").as_deref(), Some("youtube;dQw4w9WgXcQ"));
        assert_eq!(k("https://youtu.be/dQw4w9WgXcQ").as_deref(), Some("youtube;dQw4w9WgXcQ"));
        assert_eq!(k("https://www.tiktok.com/@a/video/777").as_deref(), Some("tiktok;777"));
        assert_eq!(k("https://www.facebook.com/page/posts/42").as_deref(), Some("facebook;42"));
        assert_eq!(k("https://example.org/news/1"), None);
        assert_eq!(k("https://x.com/hark"), None);
    }

    #[test]
    fn timestamps_follow_digit_rule() {
        assert_eq!(normalize_timestamp(1_700_000_000, Platform::Twitter), 1_700_000_000_000);
        assert_eq!(normalize_timestamp(1_700_000_000_123, Platform::Instagram), 1_700_000_000_123);
        assert_eq!(normalize_timestamp(1_700_000_000_123_456, Platform::Tiktok), 1_700_000_000_123);
        assert_eq!(normalize_timestamp(1_700_000_000_123_456_789, Platform::News), 1_700_000_000_123);
        assert_eq!(normalize_timestamp(1_700_000_000, Platform::Facebook), 1_700_000_000);
        assert_eq!(normalize_timestamp(-5, Platform::Youtube), 0);
        assert_eq!(normalize_timestamp(0, Platform::Youtube), 0);
        assert_eq!(normalize_timestamp(7, Platform::Youtube), 7000);
    }

    #[test]
    fn post_serde_is_camel_case() {
        let mut p = Post::new(Platform::Twitter, "1", "hi", 5);
        p.flags.is_retweet = true;
        p.counts.likes = Some(3);
        p.author.avatar_url = Some("a".into());
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["platform"], "twitter");
        assert_eq!(v["createdAt"], 5);
        assert_eq!(v["flags"]["isRetweet"], true);
        assert_eq!(v["author"]["avatarUrl"], "a");
        let back: Post = serde_json::from_value(v).unwrap();
        assert_eq!(back, p);
        let minimal: Post = serde_json::from_str(r#"{"platform":"ig","id":"x","createdAt":1}"#).unwrap();
        assert_eq!(minimal.platform, Platform::Instagram);
        assert_eq!(p.key().unwrap().to_string(), "twitter;1");
    }
}
