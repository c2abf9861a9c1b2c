//! A tracker's team: members with a rank (viewer, editor, administrator), invitations for
//! addresses without an account (a sign-up link), and the transfer of ownership. Owners and
//! administrators manage the team; only the owner hands the tracker on.

use axum::extract::State;
use crate::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum_extra::extract::CookieJar;
use hark_core::{now_millis, Code, Permission};
use hark_store::{InvitationRow, MemberRow};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::auth::{self, ensure_csrf, start_session};
use crate::dto::Me;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, MaybeUser};
use crate::routes::audit;
use crate::routes::load_tracker;
use crate::routes::session::{clean_name, self_hosted_user};
use crate::AppState;

/// Days an invitation link stays open.
pub const INVITATION_DAYS: i64 = 14;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub user_id: i64,
    pub email: String,
    pub name: String,
    /// 1 viewer, 2 editor, 3 administrator.
    pub permission: i64,
}

impl From<MemberRow> for Member {
    fn from(m: MemberRow) -> Self {
        Member { user_id: m.user_id, email: m.email, name: m.name, permission: m.permission }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: i64,
    pub email: String,
    pub permission: i64,
    pub created_at: i64,
    pub expires_at: i64,
}

impl From<InvitationRow> for Invitation {
    fn from(i: InvitationRow) -> Self {
        Invitation { id: i.id, email: i.email, permission: i.permission, created_at: i.created_at, expires_at: i.expires_at }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub owner: Member,
    pub members: Vec<Member>,
    pub invitations: Vec<Invitation>,
    /// The caller owns the tracker and may hand it to a member.
    pub can_transfer: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InviteInput {
    #[schema(max_length = 254, pattern = r"^[\u0021-\u003f\u0041-\u007e]+@[\u0021-\u002d\u002f-\u007e][\u0021-\u007e]*\.[\u0021-\u007e]*$")]
    pub email: String,
    /// 1 viewer, 2 editor, 3 administrator.
    #[schema(minimum = 1, maximum = 3)]
    pub permission: i64,
}

/// An invitation's answer: the new member when the address has an account, else the
/// invitation and its sign-up link (shown once: only the token's hash is kept).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invited {
    pub member: Option<Member>,
    pub invitation: Option<Invitation>,
    /// `/join/{token}` for an invitation.
    pub link: Option<String>,
    /// The invitation or notice went out by e-mail (an SMTP server is configured and took it).
    pub emailed: bool,
    /// Why it did not, when mail is configured but sending failed.
    pub mail_error: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RankInput {
    /// 1 viewer, 2 editor, 3 administrator.
    #[schema(minimum = 1, maximum = 3)]
    pub permission: i64,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransferInput {
    pub user_id: i64,
}

/// What the sign-up page shows for an invitation link.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationView {
    pub email: String,
    pub permission: i64,
    pub tracker_title: String,
    pub invited_by: Option<String>,
    /// An account has this address: sign in to accept.
    pub has_account: bool,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AcceptInput {
    /// For a new account.
    #[serde(default)]
    pub name: String,
    /// For a new account; absent when the caller is signed in with the invited address.
    pub password: Option<String>,
}

fn rank(n: i64) -> ApiResult<Permission> {
    match Permission::from_rank(n) {
        Some(p @ (Permission::Viewer | Permission::Editor | Permission::Administrator)) => Ok(p),
        _ => Err(ApiError::new(Code::InvalidChoice, "A member is a viewer (1), an editor (2) or an administrator (3).")),
    }
}

fn rank_name(p: Permission) -> &'static str {
    match p {
        Permission::Administrator => "an administrator",
        Permission::Editor => "an editor",
        _ => "a viewer",
    }
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

async fn team(state: &AppState, row: &hark_store::TrackerRow, caller: Permission) -> ApiResult<Team> {
    let owner = state.store.user_by_id(row.owner_id).await?.ok_or_else(|| ApiError::Internal("tracker owner missing".into()))?;
    Ok(Team {
        owner: Member { user_id: owner.id, email: owner.email, name: owner.name, permission: Permission::Owner.rank() },
        members: state.store.members(row.id).await?.into_iter().map(Member::from).collect(),
        invitations: state.store.invitations(row.id, now_millis()).await?.into_iter().map(Invitation::from).collect(),
        can_transfer: caller == Permission::Owner,
    })
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/members", tag = "team", params(("hash" = String, Path)),
    responses((status = 200, body = Team), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_members(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(hash): Path<String>) -> ApiResult<axum::Json<Team>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    Ok(axum::Json(team(&state, &row, p).await?))
}

/// Adds an account to the team, or invites an address without one.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/members", tag = "team", params(("hash" = String, Path)), request_body = InviteInput,
    responses((status = 201, body = Invited), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn invite_member(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
    Json(input): Json<InviteInput>,
) -> ApiResult<impl IntoResponse> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let email = auth::validate_email(&input.email)?;
    let permission = rank(input.permission)?;
    if row.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    let now = now_millis();
    let mut answer = match state.store.user_by_email(&email).await? {
        Some(u) if u.id == row.owner_id => {
            return Err(ApiError::new(Code::InvalidChoice, "This address is the tracker's owner."));
        }
        Some(u) => {
            if state.store.members(row.id).await?.iter().any(|m| m.user_id == u.id) {
                return Err(ApiError::new(Code::Conflict, "This account is already on the team; change its rank instead."));
            }
            let audit = audit::entry(&user, &row, "member_added", json!({ "member": u.email, "to": audit::rank_name(permission.rank()) }));
            state.store.add_member(row.id, u.id, permission, Some(&audit)).await?;
            Invited {
                member: Some(Member { user_id: u.id, email: u.email, name: u.name, permission: permission.rank() }),
                invitation: None,
                link: None,
                emailed: false,
                mail_error: None,
            }
        }
        None => {
            let mut b = [0u8; 24];
            rand::thread_rng().fill_bytes(&mut b);
            let token = hex::encode(b);
            let expires = now + INVITATION_DAYS * hark_core::limits::DAY_MS;
            let inv = state.store.invite(row.id, &email, permission, &token_hash(&token), user.id, now, expires).await?;
            Invited { member: None, invitation: Some(inv.into()), link: Some(format!("/join/{token}")), emailed: false, mail_error: None }
        }
    };
    if let Some(mailer) = &state.mailer {
        let base = state.public_base(&headers);
        let inviter = if user.name.trim().is_empty() { user.email.clone() } else { user.name.clone() };
        let rank_name = rank_name(permission);
        let (subject, body) = match &answer.link {
            Some(link) => (
                format!("{inviter} invited you to the tracker \"{}\"", row.title),
                format!(
                    "{inviter} invited you to the Hark tracker \"{}\" as {rank_name}.\n\nCreate your account and join:\n{base}{link}\n\nThe link works for {INVITATION_DAYS} days.\n",
                    row.title
                ),
            ),
            None => (
                format!("{inviter} added you to the tracker \"{}\"", row.title),
                format!("{inviter} added you to the Hark tracker \"{}\" as {rank_name}.\n\nOpen it:\n{base}/hashtag-tracking/dashboard/{}/{}\n", row.title, row.hash, row.friendly),
            ),
        };
        match mailer.send(&email, &subject, body).await {
            Ok(()) => answer.emailed = true,
            Err(e) => answer.mail_error = Some(e.to_string()),
        }
    }
    Ok((StatusCode::CREATED, axum::Json(answer)))
}

#[utoipa::path(patch, path = "/api/v1/trackers/{hash}/members/{id}", tag = "team", params(("hash" = String, Path), ("id" = i64, Path)),
    request_body = RankInput,
    responses((status = 200, body = Member), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn edit_member(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((hash, id)): Path<(String, i64)>,
    Json(input): Json<RankInput>,
) -> ApiResult<axum::Json<Member>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let permission = rank(input.permission)?;
    let Some(mut member) = state.store.members(row.id).await?.into_iter().find(|m| m.user_id == id) else {
        return Err(ApiError::not_found("Member"));
    };
    if member.permission != permission.rank() {
        let detail = json!({ "member": member.email, "from": audit::rank_name(member.permission), "to": audit::rank_name(permission.rank()) });
        let audit = audit::entry(&user, &row, "member_rank_changed", detail);
        state.store.change_member_rank(row.id, id, permission, Some(&audit)).await?;
    }
    member.permission = permission.rank();
    Ok(axum::Json(member.into()))
}

#[utoipa::path(delete, path = "/api/v1/trackers/{hash}/members/{id}", tag = "team", params(("hash" = String, Path), ("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn remove_member(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((hash, id)): Path<(String, i64)>,
) -> ApiResult<StatusCode> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let Some(member) = state.store.members(row.id).await?.into_iter().find(|m| m.user_id == id) else {
        return Err(ApiError::not_found("Member"));
    };
    let audit = audit::entry(&user, &row, "member_removed", json!({ "member": member.email, "from": audit::rank_name(member.permission) }));
    if !state.store.remove_member(row.id, id, Some(&audit)).await? {
        return Err(ApiError::not_found("Member"));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(delete, path = "/api/v1/trackers/{hash}/invitations/{id}", tag = "team", params(("hash" = String, Path), ("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn withdraw_invitation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((hash, id)): Path<(String, i64)>,
) -> ApiResult<StatusCode> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if !state.store.delete_invitation(row.id, id).await? {
        return Err(ApiError::not_found("Invitation"));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Hands the tracker to a member; the old owner stays on the team as an administrator.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/owner", tag = "team", params(("hash" = String, Path)), request_body = TransferInput,
    responses((status = 200, body = Team), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn transfer_ownership(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<TransferInput>,
) -> ApiResult<axum::Json<Team>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Owner).await?;
    let Some(heir) = state.store.members(row.id).await?.into_iter().find(|m| m.user_id == input.user_id) else {
        return Err(ApiError::not_found("Member"));
    };
    let old_owner = state.store.user_by_id(row.owner_id).await?.map(|u| u.email).unwrap_or_default();
    let audit = audit::entry(&user, &row, "owner_changed", json!({ "member": heir.email, "from": old_owner, "to": heir.email }));
    state.store.transfer_ownership(row.id, row.owner_id, input.user_id, now_millis(), Some(&audit)).await?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(team(&state, &row, Permission::Administrator).await?))
}

async fn open_invitation(state: &AppState, token: &str) -> ApiResult<InvitationRow> {
    state.store.invitation_by_token(&token_hash(token), now_millis()).await?.ok_or_else(|| {
        ApiError::new(Code::NotFound, "This invitation is no longer valid: ask the tracker's owner for a new one.")
    })
}

/// The invitation behind a sign-up link.
#[utoipa::path(get, path = "/api/v1/invitations/{token}", tag = "team", params(("token" = String, Path)),
    responses((status = 200, body = InvitationView), (status = 404, body = ErrorBody)))]
pub async fn get_invitation(State(state): State<AppState>, Path(token): Path<String>) -> ApiResult<axum::Json<InvitationView>> {
    let inv = open_invitation(&state, &token).await?;
    let tracker = state.store.tracker_by_id(inv.tracker_id).await?.ok_or_else(ApiError::tracker_not_found)?;
    let invited_by = match inv.invited_by {
        Some(id) => state.store.user_by_id(id).await?.map(|u| if u.name.is_empty() { u.email } else { u.name }),
        None => None,
    };
    let has_account = state.store.user_by_email(&inv.email).await?.is_some();
    Ok(axum::Json(InvitationView { email: inv.email, permission: inv.permission, tracker_title: tracker.title, invited_by, has_account }))
}

/// Accepts an invitation: signed in with the invited address, or as a new account of that
/// address (then signed in).
#[utoipa::path(post, path = "/api/v1/invitations/{token}/accept", tag = "team", params(("token" = String, Path)), request_body = AcceptInput,
    responses((status = 200, body = Me), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn accept_invitation(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
    MaybeUser(user): MaybeUser,
    Path(token): Path<String>,
    Json(input): Json<AcceptInput>,
) -> ApiResult<impl IntoResponse> {
    let inv = open_invitation(&state, &token).await?;
    let (user, jar) = match user {
        Some(u) if u.email.eq_ignore_ascii_case(&inv.email) => (u, jar),
        Some(_) => return Err(ApiError::forbidden("This invitation is for another address: sign out and open the link again.")),
        None => {
            if state.store.user_by_email(&inv.email).await?.is_some() {
                return Err(ApiError::new(Code::Conflict, "An account with this address exists: sign in to accept the invitation."));
            }
            let password = input.password.unwrap_or_default();
            auth::validate_password(&password)?;
            let name = clean_name(&input.name)?;
            let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))??;
            let created = state.store.create_user(&self_hosted_user(inv.email.clone(), hash, name, false), now_millis()).await?;
            let jar = start_session(&state, &headers, jar, created.id).await?;
            (created, jar)
        }
    };
    let tracker = state.store.tracker_by_id(inv.tracker_id).await?.ok_or_else(ApiError::tracker_not_found)?;
    let detail = json!({ "member": user.email, "to": audit::rank_name(inv.permission), "invitation": true });
    state.store.accept_invitation(&inv, user.id, Some(&audit::entry(&user, &tracker, "member_added", detail))).await?;
    let (jar, csrf) = ensure_csrf(&state, &headers, jar);
    Ok((jar, axum::Json(Me::new(Some(&user), Permission::NoAccess, false, csrf))))
}
