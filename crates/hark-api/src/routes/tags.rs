use axum::extract::State;
use crate::extract::Path;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use hark_core::{now_millis, Permission, TagColor, TagName};
use hark_store::StoreError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::dto::Tag;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, MaybeUser};
use crate::routes::load_tracker;
use crate::AppState;
use hark_core::Code;

#[derive(Serialize, ToSchema)]
pub struct TagList {
    tags: Vec<Tag>,
}

#[derive(Deserialize, ToSchema)]
pub struct TagInput {
    /// Not blank: at least one character other than white space; at most 45 characters.
    #[schema(min_length = 1, max_length = 45, pattern = r"[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")]
    name: String,
    /// A palette colour by name or hex value; Tomato by default.
    #[serde(default)]
    #[schema(pattern = r"^(Tomato|Flamingo|Orange|Banana|Forest|Peacock|Blueberry|Grape|Graphite|tomato|flamingo|orange|banana|forest|peacock|blueberry|grape|graphite|#047878|#2980b9|#2980B9|#3f51b5|#3F51B5|#616161|#800080|#C0392B|#c0392b|#E67C73|#e67c73|#F57336|#f57336|#ffb733|#FFB733)?$")]
    color: Option<String>,
}

impl TagInput {
    fn parse(&self) -> ApiResult<(TagName, TagColor)> {
        let name = TagName::parse(&self.name)?;
        let color = match self.color.as_deref() {
            None | Some("") => TagColor::default(),
            Some(c) => TagColor::parse(c)?,
        };
        Ok((name, color))
    }
}

fn taken(e: StoreError) -> ApiError {
    if e.is_conflict_on("tags_tracker_name_key", "tags.tracker_id, tags.name") {
        ApiError::new(Code::TagExists, "A tag with this name already exists.")
    } else {
        e.into()
    }
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/tags", tag = "tags", params(("hash" = String, Path), crate::routes::trackers::ShareParam),
    responses((status = 200, body = TagList)))]
pub async fn list_tags(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(hash): Path<String>,
    crate::extract::Query(share): crate::extract::Query<crate::routes::trackers::ShareParam>,
) -> ApiResult<axum::Json<TagList>> {
    let (row, _, _) = crate::routes::load_tracker_for_page(&state, &hash, user.as_ref(), share.keys("/tags"), false).await?;
    let tags = state.store.tags(row.id).await?.into_iter().map(Tag::from).collect();
    Ok(axum::Json(TagList { tags }))
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/tags", tag = "tags", params(("hash" = String, Path)),
    request_body = TagInput, responses((status = 201, body = Tag), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<TagInput>,
) -> ApiResult<impl IntoResponse> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let (name, color) = input.parse()?;
    let tag = state.store.create_tag(row.id, name.as_str(), color.hex(), now_millis()).await.map_err(taken)?;
    Ok((StatusCode::CREATED, axum::Json(Tag::from(tag))))
}

#[utoipa::path(patch, path = "/api/v1/trackers/{hash}/tags/{id}", tag = "tags",
    params(("hash" = String, Path), ("id" = i64, Path)), request_body = TagInput,
    responses((status = 200, body = Tag), (status = 404, body = ErrorBody)))]
pub async fn edit_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((hash, id)): Path<(String, i64)>,
    Json(input): Json<TagInput>,
) -> ApiResult<axum::Json<Tag>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let (name, color) = input.parse()?;
    let tag = state
        .store
        .update_tag(row.id, id, name.as_str(), color.hex())
        .await
        .map_err(taken)?
        .ok_or_else(|| ApiError::not_found("Tag"))?;
    Ok(axum::Json(Tag::from(tag)))
}

#[utoipa::path(delete, path = "/api/v1/trackers/{hash}/tags/{id}", tag = "tags",
    params(("hash" = String, Path), ("id" = i64, Path)), responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((hash, id)): Path<(String, i64)>,
) -> ApiResult<StatusCode> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if state.store.delete_tag(row.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Tag"))
    }
}

#[utoipa::path(get, path = "/api/v1/influencer-tags", tag = "tags", responses((status = 200, body = TagList)))]
pub async fn influencer_tags(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> ApiResult<axum::Json<TagList>> {
    let tags = state.store.influencer_tags(user.id).await?.into_iter().map(Tag::from).collect();
    Ok(axum::Json(TagList { tags }))
}

fn influencer_taken(e: StoreError) -> ApiError {
    if e.is_conflict_on("influencer_tags_owner_name_key", "influencer_tags.owner_id, influencer_tags.name") {
        ApiError::new(Code::TagExists, "A tag with this name already exists.")
    } else {
        e.into()
    }
}

/// Influencer tags are the caller's own (the account watchlist): any signed-in user keeps a list.
#[utoipa::path(post, path = "/api/v1/influencer-tags", tag = "tags", request_body = TagInput,
    responses((status = 201, body = Tag), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_influencer_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Json(input): Json<TagInput>,
) -> ApiResult<impl IntoResponse> {
    let (name, color) = input.parse()?;
    let tag = state.store.create_influencer_tag(user.id, name.as_str(), color.hex(), now_millis()).await.map_err(influencer_taken)?;
    Ok((StatusCode::CREATED, axum::Json(Tag::from(tag))))
}

#[utoipa::path(patch, path = "/api/v1/influencer-tags/{id}", tag = "tags", params(("id" = i64, Path)), request_body = TagInput,
    responses((status = 200, body = Tag), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn edit_influencer_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    Json(input): Json<TagInput>,
) -> ApiResult<axum::Json<Tag>> {
    let (name, color) = input.parse()?;
    let tag = state
        .store
        .update_influencer_tag(user.id, id, name.as_str(), color.hex())
        .await
        .map_err(influencer_taken)?
        .ok_or_else(|| ApiError::not_found("Tag"))?;
    Ok(axum::Json(Tag::from(tag)))
}

#[utoipa::path(delete, path = "/api/v1/influencer-tags/{id}", tag = "tags", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_influencer_tag(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    if state.store.delete_influencer_tag(user.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Tag"))
    }
}
