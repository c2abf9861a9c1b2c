//! All SQL of Hark. One [`Store`] API over SQLite (the default, embedded) and PostgreSQL; each query
//! is written once and run on whichever pool the store holds.

use std::str::FromStr;
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

#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) db: Db,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Store {
    /// Connects to `sqlite://path` or `postgres://…`. SQLite files are created when missing and run
    /// in WAL mode with foreign keys on.
    pub async fn connect(url: &str) -> Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            Ok(Self { db: Db::Postgres(pool) })
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
            Ok(Self { db: Db::Sqlite(pool) })
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

    pub async fn close(&self) {
        with_pool!(self, |p| p.close().await)
    }
}
