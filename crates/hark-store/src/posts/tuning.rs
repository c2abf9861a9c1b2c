//! The posts page's limits: where one plan gives way to another. A value held by the [`Store`]
//! (tests lower the limits on their own store to reach every plan with little data; the bench
//! sets the search limits it compares), never a process-wide setting.
//!
//! [`Store`]: crate::Store

/// Limits of the posts page's plans. [`Default`] is what Hark runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostListTuning {
    /// Totals above this are reported as "more than" (capped) when they would have to be counted.
    pub total_cap: i64,
    /// The same for searches.
    pub search_total_cap: i64,
    /// A search with at most this many matches (over all posts) is driven from its matches. On
    /// SQLite with the tracker's table read, the newest this many matches in the range's post ids
    /// are read first (see `search_set_max`).
    pub rare_search: i64,
    /// On SQLite, with the tracker's in-memory table read, a search with at most this many
    /// matches among the post ids of the range's days reads them at once, and its page (in any
    /// order) and exact total are selected in the table among them (0 turns it off); a word with
    /// more has its candidates tested against the full-text index.
    pub search_set_max: i64,
    /// On PostgreSQL, a common word's total is counted among the range's newest this many links at
    /// most (each tested against the word, about 3 µs a link): past them, the total is the lower
    /// bound found so far.
    pub search_examined: i64,
    /// A page in engagement order at least this deep, without a filter but the platforms (all
    /// those with posts in the range), skips its posts in the engagement index (the dashboard's,
    /// migration 0006: tracker, engagement, time, post) with the deleted links left out by their
    /// copy: one statement, where a sort would read every post before the page.
    pub engagement_skip_from: i64,
    /// Pages without a search or tags, and pages in a link key's order with a common word or
    /// influencer tags, are selected in the tracker's in-memory table when it is kept (false:
    /// always the SQL plans, which tests and the benchmark compare).
    pub in_memory: bool,
}

impl Default for PostListTuning {
    fn default() -> Self {
        Self {
            total_cap: 10_000,
            search_total_cap: 1_000,
            rare_search: 20_000,
            search_set_max: 150_000,
            search_examined: 5_000,
            engagement_skip_from: 1_000,
            in_memory: true,
        }
    }
}
