//! Notification settings (alerts, the periodic report, webhook and Slack destinations), test
//! messages, the alert history, and the unsubscribe link of every mail. Settings, tests and
//! history are for the tracker's owner and administrators; unsubscribing needs only the link.

use axum::extract::State;
use crate::extract::Path;
use axum::http::HeaderMap;
use hark_core::notify::NotificationSettings;
use hark_core::{now_millis, Code, Millis, Permission};
use hark_store::{DeliveryRow, NewDelivery, NotificationRow, TrackerRow, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json, Query};
use crate::notify::{self, send};
use crate::routes::load_tracker;
use crate::AppState;

/// The settings as the page edits them (hark-core's `NotificationSettings`).
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct SettingsBody(pub NotificationSettings);

impl utoipa::PartialSchema for SettingsBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaType, Type};
        let object = || ObjectBuilder::new().schema_type(Type::Object);
        let boolean = || ObjectBuilder::new().schema_type(Type::Boolean);
        let count = || ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).maximum(Some(10_000_000_000u64));
        let choice = |values: &[&str]| ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values.to_vec()));
        // Plain addresses (local@domain.tld, no spaces, quotes or brackets; blanks are dropped), at
        // most 20.
        let address = r"^$|^[\u0021\u0023-\u0027\u002a\u002b\u002d-\u0039\u003d\u003f\u0041-\u005a\u005e-\u007e]{1,64}@[\u0021\u0023-\u0027\u002a\u002b\u002d\u002f-\u0039\u003d\u003f\u0041-\u005a\u005e-\u007e]+(\.[\u0021\u0023-\u0027\u002a\u002b\u002d\u002f-\u0039\u003d\u003f\u0041-\u005a\u005e-\u007e]+)+$";
        let recipients = || {
            ArrayBuilder::new()
                .items(ObjectBuilder::new().schema_type(Type::String).max_length(Some(254)).pattern(Some(address)))
                .max_items(Some(20))
        };
        let influencers = [
            "twitterFollowers", "twitterRetweets", "tiktokFollowers", "instagramFollowers", "instagramLikes",
            "youtubeFollowers", "youtubeViews", "facebookFans", "facebookLikes",
        ]
        .into_iter()
        .fold(object(), |o, name| o.property(name, count()))
        .property("twitterVerified", boolean())
        .property("tiktokVerified", boolean());
        let alerts = object()
            .property("frequency", choice(&["off", "realtime", "hourly", "daily"]))
            .property("recipients", recipients())
            .property("negativeSentiment", boolean())
            .property("spike", boolean())
            .property("spikeSensitivity", choice(&["low", "medium", "high"]))
            .property("spikeMinPosts", ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1)).maximum(Some(1_000_000)))
            .property("influencers", influencers)
            .required("frequency")
            .required("recipients")
            .required("negativeSentiment")
            .required("spike")
            .required("spikeSensitivity")
            .required("spikeMinPosts");
        let report = object()
            .property("enabled", boolean())
            .property("frequency", choice(&["daily", "weekly", "monthly"]))
            .property("recipients", recipients())
            .property("sendWithoutUpdates", boolean())
            .required("enabled")
            .required("frequency")
            .required("recipients")
            .required("sendWithoutUpdates");
        // An http(s) address naming a host, at most 2000 characters; empty or none for no destination.
        let url = || {
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                .max_length(Some(2000))
                .pattern(Some(r"^(https?://[\u0021-\u002e\u0030-\u007e][\u0021-\u007e]*)?$"))
        };
        let destination = || object().property("url", url());
        object()
            .description(Some("{alerts, report, webhook, slack}: see docs/api.md, Notifications."))
            .property("alerts", alerts)
            .property("report", report)
            .property("webhook", destination())
            .property("slack", destination())
            .required("alerts")
            .required("report")
            .into()
    }
}

impl ToSchema for SettingsBody {}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationsView {
    #[schema(value_type = Object)]
    pub settings: NotificationSettings,
    /// The key of the webhook's `X-Hark-Signature` (HMAC-SHA256 of the body); none until a
    /// webhook address is saved.
    pub webhook_secret: Option<String>,
    /// Whether this server sends mail (an SMTP server is configured).
    pub mail_configured: bool,
    /// When the next periodic report is due; none when reports are off.
    pub next_report_at: Option<Millis>,
    /// The zone of report periods and times in messages.
    pub time_zone: String,
}

/// The tracker for its owner and administrators.
async fn manager(state: &AppState, hash: &str, user: &UserRow) -> ApiResult<TrackerRow> {
    let (row, _) = load_tracker(state, hash, Some(user), Permission::Administrator).await?;
    Ok(row)
}

/// The tracker's row, made with the defaults (mailed to its owner) the first time.
async fn settings_row(state: &AppState, tracker: &TrackerRow, headers: &HeaderMap) -> ApiResult<NotificationRow> {
    if let Some(row) = state.store.notification_settings(tracker.id).await? {
        return Ok(row);
    }
    let owner = state.store.user_by_id(tracker.owner_id).await?.map(|u| u.email).unwrap_or_default();
    let settings = NotificationSettings::defaults(&owner);
    let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    let now = now_millis();
    let base = state.public_base(headers);
    Ok(state.store.ensure_notification_settings(tracker.id, &json, &notify::fresh_memory(&settings, now), Some(&base), now).await?)
}

/// A webhook address must parse as a URL with a host (a port out of range, say, would only fail
/// when an alert is sent).
fn check_url(field: &str, url: Option<&str>) -> ApiResult<()> {
    if let Some(u) = url {
        let ok = url::Url::parse(u).ok().is_some_and(|p| p.host_str().is_some_and(|h| !h.is_empty()));
        if !ok {
            return Err(ApiError::new(Code::ValidationFailed, format!("{field} is not a valid address.")));
        }
    }
    Ok(())
}

/// The page's view of a row. Settings that cannot be read (sealed with another server key) show
/// as the defaults with `caller` as recipient, for the caller to save again.
fn view(state: &AppState, row: &NotificationRow, caller: &str) -> ApiResult<NotificationsView> {
    let settings: NotificationSettings = serde_json::from_str(&row.settings).unwrap_or_else(|e| {
        tracing::warn!(tracker = row.tracker_id, error = %e, "notification settings unreadable; showing the defaults");
        NotificationSettings::defaults(caller)
    });
    Ok(NotificationsView {
        next_report_at: if settings.report.enabled { row.report_due_at } else { None },
        settings,
        webhook_secret: row.webhook_secret.clone(),
        mail_configured: state.mailer.is_some(),
        time_zone: "UTC".into(),
    })
}

/// The tracker's alert and report settings (made with the spec's defaults the first time).
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/notifications", tag = "notifications", params(("hash" = String, Path)),
    responses((status = 200, body = NotificationsView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_notifications(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
) -> ApiResult<axum::Json<NotificationsView>> {
    let tracker = manager(&state, &hash, &user).await?;
    let row = settings_row(&state, &tracker, &headers).await?;
    Ok(axum::Json(view(&state, &row, &user.email)?))
}

/// Saves the settings, whole. A changed report frequency (or reports switched on) starts the
/// schedule from now; a first webhook address gets its signing secret.
#[utoipa::path(put, path = "/api/v1/trackers/{hash}/notifications", tag = "notifications", params(("hash" = String, Path)),
    request_body = SettingsBody,
    responses((status = 200, body = NotificationsView), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_notifications(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
    Json(SettingsBody(input)): Json<SettingsBody>,
) -> ApiResult<axum::Json<NotificationsView>> {
    let tracker = manager(&state, &hash, &user).await?;
    let settings = input.parse().map_err(|e| ApiError::new(e.code, e.message))?;
    check_url("The webhook address", settings.webhook.url.as_deref())?;
    check_url("The Slack webhook address", settings.slack.url.as_deref())?;
    let old = settings_row(&state, &tracker, &headers).await?;
    let before: Option<NotificationSettings> = serde_json::from_str(&old.settings).ok();
    let now = now_millis();
    let mut memory = old.memory();
    let report_changed = before.as_ref().is_none_or(|b| b.report.enabled != settings.report.enabled || b.report.frequency != settings.report.frequency);
    let digest_changed = before.as_ref().is_none_or(|b| b.alerts.frequency != settings.alerts.frequency);
    // Only a changed schedule is written: the engine may have sent a report since `old` was read.
    let reschedule = report_changed || digest_changed || (settings.report.enabled && memory.report_due_at.is_none());
    memory.report_due_at = settings.report.enabled.then(|| notify::next_report_due(settings.report.frequency, now));
    if digest_changed {
        // Waiting alerts go out at the next round (or are dropped when alerts are off).
        memory.digest_due_at = memory.digest_due_at.map(|_| now);
    }
    if !report_changed && !(settings.report.enabled && old.report_due_at.is_none()) {
        memory.report_due_at = old.report_due_at;
    }
    // A new secret for a new receiver: the old one must not sign for the next.
    let same_host = |a: &Option<String>, b: &Option<String>| match (a, b) {
        (Some(a), Some(b)) => send::host_of(a) == send::host_of(b),
        _ => false,
    };
    let old_url = before.as_ref().and_then(|b| b.webhook.url.clone());
    let secret = match (&settings.webhook.url, &old.webhook_secret) {
        (Some(_), Some(s)) if same_host(&settings.webhook.url, &old_url) => Some(s.clone()),
        (Some(_), _) => Some(send::new_secret()),
        (None, s) => s.clone(),
    };
    let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    let base = state.public_base(&headers);
    let row = state.store.save_notification_settings(tracker.id, &json, secret.as_deref(), &memory, reschedule, Some(&base), now).await?;
    Ok(axum::Json(view(&state, &row, &user.email)?))
}

/// Test messages a tracker may send in [`TEST_WINDOW_MS`] (each e-mail recipient counts): enough
/// to try every destination a few times, too few to make Send test a way to mail strangers.
const MAX_TESTS: i64 = 30;
const TEST_WINDOW_MS: i64 = 10 * 60_000;

#[derive(Deserialize, ToSchema)]
pub struct TestInput {
    /// email, webhook or slack.
    pub destination: String,
}

/// One entry of the alert history: a message sent, waiting or failed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryItem {
    pub id: i64,
    /// spike, negative_sentiment, influencer, digest, report or test.
    pub kind: String,
    /// email, webhook or slack.
    pub channel: String,
    /// The address, or the webhook's host.
    pub recipient: String,
    pub subject: String,
    /// The figures that triggered it.
    pub reason: String,
    /// pending, sending, sent, retrying or failed.
    pub status: String,
    pub attempts: i64,
    pub error: Option<String>,
    pub created_at: Millis,
    pub sent_at: Option<Millis>,
    pub next_attempt_at: Option<Millis>,
}

impl From<DeliveryRow> for HistoryItem {
    fn from(d: DeliveryRow) -> Self {
        HistoryItem {
            next_attempt_at: (d.status == "retrying").then_some(d.next_attempt_at),
            id: d.id,
            kind: d.kind,
            channel: d.channel,
            recipient: d.recipient,
            subject: d.subject,
            reason: d.reason,
            status: d.status,
            attempts: d.attempts,
            error: d.last_error,
            created_at: d.created_at,
            sent_at: d.sent_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct TestResult {
    pub delivery: HistoryItem,
}

/// Sends a test message to a saved destination now (e-mail: to the alert recipients) and answers
/// with how it went; a failure is retried like any message.
#[utoipa::path(post, path = "/api/v1/trackers/{hash}/notifications/test", tag = "notifications", params(("hash" = String, Path)),
    request_body = TestInput,
    responses((status = 200, body = TestResult), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn test_notification(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    headers: HeaderMap,
    Json(input): Json<TestInput>,
) -> ApiResult<axum::Json<TestResult>> {
    let tracker = manager(&state, &hash, &user).await?;
    let row = settings_row(&state, &tracker, &headers).await?;
    let settings: NotificationSettings =
        serde_json::from_str(&row.settings).map_err(|e| ApiError::Internal(format!("notification settings: {e}")))?;
    let unset = |what: &str| ApiError::new(Code::DestinationNotSet, format!("Save {what} first, then send a test."));
    let (channel, recipients): (&'static str, Vec<String>) = match input.destination.as_str() {
        "email" => {
            if state.mailer.is_none() {
                return Err(crate::mail::not_configured());
            }
            if settings.alerts.recipients.is_empty() {
                return Err(unset("at least one alert recipient"));
            }
            ("email", settings.alerts.recipients.clone())
        }
        "webhook" => ("webhook", vec![send::host_of(settings.webhook.url.as_deref().ok_or_else(|| unset("a webhook address"))?)]),
        "slack" => ("slack", vec![send::host_of(settings.slack.url.as_deref().ok_or_else(|| unset("a Slack webhook address"))?)]),
        _ => return Err(ApiError::new(Code::InvalidChoice, "The destination is email, webhook or slack.")),
    };
    let now = now_millis();
    if state.store.recent_tests(tracker.id, now - TEST_WINDOW_MS).await? >= MAX_TESTS {
        return Err(ApiError::new(
            Code::RateLimited,
            format!("At most {MAX_TESTS} test messages in {} minutes; try again shortly.", TEST_WINDOW_MS / 60_000),
        ));
    }
    let owner = format!("test-{:x}", rand::random::<u32>());
    let mut last = None;
    for recipient in recipients {
        let d = NewDelivery {
            kind: "test",
            channel,
            recipient,
            subject: format!("Test message for {}", tracker.title),
            reason: format!("Sent from the notifications page by {}", user.email),
            payload: r#"{"test":true}"#.into(),
        };
        let added = state.store.add_delivery(tracker.id, &d, now).await?;
        // Sent here, so the page can say at once how it went; a failure waits for its retry.
        if let Some(leased) = state.store.lease_delivery(&owner, now, now + notify::DELIVERY_LEASE, Some(added.id)).await? {
            send::attempt(&state, &owner, leased, now_millis()).await?;
        }
        last = state.store.delivery(added.id).await?;
    }
    state.alerts_wake.notify_one();
    let delivery = last.ok_or_else(|| ApiError::Internal("the test message vanished".into()))?;
    Ok(axum::Json(TestResult { delivery: delivery.into() }))
}

#[derive(Deserialize, IntoParams)]
pub struct HistoryQuery {
    /// 1-based.
    #[param(minimum = 1, maximum = 100000)]
    pub page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct History {
    pub items: Vec<HistoryItem>,
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
}

const HISTORY_PAGE: i64 = 20;

/// What was sent, when, to whom and why, and what failed, newest first.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/notifications/history", tag = "notifications",
    params(("hash" = String, Path), HistoryQuery),
    responses((status = 200, body = History), (status = 403, body = ErrorBody)))]
pub async fn notification_history(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> ApiResult<axum::Json<History>> {
    let tracker = manager(&state, &hash, &user).await?;
    let page = q.page.unwrap_or(1);
    if !(1..=100_000).contains(&page) {
        return Err(ApiError::new(Code::InvalidQuery, "The page is a number from 1."));
    }
    let (rows, total) = state.store.delivery_history(tracker.id, page, HISTORY_PAGE).await?;
    Ok(axum::Json(History { items: rows.into_iter().map(Into::into).collect(), total, page, per_page: HISTORY_PAGE }))
}

#[derive(Deserialize, IntoParams)]
pub struct UnsubscribeQuery {
    pub token: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub email: String,
    /// The tracker's title.
    pub tracker: String,
    /// Whether the address still receives the tracker's alerts or reports.
    pub subscribed: bool,
}

async fn subscription(state: &AppState, token: &str) -> ApiResult<(TrackerRow, NotificationRow, NotificationSettings, String)> {
    let gone = || ApiError::new(Code::NotFound, "This unsubscribe link is not valid (or its tracker was deleted).");
    let (tracker_id, email) = send::read_unsubscribe_token(state, token).ok_or_else(gone)?;
    let tracker = state.store.tracker_by_id(tracker_id).await?.ok_or_else(gone)?;
    let row = state.store.notification_settings(tracker_id).await?.ok_or_else(gone)?;
    let settings: NotificationSettings = serde_json::from_str(&row.settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok((tracker, row, settings, email))
}

fn subscribed(s: &NotificationSettings, email: &str) -> bool {
    s.alerts.recipients.iter().chain(&s.report.recipients).any(|r| r.eq_ignore_ascii_case(email))
}

/// Who an unsubscribe link is for, and whether they still receive mail (no sign-in).
#[utoipa::path(get, path = "/api/v1/unsubscribe", tag = "notifications", params(UnsubscribeQuery),
    responses((status = 200, body = Subscription), (status = 404, body = ErrorBody)))]
pub async fn unsubscribe_state(State(state): State<AppState>, Query(q): Query<UnsubscribeQuery>) -> ApiResult<axum::Json<Subscription>> {
    let (tracker, _, settings, email) = subscription(&state, &q.token).await?;
    Ok(axum::Json(Subscription { subscribed: subscribed(&settings, &email), email, tracker: tracker.title }))
}

/// Unsubscribes the link's address from the tracker's alerts and reports: the page's button and
/// mail clients' one-click unsubscribe (RFC 8058) post here, without a session.
#[utoipa::path(post, path = "/api/v1/unsubscribe", tag = "notifications", params(UnsubscribeQuery),
    responses((status = 200, body = Subscription), (status = 404, body = ErrorBody)))]
pub async fn unsubscribe(State(state): State<AppState>, Query(q): Query<UnsubscribeQuery>) -> ApiResult<axum::Json<Subscription>> {
    let (tracker, row, mut settings, email) = subscription(&state, &q.token).await?;
    if settings.unsubscribe(&email) {
        let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
        state.store.save_notification_settings(tracker.id, &json, row.webhook_secret.as_deref(), &row.memory(), false, None, now_millis()).await?;
        tracing::info!(tracker = tracker.id, "an address unsubscribed from notifications");
    }
    Ok(axum::Json(Subscription { subscribed: false, email, tracker: tracker.title }))
}
