//! Secrets in settings rows (connector credentials, a tracker's notification settings with their
//! webhook and Slack addresses, webhook signing secrets) are stored sealed
//! with the server's key ([`crate::secrets::SecretKey`]) and read in the clear. A sealed value
//! starts with `sealed:`; a value stored before sealing (or by a store without a key) is read
//! as it is, and [`Store::seal_plain_secrets`] seals such values where they lie.

use crate::{with_pool, Result, Store};

const SEALED: &str = "sealed:";

/// What a connector's settings are sealed for: a sealed value cannot be moved to another row.
pub(crate) fn connector_seal_name(connector: &str) -> String {
    format!("connector:{connector}")
}

pub(crate) fn webhook_seal_name(tracker_id: i64) -> String {
    format!("webhook:{tracker_id}")
}

pub(crate) fn notifications_seal_name(tracker_id: i64) -> String {
    format!("notifications:{tracker_id}")
}

impl Store {
    /// `plain` as it is stored: sealed for `name` when the store has a key.
    pub(crate) fn seal_setting(&self, name: &str, plain: &str) -> String {
        match &self.secret_key {
            Some(key) => format!("{SEALED}{}", key.seal(name, plain.as_bytes())),
            None => plain.to_string(),
        }
    }

    /// A stored value in the clear: a sealed one opened (none when this store's key cannot open
    /// it), one stored unsealed as it is.
    pub(crate) fn open_setting(&self, name: &str, stored: &str) -> Option<String> {
        let Some(sealed) = stored.strip_prefix(SEALED) else { return Some(stored.to_string()) };
        let plain = self.secret_key.as_ref()?.open(name, sealed).ok()?;
        String::from_utf8(plain).ok()
    }

    /// Seals every connector setting, notification setting and webhook secret still stored in the
    /// clear (rows written
    /// before secrets were sealed); returns how many. Each row is replaced only if it is still
    /// the value read, so servers doing it at once (or a save meanwhile) lose nothing. Nothing
    /// is done without a key.
    pub async fn seal_plain_secrets(&self) -> Result<u64> {
        if self.secret_key.is_none() {
            return Ok(0);
        }
        let mut sealed = 0;
        let connectors: Vec<(String, String)> = with_pool!(self, |p| sqlx::query_as(
            "SELECT connector, config FROM connector_settings WHERE config NOT LIKE 'sealed:%'"
        )
        .fetch_all(p)
        .await?);
        for (connector, config) in connectors {
            let value = self.seal_setting(&connector_seal_name(&connector), &config);
            sealed += with_pool!(self, |p| sqlx::query("UPDATE connector_settings SET config = $1 WHERE connector = $2 AND config = $3")
                .bind(&value)
                .bind(&connector)
                .bind(&config)
                .execute(p)
                .await?
                .rows_affected());
        }
        let notifications: Vec<(i64, String)> = with_pool!(self, |p| sqlx::query_as(
            "SELECT tracker_id, settings FROM notification_settings WHERE settings NOT LIKE 'sealed:%'"
        )
        .fetch_all(p)
        .await?);
        for (tracker_id, settings) in notifications {
            let value = self.seal_setting(&notifications_seal_name(tracker_id), &settings);
            sealed += with_pool!(self, |p| sqlx::query(
                "UPDATE notification_settings SET settings = $1 WHERE tracker_id = $2 AND settings = $3"
            )
            .bind(&value)
            .bind(tracker_id)
            .bind(&settings)
            .execute(p)
            .await?
            .rows_affected());
        }
        let webhooks: Vec<(i64, String)> = with_pool!(self, |p| sqlx::query_as(
            "SELECT tracker_id, webhook_secret FROM notification_settings \
             WHERE webhook_secret IS NOT NULL AND webhook_secret NOT LIKE 'sealed:%'"
        )
        .fetch_all(p)
        .await?);
        for (tracker_id, secret) in webhooks {
            let value = self.seal_setting(&webhook_seal_name(tracker_id), &secret);
            sealed += with_pool!(self, |p| sqlx::query(
                "UPDATE notification_settings SET webhook_secret = $1 WHERE tracker_id = $2 AND webhook_secret = $3"
            )
            .bind(&value)
            .bind(tracker_id)
            .bind(&secret)
            .execute(p)
            .await?
            .rows_affected());
        }
        Ok(sealed)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::secrets::SecretKey;
    use crate::Store;

    #[tokio::test]
    async fn values_are_sealed_with_the_key_and_plain_ones_still_read() {
        let plain = Store::connect("sqlite::memory:").await.unwrap();
        let keyed = plain.clone().with_secret_key(Arc::new(SecretKey::random()));
        let stored = keyed.seal_setting("connector:reddit", r#"{"client_secret":"s3cret"}"#);
        assert!(stored.starts_with("sealed:") && !stored.contains("s3cret"), "{stored}");
        assert_eq!(keyed.open_setting("connector:reddit", &stored).as_deref(), Some(r#"{"client_secret":"s3cret"}"#));
        // Sealed for another row, or read without the key: not opened.
        assert_eq!(keyed.open_setting("connector:tiktok", &stored), None);
        assert_eq!(plain.open_setting("connector:reddit", &stored), None);
        let other = plain.clone().with_secret_key(Arc::new(SecretKey::random()));
        assert_eq!(other.open_setting("connector:reddit", &stored), None);
        // A value from before sealing reads as it is; a store without a key stores as given.
        assert_eq!(keyed.open_setting("connector:reddit", "{}").as_deref(), Some("{}"));
        assert_eq!(plain.seal_setting("webhook:1", "abc"), "abc");
    }
}
