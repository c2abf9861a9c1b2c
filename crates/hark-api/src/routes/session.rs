use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum_extra::extract::CookieJar;
use hark_core::{now_millis, Permission};
use hark_store::NewUser;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{self, ensure_csrf, start_session};
use crate::dto::Me;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Json, MaybeUser, Query};
use crate::routes::load_tracker;
use crate::AppState;
use hark_core::Code;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupState {
    needs_setup: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    status: &'static str,
}

#[utoipa::path(get, path = "/api/v1/health", tag = "session", responses((status = 200, body = Health)))]
pub async fn health(State(state): State<AppState>) -> ApiResult<axum::Json<Health>> {
    state.store.ping().await?;
    Ok(axum::Json(Health { status: "ok" }))
}

#[utoipa::path(get, path = "/api/v1/setup", tag = "session", responses((status = 200, body = SetupState)))]
pub async fn setup_state(State(state): State<AppState>) -> ApiResult<axum::Json<SetupState>> {
    Ok(axum::Json(SetupState { needs_setup: state.store.count_users().await? == 0 }))
}

#[derive(Deserialize, ToSchema)]
pub struct SetupInput {
    #[schema(max_length = 254, pattern = r"^[\u0021-\u003f\u0041-\u007e]+@[\u0021-\u002d\u002f-\u007e][\u0021-\u007e]*\.[\u0021-\u007e]*$")]
    email: String,
    #[schema(min_length = 8, max_length = 200)]
    password: String,
    #[serde(default)]
    #[schema(max_length = 100)]
    name: String,
}

/// The new account's defaults on a self-hosted instance: every plan feature on, no trial.
pub fn self_hosted_user(email: String, password_hash: String, name: String, is_admin: bool) -> NewUser {
    let plan = hark_core::plans::catalogue().default();
    NewUser {
        email,
        password_hash,
        name,
        is_admin,
        trial: false,
        trial_expires: None,
        plan: plan.number,
        max_searches: plan.max_searches,
        max_ignored: plan.max_ignored,
    }
}

pub(crate) fn clean_name(name: &str) -> ApiResult<String> {
    let n = name.trim();
    if n.chars().count() > 100 {
        return Err(ApiError::new(Code::InvalidName, "Name must be at most 100 characters."));
    }
    Ok(n.to_string())
}

#[utoipa::path(post, path = "/api/v1/setup", tag = "session", request_body = SetupInput,
    responses((status = 201, body = Me), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn setup(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
    Json(input): Json<SetupInput>,
) -> ApiResult<impl IntoResponse> {
    let email = auth::validate_email(&input.email)?;
    auth::validate_password(&input.password)?;
    let name = clean_name(&input.name)?;
    let already = || ApiError::new(Code::AlreadySetUp, "This instance already has an account; sign in instead.");
    // Before hashing: a set-up instance spends no time on it.
    if state.store.count_users().await? > 0 {
        return Err(already());
    }
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&input.password))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let user = state
        .store
        .create_first_user(&self_hosted_user(email, hash, name, true), now_millis())
        .await?
        .ok_or_else(already)?;
    let jar = start_session(&state, &headers, jar, user.id).await?;
    let (jar, csrf) = ensure_csrf(&state, &headers, jar);
    Ok((StatusCode::CREATED, jar, axum::Json(Me::new(Some(&user), Permission::NoAccess, false, csrf))))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginInput {
    email: String,
    password: String,
}

#[utoipa::path(post, path = "/api/v1/auth/login", tag = "session", request_body = LoginInput,
    responses((status = 200, body = Me), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    jar: CookieJar,
    Json(input): Json<LoginInput>,
) -> ApiResult<impl IntoResponse> {
    let email = input.email.trim().to_lowercase();
    if email.len() > 254 || input.password.len() > 1024 {
        return Err(ApiError::new(Code::InvalidCredentials, "Invalid email or password."));
    }
    state.login_limiter.check(peer.ip(), &email)?;
    let user = state.store.user_by_email(&email).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone()).unwrap_or_default();
    let password = input.password;
    let ok = tokio::task::spawn_blocking(move || auth::verify_password(&password, &stored))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let user = match (ok, user) {
        (true, Some(u)) => u,
        _ => {
            return Err(ApiError::new(Code::InvalidCredentials, "Invalid email or password."))
        }
    };
    let jar = start_session(&state, &headers, jar, user.id).await?;
    let (jar, csrf) = ensure_csrf(&state, &headers, jar);
    Ok((jar, axum::Json(Me::new(Some(&user), Permission::NoAccess, false, csrf))))
}

#[utoipa::path(post, path = "/api/v1/auth/logout", tag = "session", responses((status = 204)))]
pub async fn logout(State(state): State<AppState>, jar: CookieJar) -> ApiResult<impl IntoResponse> {
    let jar = auth::end_session(&state, jar).await?;
    Ok((StatusCode::NO_CONTENT, jar))
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct MeQuery {
    /// A tracker hash: the answer then carries the caller's permission on it.
    tracker: Option<String>,
}

#[utoipa::path(get, path = "/api/v1/me", tag = "session", params(MeQuery), responses((status = 200, body = Me)))]
pub async fn me(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
    MaybeUser(user): MaybeUser,
    Query(q): Query<MeQuery>,
) -> ApiResult<impl IntoResponse> {
    let mut permission = Permission::NoAccess;
    if let Some(hash) = q.tracker.as_deref().filter(|h| !h.is_empty()) {
        if let Ok((_, p)) = load_tracker(&state, hash, user.as_ref(), Permission::Viewer).await {
            permission = p;
        }
    }
    let (jar, csrf) = ensure_csrf(&state, &headers, jar);
    Ok((jar, axum::Json(Me::new(user.as_ref(), permission, permission == Permission::Owner, csrf))))
}
