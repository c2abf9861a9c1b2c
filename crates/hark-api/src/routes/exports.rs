//! Exports as background jobs: asking for one (the view of the page it was asked from), following
//! its progress, and opening its file at `/export/hashtag/{token}.{ext}`. Who may export: owners,
//! administrators, viewers of a tracker that shares exports, and visitors through the share link
//! when its 'Export reports' toggle is on. A job is its asker's: a member reads only their own
//! jobs; a share-link visitor's job is read with the link.

use axum::extract::State;
use crate::extract::Path;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use hark_core::{now_millis, Code, ExportKind, ExportState, Millis};
use hark_store::{ExportJob, NewExport, TrackerRow, UserRow};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::exports::{self, ExportParams, ExportSource};
use crate::extract::{Json, MaybeUser, Query, TrackerPage};
use crate::filters::FilterQuery;
use crate::routes::posts::{can_export, post_query, PostsParams};
use crate::routes::{load_tracker_for_page, PublicKeys};
use crate::AppState;

/// Jobs of one tracker that may wait or run at once.
pub const MAX_UNFINISHED: i64 = 5;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewExportInput {
    /// `xlsx` (the workbook), `pdf` (the report) or `sheets` (a Google Sheets spreadsheet).
    #[schema(pattern = r"^(xlsx|xls|pdf|sheets|google-sheets)$")]
    pub kind: String,
    /// The page asked from: `dashboard` (every panel and the posts) or `posts` (the list as
    /// searched, filtered and sorted).
    pub source: ExportSource,
    /// The timeline's grouping: none, hour, day, week or month.
    #[serde(default)]
    pub grouping: Option<String>,
    /// The report's second timeline metric: Engagements, Reach or Impressions.
    #[serde(default)]
    pub eri: Option<String>,
    /// The report's timeline as running totals.
    #[serde(default)]
    pub cumulative: bool,
    /// The report's paper: `a4` (default) or `letter`.
    #[serde(default)]
    #[schema(pattern = r"^(a4|A4|letter|us-letter)?$")]
    pub paper: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportJobView {
    pub token: String,
    /// `xlsx`, `pdf` or `sheets`.
    #[schema(value_type = String)]
    pub kind: ExportKind,
    /// `pending`, `running`, `ready` or `failed`.
    #[schema(value_type = String)]
    pub state: ExportState,
    /// Steps done of `total` (rows and panels).
    pub done: i64,
    pub total: i64,
    /// Where the finished file opens (with the share link's `shareHash` for a visitor).
    pub file_url: Option<String>,
    /// The name the file downloads as.
    pub filename: Option<String>,
    pub size: Option<i64>,
    /// Why it failed.
    pub error: Option<String>,
    pub created_at: Millis,
    pub expires_at: Millis,
}

impl ExportJobView {
    /// The job as its asker sees it; a share-link visitor's file URL carries the link's hash.
    fn of(job: &ExportJob, share_hash: Option<&str>) -> Self {
        let file_url = (job.state == ExportState::Ready).then(|| match (&job.url, share_hash) {
            (Some(url), _) => url.clone(),
            (None, Some(h)) => format!("{}?shareHash={}", exports::file_path(job), url::form_urlencoded::byte_serialize(h.as_bytes()).collect::<String>()),
            (None, None) => exports::file_path(job),
        });
        Self {
            token: job.token.clone(),
            kind: job.kind,
            state: job.state,
            done: job.progress_done,
            total: job.progress_total,
            file_url,
            filename: job.filename.clone(),
            size: job.size,
            error: job.error.clone(),
            created_at: job.created_at,
            expires_at: job.expires_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ExportList {
    pub exports: Vec<ExportJobView>,
}

/// The plan check: XLS is not on every plan. A signed-in caller's
/// own plan decides; a share-link visitor's, the tracker owner's.
async fn xls_allowed(state: &AppState, row: &TrackerRow, user: Option<&UserRow>) -> ApiResult<bool> {
    let of = |u: &UserRow| crate::dto::features_of(u).xls;
    Ok(match user {
        Some(u) => of(u),
        None => state.store.user_by_id(row.owner_id).await?.is_some_and(|u| of(&u)),
    })
}

fn refuse_export(user: Option<&UserRow>, shared: bool) -> ApiError {
    if user.is_none() && !shared {
        ApiError::unauthorized()
    } else {
        ApiError::forbidden("Exporting needs the owner, an administrator or shared exports.")
    }
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/exports", tag = "exports",
    params(("hash" = String, Path), FilterQuery, PostsParams),
    request_body = NewExportInput,
    responses((status = 202, body = ExportJobView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn create_export(
    State(state): State<AppState>,
    page: TrackerPage,
    uri: Uri,
    Query(posts): Query<PostsParams>,
    Json(input): Json<NewExportInput>,
) -> ApiResult<Response> {
    let TrackerPage { row, perm, user, filter, shared, .. } = page;
    if !can_export(&row, user.as_ref(), perm, shared.as_ref()) {
        return Err(refuse_export(user.as_ref(), shared.is_some()));
    }
    let kind = match input.kind.as_str() {
        "xlsx" | "xls" => ExportKind::Xlsx,
        "pdf" => ExportKind::Pdf,
        "sheets" | "google-sheets" => ExportKind::Sheets,
        _ => return Err(ApiError::new(Code::InvalidChoice, "kind must be xlsx, pdf or sheets.")),
    };
    // The workbook is not on every plan (15 and 25 lack it). The PDF report and the spreadsheet
    // are: the spec's allowed-XLS flag, which the spreadsheet also needs, is every account's here.
    if kind == ExportKind::Xlsx && !xls_allowed(&state, &row, user.as_ref()).await? {
        return Err(ApiError::new(Code::UpgradeRequired, "Upgrade your account to export XLS reports."));
    }
    if kind == ExportKind::Sheets && !state.store.integration(exports::sheets::INTEGRATION).await?.is_some_and(|r| r.sealed.is_some()) {
        return Err(ApiError::new(Code::SheetsNotConfigured, "Google Sheets is not set up on this server."));
    }
    exports::pdf::paper(input.paper.as_deref())?;
    if let Some(e) = input.eri.as_deref().filter(|e| !e.is_empty()) {
        if !["Engagements", "Reach", "Impressions"].contains(&e) {
            return Err(ApiError::new(Code::InvalidChoice, "eri must be Engagements, Reach or Impressions."));
        }
    }
    // The view is checked now, so that a bad query is the caller's error, not a failed job.
    post_query(filter, &posts)?;
    if let Some(g) = input.grouping.as_deref() {
        if !["none", "minutes", "hour", "day", "week", "month", ""].contains(&g) {
            return Err(ApiError::new(Code::InvalidQuery, "grouping must be none, minutes, hour, day, week or month."));
        }
    }
    if state.store.unfinished_exports(row.id).await? >= MAX_UNFINISHED {
        return Err(ApiError::new(Code::RateLimited, "Several exports of this tracker are on their way; try again when they are ready."));
    }
    let now = now_millis();
    let params = ExportParams {
        source: input.source,
        query: exports::stored_query(uri.query()),
        now,
        grouping: input.grouping,
        eri: input.eri.filter(|e| !e.is_empty()),
        cumulative: input.cumulative,
        paper: input.paper,
    };
    let params = serde_json::to_string(&params).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let job = state
        .store
        .create_export(&NewExport {
            token: &token,
            tracker_id: row.id,
            // Through the share link the job is the link's, even for a signed-in visitor: it is
            // read with the link.
            user_id: if shared.is_some() { None } else { user.as_ref().map(|u| u.id) },
            kind,
            params: &params,
            now,
            expires_at: exports::unfinished_expiry(now),
        })
        .await?;
    state.exports_wake.notify_one();
    let share_hash = if shared.is_some() { row.share_hash.as_deref() } else { None };
    Ok((StatusCode::ACCEPTED, axum::Json(ExportJobView::of(&job, share_hash))).into_response())
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/exports", tag = "exports",
    params(("hash" = String, Path), FilterQuery),
    responses((status = 200, body = ExportList), (status = 404, body = ErrorBody)))]
pub async fn list_exports(State(state): State<AppState>, page: TrackerPage) -> ApiResult<axum::Json<ExportList>> {
    let exports = match &page.user {
        Some(u) if page.shared.is_none() => {
            state.store.user_exports(page.row.id, u.id, now_millis()).await?.iter().map(|j| ExportJobView::of(j, None)).collect()
        }
        _ => Vec::new(),
    };
    Ok(axum::Json(ExportList { exports }))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ShareKey {
    /// The tracker's share link hash, for a visitor who asked through it.
    pub share_hash: Option<String>,
}

/// The job `token` names, if the caller may read it: a member their own job, while they may still
/// export the tracker; a share-link visitor a visitor's job, while the link allows exports.
async fn readable_job(state: &AppState, token: &str, user: Option<&UserRow>, share_hash: Option<&str>) -> ApiResult<ExportJob> {
    let missing = || ApiError::not_found("Export");
    let token = token.split('.').next().unwrap_or_default();
    if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(missing());
    }
    let job = state.store.export_by_token(token).await?.ok_or_else(missing)?;
    let row = state.store.tracker_by_id(job.tracker_id).await?.ok_or_else(missing)?;
    let keys = PublicKeys { share_hash, embed_key: None, moderation_key: None, route: "/exports" };
    let (row, perm, shared) = load_tracker_for_page(state, &row.hash, user, keys, false).await?;
    if !can_export(&row, user, perm, shared.as_ref()) {
        return Err(refuse_export(user, shared.is_some()));
    }
    let mine = match (job.user_id, shared.is_some()) {
        (Some(owner), false) => user.is_some_and(|u| u.id == owner),
        (None, true) => true,
        _ => false,
    };
    if !mine {
        return Err(missing());
    }
    Ok(job)
}

#[utoipa::path(get, path = "/api/v1/exports/{token}", tag = "exports",
    params(("token" = String, Path), ShareKey),
    responses((status = 200, body = ExportJobView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_export(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(token): Path<String>,
    Query(k): Query<ShareKey>,
) -> ApiResult<axum::Json<ExportJobView>> {
    let job = readable_job(&state, &token, user.as_ref(), k.share_hash.as_deref()).await?;
    let share_hash = if job.user_id.is_none() { k.share_hash.as_deref() } else { None };
    Ok(axum::Json(ExportJobView::of(&job, share_hash)))
}

#[utoipa::path(get, path = "/api/v1/exports/sample.xlsx", tag = "exports",
    responses((status = 200, description = "A workbook of made-up posts", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")))]
pub async fn sample_workbook() -> ApiResult<Response> {
    let body = tokio::task::spawn_blocking(exports::xlsx::sample).await.map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok((
        [
            (header::CONTENT_TYPE, exports::xlsx::CONTENT_TYPE.to_string()),
            (header::CONTENT_DISPOSITION, crate::csv_file::disposition_as("attachment", "hark-sample-report.xlsx")),
        ],
        body,
    )
        .into_response())
}

#[utoipa::path(get, path = "/export/hashtag/{filename}", tag = "exports",
    params(("filename" = String, Path, description = "`{token}.{ext}`"), ShareKey),
    responses((status = 200, description = "The file", content_type = "application/octet-stream"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn export_file(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(filename): Path<String>,
    Query(k): Query<ShareKey>,
) -> ApiResult<Response> {
    let job = readable_job(&state, &filename, user.as_ref(), k.share_hash.as_deref()).await?;
    if job.state != ExportState::Ready {
        return Err(ApiError::new(
            Code::ExportNotReady,
            match job.state {
                ExportState::Failed => format!("We were unable to generate the {}.", job.kind.label()),
                _ => format!("The {} is not ready yet.", job.kind.label()),
            },
        ));
    }
    let file = state.store.export_file(job.id).await?.ok_or_else(|| ApiError::not_found("Export"))?;
    // A PDF opens in the browser; every other file downloads.
    let how = if file.content_type == "application/pdf" { "inline" } else { "attachment" };
    Ok((
        [
            (header::CONTENT_TYPE, file.content_type.clone()),
            (header::CONTENT_DISPOSITION, crate::csv_file::disposition_as(how, &file.filename)),
        ],
        file.body,
    )
        .into_response())
}
