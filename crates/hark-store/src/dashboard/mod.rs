//! Dashboard analytics. Every answer is exact for the requested range to the millisecond:
//!
//! * Without tag or subtracker filters, the range is split into an interior of whole UTC units
//!   (hours for `rollup_hourly`, days for `rollup_terms` and `rollup_authors`) read from the
//!   rollups, and at most two partial edges read from the post rows (indexed by
//!   `tracker_posts(tracker_id, created_at)`). The edges are short, so the cost stays close to the
//!   rollup read.
//! * With post tags, influencer tags or a subtracker, rollups cannot answer: the whole range is
//!   read from the post rows with the extra conditions.
//!
//! Deleted posts (bulk delete: [`crate::Backend::live_link`]) never count: the row reads skip
//! them and the rollups have their contribution subtracted when they are deleted.
//!
//! * Once the tracker's posts have been read into memory ([`crate::topics::table`]), every panel
//!   without tag filters is counted there instead, whatever the range (`memory`); a tracker not
//!   read yet, or too large to keep, is answered as above.
//!
//! The panels by the data they read: `counts` (top stats, users, viewer sentiment, share of
//! voice, bounds), `series` (the timeline), `terms` (topics and the scalar breakdowns), `authors`
//! (influencers and the users count on the day rollups), `posts` (top posts and the side views).

use hark_core::Millis;

use crate::filter::PageFilter;
use crate::time::{DAY_MS, HOUR_MS};
use crate::{with_pool, Result, Store};

pub(crate) mod authors;
mod counts;
pub(crate) mod memory;
mod posts;
mod series;
pub(crate) mod terms;

pub use authors::AuthorStat;
pub use posts::DashboardPost;
pub(crate) use posts::POST_FIELDS;

/// How a range is read: `interior` (rollup keys `>= .0` and `< .1`) and `edges` (inclusive
/// millisecond ranges read from post rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeSplit {
    pub interior: Option<(i64, i64)>,
    pub edges: Vec<(i64, i64)>,
}

pub(crate) const FAR: i64 = i64::MAX / 4;

/// Splits an inclusive range into whole `unit`s (UTC-aligned) and the partial edges.
pub fn split_range(start: Option<Millis>, end: Option<Millis>, unit: i64) -> RangeSplit {
    let s = start.unwrap_or(-FAR);
    let e = end.unwrap_or(FAR);
    if e < s {
        return RangeSplit { interior: None, edges: vec![] };
    }
    let a = if start.is_some() { ceil_to(s, unit) } else { -FAR };
    let b = if end.is_some() { (e + 1).div_euclid(unit) * unit } else { FAR };
    if a < b {
        let mut edges = vec![];
        if start.is_some() && s < a {
            edges.push((s, a - 1));
        }
        if end.is_some() && b <= e {
            edges.push((b, e));
        }
        RangeSplit { interior: Some((a, b)), edges }
    } else {
        RangeSplit { interior: None, edges: vec![(s, e)] }
    }
}

fn ceil_to(t: i64, unit: i64) -> i64 {
    let f = t.div_euclid(unit) * unit;
    if f == t {
        t
    } else {
        f + unit
    }
}

/// Counts summed over a set of posts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub posts: i64,
    pub engagement: i64,
    pub reach: i64,
    pub impressions: i64,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.posts += o.posts;
        self.engagement += o.engagement;
        self.reach += o.reach;
        self.impressions += o.impressions;
    }
}

pub(crate) const AUTHOR_KEY: &str = "CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END";

pub(crate) const FROM_ROWS: &str = "FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
     WHERE tp.tracker_id = $1 AND tp.created_at >= $2 AND tp.created_at <= $3";

impl Store {
    /// The tracker's in-memory table when it can answer `f`: once it has been read (see
    /// [`Store::topic_table_when_read`]), and for every filter but tags (which it does not hold)
    /// and the row-only baseline.
    pub(crate) async fn dash_table(
        &self,
        tracker_id: i64,
        f: &PageFilter,
    ) -> Result<Option<std::sync::Arc<tokio::sync::RwLock<crate::topics::table::TopicTable>>>> {
        if !self.use_memory_terms || f.rows_only || !f.post_tags.is_empty() || !f.influencer_tags.is_empty() {
            return Ok(None);
        }
        self.topic_table_when_read(tracker_id).await
    }

    fn row_pieces(&self, f: &PageFilter, unit: i64) -> (Option<(i64, i64)>, Vec<(i64, i64)>) {
        if f.rollups_apply() {
            let s = split_range(f.start, f.end, unit);
            (s.interior, s.edges)
        } else {
            (None, vec![(f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR))])
        }
    }

    /// `row_pieces` by days, with a partial day read whole from the rollups when the rest of
    /// that day holds no post of the tracker: the last day of a range that ends now (its rest
    /// is the future) or the first day of one that starts before the first post.
    async fn day_pieces(&self, tracker_id: i64, f: &PageFilter) -> Result<(Option<(i64, i64)>, Vec<(i64, i64)>)> {
        let (interior, edges) = self.row_pieces(f, DAY_MS);
        if !f.rollups_apply() {
            return Ok((interior, edges));
        }
        self.widen_to_whole(tracker_id, DAY_MS, interior, edges).await
    }

    /// `row_pieces` by hours, with a partial hour read whole from the rollups when the rest of
    /// that hour holds no post of the tracker: above all the hour of a range that ends now, which
    /// holds every post a collecting tracker has just stored.
    pub(crate) async fn hour_pieces(&self, tracker_id: i64, f: &PageFilter) -> Result<(Option<(i64, i64)>, Vec<(i64, i64)>)> {
        let (interior, edges) = self.row_pieces(f, HOUR_MS);
        if !f.rollups_apply() {
            return Ok((interior, edges));
        }
        self.widen_to_whole(tracker_id, HOUR_MS, interior, edges).await
    }

    /// Moves each partial unit whose rest holds no live post of the tracker into the interior
    /// (the unit's rollup rows then count exactly the posts of the partial part).
    pub(crate) async fn widen_to_whole(
        &self,
        tracker_id: i64,
        unit: i64,
        mut interior: Option<(i64, i64)>,
        edges: Vec<(i64, i64)>,
    ) -> Result<(Option<(i64, i64)>, Vec<(i64, i64)>)> {
        let mut kept = Vec::with_capacity(edges.len());
        for (a, b) in edges {
            let u0 = a.div_euclid(unit) * unit;
            let u1 = u0 + unit;
            let adjacent = match interior {
                None => true,
                Some((ia, ib)) => u1 == ia || u0 == ib,
            };
            // Only a part of one unit, next to the interior, whose rest is empty.
            if a <= -FAR || b >= u1 || !adjacent || self.live_posts_between(tracker_id, &[(u0, a - 1), (b + 1, u1 - 1)]).await? {
                kept.push((a, b));
                continue;
            }
            interior = Some(match interior {
                None => (u0, u1),
                Some((ia, ib)) => (ia.min(u0), ib.max(u1)),
            });
        }
        Ok((interior, kept))
    }

    /// Whether the tracker has a post that is not deleted in any of the inclusive ranges.
    pub(crate) async fn live_posts_between(&self, tracker_id: i64, ranges: &[(i64, i64)]) -> Result<bool> {
        for &(x, y) in ranges {
            if x > y {
                continue;
            }
            let sql = format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM tracker_posts tp WHERE tp.tracker_id = $1 AND tp.created_at >= $2 \
                 AND tp.created_at <= $3 AND {} LIMIT 1) x",
                self.backend().live_link("tp")
            );
            let n: i64 = with_pool!(self, |p| sqlx::query_scalar(&sql)
            .bind(tracker_id)
            .bind(x)
            .bind(y)
            .fetch_one(p)
            .await?);
            if n > 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Runs `f` on each edge range, the two partial ends of a range at once (each on its own
    /// connection). Cutting the edges finer did not pay on SQLite: measured at 10M posts, four
    /// pieces were no faster than two.
    pub(crate) async fn edges_concurrently<T, F, Fut>(&self, edges: &[(i64, i64)], f: F) -> Result<Vec<T>>
    where
        F: Fn((i64, i64)) -> Fut,
        Fut: std::future::Future<Output = Result<T>>,
    {
        match edges {
            [a, b] => {
                let (x, y) = tokio::try_join!(f(*a), f(*b))?;
                Ok(vec![x, y])
            }
            more => {
                let mut out = Vec::with_capacity(more.len());
                for r in more {
                    out.push(f(*r).await?);
                }
                Ok(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::HOUR_MS;

    #[test]
    fn split_keeps_whole_units_inside_and_edges_outside() {
        let h = HOUR_MS;
        let s = split_range(Some(h / 2), Some(5 * h + 10), h);
        assert_eq!(s.interior, Some((h, 5 * h)));
        assert_eq!(s.edges, vec![(h / 2, h - 1), (5 * h, 5 * h + 10)]);
        // Aligned both ends: no edges (end is inclusive).
        let s = split_range(Some(2 * h), Some(4 * h - 1), h);
        assert_eq!(s, RangeSplit { interior: Some((2 * h, 4 * h)), edges: vec![] });
        // Less than a unit: rows only.
        let s = split_range(Some(h + 1), Some(2 * h - 2), h);
        assert_eq!(s, RangeSplit { interior: None, edges: vec![(h + 1, 2 * h - 2)] });
        // Open range: rollups only.
        let s = split_range(None, None, h);
        assert!(s.edges.is_empty() && s.interior.is_some());
        // Before 1970.
        let s = split_range(Some(-h - 5), Some(-1), h);
        assert_eq!(s.interior, Some((-h, 0)));
        assert_eq!(s.edges, vec![(-h - 5, -h - 1)]);
    }
}
