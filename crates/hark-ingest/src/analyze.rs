//! `hark analyze`: enrichment of one input line, as JSON. A line holding a post (our `Post`
//! JSON or an X API v2 tweet or response) is analysed as that post; any other line is taken as
//! the text of a tweet.

use hark_core::{Platform, Post};
use hark_enrich::gender::Gender;
use hark_enrich::sentiment::model::Probabilities;
use hark_enrich::sentiment::{Bucket, Method};
use serde::Serialize;

use crate::enrich::enrich;
use crate::import::parse_line;

const INPUT_MAX_CHARS: usize = 280;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sentiment {
    pub score: f64,
    pub bucket: Bucket,
    /// `model` (the learned model) or `lexicon` (languages the model has no training data for).
    pub method: Method,
    /// The model's P(negative), P(neutral) and P(positive); absent when the lexicon judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probabilities: Option<Probabilities>,
}

/// What `hark analyze` prints for a line. Serialize this struct (not the `Value` of
/// [`analyze_line`], whose map sorts its keys) to keep the documented key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    pub input: String,
    pub sentiment: Sentiment,
    pub language: Option<String>,
    pub hashtags: Vec<String>,
    pub mentions: Vec<String>,
    pub cashtags: Vec<String>,
    pub links: Vec<String>,
    pub domains: Vec<String>,
    pub country: Option<String>,
    pub gender: Gender,
    pub post_type: String,
    pub device: Option<String>,
    pub engagement: i64,
    pub engagement_rate: Option<f64>,
}

/// The analysis of a post.
pub fn analyze_post(post: &Post) -> Analysis {
    let e = enrich(post);
    let text = crate::enrich::judged_text(&post.text, post.title.as_deref());
    let input = crate::import::truncate(text, INPUT_MAX_CHARS).to_string();
    Analysis {
        input,
        sentiment: Sentiment {
            score: e.sentiment,
            bucket: e.sentiment_bucket,
            method: e.sentiment_method,
            probabilities: e.sentiment_probabilities,
        },
        language: e.lang,
        hashtags: e.hashtags,
        mentions: e.mentions,
        cashtags: e.cashtags,
        links: e.links,
        domains: e.domains,
        country: e.country,
        gender: e.gender,
        post_type: e.post_type,
        device: e.device,
        engagement: e.engagement,
        engagement_rate: e.engagement_rate,
    }
}

/// [`analysis`] as a JSON value; `None` for a blank line.
pub fn analyze_line(line: &str) -> Option<serde_json::Value> {
    analysis(line).and_then(|a| serde_json::to_value(a).ok())
}

/// The analysis of one line; `None` for a blank line. An X API v2 response analyses its first
/// tweet.
pub fn analysis(line: &str) -> Option<Analysis> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    if line.starts_with('{') {
        if let Some(Ok(post)) = parse_line(line).into_iter().next() {
            return Some(analyze_post(&post));
        }
    }
    Some(analyze_post(&Post::new(Platform::Twitter, "analyze", line, 0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text() {
        let v = analyze_line("  I love the new #OatLatte from @KestrelCoffee, best coffee in London!  ").unwrap();
        let printed = serde_json::to_string(&analysis("#x").unwrap()).unwrap();
        let keys: Vec<&str> = printed.split('"').skip(1).step_by(2).filter(|k| v.get(*k).is_some()).collect();
        assert_eq!(
            keys[..14],
            ["input", "sentiment", "language", "hashtags", "mentions", "cashtags", "links", "domains", "country",
             "gender", "postType", "device", "engagement", "engagementRate"]
        );
        assert_eq!(v["input"], "I love the new #OatLatte from @KestrelCoffee, best coffee in London!");
        assert!(v["sentiment"]["score"].as_f64().unwrap() > 0.4);
        assert!(v["sentiment"]["bucket"].as_str().unwrap().contains("positive"));
        assert_eq!(v["hashtags"][0], "oatlatte");
        assert_eq!(v["mentions"][0], "kestrelcoffee");
        assert_eq!(v["postType"], "original");
        assert_eq!(v["engagementRate"], serde_json::Value::Null);
        assert_eq!(analyze_line("   "), None);
    }

    #[test]
    fn post_json_and_tweets() {
        let post = r#"{"platform":"twitter","id":"1","text":"RT @ann: awful service","createdAt":1,
            "flags":{"isRetweet":true},"source":"Twitter for Android","author":{"name":"John Smith","location":"NYC"},
            "counts":{"likes":3,"impressions":100}}"#.replace('\n', " ");
        let v = analyze_line(&post).unwrap();
        assert_eq!(v["postType"], "retweet");
        assert_eq!(v["device"], "Android");
        assert_eq!(v["gender"], "male");
        assert_eq!(v["country"], "US");
        assert_eq!(v["engagement"], 3);
        assert_eq!(v["engagementRate"], 3.0);
        let tweet = r#"{"id":"9","text":"Good morning Madrid #cafe","created_at":"2024-06-01T10:00:00.000Z","lang":"es","geo":{"coordinates":{"type":"Point","coordinates":[-3.7,40.4]}}}"#;
        let v = analyze_line(tweet).unwrap();
        assert_eq!(v["language"], "es");
        assert_eq!(v["country"], "ES");
        let broken = analyze_line("{not json").unwrap();
        assert_eq!(broken["input"], "{not json", "unparseable JSON is analysed as text");
        let long = "a".repeat(400);
        assert_eq!(analyze_line(&long).unwrap()["input"].as_str().unwrap().len(), 280);
    }
}
