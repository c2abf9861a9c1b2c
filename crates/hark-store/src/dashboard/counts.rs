//! Top stats, the users count, viewer sentiment, share of voice and the range's bounds.

use hark_core::PlatformSet;

use super::{memory, Counts, PageFilter, AUTHOR_KEY, FROM_ROWS};
use crate::time::DAY_MS;
use crate::{with_pool, Result, Store};

impl Store {
    /// Posts, engagement, reach and impressions in the range.
    pub async fn dash_counts(&self, tracker_id: i64, f: &PageFilter) -> Result<Counts> {
        let Some(list) = f.platform_list() else {
            return Ok(Counts::default());
        };
        if let Some(t) = self.dash_table(tracker_id, f).await? {
            return Ok(memory::counts(&*t.read().await, &memory::scope(f, f.platforms)));
        }
        let (interior, edges) = self.hour_pieces(tracker_id, f).await?;
        let sum = "CAST(COALESCE(SUM(posts), 0) AS BIGINT), CAST(COALESCE(SUM(engagement), 0) AS BIGINT), \
                   CAST(COALESCE(SUM(reach), 0) AS BIGINT), CAST(COALESCE(SUM(impressions), 0) AS BIGINT)";
        // The whole hours and the partial ones are read at once.
        let whole = async {
            let Some((a, b)) = interior else {
                return Ok(Counts::default());
            };
            let sql =
                format!("SELECT {sum} FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour < $3 AND platform IN ({list})");
            let r: (i64, i64, i64, i64) = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_one(p).await?);
            Ok::<_, crate::StoreError>(Counts { posts: r.0, engagement: r.1, reach: r.2, impressions: r.3 })
        };
        let cond = f.row_conditions(self.backend(), &list);
        let sql = format!(
            "SELECT COUNT(*), CAST(COALESCE(SUM(p.engagement), 0) AS BIGINT), CAST(COALESCE(SUM(p.author_followers), 0) AS BIGINT), \
             CAST(COALESCE(SUM(p.impressions), 0) AS BIGINT) {FROM_ROWS}{cond}"
        );
        let sql = &sql;
        let partial = self.edges_concurrently(&edges, |(a, b)| async move {
            let r: (i64, i64, i64, i64) = with_pool!(self, |p| sqlx::query_as(sql).bind(tracker_id).bind(a).bind(b).fetch_one(p).await?);
            Ok(Counts { posts: r.0, engagement: r.1, reach: r.2, impressions: r.3 })
        });
        let (mut total, parts) = tokio::try_join!(whole, partial)?;
        for c in parts {
            total.add(c);
        }
        Ok(total)
    }

    /// Distinct authors (platform and username) with posts in the range.
    pub async fn dash_users(&self, tracker_id: i64, f: &PageFilter) -> Result<i64> {
        let Some(list) = f.platform_list() else {
            return Ok(0);
        };
        if let Some(t) = self.dash_table(tracker_id, f).await? {
            return Ok(memory::users(&*t.read().await, &memory::scope(f, f.platforms)));
        }
        if f.rollups_apply() {
            return self.users_from_rollups(tracker_id, f, &list).await;
        }
        let (interior, edges) = self.row_pieces(f, DAY_MS);
        let cond = f.row_conditions(self.backend(), &list);
        let mut parts = Vec::new();
        let mut n = 2;
        if interior.is_some() {
            parts.push(format!(
                "SELECT DISTINCT platform, author FROM rollup_authors WHERE tracker_id = $1 AND day >= ${} AND day < ${} \
                 AND posts > 0 AND platform IN ({list})",
                n,
                n + 1
            ));
            n += 2;
        }
        for _ in &edges {
            parts.push(format!(
                "SELECT DISTINCT tp.platform, {AUTHOR_KEY} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
                 WHERE tp.tracker_id = $1 AND tp.created_at >= ${} AND tp.created_at <= ${}{cond}",
                n,
                n + 1
            ));
            n += 2;
        }
        if parts.is_empty() {
            return Ok(0);
        }
        let sql = format!("SELECT COUNT(*) FROM ({}) u", parts.join(" UNION "));
        let mut bounds: Vec<i64> = Vec::new();
        if let Some((a, b)) = interior {
            bounds.extend([a, b]);
        }
        for (a, b) in edges {
            bounds.extend([a, b]);
        }
        with_pool!(self, |p| {
            let mut q = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id);
            for v in &bounds {
                q = q.bind(*v);
            }
            Ok(q.fetch_one(p).await?)
        })
    }

    /// Likes and dislikes of the youtube posts in the range.
    pub async fn dash_viewer_sentiment(&self, tracker_id: i64, f: &PageFilter) -> Result<(i64, i64)> {
        let mut yt = PlatformSet::empty();
        if f.platforms.contains(hark_core::Platform::Youtube) {
            yt.insert(hark_core::Platform::Youtube);
        }
        let f = PageFilter { platforms: yt, ..f.clone() };
        let Some(list) = f.platform_list() else {
            return Ok((0, 0));
        };
        if let Some(t) = self.dash_table(tracker_id, &f).await? {
            return Ok(memory::likes_dislikes(&*t.read().await, &memory::scope(&f, f.platforms)));
        }
        let (interior, edges) = self.hour_pieces(tracker_id, &f).await?;
        let mut total = (0, 0);
        if let Some((a, b)) = interior {
            let sql = format!(
                "SELECT CAST(COALESCE(SUM(likes), 0) AS BIGINT), CAST(COALESCE(SUM(dislikes), 0) AS BIGINT) FROM rollup_hourly \
                 WHERE tracker_id = $1 AND hour >= $2 AND hour < $3 AND platform IN ({list})"
            );
            let r: (i64, i64) = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_one(p).await?);
            total = (total.0 + r.0, total.1 + r.1);
        }
        let cond = f.row_conditions(self.backend(), &list);
        let sql =
            format!("SELECT CAST(COALESCE(SUM(p.likes), 0) AS BIGINT), CAST(COALESCE(SUM(p.dislikes), 0) AS BIGINT) {FROM_ROWS}{cond}");
        for (a, b) in edges {
            let r: (i64, i64) = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_one(p).await?);
            total = (total.0 + r.0, total.1 + r.1);
        }
        Ok(total)
    }

    /// Posts per subtracker (1..=n) in the range.
    pub async fn dash_share_of_voice(&self, tracker_id: i64, f: &PageFilter, n: u32) -> Result<Vec<i64>> {
        let n = n.min(63);
        let Some(list) = f.platform_list() else {
            return Ok(vec![0; n as usize]);
        };
        if n == 0 {
            return Ok(vec![]);
        }
        if let Some(t) = self.dash_table(tracker_id, f).await? {
            return Ok(memory::share_of_voice(&*t.read().await, &memory::scope(f, f.platforms), n));
        }
        let mut out = vec![0i64; n as usize];
        let (interior, edges) = self.hour_pieces(tracker_id, f).await?;
        if let Some((a, b)) = interior {
            let sql = format!(
                "SELECT sub, CAST(SUM(posts) AS BIGINT) FROM rollup_subtrackers WHERE tracker_id = $1 AND hour >= $2 \
                 AND hour < $3 AND platform IN ({list}) AND sub <= $4 GROUP BY sub"
            );
            let rows: Vec<(i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).bind(n as i64).fetch_all(p).await?);
            for (sub, c) in rows {
                if (1..=n as i64).contains(&sub) {
                    out[sub as usize - 1] += c;
                }
            }
        }
        let cond = f.row_conditions(self.backend(), &list);
        let cols: Vec<String> = (0..n)
            .map(|i| format!("CAST(COALESCE(SUM(CASE WHEN (tp.subtrackers & {}) <> 0 THEN 1 ELSE 0 END), 0) AS BIGINT)", 1i64 << i))
            .collect();
        let sql = format!("SELECT {} {FROM_ROWS}{cond}", cols.join(", "));
        for (a, b) in edges {
            with_pool!(self, |p| {
                use sqlx::Row;
                let row = sqlx::query(&sql).bind(tracker_id).bind(a).bind(b).fetch_one(p).await?;
                for (i, v) in out.iter_mut().enumerate() {
                    *v += row.try_get::<i64, _>(i)?;
                }
            });
        }
        Ok(out)
    }

    /// The first and last post time of the tracker within the platforms (for All Time ranges):
    /// the two ends of `tracker_posts_time_idx`.
    pub async fn dash_bounds(&self, tracker_id: i64, f: &PageFilter) -> Result<Option<(i64, i64)>> {
        let Some(list) = f.platform_list() else {
            return Ok(None);
        };
        let mut ends = Vec::with_capacity(2);
        for dir in ["ASC", "DESC"] {
            let sql = format!(
                "SELECT tp.created_at FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {} \
                 AND tp.platform IN ({list}) ORDER BY tp.created_at {dir} LIMIT 1",
                self.backend().live_link("tp")
            );
            let t: Option<i64> = with_pool!(self, |p| sqlx::query_scalar(&sql).bind(tracker_id).fetch_optional(p).await?);
            ends.push(t);
        }
        Ok(ends[0].zip(ends[1]))
    }
}
