//! X (Twitter) API v2 recent search, `GET /2/tweets/search/recent`.
//!
//! Polling walks a sweep from the newest tweet back with `next_token`; the sweep's first page
//! reports `meta.newest_id`, which becomes `since_id` once the sweep ends, so the next sweep
//! asks only for newer tweets. The cursor (since_id, next_token, the sweep's newest id) is saved
//! after each page; a restart continues the sweep at the saved `next_token`. A backfill asks for
//! `start_time`/`end_time` instead and ends when the last page has no `next_token`.
//!
//! Rate limits: 429 with `x-rate-limit-reset` (epoch seconds), handled by [`crate::http`].
//! Errors: problem documents `{title, detail, type, status}` or `{errors:[{message}], title}`.

use hark_core::Post;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::rfc3339;
use crate::{read_cursor, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

/// Longest query the standard recent search accepts.
pub const QUERY_MAX: usize = 512;
pub const PAGE_SIZE: u32 = 100;

const TWEET_FIELDS: &str = "created_at,author_id,lang,public_metrics,referenced_tweets,attachments,geo,source,entities,note_tweet";
const USER_FIELDS: &str = "name,username,verified,profile_image_url,location,description,public_metrics";
const EXPANSIONS: &str = "author_id,attachments.media_keys,referenced_tweets.id,geo.place_id";
const MEDIA_FIELDS: &str = "type,url,preview_image_url,variants";
const PLACE_FIELDS: &str = "full_name,country_code,geo";

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Tweets newer than this were not seen yet (polling).
    pub since_id: Option<String>,
    /// The next page of the sweep under way.
    pub next_token: Option<String>,
    /// The newest id of the sweep under way; becomes `since_id` when it ends.
    pub sweep_newest: Option<String>,
}

pub struct Twitter {
    config: ConnectorConfig,
    http: Http,
}

impl Twitter {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/2/tweets{path}", self.config.base(ConnectorKind::Twitter))
    }

    fn token(&self) -> &str {
        self.config.value("bearer_token").unwrap_or_default()
    }

    /// `GET /2/tweets{path}`: `/search/recent`, or `` for the lookup by ids.
    async fn get(&self, path: &str, params: &[(&str, String)]) -> Result<Value, CollectError> {
        let url = self.url(path);
        let resp = self.http.send(|c| c.get(&url).bearer_auth(self.token()).query(params)).await?;
        let status = resp.status();
        let body: Value = resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))?;
        if status.is_success() {
            return Ok(body);
        }
        let message = problem(&body);
        Err(match status.as_u16() {
            401 | 403 => CollectError::Auth(message),
            s => CollectError::Http { status: s, message },
        })
    }
}

/// The fields and expansions every tweet request asks for (search, lookup, filtered stream), so
/// all of them map to posts alike.
pub(crate) fn field_params() -> [(&'static str, String); 5] {
    [
        ("tweet.fields", TWEET_FIELDS.into()),
        ("user.fields", USER_FIELDS.into()),
        ("expansions", EXPANSIONS.into()),
        ("media.fields", MEDIA_FIELDS.into()),
        ("place.fields", PLACE_FIELDS.into()),
    ]
}

/// The message of an X API problem document.
fn problem(body: &Value) -> String {
    let first = body.get("errors").and_then(|e| e.get(0)).and_then(|e| e.get("message")).and_then(Value::as_str);
    let detail = body.get("detail").and_then(Value::as_str);
    let title = body.get("title").and_then(Value::as_str);
    first.or(detail).or(title).unwrap_or("request failed").to_string()
}

/// The recent-search query for a tracker: `(a OR b) c -x -is:retweet lang:en`.
pub fn build_query(q: &TrackerQuery) -> String {
    let term = |t: &str| {
        let t = t.trim();
        if t.contains(char::is_whitespace) {
            format!("\"{}\"", t.replace('"', ""))
        } else {
            t.to_string()
        }
    };
    let mut parts: Vec<String> = q
        .include
        .iter()
        .map(|row| {
            let terms: Vec<String> = row.iter().map(|t| term(t)).collect();
            if terms.len() == 1 {
                terms[0].clone()
            } else {
                format!("({})", terms.join(" OR "))
            }
        })
        .collect();
    parts.extend(q.exclude.iter().map(|t| format!("-{}", term(t))));
    if q.exclude_retweets {
        parts.push("-is:retweet".into());
    }
    if let Some(l) = &q.language {
        parts.push(format!("lang:{}", hark_core::query::primary_language(l)));
    }
    let mut s = parts.join(" ");
    if s.len() > QUERY_MAX {
        let mut cut = QUERY_MAX;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

pub(crate) fn posts_of(body: Value) -> Result<Vec<Post>, CollectError> {
    let mut out = Vec::new();
    for r in hark_ingest::import::xv2::posts_from_value(body) {
        match r {
            Ok(p) => out.push(p),
            Err(e) => tracing::debug!(error = %e, "tweet skipped"),
        }
    }
    Ok(out)
}

impl Connector for Twitter {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Twitter
    }

    fn searches_for_terms(&self) -> bool {
        true
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let mut params = vec![("query", build_query(q)), ("max_results", PAGE_SIZE.to_string())];
            params.extend(field_params());
            match q.range {
                Some((start, end)) => {
                    params.push(("start_time", rfc3339(start)));
                    params.push(("end_time", rfc3339(end)));
                }
                None => {
                    if let Some(s) = &c.since_id {
                        params.push(("since_id", s.clone()));
                    }
                }
            }
            if let Some(t) = &c.next_token {
                params.push(("next_token", t.clone()));
            }
            let body = self.get("/search/recent", &params).await?;
            let meta = body.get("meta").cloned().unwrap_or(Value::Null);
            let newest = meta.get("newest_id").and_then(Value::as_str).map(str::to_string);
            let next = meta.get("next_token").and_then(Value::as_str).map(str::to_string);
            if c.next_token.is_none() {
                c.sweep_newest = newest;
            }
            let posts = posts_of(body)?;
            let more = next.is_some();
            if more {
                c.next_token = next;
            } else {
                if let Some(n) = c.sweep_newest.take() {
                    c.since_id = Some(n);
                }
                c.next_token = None;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    /// `GET /2/tweets/counts/recent` (the last 7 days): `meta.total_tweet_count`.
    fn estimate<'a>(&'a self, q: &'a TrackerQuery) -> BoxFuture<'a, Result<Option<u64>, CollectError>> {
        Box::pin(async move {
            let url = format!("{}/2/tweets/counts/recent", self.config.base(ConnectorKind::Twitter));
            let mut params = vec![("query", build_query(q)), ("granularity", "day".to_string())];
            if let Some((start, end)) = q.range {
                // Recent counts reach back 7 days; an older start is clamped by the API's rule.
                let floor = hark_core::now_millis() - 7 * 86_400_000 + 60_000;
                params.push(("start_time", rfc3339(start.max(floor))));
                params.push(("end_time", rfc3339(end.min(hark_core::now_millis() - 30_000))));
            }
            let resp = self.http.send(|c| c.get(&url).bearer_auth(self.token()).query(&params)).await?;
            let status = resp.status();
            let body: Value = resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))?;
            if !status.is_success() {
                return Err(match status.as_u16() {
                    401 | 403 => CollectError::Auth(problem(&body)),
                    s => CollectError::Http { status: s, message: problem(&body) },
                });
            }
            Ok(body.pointer("/meta/total_tweet_count").and_then(Value::as_u64))
        })
    }

    fn looks_up(&self) -> bool {
        true
    }

    /// `GET /2/tweets?ids=` with the search's fields; a deleted or unknown tweet comes back in
    /// `errors` (resource-not-found) and gives `None`.
    fn lookup<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Post>, CollectError>> {
        Box::pin(async move {
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(None);
            }
            let mut params = vec![("ids", id.to_string())];
            params.extend(field_params());
            let body = self.get("", &params).await?;
            Ok(posts_of(body)?.into_iter().find(|p| p.id == id))
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let body = self.get("/search/recent", &[("query", "hark".to_string()), ("max_results", "10".into())]).await?;
            let n = body.pointer("/meta/result_count").and_then(Value::as_i64).unwrap_or(0);
            Ok(format!("Recent search answered ({n} recent posts for 'hark')."))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_has_rows_exclusions_and_filters() {
        let q = TrackerQuery {
            include: vec![vec!["#rust".into(), "rust lang".into()], vec!["tokio".into()]],
            exclude: vec!["spam".into()],
            exclude_retweets: true,
            language: Some("en-GB".into()),
            ..Default::default()
        };
        assert_eq!(build_query(&q), "(#rust OR \"rust lang\") tokio -spam -is:retweet lang:en");
        let long = TrackerQuery { include: vec![vec!["é".repeat(400)]], ..Default::default() };
        assert!(build_query(&long).len() <= QUERY_MAX);
    }
}
