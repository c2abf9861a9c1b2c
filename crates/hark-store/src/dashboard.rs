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

use std::collections::HashMap;

use hark_core::{Millis, PlatformSet};

use crate::{with_pool, BeginWrite, Result, Store};

pub const HOUR_MS: i64 = 3_600_000;
pub const DAY_MS: i64 = 86_400_000;

/// Above this many posts in the range, top posts walk the engagement index instead of sorting.
const TOP_POSTS_SCAN: i64 = 20_000;

/// The page filters as the dashboard queries take them.
#[derive(Debug, Clone, Default)]
pub struct DashboardFilter {
    pub platforms: PlatformSet,
    /// First millisecond included; None: from the beginning.
    pub start: Option<Millis>,
    /// Last millisecond included; None: up to now.
    pub end: Option<Millis>,
    pub post_tags: Vec<i64>,
    /// true: a post needs every tag (ALL); false: any one (ANY).
    pub post_tags_all: bool,
    pub influencer_tags: Vec<i64>,
    pub influencer_tags_all: bool,
    /// 1-based subtracker index.
    pub subtracker: Option<u32>,
    /// Read the post rows for everything, never the rollups: the baseline the benchmark compares
    /// against, and a second path for tests.
    pub rows_only: bool,
}

impl DashboardFilter {
    /// Whether the rollups can answer (no filter they do not record).
    pub fn rollups_apply(&self) -> bool {
        !self.rows_only && self.post_tags.is_empty() && self.influencer_tags.is_empty() && self.subtracker.is_none()
    }

    pub(crate) fn platform_list(&self) -> Option<String> {
        let v: Vec<String> = self.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        (!v.is_empty()).then(|| v.join(","))
    }

    /// Conditions on `tp` (tracker_posts) and `p` (posts) beyond tracker and time. Platform names
    /// come from a closed enum and tag ids are integers, so inlining them is safe.
    pub(crate) fn row_conditions(&self, backend: crate::Backend, list: &str) -> String {
        let mut c = format!(" AND {} AND tp.platform IN ({list})", backend.live_link("tp"));
        if let Some(i) = self.subtracker {
            c.push_str(&format!(" AND (tp.subtrackers & {}) <> 0", 1i64 << (i.clamp(1, 63) - 1)));
        }
        if !self.post_tags.is_empty() {
            let ids = join_ids(&self.post_tags);
            if self.post_tags_all {
                c.push_str(&format!(
                    " AND (SELECT COUNT(DISTINCT pt.tag_id) FROM post_tags pt WHERE pt.tracker_id = tp.tracker_id \
                     AND pt.post_id = tp.post_id AND pt.tag_id IN ({ids})) = {}",
                    distinct_len(&self.post_tags)
                ));
            } else {
                c.push_str(&format!(
                    " AND EXISTS (SELECT 1 FROM post_tags pt WHERE pt.tracker_id = tp.tracker_id \
                     AND pt.post_id = tp.post_id AND pt.tag_id IN ({ids}))"
                ));
            }
        }
        if !self.influencer_tags.is_empty() {
            let ids = join_ids(&self.influencer_tags);
            let matches = "ita.platform = tp.platform AND LOWER(ita.username) = LOWER(p.author_username)";
            if self.influencer_tags_all {
                c.push_str(&format!(
                    " AND (SELECT COUNT(DISTINCT ita.tag_id) FROM influencer_tag_accounts ita WHERE {matches} \
                     AND ita.tag_id IN ({ids})) = {}",
                    distinct_len(&self.influencer_tags)
                ));
            } else {
                c.push_str(&format!(" AND EXISTS (SELECT 1 FROM influencer_tag_accounts ita WHERE {matches} AND ita.tag_id IN ({ids}))"));
            }
        }
        c
    }
}

fn join_ids(ids: &[i64]) -> String {
    ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

fn distinct_len(ids: &[i64]) -> usize {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

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

/// A post as the dashboard lists it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DashboardPost {
    pub id: i64,
    pub platform: String,
    pub external_id: String,
    pub created_at: i64,
    pub author_username: String,
    pub author_name: String,
    pub author_avatar: Option<String>,
    pub author_followers: i64,
    pub text: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub likes: i64,
    pub shares: i64,
    pub comments: i64,
    pub views: i64,
    pub dislikes: i64,
    pub engagement: i64,
    pub sentiment: Option<String>,
}

const POST_FIELDS: &str = "p.id, p.platform, p.external_id, tp.created_at, p.author_username, p.author_name, \
     p.author_avatar, p.author_followers, p.text, p.title, p.url, p.likes, p.shares, p.comments, p.views, p.dislikes, \
     p.engagement, COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS sentiment";

pub(crate) const AUTHOR_KEY: &str = "CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END";

/// Term kinds held as JSON lists in `posts.terms`; the others are columns.
fn json_kind(kind: &str) -> bool {
    crate::ingest::TOTAL_KINDS.contains(&kind)
}

/// `PostTerms` read without copying its strings (escaped ones only are owned).
#[derive(serde::Deserialize, Default)]
struct TermsRef<'a> {
    #[serde(default, borrow, rename = "h")]
    h: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "m")]
    m: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "k")]
    k: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "d")]
    d: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "l")]
    l: Vec<std::borrow::Cow<'a, str>>,
}

impl TermsRef<'_> {
    fn of(&self, kind: &str) -> &[std::borrow::Cow<'_, str>] {
        match kind {
            "hashtag" => &self.h,
            "mention" => &self.m,
            "keyword" => &self.k,
            "domain" => &self.d,
            "link" => &self.l,
            _ => &[],
        }
    }
}

/// The post column a scalar term kind comes from (as the rollups record it).
fn column_of(kind: &str) -> Option<&'static str> {
    match kind {
        "country" => Some("p.country"),
        "region" => Some("p.region"),
        "source" => Some("p.device"),
        "post_type" => Some("p.post_type"),
        "sentiment" => Some("COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket)"),
        "gender" => Some("p.gender"),
        "lang" => Some("p.lang"),
        _ => None,
    }
}

/// Terms with a positive count, most frequent first (ties by term).
fn sorted_terms(acc: HashMap<String, i64>) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = acc.into_iter().filter(|(_, c)| *c > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// Where whole-day term counts come from: the daily rows of `[a, b)`, or the lifetime counts
/// (`rollup_term_totals`, listed kinds only) when those days hold every post of the tracker.
#[derive(Clone, Copy)]
enum Interior {
    Days(i64, i64),
    Lifetime,
}

pub(crate) const FROM_ROWS: &str = "FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
     WHERE tp.tracker_id = $1 AND tp.created_at >= $2 AND tp.created_at <= $3";

impl Store {
    fn row_pieces(&self, f: &DashboardFilter, unit: i64) -> (Option<(i64, i64)>, Vec<(i64, i64)>) {
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
    async fn day_pieces(&self, tracker_id: i64, f: &DashboardFilter) -> Result<(Option<(i64, i64)>, Vec<(i64, i64)>)> {
        let (interior, edges) = self.row_pieces(f, DAY_MS);
        if !f.rollups_apply() {
            return Ok((interior, edges));
        }
        self.widen_to_whole(tracker_id, DAY_MS, interior, edges).await
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
    async fn live_posts_between(&self, tracker_id: i64, ranges: &[(i64, i64)]) -> Result<bool> {
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

    /// Posts, engagement, reach and impressions in the range.
    pub async fn dash_counts(&self, tracker_id: i64, f: &DashboardFilter) -> Result<Counts> {
        let Some(list) = f.platform_list() else {
            return Ok(Counts::default());
        };
        let (interior, edges) = self.row_pieces(f, HOUR_MS);
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
    pub async fn dash_users(&self, tracker_id: i64, f: &DashboardFilter) -> Result<i64> {
        let Some(list) = f.platform_list() else {
            return Ok(0);
        };
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

    /// Activity at `resolution` (HOUR_MS or 60_000) as (bucket start, counts), sorted. Rollup
    /// hours are used only at hour resolution.
    pub async fn dash_series(&self, tracker_id: i64, f: &DashboardFilter, resolution: i64) -> Result<Vec<(i64, Counts)>> {
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        let (interior, edges) =
            if resolution == HOUR_MS { self.row_pieces(f, HOUR_MS) } else { (None, vec![(f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR))]) };
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

    /// Every term of `kind` with its count in the range, most frequent first (ties by term).
    pub async fn dash_terms(&self, tracker_id: i64, f: &DashboardFilter, kind: &str) -> Result<Vec<(String, i64)>> {
        if json_kind(kind) {
            let mut v = self.dash_terms_many(tracker_id, f, &[(kind, PlatformSet::all())]).await?;
            return Ok(v.pop().unwrap_or_default());
        }
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        let (interior, edges) = self.day_pieces(tracker_id, f).await?;
        // The whole days and the partial ones are read at once.
        let whole = async {
            let mut acc: HashMap<String, i64> = HashMap::new();
            if let Some((a, b)) = interior {
                self.interior_terms(tracker_id, &list, kind, Interior::Days(a, b), &mut acc, None).await?;
            }
            Ok::<_, crate::StoreError>(acc)
        };
        let partial = async {
            let Some(col) = column_of(kind) else {
                return Ok(vec![]);
            };
            let cond = f.row_conditions(self.backend(), &list);
            let sql = format!("SELECT {col} AS t, COUNT(*) {FROM_ROWS}{cond} AND {col} IS NOT NULL GROUP BY {col}");
            let sql = &sql;
            self.edges_concurrently(&edges, |(a, b)| async move {
                let rows: Vec<(String, i64)> =
                    with_pool!(self, |p| sqlx::query_as(sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
                Ok(rows)
            })
            .await
        };
        let (mut acc, parts) = tokio::try_join!(whole, partial)?;
        for (t, c) in parts.into_iter().flatten() {
            *acc.entry(t).or_default() += c;
        }
        Ok(sorted_terms(acc))
    }

    /// Term counts of the rollups' whole days `[a, b)` added to `acc`.
    async fn interior_terms(
        &self,
        tracker_id: i64,
        list: &str,
        kind: &str,
        source: Interior,
        acc: &mut HashMap<String, i64>,
        limit: Option<usize>,
    ) -> Result<()> {
        // With a limit (only when nothing else is added to these counts) the database keeps the
        // top terms itself, in the order `sorted_terms` gives (bytewise on the term).
        let top = match (limit, self.backend()) {
            (None, _) => String::new(),
            (Some(n), crate::Backend::Sqlite) => {
                format!(" HAVING SUM(count) > 0 ORDER BY 2 DESC, term LIMIT {n}")
            }
            (Some(n), crate::Backend::Postgres) => {
                format!(" HAVING SUM(count) > 0 ORDER BY 2 DESC, term COLLATE \"C\" LIMIT {n}")
            }
        };
        let rows: Vec<(String, i64)> = match source {
            Interior::Days(a, b) => {
                let sql = format!(
                    "SELECT term, CAST(SUM(count) AS BIGINT) FROM rollup_terms WHERE tracker_id = $1 AND kind = $2 \
                     AND day >= $3 AND day < $4 AND platform IN ({list}) GROUP BY term{top}"
                );
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(kind).bind(a).bind(b).fetch_all(p).await?)
            }
            Interior::Lifetime => {
                let sql = format!(
                    "SELECT term, CAST(SUM(count) AS BIGINT) FROM rollup_term_totals WHERE tracker_id = $1 AND kind = $2 \
                     AND platform IN ({list}) GROUP BY term{top}"
                );
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(kind).fetch_all(p).await?)
            }
        };
        for (t, c) in rows {
            *acc.entry(t).or_default() += c;
        }
        Ok(())
    }

    /// Several term lists of kinds kept in `posts.terms` (hashtag, keyword, domain, link…), each
    /// for the filter's platforms among its own: the partial first and last days are read from
    /// the post rows once for all of them.
    pub async fn dash_terms_many(
        &self,
        tracker_id: i64,
        f: &DashboardFilter,
        wants: &[(&str, PlatformSet)],
    ) -> Result<Vec<Vec<(String, i64)>>> {
        self.dash_top_terms_many(tracker_id, f, wants, None).await
    }

    /// `dash_terms_many` keeping the first `limit` terms of each list (all with None).
    pub async fn dash_top_terms_many(
        &self,
        tracker_id: i64,
        f: &DashboardFilter,
        wants: &[(&str, PlatformSet)],
        limit: Option<usize>,
    ) -> Result<Vec<Vec<(String, i64)>>> {
        let mut out = Vec::with_capacity(wants.len());
        let subs: Vec<DashboardFilter> =
            wants.iter().map(|(_, keep)| DashboardFilter { platforms: f.platforms.intersect(*keep), ..f.clone() }).collect();
        let (interior, edges) = self.day_pieces(tracker_id, f).await?;
        let mut union = PlatformSet::default();
        for (i, (kind, _)) in wants.iter().enumerate() {
            if !json_kind(kind) {
                return Err(crate::StoreError::Config(format!("not a listed term kind: {kind}")));
            }
            for p in subs[i].platforms.iter() {
                union.insert(p);
            }
        }
        // Without partial days the whole days' counts are final, so the database can cut them.
        let top = if edges.is_empty() { limit } else { None };
        // The whole days and the two partial ones are read at once.
        let u = DashboardFilter { platforms: union, ..f.clone() };
        let whole = async {
            let mut accs: Vec<HashMap<String, i64>> = vec![HashMap::new(); wants.len()];
            let Some((a, b)) = interior else { return Ok(accs) };
            // Whole days holding every post of the tracker: the lifetime counts answer.
            let lifetime = edges.is_empty()
                && ((a, b) == (-FAR, FAR)
                    || matches!(self.dash_bounds(tracker_id, &u).await?, Some((lo, hi)) if a <= lo && hi < b));
            let source = if lifetime { Interior::Lifetime } else { Interior::Days(a, b) };
            for (i, (kind, _)) in wants.iter().enumerate() {
                if let Some(list) = subs[i].platform_list() {
                    self.interior_terms(tracker_id, &list, kind, source, &mut accs[i], top).await?;
                }
            }
            Ok::<_, crate::StoreError>(accs)
        };
        let ulist = u.platform_list();
        let wanted: Vec<(&str, PlatformSet)> = wants.iter().zip(&subs).map(|((k, _), sub)| (*k, sub.platforms)).collect();
        let partial = async {
            match &ulist {
                Some(list) => self.edges_concurrently(&edges, |range| self.edge_terms(tracker_id, &u, list, &wanted, range)).await,
                None => Ok(vec![]),
            }
        };
        let (mut accs, parts) = tokio::try_join!(whole, partial)?;
        for part in parts {
            for (acc, got) in accs.iter_mut().zip(part) {
                for (t, c) in got {
                    *acc.entry(t).or_default() += c;
                }
            }
        }
        for acc in accs {
            let mut v = sorted_terms(acc);
            if let Some(n) = limit {
                v.truncate(n);
            }
            out.push(v);
        }
        Ok(out)
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

    /// Term counts of the posts in one inclusive millisecond range, one map per wanted (kind,
    /// platforms). The posts' term lists come joined per platform and hour (one row per hour
    /// instead of one per post: at 100,000 posts a day the per-row cost dominated), and are
    /// parsed without copying the terms.
    async fn edge_terms(
        &self,
        tracker_id: i64,
        u: &DashboardFilter,
        list: &str,
        wanted: &[(&str, PlatformSet)],
        (a, b): (i64, i64),
    ) -> Result<Vec<HashMap<String, i64>>> {
        let cond = u.row_conditions(self.backend(), list);
        let joined = match self.backend() {
            crate::Backend::Sqlite => "group_concat(p.terms, char(10))",
            crate::Backend::Postgres => "string_agg(p.terms, E'\\n')",
        };
        let sql = format!("SELECT tp.platform, {joined} {FROM_ROWS}{cond} GROUP BY tp.platform, tp.created_at / {HOUR_MS}");
        let rows: Vec<(String, String)> = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
        let mut accs: Vec<HashMap<String, i64>> = vec![HashMap::new(); wanted.len()];
        for (platform, joined) in rows {
            let Ok(platform) = hark_core::Platform::parse(&platform) else {
                continue;
            };
            let which: Vec<usize> = (0..wanted.len()).filter(|i| wanted[*i].1.contains(platform)).collect();
            if which.is_empty() {
                continue;
            }
            // JSON never holds a raw newline (serde escapes it inside strings).
            for line in joined.split('\n') {
                let Ok(terms) = serde_json::from_str::<TermsRef>(line) else {
                    continue;
                };
                for &i in &which {
                    for t in terms.of(wanted[i].0) {
                        match accs[i].get_mut(t.as_ref()) {
                            Some(c) => *c += 1,
                            None => {
                                accs[i].insert(t.to_string(), 1);
                            }
                        }
                    }
                }
            }
        }
        Ok(accs)
    }

    /// Authors with their posts, engagement and largest follower count in the range; the top
    /// `limit` by engagement and the top `limit` by posts, each with its display fields.
    pub async fn dash_influencers(&self, tracker_id: i64, f: &DashboardFilter, limit: usize) -> Result<(Vec<AuthorStat>, Vec<AuthorStat>)> {
        let Some(list) = f.platform_list() else {
            return Ok((vec![], vec![]));
        };
        if f.rollups_apply() {
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

    /// The most engaging posts in the range. Over many posts they are read in the order of
    /// `tracker_posts_engagement_idx` (stopping at `limit` posts of the range); a range with few
    /// posts is read by time and sorted.
    pub async fn dash_top_posts(&self, tracker_id: i64, f: &DashboardFilter, limit: i64) -> Result<Vec<DashboardPost>> {
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        let cond = f.row_conditions(self.backend(), &list);
        let by_engagement = f.rollups_apply() && self.dash_counts(tracker_id, f).await?.posts > TOP_POSTS_SCAN;
        let from = if by_engagement && self.backend() == crate::Backend::Sqlite {
            FROM_ROWS.replace("tracker_posts tp", "tracker_posts tp INDEXED BY tracker_posts_engagement_idx")
        } else {
            FROM_ROWS.to_string()
        };
        // The baseline sorts on the post rows themselves.
        let order =
            if f.rows_only { "p.engagement DESC, tp.created_at DESC, p.id" } else { "tp.engagement DESC, tp.created_at DESC, tp.post_id" };
        let sql = format!("SELECT {POST_FIELDS} {from}{cond} ORDER BY {order} LIMIT $4");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, DashboardPost>(&sql)
            .bind(tracker_id)
            .bind(f.start.unwrap_or(-FAR))
            .bind(f.end.unwrap_or(FAR))
            .bind(limit)
            .fetch_all(p)
            .await?))
    }

    /// Posts in the range, newest first, a page at a time; with the total. `term` keeps the posts
    /// whose `kind` list (hashtag or keyword) holds it.
    pub async fn dash_posts(
        &self,
        tracker_id: i64,
        f: &DashboardFilter,
        term: Option<(&str, &str)>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<DashboardPost>, i64)> {
        let Some(list) = f.platform_list() else {
            return Ok((vec![], 0));
        };
        let mut cond = f.row_conditions(self.backend(), &list);
        let mut pattern = String::new();
        if let Some((kind, t)) = term {
            // A cheap pre-filter on the JSON text (LIKE wildcards in the term only widen it); the
            // exact check runs on the decoded terms below.
            let _ = kind;
            cond.push_str(" AND p.terms LIKE $4");
            pattern = format!("%{}%", serde_json::to_string(t).unwrap_or_default());
        }
        let (start, end) = (f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR));
        if let Some((kind, t)) = term {
            // Exact membership needs the decoded list, so the page is cut after filtering.
            let sql = format!("SELECT {POST_FIELDS}, p.terms {FROM_ROWS}{cond} ORDER BY tp.created_at DESC, p.id DESC");
            let kind = if json_kind(kind) { kind } else { "keyword" };
            let rows: Vec<(DashboardPost, String)> = with_pool!(self, |p| {
                use sqlx::Row;
                let rows = sqlx::query(&sql).bind(tracker_id).bind(start).bind(end).bind(&pattern).fetch_all(p).await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in rows {
                    let post = <DashboardPost as sqlx::FromRow<_>>::from_row(&r)?;
                    let terms: String = r.try_get("terms")?;
                    out.push((post, terms));
                }
                out
            });
            let matching: Vec<DashboardPost> = rows
                .into_iter()
                .filter(|(_, json)| {
                    let terms: TermsRef = serde_json::from_str(json).unwrap_or_default();
                    terms.of(kind).iter().any(|x| x == t)
                })
                .map(|(p, _)| p)
                .collect();
            let total = matching.len() as i64;
            let page = matching.into_iter().skip(offset.max(0) as usize).take(limit.max(0) as usize).collect();
            return Ok((page, total));
        }
        let sql = format!("SELECT {POST_FIELDS} {FROM_ROWS}{cond} ORDER BY tp.created_at DESC, p.id DESC LIMIT $4 OFFSET $5");
        let count = format!("SELECT COUNT(*) {FROM_ROWS}{cond}");
        with_pool!(self, |p| {
            let posts = sqlx::query_as::<_, DashboardPost>(&sql)
                .bind(tracker_id)
                .bind(start)
                .bind(end)
                .bind(limit)
                .bind(offset)
                .fetch_all(p)
                .await?;
            let total: i64 = sqlx::query_scalar(&count).bind(tracker_id).bind(start).bind(end).fetch_one(p).await?;
            Ok((posts, total))
        })
    }

    /// Likes and dislikes of the youtube posts in the range.
    pub async fn dash_viewer_sentiment(&self, tracker_id: i64, f: &DashboardFilter) -> Result<(i64, i64)> {
        let mut yt = PlatformSet::empty();
        if f.platforms.contains(hark_core::Platform::Youtube) {
            yt.insert(hark_core::Platform::Youtube);
        }
        let f = DashboardFilter { platforms: yt, ..f.clone() };
        let Some(list) = f.platform_list() else {
            return Ok((0, 0));
        };
        let (interior, edges) = self.row_pieces(&f, HOUR_MS);
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
    pub async fn dash_share_of_voice(&self, tracker_id: i64, f: &DashboardFilter, n: u32) -> Result<Vec<i64>> {
        let n = n.min(63);
        let Some(list) = f.platform_list() else {
            return Ok(vec![0; n as usize]);
        };
        if n == 0 {
            return Ok(vec![]);
        }
        let mut out = vec![0i64; n as usize];
        let (interior, edges) = self.row_pieces(f, HOUR_MS);
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
    pub async fn dash_bounds(&self, tracker_id: i64, f: &DashboardFilter) -> Result<Option<(i64, i64)>> {
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

#[cfg(test)]
mod tests {
    use super::*;

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

impl Store {
    /// Puts a post tag on a tracker's post (idempotent).
    pub async fn tag_tracker_post(&self, tracker_id: i64, post_id: i64, tag_id: i64) -> Result<()> {
        with_pool!(self, |p| {
            sqlx::query("INSERT INTO post_tags (tracker_id, post_id, tag_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(tracker_id)
                .bind(post_id)
                .bind(tag_id)
                .execute(p)
                .await
                .map(|_| ())?
        });
        Ok(())
    }

    /// Creates an influencer tag of `owner_id` holding the given accounts (platform name, username).
    pub async fn create_influencer_tag(&self, owner_id: i64, name: &str, accounts: &[(&str, &str)], now: Millis) -> Result<i64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write().await?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO influencer_tags (owner_id, name, color, created_at) VALUES ($1, $2, '#6366f1', $3) RETURNING id",
            )
            .bind(owner_id)
            .bind(name)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            for (platform, username) in accounts {
                sqlx::query("INSERT INTO influencer_tag_accounts (tag_id, platform, username) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                    .bind(id)
                    .bind(*platform)
                    .bind(*username)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(id)
        })
    }
}
