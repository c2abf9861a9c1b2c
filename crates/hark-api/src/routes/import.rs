use axum::body::Body;
use axum::extract::State;
use crate::extract::Path;
use axum::http::{header, HeaderMap};
use hark_core::{now_millis, Permission, Platform};
use hark_ingest::import::{parse_csv, parse_ndjson, CsvMapping};
use hark_ingest::pipeline::{compile, import_posts, ImportSummary, IngestError};
use serde::Deserialize;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Query};
use crate::routes::load_tracker;
use crate::AppState;
use hark_core::Code;

/// Largest file the upload endpoint reads.
pub const MAX_IMPORT_BYTES: usize = 50 * 1024 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
pub struct ImportQuery {
    /// `ndjson` (default) or `csv`; a `text/csv` body is read as CSV.
    #[param(pattern = r"^(ndjson|jsonl|json|csv)$")]
    format: Option<String>,
    /// CSV: platform of rows without a platform column (twt, ig, yt, fb, tt, news, blogs, forums, bsky, mastodon).
    platform: Option<String>,
    /// CSV: explicit column mapping, `field=Column,...`.
    map: Option<String>,
}

#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    lines: usize,
    imported: u64,
    new_posts: u64,
    unmatched: u64,
    invalid: u64,
    #[schema(value_type = Vec<Object>)]
    errors: Vec<hark_ingest::import::LineError>,
}

impl From<ImportSummary> for ImportResult {
    fn from(s: ImportSummary) -> Self {
        ImportResult {
            lines: s.lines,
            imported: s.imported,
            new_posts: s.new_posts,
            unmatched: s.unmatched,
            invalid: s.invalid,
            errors: s.errors,
        }
    }
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/import", tag = "trackers",
    params(("hash" = String, Path), ImportQuery),
    request_body(content = String, description = "The file: NDJSON (Hark posts or X API v2 responses) or CSV with a header row",
        content_type = "application/x-ndjson"),
    responses((status = 200, body = ImportResult), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn import_file(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Query(q): Query<ImportQuery>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<axum::Json<ImportResult>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if tracker.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    let csv_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/csv"));
    let is_csv = match q.format.as_deref() {
        Some("csv") => true,
        Some("ndjson") | Some("jsonl") | Some("json") => false,
        None => csv_body,
        Some(other) => {
            return Err(ApiError::new(Code::InvalidQuery, format!("Unknown format '{other}': use ndjson or csv.")))
        }
    };
    let mut mapping = match q.map.as_deref().filter(|m| !m.trim().is_empty()) {
        Some(m) => CsvMapping::parse_overrides(m).map_err(|e| ApiError::new(Code::InvalidMapping, e))?,
        None => CsvMapping::default(),
    };
    if let Some(p) = q.platform.as_deref().filter(|p| !p.is_empty()) {
        mapping = mapping.with_platform(Platform::parse(p).map_err(|e| ApiError::new(Code::InvalidQuery, e.message))?);
    }
    let bytes = axum::body::to_bytes(body, MAX_IMPORT_BYTES).await.map_err(|_| {
        ApiError::new(Code::PayloadTooLarge, "The file is larger than 50 MB; use `hark import`.")
    })?;
    if bytes.is_empty() {
        return Err(ApiError::new(Code::EmptyFile, "The file is empty."));
    }
    let batch = tokio::task::spawn_blocking(move || {
        if is_csv {
            parse_csv(bytes.as_ref(), &mapping)
        } else {
            parse_ndjson(bytes.as_ref())
        }
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let matcher = std::sync::Arc::new(
        compile(&[(tracker.id, tracker.criteria.clone())]).map_err(|e| ApiError::Internal(e.to_string()))?,
    );
    let mut summary = ImportSummary { lines: batch.lines, ..Default::default() };
    summary.add_errors(batch.errors);
    import_posts(&state.store, &matcher, batch.posts, &mut summary, now_millis()).await.map_err(import_error)?;
    Ok(axum::Json(summary.into()))
}

/// An import that failed: a busy database is a 503 that may be sent again (the batches written
/// before it stay, and a post sent twice is stored once); anything else is the server's fault.
fn import_error(e: IngestError) -> ApiError {
    match e {
        IngestError::Store(s) if s.is_busy() => {
            tracing::warn!(cause = %s, "database busy during an import");
            ApiError::new(
                Code::Busy,
                "The database is busy. Send the file again in a moment: posts already stored are not stored twice.",
            )
        }
        other => ApiError::Internal(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    /// A database error with a given code, as SQLite or PostgreSQL report one.
    #[derive(Debug)]
    struct Coded(&'static str);

    impl std::fmt::Display for Coded {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "database error {}", self.0)
        }
    }

    impl std::error::Error for Coded {}

    impl sqlx::error::DatabaseError for Coded {
        fn message(&self) -> &str {
            "database error"
        }
        fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
            Some(self.0.into())
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn failed(code: &'static str) -> IngestError {
        IngestError::Store(hark_store::StoreError::Database(sqlx::Error::Database(Box::new(Coded(code)))))
    }

    #[test]
    fn a_busy_database_during_an_import_is_a_503_to_send_again() {
        // SQLITE_BUSY (5), SQLITE_LOCKED (6) and PostgreSQL's lock timeout.
        for code in ["5", "6", "55P03"] {
            let e = import_error(failed(code));
            assert_eq!(e.status(), StatusCode::SERVICE_UNAVAILABLE, "{code}");
        }
        // Any other failure stays the server's.
        assert_eq!(import_error(failed("1")).status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(import_error(IngestError::Task("gone".into())).status(), StatusCode::INTERNAL_SERVER_ERROR);
        // A write of one batch (a post added by address) maps the same way, as any write does.
        for code in ["5", "6", "55P03"] {
            assert_eq!(ApiError::from(failed(code)).status(), StatusCode::SERVICE_UNAVAILABLE, "{code}");
        }
        assert_eq!(ApiError::from(failed("1")).status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
