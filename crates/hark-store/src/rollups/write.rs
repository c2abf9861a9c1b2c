//! [`write`]: a batch's summed rollup increments, written inside the caller's transaction.
//!
//! Each table is written in chunks. On SQLite a chunk is a `VALUES` list of bound values (kept
//! under SQLite's 32,766 parameters); on PostgreSQL the large upserts send their rows as one JSON
//! array ([`pg_json_rows`]) and the small ones a `VALUES` list.

use foldhash::{HashMap, HashMapExt};

use super::{bound_above, day_bit, raise_bounds_sql};
use crate::dialect::{pg_json_rows, Arg, Backend, Values, WriteTx};
use crate::ingest::{hourly_upsert, AuthorAgg, Deltas, Laps, TOTAL_KINDS};
use crate::Result;
use hark_core::Millis;

/// Rows of a JSON-array parameter ([`pg_json_rows`]).
fn json<T: serde::Serialize>(rows: &T) -> Arg<'static> {
    Arg::Owned(serde_json::to_string(rows).unwrap_or_else(|_| "[]".into()))
}

/// Rows a chunk takes on each database.
fn chunk(tx_backend: Backend, sqlite: usize, postgres: usize) -> usize {
    match tx_backend {
        Backend::Sqlite => sqlite,
        Backend::Postgres => postgres,
    }
}

/// Writes every rollup increment of `d` in the transaction `tx`; `now` is the trackers'
/// `last_cached`.
pub(crate) async fn write<T: WriteTx>(tx: &mut T, d: &Deltas<'_>, now: Millis) -> Result<()> {
    let backend = T::BACKEND;
    let pg = backend == Backend::Postgres;
    let mut laps = Laps::new();
    if pg {
        lock_trackers(tx, d).await?;
    }

    // Every table's rows go in its key's order: each B-tree page is visited once, in order, and
    // two writers upserting the same rows (several nodes on PostgreSQL) take their locks in the
    // same order. Rust orders the key tuples as the databases order the keys (integers by value,
    // text bytewise).
    let mut hours: Vec<_> = d.hours.iter().collect();
    hours.sort_unstable_by_key(|(k, _)| **k);
    let (hour_head, hour_tail) = hourly_upsert();
    for part in hours.chunks(900) {
        let mut v = Values::new(backend, &hour_head);
        for ((t, h, p), a) in part {
            let mut row: Vec<Arg> = vec![
                (*t).into(),
                (*h).into(),
                (*p).into(),
                a.posts.into(),
                a.engagement.into(),
                a.reach.into(),
                a.impressions.into(),
                a.likes.into(),
                a.dislikes.into(),
            ];
            row.extend(a.buckets.iter().map(|n| Arg::Int(*n)));
            row.push(a.retweets.into());
            row.push(a.stories.into());
            for i in 0..7 {
                row.push(a.int_max[i].into());
                row.push(a.int_min[i].into());
            }
            for i in 0..2 {
                row.push(a.real_max[i].into());
                row.push(a.real_min[i].into());
            }
            v.row_of(row);
        }
        tx.insert_values(v, &hour_tail).await?;
    }
    laps.lap("r.hourly");

    let mut terms: Vec<_> = d.terms.iter().filter(|(_, n)| **n != 0).collect();
    terms.sort_unstable_by_key(|(k, _)| **k);
    let terms_head = "INSERT INTO rollup_terms (tracker_id, kind, day, platform, term, count) ";
    let terms_conflict =
        " ON CONFLICT (tracker_id, kind, day, platform, term) DO UPDATE SET count = rollup_terms.count + excluded.count";
    for part in terms.chunks(chunk(backend, 5000, 20_000)) {
        if pg {
            let rows: Vec<_> = part.iter().map(|((t, k, d, p, term), n)| (t, k, d, p, term, n)).collect();
            let sql = format!("{terms_head}{}{terms_conflict}", pg_json_rows(&["bigint", "text", "bigint", "text", "text", "bigint"]));
            tx.run(&sql, vec![json(&rows)]).await?;
        } else {
            let mut v = Values::new(backend, terms_head);
            for ((t, k, d, p, term), n) in part {
                v.row([(*t).into(), (*k).into(), (*d).into(), (*p).into(), (*term).into(), (**n).into()]);
            }
            tx.insert_values(v, terms_conflict).await?;
        }
    }
    laps.lap("r.terms");

    // Lifetime counts of the listed term kinds (All Time reads them instead of every day).
    let mut totals: HashMap<(i64, &str, &str, &str), i64> = HashMap::new();
    for ((t, k, _, p, term), n) in &d.terms {
        if *n != 0 && TOTAL_KINDS.contains(k) {
            *totals.entry((*t, *k, *p, *term)).or_default() += *n;
        }
    }
    let mut totals: Vec<_> = totals.into_iter().filter(|(_, n)| *n != 0).collect();
    totals.sort_unstable_by_key(|(k, _)| *k);
    let totals_head = "INSERT INTO rollup_term_totals (tracker_id, kind, platform, term, count) ";
    let totals_conflict =
        " ON CONFLICT (tracker_id, kind, platform, term) DO UPDATE SET count = rollup_term_totals.count + excluded.count";
    for part in totals.chunks(chunk(backend, 5000, 20_000)) {
        if pg {
            let rows: Vec<_> = part.iter().map(|((t, k, p, term), n)| (t, k, p, term, n)).collect();
            let sql = format!("{totals_head}{}{totals_conflict}", pg_json_rows(&["bigint", "text", "text", "text", "bigint"]));
            tx.run(&sql, vec![json(&rows)]).await?;
        } else {
            let mut v = Values::new(backend, totals_head);
            for ((t, k, p, term), n) in part {
                v.row([(*t).into(), (*k).into(), (*p).into(), (*term).into(), (*n).into()]);
            }
            tx.insert_values(v, totals_conflict).await?;
        }
    }
    laps.lap("r.term_totals");

    // Each tracker whose author rows change takes its next version, and the rows it writes are
    // marked with it (readers holding an older version read only those rows again).
    let mut versions: HashMap<i64, i64> = HashMap::new();
    for ((t, ..), _) in &d.authors {
        if !versions.contains_key(t) {
            let v: Vec<(i64,)> = tx
                .rows("UPDATE trackers SET author_version = author_version + 1 WHERE id = $1 RETURNING author_version", vec![(*t).into()])
                .await?;
            versions.insert(*t, v.first().map_or(0, |r| r.0));
        }
    }
    let mut authors: Vec<_> = d.authors.iter().collect();
    authors.sort_unstable_by_key(|(k, _)| **k);
    let authors_head =
        "INSERT INTO rollup_authors (tracker_id, day, platform, author, posts, engagement, followers, reach, impressions, version) ";
    let authors_conflict = format!(
        " ON CONFLICT (tracker_id, day, platform, author) DO UPDATE SET posts = rollup_authors.posts + excluded.posts, \
         engagement = rollup_authors.engagement + excluded.engagement, \
         reach = rollup_authors.reach + excluded.reach, impressions = rollup_authors.impressions + excluded.impressions, \
         version = excluded.version, followers = {}(rollup_authors.followers, excluded.followers)",
        backend.greatest()
    );
    for part in authors.chunks(chunk(backend, 3_200, 20_000)) {
        if pg {
            let rows: Vec<_> = part
                .iter()
                .map(|((t, d, p, a), v)| (t, d, p, a, v.posts, v.engagement, v.followers, v.reach, v.impressions, versions[t]))
                .collect();
            let sql = format!(
                "{authors_head}{}{authors_conflict}",
                pg_json_rows(&["bigint", "bigint", "text", "text", "bigint", "bigint", "bigint", "bigint", "bigint", "bigint"])
            );
            tx.run(&sql, vec![json(&rows)]).await?;
        } else {
            let mut v = Values::new(backend, authors_head);
            for ((t, d, p, a), x) in part {
                v.row([
                    (*t).into(),
                    (*d).into(),
                    (*p).into(),
                    (*a).into(),
                    x.posts.into(),
                    x.engagement.into(),
                    x.followers.into(),
                    x.reach.into(),
                    x.impressions.into(),
                    versions[t].into(),
                ]);
            }
            tx.insert_values(v, &authors_conflict).await?;
        }
    }
    laps.lap("r.authors");

    write_subtrackers(tx, d).await?;
    laps.lap("r.subs");
    let mut days: std::collections::BTreeMap<i64, Vec<(i64, i64)>> = std::collections::BTreeMap::new();
    let floor = |t: i64, day: i64| if d.floors_exact { d.floors.get(&(t, day)).copied().unwrap_or(0) } else { 0 };
    let mut mark = |t: i64, day: i64| days.entry(t).or_default().push((day, floor(t, day)));
    for (t, h, _) in d.hours.keys() {
        mark(*t, h.div_euclid(crate::DAY_MS) * crate::DAY_MS);
    }
    for (t, _, day, _, _) in d.terms.keys() {
        mark(*t, *day);
    }
    for (t, h, _, _) in d.subs.keys() {
        mark(*t, h.div_euclid(crate::DAY_MS) * crate::DAY_MS);
    }
    mark_trackers_days(tx, days.into_iter().collect()).await?;
    laps.lap("r.days");
    write_author_totals_and_days(tx, d, &mut laps).await?;

    for (t, (n, first)) in &d.tracker_posts {
        tx.run(
            "UPDATE trackers SET total_posts = total_posts + $1, last_cached = $2, \
             first_data_point = CASE WHEN first_data_point IS NULL OR first_data_point > $3 THEN $3 ELSE first_data_point END \
             WHERE id = $4",
            vec![(*n).into(), now.into(), (*first).into(), (*t).into()],
        )
        .await?;
    }
    Ok(())
}

/// Locks the trackers a write adds rows to against their removal until it commits, and fails
/// (NotFound) when one is already gone, so that no row outlives its tracker. PostgreSQL's tables
/// that every write fills have no foreign keys (migration 0037: its row-by-row checks cost about
/// two fifths of an import); this one statement does their work for the whole write, and removing
/// a tracker removes its rows by trigger.
async fn lock_trackers<T: WriteTx>(tx: &mut T, d: &Deltas<'_>) -> Result<()> {
    let mut ids: Vec<i64> = d
        .hours
        .keys()
        .map(|k| k.0)
        .chain(d.terms.keys().map(|k| k.0))
        .chain(d.authors.keys().map(|k| k.0))
        .chain(d.subs.keys().map(|k| k.0))
        .chain(d.floors.keys().map(|k| k.0))
        .chain(d.tracker_posts.keys().copied())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(());
    }
    let sql = format!("SELECT id FROM trackers WHERE id IN ({}) ORDER BY id FOR KEY SHARE", T::BACKEND.id_set("$1"));
    let found: Vec<(i64,)> = tx.rows(&sql, vec![Arg::Owned(crate::dialect::json_ids(&ids))]).await?;
    if found.len() < ids.len() {
        return Err(crate::StoreError::NotFound);
    }
    Ok(())
}

/// Versions of a tracker its day log keeps (see [`mark_days`]).
pub(crate) const LOG_VERSIONS: i64 = 256;

/// Marks days (UTC midnight, ms) whose posts of a tracker changed with the tracker's next
/// `post_version`, so the in-memory topic tables read those days again (`topics::table`). Called
/// in the transaction of every write that adds, removes or changes a tracker's posts.
///
/// Each day comes with its *floor*: every post of the day this write changed has a post id at
/// or above it (0 when the writer does not know). `post_days` keeps each day's last version;
/// `post_day_log` each version's days and floors, for the last [`LOG_VERSIONS`] versions, so a
/// table a few versions behind reads a day that only gained posts from its new posts on.
pub(crate) async fn mark_days<T: WriteTx>(tx: &mut T, tracker_id: i64, days: Vec<(i64, i64)>) -> Result<()> {
    mark_trackers_days(tx, vec![(tracker_id, days)]).await
}

/// [`mark_days`] for several trackers at once (in tracker order, so that writers on PostgreSQL
/// take the trackers' rows in one order), their days and logs in one statement each.
pub(crate) async fn mark_trackers_days<T: WriteTx>(tx: &mut T, mut trackers: Vec<(i64, Vec<(i64, i64)>)>) -> Result<()> {
    trackers.sort_unstable_by_key(|(t, _)| *t);
    // (tracker, version, day, floor)
    let mut marks: Vec<(i64, i64, i64, i64)> = Vec::new();
    let mut pruned: Vec<(i64, i64)> = Vec::new();
    for (tracker_id, days) in trackers {
        let mut floors: std::collections::BTreeMap<i64, i64> = std::collections::BTreeMap::new();
        for (day, floor) in days {
            let f = floors.entry(day).or_insert(floor);
            *f = (*f).min(floor);
        }
        if floors.is_empty() {
            continue;
        }
        let v: Vec<(i64,)> = tx
            .rows("UPDATE trackers SET post_version = post_version + 1 WHERE id = $1 RETURNING post_version", vec![tracker_id.into()])
            .await?;
        let Some((version,)) = v.first().copied() else { continue };
        marks.extend(floors.into_iter().map(|(day, floor)| (tracker_id, version, day, floor)));
        // The log's oldest versions go a few dozen at a time.
        if version % 32 == 0 {
            pruned.push((tracker_id, version - LOG_VERSIONS));
        }
    }
    for part in marks.chunks(5000) {
        let mut v = Values::new(T::BACKEND, "INSERT INTO post_days (tracker_id, day, version) ");
        for (t, version, day, _) in part {
            v.row([(*t).into(), (*day).into(), (*version).into()]);
        }
        tx.insert_values(v, " ON CONFLICT (tracker_id, day) DO UPDATE SET version = excluded.version").await?;
        let mut v = Values::new(T::BACKEND, "INSERT INTO post_day_log (tracker_id, version, day, floor) ");
        for (t, version, day, floor) in part {
            v.row([(*t).into(), (*version).into(), (*day).into(), (*floor).into()]);
        }
        tx.insert_values(v, "").await?;
    }
    for (t, upto) in pruned {
        tx.run("DELETE FROM post_day_log WHERE tracker_id = $1 AND version <= $2", vec![t.into(), upto.into()]).await?;
    }
    Ok(())
}

/// Posts per subtracker and hour (share of voice).
async fn write_subtrackers<T: WriteTx>(tx: &mut T, d: &Deltas<'_>) -> Result<()> {
    let mut subs: Vec<_> = d.subs.iter().filter(|(_, n)| **n != 0).collect();
    subs.sort_unstable_by_key(|(k, _)| **k);
    for part in subs.chunks(5000) {
        let mut v = Values::new(T::BACKEND, "INSERT INTO rollup_subtrackers (tracker_id, hour, platform, sub, posts) ");
        for ((t, h, p, sub), n) in part {
            v.row([(*t).into(), (*h).into(), (*p).into(), (*sub).into(), (**n).into()]);
        }
        tx.insert_values(v, " ON CONFLICT (tracker_id, hour, platform, sub) DO UPDATE SET posts = rollup_subtrackers.posts + excluded.posts").await?;
    }
    Ok(())
}

/// Author totals over the tracker's life (raising their index bounds when a figure passes them)
/// and the day bits of `rollup_author_days`: set for days that gain posts, cleared for days left
/// with none.
async fn write_author_totals_and_days<T: WriteTx>(tx: &mut T, d: &Deltas<'_>, laps: &mut Laps) -> Result<()> {
    let backend = T::BACKEND;
    let pg = backend == Backend::Postgres;
    let mut totals: HashMap<(i64, &str, &str), AuthorAgg> = HashMap::new();
    let mut set_bits: HashMap<(i64, i64, &str, &str), i64> = HashMap::new();
    let mut maybe_clear: Vec<(i64, i64, &str, &str)> = Vec::new();
    for ((t, day, p, a), v) in &d.authors {
        let e = totals.entry((*t, *p, *a)).or_default();
        e.posts += v.posts;
        e.engagement += v.engagement;
        e.followers = e.followers.max(v.followers);
        e.reach += v.reach;
        e.impressions += v.impressions;
        let (block, bit) = day_bit(*day);
        if v.posts > 0 {
            *set_bits.entry((*t, block, *p, *a)).or_default() |= 1i64 << bit;
        } else if v.posts < 0 {
            maybe_clear.push((*t, *day, *p, *a));
        }
    }
    let mut totals: Vec<_> = totals.into_iter().collect();
    totals.sort_unstable_by_key(|(k, _)| *k);
    // A row's bounds are raised by its upsert when a figure passes one (`raise_bounds_sql`), so
    // nothing is read back.
    let totals_head = "INSERT INTO rollup_author_totals (tracker_id, platform, author, posts, engagement, followers, \
                       engagement_bound, posts_bound, reach, impressions) ";
    let totals_conflict = format!(
        " ON CONFLICT (tracker_id, platform, author) DO UPDATE SET posts = rollup_author_totals.posts + excluded.posts, \
         engagement = rollup_author_totals.engagement + excluded.engagement, \
         reach = rollup_author_totals.reach + excluded.reach, \
         impressions = rollup_author_totals.impressions + excluded.impressions, \
         followers = {}(rollup_author_totals.followers, excluded.followers), {}",
        backend.greatest(),
        raise_bounds_sql(backend)
    );
    for part in totals.chunks(chunk(backend, 5_000, 20_000)) {
        if pg {
            let values: Vec<_> = part
                .iter()
                .map(|((t, p, a), v)| {
                    (t, p, a, v.posts, v.engagement, v.followers, bound_above(v.engagement), bound_above(v.posts), v.reach, v.impressions)
                })
                .collect();
            let sql = format!(
                "{totals_head}{}{totals_conflict}",
                pg_json_rows(&["bigint", "text", "text", "bigint", "bigint", "bigint", "bigint", "bigint", "bigint", "bigint"])
            );
            tx.run(&sql, vec![json(&values)]).await?;
        } else {
            let mut v = Values::new(backend, totals_head);
            for ((t, p, a), x) in part {
                v.row([
                    (*t).into(),
                    (*p).into(),
                    (*a).into(),
                    x.posts.into(),
                    x.engagement.into(),
                    x.followers.into(),
                    bound_above(x.engagement).into(),
                    bound_above(x.posts).into(),
                    x.reach.into(),
                    x.impressions.into(),
                ]);
            }
            tx.insert_values(v, &totals_conflict).await?;
        }
    }
    laps.lap("r.author_totals");

    let mut set_bits: Vec<_> = set_bits.into_iter().collect();
    set_bits.sort_unstable_by_key(|(k, _)| *k);
    let days_head = "INSERT INTO rollup_author_days (tracker_id, block, platform, author, days) ";
    let days_conflict = " ON CONFLICT (tracker_id, block, platform, author) DO UPDATE SET days = rollup_author_days.days | excluded.days";
    for part in set_bits.chunks(chunk(backend, 5000, 20_000)) {
        if pg {
            let rows: Vec<_> = part.iter().map(|((t, block, p, a), bits)| (t, block, p, a, bits)).collect();
            let sql = format!("{days_head}{}{days_conflict}", pg_json_rows(&["bigint", "bigint", "text", "text", "bigint"]));
            tx.run(&sql, vec![json(&rows)]).await?;
        } else {
            let mut v = Values::new(backend, days_head);
            for ((t, block, p, a), bits) in part {
                v.row([(*t).into(), (*block).into(), (*p).into(), (*a).into(), (*bits).into()]);
            }
            tx.insert_values(v, days_conflict).await?;
        }
    }
    laps.lap("r.author_days");

    // Posts removed: a day of an author with no posts left loses its bit. The days left empty
    // are found in one query a chunk; then each row of days loses all its bits at once.
    let mut clear: HashMap<(i64, i64, String, String), i64> = HashMap::new();
    let no_posts = "v WHERE NOT EXISTS (SELECT 1 FROM rollup_authors r WHERE r.tracker_id = v.column1 AND r.day = v.column2 \
                    AND r.platform = v.column3 AND r.author = v.column4 AND r.posts > 0)";
    for part in maybe_clear.chunks(chunk(backend, 5000, 20_000)) {
        let empty: Vec<(i64, i64, String, String)> = if pg {
            let sql = format!(
                "SELECT v.column1, v.column2, v.column3, v.column4 FROM ({}) {no_posts}",
                pg_json_rows(&["bigint", "bigint", "text", "text"])
            );
            tx.rows(&sql, vec![json(&part)]).await?
        } else {
            let mut v = Values::new(backend, "SELECT v.column1, v.column2, v.column3, v.column4 FROM (");
            for (t, day, p, a) in part {
                v.row([(*t).into(), (*day).into(), (*p).into(), (*a).into()]);
            }
            let (sql, args) = v.finish(&format!(") AS {no_posts}"));
            tx.rows(&sql, args).await?
        };
        for (t, day, p, a) in empty {
            let (block, bit) = day_bit(day);
            *clear.entry((t, block, p, a)).or_default() |= 1i64 << bit;
        }
    }
    let mut clear: Vec<_> = clear.into_iter().collect();
    clear.sort_unstable();
    let same_row = "v WHERE rollup_author_days.tracker_id = v.column1 AND rollup_author_days.block = v.column2 \
                    AND rollup_author_days.platform = v.column3 AND rollup_author_days.author = v.column4";
    for part in clear.chunks(chunk(backend, 5000, 20_000)) {
        if pg {
            let rows: Vec<_> = part.iter().map(|((t, block, p, a), bits)| (t, block, p, a, !*bits)).collect();
            let sql = format!(
                "UPDATE rollup_author_days SET days = days & v.column5 FROM ({}) {same_row}",
                pg_json_rows(&["bigint", "bigint", "text", "text", "bigint"])
            );
            tx.run(&sql, vec![json(&rows)]).await?;
        } else {
            let mut v = Values::new(backend, "UPDATE rollup_author_days SET days = days & v.column5 FROM (");
            for ((t, block, p, a), bits) in part {
                v.row([(*t).into(), (*block).into(), p.as_str().into(), a.as_str().into(), (!*bits).into()]);
            }
            let (sql, args) = v.finish(&format!(") AS {same_row}"));
            tx.run(&sql, args).await?;
        }
    }
    laps.lap("r.author_days_cleared");
    Ok(())
}
