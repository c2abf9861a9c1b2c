//! All SQL of Hark. One [`Store`] API over SQLite (the default, embedded) and PostgreSQL; each query
//! is written once and run on whichever pool the store holds, with the few words the databases
//! spell apart taken from one module, `dialect`.
//!
//! The modules follow the data they serve:
//! - `posts`: the posts page's query (its plans, walk and totals) and the work on posts;
//! - `filter`: the filters every analytic page shares ([`PageFilter`]);
//! - `dashboard`: the dashboard's panels, from the rollups and the post rows;
//! - `influencers`: the influencers page's ranked accounts and an account's posts;
//! - `topics`: the trending topics and sentiment pages, over an in-memory table of posts' terms;
//! - `ingest`: writing collected posts and summing their rollup contributions;
//! - `rollups`: the one writer of every rollup table (ingest, delete, restore, re-analysis);
//! - `reanalysis`: the re-analysis jobs of a search edit;
//! - `trackers`, `users`, `sessions`, `tags`, `visits`: the app's records;
//! - `collect`, `streams`: collection jobs and connector streams, leased;
//! - `maintenance`: planner statistics and the full-text index, kept up by Hark itself.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

mod audit;
pub mod backup;
mod change_notices;
mod checkpoint;
mod collect;
mod dashboard;
mod dialect;
mod error;
mod exports;
mod filter;
mod health;
mod influencers;
mod ingest;
mod ingest_rows;
mod integrations;
mod maintenance;
mod notifications;
mod posts;
mod lease;
mod priority;
mod reanalysis;
mod sealing;
mod search_file;
pub use sealing::Resealed;
pub mod secrets;
mod rollups;
mod sentiment;
mod sentiment_model;
mod sessions;
mod sharing;
mod sqlite_rows;
mod stored;
mod streams;
mod tags;
mod team;
#[cfg(any(test, feature = "testing"))]
mod testing;
mod time;
mod topics;
mod trackers;
mod users;
mod visits;

pub use audit::{Audit, AuditRow};
pub use collect::{CollectionJob, ConnectorSettingsRow, PageDone};
pub use dashboard::{split_range, AuthorStat, Counts, DashboardPost, RangeSplit};
pub use dialect::Backend;
pub use error::StoreError;
pub use exports::{ExportFile, ExportJob, ExportResult, NewExport, EXPORT_MAX_ATTEMPTS};
pub use filter::PageFilter;
pub use influencers::{
    AccountPostSort, CountField, CountFilter, InfluencerPage, InfluencerQuery, InfluencerRow, InfluencerSort, Profile,
};
pub use integrations::IntegrationRow;
pub use notifications::{DeliveryRow, EngineMemory, EngineStep, EventRow, InfluencerPost, InfluencerRule, NewDelivery, NewEvent, NotificationRow, WAITING_BATCH};
pub use ingest::{IngestSequence, IngestStats, PostRecord, PostTerms, TrackerLink};
pub use posts::{
    wall_visibility, PostCountFilter, PostListTuning, PostQuery, PostRow, PostSort, PostTotal, SentimentEdit, WallQuery, WallRow,
};
pub use reanalysis::{Reanalysis, ReanalysisPoint, StoredPost};
pub use lease::{hold_lease, Held, Singleton};
pub use health::{JobLag, Waiting};
pub use sentiment::SENTIMENT_BUCKETS;
pub use sentiment_model::{ScoredPost, SentimentModelState};
pub use sharing::ShareSettings;
pub use team::{InvitationRow, MemberRow};
pub use stored::{encode_extras, DecodeError, StoredRow, POST_ROW_COLUMNS};
pub use streams::StreamRow;
pub use tags::TagRow;
pub use time::{DAY_MS, HOUR_MS};
pub use topics::{
    BucketCounts, Keyword, SentimentSummary, SignificantKeywords, TermKind, TermRef, TopicItem, TopicLayer, TopicQuery, TopicSort,
    TrendWindow,
};
pub use trackers::{NewTracker, TrackerEdit, TrackerLogRow, TrackerRow};
pub use users::{AccountPlan, NewUser, UserRow};

pub(crate) use maintenance::Staleness;

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

/// A write transaction. SQLite: `BEGIN IMMEDIATE`, so the write lock is taken at the start. A
/// deferred transaction that reads first fails at its first write with "database is locked" when
/// another write has committed since its read (in WAL mode its snapshot cannot become a writer):
/// bulk delete or undo while posts were collected.
///
/// On SQLite, the writers of one store first queue at its [`WriteGate`], in the order they came,
/// and only then take a connection and the database's lock. SQLite's own wait for a lock (the
/// busy timeout) polls with sleeps of up to 100 ms: among several writers it is unfair (one that
/// keeps missing the moment the lock is free waits out its 10 s and fails), and every waiter holds
/// one of the pool's few connections while it sleeps, so readers wait for a connection too. The
/// gate is held until the transaction ends; another process writing the same file (a backup, a
/// second server) is still waited for by the busy timeout.
pub(crate) trait BeginWrite {
    type Database: sqlx::Database;
    async fn begin_write(&self, gate: &WriteGate) -> std::result::Result<Write<Self::Database>, sqlx::Error>;
}

/// Moves whenever this process changes a row the API's per-request lookups read (a session, a
/// user, a tracker, a tracker's member): on SQLite at every such row change of any of the
/// process's connections (SQLite's update hook, before the change commits), and when the API has
/// answered a request other than a GET ([`note_change`]). On PostgreSQL, a server listening for
/// the database's change notices ([`Store::hear_changes`]) also moves it at every such change any
/// server commits. What a reader keeps of those rows it may reuse while this has not moved; the
/// changes it cannot see (another process on a SQLite file: the `sqlite3` shell or a `hark`
/// command beside a server) it can only bound by time.
static CHANGES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The tables of the rows the API's lookups keep (all rowid tables: SQLite's update hook does not
/// see the others).
const LOOKED_UP: [&str; 4] = ["sessions", "users", "trackers", "tracker_members"];

/// The current value of the process's change counter (see [`note_change`]).
pub fn changes() -> u64 {
    CHANGES.load(std::sync::atomic::Ordering::Acquire)
}

/// Moves the process's change counter: what readers kept of the database before is not reused.
pub fn note_change() {
    CHANGES.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
}

/// SQLite's page size for a new database file (`PRAGMA page_size`; SQLite's default is 4,096).
/// Pages of 16 KiB hold four times the rows of a table or index, so the B-trees every write
/// descends (posts by key, the links, the rollups) are a level shallower and a batch's upserts
/// touch, split and commit fewer pages: ingest 9 % faster on real tweet texts and 6 % on uniform
/// accounts than with 4 KiB pages (medians, alternated in the same runs), with the dashboard's and the posts page's reads unchanged
/// (BENCHMARKS.md, "End-to-end ingest"). 32 KiB did no better, 64 KiB worse. A file keeps the size
/// it was made with: a database made before this keeps 4 KiB pages and works as before.
pub const SQLITE_PAGE_SIZE: u32 = 16_384;

/// The page size a new SQLite file is made with: `HARK_SQLITE_PAGE_SIZE` when it is a power of
/// two from 512 to 65,536 (to compare sizes), else [`SQLITE_PAGE_SIZE`].
pub(crate) fn sqlite_page_size() -> u32 {
    match std::env::var("HARK_SQLITE_PAGE_SIZE") {
        Err(_) => SQLITE_PAGE_SIZE,
        Ok(v) => match v.trim().parse::<u32>() {
            Ok(n) if n.is_power_of_two() && (512..=65_536).contains(&n) => n,
            _ => {
                tracing::warn!("HARK_SQLITE_PAGE_SIZE must be a power of two from 512 to 65536 (got '{v}'); using {SQLITE_PAGE_SIZE}");
                SQLITE_PAGE_SIZE
            }
        },
    }
}

/// The queue of a store's SQLite writers (see [`BeginWrite`]); FIFO, as tokio's mutex is. On a
/// SQLite file it also holds the connection the writers write on: a pool of one, kept apart from
/// the readers' pool. Writes taken from the readers' pool waited for a connection behind every
/// reader queued for one while holding the gate, and every writer queued behind them: under the
/// load test's 250 looping readers an import's write waited about 120 ms for its turn, longer
/// than it took to write.
#[derive(Clone, Default)]
pub(crate) struct WriteGate {
    turn: Arc<tokio::sync::Mutex<()>>,
    /// Where writes run; none for a database in memory (a second pool would open another one).
    writer: Option<SqlitePool>,
}

impl WriteGate {
    /// Waits for the writers before this one, and holds the turn until dropped.
    pub(crate) async fn lock(&self) -> tokio::sync::OwnedMutexGuard<()> {
        self.turn.clone().lock_owned().await
    }

    /// The pool writes run on: the write connection, or `readers` when there is none.
    pub(crate) fn pool<'a>(&'a self, readers: &'a SqlitePool) -> &'a SqlitePool {
        self.writer.as_ref().unwrap_or(readers)
    }
}

impl std::fmt::Debug for WriteGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteGate").field("own_connection", &self.writer.is_some()).finish()
    }
}

/// Runs `$body` with `$pool` bound to the pool a write outside [`BeginWrite`] runs on (holding
/// [`Store::write_turn`]): SQLite's write connection, or PostgreSQL's pool.
macro_rules! with_write_pool {
    ($store:expr, |$pool:ident| $body:expr) => {
        match &$store.db {
            $crate::Db::Sqlite(readers) => {
                let $pool = $store.write_gate.pool(readers);
                $body
            }
            $crate::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_write_pool;

/// A write transaction holding its place at the [`WriteGate`] until it commits or is dropped.
/// It dereferences to the connection, as `sqlx::Transaction` does.
pub(crate) struct Write<DB: sqlx::Database> {
    // Declared first, so a transaction dropped unfinished starts its rollback before the gate opens.
    tx: sqlx::Transaction<'static, DB>,
    _gate: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl<DB: sqlx::Database> Write<DB> {
    pub(crate) async fn commit(self) -> std::result::Result<(), sqlx::Error> {
        self.tx.commit().await
    }

    pub(crate) async fn rollback(self) -> std::result::Result<(), sqlx::Error> {
        self.tx.rollback().await
    }
}

impl<DB: sqlx::Database> std::ops::Deref for Write<DB> {
    type Target = DB::Connection;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl<DB: sqlx::Database> std::ops::DerefMut for Write<DB> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

impl BeginWrite for SqlitePool {
    type Database = sqlx::Sqlite;
    async fn begin_write(&self, gate: &WriteGate) -> std::result::Result<Write<sqlx::Sqlite>, sqlx::Error> {
        let turn = gate.lock().await;
        let tx = gate.pool(self).begin_with("BEGIN IMMEDIATE").await?;
        Ok(Write { tx, _gate: Some(turn) })
    }
}

impl BeginWrite for PgPool {
    type Database = sqlx::Postgres;
    async fn begin_write(&self, _gate: &WriteGate) -> std::result::Result<Write<sqlx::Postgres>, sqlx::Error> {
        Ok(Write { tx: self.begin().await?, _gate: None })
    }
}

/// A pool's size from the environment variable `name` (`value`), or `default` when it is unset;
/// anything but a whole number from 1 up is refused with a message naming the variable.
fn pool_size(name: &str, value: Option<&str>, default: u32) -> Result<u32> {
    match value.map(str::trim) {
        None | Some("") => Ok(default),
        Some(v) => v.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
            StoreError::Config(format!("{name} must be a whole number of connections from 1 up (got '{v}')"))
        }),
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) db: Db,
    /// Rows written since PostgreSQL's planner statistics were last refreshed.
    pub(crate) stats: Arc<Staleness>,
    /// Posts added to SQLite's full-text index since it was last merged into one b-tree.
    pub(crate) search_index: Arc<Staleness>,
    /// Where the posts page's plans give way to one another.
    pub(crate) tuning: PostListTuning,
    /// Posts indexed before SQLite's full-text index is first merged ([`Store::note_indexed`]).
    pub(crate) search_merge_after: u64,
    /// The influencers page's in-memory author indexes, by tracker.
    pub(crate) author_indexes: Arc<influencers::AuthorIndexes>,
    pub(crate) topic_tables: Arc<topics::TopicTables>,
    /// Whether the influencers page ranks in those indexes (tests turn it off to check the SQL
    /// path a tracker too large to index takes).
    pub(crate) use_author_index: bool,
    /// Whether the dashboard counts keywords over the in-memory topic tables once they are read
    /// (tests turn it off to check the rollup path).
    pub(crate) use_memory_terms: bool,
    /// On PostgreSQL, the posts from which a write is split in two (tests split small ones).
    pub(crate) split_from: usize,
    /// The SQLite database's file (none for PostgreSQL or a database in memory): long reads open
    /// a connection of their own to it.
    pub(crate) sqlite_file: Option<Arc<std::path::PathBuf>>,
    /// Seals the secrets stored in settings (connector credentials, webhook signing secrets);
    /// without one they are stored as given.
    pub(crate) secret_key: Option<Arc<secrets::SecretKey>>,
    /// Keeps the SQLite file's background checkpoints running while the store has clones.
    pub(crate) _checkpointer: Option<Arc<checkpoint::Checkpointer>>,
    /// The queue of this store's SQLite writers ([`BeginWrite`]).
    pub(crate) write_gate: WriteGate,
    /// Small ingest batches written together ([`Store::ingest_batch`]).
    pub(crate) combiner: Arc<ingest::Combiner>,
    /// SQLite: the posts page's visit markers, kept in memory and written in batches (visits.rs).
    pub(crate) visits: visits::Visits,
    /// A SQLite file's full-text index, in a file of its own written on a thread of its own
    /// (search_file.rs); none for PostgreSQL or a database in memory.
    pub(crate) search_writer: Option<Arc<search_file::SearchWriter>>,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Store {
    fn new(db: Db) -> Self {
        Self {
            db,
            stats: Arc::default(),
            search_index: Arc::default(),
            tuning: PostListTuning::default(),
            search_merge_after: maintenance::SEARCH_MERGE_AFTER,
            author_indexes: Arc::default(),
            topic_tables: Arc::default(),
            use_author_index: true,
            use_memory_terms: true,
            split_from: ingest::SPLIT_FROM,
            sqlite_file: None,
            secret_key: None,
            _checkpointer: None,
            write_gate: WriteGate::default(),
            combiner: Arc::default(),
            visits: Arc::default(),
            search_writer: None,
        }
    }

    /// A place at the [`WriteGate`] for a write outside [`BeginWrite`] (a job queue's lease, a
    /// sweep of expired rows), held until dropped; None on PostgreSQL. Such a statement takes
    /// SQLite's write lock even when it changes nothing, so it queues with the other writers
    /// instead of polling for the lock with a pooled connection.
    pub(crate) async fn write_turn(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        match self.db {
            Db::Sqlite(_) => Some(self.write_gate.lock().await),
            Db::Postgres(_) => None,
        }
    }

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
            // Connections per server (`HARK_PG_CONNECTIONS`, 8 unless set). More backends than
            // the database has cores to run them only queue inside it, and an import's
            // statements queue behind every reader's: under the load test (three servers, 250
            // readers, 5,000 posts/s offered, PostgreSQL on 2 cores) 16 a server sustained
            // 4,436-4,586 posts/s with the feeder 7-8 s behind, 8 a server 5,064-5,227 on
            // schedule; the readers wait in the server's queue instead (dashboard 260-318
            // requests/s against 391-424). A database on more cores takes more.
            let connections = pool_size("HARK_PG_CONNECTIONS", std::env::var("HARK_PG_CONNECTIONS").ok().as_deref(), 8)?;
            let pool = PgPoolOptions::new()
                .max_connections(connections)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(opts)
                .await?;
            Ok(Self::new(Db::Postgres(pool)))
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
            // Set before anything else on a new file; a file that exists keeps the size it has.
            let opts = opts.page_size(sqlite_page_size());
            let in_file = !url.contains("memory");
            // Checkpoints run beside the writer instead of inside its commits (see checkpoint.rs).
            let background = in_file && checkpoint::in_background();
            let opts = if background {
                opts.pragma("wal_autocheckpoint", "0").pragma("journal_size_limit", "67108864")
            } else {
                opts
            };
            let file = opts.get_filename().to_path_buf();
            // The full-text index's file, made before any connection attaches it.
            let search = if in_file { Some(Arc::new(search_file::SearchWriter::start(&file)?)) } else { None };
            let search_path: Option<Arc<str>> = search.as_ref().map(|s| s.file().to_string_lossy().into());
            let connections = pool_size("HARK_SQLITE_CONNECTIONS", std::env::var("HARK_SQLITE_CONNECTIONS").ok().as_deref(), 8)?;
            let own_writer = in_file && !std::env::var("HARK_SQLITE_SHARED_WRITER").is_ok_and(|v| v == "1");
            // With a writer of its own, the readers' threads run at a lower priority (priority.rs).
            let lowered = own_writer && priority::reader_nice() > 0;
            let pool_of = |n: u32, readers: bool| {
                let search_path = search_path.clone();
                SqlitePoolOptions::new()
                    .max_connections(n)
                    // A change of a row the API's lookups keep, by any connection, moves the counter.
                    .after_connect(move |conn, _| {
                        let search_path = search_path.clone();
                        Box::pin(async move {
                            conn.lock_handle().await?.set_update_hook(|change| {
                                if LOOKED_UP.contains(&change.table) {
                                    note_change();
                                }
                            });
                            // The readers find the full-text index in its own file. The writer
                            // does not attach it: its `BEGIN IMMEDIATE` would take that file's
                            // write lock too, and the index's thread could not write beside it
                            // (with `HARK_SQLITE_SHARED_WRITER=1` it does, and the index's writes
                            // wait for each of the writer's commits).
                            if let Some(path) = search_path.filter(|_| readers) {
                                sqlx::query(search_file::ATTACH)
                                    .bind(&*path)
                                    .execute(&mut *conn)
                                    .await?;
                            }
                            if readers && lowered {
                                priority::lower_readers(priority::reader_nice());
                            }
                            Ok(())
                        })
                    })
            };
            let reader_opts = if lowered {
                opts.clone().thread_name(|id| format!("{}{id}", priority::READER_THREAD))
            } else {
                opts.clone()
            };
            let pool = pool_of(connections, true).connect_with(reader_opts).await?;
            let mut store = Self::new(Db::Sqlite(pool.clone()));
            store.search_writer = search;
            if own_writer {
                // Opened on first use: the readers' pool has made the file and its WAL by then.
                let opts = opts.thread_name(|id| format!("hark-write-{id}"));
                store.write_gate.writer = Some(pool_of(1, false).connect_lazy_with(opts));
            }
            if in_file && file.is_file() {
                store.sqlite_file = Some(Arc::new(file));
            }
            if background {
                store._checkpointer = Some(checkpoint::start(pool));
            }
            Ok(store)
        } else {
            Err(StoreError::Config(format!(
                "database URL must start with sqlite: or postgres:// (got '{}')",
                url.split(':').next().unwrap_or("")
            )))
        }
    }

    /// The same store (the same pool) with other posts-page limits: tests lower them to reach every
    /// plan with little data, the bench compares plans.
    pub fn with_post_list_tuning(mut self, tuning: PostListTuning) -> Self {
        self.tuning = tuning;
        self
    }

    /// The same store sealing the secrets it stores with `key` (every node of a cluster needs the
    /// same key).
    pub fn with_secret_key(mut self, key: Arc<secrets::SecretKey>) -> Self {
        self.secret_key = Some(key);
        self
    }

    /// The posts-page limits in force.
    pub fn post_list_tuning(&self) -> PostListTuning {
        self.tuning
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
        if let (Db::Sqlite(readers), Some(search)) = (&self.db, &self.search_writer) {
            // The index is in its own file: the main schema's (migration 0002, or a database
            // from before the file) goes, and the file's index takes in every post it lacks.
            {
                let _turn = self.write_gate.lock().await;
                sqlx::query("DROP TABLE IF EXISTS main.posts_fts").execute(self.write_gate.pool(readers)).await?;
            }
            search.catch_up().await?;
        }
        Ok(())
    }

    pub async fn ping(&self) -> Result<()> {
        with_pool!(self, |p| {
            sqlx::query("SELECT 1").execute(p).await?;
        });
        Ok(())
    }

    pub async fn close(&self) {
        if let Err(e) = self.flush_visits().await {
            tracing::warn!("could not record the posts page's visits: {e}");
        }
        with_pool!(self, |p| p.close().await);
        if let Some(w) = &self.write_gate.writer {
            w.close().await;
        }
    }

    /// Reads the in-memory indexes of the influencers, trending topics, sentiment and posts pages
    /// for each running tracker, newest last (the indexes keep the most recently used when memory
    /// is short), so that the first visit after a start does not wait for them. Trackers too large
    /// to keep in memory are left to their row-based answers, as a request would.
    pub async fn warm_page_indexes(&self) -> Result<()> {
        for (id, _) in self.running_trackers().await? {
            self.warm_tracker(id).await?;
        }
        Ok(())
    }

    /// Reads one tracker's in-memory page indexes now (see [`Store::warm_page_indexes`]).
    pub async fn warm_tracker(&self, tracker_id: i64) -> Result<()> {
        self.author_index(tracker_id).await?;
        self.topic_table(tracker_id).await?;
        Ok(())
    }
}

#[cfg(test)]
mod pool_size_tests {
    use super::pool_size;

    #[test]
    fn a_pool_size_is_the_default_when_unset_and_refused_unless_a_whole_number_from_one() {
        assert_eq!(pool_size("HARK_PG_CONNECTIONS", None, 8).unwrap(), 8);
        assert_eq!(pool_size("HARK_PG_CONNECTIONS", Some(" "), 8).unwrap(), 8);
        assert_eq!(pool_size("HARK_PG_CONNECTIONS", Some("4"), 8).unwrap(), 4);
        assert_eq!(pool_size("HARK_PG_CONNECTIONS", Some(" 16 "), 8).unwrap(), 16);
        for bad in ["0", "-3", "eight", "2.5"] {
            let message = pool_size("HARK_PG_CONNECTIONS", Some(bad), 8).unwrap_err().to_string();
            assert!(message.contains("HARK_PG_CONNECTIONS") && message.contains(bad), "{message}");
        }
    }
}
