//! Rollups for dashboards of large trackers, written with every batch and every delete, restore
//! or re-analysis (through `write_deltas!`): share of voice per subtracker and hour, author
//! totals over the tracker's life and the days each author posted on
//! (bits of 64-day blocks; a bit is set exactly when the author's `rollup_authors` row of that
//! day counts posts).

pub(crate) const DAY_BLOCK_BITS: i64 = 6;

/// The bound an author's lifetime figure is indexed under once it passes its old bound: the
/// next power of two above it, so a growing figure moves its index entry about log2 times.
pub(crate) fn bound_above(v: i64) -> i64 {
    if v < 0 {
        return 0;
    }
    (v as u64).saturating_add(1).checked_next_power_of_two().map_or(i64::MAX, |b| i64::try_from(b).unwrap_or(i64::MAX))
}

/// (block, bit) of the day starting at `day` (ms).
pub(crate) fn day_bit(day: i64) -> (i64, i64) {
    let n = day.div_euclid(86_400_000);
    (n >> DAY_BLOCK_BITS, n & 63)
}

/// Writes the rollups above from `$deltas` inside the transaction `$tx`.
macro_rules! write_more {
    ($tx:ident, $deltas:ident, $max_of:ident, $laps:ident) => {{
        let subs: Vec<_> = $deltas.subs.iter().filter(|(_, n)| **n != 0).collect();
        for chunk in subs.chunks(5000) {
            let mut q = sqlx::QueryBuilder::new("INSERT INTO rollup_subtrackers (tracker_id, hour, platform, sub, posts) ");
            q.push_values(chunk, |mut b, ((t, h, p, sub), n)| {
                b.push_bind(*t).push_bind(*h).push_bind(*p).push_bind(*sub).push_bind(**n);
            });
            q.push(" ON CONFLICT (tracker_id, hour, platform, sub) DO UPDATE SET posts = rollup_subtrackers.posts + excluded.posts");
            q.build().execute(&mut *$tx).await?;
        }
        $laps.lap("r.subs");

        let mut totals: std::collections::HashMap<(i64, &str, &str), $crate::ingest::AuthorAgg> = Default::default();
        let mut set_bits: std::collections::HashMap<(i64, i64, &str, &str), i64> = Default::default();
        let mut maybe_clear: Vec<(i64, i64, &str, &str)> = Vec::new();
        for ((t, day, p, a), v) in &$deltas.authors {
            let e = totals.entry((*t, *p, *a)).or_default();
            e.posts += v.posts;
            e.engagement += v.engagement;
            e.followers = e.followers.max(v.followers);
            let (block, bit) = $crate::ingest_rollups::day_bit(*day);
            if v.posts > 0 {
                *set_bits.entry((*t, block, *p, *a)).or_default() |= 1i64 << bit;
            } else if v.posts < 0 {
                maybe_clear.push((*t, *day, *p, *a));
            }
        }
        let totals: Vec<_> = totals.into_iter().collect();
        // Bounds to raise: (tracker, platform, author, engagement bound, posts bound).
        let mut raise: Vec<(i64, String, String, i64, i64)> = Vec::new();
        // On PostgreSQL the rows travel as one JSON array (see `write_deltas!`).
        let pg = $max_of == "GREATEST";
        let totals_conflict = format!(
            " ON CONFLICT (tracker_id, platform, author) DO UPDATE SET posts = rollup_author_totals.posts + excluded.posts, \
             engagement = rollup_author_totals.engagement + excluded.engagement, \
             followers = {}(rollup_author_totals.followers, excluded.followers) \
             RETURNING tracker_id, platform, author, posts, engagement, engagement_bound, posts_bound",
            $max_of
        );
        let totals_head = "INSERT INTO rollup_author_totals (tracker_id, platform, author, posts, engagement, followers, \
                           engagement_bound, posts_bound) ";
        for chunk in totals.chunks(if pg { 20_000 } else { 4000 }) {
            let rows: Vec<(i64, String, String, i64, i64, i64, i64)> = if pg {
                let values: Vec<_> = chunk
                    .iter()
                    .map(|((t, p, a), v)| {
                        (
                            t,
                            p,
                            a,
                            v.posts,
                            v.engagement,
                            v.followers,
                            $crate::ingest_rollups::bound_above(v.engagement),
                            $crate::ingest_rollups::bound_above(v.posts),
                        )
                    })
                    .collect();
                sqlx::query_as(&format!(
                    "{totals_head}{}{totals_conflict}",
                    $crate::ingest::pg_json_rows(&["bigint", "text", "text", "bigint", "bigint", "bigint", "bigint", "bigint"])
                ))
                .bind(serde_json::to_string(&values).unwrap_or_else(|_| "[]".into()))
                .fetch_all(&mut *$tx)
                .await?
            } else {
                let mut q = sqlx::QueryBuilder::new(totals_head);
                q.push_values(chunk, |mut b, ((t, p, a), v)| {
                    b.push_bind(*t)
                        .push_bind(*p)
                        .push_bind(*a)
                        .push_bind(v.posts)
                        .push_bind(v.engagement)
                        .push_bind(v.followers)
                        .push_bind($crate::ingest_rollups::bound_above(v.engagement))
                        .push_bind($crate::ingest_rollups::bound_above(v.posts));
                });
                q.push(&totals_conflict);
                q.build_query_as().fetch_all(&mut *$tx).await?
            };
            for (t, p, a, posts, eng, eng_bound, posts_bound) in rows {
                if eng > eng_bound || posts > posts_bound {
                    raise.push((
                        t,
                        p,
                        a,
                        eng_bound.max($crate::ingest_rollups::bound_above(eng)),
                        posts_bound.max($crate::ingest_rollups::bound_above(posts)),
                    ));
                }
            }
        }
        for chunk in raise.chunks(4000) {
            let mut q = sqlx::QueryBuilder::new(
                "UPDATE rollup_author_totals SET engagement_bound = v.column4, posts_bound = v.column5 FROM (",
            );
            q.push_values(chunk, |mut b, (t, p, a, e, n)| {
                b.push_bind(*t).push_bind(p.as_str()).push_bind(a.as_str()).push_bind(*e).push_bind(*n);
            });
            q.push(
                ") AS v WHERE rollup_author_totals.tracker_id = v.column1 AND rollup_author_totals.platform = v.column2 \
                 AND rollup_author_totals.author = v.column3",
            );
            q.build().execute(&mut *$tx).await?;
        }
        $laps.lap("r.author_totals");
        let set_bits: Vec<_> = set_bits.into_iter().collect();
        let days_conflict =
            " ON CONFLICT (tracker_id, block, platform, author) DO UPDATE SET days = rollup_author_days.days | excluded.days";
        for chunk in set_bits.chunks(if pg { 20_000 } else { 5000 }) {
            if pg {
                let rows: Vec<_> = chunk.iter().map(|((t, block, p, a), bits)| (t, block, p, a, bits)).collect();
                sqlx::query(&format!(
                    "INSERT INTO rollup_author_days (tracker_id, block, platform, author, days) {}{days_conflict}",
                    $crate::ingest::pg_json_rows(&["bigint", "bigint", "text", "text", "bigint"])
                ))
                .bind(serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into()))
                .execute(&mut *$tx)
                .await?;
            } else {
                let mut q = sqlx::QueryBuilder::new("INSERT INTO rollup_author_days (tracker_id, block, platform, author, days) ");
                q.push_values(chunk, |mut b, ((t, block, p, a), bits)| {
                    b.push_bind(*t).push_bind(*block).push_bind(*p).push_bind(*a).push_bind(*bits);
                });
                q.push(days_conflict);
                q.build().execute(&mut *$tx).await?;
            }
        }
        $laps.lap("r.author_days");
        // Posts removed: a day of an author with no posts left loses its bit. The days left
        // empty are found in one query a chunk; then each row of days loses all its bits at once.
        let mut clear: std::collections::HashMap<(i64, i64, String, String), i64> = Default::default();
        let no_posts = "v WHERE NOT EXISTS (SELECT 1 FROM rollup_authors r WHERE r.tracker_id = v.column1 AND r.day = v.column2 \
                        AND r.platform = v.column3 AND r.author = v.column4 AND r.posts > 0)";
        for chunk in maybe_clear.chunks(if pg { 20_000 } else { 5000 }) {
            let empty: Vec<(i64, i64, String, String)> = if pg {
                sqlx::query_as(&format!(
                    "SELECT v.column1, v.column2, v.column3, v.column4 FROM ({}) {no_posts}",
                    $crate::ingest::pg_json_rows(&["bigint", "bigint", "text", "text"])
                ))
                .bind(serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into()))
                .fetch_all(&mut *$tx)
                .await?
            } else {
                let mut q = sqlx::QueryBuilder::new("SELECT v.column1, v.column2, v.column3, v.column4 FROM (");
                q.push_values(chunk, |mut b, (t, day, p, a)| {
                    b.push_bind(*t).push_bind(*day).push_bind(*p).push_bind(*a);
                });
                q.push(") AS ");
                q.push(no_posts);
                q.build_query_as().fetch_all(&mut *$tx).await?
            };
            for (t, day, p, a) in empty {
                let (block, bit) = $crate::ingest_rollups::day_bit(day);
                *clear.entry((t, block, p, a)).or_default() |= 1i64 << bit;
            }
        }
        let clear: Vec<_> = clear.into_iter().collect();
        let same_row = "v WHERE rollup_author_days.tracker_id = v.column1 AND rollup_author_days.block = v.column2 \
                        AND rollup_author_days.platform = v.column3 AND rollup_author_days.author = v.column4";
        for chunk in clear.chunks(if pg { 20_000 } else { 5000 }) {
            if pg {
                let rows: Vec<_> = chunk.iter().map(|((t, block, p, a), bits)| (t, block, p, a, !*bits)).collect();
                sqlx::query(&format!(
                    "UPDATE rollup_author_days SET days = days & v.column5 FROM ({}) {same_row}",
                    $crate::ingest::pg_json_rows(&["bigint", "bigint", "text", "text", "bigint"])
                ))
                .bind(serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into()))
                .execute(&mut *$tx)
                .await?;
            } else {
                let mut q = sqlx::QueryBuilder::new("UPDATE rollup_author_days SET days = days & v.column5 FROM (");
                q.push_values(chunk, |mut b, ((t, block, p, a), bits)| {
                    b.push_bind(*t).push_bind(*block).push_bind(p.as_str()).push_bind(a.as_str()).push_bind(!*bits);
                });
                q.push(") AS ");
                q.push(same_row);
                q.build().execute(&mut *$tx).await?;
            }
        }
        $laps.lap("r.author_days_cleared");
    }};
}
pub(crate) use write_more;

#[cfg(test)]
mod tests {
    use super::bound_above;

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
}
