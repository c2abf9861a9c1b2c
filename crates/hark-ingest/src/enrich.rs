//! Enrichment computed once per collected post, whatever trackers it matches: sentiment,
//! language, entities, country, gender, post type, device and engagement.
//!
//! It runs on every ingested post, so it allocates only the strings it returns and reads the
//! text once per underlying function (each of which has to see the whole text anyway).

use hark_core::device::device;
use hark_core::engagement::{engagement, engagement_rate};
use hark_core::entities::Entities;
use hark_core::post_type::post_type;
use hark_core::Post;
use hark_enrich::gender::{from_display_name, Gender};
use hark_enrich::geo::{country_from_location, place_from_coordinates, region_from_location};
use hark_enrich::language::detect;
use hark_enrich::sentiment::model::Probabilities;
use hark_enrich::sentiment::{judge, Bucket, Method};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enrichment {
    /// Sentiment score in [-1, 1].
    pub sentiment: f64,
    pub sentiment_bucket: Bucket,
    /// The learned model for English or unknown languages, the lexicon for others.
    pub sentiment_method: Method,
    /// The model's class probabilities (`None` when the lexicon judged).
    pub sentiment_probabilities: Option<Probabilities>,
    /// ISO 639-1: the platform's hint when it is a language code, else detected from the text.
    pub lang: Option<String>,
    pub hashtags: Vec<String>,
    pub mentions: Vec<String>,
    pub cashtags: Vec<String>,
    pub links: Vec<String>,
    pub domains: Vec<String>,
    /// ISO 3166-1 alpha-2, from the coordinates first, then the author's profile location.
    pub country: Option<String>,
    /// ISO 3166-2 state or province within `country`, where the place resolves to one.
    pub region: Option<String>,
    pub gender: Gender,
    /// `original`, `reply` or `retweet`.
    pub post_type: String,
    pub device: Option<String>,
    pub engagement: i64,
    /// A percentage (3.5 means 3.5%), `None` when the platform's base count is missing.
    pub engagement_rate: Option<f64>,
}

/// The text a post is judged on: its text, or its title when the text is blank.
fn body(post: &Post) -> &str {
    judged_text(&post.text, post.title.as_deref())
}

/// The text of a post that is judged (sentiment, keyword lists): its text, or its title when the
/// text is blank.
pub fn judged_text<'a>(text: &'a str, title: Option<&'a str>) -> &'a str {
    if text.trim().is_empty() {
        title.unwrap_or("")
    } else {
        text
    }
}

/// The platform's language hint as an ISO 639-1 code (`en`, `pt-BR` → `pt`); `None` for
/// "und", "zxx", "qme" and other non-language tags.
pub fn lang_hint(hint: &str) -> Option<String> {
    let primary = hint.trim().split(['-', '_']).next().unwrap_or("");
    (primary.len() == 2 && primary.bytes().all(|b| b.is_ascii_alphabetic())).then(|| primary.to_ascii_lowercase())
}

/// The country and state or province of the post's place: from the coordinates (one boundary
/// lookup), else from the author's location. A region lies within the country.
fn place_of(post: &Post) -> (Option<&'static str>, Option<&'static str>) {
    let (mut country, mut region) = post.coordinates.map_or((None, None), |(lat, lon)| place_from_coordinates(lat, lon));
    let location = post.author.location.as_deref();
    if country.is_none() {
        country = location.and_then(country_from_location);
    }
    let Some(c) = country else { return (None, None) };
    region = region.filter(|r| r.starts_with(c)).or_else(|| location.and_then(|l| region_from_location(l, c)));
    (country, region)
}

pub fn enrich(post: &Post) -> Enrichment {
    let text = body(post);
    let lang = match post.lang.as_deref().and_then(lang_hint) {
        Some(l) => Some(l),
        None => detect(text).map(str::to_string),
    };
    let sentiment = judge(text, lang.as_deref());
    let Entities { hashtags, mentions, cashtags, links, domains } = Entities::extract(&post.text);
    let (country, region) = place_of(post);
    let (country, region) = (country.map(str::to_string), region.map(str::to_string));
    Enrichment {
        sentiment: sentiment.score,
        sentiment_bucket: sentiment.bucket,
        sentiment_method: sentiment.method,
        sentiment_probabilities: sentiment.probabilities,
        lang,
        hashtags,
        mentions,
        cashtags,
        links,
        domains,
        country,
        region,
        gender: from_display_name(&post.author.name),
        post_type: post_type(post).as_str().to_string(),
        device: post.source.as_deref().and_then(device),
        engagement: engagement(post),
        engagement_rate: engagement_rate(post),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::Platform;
    use hark_enrich::sentiment::bucket;

    fn tweet(text: &str) -> Post {
        Post::new(Platform::Twitter, "1", text, 1_700_000_000_000)
    }

    #[test]
    fn enriches_every_field() {
        let mut p = tweet("I absolutely love the new oat latte at @BlueBottle, it is the best coffee in town! #coffee $SBUX https://www.example.com/menu");
        p.author.name = "Maria Lopez".into();
        p.author.location = Some("London, UK".into());
        p.source = Some("<a href=\"http://twitter.com/download/iphone\">Twitter for iPhone</a>".into());
        p.flags.is_reply = true;
        p.counts.likes = Some(10);
        p.counts.retweets = Some(5);
        p.counts.replies = Some(5);
        p.counts.impressions = Some(1000);
        let e = enrich(&p);
        assert!(e.sentiment > 0.4, "{}", e.sentiment);
        assert!(matches!(e.sentiment_bucket, Bucket::SlightPositive | Bucket::Positive));
        assert_eq!(e.lang.as_deref(), Some("en"));
        assert_eq!(e.hashtags, ["coffee"]);
        assert_eq!(e.mentions, ["bluebottle"]);
        assert_eq!(e.cashtags, ["SBUX"]);
        assert_eq!(e.links, ["https://www.example.com/menu"]);
        assert_eq!(e.domains, ["example.com"]);
        assert_eq!(e.country.as_deref(), Some("GB"));
        assert_eq!(e.gender, Gender::Female);
        assert_eq!(e.post_type, "reply");
        assert_eq!(e.device.as_deref(), Some("iPhone"));
        assert_eq!(e.engagement, 20);
        assert_eq!(e.engagement_rate, Some(2.0));
    }

    #[test]
    fn coordinates_win_over_profile_location() {
        let mut p = tweet("hello");
        p.author.location = Some("Paris, France".into());
        p.coordinates = Some((40.7128, -74.0060));
        assert_eq!(enrich(&p).country.as_deref(), Some("US"));
        p.coordinates = Some((35.0, -45.0)); // the Atlantic: fall back to the profile
        assert_eq!(enrich(&p).country.as_deref(), Some("FR"));
    }

    #[test]
    fn platform_language_hint_is_used_when_it_is_a_code() {
        let mut p = tweet("This sentence is plainly written in the English language.");
        p.lang = Some("pt-BR".into());
        assert_eq!(enrich(&p).lang.as_deref(), Some("pt"));
        p.lang = Some("und".into());
        assert_eq!(enrich(&p).lang.as_deref(), Some("en"));
        p.lang = Some("".into());
        assert_eq!(enrich(&p).lang.as_deref(), Some("en"));
        assert_eq!(lang_hint(" EN "), Some("en".into()));
        assert_eq!(lang_hint("zxx"), None);
        assert_eq!(lang_hint("e1"), None);
    }

    #[test]
    fn web_posts_without_text_are_judged_on_their_title() {
        let mut p = Post::new(Platform::News, "n1", "", 0);
        p.title = Some("Terrible service and awful coffee ruin the morning rush".into());
        let e = enrich(&p);
        assert!(e.sentiment < -0.3, "{}", e.sentiment);
        assert_eq!(e.lang.as_deref(), Some("en"));
        assert_eq!(e.engagement_rate, None);
    }

    #[test]
    fn empty_post_is_neutral_and_unknown() {
        let e = enrich(&tweet(""));
        assert_eq!(e.sentiment, 0.0);
        assert_eq!(e.sentiment_bucket, Bucket::Neutral);
        assert_eq!(e.lang, None);
        assert_eq!(e.country, None);
        assert_eq!(e.gender, Gender::Unknown);
        assert_eq!(e.post_type, "original");
        assert_eq!(e.device, None);
        assert_eq!(e.engagement, 0);
    }

    #[test]
    fn serializes_camel_case() {
        let mut p = tweet("RT @someone: nice");
        p.flags.is_retweet = true;
        let v = serde_json::to_value(enrich(&p)).unwrap();
        assert_eq!(v["postType"], "retweet");
        assert_eq!(v["sentimentBucket"], serde_json::to_value(bucket(v["sentiment"].as_f64().unwrap())).unwrap());
        assert!(v.get("engagementRate").is_some());
        assert_eq!(v["gender"], "unknown");
    }
}
