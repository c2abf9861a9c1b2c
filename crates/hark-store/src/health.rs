//! What the health endpoint reports of the background work: for each kind of job, how many wait
//! for a worker (due and not held, or held by a worker whose lease ran out) and how long the
//! oldest of them has waited. Every server runs every kind of worker, so a wait that grows means
//! no server is taking the work.

use hark_core::Millis;

use crate::{with_pool, Result, Store};

/// Jobs of one kind waiting for a worker.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub count: i64,
    /// How long the oldest has waited past its time, in milliseconds (0 when none waits).
    pub oldest_ms: Millis,
}

/// The background work waiting for a worker, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobLag {
    /// Collection sweeps and backfills of running trackers on switched-on connectors.
    pub collection: Waiting,
    pub exports: Waiting,
    pub reanalyses: Waiting,
    /// Alert and report messages to send.
    pub deliveries: Waiting,
}

impl JobLag {
    /// The longest wait of any kind.
    pub fn worst_ms(&self) -> Millis {
        [self.collection, self.exports, self.reanalyses, self.deliveries].iter().map(|w| w.oldest_ms).max().unwrap_or(0)
    }
}

impl Store {
    /// The background work waiting for a worker at `now`.
    pub async fn job_lag(&self, now: Millis) -> Result<JobLag> {
        let lag = |row: (i64, Option<Millis>)| Waiting { count: row.0, oldest_ms: row.1.map_or(0, |due| (now - due).max(0)) };
        let free = "(lease_until IS NULL OR lease_until < $1)";
        let collection = "SELECT COUNT(*), MIN(j.next_run_at) FROM collection_jobs j JOIN trackers t ON t.id = j.tracker_id \
             JOIN connector_settings c ON c.connector = j.connector \
             WHERE j.state = 'active' AND t.status = 'running' AND c.enabled AND j.next_run_at <= $1 \
             AND (j.lease_until IS NULL OR j.lease_until < $1)";
        let exports = "SELECT COUNT(*), MIN(CASE WHEN state = 'pending' THEN created_at ELSE lease_until END) FROM export_jobs \
             WHERE state = 'pending' OR (state = 'running' AND lease_until < $1)";
        let reanalyses = format!(
            "SELECT COUNT(*), MIN(COALESCE(lease_until, created_at)) FROM tracker_edits \
             WHERE mode = 'reanalyze' AND applied_at IS NULL AND {free}"
        );
        let deliveries = "SELECT COUNT(*), MIN(CASE WHEN status = 'sending' THEN lease_until ELSE next_attempt_at END) \
             FROM notification_deliveries WHERE (status IN ('pending', 'retrying') AND next_attempt_at <= $1) \
             OR (status = 'sending' AND lease_until < $1)";
        let mut out = [Waiting::default(); 4];
        for (i, sql) in [collection, exports, reanalyses.as_str(), deliveries].into_iter().enumerate() {
            let row: (i64, Option<Millis>) = with_pool!(self, |p| sqlx::query_as(sql).bind(now).fetch_one(p).await?);
            out[i] = lag(row);
        }
        Ok(JobLag { collection: out[0], exports: out[1], reanalyses: out[2], deliveries: out[3] })
    }
}
