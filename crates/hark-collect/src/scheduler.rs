//! The collection scheduler. Every running tracker gets a poll job per enabled connector of a
//! platform it tracks; backfill jobs are queued on request. A worker leases the most overdue
//! job from the database (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so several nodes can share
//! the work), keeps the lease alive with heartbeats while it fetches, ingests each page and then
//! saves the page's cursor under the lease. A worker that dies leaves its lease to run out; the
//! next worker resumes from the last saved cursor. Failures are retried with backoff and shown
//! on the tracker's settings page (last collected, next run, last error).
//!
//! Streaming connectors (Bluesky, X in filtered-stream mode) have no per-tracker jobs: each
//! switched-on one runs a [`StreamWorker`] task that follows the running trackers through a
//! watch channel the refresh updates.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use hark_core::{now_millis, JobKind, Millis, TrackerCriteria, TrackerStatus};
use hark_ingest::log::IngestLog;
use hark_ingest::pipeline::{compile, ingest_searched, Matcher};
use hark_store::{hold_lease, CollectionJob, Held, PageDone, Store};

use crate::stream::{build_stream, StreamConfig, StreamWorker, Targets};
use crate::{build, config_from_row, CollectError, Connector, ConnectorKind, Http, RetryPolicy, TrackerQuery};

#[derive(Debug, Clone)]
pub struct SchedulerConfig {
    /// Names this worker in leases.
    pub owner: String,
    /// Time between two sweeps of a poll job.
    pub poll_interval: Duration,
    /// How long a lease lasts without a heartbeat.
    pub lease: Duration,
    /// Pages one lease runs before the job goes back to the queue (fair sharing).
    pub max_pages_per_lease: u32,
    /// Sleep when no job is due.
    pub idle: Duration,
    /// How often settings and trackers are re-read.
    pub refresh: Duration,
    /// Failed attempts after which a backfill stops (poll jobs retry forever, backing off).
    pub backfill_attempts: i64,
    pub policy: RetryPolicy,
    /// Streaming connectors' settings (the owner is this scheduler's).
    pub stream: StreamConfig,
    /// A cluster's ingest log: collected posts are published to it (and written by any server's
    /// ingest workers) instead of written here.
    pub log: Option<Arc<IngestLog>>,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        Self {
            owner: format!("node-{}-{:08x}", std::process::id(), rand::random::<u32>()),
            poll_interval: Duration::from_secs(300),
            // Renewed every third of it while a job runs: a dead server's jobs move on within it.
            lease: Duration::from_secs(20),
            max_pages_per_lease: 50,
            idle: Duration::from_secs(2),
            refresh: Duration::from_secs(15),
            backfill_attempts: 8,
            policy: RetryPolicy::default(),
            stream: StreamConfig::default(),
            log: None,
        }
    }
}

/// What one job run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome {
    /// A sweep finished (or the page budget ran out); `posts` fetched.
    Ran { pages: u32, posts: usize },
    Failed(String),
    /// Another worker took the job over (our lease ran out).
    LeaseLost,
    /// The tracker reached its volume limit and was paused.
    VolumeLimit,
}

pub struct Scheduler {
    store: Store,
    cfg: SchedulerConfig,
    /// Switched-on connectors with the `updated_at` of the settings they were built from.
    connectors: HashMap<String, (Millis, Arc<dyn Connector>)>,
    /// Running trackers compiled; `None` until the first refresh.
    matcher: Option<Arc<Matcher>>,
    /// Trackers compiled into `matcher`.
    known: HashSet<i64>,
    refreshed: Option<tokio::time::Instant>,
    /// Running stream workers with the `updated_at` of the settings they were built from.
    streams: HashMap<String, (Millis, tokio::task::JoinHandle<()>)>,
    targets: tokio::sync::watch::Sender<Targets>,
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        for (_, (_, h)) in self.streams.drain() {
            h.abort();
        }
    }
}

impl Scheduler {
    pub fn new(store: Store, cfg: SchedulerConfig) -> Self {
        let (targets, _) = tokio::sync::watch::channel(Targets::default());
        Self {
            store,
            cfg,
            connectors: HashMap::new(),
            matcher: None,
            known: HashSet::new(),
            refreshed: None,
            streams: HashMap::new(),
            targets,
        }
    }

    /// Whether any connector is switched on (the scheduler stays off otherwise).
    pub async fn any_enabled(store: &Store) -> bool {
        store.connector_settings().await.map(|rows| rows.iter().any(|r| r.enabled)).unwrap_or(false)
    }

    pub fn connector_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.connectors.keys().cloned().collect();
        v.sort();
        v
    }

    /// Connectors read as a stream right now.
    pub fn stream_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.streams.keys().cloned().collect();
        v.sort();
        v
    }

    /// Starts, restarts (settings changed) and stops stream workers.
    fn sync_streams(&mut self, wanted: Vec<(ConnectorKind, Millis, crate::ConnectorConfig)>) {
        let names: HashSet<&str> = wanted.iter().map(|(k, _, _)| k.name()).collect();
        let gone: Vec<String> = self
            .streams
            .iter()
            .filter(|(n, (at, _))| !names.contains(n.as_str()) || !wanted.iter().any(|(k, a, _)| k.name() == n.as_str() && a == at))
            .map(|(n, _)| n.clone())
            .collect();
        for name in gone {
            if let Some((_, h)) = self.streams.remove(&name) {
                h.abort();
                let (store, owner) = (self.store.clone(), self.cfg.owner.clone());
                tokio::spawn(async move {
                    let _ = store.release_stream(&name, &owner).await;
                });
            }
        }
        for (kind, at, config) in wanted {
            if self.streams.contains_key(kind.name()) {
                continue;
            }
            match build_stream(kind, &config, Http::new(self.cfg.policy.clone())) {
                Some(Ok(connector)) => {
                    let cfg = StreamConfig { owner: self.cfg.owner.clone(), log: self.cfg.log.clone(), ..self.cfg.stream.clone() };
                    let worker = StreamWorker::new(self.store.clone(), connector, cfg);
                    let handle = tokio::spawn(worker.run(self.targets.subscribe()));
                    self.streams.insert(kind.name().to_string(), (at, handle));
                }
                Some(Err(e)) => tracing::warn!(connector = kind.name(), error = %e, "stream not started"),
                None => {}
            }
        }
    }

    /// Re-reads connector settings and running trackers, creates missing poll jobs and
    /// recompiles the matcher.
    pub async fn refresh(&mut self) -> Result<(), CollectError> {
        let rows = self.store.connector_settings().await?;
        let mut connectors: HashMap<String, (Millis, Arc<dyn Connector>)> = HashMap::new();
        let mut streams = Vec::new();
        for row in rows.iter().filter(|r| r.enabled) {
            let Some(kind) = ConnectorKind::parse(&row.connector) else { continue };
            let config = config_from_row(row);
            if kind.is_stream(&config) {
                streams.push((kind, row.updated_at, config.clone()));
                if kind == ConnectorKind::Bluesky {
                    continue;
                }
                // X still backfills with recent search while it streams live.
            }
            // Unchanged settings keep their connector (and its token, quota count).
            if let Some((at, c)) = self.connectors.get(kind.name()) {
                if *at == row.updated_at {
                    connectors.insert(kind.name().to_string(), (*at, c.clone()));
                    continue;
                }
            }
            match build(kind, &config, Http::new(self.cfg.policy.clone())) {
                Ok(c) => {
                    if let Ok(usage) = serde_json::from_str::<serde_json::Value>(&row.usage) {
                        c.restore_usage(&usage);
                    }
                    connectors.insert(kind.name().to_string(), (row.updated_at, Arc::from(c)));
                }
                Err(e) => tracing::warn!(connector = kind.name(), error = %e, "connector not started"),
            }
        }
        self.connectors = connectors;
        self.sync_streams(streams);
        self.refreshed = Some(tokio::time::Instant::now());
        if self.connectors.is_empty() && self.streams.is_empty() {
            // Collection is off: no jobs to create, no matcher to build.
            return Ok(());
        }
        let kinds: Vec<(&str, i64)> = self
            .connectors
            .keys()
            .filter(|n| !self.streams.contains_key(*n))
            .filter_map(|n| ConnectorKind::parse(n))
            .map(|k| (k.name(), k.platform_bits()))
            .collect();
        let now = now_millis();
        if !kinds.is_empty() {
            self.store.ensure_poll_jobs(&kinds, now).await?;
        }
        let trackers = self.store.collectable_trackers().await?;
        let matcher = Arc::new(compile(&trackers).map_err(CollectError::from)?);
        self.matcher = Some(matcher.clone());
        self.known = trackers.iter().map(|(id, _)| *id).collect();
        self.publish_targets(matcher, &trackers);
        self.refreshed = Some(tokio::time::Instant::now());
        Ok(())
    }

    /// Runs one due job if there is one. Returns `None` when nothing was due.
    pub async fn run_once(&mut self) -> Result<Option<(CollectionJob, RunOutcome)>, CollectError> {
        if self.refreshed.is_none_or(|t| t.elapsed() >= self.cfg.refresh) {
            self.refresh().await?;
        }
        let now = now_millis();
        let job = self
            .store
            .lease_job(&self.cfg.owner, &self.connector_names(), now, now + self.lease_ms())
            .await
            .map_err(CollectError::from)?;
        let Some(job) = job else { return Ok(None) };
        let outcome = self.run_job(&job).await;
        Ok(Some((job, outcome)))
    }

    /// Runs until `shutdown` resolves.
    pub async fn run(mut self, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            let idle = match self.run_once().await {
                Ok(Some((job, outcome))) => {
                    tracing::debug!(job = job.id, connector = %job.connector, ?outcome, "collection job ran");
                    false
                }
                Ok(None) => true,
                Err(e) => {
                    tracing::warn!(error = %e, "collection scheduler");
                    true
                }
            };
            if idle {
                tokio::select! {
                    _ = &mut shutdown => return,
                    _ = tokio::time::sleep(self.cfg.idle) => {}
                }
            }
        }
    }

    fn lease_ms(&self) -> Millis {
        self.cfg.lease.as_millis() as Millis
    }

    async fn run_job(&mut self, job: &CollectionJob) -> RunOutcome {
        match self.run_job_inner(job).await {
            Ok(o) => o,
            Err(e) => {
                let now = now_millis();
                let attempts = job.attempts + 1;
                let wait = match &e {
                    CollectError::RateLimited { wait } | CollectError::Quota { wait, .. } => *wait,
                    CollectError::Auth(_) | CollectError::NotConfigured(_) => Duration::from_secs(900),
                    _ => self.cfg.policy.backoff(attempts.min(10) as u32).max(Duration::from_secs(5)).min(Duration::from_secs(3600)),
                };
                let give_up = job.kind == JobKind::Backfill
                    && attempts >= self.cfg.backfill_attempts
                    && !matches!(e, CollectError::RateLimited { .. } | CollectError::Quota { .. });
                let msg = e.to_string();
                tracing::warn!(job = job.id, connector = %job.connector, error = %msg, "collection failed");
                if let Err(se) = self.store.job_failed(job.id, &self.cfg.owner, &msg, now + wait.as_millis() as Millis, give_up, now).await {
                    tracing::warn!(error = %se, "could not record a collection failure");
                }
                RunOutcome::Failed(msg)
            }
        }
    }

    async fn run_job_inner(&mut self, job: &CollectionJob) -> Result<RunOutcome, CollectError> {
        let connector = self
            .connectors
            .get(&job.connector)
            .map(|(_, c)| c.clone())
            .ok_or_else(|| CollectError::NotConfigured(format!("connector {} is off", job.connector)))?;
        let tracker = self.store.tracker_by_id(job.tracker_id).await?;
        let Some(tracker) = tracker.filter(|t| t.status() == TrackerStatus::Running) else {
            self.store.release_job(job.id, &self.cfg.owner).await?;
            return Ok(RunOutcome::Ran { pages: 0, posts: 0 });
        };
        if job.kind == JobKind::Poll && self.streams.contains_key(&job.connector) {
            // The connector streams now: its polling waits until it is switched back.
            let later = now_millis() + self.cfg.poll_interval.as_millis() as Millis;
            self.store.set_job_due(job.id, later).await?;
            self.store.release_job(job.id, &self.cfg.owner).await?;
            return Ok(RunOutcome::Ran { pages: 0, posts: 0 });
        }
        if !self.matcher_has(tracker.id) {
            self.refresh().await?;
        }
        let criteria: TrackerCriteria = serde_json::from_str(&tracker.criteria)
            .map_err(|e| CollectError::Payload(format!("tracker criteria: {e}")))?;
        let mut query = TrackerQuery::from_criteria(tracker.id, &criteria);
        if job.kind == JobKind::Backfill {
            query.range = Some((job.range_start.unwrap_or(0), job.range_end.unwrap_or_else(now_millis)));
        }
        let mut cursor: serde_json::Value = serde_json::from_str(&job.cursor).unwrap_or_default();
        let (mut pages, mut fetched) = (0u32, 0usize);
        loop {
            let page = self.fetch_with_heartbeat(job, connector.as_ref(), &query, &cursor).await;
            self.save_usage(&job.connector, connector.as_ref()).await;
            let page = page?;
            let Some(page) = page else { return Ok(RunOutcome::LeaseLost) };
            pages += 1;
            fetched += page.posts.len();
            let n = page.posts.len() as i64;
            // Posts first, cursor after: a crash in between repeats the page, never skips it.
            let matcher = match &self.matcher {
                Some(m) => m.clone(),
                None => return Err(CollectError::Payload("trackers not compiled yet".into())),
            };
            let searched_for = connector.searches_for_terms().then_some(tracker.id);
            let write = async {
                match &self.cfg.log {
                    Some(log) => log.publish(searched_for, page.posts).await.map_err(|e| CollectError::Network(e.to_string())),
                    None => ingest_searched(&self.store, matcher, page.posts, now_millis(), searched_for)
                        .await
                        .map(|_| ())
                        .map_err(CollectError::from),
                }
            };
            let Some(written) = self.under_lease(job, write).await else { return Ok(RunOutcome::LeaseLost) };
            written?;
            let now = now_millis();
            let limited = self.volume_limit_reached(tracker.id).await?;
            let go_on = page.more && pages < self.cfg.max_pages_per_lease && !limited;
            let next_run_at = if go_on {
                None
            } else if page.more {
                Some(now)
            } else {
                Some(now + self.cfg.poll_interval.as_millis() as Millis)
            };
            let finished = job.kind == JobKind::Backfill && !page.more;
            let cursor_text = page.cursor.to_string();
            let done = PageDone { cursor: &cursor_text, posts: n, next_run_at, finished };
            let kept = self
                .store
                .job_page_done(job.id, &self.cfg.owner, &done, now, now + self.lease_ms())
                .await
                ?;
            if !kept {
                return Ok(RunOutcome::LeaseLost);
            }
            if limited {
                self.store
                    .set_tracker_status(tracker.id, TrackerStatus::Paused, tracker.owner_id, now)
                    .await
                    ?;
                self.refresh().await?;
                return Ok(RunOutcome::VolumeLimit);
            }
            if !go_on {
                return Ok(RunOutcome::Ran { pages, posts: fetched });
            }
            cursor = page.cursor;
        }
    }

    /// Hands the running trackers to the stream workers (a new version when they changed).
    fn publish_targets(&self, matcher: Arc<Matcher>, trackers: &[(i64, String)]) {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        trackers.hash(&mut h);
        let version = h.finish();
        let queries: Vec<TrackerQuery> = trackers
            .iter()
            .filter_map(|(id, c)| serde_json::from_str::<TrackerCriteria>(c).ok().map(|c| TrackerQuery::from_criteria(*id, &c)))
            .collect();
        self.targets.send_replace(Targets { matcher: Some(matcher), trackers: queries, version });
    }

    async fn save_usage(&self, name: &str, connector: &dyn Connector) {
        if let Some(u) = connector.usage() {
            if let Err(e) = self.store.set_connector_usage(name, &u.to_string()).await {
                tracing::warn!(error = %e, "could not save connector usage");
            }
        }
    }

    fn matcher_has(&self, tracker_id: i64) -> bool {
        self.known.contains(&tracker_id)
    }

    async fn volume_limit_reached(&self, tracker_id: i64) -> Result<bool, CollectError> {
        let Some(limit) = self.matcher.as_ref().and_then(|m| m.volume_limit(tracker_id)) else { return Ok(false) };
        let t = self.store.tracker_by_id(tracker_id).await.map_err(CollectError::from)?;
        Ok(t.is_some_and(|t| t.total_posts >= limit))
    }

    /// Fetches a page while renewing the lease. `None`: the lease was lost meanwhile.
    async fn fetch_with_heartbeat(
        &self,
        job: &CollectionJob,
        connector: &dyn Connector,
        query: &TrackerQuery,
        cursor: &serde_json::Value,
    ) -> Result<Option<crate::Page>, CollectError> {
        self.under_lease(job, connector.fetch(query, cursor)).await.transpose()
    }

    /// Runs `work` while renewing the job's lease; `None` when the lease was lost meanwhile.
    async fn under_lease<T>(&self, job: &CollectionJob, work: impl std::future::Future<Output = T>) -> Option<T> {
        let (store, owner, id, ms) = (self.store.clone(), self.cfg.owner.clone(), job.id, self.lease_ms());
        let renew = move || {
            let (store, owner) = (store.clone(), owner.clone());
            async move {
                let now = now_millis();
                store.job_heartbeat(id, &owner, now, now + ms).await
            }
        };
        match hold_lease(work, self.cfg.lease / 3, renew).await {
            Held::Done(t) => Some(t),
            Held::Lost => None,
        }
    }
}
