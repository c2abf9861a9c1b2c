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

/// Key statistics of a tracker from its rollups (hour resolution for counts, day resolution for
/// distinct authors).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TopStats {
    pub posts: i64,
    pub users: i64,
    pub engagement: i64,
    pub reach: i64,
    pub impressions: i64,
}

impl Store {
    pub async fn top_stats(&self, tracker_id: i64, f: &PostCountFilter) -> Result<TopStats> {
        let platforms: Vec<String> = f.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        if platforms.is_empty() {
            return Ok(TopStats::default());
        }
        let list = platforms.join(",");
        let start = f.start.unwrap_or(i64::MIN / 2);
        let end = f.end.unwrap_or(i64::MAX / 2);
        let hour_start = start.div_euclid(3_600_000) * 3_600_000;
        let day_start = start.div_euclid(86_400_000) * 86_400_000;
        let counts = format!(
            "SELECT CAST(COALESCE(SUM(posts), 0) AS BIGINT), CAST(COALESCE(SUM(engagement), 0) AS BIGINT), \
             CAST(COALESCE(SUM(reach), 0) AS BIGINT), CAST(COALESCE(SUM(impressions), 0) AS BIGINT) \
             FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 AND platform IN ({list})"
        );
        let users = format!(
            "SELECT COUNT(*) FROM (SELECT DISTINCT platform, author FROM rollup_authors WHERE tracker_id = $1 \
             AND day >= $2 AND day <= $3 AND posts > 0 AND platform IN ({list})) a"
        );
        with_pool!(self, |p| {
            let (posts, engagement, reach, impressions): (i64, i64, i64, i64) =
                sqlx::query_as(&counts).bind(tracker_id).bind(hour_start).bind(end).fetch_one(p).await?;
            let users: i64 = sqlx::query_scalar(&users).bind(tracker_id).bind(day_start).bind(end).fetch_one(p).await?;
            Ok(TopStats { posts, users, engagement, reach, impressions })
        })
    }
}
