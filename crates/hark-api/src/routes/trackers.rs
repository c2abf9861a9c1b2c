use axum::extract::State;
use crate::extract::Path;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use hark_core::limits::TITLE_MAX;
use hark_core::{
    now_millis, AccountLimits, AccountLists, CriteriaInput, Friendly, Permission, Platform, PlatformSet, SearchRow,
    TrackerCriteria, TrackerStatus,
};
use hark_store::{NewTracker, PostCountFilter, TrackerEdit, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::dto::{criteria_of, CustomConfig, Tracker};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, MaybeUser, Query};
use crate::filters::{DateRange, FilterQuery};
use crate::routes::{load_tracker, load_tracker_for_page};
use crate::AppState;
use hark_core::Code;

#[derive(Deserialize, ToSchema, Default)]
pub struct SearchInputRows {
    #[schema(value_type = Vec<crate::dto::SearchRowSchema>)]
    pub rows: Vec<SearchRow>,
}

/// A tracker as the create and edit forms submit it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackerInput {
    #[serde(default)]
    title: Option<String>,
    #[schema(value_type = Object)]
    platforms: PlatformSet,
    search: SearchInputRows,
    #[serde(default)]
    exclude_retweets: bool,
    #[serde(default)]
    verified_users: bool,
    #[serde(default)]
    verified_tiktok_users: bool,
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    country_locations: Vec<String>,
    #[serde(default)]
    volume_limit: Option<i64>,
    #[serde(default)]
    #[schema(value_type = Object)]
    usernames: AccountLists,
    #[serde(default)]
    #[schema(value_type = Object)]
    ignore: AccountLists,
    #[serde(default)]
    subtrackers: Vec<String>,
    #[serde(default)]
    highlights: Vec<String>,
    /// On edit: "reanalyze" re-matches collected posts, "future" applies to new posts only.
    #[serde(default)]
    mode: Option<String>,
    /// On create: start in preview mode (its pages wait for the first sample) when a switched-on
    /// source serves one of its platforms. Ignored on edit.
    #[serde(default)]
    preview: bool,
}

fn limits_of(user: &UserRow) -> AccountLimits {
    let mut allowed = PlatformSet::all();
    if !user.allow_facebook {
        allowed.remove(Platform::Facebook);
    }
    if !user.allow_tiktok {
        allowed.remove(Platform::Tiktok);
    }
    if !user.allow_youtube {
        allowed.remove(Platform::Youtube);
    }
    AccountLimits { max_searches: user.max_searches, max_ignored: user.max_ignored, trial: user.trial, allowed }
}

const MAX_LIST_ITEMS: usize = 500;

impl TrackerInput {
    fn into_parts(self, owner: &UserRow, current: PlatformSet) -> ApiResult<(TrackerCriteria, String, Option<String>)> {
        let lists = [&self.usernames, &self.ignore];
        let too_long = lists.iter().any(|l| {
            [&l.twt, &l.ig, &l.yt, &l.fb, &l.tt, &l.web, &l.bsky, &l.mastodon].iter().any(|v| v.len() > MAX_LIST_ITEMS)
        }) || self.search.rows.len() > 50
            || self.search.rows.iter().any(|r| r.searches.len() > 100)
            || self.country_locations.len() > 300
            || self.highlights.len() > MAX_LIST_ITEMS
            || self.subtrackers.len() > MAX_LIST_ITEMS;
        if too_long {
            return Err(ApiError::new(Code::TooManyItems, "The tracker has too many entries."));
        }
        let title = self.title.as_deref().map(|t| t.trim().chars().filter(|c| !c.is_control()).collect::<String>());
        if title.as_ref().is_some_and(|t| t.chars().count() > TITLE_MAX) {
            return Err(ApiError::new(Code::TitleTooLong, format!("Title must be at most {TITLE_MAX} characters.")));
        }
        let criteria = TrackerCriteria::parse(
            CriteriaInput {
                rows: self.search.rows,
                platforms: self.platforms,
                exclude_retweets: self.exclude_retweets,
                verified_users: self.verified_users,
                verified_tiktok_users: self.verified_tiktok_users,
                language: self.language,
                country_locations: self.country_locations,
                volume_limit: self.volume_limit,
                usernames: self.usernames,
                ignore: self.ignore,
                subtrackers: self.subtrackers,
                highlights: self.highlights,
            },
            limits_of(owner),
            current,
        )
        .map_err(ApiError::validation)?;
        let title = match title.filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => hark_core::tracker::default_title(criteria.search.first_term().unwrap_or_default()),
        };
        Ok((criteria, title, self.mode))
    }
}

fn to_json(c: &TrackerCriteria) -> ApiResult<String> {
    serde_json::to_string(c).map_err(|e| ApiError::Internal(e.to_string()))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    page: Option<i64>,
    per_page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct TrackerList {
    trackers: Vec<Tracker>,
    count: i64,
}

#[utoipa::path(get, path = "/api/v1/trackers", tag = "trackers", params(ListQuery),
    responses((status = 200, body = TrackerList), (status = 401, body = ErrorBody)))]
pub async fn list_trackers(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<TrackerList>> {
    let page = q.page.unwrap_or(1).max(1);
    let per_page = q.per_page.unwrap_or(100).clamp(1, 500);
    let (rows, count) = state.store.trackers_for_user(user.id, page, per_page).await?;
    let mut trackers = Vec::with_capacity(rows.len());
    for row in &rows {
        let p = state.store.permission(row, user.id, user.is_admin).await?;
        trackers.push(Tracker::from_row(row, p)?);
    }
    Ok(axum::Json(TrackerList { trackers, count }))
}

#[utoipa::path(post, path = "/api/v1/trackers", tag = "trackers", request_body = TrackerInput,
    responses((status = 201, body = Tracker), (status = 422, body = ErrorBody)))]
pub async fn create_tracker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Json(input): Json<TrackerInput>,
) -> ApiResult<impl IntoResponse> {
    let preview = input.preview;
    let (criteria, title, _) = input.into_parts(&user, PlatformSet::empty())?;
    check_listed_addresses(&criteria, None).await?;
    // Preview mode only when some source can sample the tracker's platforms.
    let preview = preview && super::preview::can_sample(&state, criteria.platforms.bits()).await?;
    let row = state
        .store
        .create_tracker(
            &NewTracker {
                friendly: Friendly::from_text(criteria.search.first_term().unwrap_or(&title)),
                title,
                owner_id: user.id,
                platforms: criteria.platforms.bits(),
                criteria: to_json(&criteria)?,
                volume_limit: criteria.volume_limit,
                is_demo: false,
                is_preview_mode: preview,
            },
            now_millis(),
        )
        .await?;
    Ok((StatusCode::CREATED, axum::Json(Tracker::from_row(&row, Permission::Owner)?)))
}

/// Refuses feed URLs (web list) and Mastodon servers (Mastodon list) that point at this server
/// or a private network, by literal address or by what their host name resolves to. On an edit
/// only entries that were not there before are looked up. (Collection checks again each time it
/// connects.)
async fn check_listed_addresses(criteria: &TrackerCriteria, before: Option<&TrackerCriteria>) -> ApiResult<()> {
    let was = |list: fn(&TrackerCriteria) -> &Vec<String>, entry: &String| before.is_some_and(|b| list(b).contains(entry));
    let mut urls: Vec<(&str, String)> = Vec::new();
    for entry in &criteria.usernames.web {
        if let Some(url) = hark_collect::rss::feed_url_of(entry).filter(|_| !was(|c| &c.usernames.web, entry)) {
            urls.push(("feed URL", url));
        }
    }
    for entry in &criteria.usernames.mastodon {
        if let Some(url) = hark_collect::mastodon::server_of(entry).filter(|_| !was(|c| &c.usernames.mastodon, entry)) {
            urls.push(("Mastodon server", url));
        }
    }
    for (what, url) in urls.into_iter().take(MAX_LOOKUPS) {
        let reason = tokio::time::timeout(std::time::Duration::from_secs(5), hark_collect::netguard::private_url_reason(&url))
            .await
            .unwrap_or_else(|_| Some("its host name could not be resolved in time".into()));
        if let Some(why) = reason {
            return Err(ApiError::new(Code::PrivateAddress, format!("The {what} '{url}' cannot be used: {why}.")));
        }
    }
    Ok(())
}

/// Host names looked up in one save at most (the rest are checked when collected).
const MAX_LOOKUPS: usize = 50;

/// A read through the tracker's share link.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShareParam {
    /// The tracker's share link hash, for a visitor without access of their own.
    #[serde(rename = "shareHash")]
    pub share_hash: Option<String>,
    /// An embed key, for a page or chart framed elsewhere.
    #[serde(rename = "embedKey")]
    pub embed_key: Option<String>,
    /// The media wall's moderation key (opens the tracker itself and the wall).
    #[serde(rename = "moderationKey")]
    pub moderation_key: Option<String>,
}

impl ShareParam {
    pub fn keys<'a>(&'a self, route: &'a str) -> crate::routes::PublicKeys<'a> {
        crate::routes::PublicKeys {
            share_hash: self.share_hash.as_deref(),
            embed_key: self.embed_key.as_deref(),
            moderation_key: self.moderation_key.as_deref(),
            route,
        }
    }
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}", tag = "trackers", params(("hash" = String, Path), ShareParam),
    responses((status = 200, body = Tracker), (status = 404, body = ErrorBody)))]
pub async fn get_tracker(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(hash): Path<String>,
    Query(share): Query<ShareParam>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p, shared) = load_tracker_for_page(&state, &hash, user.as_ref(), share.keys(""), false).await?;
    let mut tracker = Tracker::from_row(&row, p)?;
    tracker.shared = shared.is_some();
    if shared.is_some() || p < Permission::Administrator {
        // Only those who may share the tracker see its link's hash.
        tracker.share_hash = None;
    }
    tracker.reanalysis = state.store.latest_reanalysis(row.id).await?.map(Into::into);
    tracker.sentiment_model = crate::dto::SentimentModelProgress::of(&state.store.sentiment_model_state().await?);
    tracker.is_backfilling = state.store.backfill_active(row.id).await?;
    Ok(axum::Json(tracker))
}

#[utoipa::path(patch, path = "/api/v1/trackers/{hash}", tag = "trackers", params(("hash" = String, Path)),
    request_body = TrackerInput,
    responses((status = 200, body = Tracker), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn edit_tracker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<TrackerInput>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    let owner = state.store.user_by_id(row.owner_id).await?.ok_or_else(|| ApiError::Internal("owner missing".into()))?;
    let current = PlatformSet::from_bits(row.platforms);
    let (mut criteria, title, mode) = input.into_parts(&owner, current)?;
    let before = criteria_of(&row)?;
    check_listed_addresses(&criteria, Some(&before)).await?;
    // Sentiment keywords are edited on their own and survive a search edit.
    criteria.sentiment_keywords = before.sentiment_keywords;
    let mode = match mode.as_deref() {
        Some("reanalyze") => "reanalyze",
        Some("future") | None => "future",
        Some(_) => {
            return Err(ApiError::new(Code::InvalidMode, "Mode must be 'reanalyze' or 'future'."));
        }
    };
    let edit = TrackerEdit {
        title,
        platforms: criteria.platforms.bits(),
        criteria: to_json(&criteria)?,
        volume_limit: criteria.volume_limit,
        mode,
        user_id: user.id,
    };
    let row = state.store.edit_tracker(row.id, &edit, now_millis()).await?;
    let mut tracker = Tracker::from_row(&row, p)?;
    tracker.reanalysis = state.store.latest_reanalysis(row.id).await?.map(Into::into);
    Ok(axum::Json(tracker))
}

/// A tracker's custom sentiment keyword lists, and whether stored posts are scored again now.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentimentKeywordsInput {
    #[serde(default)]
    positive: Vec<String>,
    #[serde(default)]
    neutral: Vec<String>,
    #[serde(default)]
    negative: Vec<String>,
    /// Re-analyze the posts already stored (else only new posts use the lists).
    #[serde(default)]
    reanalyze: bool,
}

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/sentiment-keywords", tag = "trackers",
    params(("hash" = String, Path)), request_body = SentimentKeywordsInput,
    responses((status = 200, body = Tracker), (status = 422, body = ErrorBody)))]
pub async fn sentiment_keywords(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<SentimentKeywordsInput>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let lists = hark_core::criteria::SentimentKeywords {
        positive: input.positive,
        neutral: input.neutral,
        negative: input.negative,
    };
    let lists = lists.cleaned().map_err(|e| ApiError::new(e.code, e.message))?;
    let mut criteria = criteria_of(&row)?;
    criteria.sentiment_keywords = lists;
    let edit = TrackerEdit {
        title: row.title.clone(),
        platforms: row.platforms,
        criteria: to_json(&criteria)?,
        volume_limit: criteria.volume_limit,
        mode: if input.reanalyze { "reanalyze" } else { "future" },
        user_id: user.id,
    };
    let row = state.store.edit_tracker(row.id, &edit, now_millis()).await?;
    let mut tracker = Tracker::from_row(&row, p)?;
    tracker.reanalysis = state.store.latest_reanalysis(row.id).await?.map(Into::into);
    Ok(axum::Json(tracker))
}

async fn set_status(state: &AppState, user: &UserRow, hash: &str, status: TrackerStatus) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(state, hash, Some(user), Permission::Administrator).await?;
    let row = state.store.set_tracker_status(row.id, status, user.id, now_millis()).await?;
    Ok(axum::Json(Tracker::from_row(&row, p)?))
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/pause", tag = "trackers", params(("hash" = String, Path)),
    responses((status = 200, body = Tracker), (status = 403, body = ErrorBody)))]
pub async fn pause_tracker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<Tracker>> {
    set_status(&state, &user, &hash, TrackerStatus::Paused).await
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/restart", tag = "trackers", params(("hash" = String, Path)),
    responses((status = 200, body = Tracker), (status = 403, body = ErrorBody)))]
pub async fn restart_tracker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<Tracker>> {
    set_status(&state, &user, &hash, TrackerStatus::Running).await
}

#[derive(Serialize, ToSchema)]
pub struct StatusBody {
    status: &'static str,
}

#[utoipa::path(delete, path = "/api/v1/trackers/{hash}", tag = "trackers", params(("hash" = String, Path)),
    responses((status = 200, body = StatusBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_tracker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<StatusBody>> {
    let (row, _) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if row.is_demo && !user.is_admin {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    let audit = crate::routes::audit::entry(&user, &row, "tracker_deleted", serde_json::json!({ "friendly": row.friendly }));
    state.store.delete_tracker(row.id, Some(&audit)).await?;
    Ok(axum::Json(StatusBody { status: "success" }))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    action: String,
    created_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct LogList {
    logs: Vec<LogEntry>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/logs", tag = "trackers", params(("hash" = String, Path)),
    responses((status = 200, body = LogList)))]
pub async fn tracker_logs(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<LogList>> {
    let (row, _) = load_tracker(&state, &hash, user.as_ref(), Permission::Viewer).await?;
    let logs = state
        .store
        .tracker_logs(row.id)
        .await?
        .into_iter()
        .map(|l| LogEntry { action: l.action, created_at: l.created_at })
        .collect();
    Ok(axum::Json(LogList { logs }))
}

#[derive(Deserialize, ToSchema)]
pub struct HideInput {
    hidden: bool,
}

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/hide-auth-metrics", tag = "trackers",
    params(("hash" = String, Path)), request_body = HideInput, responses((status = 200, body = Tracker)))]
pub async fn hide_auth_metrics(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<HideInput>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    state.store.set_hide_auth_metrics(row.id, input.hidden, now_millis()).await?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(Tracker::from_row(&row, p)?))
}

#[derive(Deserialize, ToSchema)]
pub struct AnonymizeInput {
    enabled: bool,
}

/// Turns Facebook anonymisation on or off: Facebook posts without insights then show no author
/// name or picture, and the influencer lists leave Facebook authors out.
#[utoipa::path(put, path = "/api/v1/trackers/{hash}/anonymize-facebook", tag = "trackers",
    params(("hash" = String, Path)), request_body = AnonymizeInput, responses((status = 200, body = Tracker)))]
pub async fn anonymize_facebook(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<AnonymizeInput>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    let mut config: serde_json::Value =
        serde_json::from_str(&row.custom_config).unwrap_or_else(|_| serde_json::json!({}));
    if !config.is_object() {
        config = serde_json::json!({});
    }
    config[crate::dto::ANONYMIZE_FACEBOOK] = serde_json::Value::Bool(input.enabled);
    state.store.set_custom_config(row.id, &config.to_string(), now_millis()).await?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(Tracker::from_row(&row, p)?))
}

/// Panels a dashboard can order and hide; Key Statistics and Timeline are pinned and not listed.
pub const CHARTS: [&str; 14] = [
    "posts", "influencers", "topics", "topPages", "sentiment", "shareOfVoice", "viewer_sentiment", "geography",
    "demographics", "sources", "links", "post_type", "prediction", "totalPosts",
];

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/custom-config", tag = "trackers",
    params(("hash" = String, Path)), request_body = CustomConfig, responses((status = 200, body = Tracker)))]
pub async fn custom_config(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<CustomConfig>,
) -> ApiResult<axum::Json<Tracker>> {
    let (row, p) = load_tracker(&state, &hash, Some(&user), Permission::Administrator).await?;
    if input.columns != 2 && input.columns != 3 {
        return Err(ApiError::new(Code::InvalidColumns, "Chart columns must be 2 or 3."));
    }
    let current: CustomConfig = serde_json::from_str(&row.custom_config).unwrap_or_default();
    if input.columns != current.columns && !user.is_admin && p < Permission::Administrator {
        return Err(ApiError::forbidden("Only administrators choose the column count."));
    }
    let mut seen = Vec::new();
    for c in &input.order {
        if !CHARTS.contains(&c.chart.as_str()) || seen.contains(&c.chart) {
            return Err(ApiError::new(Code::InvalidChart, format!("Unknown or repeated chart '{}'.", c.chart)));
        }
        seen.push(c.chart.clone());
    }
    let mut json = serde_json::to_value(&input).map_err(|e| ApiError::Internal(e.to_string()))?;
    if crate::dto::anonymizes_facebook(&row.custom_config) {
        json[crate::dto::ANONYMIZE_FACEBOOK] = serde_json::Value::Bool(true);
    }
    state.store.set_custom_config(row.id, &json.to_string(), now_millis()).await?;
    let row = state.store.tracker_by_id(row.id).await?.ok_or_else(ApiError::tracker_not_found)?;
    Ok(axum::Json(Tracker::from_row(&row, p)?))
}

#[derive(Serialize, ToSchema)]
pub struct PostCount {
    posts: i64,
}

#[derive(Serialize, ToSchema)]
pub struct TotalPosts {
    count: PostCount,
}

/// What the post count takes of the filters (its documentation: the count reads them from the
/// shared [`FilterQuery`], and tags and subtrackers do not narrow it).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
#[allow(dead_code)]
pub struct TotalPostsQuery {
    /// Comma-separated platform codes; defaults to the tracker's platforms.
    #[param(pattern = r"^((twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky)(,(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky))*)?$")]
    platforms: Option<String>,
    /// A relative window in days, or `all`.
    days: Option<String>,
    /// First day, YYYY-MM-DD, in `tz`, or the first millisecond (a 13-digit timestamp).
    start: Option<String>,
    /// Last day, YYYY-MM-DD, in `tz`, or the last millisecond included (a 13-digit timestamp).
    end: Option<String>,
    /// An IANA time zone; UTC by default.
    tz: Option<String>,
    /// The tracker's share link hash.
    share_hash: Option<String>,
    /// An embed key.
    embed_key: Option<String>,
}

/// The tracker's posts on its platforms in the date range: the count beside the page's title,
/// whatever tags or subtracker the page filters by.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/total-posts", tag = "trackers",
    params(("hash" = String, Path), TotalPostsQuery), responses((status = 200, body = TotalPosts)))]
pub async fn total_posts(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(hash): Path<String>,
    Query(q): Query<FilterQuery>,
) -> ApiResult<axum::Json<TotalPosts>> {
    let keys = crate::routes::PublicKeys {
        share_hash: q.share_hash.as_deref(),
        embed_key: q.embed_key.as_deref(),
        moderation_key: None,
        route: "/total-posts",
    };
    let (row, _, _) = load_tracker_for_page(&state, &hash, user.as_ref(), keys, false).await?;
    let tracker_platforms = PlatformSet::from_bits(row.platforms);
    let platforms = q.platforms(tracker_platforms)?;
    let DateRange { start, end } = q.range(now_millis())?;
    let posts = state
        .store
        .count_tracker_posts(row.id, &PostCountFilter { platforms, start, end })
        .await?;
    Ok(axum::Json(TotalPosts { count: PostCount { posts } }))
}

#[derive(Serialize, ToSchema)]
pub struct DemoTracker {
    hash: String,
    friendly: String,
    title: String,
}

#[utoipa::path(get, path = "/api/v1/demo", tag = "trackers",
    responses((status = 200, body = DemoTracker), (status = 404, body = ErrorBody)))]
pub async fn demo_tracker(State(state): State<AppState>) -> ApiResult<axum::Json<DemoTracker>> {
    let t = state.store.demo_tracker().await?.ok_or_else(|| ApiError::not_found("Demo tracker"))?;
    Ok(axum::Json(DemoTracker { hash: t.hash, friendly: t.friendly, title: t.title }))
}

/// Key Statistics under its first address; the dashboard's top-stats computes it (exact to the
/// millisecond), so the two always agree.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/stats", tag = "trackers",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = super::dashboard::TopStats)))]
pub async fn key_statistics(
    state: State<AppState>,
    page: crate::extract::TrackerPage,
    ask: crate::answers::Ask,
) -> ApiResult<axum::response::Response> {
    super::dashboard::top_stats(state, page, ask).await
}
