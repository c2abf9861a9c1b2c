//! How a page is fetched: [`plan_page`], a pure function of the query and a few facts read
//! from the database, picks one of the [`Fetch`] strategies; a probe of the full-text index
//! tells a rare search word (its matches drive the query) from a common one (candidates are
//! tested).

use super::query::{search_words, PostQuery, PostSort};
use super::tuning::PostListTuning;
use crate::dialect::Backend;
use crate::{with_pool, Result, Store};

/// Pages deeper than this many posts use the plain sorted query.
pub(crate) const TOP_K_MAX: i64 = 1_000;
/// Engagement pages are skipped to in the engagement index up to this deep.
pub(crate) const SKIP_MAX: i64 = 10_000;

/// How one page's posts are found ([`list`](super::list) runs each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fetch {
    /// An engagement page deep in a list filtered by platforms only: skipped to in the
    /// dashboard's engagement index, one statement.
    EngagementSkip,
    /// A key kept on the link (engagement, reach, rate, impressions, sentiment, user, text) when
    /// the tracker's in-memory table does not answer (post tags, a rare search, a tracker not
    /// read yet or too large to keep): the matching links sorted.
    SortedLinks,
    /// Likes, comments, shares, views (or date with a common word on SQLite): the window's hours
    /// read in the order of their bound of the key.
    TopK,
    /// PostgreSQL, date order with a common word or filters on the post: the range newest (or
    /// oldest) first, each post tested, to the page.
    DateScan,
    /// Date order with filters on the link only: the page's links by the time index, then their
    /// posts.
    DateLinks,
    /// Every matching post sorted: the plain query.
    Sorted,
}

/// What a page's plan depends on besides the query and the limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageFacts {
    pub backend: Backend,
    pub search: SearchPlan,
    /// The filters test columns of the post row, not only of the link.
    pub needs_posts: bool,
    /// Every platform of the query has posts in its range (read only when
    /// [`engagement_skip_possible`] says it matters).
    pub platforms_cover_range: bool,
    /// false: the plain query, the baseline every other strategy is checked against.
    pub fast: bool,
}

/// An engagement page that may skip to its posts, if every platform of the query has posts in
/// the range.
pub(crate) fn engagement_skip_possible(q: &PostQuery, tuning: &PostListTuning) -> bool {
    let (offset, per_page) = q.window();
    q.sort == PostSort::Engagement
        && q.platforms_only()
        && offset >= tuning.engagement_skip_from
        && offset.saturating_add(per_page) <= SKIP_MAX
}

/// The strategy for a page.
pub(crate) fn plan_page(q: &PostQuery, facts: &PageFacts, tuning: &PostListTuning) -> Fetch {
    let (offset, per_page) = q.window();
    let end = offset.saturating_add(per_page);
    let few = !q.filter.post_tags.is_empty() || facts.search == SearchPlan::Ids;
    if facts.fast && facts.platforms_cover_range && engagement_skip_possible(q, tuning) {
        return Fetch::EngagementSkip;
    }
    if facts.fast && q.sort.link_key().is_some() {
        return Fetch::SortedLinks;
    }
    let common_word_by_date = q.sort == PostSort::Date && facts.search.probes() && facts.backend == Backend::Sqlite;
    if facts.fast && (q.sort.bound().is_some() || common_word_by_date) && !few && end <= TOP_K_MAX {
        return Fetch::TopK;
    }
    if q.sort == PostSort::Date
        && facts.backend == Backend::Postgres
        && q.filter.post_tags.is_empty()
        && (facts.search.probes() || (facts.search == SearchPlan::None && facts.needs_posts))
    {
        return Fetch::DateScan;
    }
    if !facts.needs_posts && q.sort == PostSort::Date {
        return Fetch::DateLinks;
    }
    Fetch::Sorted
}

/// How a search is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchPlan {
    None,
    /// Few matches: the query is driven from them.
    Ids,
    /// Many matches: candidates from the time order (or the sort's hours, or the in-memory
    /// table's order) are each tested.
    Probe,
}

impl SearchPlan {
    /// A word with many matches (candidates are tested).
    pub(crate) fn probes(self) -> bool {
        self == Self::Probe
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
            // The newest matches up to the rare limit: more are a common word. (With the
            // tracker's table read, `search_in_memory` answers before this.)
            Backend::Sqlite => {
                let sql = format!(
                    "SELECT COUNT(*) FROM (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 ORDER BY rowid DESC LIMIT {})",
                    self.tuning.rare_search + 1
                );
                let n: i64 = with_pool!(self, |p| sqlx::query_scalar(&sql).bind(&m).fetch_one(p).await?);
                let plan = if n <= self.tuning.rare_search { SearchPlan::Ids } else { SearchPlan::Probe };
                Ok((plan, plan))
            }
            // Counting a common word's matches in the GIN index costs as much as the query, so
            // the range's 2,000 newest posts are sampled instead: in date order a word in 1 % or
            // more of them is common (the range is walked and each post tested).
            Backend::Postgres => {
                let sql = format!(
                    "SELECT COUNT(*) FROM (SELECT tp.post_id FROM tracker_posts tp WHERE tp.tracker_id = $2 \
                     AND {} AND tp.created_at >= $3 AND tp.created_at <= $4 ORDER BY tp.created_at DESC LIMIT 2000) tp \
                     JOIN posts p ON p.id = tp.post_id WHERE p.fts @@ $1::tsquery",
                    Backend::Postgres.live_in_range("$2", ("$3", "$4"))
                );
                let n: i64 = with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
                    .bind(&m)
                    .bind(tracker_id)
                    .bind(q.filter.start.unwrap_or(i64::MIN))
                    .bind(q.filter.end.unwrap_or(i64::MAX))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PageFilter;
    use hark_core::PlatformSet;

    fn query(sort: PostSort, page: i64) -> PostQuery {
        PostQuery {
            filter: PageFilter { platforms: PlatformSet::all(), post_tags_all: true, influencer_tags_all: true, ..Default::default() },
            search: String::new(),
            sentiment: vec![],
            exclude_retweets: false,
            stories_only: false,
            sort,
            ascending: false,
            page,
            per_page: 25,
        }
    }

    fn facts(backend: Backend, search: SearchPlan) -> PageFacts {
        PageFacts { backend, search, needs_posts: search != SearchPlan::None, platforms_cover_range: true, fast: true }
    }

    #[test]
    fn date_order_reads_links_first_unless_posts_must_be_tested() {
        let t = PostListTuning::default();
        let q = query(PostSort::Date, 1);
        for b in [Backend::Sqlite, Backend::Postgres] {
            assert_eq!(plan_page(&q, &facts(b, SearchPlan::None), &t), Fetch::DateLinks);
        }
        // A common word: SQLite reads the hours' bounds, PostgreSQL scans the range in order.
        assert_eq!(plan_page(&q, &facts(Backend::Sqlite, SearchPlan::Probe), &t), Fetch::TopK);
        assert_eq!(plan_page(&q, &facts(Backend::Postgres, SearchPlan::Probe), &t), Fetch::DateScan);
        // A rare word is driven from its matches, sorted.
        assert_eq!(plan_page(&q, &facts(Backend::Sqlite, SearchPlan::Ids), &t), Fetch::Sorted);
    }

    #[test]
    fn link_keys_sort_their_links_when_memory_does_not_answer() {
        let t = PostListTuning::default();
        let f = facts(Backend::Sqlite, SearchPlan::None);
        assert_eq!(plan_page(&query(PostSort::Reach, 1), &f, &t), Fetch::SortedLinks);
        let mut tagged = query(PostSort::Reach, 1);
        tagged.filter.post_tags = vec![7];
        assert_eq!(plan_page(&tagged, &f, &t), Fetch::SortedLinks);
        assert_eq!(plan_page(&query(PostSort::Reach, 1000), &f, &t), Fetch::SortedLinks);
    }

    #[test]
    fn deep_engagement_pages_skip_only_when_every_platform_has_posts() {
        let t = PostListTuning::default();
        let deep = query(PostSort::Engagement, 41); // posts 1,000 to 1,024
        let f = facts(Backend::Postgres, SearchPlan::None);
        assert_eq!(plan_page(&deep, &f, &t), Fetch::EngagementSkip);
        assert_eq!(plan_page(&deep, &PageFacts { platforms_cover_range: false, ..f }, &t), Fetch::SortedLinks);
        assert_eq!(plan_page(&query(PostSort::Engagement, 1), &f, &t), Fetch::SortedLinks);
        assert!(!engagement_skip_possible(&query(PostSort::Engagement, 1), &t));
    }

    #[test]
    fn bounded_counts_read_hours_by_their_bound_for_the_first_pages() {
        let t = PostListTuning::default();
        let f = facts(Backend::Sqlite, SearchPlan::None);
        assert_eq!(plan_page(&query(PostSort::Likes, 1), &f, &t), Fetch::TopK);
        assert_eq!(plan_page(&query(PostSort::Likes, 41), &f, &t), Fetch::Sorted);
        // The plain query, whatever the query.
        assert_eq!(plan_page(&query(PostSort::Likes, 1), &PageFacts { fast: false, ..f }, &t), Fetch::Sorted);
        assert_eq!(plan_page(&query(PostSort::Reach, 1), &PageFacts { fast: false, ..f }, &t), Fetch::Sorted);
    }
}
