//! News and blog feeds (RSS 0.9–2.0, Atom, JSON Feed; parsed by feed-rs).
//!
//! A tracker reads the shared feed list (connector setting `feeds`: one URL a line, `blogs URL`
//! for a blog) plus the feed URLs in its own web account list. Each page is one feed, fetched
//! with conditional GET (`If-None-Match` / `If-Modified-Since` from the last answer's `ETag` /
//! `Last-Modified`); a 304 costs nothing. Items already delivered from a feed are remembered by
//! id in the cursor (the newest [`SEEN_MAX`]), so a feed that repeats its items yields each once.

use std::collections::BTreeMap;

use hark_core::post::{Media, MediaKind};
use hark_core::{now_millis, Millis, Platform, Post};
use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use reqwest::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::{html_text, short_hash};
use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

/// Item ids remembered per feed.
pub const SEEN_MAX: usize = 1000;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FeedState {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Ids of items delivered, newest last.
    pub seen: Vec<String>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// Index of the feed the next page reads.
    pub next: usize,
    pub feeds: BTreeMap<String, FeedState>,
}

/// A feed to read and the platform its items count as.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    pub url: String,
    pub platform: Platform,
}

fn parse_line(line: &str, default: Platform) -> Option<Feed> {
    let (platform, url) = match line.split_once(char::is_whitespace) {
        Some((p, rest)) if p.eq_ignore_ascii_case("blogs") => (Platform::Blogs, rest.trim()),
        Some((p, rest)) if p.eq_ignore_ascii_case("news") => (Platform::News, rest.trim()),
        _ => (default, line.trim()),
    };
    (url.starts_with("http://") || url.starts_with("https://")).then(|| Feed { url: url.to_string(), platform })
}

/// The feed URL of a tracker's web list line (`URL`, `news URL` or `blogs URL`), if it has one.
pub fn feed_url_of(line: &str) -> Option<String> {
    parse_line(line, Platform::News).map(|f| f.url)
}

pub struct Rss {
    config: ConnectorConfig,
    http: Http,
    /// For tracker-listed feeds: connects to public addresses only (see [`crate::netguard`]).
    guarded: Http,
    /// Tracker-listed feeds may point at this machine or its private network (tests only).
    allow_private: bool,
}

/// Whether a URL names this machine or a private network by name or address literal: feeds
/// listed by tracker editors must not reach services behind the server. (The administrator's
/// shared list is trusted.)
pub fn is_private_url(url: &str) -> bool {
    let Ok(u) = reqwest::Url::parse(url) else { return true };
    match u.host() {
        None => true,
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost") || d.ends_with(".local") || d.ends_with(".internal")
        }
        Some(url::Host::Ipv4(ip)) => crate::netguard::is_private_ip(ip.into()),
        Some(url::Host::Ipv6(ip)) => crate::netguard::is_private_ip(ip.into()),
    }
}

impl Rss {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        let guarded = Http::public_only(http.policy.clone());
        Self { config, http, guarded, allow_private: false }
    }

    /// Lets tracker-listed feeds point at private addresses (tests against local fakes).
    pub fn allowing_private_feeds(mut self) -> Self {
        self.allow_private = true;
        self
    }

    /// The feeds a tracker reads: shared ones of the platforms it tracks, then its own.
    pub fn feeds_for(&self, q: &TrackerQuery) -> Vec<Feed> {
        let own_platform = if q.platforms.contains(Platform::News) { Platform::News } else { Platform::Blogs };
        let mut out: Vec<Feed> = Vec::new();
        let shared = self.config.lines("feeds").into_iter().filter_map(|l| parse_line(&l, Platform::News));
        let own = q
            .accounts
            .web
            .iter()
            .filter_map(|l| parse_line(l, own_platform))
            .filter(|f| self.allow_private || !is_private_url(&f.url));
        for f in shared.chain(own) {
            if q.platforms.contains(f.platform) && !out.iter().any(|o| o.url == f.url) {
                out.push(f);
            }
        }
        out
    }

    /// The client for a feed: the administrator's shared feeds are trusted; a tracker's own
    /// are fetched from public addresses only, resolved when connecting.
    fn client_for(&self, url: &str) -> &Http {
        let shared = self.config.lines("feeds").iter().filter_map(|l| parse_line(l, Platform::News)).any(|f| f.url == url);
        if shared || self.allow_private {
            &self.http
        } else {
            &self.guarded
        }
    }

    async fn read(&self, feed: &Feed, state: &mut FeedState) -> Result<Vec<Post>, CollectError> {
        let resp = self
            .client_for(&feed.url)
            .send(|c| {
                let mut r = c.get(&feed.url).header("accept", "application/rss+xml, application/atom+xml, application/xml, text/xml, application/feed+json;q=0.9, */*;q=0.5");
                if let Some(e) = &state.etag {
                    r = r.header(IF_NONE_MATCH, e);
                }
                if let Some(m) = &state.last_modified {
                    r = r.header(IF_MODIFIED_SINCE, m);
                }
                r
            })
            .await?;
        if resp.status() == StatusCode::NOT_MODIFIED {
            return Ok(Vec::new());
        }
        if !resp.status().is_success() {
            let status = resp.status().as_u16();
            let body = resp.text().await.unwrap_or_default();
            return Err(CollectError::Http { status, message: format!("{}: {}", feed.url, short(&body)) });
        }
        let header = |name| resp.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok()).map(str::to_string);
        let (etag, modified) = (header(ETAG), header(LAST_MODIFIED));
        let bytes = resp.bytes().await.map_err(|e| CollectError::Network(e.to_string()))?;
        let posts = posts_of(feed, bytes.as_ref(), state, now_millis())?;
        state.etag = etag;
        state.last_modified = modified;
        Ok(posts)
    }
}

/// The new items of a feed document as posts, remembering their ids in `state`; items without
/// a date are dated `now`.
pub(crate) fn posts_of(feed: &Feed, body: &[u8], state: &mut FeedState, now: Millis) -> Result<Vec<Post>, CollectError> {
    let parsed = feed_rs::parser::Builder::new().base_uri(Some(&feed.url)).build().parse(body)
        .map_err(|e| CollectError::Payload(format!("{}: {e}", feed.url)))?;
    let source = parsed.title.as_ref().map(|t| t.content.clone());
    // Atom entries without an author inherit the feed's.
    let feed_author = parsed.authors.first().map(|a| a.name.clone());
    let mut posts = Vec::new();
    for entry in parsed.entries {
        let link = entry.links.first().map(|l| l.href.clone());
        let item_id = if entry.id.is_empty() { link.clone().unwrap_or_default() } else { entry.id.clone() };
        if item_id.is_empty() || state.seen.contains(&item_id) {
            continue;
        }
        state.seen.push(item_id.clone());
        // The link names the article across feeds; the item id when there is none.
        let mut post = Post::new(
            feed.platform,
            short_hash(link.as_deref().unwrap_or(&item_id)),
            entry
                .content
                .as_ref()
                .and_then(|c| c.body.as_deref())
                .or(entry.summary.as_ref().map(|s| s.content.as_str()))
                .map(html_text)
                .unwrap_or_default(),
            entry.published.or(entry.updated).map_or(now, |t| t.timestamp_millis()),
        );
        post.title = entry.title.as_ref().map(|t| html_text(&t.content));
        post.url = link;
        if let Some(name) = entry.authors.first().map(|a| a.name.clone()).or(feed_author.clone()) {
            post.author.username = name.clone();
            post.author.name = name;
        }
        if post.author.name.is_empty() {
            post.author.name = source.clone().unwrap_or_default();
        }
        post.author.id = short_hash(&feed.url);
        post.source = source.clone();
        post.lang = parsed.language.clone();
        post.media = entry
            .media
            .iter()
            .flat_map(|m| m.thumbnails.iter().map(|t| Media {
                kind: MediaKind::Photo,
                url: t.image.uri.clone(),
                thumbnail_url: None,
                bitrate: None,
            }))
            .take(4)
            .collect();
        posts.push(post);
    }
    if state.seen.len() > SEEN_MAX {
        let drop = state.seen.len() - SEEN_MAX;
        state.seen.drain(..drop);
    }
    Ok(posts)
}

impl Connector for Rss {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Rss
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let feeds = self.feeds_for(q);
            // Forget feeds no longer listed.
            c.feeds.retain(|url, _| feeds.iter().any(|f| &f.url == url));
            let Some(feed) = feeds.get(c.next) else {
                c.next = 0;
                return Ok(Page { posts: Vec::new(), cursor: write_cursor(&c), more: false });
            };
            let mut state = c.feeds.get(&feed.url).cloned().unwrap_or_default();
            let posts = match self.read(feed, &mut state).await {
                Ok(p) => p,
                // One broken feed must not stop the others: skip it this sweep.
                Err(e @ (CollectError::Http { .. } | CollectError::Payload(_) | CollectError::Network(_))) => {
                    tracing::warn!(feed = %feed.url, error = %e, "feed skipped");
                    Vec::new()
                }
                Err(e) => return Err(e),
            };
            c.feeds.insert(feed.url.clone(), state);
            c.next += 1;
            let more = c.next < feeds.len();
            if !more {
                c.next = 0;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let feeds: Vec<Feed> =
                self.config.lines("feeds").iter().filter_map(|l| parse_line(l, Platform::News)).collect();
            if feeds.is_empty() {
                return Err(CollectError::NotConfigured("no feed URL in the list".into()));
            }
            let mut failed = Vec::new();
            for f in &feeds {
                if let Err(e) = self.read(f, &mut FeedState::default()).await {
                    failed.push(format!("{}: {e}", f.url));
                }
            }
            if failed.is_empty() {
                Ok(format!("{} feeds readable.", feeds.len()))
            } else {
                Err(CollectError::Payload(failed.join("; ")))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_told_apart() {
        for private in ["http://localhost/feed", "http://127.0.0.1:8080/x", "http://10.0.0.5/rss", "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data", "http://[::1]/", "http://[fd00::1]/", "http://printer.local/", "http://100.64.0.1/", "not a url"] {
            assert!(is_private_url(private), "{private}");
        }
        for public in ["https://news.example/feed", "http://93.184.216.34/rss", "https://[2001:db8::1]/"] {
            assert!(!is_private_url(public), "{public}");
        }
    }

    #[test]
    fn feed_lines_carry_their_platform() {
        assert_eq!(
            parse_line("blogs https://a.example/feed", Platform::News),
            Some(Feed { url: "https://a.example/feed".into(), platform: Platform::Blogs })
        );
        assert_eq!(parse_line("https://b.example/rss", Platform::News).unwrap().platform, Platform::News);
        assert_eq!(parse_line("not a url", Platform::News), None);
    }
}
