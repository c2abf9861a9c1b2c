use hark_core::Millis;

use crate::{with_pool, Audit, Result, Store};

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

    /// The accounts (not system ones) for the instance administrator, oldest first, with how many
    /// trackers each owns; `search` matches the address or the name (case-insensitively).
    pub async fn accounts(&self, search: &str, limit: i64, offset: i64) -> Result<(Vec<(UserRow, i64)>, i64)> {
        let like = format!("%{}%", search.trim().to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        let filter = "u.is_system = $1 AND (LOWER(u.email) LIKE $2 ESCAPE '\\' OR LOWER(u.name) LIKE $2 ESCAPE '\\')";
        let cols: String = USER_COLUMNS.split(", ").map(|c| format!("u.{}", c.trim())).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT {cols}, (SELECT COUNT(*) FROM trackers t WHERE t.owner_id = u.id) AS owned FROM users u WHERE {filter} \
             ORDER BY u.id LIMIT $3 OFFSET $4"
        );
        let count = format!("SELECT COUNT(*) FROM users u WHERE {filter}");
        with_pool!(self, |p| {
            let rows: Vec<AccountRow> = sqlx::query_as(&sql).bind(false).bind(&like).bind(limit).bind(offset).fetch_all(p).await?;
            let total: i64 = sqlx::query_scalar(&count).bind(false).bind(&like).fetch_one(p).await?;
            Ok((rows.into_iter().map(|r| (r.user, r.owned)).collect(), total))
        })
    }

    /// One account as [`Store::accounts`] lists it.
    pub async fn account(&self, user_id: i64) -> Result<Option<(UserRow, i64)>> {
        let cols: String = USER_COLUMNS.split(", ").map(|c| format!("u.{}", c.trim())).collect::<Vec<_>>().join(", ");
        let sql = format!("SELECT {cols}, (SELECT COUNT(*) FROM trackers t WHERE t.owner_id = u.id) AS owned FROM users u WHERE u.id = $1");
        let row: Option<AccountRow> = with_pool!(self, |p| sqlx::query_as(&sql).bind(user_id).fetch_optional(p).await?);
        Ok(row.map(|r| (r.user, r.owned)))
    }

    /// Sets an account's plan, trial and limits.
    /// Sets an account's plan, trial, limits and administrator right, with the audit entry of
    /// the change (the right given or taken) in the same transaction.
    pub async fn set_account_plan(&self, user_id: i64, a: &AccountPlan, audit: Option<&Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query(
                "UPDATE users SET plan = $1, trial = $2, trial_expires = $3, max_searches = $4, max_ignored = $5, is_admin = $6 \
                 WHERE id = $7",
            )
            .bind(a.plan)
            .bind(a.trial)
            .bind(a.trial_expires)
            .bind(a.max_searches)
            .bind(a.max_ignored)
            .bind(a.is_admin)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        })
    }
}

#[derive(sqlx::FromRow)]
struct AccountRow {
    #[sqlx(flatten)]
    user: UserRow,
    owned: i64,
}

/// What the instance administrator sets on an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountPlan {
    pub plan: i64,
    pub trial: bool,
    pub trial_expires: Option<Millis>,
    pub max_searches: i64,
    pub max_ignored: i64,
    pub is_admin: bool,
}
