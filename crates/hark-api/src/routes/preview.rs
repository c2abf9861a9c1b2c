//! The real-time preview stream of a new tracker (tracker-lifecycle.md section 4): a websocket
//! that samples the tracker's sources and sends the matching posts as they are stored, flushed
//! every 2.5 s, then `fetching_complete` and `processing_complete`.
//!
//! Messages (JSON text): `{"type":"posts","posts":[Post]}`, `{"type":"source_error","connector",
//! "message"}`, `{"type":"fetching_complete"}`, `{"type":"processing_complete","total":n}`.
//!
//! Beside it: the same sample over plain HTTP (the preview flow without a websocket), the end of
//! preview mode, and the volume estimate behind the high-volume warning.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use crate::extract::Path;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use hark_collect::preview::{sample, PreviewEvent, SAMPLE_WINDOW_MS, TRIAL_WINDOW_MS};
use hark_core::limits::{is_high_volume, HIGH_VOLUME_THRESHOLD};
use hark_core::{now_millis, Permission, Post};
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;
use utoipa::ToSchema;

use crate::dto::Tracker;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::collection::{estimate_range, SourceEstimate};
use crate::routes::load_tracker;
use crate::AppState;

/// Posts are sent in batches this often.
pub const FLUSH: Duration = Duration::from_millis(2500);
/// The server ends the sample before the browser's 180 s limit.
pub const SERVER_LIMIT: Duration = Duration::from_secs(170);
/// The sample over HTTP answers within the server's 60 s request limit.
pub const HTTP_LIMIT: Duration = Duration::from_secs(50);

/// Browsers send cookies on cross-site websocket requests: only the app's own origin may open one.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else { return true };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    origin.split_once("://").map(|(_, h)| h.trim_end_matches('/')) == Some(host)
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/preview/stream", tag = "collection", params(("hash" = String, Path)),
    responses((status = 101, description = "Websocket of preview events"), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn preview_stream(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    if !same_origin(&headers) {
        return Err(ApiError::forbidden("The preview stream opens only from this site."));
    }
    // The caller's rank is checked before the request's form: who may not open the stream learns
    // nothing else.
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    if tracker.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    let ws = match ws {
        Ok(ws) => ws,
        // Not a websocket request: the refusal in the error shape, with the reason and status axum gives.
        Err(e) => return Ok((e.status(), axum::Json(serde_json::json!({"error": {"code": "invalid_query", "message": e.body_text()}}))).into_response()),
    };
    let store = state.store.clone();
    let trial = user.trial;
    Ok(ws.on_upgrade(move |socket| stream(socket, store, tracker, trial)))
}

async fn send(socket: &mut WebSocket, v: serde_json::Value) -> bool {
    socket.send(Message::Text(v.to_string().into())).await.is_ok()
}

async fn flush(socket: &mut WebSocket, buffer: &mut Vec<Post>) -> bool {
    if buffer.is_empty() {
        return true;
    }
    let posts = std::mem::take(buffer);
    send(socket, json!({"type": "posts", "posts": posts})).await
}

async fn stream(mut socket: WebSocket, store: hark_store::Store, tracker: hark_store::TrackerRow, trial: bool) {
    let (tx, mut rx) = mpsc::channel(32);
    let task = tokio::spawn(sample(store, tracker, trial, tx));
    let mut buffer: Vec<Post> = Vec::new();
    let mut sent = 0u64;
    let mut ticker = tokio::time::interval(FLUSH);
    ticker.tick().await;
    let limit = tokio::time::sleep(SERVER_LIMIT);
    tokio::pin!(limit);
    loop {
        tokio::select! {
            ev = rx.recv() => match ev {
                Some(PreviewEvent::Posts(p)) => {
                    sent += p.len() as u64;
                    buffer.extend(p);
                }
                Some(PreviewEvent::SourceFailed { connector, message }) => {
                    if !send(&mut socket, json!({"type": "source_error", "connector": connector, "message": message})).await {
                        break;
                    }
                }
                Some(PreviewEvent::FetchingComplete) => {
                    if !flush(&mut socket, &mut buffer).await || !send(&mut socket, json!({"type": "fetching_complete"})).await {
                        break;
                    }
                }
                Some(PreviewEvent::ProcessingComplete { total }) => {
                    let _ = send(&mut socket, json!({"type": "processing_complete", "total": total})).await;
                    break;
                }
                None => break,
            },
            _ = ticker.tick() => {
                if !flush(&mut socket, &mut buffer).await {
                    break;
                }
            }
            msg = socket.recv() => {
                // The browser closed the preview (or went away): stop sampling.
                if matches!(msg, None | Some(Err(_)) | Some(Ok(Message::Close(_)))) {
                    break;
                }
            }
            _ = &mut limit => {
                let _ = flush(&mut socket, &mut buffer).await;
                let _ = send(&mut socket, json!({"type": "fetching_complete"})).await;
                let _ = send(&mut socket, json!({"type": "processing_complete", "total": sent})).await;
                break;
            }
        }
    }
    task.abort();
    let _ = socket.send(Message::Close(None)).await;
}

/// Whether a switched-on source serves any of `platforms` (bits): without one a preview would
/// find nothing, so a new tracker skips preview mode.
pub(crate) async fn can_sample(state: &AppState, platforms: i64) -> ApiResult<bool> {
    Ok(state
        .store
        .connector_settings()
        .await?
        .iter()
        .filter(|r| r.enabled)
        .filter_map(|r| hark_collect::ConnectorKind::parse(&r.connector))
        .any(|k| k.platform_bits() & platforms != 0))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewSample {
    /// The sampled posts that matched and were stored, newest first.
    #[schema(value_type = Vec<Object>)]
    posts: Vec<Post>,
    /// How many posts were stored.
    total: u64,
    /// Sources that could not be read, as `connector: message`.
    source_errors: Vec<String>,
    /// The sample stopped at the time limit before every source was read.
    timed_out: bool,
}

/// The preview's sample in one answer: every source of the tracker is searched over the sample
/// window (24 h for a trial account, two weeks otherwise) and the matching posts are stored.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/preview/sample", tag = "collection", params(("hash" = String, Path)),
    responses((status = 200, body = PreviewSample), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn preview_sample(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<PreviewSample>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    if tracker.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    let (tx, mut rx) = mpsc::channel(32);
    let task = tokio::spawn(sample(state.store.clone(), tracker, user.trial, tx));
    let mut out = PreviewSample { posts: Vec::new(), total: 0, source_errors: Vec::new(), timed_out: false };
    let collect = async {
        while let Some(ev) = rx.recv().await {
            match ev {
                PreviewEvent::Posts(p) => out.posts.extend(p),
                PreviewEvent::SourceFailed { connector, message } => out.source_errors.push(format!("{connector}: {message}")),
                PreviewEvent::FetchingComplete => {}
                PreviewEvent::ProcessingComplete { total } => {
                    out.total = total;
                    break;
                }
            }
        }
    };
    if tokio::time::timeout(HTTP_LIMIT, collect).await.is_err() {
        task.abort();
        out.timed_out = true;
        out.total = out.posts.len() as u64;
    }
    // One copy of each post, newest first.
    out.posts.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| b.id.cmp(&a.id)));
    out.posts.dedup_by(|a, b| a.platform == b.platform && a.id == b.id);
    Ok(axum::Json(out))
}

/// Ends preview mode: the tracker's pages show what is stored. Ending twice is harmless.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/preview/end", tag = "collection", params(("hash" = String, Path)),
    responses((status = 200, body = Tracker), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn end_preview(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<Tracker>> {
    let (tracker, p) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    if tracker.is_preview_mode {
        state.store.set_preview_mode(tracker.id, false, now_millis()).await?;
    }
    let row = state.store.tracker_by_id(tracker.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    let mut out = Tracker::from_row(&row, p)?;
    out.is_backfilling = state.store.backfill_active(row.id).await?;
    Ok(axum::Json(out))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VolumeEstimate {
    sources: Vec<SourceEstimate>,
    /// Posts the sources hold for the term over the sample window.
    total: u64,
    /// Whether every source could count.
    complete: bool,
    /// Days counted: the preview's sample window.
    window_days: i64,
    threshold: u64,
    /// `total` is above `threshold`: the term will use data limits very quickly.
    high_volume: bool,
}

/// How many posts the tracker's term brings over the preview's sample window, and whether that
/// is high volume. 422 `no_connector` when no source is switched on for its platforms.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/preview/estimate", tag = "collection", params(("hash" = String, Path)),
    responses((status = 200, body = VolumeEstimate), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn volume_estimate(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<VolumeEstimate>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    let window = if user.trial { TRIAL_WINDOW_MS } else { SAMPLE_WINDOW_MS };
    let now = now_millis();
    let e = estimate_range(&state, &tracker, now - window, now).await?;
    Ok(axum::Json(VolumeEstimate {
        high_volume: is_high_volume(e.total),
        threshold: HIGH_VOLUME_THRESHOLD,
        window_days: window / 86_400_000,
        total: e.total,
        complete: e.complete,
        sources: e.sources,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_origin_opens_a_stream() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "hark.example:8080".parse().unwrap());
        assert!(same_origin(&h), "no Origin: not a browser page");
        h.insert(header::ORIGIN, "https://hark.example:8080".parse().unwrap());
        assert!(same_origin(&h));
        h.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!same_origin(&h));
    }
}
