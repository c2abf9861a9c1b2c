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

/// The bound an author's lifetime figure is indexed under once it passes its old bound: twice
/// the figure and one, so a growing figure moves its index entry about log2 times. The same rule
/// is written in SQL by [`raise_bounds_sql`], for rows already stored.
pub(crate) fn bound_above(v: i64) -> i64 {
    if v < 0 {
        return 0;
    }
    2 * v.min(i64::MAX / 2) + 1
}

/// The `SET` items of `rollup_author_totals`' upsert that raise both bounds of a row whose
/// lifetime engagement or posts pass their bound after adding `excluded`'s: each to the larger of
/// the old bound and [`bound_above`] the new figure (a bound never falls). The figures are those
/// of the row before the update (SQL's `SET` reads the old row), so each sums its increment.
pub(crate) fn raise_bounds_sql(backend: crate::dialect::Backend) -> String {
    let (max, min) = (backend.greatest(), backend.least());
    let t = "rollup_author_totals";
    let engagement = format!("({t}.engagement + excluded.engagement)");
    let posts = format!("({t}.posts + excluded.posts)");
    let passed = format!("{engagement} > {t}.engagement_bound OR {posts} > {t}.posts_bound");
    let half = i64::MAX / 2;
    let raise = |figure: &str, bound: &str| {
        format!(
            "{bound} = CASE WHEN {passed} THEN {max}({t}.{bound}, CASE WHEN {figure} < 0 THEN 0 ELSE 2 * {min}({figure}, {half}) + 1 END) \
             ELSE {t}.{bound} END"
        )
    };
    format!("{}, {}", raise(&engagement, "engagement_bound"), raise(&posts, "posts_bound"))
}

/// (block, bit) of the day starting at `day` (ms).
pub(crate) fn day_bit(day: i64) -> (i64, i64) {
    let n = day.div_euclid(86_400_000);
    (n >> DAY_BLOCK_BITS, n & 63)
}

#[cfg(test)]
mod tests {
    use super::{bound_above, raise_bounds_sql};
    use crate::dialect::Backend;

    /// The upsert's SQL raises a stored row's bounds exactly as [`bound_above`] would, and only
    /// when a figure passes its bound.
    #[test]
    fn the_upsert_raises_bounds_by_the_same_rule() {
        let db = rusqlite::Connection::open_in_memory().unwrap();
        db.execute_batch(
            "CREATE TABLE rollup_author_totals (k INTEGER PRIMARY KEY, posts INTEGER, engagement INTEGER, \
             engagement_bound INTEGER, posts_bound INTEGER)",
        )
        .unwrap();
        let upsert = format!(
            "INSERT INTO rollup_author_totals (k, posts, engagement, engagement_bound, posts_bound) VALUES (1, ?1, ?2, ?3, ?4) \
             ON CONFLICT (k) DO UPDATE SET posts = rollup_author_totals.posts + excluded.posts, \
             engagement = rollup_author_totals.engagement + excluded.engagement, {}",
            raise_bounds_sql(Backend::Sqlite)
        );
        let (mut posts, mut engagement) = (0i64, 0i64);
        let mut bounds: Option<(i64, i64)> = None;
        for (p, e) in [(1i64, 5i64), (1, 0), (3, 2), (0, 40), (2, -100), (1, 1_000_000), (0, i64::MAX / 4), (1, 0)] {
            db.execute(&upsert, (p, e, bound_above(e), bound_above(p))).unwrap();
            posts += p;
            engagement += e;
            bounds = Some(match bounds {
                None => (bound_above(e), bound_above(p)),
                Some((eb, pb)) if engagement > eb || posts > pb => (eb.max(bound_above(engagement)), pb.max(bound_above(posts))),
                Some(b) => b,
            });
            let (eb, pb) = bounds.unwrap();
            let got: (i64, i64, i64, i64) = db
                .query_row("SELECT posts, engagement, engagement_bound, posts_bound FROM rollup_author_totals", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .unwrap();
            assert_eq!(got, (posts, engagement, eb, pb));
            assert!(eb >= engagement && pb >= posts);
        }
    }

    #[test]
    fn bounds_lie_above_and_move_rarely() {
        assert_eq!(bound_above(0), 1);
        assert_eq!(bound_above(1), 3);
        assert_eq!(bound_above(5), 11);
        assert_eq!(bound_above(-3), 0);
        assert_eq!(bound_above(i64::MAX / 2), i64::MAX);
        assert_eq!(bound_above(i64::MAX), i64::MAX);
        for v in [0i64, 1, 7, 1000, 123_456_789] {
            assert!(bound_above(v) > v);
        }
        // A figure growing one at a time moves its bound about log2 times.
        let (mut bound, mut moves) = (bound_above(0), 0);
        for v in 1..=1_000_000i64 {
            if v > bound {
                bound = bound_above(v);
                moves += 1;
            }
        }
        assert!(moves <= 20, "{moves} moves");
    }
}
