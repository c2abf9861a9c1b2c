use hark_core::Millis;

use crate::{with_pool, Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub name: String,
    pub created_at: Millis,
    pub is_admin: bool,
    pub trial: bool,
    pub trial_expires: Option<Millis>,
    pub subscribed: bool,
    pub plan: i64,
    pub max_searches: i64,
    pub max_ignored: i64,
    pub allow_facebook: bool,
    pub allow_tiktok: bool,
    pub allow_youtube: bool,
}

#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub password_hash: String,
    pub name: String,
    pub is_admin: bool,
    pub trial: bool,
    pub trial_expires: Option<Millis>,
    pub plan: i64,
    pub max_searches: i64,
    pub max_ignored: i64,
}

const USER_COLUMNS: &str = "id, email, password_hash, name, created_at, is_admin, trial, trial_expires, \
     subscribed, plan, max_searches, max_ignored, allow_facebook, allow_tiktok, allow_youtube";

impl Store {
    pub async fn count_users(&self) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users WHERE is_system = $1")
            .bind(false)
            .fetch_one(p)
            .await?))
    }

    /// Inserts a user; the email is stored lowercased. A taken email is a conflict on
    /// `users_email_key`.
    pub async fn create_user(&self, u: &NewUser, now: Millis) -> Result<UserRow> {
        self.insert_user(u, now, false).await?.ok_or(crate::StoreError::NotFound)
    }

    /// Creates the first account only while no account exists, atomically.
    pub async fn create_first_user(&self, u: &NewUser, now: Millis) -> Result<Option<UserRow>> {
        self.insert_user(u, now, true).await
    }

    /// The insert behind both: with `first_only`, nothing is written once a (non-system) account
    /// exists.
    async fn insert_user(&self, u: &NewUser, now: Millis, first_only: bool) -> Result<Option<UserRow>> {
        let sql = format!(
            "INSERT INTO users (email, password_hash, name, created_at, is_admin, trial, trial_expires, plan, \
             max_searches, max_ignored) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 \
             WHERE $11 OR NOT EXISTS (SELECT 1 FROM users WHERE is_system = $12) RETURNING {USER_COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(u.email.trim().to_lowercase())
            .bind(&u.password_hash)
            .bind(&u.name)
            .bind(now)
            .bind(u.is_admin)
            .bind(u.trial)
            .bind(u.trial_expires)
            .bind(u.plan)
            .bind(u.max_searches)
            .bind(u.max_ignored)
            .bind(!first_only)
            .bind(false)
            .fetch_optional(p)
            .await?))
    }

    /// An account Hark owns (the demo tracker's): it cannot sign in and does not count as the
    /// instance being set up. Returns the existing one when the email is taken.
    pub async fn system_user(&self, email: &str, name: &str, now: Millis) -> Result<UserRow> {
        if let Some(u) = self.user_by_email(email).await? {
            return Ok(u);
        }
        let sql = format!(
            "INSERT INTO users (email, password_hash, name, created_at, is_system, plan, max_searches, max_ignored) \
             VALUES ($1, '!', $2, $3, $4, 100, 5, 50) RETURNING {USER_COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(email.trim().to_lowercase())
            .bind(name)
            .bind(now)
            .bind(true)
            .fetch_one(p)
            .await?))
    }

    pub async fn user_by_email(&self, email: &str) -> Result<Option<UserRow>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, UserRow>(&sql)
            .bind(email.trim().to_lowercase())
            .fetch_optional(p)
            .await?))
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<UserRow>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, UserRow>(&sql).bind(id).fetch_optional(p).await?))
    }

    pub async fn set_password(&self, user_id: i64, password_hash: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(user_id)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    /// Puts an account on a trial ending at `expires` (or none), or takes it off.
    pub async fn set_trial(&self, user_id: i64, trial: bool, expires: Option<Millis>) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE users SET trial = $1, trial_expires = $2 WHERE id = $3")
            .bind(trial)
            .bind(expires)
            .bind(user_id)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }
}
