//! Entry points for the fuzz targets in `fuzz/` (not an API): each takes bytes as a platform
//! sends them, decodes them the way the connector does (`serde_json` for JSON answers, feed-rs
//! for feeds) and maps them with the connector's own functions. Decoding errors are returned;
//! nothing here may panic, whatever the bytes.

use hark_core::{Platform, Post};
use reqwest::header::{HeaderMap, HeaderValue, LINK};
use serde_json::Value;

use crate::{CollectError, ConnectorConfig};

/// The server a Mastodon timeline and the forum a Discourse list are read from.
const SERVER: &str = "https://social.example";
const FORUM: &str = "https://forum.example";
/// The time the feed target takes as now for undated items (2024-06-01T00:00:00Z).
const NOW: hark_core::Millis = 1_717_200_000_000;

fn json(body: &[u8]) -> Result<Value, CollectError> {
    serde_json::from_slice(body).map_err(|e| CollectError::Payload(e.to_string()))
}

/// X recent search (and lookup) answer.
pub fn twitter(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    crate::twitter::posts_of(json(body)?)
}

/// X filtered stream bytes: each complete line (up to `\n`) read as the stream reader does;
/// a last line without its `\n` waits for more bytes and is not read.
pub fn twitter_stream(bytes: &[u8]) -> Vec<Post> {
    let mut posts = Vec::new();
    for line in bytes.split_inclusive(|b| *b == b'\n').filter(|l| l.ends_with(b"\n")) {
        if let crate::twitter_stream::Line::Tweet(p, _) = crate::twitter_stream::read_line(line) {
            posts.push(*p);
        }
    }
    posts
}

/// A YouTube `search.list` answer; the same body is then read as the `videos.list` answers of
/// the statistics request and of a lookup.
pub fn youtube(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let v = json(body)?;
    let looked_up: Vec<Post> =
        v.get("items").and_then(Value::as_array).into_iter().flatten().filter_map(crate::youtube::video_to_post).collect();
    let (mut posts, _next) = crate::youtube::search_page(v.clone())?;
    crate::youtube::statistics_of(&mut posts, &v);
    posts.extend(looked_up);
    Ok(posts)
}

/// An Instagram `recent_media` answer, or a Graph API error.
pub fn instagram(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let v = graph(body)?;
    Ok(crate::instagram::media_of(&v))
}

/// A Facebook `{page}/posts` answer, or a Graph API error.
pub fn facebook(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let v = graph(body)?;
    Ok(crate::facebook::posts_of(&v))
}

fn graph(body: &[u8]) -> Result<Value, CollectError> {
    let v = json(body)?;
    match v.get("error") {
        Some(err) => Err(crate::graph::graph_error(400, err)),
        None => Ok(v),
    }
}

/// A TikTok research query answer (`{data: {videos, cursor, has_more, search_id}}`).
pub fn tiktok(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let v = json(body)?;
    Ok(crate::tiktok::videos_of(v.get("data").unwrap_or(&Value::Null)))
}

/// A Reddit search listing.
pub fn reddit(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let listing: crate::reddit::Listing = serde_json::from_slice(body).map_err(|e| CollectError::Payload(e.to_string()))?;
    Ok(listing.data.children.into_iter().map(|t| t.data.into_post()).collect())
}

/// A Mastodon tag timeline (a JSON array of statuses). The bytes are also read as the answer's
/// `Link` header when they make a header value.
pub fn mastodon(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    if let Ok(link) = HeaderValue::from_bytes(body) {
        let mut h = HeaderMap::new();
        h.insert(LINK, link);
        let _ = crate::mastodon::link_param(&h, "next", "max_id");
        let _ = crate::mastodon::link_param(&h, "prev", "min_id");
    }
    let statuses: Vec<crate::mastodon::Status> =
        serde_json::from_slice(body).map_err(|e| CollectError::Payload(e.to_string()))?;
    Ok(statuses.into_iter().filter_map(|s| crate::mastodon::to_post(SERVER, s)).collect())
}

/// Jetstream messages, one a line, read by one connector in turn (so an identity event names
/// the author of the posts after it).
pub fn bluesky(messages: &[u8]) -> Vec<Post> {
    let c = crate::bluesky::Bluesky::new(ConnectorConfig::default());
    let text = String::from_utf8_lossy(messages);
    text.lines().filter_map(|m| c.read_event(m)).filter_map(|(_, p)| p).collect()
}

/// A news feed document (RSS, Atom or JSON Feed).
pub fn rss(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let feed = crate::rss::Feed { url: "https://news.example/feed.xml".into(), platform: Platform::News };
    let mut state = crate::rss::FeedState::default();
    crate::rss::posts_of(&feed, body, &mut state, NOW)
}

/// A Discourse `latest.json` answer.
pub fn discourse(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let latest: crate::discourse::Latest = serde_json::from_slice(body).map_err(|e| CollectError::Payload(e.to_string()))?;
    let users = latest.users;
    Ok(latest.topic_list.topics.into_iter().filter_map(|t| crate::discourse::to_post(FORUM, t, &users)).collect())
}

/// An Algolia Hacker News search answer.
pub fn hackernews(body: &[u8]) -> Result<Vec<Post>, CollectError> {
    let r: crate::hackernews::SearchResponse = serde_json::from_slice(body).map_err(|e| CollectError::Payload(e.to_string()))?;
    Ok(r.hits.into_iter().filter_map(|h| h.into_post()).collect())
}
