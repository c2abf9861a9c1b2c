//! The influencers page: the ranked accounts, their CSV, one account's posts (the side view), and
//! influencer tags on accounts. Influencer tags themselves (the account watchlist) are the
//! caller's own: see `tags.rs`.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use hark_core::{Code, Permission, Platform};
use hark_store::{
    AccountPostSort, CountField, CountFilter, InfluencerQuery, InfluencerRow, InfluencerSort, PageFilter, TrackerRow, UserRow,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::csv_file::streamed;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, Query, TrackerPage};
use crate::filters::FilterQuery;
use crate::routes::load_tracker;
use crate::routes::posts::{can_export, item, PostItem};
use crate::AppState;

/// Accounts in one CSV at most.
pub const EXPORT_MAX: usize = 200_000;
/// Accounts in one tagging request at most.
pub const TAG_MAX: usize = 1000;

/// The influencers page's own query parameters (the shared page filters come with [`FilterQuery`]).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct InfluencerParams {
    /// 1-based page.
    pub page: Option<String>,
    /// Accounts per page, 1 to 100 (25 by default).
    pub per_page: Option<String>,
    /// `field;asc|desc`: engagement (default, descending), name, platform, posts, avgEngagement,
    /// followers, reach, engagementRate, impressions.
    pub sort: Option<String>,
    /// Words that must each appear in the name, username or bio (case and accents aside).
    pub search: Option<String>,
    /// Text the bio must contain.
    pub bio: Option<String>,
    /// Text the location must contain.
    pub location: Option<String>,
    #[serde(rename = "followers_count")]
    #[param(rename = "followers_count")]
    pub followers_count: Option<String>,
    /// `greater` (default) or `lesser`.
    #[serde(rename = "followers_op")]
    #[param(rename = "followers_op")]
    pub followers_op: Option<String>,
    #[serde(rename = "engagement_count")]
    #[param(rename = "engagement_count")]
    pub engagement_count: Option<String>,
    #[serde(rename = "engagement_op")]
    #[param(rename = "engagement_op")]
    pub engagement_op: Option<String>,
    #[serde(rename = "posts_count")]
    #[param(rename = "posts_count")]
    pub posts_count: Option<String>,
    #[serde(rename = "posts_op")]
    #[param(rename = "posts_op")]
    pub posts_op: Option<String>,
    #[serde(rename = "impressions_count")]
    #[param(rename = "impressions_count")]
    pub impressions_count: Option<String>,
    #[serde(rename = "impressions_op")]
    #[param(rename = "impressions_op")]
    pub impressions_op: Option<String>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidQuery, message)
}

fn number(v: &Option<String>, name: &str, max: i64, default: i64) -> ApiResult<i64> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(default),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| bad(format!("{name} must be a number from 1 to {max}."))),
    }
}

fn text(v: &Option<String>, name: &str) -> ApiResult<String> {
    let s = v.as_deref().unwrap_or("").trim().to_string();
    if s.chars().count() > 200 {
        return Err(bad(format!("{name} is longer than 200 characters.")));
    }
    Ok(s)
}

/// `field;asc|desc` into a sort and whether it ascends.
fn sort_of<T>(v: &Option<String>, parse: impl Fn(&str) -> Option<T>, default: T, what: &str) -> ApiResult<(T, bool)> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok((default, false)),
        Some(s) => {
            let (field, dir) = s.split_once(';').unwrap_or((s, "desc"));
            let sort = parse(field).ok_or_else(|| bad(format!("{what} cannot be sorted by '{field}'.")))?;
            let asc = match dir {
                "asc" => true,
                "desc" | "" => false,
                _ => return Err(bad("A sort direction is 'asc' or 'desc'.")),
            };
            Ok((sort, asc))
        }
    }
}

/// Builds the store query from the shared filters and the page's own parameters.
pub fn influencer_query(f: PageFilter, p: &InfluencerParams) -> ApiResult<InfluencerQuery> {
    let (sort, ascending) = sort_of(&p.sort, InfluencerSort::parse, InfluencerSort::Engagement, "Influencers")?;
    let mut counts = Vec::new();
    for (field, count, op) in [
        (CountField::Followers, &p.followers_count, &p.followers_op),
        (CountField::Engagement, &p.engagement_count, &p.engagement_op),
        (CountField::Posts, &p.posts_count, &p.posts_op),
        (CountField::Impressions, &p.impressions_count, &p.impressions_op),
    ] {
        let Some(c) = count.as_deref().map(str::trim).filter(|s| !s.is_empty()) else { continue };
        let count = c
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| bad(format!("{}_count must be a whole number, 0 or more.", field.name())))?;
        let greater = match op.as_deref().map(str::trim) {
            None | Some("") | Some("greater") => true,
            Some("lesser") => false,
            Some(o) => return Err(bad(format!("'{o}' is not an operator: use 'lesser' or 'greater'."))),
        };
        counts.push(CountFilter { field, greater, count });
    }
    Ok(InfluencerQuery {
        filter: f,
        search: text(&p.search, "The search")?,
        bio: text(&p.bio, "The bio filter")?,
        location: text(&p.location, "The location filter")?,
        counts,
        sort,
        ascending,
        page: number(&p.page, "page", 1_000_000, 1)?,
        per_page: number(&p.per_page, "perPage", 100, 25)?,
    })
}

/// One account of the page.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InfluencerItem {
    /// `platform;author`: the account's id for tagging and the side view.
    pub key: String,
    pub platform: String,
    /// The author key: the username, or the account id when the username is empty.
    pub author: String,
    pub name: String,
    pub username: String,
    pub avatar_url: Option<String>,
    /// The account's page on its platform.
    pub profile_url: Option<String>,
    pub bio: Option<String>,
    pub location: Option<String>,
    pub verified: bool,
    pub posts: i64,
    /// Engagement of its posts in the range, summed.
    pub engagement: i64,
    pub avg_engagement: f64,
    /// The account's follower count now (from its newest post).
    pub followers: i64,
    /// Follower counts of its posts, summed.
    pub reach: i64,
    /// Average engagement of a post over the followers, a percentage (3.5 is 3.5%).
    pub engagement_rate: Option<f64>,
    /// Null where the platform reports none.
    pub impressions: Option<i64>,
    /// The caller's influencer tags on the account.
    pub tags: Vec<i64>,
    /// A Facebook account on a tracker that anonymises Facebook: name, username and picture removed.
    pub anonymized: bool,
}

/// Platforms that report impressions (others show '-').
fn reports_impressions(p: Platform) -> bool {
    matches!(p, Platform::Twitter | Platform::Instagram | Platform::Facebook | Platform::Youtube | Platform::Tiktok)
}

fn influencer_item(r: InfluencerRow, anonymize_fb: bool) -> InfluencerItem {
    let anonymized = anonymize_fb && r.platform == Platform::Facebook;
    let rate = r.engagement_rate();
    let avg = r.avg_engagement();
    let p = r.profile;
    let username = if p.username.is_empty() && p.author_id.is_empty() { r.author.clone() } else { p.username.clone() };
    InfluencerItem {
        key: format!("{};{}", r.platform.name(), r.author),
        platform: r.platform.name().to_string(),
        profile_url: if anonymized { None } else { r.platform.profile_url(&username, &p.author_id) },
        author: if anonymized { String::new() } else { r.author },
        name: if anonymized { String::new() } else { p.name },
        username: if anonymized { String::new() } else { username },
        avatar_url: if anonymized { None } else { p.avatar },
        bio: if anonymized { None } else { p.bio },
        location: p.location,
        verified: p.verified,
        posts: r.posts,
        engagement: r.engagement,
        avg_engagement: avg,
        followers: r.followers,
        reach: r.reach,
        engagement_rate: rate,
        impressions: (reports_impressions(r.platform) || r.impressions > 0).then_some(r.impressions),
        tags: r.tags,
        anonymized,
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InfluencerPage {
    pub influencers: Vec<InfluencerItem>,
    /// Accounts that pass the filters.
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
    /// The caller may put influencer tags on accounts here (owners and administrators).
    pub can_tag: bool,
    pub can_export: bool,
}

fn can_tag(user: Option<&UserRow>, p: Permission) -> bool {
    user.is_some() && p >= Permission::Administrator
}

fn anonymizes_facebook(row: &TrackerRow) -> bool {
    crate::dto::anonymizes_facebook(&row.custom_config)
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/influencers", tag = "influencers",
    params(("hash" = String, Path), FilterQuery, InfluencerParams),
    responses((status = 200, body = InfluencerPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_influencers(
    State(state): State<AppState>,
    TrackerPage { row, perm, user, filter, shared, .. }: TrackerPage,
    Query(p): Query<InfluencerParams>,
) -> ApiResult<axum::Json<InfluencerPage>> {
    let q = influencer_query(filter, &p)?;
    let page = state.store.influencers_page(row.id, &q).await?;
    let anonymize = anonymizes_facebook(&row);
    Ok(axum::Json(InfluencerPage {
        influencers: page.rows.into_iter().map(|r| influencer_item(r, anonymize)).collect(),
        total: page.total,
        page: q.page,
        per_page: q.per_page,
        can_tag: can_tag(user.as_ref(), perm),
        can_export: can_export(&row, user.as_ref(), perm, shared.as_ref()),
    }))
}

/// `YYYY-MM-DD` of a millisecond time (UTC).
fn day(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.strftime("%Y-%m-%d").to_string()).unwrap_or_default()
}

/// The export's file name: tracker name, hash, date range, 'influencers'.
fn export_name(row: &TrackerRow, f: &PageFilter) -> String {
    let start = f.start.map(day).unwrap_or_else(|| "all".into());
    let end = day(f.end.unwrap_or_else(hark_core::now_millis));
    format!("{} {} {start}_{end} influencers.csv", row.title.trim(), row.hash)
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/influencers/export.csv", tag = "influencers",
    params(("hash" = String, Path), FilterQuery, InfluencerParams),
    responses((status = 200, content_type = "text/csv", body = String), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn export_influencers(
    State(state): State<AppState>,
    TrackerPage { row, perm, user, filter, shared, .. }: TrackerPage,
    Query(p): Query<InfluencerParams>,
) -> ApiResult<Response> {
    if !can_export(&row, user.as_ref(), perm, shared.as_ref()) {
        return Err(if user.is_none() && shared.is_none() {
            ApiError::unauthorized()
        } else {
            ApiError::forbidden("Exporting needs the owner, an administrator or shared exports.")
        });
    }
    let q = influencer_query(filter, &p)?;
    let name = export_name(&row, &q.filter);
    let anonymize = anonymizes_facebook(&row);
    let tags: std::collections::HashMap<i64, String> = match user.as_ref() {
        Some(u) => state.store.influencer_tags(u.id).await?.into_iter().map(|t| (t.id, t.name)).collect(),
        None => Default::default(),
    };
    let ranked = state.store.influencers_all(row.id, &q, EXPORT_MAX).await?;
    let header = [
        "Platform", "Name", "Username", "Profile", "Bio", "Location", "Posts", "Engagement", "Avg. engagement", "Followers",
        "Reach", "Engagement rate (%)", "Impressions", "Tags",
    ];
    Ok(streamed(&name, &header, move |mut w| async move {
        for r in ranked {
            let it = influencer_item(r, anonymize);
            let tag_names: Vec<&str> = it.tags.iter().filter_map(|t| tags.get(t).map(String::as_str)).collect();
            w.row([
                it.platform,
                it.name,
                it.username,
                it.profile_url.unwrap_or_default(),
                it.bio.unwrap_or_default(),
                it.location.unwrap_or_default(),
                it.posts.to_string(),
                it.engagement.to_string(),
                format!("{:.1}", it.avg_engagement),
                it.followers.to_string(),
                it.reach.to_string(),
                it.engagement_rate.map(|r| format!("{r:.1}")).unwrap_or_default(),
                it.impressions.map(|n| n.to_string()).unwrap_or_default(),
                tag_names.join(", "),
            ])?;
            if !w.send(false).await? {
                return Ok(());
            }
        }
        w.send(true).await.map(|_| ())
    }))
}

/// The side view's parameters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AccountPostsParams {
    /// The account: `platform;author` (an influencer's `key`).
    pub account: Option<String>,
    /// `field;asc|desc`: created_at (default, descending), engagement, reach, engagement_rate.
    pub sort: Option<String>,
    /// 1-based page.
    pub page: Option<String>,
    /// Posts per page, 1 to 100 (50 by default).
    pub per_page: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountPosts {
    /// The account with its figures in the range; null when it has no posts there.
    pub influencer: Option<InfluencerItem>,
    pub posts: Vec<PostItem>,
    /// The account's posts in the range.
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
}

/// `platform;author` into its parts.
fn account_key(s: &str) -> ApiResult<(Platform, String)> {
    let (platform, author) = s
        .split_once(';')
        .ok_or_else(|| ApiError::new(Code::InvalidQuery, "An account is 'platform;author'."))?;
    let platform = Platform::parse(platform)?;
    let author = author.trim();
    if author.is_empty() || author.chars().count() > 300 {
        return Err(ApiError::new(Code::InvalidQuery, "An account is 'platform;author'."));
    }
    Ok((platform, author.to_string()))
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/influencers/posts", tag = "influencers",
    params(("hash" = String, Path), FilterQuery, AccountPostsParams),
    responses((status = 200, body = AccountPosts), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn account_posts(
    State(state): State<AppState>,
    TrackerPage { row, perm, user, filter, .. }: TrackerPage,
    Query(p): Query<AccountPostsParams>,
) -> ApiResult<axum::Json<AccountPosts>> {
    let (platform, author) = account_key(p.account.as_deref().unwrap_or(""))?;
    let (sort, ascending) = sort_of(&p.sort, AccountPostSort::parse, AccountPostSort::Date, "An account's posts")?;
    let page = number(&p.page, "page", 1_000_000, 1)?;
    let per_page = number(&p.per_page, "perPage", 100, 50)?;
    let anonymize = anonymizes_facebook(&row);
    let (one, (rows, total)) = tokio::try_join!(
        state.store.influencer(row.id, &filter, platform, &author),
        state.store.influencer_posts(row.id, &filter, platform, &author, sort, ascending, (page - 1).saturating_mul(per_page), per_page)
    )?;
    let show_tags = user.is_some() && perm >= Permission::Administrator;
    Ok(axum::Json(AccountPosts {
        influencer: one.map(|r| influencer_item(r, anonymize)),
        posts: rows.into_iter().map(|r| item(r, None, show_tags, anonymize)).collect(),
        total,
        page,
        per_page,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct TagAccountsInput {
    /// Accounts `platform;author` (influencers' `key`s).
    #[schema(min_items = 1, max_items = 1000, pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^\u0000-\u001f\u007f-\u009f]{0,299}$")]
    accounts: Vec<String>,
    #[serde(default)]
    add: Vec<i64>,
    #[serde(default)]
    remove: Vec<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct TagAccountsResult {
    added: u64,
    removed: u64,
}

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/influencers/tags", tag = "influencers",
    params(("hash" = String, Path)), request_body = TagAccountsInput,
    responses((status = 200, body = TagAccountsResult), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn tag_accounts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    axum::extract::Path(hash): axum::extract::Path<String>,
    Json(input): Json<TagAccountsInput>,
) -> ApiResult<impl IntoResponse> {
    load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if input.accounts.is_empty() {
        return Err(ApiError::new(Code::InvalidUsers, "Choose at least one account."));
    }
    if input.accounts.len() > TAG_MAX {
        return Err(ApiError::new(Code::TooManyItems, format!("At most {TAG_MAX} accounts at once.")));
    }
    let accounts = input
        .accounts
        .iter()
        .map(|a| account_key(a).map(|(p, author)| (p.name().to_string(), author)))
        .collect::<ApiResult<Vec<_>>>()
        .map_err(|_| ApiError::new(Code::InvalidUsers, "An account is 'platform;author'."))?;
    let mine: Vec<i64> = state.store.influencer_tags(user.id).await?.into_iter().map(|t| t.id).collect();
    if let Some(t) = input.add.iter().chain(&input.remove).find(|t| !mine.contains(t)) {
        return Err(ApiError::new(Code::UnknownTag, format!("Tag {t} is not one of your influencer tags.")));
    }
    let (added, removed) = state.store.set_account_tags(user.id, &accounts, &input.add, &input.remove).await?;
    Ok(axum::Json(TagAccountsResult { added, removed }))
}
