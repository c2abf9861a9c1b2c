use hark_core::Millis;

use crate::{with_pool, Result, Store, UserRow};

impl Store {
    /// Stores a session by the SHA-256 of its token; the token itself is never stored.
    pub async fn create_session(&self, token_hash: &str, user_id: i64, now: Millis, expires_at: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)"
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .bind(expires_at)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// The user of a live session.
    pub async fn session_user(&self, token_hash: &str, now: Millis) -> Result<Option<UserRow>> {
        let sql = "SELECT u.id, u.email, u.password_hash, u.name, u.created_at, u.is_admin, u.trial, \
             u.trial_expires, u.subscribed, u.plan, u.max_searches, u.max_ignored, u.allow_facebook, \
             u.allow_tiktok, u.allow_youtube FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND s.expires_at > $2";
        Ok(with_pool!(self, |p| sqlx::query_as::<_, UserRow>(sql)
            .bind(token_hash)
            .bind(now)
            .fetch_optional(p)
            .await?))
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    pub async fn delete_expired_sessions(&self, now: Millis) -> Result<u64> {
        let _turn = self.write_turn().await;
        Ok(crate::with_write_pool!(self, |p| sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(p)
            .await?
            .rows_affected()))
    }
}
