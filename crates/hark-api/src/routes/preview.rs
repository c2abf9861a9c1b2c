//! The real-time preview stream of a new tracker (tracker-lifecycle.md section 4): a websocket
//! that samples the tracker's sources and sends the matching posts as they are stored, flushed
//! every 2.5 s, then `fetching_complete` and `processing_complete`.
//!
//! Messages (JSON text): `{"type":"posts","posts":[Post]}`, `{"type":"source_error","connector",
//! "message"}`, `{"type":"fetching_complete"}`, `{"type":"processing_complete","total":n}`.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use hark_collect::preview::{sample, PreviewEvent};
use hark_core::{Permission, Post};
use serde_json::json;
use tokio::sync::mpsc;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::CurrentUser;
use crate::routes::load_tracker;
use crate::AppState;

/// Posts are sent in batches this often.
pub const FLUSH: Duration = Duration::from_millis(2500);
/// The server ends the sample before the browser's 180 s limit.
pub const SERVER_LIMIT: Duration = Duration::from_secs(170);

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
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    if !same_origin(&headers) {
        return Err(ApiError::forbidden("The preview stream opens only from this site."));
    }
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    if tracker.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
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
