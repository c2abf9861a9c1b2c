//! Test helpers: a fresh database per test on SQLite and PostgreSQL, and `spawn_app` serving the
//! real router on port 0.

use std::sync::Arc;

pub mod nats;
pub mod smtp;
pub use nats::NatsServer;
pub use smtp::{Mail, SmtpServer};

use hark_api::{ApiConfig, AppState};
use hark_store::{Backend, NewTracker, NewUser, Store};
use rand::Rng;
use reqwest::cookie::{CookieStore, Jar};
use serde_json::Value;

/// An account for tests and benches: a member (not an instance administrator) with the paid
/// plan's limits, and a password hash no password matches.
pub fn new_user(email: &str) -> NewUser {
    NewUser {
        email: email.into(),
        password_hash: "!".into(),
        name: email.split('@').next().unwrap_or(email).to_uppercase(),
        is_admin: false,
        trial: false,
        trial_expires: None,
        plan: 100,
        max_searches: 5,
        max_ignored: 5,
    }
}

/// A running tracker of `owner_id` named `name` on the platform bits `platforms`, with its
/// criteria as JSON.
pub fn new_tracker(name: &str, owner_id: i64, platforms: i64, criteria: impl Into<String>) -> NewTracker {
    NewTracker {
        friendly: hark_core::Friendly::from_text(name),
        title: name.into(),
        owner_id,
        platforms,
        criteria: criteria.into(),
        volume_limit: None,
        is_demo: false,
        is_preview_mode: false,
    }
}

/// Criteria of a tracker on every platform that includes posts with any of `terms`, and nothing
/// else set.
pub fn criteria(terms: &[&str]) -> hark_core::TrackerCriteria {
    hark_core::TrackerCriteria {
        search: hark_core::TrackerSearch { include: vec![terms.iter().map(|t| t.to_string()).collect()], exclude: vec![] },
        platforms: hark_core::PlatformSet::all(),
        exclude_retweets: false,
        verified_users: false,
        verified_tiktok_users: false,
        language: None,
        country_locations: vec![],
        volume_limit: None,
        usernames: Default::default(),
        ignore: Default::default(),
        subtrackers: vec![],
        highlights: vec![],
        sentiment_keywords: Default::default(),
    }
}

/// The backends to run store and HTTP tests on: SQLite always, PostgreSQL when
/// `HARK_TEST_POSTGRES_URL` is set.
pub fn backends() -> Vec<Backend> {
    let mut b = vec![Backend::Sqlite];
    if postgres_admin_url().is_some() {
        b.push(Backend::Postgres);
    } else {
        eprintln!("HARK_TEST_POSTGRES_URL not set: PostgreSQL tests skipped");
    }
    b
}

/// Runs `f` on a fresh, migrated store of each of [`backends`].
pub async fn each_backend<F, Fut>(f: F)
where
    F: Fn(Store) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for b in backends() {
        let db = TestDb::new(b).await;
        f(db.store().await).await;
    }
}

/// Runs `f` on a fresh app (server and database) of each of [`backends`].
pub async fn each_app<F, Fut>(f: F)
where
    F: Fn(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for b in backends() {
        f(TestApp::spawn(b).await).await;
    }
}

fn postgres_admin_url() -> Option<String> {
    std::env::var("HARK_TEST_POSTGRES_URL").ok().filter(|s| !s.is_empty())
}

/// A database that exists for one test; dropped (PostgreSQL) or deleted (SQLite) afterwards.
pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    _dir: Option<tempfile::TempDir>,
    pg: Option<(String, String)>,
}

impl TestDb {
    pub async fn new(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("hark.db").display());
                TestDb { url, backend, _dir: Some(dir), pg: None }
            }
            Backend::Postgres => {
                let admin = postgres_admin_url().expect("HARK_TEST_POSTGRES_URL");
                let name = format!("hark_test_{:016x}", rand::thread_rng().gen::<u64>());
                let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("connect admin");
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await.expect("create database");
                let url = replace_db_name(&admin, &name);
                TestDb { url, backend, _dir: None, pg: Some((admin, name)) }
            }
        }
    }

    pub async fn store(&self) -> Store {
        let store = Store::connect(&self.url).await.expect("connect");
        store.migrate().await.expect("migrate");
        store
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin, name)) = self.pg.take() {
            // Dropping needs async I/O; a short-lived thread with its own runtime does it.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build();
                if let Ok(rt) = rt {
                    rt.block_on(async {
                        if let Ok(mut c) = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await {
                            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                                .execute(&mut c)
                                .await;
                        }
                    });
                }
            })
            .join();
        }
    }
}

fn replace_db_name(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let root = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    match query {
        Some(q) => format!("{root}/{name}?{q}"),
        None => format!("{root}/{name}"),
    }
}

/// A running server on 127.0.0.1:0 with a cookie-keeping client.
pub struct TestApp {
    pub base: String,
    pub store: Store,
    pub client: reqwest::Client,
    jar: Arc<Jar>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub db: TestDb,
    /// The server's kept answers (their hit and miss counts).
    pub answers: Arc<hark_api::answers::Answers>,
}

pub struct Response {
    pub status: u16,
    pub body: Value,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, ApiConfig::default()).await
    }

    /// As [`TestApp::spawn`] with this configuration (an SMTP server, say).
    pub async fn spawn_with(backend: Backend, config: ApiConfig) -> Self {
        let db = TestDb::new(backend).await;
        let store = db.store().await;
        let state = AppState::new(store.clone(), config);
        let answers = state.answers.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = hark_api::serve(listener, state, async {
                let _ = rx.await;
            })
            .await;
        });
        let (client, jar) = new_client();
        TestApp { base, store, client, jar, shutdown: Some(tx), db, answers }
    }

    /// A second browser: its own cookies, same server.
    pub fn new_browser(&self) -> (reqwest::Client, Arc<Jar>) {
        new_client()
    }

    /// A new account with `permission` on the tracker `hash`, signed in in a browser of its own:
    /// the browser and its CSRF token.
    pub async fn member_browser(&self, hash: &str, email: &str, permission: hark_core::Permission) -> (reqwest::Client, String) {
        let pw = hark_api::auth::hash_password("password123").expect("hash");
        let user = self
            .store
            .create_user(&hark_api::routes::session::self_hosted_user(email.into(), pw, "V".into(), false), 1)
            .await
            .expect("user");
        let row = self.store.tracker_by_hash(hash).await.expect("tracker").expect("tracker exists");
        self.store.set_member(row.id, user.id, permission).await.expect("member");
        let (c, jar) = self.new_browser();
        let token = csrf_of(&c, &jar, &self.base).await;
        let login = send(
            c.post(self.url("/api/v1/auth/login"))
                .header("X-CSRF-Token", &token)
                .json(&serde_json::json!({"email": email, "password": "password123"})),
        )
        .await;
        assert_eq!(login.status, 200, "sign-in of {email}");
        let token = csrf_of(&c, &jar, &self.base).await;
        (c, token)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// The CSRF cookie of this client, fetching `/api/v1/me` first when there is none.
    pub async fn csrf(&self) -> String {
        csrf_of(&self.client, &self.jar, &self.base).await
    }

    pub async fn get(&self, path: &str) -> Response {
        send(self.client.get(self.url(path))).await
    }

    pub async fn send_json(&self, method: &str, path: &str, body: Value) -> Response {
        let token = self.csrf().await;
        let req = self
            .client
            .request(method.parse().expect("method"), self.url(path))
            .header("X-CSRF-Token", token)
            .json(&body);
        send(req).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Response {
        self.send_json("POST", path, body).await
    }

    /// Imports posts (one JSON object each, the NDJSON import form) into a tracker.
    pub async fn import_posts(&self, hash: &str, posts: &[Value]) -> Response {
        let token = self.csrf().await;
        let body: String = posts.iter().map(|l| format!("{l}\n")).collect();
        let url = self.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson"));
        send(self.client.post(url).header("X-CSRF-Token", token).body(body)).await
    }

    pub async fn delete(&self, path: &str) -> Response {
        let token = self.csrf().await;
        send(self.client.delete(self.url(path)).header("X-CSRF-Token", token)).await
    }

    /// Creates the first account (instance admin) and keeps its session.
    pub async fn setup_admin(&self) -> Value {
        let r = self
            .post("/api/v1/setup", serde_json::json!({"email": "admin@example.org", "password": "password123", "name": "Ada"}))
            .await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        r.body
    }

    /// Creates a tracker with one term on twitter and returns its JSON.
    pub async fn create_tracker(&self, term: &str) -> Value {
        let r = self
            .post(
                "/api/v1/trackers",
                serde_json::json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": [term]}]}}),
            )
            .await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        r.body
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

fn new_client() -> (reqwest::Client, Arc<Jar>) {
    let jar = Arc::new(Jar::default());
    let client = reqwest::Client::builder().cookie_provider(jar.clone()).build().expect("client");
    (client, jar)
}

pub async fn csrf_of(client: &reqwest::Client, jar: &Jar, base: &str) -> String {
    let url: reqwest::Url = base.parse().expect("url");
    let find = |jar: &Jar| -> Option<String> {
        let header = jar.cookies(&url)?;
        let s = header.to_str().ok()?.to_string();
        s.split("; ").find_map(|kv| kv.strip_prefix("hark_csrf=").map(str::to_string))
    };
    if let Some(t) = find(jar) {
        return t;
    }
    client.get(format!("{base}/api/v1/me")).send().await.expect("me");
    find(jar).expect("csrf cookie set by /me")
}

pub async fn send(req: reqwest::RequestBuilder) -> Response {
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.unwrap_or_default();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Response { status, body }
}

#[cfg(test)]
mod tests {
    use super::replace_db_name;

    #[test]
    fn database_name_is_replaced() {
        assert_eq!(replace_db_name("postgres://postgres@127.0.0.1:5432/test", "x"), "postgres://postgres@127.0.0.1:5432/x");
        assert_eq!(replace_db_name("postgres://h/test?sslmode=disable", "x"), "postgres://h/x?sslmode=disable");
        assert_eq!(replace_db_name("postgres://h", "x"), "postgres://h/x");
    }
}
