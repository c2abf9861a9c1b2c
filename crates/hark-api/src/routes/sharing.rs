//! The Share dialog: a tracker's share link (its hash, custom URL and revocation) and what the
//! link lets an anonymous visitor do. Owners and administrators only; the visitor's side is
//! [`crate::routes::load_tracker_for_page`].

use axum::extract::State;
use crate::extract::Path;
use axum::http::HeaderMap;
use hark_core::{now_millis, Code, Permission};
use hark_store::{ShareSettings, TrackerRow};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::dto::LinkSharing;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json};
use crate::routes::{audit, load_tracker};
use crate::AppState;

/// Longest custom URL, in characters.
pub const CUSTOM_URL_MAX: usize = 100;

/// A tracker's sharing as the Share dialog shows it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareView {
    pub share_hash: String,
    /// The shared dashboard's path: /hashtag-tracking/dashboard/{hash}/{customUrl or friendly}.
    pub path: String,
    pub custom_url: Option<String>,
    pub link_sharing: LinkSharing,
    pub share_exports: bool,
    pub unlock_date: bool,
    /// The owner is on a trial: 'Export reports' stays off ('Upgrade to export reports').
    pub exports_locked: bool,
    /// The server can send the link by e-mail (an SMTP server is configured).
    pub email_enabled: bool,
    /// The caller's plan does not include the link-sharing toggles ('Upgrade your account to
    /// unlock'); instance administrators and plans from 35 have them.
    pub link_sharing_locked: bool,
}

/// Changes to the sharing; a missing field keeps its value. `customUrl` "" goes back to the
/// tracker's friendly name.
#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShareInput {
    pub custom_url: Option<String>,
    pub link_sharing: Option<LinkSharing>,
    pub share_exports: Option<bool>,
    pub unlock_date: Option<bool>,
}

/// The custom URL as stored: every space removed; letters, digits, `-` and `_` only.
pub fn custom_url(text: &str) -> ApiResult<Option<String>> {
    let url: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if url.is_empty() {
        return Ok(None);
    }
    if url.chars().count() > CUSTOM_URL_MAX {
        return Err(ApiError::new(Code::InvalidCustomUrl, format!("A custom URL is at most {CUSTOM_URL_MAX} characters.")));
    }
    if !url.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(ApiError::new(Code::InvalidCustomUrl, "A custom URL may hold letters, digits, '-' and '_' only."));
    }
    Ok(Some(url))
}

pub(crate) fn fresh_hash() -> String {
    let mut b = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut b);
    hex::encode(b)
}

async fn owner_on_trial(state: &AppState, row: &TrackerRow) -> ApiResult<bool> {
    Ok(state.store.user_by_id(row.owner_id).await?.is_some_and(|u| u.trial))
}

async fn view(state: &AppState, row: &TrackerRow, caller: &hark_store::UserRow) -> ApiResult<ShareView> {
    let share_hash = match &row.share_hash {
        Some(h) => h.clone(),
        None => state.store.share_hash(row.id, &fresh_hash()).await?,
    };
    Ok(ShareView {
        path: format!("/hashtag-tracking/dashboard/{}/{}", row.hash, row.custom_url.as_deref().unwrap_or(&row.friendly)),
        share_hash,
        custom_url: row.custom_url.clone(),
        link_sharing: serde_json::from_str(&row.link_sharing).unwrap_or_default(),
        share_exports: row.share_exports,
        unlock_date: row.unlock_date,
        exports_locked: owner_on_trial(state, row).await?,
        email_enabled: state.mailer.is_some(),
        link_sharing_locked: !crate::dto::features_of(caller).link_sharing,
    })
}

/// The tracker's sharing; its share hash is made on the first look.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/share", tag = "sharing", params(("hash" = String, Path)),
    responses((status = 200, body = ShareView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_share(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(hash): Path<String>) -> ApiResult<axum::Json<ShareView>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    Ok(axum::Json(view(&state, &row, &user).await?))
}

/// Changes the custom URL, the link-sharing toggles, share-exports or unlock-date.
#[utoipa::path(put, path = "/api/v1/trackers/{hash}/share", tag = "sharing", params(("hash" = String, Path)),
    request_body = ShareInput,
    responses((status = 200, body = ShareView), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn edit_share(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<ShareInput>,
) -> ApiResult<axum::Json<ShareView>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let before: LinkSharing = serde_json::from_str(&row.link_sharing).unwrap_or_default();
    let link = input.link_sharing.unwrap_or_else(|| before.clone());
    let changed = link.edit_date_range != before.edit_date_range
        || link.export_reports != before.export_reports
        || link.view_predictions != before.view_predictions;
    if changed && !crate::dto::features_of(&user).link_sharing {
        return Err(ApiError::new(Code::UpgradeRequired, "Upgrade your account to unlock"));
    }
    if link.export_reports && !before.export_reports && owner_on_trial(&state, &row).await? {
        return Err(ApiError::new(Code::UpgradeRequired, "Upgrade to export reports"));
    }
    let settings = ShareSettings {
        custom_url: match &input.custom_url {
            Some(text) => custom_url(text)?,
            None => row.custom_url.clone(),
        },
        link_sharing: serde_json::to_string(&link).map_err(|e| ApiError::Internal(e.to_string()))?,
        share_exports: input.share_exports.unwrap_or(row.share_exports),
        unlock_date: input.unlock_date.unwrap_or(row.unlock_date),
    };
    let changes = share_changes(&row, &before, &settings, &link);
    let audit = (!changes.is_empty()).then(|| audit::entry(&user, &row, "share_changed", serde_json::json!({ "changes": changes })));
    state.store.set_share_settings(row.id, &settings, now_millis(), audit.as_ref()).await.map_err(|e| {
        if e.is_conflict_on("trackers_custom_url_key", "trackers.custom_url") {
            ApiError::new(Code::CustomUrlTaken, "Another tracker already uses this custom URL.")
        } else {
            e.into()
        }
    })?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(view(&state, &row, &user).await?))
}

/// What a save changes, setting by setting, as `{setting, from, to}`.
fn share_changes(row: &TrackerRow, before: &LinkSharing, after: &ShareSettings, link: &LinkSharing) -> Vec<serde_json::Value> {
    let mut changes = Vec::new();
    let mut flag = |setting: &str, from: bool, to: bool| {
        if from != to {
            changes.push(serde_json::json!({ "setting": setting, "from": from, "to": to }));
        }
    };
    flag("editDateRange", before.edit_date_range, link.edit_date_range);
    flag("exportReports", before.export_reports, link.export_reports);
    flag("viewPredictions", before.view_predictions, link.view_predictions);
    flag("shareExports", row.share_exports, after.share_exports);
    flag("unlockDate", row.unlock_date, after.unlock_date);
    if row.custom_url != after.custom_url {
        changes.push(serde_json::json!({ "setting": "customUrl", "from": row.custom_url, "to": after.custom_url }));
    }
    changes
}

/// Revokes the share link: a new share hash, and the old link stops working.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/share/revoke", tag = "sharing", params(("hash" = String, Path)),
    responses((status = 200, body = ShareView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn revoke_share(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(hash): Path<String>) -> ApiResult<axum::Json<ShareView>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let audit = audit::entry(&user, &row, "share_revoked", serde_json::json!({}));
    state.store.replace_share_hash(row.id, &fresh_hash(), now_millis(), Some(&audit)).await?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(view(&state, &row, &user).await?))
}

/// Most addresses one e-mail share reaches.
pub const SHARE_EMAILS_MAX: usize = 20;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShareEmailInput {
    /// Addresses separated by commas.
    pub emails: String,
    /// The dashboard's query to keep in the link (`days=30&platforms=twt`); its shareHash is
    /// replaced by the tracker's.
    #[serde(default)]
    pub query: String,
}

#[derive(Serialize, ToSchema)]
pub struct ShareEmailSent {
    pub sent: usize,
}

/// The comma-separated addresses, each checked; blanks are skipped.
pub fn share_addresses(text: &str) -> ApiResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let email = crate::auth::validate_email(part)
            .map_err(|_| ApiError::new(Code::InvalidEmail, format!("'{part}' is not an e-mail address.")))?;
        if !out.contains(&email) {
            out.push(email);
        }
    }
    if out.is_empty() {
        return Err(ApiError::new(Code::InvalidEmail, "Enter at least one e-mail address."));
    }
    if out.len() > SHARE_EMAILS_MAX {
        return Err(ApiError::new(Code::TooManyItems, format!("Share with at most {SHARE_EMAILS_MAX} addresses at once.")));
    }
    Ok(out)
}

/// The shared dashboard's link with the page's query kept and the share hash added.
fn share_link(base: &str, view: &ShareView, query: &str) -> String {
    let mut q = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in url::form_urlencoded::parse(query.trim_start_matches('?').as_bytes()) {
        if k != "shareHash" && k != "action" {
            q.append_pair(&k, &v);
        }
    }
    q.append_pair("shareHash", &view.share_hash);
    format!("{base}{}?{}", view.path, q.finish())
}

/// Sends the share link by e-mail to each address, through the configured SMTP server.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/share/email", tag = "sharing", params(("hash" = String, Path)),
    request_body = ShareEmailInput,
    responses((status = 200, body = ShareEmailSent), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 502, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn share_by_email(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
    Json(input): Json<ShareEmailInput>,
) -> ApiResult<axum::Json<ShareEmailSent>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let addresses = share_addresses(&input.emails)?;
    let Some(mailer) = state.mailer.clone() else { return Err(crate::mail::not_configured()) };
    let view = view(&state, &row, &user).await?;
    let link = share_link(&state.public_base(&headers), &view, &input.query);
    let sender = if user.name.trim().is_empty() { user.email.clone() } else { user.name.clone() };
    let subject = format!("{sender} shared the tracker \"{}\" with you", row.title);
    let body = format!(
        "{sender} shared the Hark tracker \"{}\" with you.\n\nOpen its dashboard:\n{link}\n\nAnyone with this link can view the dashboard.\n",
        row.title
    );
    for to in &addresses {
        mailer.send(to, &subject, body.clone()).await?;
    }
    Ok(axum::Json(ShareEmailSent { sent: addresses.len() }))
}

#[cfg(test)]
mod tests {
    use super::{custom_url, share_addresses, share_link, ShareView};
    use crate::dto::LinkSharing;

    #[test]
    fn share_addresses_are_checked_and_deduplicated() {
        assert_eq!(share_addresses(" a@example.org, B@example.org ,, a@example.org").unwrap(), vec!["a@example.org", "b@example.org"]);
        assert!(share_addresses(" , ").is_err());
        assert!(share_addresses("a@example.org, nope").is_err());
        let many: Vec<String> = (0..21).map(|i| format!("u{i}@example.org")).collect();
        assert!(share_addresses(&many.join(",")).is_err());
    }

    #[test]
    fn share_links_keep_the_query_and_carry_the_hash() {
        let view = ShareView {
            share_hash: "abc123".into(),
            path: "/hashtag-tracking/dashboard/h1/nike".into(),
            custom_url: None,
            link_sharing: LinkSharing::default(),
            share_exports: false,
            unlock_date: false,
            exports_locked: false,
            email_enabled: true,
            link_sharing_locked: false,
        };
        assert_eq!(
            share_link("http://h", &view, "?days=30&shareHash=old&action=historical-data&tz=Europe%2FParis"),
            "http://h/hashtag-tracking/dashboard/h1/nike?days=30&tz=Europe%2FParis&shareHash=abc123"
        );
        assert_eq!(share_link("http://h", &view, ""), "http://h/hashtag-tracking/dashboard/h1/nike?shareHash=abc123");
    }

    #[test]
    fn custom_urls_lose_spaces_and_keep_slug_characters() {
        assert_eq!(custom_url(" my brand 2026 ").unwrap().as_deref(), Some("mybrand2026"));
        assert_eq!(custom_url("launch-week_2").unwrap().as_deref(), Some("launch-week_2"));
        assert_eq!(custom_url("   ").unwrap(), None);
        assert!(custom_url("a/b").is_err());
        assert!(custom_url("café").is_err());
        assert!(custom_url(&"x".repeat(101)).is_err());
        assert!(custom_url(&"x".repeat(100)).is_ok());
    }
}
