//! Exports made in the background: the worker every server runs, which leases one stored job at a
//! time, reads the view the job names exactly as its pages do, writes the file and keeps it in
//! the database until the job expires. A job whose server stopped is made anew by the next
//! worker whose lease request finds its lease run out (a restart, or another node).

pub mod book;
pub mod pdf;
pub mod sheets;
pub mod xlsx;

use std::time::Duration;

use hark_core::{now_millis, ExportKind, Millis, PlatformSet};
use hark_store::{ExportJob, ExportResult, PageFilter, TrackerRow};
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::filters::FilterQuery;
use crate::routes::posts::{export_cells, post_query, Cell, PostsParams};
use crate::AppState;

/// How long a worker holds a job without renewing it before another may take it over; it renews
/// every third of it while it makes the file, so a dead server's job moves on within this time.
pub const LEASE: Duration = Duration::from_secs(20);
/// How long a finished file is kept when the server does not say (`--export-ttl-hours`).
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);
/// How long a job may wait or run before it is given up and removed.
const UNFINISHED_TTL: Duration = Duration::from_secs(24 * 3600);
/// How often the worker looks for jobs when nothing wakes it.
const IDLE: Duration = Duration::from_secs(2);

/// Which page the export was asked from: the dashboard (its panels and every post of the
/// filter) or the posts page (its list, with its search, sort and filters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportSource {
    Dashboard,
    Posts,
}

/// What a job exports, as stored with it: the page's query string as the browser sent it (the
/// share link's keys left out) and the moment it was asked, so that a relative range such as the
/// last 30 days is the same range when the job is made again after a restart.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportParams {
    pub source: ExportSource,
    pub query: String,
    pub now: Millis,
    /// The timeline's grouping (none: chosen from the range).
    #[serde(default)]
    pub grouping: Option<String>,
    /// The report's second timeline metric: Engagements, Reach or Impressions.
    #[serde(default)]
    pub eri: Option<String>,
    /// The report's timeline as running totals.
    #[serde(default)]
    pub cumulative: bool,
    /// The report's paper: a4 or letter.
    #[serde(default)]
    pub paper: Option<String>,
}

/// The view an export reads, parsed from its stored parameters.
pub struct ExportView {
    pub filter: PageFilter,
    pub tz: TimeZone,
    pub posts: PostsParams,
    pub query: FilterQuery,
}

/// Keeps only the page's own parameters of a query string: never the share link's or an embed's
/// key.
pub fn stored_query(raw: Option<&str>) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(
            url::form_urlencoded::parse(raw.unwrap_or("").as_bytes()).filter(|(k, _)| k != "shareHash" && k != "embedKey"),
        )
        .finish()
}

impl ExportParams {
    /// Parses the stored view for `row`, as `viewer` (whose influencer tags apply) sees it.
    pub fn view(&self, row: &TrackerRow, viewer: Option<i64>) -> ApiResult<ExportView> {
        let uri: axum::http::Uri = format!("/?{}", self.query)
            .parse()
            .map_err(|_| ApiError::new(hark_core::Code::InvalidQuery, "The export's query does not parse."))?;
        let bad = |e: axum::extract::rejection::QueryRejection| ApiError::new(hark_core::Code::InvalidQuery, e.body_text());
        let axum::extract::Query(query) = axum::extract::Query::<FilterQuery>::try_from_uri(&uri).map_err(bad)?;
        let axum::extract::Query(posts) = axum::extract::Query::<PostsParams>::try_from_uri(&uri).map_err(bad)?;
        let filter = query.parse(PlatformSet::from_bits(row.platforms), viewer, self.now)?;
        Ok(ExportView { tz: query.time_zone()?, filter, posts, query })
    }
}

/// The name of a view's file without its extension: the tracker's name and the range.
pub fn base_name(row: &TrackerRow, f: &PageFilter) -> String {
    let day = |ms: Millis| jiff::Timestamp::from_millisecond(ms).map(|t| t.strftime("%Y%m%d").to_string()).unwrap_or_default();
    let range = match (f.start, f.end) {
        (Some(s), Some(e)) => format!("{}-{}", day(s), day(e)),
        (Some(s), None) => format!("from-{}", day(s)),
        _ => "all-time".to_string(),
    };
    let name: String = row.friendly.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    format!("{}-{range}", if name.is_empty() { "tracker" } else { name.as_str() })
}

/// The file's name for the person downloading it: the tracker's name, the range and the kind.
pub fn download_name(row: &TrackerRow, f: &PageFilter, kind: ExportKind) -> String {
    format!("{}.{}", base_name(row, f), extension(kind))
}

/// The path a ready job's file is served at.
pub fn file_path(job: &ExportJob) -> String {
    format!("/export/hashtag/{}.{}", job.token, extension(job.kind))
}

/// The file extension of a kind's file.
fn extension(kind: ExportKind) -> &'static str {
    match kind {
        ExportKind::Xlsx => "xlsx",
        ExportKind::Pdf => "pdf",
        // A spreadsheet is opened where it was made; its name has no extension.
        ExportKind::Sheets => "",
    }
}

/// Reports a job's progress and keeps its lease; an error when the lease was lost, which ends
/// the job's making here (another worker has it).
pub struct Progress<'a> {
    state: &'a AppState,
    /// None: a file made outside a job (a report mailed by the alerts), nothing to report.
    job: Option<&'a ExportJob>,
    owner: &'a str,
    pub total: i64,
    last: std::time::Instant,
}

impl<'a> Progress<'a> {
    /// Progress of a file made outside a job: reports nothing.
    pub fn detached(state: &'a AppState) -> Self {
        Progress { state, job: None, owner: "", total: 1, last: std::time::Instant::now() }
    }

    pub async fn report(&mut self, done: i64, force: bool) -> ApiResult<()> {
        let Some(job) = self.job else { return Ok(()) };
        if let Some(pause) = self.state.config.export_step_delay {
            tokio::time::sleep(pause).await;
        }
        if !force && self.last.elapsed() < Duration::from_millis(500) {
            return Ok(());
        }
        self.last = std::time::Instant::now();
        let now = now_millis();
        let held = self
            .state
            .store
            .export_progress(job.id, self.owner, done.min(self.total), self.total, now, now + self.state.config.export_lease().as_millis() as i64)
            .await?;
        if held {
            Ok(())
        } else {
            Err(ApiError::Internal("the export's lease was lost".into()))
        }
    }
}

/// What a job made: a file kept here, or the address of one made elsewhere.
enum Made {
    File { filename: String, content_type: &'static str, body: Vec<u8> },
    Link { title: String, url: String },
}

/// Makes one leased job's file.
async fn make(state: &AppState, job: &ExportJob, owner: &str) -> ApiResult<Made> {
    let params: ExportParams =
        serde_json::from_str(&job.params).map_err(|e| ApiError::Internal(format!("export parameters: {e}")))?;
    let row = state.store.tracker_by_id(job.tracker_id).await?.ok_or_else(ApiError::tracker_not_found)?;
    let view = params.view(&row, job.user_id)?;
    let mut progress = Progress { state, job: Some(job), owner, total: 1, last: std::time::Instant::now() };
    match job.kind {
        ExportKind::Xlsx => {
            let body = xlsx::workbook(state, &row, &params, &view, &mut progress).await?;
            Ok(Made::File { filename: download_name(&row, &view.filter, job.kind), content_type: xlsx::CONTENT_TYPE, body })
        }
        ExportKind::Pdf => {
            let body = pdf::report(state, &row, &params, &view, &mut progress).await?;
            Ok(Made::File { filename: download_name(&row, &view.filter, job.kind), content_type: pdf::CONTENT_TYPE, body })
        }
        ExportKind::Sheets => {
            let url = sheets::spreadsheet(state, &row, &params, &view, job.user_id, &mut progress).await?;
            Ok(Made::Link { title: base_name(&row, &view.filter), url })
        }
    }
}

/// Leases and makes the next waiting job; false when there was none.
pub async fn run_next(state: &AppState, owner: &str) -> ApiResult<bool> {
    let now = now_millis();
    let Some(job) = state.store.lease_export(owner, now, now + state.config.export_lease().as_millis() as i64).await? else {
        return Ok(false);
    };
    let started = std::time::Instant::now();
    let lease = state.config.export_lease();
    let renew = || {
        let (store, owner, id) = (state.store.clone(), owner.to_string(), job.id);
        async move { store.renew_export(id, &owner, now_millis() + lease.as_millis() as i64).await }
    };
    let made = match hark_store::hold_lease(make(state, &job, owner), lease / 3, renew).await {
        hark_store::Held::Done(made) => made,
        hark_store::Held::Lost => {
            tracing::info!(job = job.id, "export taken over by another worker");
            return Ok(true);
        }
    };
    match made {
        Ok(made) => {
            let now = now_millis();
            let expires_at = now + state.config.export_ttl().as_millis() as i64;
            let r = match &made {
                Made::File { filename, content_type, body } => ExportResult { filename, content_type, body, url: None, expires_at },
                Made::Link { title, url } => {
                    ExportResult { filename: title, content_type: "text/uri-list", body: &[], url: Some(url), expires_at }
                }
            };
            state.store.finish_export(job.id, owner, &r, now).await?;
            tracing::info!(job = job.id, kind = %job.kind, bytes = r.body.len(), ms = started.elapsed().as_millis() as u64, "export ready");
        }
        Err(e) => {
            tracing::warn!(job = job.id, kind = %job.kind, error = %e, "export failed");
            let message = match &e {
                ApiError::Client { message, .. } => message.clone(),
                _ => "The export could not be made.".to_string(),
            };
            state.store.fail_export(job.id, owner, &message, now_millis()).await?;
        }
    }
    Ok(true)
}

/// The export worker of a server: makes waiting jobs one at a time, woken by a new job or every
/// few seconds, and removes expired ones.
pub async fn run_worker(state: AppState) {
    let owner = format!("exports-{}-{:x}", std::process::id(), rand::random::<u32>());
    let mut swept = 0;
    loop {
        let now = now_millis();
        if now - swept > 60_000 {
            swept = now;
            if let Err(e) = state.store.remove_expired_exports(now).await {
                tracing::warn!(error = %e, "expired exports not removed");
            }
        }
        match run_next(&state, &owner).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "export worker"),
        }
        tokio::select! {
            _ = state.exports_wake.notified() => {}
            _ = tokio::time::sleep(IDLE) => {}
        }
    }
}

/// The posts of a job's view as export rows, read in batches as the store streams them: the
/// posts page's list as searched and sorted, or from the dashboard every post of its view,
/// newest first.
pub(crate) struct PostCells {
    /// Rows to expect (the view's posts, at most the export's limit).
    pub expected: i64,
    rx: tokio::sync::mpsc::Receiver<Vec<hark_store::PostRow>>,
    reader: tokio::task::JoinHandle<Result<(), hark_store::StoreError>>,
    tags: std::collections::HashMap<i64, String>,
    anonymize: bool,
}

impl PostCells {
    pub(crate) async fn open(state: &AppState, row: &TrackerRow, params: &ExportParams, view: &ExportView, max: i64) -> ApiResult<Self> {
        let q = match params.source {
            ExportSource::Posts => post_query(view.filter.clone(), &view.posts)?,
            ExportSource::Dashboard => post_query(view.filter.clone(), &Default::default())?,
        };
        let total = state.store.query_posts(row.id, &hark_store::PostQuery { page: 1, per_page: 1, ..q.clone() }).await?.1;
        let tags = state.store.tags(row.id).await?.into_iter().map(|t| (t.id, t.name)).collect();
        let (tx, rx) = tokio::sync::mpsc::channel(2);
        let store = state.store.clone();
        let tracker_id = row.id;
        let reader = tokio::spawn(async move { store.stream_posts(tracker_id, &q, max, 1000, tx).await });
        Ok(Self { expected: total.total.min(max), rx, reader, tags, anonymize: crate::dto::anonymizes_facebook(&row.custom_config) })
    }

    /// The next batch of rows; none at the end.
    pub(crate) async fn next(&mut self) -> Option<Vec<[Cell; 19]>> {
        let rows = self.rx.recv().await?;
        Some(rows.into_iter().map(|r| export_cells(r, &self.tags, self.anonymize)).collect())
    }

    /// Waits for the reader: the store's error, if it stopped on one.
    pub(crate) async fn finish(self) -> ApiResult<()> {
        drop(self.rx);
        self.reader.await.map_err(|e| ApiError::Internal(e.to_string()))??;
        Ok(())
    }
}

/// When a new job is given up if no worker has made it.
pub fn unfinished_expiry(now: Millis) -> Millis {
    now + UNFINISHED_TTL.as_millis() as i64
}
