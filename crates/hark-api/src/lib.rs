//! The HTTP side of Hark: the JSON API under `/api/v1`, its OpenAPI document, and the web app.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::routing::{any, get};
use axum::Router;
use hark_store::Store;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub mod answers;
pub mod auth;
pub mod csv_file;
pub use hark_store::secrets;
pub mod dto;
pub mod error;
pub mod exports;
pub mod extract;
pub mod filters;
pub mod limits;
pub mod lookups;
pub mod mail;
pub mod notify;
pub mod routes;

use error::ApiError;
use routes::{posts, session, tags, trackers};

#[derive(Clone, Debug, Default)]
pub struct ApiConfig {
    /// Mark cookies Secure (set when Hark is served over https).
    pub secure_cookies: bool,
    /// This server's name in `/healthz` (its listening address); the process id when unset.
    pub node: Option<String>,
    /// The cluster's ingest log, when collected posts go through NATS JetStream (`/healthz`
    /// reports on it).
    pub ingest_log: Option<Arc<hark_ingest::log::IngestLog>>,
    /// The built web app (index.html and assets); absent means API only.
    pub web_dir: Option<PathBuf>,
    /// The SMTP server mail goes through; none means no mail (the features that send say so).
    pub mail: Option<mail::MailConfig>,
    /// The address Hark is reached at (`https://hark.example.org`), for links in mail; the
    /// request's own host when unset.
    pub public_url: Option<String>,
    /// How long a finished export is kept; [`exports::DEFAULT_TTL`] when unset.
    pub export_ttl: Option<Duration>,
    /// How long an export worker holds a job between progress reports; [`exports::LEASE`] when
    /// unset.
    pub export_lease: Option<Duration>,
    /// A pause at each progress report of an export (to test an export interrupted midway).
    pub export_step_delay: Option<Duration>,
    /// Seals the secrets administrators upload; a random key for the process's life when unset
    /// (what it sealed cannot be opened after a restart).
    pub secret_key: Option<secrets::SecretKey>,
    /// Let the media proxy fetch from this machine and private networks (tests' fake platform
    /// hosts); never set in a deployment.
    pub media_allow_private: bool,
    /// Let webhooks and Slack messages go to this machine and private networks (a receiver on
    /// the same network; tests).
    pub webhooks_allow_private: bool,
    /// How often the alerts engine judges every tracker (a minute in `hark serve`); none runs no
    /// alerts worker (tests drive the engine on a clock of their own).
    pub alerts_interval: Option<Duration>,
    /// Memory for kept answers of the analytic reads, in MB ([`answers::DEFAULT_MB`] when unset;
    /// 0 keeps none: every read is computed, and still confirmed with a 304 when unchanged).
    pub answer_cache_mb: Option<u64>,
    /// Rate limits of public requests per client address; [`limits::RateLimits::default`] when
    /// unset.
    pub rate_limits: Option<limits::RateLimits>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (for the rate limits and sign-in);
    /// none by default: the connection's peer is the client.
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl ApiConfig {
    pub fn export_ttl(&self) -> Duration {
        self.export_ttl.unwrap_or(exports::DEFAULT_TTL)
    }

    pub fn export_lease(&self) -> Duration {
        self.export_lease.unwrap_or(exports::LEASE)
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub config: Arc<ApiConfig>,
    pub login_limiter: Arc<auth::LoginLimiter>,
    pub public_limiters: Arc<limits::PublicLimiters>,
    pub mailer: Option<Arc<mail::Mailer>>,
    /// Wakes the export worker when a job is asked for.
    pub exports_wake: Arc<tokio::sync::Notify>,
    /// Wakes the alerts sender (a test message waits for a retry).
    pub alerts_wake: Arc<tokio::sync::Notify>,
    pub secret_key: Arc<secrets::SecretKey>,
    /// The media proxy's clients and memory.
    pub media: Arc<routes::media::MediaProxy>,
    /// Answers of the analytic reads, kept while they cannot have changed.
    pub answers: Arc<answers::Answers>,
    /// The sessions, trackers and roles GET requests looked up, kept while nothing changed them.
    pub lookups: Arc<lookups::Lookups>,
}

impl AppState {
    /// The state of a server; a mail configuration that does not parse leaves mail off (the
    /// command line checks it first, with [`mail::Mailer::new`]).
    pub fn new(store: Store, config: ApiConfig) -> Self {
        let mailer = config.mail.as_ref().and_then(|m| match mail::Mailer::new(m) {
            Ok(m) => Some(Arc::new(m)),
            Err(e) => {
                tracing::error!(error = %e, "mail is off");
                None
            }
        });
        let secret_key = Arc::new(config.secret_key.clone().unwrap_or_else(secrets::SecretKey::random));
        let public_limiters = Arc::new(limits::PublicLimiters::new(config.rate_limits.unwrap_or_default()));
        // The store seals what it keeps of connectors' and webhooks' secrets with the same key.
        let store = store.with_secret_key(secret_key.clone());
        let lookups = Arc::new(lookups::Lookups::new(store.backend(), store.hear_changes()));
        Self {
            store,
            secret_key,
            public_limiters,
            media: Arc::new(routes::media::MediaProxy::new(config.media_allow_private)),
            answers: Arc::new(answers::Answers::new(config.answer_cache_mb.unwrap_or(answers::DEFAULT_MB))),
            lookups,
            config: Arc::new(config),
            login_limiter: Arc::new(auth::LoginLimiter::default()),
            mailer,
            exports_wake: Arc::new(tokio::sync::Notify::new()),
            alerts_wake: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// The start of absolute links in mail: the configured public address, else the request's
    /// host.
    pub fn public_base(&self, headers: &axum::http::HeaderMap) -> String {
        if let Some(url) = &self.config.public_url {
            return url.trim_end_matches('/').to_string();
        }
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("127.0.0.1:8080");
        let scheme = if self.config.secure_cookies { "https" } else { "http" };
        format!("{scheme}://{host}")
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Hark API", description = "Social listening: trackers, posts and analytics."),
    tags((name = "session"), (name = "trackers"), (name = "tags"), (name = "posts"), (name = "collection"), (name = "sharing"), (name = "team"), (name = "exports"), (name = "media-wall"), (name = "notifications"), (name = "admin"))
)]
struct ApiDoc;

/// The OpenAPI document, pretty-printed: what `hark openapi` prints and web/src/api/openapi.json holds.
pub fn openapi_json() -> String {
    api().1.to_pretty_json().expect("the OpenAPI document serialises")
}

/// The API routes and the OpenAPI document describing exactly them.
pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (router, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(session::health))
        .routes(routes!(session::setup_state, session::setup))
        .routes(routes!(session::login))
        .routes(routes!(session::logout))
        .routes(routes!(session::me))
        .routes(routes!(trackers::list_trackers, trackers::create_tracker))
        .routes(routes!(trackers::get_tracker, trackers::edit_tracker, trackers::delete_tracker))
        .routes(routes!(trackers::pause_tracker))
        .routes(routes!(trackers::restart_tracker))
        .routes(routes!(trackers::tracker_logs))
        .routes(routes!(trackers::hide_auth_metrics))
        .routes(routes!(trackers::anonymize_facebook))
        .routes(routes!(trackers::custom_config))
        .routes(routes!(trackers::total_posts))
        .routes(routes!(trackers::demo_tracker))
        .routes(routes!(trackers::key_statistics))
        .routes(routes!(trackers::sentiment_keywords))
        .routes(routes!(routes::sharing::get_share, routes::sharing::edit_share))
        .routes(routes!(routes::sharing::revoke_share))
        .routes(routes!(routes::sharing::share_by_email))
        .routes(routes!(routes::embed::embed_code))
        .routes(routes!(routes::exports::list_exports, routes::exports::create_export))
        .routes(routes!(routes::exports::sample_workbook))
        .routes(routes!(routes::exports::get_export))
        .routes(routes!(routes::exports::export_file))
        .routes(routes!(routes::team::list_members, routes::team::invite_member))
        .routes(routes!(routes::team::edit_member, routes::team::remove_member))
        .routes(routes!(routes::team::withdraw_invitation))
        .routes(routes!(routes::team::transfer_ownership))
        .routes(routes!(routes::team::get_invitation))
        .routes(routes!(routes::team::accept_invitation))
        .routes(routes!(routes::audit::tracker_audit))
        .routes(routes!(routes::audit::instance_audit))
        .routes(routes!(routes::import::import_file))
        .routes(routes!(tags::list_tags, tags::create_tag))
        .routes(routes!(tags::edit_tag, tags::delete_tag))
        .routes(routes!(tags::influencer_tags, tags::create_influencer_tag))
        .routes(routes!(tags::edit_influencer_tag, tags::delete_influencer_tag))
        .routes(routes!(routes::influencers::list_influencers))
        .routes(routes!(routes::influencers::export_influencers))
        .routes(routes!(routes::influencers::account_posts))
        .routes(routes!(routes::influencers::tag_accounts))
        .routes(routes!(routes::topics::topic_layer))
        .routes(routes!(routes::topics::topic_series))
        .routes(routes!(routes::topics::topic_posts))
        .routes(routes!(routes::topics::sentiment))
        .routes(routes!(routes::topics::sentiment_keywords))
        .routes(routes!(routes::media_wall::media_wall))
        .routes(routes!(routes::media_wall::save_settings))
        .routes(routes!(routes::media_wall::set_moderation))
        .routes(routes!(routes::media_wall::set_visibility))
        .routes(routes!(routes::media_wall::get_moderation_link, routes::media_wall::rotate_moderation_link))
        .routes(routes!(routes::notifications::get_notifications, routes::notifications::save_notifications))
        .routes(routes!(routes::notifications::test_notification))
        .routes(routes!(routes::notifications::notification_history))
        .routes(routes!(routes::notifications::unsubscribe_state, routes::notifications::unsubscribe))
        .routes(routes!(posts::list_posts))
        .routes(routes!(posts::export_posts))
        .routes(routes!(posts::tag_posts))
        .routes(routes!(posts::edit_sentiment))
        .routes(routes!(posts::delete_posts))
        .routes(routes!(posts::undo_delete_posts))
        .routes(routes!(posts::ignore_users))
        .routes(routes!(posts::undo_ignore_users))
        .routes(routes!(posts::add_posts))
        .routes(routes!(routes::dashboard::top_stats))
        .routes(routes!(routes::dashboard::timeline))
        .routes(routes!(routes::dashboard::locations))
        .routes(routes!(routes::dashboard::sentiments))
        .routes(routes!(routes::dashboard::devices))
        .routes(routes!(routes::dashboard::genders))
        .routes(routes!(routes::dashboard::post_types))
        .routes(routes!(routes::dashboard::viewer_sentiments))
        .routes(routes!(routes::dashboard::influencers))
        .routes(routes!(routes::dashboard::topics))
        .routes(routes!(routes::dashboard::top_pages))
        .routes(routes!(routes::dashboard::top_posts))
        .routes(routes!(routes::dashboard::side_posts))
        .routes(routes!(routes::dashboard::prediction))
        .routes(routes!(routes::admin::list_plans))
        .routes(routes!(routes::admin::list_accounts))
        .routes(routes!(routes::admin::edit_account))
        .routes(routes!(routes::integrations::get_sheets, routes::integrations::save_sheets, routes::integrations::remove_sheets))
        .routes(routes!(routes::integrations::check_sheets))
        .routes(routes!(routes::integrations::export_capabilities))
        .routes(routes!(routes::collection::list_connectors))
        .routes(routes!(routes::collection::save_connector))
        .routes(routes!(routes::collection::check_connector))
        .routes(routes!(routes::collection::tracker_collection))
        .routes(routes!(routes::collection::collect_now))
        .routes(routes!(routes::collection::start_backfill))
        .routes(routes!(routes::collection::estimate_backfill))
        .routes(routes!(routes::preview::preview_stream))
        .routes(routes!(routes::preview::preview_sample))
        .routes(routes!(routes::preview::end_preview))
        .routes(routes!(routes::preview::volume_estimate))
        .routes(routes!(routes::health::healthz))
        .split_for_parts();
    document_errors(&mut doc);
    (router, doc)
}

/// Every operation may answer an error its annotation does not list (a bad query or body, a
/// rate limit, a missing session): each gets a `default` response, the error shape
/// `{error: {code, message}}`, so a client reads any status the document does not name as that.
fn document_errors(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let error = ResponseBuilder::new()
        .description("An error: `{error: {code, message}}` (400 bad input, 401 no session, 403 not allowed, 404 not found, 409 conflict, 413 too large, 415 not JSON, 422 invalid, 429 rate limited, 5xx)")
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build())
        .build();
    for item in doc.paths.paths.values_mut() {
        let ops = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch, &mut item.head, &mut item.options, &mut item.trace];
        for op in ops.into_iter().flatten() {
            op.responses.responses.entry("default".to_string()).or_insert_with(|| error.clone().into());
        }
    }
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("API route")
}

pub fn app(state: AppState) -> Router {
    let (api, doc) = api();
    let doc = Arc::new(doc);
    let api = api
        .route(
            "/api/v1/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
        .route("/api/{*rest}", any(api_not_found))
        .layer(axum::middleware::from_fn(auth::csrf_guard))
        .layer(axum::middleware::from_fn(note_writes))
        .layer(DefaultBodyLimit::max(1 << 20))
        // Nothing of the API is stored by browsers, but for the kept answers' own `private,
        // no-cache` (stored, and confirmed with the server on every use).
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static("no-store")));
    // Media are cached by browsers, so they live outside the API's `no-store`.
    let media = Router::new()
        .route(routes::media::PROXY_PATH, get(routes::media::proxy))
        .route("/demo-media/{*path}", get(routes::media::demo_media))
        .with_state(state.clone());
    let mut router = api.with_state(state.clone()).merge(media);
    if let Some(dir) = &state.config.web_dir {
        let index = dir.join("index.html");
        router = router.fallback_service(ServeDir::new(dir).fallback(ServeFile::new(index)));
    }
    router
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, Duration::from_secs(60)))
        // Inside the headers' layers: a refusal carries them too.
        .layer(axum::middleware::from_fn_with_state(state.public_limiters.clone(), limits::limit))
        // Before the limits: they count per client, which a trusted proxy names.
        .layer(axum::middleware::from_fn_with_state(Arc::new(state.config.trusted_proxies.clone()), limits::forwarded))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(axum::middleware::from_fn(frame_policy))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .layer(tower_http::compression::CompressionLayer::new())
}

/// After a request that may have written (anything but GET, HEAD and OPTIONS), what GET requests
/// kept of the database is looked up again ([`lookups`]): the change is seen by the next read,
/// whichever statement made it.
async fn note_writes(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let reads = matches!(*req.method(), axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS);
    let res = next.run(req).await;
    if !reads {
        hark_store::note_change();
    }
    res
}

/// True for an embed URL: `embed=1` or `embed=true` in the query.
pub fn is_embed_url(query: Option<&str>) -> bool {
    query.is_some_and(|q| url::form_urlencoded::parse(q.as_bytes()).any(|(k, v)| k == "embed" && (v == "1" || v == "true")))
}

/// What the web app may load: its own scripts only (nothing inline or evaluated); its own styles
/// and inline ones (the dialogs' scroll lock injects a style element, the charts set style
/// attributes; React puts no user text in either), images and video from anywhere over
/// https (avatars and post media come from the platforms), and requests to its own origin.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob: https:; media-src 'self' blob: https:; font-src 'self' data:; connect-src 'self'; \
    frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

/// Every answer carries the content security policy; other sites may frame Hark's embed URLs
/// and nothing else (clickjacking).
async fn frame_policy(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let embed = is_embed_url(req.uri().query());
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let ancestors = if embed { "frame-ancestors *" } else { "frame-ancestors 'none'" };
    // A policy of the answer's own (the media proxy's) replaces the app's.
    let own = h.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()).unwrap_or(CONTENT_SECURITY_POLICY);
    let policy = HeaderValue::from_str(&format!("{own}; {ancestors}"))
        .unwrap_or(HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"));
    h.insert(header::CONTENT_SECURITY_POLICY, policy);
    if !embed {
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    res
}

/// Serves until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Secrets stored in the clear by an older version are sealed now.
    match state.store.seal_plain_secrets().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(settings = n, "sealed the secrets stored in the clear"),
        Err(e) => tracing::warn!(error = %e, "secrets stored in the clear were not sealed; the next start tries again"),
    }
    // Every server makes exports; a job its worker was making when the server stopped is made
    // again by the next worker once the job's lease runs out.
    let worker = tokio::spawn(exports::run_worker(state.clone()));
    // Alerts and reports: decided and sent from the database, so any node may do it and a
    // restart loses nothing.
    let alerts = state.config.alerts_interval.map(|interval| tokio::spawn(notify::run_worker(state.clone(), interval)));
    let served = axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown)
        .await;
    worker.abort();
    if let Some(a) = alerts {
        a.abort();
    }
    served
}
