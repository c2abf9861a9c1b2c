//! Reddit search, `GET /search?sort=new` on oauth.reddit.com, with an app token from
//! `POST /api/v1/access_token` (`grant_type=client_credentials`, HTTP basic auth with the app's
//! id and secret). Listings come newest first as `{kind:"Listing", data:{after, children}}`;
//! a sweep pages back with `after` until it reaches posts older than the last sweep's newest
//! (the watermark), which then moves up. Rate limits: 429 and `x-ratelimit-reset` (seconds).

use std::time::{Duration, Instant};

use hark_core::{Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

pub const PAGE_SIZE: u32 = 100;
pub const DEFAULT_TOKEN_URL: &str = "https://www.reddit.com/api/v1/access_token";

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// `created_utc` of the newest post of the last finished sweep.
    pub watermark: Option<f64>,
    /// The next page of the sweep under way.
    pub after: Option<String>,
    /// The newest post of the sweep under way.
    pub sweep_top: Option<f64>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Listing {
    pub(crate) data: ListingData,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ListingData {
    #[serde(default)]
    after: Option<String>,
    #[serde(default)]
    pub(crate) children: Vec<Thing>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Thing {
    pub(crate) data: Link,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Link {
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    selftext: String,
    #[serde(default)]
    author: String,
    #[serde(default)]
    author_fullname: Option<String>,
    created_utc: f64,
    #[serde(default)]
    score: Option<i64>,
    #[serde(default)]
    num_comments: Option<i64>,
    #[serde(default)]
    permalink: String,
    #[serde(default)]
    subreddit_name_prefixed: Option<String>,
}

impl Link {
    pub(crate) fn into_post(self) -> Post {
        let mut p = Post::new(Platform::Forums, format!("reddit-{}", self.id), self.selftext, (self.created_utc * 1000.0) as i64);
        p.title = Some(self.title);
        p.url = Some(format!("https://www.reddit.com{}", self.permalink));
        p.author.id = self.author_fullname.unwrap_or_else(|| format!("reddit:{}", self.author));
        p.author.username = self.author.clone();
        p.author.name = self.author;
        p.counts.likes = self.score;
        p.counts.comments = self.num_comments;
        p.source = self.subreddit_name_prefixed.or(Some("Reddit".into()));
        p
    }
}

pub struct Reddit {
    config: ConnectorConfig,
    http: Http,
    token: Mutex<Option<(String, Instant)>>,
}

impl Reddit {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http, token: Mutex::new(None) }
    }

    async fn token(&self, fresh: bool) -> Result<String, CollectError> {
        let mut guard = self.token.lock().await;
        if let Some((t, until)) = guard.as_ref() {
            if !fresh && Instant::now() < *until {
                return Ok(t.clone());
            }
        }
        let url = self.config.value("token_url").unwrap_or(DEFAULT_TOKEN_URL).to_string();
        let (id, secret) = (self.config.value("client_id").unwrap_or_default(), self.config.value("client_secret"));
        let resp = self
            .http
            .send(|c| c.post(&url).basic_auth(id, secret).form(&[("grant_type", "client_credentials")]))
            .await?;
        let status = resp.status();
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        let token = body.get("access_token").and_then(Value::as_str);
        match token {
            Some(t) if status.is_success() => {
                let ttl = body.get("expires_in").and_then(Value::as_u64).unwrap_or(3600);
                // Renew a minute early.
                let until = Instant::now() + Duration::from_secs(ttl.saturating_sub(60));
                *guard = Some((t.to_string(), until));
                Ok(t.to_string())
            }
            _ => {
                let msg = body.get("error").map(|e| e.to_string()).unwrap_or_else(|| format!("token request answered {status}"));
                Err(CollectError::Auth(msg))
            }
        }
    }

    async fn search(&self, query: &str, after: Option<&str>) -> Result<Listing, CollectError> {
        let url = format!("{}/search", self.config.base(ConnectorKind::Reddit));
        let mut params = vec![
            ("q", query.to_string()),
            ("sort", "new".into()),
            ("type", "link".into()),
            ("limit", PAGE_SIZE.to_string()),
            ("raw_json", "1".into()),
        ];
        if let Some(a) = after {
            params.push(("after", a.to_string()));
        }
        let mut renewed = false;
        loop {
            let token = self.token(renewed).await?;
            let resp = self.http.send(|c| c.get(&url).bearer_auth(&token).query(&params)).await?;
            let status = resp.status();
            if status.as_u16() == 401 && !renewed {
                renewed = true;
                continue;
            }
            if !status.is_success() {
                let body = resp.text().await.unwrap_or_default();
                return Err(match status.as_u16() {
                    401 | 403 => CollectError::Auth(short(&body)),
                    s => CollectError::Http { status: s, message: short(&body) },
                });
            }
            return resp.json().await.map_err(|e| CollectError::Payload(e.to_string()));
        }
    }
}

impl Connector for Reddit {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Reddit
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let listing = self.search(&q.boolean("OR", "NOT "), c.after.as_deref()).await?;
            let (start, end) = match q.range {
                Some((s, e)) => (Some(s as f64 / 1000.0), Some(e as f64 / 1000.0)),
                None => (c.watermark, None),
            };
            let children = listing.data.children;
            if c.after.is_none() {
                c.sweep_top = children.iter().map(|t| t.data.created_utc).reduce(f64::max);
            }
            let reached_old = children.iter().any(|t| start.is_some_and(|s| t.data.created_utc < s));
            let posts: Vec<Post> = children
                .into_iter()
                .map(|t| t.data)
                .filter(|l| start.is_none_or(|s| l.created_utc >= s) && end.is_none_or(|e| l.created_utc < e))
                .map(Link::into_post)
                .collect();
            let more = listing.data.after.is_some() && !reached_old;
            if more {
                c.after = listing.data.after;
            } else {
                c.after = None;
                if let Some(top) = c.sweep_top.take() {
                    c.watermark = Some(c.watermark.map_or(top, |w| w.max(top)));
                }
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            self.token(true).await?;
            let l = self.search("hark", None).await?;
            Ok(format!("Signed in; search answered ({} recent posts for 'hark').", l.data.children.len()))
        })
    }
}
