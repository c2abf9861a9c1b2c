//! The durable ingest log of a cluster (`hark serve --nats-url`). Connectors publish the posts they
//! collect to a NATS JetStream stream instead of writing them, and the ingest workers of every
//! server take them from one shared durable consumer, a batch at a time, write them, and only then
//! acknowledge them. A burst larger than the database can write waits in the stream (on disk, not
//! in a server's memory), and the posts a server was writing when it died are delivered again to
//! another server once their acknowledgement is overdue: writes are idempotent upserts by post key,
//! so a post delivered twice is stored once.
//!
//! The embedded default (one server, SQLite) keeps writing directly and needs no NATS.

use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::{self, consumer, stream, AckKind};
use futures_util::StreamExt;
use hark_core::{now_millis, Post};
use hark_store::Store;
use serde::{Deserialize, Serialize};

use crate::pipeline::{compile, ingest_searched, IngestError, Matcher};

/// The stream's default name; servers of one cluster use the same one.
pub const DEFAULT_STREAM: &str = "HARK_POSTS";
/// The durable consumer every server's ingest workers share.
pub const CONSUMER: &str = "ingest";
/// Posts in one message at most (NATS refuses messages over 1 MB by default).
const POSTS_PER_MESSAGE: usize = 200;
/// Messages a worker takes at most at once.
const BATCH_MESSAGES: usize = 64;
/// How long a message may go unacknowledged before it is delivered again; a worker writing it
/// says it is still at work every third of it, so only a dead worker's messages are redelivered.
pub const ACK_WAIT: Duration = Duration::from_secs(30);
/// How often the ingest workers read the running trackers again.
const REFRESH: Duration = Duration::from_secs(5);

/// Messages this process's workers took that had been delivered before (a worker that died
/// holding them, or a batch that failed), since it started.
static REDELIVERED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Messages this process's workers took again after an earlier delivery, since it started.
pub fn redelivered() -> u64 {
    REDELIVERED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Messages a worker takes at once: `HARK_INGEST_LOG_BATCH` (hidden; tests spread a burst over
/// servers with 1), else [`BATCH_MESSAGES`].
fn batch_messages() -> usize {
    std::env::var("HARK_INGEST_LOG_BATCH").ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(BATCH_MESSAGES)
}

/// A pause before each batch is written: `HARK_INGEST_LOG_DELAY_MS` (hidden; tests kill a server
/// while it holds messages), else none.
fn write_delay() -> Option<Duration> {
    std::env::var("HARK_INGEST_LOG_DELAY_MS").ok().and_then(|v| v.parse().ok()).map(Duration::from_millis)
}

/// What went wrong with the log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("NATS JetStream: {0}")]
    Nats(String),
    #[error(transparent)]
    Ingest(#[from] IngestError),
}

fn nats(e: impl std::fmt::Display) -> LogError {
    LogError::Nats(e.to_string())
}

/// One message of the log: posts of one connector page or stream batch.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    /// The tracker whose search found the posts (joins them even when their text lacks its
    /// terms), or none for a stream that carries every tracker's posts.
    searched_for: Option<i64>,
    posts: Vec<Post>,
}

/// A connection to the ingest log.
pub struct IngestLog {
    client: async_nats::Client,
    js: jetstream::Context,
    stream: String,
    subject: String,
    ack_wait: Duration,
}

impl std::fmt::Debug for IngestLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IngestLog").field("stream", &self.stream).finish()
    }
}

/// What the health endpoint reports of the log.
#[derive(Debug, Clone, Copy)]
pub struct LogState {
    pub connected: bool,
    /// Messages waiting for a worker, or delivered and not acknowledged yet.
    pub pending: Option<u64>,
}

impl IngestLog {
    /// Connects to NATS at `url` and makes sure the stream `name` and its consumer exist (file
    /// storage, each message kept until a worker acknowledges it, at most a week).
    pub async fn connect(url: &str, name: &str) -> Result<IngestLog, LogError> {
        Self::connect_with(url, name, ACK_WAIT).await
    }

    /// [`IngestLog::connect`] with another acknowledgement wait (tests of redelivery), used when
    /// the stream's consumer is created.
    pub async fn connect_with(url: &str, name: &str, ack_wait: Duration) -> Result<IngestLog, LogError> {
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '.' || c == '*' || c == '>') {
            return Err(LogError::Nats(format!("stream name {name:?}: letters, digits, - and _ only")));
        }
        let client = async_nats::ConnectOptions::new()
            .name("hark")
            .connection_timeout(Duration::from_secs(5))
            .connect(url)
            .await
            .map_err(|e| LogError::Nats(format!("cannot connect to {url}: {e}")))?;
        let js = jetstream::new(client.clone());
        let subject = format!("{}.posts", name.to_lowercase());
        let s = js
            .get_or_create_stream(stream::Config {
                name: name.to_string(),
                subjects: vec![subject.clone()],
                retention: stream::RetentionPolicy::WorkQueue,
                storage: stream::StorageType::File,
                max_age: Duration::from_secs(7 * 86_400),
                ..Default::default()
            })
            .await
            .map_err(nats)?;
        s.get_or_create_consumer(
            CONSUMER,
            consumer::pull::Config {
                durable_name: Some(CONSUMER.to_string()),
                ack_policy: consumer::AckPolicy::Explicit,
                ack_wait,
                max_ack_pending: 1_000,
                ..Default::default()
            },
        )
        .await
        .map_err(nats)?;
        Ok(IngestLog { client, js, stream: name.to_string(), subject, ack_wait })
    }

    /// Appends posts to the log; returns once the stream has stored them (then the connector may
    /// save its cursor: the posts are safe).
    pub async fn publish(&self, searched_for: Option<i64>, posts: Vec<Post>) -> Result<(), LogError> {
        let mut acks = Vec::new();
        for chunk in posts.chunks(POSTS_PER_MESSAGE) {
            let body = serde_json::to_vec(&Entry { searched_for, posts: chunk.to_vec() }).map_err(nats)?;
            acks.push(self.js.publish(self.subject.clone(), body.into()).await.map_err(nats)?);
        }
        for ack in acks {
            ack.await.map_err(nats)?;
        }
        Ok(())
    }

    /// Whether the connection is up and how much waits in the log.
    pub async fn state(&self) -> LogState {
        let connected = self.client.connection_state() == async_nats::connection::State::Connected;
        let pending = async {
            let s = self.js.get_stream(&self.stream).await.ok()?;
            let c: consumer::PullConsumer = s.get_consumer(CONSUMER).await.ok()?;
            let info = c.get_info().await.ok()?;
            Some(info.num_pending + info.num_ack_pending as u64)
        };
        let pending = if connected { tokio::time::timeout(Duration::from_secs(2), pending).await.ok().flatten() } else { None };
        LogState { connected, pending }
    }

    async fn consumer(&self) -> Result<consumer::PullConsumer, LogError> {
        let s = self.js.get_stream(&self.stream).await.map_err(nats)?;
        s.get_consumer(CONSUMER).await.map_err(nats)
    }
}

/// The running trackers compiled, read again every [`REFRESH`] or when a message names a tracker
/// not among them.
struct Trackers {
    matcher: Option<Arc<Matcher>>,
    known: std::collections::HashSet<i64>,
    at: Option<tokio::time::Instant>,
}

impl Trackers {
    async fn matcher(&mut self, store: &Store, wanted: &[Option<i64>]) -> Result<Arc<Matcher>, IngestError> {
        let stale = self.at.is_none_or(|t| t.elapsed() >= REFRESH) || wanted.iter().flatten().any(|id| !self.known.contains(id));
        if stale || self.matcher.is_none() {
            let trackers = store.collectable_trackers().await?;
            self.known = trackers.iter().map(|(id, _)| *id).collect();
            self.matcher = Some(Arc::new(compile(&trackers)?));
            self.at = Some(tokio::time::Instant::now());
        }
        Ok(self.matcher.clone().expect("compiled above"))
    }
}

/// A server's ingest worker: takes batches from the log, writes them and acknowledges them, until
/// the process ends. Errors (the database or NATS away) are retried after a pause; the messages of
/// a batch that could not be written are delivered again.
pub async fn run_worker(store: Store, log: Arc<IngestLog>) {
    let mut trackers = Trackers { matcher: None, known: Default::default(), at: None };
    // Looked up once and kept: two JetStream API requests saved on every batch; looked up again
    // after an error.
    let mut consumer: Option<consumer::PullConsumer> = None;
    loop {
        let taken = async {
            let c = match consumer.take() {
                Some(c) => c,
                None => log.consumer().await?,
            };
            let n = take_batch(&store, &log, &c, &mut trackers).await?;
            consumer = Some(c);
            Ok::<_, LogError>(n)
        };
        if let Err(e) = taken.await {
            tracing::warn!(error = %e, "ingest log");
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
}

/// Takes and writes one batch; how many posts it wrote.
async fn take_batch(store: &Store, log: &IngestLog, consumer: &consumer::PullConsumer, trackers: &mut Trackers) -> Result<usize, LogError> {
    let mut batch = consumer.batch().max_messages(batch_messages()).expires(Duration::from_secs(2)).messages().await.map_err(nats)?;
    let mut messages = Vec::new();
    while let Some(m) = batch.next().await {
        messages.push(m.map_err(nats)?);
    }
    if messages.is_empty() {
        return Ok(0);
    }
    let again = messages.iter().filter(|m| m.info().is_ok_and(|i| i.delivered > 1)).count();
    REDELIVERED.fetch_add(again as u64, std::sync::atomic::Ordering::Relaxed);
    if let Some(pause) = write_delay() {
        tokio::time::sleep(pause).await;
    }
    let mut entries: Vec<(usize, Entry)> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        match serde_json::from_slice::<Entry>(&m.payload) {
            Ok(e) => entries.push((i, e)),
            Err(e) => {
                // Never readable: dropped, not delivered forever.
                tracing::warn!(error = %e, "unreadable message in the ingest log; dropped");
                let _ = m.ack_with(AckKind::Term).await;
            }
        }
    }
    let wanted: Vec<Option<i64>> = entries.iter().map(|(_, e)| e.searched_for).collect();
    let matcher = trackers.matcher(store, &wanted).await?;
    // Posts of the same search go in together (one write for many messages).
    let mut groups: std::collections::BTreeMap<Option<i64>, Vec<Post>> = Default::default();
    for (_, e) in entries.iter_mut() {
        groups.entry(e.searched_for).or_default().append(&mut e.posts);
    }
    let n: usize = groups.values().map(Vec::len).sum();
    let write = async {
        for (searched_for, posts) in groups {
            ingest_searched(store, matcher.clone(), posts, now_millis(), searched_for).await?;
        }
        Ok::<_, IngestError>(())
    };
    // While the batch is written the messages stay this worker's: it says so every third of the
    // acknowledgement wait.
    let keep = || {
        let ms: Vec<&jetstream::Message> = entries.iter().map(|(i, _)| &messages[*i]).collect();
        async move {
            for m in ms {
                m.ack_with(AckKind::Progress).await.map_err(nats)?;
            }
            Ok::<_, LogError>(true)
        }
    };
    match hark_store::hold_lease(write, log.ack_wait / 3, keep).await {
        hark_store::Held::Done(Ok(())) => {
            for (i, _) in &entries {
                messages[*i].ack().await.map_err(nats)?;
            }
            Ok(n)
        }
        hark_store::Held::Done(Err(e)) => {
            // One message that cannot be written must not hold back the others it came with:
            // each is written on its own, the ones written are acknowledged and the rest come back
            // in 5 s (all of them, when the database is away).
            tracing::warn!(error = %e, messages = entries.len(), "an ingest log batch was not written; writing its messages one by one");
            let mut written = 0;
            for (i, _) in &entries {
                let m = &messages[*i];
                let Ok(entry) = serde_json::from_slice::<Entry>(&m.payload) else { continue };
                let n = entry.posts.len();
                match ingest_searched(store, matcher.clone(), entry.posts, now_millis(), entry.searched_for).await {
                    Ok(_) => {
                        m.ack().await.map_err(nats)?;
                        written += n;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "an ingest log message was not written; it comes back in 5 s");
                        let _ = m.ack_with(AckKind::Nak(Some(Duration::from_secs(5)))).await;
                    }
                }
            }
            Ok(written)
        }
        // The keep-alive above never reports the messages lost; were it to, they are redelivered.
        hark_store::Held::Lost => Err(LogError::Nats("the batch's messages were lost".into())),
    }
}
