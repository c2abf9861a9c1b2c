//! The connectors Hark has, what each needs to work, and their saved configuration.

use std::collections::BTreeMap;

use hark_core::{Platform, PlatformSet};
use serde::Serialize;

use crate::CollectError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConnectorKind {
    Twitter,
    Rss,
    #[serde(rename = "hackernews")]
    HackerNews,
    Reddit,
    Discourse,
    Youtube,
    Instagram,
    Facebook,
    Tiktok,
    Bluesky,
    Mastodon,
}

/// One setting a connector asks for.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    pub name: &'static str,
    pub label: &'static str,
    /// Never sent back once saved; the settings page shows only whether it is set.
    pub secret: bool,
    pub required: bool,
    /// Several values, one a line.
    pub multiline: bool,
    pub help: &'static str,
    /// A choice among these `(value, label)` pairs (the first is the default); empty: free text.
    pub options: &'static [(&'static str, &'static str)],
}

const fn field(name: &'static str, label: &'static str, secret: bool, required: bool, help: &'static str) -> Field {
    Field { name, label, secret, required, multiline: false, help, options: &[] }
}

/// How the X connector collects: `recent` (polling recent search) or `stream` (filtered stream).
pub const TWITTER_MODES: &[(&str, &str)] = &[("recent", "Recent search (polling)"), ("stream", "Filtered stream")];

impl ConnectorKind {
    pub const ALL: [ConnectorKind; 11] = [
        Self::Twitter,
        Self::Rss,
        Self::HackerNews,
        Self::Reddit,
        Self::Discourse,
        Self::Youtube,
        Self::Instagram,
        Self::Facebook,
        Self::Tiktok,
        Self::Bluesky,
        Self::Mastodon,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Twitter => "twitter",
            Self::Rss => "rss",
            Self::HackerNews => "hackernews",
            Self::Reddit => "reddit",
            Self::Discourse => "discourse",
            Self::Youtube => "youtube",
            Self::Instagram => "instagram",
            Self::Facebook => "facebook",
            Self::Tiktok => "tiktok",
            Self::Bluesky => "bluesky",
            Self::Mastodon => "mastodon",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Twitter => "X (Twitter) API v2",
            Self::Rss => "News and blog feeds (RSS/Atom)",
            Self::HackerNews => "Hacker News (Algolia search)",
            Self::Reddit => "Reddit search",
            Self::Discourse => "Discourse forums",
            Self::Youtube => "YouTube Data API",
            Self::Instagram => "Instagram hashtag search",
            Self::Facebook => "Facebook Pages",
            Self::Tiktok => "TikTok Research API",
            Self::Bluesky => "Bluesky (Jetstream)",
            Self::Mastodon => "Mastodon hashtag timelines",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Self::Twitter => "Polls the X API v2 recent search (last 7 days) for each tracker's terms, or reads the filtered stream with one rule per tracker.",
            Self::Rss => "Reads the shared feed list and the feed URLs listed on each tracker, with conditional GET.",
            Self::HackerNews => "Searches stories and comments by date; no key needed.",
            Self::Reddit => "Searches new posts across Reddit with an app's client credentials (OAuth).",
            Self::Discourse => "Reads the latest topics of the listed Discourse forums.",
            Self::Youtube => "Searches new videos (100 quota units a page) and reads their views, likes and comments.",
            Self::Instagram => "Reads the last 24 hours of media for each tracker hashtag (30 unique hashtags a week).",
            Self::Facebook => "Reads the posts of the pages listed in each tracker's Facebook accounts.",
            Self::Tiktok => "Queries videos by keyword and hashtag (research data arrives a day or two late).",
            Self::Bluesky => "Reads every new Bluesky post from a Jetstream firehose and keeps those that match a running tracker; no key needed.",
            Self::Mastodon => "Reads the public timeline of each tracker hashtag on the listed servers; no key needed.",
        }
    }

    /// The platforms its posts belong to.
    pub fn platforms(self) -> &'static [Platform] {
        match self {
            Self::Twitter => &[Platform::Twitter],
            Self::Rss => &[Platform::News, Platform::Blogs],
            Self::HackerNews | Self::Reddit | Self::Discourse => &[Platform::Forums],
            Self::Youtube => &[Platform::Youtube],
            Self::Instagram => &[Platform::Instagram],
            Self::Facebook => &[Platform::Facebook],
            Self::Tiktok => &[Platform::Tiktok],
            Self::Bluesky => &[Platform::Bluesky],
            Self::Mastodon => &[Platform::Mastodon],
        }
    }

    pub fn platform_bits(self) -> i64 {
        let mut s = PlatformSet::default();
        for p in self.platforms() {
            s.insert(*p);
        }
        s.bits()
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::Twitter => "https://api.x.com",
            Self::Rss => "",
            Self::HackerNews => "https://hn.algolia.com",
            Self::Reddit => "https://oauth.reddit.com",
            Self::Discourse => "",
            Self::Youtube => "https://www.googleapis.com",
            Self::Instagram | Self::Facebook => "https://graph.facebook.com",
            Self::Tiktok => "https://open.tiktokapis.com",
            Self::Bluesky => "wss://jetstream2.us-east.bsky.network",
            Self::Mastodon => "",
        }
    }

    pub fn fields(self) -> Vec<Field> {
        match self {
            Self::Twitter => vec![
                field("bearer_token", "Bearer token", true, true, "App-only bearer token from the X developer portal."),
                Field {
                    options: TWITTER_MODES,
                    ..field("mode", "Collection", false, false, "Recent search polls every few minutes; the filtered stream delivers posts as they are made (needs an access level with filtered stream).")
                },
            ],
            Self::Rss => vec![Field {
                multiline: true,
                ..field("feeds", "Shared feeds", false, true, "One feed URL a line; start a line with 'blogs ' for a blog feed (news otherwise).")
            }],
            Self::HackerNews => vec![],
            Self::Reddit => vec![
                field("client_id", "Client id", false, true, "From reddit.com/prefs/apps (a 'script' or 'web' app)."),
                field("client_secret", "Client secret", true, true, ""),
                field("token_url", "Token URL", false, false, "Defaults to https://www.reddit.com/api/v1/access_token."),
            ],
            Self::Discourse => vec![
                Field {
                    multiline: true,
                    ..field("forums", "Forums", false, true, "One forum base URL a line, e.g. https://meta.discourse.org")
                },
                field("api_key", "API key", true, false, "Only for private forums."),
                field("api_username", "API username", false, false, ""),
            ],
            Self::Youtube => vec![
                field("api_key", "API key", true, true, "A Google Cloud API key with the YouTube Data API v3 enabled."),
                field("daily_quota", "Daily quota (units)", false, false, "Defaults to 10000, the standard quota; resets at midnight Pacific time."),
            ],
            Self::Instagram => vec![
                field("access_token", "Access token", true, true, "A user access token with instagram_basic and Instagram Public Content Access."),
                field("ig_user_id", "Instagram business account id", false, true, "The account the hashtag searches are made for."),
                field("api_version", "Graph API version", false, false, "Defaults to v21.0."),
            ],
            Self::Facebook => vec![
                field("access_token", "Access token", true, true, "A page or app access token that can read the pages' public posts."),
                field("api_version", "Graph API version", false, false, "Defaults to v21.0."),
            ],
            Self::Tiktok => vec![
                field("client_key", "Client key", false, true, "Of an app approved for the Research API."),
                field("client_secret", "Client secret", true, true, ""),
            ],
            Self::Bluesky => vec![],
            Self::Mastodon => vec![
                Field {
                    multiline: true,
                    ..field("servers", "Servers", false, true, "One server a line, e.g. https://mastodon.social. Trackers may add servers in their Mastodon list.")
                },
                field("access_token", "Access token", true, false, "Only for servers that do not show public timelines without one."),
            ],
        }
    }

    /// Whether the connector asks for a base URL (forum and feed lists carry their own).
    pub fn has_base_url(self) -> bool {
        !self.default_base_url().is_empty()
    }

    /// URL schemes its base URL may have.
    pub fn base_url_schemes(self) -> &'static [&'static str] {
        match self {
            Self::Bluesky => &["ws://", "wss://"],
            _ => &["http://", "https://"],
        }
    }

    /// Whether the connector, so configured, reads one stream for every tracker (leased per
    /// connector) instead of polling per tracker.
    pub fn is_stream(self, config: &ConnectorConfig) -> bool {
        match self {
            Self::Bluesky => true,
            Self::Twitter => config.value("mode") == Some("stream"),
            _ => false,
        }
    }
}

/// A connector's saved settings.
#[derive(Debug, Clone, Default)]
pub struct ConnectorConfig {
    pub base_url: Option<String>,
    pub values: BTreeMap<String, String>,
}

impl ConnectorConfig {
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// The configured base URL or the platform's, without a trailing slash.
    pub fn base(&self, kind: ConnectorKind) -> String {
        self.base_url.as_deref().unwrap_or(kind.default_base_url()).trim().trim_end_matches('/').to_string()
    }

    /// Non-blank lines of a multi-line field.
    pub fn lines(&self, name: &str) -> Vec<String> {
        self.value(name)
            .map(|v| v.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// Fails with the missing required fields.
    pub fn require(&self, kind: ConnectorKind) -> Result<(), CollectError> {
        let fields = kind.fields();
        let missing: Vec<&str> = fields.iter().filter(|f| f.required && self.value(f.name).is_none()).map(|f| f.label).collect();
        if !missing.is_empty() {
            return Err(CollectError::NotConfigured(format!("missing {}", missing.join(", "))));
        }
        for f in fields.iter().filter(|f| !f.options.is_empty()) {
            if let Some(v) = self.value(f.name) {
                if !f.options.iter().any(|(o, _)| *o == v) {
                    let allowed: Vec<&str> = f.options.iter().map(|(o, _)| *o).collect();
                    return Err(CollectError::NotConfigured(format!("{} must be one of {}", f.label, allowed.join(", "))));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_required_fields_are_checked() {
        for k in ConnectorKind::ALL {
            assert_eq!(ConnectorKind::parse(k.name()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        let mut c = ConnectorConfig::default();
        assert!(matches!(c.require(ConnectorKind::Twitter), Err(CollectError::NotConfigured(m)) if m.contains("Bearer")));
        assert!(c.require(ConnectorKind::HackerNews).is_ok());
        c.values.insert("bearer_token".into(), "  ".into());
        assert!(c.require(ConnectorKind::Twitter).is_err());
        c.values.insert("bearer_token".into(), "t".into());
        assert!(c.require(ConnectorKind::Twitter).is_ok());
        assert_eq!(c.base(ConnectorKind::Twitter), "https://api.x.com");
        c.base_url = Some("http://127.0.0.1:9/".into());
        assert_eq!(c.base(ConnectorKind::Twitter), "http://127.0.0.1:9");
        assert!(!ConnectorKind::Twitter.is_stream(&c));
        c.values.insert("mode".into(), "stream".into());
        assert!(ConnectorKind::Twitter.is_stream(&c) && c.require(ConnectorKind::Twitter).is_ok());
        c.values.insert("mode".into(), "firehose".into());
        assert!(matches!(c.require(ConnectorKind::Twitter), Err(CollectError::NotConfigured(m)) if m.contains("recent, stream")));
        assert!(ConnectorKind::Bluesky.is_stream(&ConnectorConfig::default()));
        assert!(ConnectorConfig::default().require(ConnectorKind::Mastodon).is_err());
        assert_eq!(ConnectorKind::Rss.platform_bits(), {
            let mut s = PlatformSet::default();
            s.insert(Platform::News);
            s.insert(Platform::Blogs);
            s.bits()
        });
    }
}
