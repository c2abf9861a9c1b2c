//! Mastodon hashtag timelines, `GET {server}/api/v1/timelines/tag/{hashtag}` (public; an
//! access token only for servers that hide public timelines). Statuses come newest first, 40 a
//! page at most, with a `Link` header: `rel="next"` carries the `max_id` of older statuses,
//! `rel="prev"` the `min_id` of newer ones.
//!
//! Each tracker reads each of its hashtags (its include terms that can be hashtags) on each
//! server: the administrator's list plus servers listed in the tracker's Mastodon list (those
//! are reached at public addresses only). Polling moves forward with `min_id`: the first run
//! takes the newest page, later runs ask for what came after the newest status stored, page by
//! page, so the cursor (per server and tag) is only ever the newest id already stored. A
//! backfill walks back with `max_id` until statuses are older than its range.
//!
//! Rate limits: `X-RateLimit-Remaining` / `X-RateLimit-Reset` (an ISO 8601 time) and 429,
//! handled by [`crate::http`]. Errors: `{"error": "..."}`.

use std::collections::BTreeMap;

use hark_core::post::{Media, MediaKind};
use hark_core::{Platform, Post};
use reqwest::header::{HeaderMap, LINK};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::{html_text_inline, parse_rfc3339, short_hash};
use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

pub const PAGE_SIZE: usize = 40;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TagState {
    /// Newest status id stored (polling asks for newer ones).
    pub min_id: Option<String>,
    /// The next older page of a backfill.
    pub max_id: Option<String>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Index of the next (server, tag) to read.
    pub next: usize,
    /// Keyed `server tag`.
    pub tags: BTreeMap<String, TagState>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Status {
    id: String,
    created_at: String,
    #[serde(default)]
    uri: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    content: String,
    #[serde(default)]
    spoiler_text: String,
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    replies_count: Option<i64>,
    #[serde(default)]
    reblogs_count: Option<i64>,
    #[serde(default)]
    favourites_count: Option<i64>,
    #[serde(default)]
    in_reply_to_id: Option<String>,
    account: Account,
    #[serde(default)]
    media_attachments: Vec<Attachment>,
}

#[derive(Debug, Deserialize)]
struct Account {
    #[serde(default)]
    id: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    acct: String,
    #[serde(default)]
    display_name: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    avatar: Option<String>,
    #[serde(default)]
    followers_count: Option<i64>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Attachment {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    preview_url: Option<String>,
}

pub struct Mastodon {
    config: ConnectorConfig,
    http: Http,
    /// For servers that trackers list: public addresses only.
    guarded: Http,
    allow_private: bool,
}

/// A hashtag a term can be searched as: letters, digits and `_` once `#` is dropped.
pub fn hashtag_of(term: &str) -> Option<String> {
    let t = crate::bare(term);
    (!t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| t.to_lowercase())
}

/// A server address from a list line: `https://host`, or a bare `host`.
pub fn server_of(line: &str) -> Option<String> {
    let l = line.trim().trim_end_matches('/');
    if l.is_empty() || l.contains('@') || l.contains(char::is_whitespace) {
        return None;
    }
    let url = if l.starts_with("https://") || l.starts_with("http://") { l.to_string() } else { format!("https://{l}") };
    let parsed = reqwest::Url::parse(&url).ok()?;
    (parsed.host_str().is_some_and(|h| h.contains('.') || h == "localhost" || h.parse::<std::net::IpAddr>().is_ok()))
        .then_some(url)
}

/// The `param` of the `Link` URL with relation `rel`.
pub(crate) fn link_param(h: &HeaderMap, rel: &str, param: &str) -> Option<String> {
    let link = h.get(LINK)?.to_str().ok()?;
    link.split(',').find_map(|part| {
        let (url, attrs) = part.split_once(';')?;
        let is_rel = attrs.split(';').any(|a| {
            let a = a.trim();
            a == format!("rel=\"{rel}\"") || a == format!("rel={rel}")
        });
        if !is_rel {
            return None;
        }
        let url = reqwest::Url::parse(url.trim().trim_start_matches('<').trim_end_matches('>')).ok()?;
        url.query_pairs().find(|(k, _)| k == param).map(|(_, v)| v.into_owned())
    })
}

/// Compares Mastodon ids (decimal strings of growing length).
fn newer(a: &str, b: &str) -> bool {
    (a.len(), a) > (b.len(), b)
}

impl Mastodon {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        let guarded = Http::public_only(http.policy.clone());
        Self { config, http, guarded, allow_private: false }
    }

    /// Lets tracker-listed servers be private addresses (tests against local fakes).
    pub fn allowing_private_servers(mut self) -> Self {
        self.allow_private = true;
        self
    }

    fn shared_servers(&self) -> Vec<String> {
        self.config.lines("servers").iter().filter_map(|l| server_of(l)).collect()
    }

    /// The (server, hashtag) pairs a tracker reads, in a stable order.
    pub fn pairs_for(&self, q: &TrackerQuery) -> Vec<(String, String)> {
        let mut servers = self.shared_servers();
        for s in q.accounts.mastodon.iter().filter_map(|l| server_of(l)) {
            if !servers.contains(&s) && (self.allow_private || !crate::rss::is_private_url(&s)) {
                servers.push(s);
            }
        }
        let mut tags: Vec<String> = Vec::new();
        for t in q.include.iter().flatten().filter_map(|t| hashtag_of(t)) {
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        servers.iter().flat_map(|s| tags.iter().map(move |t| (s.clone(), t.clone()))).collect()
    }

    async fn timeline(&self, server: &str, tag: &str, params: &[(&str, String)]) -> Result<(Vec<Status>, HeaderMap), CollectError> {
        let url = format!("{server}/api/v1/timelines/tag/{tag}");
        let shared = self.shared_servers().iter().any(|s| s == server);
        let http = if shared || self.allow_private { &self.http } else { &self.guarded };
        let resp = http
            .send(|c| {
                let mut r = c.get(&url).query(params).header("accept", "application/json");
                if let Some(t) = self.config.value("access_token") {
                    r = r.bearer_auth(t);
                }
                r
            })
            .await?;
        let status = resp.status();
        let headers = resp.headers().clone();
        if !status.is_success() {
            let body: Value = resp.json().await.unwrap_or(Value::Null);
            let message = body.get("error").and_then(Value::as_str).map(short).unwrap_or_else(|| "request failed".into());
            return Err(match status.as_u16() {
                401 | 403 => CollectError::Auth(format!("{server}: {message}")),
                s => CollectError::Http { status: s, message: format!("{server}: {message}") },
            });
        }
        let statuses: Vec<Status> = resp.json().await.map_err(|e| CollectError::Payload(format!("{server}: {e}")))?;
        Ok((statuses, headers))
    }
}

pub(crate) fn to_post(server: &str, s: Status) -> Option<Post> {
    let created = parse_rfc3339(&s.created_at)?;
    // The same status has a different id on each server; its `uri` is the same everywhere.
    let key = s.uri.clone().unwrap_or_else(|| format!("{server}/statuses/{}", s.id));
    let mut text = html_text_inline(&s.content);
    if !s.spoiler_text.trim().is_empty() {
        text = format!("{} {text}", s.spoiler_text.trim());
    }
    let mut p = Post::new(Platform::Mastodon, short_hash(&key), text, created);
    p.url = s.url.or(s.uri);
    let host = reqwest::Url::parse(server).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_default();
    let a = s.account;
    let acct = if a.acct.contains('@') || host.is_empty() { a.acct.clone() } else { format!("{}@{host}", a.acct) };
    p.author.id = a.url.clone().unwrap_or_else(|| format!("{server}/accounts/{}", a.id));
    p.author.username = if acct.is_empty() { a.username.clone() } else { acct };
    p.author.name = if a.display_name.trim().is_empty() { a.username.clone() } else { a.display_name.trim().to_string() };
    p.author.avatar_url = a.avatar.filter(|u| !u.is_empty());
    p.author.followers = a.followers_count;
    p.author.bio = a.note.as_deref().map(html_text_inline).filter(|n| !n.is_empty());
    p.lang = s.language;
    p.counts.likes = s.favourites_count;
    p.counts.retweets = s.reblogs_count;
    p.counts.replies = s.replies_count;
    p.flags.is_reply = s.in_reply_to_id.is_some();
    for m in s.media_attachments {
        let kind = match m.kind.as_str() {
            "image" => MediaKind::Photo,
            "video" => MediaKind::Video,
            "gifv" => MediaKind::Gif,
            "audio" => MediaKind::Audio,
            _ => continue,
        };
        if let Some(url) = m.url {
            p.media.push(Media { kind, url, thumbnail_url: m.preview_url, bitrate: None });
        }
    }
    p.source = Some(host);
    Some(p)
}

impl Connector for Mastodon {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Mastodon
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let pairs = self.pairs_for(q);
            let keys: Vec<String> = pairs.iter().map(|(s, t)| format!("{s} {t}")).collect();
            c.tags.retain(|k, _| keys.contains(k));
            let Some((server, tag)) = pairs.get(c.next).cloned() else {
                c.next = 0;
                return Ok(Page { posts: vec![], cursor: write_cursor(&c), more: false });
            };
            let key = format!("{server} {tag}");
            let mut st = c.tags.get(&key).cloned().unwrap_or_default();
            let mut params = vec![("limit", PAGE_SIZE.to_string())];
            let backfill = q.range;
            match (&backfill, &st.min_id, &st.max_id) {
                (Some(_), _, Some(max)) => params.push(("max_id", max.clone())),
                (Some(_), _, None) => {}
                (None, Some(min), _) => params.push(("min_id", min.clone())),
                (None, None, _) => {}
            }
            let (statuses, headers) = self.timeline(&server, &tag, &params).await?;
            let full = statuses.len() >= PAGE_SIZE;
            let newest = statuses.iter().map(|s| s.id.clone()).reduce(|a, b| if newer(&b, &a) { b } else { a });
            let oldest = statuses.iter().map(|s| s.id.clone()).reduce(|a, b| if newer(&a, &b) { b } else { a });
            let mut posts = Vec::new();
            let mut reached_start = false;
            for s in statuses {
                let Some(p) = to_post(&server, s) else { continue };
                if let Some((start, end)) = backfill {
                    if p.created_at < start {
                        reached_start = true;
                        continue;
                    }
                    if p.created_at >= end {
                        continue;
                    }
                }
                posts.push(p);
            }
            let pair_more = match backfill {
                Some(_) => {
                    let next = link_param(&headers, "next", "max_id").or(oldest);
                    let go = full && !reached_start && next.is_some();
                    st.max_id = if go { next } else { None };
                    go
                }
                None => {
                    let prev = link_param(&headers, "prev", "min_id");
                    let top = match (prev, newest) {
                        (Some(a), Some(b)) => Some(if newer(&a, &b) { a } else { b }),
                        (a, b) => a.or(b),
                    };
                    let had_min = st.min_id.is_some();
                    if let Some(t) = top {
                        if st.min_id.as_deref().is_none_or(|m| newer(&t, m)) {
                            st.min_id = Some(t);
                        }
                    }
                    // The first run takes the newest page only; later runs catch up page by page.
                    had_min && full
                }
            };
            if !pair_more {
                c.next += 1;
            }
            c.tags.insert(key, st);
            let more = c.next < pairs.len();
            if !more {
                c.next = 0;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let servers = self.shared_servers();
            if servers.is_empty() {
                return Err(CollectError::NotConfigured("no server in the list".into()));
            }
            let mut seen = 0;
            for s in &servers {
                let (statuses, _) = self.timeline(s, "fediverse", &[("limit", "5".into())]).await?;
                seen += statuses.len();
            }
            Ok(format!("{} servers answered ({seen} recent #fediverse posts).", servers.len()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn terms_servers_and_links() {
        assert_eq!(hashtag_of("#RustLang").as_deref(), Some("rustlang"));
        assert_eq!(hashtag_of("rust"), Some("rust".into()));
        assert_eq!(hashtag_of("rust lang"), None);
        assert_eq!(server_of("mastodon.social").as_deref(), Some("https://mastodon.social"));
        assert_eq!(server_of("https://fosstodon.org/").as_deref(), Some("https://fosstodon.org"));
        assert_eq!(server_of("@alice@mastodon.social"), None);
        assert_eq!(server_of("alice"), None);
        let mut h = HeaderMap::new();
        h.insert(LINK, HeaderValue::from_static("<https://m.example/api/v1/timelines/tag/rust?max_id=105>; rel=\"next\", <https://m.example/api/v1/timelines/tag/rust?min_id=140>; rel=\"prev\""));
        assert_eq!(link_param(&h, "next", "max_id").as_deref(), Some("105"));
        assert_eq!(link_param(&h, "prev", "min_id").as_deref(), Some("140"));
        assert!(newer("1000", "999") && !newer("999", "1000"));
    }
}
