//! Secrets in settings rows (connector credentials, a tracker's notification settings with their
//! webhook and Slack addresses, webhook signing secrets) are stored sealed
//! with the server's key ([`crate::secrets::SecretKey`]) and read in the clear. A sealed value
//! starts with `sealed:`; a value stored before sealing (or by a store without a key) is read
//! as it is, and [`Store::seal_plain_secrets`] seals such values where they lie.

use crate::secrets::SecretKey;
use crate::{with_pool, Result, Store};

const SEALED: &str = "sealed:";

/// What a connector's settings are sealed for: a sealed value cannot be moved to another row.
pub(crate) fn connector_seal_name(connector: &str) -> String {
    format!("connector:{connector}")
}

pub(crate) fn webhook_seal_name(tracker_id: impl std::fmt::Display) -> String {
    format!("webhook:{tracker_id}")
}

pub(crate) fn notifications_seal_name(tracker_id: impl std::fmt::Display) -> String {
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

/// What [`Store::reseal_secrets`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Resealed {
    /// Values sealed again with the new key (those in the clear included).
    pub resealed: u64,
    /// Values the new key opened already (a run that stopped half-way, done again).
    pub already: u64,
    /// Values neither key opens: left as they are (they read as unset).
    pub unreadable: u64,
}

/// Where sealed values lie: the table's rows as (key as text, value), the update of one row
/// (`$1` the new value, `$2` the key as text, `$3` the value read), what a value is sealed for,
/// and whether a sealed value carries the `sealed:` mark (integration keys are always sealed).
struct Column {
    select: &'static str,
    update: &'static str,
    name: fn(&str) -> String,
    marked: bool,
}

const COLUMNS: [Column; 4] = [
    Column {
        select: "SELECT connector, config FROM connector_settings",
        update: "UPDATE connector_settings SET config = $1 WHERE connector = $2 AND config = $3",
        name: connector_seal_name,
        marked: true,
    },
    Column {
        select: "SELECT CAST(tracker_id AS TEXT), settings FROM notification_settings",
        update: "UPDATE notification_settings SET settings = $1 WHERE CAST(tracker_id AS TEXT) = $2 AND settings = $3",
        name: |id| notifications_seal_name(id),
        marked: true,
    },
    Column {
        select: "SELECT CAST(tracker_id AS TEXT), webhook_secret FROM notification_settings WHERE webhook_secret IS NOT NULL",
        update: "UPDATE notification_settings SET webhook_secret = $1 WHERE CAST(tracker_id AS TEXT) = $2 AND webhook_secret = $3",
        name: |id| webhook_seal_name(id),
        marked: true,
    },
    Column {
        select: "SELECT name, sealed FROM integration_settings WHERE sealed IS NOT NULL",
        update: "UPDATE integration_settings SET sealed = $1 WHERE name = $2 AND sealed = $3",
        name: |name| name.to_string(),
        marked: false,
    },
];

impl Store {
    /// Seals every stored secret again with this store's key, opening it with `old` (rotating
    /// the key; every server must be stopped meanwhile, or run with the new key). Values the
    /// new key opens already are left, so a run that stopped half-way can be run again; values
    /// neither key opens are counted and left. Each row is replaced only if it is still the
    /// value read.
    pub async fn reseal_secrets(&self, old: &SecretKey) -> Result<Resealed> {
        let Some(new) = self.secret_key.clone() else { return Ok(Resealed::default()) };
        let mut done = Resealed::default();
        for column in &COLUMNS {
            let rows: Vec<(String, String)> = with_pool!(self, |p| sqlx::query_as(column.select).fetch_all(p).await?);
            for (key, stored) in rows {
                let name = (column.name)(&key);
                let (sealed, plain_before) = match stored.strip_prefix(SEALED) {
                    Some(s) => (s, false),
                    None if column.marked => (stored.as_str(), true),
                    None => (stored.as_str(), false),
                };
                let plain = if plain_before {
                    stored.as_bytes().to_vec()
                } else if new.open(&name, sealed).is_ok() {
                    done.already += 1;
                    continue;
                } else if let Ok(plain) = old.open(&name, sealed) {
                    plain
                } else {
                    done.unreadable += 1;
                    continue;
                };
                let value = if column.marked { format!("{SEALED}{}", new.seal(&name, &plain)) } else { new.seal(&name, &plain) };
                done.resealed += with_pool!(self, |p| sqlx::query(column.update)
                    .bind(&value)
                    .bind(&key)
                    .bind(&stored)
                    .execute(p)
                    .await?
                    .rows_affected());
            }
        }
        Ok(done)
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
