//! How a search is run: a probe of the full-text index tells a rare word (its matches drive the
//! query) from a common one (candidates are tested).

use super::query::{search_words, PostQuery, PostSort};
use crate::dialect::Backend;
use crate::{with_pool, Result, Store};

/// How a search is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchPlan {
    None,
    /// Few matches: the query is driven from them.
    Ids,
    /// Many matches: candidates from the time order (or the sort's hours) are each tested.
    Probe,
    /// As `Probe`, but (SQLite) the word's matches look few enough to be read into memory: a
    /// walk in a key's order tests its links there (the tuning's `search_set_max`).
    Set,
}

impl SearchPlan {
    /// A word with many matches (candidates are tested).
    pub(crate) fn probes(self) -> bool {
        matches!(self, Self::Probe | Self::Set)
    }
}

impl Store {
    /// How a query's search is run, for its page and for its total: a probe of the full-text
    /// index with a limit tells a rare word (its matches drive the query) from a common one
    /// (candidates are tested instead).
    pub(crate) async fn search_plans(&self, tracker_id: i64, q: &PostQuery) -> Result<(SearchPlan, SearchPlan)> {
        if search_words(&q.search).is_empty() {
            return Ok((SearchPlan::None, SearchPlan::None));
        }
        let m = q.match_expr(self.backend());
        match self.backend() {
            // The newest matches up to the rare limit: their count, and the post ids they span,
            // which gives the word's share of the posts (and so its matches over all of them).
            Backend::Sqlite => {
                let sql = format!(
                    "SELECT COUNT(*), MIN(rowid), (SELECT MAX(id) FROM posts) FROM \
                     (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 ORDER BY rowid DESC LIMIT {})",
                    self.tuning.rare_search + 1
                );
                let (n, low, top): (i64, Option<i64>, Option<i64>) =
                    with_pool!(self, |p| sqlx::query_as(&sql).bind(&m).fetch_one(p).await?);
                if n <= self.tuning.rare_search {
                    return Ok((SearchPlan::Ids, SearchPlan::Ids));
                }
                let (low, top) = (low.unwrap_or(0), top.unwrap_or(0).max(1));
                let share = n as f64 / (top - low + 1).max(1) as f64;
                // The reading is cut short at the limit when the estimate is wrong.
                let plan = if share * top as f64 <= 2.0 * self.tuning.search_set_max as f64 { SearchPlan::Set } else { SearchPlan::Probe };
                Ok((plan, plan))
            }
            // Counting a common word's matches in the GIN index costs as much as the query, so
            // the range's 2,000 newest posts are sampled instead: in date order a word in 1 % or
            // more of them is common (the range is walked and each post tested).
            Backend::Postgres => {
                let sql = format!(
                    "SELECT COUNT(*) FROM (SELECT tp.post_id FROM tracker_posts tp WHERE tp.tracker_id = $2 \
                     AND {} AND tp.created_at >= $3 AND tp.created_at <= $4 ORDER BY tp.created_at DESC LIMIT 2000) tp \
                     JOIN posts p ON p.id = tp.post_id WHERE p.fts @@ to_tsquery('simple', $1)",
                    Backend::Postgres.live_in_range("$2", ("$3", "$4"))
                );
                let n: i64 = with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
                    .bind(&m)
                    .bind(tracker_id)
                    .bind(q.start.unwrap_or(i64::MIN))
                    .bind(q.end.unwrap_or(i64::MAX))
                    .fetch_one(p)
                    .await?);
                // Another order reads the best hours first, where a word in few posts leaves
                // most hours to read: it needs a word in 10 % of the posts. The total is the same
                // in every order: a word the date order finds common is counted up to the cap
                // (an exact count of a word in 5 % of a million posts reads 90,000 of them).
                let plan = |common: i64| if n >= common { SearchPlan::Probe } else { SearchPlan::Ids };
                let by_date = plan(self.tuning.rare_search / 1000);
                Ok((if q.sort == PostSort::Date { by_date } else { plan(self.tuning.rare_search / 100) }, by_date))
            }
        }
    }
}
