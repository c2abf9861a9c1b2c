//! Exports made in the background: the worker every server runs, which leases one stored job at a
//! time, reads the view the job names exactly as its pages do, writes the file and keeps it in
//! the database until the job expires. A job whose server stopped is made anew by the next
//! worker whose lease request finds its lease run out (a restart, or another node).

pub mod pdf;
pub mod xlsx;

use std::time::Duration;

use hark_core::{now_millis, ExportKind, Millis, PlatformSet};
use hark_store::{ExportJob, ExportResult, PageFilter, TrackerRow};
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::filters::FilterQuery;
use crate::routes::posts::PostsParams;
use crate::AppState;

/// How long a worker holds a job between two progress reports before another may take it over.
pub const LEASE: Duration = Duration::from_secs(60);
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

/// The file's name for the person downloading it: the tracker's name, the range and the kind.
pub fn download_name(row: &TrackerRow, f: &PageFilter, kind: ExportKind) -> String {
    let day = |ms: Millis| jiff::Timestamp::from_millisecond(ms).map(|t| t.strftime("%Y%m%d").to_string()).unwrap_or_default();
    let range = match (f.start, f.end) {
        (Some(s), Some(e)) => format!("{}-{}", day(s), day(e)),
        (Some(s), None) => format!("from-{}", day(s)),
        _ => "all-time".to_string(),
    };
    let ext = extension(kind);
    let name: String = row.friendly.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    format!("{}-{range}.{ext}", if name.is_empty() { "tracker" } else { name.as_str() })
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
        ExportKind::Sheets => "txt",
    }
}

/// Reports a job's progress and keeps its lease; an error when the lease was lost, which ends
/// the job's making here (another worker has it).
pub struct Progress<'a> {
    state: &'a AppState,
    job: &'a ExportJob,
    owner: &'a str,
    pub total: i64,
    last: std::time::Instant,
}

impl Progress<'_> {
    pub async fn report(&mut self, done: i64, force: bool) -> ApiResult<()> {
        if !force && self.last.elapsed() < Duration::from_millis(500) {
            return Ok(());
        }
        self.last = std::time::Instant::now();
        let now = now_millis();
        let held = self
            .state
            .store
            .export_progress(self.job.id, self.owner, done.min(self.total), self.total, now, now + LEASE.as_millis() as i64)
            .await?;
        if held {
            Ok(())
        } else {
            Err(ApiError::Internal("the export's lease was lost".into()))
        }
    }
}

/// Makes one leased job's file.
async fn make(state: &AppState, job: &ExportJob, owner: &str) -> ApiResult<(String, &'static str, Vec<u8>)> {
    let params: ExportParams =
        serde_json::from_str(&job.params).map_err(|e| ApiError::Internal(format!("export parameters: {e}")))?;
    let row = state.store.tracker_by_id(job.tracker_id).await?.ok_or_else(ApiError::tracker_not_found)?;
    let view = params.view(&row, job.user_id)?;
    let mut progress = Progress { state, job, owner, total: 1, last: std::time::Instant::now() };
    match job.kind {
        ExportKind::Xlsx => {
            let body = xlsx::workbook(state, &row, &params, &view, &mut progress).await?;
            Ok((download_name(&row, &view.filter, job.kind), xlsx::CONTENT_TYPE, body))
        }
        ExportKind::Pdf => {
            let body = pdf::report(state, &row, &params, &view, &mut progress).await?;
            Ok((download_name(&row, &view.filter, job.kind), pdf::CONTENT_TYPE, body))
        }
        other => Err(ApiError::Internal(format!("{} exports are not made by this server", other.as_str()))),
    }
}

/// Leases and makes the next waiting job; false when there was none.
pub async fn run_next(state: &AppState, owner: &str) -> ApiResult<bool> {
    let now = now_millis();
    let Some(job) = state.store.lease_export(owner, now, now + LEASE.as_millis() as i64).await? else {
        return Ok(false);
    };
    let started = std::time::Instant::now();
    match make(state, &job, owner).await {
        Ok((filename, content_type, body)) => {
            let now = now_millis();
            let expires_at = now + state.config.export_ttl().as_millis() as i64;
            let r = ExportResult { filename: &filename, content_type, body: &body, url: None, expires_at };
            state.store.finish_export(job.id, owner, &r, now).await?;
            tracing::info!(job = job.id, kind = %job.kind, bytes = body.len(), ms = started.elapsed().as_millis() as u64, "export ready");
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

/// When a new job is given up if no worker has made it.
pub fn unfinished_expiry(now: Millis) -> Millis {
    now + UNFINISHED_TTL.as_millis() as i64
}
