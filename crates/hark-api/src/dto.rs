//! Response shapes of the API (camelCase, instants in milliseconds).

use hark_core::{Permission, TrackerCriteria};
use hark_store::{TagRow, TrackerRow, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub is_logged_in: bool,
    pub id: Option<i64>,
    pub email: Option<String>,
    pub name: Option<String>,
    pub is_admin: bool,
    pub trial: bool,
    pub trial_expires: Option<i64>,
    pub plan: i64,
    pub is_paid_user: bool,
    pub max_searches: i64,
    pub max_ignored: i64,
    pub allow_facebook: bool,
    pub allow_tiktok: bool,
    pub allow_youtube: bool,
    pub is_tracker_owner: bool,
    pub permission: i64,
    pub csrf_token: String,
    /// On a trial whose end has passed (the trial-expired notice).
    pub trial_expired: bool,
    /// What the account's plan includes.
    pub features: PlanFeatures,
    /// Days a trial lasts on this instance.
    pub trial_days: i64,
    /// Platform codes an account on a trial cannot switch on.
    pub trial_locked_platforms: Vec<String>,
}

#[derive(Serialize, ToSchema, Clone, Copy, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PlanFeatures {
    pub xls: bool,
    pub link_sharing: bool,
    pub media_wall: bool,
}

impl From<hark_core::plans::Features> for PlanFeatures {
    fn from(f: hark_core::plans::Features) -> Self {
        PlanFeatures { xls: f.xls, link_sharing: f.link_sharing, media_wall: f.media_wall }
    }
}

/// What an account's plan lets it use, by the catalogue's rules.
pub fn features_of(u: &UserRow) -> hark_core::plans::Features {
    hark_core::plans::catalogue().features(&hark_core::plans::Account {
        plan: u.plan,
        // A trial that has ended opens nothing.
        trial: u.trial && !trial_expired(u.trial, u.trial_expires),
        is_admin: u.is_admin,
        created_at: u.created_at,
    })
}

fn trial_locked_codes() -> Vec<String> {
    hark_core::plans::catalogue().rules.trial_locked.iter().map(|p| p.code().to_string()).collect()
}

/// Whether an account is on a trial whose end has passed.
pub fn trial_expired(trial: bool, expires: Option<i64>) -> bool {
    trial && expires.is_some_and(|e| e <= hark_core::now_millis())
}

impl Me {
    pub fn new(user: Option<&UserRow>, permission: Permission, is_owner: bool, csrf_token: String) -> Self {
        match user {
            None => Me {
                is_logged_in: false,
                id: None,
                email: None,
                name: None,
                is_admin: false,
                trial: false,
                trial_expires: None,
                plan: 0,
                is_paid_user: false,
                max_searches: hark_core::limits::DEFAULT_MAX_SEARCHES,
                max_ignored: hark_core::limits::DEFAULT_MAX_IGNORED,
                allow_facebook: false,
                allow_tiktok: false,
                allow_youtube: false,
                is_tracker_owner: false,
                permission: permission.rank(),
                csrf_token,
                trial_expired: false,
                features: PlanFeatures { xls: false, link_sharing: false, media_wall: false },
                trial_days: hark_core::plans::catalogue().trial_days,
                trial_locked_platforms: trial_locked_codes(),
            },
            Some(u) => Me {
                is_logged_in: true,
                id: Some(u.id),
                email: Some(u.email.clone()),
                name: Some(u.name.clone()),
                is_admin: u.is_admin,
                trial: u.trial,
                trial_expires: u.trial_expires,
                plan: u.plan,
                is_paid_user: !u.trial && (u.subscribed || u.plan > 0),
                max_searches: u.max_searches,
                max_ignored: u.max_ignored,
                allow_facebook: u.allow_facebook,
                allow_tiktok: u.allow_tiktok,
                allow_youtube: u.allow_youtube,
                is_tracker_owner: is_owner,
                permission: permission.rank(),
                csrf_token,
                trial_expired: trial_expired(u.trial, u.trial_expires),
                features: features_of(u).into(),
                trial_days: hark_core::plans::catalogue().trial_days,
                trial_locked_platforms: trial_locked_codes(),
            },
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq)]
pub struct ChartConfig {
    #[schema(pattern = r"^(posts|influencers|topics|topPages|sentiment|shareOfVoice|viewer_sentiment|geography|demographics|sources|links|post_type|prediction|totalPosts)$")]
    pub chart: String,
    pub hide: bool,
}

#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq)]
pub struct CustomConfig {
    pub order: Vec<ChartConfig>,
    /// 2 or 3.
    #[schema(minimum = 2, maximum = 3)]
    pub columns: i64,
}

/// The custom-config key holding the Facebook anonymisation setting; it is kept apart from the
/// chart layout so saving one never resets the other.
pub const ANONYMIZE_FACEBOOK: &str = "anonymizeFacebook";

/// Whether a tracker's stored custom config turns Facebook anonymisation on.
pub fn anonymizes_facebook(custom_config: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(custom_config)
        .ok()
        .and_then(|v| v.get(ANONYMIZE_FACEBOOK).and_then(|b| b.as_bool()))
        .unwrap_or(false)
}

impl Default for CustomConfig {
    fn default() -> Self {
        Self { order: Vec::new(), columns: 2 }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct LinkSharing {
    pub edit_date_range: bool,
    pub export_reports: bool,
    pub view_predictions: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Subtracker {
    pub label: String,
    pub value: String,
}

#[derive(Serialize, ToSchema)]
pub struct SearchRows {
    #[schema(value_type = Vec<SearchRowSchema>)]
    pub rows: Vec<hark_core::SearchRow>,
}

/// One row of the search builder (hark-core's `SearchRow`): its terms are ORed; include rows are
/// ANDed, an exclude row's terms are left out.
#[derive(Serialize, ToSchema)]
#[schema(as = SearchRow)]
pub struct SearchRowSchema {
    /// `+` include, `-` exclude.
    #[serde(rename = "type")]
    #[schema(pattern = r"^[+-]$")]
    pub kind: String,
    pub searches: Vec<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tracker {
    pub id: i64,
    pub hash: String,
    pub friendly: String,
    pub title: String,
    pub status: String,
    pub created: i64,
    pub end: Option<i64>,
    pub last_cached: Option<i64>,
    pub last_paused: Option<i64>,
    pub first_data_point: Option<i64>,
    #[schema(value_type = Object)]
    pub platforms: hark_core::PlatformSet,
    pub search: SearchRows,
    pub search_display: String,
    pub search_count: i64,
    pub ignore_count: i64,
    pub exclude_retweets: bool,
    pub verified_users: bool,
    pub verified_tiktok_users: bool,
    pub language: Option<String>,
    pub country_locations: Vec<String>,
    pub volume_limit: Option<i64>,
    #[schema(value_type = Object)]
    pub usernames: hark_core::AccountLists,
    #[schema(value_type = Object)]
    pub ignore: hark_core::AccountLists,
    pub subtrackers: Vec<Subtracker>,
    pub highlights: Vec<String>,
    #[schema(value_type = Object)]
    pub sentiment_keywords: hark_core::criteria::SentimentKeywords,
    pub hide_auth_metrics: bool,
    /// Facebook posts without insights show no author name or picture.
    pub anonymize_facebook: bool,
    pub custom_config: CustomConfig,
    pub share_exports: bool,
    pub unlock_date: bool,
    pub is_sub_tracker: bool,
    pub is_preview_mode: bool,
    pub is_demo: bool,
    pub total_posts: i64,
    pub link_sharing: LinkSharing,
    pub custom_url: Option<String>,
    pub share_hash: Option<String>,
    pub last_edit_mode: Option<String>,
    pub permission: i64,
    pub is_owner: bool,
    pub owner_name: String,
    /// Progress of the latest re-analysis of stored posts, when one was asked for.
    pub reanalysis: Option<ReanalysisProgress>,
    /// Progress of scoring every stored post with a new sentiment model, while that runs.
    pub sentiment_model: Option<SentimentModelProgress>,
    /// A historical backfill is collecting for this tracker ('Backfill in Progress').
    pub is_backfilling: bool,
    /// The caller reads through the tracker's share link (an anonymous visitor's limited view:
    /// `linkSharing` says what it allows).
    pub shared: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReanalysisProgress {
    pub processed: i64,
    pub total: i64,
    pub removed: i64,
    pub done: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentimentModelProgress {
    pub processed: i64,
    pub total: i64,
}

impl SentimentModelProgress {
    /// The run's progress, `None` when no run is under way.
    pub fn of(state: &hark_store::SentimentModelState) -> Option<Self> {
        state.running().then(|| SentimentModelProgress { processed: state.processed, total: state.total })
    }
}

impl From<hark_store::Reanalysis> for ReanalysisProgress {
    fn from(r: hark_store::Reanalysis) -> Self {
        ReanalysisProgress { processed: r.processed, total: r.total, removed: r.removed, done: r.applied_at.is_some() }
    }
}

pub fn criteria_of(row: &TrackerRow) -> Result<TrackerCriteria, ApiError> {
    serde_json::from_str(&row.criteria)
        .map_err(|e| ApiError::Internal(format!("tracker {} criteria unreadable: {e}", row.id)))
}

impl Tracker {
    pub fn from_row(row: &TrackerRow, permission: Permission) -> Result<Self, ApiError> {
        let c = criteria_of(row)?;
        let custom_config: CustomConfig = serde_json::from_str(&row.custom_config).unwrap_or_default();
        let link_sharing: LinkSharing = serde_json::from_str(&row.link_sharing).unwrap_or_default();
        let subtrackers = c
            .subtrackers
            .iter()
            .enumerate()
            .map(|(i, label)| Subtracker {
                label: label.clone(),
                value: format!("{}/{}?subtracker={}", row.hash, row.friendly, i + 1),
            })
            .collect();
        Ok(Tracker {
            id: row.id,
            hash: row.hash.clone(),
            friendly: row.friendly.clone(),
            title: row.title.clone(),
            status: row.status.clone(),
            created: row.created_at,
            end: row.end_at,
            last_cached: row.last_cached,
            last_paused: row.last_paused,
            first_data_point: row.first_data_point,
            platforms: c.platforms,
            search: SearchRows { rows: c.search.rows() },
            search_display: c.search.display(),
            search_count: c.search.search_count(),
            ignore_count: c.search.ignore_count(),
            exclude_retweets: c.exclude_retweets,
            verified_users: c.verified_users,
            verified_tiktok_users: c.verified_tiktok_users,
            language: c.language.clone(),
            country_locations: c.country_locations.clone(),
            volume_limit: c.volume_limit,
            usernames: c.usernames.clone(),
            ignore: c.ignore.clone(),
            subtrackers,
            highlights: c.highlights.clone(),
            sentiment_keywords: c.sentiment_keywords.clone(),
            hide_auth_metrics: row.hide_auth_metrics,
            anonymize_facebook: anonymizes_facebook(&row.custom_config),
            custom_config,
            share_exports: row.share_exports,
            unlock_date: row.unlock_date,
            is_sub_tracker: row.parent_id.is_some(),
            is_preview_mode: row.is_preview_mode,
            is_demo: row.is_demo,
            total_posts: row.total_posts,
            link_sharing,
            custom_url: row.custom_url.clone(),
            share_hash: row.share_hash.clone(),
            last_edit_mode: row.last_edit_mode.clone(),
            permission: permission.rank(),
            is_owner: permission == Permission::Owner,
            owner_name: row.owner_name.clone(),
            reanalysis: None,
            sentiment_model: None,
            is_backfilling: false,
            shared: false,
        })
    }
}

#[derive(Serialize, ToSchema)]
pub struct Tag {
    pub id: i64,
    pub name: String,
    pub color: String,
}

impl From<TagRow> for Tag {
    fn from(t: TagRow) -> Self {
        Tag { id: t.id, name: t.name, color: t.color }
    }
}
