//! On PostgreSQL, the changes other servers make to the rows the API's lookups keep.
//!
//! Every statement that changes a session, user, tracker or tracker member sends a notice on the
//! channel `hark_changes` when its transaction commits (migration 0039's triggers, whichever
//! server or tool runs it). A server listening on that channel moves its change counter
//! ([`crate::note_change`]) at each notice, so what it kept of those rows is read again: another
//! server's change is seen here about as soon as it commits, where SQLite's update hook shows a
//! process only its own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};

use crate::{note_change, Db, Store};

/// The channel the triggers notify.
pub const CHANNEL: &str = "hark_changes";

/// How long the listener waits before listening again after its connection failed.
const RETRY: Duration = Duration::from_secs(1);

/// How often the listener checks whether anyone still holds its flag.
const CHECK: Duration = Duration::from_secs(1);

impl Store {
    /// On PostgreSQL, starts a task that listens for every server's changes of the looked-up rows
    /// and moves the change counter at each, and returns a flag that is true while it listens
    /// (a notice missed while it was not listening is covered by moving the counter when it
    /// listens again). None on SQLite, whose update hook moves the counter, or outside a tokio
    /// runtime. The task, and its connection, end once no one holds the flag.
    pub fn hear_changes(&self) -> Option<Arc<AtomicBool>> {
        let Db::Postgres(pool) = &self.db else { return None };
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let heard = Arc::new(AtomicBool::new(false));
        // A pool of one of its own, so the listening connection takes none of the store's.
        let own = PgPoolOptions::new()
            .max_connections(1)
            .max_lifetime(None)
            .idle_timeout(None)
            .connect_lazy_with((*pool.connect_options()).clone());
        runtime.spawn(listen(own, heard.clone()));
        Some(heard)
    }
}

/// Whether only the listener holds its flag.
fn abandoned(heard: &Arc<AtomicBool>) -> bool {
    Arc::strong_count(heard) == 1
}

async fn listen(own: PgPool, heard: Arc<AtomicBool>) {
    let mut check = tokio::time::interval(CHECK);
    'listening: while !abandoned(&heard) {
        let listener = async {
            let mut l = PgListener::connect_with(&own).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        let mut listener = match listener.await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for other servers' changes; trying again");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        // Anything kept before now may have missed a notice.
        heard.store(true, Ordering::Release);
        note_change();
        loop {
            tokio::select! {
                got = listener.try_recv() => match got {
                    Ok(Some(_)) => note_change(),
                    // The connection was lost and made again: notices may have been missed.
                    Ok(None) => note_change(),
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for other servers' changes failed; listening again");
                        break;
                    }
                },
                _ = check.tick() => if abandoned(&heard) { break 'listening },
            }
        }
        heard.store(false, Ordering::Release);
        note_change();
        tokio::time::sleep(RETRY).await;
    }
    heard.store(false, Ordering::Release);
    own.close().await;
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::testing::{drop_postgres, stores};

    /// Waits up to five seconds for `f`.
    async fn eventually(what: &str, f: impl Fn() -> bool) {
        let t0 = Instant::now();
        while !f() {
            assert!(t0.elapsed() < Duration::from_secs(5), "{what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// A change of a looked-up row committed by another connection (another server) moves this
    /// server's change counter, whichever of the four tables it touches; SQLite needs no listener;
    /// the listener ends once its flag is dropped.
    #[tokio::test]
    async fn another_servers_change_moves_the_counter() {
        for s in stores("change_notices").await {
            let heard = s.hear_changes();
            let Db::Postgres(pool) = &s.db else {
                assert!(heard.is_none());
                s.close().await;
                continue;
            };
            let heard = heard.expect("a listener on PostgreSQL");
            eventually("listening", || heard.load(Ordering::Acquire)).await;
            let t = crate::testing::user_and_tracker(&s, "notices").await;
            // Another server: a connection of its own, outside the store.
            let other = PgPoolOptions::new().max_connections(1).connect_with((*pool.connect_options()).clone()).await.expect("other");
            for sql in [
                "UPDATE trackers SET is_demo = TRUE WHERE id = $1",
                "INSERT INTO tracker_members (tracker_id, user_id, permission) SELECT id, owner_id, 1 FROM trackers WHERE id = $1",
                "UPDATE users SET name = 'M' WHERE id = (SELECT owner_id FROM trackers WHERE id = $1)",
                "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) SELECT 'h', owner_id, 0, 1 FROM trackers WHERE id = $1",
                "DELETE FROM sessions WHERE user_id = (SELECT owner_id FROM trackers WHERE id = $1)",
            ] {
                let before = crate::changes();
                sqlx::query(sql).bind(t).execute(&other).await.expect(sql);
                eventually(sql, || crate::changes() != before).await;
            }
            other.close().await;
            drop(heard);
            s.close().await;
        }
        drop_postgres("change_notices").await;
    }
}
