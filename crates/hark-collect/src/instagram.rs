//! Instagram hashtag search (Instagram API with Facebook Login): `GET /ig_hashtag_search?user_id=&q=`
//! gives a hashtag's id, then `GET /{hashtag-id}/recent_media?user_id=&fields=…` lists media of
//! the last 24 hours newest first, 50 a page with an `after` cursor.
//!
//! Instagram allows 30 unique hashtags per business account in a rolling 7 days; a hashtag
//! counts from its first query. The hashtags queried and when are kept as connector usage (so a
//! restart does not forget them), a tracker term that would be the 31st waits until a slot
//! frees, and the settings check shows how many are in use.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use hark_core::post::{Media, MediaKind};
use hark_core::{now_millis, Millis, Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::graph::{self, parse_time};
use crate::{read_cursor, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

pub const HASHTAG_LIMIT: usize = 30;
pub const HASHTAG_WINDOW_MS: Millis = 7 * 86_400_000;
const MEDIA_FIELDS: &str = "id,caption,media_type,media_url,permalink,timestamp,like_count,comments_count";

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Usage {
    /// Hashtag → when it was first queried (ms).
    pub searched: BTreeMap<String, Millis>,
    /// Hashtag → its Instagram id (ids are static).
    pub ids: BTreeMap<String, String>,
}

impl Usage {
    fn active(&self, now: Millis) -> usize {
        self.searched.values().filter(|at| now - **at < HASHTAG_WINDOW_MS).count()
    }
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TagState {
    pub watermark: Option<Millis>,
    pub after: Option<String>,
    pub sweep_top: Option<Millis>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    pub next: usize,
    pub tags: BTreeMap<String, TagState>,
}

/// Hashtags of a tracker's include terms: lower case, no `#`, letters, digits and `_` only.
pub fn hashtags(q: &TrackerQuery) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in q.include.iter().flatten() {
        let tag: String = crate::bare(t).to_lowercase().chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
        if !tag.is_empty() && !out.contains(&tag) {
            out.push(tag);
        }
    }
    out
}

pub struct Instagram {
    config: ConnectorConfig,
    http: Http,
    usage: Mutex<Usage>,
}

impl Instagram {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http, usage: Mutex::new(Usage::default()) }
    }

    fn user_id(&self) -> String {
        self.config.value("ig_user_id").unwrap_or_default().to_string()
    }

    /// The hashtag's id, counting it against the weekly limit when it is new.
    async fn hashtag_id(&self, tag: &str) -> Result<String, CollectError> {
        let now = now_millis();
        {
            let mut u = self.usage.lock().unwrap_or_else(|p| p.into_inner());
            let fresh = u.searched.get(tag).is_none_or(|at| now - at >= HASHTAG_WINDOW_MS);
            if fresh {
                if u.active(now) >= HASHTAG_LIMIT {
                    let oldest = u.searched.values().filter(|at| now - **at < HASHTAG_WINDOW_MS).min().copied().unwrap_or(now);
                    let wait = Duration::from_millis((oldest + HASHTAG_WINDOW_MS - now).max(1000) as u64);
                    return Err(CollectError::Quota {
                        message: format!("{HASHTAG_LIMIT} hashtags already searched this week; #{tag} waits for a free slot"),
                        wait,
                    });
                }
            } else if let Some(id) = u.ids.get(tag) {
                return Ok(id.clone());
            }
            if fresh {
                u.searched.insert(tag.to_string(), now);
            }
            if let Some(id) = u.ids.get(tag) {
                return Ok(id.clone());
            }
        }
        let body = graph::get(&self.http, &self.config, ConnectorKind::Instagram, "ig_hashtag_search", &[
            ("user_id", self.user_id()),
            ("q", tag.to_string()),
        ])
        .await?;
        let id = body
            .pointer("/data/0/id")
            .and_then(Value::as_str)
            .ok_or_else(|| CollectError::Payload(format!("no hashtag id for #{tag}")))?
            .to_string();
        self.usage.lock().unwrap_or_else(|p| p.into_inner()).ids.insert(tag.to_string(), id.clone());
        Ok(id)
    }
}

/// The media of a `recent_media` answer as posts.
pub(crate) fn media_of(body: &Value) -> Vec<Post> {
    body.get("data").and_then(Value::as_array).into_iter().flatten().filter_map(to_post).collect()
}

fn to_post(m: &Value) -> Option<Post> {
    let id = m.get("id")?.as_str()?;
    let created = parse_time(m.get("timestamp")?.as_str()?)?;
    let text = m.get("caption").and_then(Value::as_str).unwrap_or_default();
    let mut p = Post::new(Platform::Instagram, id, text, created);
    p.url = m.get("permalink").and_then(Value::as_str).map(str::to_string);
    p.counts.likes = m.get("like_count").and_then(Value::as_i64);
    p.counts.comments = m.get("comments_count").and_then(Value::as_i64);
    let kind = match m.get("media_type").and_then(Value::as_str) {
        Some("VIDEO") => MediaKind::Video,
        Some("CAROUSEL_ALBUM") => MediaKind::Carousel,
        _ => MediaKind::Photo,
    };
    if let Some(url) = m.get("media_url").and_then(Value::as_str) {
        p.media = vec![Media { kind, url: url.to_string(), thumbnail_url: None, bitrate: None }];
    }
    // Hashtag media do not name their author (the API leaves `username` out).
    Some(p)
}

impl Connector for Instagram {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Instagram
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let tags = hashtags(q);
            c.tags.retain(|t, _| tags.contains(t));
            let Some(tag) = tags.get(c.next).cloned() else {
                c.next = 0;
                return Ok(Page { posts: vec![], cursor: write_cursor(&c), more: false });
            };
            let id = self.hashtag_id(&tag).await?;
            let mut st = c.tags.get(&tag).cloned().unwrap_or_default();
            let mut params = vec![("user_id", self.user_id()), ("fields", MEDIA_FIELDS.to_string()), ("limit", "50".into())];
            if let Some(a) = &st.after {
                params.push(("after", a.clone()));
            }
            let body = graph::get(&self.http, &self.config, ConnectorKind::Instagram, &format!("{id}/recent_media"), &params).await?;
            let media = media_of(&body);
            if st.after.is_none() {
                st.sweep_top = media.iter().map(|p| p.created_at).max();
            }
            let start = q.range.map(|r| r.0).or(st.watermark);
            let end = q.range.map(|r| r.1);
            let reached_old = media.iter().any(|p| start.is_some_and(|s| p.created_at < s));
            let posts: Vec<Post> = media
                .into_iter()
                .filter(|p| start.is_none_or(|s| p.created_at >= s) && end.is_none_or(|e| p.created_at < e))
                .collect();
            let next = body.pointer("/paging/cursors/after").and_then(Value::as_str).map(str::to_string);
            let has_next = body.pointer("/paging/next").is_some();
            if has_next && !reached_old && next.is_some() {
                st.after = next;
            } else {
                st.after = None;
                if let Some(top) = st.sweep_top.take() {
                    st.watermark = Some(st.watermark.map_or(top, |w| w.max(top)));
                }
                c.next += 1;
            }
            c.tags.insert(tag, st);
            let more = c.next < tags.len();
            if !more {
                c.next = 0;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let body = graph::get(&self.http, &self.config, ConnectorKind::Instagram, &self.user_id(), &[
                ("fields", "id,username".to_string()),
            ])
            .await?;
            let name = body.get("username").and_then(Value::as_str).unwrap_or("the account");
            let used = self.usage.lock().unwrap_or_else(|p| p.into_inner()).active(now_millis());
            Ok(format!("Signed in as {name}; {used} of {HASHTAG_LIMIT} hashtags used in the last 7 days."))
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
    fn tracker_terms_become_hashtags() {
        let q = TrackerQuery {
            include: vec![vec!["#Coffee".into(), "cold brew".into()], vec!["@barista".into(), "#coffee".into()]],
            ..Default::default()
        };
        assert_eq!(hashtags(&q), ["coffee", "coldbrew", "barista"]);
    }
}
