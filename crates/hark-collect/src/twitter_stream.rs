//! X (Twitter) API v2 filtered stream.
//!
//! Rules: one per running tracker that follows X, its recent-search query as the rule `value`
//! and `hark tracker {id}` as its `tag`. Before reading, `GET /2/tweets/search/stream/rules`
//! lists the app's rules; Hark's rules that no tracker asks for any more are deleted
//! (`POST …/rules` with `{"delete": {"ids": […]}}`) and missing ones added (`{"add": [{value,
//! tag}]}`). Rules of other tags are left alone.
//!
//! Stream: `GET /2/tweets/search/stream` answers with newline-delimited JSON, one
//! `{data, includes, matching_rules}` object a line, and a blank line every 20 seconds to keep
//! the connection alive; a silence of [`STALL`] means the connection is gone. A disconnection
//! is sent as `{"errors": [{"title": "operational-disconnect", …}]}`. The stream has no replay:
//! the cursor records the last tweet read, for the status page. Reconnection backs off as X
//! asks (see [`crate::stream::StreamBackoff`]); one connection per app, so the stream row's
//! lease keeps a second node from opening another (429 `TooManyConnections`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use hark_core::Post;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::stream::{Batch, StreamConnector};
use crate::twitter::build_query;
use crate::{read_cursor, write_cursor, BoxFuture, CollectError, ConnectorConfig, ConnectorKind, Http, TrackerQuery};

/// No byte (not even a keep-alive) for this long: reconnect.
pub const STALL: Duration = Duration::from_secs(30);
pub const TAG_PREFIX: &str = "hark tracker ";

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// The last tweet read.
    pub last_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Rule {
    pub id: String,
    pub value: String,
    #[serde(default)]
    pub tag: Option<String>,
}

struct Conn {
    resp: reqwest::Response,
    /// Bytes of a line not complete yet.
    buf: Vec<u8>,
    at: Option<String>,
}

pub struct TwitterStream {
    config: ConnectorConfig,
    http: Http,
    /// Without a total timeout: the stream stays open for hours.
    stream_client: reqwest::Client,
    conn: tokio::sync::Mutex<Option<Conn>>,
}

/// The rules the trackers ask for: tag to value.
pub fn wanted_rules(trackers: &[TrackerQuery]) -> BTreeMap<String, String> {
    trackers
        .iter()
        .filter(|q| q.platforms.contains(hark_core::Platform::Twitter))
        .map(|q| (format!("{TAG_PREFIX}{}", q.tracker_id), build_query(q)))
        .filter(|(_, v)| !v.trim().is_empty())
        .collect()
}

impl TwitterStream {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        let stream_client = reqwest::Client::builder()
            .user_agent(crate::http::USER_AGENT)
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self { config, http, stream_client, conn: tokio::sync::Mutex::new(None) }
    }

    fn base(&self) -> String {
        self.config.base(ConnectorKind::Twitter)
    }

    fn token(&self) -> &str {
        self.config.value("bearer_token").unwrap_or_default()
    }

    async fn json(&self, resp: reqwest::Response) -> Result<Value, CollectError> {
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

    pub async fn rules(&self) -> Result<Vec<Rule>, CollectError> {
        let url = format!("{}/2/tweets/search/stream/rules", self.base());
        let resp = self.http.send(|c| c.get(&url).bearer_auth(self.token())).await?;
        let body = self.json(resp).await?;
        match body.get("data") {
            Some(d) => serde_json::from_value(d.clone()).map_err(|e| CollectError::Payload(format!("rules: {e}"))),
            None => Ok(Vec::new()),
        }
    }

    async fn post_rules(&self, body: Value) -> Result<Value, CollectError> {
        let url = format!("{}/2/tweets/search/stream/rules", self.base());
        let resp = self.http.send(|c| c.post(&url).bearer_auth(self.token()).json(&body)).await?;
        self.json(resp).await
    }

    async fn open(&self) -> Result<reqwest::Response, CollectError> {
        let url = format!("{}/2/tweets/search/stream", self.base());
        let params = crate::twitter::field_params();
        let resp = self
            .stream_client
            .get(&url)
            .bearer_auth(self.token())
            .query(&params)
            .send()
            .await
            .map_err(|e| CollectError::Network(e.to_string()))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        if status.as_u16() == 429 {
            let wait = crate::http::rate_limit_wait(resp.headers(), std::time::SystemTime::now()).unwrap_or_default();
            return Err(CollectError::RateLimited { wait });
        }
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        let message = problem(&body);
        Err(match status.as_u16() {
            401 | 403 => CollectError::Auth(message),
            s => CollectError::Http { status: s, message },
        })
    }
}

/// The message of an X API problem document.
fn problem(body: &Value) -> String {
    let first = body.get("errors").and_then(|e| e.get(0));
    let msg = first.and_then(|e| e.get("message").or_else(|| e.get("detail"))).and_then(Value::as_str);
    let detail = body.get("detail").and_then(Value::as_str);
    let title = body.get("title").and_then(Value::as_str);
    msg.or(detail).or(title).unwrap_or("request failed").to_string()
}

/// What one line of the stream says.
pub(crate) enum Line {
    KeepAlive,
    Tweet(Box<Post>, String),
    Skipped,
    Disconnect(String),
}

pub(crate) fn read_line(line: &[u8]) -> Line {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.is_empty() {
        return Line::KeepAlive;
    }
    let Ok(v) = serde_json::from_str::<Value>(text) else { return Line::Skipped };
    if v.get("data").is_none() {
        if let Some(e) = v.get("errors").and_then(|e| e.get(0)) {
            let what = e.get("detail").or_else(|| e.get("title")).and_then(Value::as_str).unwrap_or("disconnected");
            return Line::Disconnect(what.to_string());
        }
        return Line::Skipped;
    }
    let rules: Vec<String> = v
        .get("matching_rules")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|r| r.get("tag").and_then(Value::as_str).map(str::to_string)).collect())
        .unwrap_or_default();
    match hark_ingest::import::xv2::posts_from_value(v).into_iter().next() {
        Some(Ok(p)) => Line::Tweet(Box::new(p), rules.join(", ")),
        Some(Err(e)) => {
            tracing::debug!(error = %e, "stream tweet skipped");
            Line::Skipped
        }
        None => Line::Skipped,
    }
}

impl StreamConnector for TwitterStream {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Twitter
    }

    fn sync<'a>(&'a self, trackers: &'a [TrackerQuery]) -> BoxFuture<'a, Result<(), CollectError>> {
        Box::pin(async move {
            let wanted = wanted_rules(trackers);
            let have = self.rules().await?;
            let stale: Vec<String> = have
                .iter()
                .filter(|r| r.tag.as_deref().is_some_and(|t| t.starts_with(TAG_PREFIX)))
                .filter(|r| wanted.get(r.tag.as_deref().unwrap_or_default()) != Some(&r.value))
                .map(|r| r.id.clone())
                .collect();
            let kept: BTreeSet<(String, String)> = have
                .iter()
                .filter(|r| !stale.contains(&r.id))
                .filter_map(|r| r.tag.clone().map(|t| (t, r.value.clone())))
                .collect();
            if !stale.is_empty() {
                self.post_rules(json!({"delete": {"ids": stale}})).await?;
            }
            let add: Vec<Value> = wanted
                .iter()
                .filter(|(t, v)| !kept.contains(&((*t).clone(), (*v).clone())))
                .map(|(t, v)| json!({"value": v, "tag": t}))
                .collect();
            if !add.is_empty() {
                let body = self.post_rules(json!({"add": add})).await?;
                // One tracker's bad rule must not stop the others.
                for e in body.get("errors").and_then(Value::as_array).into_iter().flatten() {
                    tracing::warn!(error = %e, "X stream rule not created");
                }
            }
            Ok(())
        })
    }

    fn next<'a>(&'a self, cursor: &'a Value, window: Duration) -> BoxFuture<'a, Result<Batch, CollectError>> {
        Box::pin(async move {
            let start: Cursor = read_cursor(cursor);
            let mut guard = self.conn.lock().await;
            if guard.as_ref().is_some_and(|c| c.at != start.last_id) {
                *guard = None;
            }
            if guard.is_none() {
                *guard = Some(Conn { resp: self.open().await?, buf: Vec::new(), at: start.last_id.clone() });
            }
            let deadline = tokio::time::Instant::now() + window;
            let mut posts = Vec::new();
            let mut last = start.last_id.clone();
            let mut ended: Option<CollectError> = None;
            {
                let conn = guard.as_mut().expect("connected above");
                loop {
                    let now = tokio::time::Instant::now();
                    if now >= deadline {
                        break;
                    }
                    let wait = (deadline - now).min(STALL);
                    let chunk = match tokio::time::timeout(wait, conn.resp.chunk()).await {
                        Err(_) if wait < STALL => break,
                        Err(_) => {
                            ended = Some(CollectError::Network(format!("no data or keep-alive for {} s", STALL.as_secs())));
                            break;
                        }
                        Ok(Err(e)) => {
                            ended = Some(CollectError::Network(e.to_string()));
                            break;
                        }
                        Ok(Ok(None)) => {
                            ended = Some(CollectError::Network("X closed the stream".into()));
                            break;
                        }
                        Ok(Ok(Some(c))) => c,
                    };
                    conn.buf.extend_from_slice(&chunk);
                    while let Some(i) = conn.buf.iter().position(|b| *b == b'\n') {
                        let line: Vec<u8> = conn.buf.drain(..=i).collect();
                        match read_line(&line) {
                            Line::KeepAlive | Line::Skipped => {}
                            Line::Tweet(p, rules) => {
                                tracing::trace!(id = %p.id, rules = %rules, "stream tweet");
                                last = Some(p.id.clone());
                                posts.push(*p);
                            }
                            Line::Disconnect(why) => {
                                ended = Some(CollectError::Network(format!("X ended the stream: {why}")));
                            }
                        }
                    }
                    if ended.is_some() {
                        break;
                    }
                }
                conn.at = last.clone();
            }
            if let Some(e) = ended {
                *guard = None;
                if posts.is_empty() {
                    return Err(e);
                }
                tracing::debug!(error = %e, "X stream ended after a partial batch");
            }
            Ok(Batch { posts, cursor: write_cursor(&Cursor { last_id: last }) })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let rules = self.rules().await?;
            let ours = rules.iter().filter(|r| r.tag.as_deref().is_some_and(|t| t.starts_with(TAG_PREFIX))).count();
            Ok(format!("Filtered stream rules readable ({} rules, {ours} of them Hark's).", rules.len()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_told_apart() {
        assert!(matches!(read_line(b"\r\n"), Line::KeepAlive));
        let tweet = br#"{"data":{"id":"1","text":"rust news","author_id":"9","created_at":"2024-01-02T03:04:05.000Z","edit_history_tweet_ids":["1"]},"includes":{"users":[{"id":"9","name":"A","username":"a"}]},"matching_rules":[{"id":"7","tag":"hark tracker 3"}]}"#;
        match read_line(tweet) {
            Line::Tweet(p, rules) => {
                assert_eq!((p.id.as_str(), p.author.username.as_str()), ("1", "a"));
                assert_eq!(rules, "hark tracker 3");
            }
            _ => panic!("not a tweet"),
        }
        let gone = br#"{"errors":[{"title":"operational-disconnect","disconnect_type":"UpstreamOperationalDisconnect","detail":"This stream has been disconnected upstream for operational reasons.","type":"https://api.twitter.com/2/problems/operational-disconnect"}]}"#;
        assert!(matches!(read_line(gone), Line::Disconnect(m) if m.contains("operational reasons")));
    }
}
