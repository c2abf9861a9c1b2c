//! Answers of the analytic reads, kept while they cannot have changed.
//!
//! An answer is named by everything it is made from: the request (path and query), the tracker's
//! row and its `post_version` (taken by every write that adds, removes or changes its posts, in
//! the write's own transaction), and who asks (user, role, share link, embed). A repeated read
//! with the same name is served from memory, and the browser's copy is confirmed with a 304 when
//! its `If-None-Match` carries the answer's ETag.
//!
//! While a tracker is being written its version moves every few milliseconds, so reads rarely
//! share a name. They still share work: reads of one *slot* (the same name but for the post
//! counters and version) pass a gate one computation at a time, and a read that arrived before a
//! computation started takes that computation's answer, since it was made from everything
//! committed when the read arrived. However many readers there are, a slot runs at most one
//! computation at a time, and no read ever waits longer than two of them. The posts page, which
//! is not kept (its visit markers are per user), shares its query the same way
//! ([`Answers::shared`]).
//!
//! What the name cannot see bounds how long an answer lives: a window relative to now (`days`)
//! moves, so such answers live [`RELATIVE_TTL`]; author profiles (names, avatars, followers) may
//! be refreshed by another tracker's posts, so any answer lives at most [`ABSOLUTE_TTL`]. Filters
//! on post or influencer tags are never kept (tagging does not move the version).

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequestParts, OriginalUri};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use moka::future::Cache;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};
use crate::extract::TrackerPage;
use crate::AppState;

/// How long an answer over a window relative to now is kept.
pub const RELATIVE_TTL: Duration = Duration::from_secs(10);
/// How long any other answer is kept.
pub const ABSOLUTE_TTL: Duration = Duration::from_secs(60);
/// Memory the kept answers may take together, in MB, unless configured.
pub const DEFAULT_MB: u64 = 64;

/// One kept answer: the JSON body and its ETag.
pub struct Answer {
    body: Bytes,
    etag: HeaderValue,
    ttl: Duration,
}

struct Lifetime;

impl moka::Expiry<[u8; 32], Arc<Answer>> for Lifetime {
    fn expire_after_create(&self, _key: &[u8; 32], value: &Arc<Answer>, _now: Instant) -> Option<Duration> {
        Some(value.ttl)
    }
}

/// The kept answers of a server, with counts of reads served from memory and computed.
pub struct Answers {
    cache: Cache<[u8; 32], Arc<Answer>>,
    enabled: bool,
    hits: AtomicU64,
    misses: AtomicU64,
    gates: Gates,
}

/// The last computation that passed a slot's gate: when it started and what it made.
struct Made {
    started: Instant,
    value: Arc<dyn Any + Send + Sync>,
}

type Gate = Arc<tokio::sync::Mutex<Option<Made>>>;

/// One gate per slot of reads; a gate nobody passed for a while is dropped.
struct Gates {
    slots: Cache<[u8; 32], Gate>,
    /// `HARK_SHARED_READS=0` (hidden; the load test's baseline) lets every read compute its own.
    off: bool,
}

impl Gates {
    fn new() -> Self {
        Self {
            slots: Cache::builder().max_capacity(8192).time_to_idle(Duration::from_secs(30)).build(),
            off: std::env::var("HARK_SHARED_READS").is_ok_and(|v| v == "0"),
        }
    }

    /// The value of a computation that started at or after `arrived`, made by `make` when the
    /// last one through the gate started before it. `reuse` may offer a value found meanwhile
    /// (a kept answer); it is taken as it is.
    async fn pass<T, R, F>(&self, slot: [u8; 32], arrived: Instant, reuse: R, make: F) -> ApiResult<(Arc<T>, bool)>
    where
        T: Any + Send + Sync,
        R: std::future::Future<Output = Option<Arc<T>>>,
        F: std::future::Future<Output = ApiResult<T>>,
    {
        if self.off {
            if let Some(value) = reuse.await {
                return Ok((value, false));
            }
            return Ok((Arc::new(make.await?), true));
        }
        let gate = self.slots.get_with(slot, async { Arc::new(tokio::sync::Mutex::new(None)) }).await;
        let mut last = gate.lock().await;
        if let Some(made) = last.as_ref().filter(|m| m.started >= arrived) {
            if let Ok(value) = Arc::clone(&made.value).downcast::<T>() {
                return Ok((value, false));
            }
        }
        if let Some(value) = reuse.await {
            return Ok((value, false));
        }
        let started = Instant::now();
        let value = Arc::new(make.await?);
        *last = Some(Made { started, value: Arc::clone(&value) as Arc<dyn Any + Send + Sync> });
        Ok((value, true))
    }
}

/// A read that may be answered from memory: its request (path and query, as sent) and the
/// caller's `If-None-Match`.
pub struct Ask {
    request: String,
    headers: HeaderMap,
}

impl<S: Send + Sync> FromRequestParts<S> for Ask {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let uri = parts.extensions.get::<OriginalUri>().map_or(&parts.uri, |o| &o.0);
        let request = uri.path_and_query().map_or_else(|| uri.path().to_string(), |pq| pq.as_str().to_string());
        let mut headers = HeaderMap::new();
        for v in parts.headers.get_all(header::IF_NONE_MATCH) {
            headers.append(header::IF_NONE_MATCH, v.clone());
        }
        Ok(Self { request, headers })
    }
}

impl Ask {
    /// The request's path and query, as sent.
    pub fn request(&self) -> &str {
        &self.request
    }

    /// The answer `make` computes for a tracker page's read, or the one kept for it.
    pub async fn serve<T, F>(self, state: &AppState, page: &TrackerPage, make: F) -> ApiResult<Response>
    where
        T: Serialize,
        F: std::future::Future<Output = ApiResult<T>>,
    {
        state.answers.serve(page, &self.request, &self.headers, make).await
    }
}

impl Default for Answers {
    fn default() -> Self {
        Self::new(DEFAULT_MB)
    }
}

impl Answers {
    /// Answers kept in at most `mb` MB; 0 keeps none.
    pub fn new(mb: u64) -> Self {
        let cache = Cache::builder()
            .max_capacity(mb.saturating_mul(1024 * 1024))
            .weigher(|_k: &[u8; 32], v: &Arc<Answer>| u32::try_from(v.body.len() + 128).unwrap_or(u32::MAX))
            .expire_after(Lifetime)
            .build();
        Self { cache, enabled: mb > 0, hits: AtomicU64::new(0), misses: AtomicU64::new(0), gates: Gates::new() }
    }

    /// What `make` computes, shared with the reads of the same `slot` that wait at its gate: a
    /// read takes the value of a computation that started after it arrived (at `arrived`, taken
    /// after the request's tracker row was read), or computes it. Nothing is kept beyond the
    /// next computation of the slot.
    pub async fn shared<T, F>(&self, slot: [u8; 32], arrived: Instant, make: F) -> ApiResult<Arc<T>>
    where
        T: Any + Send + Sync,
        F: std::future::Future<Output = ApiResult<T>>,
    {
        Ok(self.gates.pass(slot, arrived, std::future::ready(None), make).await?.0)
    }

    /// Reads served from memory and reads computed, since the start.
    pub fn counts(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }

    /// The answer of a tracker page's read: kept when it can be, computed by `make` otherwise;
    /// a 304 when the caller already holds it.
    pub async fn serve<T, F>(&self, page: &TrackerPage, request: &str, headers: &HeaderMap, make: F) -> ApiResult<Response>
    where
        T: Serialize,
        F: std::future::Future<Output = ApiResult<T>>,
    {
        let keepable = self.enabled && page.filter.post_tags.is_empty() && page.filter.influencer_tags.is_empty();
        if !keepable {
            self.misses.fetch_add(1, Ordering::Relaxed);
            let answer = render(make.await?, ABSOLUTE_TTL)?;
            return Ok(respond(&answer, headers, false));
        }
        let arrived = Instant::now();
        let ttl = if page.relative_range { RELATIVE_TTL } else { ABSOLUTE_TTL };
        let (key, slot) = names(page, request);
        if let Some(answer) = self.cache.get(&key).await {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(respond(&answer, headers, true));
        }
        let cache = &self.cache;
        let (answer, fresh) = self
            .gates
            .pass(
                slot,
                arrived,
                cache.get(&key),
                async move { render(make.await?, ttl) },
            )
            .await?;
        if !self.cache.contains_key(&key) {
            self.cache.insert(key, Arc::clone(&answer)).await;
        }
        if fresh { &self.misses } else { &self.hits }.fetch_add(1, Ordering::Relaxed);
        Ok(respond(&answer, headers, !fresh))
    }
}

/// Feeds a digest one length-prefixed part of a name.
fn part(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

fn part_opt(h: &mut Sha256, v: Option<&[u8]>) {
    match v {
        Some(b) => {
            h.update([1]);
            part(h, b);
        }
        None => h.update([0]),
    }
}

/// Feeds a digest the tracker's row but for what writes of its posts move (the version, the post
/// count, the first and last post times): the same for every read between two settings changes.
/// Every field is named, so a field added to the row is a compile error here until it is placed.
fn settings(row: &hark_store::TrackerRow, h: &mut Sha256) {
    let hark_store::TrackerRow {
        id,
        hash,
        friendly,
        title,
        owner_id,
        parent_id,
        status,
        created_at,
        updated_at,
        end_at,
        last_cached: _,
        last_paused,
        first_data_point: _,
        platforms,
        criteria,
        volume_limit,
        unlock_date,
        share_exports,
        media_moderation,
        custom_config,
        hide_auth_metrics,
        is_preview_mode,
        is_demo,
        total_posts: _,
        link_sharing,
        custom_url,
        share_hash,
        last_edit_mode,
        media_wall,
        moderation_key,
        owner_name,
        owner_trial_ends,
        post_version: _,
    } = row;
    for n in [id, owner_id, created_at, updated_at, platforms] {
        h.update(n.to_le_bytes());
    }
    for n in [parent_id, end_at, last_paused, volume_limit, owner_trial_ends] {
        part_opt(h, n.map(i64::to_le_bytes).as_ref().map(|b| &b[..]));
    }
    h.update([*unlock_date as u8, *share_exports as u8, *media_moderation as u8, *hide_auth_metrics as u8, *is_preview_mode as u8, *is_demo as u8]);
    for s in [hash, friendly, title, status, criteria, custom_config, link_sharing, media_wall, owner_name] {
        part(h, s.as_bytes());
    }
    for s in [custom_url, share_hash, last_edit_mode, moderation_key] {
        part_opt(h, s.as_deref().map(str::as_bytes));
    }
}

/// A text naming the tracker's settings ([`settings`]), for slots built from parts ([`slot`]).
pub fn unversioned(row: &hark_store::TrackerRow) -> String {
    let mut h = Sha256::new();
    settings(row, &mut h);
    hex::encode(h.finalize())
}

/// A slot's name for [`Answers::shared`]: a digest of its parts.
pub fn slot(parts: &[&str]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        part(&mut h, p.as_bytes());
    }
    h.finalize().into()
}

/// The names of an answer: `key`, a digest of the request, the tracker as it stands and who asks;
/// `slot`, the same but for what writes of posts move (the version, the post count, the first and
/// last post times). Both come from one pass: the key is the slot's digest continued.
fn names(page: &TrackerPage, request: &str) -> ([u8; 32], [u8; 32]) {
    let mut h = Sha256::new();
    part(&mut h, request.as_bytes());
    settings(&page.row, &mut h);
    for who in [
        format!("{:?}", page.user),
        format!("{:?}", page.perm),
        format!("{:?}", page.shared),
        format!("{}|{:?}|{:?}", page.embedded, page.tz, page.moderation_key),
    ] {
        part(&mut h, who.as_bytes());
    }
    let slot: [u8; 32] = h.clone().finalize().into();
    let row = &page.row;
    h.update(row.post_version.to_le_bytes());
    h.update(row.total_posts.to_le_bytes());
    for n in [row.first_data_point, row.last_cached] {
        part_opt(&mut h, n.map(i64::to_le_bytes).as_ref().map(|b| &b[..]));
    }
    (h.finalize().into(), slot)
}

fn render<T: Serialize>(value: T, ttl: Duration) -> ApiResult<Answer> {
    let body = serde_json::to_vec(&value).map_err(|e| ApiError::Internal(e.to_string()))?;
    let digest = Sha256::digest(&body);
    let etag = HeaderValue::from_str(&format!("W/\"{}\"", hex::encode(&digest[..16]))).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Answer { body: Bytes::from(body), etag, ttl })
}

/// 304 when `If-None-Match` names the answer's ETag (weak comparison, as for any GET), else the
/// answer. The browser keeps it and asks again each time (`no-cache`), so a changed answer shows at
/// once.
fn respond(answer: &Answer, headers: &HeaderMap, kept: bool) -> Response {
    let source = HeaderValue::from_static(if kept { "hit" } else { "miss" });
    let common = [
        (header::ETAG, answer.etag.clone()),
        (header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache")),
        (header::HeaderName::from_static("x-hark-answer"), source),
    ];
    if etag_matches(headers, &answer.etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (StatusCode::OK, common, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], answer.body.clone()).into_response()
}

/// Whether an `If-None-Match` list names `etag` (`*` names any).
fn etag_matches(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(ours) = etag.to_str() else { return false };
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || bare(t) == bare(ours))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn if_none_match_is_compared_weakly_and_as_a_list() {
        let etag = HeaderValue::from_static("W/\"abc\"");
        assert!(etag_matches(&with("W/\"abc\""), &etag));
        assert!(etag_matches(&with("\"abc\""), &etag));
        assert!(etag_matches(&with("W/\"x\", W/\"abc\""), &etag));
        assert!(etag_matches(&with("*"), &etag));
        assert!(!etag_matches(&with("W/\"abd\""), &etag));
        assert!(!etag_matches(&HeaderMap::new(), &etag));
    }

    /// A computation of a slot that counts itself and takes `ms`.
    async fn counted(runs: &AtomicU64, ms: u64) -> ApiResult<u64> {
        let n = runs.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(n)
    }

    #[tokio::test]
    async fn reads_that_arrive_during_a_computation_share_the_next_one() {
        let answers = Arc::new(Answers::new(1));
        let runs = Arc::new(AtomicU64::new(0));
        let slot = slot(&["a"]);
        let first = {
            let (a, r) = (answers.clone(), runs.clone());
            tokio::spawn(async move { *a.shared(slot, Instant::now(), counted(&r, 200)).await.unwrap() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        // Twenty reads arrive while the first computation runs: it cannot hold what was written
        // after it started, so they need another, and one more is enough for all of them.
        let mut late = Vec::new();
        for _ in 0..20 {
            let (a, r) = (answers.clone(), runs.clone());
            late.push(tokio::spawn(async move { *a.shared(slot, Instant::now(), counted(&r, 50)).await.unwrap() }));
        }
        assert_eq!(first.await.unwrap(), 1);
        for l in late {
            assert_eq!(l.await.unwrap(), 2);
        }
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        // A read arriving after both computations started takes neither.
        assert_eq!(*answers.shared(slot, Instant::now(), counted(&runs, 1)).await.unwrap(), 3);
        // Another slot never waits for this one's.
        assert_eq!(*answers.shared(super::slot(&["b"]), Instant::now(), counted(&runs, 1)).await.unwrap(), 4);
    }

    #[tokio::test]
    async fn a_failed_computation_is_not_shared() {
        let answers = Answers::new(1);
        let slot = slot(&["f"]);
        let arrived = Instant::now();
        let failed: ApiResult<Arc<u64>> = answers.shared(slot, arrived, async { Err(ApiError::Internal("down".into())) }).await;
        assert!(failed.is_err());
        // The same read again (arrived before any computation) computes rather than taking nothing.
        assert_eq!(*answers.shared(slot, arrived, async { Ok(7u64) }).await.unwrap(), 7);
        // A read that arrived before that computation started takes its value.
        assert_eq!(*answers.shared(slot, arrived, async { Ok(8u64) }).await.unwrap(), 7);
    }

    #[test]
    fn the_etag_follows_the_body() {
        let a = render(serde_json::json!({"posts": 1}), ABSOLUTE_TTL).unwrap();
        let b = render(serde_json::json!({"posts": 1}), RELATIVE_TTL).unwrap();
        let c = render(serde_json::json!({"posts": 2}), ABSOLUTE_TTL).unwrap();
        assert_eq!(a.etag, b.etag);
        assert_ne!(a.etag, c.etag);
        assert!(a.etag.to_str().unwrap().starts_with("W/\""));
    }
}
