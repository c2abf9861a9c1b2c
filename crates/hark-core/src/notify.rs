//! A tracker's alerts and periodic reports: what its owner chose (who hears, how often, which
//! events), validated as a whole, and the rules that turn the tracker's recent posts into alerts.
//!
//! The spec's alert settings (`frequency`, `email`, `sntmt_neg`, `spike_pred`, `threshold`,
//! `threshold_2` and the per-platform influencer thresholds) and report settings (`recipients`,
//! `update_frequency`, `send_email_no_updates`) map onto [`NotificationSettings`]; `spike_pred` is
//! the spike alert's switch and its thresholds are the spike detector's sensitivity and minimum
//! count ([`crate::spike`]).

use serde::{Deserialize, Serialize};

use crate::spike::{Sensitivity, SpikeSettings};
use crate::Millis;

/// Most addresses in one recipient list.
pub const MAX_RECIPIENTS: usize = 20;
/// Longest webhook address.
pub const MAX_URL_LEN: usize = 2000;
/// Highest threshold a field takes (followers, views...).
pub const MAX_THRESHOLD: u64 = 10_000_000_000;

/// How often alerts go out: each as it happens, or gathered into an hourly or daily digest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertFrequency {
    Off,
    #[default]
    Realtime,
    Hourly,
    Daily,
}

impl AlertFrequency {
    /// How long alerts wait to be sent together; none for realtime (and off).
    pub fn digest_ms(self) -> Option<Millis> {
        match self {
            AlertFrequency::Hourly => Some(3_600_000),
            AlertFrequency::Daily => Some(86_400_000),
            _ => None,
        }
    }
}

/// How often the periodic report goes out (the spec's `update_frequency`: d, m, else weekly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportFrequency {
    Daily,
    #[default]
    Weekly,
    Monthly,
}

impl ReportFrequency {
    pub fn word(self) -> &'static str {
        match self {
            ReportFrequency::Daily => "daily",
            ReportFrequency::Weekly => "weekly",
            ReportFrequency::Monthly => "monthly",
        }
    }
}

/// Influencer alerts: a new post by an account past any threshold set for its platform alerts.
/// 0 (or false) leaves a threshold off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InfluencerThresholds {
    pub twitter_followers: u64,
    pub twitter_retweets: u64,
    pub twitter_verified: bool,
    pub tiktok_followers: u64,
    pub tiktok_verified: bool,
    pub instagram_followers: u64,
    pub instagram_likes: u64,
    pub youtube_followers: u64,
    pub youtube_views: u64,
    pub facebook_fans: u64,
    pub facebook_likes: u64,
}

/// The figures of a post an influencer rule looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PostReach {
    pub followers: u64,
    pub shares: u64,
    pub likes: u64,
    pub views: u64,
    pub verified: bool,
}

impl InfluencerThresholds {
    pub fn any(&self) -> bool {
        *self != Self::default()
    }

    /// Why a post on `platform` (a platform's stored name: twitter, tiktok, instagram, youtube, facebook) passes a threshold, or
    /// `None`.
    pub fn reason(&self, platform: &str, p: &PostReach) -> Option<String> {
        let past = |limit: u64, value: u64| limit > 0 && value >= limit;
        let n = crate::notify::thousands;
        match platform {
            "twitter" if past(self.twitter_followers, p.followers) => Some(format!("{} followers", n(p.followers))),
            "twitter" if past(self.twitter_retweets, p.shares) => Some(format!("{} retweets", n(p.shares))),
            "twitter" if self.twitter_verified && p.verified => Some("verified account".into()),
            "tiktok" if past(self.tiktok_followers, p.followers) => Some(format!("{} followers", n(p.followers))),
            "tiktok" if self.tiktok_verified && p.verified => Some("verified account".into()),
            "instagram" if past(self.instagram_followers, p.followers) => Some(format!("{} followers", n(p.followers))),
            "instagram" if past(self.instagram_likes, p.likes) => Some(format!("{} likes", n(p.likes))),
            "youtube" if past(self.youtube_followers, p.followers) => Some(format!("{} subscribers", n(p.followers))),
            "youtube" if past(self.youtube_views, p.views) => Some(format!("{} views", n(p.views))),
            "facebook" if past(self.facebook_fans, p.followers) => Some(format!("{} fans", n(p.followers))),
            "facebook" if past(self.facebook_likes, p.likes) => Some(format!("{} likes", n(p.likes))),
            _ => None,
        }
    }

    /// The platforms with a threshold set.
    pub fn platforms(&self) -> Vec<&'static str> {
        let mut v = vec![];
        if self.twitter_followers > 0 || self.twitter_retweets > 0 || self.twitter_verified {
            v.push("twitter");
        }
        if self.tiktok_followers > 0 || self.tiktok_verified {
            v.push("tiktok");
        }
        if self.instagram_followers > 0 || self.instagram_likes > 0 {
            v.push("instagram");
        }
        if self.youtube_followers > 0 || self.youtube_views > 0 {
            v.push("youtube");
        }
        if self.facebook_fans > 0 || self.facebook_likes > 0 {
            v.push("facebook");
        }
        v
    }

    fn values(&self) -> [(&'static str, u64); 9] {
        [
            ("Twitter followers", self.twitter_followers),
            ("Twitter retweets", self.twitter_retweets),
            ("TikTok followers", self.tiktok_followers),
            ("Instagram followers", self.instagram_followers),
            ("Instagram likes", self.instagram_likes),
            ("YouTube subscribers", self.youtube_followers),
            ("YouTube views", self.youtube_views),
            ("Facebook fans", self.facebook_fans),
            ("Facebook likes", self.facebook_likes),
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlertSettings {
    pub frequency: AlertFrequency,
    pub recipients: Vec<String>,
    pub negative_sentiment: bool,
    pub spike: bool,
    pub spike_sensitivity: Sensitivity,
    pub spike_min_posts: u64,
    #[serde(default)]
    pub influencers: InfluencerThresholds,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportSettings {
    pub enabled: bool,
    pub frequency: ReportFrequency,
    pub recipients: Vec<String>,
    pub send_without_updates: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Destination {
    #[serde(default)]
    pub url: Option<String>,
}

/// Everything a tracker's owner sets on the notifications page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationSettings {
    pub alerts: AlertSettings,
    pub report: ReportSettings,
    #[serde(default)]
    pub webhook: Destination,
    #[serde(default)]
    pub slack: Destination,
}

impl NotificationSettings {
    /// A new tracker's settings (tracker-lifecycle spec, section 9: periodic updates weekly and
    /// enabled, notification frequency realtime, activity spike on), mailed to its owner.
    pub fn defaults(owner_email: &str) -> Self {
        let me = vec![owner_email.to_string()];
        let spike = SpikeSettings::default();
        NotificationSettings {
            alerts: AlertSettings {
                frequency: AlertFrequency::Realtime,
                recipients: me.clone(),
                negative_sentiment: false,
                spike: true,
                spike_sensitivity: spike.sensitivity,
                spike_min_posts: spike.min_count,
                influencers: InfluencerThresholds::default(),
            },
            report: ReportSettings { enabled: true, frequency: ReportFrequency::Weekly, recipients: me, send_without_updates: false },
            webhook: Destination::default(),
            slack: Destination::default(),
        }
    }

    /// The spike detector's settings.
    pub fn spike(&self) -> SpikeSettings {
        SpikeSettings { sensitivity: self.alerts.spike_sensitivity, min_count: self.alerts.spike_min_posts, ..SpikeSettings::default() }
    }

    /// Checks every field and tidies what may be tidied (addresses trimmed, lower-cased domains
    /// kept as typed, duplicates and blanks dropped, empty URLs as none).
    pub fn parse(mut self) -> Result<Self, crate::Invalid> {
        self.alerts.recipients = recipients("Alert recipients", &self.alerts.recipients)?;
        self.report.recipients = recipients("Report recipients", &self.report.recipients)?;
        if !(1..=1_000_000).contains(&self.alerts.spike_min_posts) {
            return Err(invalid("Spike alerts' minimum posts must be between 1 and 1,000,000."));
        }
        for (name, v) in self.alerts.influencers.values() {
            if v > MAX_THRESHOLD {
                return Err(invalid(format!("{name} must be at most {}.", thousands(MAX_THRESHOLD))));
            }
        }
        self.webhook.url = url("The webhook address", self.webhook.url.take())?;
        self.slack.url = url("The Slack webhook address", self.slack.url.take())?;
        Ok(self)
    }

    /// Removes an address from every list; true when it was in one.
    pub fn unsubscribe(&mut self, email: &str) -> bool {
        let before = self.alerts.recipients.len() + self.report.recipients.len();
        self.alerts.recipients.retain(|r| !r.eq_ignore_ascii_case(email));
        self.report.recipients.retain(|r| !r.eq_ignore_ascii_case(email));
        before != self.alerts.recipients.len() + self.report.recipients.len()
    }
}

fn invalid(message: impl Into<String>) -> crate::Invalid {
    crate::Invalid { code: crate::Code::ValidationFailed, message: message.into() }
}

/// A recipient list: each a plausible address (one @, a dotted domain, no spaces or angle
/// brackets), at most [`MAX_RECIPIENTS`], duplicates dropped.
fn recipients(field: &str, list: &[String]) -> Result<Vec<String>, crate::Invalid> {
    let mut out: Vec<String> = vec![];
    for raw in list {
        let a = raw.trim();
        if a.is_empty() {
            continue;
        }
        if !is_email(a) {
            return Err(crate::Invalid { code: crate::Code::InvalidEmail, message: format!("'{a}' is not an e-mail address.") });
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(a)) {
            out.push(a.to_string());
        }
    }
    if out.len() > MAX_RECIPIENTS {
        return Err(invalid(format!("{field}: at most {MAX_RECIPIENTS} addresses.")));
    }
    Ok(out)
}

/// A plain address: local@domain.tld, at most 254 characters, no spaces, quotes or brackets.
pub fn is_email(a: &str) -> bool {
    let Some((local, domain)) = a.rsplit_once('@') else { return false };
    let bad = |c: char| c.is_whitespace() || c.is_control() || "<>()[],;:\"\\@".contains(c);
    a.len() <= 254
        && !local.is_empty()
        && local.len() <= 64
        && !local.chars().any(bad)
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !domain.chars().any(bad)
}

fn url(field: &str, v: Option<String>) -> Result<Option<String>, crate::Invalid> {
    let Some(v) = v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) else { return Ok(None) };
    if v.len() > MAX_URL_LEN {
        return Err(invalid(format!("{field} is longer than {MAX_URL_LEN} characters.")));
    }
    let lower = v.to_ascii_lowercase();
    let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.starts_with('/') && !v.chars().any(|c| c.is_whitespace() || c.is_control()) => Ok(Some(v)),
        _ => Err(invalid(format!("{field} must start with http:// or https:// and name a host."))),
    }
}

/// 12345 → "12,345".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Negative-sentiment alerts: is the share of negative posts in the window far above the
/// tracker's usual share?
///
/// The window's negative count is compared with a binomial expectation at the baseline's share
/// (the previous 7 days): `z = (neg − n·p) / √(n·p·(1−p) + 1)`. It alerts when z reaches 4, the
/// window's share is at least 1.5× the usual share and 10 points above it, and at least
/// `min_negative` posts are negative, with the same crossing and cooldown rule as spikes (the
/// caller keeps the last alert and the previous window's verdict).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NegativeShift {
    pub window_posts: u64,
    pub window_negative: u64,
    pub baseline_posts: u64,
    pub baseline_negative: u64,
    pub share: f64,
    pub usual_share: f64,
    pub z: f64,
    pub above: bool,
}

/// Fewest negative posts in a window that may alert.
pub const MIN_NEGATIVE: u64 = 10;

pub fn negative_shift(window_posts: u64, window_negative: u64, baseline_posts: u64, baseline_negative: u64) -> Option<NegativeShift> {
    // Too little history to know what is usual.
    if baseline_posts < 50 || window_posts == 0 {
        return None;
    }
    // A little smoothing, so a baseline without a single negative post is not a share of 0.
    let p = (baseline_negative as f64 + 1.0) / (baseline_posts as f64 + 2.0);
    let n = window_posts as f64;
    let neg = window_negative as f64;
    let share = neg / n;
    let z = (neg - n * p) / (n * p * (1.0 - p) + 1.0).sqrt();
    let above = z >= 4.0 && share >= 1.5 * p && share >= p + 0.10 && window_negative >= MIN_NEGATIVE;
    Some(NegativeShift { window_posts, window_negative, baseline_posts, baseline_negative, share, usual_share: p, z, above })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> NotificationSettings {
        NotificationSettings::defaults("owner@example.org")
    }

    #[test]
    fn defaults_follow_the_spec() {
        let s = settings();
        assert_eq!(s.alerts.frequency, AlertFrequency::Realtime);
        assert!(s.alerts.spike);
        assert!(s.report.enabled);
        assert_eq!(s.report.frequency, ReportFrequency::Weekly);
        assert!(!s.report.send_without_updates);
        assert_eq!(s.alerts.recipients, vec!["owner@example.org"]);
        assert_eq!(s.clone().parse().unwrap(), s);
    }

    #[test]
    fn json_names_are_the_apis() {
        let v = serde_json::to_value(settings()).unwrap();
        assert_eq!(v["alerts"]["spikeSensitivity"], "medium");
        assert_eq!(v["alerts"]["influencers"]["twitterFollowers"], 0);
        assert_eq!(v["report"]["sendWithoutUpdates"], false);
        assert_eq!(v["webhook"]["url"], serde_json::Value::Null);
        let bad = serde_json::from_value::<NotificationSettings>(serde_json::json!({"alerts": {"frequency": "weekly"}}));
        assert!(bad.is_err());
    }

    #[test]
    fn recipients_are_checked_and_tidied() {
        let mut s = settings();
        s.alerts.recipients = vec![" a@x.org ".into(), "".into(), "A@x.org".into(), "b@y.co.uk".into()];
        let s = s.parse().unwrap();
        assert_eq!(s.alerts.recipients, vec!["a@x.org", "b@y.co.uk"]);
        for bad in ["nobody", "a@b", "a b@x.org", "<a@x.org>", "a@x..org", "@x.org", "a@.x.org"] {
            let mut s = settings();
            s.report.recipients = vec![bad.into()];
            let e = s.parse().unwrap_err();
            assert_eq!(e.code, crate::Code::InvalidEmail, "{bad}");
            assert!(e.message.contains(bad.trim()), "{}", e.message);
        }
        let mut s = settings();
        s.alerts.recipients = (0..21).map(|i| format!("u{i}@x.org")).collect();
        assert!(s.parse().unwrap_err().message.contains("at most 20"));
    }

    #[test]
    fn urls_and_bounds() {
        let mut s = settings();
        s.webhook.url = Some("  ".into());
        s.slack.url = Some("https://hooks.slack.com/services/T/B/x".into());
        let s = s.parse().unwrap();
        assert_eq!(s.webhook.url, None);
        for bad in ["ftp://x.org", "javascript:alert(1)", "https://", "http:///x", "https://a b.org"] {
            let mut s = settings();
            s.webhook.url = Some(bad.into());
            assert!(s.parse().unwrap_err().message.contains("webhook"), "{bad}");
        }
        let mut s = settings();
        s.alerts.spike_min_posts = 0;
        assert!(s.parse().is_err());
        let mut s = settings();
        s.alerts.influencers.youtube_views = MAX_THRESHOLD + 1;
        assert!(s.parse().unwrap_err().message.contains("YouTube views"));
    }

    #[test]
    fn unsubscribe_removes_everywhere() {
        let mut s = settings();
        s.report.recipients.push("b@x.org".into());
        assert!(s.unsubscribe("OWNER@example.org"));
        assert!(s.alerts.recipients.is_empty());
        assert_eq!(s.report.recipients, vec!["b@x.org"]);
        assert!(!s.unsubscribe("owner@example.org"));
    }

    #[test]
    fn influencer_rules() {
        let t = InfluencerThresholds { twitter_followers: 10_000, youtube_views: 1_000, tiktok_verified: true, ..Default::default() };
        assert_eq!(t.platforms(), vec!["twitter", "tiktok", "youtube"]);
        let big = PostReach { followers: 25_000, ..Default::default() };
        assert_eq!(t.reason("twitter", &big).as_deref(), Some("25,000 followers"));
        assert_eq!(t.reason("instagram", &big), None);
        assert_eq!(t.reason("twitter", &PostReach { followers: 9_999, ..Default::default() }), None);
        assert_eq!(t.reason("tiktok", &PostReach { verified: true, ..Default::default() }).as_deref(), Some("verified account"));
        assert_eq!(t.reason("youtube", &PostReach { views: 1_000, ..Default::default() }).as_deref(), Some("1,000 views"));
        assert!(!InfluencerThresholds::default().any());
    }

    #[test]
    fn negative_shift_needs_a_real_rise() {
        // Usual 20% negative; 30 of 100 is within chance at this size.
        assert!(!negative_shift(100, 30, 5_000, 1_000).unwrap().above);
        // 70 of 100 is not.
        let s = negative_shift(100, 70, 5_000, 1_000).unwrap();
        assert!(s.above, "{s:?}");
        // A tiny window never alerts, whatever its share.
        assert!(!negative_shift(8, 8, 5_000, 1_000).unwrap().above);
        // No history, no judgement.
        assert!(negative_shift(100, 70, 20, 4).is_none());
        // A tracker that is always negative is not news when it stays so.
        assert!(!negative_shift(200, 170, 5_000, 4_200).unwrap().above);
    }

    #[test]
    fn thousands_groups() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
