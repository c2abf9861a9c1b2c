//! Embeds: a tracker's dashboard charts one by one, and its pages whole, framed in other sites.
//! An embed URL carries an embed key that opens exactly what it names: the key of
//! `chart:timeline` reads the timeline and nothing else. Keys are derived from the tracker's share
//! hash, so revoking the share link revokes every embed too.

use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Query, TrackerPage};
use crate::routes::posts::can_export;
use crate::AppState;
use hark_core::Code;

/// The dashboard charts that embed one by one (the spec's names) and the API reads each needs,
/// as routes after `/api/v1/trackers/{hash}`.
pub const CHARTS: &[(&str, &[&str])] = &[
    ("geography", &["/dashboard/locations"]),
    ("sources", &["/dashboard/devices"]),
    ("demographics", &["/dashboard/genders"]),
    ("influencers", &["/dashboard/influencers"]),
    ("posts", &["/dashboard/top-posts"]),
    ("post_type", &["/dashboard/post-types"]),
    ("sentiment", &["/dashboard/sentiments"]),
    ("totalPosts", &["/dashboard/top-stats", "/total-posts"]),
    ("links", &["/dashboard/top-pages"]),
    ("viewer_sentiment", &["/dashboard/viewer-sentiments"]),
    ("topics", &["/dashboard/topics"]),
    ("timeline", &["/dashboard/timeline"]),
];

/// The pages that embed whole and the reads each needs (a route ending in `/` covers those
/// under it).
pub const PAGES: &[(&str, &[&str])] = &[
    ("dashboard", &["/dashboard/", "/stats", "/total-posts", "/tags"]),
    ("posts", &["/posts", "/tags", "/total-posts"]),
    ("influencers", &["/influencers", "/influencers/posts", "/total-posts"]),
    ("trending-topics", &["/topics", "/topics/series", "/topics/posts", "/total-posts"]),
    ("sentiment", &["/sentiment", "/sentiment/keywords", "/posts", "/total-posts"]),
    ("media-wall", &["/media-wall"]),
];

/// Every embed needs the tracker itself (its title and platforms).
const ALWAYS: &[&str] = &[""];

/// The spec's iframe heights: 100% for the media wall, 400 pixels for every other embed.
pub fn iframe_height(scope: &str) -> &'static str {
    if scope == "page:media-wall" {
        "100%"
    } else {
        "400"
    }
}

/// Whether `scope` (`chart:NAME` or `page:NAME`) opens `route`.
pub fn scope_allows(scope: &str, route: &str) -> bool {
    let routes: &[&str] = match scope.split_once(':') {
        Some(("chart", name)) => CHARTS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r).unwrap_or(&[]),
        Some(("page", name)) => PAGES.iter().find(|(n, _)| *n == name).map(|(_, r)| *r).unwrap_or(&[]),
        _ => &[],
    };
    let dashboard_prediction = route == "/dashboard/prediction";
    ALWAYS.contains(&route)
        || routes.iter().any(|r| if r.ends_with('/') { route.starts_with(r) && !dashboard_prediction } else { *r == route })
}

/// The embed key of `scope` for a tracker whose share hash is `share_hash`.
pub fn embed_key(share_hash: &str, scope: &str) -> String {
    let d = Sha256::digest(format!("hark-embed\n{scope}\n{share_hash}").as_bytes());
    hex::encode(&d[..16])
}

/// Whether `key` is the embed key of a scope that opens `route`.
pub fn embed_opens(share_hash: &str, key: &str, route: &str) -> bool {
    let scopes = CHARTS.iter().map(|(n, _)| format!("chart:{n}")).chain(PAGES.iter().map(|(n, _)| format!("page:{n}")));
    let given = Sha256::digest(key.as_bytes());
    let mut open = false;
    for scope in scopes {
        // Every scope is compared, as digests, so the time says nothing about the key.
        let right = Sha256::digest(embed_key(share_hash, &scope).as_bytes()) == given;
        open |= right && scope_allows(&scope, route);
    }
    open
}

#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct EmbedQuery {
    /// One of the embeddable dashboard charts (give either a chart or a page).
    #[param(pattern = r"^(geography|sources|demographics|influencers|posts|post_type|sentiment|totalPosts|links|viewer_sentiment|topics|timeline)$")]
    pub chart: Option<String>,
    /// One of the pages: dashboard, posts, influencers, trending-topics, sentiment, media-wall.
    #[param(pattern = r"^(dashboard|posts|influencers|trending-topics|sentiment|media-wall)$")]
    pub page: Option<String>,
    /// `platform;value` for a chart embed's card.
    #[param(pattern = r"^((twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky);.{1,200})?$")]
    pub card: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmbedCode {
    /// `chart:NAME` or `page:NAME`.
    pub scope: String,
    /// The embed URL (absolute).
    pub url: String,
    /// `400` or `100%`.
    pub height: String,
    /// The HTML to paste into a page.
    pub iframe: String,
}

/// The embed code of a chart or a page. Owners, administrators, and viewers of a tracker that
/// shares exports (or a share link with 'Export reports') may embed.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/embed", tag = "sharing", params(("hash" = String, Path), EmbedQuery),
    responses((status = 200, body = EmbedCode), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn embed_code(State(state): State<AppState>, headers: HeaderMap, page: TrackerPage, Query(q): Query<EmbedQuery>) -> ApiResult<axum::Json<EmbedCode>> {
    if !can_export(&page.row, page.user.as_ref(), page.perm, page.shared.as_ref()) {
        return Err(ApiError::forbidden("Embedding needs the owner, an administrator or shared exports."));
    }
    let (scope, path_page, chart) = match (q.chart.as_deref(), q.page.as_deref()) {
        (Some(c), None) if CHARTS.iter().any(|(n, _)| *n == c) => (format!("chart:{c}"), "dashboard", Some(c)),
        (None, Some(p)) if PAGES.iter().any(|(n, _)| *n == p) => (format!("page:{p}"), p, None),
        _ => {
            let charts: Vec<&str> = CHARTS.iter().map(|(n, _)| *n).collect();
            let pages: Vec<&str> = PAGES.iter().map(|(n, _)| *n).collect();
            return Err(ApiError::new(
                Code::InvalidChart,
                format!("Give one chart ({}) or one page ({}).", charts.join(", "), pages.join(", ")),
            ));
        }
    };
    let card = match q.card.as_deref().filter(|c| !c.is_empty()) {
        Some(c) => {
            let (platform, value) = c.split_once(';').ok_or_else(|| ApiError::new(Code::InvalidQuery, "card is platform;value."))?;
            hark_core::Platform::parse(platform).map_err(|_| ApiError::new(Code::InvalidQuery, format!("Unknown platform '{platform}' in card.")))?;
            if value.is_empty() || value.chars().count() > 200 {
                return Err(ApiError::new(Code::InvalidQuery, "A card's value is 1 to 200 characters."));
            }
            Some(c.to_string())
        }
        None => None,
    };
    let share_hash = match &page.row.share_hash {
        Some(h) => h.clone(),
        None => state.store.share_hash(page.row.id, &crate::routes::sharing::fresh_hash()).await?,
    };
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("embed", "1");
    if let Some(c) = chart {
        query.append_pair("chart", c);
    }
    if let Some(c) = &card {
        query.append_pair("card", c);
    }
    query.append_pair("embedKey", &embed_key(&share_hash, &scope));
    let url = format!("{}/hashtag-tracking/{path_page}/{}/{}?{}", state.public_base(&headers), page.row.hash, page.row.friendly, query.finish());
    let height = iframe_height(&scope);
    let title = page.row.title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;");
    let iframe = format!(
        "<iframe src=\"{}\" title=\"{title}\" width=\"100%\" height=\"{height}\" frameborder=\"0\" loading=\"lazy\"></iframe>",
        url.replace('&', "&amp;")
    );
    Ok(axum::Json(EmbedCode { scope, url, height: height.to_string(), iframe }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_opens_what_it_names_and_nothing_else() {
        let h = "0123456789abcdef0123456789abcdef";
        let timeline = embed_key(h, "chart:timeline");
        assert!(embed_opens(h, &timeline, "/dashboard/timeline"));
        assert!(embed_opens(h, &timeline, ""), "the tracker itself");
        assert!(!embed_opens(h, &timeline, "/dashboard/top-posts"));
        assert!(!embed_opens(h, &timeline, "/posts"));
        assert!(!embed_opens(h, &timeline, "/dashboard/prediction"));
        assert!(!embed_opens("another-share-hash", &timeline, "/dashboard/timeline"), "revoking the link revokes the key");
        let posts = embed_key(h, "page:posts");
        assert!(embed_opens(h, &posts, "/posts"));
        assert!(!embed_opens(h, &posts, "/posts/export.csv"));
        assert!(!embed_opens(h, &posts, "/influencers"));
        let dash = embed_key(h, "page:dashboard");
        assert!(embed_opens(h, &dash, "/dashboard/timeline") && embed_opens(h, &dash, "/dashboard/posts"));
        assert!(!embed_opens(h, &dash, "/dashboard/prediction"));
        assert!(!embed_opens(h, "", "/dashboard/timeline"));
        assert!(!embed_opens(h, h, "/dashboard/timeline"), "the share hash is no embed key");
        assert_eq!(iframe_height("page:media-wall"), "100%");
        assert_eq!(iframe_height("chart:timeline"), "400");
    }
}
