//! The owner's last visit to a tracker's posts (new posts since then are marked).

use hark_core::Millis;

use crate::{with_pool, BeginWrite, Result, Store};

impl Store {
    /// The owner's previous visit to a tracker's posts, and records this one at `now`.
    pub async fn swap_last_visit(&self, tracker_id: i64, user_id: i64, now: Millis) -> Result<Option<Millis>> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let before: Option<i64> =
                sqlx::query_scalar("SELECT visited_at FROM tracker_visits WHERE tracker_id = $1 AND user_id = $2")
                    .bind(tracker_id)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            sqlx::query(
                "INSERT INTO tracker_visits (tracker_id, user_id, visited_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (tracker_id, user_id) DO UPDATE SET visited_at = excluded.visited_at",
            )
            .bind(tracker_id)
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(before)
        })
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
