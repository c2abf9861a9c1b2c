//! Live collection. Each platform has a connector (one module each) that fetches one page of
//! posts for a tracker's query from a persisted cursor and maps the platform's payload to
//! [`Post`]. The [`scheduler`] leases collection jobs from the database, runs their connector
//! page by page, hands the posts to the ingest pipeline and saves the cursor after each page.
//!
//! Delivery is at least once and storage is idempotent: a page's posts are ingested before its
//! cursor is saved, so a worker killed between the two fetches that page again after a restart,
//! and the store (keyed `platform;id`) keeps one copy. Nothing is lost, nothing is doubled.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use hark_core::{AccountLists, Millis, Platform, PlatformSet, Post, TrackerCriteria};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod bluesky;
pub mod catalogue;
pub mod discourse;
pub mod facebook;
#[doc(hidden)]
pub mod fuzzing;
pub mod graph;
pub mod hackernews;
pub mod http;
pub mod instagram;
pub mod mastodon;
pub mod netguard;
pub mod reddit;
pub mod rss;
pub mod preview;
pub mod scheduler;
pub mod stream;
pub mod tiktok;
pub mod twitter;
pub mod twitter_stream;
mod util;
pub mod youtube;

pub use catalogue::{ConnectorConfig, ConnectorKind, Field};
pub use http::{Http, RetryPolicy};
pub use stream::{build_stream, Batch, StreamConnector};

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug, Clone, thiserror::Error)]
pub enum CollectError {
    #[error("not configured: {0}")]
    NotConfigured(String),
    #[error("credentials rejected: {0}")]
    Auth(String),
    #[error("rate limited; retry in {}s", wait.as_secs())]
    RateLimited { wait: Duration },
    #[error("quota used up: {message}")]
    Quota { message: String, wait: Duration },
    #[error("HTTP {status}: {message}")]
    Http { status: u16, message: String },
    #[error("network: {0}")]
    Network(String),
    #[error("unexpected payload: {0}")]
    Payload(String),
    /// Storing what was collected (or reading the job's tracker) failed: the database, not the
    /// platform.
    #[error("store: {0}")]
    Store(std::sync::Arc<hark_store::StoreError>),
    /// Matching collected posts failed (a tracker's criteria do not compile).
    #[error("ingest: {0}")]
    Ingest(std::sync::Arc<hark_ingest::pipeline::IngestError>),
}

impl From<hark_store::StoreError> for CollectError {
    fn from(e: hark_store::StoreError) -> Self {
        CollectError::Store(std::sync::Arc::new(e))
    }
}

impl From<hark_ingest::pipeline::IngestError> for CollectError {
    fn from(e: hark_ingest::pipeline::IngestError) -> Self {
        match e {
            hark_ingest::pipeline::IngestError::Store(s) => s.into(),
            other => CollectError::Ingest(std::sync::Arc::new(other)),
        }
    }
}

/// The first 300 characters of an error body, for logs and the status page.
pub(crate) fn short(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// What a connector searches for, compiled from a tracker's criteria.
#[derive(Debug, Clone, Default)]
pub struct TrackerQuery {
    pub tracker_id: i64,
    /// Include rows: AND of rows, OR within a row.
    pub include: Vec<Vec<String>>,
    pub exclude: Vec<String>,
    pub platforms: PlatformSet,
    pub accounts: AccountLists,
    pub exclude_retweets: bool,
    pub language: Option<String>,
    /// A backfill's window `[start, end)`; live polling has none.
    pub range: Option<(Millis, Millis)>,
}

impl TrackerQuery {
    pub fn from_criteria(tracker_id: i64, c: &TrackerCriteria) -> Self {
        Self {
            tracker_id,
            include: c.search.include.clone(),
            exclude: c.search.exclude.clone(),
            platforms: c.platforms,
            accounts: c.usernames.clone(),
            exclude_retweets: c.exclude_retweets,
            language: c.language.clone().filter(|l| !l.trim().is_empty()),
            range: None,
        }
    }

    /// Every AND phrase of the include rows, terms without their `#`/`@` sigil: for search APIs
    /// that only AND words together.
    pub fn phrases(&self) -> Vec<String> {
        let search = hark_core::TrackerSearch { include: self.include.clone(), exclude: vec![] };
        search
            .combinations()
            .into_iter()
            .map(|terms| terms.iter().map(|t| bare(t)).collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// `(a OR b) c -x` with phrases quoted and sigils dropped: for APIs with boolean search.
    pub fn boolean(&self, or: &str, not: &str) -> String {
        let mut parts: Vec<String> = self
            .include
            .iter()
            .map(|row| {
                let terms: Vec<String> = row.iter().map(|t| quote(&bare(t))).collect();
                if terms.len() == 1 {
                    terms[0].clone()
                } else {
                    format!("({})", terms.join(&format!(" {or} ")))
                }
            })
            .collect();
        parts.extend(self.exclude.iter().map(|t| format!("{not}{}", quote(&bare(t)))));
        parts.join(" ")
    }
}

/// A term without a leading `#` or `@`.
pub fn bare(term: &str) -> String {
    term.trim().trim_start_matches(['#', '@']).to_string()
}

pub(crate) fn quote(term: &str) -> String {
    if term.contains(char::is_whitespace) {
        format!("\"{}\"", term.replace('"', ""))
    } else {
        term.to_string()
    }
}

/// One page of results and the cursor to continue from.
#[derive(Debug, Clone)]
pub struct Page {
    pub posts: Vec<Post>,
    /// Saved after the posts are stored; the next fetch starts from it.
    pub cursor: Value,
    /// More pages wait in this sweep: fetch again at once. False: the sweep is done (polling
    /// resumes at the next run; a backfill is finished).
    pub more: bool,
}

/// A platform source.
pub trait Connector: Send + Sync {
    fn kind(&self) -> ConnectorKind;

    /// Fetches the page after `cursor` (`{}` on the first run) for `query`.
    fn fetch<'a>(&'a self, query: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>>;

    /// A cheap authenticated request that proves the settings work; says what it saw.
    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>>;

    /// How many posts `query` (with its range) would bring, when the platform can count without
    /// collecting; `None` when it cannot.
    fn estimate<'a>(&'a self, _query: &'a TrackerQuery) -> BoxFuture<'a, Result<Option<u64>, CollectError>> {
        Box::pin(async { Ok(None) })
    }

    /// Whether the platform itself searches for the tracker's terms, so that a post it returns
    /// may match on what Hark does not see (comments, metadata): such posts join the tracker as
    /// indirect matches. False for sources that list everything (feeds, pages, latest topics)
    /// and rely on Hark's matching.
    fn searches_for_terms(&self) -> bool {
        false
    }

    /// Whether [`Connector::lookup`] can fetch a single post by its platform id.
    fn looks_up(&self) -> bool {
        false
    }

    /// Fetches one post by its platform id (the id in a post's address), for adding a post by
    /// URL; `None` when the platform does not know it.
    fn lookup<'a>(&'a self, _id: &'a str) -> BoxFuture<'a, Result<Option<Post>, CollectError>> {
        Box::pin(async { Ok(None) })
    }

    /// Connector-wide state to keep across restarts (quota spent today, for one).
    fn usage(&self) -> Option<Value> {
        None
    }

    /// Takes back what [`Connector::usage`] gave.
    fn restore_usage(&self, _usage: &Value) {}
}

/// Reads a connector's cursor, treating anything unreadable as a fresh start.
pub(crate) fn read_cursor<T: for<'de> Deserialize<'de> + Default>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_default()
}

pub(crate) fn write_cursor<T: Serialize>(c: &T) -> Value {
    serde_json::to_value(c).unwrap_or(Value::Null)
}

/// Builds the polling connector a settings row describes (for X: recent search, whichever
/// mode is chosen, since previews sample with it). Bluesky only streams: see
/// [`stream::build_stream`].
pub fn build(kind: ConnectorKind, config: &ConnectorConfig, http: Http) -> Result<Box<dyn Connector>, CollectError> {
    config.require(kind)?;
    let c = config.clone();
    Ok(match kind {
        ConnectorKind::Twitter => Box::new(twitter::Twitter::new(c, http)),
        ConnectorKind::Rss => Box::new(rss::Rss::new(c, http)),
        ConnectorKind::HackerNews => Box::new(hackernews::HackerNews::new(c, http)),
        ConnectorKind::Reddit => Box::new(reddit::Reddit::new(c, http)),
        ConnectorKind::Discourse => Box::new(discourse::Discourse::new(c, http)),
        ConnectorKind::Youtube => Box::new(youtube::Youtube::new(c, http)),
        ConnectorKind::Instagram => Box::new(instagram::Instagram::new(c, http)),
        ConnectorKind::Facebook => Box::new(facebook::Facebook::new(c, http)),
        ConnectorKind::Tiktok => Box::new(tiktok::Tiktok::new(c, http)),
        ConnectorKind::Mastodon => Box::new(mastodon::Mastodon::new(c, http)),
        ConnectorKind::Bluesky => {
            return Err(CollectError::NotConfigured("Bluesky is read as a stream, not polled".into()));
        }
    })
}

/// Checks a connector's settings the way it will collect: its stream when it streams.
pub async fn check(kind: ConnectorKind, config: &ConnectorConfig, http: Http) -> Result<String, CollectError> {
    match build_stream(kind, config, http.clone()) {
        Some(Ok(s)) => s.check().await,
        Some(Err(e)) => Err(e),
        None => build(kind, config, http)?.check().await,
    }
}

/// Connector settings as saved: which are on, with what values.
pub fn config_from_row(row: &hark_store::ConnectorSettingsRow) -> ConnectorConfig {
    let values: BTreeMap<String, String> = serde_json::from_str(&row.config).unwrap_or_default();
    ConnectorConfig { base_url: row.base_url.clone().filter(|u| !u.trim().is_empty()), values }
}

/// The platform a connector's posts belong to when it has one only.
pub fn platform_of(kind: ConnectorKind) -> Platform {
    kind.platforms()[0]
}
