//! The owner's last visit to a tracker's posts (new posts since then are marked).
//!
//! The posts page records a visit with every first page it shows. On PostgreSQL that is one
//! upsert, which moves the stored visit to `previous_at` and returns it. On SQLite every write
//! takes the one writer's turn, so a page view waited behind the import being written (up to
//! 150 ms under the load test), and the imports behind a queue of page views. There the visits
//! are kept in memory ([`VisitBook`]: read from the table at first use, through the write
//! connection, so a view never waits for a reader's connection either) and written to the table
//! in one statement at most once a [`FLUSH_AFTER`], and when the store closes. A crash loses at
//! most that last second of visit markers, never posts.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use hark_core::Millis;

use crate::{with_pool, Result, Store};

/// How long a recorded visit may wait in memory before it is written.
pub(crate) const FLUSH_AFTER: Duration = Duration::from_secs(1);

type Key = (i64, i64);

/// A SQLite store's visits: every row of `tracker_visits` once read, with the ones not written
/// yet.
#[derive(Debug, Default)]
pub(crate) struct VisitBook {
    state: tokio::sync::Mutex<Option<Book>>,
}

#[derive(Debug, Default)]
struct Book {
    /// (tracker, user) -> (visited_at, previous_at).
    visits: HashMap<Key, (Millis, Option<Millis>)>,
    dirty: HashSet<Key>,
    /// When a task was sent to write the dirty visits (none on its way: none).
    flushing: Option<std::time::Instant>,
}

/// A flush sent this long ago that has not reported is taken for lost (its runtime ended) and
/// another is sent.
const FLUSH_LOST_AFTER: Duration = Duration::from_secs(30);

impl Store {
    /// The owner's previous visit to a tracker's posts, and records this one at `now`.
    pub async fn swap_last_visit(&self, tracker_id: i64, user_id: i64, now: Millis) -> Result<Option<Millis>> {
        if matches!(self.db, crate::Db::Postgres(_)) {
            return Ok(crate::with_write_pool!(self, |p| sqlx::query_scalar::<_, Option<i64>>(
                "INSERT INTO tracker_visits (tracker_id, user_id, visited_at, previous_at) VALUES ($1, $2, $3, NULL) \
                 ON CONFLICT (tracker_id, user_id) DO UPDATE SET previous_at = tracker_visits.visited_at, visited_at = excluded.visited_at \
                 RETURNING previous_at"
            )
            .bind(tracker_id)
            .bind(user_id)
            .bind(now)
            .fetch_one(p)
            .await?));
        }
        let mut state = self.visit_book().await?;
        let book = state.as_mut().expect("loaded");
        let previous = book.visits.get(&(tracker_id, user_id)).map(|v| v.0);
        book.visits.insert((tracker_id, user_id), (now, previous));
        book.dirty.insert((tracker_id, user_id));
        self.schedule_flush(book);
        Ok(previous)
    }

    /// Sends a task to write the book's dirty visits after [`FLUSH_AFTER`], unless one is on its
    /// way.
    fn schedule_flush(&self, book: &mut Book) {
        if book.flushing.is_some_and(|at| at.elapsed() < FLUSH_LOST_AFTER) {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else { return };
        book.flushing = Some(std::time::Instant::now());
        let store = self.clone();
        rt.spawn(async move {
            tokio::time::sleep(FLUSH_AFTER).await;
            if let Err(e) = store.flush_visits().await {
                tracing::warn!("could not record the posts page's visits: {e}");
            }
        });
    }

    /// The owner's last recorded visit, without recording one.
    pub async fn last_visit(&self, tracker_id: i64, user_id: i64) -> Result<Option<Millis>> {
        if matches!(self.db, crate::Db::Sqlite(_)) {
            let state = self.visit_book().await?;
            return Ok(state.as_ref().and_then(|b| b.visits.get(&(tracker_id, user_id))).map(|v| v.0));
        }
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT visited_at FROM tracker_visits WHERE tracker_id = $1 AND user_id = $2"
        )
        .bind(tracker_id)
        .bind(user_id)
        .fetch_optional(p)
        .await?))
    }

    /// The SQLite visit book, read from the table at first use. The book's lock is never held
    /// while waiting for the write turn ([`Store::flush_visits`] takes them the other way round).
    async fn visit_book(&self) -> Result<tokio::sync::MutexGuard<'_, Option<Book>>> {
        {
            let state = self.visits.state.lock().await;
            if state.is_some() {
                return Ok(state);
            }
        }
        let rows: Vec<(i64, i64, i64, Option<i64>)> = {
            let _turn = self.write_turn().await;
            crate::with_write_pool!(self, |p| sqlx::query_as(
                "SELECT tracker_id, user_id, visited_at, previous_at FROM tracker_visits"
            )
            .fetch_all(p)
            .await?)
        };
        let mut state = self.visits.state.lock().await;
        if state.is_none() {
            let visits = rows.into_iter().map(|(t, u, at, prev)| ((t, u), (at, prev))).collect();
            *state = Some(Book { visits, ..Book::default() });
        }
        Ok(state)
    }

    /// Writes the visits recorded in memory and not yet in the table (SQLite), in one statement,
    /// holding the write turn from before it takes them: a flush that [`Store::close`] runs waits
    /// for one on its way and then writes what is left. Visits of a tracker or user deleted
    /// meanwhile are dropped; after a failure the visits are tried again a second later (unless
    /// the store is closing).
    pub(crate) async fn flush_visits(&self) -> Result<()> {
        let crate::Db::Sqlite(readers) = &self.db else { return Ok(()) };
        let _turn = self.write_turn().await;
        let rows: Vec<(i64, i64, Millis, Option<Millis>)> = {
            let mut state = self.visits.state.lock().await;
            let Some(book) = state.as_mut() else { return Ok(()) };
            book.flushing = None;
            let dirty = std::mem::take(&mut book.dirty);
            dirty.into_iter().filter_map(|k| book.visits.get(&k).map(|v| (k.0, k.1, v.0, v.1))).collect()
        };
        if rows.is_empty() {
            return Ok(());
        }
        let json = serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into());
        let written = crate::with_write_pool!(self, |p| sqlx::query(
            "INSERT INTO tracker_visits (tracker_id, user_id, visited_at, previous_at) \
             SELECT json_extract(v.value, '$[0]'), json_extract(v.value, '$[1]'), json_extract(v.value, '$[2]'), \
                    json_extract(v.value, '$[3]') \
             FROM json_each($1) v \
             WHERE EXISTS (SELECT 1 FROM trackers t WHERE t.id = json_extract(v.value, '$[0]')) \
               AND EXISTS (SELECT 1 FROM users u WHERE u.id = json_extract(v.value, '$[1]')) \
             ON CONFLICT (tracker_id, user_id) DO UPDATE SET visited_at = excluded.visited_at, previous_at = excluded.previous_at"
        )
        .bind(json)
        .execute(p)
        .await
        .map(|_| ()));
        if let Err(e) = written {
            let mut state = self.visits.state.lock().await;
            if let Some(book) = state.as_mut() {
                book.dirty.extend(rows.iter().map(|r| (r.0, r.1)));
                if !readers.is_closed() {
                    self.schedule_flush(book);
                }
            }
            return Err(e.into());
        }
        Ok(())
    }
}

/// Shared by the clones of one store.
pub(crate) type Visits = Arc<VisitBook>;
