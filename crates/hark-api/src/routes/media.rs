//! Pictures and videos of posts, served from Hark's own address: the demo's media (made by
//! `hark_ingest::demo::media`) and a proxy for platform media. The proxy fetches only addresses
//! this server handed out (each carries a tag made with the server's secret key), only from
//! public hosts (the collectors' address guard: no private networks, checked again at every
//! connection and redirect), only images (not SVG, which can carry scripts) and video, up to a
//! size; small images are kept in memory for the next viewer, and browsers may cache a day.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use crate::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::error::ApiError;
use crate::AppState;
use hark_core::Code;

/// Where the proxy answers.
pub const PROXY_PATH: &str = "/media/proxy";
/// Largest image fetched.
pub const IMAGE_MAX: usize = 10 << 20;
/// Largest video passed through.
pub const VIDEO_MAX: u64 = 64 << 20;
/// Images up to this size are kept in memory, up to [`CACHE_BUDGET`] in all.
const CACHE_ITEM_MAX: usize = 2 << 20;
const CACHE_BUDGET: usize = 64 << 20;
const TAG_PURPOSE: &str = "media-proxy";
const BROWSER_CACHE: &str = "public, max-age=86400";

/// The proxy's HTTP clients and its memory of recent images.
pub struct MediaProxy {
    client: reqwest::Client,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    items: HashMap<String, (Bytes, HeaderValue)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Cache {
    fn get(&self, url: &str) -> Option<(Bytes, HeaderValue)> {
        self.items.get(url).cloned()
    }

    fn put(&mut self, url: String, body: Bytes, content_type: HeaderValue) {
        if body.len() > CACHE_ITEM_MAX || self.items.contains_key(&url) {
            return;
        }
        self.bytes += body.len();
        self.order.push_back(url.clone());
        self.items.insert(url, (body, content_type));
        while self.bytes > CACHE_BUDGET {
            let Some(old) = self.order.pop_front() else { break };
            if let Some((b, _)) = self.items.remove(&old) {
                self.bytes -= b.len();
            }
        }
    }
}

impl MediaProxy {
    /// `allow_private`: also fetch from this machine and private networks (tests' fake hosts).
    pub fn new(allow_private: bool) -> Self {
        let builder = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(30))
            .user_agent("Hark media proxy");
        let builder = if allow_private { builder } else { hark_collect::netguard::public_only(builder) };
        Self { client: builder.build().unwrap_or_default(), cache: Mutex::new(Cache::default()) }
    }
}

/// The address the page loads a post's media from: demo media as they are, platform media
/// through the proxy, anything else (not http or https) not at all.
pub fn served_url(state: &AppState, url: &str) -> Option<String> {
    if url.starts_with(hark_ingest::demo::media::PREFIX) {
        return Some(url.to_string());
    }
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let mut q = url::form_urlencoded::Serializer::new(String::new());
    q.append_pair("u", url);
    q.append_pair("s", &state.secret_key.tag(TAG_PURPOSE, url.as_bytes()));
    Some(format!("{PROXY_PATH}?{}", q.finish()))
}

/// A demo picture or clip.
pub async fn demo_media(Path(path): Path<String>) -> Response {
    match hark_ingest::demo::media::file(&path) {
        Some(f) => (
            [(header::CONTENT_TYPE, HeaderValue::from_static(f.content_type)), (header::CACHE_CONTROL, HeaderValue::from_static(BROWSER_CACHE))],
            f.body,
        )
            .into_response(),
        None => ApiError::not_found("Media").into_response(),
    }
}

#[derive(Deserialize)]
pub struct ProxyParams {
    u: Option<String>,
    s: Option<String>,
}

fn refuse(code: Code, message: &str) -> Response {
    ApiError::new(code, message).into_response()
}

/// An image or video from a platform, through Hark.
pub async fn proxy(State(state): State<AppState>, Query(p): Query<ProxyParams>, headers: HeaderMap) -> Response {
    let (Some(url), Some(tag)) = (p.u, p.s) else {
        return refuse(Code::InvalidQuery, "Give the media address (u) and its tag (s).");
    };
    if !state.secret_key.tag_matches(TAG_PURPOSE, url.as_bytes(), &tag) {
        return refuse(Code::Forbidden, "This media address was not given out by this server.");
    }
    let proxy = &state.media;
    let cached = proxy.cache.lock().ok().and_then(|c| c.get(&url));
    if let Some((body, content_type)) = cached {
        return media_response(StatusCode::OK, content_type, None, body.into());
    }
    if !state.config.media_allow_private {
        if let Some(why) = hark_collect::netguard::private_url_reason(&url).await {
            return refuse(Code::PrivateAddress, &format!("This media address cannot be fetched: {why}."));
        }
    }
    let mut req = proxy.client.get(&url);
    if let Some(range) = headers.get(header::RANGE) {
        req = req.header(header::RANGE, range.clone());
    }
    let resp = match req.send().await {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!(error = %e, "media proxy fetch failed");
            return refuse(Code::NotFound, "The media could not be fetched from its platform.");
        }
    };
    if !(resp.status().is_success()) {
        return refuse(Code::NotFound, "The media is not available on its platform.");
    }
    let content_type = resp.headers().get(header::CONTENT_TYPE).cloned().unwrap_or(HeaderValue::from_static(""));
    let kind = content_type.to_str().unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let is_image = kind.starts_with("image/") && kind != "image/svg+xml";
    let is_video = kind.starts_with("video/");
    if !is_image && !is_video {
        return refuse(Code::InvalidContentType, "Only images and videos are served.");
    }
    if is_video {
        if resp.content_length().is_some_and(|n| n > VIDEO_MAX) {
            return refuse(Code::PayloadTooLarge, "The video is too large to serve.");
        }
        let status = resp.status();
        let range = resp.headers().get(header::CONTENT_RANGE).cloned();
        let length = resp.content_length();
        // Passed through as it comes, cut off past the limit.
        // u64::MAX marks a stream that ended in an error.
        let stream = futures_util::stream::unfold((resp, 0u64), |(mut resp, sent)| async move {
            if sent == u64::MAX {
                return None;
            }
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    let sent = sent.saturating_add(chunk.len() as u64);
                    if sent > VIDEO_MAX {
                        Some((Err(std::io::Error::other("video larger than the proxy serves")), (resp, u64::MAX)))
                    } else {
                        Some((Ok(chunk), (resp, sent)))
                    }
                }
                Ok(None) => None,
                Err(e) => Some((Err(std::io::Error::other(e)), (resp, u64::MAX))),
            }
        });
        let mut r = media_response(status, content_type, range, Body::from_stream(stream));
        if let Some(n) = length {
            r.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(n));
        }
        return r;
    }
    if resp.content_length().is_some_and(|n| n > IMAGE_MAX as u64) {
        return refuse(Code::PayloadTooLarge, "The image is too large to serve.");
    }
    let mut resp = resp;
    let mut body = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(_) => return refuse(Code::NotFound, "The media could not be fetched from its platform."),
        }
        if body.len() > IMAGE_MAX {
            return refuse(Code::PayloadTooLarge, "The image is too large to serve.");
        }
    }
    let body = Bytes::from(body);
    if let Ok(mut c) = proxy.cache.lock() {
        c.put(url, body.clone(), content_type.clone());
    }
    media_response(StatusCode::OK, content_type, None, body.into())
}

fn media_response(status: StatusCode, content_type: HeaderValue, range: Option<HeaderValue>, body: Body) -> Response {
    let mut r = Response::new(body);
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, content_type);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(BROWSER_CACHE));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Some(range) = range {
        h.insert(header::CONTENT_RANGE, range);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_to_its_budget_and_leaves_large_images_out() {
        let mut c = Cache::default();
        let ct = HeaderValue::from_static("image/png");
        c.put("big".into(), Bytes::from(vec![0u8; CACHE_ITEM_MAX + 1]), ct.clone());
        assert!(c.get("big").is_none());
        for i in 0..40 {
            c.put(format!("u{i}"), Bytes::from(vec![0u8; CACHE_ITEM_MAX]), ct.clone());
        }
        assert!(c.bytes <= CACHE_BUDGET);
        assert!(c.get("u0").is_none(), "the oldest went first");
        assert!(c.get("u39").is_some());
    }
}
