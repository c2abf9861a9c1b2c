//! All SQL of Hark. One [`Store`] API over SQLite (the default, embedded) and PostgreSQL; each query
//! is written once and run on whichever pool the store holds.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

mod dashboard;
mod dashboard_authors;
mod collect;
mod error;
mod ingest;
mod ingest_rollups;
mod posts;
mod post_actions;
pub mod post_list;
mod reanalysis;
mod sessions;
mod stored;
mod streams;
mod tags;
mod trackers;
mod users;

pub use dashboard::{split_range, AuthorStat, Counts, DashboardFilter, DashboardPost, RangeSplit, DAY_MS, HOUR_MS};
pub use collect::{CollectionJob, ConnectorSettingsRow, PageDone};
pub use error::StoreError;
pub use ingest::{IngestStats, PostRecord, PostTerms, TrackerLink};
pub use posts::PostCountFilter;
pub use post_actions::SentimentEdit;
pub use post_list::{PostQuery, PostRow, PostSort, PostTotal};
pub use reanalysis::{Reanalysis, StoredPost};
pub use streams::StreamRow;
pub use stored::{encode_extras, DecodeError, StoredRow, POST_ROW_COLUMNS};
pub use tags::TagRow;
pub use trackers::{NewTracker, TrackerEdit, TrackerLogRow, TrackerRow};
pub use users::{NewUser, UserRow};

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Runs `$body` with `$pool` bound to the store's pool, whichever database it is.
macro_rules! with_pool {
    ($store:expr, |$pool:ident| $body:expr) => {
        match &$store.db {
            $crate::Db::Sqlite($pool) => $body,
            $crate::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_pool;

/// A write transaction. SQLite: `BEGIN IMMEDIATE`, so the write lock is taken at the start and a
/// second writer waits for it (the busy timeout). A deferred transaction that reads first fails at
/// its first write with "database is locked" when another write has committed since its read (in
/// WAL mode its snapshot cannot become a writer): bulk delete or undo while posts were collected.
pub(crate) trait BeginWrite {
    type Database: sqlx::Database;
    async fn begin_write(&self) -> std::result::Result<sqlx::Transaction<'static, Self::Database>, sqlx::Error>;
}

impl BeginWrite for SqlitePool {
    type Database = sqlx::Sqlite;
    async fn begin_write(&self) -> std::result::Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.begin_with("BEGIN IMMEDIATE").await
    }
}

impl BeginWrite for PgPool {
    type Database = sqlx::Postgres;
    async fn begin_write(&self) -> std::result::Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error> {
        self.begin().await
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The merge of [`Store::note_indexed`]: when the posts indexed since the last merge reach a
/// quarter of all posts (and at least [`SEARCH_MERGE_AFTER`]), FTS5's incremental optimize
/// (`'merge'` with a negative page count: every b-tree of every level) is run step by step, each
/// step its own short write, until one b-tree is left.
async fn merge_search_index(pool: &SqlitePool, state: &Staleness) -> std::result::Result<(), sqlx::Error> {
    let since = state.since.load(Ordering::Relaxed);
    let posts: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM posts").fetch_one(pool).await?;
    if since < (posts.max(0) as u64) / 4 {
        return Ok(());
    }
    state.since.store(0, Ordering::Relaxed);
    // Each step writes about 500 pages; a million posts take a dozen or so. The steps are capped
    // by the index's size, so that batches written meanwhile cannot keep a merge going forever.
    let steps = 50 + posts.max(0) / 10_000;
    for _ in 0..steps {
        sqlx::query("INSERT INTO posts_fts(posts_fts, rank) VALUES('merge', -500)").execute(pool).await?;
        let segments: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT segid) FROM posts_fts_idx").fetch_one(pool).await?;
        if segments <= 1 {
            break;
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) db: Db,
    /// Rows written since PostgreSQL's planner statistics were last refreshed.
    pub(crate) stats: Arc<Staleness>,
    /// Posts added to SQLite's full-text index since it was last merged into one b-tree.
    pub(crate) search_index: Arc<Staleness>,
}

/// Hark refreshes PostgreSQL's planner statistics itself after large writes instead of relying
/// on autovacuum (which may be off): stale statistics turn index probes into table scans.
#[derive(Debug, Default)]
pub(crate) struct Staleness {
    since: AtomicU64,
    at_last: AtomicU64,
    running: AtomicBool,
}

/// Posts indexed before SQLite's full-text index is first merged into one b-tree; after that, a
/// merge when the posts indexed since the last one reach a quarter of all posts
/// ([`Store::note_indexed`]).
static SEARCH_MERGE_AFTER: AtomicU64 = AtomicU64::new(20_000);

/// Sets the posts indexed before the first full-text merge (for tests).
#[doc(hidden)]
pub fn set_search_merge_after(posts: u64) {
    SEARCH_MERGE_AFTER.store(posts, Ordering::Relaxed);
}

/// The vacuum of Hark's statistics refresh and of [`Store::analyze`] (PostgreSQL): the tables
/// whose visibility maps the posts page's index-only reads need, and the deleted links (migration
/// 0020), which each delete and undo write.
pub(crate) const VACUUM_TABLES: &str = "VACUUM (ANALYZE) tracker_posts, rollup_hourly, tracker_deleted_posts";

/// Writes before the first refresh; after it, a refresh when the writes since the last one reach
/// the total written before it (statistics are refreshed about log2 times while a store grows).
const ANALYZE_AFTER: u64 = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// SQL that holds when the link `alias` (a `tracker_posts` row, or the table itself) is not
    /// deleted (bulk delete). SQLite keeps the deletion in the link (`deleted_at`) with a copy in
    /// `tracker_deleted_posts`; PostgreSQL keeps it in `tracker_deleted_posts` alone (migration
    /// 0020), so a delete and its undo write none of the links and none of their indexes.
    pub(crate) fn live_link(self, alias: &str) -> String {
        match self {
            Backend::Sqlite => format!("{alias}.deleted_at IS NULL"),
            Backend::Postgres => format!("NOT {}", self.deleted_link(alias)),
        }
    }

    /// SQL that holds when the link `alias` is deleted: the negation of [`Backend::live_link`].
    pub(crate) fn deleted_link(self, alias: &str) -> String {
        match self {
            Backend::Sqlite => format!("{alias}.deleted_at IS NOT NULL"),
            Backend::Postgres => format!(
                "EXISTS (SELECT 1 FROM tracker_deleted_posts dl WHERE dl.tracker_id = {alias}.tracker_id AND dl.post_id = {alias}.post_id)"
            ),
        }
    }
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Store {
    /// Connects to `sqlite://path` or `postgres://…`. SQLite files are created when missing and run
    /// in WAL mode with foreign keys on.
    pub async fn connect(url: &str) -> Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // No JIT: Hark's queries are short, and a plan whose cost estimate runs high (a
            // lateral scan per hour, say) would spend 200 ms or more compiling a query that
            // runs in 30. Every execution planned for its values: a prepared statement's generic
            // plan, chosen after five runs, cannot see a range's bounds and may read the whole
            // range instead of a few index entries (a posts-page walk: 3 ms to 0.2–0.4 s).
            let opts = sqlx::postgres::PgConnectOptions::from_str(url)?
                .options([("jit", "off"), ("plan_cache_mode", "force_custom_plan")]);
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(opts)
                .await?;
            Ok(Self { db: Db::Postgres(pool), stats: Arc::default(), search_index: Arc::default() })
        } else if url.starts_with("sqlite:") {
            let opts = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10))
                // A 64 MB page cache keeps the post-key and rollup indexes in memory while ingesting.
                .pragma("cache_size", "-65536")
                .pragma("temp_store", "memory");
            let pool = SqlitePoolOptions::new().max_connections(8).connect_with(opts).await?;
            Ok(Self { db: Db::Sqlite(pool), stats: Arc::default(), search_index: Arc::default() })
        } else {
            Err(StoreError::Config(format!(
                "database URL must start with sqlite: or postgres:// (got '{}')",
                url.split(':').next().unwrap_or("")
            )))
        }
    }

    pub fn backend(&self) -> Backend {
        match self.db {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    /// Applies the embedded migrations that have not run yet.
    pub async fn migrate(&self) -> Result<()> {
        match &self.db {
            Db::Sqlite(p) => SQLITE_MIGRATIONS.run(p).await?,
            Db::Postgres(p) => POSTGRES_MIGRATIONS.run(p).await?,
        }
        Ok(())
    }

    pub async fn ping(&self) -> Result<()> {
        with_pool!(self, |p| {
            sqlx::query("SELECT 1").execute(p).await?;
        });
        Ok(())
    }

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
                // The links and the hourly rollup are vacuumed too (VACUUM runs outside a
                // transaction), so their visibility maps let the posts page's walks read the sort
                // keys' indexes alone, and its total and a walk's platform check sum the rollup's
                // counts from their index (migration 0018; a scan of the table otherwise, 8.6 ms
                // against 2.9 over 30 days); the deleted links (migration 0020) lose the rows each
                // delete and undo leave. Autovacuum does it as well when it is on.
                let r = match sqlx::raw_sql(VACUUM_TABLES).execute(&pool).await {
                    Ok(_) => sqlx::query(
                        "ANALYZE posts, rollup_terms, rollup_authors, rollup_author_totals, \
                         rollup_author_days, rollup_subtrackers",
                    )
                    .execute(&pool)
                    .await
                    .map(|_| ()),
                    Err(e) => Err(e),
                };
                if let Err(e) = r {
                    tracing::warn!(error = %e, "refreshing planner statistics failed");
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
        if s.since.load(Ordering::Relaxed) < SEARCH_MERGE_AFTER.load(Ordering::Relaxed) || s.running.swap(true, Ordering::AcqRel) {
            return;
        }
        let (pool, state) = (pool.clone(), self.search_index.clone());
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            s.running.store(false, Ordering::Release);
            return;
        };
        rt.spawn(async move {
            if let Err(e) = merge_search_index(&pool, &state).await {
                tracing::warn!(error = %e, "merging the full-text index failed");
            }
            state.running.store(false, Ordering::Release);
        });
    }

    /// Merges SQLite's full-text index into one b-tree now (the background merge's work).
    #[doc(hidden)]
    pub async fn merge_search_index(&self) -> Result<()> {
        let Db::Sqlite(pool) = &self.db else { return Ok(()) };
        self.search_index.since.store(u64::MAX / 2, Ordering::Relaxed);
        Ok(merge_search_index(pool, &self.search_index).await?)
    }

    /// The number of b-trees SQLite's full-text index is made of (None on PostgreSQL).
    #[doc(hidden)]
    pub async fn search_index_segments(&self) -> Result<Option<i64>> {
        let Db::Sqlite(pool) = &self.db else { return Ok(None) };
        Ok(Some(sqlx::query_scalar("SELECT COUNT(DISTINCT segid) FROM posts_fts_idx").fetch_one(pool).await?))
    }

    pub async fn close(&self) {
        with_pool!(self, |p| p.close().await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After enough posts, SQLite's full-text index is merged into one b-tree in the background,
    /// and searches find what they found before.
    #[tokio::test]
    async fn indexed_posts_merge_the_search_index() {
        let dir = std::env::temp_dir().join(format!("hark_fts_merge_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let store = Store::connect(&format!("sqlite://{}", dir.join("t.db").display())).await.expect("connect");
        store.migrate().await.expect("migrate");
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
        set_search_merge_after(30);
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
        store.close().await;
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
    }
}
