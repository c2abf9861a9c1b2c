//! The trending topics and sentiment pages: a range's words and hashtags with their trend scores,
//! the drill-down layers (the terms of the posts holding a path of picked terms), their posts and
//! series; the range's sentiment score, buckets over time and significant keywords.
//!
//! Everything is counted over the tracker's topic table (`table`: every post's time, platform,
//! sentiment bucket, subtrackers and term ids, in memory and kept exact by day versions). A
//! tracker too large to keep, or a filter with `rows_only` (the benchmark's baseline), is counted
//! over a table read from the post rows of the request's days: the same code, so the same answers.
//! The statistics are in `stats`.

mod stats;
pub(crate) mod table;

use std::collections::HashMap;
use std::ops::Deref;

use stats::{log_odds, prior_weight, share_change, trend_score, MIN_KEYWORD_COUNT, SIGNIFICANT_Z};
pub use table::TermKind;
pub(crate) use table::TopicTables;
use table::{Scope, TopicTable};

use crate::dashboard::DashboardPost;
use crate::time::HOUR_MS;
use crate::{with_pool, PageFilter, Result, Store};

/// A picked term: a word or a hashtag (without its `#`), lowercase as posts list them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TermRef {
    pub kind: TermKind,
    pub text: String,
}

impl TermRef {
    pub fn new(kind: TermKind, text: &str) -> Self {
        TermRef { kind, text: text.trim().trim_start_matches('#').to_lowercase() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TopicSort {
    #[default]
    Count,
    Trend,
}

/// One layer of the trending topics: the terms of a kind among the range's posts that hold every
/// term of `path` (none: all posts).
#[derive(Debug, Clone)]
pub struct TopicQuery {
    pub filter: PageFilter,
    pub kind: TermKind,
    pub path: Vec<TermRef>,
    pub sort: TopicSort,
    pub ascending: bool,
    /// 1-based.
    pub page: usize,
    pub per_page: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TopicItem {
    pub text: String,
    pub kind: TermKind,
    /// Posts of the layer holding the term.
    pub count: i64,
    /// `count` over the layer's posts.
    pub share: f64,
    /// The trend score (`stats::trend_score`) of the term in the trend window against the baseline.
    pub trend: f64,
    /// The change of its share (`stats::share_change`) over the same windows.
    pub change: Option<f64>,
    /// Posts per hour (hour start, posts) over the range, hours with posts only.
    pub hours: Vec<(i64, i64)>,
}

/// The windows a trend compares: the range against up to four ranges of its length before it, or,
/// when nothing precedes the range (All Time), its last quarter against the rest of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrendWindow {
    pub current: (i64, i64),
    pub baseline: (i64, i64),
    pub current_posts: i64,
    pub baseline_posts: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TopicLayer {
    /// The range's posts that hold the path.
    pub posts: i64,
    /// Terms in the layer (all pages).
    pub total: usize,
    pub items: Vec<TopicItem>,
    /// The range resolved (first and last millisecond); None when the tracker has no posts.
    pub range: Option<(i64, i64)>,
    pub window: Option<TrendWindow>,
}

/// Posts per bucket of the shown sentiment: index 0 positive … 4 negative.
pub type BucketCounts = [i64; 5];

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SentimentSummary {
    pub counts: BucketCounts,
    /// Per hour with posts: (hour start, counts).
    pub hours: Vec<(i64, BucketCounts)>,
    pub range: Option<(i64, i64)>,
}

impl SentimentSummary {
    /// Positive minus negative posts (slight ones included) over all posts, -1 to 1.
    pub fn score(&self) -> f64 {
        let total: i64 = self.counts.iter().sum();
        if total == 0 {
            return 0.0;
        }
        ((self.counts[0] + self.counts[1]) - (self.counts[3] + self.counts[4])) as f64 / total as f64
    }
}

/// A keyword over-represented in one sentiment's posts.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyword {
    pub text: String,
    pub kind: TermKind,
    /// Posts of that sentiment holding it.
    pub count: i64,
    /// Posts of the range holding it.
    pub total: i64,
    /// The log-odds z value (`stats::log_odds`).
    pub z: f64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SignificantKeywords {
    pub positive: Vec<Keyword>,
    pub negative: Vec<Keyword>,
    /// Posts of the range that are positive (slight included), negative, and all.
    pub positive_posts: i64,
    pub negative_posts: i64,
    pub posts: i64,
}

/// A table shared with other requests, or read for this one.
enum Held {
    Shared(tokio::sync::OwnedRwLockReadGuard<TopicTable>),
    Own(Box<TopicTable>),
}

impl Deref for Held {
    type Target = TopicTable;
    fn deref(&self) -> &TopicTable {
        match self {
            Held::Shared(g) => g,
            Held::Own(t) => t,
        }
    }
}

/// Counts per hour of a range for a few series: an array per series when the range's hours are
/// few enough (a map lookup per post was most of a month's sparkline pass), a map otherwise.
struct Hours {
    first: i64,
    len: usize,
    dense: Vec<Vec<i64>>,
    sparse: Vec<HashMap<i64, i64>>,
}

/// Cells (hours × series) kept as arrays at most.
const DENSE_HOURS: usize = 4_000_000;

impl Hours {
    fn new((s, e): (i64, i64), series: usize) -> Self {
        let first = s.div_euclid(HOUR_MS);
        let len = (e.div_euclid(HOUR_MS) - first + 1).max(0) as usize;
        if len.saturating_mul(series) <= DENSE_HOURS {
            Hours { first, len, dense: vec![vec![0; len]; series], sparse: vec![] }
        } else {
            Hours { first, len, dense: vec![], sparse: vec![HashMap::new(); series] }
        }
    }

    #[inline]
    fn add(&mut self, series: usize, at: i64) {
        let h = at.div_euclid(HOUR_MS);
        if self.dense.is_empty() {
            *self.sparse[series].entry(h).or_default() += 1;
        } else {
            let i = (h - self.first) as usize;
            if i < self.len {
                self.dense[series][i] += 1;
            }
        }
    }

    /// Each series as (hour start, count), hours with a count, in order.
    fn lists(self) -> Vec<Vec<(i64, i64)>> {
        if self.dense.is_empty() {
            return self
                .sparse
                .into_iter()
                .map(|m| {
                    let mut v: Vec<(i64, i64)> = m.into_iter().map(|(h, n)| (h * HOUR_MS, n)).collect();
                    v.sort_unstable();
                    v
                })
                .collect();
        }
        let first = self.first;
        self.dense
            .into_iter()
            .map(|v| v.into_iter().enumerate().filter(|(_, n)| *n != 0).map(|(i, n)| ((first + i as i64) * HOUR_MS, n)).collect())
            .collect()
    }
}

/// How many ranges of its length before a range the baseline reaches back.
const BASELINE_WINDOWS: i64 = 4;

/// The layer's trend windows for the range `(s, e)` when the tracker's first post is `first`.
fn trend_window(first: i64, (s, e): (i64, i64)) -> ((i64, i64), (i64, i64)) {
    let len = e - s + 1;
    if first < s {
        ((s, e), ((s - BASELINE_WINDOWS * len).max(first), s - 1))
    } else {
        let cut = e - len / 4;
        ((cut + 1, e), (s, cut))
    }
}

/// Term ids of a path, or None when a term is in no post.
fn path_ids(t: &TopicTable, path: &[TermRef]) -> Option<Vec<u32>> {
    path.iter().map(|p| t.id_of(p.kind, &p.text)).collect()
}

fn holds(terms: &[u32], path: &[u32]) -> bool {
    path.iter().all(|id| terms.binary_search(id).is_ok())
}

impl Store {
    /// The table to count over, the range resolved against it and the tracker's first post;
    /// `lookback` reads the trend baseline's days too when the table is read for the request.
    async fn topic_source(&self, tracker_id: i64, f: &PageFilter, lookback: bool) -> Result<Option<(Held, (i64, i64), i64)>> {
        if !f.rows_only {
            if let Some(entry) = self.topic_table(tracker_id).await? {
                let g = entry.read_owned().await;
                let Some((lo, hi)) = g.bounds() else { return Ok(None) };
                let range = (f.start.unwrap_or(lo), f.end.unwrap_or(hi));
                return Ok(Some((Held::Shared(g), range, lo)));
            }
        }
        let all = PageFilter { platforms: hark_core::PlatformSet::all(), ..Default::default() };
        let Some((lo, hi)) = self.dash_bounds(tracker_id, &all).await? else { return Ok(None) };
        let (s, e) = (f.start.unwrap_or(lo), f.end.unwrap_or(hi));
        let from = if lookback { trend_window(lo, (s, e)).1 .0.min(s) } else { s };
        let t = self.topic_table_of_rows(tracker_id, from, e).await?;
        Ok(Some((Held::Own(Box::new(t)), (s, e), lo)))
    }

    /// One layer of the trending topics, sorted and paged, with each listed term's hours.
    pub async fn topic_layer(&self, tracker_id: i64, q: &TopicQuery) -> Result<TopicLayer> {
        let empty = |range| TopicLayer { posts: 0, total: 0, items: vec![], range, window: None };
        let Some((t, (s, e), first)) = self.topic_source(tracker_id, &q.filter, true).await? else {
            return Ok(empty(None));
        };
        let Some(path) = path_ids(&t, &q.path) else { return Ok(empty(Some((s, e)))) };
        let scope = Scope::new(s, e, q.filter.platforms, q.filter.subtracker);
        let (cur, base) = trend_window(first, (s, e));
        let want_hashtag = q.kind == TermKind::Hashtag;
        let n = t.dict.len();
        let (mut count, mut now, mut before) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
        let (mut posts, mut n1, mut n0) = (0i64, 0i64, 0i64);
        let lookback = scope.with_range(base.0.min(s), e);
        t.each(&lookback, |d, i| {
            let terms = d.terms_of(i);
            if !holds(terms, &path) {
                return;
            }
            let at = d.at[i];
            let (in_range, in_cur, in_base) = (at >= s, at >= cur.0 && at <= cur.1, at >= base.0 && at <= base.1);
            posts += in_range as i64;
            n1 += in_cur as i64;
            n0 += in_base as i64;
            for &id in terms {
                if t.hashtag[id as usize] != want_hashtag {
                    continue;
                }
                let k = id as usize;
                count[k] += in_range as u32;
                now[k] += in_cur as u32;
                before[k] += in_base as u32;
            }
        });
        let mut items: Vec<(u32, i64, f64)> = Vec::new();
        for (k, c) in count.iter().enumerate() {
            if *c == 0 || path.contains(&(k as u32)) {
                continue;
            }
            let trend = trend_score(now[k] as i64, n1, before[k] as i64, n0);
            items.push((k as u32, *c as i64, trend));
        }
        // Ties by count, then by term, so pages neither skip nor repeat. Only the terms up to the
        // page's last are put in order.
        let order = |a: &(u32, i64, f64), b: &(u32, i64, f64)| {
            let key = match q.sort {
                TopicSort::Count => a.1.cmp(&b.1),
                TopicSort::Trend => a.2.total_cmp(&b.2).then(a.1.cmp(&b.1)),
            };
            let key = if q.ascending { key } else { key.reverse() };
            key.then_with(|| t.text_of(a.0).cmp(t.text_of(b.0)))
        };
        let total = items.len();
        let per = q.per_page.clamp(1, 500);
        let from = (q.page.max(1) - 1).saturating_mul(per).min(total);
        let to = (from + per).min(total);
        if to > 0 && to < total {
            items.select_nth_unstable_by(to - 1, order);
            items.truncate(to);
        }
        items.sort_unstable_by(order);
        let page: Vec<(u32, i64, f64)> = items[from..to].to_vec();
        // The listed terms' hours, in a second pass over the range.
        let mut slot = vec![u16::MAX; if page.is_empty() { 0 } else { n }];
        for (i, (id, ..)) in page.iter().enumerate() {
            slot[*id as usize] = i as u16;
        }
        let mut hours = Hours::new((s, e), page.len());
        if !page.is_empty() {
            t.each(&scope, |d, i| {
                let terms = d.terms_of(i);
                if !holds(terms, &path) {
                    return;
                }
                for id in terms {
                    let j = slot[*id as usize];
                    if j != u16::MAX {
                        hours.add(j as usize, d.at[i]);
                    }
                }
            });
        }
        let hours = hours.lists();
        let items = page
            .into_iter()
            .zip(hours)
            .map(|((id, c, trend), hours)| {
                let k = id as usize;
                TopicItem {
                    text: t.text_of(id).to_string(),
                    kind: t.kind_of(id),
                    count: c,
                    share: if posts > 0 { c as f64 / posts as f64 } else { 0.0 },
                    trend,
                    change: share_change(now[k] as i64, n1, before[k] as i64, n0),
                    hours,
                }
            })
            .collect();
        let window = TrendWindow { current: cur, baseline: base, current_posts: n1, baseline_posts: n0 };
        Ok(TopicLayer { posts, total, items, range: Some((s, e)), window: Some(window) })
    }

    /// Posts per hour of the range holding `path` (all posts for an empty path), then for each of
    /// `items` the posts holding the path and the item: (hour start, posts), hours with posts.
    pub async fn topic_series(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        path: &[TermRef],
        items: &[TermRef],
    ) -> Result<(Option<(i64, i64)>, Vec<Vec<(i64, i64)>>)> {
        let none = vec![Vec::new(); items.len() + 1];
        let Some((t, (s, e), _)) = self.topic_source(tracker_id, f, false).await? else { return Ok((None, none)) };
        let Some(path) = path_ids(&t, path) else { return Ok((Some((s, e)), none)) };
        let ids: Vec<Option<u32>> = items.iter().map(|r| t.id_of(r.kind, &r.text)).collect();
        let mut acc = Hours::new((s, e), items.len() + 1);
        t.each(&Scope::new(s, e, f.platforms, f.subtracker), |d, i| {
            let terms = d.terms_of(i);
            if !holds(terms, &path) {
                return;
            }
            acc.add(0, d.at[i]);
            for (j, id) in ids.iter().enumerate() {
                if let Some(id) = id {
                    if terms.binary_search(id).is_ok() {
                        acc.add(j + 1, d.at[i]);
                    }
                }
            }
        });
        Ok((Some((s, e)), acc.lists()))
    }

    /// The range's posts holding every term of `path`, newest first, a page at a time; with the
    /// total.
    pub async fn topic_posts(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        path: &[TermRef],
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<DashboardPost>, i64)> {
        let Some((t, (s, e), _)) = self.topic_source(tracker_id, f, false).await? else { return Ok((vec![], 0)) };
        let Some(path) = path_ids(&t, path) else { return Ok((vec![], 0)) };
        let mut found: Vec<(i64, i64)> = Vec::new();
        t.each(&Scope::new(s, e, f.platforms, f.subtracker), |d, i| {
            if holds(d.terms_of(i), &path) {
                found.push((d.at[i], d.ids[i]));
            }
        });
        drop(t);
        let total = found.len() as i64;
        found.sort_unstable_by(|a, b| b.cmp(a));
        let ids: Vec<i64> = found.into_iter().skip(offset).take(limit).map(|(_, id)| id).collect();
        Ok((self.dash_posts_by_id(tracker_id, &ids).await?, total))
    }

    /// Posts of a tracker by id, in the order of `ids` (ids it does not hold are left out).
    async fn dash_posts_by_id(&self, tracker_id: i64, ids: &[i64]) -> Result<Vec<DashboardPost>> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let set = self.backend().id_set("$2");
        let sql = format!(
            "SELECT {} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1 AND tp.post_id IN ({set})",
            crate::dashboard::POST_FIELDS
        );
        let json = crate::dialect::json_ids(ids);
        let rows: Vec<DashboardPost> = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(&json).fetch_all(p).await?);
        let mut by_id: HashMap<i64, DashboardPost> = rows.into_iter().map(|r| (r.id, r)).collect();
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// The range's posts per shown sentiment bucket, in all and per hour.
    pub async fn sentiment_summary(&self, tracker_id: i64, f: &PageFilter) -> Result<SentimentSummary> {
        let Some((t, (s, e), _)) = self.topic_source(tracker_id, f, false).await? else { return Ok(SentimentSummary::default()) };
        let mut counts = [0i64; 5];
        let mut per = Hours::new((s, e), 5);
        t.each(&Scope::new(s, e, f.platforms, f.subtracker), |d, i| {
            let b = d.bucket[i] as usize;
            counts[b] += 1;
            per.add(b, d.at[i]);
        });
        let mut by_hour: std::collections::BTreeMap<i64, BucketCounts> = Default::default();
        for (b, list) in per.lists().into_iter().enumerate() {
            for (h, n) in list {
                by_hour.entry(h).or_default()[b] = n;
            }
        }
        let hours: Vec<(i64, BucketCounts)> = by_hour.into_iter().collect();
        Ok(SentimentSummary { counts, hours, range: Some((s, e)) })
    }

    /// Words and hashtags over-represented in the range's positive posts (slight ones included)
    /// against its other posts, and likewise for negative ones: `limit` of each, most significant
    /// first, leaving out `exclude` (the tracker's own search terms, lowercase, `#` for hashtags).
    pub async fn significant_keywords(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        exclude: &[String],
        limit: usize,
    ) -> Result<SignificantKeywords> {
        let Some((t, (s, e), _)) = self.topic_source(tracker_id, f, false).await? else {
            return Ok(SignificantKeywords::default());
        };
        let n = t.dict.len();
        let (mut pos, mut neg, mut all) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
        let (mut pos_posts, mut neg_posts, mut posts) = (0i64, 0i64, 0i64);
        t.each(&Scope::new(s, e, f.platforms, f.subtracker), |d, i| {
            let b = d.bucket[i];
            posts += 1;
            pos_posts += (b <= 1) as i64;
            neg_posts += (b >= 3) as i64;
            for &id in d.terms_of(i) {
                let k = id as usize;
                all[k] += 1;
                pos[k] += (b <= 1) as u32;
                neg[k] += (b >= 3) as u32;
            }
        });
        let skip: Vec<bool> = (0..n).map(|k| exclude.iter().any(|x| **x == *t.dict[k])).collect();
        let uses: f64 = all.iter().map(|c| *c as f64).sum();
        let alpha0 = prior_weight(uses);
        let group = |counts: &[u32], group_posts: i64| -> Vec<Keyword> {
            if group_posts < MIN_KEYWORD_COUNT || uses == 0.0 {
                return vec![];
            }
            let ni: f64 = counts.iter().map(|c| *c as f64).sum();
            let nj = uses - ni;
            let mut out: Vec<Keyword> = Vec::new();
            for k in 0..n {
                let yi = counts[k] as i64;
                if yi < MIN_KEYWORD_COUNT || skip[k] {
                    continue;
                }
                let y = all[k] as f64;
                let alpha = alpha0 * y / uses;
                let z = log_odds(yi as f64, ni, y - yi as f64, nj, alpha, alpha0);
                if z >= SIGNIFICANT_Z {
                    let id = k as u32;
                    out.push(Keyword { text: t.text_of(id).to_string(), kind: t.kind_of(id), count: yi, total: all[k] as i64, z });
                }
            }
            out.sort_by(|a, b| b.z.total_cmp(&a.z).then_with(|| a.text.cmp(&b.text)));
            out.truncate(limit);
            out
        };
        Ok(SignificantKeywords {
            positive: group(&pos, pos_posts),
            negative: group(&neg, neg_posts),
            positive_posts: pos_posts,
            negative_posts: neg_posts,
            posts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_look_back_or_split_the_range() {
        let day = crate::DAY_MS;
        // A 30-day range with 100 days before it: the four ranges before it.
        let (cur, base) = trend_window(0, (100 * day, 130 * day - 1));
        assert_eq!(cur, (100 * day, 130 * day - 1));
        assert_eq!(base, (0, 100 * day - 1));
        // Nothing before it: its last quarter against the rest.
        let (cur, base) = trend_window(0, (0, 40 * day - 1));
        assert_eq!(cur, (30 * day, 40 * day - 1));
        assert_eq!(base, (0, 30 * day - 1));
        // Little history: as far back as the first post.
        let (_, base) = trend_window(95 * day, (100 * day, 130 * day - 1));
        assert_eq!(base, (95 * day, 100 * day - 1));
    }
}
