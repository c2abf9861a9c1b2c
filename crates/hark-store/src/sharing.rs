//! Sharing a tracker: the hash of its share link, its custom URL and what the link lets an
//! anonymous visitor do (the link-sharing toggles), with the tracker-wide share-exports and
//! unlock-date rights.

use hark_core::Millis;

use crate::{with_pool, Audit, Result, Store};

/// The Share dialog's settings as stored (the toggles stay JSON text; the API decodes them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareSettings {
    /// The shared link's last segment; `None` uses the tracker's friendly name.
    pub custom_url: Option<String>,
    /// `{editDateRange, exportReports, viewPredictions}`.
    pub link_sharing: String,
    pub share_exports: bool,
    pub unlock_date: bool,
}

impl Store {
    /// Stores the Share dialog's settings. A custom URL another tracker uses is a conflict on
    /// `trackers_custom_url_key` and changes nothing (nor writes the audit entry).
    pub async fn set_share_settings(&self, tracker_id: i64, s: &ShareSettings, now: Millis, audit: Option<&Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query(
                "UPDATE trackers SET custom_url = $1, link_sharing = $2, share_exports = $3, unlock_date = $4, updated_at = $5 \
                 WHERE id = $6",
            )
            .bind(&s.custom_url)
            .bind(&s.link_sharing)
            .bind(s.share_exports)
            .bind(s.unlock_date)
            .bind(now)
            .bind(tracker_id)
            .execute(&mut *tx)
            .await?;
        })
    }

    /// The tracker's share hash; `fresh` becomes it when the tracker has none yet (two callers at
    /// once agree on the first).
    pub async fn share_hash(&self, tracker_id: i64, fresh: &str) -> Result<String> {
        with_pool!(self, |p| {
            sqlx::query("UPDATE trackers SET share_hash = $1 WHERE id = $2 AND share_hash IS NULL")
                .bind(fresh)
                .bind(tracker_id)
                .execute(p)
                .await?;
            sqlx::query_scalar::<_, String>("SELECT share_hash FROM trackers WHERE id = $1").bind(tracker_id).fetch_one(p).await
        })
        .map_err(Into::into)
    }

    /// Replaces the share hash: links holding the old one stop working.
    pub async fn replace_share_hash(&self, tracker_id: i64, fresh: &str, now: Millis, audit: Option<&Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query("UPDATE trackers SET share_hash = $1, updated_at = $2 WHERE id = $3")
                .bind(fresh)
                .bind(now)
                .bind(tracker_id)
                .execute(&mut *tx)
                .await?;
        })
    }
}
