//! The one place where errors become HTTP answers: `{"error": {"code", "message"}}` with a stable
//! code. 5xx bodies are generic; the cause goes to the log.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hark_core::{Code, SearchError};
use hark_store::StoreError;
use serde::Serialize;

#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    Client { code: Code, message: String },
    #[error("validation failed")]
    Validation { message: String, fields: Vec<SearchError> },
    /// 429 `rate_limited`, with the seconds to wait in `Retry-After`.
    #[error("{message}")]
    Limited { message: String, retry_after: u64 },
    #[error("internal: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The HTTP status of each code: one per code, so a client can rely on either.
pub fn status(code: Code) -> StatusCode {
    match code {
        Code::AlreadySetUp => StatusCode::CONFLICT,
        Code::BackfillInProgress => StatusCode::CONFLICT,
        Code::Conflict => StatusCode::CONFLICT,
        Code::ConnectorIncomplete => StatusCode::UNPROCESSABLE_ENTITY,
        Code::CsrfFailed => StatusCode::FORBIDDEN,
        Code::CustomUrlTaken => StatusCode::CONFLICT,
        Code::DestinationNotSet => StatusCode::UNPROCESSABLE_ENTITY,
        Code::EmptyFile => StatusCode::UNPROCESSABLE_ENTITY,
        Code::ExportNotReady => StatusCode::CONFLICT,
        Code::Forbidden => StatusCode::FORBIDDEN,
        Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Code::InvalidBaseUrl => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidChart => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidChoice => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidColumns => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidContentType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Code::InvalidCountry => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidCredentials => StatusCode::UNAUTHORIZED,
        Code::InvalidCustomUrl => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidDate => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidEmail => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidJson => StatusCode::BAD_REQUEST,
        Code::InvalidKey => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidLanguage => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidMapping => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidMode => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidName => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidPassword => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidPlatform => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidPostKey => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidQuery => StatusCode::BAD_REQUEST,
        Code::InvalidRange => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidSentiment => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidTagColor => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidUrls => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidUsers => StatusCode::UNPROCESSABLE_ENTITY,
        Code::InvalidVolumeLimit => StatusCode::UNPROCESSABLE_ENTITY,
        Code::KeywordTooLong => StatusCode::UNPROCESSABLE_ENTITY,
        Code::MailFailed => StatusCode::BAD_GATEWAY,
        Code::MailNotConfigured => StatusCode::SERVICE_UNAVAILABLE,
        Code::Busy => StatusCode::SERVICE_UNAVAILABLE,
        Code::NoConnector => StatusCode::UNPROCESSABLE_ENTITY,
        Code::NoPosts => StatusCode::UNPROCESSABLE_ENTITY,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Code::PlatformLocked => StatusCode::UNPROCESSABLE_ENTITY,
        Code::PlatformsRequired => StatusCode::UNPROCESSABLE_ENTITY,
        Code::PrivateAddress => StatusCode::UNPROCESSABLE_ENTITY,
        Code::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        Code::SearchTermTooLong => StatusCode::UNPROCESSABLE_ENTITY,
        Code::SearchTermsRequired => StatusCode::UNPROCESSABLE_ENTITY,
        Code::SheetsNotConfigured => StatusCode::CONFLICT,
        Code::TagExists => StatusCode::CONFLICT,
        Code::TagNameRequired => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TagNameTooLong => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TitleTooLong => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyBuckets => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyIgnored => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyItems => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyKeywords => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyPosts => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManyRows => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManySearches => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TooManySubtrackers => StatusCode::UNPROCESSABLE_ENTITY,
        Code::TrackerNotFound => StatusCode::NOT_FOUND,
        Code::TrackerTooLarge => StatusCode::UNPROCESSABLE_ENTITY,
        Code::Unauthorized => StatusCode::UNAUTHORIZED,
        Code::UnknownField => StatusCode::UNPROCESSABLE_ENTITY,
        Code::UnknownTag => StatusCode::UNPROCESSABLE_ENTITY,
        Code::UpgradeRequired => StatusCode::FORBIDDEN,
        Code::TrialExpired => StatusCode::FORBIDDEN,
        Code::ValidationFailed => StatusCode::UNPROCESSABLE_ENTITY,
        Code::ValueTooLong => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

impl ApiError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self::Client { code, message: message.into() }
    }

    pub fn unauthorized() -> Self {
        Self::new(Code::Unauthorized, "Please sign in.")
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(Code::Forbidden, message)
    }

    pub fn tracker_not_found() -> Self {
        Self::new(Code::TrackerNotFound, "No tracker has this address.")
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(Code::NotFound, format!("{what} not found."))
    }

    pub fn validation(fields: Vec<SearchError>) -> Self {
        let message = fields.first().map(|f| f.message.clone()).unwrap_or_else(|| "Invalid input.".into());
        Self::Validation { message, fields }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Client { code, .. } => status(*code),
            Self::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Limited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::not_found("Resource"),
            StoreError::Conflict(c) => ApiError::new(Code::Conflict, format!("This value is already taken ({c}).")),
            other if other.is_busy() => {
                tracing::warn!(cause = %other, "database busy");
                ApiError::new(Code::Busy, "The database is busy: nothing was changed. Try again in a moment.")
            }
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// A write through the ingest pipeline of one batch (a post added by address, say): the store's
/// errors as any other write's (a busy database is 503 `busy`: nothing was written). An import of
/// several batches words its own (`routes::import`).
impl From<hark_ingest::pipeline::IngestError> for ApiError {
    fn from(e: hark_ingest::pipeline::IngestError) -> Self {
        match e {
            hark_ingest::pipeline::IngestError::Store(s) => s.into(),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<hark_core::Invalid> for ApiError {
    fn from(e: hark_core::Invalid) -> Self {
        ApiError::new(e.code, e.message)
    }
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub fields: Option<Vec<SearchError>>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut retry_after = None;
        let detail = match self {
            ApiError::Client { code, message } => ErrorDetail { code: code.as_str().into(), message, fields: None },
            ApiError::Validation { message, fields } => {
                ErrorDetail { code: Code::ValidationFailed.as_str().into(), message, fields: Some(fields) }
            }
            ApiError::Limited { message, retry_after: wait } => {
                retry_after = Some(wait);
                ErrorDetail { code: Code::RateLimited.as_str().into(), message, fields: None }
            }
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "request failed");
                ErrorDetail {
                    code: Code::Internal.as_str().into(),
                    message: "Sorry, an error occurred please try again.".into(),
                    fields: None,
                }
            }
        };
        let mut res = (status, axum::Json(ErrorBody { error: detail })).into_response();
        if let Some(wait) = retry_after {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(wait));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_database_is_a_503_that_may_be_sent_again() {
        assert_eq!(status(Code::Busy), StatusCode::SERVICE_UNAVAILABLE);
    }

    /// docs/api.md's table of error codes lists every code with its status, in order.
    #[test]
    fn the_error_code_table_matches_the_codes() {
        let doc = include_str!("../../../docs/api.md");
        let rows: Vec<(String, u16)> = doc
            .lines()
            .skip_while(|l| *l != "## Error codes")
            .skip(1)
            .take_while(|l| !l.starts_with("## "))
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let code = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                Some((code.to_string(), cells.get(2)?.parse().ok()?))
            })
            .collect();
        let want: Vec<(String, u16)> = Code::ALL.iter().map(|c| (c.as_str().to_string(), status(*c).as_u16())).collect();
        assert_eq!(rows, want, "docs/api.md's error codes differ from hark_core::Code and error::status");
    }
}
