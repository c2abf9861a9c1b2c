//! Upkeep Hark does itself: PostgreSQL's planner statistics refreshed after large writes (autovacuum
//! may be off), and SQLite's full-text index merged into one b-tree as it grows.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::sqlite::SqlitePool;

use crate::{search_file, with_pool, Db, Result, Store};

/// Hark refreshes PostgreSQL's planner statistics itself after large writes instead of relying
/// on autovacuum (which may be off): stale statistics turn index probes into table scans.
#[derive(Debug)]
pub(crate) struct Staleness {
    pub(crate) since: AtomicU64,
    pub(crate) at_last: AtomicU64,
    pub(crate) running: AtomicBool,
    /// PostgreSQL: when the writes this server has not seen refreshed began (seconds since the
    /// epoch): the store's start, then each check's time (see [`refresh_statistics`]).
    pub(crate) window: std::sync::Mutex<f64>,
}

impl Default for Staleness {
    fn default() -> Self {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64());
        Self { since: AtomicU64::new(0), at_last: AtomicU64::new(0), running: AtomicBool::new(false), window: std::sync::Mutex::new(now) }
    }
}

/// Posts indexed before SQLite's full-text index is first merged into one b-tree; after that, a
/// merge when the posts indexed since the last one reach a quarter of all posts
/// ([`Store::note_indexed`]).
pub(crate) const SEARCH_MERGE_AFTER: u64 = 20_000;


/// The vacuum of Hark's statistics refresh and of [`Store::analyze`] (PostgreSQL): the tables
/// whose visibility maps the posts page's index-only reads need, and the deleted links (migration
/// 0020), which each delete and undo write.
pub(crate) const VACUUM_TABLES: &str = "VACUUM (ANALYZE) tracker_posts, rollup_hourly, tracker_deleted_posts";

/// Writes before the first refresh; after it, a refresh when the writes since the last one reach
/// the total written before it (statistics are refreshed about log2 times while a store grows).
const ANALYZE_AFTER: u64 = 20_000;

/// Pages a merge step writes, about (see [`merge_search_index`]).
const MERGE_STEP_PAGES: u32 = 64;

/// The merge of [`Store::note_indexed`]: when the posts indexed since the last merge reach a
/// quarter of all posts (and at least [`SEARCH_MERGE_AFTER`]), FTS5's incremental optimize
/// (`'merge'` with a negative page count: every b-tree of every level) is run step by step, each
/// step its own short write, until one b-tree is left.
///
/// The index in a file of its own (search_file.rs) is merged on the index's own thread, a step
/// between two of its writes: the file keeps one writer, and the steps never wait for the
/// database's writer. (Steps on a reader's connection took the file's lock from under the
/// index's writes: under the load test about two writes a second failed as busy and left their
/// posts unsearchable until a catch-up read them back from the posts table.)
async fn merge_search_index(
    pool: &SqlitePool,
    gate: &crate::WriteGate,
    state: &Staleness,
    own_file: Option<Arc<search_file::SearchWriter>>,
) -> crate::Result<()> {
    let since = state.since.load(Ordering::Relaxed);
    let posts: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM posts").fetch_one(pool).await?;
    if since < (posts.max(0) as u64) / 4 {
        return Ok(());
    }
    state.since.store(0, Ordering::Relaxed);
    // Each step writes about MERGE_STEP_PAGES pages, a write short enough that imports waiting for the database
    // are not held up for seconds (500-page steps took 1 to 6 s under a load test's writes and
    // readers, and imports behind them ran out of their 10 s wait); a pause after each step lets
    // them in. The steps are capped by the index's size, so that batches written meanwhile cannot
    // keep a merge going forever.
    let steps = 8 * (50 + posts.max(0) / 10_000);
    for _ in 0..steps {
        let segments = match &own_file {
            // On the index's own thread, between its writes.
            Some(search) => search.merge_step(MERGE_STEP_PAGES).await?,
            None => {
                // Each step queues with the store's other writers (see `BeginWrite`).
                let _turn = gate.lock().await;
                sqlx::query(&search_file::merge_sql(MERGE_STEP_PAGES)).execute(gate.pool(pool)).await?;
                drop(_turn);
                sqlx::query_scalar(search_file::SEGMENTS).fetch_one(pool).await?
            }
        };
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        if segments <= 1 {
            break;
        }
    }
    Ok(())
}

/// The advisory lock of the statistics refresh: one server of a database refreshes at a time.
const STATS_LOCK: i64 = 0x4841_524b_5354_4154;

/// The refresh of [`Store::note_writes`] (PostgreSQL). Every server of a database counts its own
/// writes, so three servers sharing the writes each asked for a refresh at about the same time,
/// and under the load test their ANALYZEs and VACUUMs were about 15 % of what PostgreSQL's
/// backends were doing (sampled from `pg_stat_activity`), some waiting for another's ANALYZE of
/// the same tables. A server whose count says it is time now refreshes only when no other is
/// refreshing (an advisory lock it does not wait for) and when `posts` has not been analyzed (by
/// another server, or autovacuum) since `window`, the start of the writes it counted; `None`
/// refreshes whenever the lock is free. A lone server refreshes as often as before. Returns
/// whether it refreshed, and the database's time of the check (none when another server held the
/// lock).
fn refresh_statistics(
    pool: sqlx::PgPool,
    window: Option<f64>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = std::result::Result<(bool, Option<f64>), sqlx::Error>> + Send>> {
    // Boxed as a `Send` future here, where the connection's lifetimes are concrete, for the
    // spawned task of `note_writes`.
    Box::pin(async move {
        let mut conn = pool.acquire().await?;
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(STATS_LOCK).fetch_one(&mut *conn).await?;
        if !locked {
            return Ok((false, None));
        }
        let refreshed = refresh_if_due(&mut conn, &pool, window).await;
        if sqlx::query("SELECT pg_advisory_unlock($1)").bind(STATS_LOCK).execute(&mut *conn).await.is_err() {
            // The lock goes with the session: this connection is not given back.
            conn.close_on_drop();
        }
        refreshed
    })
}

/// The part of [`refresh_statistics`] run while holding its lock.
async fn refresh_if_due(
    conn: &mut sqlx::PgConnection,
    pool: &sqlx::PgPool,
    window: Option<f64>,
) -> std::result::Result<(bool, Option<f64>), sqlx::Error> {
    let (last, now): (Option<f64>, f64) = sqlx::query_as(
        "SELECT (SELECT EXTRACT(EPOCH FROM GREATEST(s.last_analyze, s.last_autoanalyze))::float8 \
                 FROM pg_stat_user_tables s WHERE s.relname = 'posts' AND s.schemaname = current_schema()), \
                EXTRACT(EPOCH FROM clock_timestamp())::float8",
    )
    .fetch_one(&mut *conn)
    .await?;
    let covered = matches!((last, window), (Some(last), Some(window)) if last >= window);
    if covered {
        return Ok((false, Some(now)));
    }
    // The links and the hourly rollup are vacuumed too (VACUUM runs outside a transaction),
    // so their visibility maps let the posts page's walks read the sort keys' indexes alone,
    // and its total and a walk's platform check sum the rollup's counts from their index
    // (migration 0018; a scan of the table otherwise, 8.6 ms against 2.9 over 30 days); the
    // deleted links (migration 0020) lose the rows each delete and undo leave. Autovacuum
    // does it as well when it is on. (On the pool: `conn`'s session holds the lock meanwhile.)
    sqlx::raw_sql(VACUUM_TABLES).execute(pool).await?;
    sqlx::query("ANALYZE posts, rollup_terms, rollup_authors, rollup_author_totals, rollup_author_days, rollup_subtrackers")
        .execute(pool)
        .await?;
    Ok((true, Some(now)))
}

impl Store {
    /// Counts rows written; on PostgreSQL, refreshes the planner statistics of the large tables in
    /// the background once enough have changed (see [`Staleness`]).
    pub fn note_writes(&self, rows: u64) {
        let Db::Postgres(pool) = &self.db else { return };
        let s = &self.stats;
        let since = s.since.fetch_add(rows, Ordering::Relaxed) + rows;
        let at_last = s.at_last.load(Ordering::Relaxed);
        if since < ANALYZE_AFTER.max(at_last) || s.running.swap(true, Ordering::AcqRel) {
            return;
        }
        s.since.store(0, Ordering::Relaxed);
        s.at_last.store(at_last + since, Ordering::Relaxed);
        let (pool, stats) = (pool.clone(), self.stats.clone());
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let window = *stats.window.lock().unwrap_or_else(|e| e.into_inner());
                match refresh_statistics(pool, Some(window)).await {
                    Ok((refreshed, checked)) => {
                        if let Some(at) = checked {
                            *stats.window.lock().unwrap_or_else(|e| e.into_inner()) = at;
                        }
                        if !refreshed {
                            // Another server refreshed, or is refreshing: the next check comes
                            // after the same count of writes again, not twice as many.
                            stats.at_last.store(at_last, Ordering::Relaxed);
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "refreshing planner statistics failed"),
                }
                stats.running.store(false, Ordering::Release);
            });
        } else {
            s.running.store(false, Ordering::Release);
        }
    }

    /// Counts posts added to SQLite's full-text index and, once enough have been (see
    /// [`SEARCH_MERGE_AFTER`]), merges the index into one b-tree in the background, a few hundred
    /// pages a step. FTS5 keeps new posts in small b-trees and merges them only level by level:
    /// at a million posts a search tests each post against about ten of them, and one b-tree makes
    /// that test about fifteen times cheaper (the posts page's searches sorted by a key test each
    /// link they read).
    pub fn note_indexed(&self, posts: u64) {
        let Db::Sqlite(pool) = &self.db else { return };
        let s = &self.search_index;
        s.since.fetch_add(posts, Ordering::Relaxed);
        if s.since.load(Ordering::Relaxed) < self.search_merge_after || s.running.swap(true, Ordering::AcqRel) {
            return;
        }
        let (pool, gate, state) = (pool.clone(), self.write_gate.clone(), self.search_index.clone());
        let own_file = self.search_writer.clone();
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            s.running.store(false, Ordering::Release);
            return;
        };
        rt.spawn(async move {
            if let Err(e) = merge_search_index(&pool, &gate, &state, own_file).await {
                tracing::warn!(error = %e, "merging the full-text index failed");
            }
            state.running.store(false, Ordering::Release);
        });
    }

    /// The number of b-trees SQLite's full-text index is made of (None on PostgreSQL).
    #[cfg(test)]
    pub(crate) async fn search_index_segments(&self) -> Result<Option<i64>> {
        let Db::Sqlite(pool) = &self.db else { return Ok(None) };
        Ok(Some(sqlx::query_scalar(search_file::SEGMENTS).fetch_one(pool).await?))
    }

    /// Refreshes the query planner's statistics (after a bulk load).
    /// On PostgreSQL the tables of [`VACUUM_TABLES`] are vacuumed first, as the background
    /// refresh ([`Store::note_writes`]) does.
    pub async fn analyze(&self) -> Result<()> {
        if let Db::Postgres(p) = &self.db {
            sqlx::raw_sql(VACUUM_TABLES).execute(p).await?;
        }
        with_pool!(self, |p| sqlx::query("ANALYZE").execute(p).await.map(|_| ())?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// After enough posts, SQLite's full-text index is merged into one b-tree in the background,
    /// and searches find what they found before.
    #[tokio::test]
    async fn indexed_posts_merge_the_search_index() {
        let dir = std::env::temp_dir().join(format!("hark_fts_merge_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let mut store = Store::connect(&format!("sqlite://{}", dir.join("t.db").display())).await.expect("connect");
        store.migrate().await.expect("migrate");
        store.search_merge_after = 30;
        let Db::Sqlite(pool) = &store.db else { unreachable!() };
        // One b-tree per committed write.
        for i in 1..=40i64 {
            sqlx::query("INSERT INTO posts_fts (rowid, text, title, author_name, author_username, author_location) VALUES ($1, $2, '', '', '', '')")
                .bind(i)
                .bind(format!("kestrel word{} {}", i % 7, if i % 2 == 0 { "coffee" } else { "tea" }))
                .execute(pool)
                .await
                .expect("index");
        }
        let segments = store.search_index_segments().await.expect("segments").expect("sqlite");
        assert!(segments > 1, "{segments} b-trees before the merge");
        let search = |m: &'static str| async move {
            sqlx::query_scalar::<_, i64>("SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 ORDER BY rowid")
                .bind(m)
                .fetch_all(pool)
                .await
                .expect("search")
        };
        let before = (search("kestrel").await, search("coffee word3").await);
        assert_eq!(before.0.len(), 40);
        store.note_indexed(29);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(store.search_index_segments().await.unwrap(), Some(segments), "merged too early");
        store.note_indexed(11);
        let mut merged = false;
        for _ in 0..100 {
            if store.search_index_segments().await.unwrap() == Some(1) && !store.search_index.running.load(Ordering::Acquire) {
                merged = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(merged, "the index was merged into one b-tree");
        assert_eq!((search("kestrel").await, search("coffee word3").await), before);
        store.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// After enough writes, PostgreSQL's statistics of the post tables are refreshed by Hark.
    #[tokio::test]
    async fn large_writes_refresh_planner_statistics() {
        let Some(admin) = std::env::var("HARK_TEST_POSTGRES_URL").ok().filter(|u| !u.is_empty()) else {
            eprintln!("HARK_TEST_POSTGRES_URL not set: skipped");
            return;
        };
        let name = format!("hark_test_stats_{}", std::process::id());
        let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("admin");
        sqlx::query(&format!("DROP DATABASE IF EXISTS {name}")).execute(&mut c).await.expect("drop");
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create");
        let base = admin.rsplit_once('/').map_or(admin.clone(), |(b, _)| b.to_string());
        let store = Store::connect(&format!("{base}/{name}")).await.expect("connect");
        store.migrate().await.expect("migrate");
        // A second server of the database, started with the first.
        let other = Store::connect(&format!("{base}/{name}")).await.expect("connect");
        let Db::Postgres(pool) = &store.db else { unreachable!() };
        let analyzed = || async {
            sqlx::query_scalar::<_, bool>(
                // `posts`: a migration analyzes `tracker_posts` itself.
                "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'posts'",
            )
            .fetch_one(pool)
            .await
            .expect("pg_stat_user_tables")
        };
        store.note_writes(ANALYZE_AFTER - 1);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!analyzed().await, "refreshed too early");
        store.note_writes(1);
        let mut done = false;
        for _ in 0..100 {
            if analyzed().await {
                done = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(done, "statistics not refreshed after {ANALYZE_AFTER} writes");
        for table in ["tracker_posts", "rollup_hourly", "tracker_deleted_posts"] {
            let vacuumed: bool = sqlx::query_scalar(
                "SELECT last_vacuum IS NOT NULL AND last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = $1",
            )
            .bind(table)
            .fetch_one(pool)
            .await
            .expect("pg_stat_user_tables");
            assert!(vacuumed, "{table} was vacuumed and analyzed");
        }
        // The walk streams' multi-column statistics (migration 0019), which ANALYZE builds.
        let built: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_statistic_ext WHERE stxrelid = 'tracker_posts'::regclass \
             AND stxname IN ('tracker_posts_stream_stats', 'tracker_posts_score_stream_stats') AND 'm' = ANY(stxkind)",
        )
        .fetch_one(pool)
        .await
        .expect("pg_statistic_ext");
        assert_eq!(built, 2, "the walk streams' statistics");
        // The next refresh waits for as many writes again.
        assert_eq!(store.stats.at_last.load(Ordering::Relaxed), ANALYZE_AFTER);

        // The second server, whose count says it is time too, does not refresh again: the
        // first refreshed after its writes began.
        let count = || async {
            sqlx::query_scalar::<_, i64>("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'posts'")
                .fetch_one(pool)
                .await
                .expect("pg_stat_user_tables")
        };
        let before = count().await;
        assert_eq!(before, 1);
        other.note_writes(ANALYZE_AFTER);
        assert!(other.stats.running.load(Ordering::Acquire), "the second server checked");
        for _ in 0..100 {
            if !other.stats.running.load(Ordering::Acquire) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(!other.stats.running.load(Ordering::Acquire), "the check ended");
        assert_eq!(count().await, before, "a second server refreshed what the first just had");
        // Its next check comes after as many writes again, not twice as many.
        assert_eq!(other.stats.at_last.load(Ordering::Relaxed), 0);

        // While one server refreshes (holds the lock), another does not wait for it or repeat it;
        // once the lock is given back, a refresh goes through.
        let mut held = pool.acquire().await.expect("connection");
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(STATS_LOCK).fetch_one(&mut *held).await.expect("lock");
        assert!(locked);
        let busy = refresh_statistics(pool.clone(), None).await.expect("refresh");
        assert_eq!(busy, (false, None), "refreshed while another server held the lock");
        assert_eq!(count().await, before);
        sqlx::query("SELECT pg_advisory_unlock($1)").bind(STATS_LOCK).execute(&mut *held).await.expect("unlock");
        drop(held);
        let (refreshed, checked) = refresh_statistics(pool.clone(), None).await.expect("refresh");
        assert!(refreshed && checked.is_some(), "a refresh once the lock was free");
        assert_eq!(count().await, before + 1);
        // And the lock was given back after it.
        let free: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)").bind(STATS_LOCK).fetch_one(pool).await.expect("lock");
        assert!(free, "the refresh kept its lock");
        other.close().await;
        store.close().await;
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
    }
}
