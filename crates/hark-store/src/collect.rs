//! Collection state: connector settings and collection jobs. A job is leased by one worker at a
//! time (`lease_owner`, `lease_until`); the worker extends the lease with each heartbeat and saves
//! the job's cursor after each page, so another worker (or the same one after a restart) takes
//! over from the last saved page when a lease runs out.

use hark_core::{JobKind, JobState, Millis};

use crate::sealing::connector_seal_name;
use crate::{with_pool, Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConnectorSettingsRow {
    pub connector: String,
    pub enabled: bool,
    pub base_url: Option<String>,
    /// JSON object of field values, secrets included (stored sealed, read in the clear).
    pub config: String,
    pub updated_at: Millis,
    pub check_state: String,
    pub check_message: Option<String>,
    pub checked_at: Option<Millis>,
    pub usage: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CollectionJob {
    pub id: i64,
    pub tracker_id: i64,
    pub connector: String,
    #[sqlx(try_from = "String")]
    pub kind: JobKind,
    #[sqlx(try_from = "String")]
    pub state: JobState,
    pub cursor: String,
    pub range_start: Option<Millis>,
    pub range_end: Option<Millis>,
    pub next_run_at: Millis,
    pub lease_owner: Option<String>,
    pub lease_until: Option<Millis>,
    pub heartbeat_at: Option<Millis>,
    pub attempts: i64,
    pub pages: i64,
    pub posts_collected: i64,
    pub last_collected_at: Option<Millis>,
    pub last_error: Option<String>,
    pub last_error_at: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
}

const JOB_COLUMNS: &str = "id, tracker_id, connector, kind, state, cursor, range_start, range_end, next_run_at, \
     lease_owner, lease_until, heartbeat_at, attempts, pages, posts_collected, last_collected_at, last_error, \
     last_error_at, created_at, updated_at";

/// What a worker reports after a page.
#[derive(Debug, Clone)]
pub struct PageDone<'a> {
    pub cursor: &'a str,
    pub posts: i64,
    /// When the job runs next; `None` keeps it leased to go on at once.
    pub next_run_at: Option<Millis>,
    /// The job has nothing more to do (a finished backfill).
    pub finished: bool,
}

impl Store {
    /// Every connector's settings, their secrets opened.
    pub async fn connector_settings(&self) -> Result<Vec<ConnectorSettingsRow>> {
        let rows = with_pool!(self, |p| sqlx::query_as::<_, ConnectorSettingsRow>(
            "SELECT connector, enabled, base_url, config, updated_at, check_state, check_message, checked_at, usage \
             FROM connector_settings ORDER BY connector"
        )
        .fetch_all(p)
        .await?);
        Ok(rows.into_iter().map(|r| self.opened_connector(r)).collect())
    }

    pub async fn connector_setting(&self, connector: &str) -> Result<Option<ConnectorSettingsRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ConnectorSettingsRow>(
            "SELECT connector, enabled, base_url, config, updated_at, check_state, check_message, checked_at, usage \
             FROM connector_settings WHERE connector = $1"
        )
        .bind(connector)
        .fetch_optional(p)
        .await?)
        .map(|r| self.opened_connector(r)))
    }

    /// A row as read with its values in the clear (none when this server's key cannot open them:
    /// the administrator enters them again).
    fn opened_connector(&self, mut row: ConnectorSettingsRow) -> ConnectorSettingsRow {
        row.config = self.open_setting(&connector_seal_name(&row.connector), &row.config).unwrap_or_else(|| {
            tracing::error!(connector = %row.connector, "the connector's settings cannot be opened with this server's secret key");
            "{}".into()
        });
        row
    }

    /// Saves a connector's settings (sealed when the store has a key); its last check is cleared
    /// since it checked other values.
    pub async fn save_connector_settings(
        &self,
        connector: &str,
        enabled: bool,
        base_url: Option<&str>,
        config: &str,
        now: Millis,
    ) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "INSERT INTO connector_settings (connector, enabled, base_url, config, updated_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (connector) DO UPDATE SET enabled = $2, base_url = $3, config = $4, updated_at = $5, \
             check_state = 'unchecked', check_message = NULL, checked_at = NULL"
        )
        .bind(connector)
        .bind(enabled)
        .bind(base_url)
        .bind(self.seal_setting(&connector_seal_name(connector), config))
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    pub async fn set_connector_check(&self, connector: &str, state: &str, message: Option<&str>, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE connector_settings SET check_state = $2, check_message = $3, checked_at = $4 WHERE connector = $1"
        )
        .bind(connector)
        .bind(state)
        .bind(message)
        .bind(now)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    pub async fn set_connector_usage(&self, connector: &str, usage: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE connector_settings SET usage = $2 WHERE connector = $1")
            .bind(connector)
            .bind(usage)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    /// Makes sure every running tracker has a poll job for each of the given connectors whose
    /// platform it tracks (`connectors`: name and platform bit). Returns the jobs created.
    pub async fn ensure_poll_jobs(&self, connectors: &[(&str, i64)], now: Millis) -> Result<u64> {
        let mut created = 0;
        for (name, bit) in connectors {
            created += with_pool!(self, |p| sqlx::query(
                "INSERT INTO collection_jobs (tracker_id, connector, kind, next_run_at, created_at, updated_at) \
                 SELECT t.id, $1, 'poll', $3, $3, $3 FROM trackers t \
                 WHERE t.status = 'running' AND t.is_demo = $4 AND (t.platforms & $2) <> 0 \
                 AND NOT EXISTS (SELECT 1 FROM collection_jobs j WHERE j.tracker_id = t.id AND j.connector = $1 \
                 AND j.kind = 'poll')"
            )
            .bind(*name)
            .bind(*bit)
            .bind(now)
            .bind(false)
            .execute(p)
            .await?
            .rows_affected());
        }
        Ok(created)
    }

    /// Queues a backfill of a tracker over `[start, end)` with one job per connector.
    pub async fn create_backfill_job(&self, tracker_id: i64, connector: &str, start: Millis, end: Millis, now: Millis) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "INSERT INTO collection_jobs (tracker_id, connector, kind, range_start, range_end, next_run_at, created_at, \
             updated_at) VALUES ($1, $2, 'backfill', $3, $4, $5, $5, $5) RETURNING id"
        )
        .bind(tracker_id)
        .bind(connector)
        .bind(start)
        .bind(end)
        .bind(now)
        .fetch_one(p)
        .await?))
    }

    /// Leases the most overdue job of a running tracker among `connectors` to `owner` until
    /// `lease_until`. A job whose lease has run out (its worker died) is due again.
    pub async fn lease_job(&self, owner: &str, connectors: &[String], now: Millis, lease_until: Millis) -> Result<Option<CollectionJob>> {
        if connectors.is_empty() {
            return Ok(None);
        }
        let _turn = self.write_turn().await;
        let names = serde_json::to_string(connectors).unwrap_or_else(|_| "[]".into());
        let backend = self.backend();
        // SKIP LOCKED (PostgreSQL): workers on other nodes pass over a row being leased instead
        // of waiting.
        let sql = format!(
            "UPDATE collection_jobs SET lease_owner = $1, lease_until = $3, heartbeat_at = $2, updated_at = $2 \
             WHERE id = (SELECT j.id FROM collection_jobs j JOIN trackers t ON t.id = j.tracker_id \
             WHERE j.state = 'active' AND t.status = 'running' AND j.next_run_at <= $2 \
             AND (j.lease_until IS NULL OR j.lease_until < $2) AND j.connector IN ({}) \
             ORDER BY j.next_run_at, j.id LIMIT 1{}) RETURNING {JOB_COLUMNS}",
            backend.text_set("$4"),
            backend.skip_locked("j")
        );
        Ok(crate::with_write_pool!(self, |p| sqlx::query_as::<_, CollectionJob>(&sql)
            .bind(owner)
            .bind(now)
            .bind(lease_until)
            .bind(&names)
            .fetch_optional(p)
            .await?))
    }

    /// Saves a page's progress if `owner` still holds the lease. False means the lease was lost
    /// (taken over after running out) and the worker must stop.
    pub async fn job_page_done(&self, id: i64, owner: &str, done: &PageDone<'_>, now: Millis, lease_until: Millis) -> Result<bool> {
        let state = if done.finished { JobState::Done } else { JobState::Active }.as_str();
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE collection_jobs SET cursor = $3, pages = pages + 1, posts_collected = posts_collected + $4, \
             last_collected_at = $5, heartbeat_at = $5, updated_at = $5, attempts = 0, state = $6, \
             next_run_at = COALESCE($7, next_run_at), \
             lease_owner = CASE WHEN $7 IS NULL AND $6 = 'active' THEN lease_owner ELSE NULL END, \
             lease_until = CASE WHEN $7 IS NULL AND $6 = 'active' THEN $8 ELSE NULL END, \
             last_error = NULL \
             WHERE id = $1 AND lease_owner = $2"
        )
        .bind(id)
        .bind(owner)
        .bind(done.cursor)
        .bind(done.posts)
        .bind(now)
        .bind(state)
        .bind(done.next_run_at)
        .bind(lease_until)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// Records a failed attempt and releases the lease; the job runs again at `retry_at`, or
    /// stops for good (`failed`) when `give_up`.
    pub async fn job_failed(&self, id: i64, owner: &str, error: &str, retry_at: Millis, give_up: bool, now: Millis) -> Result<()> {
        let state = if give_up { JobState::Failed } else { JobState::Active }.as_str();
        with_pool!(self, |p| sqlx::query(
            "UPDATE collection_jobs SET attempts = attempts + 1, last_error = $3, last_error_at = $5, next_run_at = $4, \
             state = $6, lease_owner = NULL, lease_until = NULL, updated_at = $5 WHERE id = $1 AND lease_owner = $2"
        )
        .bind(id)
        .bind(owner)
        .bind(error)
        .bind(retry_at)
        .bind(now)
        .bind(state)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Gives a leased job back untouched (shutdown).
    pub async fn release_job(&self, id: i64, owner: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE collection_jobs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2"
        )
        .bind(id)
        .bind(owner)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Extends a lease while a long page is being processed. False when the lease was lost.
    pub async fn job_heartbeat(&self, id: i64, owner: &str, now: Millis, lease_until: Millis) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE collection_jobs SET heartbeat_at = $3, lease_until = $4 WHERE id = $1 AND lease_owner = $2"
        )
        .bind(id)
        .bind(owner)
        .bind(now)
        .bind(lease_until)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    pub async fn tracker_jobs(&self, tracker_id: i64) -> Result<Vec<CollectionJob>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM collection_jobs WHERE tracker_id = $1 ORDER BY kind DESC, connector, id");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, CollectionJob>(&sql).bind(tracker_id).fetch_all(p).await?))
    }

    pub async fn job_by_id(&self, id: i64) -> Result<Option<CollectionJob>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM collection_jobs WHERE id = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, CollectionJob>(&sql).bind(id).fetch_optional(p).await?))
    }
}

impl Store {
    /// Running trackers that collect from platforms (not the demo, nor those of an account whose
    /// trial has ended): what collected posts are matched against.
    pub async fn collectable_trackers(&self) -> Result<Vec<(i64, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, String)>(
            "SELECT t.id, t.criteria FROM trackers t JOIN users u ON u.id = t.owner_id \
             WHERE t.status = 'running' AND t.is_demo = $1 \
             AND NOT (u.trial AND u.trial_expires IS NOT NULL AND u.trial_expires <= $2) ORDER BY t.id"
        )
        .bind(false)
        .bind(hark_core::now_millis())
        .fetch_all(p)
        .await?))
    }
}

impl Store {
    /// Moves a job's next run (a "collect now" request, or a test skipping a retry delay).
    pub async fn set_job_due(&self, id: i64, at: Millis) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE collection_jobs SET next_run_at = $2, state = CASE WHEN kind = 'poll' THEN 'active' ELSE state END \
             WHERE id = $1"
        )
        .bind(id)
        .bind(at)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }
}

impl Store {
    /// Whether a backfill of the tracker is still collecting.
    pub async fn backfill_active(&self, tracker_id: i64) -> Result<bool> {
        let n: i64 = with_pool!(self, |p| sqlx::query_scalar(
            "SELECT COUNT(*) FROM collection_jobs WHERE tracker_id = $1 AND kind = 'backfill' AND state = 'active'"
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?);
        Ok(n > 0)
    }
}
