//! SQLite's WAL checkpoints, moved off the writer.
//!
//! By default SQLite checkpoints inside the commit that pushes the write-ahead log past 1,000
//! pages, so the connection that writes also copies the log into the database file and syncs it:
//! 100 to 215 ms of each 25,000-post import batch, about 8 % of the writer's time (BENCHMARKS.md,
//! end-to-end ingest). A file database here turns that off
//! (`wal_autocheckpoint=0`) and a task checkpoints from another connection twice a second
//! instead. Its checkpoints are PASSIVE: they copy what no reader still needs, and never wait for
//! or block a reader or the writer. The log restarts from its beginning once a checkpoint has
//! copied all of it, and `journal_size_limit` then trims the file back to 64 MB.
//!
//! `HARK_SQLITE_BACKGROUND_CHECKPOINT=0` (hidden) keeps SQLite's own checkpoints, for comparison.

use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::SqlitePool;

/// How often the log is copied into the database.
const EVERY: Duration = Duration::from_millis(500);

/// Whether checkpoints run in the background (the default).
pub(crate) fn in_background() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("HARK_SQLITE_BACKGROUND_CHECKPOINT").map_or(true, |v| v != "0"))
}

/// Held by every clone of the store: the task ends once the last clone is gone or the pool is
/// closed.
#[derive(Debug)]
pub(crate) struct Checkpointer;

/// Starts the task for `pool`; it lives as long as the returned handle has clones.
pub(crate) fn start(pool: SqlitePool) -> Arc<Checkpointer> {
    let alive = Arc::new(Checkpointer);
    let weak = Arc::downgrade(&alive);
    tokio::spawn(run(pool, weak));
    alive
}

async fn run(pool: SqlitePool, alive: Weak<Checkpointer>) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if alive.strong_count() == 0 || pool.is_closed() {
            break;
        }
        // (busy, frames in the log, frames copied); a failure (the pool closing, a full disk) is
        // tried again at the next tick, and SQLite checkpoints on its own when the last
        // connection closes.
        let done = sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&pool).await;
        if let Err(e) = done {
            if pool.is_closed() {
                break;
            }
            tracing::debug!("WAL checkpoint: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Db, Store};
    use std::time::{Duration, Instant};

    /// The writer's connections leave checkpoints alone, and the log still reaches the database
    /// file within a few ticks of a large commit.
    #[tokio::test]
    async fn the_log_reaches_the_database_file_without_the_writer_copying_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hark.db");
        let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
        let Db::Sqlite(pool) = &store.db else { unreachable!() };
        let auto: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint").fetch_one(pool).await.unwrap();
        assert_eq!(auto, 0, "the writer's connections must not checkpoint");
        sqlx::query("CREATE TABLE filler (b BLOB)").execute(pool).await.unwrap();
        let before = std::fs::metadata(&path).unwrap().len();
        // About 8 MB in one commit: some 2,000 pages, twice SQLite's own checkpoint threshold.
        let mut tx = pool.begin().await.unwrap();
        for _ in 0..2_000 {
            sqlx::query("INSERT INTO filler VALUES (randomblob(4000))").execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
        let wal = path.with_file_name("hark.db-wal");
        assert!(std::fs::metadata(&wal).unwrap().len() > 7_000_000, "the commit went to the log");
        let start = Instant::now();
        while std::fs::metadata(&path).unwrap().len() < before + 7_000_000 {
            assert!(start.elapsed() < Duration::from_secs(10), "no checkpoint copied the log into the file");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
