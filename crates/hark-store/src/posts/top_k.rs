//! Pages read by bounds: numeric sorts whose key is not on the link (the window's hours read in
//! the order of their per-hour bound), deep engagement pages (skipped to in the engagement index)
//! and few links sorted (tags, rare searches).

use hark_core::PlatformSet;

use super::plan::SearchPlan;
use super::query::{PostQuery, PostSort};
use crate::dialect::Backend;
use crate::time::{hour_floor, HOUR_MS};
use crate::{with_pool, Result, Store};

impl Store {
    /// Ids of the posts of a page in a numeric sort (or in date order for a common word on
    /// SQLite), in order (key, then post id, both in the sort's direction). The window's hours
    /// are read best bound first (for date order: newest or oldest first), in rounds that double,
    /// each round keeping the best `offset + per_page` posts of its hours; it stops when the last
    /// post needed strictly beats the bound of every hour not read (a post there can neither be
    /// better nor tie and come first).
    pub(crate) async fn top_k_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some(platforms) = q.platform_list() else { return Ok(Vec::new()) };
        let desc = !q.ascending;
        let (start, end) = (q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX));
        let real = backend.real_type();
        let bound_expr = match q.sort.bound() {
            Some(key) => format!(
                "CAST({agg}({col}_{key}) AS {real})",
                agg = if desc { "MAX" } else { "MIN" },
                col = if desc { "max" } else { "min" },
            ),
            // Date order: the hour itself bounds its posts' times.
            None => format!("CAST(hour + {} AS {real})", if desc { HOUR_MS - 1 } else { 0 }),
        };
        let group = " GROUP BY hour";
        let bound_sql = format!(
            "SELECT hour, {bound_expr} FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 \
             AND platform IN ({platforms}) AND posts > 0{group}"
        );
        let mut hours: Vec<(i64, Option<f64>)> = with_pool!(self, |p| sqlx::query_as::<_, (i64, Option<f64>)>(&bound_sql)
            .bind(tracker_id)
            .bind(hour_floor(start))
            .bind(end)
            .fetch_all(p)
            .await?);
        // Best bound first; an hour without a bound could hold anything, so it comes first.
        let better = |a: f64, b: f64| if desc { a > b } else { a < b };
        hours.sort_by(|a, b| match (a.1, b.1) {
            (None, None) => b.0.cmp(&a.0),
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let o = x.total_cmp(&y);
                (if desc { o.reverse() } else { o }).then(b.0.cmp(&a.0))
            }
        });
        let need = offset + per_page;
        let dir = if desc { "DESC" } else { "ASC" };
        let column = if q.sort == PostSort::Date { "tp.created_at" } else { q.sort.column() };
        let order = |a: &(f64, i64), b: &(f64, i64)| {
            let o = a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            if desc { o.reverse() } else { o }
        };
        // A common word on SQLite: each round reads the word's matches within the post ids of
        // its hours (one range scan of the full-text index instead of a lookup per post).
        let id_ranges = backend == Backend::Sqlite && plan.probes();
        let mut best: Vec<(f64, i64)> = Vec::new();
        let mut done = 0usize;
        let mut round = (need as usize + 8).max(16);
        while done < hours.len() {
            let until = (done + round).min(hours.len());
            let mut chosen: Vec<i64> = hours[done..until].iter().map(|h| h.0).collect();
            chosen.sort_unstable();
            done = until;
            round *= 2;
            // Adjacent hours as one time range.
            let mut ranges: Vec<(i64, i64)> = Vec::new();
            for h in chosen {
                match ranges.last_mut() {
                    Some(r) if r.1 == h => r.1 = h.saturating_add(HOUR_MS),
                    _ => ranges.push((h, h.saturating_add(HOUR_MS))),
                }
            }
            let values = format!(
                "(VALUES {}) r",
                ranges.iter().map(|(a, b)| format!("({a}, {b})")).collect::<Vec<_>>().join(", ")
            );
            let in_ranges = "tp.created_at >= r.column1 AND tp.created_at < r.column2";
            let mut ids = None;
            if id_ranges {
                let sql = format!(
                    "SELECT MIN(tp.post_id), MAX(tp.post_id) FROM {values} CROSS JOIN tracker_posts tp \
                     WHERE tp.tracker_id = $1 AND {in_ranges}"
                );
                let (lo, hi): (Option<i64>, Option<i64>) =
                    with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).fetch_one(p).await?);
                match (lo, hi) {
                    (Some(lo), Some(hi)) => ids = Some((lo, hi)),
                    _ => continue,
                }
            }
            let Some((w, _)) = q.where_with(backend, plan, true, ids) else { return Ok(Vec::new()) };
            // Each range read from the time index: SQLite keeps the join order of CROSS JOIN;
            // PostgreSQL is given one index scan per range (a lateral subquery kept apart by
            // OFFSET 0), as it would otherwise scan the whole window.
            let links = match backend {
                Backend::Sqlite => format!("{values} CROSS JOIN tracker_posts tp"),
                Backend::Postgres => format!(
                    "{values} CROSS JOIN LATERAL (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {in_ranges} OFFSET 0) tp"
                ),
            };
            let sql = match backend {
                Backend::Sqlite => format!(
                    "SELECT tp.post_id, CAST({column} AS {real}) AS k FROM {links} \
                     JOIN posts p ON p.id = tp.post_id WHERE {w} AND {in_ranges} ORDER BY k {dir}, tp.post_id {dir} LIMIT {need}"
                ),
                // The round's posts are all read, then sorted: kept apart (OFFSET 0), as with a
                // filter it expects few posts to pass, PostgreSQL would otherwise read every
                // post of the tracker in key order looking for them (seconds).
                Backend::Postgres => format!(
                    "SELECT x.post_id, x.k FROM (SELECT tp.post_id, CAST({column} AS {real}) AS k FROM {links} \
                     JOIN posts p ON p.id = tp.post_id WHERE {w} AND {in_ranges} OFFSET 0) x ORDER BY x.k {dir}, x.post_id {dir} LIMIT {need}"
                ),
            };
            let rows: Vec<(i64, Option<f64>)> = with_pool!(self, |p| {
                let mut query = sqlx::query_as::<_, (i64, Option<f64>)>(&sql).bind(tracker_id).bind(start).bind(end);
                if !m.is_empty() {
                    query = query.bind(m);
                }
                query.fetch_all(p).await?
            });
            best.extend(rows.into_iter().map(|(id, k)| (k.unwrap_or(0.0), id)));
            best.sort_by(order);
            best.truncate(need as usize);
            if best.len() as i64 == need {
                if let (Some(last), Some((_, Some(next)))) = (best.last(), hours.get(done)) {
                    if better(last.0, *next) {
                        break;
                    }
                }
            }
        }
        Ok(best.into_iter().skip(offset as usize).map(|(_, id)| id).collect())
    }

    /// Whether the query's platforms hold every post of the range (the hourly rollup's platforms
    /// with posts over the hours the range touches, a superset).
    pub(crate) async fn platforms_cover_range(&self, tracker_id: i64, q: &PostQuery) -> Result<bool> {
        if q.filter.platforms == PlatformSet::all() {
            return Ok(true);
        }
        let Some(platforms) = q.platform_list() else { return Ok(false) };
        let (start, end) = (q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX));
        let sql = format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 \
             AND posts > 0 AND platform NOT IN ({platforms}) LIMIT 1) x"
        );
        let others: i64 =
            with_pool!(self, |p| sqlx::query_scalar(&sql).bind(tracker_id).bind(hour_floor(start)).bind(end).fetch_one(p).await?);
        Ok(others == 0)
    }

    /// A page in engagement order with no filter but the platforms (which hold the range): the
    /// engagement index read in order, the range checked on its entries and the deleted links
    /// left out by their copy (migration 0016), the page's posts skipped to in the statement.
    pub(crate) async fn engagement_skip_ids(&self, tracker_id: i64, q: &PostQuery, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let dir = if q.ascending { "ASC" } else { "DESC" };
        // SQLite plans without statistics: the index is named.
        let indexed = match self.backend() {
            Backend::Sqlite => " INDEXED BY tracker_posts_engagement_idx",
            Backend::Postgres => "",
        };
        let sql = format!(
            "SELECT tp.post_id FROM tracker_posts tp{indexed} WHERE tp.tracker_id = $1 AND tp.created_at >= $2 AND tp.created_at <= $3 \
             AND NOT EXISTS (SELECT 1 FROM tracker_deleted_posts d WHERE d.tracker_id = $1 AND d.post_id = tp.post_id) \
             ORDER BY tp.engagement {dir}, tp.created_at {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}"
        );
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
            .bind(tracker_id)
            .bind(q.filter.start.unwrap_or(i64::MIN))
            .bind(q.filter.end.unwrap_or(i64::MAX))
            .fetch_all(p)
            .await?))
    }

    /// Ids of a page's posts in a sort whose key is kept on the link, when few posts match (tags,
    /// a rare search) or the page is deep: the matching links sorted, the posts read afterwards
    /// for the page only.
    pub(crate) async fn sorted_link_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(Vec::new()) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        // On SQLite the key's `+` keeps an index on it out of the plan: the few links are sorted,
        // not the tracker's links walked in key order.
        let plus = if backend == Backend::Sqlite { "+" } else { "" };
        let sql = format!(
            "SELECT tp.post_id FROM tracker_posts tp{join} WHERE {w} ORDER BY {plus}{} LIMIT {per_page} OFFSET {offset}",
            q.sort.order_by(dir)
        );
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(q.filter.start.unwrap_or(i64::MIN)).bind(q.filter.end.unwrap_or(i64::MAX));
            if !m.is_empty() {
                query = query.bind(m.to_string());
            }
            query.fetch_all(p).await?
        }))
    }
}
