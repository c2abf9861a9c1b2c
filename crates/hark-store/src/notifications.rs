//! Alerts and periodic reports: each tracker's settings and the alert engine's memory
//! (`notification_settings`), the alerts decided (`notification_events`) and the outbox of
//! messages to send (`notification_deliveries`), which is also the alert history.
//!
//! An engine step (the decisions of one tracker at one moment) is written in one transaction: the
//! new memory, the events and their deliveries, so a decision is never made twice nor lost. A
//! sender leases due deliveries (`lease_owner`, `lease_until`); one whose sender stopped is due
//! again once its lease runs out, so every delivery is sent at least once, and receivers tell a
//! second copy by the delivery's id.

use hark_core::Millis;

use crate::sealing::{notifications_seal_name, webhook_seal_name};
use crate::{with_pool, BeginWrite, Result, Store};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct NotificationRow {
    pub tracker_id: i64,
    /// `hark_core::notify::NotificationSettings` as JSON.
    pub settings: String,
    pub webhook_secret: Option<String>,
    /// The last hour (start) the spike rule judged, and the `at` of its last alert.
    pub spike_checked_hour: Option<Millis>,
    pub spike_last_alert: Option<Millis>,
    pub negative_checked_hour: Option<Millis>,
    pub negative_above: bool,
    pub negative_last_alert: Option<Millis>,
    /// Posts matched up to here were looked at for influencer alerts.
    pub influencer_checked_at: Option<Millis>,
    /// When the waiting alerts of an hourly or daily digest go out.
    pub digest_due_at: Option<Millis>,
    /// The end of the next report's period: when it is due.
    pub report_due_at: Option<Millis>,
    /// Counts engine steps: a step applies only to the version it read (two engines never both
    /// decide the same moment).
    pub engine_version: i64,
    /// Where the web app was last seen from (links in mail when no public URL is configured).
    pub public_base: Option<String>,
    pub updated_at: Millis,
}

const SETTINGS_COLUMNS: &str = "tracker_id, settings, webhook_secret, spike_checked_hour, spike_last_alert, negative_checked_hour, \
     negative_above, negative_last_alert, influencer_checked_at, digest_due_at, report_due_at, engine_version, public_base, updated_at";

/// The engine's memory after a step; every field is written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineMemory {
    pub spike_checked_hour: Option<Millis>,
    pub spike_last_alert: Option<Millis>,
    pub negative_checked_hour: Option<Millis>,
    pub negative_above: bool,
    pub negative_last_alert: Option<Millis>,
    pub influencer_checked_at: Option<Millis>,
    pub digest_due_at: Option<Millis>,
    pub report_due_at: Option<Millis>,
}

impl NotificationRow {
    pub fn memory(&self) -> EngineMemory {
        EngineMemory {
            spike_checked_hour: self.spike_checked_hour,
            spike_last_alert: self.spike_last_alert,
            negative_checked_hour: self.negative_checked_hour,
            negative_above: self.negative_above,
            negative_last_alert: self.negative_last_alert,
            influencer_checked_at: self.influencer_checked_at,
            digest_due_at: self.digest_due_at,
            report_due_at: self.report_due_at,
        }
    }
}

/// An alert decided: kind `spike`, `negative_sentiment` or `influencer`.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventRow {
    pub id: i64,
    pub tracker_id: i64,
    pub kind: String,
    pub subject: String,
    pub reason: String,
    /// The figures that triggered it (JSON).
    pub figures: String,
    pub created_at: Millis,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub kind: &'static str,
    pub subject: String,
    pub reason: String,
    pub figures: String,
}

/// A message to send. `payload` is what the sender renders (JSON); for an alert sent as it
/// happens it names its events, for a digest every event it gathers, for a report its period.
#[derive(Debug, Clone, PartialEq)]
pub struct NewDelivery {
    pub kind: &'static str,
    pub channel: &'static str,
    pub recipient: String,
    pub subject: String,
    pub reason: String,
    pub payload: String,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeliveryRow {
    pub id: i64,
    pub tracker_id: i64,
    pub kind: String,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub reason: String,
    pub payload: String,
    /// pending, sending, sent, retrying or failed.
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: Millis,
    pub lease_owner: Option<String>,
    pub lease_until: Option<Millis>,
    pub last_error: Option<String>,
    pub created_at: Millis,
    pub sent_at: Option<Millis>,
}

const DELIVERY_COLUMNS: &str = "id, tracker_id, kind, channel, recipient, subject, reason, payload, status, attempts, \
     next_attempt_at, lease_owner, lease_until, last_error, created_at, sent_at";

/// One engine step of one tracker: its memory afterwards, the alerts it decided, the messages to
/// send (the events' ids are filled into payloads that say `"events": "new"`), and the waiting
/// events a digest gathered (`queue_through`: every waiting event up to this id).
#[derive(Debug, Clone, Default)]
pub struct EngineStep {
    pub tracker_id: i64,
    /// The row's `engine_version` the step was decided on.
    pub version: i64,
    pub memory: EngineMemory,
    pub events: Vec<NewEvent>,
    /// Set `queued` on the new events (they went out at once in `deliveries`).
    pub events_sent: bool,
    pub deliveries: Vec<NewDelivery>,
    pub queue_through: Option<i64>,
    pub now: Millis,
}

/// One platform's influencer thresholds, in the store's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfluencerRule {
    pub platform: &'static str,
    pub followers: u64,
    pub shares: u64,
    pub likes: u64,
    pub views: u64,
    pub verified: bool,
}

/// Most waiting events one digest gathers.
pub const WAITING_BATCH: usize = 500;

/// A post looked at for influencer alerts.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct InfluencerPost {
    pub post_id: i64,
    pub platform: String,
    pub author_username: String,
    pub author_name: String,
    pub followers: i64,
    pub verified: bool,
    pub shares: i64,
    pub likes: i64,
    pub views: i64,
    pub url: Option<String>,
    pub text: String,
    pub created_at: Millis,
    pub matched_at: Millis,
}

impl Store {
    pub async fn notification_settings(&self, tracker_id: i64) -> Result<Option<NotificationRow>> {
        let sql = format!("SELECT {SETTINGS_COLUMNS} FROM notification_settings WHERE tracker_id = $1");
        let row = with_pool!(self, |p| sqlx::query_as::<_, NotificationRow>(&sql).bind(tracker_id).fetch_optional(p).await?);
        Ok(row.map(|r| self.opened_notifications(r)))
    }

    /// Every tracker's row (the engine's round).
    pub async fn all_notification_settings(&self) -> Result<Vec<NotificationRow>> {
        let sql = format!("SELECT {SETTINGS_COLUMNS} FROM notification_settings ORDER BY tracker_id");
        let rows = with_pool!(self, |p| sqlx::query_as::<_, NotificationRow>(&sql).fetch_all(p).await?);
        Ok(rows.into_iter().map(|r| self.opened_notifications(r)).collect())
    }

    /// A row with its settings (webhook and Slack addresses, recipients) and webhook signing
    /// secret in the clear. Settings this server's key cannot open read as `{}` (the page shows
    /// the defaults, the engine skips the tracker until they are saved again); such a secret as
    /// none (the next save makes a new one).
    fn opened_notifications(&self, mut row: NotificationRow) -> NotificationRow {
        row.settings = self.open_setting(&notifications_seal_name(row.tracker_id), &row.settings).unwrap_or_else(|| {
            tracing::error!(tracker = row.tracker_id, "the notification settings cannot be opened with this server's secret key");
            "{}".into()
        });
        let name = webhook_seal_name(row.tracker_id);
        row.webhook_secret = row.webhook_secret.and_then(|s| self.open_setting(&name, &s));
        row
    }

    /// Trackers without a settings row yet (not the demo's), with their owner's e-mail: the
    /// engine gives them the defaults.
    pub async fn trackers_without_notifications(&self) -> Result<Vec<(i64, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, String)>(
            "SELECT t.id, u.email FROM trackers t JOIN users u ON u.id = t.owner_id \
             WHERE t.is_demo = FALSE AND NOT EXISTS (SELECT 1 FROM notification_settings n WHERE n.tracker_id = t.id) ORDER BY t.id"
        )
        .fetch_all(p)
        .await?))
    }

    /// Saves the settings, creating the row with `memory` when there is none. An existing row
    /// keeps the engine's memory, except the report's and the digest's due times when
    /// `reschedule` (the frequencies changed): a save never moves back a report the engine has
    /// sent meanwhile.
    pub async fn save_notification_settings(
        &self,
        tracker_id: i64,
        settings: &str,
        webhook_secret: Option<&str>,
        memory: &EngineMemory,
        reschedule: bool,
        public_base: Option<&str>,
        now: Millis,
    ) -> Result<NotificationRow> {
        let sql = format!(
            "INSERT INTO notification_settings (tracker_id, settings, webhook_secret, spike_checked_hour, spike_last_alert, \
             negative_checked_hour, negative_above, negative_last_alert, influencer_checked_at, digest_due_at, report_due_at, public_base, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13, $12) \
             ON CONFLICT (tracker_id) DO UPDATE SET settings = $2, webhook_secret = $3, updated_at = $12, \
             report_due_at = CASE WHEN $14 THEN $11 ELSE notification_settings.report_due_at END, \
             digest_due_at = CASE WHEN $14 THEN $10 ELSE notification_settings.digest_due_at END, \
             public_base = COALESCE($13, notification_settings.public_base), engine_version = notification_settings.engine_version + 1 \
             RETURNING {SETTINGS_COLUMNS}"
        );
        let sealed = webhook_secret.map(|s| self.seal_setting(&webhook_seal_name(tracker_id), s));
        let row = with_pool!(self, |p| sqlx::query_as::<_, NotificationRow>(&sql)
            .bind(tracker_id)
            .bind(self.seal_setting(&notifications_seal_name(tracker_id), settings))
            .bind(sealed)
            .bind(memory.spike_checked_hour)
            .bind(memory.spike_last_alert)
            .bind(memory.negative_checked_hour)
            .bind(memory.negative_above)
            .bind(memory.negative_last_alert)
            .bind(memory.influencer_checked_at)
            .bind(memory.digest_due_at)
            .bind(memory.report_due_at)
            .bind(now)
            .bind(public_base)
            .bind(reschedule)
            .fetch_one(p)
            .await?);
        Ok(self.opened_notifications(row))
    }

    /// Creates the row when there is none (a tracker's defaults); an existing row is left as it
    /// is. Returns the row as it now stands.
    pub async fn ensure_notification_settings(
        &self,
        tracker_id: i64,
        settings: &str,
        memory: &EngineMemory,
        public_base: Option<&str>,
        now: Millis,
    ) -> Result<NotificationRow> {
        with_pool!(self, |p| sqlx::query(
            "INSERT INTO notification_settings (tracker_id, settings, spike_checked_hour, negative_checked_hour, \
             influencer_checked_at, report_due_at, public_base, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (tracker_id) DO NOTHING"
        )
        .bind(tracker_id)
        .bind(self.seal_setting(&notifications_seal_name(tracker_id), settings))
        .bind(memory.spike_checked_hour)
        .bind(memory.negative_checked_hour)
        .bind(memory.influencer_checked_at)
        .bind(memory.report_due_at)
        .bind(public_base)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        self.notification_settings(tracker_id).await?.ok_or(crate::StoreError::NotFound)
    }

    /// Counts the tracker's test messages since `since` (a limit on Send test).
    pub async fn recent_tests(&self, tracker_id: i64, since: Millis) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar(
            "SELECT COUNT(*) FROM notification_deliveries WHERE tracker_id = $1 AND kind = 'test' AND created_at >= $2"
        )
        .bind(tracker_id)
        .bind(since)
        .fetch_one(p)
        .await?))
    }

    /// Writes one engine step in one transaction; returns the new events' ids, or `None` when
    /// the row changed since the step read it (another engine, or a save): nothing is written.
    pub async fn save_engine_step(&self, step: &EngineStep) -> Result<Option<Vec<i64>>> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let m = &step.memory;
            let updated = sqlx::query(
                "UPDATE notification_settings SET spike_checked_hour = $2, spike_last_alert = $3, negative_checked_hour = $4, \
                 negative_above = $5, negative_last_alert = $6, influencer_checked_at = $7, digest_due_at = $8, report_due_at = $9, \
                 engine_version = engine_version + 1 WHERE tracker_id = $1 AND engine_version = $10",
            )
            .bind(step.tracker_id)
            .bind(m.spike_checked_hour)
            .bind(m.spike_last_alert)
            .bind(m.negative_checked_hour)
            .bind(m.negative_above)
            .bind(m.negative_last_alert)
            .bind(m.influencer_checked_at)
            .bind(m.digest_due_at)
            .bind(m.report_due_at)
            .bind(step.version)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 0 {
                tx.rollback().await?;
                return Ok(None);
            }
            let mut ids = Vec::with_capacity(step.events.len());
            for e in &step.events {
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO notification_events (tracker_id, kind, subject, reason, figures, created_at, queued) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                )
                .bind(step.tracker_id)
                .bind(e.kind)
                .bind(&e.subject)
                .bind(&e.reason)
                .bind(&e.figures)
                .bind(step.now)
                .bind(step.events_sent)
                .fetch_one(&mut *tx)
                .await?;
                ids.push(id);
            }
            if let Some(through) = step.queue_through {
                sqlx::query("UPDATE notification_events SET queued = $3 WHERE tracker_id = $1 AND id <= $2")
                    .bind(step.tracker_id)
                    .bind(through)
                    .bind(true)
                    .execute(&mut *tx)
                    .await?;
            }
            let ids_json = serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into());
            for d in &step.deliveries {
                let payload = d.payload.replace("\"events\":\"new\"", &format!("\"events\":{ids_json}"));
                sqlx::query(
                    "INSERT INTO notification_deliveries (tracker_id, kind, channel, recipient, subject, reason, payload, status, \
                     next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8)",
                )
                .bind(step.tracker_id)
                .bind(d.kind)
                .bind(d.channel)
                .bind(&d.recipient)
                .bind(&d.subject)
                .bind(&d.reason)
                .bind(&payload)
                .bind(step.now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok::<_, crate::StoreError>(Some(ids))
        })
    }

    /// The events waiting for a digest (not yet queued), oldest first, at most [`WAITING_BATCH`].
    pub async fn waiting_events(&self, tracker_id: i64) -> Result<Vec<EventRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, EventRow>(
            "SELECT id, tracker_id, kind, subject, reason, figures, created_at FROM notification_events \
             WHERE tracker_id = $1 AND queued = $2 ORDER BY id LIMIT 500"
        )
        .bind(tracker_id)
        .bind(false)
        .fetch_all(p)
        .await?))
    }

    pub async fn events_by_ids(&self, tracker_id: i64, ids: &[i64]) -> Result<Vec<EventRow>> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let list = ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        let sql = format!(
            "SELECT id, tracker_id, kind, subject, reason, figures, created_at FROM notification_events \
             WHERE tracker_id = $1 AND id IN ({list}) ORDER BY id"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, EventRow>(&sql).bind(tracker_id).fetch_all(p).await?))
    }

    /// Adds one message to the outbox (a test), due now.
    pub async fn add_delivery(&self, tracker_id: i64, d: &NewDelivery, now: Millis) -> Result<DeliveryRow> {
        let sql = format!(
            "INSERT INTO notification_deliveries (tracker_id, kind, channel, recipient, subject, reason, payload, status, \
             next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8) RETURNING {DELIVERY_COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, DeliveryRow>(&sql)
            .bind(tracker_id)
            .bind(d.kind)
            .bind(d.channel)
            .bind(&d.recipient)
            .bind(&d.subject)
            .bind(&d.reason)
            .bind(&d.payload)
            .bind(now)
            .fetch_one(p)
            .await?))
    }

    pub async fn delivery(&self, id: i64) -> Result<Option<DeliveryRow>> {
        let sql = format!("SELECT {DELIVERY_COLUMNS} FROM notification_deliveries WHERE id = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, DeliveryRow>(&sql).bind(id).fetch_optional(p).await?))
    }

    /// Leases one due delivery: pending or retrying whose time has come, or one whose sender's
    /// lease ran out. `only` leases that one delivery (a test sent at once).
    pub async fn lease_delivery(&self, owner: &str, now: Millis, lease_until: Millis, only: Option<i64>) -> Result<Option<DeliveryRow>> {
        let _turn = self.write_turn().await;
        let backend = self.backend();
        let only = only.map(|id| format!(" AND d.id = {id}")).unwrap_or_default();
        let sql = format!(
            "UPDATE notification_deliveries SET status = 'sending', lease_owner = $1, lease_until = $3, attempts = attempts + 1 \
             WHERE id = (SELECT d.id FROM notification_deliveries d WHERE \
             ((d.status IN ('pending', 'retrying') AND d.next_attempt_at <= $2) OR (d.status = 'sending' AND d.lease_until < $2)){only} \
             ORDER BY d.next_attempt_at, d.id LIMIT 1{}) RETURNING {DELIVERY_COLUMNS}",
            backend.skip_locked("d")
        );
        Ok(crate::with_write_pool!(self, |p| sqlx::query_as::<_, DeliveryRow>(&sql)
            .bind(owner)
            .bind(now)
            .bind(lease_until)
            .fetch_optional(p)
            .await?))
    }

    /// Keeps `owner`'s lease of a delivery being sent until `lease_until`; false when it was lost.
    pub async fn renew_delivery(&self, id: i64, owner: &str, lease_until: Millis) -> Result<bool> {
        self.renew_lease("UPDATE notification_deliveries SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND status = 'sending'", id, owner, lease_until).await
    }

    /// Marks a leased delivery sent; false when the lease was lost meanwhile (the other sender
    /// records it).
    pub async fn delivery_sent(&self, id: i64, owner: &str, now: Millis) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE notification_deliveries SET status = 'sent', sent_at = $3, lease_owner = NULL, lease_until = NULL, last_error = NULL \
             WHERE id = $1 AND lease_owner = $2 AND status = 'sending'"
        )
        .bind(id)
        .bind(owner)
        .bind(now)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// Records a failed try: retried at `retry_at`, or failed for good when `None`.
    pub async fn delivery_failed(&self, id: i64, owner: &str, error: &str, retry_at: Option<Millis>) -> Result<bool> {
        let (status, at) = match retry_at {
            Some(at) => ("retrying", at),
            None => ("failed", 0),
        };
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE notification_deliveries SET status = $3, last_error = $4, \
             next_attempt_at = CASE WHEN $5 > 0 THEN $5 ELSE next_attempt_at END, lease_owner = NULL, lease_until = NULL \
             WHERE id = $1 AND lease_owner = $2 AND status = 'sending'"
        )
        .bind(id)
        .bind(owner)
        .bind(status)
        .bind(error)
        .bind(at)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// The tracker's deliveries, newest first, and how many there are.
    pub async fn delivery_history(&self, tracker_id: i64, page: i64, per_page: i64) -> Result<(Vec<DeliveryRow>, i64)> {
        let sql = format!(
            "SELECT {DELIVERY_COLUMNS} FROM notification_deliveries WHERE tracker_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3"
        );
        let offset = (page.max(1) - 1).saturating_mul(per_page);
        let rows = with_pool!(self, |p| sqlx::query_as::<_, DeliveryRow>(&sql)
            .bind(tracker_id)
            .bind(per_page)
            .bind(offset)
            .fetch_all(p)
            .await?);
        let total: i64 = with_pool!(self, |p| sqlx::query_scalar("SELECT COUNT(*) FROM notification_deliveries WHERE tracker_id = $1")
            .bind(tracker_id)
            .fetch_one(p)
            .await?);
        Ok((rows, total))
    }

    /// Posts per hour over `[from, to)` (hour starts), every platform, from the hourly rollups.
    pub async fn hourly_post_counts(&self, tracker_id: i64, from: Millis, to: Millis) -> Result<Vec<(Millis, i64)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, i64)>(
            "SELECT hour, CAST(SUM(posts) AS BIGINT) FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour < $3 \
             GROUP BY hour ORDER BY hour"
        )
        .bind(tracker_id)
        .bind(from)
        .bind(to)
        .fetch_all(p)
        .await?))
    }

    /// The first hour with posts, if any.
    pub async fn first_post_hour(&self, tracker_id: i64) -> Result<Option<Millis>> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, Option<i64>>("SELECT MIN(hour) FROM rollup_hourly WHERE tracker_id = $1")
            .bind(tracker_id)
            .fetch_one(p)
            .await?))
    }

    /// Posts and negative posts (negative or slightly negative, after the tracker's own edits)
    /// created in `[from, to)`.
    pub async fn negative_counts(&self, tracker_id: i64, from: Millis, to: Millis) -> Result<(i64, i64)> {
        let sql = format!(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN tp.bucket IN ('negative', 'slight_negative') THEN 1 ELSE 0 END), 0) \
             FROM tracker_posts tp WHERE tp.tracker_id = $1 AND tp.created_at >= $2 AND tp.created_at < $3 AND {}",
            self.backend().live_link("tp")
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, i64)>(&sql)
        .bind(tracker_id)
        .bind(from)
        .bind(to)
        .fetch_one(p)
        .await?))
    }

    /// Live posts matched in `(after, until]` and created since `created_from` (the time index
    /// bounds the scan) that pass one of `rules` — (platform's stored name, followers, shares,
    /// likes, views, verified), a 0 or false leaving that figure out — oldest match first, at most
    /// `limit`.
    pub async fn influencer_alert_posts(
        &self,
        tracker_id: i64,
        rules: &[InfluencerRule],
        after: Millis,
        until: Millis,
        created_from: Millis,
        limit: i64,
    ) -> Result<Vec<InfluencerPost>> {
        let mut any = vec![];
        for r in rules {
            let mut past = vec![];
            for (column, min) in [("p.author_followers", r.followers), ("p.shares", r.shares), ("p.likes", r.likes), ("p.views", r.views)] {
                if min > 0 {
                    past.push(format!("{column} >= {min}"));
                }
            }
            if r.verified {
                past.push("p.author_verified = TRUE".to_string());
            }
            if !past.is_empty() {
                let platform = r.platform.replace('\'', "");
                any.push(format!("(tp.platform = '{platform}' AND ({}))", past.join(" OR ")));
            }
        }
        if any.is_empty() {
            return Ok(vec![]);
        }
        let sql = format!(
            "SELECT p.id AS post_id, p.platform, p.author_username, p.author_name, p.author_followers AS followers, \
             p.author_verified AS verified, p.shares, p.likes, p.views, p.url, p.text, p.created_at, tp.matched_at \
             FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
             WHERE tp.tracker_id = $1 AND tp.created_at >= $4 AND tp.matched_at > $2 AND tp.matched_at <= $3 AND {} AND ({}) \
             ORDER BY tp.matched_at, p.id LIMIT $5",
            self.backend().live_link("tp"),
            any.join(" OR ")
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, InfluencerPost>(&sql)
            .bind(tracker_id)
            .bind(after)
            .bind(until)
            .bind(created_from)
            .bind(limit)
            .fetch_all(p)
            .await?))
    }
}
