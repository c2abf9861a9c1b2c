//! The rollups: sums the dashboard and the posts page read instead of the post rows. Every path
//! that adds or removes a post's contribution to a tracker (ingest, bulk delete and restore,
//! re-analysis, sentiment edits and keyword rules) sums its increments in a
//! [`Deltas`](crate::ingest::Deltas) and writes them here, in its own transaction, with
//! [`write`]: one writer, generic over the database ([`WriteTx`](crate::dialect::WriteTx)).
//!
//! - `rollup_hourly`: counts, sentiment buckets, retweets and stories, and each sort key's bounds,
//!   per tracker, UTC hour and platform;
//! - `rollup_terms` per UTC day and `rollup_term_totals` over the tracker's life (the listed kinds);
//! - `rollup_authors` per UTC day, `rollup_author_totals` over the tracker's life (with the
//!   bounds influencers are read in the order of), and `rollup_author_days`, the days each author
//!   posted on as bits of 64-day blocks (a bit is set exactly when the author's `rollup_authors`
//!   row of that day counts posts);
//! - `rollup_subtrackers`: posts per subtracker and hour (share of voice);
//! - `trackers.total_posts`, `first_data_point` and `last_cached`.

mod write;

pub(crate) use write::{mark_days, write};


pub(crate) const DAY_BLOCK_BITS: i64 = 6;

/// The bound an author's lifetime figure is indexed under once it passes its old bound: the
/// next power of two above it, so a growing figure moves its index entry about log2 times.
pub(crate) fn bound_above(v: i64) -> i64 {
    if v < 0 {
        return 0;
    }
    (v as u64).saturating_add(1).checked_next_power_of_two().map_or(i64::MAX, |b| i64::try_from(b).unwrap_or(i64::MAX))
}

/// The (engagement, posts) bounds an author's lifetime totals need after a write: `None` while
/// both figures stay within their bounds, else both bounds raised to lie above their figures.
pub(crate) fn raised_bounds(engagement: i64, posts: i64, engagement_bound: i64, posts_bound: i64) -> Option<(i64, i64)> {
    (engagement > engagement_bound || posts > posts_bound)
        .then(|| (engagement_bound.max(bound_above(engagement)), posts_bound.max(bound_above(posts))))
}

/// (block, bit) of the day starting at `day` (ms).
pub(crate) fn day_bit(day: i64) -> (i64, i64) {
    let n = day.div_euclid(86_400_000);
    (n >> DAY_BLOCK_BITS, n & 63)
}

#[cfg(test)]
mod tests {
    use super::{bound_above, raised_bounds};

    #[test]
    fn bounds_lie_above_and_move_rarely() {
        assert_eq!(bound_above(0), 1);
        assert_eq!(bound_above(1), 2);
        assert_eq!(bound_above(5), 8);
        assert_eq!(bound_above(8), 16);
        assert_eq!(bound_above(-3), 0);
        assert_eq!(bound_above(i64::MAX), i64::MAX);
        for v in [0i64, 1, 7, 1000, 123_456_789] {
            assert!(bound_above(v) > v);
        }
    }

    #[test]
    fn bounds_are_raised_only_when_a_figure_passes_one() {
        assert_eq!(raised_bounds(10, 3, 16, 4), None);
        assert_eq!(raised_bounds(16, 4, 16, 4), None, "a figure equal to its bound stays");
        // One figure past its bound raises both; neither bound ever falls.
        assert_eq!(raised_bounds(17, 3, 16, 4), Some((32, 4)));
        assert_eq!(raised_bounds(3, 5, 16, 4), Some((16, 8)));
        assert_eq!(raised_bounds(100, 9, 16, 4), Some((128, 16)));
        assert_eq!(raised_bounds(5, 9, 1_000, 4), Some((1_000, 16)));
    }
}
