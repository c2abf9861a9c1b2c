//! Scoring stored posts again when the server runs a sentiment model other than the one they
//! were scored with (see [`hark_store::Store::begin_sentiment_model`]). The background worker runs
//! it before tracker re-analyses; progress is stored page by page, so a restart resumes it.

use hark_core::now_millis;
use hark_enrich::sentiment::{judge, model};
use hark_store::{SentimentModelState, Store};

use crate::enrich::judged_text;
use crate::pipeline::IngestError;

const PAGE: i64 = 2_000;

/// Scores the stored posts with this build's model if they were scored with another. Returns
/// whether a run took place.
pub async fn run(store: &Store) -> Result<bool, IngestError> {
    run_with(store, model::VERSION, PAGE).await
}

/// [`run`] for a given version label and page size (tests use small pages).
#[doc(hidden)]
pub async fn run_with(store: &Store, version: &str, page: i64) -> Result<bool, IngestError> {
    let mut state = store.begin_sentiment_model(version, now_millis()).await?;
    if !state.running() {
        return Ok(false);
    }
    while state.running() {
        state = step(store, &state, page).await?;
    }
    tracing::info!(changed = state.changed, posts = state.processed, version, "stored posts scored with the sentiment model");
    Ok(true)
}

async fn step(store: &Store, state: &SentimentModelState, page: i64) -> Result<SentimentModelState, IngestError> {
    let posts = store.sentiment_model_page(state.after_post_id, state.last_post_id, page).await?;
    let through = match posts.last() {
        Some(last) if posts.len() as i64 == page => last.id,
        // A short page is the last one.
        _ => state.last_post_id,
    };
    let mut updates = Vec::new();
    for p in &posts {
        let j = judge(judged_text(&p.text, p.title.as_deref()), p.lang.as_deref());
        let same = p.sentiment.is_some_and(|s| (s - j.score).abs() < 1e-12)
            && p.sentiment_bucket.as_deref() == Some(j.bucket.as_str());
        if !same {
            updates.push((p.id, j.score, j.bucket));
        }
    }
    Ok(store.store_sentiment_scores(&updates, through, posts.len() as i64, now_millis()).await?)
}
