//! The audit log: who changed a member's rank, handed a tracker over, changed or revoked its
//! share link, or deleted it or its posts. A tracker's administrators and owner read its entries;
//! the instance administrator reads every entry, those of deleted trackers included.

use axum::extract::State;
use crate::extract::Path;
use hark_core::{now_millis, Code, Millis, Permission};
use hark_store::{Audit, AuditRow, TrackerRow, UserRow};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Query};
use crate::routes::load_tracker;
use crate::AppState;

/// Entries per page.
pub const PAGE_SIZE: i64 = 50;

/// The entry of a change `user` makes to the tracker `row`.
pub fn entry(user: &UserRow, row: &TrackerRow, action: &str, detail: Value) -> Audit {
    Audit { tracker_id: Some(row.id), tracker_hash: Some(row.hash.clone()), tracker_title: row.title.clone(), ..instance_entry(user, action, detail) }
}

/// The entry of a change to the instance itself (an account's administrator right).
pub fn instance_entry(user: &UserRow, action: &str, detail: Value) -> Audit {
    Audit {
        tracker_id: None,
        tracker_hash: None,
        tracker_title: String::new(),
        actor_id: Some(user.id),
        actor: user.email.clone(),
        action: action.into(),
        detail: detail.to_string(),
        at: now_millis(),
    }
}

/// A rank's name as the team page says it.
pub fn rank_name(rank: i64) -> &'static str {
    match Permission::from_rank(rank) {
        Some(Permission::Owner) => "owner",
        Some(Permission::Administrator) => "administrator",
        Some(Permission::Editor) => "editor",
        Some(Permission::Viewer) => "viewer",
        _ => "no access",
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    id: i64,
    /// The tracker as it was when the entry was written (it may be deleted since); absent for a
    /// change to the instance.
    tracker_hash: Option<String>,
    tracker_title: String,
    /// The account that made the change (its address).
    actor: String,
    /// `member_added`, `member_rank_changed`, `member_removed`, `owner_changed`,
    /// `share_changed`, `share_revoked`, `moderation_link_rotated`, `tracker_deleted`,
    /// `posts_deleted`, `posts_restored`, or, for no tracker, `admin_granted` and `admin_revoked` (an account's administrator right).
    action: String,
    /// What changed: `member`, `from` and `to` for ranks and owners; `changes` (a list of
    /// `{setting, from, to}`) for the share link; `count` and `posts` for posts.
    #[schema(value_type = Object)]
    detail: Value,
    created_at: Millis,
}

impl From<AuditRow> for AuditEntry {
    fn from(r: AuditRow) -> Self {
        Self {
            id: r.id,
            tracker_hash: r.tracker_hash,
            tracker_title: r.tracker_title,
            actor: r.actor,
            action: r.action,
            detail: serde_json::from_str(&r.detail).unwrap_or_else(|_| serde_json::json!({})),
            created_at: r.created_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// Newest first.
    entries: Vec<AuditEntry>,
    /// Pass as `before` for the next (older) page; absent on the last page.
    next: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AuditQuery {
    /// Entries older than this entry id.
    #[param(minimum = 1)]
    before: Option<i64>,
}

async fn page(state: &AppState, tracker_id: Option<i64>, q: &AuditQuery) -> ApiResult<AuditPage> {
    if q.before.is_some_and(|b| b < 1) {
        return Err(ApiError::new(Code::InvalidQuery, "'before' is an entry id (1 or more)."));
    }
    let mut rows = state.store.audit_log(tracker_id, q.before, PAGE_SIZE + 1).await?;
    let more = rows.len() as i64 > PAGE_SIZE;
    rows.truncate(PAGE_SIZE as usize);
    let next = if more { rows.last().map(|r| r.id) } else { None };
    Ok(AuditPage { entries: rows.into_iter().map(AuditEntry::from).collect(), next })
}

/// The tracker's audit log.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/audit", tag = "team", params(("hash" = String, Path), AuditQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn tracker_audit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Query(q): Query<AuditQuery>,
) -> ApiResult<axum::Json<AuditPage>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    Ok(axum::Json(page(&state, Some(row.id), &q).await?))
}

/// Every tracker's audit log (instance administrators).
#[utoipa::path(get, path = "/api/v1/admin/audit", tag = "admin", params(AuditQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn instance_audit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<AuditQuery>,
) -> ApiResult<axum::Json<AuditPage>> {
    if !user.is_admin {
        return Err(ApiError::forbidden("Only an instance administrator can read the audit log of every tracker."));
    }
    Ok(axum::Json(page(&state, None, &q).await?))
}

#[cfg(test)]
mod tests {
    use super::rank_name;

    #[test]
    fn ranks_have_names() {
        assert_eq!(rank_name(1), "viewer");
        assert_eq!(rank_name(3), "administrator");
        assert_eq!(rank_name(4), "owner");
        assert_eq!(rank_name(0), "no access");
        assert_eq!(rank_name(99), "no access");
    }
}
