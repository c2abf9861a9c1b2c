use hark_core::{Millis, PlatformSet};

use crate::{with_pool, Result, Store};

/// The part of the page filters that a post count honours.
#[derive(Debug, Clone)]
pub struct PostCountFilter {
    pub platforms: PlatformSet,
    pub start: Option<Millis>,
    pub end: Option<Millis>,
}

impl Store {
    /// Posts of a tracker that are not deleted, within the filter.
    pub async fn count_tracker_posts(&self, tracker_id: i64, f: &PostCountFilter) -> Result<i64> {
        let platforms: Vec<String> = f.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        if platforms.is_empty() {
            return Ok(0);
        }
        // Platform names come from a closed enum, so inlining them is safe.
        let sql = format!(
            "SELECT COUNT(*) FROM tracker_posts WHERE tracker_id = $1 AND deleted_at IS NULL \
             AND created_at >= $2 AND created_at <= $3 AND platform IN ({})",
            platforms.join(",")
        );
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
            .bind(tracker_id)
            .bind(f.start.unwrap_or(i64::MIN))
            .bind(f.end.unwrap_or(i64::MAX))
            .fetch_one(p)
            .await?))
    }
}
