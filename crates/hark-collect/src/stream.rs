//! Streaming connectors: one connection carries the posts of every tracker (Bluesky's Jetstream,
//! the X filtered stream). A [`StreamWorker`] leases the connector's stream row (one worker of
//! the cluster at a time), reads a batch for a short window, hands the posts to the ingest
//! pipeline (which keeps those that match a running tracker) and then saves the batch's cursor
//! under the lease. A worker killed between the two repeats the batch after a restart (Jetstream
//! replays from the saved cursor); the store keeps one copy of each post.
//!
//! Failures reconnect with the backoff X documents for its stream: linear for network errors,
//! exponential for HTTP errors, exponential from a minute for rate limits.

use std::sync::Arc;
use std::time::Duration;

use hark_core::{now_millis, Millis, Post};
use hark_ingest::pipeline::{ingest_with, Matcher};
use hark_store::Store;
use serde_json::Value;
use tokio::sync::watch;

use crate::{BoxFuture, CollectError, ConnectorKind, TrackerQuery};

/// What one read of a stream brought.
#[derive(Debug, Clone)]
pub struct Batch {
    pub posts: Vec<Post>,
    /// Saved once the posts are stored; the next read (or a restart) continues from it.
    pub cursor: Value,
}

/// A connector that reads one stream for every tracker.
pub trait StreamConnector: Send + Sync {
    fn kind(&self) -> ConnectorKind;

    /// Brings what the server filters by in line with the running trackers (X's stream rules).
    fn sync<'a>(&'a self, _trackers: &'a [TrackerQuery]) -> BoxFuture<'a, Result<(), CollectError>> {
        Box::pin(async { Ok(()) })
    }

    /// Reads what arrives after `cursor` for up to `window`. The connection stays open between
    /// calls that continue from the cursor the previous one returned; any other cursor (a batch
    /// that was not saved) reconnects from it.
    fn next<'a>(&'a self, cursor: &'a Value, window: Duration) -> BoxFuture<'a, Result<Batch, CollectError>>;

    /// Proves the settings work; says what it saw.
    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>>;
}

/// Reconnection delays, after X's filtered-stream guidance.
#[derive(Debug, Clone)]
pub struct StreamBackoff {
    /// Network errors: this much more each attempt…
    pub network_step: Duration,
    /// …up to this.
    pub network_max: Duration,
    /// HTTP errors: from this, doubling…
    pub http_start: Duration,
    pub http_max: Duration,
    /// Rate limits (429): from this, doubling.
    pub rate_start: Duration,
    pub rate_max: Duration,
}

impl Default for StreamBackoff {
    fn default() -> Self {
        Self {
            network_step: Duration::from_millis(250),
            network_max: Duration::from_secs(16),
            http_start: Duration::from_secs(5),
            http_max: Duration::from_secs(320),
            rate_start: Duration::from_secs(60),
            rate_max: Duration::from_secs(960),
        }
    }
}

impl StreamBackoff {
    /// Short delays for tests against local fakes.
    pub fn fast() -> Self {
        Self {
            network_step: Duration::from_millis(5),
            network_max: Duration::from_millis(50),
            http_start: Duration::from_millis(10),
            http_max: Duration::from_millis(80),
            rate_start: Duration::from_millis(20),
            rate_max: Duration::from_millis(160),
        }
    }

    /// The wait before reconnection attempt `attempt` (1 for the first) after `err`.
    pub fn wait(&self, err: &CollectError, attempt: u32) -> Duration {
        let n = attempt.max(1);
        let doubling = |start: Duration, max: Duration| start.saturating_mul(1u32 << (n - 1).min(16)).min(max);
        match err {
            CollectError::Network(_) | CollectError::Payload(_) | CollectError::Store(_) | CollectError::Ingest(_) => self.network_step.saturating_mul(n).min(self.network_max),
            CollectError::RateLimited { wait } | CollectError::Quota { wait, .. } => {
                doubling(self.rate_start, self.rate_max).max(*wait)
            }
            CollectError::Http { .. } | CollectError::Auth(_) | CollectError::NotConfigured(_) => {
                doubling(self.http_start, self.http_max)
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct StreamConfig {
    pub owner: String,
    pub lease: Duration,
    /// How long one batch reads before its posts are stored and the cursor saved.
    pub window: Duration,
    /// A cluster's ingest log: the batch's posts are published to it instead of written here.
    pub log: Option<Arc<hark_ingest::log::IngestLog>>,
    /// Sleep while another worker holds the stream.
    pub idle: Duration,
    pub backoff: StreamBackoff,
}

impl Default for StreamConfig {
    fn default() -> Self {
        Self {
            owner: format!("node-{}-{:08x}", std::process::id(), rand::random::<u32>()),
            // Renewed with each batch only (a read, a rules sync and a write can take a while): a
            // stopped server's stream moves on within this.
            lease: Duration::from_secs(120),
            window: Duration::from_secs(2),
            log: None,
            idle: Duration::from_secs(5),
            backoff: StreamBackoff::default(),
        }
    }
}

/// The running trackers a stream serves: compiled for matching, and as queries for rule sync.
#[derive(Clone, Default)]
pub struct Targets {
    pub matcher: Option<Arc<Matcher>>,
    pub trackers: Vec<TrackerQuery>,
    /// Changes whenever the trackers do.
    pub version: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepOutcome {
    /// A batch was stored and its cursor saved.
    Batch { posts: usize },
    /// Another worker holds the stream (or no tracker is compiled yet).
    Waiting,
    /// The lease was lost before the cursor could be saved: the batch will be read again.
    LeaseLost,
    /// Reading failed; reconnect after `wait`.
    Failed { error: String, wait: Duration },
}

pub struct StreamWorker {
    store: Store,
    connector: Arc<dyn StreamConnector>,
    cfg: StreamConfig,
    synced: Option<u64>,
    /// Failures in a row of the same kind (each kind has its own backoff).
    failures: u32,
    last_failure: Option<std::mem::Discriminant<CollectError>>,
}

impl StreamWorker {
    pub fn new(store: Store, connector: Arc<dyn StreamConnector>, cfg: StreamConfig) -> Self {
        Self { store, connector, cfg, synced: None, failures: 0, last_failure: None }
    }

    fn name(&self) -> &'static str {
        self.connector.kind().name()
    }

    fn lease_ms(&self) -> Millis {
        self.cfg.lease.as_millis() as Millis
    }

    /// Leases the stream, reads one batch, stores it, saves the cursor.
    pub async fn step(&mut self, targets: &Targets) -> StepOutcome {
        let Some(matcher) = targets.matcher.clone() else { return StepOutcome::Waiting };
        let now = now_millis();
        let row = match self.store.lease_stream(self.name(), &self.cfg.owner, now, now + self.lease_ms()).await {
            Ok(Some(row)) => row,
            Ok(None) => return StepOutcome::Waiting,
            Err(e) => return self.failed(CollectError::from(e)).await,
        };
        let platforms = self.connector.kind().platform_bits();
        if self.synced != Some(targets.version) {
            let mine: Vec<TrackerQuery> =
                targets.trackers.iter().filter(|q| q.platforms.bits() & platforms != 0).cloned().collect();
            if let Err(e) = self.connector.sync(&mine).await {
                return self.failed(e).await;
            }
            self.synced = Some(targets.version);
        }
        let cursor: Value = serde_json::from_str(&row.cursor).unwrap_or_else(|_| Value::Object(Default::default()));
        let batch = match self.connector.next(&cursor, self.cfg.window).await {
            Ok(b) => b,
            Err(e) => return self.failed(e).await,
        };
        let n = batch.posts.len();
        // Posts first, cursor after: a crash in between repeats the batch, never skips it.
        let written = match &self.cfg.log {
            Some(log) => log.publish(None, batch.posts).await.map_err(|e| CollectError::Network(e.to_string())),
            None => ingest_with(&self.store, matcher, batch.posts, now_millis()).await.map(|_| ()).map_err(CollectError::from),
        };
        if let Err(e) = written {
            return self.failed(e).await;
        }
        let now = now_millis();
        match self
            .store
            .stream_batch_done(self.name(), &self.cfg.owner, &batch.cursor.to_string(), n as i64, now, now + self.lease_ms())
            .await
        {
            Ok(true) => {
                self.failures = 0;
                self.last_failure = None;
                StepOutcome::Batch { posts: n }
            }
            Ok(false) => StepOutcome::LeaseLost,
            Err(e) => self.failed(CollectError::from(e)).await,
        }
    }

    async fn failed(&mut self, e: CollectError) -> StepOutcome {
        let kind = std::mem::discriminant(&e);
        if self.last_failure != Some(kind) {
            self.failures = 0;
            self.last_failure = Some(kind);
        }
        self.failures += 1;
        let wait = self.cfg.backoff.wait(&e, self.failures);
        let error = e.to_string();
        tracing::warn!(connector = self.name(), error = %error, wait_ms = wait.as_millis() as u64, "stream failed; reconnecting");
        if let Err(se) = self.store.stream_failed(self.name(), &self.cfg.owner, &error, now_millis()).await {
            tracing::warn!(error = %se, "could not record a stream failure");
        }
        StepOutcome::Failed { error, wait }
    }

    /// Reads until the task is aborted, following `targets`.
    pub async fn run(mut self, mut targets: watch::Receiver<Targets>) {
        loop {
            let current = targets.borrow_and_update().clone();
            let pause = match self.step(&current).await {
                StepOutcome::Batch { .. } => None,
                StepOutcome::LeaseLost | StepOutcome::Waiting => Some(self.cfg.idle),
                StepOutcome::Failed { wait, .. } => Some(wait),
            };
            if let Some(p) = pause {
                tokio::select! {
                    _ = tokio::time::sleep(p) => {}
                    changed = targets.changed() => if changed.is_err() { return },
                }
            }
        }
    }
}

/// Builds the stream connector a settings row describes, when the connector so configured
/// streams.
pub fn build_stream(
    kind: ConnectorKind,
    config: &crate::ConnectorConfig,
    http: crate::Http,
) -> Option<Result<Arc<dyn StreamConnector>, CollectError>> {
    if !kind.is_stream(config) {
        return None;
    }
    if let Err(e) = config.require(kind) {
        return Some(Err(e));
    }
    let c = config.clone();
    Some(Ok(match kind {
        ConnectorKind::Bluesky => Arc::new(crate::bluesky::Bluesky::new(c)),
        ConnectorKind::Twitter => Arc::new(crate::twitter_stream::TwitterStream::new(c, http)),
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_follows_the_error_kind() {
        let b = StreamBackoff::default();
        let net = CollectError::Network("reset".into());
        assert_eq!(b.wait(&net, 1), Duration::from_millis(250));
        assert_eq!(b.wait(&net, 3), Duration::from_millis(750));
        assert_eq!(b.wait(&net, 500), Duration::from_secs(16));
        let http = CollectError::Http { status: 503, message: String::new() };
        assert_eq!(b.wait(&http, 1), Duration::from_secs(5));
        assert_eq!(b.wait(&http, 3), Duration::from_secs(20));
        assert_eq!(b.wait(&http, 30), Duration::from_secs(320));
        let rate = CollectError::RateLimited { wait: Duration::from_secs(1) };
        assert_eq!(b.wait(&rate, 1), Duration::from_secs(60));
        assert_eq!(b.wait(&rate, 2), Duration::from_secs(120));
        let long = CollectError::RateLimited { wait: Duration::from_secs(900) };
        assert_eq!(b.wait(&long, 1), Duration::from_secs(900));
    }
}
