//! TikTok Research API: a client token from `POST /v2/oauth/token/` (client credentials), then
//! `POST /v2/research/video/query/?fields=…` with a query of `and` / `or` / `not` conditions
//! (`{operation: "IN", field_name: "keyword" | "hashtag_name", field_values}`), a date window
//! `start_date`..`end_date` (`YYYYMMDD`, at most 30 days), and paging by `cursor` and
//! `search_id` while `has_more`. Errors come as `{error: {code, message, log_id}}`.
//!
//! Research data lags behind posting, so each sweep re-reads the last two days; the store keeps
//! one copy of each video.

use std::time::{Duration, Instant};

use hark_core::{now_millis, Millis, Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

const FIELDS: &str = "id,video_description,create_time,region_code,share_count,view_count,like_count,comment_count,username,hashtag_names";
pub const MAX_COUNT: u32 = 100;
const DAY: Millis = 86_400_000;
/// Days re-read by every sweep (research data arrives late).
pub const LAG_DAYS: i64 = 2;
/// The first sweep of a tracker reaches this far back.
pub const FIRST_SWEEP_DAYS: i64 = 7;
pub const MAX_WINDOW_DAYS: i64 = 30;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Start (ms, a UTC midnight) of the next sweep's window.
    pub from: Option<Millis>,
    /// The window of the sweep under way (ms, UTC midnights, end exclusive).
    pub window: Option<(Millis, Millis)>,
    pub cursor: Option<i64>,
    pub search_id: Option<String>,
}

fn day_string(ms: Millis) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.strftime("%Y%m%d").to_string()).unwrap_or_default()
}

fn midnight(ms: Millis) -> Millis {
    ms.div_euclid(DAY) * DAY
}

/// The Research API query for a tracker: each include row is an `and` condition over keywords
/// (terms with `#` search hashtags), exclusions a `not`.
pub fn research_query(q: &TrackerQuery) -> Value {
    let cond = |terms: &[String]| -> Vec<Value> {
        let (tags, words): (Vec<&String>, Vec<&String>) = terms.iter().partition(|t| t.trim().starts_with('#'));
        let mut out = Vec::new();
        if !words.is_empty() {
            out.push(json!({"operation": "IN", "field_name": "keyword", "field_values": words.iter().map(|t| crate::bare(t)).collect::<Vec<_>>()}));
        }
        if !tags.is_empty() {
            out.push(json!({"operation": "IN", "field_name": "hashtag_name", "field_values": tags.iter().map(|t| crate::bare(t)).collect::<Vec<_>>()}));
        }
        out
    };
    let mut query = serde_json::Map::new();
    let mut and = Vec::new();
    for row in &q.include {
        let c = cond(row);
        // A row mixing words and hashtags is "any of them": nested as its own `or`.
        if c.len() == 1 {
            and.extend(c);
        } else if !c.is_empty() {
            and.push(json!({"operation": "IN", "field_name": "keyword", "field_values": row.iter().map(|t| crate::bare(t)).collect::<Vec<_>>()}));
        }
    }
    query.insert("and".into(), Value::Array(and));
    let not = cond(&q.exclude);
    if !not.is_empty() {
        query.insert("not".into(), Value::Array(not));
    }
    Value::Object(query)
}

pub struct Tiktok {
    config: ConnectorConfig,
    http: Http,
    token: Mutex<Option<(String, Instant)>>,
}

impl Tiktok {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http, token: Mutex::new(None) }
    }

    fn base(&self) -> String {
        self.config.base(ConnectorKind::Tiktok)
    }

    async fn token(&self, fresh: bool) -> Result<String, CollectError> {
        let mut guard = self.token.lock().await;
        if let Some((t, until)) = guard.as_ref() {
            if !fresh && Instant::now() < *until {
                return Ok(t.clone());
            }
        }
        let url = format!("{}/v2/oauth/token/", self.base());
        let form = [
            ("client_key", self.config.value("client_key").unwrap_or_default().to_string()),
            ("client_secret", self.config.value("client_secret").unwrap_or_default().to_string()),
            ("grant_type", "client_credentials".to_string()),
        ];
        let resp = self.http.send(|c| c.post(&url).form(&form)).await?;
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        match body.get("access_token").and_then(Value::as_str) {
            Some(t) => {
                let ttl = body.get("expires_in").and_then(Value::as_u64).unwrap_or(7200);
                *guard = Some((t.to_string(), Instant::now() + Duration::from_secs(ttl.saturating_sub(60))));
                Ok(t.to_string())
            }
            None => {
                let msg = body
                    .get("error_description")
                    .or_else(|| body.pointer("/error/message"))
                    .and_then(Value::as_str)
                    .unwrap_or("the token request was refused");
                Err(CollectError::Auth(short(msg)))
            }
        }
    }

    async fn query(&self, body: &Value) -> Result<Value, CollectError> {
        let url = format!("{}/v2/research/video/query/", self.base());
        let mut renewed = false;
        loop {
            let token = self.token(renewed).await?;
            let resp = self.http.send(|c| c.post(&url).bearer_auth(&token).query(&[("fields", FIELDS)]).json(body)).await?;
            let status = resp.status();
            let v: Value = resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))?;
            let code = v.pointer("/error/code").and_then(Value::as_str).unwrap_or("ok");
            if status.is_success() && code == "ok" {
                return Ok(v);
            }
            let message = v.pointer("/error/message").and_then(Value::as_str).map(short).unwrap_or_default();
            match code {
                "access_token_invalid" if !renewed => {
                    renewed = true;
                    continue;
                }
                "access_token_invalid" | "scope_not_authorized" => return Err(CollectError::Auth(message)),
                "rate_limit_exceeded" => return Err(CollectError::RateLimited { wait: Duration::from_secs(3600) }),
                _ => return Err(CollectError::Http { status: status.as_u16(), message: format!("{code}: {message}") }),
            }
        }
    }
}

/// The videos of a query answer's `data` as posts.
pub(crate) fn videos_of(data: &Value) -> Vec<Post> {
    data.get("videos").and_then(Value::as_array).into_iter().flatten().filter_map(to_post).collect()
}

fn to_post(v: &Value) -> Option<Post> {
    let id = v.get("id").and_then(|i| i.as_i64().map(|n| n.to_string()).or_else(|| i.as_str().map(str::to_string)))?;
    let created = v.get("create_time")?.as_i64()?;
    let text = v.get("video_description").and_then(Value::as_str).unwrap_or_default();
    let mut p = Post::new(Platform::Tiktok, id.clone(), text, hark_core::post::normalize_timestamp(created, Platform::Tiktok));
    if let Some(u) = v.get("username").and_then(Value::as_str) {
        p.author.id = format!("tiktok:{u}");
        p.author.username = u.to_string();
        p.author.name = u.to_string();
        p.url = Some(format!("https://www.tiktok.com/@{u}/video/{id}"));
    }
    p.counts.views = v.get("view_count").and_then(Value::as_i64);
    p.counts.likes = v.get("like_count").and_then(Value::as_i64);
    p.counts.comments = v.get("comment_count").and_then(Value::as_i64);
    p.counts.shares = v.get("share_count").and_then(Value::as_i64);
    Some(p)
}

impl Connector for Tiktok {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Tiktok
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let today_end = midnight(now_millis()) + DAY;
            let (start, end) = match (q.range, c.window) {
                (_, Some(w)) => w,
                (Some((s, e)), None) => (midnight(s), midnight(e - 1) + DAY),
                (None, None) => (c.from.unwrap_or(today_end - FIRST_SWEEP_DAYS * DAY), today_end),
            };
            // At most 30 days a query: a longer window is read in slices.
            let slice_end = end.min(start + MAX_WINDOW_DAYS * DAY);
            let mut body = json!({
                "query": research_query(q),
                "start_date": day_string(start),
                "end_date": day_string(slice_end - DAY),
                "max_count": MAX_COUNT,
            });
            if let Some(cur) = c.cursor {
                body["cursor"] = json!(cur);
            }
            if let Some(id) = &c.search_id {
                body["search_id"] = json!(id);
            }
            let v = self.query(&body).await?;
            let data = v.get("data").cloned().unwrap_or(Value::Null);
            let posts = videos_of(&data);
            let has_more = data.get("has_more").and_then(Value::as_bool).unwrap_or(false);
            let more = if has_more {
                c.window = Some((start, end));
                c.cursor = data.get("cursor").and_then(Value::as_i64);
                c.search_id = data.get("search_id").and_then(Value::as_str).map(str::to_string);
                true
            } else if slice_end < end {
                c.window = Some((slice_end, end));
                c.cursor = None;
                c.search_id = None;
                true
            } else {
                c = Cursor { from: Some((end - LAG_DAYS * DAY).max(start)), ..Default::default() };
                false
            };
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn looks_up(&self) -> bool {
        true
    }

    /// A query on `video_id`. The API wants a date window: a video id carries its creation
    /// time (seconds) in its upper 32 bits, so the window is that UTC day and the next.
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Post>, CollectError>> {
        Box::pin(async move {
            let Ok(n) = id.parse::<u64>() else { return Ok(None) };
            let created = ((n >> 32) as i64).saturating_mul(1000);
            if created <= 0 || created > now_millis() + DAY {
                return Ok(None);
            }
            let day = midnight(created);
            let body = json!({
                "query": {"and": [{"operation": "EQ", "field_name": "video_id", "field_values": [id]}]},
                "start_date": day_string(day),
                "end_date": day_string(day + DAY),
                "max_count": 1,
            });
            let v = self.query(&body).await?;
            let videos = v.pointer("/data/videos").and_then(Value::as_array).cloned().unwrap_or_default();
            Ok(videos.iter().filter_map(to_post).find(|p| p.id == id))
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            self.token(true).await?;
            Ok("Client credentials accepted.".into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_and_conditions() {
        let q = TrackerQuery {
            include: vec![vec!["#coffee".into(), "#latte".into()], vec!["barista".into()]],
            exclude: vec!["spam".into(), "#ad".into()],
            ..Default::default()
        };
        assert_eq!(
            research_query(&q),
            json!({
                "and": [
                    {"operation": "IN", "field_name": "hashtag_name", "field_values": ["coffee", "latte"]},
                    {"operation": "IN", "field_name": "keyword", "field_values": ["barista"]}
                ],
                "not": [
                    {"operation": "IN", "field_name": "keyword", "field_values": ["spam"]},
                    {"operation": "IN", "field_name": "hashtag_name", "field_values": ["ad"]}
                ]
            })
        );
        assert_eq!(day_string(1_704_164_645_000), "20240102");
    }
}
