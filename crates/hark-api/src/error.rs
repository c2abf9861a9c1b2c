//! The one place where errors become HTTP answers: `{"error": {"code", "message"}}` with a stable
//! code. 5xx bodies are generic; the cause goes to the log.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hark_core::SearchError;
use hark_store::StoreError;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    Client { status: StatusCode, code: &'static str, message: String },
    #[error("validation failed")]
    Validation { message: String, fields: Vec<SearchError> },
    #[error("internal: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self::Client { status, code, message: message.into() }
    }

    pub fn unauthorized() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", "Please sign in.")
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub fn tracker_not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "tracker_not_found", "No tracker has this address.")
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", format!("{what} not found."))
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    pub fn validation(fields: Vec<SearchError>) -> Self {
        let message = fields.first().map(|f| f.message.clone()).unwrap_or_else(|| "Invalid input.".into());
        Self::Validation { message, fields }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Client { status, .. } => *status,
            Self::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::not_found("Resource"),
            StoreError::Conflict(c) => ApiError::conflict("conflict", format!("This value is already taken ({c}).")),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<hark_core::Invalid> for ApiError {
    fn from(e: hark_core::Invalid) -> Self {
        ApiError::unprocessable(e.code, e.message)
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
        let detail = match self {
            ApiError::Client { code, message, .. } => ErrorDetail { code: code.into(), message, fields: None },
            ApiError::Validation { message, fields } => {
                ErrorDetail { code: "validation_failed".into(), message, fields: Some(fields) }
            }
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "request failed");
                ErrorDetail {
                    code: "internal".into(),
                    message: "Sorry, an error occurred please try again.".into(),
                    fields: None,
                }
            }
        };
        (status, axum::Json(ErrorBody { error: detail })).into_response()
    }
}
