//! Integrations an instance administrator sets up, such as the Google Sheets service account:
//! what may be shown (`public`, JSON) and the secret, stored sealed by the API's key. The store
//! keeps the sealed text as given; it never sees the secret.

use hark_core::Millis;

use crate::{with_pool, Result, Store};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct IntegrationRow {
    pub name: String,
    /// JSON object of what may be shown (an account's e-mail, a base URL).
    pub public: String,
    /// The secret, sealed (none once removed).
    pub sealed: Option<String>,
    /// unchecked, ok or failed.
    pub check_state: String,
    pub check_message: Option<String>,
    pub checked_at: Option<Millis>,
    pub updated_at: Millis,
}

impl Store {
    pub async fn integration(&self, name: &str) -> Result<Option<IntegrationRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, IntegrationRow>(
            "SELECT name, public, sealed, check_state, check_message, checked_at, updated_at \
             FROM integration_settings WHERE name = $1"
        )
        .bind(name)
        .fetch_optional(p)
        .await?))
    }

    /// Saves an integration; its last check is cleared since it checked other values.
    pub async fn save_integration(&self, name: &str, public: &str, sealed: Option<&str>, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "INSERT INTO integration_settings (name, public, sealed, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO UPDATE SET public = $2, sealed = $3, updated_at = $4, \
             check_state = 'unchecked', check_message = NULL, checked_at = NULL"
        )
        .bind(name)
        .bind(public)
        .bind(sealed)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    pub async fn set_integration_check(&self, name: &str, state: &str, message: Option<&str>, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE integration_settings SET check_state = $2, check_message = $3, checked_at = $4 WHERE name = $1"
        )
        .bind(name)
        .bind(state)
        .bind(message)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Removes an integration; true when there was one.
    pub async fn remove_integration(&self, name: &str) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query("DELETE FROM integration_settings WHERE name = $1")
            .bind(name)
            .execute(p)
            .await?
            .rows_affected());
        Ok(n > 0)
    }
}
