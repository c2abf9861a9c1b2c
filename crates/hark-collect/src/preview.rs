//! The sample behind a new tracker's real-time preview: every switched-on source of the tracker's
//! platforms is searched over the sample window (the last 24 hours for a trial account, two
//! weeks otherwise), a few pages each and all at once; the posts that match the tracker are
//! stored (so its dashboard fills) and handed to the caller as they arrive.

use std::sync::Arc;
use std::time::Duration;

use hark_core::{now_millis, Millis, Post, TrackerCriteria};
use hark_ingest::pipeline::{compile, prepare};
use hark_store::{Store, TrackerRow};
use tokio::sync::mpsc;

use crate::{build, config_from_row, ConnectorKind, Http, RetryPolicy, TrackerQuery};

pub const TRIAL_WINDOW_MS: Millis = 86_400_000;
pub const SAMPLE_WINDOW_MS: Millis = 14 * 86_400_000;
/// Pages read per source for a preview.
pub const PAGES_PER_SOURCE: usize = 3;
/// X's recent search reaches back 7 days: an older start is refused, so the sample asks for less.
const X_RECENT_DAYS: Millis = 7;

/// The sample window a source is asked for: the preview's window, within what the source serves.
fn window_for(kind: ConnectorKind, range: (Millis, Millis), now: Millis) -> (Millis, Millis) {
    let (start, end) = range;
    match kind {
        ConnectorKind::Twitter => (start.max(now - X_RECENT_DAYS * 86_400_000 + 60_000), end.min(now - 30_000)),
        _ => (start, end),
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PreviewEvent {
    /// Posts of the tracker just stored.
    Posts(Vec<Post>),
    /// A source could not be read (the others go on).
    SourceFailed { connector: String, message: String },
    /// Every source has been read.
    FetchingComplete,
    /// Every post is stored; `total` of them matched.
    ProcessingComplete { total: u64 },
}

/// Samples `tracker` and reports through `tx`; returns the number of matching posts stored.
/// Stops early (without error) when the receiver goes away.
pub async fn sample(store: Store, tracker: TrackerRow, trial: bool, tx: mpsc::Sender<PreviewEvent>) -> u64 {
    let Ok(criteria) = serde_json::from_str::<TrackerCriteria>(&tracker.criteria) else {
        let _ = tx.send(PreviewEvent::FetchingComplete).await;
        let _ = tx.send(PreviewEvent::ProcessingComplete { total: 0 }).await;
        return 0;
    };
    let now = now_millis();
    let mut query = TrackerQuery::from_criteria(tracker.id, &criteria);
    query.range = Some((now - if trial { TRIAL_WINDOW_MS } else { SAMPLE_WINDOW_MS }, now));
    let query = Arc::new(query);
    let matcher = match compile(&[(tracker.id, tracker.criteria.clone())]) {
        Ok(m) => Arc::new(m),
        Err(_) => return 0,
    };
    let rows = store.connector_settings().await.unwrap_or_default();
    let policy = RetryPolicy { max_retries: 2, max_inline_wait: Duration::from_secs(5), ..RetryPolicy::default() };
    let (found_tx, mut found_rx) = mpsc::channel::<Result<Vec<Post>, (String, String)>>(16);
    let mut sources = 0;
    for row in rows.iter().filter(|r| r.enabled) {
        let Some(kind) = ConnectorKind::parse(&row.connector) else { continue };
        if kind.platform_bits() & tracker.platforms == 0 {
            continue;
        }
        let Ok(connector) = build(kind, &config_from_row(row), Http::new(policy.clone())) else { continue };
        sources += 1;
        let mut q = (*query).clone();
        q.range = query.range.map(|r| window_for(kind, r, now));
        let (q, out) = (Arc::new(q), found_tx.clone());
        tokio::spawn(async move {
            let mut cursor = serde_json::json!({});
            for _ in 0..PAGES_PER_SOURCE {
                match connector.fetch(&q, &cursor).await {
                    Ok(page) => {
                        if out.send(Ok(page.posts)).await.is_err() || !page.more {
                            return;
                        }
                        cursor = page.cursor;
                    }
                    Err(e) => {
                        let _ = out.send(Err((kind.name().to_string(), e.to_string()))).await;
                        return;
                    }
                }
            }
        });
    }
    drop(found_tx);
    let mut total = 0u64;
    while let Some(found) = found_rx.recv().await {
        match found {
            Ok(posts) => {
                let m = matcher.clone();
                let (records, posts) = tokio::task::spawn_blocking(move || {
                    let records = prepare(&m, &posts);
                    (records, posts)
                })
                .await
                .unwrap_or_default();
                if records.is_empty() {
                    continue;
                }
                if let Err(e) = store.ingest_batch(&records, now_millis()).await {
                    tracing::warn!(error = %e, "preview posts not stored");
                    continue;
                }
                total += records.len() as u64;
                // The posts that matched, as collected.
                let matched: std::collections::HashSet<(hark_core::Platform, &str)> =
                    records.iter().map(|r| (r.platform, r.external_id.as_str())).collect();
                let posts: Vec<Post> = posts.into_iter().filter(|p| matched.contains(&(p.platform, p.id.as_str()))).collect();
                if tx.send(PreviewEvent::Posts(posts)).await.is_err() {
                    return total;
                }
            }
            Err((connector, message)) => {
                if tx.send(PreviewEvent::SourceFailed { connector, message }).await.is_err() {
                    return total;
                }
            }
        }
    }
    tracing::debug!(tracker = tracker.id, sources, total, "preview sample done");
    let _ = tx.send(PreviewEvent::FetchingComplete).await;
    let _ = tx.send(PreviewEvent::ProcessingComplete { total }).await;
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_is_asked_for_its_last_7_days_only() {
        let now = 1_000 * 86_400_000;
        let two_weeks = (now - SAMPLE_WINDOW_MS, now);
        let (start, end) = window_for(ConnectorKind::Twitter, two_weeks, now);
        assert_eq!(start, now - 7 * 86_400_000 + 60_000);
        assert_eq!(end, now - 30_000);
        let day = (now - TRIAL_WINDOW_MS, now);
        assert_eq!(window_for(ConnectorKind::Twitter, day, now).0, day.0, "a shorter window is kept");
        assert_eq!(window_for(ConnectorKind::Reddit, two_weeks, now), two_weeks);
    }
}
