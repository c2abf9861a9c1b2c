//! Live collection: connector settings (instance administrators only; secrets are write-only)
//! and each tracker's collection status.

use std::collections::BTreeMap;

use axum::extract::State;
use crate::extract::Path;
use hark_collect::{build, config_from_row, CollectError, ConnectorKind, Http, RetryPolicy};
use hark_core::{now_millis, Code, JobKind, JobState, Millis, Permission};
use hark_store::{ConnectorSettingsRow, StreamRow, UserRow};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{CurrentUser, Json};
use crate::routes::load_tracker;
use crate::AppState;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorField {
    name: String,
    label: String,
    secret: bool,
    required: bool,
    multiline: bool,
    help: String,
    /// A choice among these (the first is the default); empty for free text.
    options: Vec<FieldOption>,
    /// The saved value; always absent for a secret.
    value: Option<String>,
    /// Whether a value is saved (the only thing said about a secret).
    is_set: bool,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct FieldOption {
    value: String,
    label: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StreamStatus {
    /// A worker holds the stream right now.
    running: bool,
    last_collected_at: Option<Millis>,
    posts_fetched: i64,
    last_error: Option<String>,
    last_error_at: Option<Millis>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectorView {
    name: String,
    label: String,
    description: String,
    /// Platform codes its posts count as.
    platforms: Vec<String>,
    enabled: bool,
    has_base_url: bool,
    base_url: Option<String>,
    default_base_url: String,
    fields: Vec<ConnectorField>,
    /// `working`, `error`, `not_configured` or `unchecked` (saved, not checked yet).
    status: String,
    status_message: Option<String>,
    checked_at: Option<Millis>,
    /// `poll` (per tracker, on a schedule) or `stream` (one connection for every tracker).
    collects_by: String,
    /// Base URL schemes accepted (`https://`, or `wss://` for a websocket).
    base_url_schemes: Vec<String>,
    /// The stream's state, for a connector that streams and has run.
    stream: Option<StreamStatus>,
}

fn view(kind: ConnectorKind, row: Option<&ConnectorSettingsRow>, streams: &[StreamRow]) -> ConnectorView {
    let config = row.map(config_from_row).unwrap_or_default();
    let fields: Vec<ConnectorField> = kind
        .fields()
        .into_iter()
        .map(|f| {
            let v = config.value(f.name).map(str::to_string);
            ConnectorField {
                name: f.name.into(),
                label: f.label.into(),
                secret: f.secret,
                required: f.required,
                multiline: f.multiline,
                help: f.help.into(),
                options: f.options.iter().map(|(v, l)| FieldOption { value: (*v).into(), label: (*l).into() }).collect(),
                is_set: v.is_some(),
                value: if f.secret { None } else { v },
            }
        })
        .collect();
    let configured = config.require(kind).is_ok() && row.is_some();
    let (status, message) = match row {
        _ if !configured => {
            let why = match config.require(kind) {
                Err(CollectError::NotConfigured(m)) => Some(format!("{}{}.", m[..1].to_uppercase(), &m[1..])),
                _ => None,
            };
            ("not_configured".to_string(), why)
        }
        Some(r) => (r.check_state.clone(), r.check_message.clone()),
        None => ("not_configured".into(), None),
    };
    ConnectorView {
        name: kind.name().into(),
        label: kind.label().into(),
        description: kind.description().into(),
        platforms: kind.platforms().iter().map(|p| p.code().to_string()).collect(),
        enabled: row.is_some_and(|r| r.enabled),
        has_base_url: kind.has_base_url(),
        base_url: config.base_url.clone(),
        default_base_url: kind.default_base_url().into(),
        fields,
        status,
        status_message: message,
        checked_at: row.and_then(|r| r.checked_at),
        collects_by: if kind.is_stream(&config) { "stream" } else { "poll" }.into(),
        base_url_schemes: kind.base_url_schemes().iter().map(|s| s.to_string()).collect(),
        stream: streams.iter().find(|s| s.connector == kind.name() && kind.is_stream(&config)).map(|s| StreamStatus {
            running: s.lease_until.is_some_and(|u| u >= now_millis()),
            last_collected_at: s.last_collected_at,
            posts_fetched: s.posts_collected,
            last_error: s.last_error.clone(),
            last_error_at: s.last_error_at,
        }),
    }
}

fn require_admin(user: &UserRow) -> ApiResult<()> {
    if user.is_admin {
        Ok(())
    } else {
        Err(ApiError::forbidden("Only an instance administrator can manage connectors."))
    }
}

fn kind_of(name: &str) -> ApiResult<ConnectorKind> {
    ConnectorKind::parse(name).ok_or_else(|| ApiError::not_found("Connector"))
}

#[utoipa::path(get, path = "/api/v1/admin/connectors", tag = "collection",
    responses((status = 200, body = Vec<ConnectorView>), (status = 403, body = ErrorBody)))]
pub async fn list_connectors(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> ApiResult<axum::Json<Vec<ConnectorView>>> {
    require_admin(&user)?;
    let rows = state.store.connector_settings().await?;
    let streams = state.store.connector_streams().await?;
    Ok(axum::Json(
        ConnectorKind::ALL.into_iter().map(|k| view(k, rows.iter().find(|r| r.connector == k.name()), &streams)).collect(),
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectorInput {
    enabled: bool,
    /// Blank or absent: the platform's own address.
    #[serde(default)]
    base_url: Option<String>,
    /// Field values. A secret left blank or absent keeps its saved value.
    #[serde(default)]
    values: BTreeMap<String, String>,
    /// Fields to erase (secrets included).
    #[serde(default)]
    clear: Vec<String>,
}

#[utoipa::path(put, path = "/api/v1/admin/connectors/{name}", tag = "collection", params(("name" = String, Path)),
    request_body = ConnectorInput,
    responses((status = 200, body = ConnectorView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn save_connector(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
    Json(input): Json<ConnectorInput>,
) -> ApiResult<axum::Json<ConnectorView>> {
    require_admin(&user)?;
    let kind = kind_of(&name)?;
    let fields = kind.fields();
    let current = state.store.connector_setting(kind.name()).await?;
    let mut values: BTreeMap<String, String> = current.as_ref().map(config_from_row).unwrap_or_default().values;
    for name in input.values.keys().chain(input.clear.iter()) {
        if !fields.iter().any(|f| f.name == name) {
            return Err(ApiError::new(Code::UnknownField, format!("The {} connector has no setting '{name}'.", kind.name())));
        }
    }
    for (name, value) in input.values {
        let secret = fields.iter().any(|f| f.name == name && f.secret);
        let value = value.trim().to_string();
        if let Some(f) = fields.iter().find(|f| f.name == name && !f.options.is_empty()) {
            if !value.is_empty() && !f.options.iter().any(|(o, _)| *o == value) {
                let allowed: Vec<&str> = f.options.iter().map(|(o, _)| *o).collect();
                return Err(ApiError::new(
                    Code::InvalidChoice,
                    format!("'{}' must be one of {}.", f.label, allowed.join(", ")),
                ));
            }
        }
        if value.chars().count() > 20_000 {
            return Err(ApiError::new(Code::ValueTooLong, format!("'{name}' is longer than 20000 characters.")));
        }
        if value.is_empty() && secret {
            continue;
        }
        values.insert(name, value);
    }
    for name in input.clear {
        values.remove(&name);
    }
    values.retain(|_, v| !v.is_empty());
    let base_url = input.base_url.map(|u| u.trim().to_string()).filter(|u| !u.is_empty());
    if let Some(u) = &base_url {
        let schemes = kind.base_url_schemes();
        let ok = schemes.iter().any(|s| u.starts_with(s)) && plausible_url(u);
        if !kind.has_base_url() || !ok {
            let allowed = schemes.join(" or ");
            return Err(ApiError::new(Code::InvalidBaseUrl, format!("The base URL must be an {allowed} address.")));
        }
    }
    let config = hark_collect::ConnectorConfig { base_url: base_url.clone(), values: values.clone() };
    if input.enabled {
        if let Err(CollectError::NotConfigured(m)) = config.require(kind) {
            return Err(ApiError::new(Code::ConnectorIncomplete, format!("Cannot switch on: {m}.")));
        }
    }
    let text = serde_json::to_string(&values).map_err(|e| ApiError::Internal(e.to_string()))?;
    state.store.save_connector_settings(kind.name(), input.enabled, base_url.as_deref(), &text, now_millis()).await?;
    let row = state.store.connector_setting(kind.name()).await?;
    Ok(axum::Json(view(kind, row.as_ref(), &state.store.connector_streams().await?)))
}

/// A URL with a host and nothing odd in it (no spaces or control characters).
fn plausible_url(u: &str) -> bool {
    let rest = u.split_once("://").map(|(_, r)| r).unwrap_or("");
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    !host.is_empty() && !u.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[utoipa::path(post, path = "/api/v1/admin/connectors/{name}/check", tag = "collection", params(("name" = String, Path)),
    responses((status = 200, body = ConnectorView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn check_connector(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
) -> ApiResult<axum::Json<ConnectorView>> {
    require_admin(&user)?;
    let kind = kind_of(&name)?;
    let streams = state.store.connector_streams().await?;
    let Some(row) = state.store.connector_setting(kind.name()).await? else {
        return Ok(axum::Json(view(kind, None, &streams)));
    };
    let policy = RetryPolicy { max_retries: 1, ..RetryPolicy::default() };
    let config = config_from_row(&row);
    let check = hark_collect::check(kind, &config, Http::new(policy));
    let result = tokio::time::timeout(std::time::Duration::from_secs(45), check)
        .await
        .unwrap_or_else(|_| Err(CollectError::Network("no answer within 45 s".into())));
    let (state_name, message) = match result {
        Ok(m) => ("working", m),
        Err(CollectError::NotConfigured(m)) => ("not_configured", m),
        Err(e) => ("error", e.to_string()),
    };
    state.store.set_connector_check(kind.name(), state_name, Some(&message), now_millis()).await?;
    let row = state.store.connector_setting(kind.name()).await?;
    Ok(axum::Json(view(kind, row.as_ref(), &streams)))
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionJobView {
    id: i64,
    connector: String,
    label: String,
    /// `poll` (ongoing) or `backfill`.
    #[schema(value_type = String)]
    kind: JobKind,
    /// `active`, `done` or `failed`.
    #[schema(value_type = String)]
    state: JobState,
    /// A worker holds the job right now.
    running: bool,
    last_collected_at: Option<Millis>,
    next_run_at: Option<Millis>,
    last_error: Option<String>,
    last_error_at: Option<Millis>,
    attempts: i64,
    pages: i64,
    posts_fetched: i64,
    range_start: Option<Millis>,
    range_end: Option<Millis>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionStatus {
    /// Whether any connector is switched on for this instance.
    collecting: bool,
    /// A historical backfill is still collecting.
    backfill_in_progress: bool,
    /// The caller may start a backfill: a switched-on source serves this tracker's platforms and
    /// the account is not a trial.
    free_backfills: bool,
    jobs: Vec<CollectionJobView>,
    /// Live streams (one for every tracker) of the tracker's platforms that are switched on.
    streams: Vec<TrackerStreamView>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackerStreamView {
    connector: String,
    label: String,
    /// A worker holds the stream right now.
    running: bool,
    last_collected_at: Option<Millis>,
    last_error: Option<String>,
    last_error_at: Option<Millis>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/collection", tag = "collection", params(("hash" = String, Path)),
    responses((status = 200, body = CollectionStatus), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn tracker_collection(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<CollectionStatus>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    let now = now_millis();
    let settings = state.store.connector_settings().await?;
    let enabled: Vec<&str> = settings.iter().filter(|r| r.enabled).map(|r| r.connector.as_str()).collect();
    let serves_tracker = enabled
        .iter()
        .filter_map(|c| ConnectorKind::parse(c))
        .any(|k| k.platform_bits() & tracker.platforms != 0);
    let jobs: Vec<CollectionJobView> = state
        .store
        .tracker_jobs(tracker.id)
        .await?
        .into_iter()
        .map(|j| {
            let label = ConnectorKind::parse(&j.connector).map_or(j.connector.clone(), |k| k.label().to_string());
            let running = j.lease_until.is_some_and(|u| u >= now);
            CollectionJobView {
                id: j.id,
                label,
                kind: j.kind,
                running,
                last_collected_at: j.last_collected_at,
                next_run_at: (j.state == JobState::Active && enabled.contains(&j.connector.as_str())).then_some(j.next_run_at),
                connector: j.connector,
                state: j.state,
                last_error: j.last_error,
                last_error_at: j.last_error_at,
                attempts: j.attempts,
                pages: j.pages,
                posts_fetched: j.posts_collected,
                range_start: j.range_start,
                range_end: j.range_end,
            }
        })
        .collect();
    let backfill_in_progress = jobs.iter().any(|j| j.kind == JobKind::Backfill && j.state == JobState::Active);
    let stream_rows = state.store.connector_streams().await?;
    let streams = settings
        .iter()
        .filter(|r| r.enabled)
        .filter_map(|r| ConnectorKind::parse(&r.connector).map(|k| (k, config_from_row(r))))
        .filter(|(k, c)| k.is_stream(c) && k.platform_bits() & tracker.platforms != 0)
        .map(|(k, _)| {
            let row = stream_rows.iter().find(|s| s.connector == k.name());
            TrackerStreamView {
                connector: k.name().into(),
                label: k.label().into(),
                running: row.is_some_and(|s| s.lease_until.is_some_and(|u| u >= now)),
                last_collected_at: row.and_then(|s| s.last_collected_at),
                last_error: row.and_then(|s| s.last_error.clone()),
                last_error_at: row.and_then(|s| s.last_error_at),
            }
        })
        .collect();
    Ok(axum::Json(CollectionStatus {
        collecting: !enabled.is_empty(),
        backfill_in_progress,
        free_backfills: serves_tracker && !user.trial,
        jobs,
        streams,
    }))
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/collection/run", tag = "collection", params(("hash" = String, Path)),
    responses((status = 200, body = CollectionStatus), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn collect_now(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
) -> ApiResult<axum::Json<CollectionStatus>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    let now = now_millis();
    for j in state.store.tracker_jobs(tracker.id).await? {
        if j.kind == JobKind::Poll && j.next_run_at > now {
            state.store.set_job_due(j.id, now).await?;
        }
    }
    tracker_collection(State(state), CurrentUser(user), Path(hash)).await
}

/// Longest past a backfill reaches.
pub const BACKFILL_MAX_DAYS: i64 = 365;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BackfillInput {
    /// First day, `YYYY-MM-DD` (UTC).
    #[schema(format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    start: String,
    /// Last day, `YYYY-MM-DD` (UTC), included.
    #[schema(format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    end: String,
}

fn parse_day(s: &str, field: &str) -> ApiResult<Millis> {
    let d: jiff::civil::Date = s
        .trim()
        .parse()
        .map_err(|_| ApiError::new(Code::InvalidDate, format!("'{field}' must be a date written YYYY-MM-DD.")))?;
    d.to_zoned(jiff::tz::TimeZone::UTC)
        .map(|z| z.timestamp().as_millisecond())
        .map_err(|_| ApiError::new(Code::InvalidDate, format!("'{field}' is out of range.")))
}

const DAY: Millis = 86_400_000;

/// A backfill's `[start, end)` from its first and last day; 422 when it cannot be collected.
fn backfill_range(start: &str, end: &str, now: Millis) -> ApiResult<(Millis, Millis)> {
    let start = parse_day(start, "start")?;
    let end = parse_day(end, "end")? + DAY;
    if start >= end {
        return Err(ApiError::new(Code::InvalidRange, "The first day must not be after the last."));
    }
    if start > now {
        return Err(ApiError::new(Code::InvalidRange, "The period must start in the past."));
    }
    if start < now - BACKFILL_MAX_DAYS * DAY {
        return Err(ApiError::new(Code::InvalidRange, format!("A backfill reaches back {BACKFILL_MAX_DAYS} days at most.")));
    }
    Ok((start, end))
}

/// The switched-on sources of the tracker's platforms with their settings; 422 when none.
async fn tracker_sources(state: &AppState, tracker: &hark_store::TrackerRow) -> ApiResult<Vec<(ConnectorKind, ConnectorSettingsRow)>> {
    let settings = state.store.connector_settings().await?;
    let sources: Vec<(ConnectorKind, ConnectorSettingsRow)> = settings
        .into_iter()
        .filter(|r| r.enabled)
        .filter_map(|r| ConnectorKind::parse(&r.connector).map(|k| (k, r)))
        .filter(|(k, _)| k.platform_bits() & tracker.platforms != 0)
        // Jetstream reads what is posted now; it cannot fetch a past period. (X backfills with
        // recent search whichever way it collects live.)
        .filter(|(k, _)| *k != ConnectorKind::Bluesky)
        .collect();
    if sources.is_empty() {
        return Err(ApiError::new(
            Code::NoConnector,
            "No source is switched on for this tracker's platforms; an administrator can set up connectors.",
        ));
    }
    Ok(sources)
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct EstimateQuery {
    /// First day, `YYYY-MM-DD` (UTC).
    #[param(format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    start: String,
    /// Last day, `YYYY-MM-DD` (UTC), included.
    #[param(format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    end: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceEstimate {
    connector: String,
    label: String,
    /// Posts the source would bring; absent when it cannot count without collecting.
    estimate: Option<u64>,
    error: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BackfillEstimate {
    pub sources: Vec<SourceEstimate>,
    /// The sum of the sources that could count.
    pub total: u64,
    /// Whether every source could count.
    pub complete: bool,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/backfill/estimate", tag = "collection",
    params(("hash" = String, Path), EstimateQuery),
    responses((status = 200, body = BackfillEstimate), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn estimate_backfill(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    crate::extract::Query(q): crate::extract::Query<EstimateQuery>,
) -> ApiResult<axum::Json<BackfillEstimate>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    let now = now_millis();
    let (start, end) = backfill_range(&q.start, &q.end, now)?;
    Ok(axum::Json(estimate_range(&state, &tracker, start, end.min(now)).await?))
}

/// What the tracker's sources say they hold in `[start, end)`; 422 when no source is on.
pub(crate) async fn estimate_range(
    state: &AppState,
    tracker: &hark_store::TrackerRow,
    start: Millis,
    end: Millis,
) -> ApiResult<BackfillEstimate> {
    let criteria: hark_core::TrackerCriteria =
        serde_json::from_str(&tracker.criteria).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut query = hark_collect::TrackerQuery::from_criteria(tracker.id, &criteria);
    query.range = Some((start, end));
    let policy = RetryPolicy { max_retries: 1, ..RetryPolicy::default() };
    let mut sources = Vec::new();
    for (kind, row) in tracker_sources(state, tracker).await? {
        let result = match build(kind, &config_from_row(&row), Http::new(policy.clone())) {
            Ok(c) => tokio::time::timeout(std::time::Duration::from_secs(20), c.estimate(&query))
                .await
                .unwrap_or_else(|_| Err(CollectError::Network("no answer within 20 s".into()))),
            Err(e) => Err(e),
        };
        let (estimate, error) = match result {
            Ok(n) => (n, None),
            Err(e) => (None, Some(e.to_string())),
        };
        sources.push(SourceEstimate { connector: kind.name().into(), label: kind.label().into(), estimate, error });
    }
    let total = sources.iter().filter_map(|s| s.estimate).sum();
    let complete = sources.iter().all(|s| s.estimate.is_some());
    Ok(BackfillEstimate { sources, total, complete })
}

#[utoipa::path(post, path = "/api/v1/trackers/{hash}/backfill", tag = "collection", params(("hash" = String, Path)),
    request_body = BackfillInput,
    responses((status = 200, body = CollectionStatus), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn start_backfill(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(hash): Path<String>,
    Json(input): Json<BackfillInput>,
) -> ApiResult<axum::Json<CollectionStatus>> {
    let (tracker, _) = load_tracker(&state, &hash, Some(&user), Permission::Editor).await?;
    if tracker.is_demo {
        return Err(ApiError::forbidden("The demo tracker is read-only."));
    }
    if user.trial {
        return Err(ApiError::new(Code::UpgradeRequired, "Historical data is not included in the trial."));
    }
    let now = now_millis();
    let (start, end) = backfill_range(&input.start, &input.end, now)?;
    if state.store.backfill_active(tracker.id).await? {
        return Err(ApiError::new(Code::BackfillInProgress, "A backfill is already collecting for this tracker."));
    }
    let kinds: Vec<ConnectorKind> = tracker_sources(&state, &tracker).await?.into_iter().map(|(k, _)| k).collect();
    for k in kinds {
        state.store.create_backfill_job(tracker.id, k.name(), start, end.min(now), now).await?;
    }
    tracker_collection(State(state), CurrentUser(user), Path(hash)).await
}

/// Fetches one post by its platform id from the switched-on source of its platform, for adding a
/// post by address. `Err` holds the reason shown under the address.
pub(crate) async fn lookup_post(
    state: &AppState,
    platform: hark_core::Platform,
    id: &str,
) -> ApiResult<Result<hark_core::Post, String>> {
    let settings = state.store.connector_settings().await?;
    let policy = RetryPolicy { max_retries: 1, ..RetryPolicy::default() };
    let mut source = None;
    for row in settings.iter().filter(|r| r.enabled) {
        let Some(kind) = ConnectorKind::parse(&row.connector) else { continue };
        if !kind.platforms().contains(&platform) {
            continue;
        }
        if let Ok(c) = build(kind, &config_from_row(row), Http::new(policy.clone())) {
            if c.looks_up() {
                source = Some(c);
                break;
            }
        }
    }
    let Some(connector) = source else {
        return Ok(Err(format!(
            "This post is not available: no {} source that fetches posts by address is set up.",
            label_of(platform)
        )));
    };
    let fetched = tokio::time::timeout(std::time::Duration::from_secs(30), connector.lookup(id))
        .await
        .unwrap_or_else(|_| Err(CollectError::Network("no answer within 30 s".into())));
    Ok(match fetched {
        Ok(Some(post)) => Ok(post),
        Ok(None) => Err(format!("{} has no post at this address (deleted, private or never posted).", label_of(platform))),
        Err(e) => Err(format!("The post could not be fetched from {}: {e}", label_of(platform))),
    })
}

/// A platform's name as people write it.
fn label_of(platform: hark_core::Platform) -> &'static str {
    match platform.name() {
        "twitter" => "X",
        "youtube" => "YouTube",
        "tiktok" => "TikTok",
        "instagram" => "Instagram",
        "facebook" => "Facebook",
        other => other,
    }
}
