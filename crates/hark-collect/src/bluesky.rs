//! Bluesky through Jetstream: a websocket at `{base}/subscribe?wantedCollections=app.bsky.feed.post`
//! sending one JSON event per message:
//!
//! ```json
//! {"did": "did:plc:…", "time_us": 1725911162329308, "kind": "commit",
//!  "commit": {"rev": "…", "operation": "create", "collection": "app.bsky.feed.post",
//!             "rkey": "3l3qo2vutsw2b", "record": {"$type": "app.bsky.feed.post", "text": "…",
//!             "createdAt": "…", "langs": ["en"]}, "cid": "bafyrei…"}}
//! ```
//!
//! `identity` events carry a `{did, handle}` pair (kept to name authors and link posts) and
//! `account` events are skipped. The cursor is the `time_us` of the last event read; Jetstream
//! replays from `?cursor=<time_us>`, so a reconnection or a restart continues with no gap (the
//! event at the cursor comes again, and the store keeps one copy). Every post of the network
//! passes by: the ingest pipeline keeps those that match a running tracker.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use futures_util::StreamExt;
use hark_core::post::{Media, MediaKind};
use hark_core::{now_millis, Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::stream::{Batch, StreamConnector};
use crate::util::parse_rfc3339;
use crate::{read_cursor, write_cursor, BoxFuture, CollectError, ConnectorConfig, ConnectorKind};

pub const COLLECTION: &str = "app.bsky.feed.post";
/// Events one batch reads at most.
pub const BATCH_MAX: usize = 5000;
/// Handles remembered (then forgotten all at once).
const HANDLES_MAX: usize = 200_000;

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    /// `time_us` of the last event read.
    pub time_us: Option<u64>,
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct Conn {
    ws: Ws,
    /// The cursor this connection has read up to.
    at: Option<u64>,
}

pub struct Bluesky {
    config: ConnectorConfig,
    conn: tokio::sync::Mutex<Option<Conn>>,
    handles: Mutex<HashMap<String, String>>,
}

#[derive(Debug, Deserialize)]
struct Event {
    did: String,
    time_us: u64,
    kind: String,
    #[serde(default)]
    commit: Option<Commit>,
    #[serde(default)]
    identity: Option<Identity>,
}

#[derive(Debug, Deserialize)]
struct Commit {
    operation: String,
    collection: String,
    rkey: String,
    #[serde(default)]
    record: Option<Value>,
    #[serde(default)]
    cid: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Identity {
    did: String,
    #[serde(default)]
    handle: Option<String>,
}

impl Bluesky {
    pub fn new(config: ConnectorConfig) -> Self {
        Self { config, conn: tokio::sync::Mutex::new(None), handles: Mutex::new(HashMap::new()) }
    }

    /// The subscribe URL from `cursor`.
    pub fn url(&self, cursor: Option<u64>) -> String {
        let base = self.config.base(ConnectorKind::Bluesky);
        let base = base.strip_suffix("/subscribe").unwrap_or(&base);
        let mut url = format!("{base}/subscribe?wantedCollections={COLLECTION}");
        if let Some(c) = cursor {
            url.push_str(&format!("&cursor={c}"));
        }
        url
    }

    async fn connect(&self, cursor: Option<u64>) -> Result<Ws, CollectError> {
        let url = self.url(cursor);
        let connect = tokio_tungstenite::connect_async(url.as_str());
        match tokio::time::timeout(Duration::from_secs(15), connect).await {
            Err(_) => Err(CollectError::Network("Jetstream did not answer within 15 s".into())),
            Ok(Ok((ws, _))) => Ok(ws),
            Ok(Err(tokio_tungstenite::tungstenite::Error::Http(resp))) => {
                let status = resp.status().as_u16();
                let body = resp.body().as_ref().map(|b| String::from_utf8_lossy(b).to_string()).unwrap_or_default();
                Err(match status {
                    429 => CollectError::RateLimited {
                        wait: crate::http::rate_limit_wait(resp.headers(), std::time::SystemTime::now())
                            .unwrap_or(Duration::from_secs(60)),
                    },
                    401 | 403 => CollectError::Auth(crate::short(&body)),
                    s => CollectError::Http { status: s, message: crate::short(&body) },
                })
            }
            Ok(Err(e)) => Err(CollectError::Network(e.to_string())),
        }
    }

    fn handle_of(&self, did: &str) -> Option<String> {
        self.handles.lock().unwrap_or_else(|p| p.into_inner()).get(did).cloned()
    }

    fn remember(&self, id: Identity) {
        let mut h = self.handles.lock().unwrap_or_else(|p| p.into_inner());
        if h.len() >= HANDLES_MAX {
            h.clear();
        }
        match id.handle {
            Some(handle) if !handle.is_empty() && handle != "handle.invalid" => {
                h.insert(id.did, handle);
            }
            _ => {
                h.remove(&id.did);
            }
        }
    }

    /// One Jetstream message: its `time_us` and the post it carries, if any (an identity
    /// event is remembered). `None` when the message is not an event.
    pub(crate) fn read_event(&self, text: &str) -> Option<(u64, Option<Post>)> {
        let event: Event = match serde_json::from_str(text) {
            Ok(e) => e,
            Err(e) => {
                tracing::debug!(error = %e, "Jetstream event skipped");
                return None;
            }
        };
        let time_us = event.time_us;
        let post = match event.kind.as_str() {
            "identity" => {
                if let Some(id) = event.identity {
                    self.remember(Identity { did: if id.did.is_empty() { event.did } else { id.did }, handle: id.handle });
                }
                None
            }
            "commit" => self.post_of(event),
            _ => None,
        };
        Some((time_us, post))
    }

    /// The post an event carries, if it is a post being created or edited.
    fn post_of(&self, e: Event) -> Option<Post> {
        let c = e.commit?;
        if c.collection != COLLECTION || !matches!(c.operation.as_str(), "create" | "update") {
            return None;
        }
        let record = c.record?;
        let text = record.get("text").and_then(Value::as_str).unwrap_or_default().to_string();
        let seen = (e.time_us / 1000) as i64;
        // `createdAt` is the client's claim: trusted unless it lies in the future.
        let created = record
            .get("createdAt")
            .and_then(Value::as_str)
            .and_then(parse_rfc3339)
            .filter(|t| *t <= now_millis() + 300_000)
            .unwrap_or(seen);
        let handle = self.handle_of(&e.did);
        let profile = handle.clone().unwrap_or_else(|| e.did.clone());
        let mut p = Post::new(Platform::Bluesky, format!("{}/{}", e.did, c.rkey), text, created);
        p.url = Some(format!("https://bsky.app/profile/{profile}/post/{}", c.rkey));
        p.author.id = e.did.clone();
        p.author.username = profile.clone();
        p.author.name = profile;
        p.lang = record.get("langs").and_then(|l| l.get(0)).and_then(Value::as_str).map(str::to_string);
        p.flags.is_reply = record.get("reply").is_some();
        if let Some(images) = record.pointer("/embed/images").and_then(Value::as_array) {
            for img in images {
                let Some(link) = img.pointer("/image/ref/$link").and_then(Value::as_str) else { continue };
                p.media.push(Media {
                    kind: MediaKind::Photo,
                    url: format!("https://cdn.bsky.app/img/feed_fullsize/plain/{}/{link}@jpeg", e.did),
                    thumbnail_url: Some(format!("https://cdn.bsky.app/img/feed_thumbnail/plain/{}/{link}@jpeg", e.did)),
                    bitrate: None,
                });
            }
        }
        if let Some(quoted) = record.pointer("/embed/record/uri").and_then(Value::as_str) {
            p.flags.is_quote = true;
            p.flags.quoted_url = Some(quoted.to_string());
        }
        p.source = c.cid;
        Some(p)
    }
}

impl StreamConnector for Bluesky {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Bluesky
    }

    fn next<'a>(&'a self, cursor: &'a Value, window: Duration) -> BoxFuture<'a, Result<Batch, CollectError>> {
        Box::pin(async move {
            let start: Cursor = read_cursor(cursor);
            let mut guard = self.conn.lock().await;
            if guard.as_ref().is_some_and(|c| c.at != start.time_us) {
                // The last batch was not saved: read it again from the saved cursor.
                *guard = None;
            }
            if guard.is_none() {
                *guard = Some(Conn { ws: self.connect(start.time_us).await?, at: start.time_us });
            }
            let deadline = tokio::time::Instant::now() + window;
            let mut posts = Vec::new();
            let mut last = start.time_us;
            let mut events = 0usize;
            let mut ended: Option<CollectError> = None;
            {
                let conn = guard.as_mut().expect("connected above");
                while events < BATCH_MAX {
                    let msg = match tokio::time::timeout_at(deadline, conn.ws.next()).await {
                        Err(_) => break,
                        Ok(None) => {
                            ended = Some(CollectError::Network("Jetstream closed the connection".into()));
                            break;
                        }
                        Ok(Some(Err(e))) => {
                            ended = Some(CollectError::Network(e.to_string()));
                            break;
                        }
                        Ok(Some(Ok(m))) => m,
                    };
                    let text = match msg {
                        Message::Text(t) => t.to_string(),
                        Message::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                        Message::Close(frame) => {
                            let why = frame.map(|f| f.reason.to_string()).filter(|r| !r.is_empty());
                            ended = Some(CollectError::Network(format!(
                                "Jetstream closed the connection{}",
                                why.map(|w| format!(": {w}")).unwrap_or_default()
                            )));
                            break;
                        }
                        _ => continue,
                    };
                    let Some((time_us, post)) = self.read_event(&text) else { continue };
                    events += 1;
                    last = Some(last.map_or(time_us, |l| l.max(time_us)));
                    posts.extend(post);
                }
                conn.at = last;
            }
            if let Some(e) = ended {
                *guard = None;
                if events == 0 {
                    return Err(e);
                }
                tracing::debug!(error = %e, "Jetstream connection ended after a partial batch");
            }
            Ok(Batch { posts, cursor: write_cursor(&Cursor { time_us: last }) })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let mut ws = self.connect(None).await?;
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            let mut events = 0;
            while let Ok(Some(Ok(m))) = tokio::time::timeout_at(deadline, ws.next()).await {
                if matches!(m, Message::Text(_) | Message::Binary(_)) {
                    events += 1;
                    if events >= 20 {
                        break;
                    }
                }
            }
            let _ = ws.close(None).await;
            if events == 0 {
                return Err(CollectError::Network("Jetstream connected but sent no event within 5 s".into()));
            }
            Ok(format!("Jetstream is streaming ({events} events read)."))
        })
    }
}
