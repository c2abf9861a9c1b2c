pub mod admin;
pub mod audit;
pub mod collection;
pub mod dashboard;
pub mod embed;
pub mod exports;
pub mod health;
pub mod import;
pub mod integrations;
pub mod media;
pub mod media_wall;
pub mod notifications;
pub mod influencers;
pub mod posts;
pub mod preview;
pub mod session;
pub mod sharing;
pub mod tags;
pub mod team;
pub mod topics;
pub mod trackers;

use hark_core::{Code, Permission, TrackerHash};
use hark_store::{TrackerRow, UserRow};
use sha2::{Digest, Sha256};

use crate::dto::LinkSharing;

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
    load_tracker_with(state, hash, user, need, false).await
}

/// The tracker of a hash; with `kept`, as an earlier GET request looked it up ([`crate::lookups`]).
async fn tracker_row(state: &AppState, hash: &str, kept: bool) -> ApiResult<Option<TrackerRow>> {
    if kept {
        state.lookups.tracker(hash, async { Ok(state.store.tracker_by_hash(hash).await?) }).await
    } else {
        Ok(state.store.tracker_by_hash(hash).await?)
    }
}

/// [`load_tracker`]; with `kept`, the tracker row and the caller's role may come from what earlier
/// GET requests looked up ([`crate::lookups`]).
async fn load_tracker_with(
    state: &AppState,
    hash: &str,
    user: Option<&UserRow>,
    need: Permission,
    kept: bool,
) -> ApiResult<(TrackerRow, Permission)> {
    let hash = TrackerHash::parse(hash).map_err(|_| {
        if user.is_some() {
            ApiError::tracker_not_found()
        } else {
            ApiError::unauthorized()
        }
    })?;
    let Some(row) = tracker_row(state, hash.as_str(), kept).await? else {
        return Err(if user.is_some() { ApiError::tracker_not_found() } else { ApiError::unauthorized() });
    };
    let mut permission = match user {
        // The owner's rank needs no lookup.
        Some(u) if kept && u.id != row.owner_id => {
            state.lookups.role(row.id, u.id, u.is_admin, async { Ok(state.store.permission(&row, u.id, u.is_admin).await?) }).await?
        }
        Some(u) => state.store.permission(&row, u.id, u.is_admin).await?,
        None => Permission::NoAccess,
    };
    if row.is_demo {
        permission = permission.max(Permission::Viewer);
    }
    if permission < Permission::Viewer {
        return Err(if user.is_some() { ApiError::tracker_not_found() } else { ApiError::unauthorized() });
    }
    if row.owner_trial_over(hark_core::now_millis()) && !user.is_some_and(|u| u.is_admin) {
        return Err(trial_over(&row, user));
    }
    if permission < need {
        return Err(ApiError::forbidden(match need {
            Permission::Editor => "Editing this tracker needs editor permission.",
            _ => "Only the tracker's owner or an administrator can do this.",
        }));
    }
    Ok((row, permission))
}

/// The answer for a tracker whose owner's trial has ended: locked for everybody but the
/// instance administrator until the owner is on a plan.
fn trial_over(row: &TrackerRow, user: Option<&UserRow>) -> ApiError {
    let days = hark_core::plans::catalogue().trial_days;
    ApiError::new(
        Code::TrialExpired,
        if user.is_some_and(|u| u.id == row.owner_id) {
            format!("Your {days}-Day Trial has expired. Upgrade now to access your trackers.")
        } else {
            "This tracker is locked: its owner's trial has expired.".to_string()
        },
    )
}

/// The keys a visitor without access of their own may hold: the tracker's share hash
/// (`shareHash`), or an embed key (`embedKey`) that opens only the route it was made for.
#[derive(Debug, Default, Clone, Copy)]
pub struct PublicKeys<'a> {
    pub share_hash: Option<&'a str>,
    pub embed_key: Option<&'a str>,
    /// The media wall's moderation key, which opens the wall's reads and moderation
    /// ([`media_wall::MODERATION_ROUTES`]) and the tracker itself.
    pub moderation_key: Option<&'a str>,
    /// The route read, after `/api/v1/trackers/{hash}` ("" for the tracker itself).
    pub route: &'a str,
}

/// Loads a tracker for reading one of its pages: as [`load_tracker`] for the caller's own rank, or
/// through the tracker's share link (`shareHash`) or an embed key for a caller without one, who
/// then reads as a viewer and may do what the link's toggles allow (the returned
/// [`LinkSharing`]; an embed allows nothing more than reading). Only reads take this path; every
/// change and every member-only read asks [`load_tracker`]. With `kept` (the analytic pages' GET
/// requests) the tracker and the caller's role may come from what earlier reads looked up
/// ([`crate::lookups`]).
pub async fn load_tracker_for_page(
    state: &AppState,
    hash: &str,
    user: Option<&UserRow>,
    keys: PublicKeys<'_>,
    kept: bool,
) -> ApiResult<(TrackerRow, Permission, Option<LinkSharing>)> {
    let own = load_tracker_with(state, hash, user, Permission::Viewer, kept).await;
    let Err(denied) = own else {
        let (row, p) = own?;
        return Ok((row, p, None));
    };
    let share = keys.share_hash.filter(|s| !s.is_empty());
    let embed = keys.embed_key.filter(|s| !s.is_empty());
    let moderation = keys.moderation_key.filter(|s| !s.is_empty());
    if share.is_none() && embed.is_none() && moderation.is_none() {
        return Err(denied);
    }
    let Ok(parsed) = TrackerHash::parse(hash) else { return Err(denied) };
    let Some(row) = tracker_row(state, parsed.as_str(), kept).await? else { return Err(denied) };
    if moderation.is_some()
        && media_wall::MODERATION_ROUTES.contains(&keys.route)
        && media_wall::moderation_key_matches(&row, moderation)
    {
        if row.owner_trial_over(hark_core::now_millis()) {
            return Err(trial_over(&row, user));
        }
        return Ok((row, Permission::Viewer, Some(LinkSharing::default())));
    }
    let Some(tracker_share) = row.share_hash.as_deref() else { return Err(denied) };
    if let Some(share) = share {
        // Compared as digests, so the time taken says nothing about how much of a guess was right.
        if Sha256::digest(tracker_share.as_bytes()) == Sha256::digest(share.as_bytes()) {
            if row.owner_trial_over(hark_core::now_millis()) {
                return Err(trial_over(&row, user));
            }
            let link: LinkSharing = serde_json::from_str(&row.link_sharing).unwrap_or_default();
            return Ok((row, Permission::Viewer, Some(link)));
        }
    }
    if let Some(key) = embed {
        if embed::embed_opens(tracker_share, key, keys.route) {
            if row.owner_trial_over(hark_core::now_millis()) {
                return Err(trial_over(&row, user));
            }
            return Ok((row, Permission::Viewer, Some(LinkSharing::default())));
        }
    }
    Err(denied)
}
