pub mod collection;
pub mod dashboard;
pub mod import;
pub mod influencers;
pub mod posts;
pub mod preview;
pub mod session;
pub mod tags;
pub mod topics;
pub mod trackers;

use hark_core::{Permission, TrackerHash};
use hark_store::{TrackerRow, UserRow};

use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// Loads a tracker and checks the caller's rank on it. A tracker the caller may not see is
/// indistinguishable from a missing one; signed-out callers get 401 except on the demo tracker.
pub async fn load_tracker(
    state: &AppState,
    hash: &str,
    user: Option<&UserRow>,
    need: Permission,
) -> ApiResult<(TrackerRow, Permission)> {
    let hash = TrackerHash::parse(hash).map_err(|_| {
        if user.is_some() {
            ApiError::tracker_not_found()
        } else {
            ApiError::unauthorized()
        }
    })?;
    let row = state.store.tracker_by_hash(hash.as_str()).await?;
    let Some(row) = row else {
        return Err(if user.is_some() { ApiError::tracker_not_found() } else { ApiError::unauthorized() });
    };
    let mut permission = match user {
        Some(u) => state.store.permission(&row, u.id, u.is_admin).await?,
        None => Permission::NoAccess,
    };
    if row.is_demo {
        permission = permission.max(Permission::Viewer);
    }
    if permission < Permission::Viewer {
        return Err(if user.is_some() { ApiError::tracker_not_found() } else { ApiError::unauthorized() });
    }
    if permission < need {
        return Err(ApiError::forbidden(match need {
            Permission::Editor => "Editing this tracker needs editor permission.",
            _ => "Only the tracker's owner or an administrator can do this.",
        }));
    }
    Ok((row, permission))
}
