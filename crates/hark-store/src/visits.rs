//! The owner's last visit to a tracker's posts (new posts since then are marked).

use hark_core::Millis;

use crate::{with_pool, Result, Store};

impl Store {
    /// The owner's previous visit to a tracker's posts, and records this one at `now`.
    ///
    /// One statement: the upsert moves the stored visit to `previous_at` and returns it. The posts
    /// page records a visit with every first page it shows, so under many readers these writes
    /// are frequent; as a transaction of a read and a write they took four turns on the write
    /// connection each, while the imports waited behind them.
    pub async fn swap_last_visit(&self, tracker_id: i64, user_id: i64, now: Millis) -> Result<Option<Millis>> {
        let _turn = self.write_turn().await;
        Ok(crate::with_write_pool!(self, |p| sqlx::query_scalar::<_, Option<i64>>(
            "INSERT INTO tracker_visits (tracker_id, user_id, visited_at, previous_at) VALUES ($1, $2, $3, NULL) \
             ON CONFLICT (tracker_id, user_id) DO UPDATE SET previous_at = tracker_visits.visited_at, visited_at = excluded.visited_at \
             RETURNING previous_at"
        )
        .bind(tracker_id)
        .bind(user_id)
        .bind(now)
        .fetch_one(p)
        .await?))
    }

    /// The owner's last recorded visit, without recording one.
    pub async fn last_visit(&self, tracker_id: i64, user_id: i64) -> Result<Option<Millis>> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT visited_at FROM tracker_visits WHERE tracker_id = $1 AND user_id = $2"
        )
        .bind(tracker_id)
        .bind(user_id)
        .fetch_optional(p)
        .await?))
    }
}
