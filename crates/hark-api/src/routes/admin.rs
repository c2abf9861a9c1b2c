//! The instance administrator's accounts page: every account with its plan, trial and limits,
//! and the plan catalogue to choose from.

use axum::extract::State;
use crate::extract::Path;
use hark_core::plans;
use hark_core::{now_millis, Code};
use hark_store::{AccountPlan, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, Query};
use crate::AppState;

fn require_admin(user: &UserRow) -> ApiResult<()> {
    if user.is_admin {
        Ok(())
    } else {
        Err(ApiError::forbidden("Only an instance administrator can manage accounts."))
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    pub number: i64,
    pub name: String,
    pub max_searches: i64,
    pub max_ignored: i64,
    pub xls: bool,
    pub link_sharing: bool,
    pub media_wall: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanCatalogue {
    pub plans: Vec<PlanView>,
    /// Days a trial lasts.
    pub trial_days: i64,
}

#[utoipa::path(get, path = "/api/v1/admin/plans", tag = "admin", responses((status = 200, body = PlanCatalogue), (status = 403, body = ErrorBody)))]
pub async fn list_plans(CurrentUser(user): CurrentUser) -> ApiResult<axum::Json<PlanCatalogue>> {
    require_admin(&user)?;
    let c = plans::catalogue();
    let plans = c
        .plans
        .iter()
        .map(|p| {
            // As an account made today, not on a trial, would have it.
            let f = c.features(&plans::Account { plan: p.number, trial: false, is_admin: false, created_at: now_millis() });
            PlanView {
                number: p.number,
                name: p.name.clone(),
                max_searches: p.max_searches,
                max_ignored: p.max_ignored,
                xls: f.xls,
                link_sharing: f.link_sharing,
                media_wall: f.media_wall,
            }
        })
        .collect();
    Ok(axum::Json(PlanCatalogue { plans, trial_days: c.trial_days }))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub created_at: i64,
    pub is_admin: bool,
    pub plan: i64,
    /// The plan's name, when the catalogue has it.
    pub plan_name: Option<String>,
    pub trial: bool,
    pub trial_expires: Option<i64>,
    /// On a trial whose end has passed.
    pub trial_expired: bool,
    pub max_searches: i64,
    pub max_ignored: i64,
    /// Trackers the account owns.
    pub trackers: i64,
}

fn account(u: UserRow, trackers: i64) -> Account {
    Account {
        id: u.id,
        plan_name: plans::catalogue().plan(u.plan).map(|p| p.name.clone()),
        trial_expired: crate::dto::trial_expired(u.trial, u.trial_expires),
        email: u.email,
        name: u.name,
        created_at: u.created_at,
        is_admin: u.is_admin,
        plan: u.plan,
        trial: u.trial,
        trial_expires: u.trial_expires,
        max_searches: u.max_searches,
        max_ignored: u.max_ignored,
        trackers,
    }
}

#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AccountsQuery {
    /// Part of an address or a name.
    pub search: Option<String>,
    #[param(minimum = 1, maximum = 100000)]
    pub page: Option<i64>,
    /// At most 100; 50 by default.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountList {
    pub accounts: Vec<Account>,
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
}

#[utoipa::path(get, path = "/api/v1/admin/users", tag = "admin", params(AccountsQuery),
    responses((status = 200, body = AccountList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_accounts(State(state): State<AppState>, CurrentUser(user): CurrentUser, Query(q): Query<AccountsQuery>) -> ApiResult<axum::Json<AccountList>> {
    require_admin(&user)?;
    let page = q.page.unwrap_or(1);
    let per_page = q.per_page.unwrap_or(50);
    if !(1..=100_000).contains(&page) || !(1..=100).contains(&per_page) {
        return Err(ApiError::new(Code::InvalidQuery, "page is 1 or more and perPage 1 to 100."));
    }
    let search = q.search.unwrap_or_default();
    if search.chars().count() > 200 {
        return Err(ApiError::new(Code::InvalidQuery, "The search is at most 200 characters."));
    }
    let (rows, total) = state.store.accounts(&search, per_page, (page - 1).saturating_mul(per_page)).await?;
    Ok(axum::Json(AccountList { accounts: rows.into_iter().map(|(u, n)| account(u, n)).collect(), total, page, per_page }))
}

/// Changes to an account; a missing field keeps its value. Choosing a plan of the catalogue sets
/// its limits unless they are given too.
#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountInput {
    pub plan: Option<i64>,
    pub trial: Option<bool>,
    /// Starts a trial of this many days from now (1 to 365; implies `trial`).
    pub trial_days: Option<i64>,
    pub max_searches: Option<i64>,
    pub max_ignored: Option<i64>,
    pub is_admin: Option<bool>,
}

#[utoipa::path(patch, path = "/api/v1/admin/users/{id}", tag = "admin", params(("id" = i64, Path)), request_body = AccountInput,
    responses((status = 200, body = Account), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn edit_account(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    Json(input): Json<AccountInput>,
) -> ApiResult<axum::Json<Account>> {
    require_admin(&user)?;
    let Some(row) = state.store.user_by_id(id).await? else { return Err(ApiError::not_found("Account")) };
    let invalid = |m: &str| Err(ApiError::new(Code::ValidationFailed, m.to_string()));
    let mut next = AccountPlan {
        plan: row.plan,
        trial: row.trial,
        trial_expires: row.trial_expires,
        max_searches: row.max_searches,
        max_ignored: row.max_ignored,
        is_admin: row.is_admin,
    };
    if let Some(p) = input.plan {
        let Some(plan) = plans::catalogue().plan(p) else {
            return Err(ApiError::new(Code::InvalidChoice, format!("Plan {p} is not in the catalogue.")));
        };
        next.plan = plan.number;
        next.max_searches = plan.max_searches;
        next.max_ignored = plan.max_ignored;
    }
    let now = now_millis();
    if let Some(t) = input.trial {
        next.trial = t;
        if !t {
            next.trial_expires = None;
        } else if next.trial_expires.is_none() {
            next.trial_expires = Some(now + plans::catalogue().trial_millis());
        }
    }
    if let Some(days) = input.trial_days {
        if !(1..=365).contains(&days) {
            return invalid("A trial lasts 1 to 365 days.");
        }
        next.trial = true;
        next.trial_expires = Some(now + days * hark_core::limits::DAY_MS);
    }
    if let Some(n) = input.max_searches {
        if !(1..=1000).contains(&n) {
            return invalid("Searches: 1 to 1000.");
        }
        next.max_searches = n;
    }
    if let Some(n) = input.max_ignored {
        if !(0..=1000).contains(&n) {
            return invalid("Ignored terms: 0 to 1000.");
        }
        next.max_ignored = n;
    }
    if let Some(a) = input.is_admin {
        if !a && row.id == user.id {
            return invalid("You cannot take your own administrator rights: another administrator can.");
        }
        next.is_admin = a;
    }
    let audit = (next.is_admin != row.is_admin).then(|| {
        let action = if next.is_admin { "admin_granted" } else { "admin_revoked" };
        crate::routes::audit::instance_entry(&user, action, serde_json::json!({ "member": row.email }))
    });
    state.store.set_account_plan(id, &next, audit.as_ref()).await?;
    let (u, n) = state.store.account(id).await?.ok_or_else(|| ApiError::not_found("Account"))?;
    Ok(axum::Json(account(u, n)))
}
