//! The demo tracker: created on first start with a few weeks of sample posts, then fed with new
//! sample posts while the server runs. Its posts come only from the demo generator and go only to
//! the demo tracker.

use std::sync::Arc;
use std::time::Duration;

use hark_core::{now_millis, Friendly, Millis};
use hark_store::{NewTracker, Store, TrackerRow};
use rand::{Rng, SeedableRng};

use crate::demo::{demo_criteria, DemoGenerator, DEMO_TITLE};
use crate::pipeline::{compile, ingest_with, IngestError};

pub const DEMO_EMAIL: &str = "demo@hark.invalid";
/// Sample posts written when the demo tracker is created.
pub const DEMO_BACKFILL_POSTS: usize = 40_000;
pub const DEMO_BACKFILL_DAYS: i64 = 30;

/// The demo tracker, created with its backfill when missing.
pub async fn ensure_demo_tracker(store: &Store) -> Result<TrackerRow, IngestError> {
    if let Some(t) = store.demo_tracker().await? {
        return Ok(t);
    }
    let now = now_millis();
    let owner = store.system_user(DEMO_EMAIL, "Hark demo", now).await?;
    let criteria = demo_criteria();
    let start = now - DEMO_BACKFILL_DAYS * hark_core::limits::DAY_MS;
    let tracker = store
        .create_tracker(
            &NewTracker {
                friendly: Friendly::from_text(DEMO_TITLE),
                title: format!("{DEMO_TITLE} (sample data)"),
                owner_id: owner.id,
                platforms: criteria.platforms.bits(),
                criteria: serde_json::to_string(&criteria).map_err(|e| IngestError::Criteria(0, e.to_string()))?,
                volume_limit: None,
                is_demo: true,
                is_preview_mode: false,
            },
            start,
        )
        .await?;
    let matcher = Arc::new(compile(&[(tracker.id, serde_json::to_string(&criteria).unwrap_or_default())])?);
    let posts: Vec<_> = DemoGenerator::new(7).generate(start, now, DEMO_BACKFILL_POSTS).collect();
    ingest_with(store, matcher, posts, now).await?;
    Ok(store.tracker_by_id(tracker.id).await?.unwrap_or(tracker))
}

/// Feeds the demo tracker with a few new sample posts every few seconds, forever.
pub async fn run_demo_feed(store: Store, tracker_id: i64, every: Duration) {
    let criteria = match store.tracker_by_id(tracker_id).await {
        Ok(Some(t)) => t.criteria,
        _ => return,
    };
    let matcher = match compile(&[(tracker_id, criteria)]) {
        Ok(m) => Arc::new(m),
        Err(e) => {
            tracing::warn!(error = %e, "demo feed stopped");
            return;
        }
    };
    let seed = now_millis() as u64;
    let mut generator = DemoGenerator::new(seed);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut ticker = tokio::time::interval(every);
    loop {
        ticker.tick().await;
        let now: Millis = now_millis();
        let n = rng.gen_range(1..=6);
        let posts: Vec<_> = (0..n).map(|i| generator.post_at(now - i * 700)).collect();
        if let Err(e) = ingest_with(&store, matcher.clone(), posts, now).await {
            tracing::warn!(error = %e, "demo feed batch failed");
        }
    }
}
