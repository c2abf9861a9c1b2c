//! Influencers and the users count, on the author rollups.
//!
//! A range is cut into whole UTC days (`rollup_authors`, and the day bits of
//! `rollup_author_days`) and at most two partial days read from post rows (an hourly author
//! rollup would have cost nearly a row per post at ingest).
//!
//! Influencers: ranked in the influencers page's in-memory author index (`crate::influencers`)
//! when the tracker has one. Otherwise an author's activity in any range is at most its activity
//! over the tracker's life (`rollup_author_totals`, indexed by an upper bound of it), so authors
//! are read in the order of that bound, each measured exactly in the range, until the last of the
//! top list beats the lifetime figure of every author not yet read (fast only when a few authors
//! dominate).

use std::collections::HashMap;

use super::{split_range, PageFilter, AUTHOR_KEY, FROM_ROWS};
use crate::time::DAY_MS;
use crate::{with_pool, Backend, Result, Store};

/// An author's activity in the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorStat {
    pub platform: String,
    pub author: String,
    pub name: String,
    pub avatar: Option<String>,
    pub verified: bool,
    pub posts: i64,
    pub engagement: i64,
    pub followers: i64,
}

impl Store {
    /// Authors with their posts, engagement and largest follower count in the range; the top
    /// `limit` by engagement and the top `limit` by posts, each with its display fields.
    pub async fn dash_influencers(&self, tracker_id: i64, f: &PageFilter, limit: usize) -> Result<(Vec<AuthorStat>, Vec<AuthorStat>)> {
        let Some(list) = f.platform_list() else {
            return Ok((vec![], vec![]));
        };
        if let Some(t) = self.dash_table(tracker_id, f).await? {
            let (e, p) = super::memory::influencers(&*t.read().await, &super::memory::scope(f, f.platforms), limit);
            return tokio::try_join!(self.with_display(tracker_id, e), self.with_display(tracker_id, p));
        }
        if f.rollups_apply() {
            // The influencers page's author index ranks every author in memory, whatever the
            // shape of the data; the bound walk below serves a tracker too large for it.
            if self.use_author_index {
                if let Some(idx) = self.author_index(tracker_id).await? {
                    let (days, edges) = self.index_pieces(tracker_id, f).await?;
                    let (e, p) = {
                        let g = idx.read().await;
                        let (acts, extra) = g.range_activity(days, edges, f.platforms);
                        let all: HashMap<AuthorKey, Activity> = acts
                            .into_iter()
                            .enumerate()
                            .filter(|(_, a)| a.posts > 0)
                            .map(|(i, a)| (g.keys[i].clone(), a))
                            .chain(extra)
                            .collect();
                        (ranked(&all, Rank::Engagement, limit), ranked(&all, Rank::Posts, limit))
                    };
                    return tokio::try_join!(self.with_display(tracker_id, e), self.with_display(tracker_id, p));
                }
            }
            let (e, p) = self.influencers_from_rollups(tracker_id, f, &list, limit).await?;
            return tokio::try_join!(self.with_display(tracker_id, e), self.with_display(tracker_id, p));
        }
        let (interior, edges) = self.row_pieces(f, DAY_MS);
        let mut acc: HashMap<(String, String), (i64, i64, i64)> = HashMap::new();
        let mut add = |k: (String, String), posts: i64, eng: i64, fol: i64| {
            let e = acc.entry(k).or_default();
            e.0 += posts;
            e.1 += eng;
            e.2 = e.2.max(fol);
        };
        if let Some((a, b)) = interior {
            let sql = format!(
                "SELECT platform, author, CAST(SUM(posts) AS BIGINT), CAST(SUM(engagement) AS BIGINT), \
                 CAST(MAX(followers) AS BIGINT) FROM rollup_authors WHERE tracker_id = $1 AND day >= $2 AND day < $3 \
                 AND platform IN ({list}) GROUP BY platform, author"
            );
            let rows: Vec<(String, String, i64, i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
            for r in rows {
                add((r.0, r.1), r.2, r.3, r.4);
            }
        }
        let cond = f.row_conditions(self.backend(), &list);
        let sql = format!(
            "SELECT tp.platform, {AUTHOR_KEY} AS a, COUNT(*), CAST(SUM(p.engagement) AS BIGINT), \
             CAST(MAX(p.author_followers) AS BIGINT) {FROM_ROWS}{cond} GROUP BY tp.platform, {AUTHOR_KEY}"
        );
        for (a, b) in edges {
            let rows: Vec<(String, String, i64, i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
            for r in rows {
                add((r.0, r.1), r.2, r.3, r.4);
            }
        }
        let all: Vec<((String, String), (i64, i64, i64))> = acc.into_iter().filter(|(_, v)| v.0 > 0).collect();
        let top = |key: fn(&(i64, i64, i64)) -> (i64, i64)| {
            let mut v: Vec<&((String, String), (i64, i64, i64))> = all.iter().collect();
            v.sort_by(|x, y| key(&y.1).cmp(&key(&x.1)).then_with(|| x.0.cmp(&y.0)));
            v.truncate(limit);
            v.into_iter().cloned().collect::<Vec<_>>()
        };
        let by_eng = top(|v| (v.1, v.0));
        let by_posts = top(|v| (v.0, v.1));
        let mut out = (Vec::new(), Vec::new());
        for (src, dst) in [(by_eng, &mut out.0), (by_posts, &mut out.1)] {
            for ((platform, author), (posts, engagement, followers)) in src {
                let (name, avatar, verified) = self.author_display(tracker_id, &platform, &author).await?;
                dst.push(AuthorStat { platform, author, name, avatar, verified, posts, engagement, followers });
            }
        }
        Ok(out)
    }

    /// The name, avatar and verified flag of the author's most recently stored post in the
    /// tracker (the freshest profile). The author key is the username, or the author id when the
    /// username is empty: two lookups, each reading `posts_author_idx` (platform, username, and
    /// the row id it ends with) backwards until a post of the tracker.
    pub(crate) async fn author_display(&self, tracker_id: i64, platform: &str, author: &str) -> Result<(String, Option<String>, bool)> {
        for (username, id_cond) in [(author, ""), ("", " AND p.author_id = $4")] {
            let sql = format!(
                "SELECT p.author_name, p.author_avatar, p.author_verified FROM posts p \
                 WHERE p.platform = $1 AND p.author_username = $2{id_cond} \
                 AND EXISTS (SELECT 1 FROM tracker_posts tp WHERE tp.post_id = p.id AND tp.tracker_id = $3) \
                 ORDER BY p.id DESC LIMIT 1"
            );
            let r: Option<(String, Option<String>, bool)> = with_pool!(self, |p| {
                let mut q = sqlx::query_as(&sql).bind(platform).bind(username).bind(tracker_id);
                if !id_cond.is_empty() {
                    q = q.bind(author);
                }
                q.fetch_optional(p).await?
            });
            if let Some(r) = r {
                return Ok(r);
            }
        }
        Ok((author.to_string(), None, false))
    }
}

/// (platform, author key).
pub(crate) type AuthorKey = (String, String);

/// Posts, engagement and the largest follower count of an author.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Activity {
    pub posts: i64,
    pub engagement: i64,
    pub followers: i64,
    /// Follower counts of the posts, summed.
    pub reach: i64,
    pub impressions: i64,
}

impl Activity {
    pub(crate) fn add(&mut self, o: Activity) {
        self.posts += o.posts;
        self.engagement += o.engagement;
        self.followers = self.followers.max(o.followers);
        self.reach += o.reach;
        self.impressions += o.impressions;
    }
}

/// Activity columns over post rows `p` (posts, engagement, followers, reach, impressions).
pub(crate) const ROW_ACTIVITY: &str = "COUNT(*), CAST(SUM(p.engagement) AS BIGINT), CAST(MAX(p.author_followers) AS BIGINT), \
     CAST(SUM(p.author_followers) AS BIGINT), CAST(SUM(p.impressions) AS BIGINT)";

/// A row of (platform, author key, posts, engagement, followers, reach, impressions).
pub(crate) type ActivityRow = (String, String, i64, i64, i64, i64, i64);

pub(crate) fn activity_of(r: &ActivityRow) -> Activity {
    Activity { posts: r.2, engagement: r.3, followers: r.4, reach: r.5, impressions: r.6 }
}

/// A range cut for the author rollups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pieces {
    /// Whole days, `[a, b)` (open ends stay at ±FAR).
    pub days: Option<(i64, i64)>,
    /// Partial days, inclusive millisecond ranges.
    pub rows: Vec<(i64, i64)>,
}

pub(crate) fn pieces(start: Option<i64>, end: Option<i64>) -> Pieces {
    let d = split_range(start, end, DAY_MS);
    Pieces { days: d.interior, rows: d.edges }
}

impl Store {
    /// `pieces` with a partial day whose rest holds no post read whole (see `widen_to_whole`).
    pub(crate) async fn widened_pieces(&self, tracker_id: i64, f: &PageFilter) -> Result<Pieces> {
        let p = pieces(f.start, f.end);
        let (days, rows) = self.widen_to_whole(tracker_id, DAY_MS, p.days, p.rows).await?;
        Ok(Pieces { days, rows })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rank {
    Engagement,
    Posts,
}

impl Rank {
    /// The indexed upper bound of the lifetime figure.
    fn bound_column(self) -> &'static str {
        match self {
            Rank::Engagement => "engagement_bound",
            Rank::Posts => "posts_bound",
        }
    }
    fn key(self, a: &Activity) -> (i64, i64) {
        match self {
            Rank::Engagement => (a.engagement, a.posts),
            Rank::Posts => (a.posts, a.engagement),
        }
    }
}

/// The top `limit` of `acts` by `rank` (ties by platform and author).
fn ranked(acts: &HashMap<AuthorKey, Activity>, rank: Rank, limit: usize) -> Vec<(AuthorKey, Activity)> {
    let mut v: Vec<(&AuthorKey, &Activity)> = acts.iter().filter(|(_, a)| a.posts > 0).collect();
    v.sort_by(|x, y| rank.key(y.1).cmp(&rank.key(x.1)).then_with(|| x.0.cmp(y.0)));
    v.into_iter().take(limit).map(|(k, a)| (k.clone(), *a)).collect()
}

/// Bits of a 64-day block at or after `bit`.
fn bits_from(bit: i64) -> i64 {
    -1i64 << bit
}

/// Bits of a 64-day block up to and including `bit`.
fn bits_upto(bit: i64) -> i64 {
    if bit >= 63 {
        -1
    } else {
        (1i64 << (bit + 1)) - 1
    }
}

/// Unit starts `a, a + unit, …` below `b`.
fn units(a: i64, b: i64, unit: i64) -> Vec<i64> {
    (0..).map(|i| a + i * unit).take_while(|t| *t < b).collect()
}

impl Store {
    /// Activity per author in inclusive millisecond ranges, from post rows.
    pub(crate) async fn author_rows(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        list: &str,
        ranges: &[(i64, i64)],
    ) -> Result<HashMap<AuthorKey, Activity>> {
        let cond = f.row_conditions(self.backend(), list);
        let sql = format!("SELECT tp.platform, {AUTHOR_KEY} AS a, {ROW_ACTIVITY} {FROM_ROWS}{cond} GROUP BY tp.platform, {AUTHOR_KEY}");
        let parts = self
            .edges_concurrently(ranges, |(a, b)| {
                let sql = &sql;
                async move {
                    let rows: Vec<ActivityRow> =
                        with_pool!(self, |p| sqlx::query_as(sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
                    Ok(rows)
                }
            })
            .await?;
        let mut acc: HashMap<AuthorKey, Activity> = HashMap::new();
        for r in parts.into_iter().flatten() {
            let a = activity_of(&r);
            acc.entry((r.0, r.1)).or_default().add(a);
        }
        Ok(acc)
    }

    /// Activity of the given authors summed over rollup rows of `table` (keyed by `unit_col`) at
    /// the given unit starts: one primary-key probe per (unit, author).
    async fn probe_authors(
        &self,
        tracker_id: i64,
        table: &str,
        unit_col: &str,
        unit_starts: &[i64],
        authors: &[AuthorKey],
    ) -> Result<HashMap<AuthorKey, Activity>> {
        let mut acc: HashMap<AuthorKey, Activity> = HashMap::new();
        if unit_starts.is_empty() || authors.is_empty() {
            return Ok(acc);
        }
        let sql = match self.backend() {
            Backend::Sqlite => format!(
                "SELECT r.platform, r.author, CAST(SUM(r.posts) AS BIGINT), CAST(SUM(r.engagement) AS BIGINT), \
                 CAST(MAX(r.followers) AS BIGINT) FROM json_each($2) u CROSS JOIN json_each($3) c CROSS JOIN {table} r \
                 WHERE r.tracker_id = $1 AND r.{unit_col} = u.value AND r.platform = c.value ->> 0 AND r.author = c.value ->> 1 \
                 GROUP BY r.platform, r.author"
            ),
            // One index probe per author and unit (a LATERAL subquery: a join lets the planner
            // scan the whole table instead).
            Backend::Postgres => format!(
                "SELECT c.v ->> 0, c.v ->> 1, s.posts, s.engagement, s.followers FROM jsonb_array_elements($3::jsonb) c(v) \
                 CROSS JOIN LATERAL (SELECT CAST(SUM(r.posts) AS BIGINT) AS posts, CAST(SUM(r.engagement) AS BIGINT) AS engagement, \
                 CAST(MAX(r.followers) AS BIGINT) AS followers FROM {table} r WHERE r.tracker_id = $1 \
                 AND r.{unit_col} = ANY(ARRAY(SELECT jsonb_array_elements_text($2::jsonb)::bigint)) \
                 AND r.platform = c.v ->> 0 AND r.author = c.v ->> 1) s WHERE s.posts IS NOT NULL"
            ),
        };
        let units_json = serde_json::to_string(unit_starts).unwrap_or_else(|_| "[]".into());
        for chunk in authors.chunks(512) {
            let cands = serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into());
            let rows: Vec<(String, String, i64, i64, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(&units_json).bind(&cands).fetch_all(p).await?);
            for r in rows {
                acc.entry((r.0, r.1)).or_default().add(Activity { posts: r.2, engagement: r.3, followers: r.4, ..Default::default() });
            }
        }
        Ok(acc)
    }

    /// Influencers on the rollup path (see the module comment): the top `limit` authors by
    /// engagement and by posts, with their activity in the range.
    pub(crate) async fn influencers_from_rollups(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        list: &str,
        limit: usize,
    ) -> Result<(Vec<(AuthorKey, Activity)>, Vec<(AuthorKey, Activity)>)> {
        let open = f.start.is_none() && f.end.is_none();
        let p = self.widened_pieces(tracker_id, f).await?;
        // The whole days to probe: an open end is clamped to the tracker's posts.
        // The partial days are read while the tracker's bounds are looked up.
        let edges = async {
            if open {
                Ok(HashMap::new())
            } else {
                self.author_rows(tracker_id, f, list, &p.rows).await
            }
        };
        let bounds = async {
            match (p.days, open) {
                (Some(_), false) => self.dash_bounds(tracker_id, f).await.map(Some),
                _ => Ok(None),
            }
        };
        let (edge, bounds) = tokio::try_join!(edges, bounds)?;
        let mut days = Vec::new();
        if let (Some((a, b)), Some(bounds)) = (p.days, bounds) {
            let Some((lo, hi)) = bounds else {
                return Ok((vec![], vec![]));
            };
            let a = a.max(lo.div_euclid(DAY_MS) * DAY_MS);
            let b = b.min((hi.div_euclid(DAY_MS) + 1) * DAY_MS);
            days = units(a, b, DAY_MS);
        }

        let mut known: HashMap<AuthorKey, Activity> = HashMap::new();
        let mut out = (Vec::new(), Vec::new());
        for rank in [Rank::Engagement, Rank::Posts] {
            let col = rank.bound_column();
            // A total order (the index order read backwards), so pages neither skip nor repeat.
            let sql = format!(
                "SELECT platform, author, posts, engagement, followers, {col} FROM rollup_author_totals \
                 WHERE tracker_id = $1 AND platform IN ({list}) AND posts > 0 \
                 ORDER BY {col} DESC, platform DESC, author DESC LIMIT $2 OFFSET $3"
            );
            let mut offset = 0i64;
            let mut chunk = (limit.max(8) * 4) as i64;
            loop {
                let rows: Vec<(String, String, i64, i64, i64, i64)> =
                    with_pool!(self, |pool| sqlx::query_as(&sql).bind(tracker_id).bind(chunk).bind(offset).fetch_all(pool).await?);
                let exhausted = (rows.len() as i64) < chunk;
                // No author not yet read has a lifetime figure above the last bound read.
                let bound = rows.last().map(|r| r.5);
                let fresh: Vec<AuthorKey> = rows.iter().map(|r| (r.0.clone(), r.1.clone())).filter(|k| !known.contains_key(k)).collect();
                if open {
                    for r in rows {
                        known.insert((r.0, r.1), Activity { posts: r.2, engagement: r.3, followers: r.4, ..Default::default() });
                    }
                } else {
                    let mut acts = self.probe_authors(tracker_id, "rollup_authors", "day", &days, &fresh).await?;
                    for k in fresh {
                        let mut a = acts.remove(&k).unwrap_or_default();
                        if let Some(e) = edge.get(&k) {
                            a.add(*e);
                        }
                        known.insert(k, a);
                    }
                }
                let top = ranked(&known, rank, limit);
                let beaten = match (top.get(limit.saturating_sub(1)), bound) {
                    (Some((_, last)), Some(bound)) => rank.key(last).0 > bound,
                    _ => false,
                };
                if exhausted || beaten || limit == 0 {
                    match rank {
                        Rank::Engagement => out.0 = top,
                        Rank::Posts => out.1 = top,
                    }
                    break;
                }
                offset += chunk;
                chunk *= 4;
            }
        }
        Ok(out)
    }

    /// Distinct authors in the range on the rollup path.
    pub(crate) async fn users_from_rollups(&self, tracker_id: i64, f: &PageFilter, list: &str) -> Result<i64> {
        let p = self.widened_pieces(tracker_id, f).await?;
        // One statement: the database makes the union, so no author list travels.
        let mut parts = Vec::new();
        let mut binds: Vec<i64> = Vec::new();
        if let Some((a, b)) = p.days {
            let (da, db) = (a.div_euclid(DAY_MS), (b - 1).div_euclid(DAY_MS));
            let (lo, hi) = (da >> 6, db >> 6);
            let (lo_mask, hi_mask) = (bits_from(da & 63), bits_upto(db & 63));
            parts.push(format!(
                "SELECT platform, author FROM rollup_author_days WHERE tracker_id = $1 AND block >= $2 AND block <= $3 \
                 AND platform IN ({list}) \
                 AND (days & (CASE WHEN block = $2 THEN $4 ELSE -1 END) & (CASE WHEN block = $3 THEN $5 ELSE -1 END)) <> 0"
            ));
            binds.extend([lo, hi, lo_mask, hi_mask]);
        }
        let cond = f.row_conditions(self.backend(), list);
        for (a, b) in &p.rows {
            let n = binds.len() + 2;
            parts.push(format!(
                "SELECT tp.platform, {AUTHOR_KEY} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
                 WHERE tp.tracker_id = $1 AND tp.created_at >= ${n} AND tp.created_at <= ${}{cond}",
                n + 1
            ));
            binds.extend([*a, *b]);
        }
        if parts.is_empty() {
            return Ok(0);
        }
        let sql = if parts.len() == 1 {
            format!("SELECT COUNT(*) FROM (SELECT DISTINCT * FROM ({}) d) u", parts[0])
        } else {
            format!("SELECT COUNT(*) FROM ({}) u", parts.join(" UNION "))
        };
        with_pool!(self, |pool| {
            let mut q = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id);
            for v in &binds {
                q = q.bind(*v);
            }
            Ok(q.fetch_one(pool).await?)
        })
    }

    /// Authors of a tracker whose indexed bound lies below their lifetime figure (a check: it must
    /// be 0, or influencers could stop reading too early).
    pub async fn author_bounds_below(&self, tracker_id: i64) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM rollup_author_totals WHERE tracker_id = $1 \
             AND (engagement > engagement_bound OR posts > posts_bound)"
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?))
    }

    /// Display fields of ranked authors.
    pub(crate) async fn with_display(&self, tracker_id: i64, v: Vec<(AuthorKey, Activity)>) -> Result<Vec<AuthorStat>> {
        // The lookups at once (each an index probe or two): on PostgreSQL a round trip each.
        let shown = futures_util::future::try_join_all(v.iter().map(|((platform, author), _)| self.author_display(tracker_id, platform, author))).await?;
        Ok(v
            .into_iter()
            .zip(shown)
            .map(|(((platform, author), a), (name, avatar, verified))| AuthorStat {
                platform,
                author,
                name,
                avatar,
                verified,
                posts: a.posts,
                engagement: a.engagement,
                followers: a.followers,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::HOUR_MS;

    #[test]
    fn pieces_cut_whole_days_and_partial_days() {
        let (d, h) = (DAY_MS, HOUR_MS);
        let p = pieces(Some(d + 5 * h + 7), Some(4 * d + 3 * h + 9));
        assert_eq!(p.days, Some((2 * d, 4 * d)));
        assert_eq!(p.rows, vec![(d + 5 * h + 7, 2 * d - 1), (4 * d, 4 * d + 3 * h + 9)]);
        let p = pieces(None, None);
        assert!(p.days.is_some() && p.rows.is_empty());
    }

    #[test]
    fn block_masks() {
        assert_eq!(bits_from(0), -1);
        assert_eq!(bits_from(63), i64::MIN);
        assert_eq!(bits_upto(63), -1);
        assert_eq!(bits_upto(0), 1);
        assert_eq!(bits_from(3) & bits_upto(5), 0b111000);
    }
}
