//! `/healthz`: what a load balancer or an operator asks of each server. The database is reached
//! (a failure answers 503, so a balancer stops sending to the server), and the background work
//! every server shares is being taken: for each kind of job, how many wait for a worker and for
//! how long. A wait past [`LAG_LIMIT_MS`] makes the status "degraded" (the server still answers
//! pages; no worker anywhere takes the jobs).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use hark_core::{now_millis, Millis};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

/// A wait for a worker longer than this makes the status "degraded": jobs are leased for 20
/// seconds at most, and a collection sweep runs within seconds of its time on a healthy cluster.
pub const LAG_LIMIT_MS: Millis = 300_000;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Healthz {
    /// "ok", "degraded" (a kind of job waits too long) or "down" (the database is out of reach).
    status: &'static str,
    /// The server that answered.
    node: String,
    version: &'static str,
    database: DatabaseCheck,
    nats: NatsCheck,
    /// The background work waiting for a worker; absent when the database is out of reach.
    jobs: Option<Jobs>,
    /// Why the status is not "ok".
    problems: Vec<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseCheck {
    ok: bool,
    /// "sqlite" or "postgres".
    backend: &'static str,
    /// How long a trivial query took, in milliseconds.
    latency_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NatsCheck {
    /// Whether collected posts go through NATS JetStream (`--nats-url`); when not, each server
    /// writes what it collects itself and NATS is not needed.
    configured: bool,
    /// Connected to NATS (true when not configured).
    ok: bool,
    /// Collected posts' messages waiting in the log for an ingest worker, or taken and not
    /// written yet: the ingest lag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<u64>,
    /// Messages this server's ingest workers took again after an earlier delivery since it
    /// started (a server that died holding them, or a batch that failed); absent when not
    /// configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    redelivered: Option<u64>,
}

/// Messages waiting in the ingest log past which the status is "degraded" (about a minute of
/// collection at 5,000 posts a second, in messages of up to 200 posts).
pub const LOG_PENDING_LIMIT: u64 = 1_500;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Jobs {
    collection: JobWait,
    exports: JobWait,
    reanalyses: JobWait,
    deliveries: JobWait,
    /// The longest wait of any kind, in seconds.
    worst_lag_seconds: f64,
    /// The wait past which the status is "degraded", in seconds.
    lag_limit_seconds: f64,
}

/// Jobs of one kind that are due and held by no live worker.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobWait {
    waiting: i64,
    /// How long the oldest has waited past its time, in seconds.
    lag_seconds: f64,
}

impl From<hark_store::Waiting> for JobWait {
    fn from(w: hark_store::Waiting) -> Self {
        JobWait { waiting: w.count, lag_seconds: w.oldest_ms as f64 / 1000.0 }
    }
}

#[utoipa::path(get, path = "/healthz", tag = "session", responses(
    (status = 200, description = "The database answers (status ok or degraded)", body = Healthz),
    (status = 503, description = "The database is out of reach", body = Healthz),
))]
pub async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    let node = state.config.node.clone().unwrap_or_else(|| format!("pid {}", std::process::id()));
    let backend = match state.store.backend() {
        hark_store::Backend::Sqlite => "sqlite",
        hark_store::Backend::Postgres => "postgres",
    };
    let started = std::time::Instant::now();
    let ping = state.store.ping().await;
    let latency_ms = (started.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
    let mut problems = Vec::new();
    let database = DatabaseCheck { ok: ping.is_ok(), backend, latency_ms, error: ping.as_ref().err().map(|e| e.to_string()) };
    let jobs = if database.ok {
        match state.store.job_lag(now_millis()).await {
            Ok(lag) => {
                for (name, w) in [("collection", lag.collection), ("exports", lag.exports), ("reanalyses", lag.reanalyses), ("deliveries", lag.deliveries)] {
                    if w.oldest_ms > LAG_LIMIT_MS {
                        problems.push(format!("{} {name} job(s) waiting, the oldest for {} s", w.count, w.oldest_ms / 1000));
                    }
                }
                Some(Jobs {
                    collection: lag.collection.into(),
                    exports: lag.exports.into(),
                    reanalyses: lag.reanalyses.into(),
                    deliveries: lag.deliveries.into(),
                    worst_lag_seconds: lag.worst_ms() as f64 / 1000.0,
                    lag_limit_seconds: LAG_LIMIT_MS as f64 / 1000.0,
                })
            }
            Err(e) => {
                problems.push(format!("job queues unreadable: {e}"));
                None
            }
        }
    } else {
        problems.push("the database is out of reach".to_string());
        None
    };
    let nats = match &state.config.ingest_log {
        None => NatsCheck { configured: false, ok: true, pending: None, redelivered: None },
        Some(log) => {
            let s = log.state().await;
            if !s.connected {
                problems.push("NATS is out of reach: collected posts cannot be published".to_string());
            } else if let Some(p) = s.pending.filter(|p| *p > LOG_PENDING_LIMIT) {
                problems.push(format!("{p} messages of collected posts waiting in the ingest log"));
            }
            NatsCheck { configured: true, ok: s.connected, pending: s.pending, redelivered: Some(hark_ingest::log::redelivered()) }
        }
    };
    let status = if !database.ok {
        "down"
    } else if problems.is_empty() {
        "ok"
    } else {
        "degraded"
    };
    let code = if database.ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let body = Healthz {
        status,
        node,
        version: env!("CARGO_PKG_VERSION"),
        database,
        nats,
        jobs,
        problems,
    };
    (code, axum::Json(body))
}
