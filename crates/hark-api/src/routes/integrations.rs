//! The instance administrator's integrations: the Google Sheets service account (its JSON key,
//! sealed before it is stored and never sent back), its check, and what exporters may use.

use axum::extract::State;
use axum::http::StatusCode;
use hark_core::{now_millis, Code};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::exports::sheets::{self, ServiceAccountKey, SheetsPublic, INTEGRATION};
use crate::extract::{CurrentUser, Json};
use crate::AppState;

/// The longest key file taken (a service account's key is about 2.3 KB).
const MAX_KEY: usize = 64 * 1024;

fn require_admin(user: &hark_store::UserRow) -> ApiResult<()> {
    if user.is_admin {
        Ok(())
    } else {
        Err(ApiError::forbidden("Only an instance administrator can set up integrations."))
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationCheck {
    /// `unchecked`, `ok` or `failed`.
    pub state: String,
    pub message: Option<String>,
    pub checked_at: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SheetsSettings {
    /// A key is set.
    pub configured: bool,
    /// The service account's e-mail address.
    pub client_email: Option<String>,
    pub project_id: Option<String>,
    /// Where the Sheets and Drive APIs are called; Google's own when none.
    pub api_base: Option<String>,
    pub updated_at: Option<i64>,
    pub check: IntegrationCheck,
}

async fn settings(state: &AppState) -> ApiResult<SheetsSettings> {
    let row = state.store.integration(INTEGRATION).await?;
    let public: Option<SheetsPublic> = row.as_ref().and_then(|r| serde_json::from_str(&r.public).ok());
    Ok(SheetsSettings {
        configured: row.as_ref().is_some_and(|r| r.sealed.is_some()),
        client_email: public.as_ref().map(|p| p.client_email.clone()).filter(|e| !e.is_empty()),
        project_id: public.as_ref().and_then(|p| p.project_id.clone()),
        api_base: public.as_ref().and_then(|p| p.api_base.clone()),
        updated_at: row.as_ref().map(|r| r.updated_at),
        check: IntegrationCheck {
            state: row.as_ref().map(|r| r.check_state.clone()).unwrap_or_else(|| "unchecked".into()),
            message: row.as_ref().and_then(|r| r.check_message.clone()),
            checked_at: row.as_ref().and_then(|r| r.checked_at),
        },
    })
}

#[utoipa::path(get, path = "/api/v1/admin/integrations/google-sheets", tag = "admin",
    responses((status = 200, body = SheetsSettings), (status = 403, body = ErrorBody)))]
pub async fn get_sheets(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> ApiResult<axum::Json<SheetsSettings>> {
    require_admin(&user)?;
    Ok(axum::Json(settings(&state).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SheetsInput {
    /// The text of the service account's JSON key file; the stored key is kept when absent.
    #[serde(default)]
    pub key: Option<String>,
    /// Where the Sheets and Drive APIs are called (a proxy); empty or null for Google's own.
    #[serde(default)]
    pub api_base: Option<String>,
}

#[utoipa::path(put, path = "/api/v1/admin/integrations/google-sheets", tag = "admin",
    request_body = SheetsInput,
    responses((status = 200, body = SheetsSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_sheets(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Json(input): Json<SheetsInput>,
) -> ApiResult<axum::Json<SheetsSettings>> {
    require_admin(&user)?;
    let api_base = sheets::api_base(input.api_base.as_deref())?;
    let current = state.store.integration(INTEGRATION).await?;
    let (public, sealed) = match input.key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        Some(text) => {
            if text.len() > MAX_KEY {
                return Err(ApiError::new(Code::InvalidKey, "The key file is too large to be a service account's JSON key."));
            }
            let (key, _) = ServiceAccountKey::parse(text)?;
            let public = SheetsPublic { client_email: key.client_email, project_id: key.project_id, api_base };
            (public, state.secret_key.seal(INTEGRATION, text.as_bytes()))
        }
        None => match current.as_ref().and_then(|r| r.sealed.clone().map(|s| (r, s))) {
            Some((row, sealed)) => {
                let mut public: SheetsPublic = serde_json::from_str(&row.public).unwrap_or_default();
                public.api_base = api_base;
                (public, sealed)
            }
            None => return Err(ApiError::new(Code::InvalidKey, "Upload the service account's JSON key.")),
        },
    };
    let public = serde_json::to_string(&public).map_err(|e| ApiError::Internal(e.to_string()))?;
    state.store.save_integration(INTEGRATION, &public, Some(&sealed), now_millis()).await?;
    tracing::info!(admin = user.id, "Google Sheets service account saved");
    Ok(axum::Json(settings(&state).await?))
}

#[utoipa::path(delete, path = "/api/v1/admin/integrations/google-sheets", tag = "admin",
    responses((status = 204, description = "The key is removed"), (status = 403, body = ErrorBody)))]
pub async fn remove_sheets(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> ApiResult<StatusCode> {
    require_admin(&user)?;
    state.store.remove_integration(INTEGRATION).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/v1/admin/integrations/google-sheets/check", tag = "admin",
    responses((status = 200, body = SheetsSettings), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn check_sheets(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> ApiResult<axum::Json<SheetsSettings>> {
    require_admin(&user)?;
    let (outcome, message) = match sheets::check(&state).await? {
        Ok(()) => ("ok", None),
        Err(m) => ("failed", Some(m)),
    };
    state.store.set_integration_check(INTEGRATION, outcome, message.as_deref(), now_millis()).await?;
    Ok(axum::Json(settings(&state).await?))
}

#[derive(Serialize, ToSchema)]
pub struct ExportCapabilities {
    /// Google Sheets is set up on this server.
    pub sheets: bool,
}

#[utoipa::path(get, path = "/api/v1/exports/capabilities", tag = "exports",
    responses((status = 200, body = ExportCapabilities)))]
pub async fn export_capabilities(State(state): State<AppState>) -> ApiResult<axum::Json<ExportCapabilities>> {
    let sheets = state.store.integration(INTEGRATION).await?.is_some_and(|r| r.sealed.is_some());
    Ok(axum::Json(ExportCapabilities { sheets }))
}
