//! Stream state of the streaming connectors: one row per connector with its persisted cursor
//! and a lease. One worker holds a stream at a time; it saves the cursor after the batch's posts
//! are stored (so a crash repeats a batch, never skips one) and only while it holds the lease.

use hark_core::Millis;

use crate::{with_pool, Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StreamRow {
    pub connector: String,
    pub cursor: String,
    pub lease_owner: Option<String>,
    pub lease_until: Option<Millis>,
    pub batches: i64,
    pub posts_collected: i64,
    pub last_collected_at: Option<Millis>,
    pub last_error: Option<String>,
    pub last_error_at: Option<Millis>,
    pub updated_at: Millis,
}

const COLUMNS: &str = "connector, cursor, lease_owner, lease_until, batches, posts_collected, last_collected_at, \
     last_error, last_error_at, updated_at";

impl Store {
    /// Takes (or renews) the lease of a connector's stream for `owner` until `lease_until`;
    /// `None` while another worker holds it. The row is created on first use.
    pub async fn lease_stream(&self, connector: &str, owner: &str, now: Millis, lease_until: Millis) -> Result<Option<StreamRow>> {
        let _turn = self.write_turn().await;
        crate::with_write_pool!(self, |p| sqlx::query(
            "INSERT INTO connector_streams (connector, updated_at) VALUES ($1, $2) ON CONFLICT (connector) DO NOTHING"
        )
        .bind(connector)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        let sql = format!(
            "UPDATE connector_streams SET lease_owner = $2, lease_until = $4 WHERE connector = $1 \
             AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until IS NULL OR lease_until < $3) RETURNING {COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, StreamRow>(&sql)
            .bind(connector)
            .bind(owner)
            .bind(now)
            .bind(lease_until)
            .fetch_optional(p)
            .await?))
    }

    /// Saves a batch's cursor if `owner` still holds the lease (false: it was lost).
    pub async fn stream_batch_done(
        &self,
        connector: &str,
        owner: &str,
        cursor: &str,
        posts: i64,
        now: Millis,
        lease_until: Millis,
    ) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE connector_streams SET cursor = $3, batches = batches + 1, posts_collected = posts_collected + $4, \
             last_collected_at = $5, updated_at = $5, lease_until = $6, last_error = NULL \
             WHERE connector = $1 AND lease_owner = $2"
        )
        .bind(connector)
        .bind(owner)
        .bind(cursor)
        .bind(posts)
        .bind(now)
        .bind(lease_until)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// Records a stream failure (the worker keeps its lease and reconnects after a backoff).
    pub async fn stream_failed(&self, connector: &str, owner: &str, error: &str, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE connector_streams SET last_error = $3, last_error_at = $4, updated_at = $4 \
             WHERE connector = $1 AND lease_owner = $2"
        )
        .bind(connector)
        .bind(owner)
        .bind(error)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Gives a stream's lease back (the connector was switched off, or shutdown).
    pub async fn release_stream(&self, connector: &str, owner: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE connector_streams SET lease_owner = NULL, lease_until = NULL WHERE connector = $1 AND lease_owner = $2"
        )
        .bind(connector)
        .bind(owner)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    pub async fn connector_streams(&self) -> Result<Vec<StreamRow>> {
        let sql = format!("SELECT {COLUMNS} FROM connector_streams ORDER BY connector");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, StreamRow>(&sql).fetch_all(p).await?))
    }
}
