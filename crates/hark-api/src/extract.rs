//! Extractors that answer bad input in our error shape, and the session user.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum_extra::extract::CookieJar;
use hark_core::{now_millis, Permission, PlatformSet};
use hark_store::{PageFilter, TrackerRow, UserRow};
use jiff::tz::TimeZone;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::filters::FilterQuery;
use crate::routes::{load_tracker_for_page, PublicKeys};
use crate::{auth, AppState};
use hark_core::Code;

/// JSON body; malformed or mistyped bodies become 400 `invalid_json`, oversized 413.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Json(v)),
            Err(JsonRejection::BytesRejection(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::new(Code::PayloadTooLarge, "The request body is too large."))
            }
            Err(JsonRejection::MissingJsonContentType(_)) => Err(ApiError::new(
                Code::InvalidContentType,
                "Send the body as application/json.",
            )),
            Err(e) => Err(ApiError::new(Code::InvalidJson, e.body_text())),
        }
    }
}

/// Query string; bad values become 400 `invalid_query`.
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Query(v)),
            Err(e @ QueryRejection::FailedToDeserializeQueryString(_)) => {
                Err(ApiError::new(Code::InvalidQuery, e.body_text()))
            }
            Err(e) => Err(ApiError::new(Code::InvalidQuery, e.body_text())),
        }
    }
}

/// Path parameters; a value of the wrong type (an id that is not a number, or out of range)
/// names nothing here: 404 `not_found` in the error shape.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(Path(v)),
            Err(_) => Err(ApiError::new(Code::NotFound, "Nothing is at this address.")),
        }
    }
}

/// The signed-in user, if any.
pub struct MaybeUser(pub Option<UserRow>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let jar = CookieJar::from_headers(&parts.headers);
        let reads = matches!(parts.method, Method::GET | Method::HEAD);
        match jar.get(auth::SESSION_COOKIE) {
            Some(c) if reads => Ok(MaybeUser(auth::session_user_kept(state, c.value()).await?)),
            Some(c) => Ok(MaybeUser(auth::session_user(state, c.value()).await?)),
            None => Ok(MaybeUser(None)),
        }
    }
}

/// The signed-in user; 401 otherwise.
pub struct CurrentUser(pub UserRow);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match MaybeUser::from_request_parts(parts, state).await?.0 {
            Some(u) => Ok(CurrentUser(u)),
            None => Err(ApiError::unauthorized()),
        }
    }
}

/// A tracker's analytic page as a request names it: the tracker of the path's `{hash}` (which the
/// caller may read), the caller, and the filters every page shares, parsed once from the query.
pub struct TrackerPage {
    pub row: TrackerRow,
    pub perm: Permission,
    pub user: Option<UserRow>,
    pub filter: PageFilter,
    /// The viewer's time zone (`tz`).
    pub tz: TimeZone,
    /// Set when the caller reads through the tracker's share link: what the link allows.
    pub shared: Option<crate::dto::LinkSharing>,
    /// The request carries an embed key (which opens one chart's or page's reads, nothing else).
    pub embedded: bool,
    /// The media wall's moderation key the request carries, if any.
    pub moderation_key: Option<String>,
    /// The range is a number of days back from now (it moves with the clock).
    pub relative_range: bool,
}

impl FromRequestParts<AppState> for TrackerPage {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let MaybeUser(user) = MaybeUser::from_request_parts(parts, state).await?;
        let axum::extract::Path(hash) = axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::tracker_not_found())?;
        let Query(q) = Query::<FilterQuery>::from_request_parts(parts, state).await?;
        let prefix = format!("/api/v1/trackers/{hash}");
        let route = parts.uri.path().strip_prefix(prefix.as_str()).unwrap_or("");
        let keys = PublicKeys {
            share_hash: q.share_hash.as_deref(),
            embed_key: q.embed_key.as_deref(),
            moderation_key: q.moderation_key.as_deref(),
            route,
        };
        let kept = matches!(parts.method, Method::GET | Method::HEAD);
        let (row, perm, shared) = load_tracker_for_page(state, &hash, user.as_ref(), keys, kept).await?;
        let filter = q.parse(PlatformSet::from_bits(row.platforms), user.as_ref().map(|u| u.id), now_millis())?;
        let embedded = q.embed_key.is_some();
        let relative_range =
            q.start.as_deref().is_none_or(str::is_empty) && q.days.as_deref().is_some_and(|d| d.trim().parse::<i64>().is_ok());
        Ok(Self { row, perm, user, filter, tz: q.time_zone()?, shared, embedded, moderation_key: q.moderation_key, relative_range })
    }
}
