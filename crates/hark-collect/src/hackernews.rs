//! Hacker News through the Algolia search API, `GET /api/v1/search_by_date`.
//!
//! Algolia ANDs the words of a query, so each AND phrase of the tracker is its own query. A sweep
//! fixes its window `created_at_i > since AND created_at_i <= until` first, so pages stay stable
//! while new items arrive, then walks every phrase page by page (`page`, `nbPages`). When the
//! sweep ends the next one starts a little before `until` ([`OVERLAP_SECS`]) to catch items
//! indexed late; the store drops the repeats. A backfill is one sweep over its range.

use hark_core::{now_millis, Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::html_text;
use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

pub const HITS_PER_PAGE: u32 = 100;
/// How far back the first sweep of a tracker reaches.
pub const FIRST_SWEEP_SECS: i64 = 14 * 86_400;
pub const OVERLAP_SECS: i64 = 300;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Lower bound (exclusive) of the sweep under way or the next one.
    pub since: Option<i64>,
    /// Upper bound (inclusive) of the sweep under way; `None` between sweeps.
    pub until: Option<i64>,
    pub phrase: usize,
    pub page: u32,
}

#[derive(Debug, Deserialize)]
pub(crate) struct SearchResponse {
    #[serde(default)]
    pub(crate) hits: Vec<Hit>,
    #[serde(default)]
    page: u32,
    #[serde(default, rename = "nbPages")]
    nb_pages: u32,
    #[serde(default, rename = "nbHits")]
    nb_hits: u64,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Hit {
    #[serde(rename = "objectID")]
    object_id: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    author: Option<String>,
    #[serde(default)]
    points: Option<i64>,
    #[serde(default)]
    num_comments: Option<i64>,
    #[serde(default)]
    story_text: Option<String>,
    #[serde(default)]
    comment_text: Option<String>,
    #[serde(default)]
    story_title: Option<String>,
    created_at_i: i64,
    #[serde(default, rename = "_tags")]
    tags: Vec<String>,
}

impl Hit {
    /// `None` for a hit whose time (seconds) is out of range in milliseconds.
    pub(crate) fn into_post(self) -> Option<Post> {
        let created = self.created_at_i.checked_mul(1000)?;
        let text = self.comment_text.as_deref().or(self.story_text.as_deref()).map(html_text).unwrap_or_default();
        let is_comment = self.tags.iter().any(|t| t == "comment");
        let item = format!("https://news.ycombinator.com/item?id={}", self.object_id);
        let mut p = Post::new(Platform::Forums, format!("hn-{}", self.object_id), text, created);
        p.title = self.title.or(self.story_title);
        p.url = Some(if is_comment { item } else { self.url.filter(|u| !u.is_empty()).unwrap_or(item) });
        if let Some(a) = self.author {
            p.author.id = format!("hn:{a}");
            p.author.username = a.clone();
            p.author.name = a;
        }
        p.counts.likes = self.points;
        p.counts.comments = self.num_comments;
        p.flags.is_reply = is_comment;
        p.source = Some("Hacker News".into());
        Some(p)
    }
}

pub struct HackerNews {
    config: ConnectorConfig,
    http: Http,
}

impl HackerNews {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http }
    }

    async fn search(&self, query: &str, since: i64, until: i64, page: u32) -> Result<SearchResponse, CollectError> {
        let url = format!("{}/api/v1/search_by_date", self.config.base(ConnectorKind::HackerNews));
        let params = [
            ("query", query.to_string()),
            ("tags", "(story,comment)".to_string()),
            ("numericFilters", format!("created_at_i>{since},created_at_i<={until}")),
            ("page", page.to_string()),
            ("hitsPerPage", HITS_PER_PAGE.to_string()),
        ];
        let resp = self.http.send(|c| c.get(&url).query(&params)).await?;
        let status = resp.status();
        if !status.is_success() {
            let body: Value = resp.json().await.unwrap_or(Value::Null);
            let message = body.get("message").and_then(Value::as_str).map(short).unwrap_or_else(|| "request failed".into());
            return Err(CollectError::Http { status: status.as_u16(), message });
        }
        resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))
    }
}

impl Connector for HackerNews {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::HackerNews
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let phrases = q.phrases();
            let now_s = now_millis() / 1000;
            let (since, until) = match (q.range, c.until) {
                (Some((start, end)), _) => (start / 1000 - 1, end / 1000 - 1),
                (None, Some(until)) => (c.since.unwrap_or(until - FIRST_SWEEP_SECS), until),
                (None, None) => (c.since.unwrap_or(now_s - FIRST_SWEEP_SECS), now_s),
            };
            let Some(phrase) = phrases.get(c.phrase) else {
                return Ok(Page { posts: vec![], cursor: write_cursor(&Cursor { since: Some(until - OVERLAP_SECS), ..Default::default() }), more: false });
            };
            let resp = self.search(phrase, since, until, c.page).await?;
            let posts: Vec<Post> = resp.hits.into_iter().filter_map(Hit::into_post).collect();
            if resp.page + 1 < resp.nb_pages {
                c.page = resp.page + 1;
            } else {
                c.page = 0;
                c.phrase += 1;
            }
            let more = c.phrase < phrases.len();
            if more {
                c.since = Some(since);
                c.until = Some(until);
            } else {
                c = Cursor { since: Some((until - OVERLAP_SECS).max(since)), ..Default::default() };
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    /// The sum of `nbHits` of each phrase over the window.
    fn estimate<'a>(&'a self, q: &'a TrackerQuery) -> BoxFuture<'a, Result<Option<u64>, CollectError>> {
        Box::pin(async move {
            let now_s = now_millis() / 1000;
            let (since, until) = q.range.map_or((now_s - FIRST_SWEEP_SECS, now_s), |(s, e)| (s / 1000 - 1, e / 1000 - 1));
            let mut total = 0u64;
            for phrase in q.phrases() {
                total += self.search(&phrase, since, until, 0).await?.nb_hits;
            }
            Ok(Some(total))
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let now = now_millis() / 1000;
            let r = self.search("hark", now - 86_400, now, 0).await?;
            Ok(format!("Search answered ({} pages for 'hark' today).", r.nb_pages))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_out_of_time_range_is_skipped() {
        // As in the collect_hackernews fuzz seeds: seconds times 1000 overflowed (a panic with
        // overflow checks, a wrapped time without).
        let hit = |at: i64| -> Hit {
            serde_json::from_value(serde_json::json!({"objectID": "1", "created_at_i": at, "_tags": ["story"]})).unwrap()
        };
        assert_eq!(hit(1_717_236_000).into_post().map(|p| p.created_at), Some(1_717_236_000_000));
        assert!(hit(i64::MAX).into_post().is_none());
        assert!(hit(i64::MIN).into_post().is_none());
    }
}
