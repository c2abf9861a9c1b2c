//! The media wall: a tracker's posts that carry images or video, for a screen at an event; its
//! saved settings; moderation (a queue of new posts to approve or reject, per-post show and
//! hide); and the moderation link, whose key lets its holder moderate this wall, signed in or
//! not, and do nothing else.

use axum::extract::State;
use crate::extract::Path;
use axum::http::HeaderMap;
use hark_core::{now_millis, Permission, Platform, PlatformSet};
use hark_store::{wall_visibility, TrackerRow, UserRow, WallQuery, WallRow};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, Query, TrackerPage};
use crate::routes::load_tracker;
use crate::AppState;
use hark_core::Code;

/// The platforms whose posts the wall shows.
pub const WALL_PLATFORMS: [Platform; 7] = [
    Platform::Twitter,
    Platform::Instagram,
    Platform::Facebook,
    Platform::Youtube,
    Platform::Tiktok,
    Platform::Bluesky,
    Platform::Mastodon,
];
/// Refresh interval bounds and default, in seconds.
pub const REFRESH_MIN: i64 = 20;
pub const REFRESH_MAX: i64 = 120;
pub const REFRESH_DEFAULT: i64 = 30;
/// Posts on the wall: default and most.
pub const POST_COUNT_DEFAULT: i64 = 50;
pub const POST_COUNT_MAX: i64 = 500;
/// Posts of the moderation queue sent at once.
pub const QUEUE_MAX: i64 = 100;
/// Posts one visibility change may name.
pub const VISIBILITY_MAX: usize = 500;
/// Users the wall may leave out.
pub const EXCLUDED_USERS_MAX: usize = 100;

/// The routes after `/api/v1/trackers/{hash}` a moderation key opens (the tracker itself, so the
/// page can show it, and the wall's reads and moderation).
pub const MODERATION_ROUTES: &[&str] = &["", "/media-wall", "/media-wall/moderation", "/media-wall/visibility"];

/// The wall's settings, saved on the tracker.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct MediaWallSettings {
    /// `grid` or `slideshow`.
    #[schema(pattern = r"^(grid|slideshow)$")]
    pub display_mode: String,
    /// `dark` or `light`.
    #[schema(pattern = r"^(dark|light)$")]
    pub theme: String,
    /// Show each post's text.
    pub display_text: bool,
    /// Seconds between refreshes, 20 to 120.
    #[schema(minimum = 20, maximum = 120)]
    pub update_frequency: i64,
    /// Posts on the wall, 1 to 500.
    #[schema(minimum = 1, maximum = 500)]
    pub post_count: i64,
    /// `date` (newest first) or `engagement`.
    #[schema(pattern = r"^(date|engagement)$")]
    pub sort_by: String,
    pub exclude_retweets: bool,
    /// Usernames left out (without '@').
    #[schema(max_items = 100, max_length = 100)]
    pub exclude_users: Vec<String>,
}

impl Default for MediaWallSettings {
    fn default() -> Self {
        Self {
            display_mode: "grid".into(),
            theme: "dark".into(),
            display_text: true,
            update_frequency: REFRESH_DEFAULT,
            post_count: POST_COUNT_DEFAULT,
            sort_by: "date".into(),
            exclude_retweets: false,
            exclude_users: Vec::new(),
        }
    }
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(Code::ValidationFailed, message)
}

impl MediaWallSettings {
    /// The settings saved on a tracker (defaults for what was never saved or does not read).
    pub fn of(row: &TrackerRow) -> Self {
        serde_json::from_str::<Self>(&row.media_wall).ok().and_then(|s| s.checked().ok()).unwrap_or_default()
    }

    /// The settings made canonical (usernames trimmed, '@' dropped, repeats removed), or the first
    /// value out of bounds.
    pub fn checked(mut self) -> ApiResult<Self> {
        if !["grid", "slideshow"].contains(&self.display_mode.as_str()) {
            return Err(invalid("displayMode is 'grid' or 'slideshow'."));
        }
        if !["dark", "light"].contains(&self.theme.as_str()) {
            return Err(invalid("theme is 'dark' or 'light'."));
        }
        if !(REFRESH_MIN..=REFRESH_MAX).contains(&self.update_frequency) {
            return Err(invalid(format!("updateFrequency is {REFRESH_MIN} to {REFRESH_MAX} seconds.")));
        }
        if !(1..=POST_COUNT_MAX).contains(&self.post_count) {
            return Err(invalid(format!("postCount is 1 to {POST_COUNT_MAX}.")));
        }
        if !["date", "engagement"].contains(&self.sort_by.as_str()) {
            return Err(invalid("sortBy is 'date' or 'engagement'."));
        }
        self.exclude_users = usernames(self.exclude_users.iter().map(String::as_str))?;
        Ok(self)
    }
}

/// Usernames as the wall compares them: trimmed, without '@', lowercased, each once.
fn usernames<'a>(names: impl Iterator<Item = &'a str>) -> ApiResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let n = n.trim().trim_start_matches('@').trim();
        if n.is_empty() {
            continue;
        }
        if n.chars().count() > 100 {
            return Err(invalid("A username to leave out is at most 100 characters."));
        }
        let n = n.to_lowercase();
        if !out.contains(&n) {
            out.push(n);
        }
    }
    if out.len() > EXCLUDED_USERS_MAX {
        return Err(invalid(format!("At most {EXCLUDED_USERS_MAX} users can be left out.")));
    }
    Ok(out)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct WallParams {
    /// Words that must all appear (trimmed; at most 200 characters).
    pub search: Option<String>,
    /// `1` public posts (default), `0` hidden ones ('Only You'), `-1` both; other than `1` needs
    /// moderation.
    pub visibility: Option<String>,
    /// `date` or `engagement`; the saved setting by default.
    pub sort: Option<String>,
    /// `0` or `1`; the saved setting by default.
    pub exclude_retweets: Option<String>,
    /// Comma-separated usernames; the saved setting by default.
    pub exclude_users: Option<String>,
    /// Posts, 1 to 500; the saved setting by default.
    pub count: Option<String>,
}

/// One picture or video of a post, at an address the page can load (Hark's own).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WallMedia {
    /// photo, video, gif, carousel or reel.
    pub kind: String,
    pub url: String,
    pub thumbnail_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WallAuthor {
    pub name: String,
    pub username: String,
    pub avatar_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WallPost {
    /// `platform;id`.
    pub key: String,
    /// Platform code (twt, ig, …).
    pub platform: String,
    /// The post on its platform.
    pub url: Option<String>,
    pub created_at: i64,
    pub author: WallAuthor,
    /// A video's, article's or blog post's title; the search finds words in it as in the text.
    pub title: Option<String>,
    pub text: String,
    pub engagement: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    pub views: i64,
    pub is_retweet: bool,
    /// 1 public, 0 hidden, 2 waiting in the moderation queue.
    pub visibility: i64,
    pub media: Vec<WallMedia>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaWall {
    pub posts: Vec<WallPost>,
    /// Posts waiting for approval, newest first (moderators only, while moderation is on).
    pub queue: Vec<WallPost>,
    pub queue_total: i64,
    /// The tracker's 'Media Wall Moderation' toggle.
    pub moderation: bool,
    /// The caller may show and hide posts, approve and reject, and toggle moderation.
    pub can_moderate: bool,
    /// The caller may change the settings, delete posts and share the moderation link.
    pub can_manage: bool,
    pub settings: MediaWallSettings,
}

/// Whether `given` is the tracker's moderation key (compared as digests, so the time taken says
/// nothing about how much of a guess was right).
pub fn moderation_key_matches(row: &TrackerRow, given: Option<&str>) -> bool {
    match (row.moderation_key.as_deref(), given.filter(|g| !g.is_empty())) {
        (Some(key), Some(given)) => Sha256::digest(key.as_bytes()) == Sha256::digest(given.as_bytes()),
        _ => false,
    }
}

/// Who is asking, as the wall sees it.
struct WallAccess {
    moderate: bool,
    manage: bool,
}

async fn wall_access(state: &AppState, page: &TrackerPage) -> ApiResult<WallAccess> {
    check_plan(state, &page.row, page.user.as_ref()).await?;
    let manage = page.shared.is_none() && page.user.is_some() && page.perm >= Permission::Administrator;
    let moderate = manage || (!page.embedded && moderation_key_matches(&page.row, page.moderation_key.as_deref()));
    Ok(WallAccess { moderate, manage })
}

/// The wall is a feature of the owner's plan (the instance administrator always sees it).
async fn check_plan(state: &AppState, row: &TrackerRow, user: Option<&UserRow>) -> ApiResult<()> {
    if user.is_some_and(|u| u.is_admin) {
        return Ok(());
    }
    let owner = state.store.user_by_id(row.owner_id).await?.ok_or_else(|| ApiError::Internal("owner missing".into()))?;
    if crate::dto::features_of(&owner).media_wall {
        Ok(())
    } else {
        Err(ApiError::new(Code::UpgradeRequired, "The media wall needs a higher plan. Upgrade to show your posts' pictures and videos on a wall."))
    }
}

fn wall_platforms(filter: PlatformSet) -> PlatformSet {
    filter.iter().filter(|p| WALL_PLATFORMS.contains(p)).collect()
}

fn flag(v: Option<&str>, name: &str) -> ApiResult<Option<bool>> {
    match v.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some("1") | Some("true") => Ok(Some(true)),
        Some("0") | Some("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::new(Code::InvalidQuery, format!("{name} is 0 or 1."))),
    }
}

/// The store's query for the caller's parameters over the saved settings.
fn wall_query(page: &TrackerPage, p: &WallParams, settings: &MediaWallSettings, moderate: bool) -> ApiResult<WallQuery> {
    let search = p.search.as_deref().unwrap_or("").trim().to_string();
    if search.chars().count() > 200 {
        return Err(ApiError::new(Code::InvalidQuery, "The search is longer than 200 characters."));
    }
    let visibilities = match p.visibility.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None | Some("1") => vec![wall_visibility::PUBLIC],
        Some("0") => vec![wall_visibility::HIDDEN],
        Some("-1") => vec![wall_visibility::PUBLIC, wall_visibility::HIDDEN],
        Some(_) => return Err(ApiError::new(Code::InvalidQuery, "visibility is 1 (public), 0 (only you) or -1 (all posts).")),
    };
    if visibilities != [wall_visibility::PUBLIC] && !moderate {
        return Err(ApiError::forbidden("Only the wall's moderators see hidden posts."));
    }
    let by_engagement = match p.sort.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => settings.sort_by == "engagement",
        Some("date") => false,
        Some("engagement") => true,
        Some(_) => return Err(ApiError::new(Code::InvalidQuery, "sort is 'date' or 'engagement'.")),
    };
    let exclude_users = match p.exclude_users.as_deref() {
        None => settings.exclude_users.clone(),
        Some(list) => usernames(list.split(',')).map_err(|e| ApiError::new(Code::InvalidQuery, e.to_string()))?,
    };
    let limit = match p.count.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => settings.post_count,
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=POST_COUNT_MAX).contains(n))
            .ok_or_else(|| ApiError::new(Code::InvalidQuery, format!("count is 1 to {POST_COUNT_MAX}.")))?,
    };
    Ok(WallQuery {
        platforms: wall_platforms(page.filter.platforms),
        subtracker: page.filter.subtracker,
        search,
        visibilities,
        by_engagement,
        exclude_retweets: flag(p.exclude_retweets.as_deref(), "excludeRetweets")?.unwrap_or(settings.exclude_retweets),
        exclude_users,
        limit,
    })
}

fn wall_post(state: &AppState, w: WallRow) -> Option<WallPost> {
    let post = w.row.post;
    let media: Vec<WallMedia> = post
        .media
        .iter()
        .filter_map(|m| {
            use hark_core::post::MediaKind::*;
            let kind = match m.kind {
                Photo => "photo",
                Video => "video",
                Gif => "gif",
                Carousel => "carousel",
                Reel => "reel",
                Audio | Link => return None,
            };
            let thumbnail_url = m.thumbnail_url.as_deref().and_then(|t| crate::routes::media::served_url(state, t));
            if post.platform == Platform::Youtube {
                // A YouTube video's address is its watch page: the wall shows its thumbnail.
                let thumb = thumbnail_url?;
                return Some(WallMedia { kind: "photo".into(), url: thumb.clone(), thumbnail_url: Some(thumb) });
            }
            Some(WallMedia { kind: kind.into(), url: crate::routes::media::served_url(state, &m.url)?, thumbnail_url })
        })
        .collect();
    if media.is_empty() {
        return None;
    }
    let c = &post.counts;
    Some(WallPost {
        key: format!("{};{}", post.platform.name(), post.id),
        platform: post.platform.code().to_string(),
        url: post.url.clone(),
        created_at: post.created_at,
        author: WallAuthor {
            avatar_url: post.author.avatar_url.as_deref().and_then(|a| crate::routes::media::served_url(state, a)),
            name: post.author.name,
            username: post.author.username,
        },
        title: post.title.filter(|t| !t.trim().is_empty()),
        text: post.text,
        engagement: w.row.engagement,
        likes: c.likes.unwrap_or(0),
        comments: c.comments.or(c.replies).unwrap_or(0),
        shares: c.shares.or(c.retweets).unwrap_or(0),
        views: c.views.unwrap_or(0),
        is_retweet: post.flags.is_retweet,
        visibility: w.visibility,
        media,
    })
}

/// The wall: its posts by the saved settings (or the parameters given), and for moderators the
/// moderation queue. Open to the tracker's viewers, its share link and the wall's embed (public
/// posts, saved settings) and the moderation key.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/media-wall", tag = "media-wall",
    params(("hash" = String, Path), crate::filters::FilterQuery, WallParams),
    responses((status = 200, body = MediaWall), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn media_wall(State(state): State<AppState>, page: TrackerPage, Query(p): Query<WallParams>) -> ApiResult<axum::Json<MediaWall>> {
    let access = wall_access(&state, &page).await?;
    let settings = MediaWallSettings::of(&page.row);
    // An embed shows the wall as saved.
    let p = if page.embedded { WallParams::default() } else { p };
    let q = wall_query(&page, &p, &settings, access.moderate)?;
    let rows = state.store.media_wall(page.row.id, &q).await?;
    let (queue, queue_total) = if access.moderate && page.row.media_moderation {
        state.store.media_wall_queue(page.row.id, &q, QUEUE_MAX).await?
    } else {
        (Vec::new(), 0)
    };
    Ok(axum::Json(MediaWall {
        posts: rows.into_iter().filter_map(|r| wall_post(&state, r)).collect(),
        queue: queue.into_iter().filter_map(|r| wall_post(&state, r)).collect(),
        queue_total,
        moderation: page.row.media_moderation,
        can_moderate: access.moderate,
        can_manage: access.manage,
        settings,
    }))
}

/// Saves the wall's settings (owner and administrators).
#[utoipa::path(put, path = "/api/v1/trackers/{hash}/media-wall/settings", tag = "media-wall", params(("hash" = String, Path)),
    request_body = MediaWallSettings,
    responses((status = 200, body = MediaWallSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_settings(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<MediaWallSettings>,
) -> ApiResult<axum::Json<MediaWallSettings>> {
    let row = manager(&state, &hash, &user).await?;
    let settings = input.checked()?;
    let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    state.store.save_media_wall_settings(row.id, &json, now_millis()).await?;
    Ok(axum::Json(settings))
}

#[derive(Deserialize, ToSchema)]
pub struct ModerationInput {
    pub enabled: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ModerationState {
    pub moderation: bool,
    /// Posts that left the queue for the wall (turning moderation off publishes the queue).
    pub published: u64,
}

/// Turns the wall's moderation on (new posts with media wait in a queue) or off (the queue is
/// published). Moderators: owner, administrators, the moderation key.
#[utoipa::path(put, path = "/api/v1/trackers/{hash}/media-wall/moderation", tag = "media-wall",
    params(("hash" = String, Path), crate::filters::FilterQuery), request_body = ModerationInput,
    responses((status = 200, body = ModerationState), (status = 403, body = ErrorBody)))]
pub async fn set_moderation(
    State(state): State<AppState>,
    page: TrackerPage,
    Json(input): Json<ModerationInput>,
) -> ApiResult<axum::Json<ModerationState>> {
    let access = wall_access(&state, &page).await?;
    if !access.moderate {
        return Err(ApiError::forbidden("Only the wall's moderators can turn moderation on or off."));
    }
    let published = state.store.set_media_moderation(page.row.id, input.enabled, now_millis()).await?;
    Ok(axum::Json(ModerationState { moderation: input.enabled, published }))
}

#[derive(Deserialize, ToSchema)]
pub struct VisibilityInput {
    /// Post keys `platform;id`.
    #[schema(min_items = 1, max_items = 500, pattern = r"^(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);[^;\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000][^;\u0000-\u001f\u007f-\u009f]{0,255}$")]
    pub posts: Vec<String>,
    /// 1: approve or show; 0: reject or hide.
    #[schema(minimum = 0, maximum = 1)]
    pub visibility: i64,
}

#[derive(Serialize, ToSchema)]
pub struct VisibilityResult {
    /// Posts whose visibility changed.
    pub count: u64,
}

/// Shows, hides, approves or rejects posts on the wall. Moderators: owner, administrators, the
/// moderation key.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/media-wall/visibility", tag = "media-wall",
    params(("hash" = String, Path), crate::filters::FilterQuery), request_body = VisibilityInput,
    responses((status = 200, body = VisibilityResult), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn set_visibility(
    State(state): State<AppState>,
    page: TrackerPage,
    Json(input): Json<VisibilityInput>,
) -> ApiResult<axum::Json<VisibilityResult>> {
    let access = wall_access(&state, &page).await?;
    if !access.moderate {
        return Err(ApiError::forbidden("Only the wall's moderators can show or hide posts."));
    }
    if ![wall_visibility::PUBLIC, wall_visibility::HIDDEN].contains(&input.visibility) {
        return Err(ApiError::new(Code::InvalidChoice, "visibility is 1 (show, approve) or 0 (hide, reject)."));
    }
    if input.posts.is_empty() {
        return Err(ApiError::new(Code::NoPosts, "Choose at least one post."));
    }
    if input.posts.len() > VISIBILITY_MAX {
        return Err(ApiError::new(Code::TooManyPosts, format!("At most {VISIBILITY_MAX} posts at once.")));
    }
    let keys = input
        .posts
        .iter()
        .map(|k| Ok(hark_core::PostKey::parse(k)?.to_string()))
        .collect::<ApiResult<Vec<String>>>()?;
    let ids = state.store.tracker_post_ids(page.row.id, &keys).await?;
    let count = state.store.set_wall_visibility(page.row.id, &ids, input.visibility).await?;
    Ok(axum::Json(VisibilityResult { count }))
}

#[derive(Serialize, ToSchema)]
pub struct ModerationLink {
    /// The key the link carries.
    pub key: String,
    /// The wall's address with the key: whoever holds it can moderate this wall.
    pub url: String,
}

fn moderation_link(state: &AppState, headers: &HeaderMap, row: &TrackerRow, key: &str) -> ModerationLink {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("moderationKey", key);
    ModerationLink {
        key: key.to_string(),
        url: format!("{}/hashtag-tracking/media-wall/{}/{}?{}", state.public_base(headers), row.hash, row.friendly, query.finish()),
    }
}

/// The tracker, for its owner and administrators, when the owner's plan has the wall.
async fn manager(state: &AppState, hash: &str, user: &UserRow) -> ApiResult<TrackerRow> {
    let (row, _) = load_tracker(state, hash, Some(user), Permission::Administrator).await?;
    check_plan(state, &row, Some(user)).await?;
    Ok(row)
}

/// The wall's moderation link (made the first time it is asked for). Owner and administrators.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/media-wall/moderation-link", tag = "media-wall", params(("hash" = String, Path)),
    responses((status = 200, body = ModerationLink), (status = 403, body = ErrorBody)))]
pub async fn get_moderation_link(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<ModerationLink>> {
    let row = manager(&state, &hash, &user).await?;
    let key = match &row.moderation_key {
        Some(k) => k.clone(),
        None => {
            let k = crate::routes::sharing::fresh_hash();
            state.store.set_moderation_key(row.id, &k, None).await?;
            k
        }
    };
    Ok(axum::Json(moderation_link(&state, &headers, &row, &key)))
}

/// A new moderation link; the old one stops working. Owner and administrators.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/media-wall/moderation-link", tag = "media-wall", params(("hash" = String, Path)),
    responses((status = 200, body = ModerationLink), (status = 403, body = ErrorBody)))]
pub async fn rotate_moderation_link(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<ModerationLink>> {
    let row = manager(&state, &hash, &user).await?;
    let key = crate::routes::sharing::fresh_hash();
    let audit = crate::routes::audit::entry(&user, &row, "moderation_link_rotated", serde_json::json!({}));
    state.store.set_moderation_key(row.id, &key, Some(&audit)).await?;
    Ok(axum::Json(moderation_link(&state, &headers, &row, &key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_and_made_canonical() {
        let s = MediaWallSettings { exclude_users: vec![" @Alice ".into(), "alice".into(), "".into(), "Bob".into()], ..Default::default() };
        assert_eq!(s.checked().unwrap().exclude_users, vec!["alice", "bob"]);
        for bad in [
            MediaWallSettings { update_frequency: 19, ..Default::default() },
            MediaWallSettings { update_frequency: 121, ..Default::default() },
            MediaWallSettings { post_count: 0, ..Default::default() },
            MediaWallSettings { post_count: 501, ..Default::default() },
            MediaWallSettings { theme: "blue".into(), ..Default::default() },
            MediaWallSettings { display_mode: "list".into(), ..Default::default() },
            MediaWallSettings { sort_by: "likes".into(), ..Default::default() },
            MediaWallSettings { exclude_users: (0..101).map(|i| format!("u{i}")).collect(), ..Default::default() },
        ] {
            assert!(bad.checked().is_err());
        }
        let edges = MediaWallSettings { update_frequency: 20, post_count: 500, ..Default::default() };
        assert!(edges.clone().checked().is_ok());
        assert!(MediaWallSettings { update_frequency: 120, post_count: 1, ..edges }.checked().is_ok());
    }

    #[test]
    fn the_wall_shows_social_platforms_only() {
        let all = PlatformSet::from_bits(i64::MAX);
        let wall = wall_platforms(all);
        for p in Platform::ALL {
            assert_eq!(wall.contains(p), !matches!(p, Platform::News | Platform::Blogs | Platform::Forums), "{p:?}");
        }
    }
}
