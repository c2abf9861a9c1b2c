//! The timeline: counts per hour, day or coarser unit over the range.

use super::{memory, Counts, PageFilter, FAR, FROM_ROWS};
use crate::time::HOUR_MS;
use crate::{with_pool, Result, Store};

impl Store {
    /// Activity at `resolution` (HOUR_MS or 60_000) as (bucket start, counts), sorted. Rollup
    /// hours are used only at hour resolution.
    pub async fn dash_series(&self, tracker_id: i64, f: &PageFilter, resolution: i64) -> Result<Vec<(i64, Counts)>> {
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        if resolution > 0 && crate::time::DAY_MS % resolution == 0 {
            if let Some(t) = self.dash_table(tracker_id, f).await? {
                return Ok(memory::series(&*t.read().await, &memory::scope(f, f.platforms), resolution));
            }
        }
        let (interior, edges) = if resolution == HOUR_MS {
            self.hour_pieces(tracker_id, f).await?
        } else {
            (None, vec![(f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR))])
        };
        let mut acc: std::collections::BTreeMap<i64, Counts> = Default::default();
        if let Some((a, b)) = interior {
            let sql = format!(
                "SELECT hour, CAST(SUM(posts) AS BIGINT), CAST(SUM(engagement) AS BIGINT), CAST(SUM(reach) AS BIGINT), \
                 CAST(SUM(impressions) AS BIGINT) FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour < $3 \
                 AND platform IN ({list}) GROUP BY hour"
            );
            let rows: Vec<(i64, i64, i64, i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
            for r in rows {
                acc.entry(r.0).or_default().add(Counts { posts: r.1, engagement: r.2, reach: r.3, impressions: r.4 });
            }
        }
        let cond = f.row_conditions(self.backend(), &list);
        // Floor division that is also right before 1970: created_at - mod(created_at, r) with a
        // non-negative remainder.
        let bucket = format!("(tp.created_at - (((tp.created_at % {resolution}) + {resolution}) % {resolution}))");
        let sql = format!(
            "SELECT {bucket} AS b, COUNT(*), CAST(COALESCE(SUM(p.engagement), 0) AS BIGINT), \
             CAST(COALESCE(SUM(p.author_followers), 0) AS BIGINT), CAST(COALESCE(SUM(p.impressions), 0) AS BIGINT) \
             {FROM_ROWS}{cond} GROUP BY {bucket}"
        );
        for (a, b) in edges {
            let rows: Vec<(i64, i64, i64, i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
            for r in rows {
                acc.entry(r.0).or_default().add(Counts { posts: r.1, engagement: r.2, reach: r.3, impressions: r.4 });
            }
        }
        Ok(acc.into_iter().filter(|(_, c)| *c != Counts::default()).collect())
    }
}
