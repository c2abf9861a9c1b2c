//! The total that comes with a page: from the hourly rollups when the filters allow, else counted
//! over the links (exactly for tags and rare searches, up to a cap for the rest).

use super::plan::SearchPlan;
use super::query::{search_words, PostQuery};
use crate::sentiment::{bucket_index, SENTIMENT_BUCKETS, SENTIMENT_COLUMNS};
use crate::dialect::Backend;
use crate::time::{hour_floor, HOUR_MS};
use crate::{with_pool, Result, Store};

/// The total number of posts matching a query; `capped`: not counted to the end, there are at
/// least `total` (more than `total` when the count reached its cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PostTotal {
    pub total: i64,
    pub capped: bool,
}

impl PartialEq<i64> for PostTotal {
    fn eq(&self, other: &i64) -> bool {
        !self.capped && self.total == *other
    }
}

/// What the total can be summed from in the hourly rollups, if anything.
enum RollupTotal {
    /// `rollup_hourly`, this expression summed.
    Hourly(String),
    /// `rollup_subtrackers` of this subtracker.
    Sub(u32),
}

impl PostQuery {
    fn rollup_total(&self) -> Option<RollupTotal> {
        if !search_words(&self.search).is_empty() || !self.filter.post_tags.is_empty() || !self.filter.influencer_tags.is_empty() {
            return None;
        }
        let sentiment = !self.sentiment.is_empty() && self.sentiment.len() < SENTIMENT_BUCKETS.len();
        let sub = self.filter.subtracker.filter(|n| (1..=63).contains(n));
        let filters = [sentiment, self.exclude_retweets, self.stories_only, sub.is_some()];
        match filters.iter().filter(|f| **f).count() {
            0 => Some(RollupTotal::Hourly("posts".into())),
            1 if sentiment => {
                let mut cols: Vec<&str> =
                    self.sentiment.iter().map(|b| SENTIMENT_COLUMNS[bucket_index(b)].1).collect();
                cols.sort_unstable();
                cols.dedup();
                Some(RollupTotal::Hourly(cols.join(" + ")))
            }
            1 if self.exclude_retweets => Some(RollupTotal::Hourly("posts - retweets".into())),
            1 if self.stories_only => Some(RollupTotal::Hourly("stories".into())),
            1 => sub.map(RollupTotal::Sub),
            _ => None,
        }
    }
}

impl Store {
    /// Posts matching the filters whose time is in `[start, end]`, counted over the rows, up to
    /// `cap` + 1 when a cap is given.
    pub(crate) async fn count_rows(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, start: i64, end: i64, cap: Option<i64>) -> Result<i64> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(0) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let sql = match cap {
            // PostgreSQL would gather every match of a common word (or of the other filters)
            // before the limit; the range is walked newest first instead, stopping at the cap.
            Some(c) if backend == Backend::Postgres => format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
                 AND tp.created_at >= $2 AND tp.created_at <= $3 ORDER BY tp.created_at DESC OFFSET 0) tp\
                 {join} WHERE {w} LIMIT {}) x",
                c + 1
            ),
            Some(c) => format!("SELECT COUNT(*) FROM (SELECT 1 FROM tracker_posts tp{join} WHERE {w} LIMIT {}) x", c + 1),
            None => format!("SELECT COUNT(*) FROM tracker_posts tp{join} WHERE {w}"),
        };
        let m = q.match_expr(backend);
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(start).bind(end);
            // $4 exists only with a search.
            if !m.is_empty() {
                query = query.bind(m);
            }
            query.fetch_one(p).await?
        }))
    }

    /// The total that comes with a page: exact from the hourly rollups (and the posts of the
    /// range's partial first and last hours) when the filters allow; exact over the rows for
    /// tags and rare searches; otherwise counted up to the tuning's `total_cap` (`search_total_cap` for a
    /// search) and flagged as capped above it.
    pub async fn post_total(&self, tracker_id: i64, q: &PostQuery) -> Result<PostTotal> {
        match self.search_in_memory(tracker_id, q).await? {
            super::memory::Searched::Answer(_, total) => Ok(total),
            super::memory::Searched::Plans(_, plan) => self.post_total_by(tracker_id, q, plan).await,
        }
    }

    pub(crate) async fn post_total_by(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan) -> Result<PostTotal> {
        let Some(platforms) = q.platform_list() else { return Ok(PostTotal::default()) };
        let (start, end) = (q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX));
        if end < start {
            return Ok(PostTotal::default());
        }
        if let Some(source) = q.rollup_total() {
            // Whole hours [hs, he); the rest of the range is read from the rows. A partial hour
            // whose rest holds no live post of the tracker counts whole: above all the hour of a
            // range that ends now, which holds every post a collecting tracker has just stored.
            let mut hs = if start == i64::MIN || hour_floor(start) == start { start } else { hour_floor(start).saturating_add(HOUR_MS) };
            let mut he = if end == i64::MAX { end } else { hour_floor(end.saturating_add(1)) };
            if hs < he {
                if start < hs && !self.live_posts_between(tracker_id, &[(hs - HOUR_MS, start - 1)]).await? {
                    hs -= HOUR_MS;
                }
                if he <= end && end != i64::MAX && !self.live_posts_between(tracker_id, &[(end + 1, he + HOUR_MS - 1)]).await? {
                    he += HOUR_MS;
                }
            }
            if hs < he {
                // One statement: the whole hours from the rollup, and the posts of the partial
                // first and last hours counted over the rows ($2–$3 and $4–$5; empty when none).
                let sum = match &source {
                    RollupTotal::Hourly(expr) => format!(
                        "SELECT COALESCE(SUM({expr}), 0) FROM rollup_hourly WHERE tracker_id = $1 \
                         AND hour >= $6 AND hour < $7 AND platform IN ({platforms})"
                    ),
                    RollupTotal::Sub(n) => format!(
                        "SELECT COALESCE(SUM(posts), 0) FROM rollup_subtrackers WHERE tracker_id = $1 \
                         AND hour >= $6 AND hour < $7 AND platform IN ({platforms}) AND sub = {n}"
                    ),
                };
                let backend = self.backend();
                let Some((first, _)) = q.where_between(backend, plan, false, None, ("$2", "$3")) else { return Ok(PostTotal::default()) };
                let Some((last, _)) = q.where_between(backend, plan, false, None, ("$4", "$5")) else { return Ok(PostTotal::default()) };
                let sql = format!(
                    "SELECT CAST(({sum}) + (SELECT COUNT(*) FROM tracker_posts tp WHERE {first}) \
                     + (SELECT COUNT(*) FROM tracker_posts tp WHERE {last}) AS BIGINT)"
                );
                let (a, b) = if start < hs { (start, hs - 1) } else { (1, 0) };
                let (c, d) = if he <= end && end != i64::MAX { (he, end) } else { (1, 0) };
                let total: i64 = with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
                    .bind(tracker_id)
                    .bind(a)
                    .bind(b)
                    .bind(c)
                    .bind(d)
                    .bind(hs)
                    .bind(he)
                    .fetch_one(p)
                    .await?);
                return Ok(PostTotal { total, capped: false });
            }
            let total = self.count_rows(tracker_id, q, plan, start, end, None).await?;
            return Ok(PostTotal { total, capped: false });
        }
        // Tags are small sets, and a rare search has few matches: counted exactly.
        let cap = if !q.filter.post_tags.is_empty() || plan == SearchPlan::Ids {
            None
        } else if plan.probes() {
            Some(self.tuning.search_total_cap)
        } else {
            Some(self.tuning.total_cap)
        };
        let n = if plan.probes() && self.backend() == Backend::Sqlite {
            self.count_common_word_sqlite(tracker_id, q, start, end, cap.unwrap_or(0)).await?
        } else if plan.probes() {
            let (n, all) = self.count_common_word_pg(tracker_id, q, start, end, cap.unwrap_or(0)).await?;
            if !all && n <= cap.unwrap_or(0) {
                return Ok(PostTotal { total: n, capped: true });
            }
            n
        } else {
            self.count_rows(tracker_id, q, plan, start, end, cap).await?
        };
        Ok(match cap {
            Some(c) if n > c => PostTotal { total: c, capped: true },
            _ => PostTotal { total: n, capped: false },
        })
    }

    /// Up to `cap` + 1 posts matching a common word and the filters, read from the word's
    /// matches newest post id first (recent posts have the highest ids, and ranges are mostly
    /// recent), each checked against its link.
    pub(crate) async fn count_common_word_sqlite(&self, tracker_id: i64, q: &PostQuery, start: i64, end: i64, cap: i64) -> Result<i64> {
        let Some((w, needs_posts)) = q.where_with(self.backend(), SearchPlan::None, true, None) else { return Ok(0) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let sql = format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM posts_fts f CROSS JOIN tracker_posts tp ON tp.tracker_id = $1 AND tp.post_id = f.rowid{join} \
             WHERE posts_fts MATCH $4 AND {w} ORDER BY f.rowid DESC LIMIT {}) x",
            cap + 1
        );
        let m = q.match_expr(self.backend());
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(start).bind(end).bind(&m).fetch_one(p).await?))
    }

    /// PostgreSQL: up to `cap` + 1 posts matching a common word and the filters among the range's
    /// newest links (newest first, at most the tuning's `search_examined`), and whether those were
    /// all its links (the hourly rollup's posts over the hours the range touches, a bound from
    /// above, are no more).
    /// The word is tested on each link's post (its `fts`); the full-text index cannot give a
    /// word's matches newest first, and its matches of a common word are many.
    pub(crate) async fn count_common_word_pg(&self, tracker_id: i64, q: &PostQuery, start: i64, end: i64, cap: i64) -> Result<(i64, bool)> {
        let Some((w, _)) = q.where_clause(self.backend(), SearchPlan::Probe) else { return Ok((0, true)) };
        let examined = self.tuning.search_examined;
        let sql = format!(
            "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
             AND tp.created_at >= $2 AND tp.created_at <= $3 \
             ORDER BY tp.created_at DESC, tp.post_id DESC LIMIT {examined}) tp JOIN posts p ON p.id = tp.post_id WHERE {w} LIMIT {}) x), \
             (SELECT CAST(COALESCE(SUM(posts), 0) AS BIGINT) FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $5 AND hour <= $3)",
            cap + 1
        );
        let m = q.match_expr(self.backend());
        let (n, links): (i64, i64) = with_pool!(self, |p| sqlx::query_as(&sql)
            .bind(tracker_id)
            .bind(start)
            .bind(end)
            .bind(&m)
            .bind(hour_floor(start))
            .fetch_one(p)
            .await?);
        Ok((n, n > cap || links <= examined))
    }
}
