//! YouTube Data API v3: `search.list` (`type=video`, `order=date`, `publishedAfter`, `pageToken`)
//! finds videos, then `videos.list?part=statistics` adds views, likes, comments (and dislikes
//! where the API still gives them) for the whole page in one call.
//!
//! Quota: a search costs 100 units, a videos call 1; the project's daily quota (10,000 by
//! default) resets at midnight Pacific time. The units spent today are counted here, persisted
//! by the scheduler (connector usage), and a search that would pass the quota is not sent: the
//! job waits for the reset. A `quotaExceeded` answer does the same.

use std::sync::Mutex;
use std::time::Duration;

use hark_core::post::{Media, MediaKind};
use hark_core::{now_millis, Millis, Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::{parse_rfc3339, rfc3339};
use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

pub const SEARCH_COST: i64 = 100;
pub const VIDEOS_COST: i64 = 1;
pub const DEFAULT_DAILY_QUOTA: i64 = 10_000;
pub const PAGE_SIZE: u32 = 50;
/// Search pages one sweep may spend (each is 100 units).
pub const MAX_PAGES_PER_SWEEP: u32 = 4;
/// How far back the first sweep reaches.
pub const FIRST_SWEEP_MS: Millis = 14 * 86_400_000;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Videos published after this (ms) are new.
    pub watermark: Option<Millis>,
    pub page_token: Option<String>,
    pub pages: u32,
    pub sweep_top: Option<Millis>,
}

/// Units spent on a quota day (the day's date in Pacific time).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Usage {
    pub day: String,
    pub units: i64,
}

fn pacific() -> jiff::tz::TimeZone {
    jiff::tz::TimeZone::get("America/Los_Angeles")
        .unwrap_or_else(|_| jiff::tz::TimeZone::fixed(jiff::tz::offset(-8)))
}

/// The quota day of `ms` and the time left until the next one starts.
pub fn quota_day(ms: Millis) -> (String, Duration) {
    let tz = pacific();
    let now = jiff::Timestamp::from_millisecond(ms).unwrap_or(jiff::Timestamp::UNIX_EPOCH).to_zoned(tz.clone());
    let day = now.date();
    let next = day
        .tomorrow()
        .ok()
        .and_then(|d| d.to_zoned(tz).ok())
        .map(|z| z.timestamp().as_millisecond() - ms)
        .unwrap_or(3_600_000);
    (day.to_string(), Duration::from_millis(next.max(1000) as u64))
}

#[derive(Debug, Deserialize)]
struct SearchList {
    #[serde(default, rename = "nextPageToken")]
    next_page_token: Option<String>,
    #[serde(default)]
    items: Vec<SearchResult>,
}

#[derive(Debug, Deserialize)]
struct SearchResult {
    id: ResourceId,
    snippet: Snippet,
}

#[derive(Debug, Deserialize)]
struct ResourceId {
    #[serde(default, rename = "videoId")]
    video_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Snippet {
    #[serde(rename = "publishedAt")]
    published_at: String,
    #[serde(default, rename = "channelId")]
    channel_id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default, rename = "channelTitle")]
    channel_title: String,
    #[serde(default)]
    thumbnails: Value,
}

pub struct Youtube {
    config: ConnectorConfig,
    http: Http,
    usage: Mutex<Usage>,
}

impl Youtube {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http, usage: Mutex::new(Usage::default()) }
    }

    fn daily_quota(&self) -> i64 {
        self.config.value("daily_quota").and_then(|v| v.parse().ok()).filter(|v| *v > 0).unwrap_or(DEFAULT_DAILY_QUOTA)
    }

    /// Reserves `cost` units of today's quota, or says how long to wait.
    fn spend(&self, cost: i64) -> Result<(), CollectError> {
        let (day, wait) = quota_day(now_millis());
        let mut u = self.usage.lock().unwrap_or_else(|p| p.into_inner());
        if u.day != day {
            *u = Usage { day, units: 0 };
        }
        if u.units + cost > self.daily_quota() {
            return Err(CollectError::Quota { message: format!("{} of {} units used today", u.units, self.daily_quota()), wait });
        }
        u.units += cost;
        Ok(())
    }

    fn quota_exhausted(&self) -> CollectError {
        let (day, wait) = quota_day(now_millis());
        let mut u = self.usage.lock().unwrap_or_else(|p| p.into_inner());
        *u = Usage { day, units: self.daily_quota() };
        CollectError::Quota { message: "the API reports the daily quota exceeded".into(), wait }
    }

    async fn get(&self, path: &str, params: &[(&str, String)], cost: i64) -> Result<Value, CollectError> {
        self.spend(cost)?;
        let url = format!("{}/youtube/v3/{path}", self.config.base(ConnectorKind::Youtube));
        let key = self.config.value("api_key").unwrap_or_default().to_string();
        let resp = self.http.send(|c| c.get(&url).query(params).query(&[("key", key.as_str())])).await?;
        let status = resp.status();
        let body: Value = resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))?;
        if status.is_success() {
            return Ok(body);
        }
        let err = body.get("error");
        let reason = err
            .and_then(|e| e.pointer("/errors/0/reason"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let message = err.and_then(|e| e.get("message")).and_then(Value::as_str).map(short).unwrap_or_default();
        Err(match (status.as_u16(), reason) {
            (_, "quotaExceeded" | "dailyLimitExceeded") => self.quota_exhausted(),
            (_, "keyInvalid") | (401, _) => CollectError::Auth(message),
            (400, _) if message.contains("API key") => CollectError::Auth(message),
            (403, "forbidden" | "accessNotConfigured") => CollectError::Auth(message),
            (s, _) => CollectError::Http { status: s, message },
        })
    }

    /// The search string: rows ANDed, a row's terms with `|`, excluded terms with `-`.
    pub fn search_string(q: &TrackerQuery) -> String {
        let mut parts: Vec<String> = q
            .include
            .iter()
            .map(|row| row.iter().map(|t| crate::quote(&crate::bare(t))).collect::<Vec<_>>().join("|"))
            .collect();
        parts.extend(q.exclude.iter().map(|t| format!("-{}", crate::quote(&crate::bare(t)))));
        parts.join(" ")
    }

    async fn with_statistics(&self, posts: &mut [Post]) -> Result<(), CollectError> {
        if posts.is_empty() {
            return Ok(());
        }
        let ids: Vec<&str> = posts.iter().map(|p| p.id.as_str()).collect();
        let body = self
            .get("videos", &[("part", "statistics".into()), ("id", ids.join(",")), ("maxResults", "50".into())], VIDEOS_COST)
            .await?;
        statistics_of(posts, &body);
        Ok(())
    }
}

/// The posts of a `search.list` answer and its next page token.
pub(crate) fn search_page(body: Value) -> Result<(Vec<Post>, Option<String>), CollectError> {
    let list: SearchList = serde_json::from_value(body).map_err(|e| CollectError::Payload(e.to_string()))?;
    Ok((list.items.into_iter().filter_map(to_post).collect(), list.next_page_token))
}

/// Fills the counts of `posts` from a `videos.list?part=statistics` answer.
pub(crate) fn statistics_of(posts: &mut [Post], body: &Value) {
    for item in body.get("items").and_then(Value::as_array).into_iter().flatten() {
        let Some(id) = item.get("id").and_then(Value::as_str) else { continue };
        let Some(p) = posts.iter_mut().find(|p| p.id == id) else { continue };
        apply_statistics(p, item.get("statistics"));
    }
}

/// Views, likes, dislikes (where the API still gives them) and comments of a `videos` item;
/// the API sends the counts as strings.
fn apply_statistics(p: &mut Post, s: Option<&Value>) {
    let num = |v: Option<&Value>| v.and_then(|v| v.as_str().and_then(|s| s.parse().ok()).or_else(|| v.as_i64()));
    p.counts.views = num(s.and_then(|s| s.get("viewCount")));
    p.counts.likes = num(s.and_then(|s| s.get("likeCount")));
    p.counts.dislikes = num(s.and_then(|s| s.get("dislikeCount")));
    p.counts.comments = num(s.and_then(|s| s.get("commentCount")));
}

/// A `videos.list` item (`part=snippet,statistics`) as a post.
pub(crate) fn video_to_post(item: &Value) -> Option<Post> {
    let id = item.get("id")?.as_str()?.to_string();
    let snippet: Snippet = serde_json::from_value(item.get("snippet")?.clone()).ok()?;
    let mut p = to_post(SearchResult { id: ResourceId { video_id: Some(id) }, snippet })?;
    apply_statistics(&mut p, item.get("statistics"));
    Some(p)
}

fn to_post(r: SearchResult) -> Option<Post> {
    let id = r.id.video_id?;
    let s = r.snippet;
    let mut p = Post::new(Platform::Youtube, id.clone(), s.description, parse_rfc3339(&s.published_at)?);
    p.title = Some(s.title);
    p.url = Some(format!("https://www.youtube.com/watch?v={id}"));
    p.author.id = s.channel_id;
    p.author.name = s.channel_title.clone();
    p.author.username = s.channel_title;
    let thumb = ["high", "medium", "default"]
        .iter()
        .find_map(|k| s.thumbnails.get(k).and_then(|t| t.get("url")).and_then(Value::as_str));
    p.media = vec![Media {
        kind: MediaKind::Video,
        url: format!("https://www.youtube.com/watch?v={id}"),
        thumbnail_url: thumb.map(str::to_string),
        bitrate: None,
    }];
    Some(p)
}

impl Connector for Youtube {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Youtube
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let mut params = vec![
                ("part", "snippet".to_string()),
                ("type", "video".into()),
                ("order", "date".into()),
                ("maxResults", PAGE_SIZE.to_string()),
                ("q", Self::search_string(q)),
            ];
            match q.range {
                Some((start, end)) => {
                    params.push(("publishedAfter", rfc3339(start)));
                    params.push(("publishedBefore", rfc3339(end)));
                }
                None => params.push(("publishedAfter", rfc3339(c.watermark.unwrap_or_else(|| now_millis() - FIRST_SWEEP_MS)))),
            }
            if let Some(lang) = &q.language {
                params.push(("relevanceLanguage", hark_core::query::primary_language(lang)));
            }
            if let Some(t) = &c.page_token {
                params.push(("pageToken", t.clone()));
            }
            let body = self.get("search", &params, SEARCH_COST).await?;
            let (mut posts, next_page_token) = search_page(body)?;
            self.with_statistics(&mut posts).await?;
            if c.page_token.is_none() {
                c.sweep_top = posts.iter().map(|p| p.created_at).max();
                c.pages = 0;
            }
            c.pages += 1;
            let more = next_page_token.is_some() && (q.range.is_some() || c.pages < MAX_PAGES_PER_SWEEP);
            if more {
                c.page_token = next_page_token;
            } else {
                c.page_token = None;
                c.pages = 0;
                if let Some(top) = c.sweep_top.take() {
                    // publishedAfter is inclusive: step past the newest video seen.
                    c.watermark = Some(c.watermark.map_or(top + 1000, |w| w.max(top + 1000)));
                }
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn looks_up(&self) -> bool {
        true
    }

    /// `videos.list?part=snippet,statistics&id=` (1 unit); an unknown video gives no items.
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Post>, CollectError>> {
        Box::pin(async move {
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                return Ok(None);
            }
            let body = self.get("videos", &[("part", "snippet,statistics".into()), ("id", id.to_string())], VIDEOS_COST).await?;
            Ok(body.get("items").and_then(Value::as_array).into_iter().flatten().find_map(video_to_post))
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            // videos.list costs 1 unit where a search costs 100.
            self.get("videos", &[("part", "id".into()), ("id", "dQw4w9WgXcQ".into())], VIDEOS_COST).await?;
            let u = self.usage.lock().unwrap_or_else(|p| p.into_inner()).clone();
            Ok(format!("Key accepted; {} of {} quota units used today.", u.units, self.daily_quota()))
        })
    }

    fn usage(&self) -> Option<Value> {
        serde_json::to_value(&*self.usage.lock().unwrap_or_else(|p| p.into_inner())).ok()
    }

    fn restore_usage(&self, v: &Value) {
        if let Ok(u) = serde_json::from_value::<Usage>(v.clone()) {
            *self.usage.lock().unwrap_or_else(|p| p.into_inner()) = u;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_days_follow_pacific_midnight() {
        // 2024-07-01 06:59 UTC is 23:59 on June 30 in Los Angeles (PDT, UTC-7).
        let ms = 1_719_817_140_000;
        let (day, wait) = quota_day(ms);
        assert_eq!(day, "2024-06-30");
        assert_eq!(wait, Duration::from_secs(60));
        assert_eq!(quota_day(ms + 61_000).0, "2024-07-01");
    }

    #[test]
    fn search_string_uses_or_bars_and_minus() {
        let q = TrackerQuery {
            include: vec![vec!["#rust".into(), "ferris crab".into()], vec!["tokio".into()]],
            exclude: vec!["spam".into()],
            ..Default::default()
        };
        assert_eq!(Youtube::search_string(&q), "rust|\"ferris crab\" tokio -spam");
    }

    #[test]
    fn spending_stops_at_the_quota() {
        let mut c = ConnectorConfig::default();
        c.values.insert("daily_quota".into(), "250".into());
        let y = Youtube::new(c, Http::new(crate::RetryPolicy::fast()));
        assert!(y.spend(SEARCH_COST).is_ok());
        assert!(y.spend(SEARCH_COST).is_ok());
        assert!(matches!(y.spend(SEARCH_COST), Err(CollectError::Quota { .. })));
        assert!(y.spend(VIDEOS_COST).is_ok());
        let saved = y.usage().unwrap();
        let again = Youtube::new(ConnectorConfig::default(), Http::new(crate::RetryPolicy::fast()));
        again.restore_usage(&saved);
        assert_eq!(again.usage().unwrap()["units"], 201);
    }
}
