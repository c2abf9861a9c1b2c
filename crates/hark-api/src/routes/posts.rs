//! The posts page: the filtered, searched, sorted list; CSV export; and the work owners and
//! administrators do on posts (tags, sentiment, bulk delete and ignore with undo, add by URL).

use std::borrow::Cow;

use axum::extract::State;
use crate::extract::Path;
use axum::response::IntoResponse;
use hark_core::{now_millis, Permission, Platform, PlatformSet, PostKey};
use hark_store::{PageFilter, PostQuery, PostRow, PostSort, TrackerRow, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::dto::LinkSharing;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, Query, TrackerPage};
use crate::filters::FilterQuery;
use crate::routes::load_tracker;
use crate::AppState;
use hark_core::Code;

pub const PAGE_SIZE: i64 = 25;
/// Rows in one CSV export at most.
pub const EXPORT_MAX: i64 = 1_000_000;
/// Posts in one bulk request at most.
pub const BULK_MAX: usize = 20_000;

/// The posts page's own query parameters (the shared page filters come with [`FilterQuery`]).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PostsParams {
    /// 1-based page.
    pub page: Option<String>,
    /// Posts per page, 1 to 1000 (25 by default).
    pub per_page: Option<String>,
    /// `field;asc|desc`: created_at (default), engagement, reach, engagement_rate, impressions,
    /// sentiment, user, likes, comments, shares, views.
    pub sort: Option<String>,
    /// Words that must all appear in the text, title, author names or location.
    pub search: Option<String>,
    /// Comma-separated sentiment buckets.
    pub sentiment: Option<String>,
    #[serde(rename = "excludeRT")]
    pub exclude_rt: Option<String>,
    pub ig_story_only: Option<String>,
}

fn flag(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some("1") | Some("true"))
}

fn positive(v: &Option<String>, name: &str, max: i64, default: i64) -> ApiResult<i64> {
    match v.as_deref().filter(|s| !s.is_empty()) {
        None => Ok(default),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| ApiError::new(Code::InvalidQuery, format!("{name} must be a number from 1 to {max}."))),
    }
}

/// Builds the store query from the shared filters and the page's own parameters.
pub fn post_query(f: PageFilter, p: &PostsParams) -> ApiResult<PostQuery> {
    let (sort, ascending) = match p.sort.as_deref().filter(|s| !s.is_empty()) {
        None => (PostSort::Date, false),
        Some(s) => {
            let (field, dir) = s.split_once(';').unwrap_or((s, "desc"));
            let sort = PostSort::parse(field)
                .ok_or_else(|| ApiError::new(Code::InvalidQuery, format!("Posts cannot be sorted by '{field}'.")))?;
            let asc = match dir {
                "asc" => true,
                "desc" | "" => false,
                _ => return Err(ApiError::new(Code::InvalidQuery, "A sort direction is 'asc' or 'desc'.")),
            };
            (sort, asc)
        }
    };
    let mut sentiment = Vec::new();
    for s in p.sentiment.as_deref().unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let b = hark_store::SENTIMENT_BUCKETS
            .iter()
            .find(|b| **b == s)
            .ok_or_else(|| ApiError::new(Code::InvalidQuery, format!("'{s}' is not a sentiment level.")))?;
        if !sentiment.contains(b) {
            sentiment.push(*b);
        }
    }
    let search = p.search.clone().unwrap_or_default();
    if search.chars().count() > 500 {
        return Err(ApiError::new(Code::InvalidQuery, "The search is longer than 500 characters."));
    }
    Ok(PostQuery {
        filter: f,
        search,
        sentiment,
        exclude_retweets: flag(&p.exclude_rt),
        stories_only: flag(&p.ig_story_only),
        sort,
        ascending,
        page: positive(&p.page, "page", 1_000_000, 1)?,
        per_page: positive(&p.per_page, "perPage", 1000, PAGE_SIZE)?,
    })
}

/// One post of the list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostItem {
    /// `platform;id`.
    pub key: String,
    /// The post as collected (platform, id, author, text, title, url, createdAt, counts, media, flags).
    #[schema(value_type = Object)]
    pub post: hark_core::Post,
    /// Sentiment score, -1 to 1.
    pub sentiment: Option<f64>,
    /// The level shown (a manual edit when there is one).
    pub sentiment_bucket: String,
    pub sentiment_edited: bool,
    /// `model` (the learned model, for English and unknown languages) or `lexicon` (other
    /// languages, where the score is estimated from a word list).
    #[schema(value_type = String)]
    pub sentiment_method: hark_enrich::sentiment::Method,
    pub engagement: i64,
    /// A percentage (3.5 is 3.5%).
    pub engagement_rate: Option<f64>,
    pub reach: i64,
    pub impressions: i64,
    pub country: Option<String>,
    /// original, reply or retweet.
    pub post_type: String,
    /// Collected after the owner's previous visit (owner only).
    pub is_new: bool,
    /// Facebook post without insights on a tracker that anonymises them: names and pictures removed.
    pub anonymized: bool,
    /// The platform's search returned it for this tracker but its text lacks the terms ('The
    /// matched search term for this post may be found in the comments').
    pub indirect_match: bool,
    /// Tag ids (owners and administrators only).
    pub tags: Vec<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostsPage {
    pub posts: Vec<PostItem>,
    /// Posts matching the filters; with `totalCapped`, at least this many (shown as "10,000+").
    pub total: i64,
    /// The total was counted only up to a cap (10,000; 1,000 for a search): there are more.
    pub total_capped: bool,
    pub page: i64,
    pub per_page: i64,
    /// The owner's previous visit (ms), for the owner only.
    pub last_visited: Option<i64>,
    /// What the caller may do here.
    pub can_manage: bool,
    pub can_export: bool,
}

fn anonymizes_facebook(row: &TrackerRow) -> bool {
    crate::dto::anonymizes_facebook(&row.custom_config)
}

/// Whether a post's author is hidden: a Facebook post without insights on a tracker that
/// anonymises them.
fn anonymized(post: &hark_core::Post, anonymize_fb: bool) -> bool {
    let has_insights = post.counts.reach.is_some() || post.counts.impressions.is_some();
    anonymize_fb && post.platform == Platform::Facebook && !has_insights
}

pub(crate) fn item(r: PostRow, last_visited: Option<i64>, show_tags: bool, anonymize_fb: bool) -> PostItem {
    let mut post = r.post;
    let anonymized = anonymized(&post, anonymize_fb);
    if anonymized {
        post.author.name = String::new();
        post.author.username = String::new();
        post.author.id = String::new();
        post.author.avatar_url = None;
    }
    post.raw = None;
    PostItem {
        key: format!("{};{}", post.platform.name(), post.id),
        post,
        sentiment: r.sentiment,
        sentiment_bucket: r.sentiment_bucket,
        sentiment_edited: r.sentiment_edited,
        sentiment_method: hark_enrich::sentiment::Method::for_lang(r.lang.as_deref()),
        engagement: r.engagement,
        engagement_rate: r.engagement_rate,
        reach: r.reach,
        impressions: r.impressions,
        country: r.country,
        post_type: r.post_type,
        is_new: last_visited.is_some_and(|v| r.matched_at > v),
        anonymized,
        indirect_match: false,
        tags: if show_tags { r.tags } else { Vec::new() },
    }
}

/// Export and embed: owners, administrators, and viewers of a tracker that shares exports; a
/// visitor through the share link when the link's 'Export reports' toggle is on.
pub(crate) fn can_export(row: &TrackerRow, user: Option<&UserRow>, p: Permission, shared: Option<&LinkSharing>) -> bool {
    match shared {
        Some(link) => link.export_reports,
        None => user.is_some() && (p >= Permission::Administrator || (row.share_exports && p >= Permission::Viewer)),
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VisitParam {
    /// `1` for a background refresh: the owner's last visit is read, not moved.
    pub background: Option<String>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/posts", tag = "posts",
    params(("hash" = String, Path), FilterQuery, PostsParams, VisitParam),
    responses((status = 200, body = PostsPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_posts(
    State(state): State<AppState>,
    TrackerPage { row, perm, user, filter, shared, tz, .. }: TrackerPage,
    Query(p): Query<PostsParams>,
    Query(v): Query<VisitParam>,
    ask: crate::answers::Ask,
) -> ApiResult<axum::Json<PostsPage>> {
    let arrived = std::time::Instant::now();
    let q = post_query(filter, &p)?;
    let owner = user.as_ref().filter(|u| u.id == row.owner_id);
    let last_visited = match owner {
        Some(u) if q.page == 1 && !flag(&v.background) => state.store.swap_last_visit(row.id, u.id, now_millis()).await?,
        Some(u) => state.store.last_visit(row.id, u.id).await?,
        None => None,
    };
    // Users reading the same page of the same tracker share one query at a time (see `answers`).
    let slot = crate::answers::slot(&[
        "posts",
        &crate::answers::unversioned(&row),
        &format!("{:?}|{tz:?}", user.as_ref().map(|u| u.id)),
        ask.request(),
    ]);
    let found = state
        .answers
        .shared(slot, arrived, async {
            let (rows, total) = state.store.query_posts(row.id, &q).await?;
            let indirect = state.store.indirect_matches(row.id, &rows.iter().map(|r| r.post_id).collect::<Vec<_>>()).await?;
            Ok((rows, total, indirect))
        })
        .await?;
    let (rows, total, indirect) = (&found.0, found.1, &found.2);
    let manage = user.is_some() && perm >= Permission::Administrator;
    let anonymize = anonymizes_facebook(&row);
    Ok(axum::Json(PostsPage {
        posts: rows
            .iter()
            .cloned()
            .map(|r| {
                let is_indirect = indirect.contains(&r.post_id);
                PostItem { indirect_match: is_indirect, ..item(r, last_visited, manage, anonymize) }
            })
            .collect(),
        total: total.total,
        total_capped: total.capped,
        page: q.page,
        per_page: q.per_page,
        last_visited,
        can_manage: manage,
        can_export: can_export(&row, user.as_ref(), perm, shared.as_ref()),
    }))
}

/// A moment as CSV text: `YYYY-MM-DD HH:MM:SS` in UTC (nothing for a moment out of range).
fn write_csv_time(ms: i64, out: &mut String) {
    use std::fmt::Write;
    if let Ok(t) = jiff::Timestamp::from_millisecond(ms) {
        let d = t.to_zoned(jiff::tz::TimeZone::UTC).datetime();
        let _ = write!(out, "{:04}-{:02}-{:02} {:02}:{:02}:{:02}", d.year(), d.month(), d.day(), d.hour(), d.minute(), d.second());
    }
}

/// The columns of every posts export (CSV and the workbook's posts sheet).
pub const EXPORT_COLUMNS: [&str; 19] = [
    "Date", "Platform", "Name", "Username", "Title", "Text", "Link", "Type", "Likes", "Comments", "Shares", "Views",
    "Engagement", "Engagement rate (%)", "Reach", "Impressions", "Sentiment", "Country", "Tags",
];

/// A cell of an export, typed so that a workbook writes numbers as numbers and dates as dates.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text, borrowed when it is a fixed label (an export row moves its post's strings in).
    Text(Cow<'static, str>),
    Int(i64),
    Float(f64),
    /// A moment (ms).
    Time(i64),
    Empty,
}

impl Cell {
    /// Appends the cell's CSV text to `out` (a moment in UTC, a rate with one decimal).
    pub fn write_csv(&self, out: &mut String) {
        use std::fmt::Write;
        match self {
            Cell::Text(s) => out.push_str(s),
            Cell::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Cell::Float(x) => {
                let _ = write!(out, "{x:.1}");
            }
            Cell::Time(ms) => write_csv_time(*ms, out),
            Cell::Empty => {}
        }
    }
}

/// A post's cells in [`EXPORT_COLUMNS`] order, its strings moved in (an export writes up to a
/// million rows: no copies); `tags` names the tracker's tag ids; `anonymize_fb` as [`item`].
pub fn export_cells(r: PostRow, tags: &std::collections::HashMap<i64, String>, anonymize_fb: bool) -> [Cell; 19] {
    let mut post = r.post;
    if anonymized(&post, anonymize_fb) {
        post.author.name = String::new();
        post.author.username = String::new();
    }
    let c = &post.counts;
    let num = |v: Option<i64>| v.map(Cell::Int).unwrap_or(Cell::Empty);
    let owned = |s: Option<String>| Cell::Text(Cow::Owned(s.unwrap_or_default()));
    let mut tag_names = String::new();
    for name in r.tags.iter().filter_map(|t| tags.get(t)) {
        if !tag_names.is_empty() {
            tag_names.push_str(", ");
        }
        tag_names.push_str(name);
    }
    let (likes, comments, shares, views) = (c.likes, c.comments.or(c.replies), c.shares.or(c.retweets), c.views);
    [
        Cell::Time(post.created_at),
        Cell::Text(Cow::Borrowed(post.platform.name())),
        Cell::Text(Cow::Owned(post.author.name)),
        Cell::Text(Cow::Owned(post.author.username)),
        owned(post.title),
        Cell::Text(Cow::Owned(post.text)),
        owned(post.url),
        Cell::Text(Cow::Owned(r.post_type)),
        num(likes),
        num(comments),
        num(shares),
        num(views),
        Cell::Int(r.engagement),
        r.engagement_rate.map(|r| Cell::Float((r * 10.0).round() / 10.0)).unwrap_or(Cell::Empty),
        Cell::Int(r.reach),
        Cell::Int(r.impressions),
        Cell::Text(Cow::Owned(r.sentiment_bucket)),
        owned(r.country),
        Cell::Text(Cow::Owned(tag_names)),
    ]
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/posts/export.csv", tag = "posts",
    params(("hash" = String, Path), FilterQuery, PostsParams),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody)))]
pub async fn export_posts(
    State(state): State<AppState>,
    TrackerPage { row, perm, user, filter, shared, .. }: TrackerPage,
    Query(p): Query<PostsParams>,
) -> ApiResult<impl IntoResponse> {
    if !can_export(&row, user.as_ref(), perm, shared.as_ref()) {
        return Err(if user.is_none() && shared.is_none() {
            ApiError::unauthorized()
        } else {
            ApiError::forbidden("Exporting needs the owner, an administrator or shared exports.")
        });
    }
    let q = post_query(filter, &p)?;
    let tags: std::collections::HashMap<i64, String> =
        state.store.tags(row.id).await?.into_iter().map(|t| (t.id, t.name)).collect();
    let anonymize = anonymizes_facebook(&row);
    let header: Vec<&str> = EXPORT_COLUMNS.iter().map(|c| if *c == "Date" { "Date (UTC)" } else { c }).collect();
    let filename = format!("posts-{}-{}.csv", row.friendly, jiff::Timestamp::now().strftime("%Y%m%d"));
    Ok(crate::csv_file::streamed(&filename, &header, move |mut out| async move {
        let (tx, mut rx) = tokio::sync::mpsc::channel(2);
        let store = state.store.clone();
        let reader = tokio::spawn(async move { store.stream_posts(row.id, &q, EXPORT_MAX, 1000, tx).await });
        let mut scratch = String::with_capacity(64);
        while let Some(rows) = rx.recv().await {
            for r in rows {
                out.cells(&export_cells(r, &tags, anonymize), &mut scratch)?;
            }
            if !out.send(false).await? {
                return Ok(());
            }
        }
        reader.await.map_err(|e| ApiError::Internal(e.to_string()))??;
        out.send(true).await?;
        Ok(())
    }))
}

async fn manage(state: &AppState, hash: &str, user: &UserRow) -> ApiResult<TrackerRow> {
    Ok(load_tracker(state, hash, Some(user), Permission::Administrator).await?.0)
}

/// An audit entry's detail for a bulk change: the first posts named (the store adds how many
/// changed).
fn posts_detail(keys: &[String]) -> serde_json::Value {
    serde_json::json!({ "posts": keys.iter().take(20).collect::<Vec<_>>() })
}

fn keys(posts: &[String]) -> ApiResult<Vec<String>> {
    if posts.is_empty() {
        return Err(ApiError::new(Code::NoPosts, "Choose at least one post."));
    }
    if posts.len() > BULK_MAX {
        return Err(ApiError::new(Code::TooManyPosts, format!("At most {BULK_MAX} posts at once.")));
    }
    posts.iter().map(|k| Ok(PostKey::parse(k)?.to_string())).collect()
}

#[derive(Deserialize, ToSchema)]
pub struct TagPostsInput {
    /// Post keys `platform;id`.
    #[schema(min_items = 1, pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);[^;\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^;\u0000-\u001f\u007f-\u009f]{0,255}$")]
    posts: Vec<String>,
    #[serde(default)]
    add: Vec<i64>,
    #[serde(default)]
    remove: Vec<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct TagPostsResult {
    added: u64,
    removed: u64,
}

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/posts/tags", tag = "posts", params(("hash" = String, Path)),
    request_body = TagPostsInput, responses((status = 200, body = TagPostsResult), (status = 403, body = ErrorBody)))]
pub async fn tag_posts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<TagPostsInput>,
) -> ApiResult<axum::Json<TagPostsResult>> {
    let row = manage(&state, &hash, &user).await?;
    let keys = keys(&input.posts)?;
    let known: Vec<i64> = state.store.tags(row.id).await?.into_iter().map(|t| t.id).collect();
    if let Some(bad) = input.add.iter().chain(&input.remove).find(|t| !known.contains(t)) {
        return Err(ApiError::new(Code::UnknownTag, format!("Tag {bad} does not exist on this tracker.")));
    }
    let ids = state.store.tracker_post_ids(row.id, &keys).await?;
    let (added, removed) = state.store.set_post_tags(row.id, &ids, &input.add, &input.remove).await?;
    Ok(axum::Json(TagPostsResult { added, removed }))
}

#[derive(Deserialize, ToSchema)]
pub struct SentimentInput {
    /// Post key `platform;id`.
    #[schema(pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);[^;\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^;\u0000-\u001f\u007f-\u009f]{0,255}$")]
    post: String,
    /// positive, slight_positive, neutral, slight_negative or negative.
    #[schema(pattern = r"^(positive|slight_positive|neutral|slight_negative|negative)$")]
    sentiment: String,
}

#[derive(Serialize, ToSchema)]
pub struct SentimentResult {
    old: String,
    new: String,
}

#[utoipa::path(put, path = "/api/v1/trackers/{hash}/posts/sentiment", tag = "posts", params(("hash" = String, Path)),
    request_body = SentimentInput, responses((status = 200, body = SentimentResult), (status = 404, body = ErrorBody)))]
pub async fn edit_sentiment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<SentimentInput>,
) -> ApiResult<axum::Json<SentimentResult>> {
    let row = manage(&state, &hash, &user).await?;
    let bucket = hark_store::SENTIMENT_BUCKETS
        .iter()
        .find(|b| **b == input.sentiment)
        .ok_or_else(|| ApiError::new(Code::InvalidSentiment, "Choose one of the five sentiment levels."))?;
    let key = PostKey::parse(&input.post)?.to_string();
    let id = *state.store.tracker_post_ids(row.id, &[key]).await?.first().ok_or_else(|| ApiError::not_found("Post"))?;
    let edit = state.store.edit_sentiment(row.id, id, bucket).await?.ok_or_else(|| ApiError::not_found("Post"))?;
    Ok(axum::Json(SentimentResult { old: edit.old, new: edit.new }))
}

#[derive(Deserialize, ToSchema)]
pub struct PostsInput {
    /// Post keys `platform;id`.
    #[schema(min_items = 1, pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);[^;\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^;\u0000-\u001f\u007f-\u009f]{0,255}$")]
    posts: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CountResult {
    count: u64,
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/posts/delete", tag = "posts", params(("hash" = String, Path)),
    request_body = PostsInput, responses((status = 200, body = CountResult), (status = 403, body = ErrorBody)))]
pub async fn delete_posts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<PostsInput>,
) -> ApiResult<axum::Json<CountResult>> {
    let row = manage(&state, &hash, &user).await?;
    let keys = keys(&input.posts)?;
    let ids = state.store.tracker_post_ids(row.id, &keys).await?;
    let audit = crate::routes::audit::entry(&user, &row, "posts_deleted", posts_detail(&keys));
    let count = state.store.soft_delete_posts_audited(row.id, &ids, now_millis(), &audit).await?;
    Ok(axum::Json(CountResult { count }))
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/posts/undo-delete", tag = "posts", params(("hash" = String, Path)),
    request_body = PostsInput, responses((status = 200, body = CountResult), (status = 403, body = ErrorBody)))]
pub async fn undo_delete_posts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<PostsInput>,
) -> ApiResult<axum::Json<CountResult>> {
    let row = manage(&state, &hash, &user).await?;
    let keys = keys(&input.posts)?;
    let ids = state.store.tracker_post_ids(row.id, &keys).await?;
    let audit = crate::routes::audit::entry(&user, &row, "posts_restored", posts_detail(&keys));
    let count = state.store.restore_posts_audited(row.id, &ids, now_millis(), &audit).await?;
    Ok(axum::Json(CountResult { count }))
}

#[derive(Deserialize, ToSchema)]
pub struct IgnoreInput {
    /// Authors as `platform;username` (platform name or code).
    #[schema(min_items = 1, max_items = 1000, pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);@?[^@\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^\u0000-\u001f\u007f-\u009f]{0,254}$")]
    users: Vec<String>,
}

fn authors(users: &[String]) -> ApiResult<Vec<(String, String)>> {
    if users.is_empty() || users.len() > 1000 {
        return Err(ApiError::new(Code::InvalidUsers, "Choose 1 to 1000 users."));
    }
    users
        .iter()
        .map(|u| {
            let (p, name) = u
                .split_once(';')
                .ok_or_else(|| ApiError::new(Code::InvalidUsers, "A user is written platform;username."))?;
            let name = name.trim().trim_start_matches('@');
            if name.is_empty() || name.chars().count() > 256 {
                return Err(ApiError::new(Code::InvalidUsers, "A username is 1 to 256 characters."));
            }
            Ok((Platform::parse(p)?.name().to_string(), name.to_string()))
        })
        .collect()
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/ignored-users", tag = "posts", params(("hash" = String, Path)),
    request_body = IgnoreInput, responses((status = 200, body = CountResult), (status = 403, body = ErrorBody)))]
pub async fn ignore_users(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<IgnoreInput>,
) -> ApiResult<axum::Json<CountResult>> {
    let row = manage(&state, &hash, &user).await?;
    let users = authors(&input.users)?;
    state.store.ignore_users(row.id, &users, now_millis()).await?;
    Ok(axum::Json(CountResult { count: users.len() as u64 }))
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/ignored-users/undo", tag = "posts", params(("hash" = String, Path)),
    request_body = IgnoreInput, responses((status = 200, body = CountResult), (status = 403, body = ErrorBody)))]
pub async fn undo_ignore_users(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<IgnoreInput>,
) -> ApiResult<axum::Json<CountResult>> {
    let row = manage(&state, &hash, &user).await?;
    let count = state.store.unignore_users(row.id, &authors(&input.users)?).await?;
    Ok(axum::Json(CountResult { count }))
}

#[derive(Deserialize, ToSchema)]
pub struct AddPostsInput {
    /// Post addresses; blank ones are skipped.
    #[schema(min_items = 1, max_items = 50, pattern = r"[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")]
    urls: Vec<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddPostResult {
    url: String,
    added: bool,
    /// Why it was not added.
    error: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct AddPostsResult {
    results: Vec<AddPostResult>,
}

pub const NOT_MATCHED: &str = "Post did not contain search terms/criteria";

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/posts/add", tag = "posts", params(("hash" = String, Path)),
    request_body = AddPostsInput, responses((status = 200, body = AddPostsResult), (status = 403, body = ErrorBody)))]
pub async fn add_posts(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<AddPostsInput>,
) -> ApiResult<axum::Json<AddPostsResult>> {
    let row = manage(&state, &hash, &user).await?;
    let urls: Vec<String> = input.urls.iter().map(|u| u.trim().to_string()).filter(|u| !u.is_empty()).collect();
    if urls.is_empty() || urls.len() > 50 {
        return Err(ApiError::new(Code::InvalidUrls, "Enter 1 to 50 post addresses."));
    }
    let matcher = std::sync::Arc::new(
        hark_ingest::pipeline::compile(&[(row.id, row.criteria.clone())])
            .map_err(|e| ApiError::Internal(e.to_string()))?,
    );
    let mut results = Vec::with_capacity(urls.len());
    for url in urls {
        let error = add_one(&state, &row, &matcher, &url).await?.err();
        results.push(AddPostResult { added: error.is_none(), url, error });
    }
    Ok(axum::Json(AddPostsResult { results }))
}

/// Adds one post by its address: a post Hark stored already (collected or imported), or else one
/// fetched from its platform's source, is matched against this tracker's search and linked when
/// it matches.
async fn add_one(
    state: &AppState,
    row: &TrackerRow,
    matcher: &std::sync::Arc<hark_ingest::pipeline::Matcher>,
    url: &str,
) -> ApiResult<Result<(), String>> {
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() > 2048 {
        return Ok(Err("Enter the post's full address, starting with https://.".into()));
    }
    let key = hark_core::post::post_key_from_url(url);
    let stored = state.store.stored_post_by_key_or_url(key.as_ref().map(|k| k.to_string()).as_deref(), url).await?;
    let post = match (stored, key) {
        (Some(post), _) => post,
        (None, Some(key)) if PlatformSet::from_bits(row.platforms).contains(key.platform) => {
            match super::collection::lookup_post(state, key.platform, &key.id).await? {
                Ok(post) => post,
                Err(why) => return Ok(Err(why)),
            }
        }
        (None, Some(key)) => return Ok(Err(format!("This tracker does not collect {} posts.", key.platform.name()))),
        (None, None) => {
            return Ok(Err("This post is not available: Hark adds posts it has collected or imported, and fetches \
                           X, YouTube and TikTok posts by address when their source is set up."
                .into()))
        }
    };
    if !PlatformSet::from_bits(row.platforms).contains(post.platform) {
        return Ok(Err(format!("This tracker does not collect {} posts.", post.platform.name())));
    }
    let mut summary = hark_ingest::pipeline::ImportSummary::default();
    hark_ingest::pipeline::import_posts(&state.store, matcher, vec![post], &mut summary, now_millis()).await?;
    Ok(if summary.imported > 0 { Ok(()) } else { Err(NOT_MATCHED.into()) })
}
