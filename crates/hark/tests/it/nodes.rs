//! Several servers on one PostgreSQL database, as a cluster runs: a session, its CSRF token and a
//! share link work on whichever server a request reaches; answers one server keeps are not stale
//! after another server collected posts; and a server killed with SIGKILL in the middle of a
//! backfill, an export or a re-analysis has the job taken over by another within 30 seconds and
//! finished once, with exact post counts and rollups equal to a recount from the rows.
//!
//! The cluster runs as documented: collected posts go through an ingest log on a NATS JetStream
//! server of the test's own (when the machine has nats-server), so the posts of the killed
//! server's last page are redelivered, not lost; and two servers killed while they hold messages
//! of a burst in the log leave every post written once.
//!
//! Runs when `HARK_TEST_POSTGRES_URL` is set (as `make test` does).

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use hark_store::{Backend, Store};
use hark_testkit::{csrf_of, send, Response, TestDb};
use serde_json::{json, Value};

/// Tweets the fake X serves: every fourth one says "decaf".
const TWEETS: u64 = 2_000;
const TOKEN: &str = "cluster-token";
/// A job of a killed server must move on within this.
const TAKEOVER: Duration = Duration::from_secs(30);

/// X's recent search, enough for a backfill: `TWEETS` tweets about coffee two days old, newest
/// first, a page of `max_results` per request with a `next_token`, each page after `delay`.
/// Sweeps without a time range (polling) find nothing, so only the backfill collects.
async fn fake_x(delay: Duration) -> (String, Arc<Mutex<u64>>) {
    #[derive(Clone)]
    struct S {
        delay: Duration,
        requests: Arc<Mutex<u64>>,
    }
    async fn search(State(s): State<S>, Query(q): Query<HashMap<String, String>>) -> axum::response::Response {
        *s.requests.lock().unwrap() += 1;
        tokio::time::sleep(s.delay).await;
        if !q.contains_key("start_time") {
            return Json(json!({"meta": {"result_count": 0}})).into_response();
        }
        let max: u64 = q.get("max_results").and_then(|m| m.parse().ok()).unwrap_or(10);
        let below: u64 = q.get("next_token").and_then(|t| t.strip_prefix("p")).and_then(|v| v.parse().ok()).unwrap_or(TWEETS + 1);
        let ids: Vec<u64> = (1..below).rev().take(max as usize).collect();
        let at = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(48);
        let data: Vec<Value> = ids
            .iter()
            .map(|id| {
                let text = if id % 4 == 0 { format!("decaf coffee number {id}") } else { format!("coffee number {id}, lovely") };
                let created = (at - jiff::SignedDuration::from_secs(*id as i64 * 30)).to_string();
                json!({"id": id.to_string(), "text": text, "author_id": format!("{}", 500 + id % 9), "created_at": created,
                       "edit_history_tweet_ids": [id.to_string()], "lang": "en",
                       "public_metrics": {"retweet_count": id % 3, "reply_count": 0, "like_count": id % 5, "quote_count": 0, "impression_count": 50}})
            })
            .collect();
        let users: Vec<Value> = (0..9)
            .map(|i| json!({"id": format!("{}", 500 + i), "name": format!("Drinker {i}"), "username": format!("drinker{i}"),
                            "verified": false, "public_metrics": {"followers_count": 10 * i, "following_count": 1, "tweet_count": 5, "listed_count": 0}}))
            .collect();
        let mut meta = json!({"result_count": ids.len()});
        if let (Some(first), Some(last)) = (ids.first(), ids.last()) {
            meta["newest_id"] = json!(first.to_string());
            meta["oldest_id"] = json!(last.to_string());
            if *last > 1 {
                meta["next_token"] = json!(format!("p{last}"));
            }
        }
        Json(json!({"data": data, "includes": {"users": users}, "meta": meta})).into_response()
    }
    let requests = Arc::new(Mutex::new(0));
    let router = Router::new().route("/2/tweets/search/recent", get(search)).with_state(S { delay, requests: requests.clone() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, requests)
}

/// One `hark serve` process of the cluster.
struct Node {
    child: Child,
    base: String,
}

impl Node {
    fn pid(&self) -> u32 {
        self.child.id()
    }
}

struct Cluster {
    url: String,
    nats: Option<String>,
    dir: tempfile::TempDir,
    nodes: Vec<Node>,
    started: usize,
}

impl Cluster {
    fn start(url: &str, nats: Option<String>, n: usize) -> Cluster {
        let mut c = Cluster { url: url.to_string(), nats, dir: tempfile::tempdir().unwrap(), nodes: vec![], started: 0 };
        for _ in 0..n {
            c.add();
        }
        c
    }

    /// Starts one more server on the database.
    fn add(&mut self) {
        self.started += 1;
        let data = self.dir.path().join(format!("node{}", self.started));
        std::fs::create_dir_all(&data).unwrap();
        let log = self.dir.path().join(format!("node{}.log", self.started));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hark"));
        if let Some(nats) = &self.nats {
            cmd.env("HARK_NATS_URL", nats);
        }
        let mut child = cmd
            .args(["serve", "--bind", "127.0.0.1:0", "--no-demo", "--web-dir", "/nonexistent"])
            .arg("--data-dir")
            .arg(&data)
            .env("HARK_DATABASE_URL", &self.url)
            // Every server of a cluster has the same key (connector secrets are sealed with it).
            .env("HARK_SECRET_KEY", "6b".repeat(32))
            .env("HARK_LOG", "info")
            .env("HARK_COLLECT_INTERVAL", "3600")
            .env("HARK_EXPORT_STEP_DELAY_MS", "1000")
            .env("HARK_REANALYSIS_PAGE_SIZE", "100")
            .env("HARK_REANALYSIS_PAGE_DELAY_MS", "700")
            // Log messages are taken one at a time and held 300 ms before they are written, so a
            // burst is spread over the servers and a killed one dies holding a message.
            .env("HARK_INGEST_LOG_BATCH", "1")
            .env("HARK_INGEST_LOG_DELAY_MS", "300")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("start hark serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let base = first.trim().rsplit(' ').next().unwrap_or_default().to_string();
        assert!(base.starts_with("http://127.0.0.1:"), "{first}");
        // Keep reading what it prints, so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in out.lines() {});
        self.nodes.push(Node { child, base });
    }

    /// SIGKILLs the server with process id `pid` and starts a new one in its place.
    fn kill(&mut self, pid: u32) -> String {
        let i = self.nodes.iter().position(|n| n.pid() == pid).unwrap_or_else(|| panic!("no server has pid {pid}"));
        let mut node = self.nodes.remove(i);
        node.child.kill().unwrap();
        node.child.wait().unwrap();
        self.add();
        node.base
    }

    fn base(&self, i: usize) -> &str {
        &self.nodes[i % self.nodes.len()].base
    }

    fn logs(&self) -> String {
        let mut s = String::new();
        for i in 1..=self.started {
            let text = std::fs::read_to_string(self.dir.path().join(format!("node{i}.log"))).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            s += &format!("--- node{i} ---\n{}\n", tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
        }
        s
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for n in &mut self.nodes {
            let _ = n.child.kill();
            let _ = n.child.wait();
        }
    }
}

/// A browser: one cookie jar for every server (cookies are per host, not per port).
struct Browser {
    client: reqwest::Client,
    jar: Arc<reqwest::cookie::Jar>,
}

impl Browser {
    fn new() -> Browser {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        let client = reqwest::Client::builder().cookie_provider(jar.clone()).build().unwrap();
        Browser { client, jar }
    }

    async fn get(&self, base: &str, path: &str) -> Response {
        send(self.client.get(format!("{base}{path}"))).await
    }

    async fn send(&self, base: &str, method: &str, path: &str, body: Value) -> Response {
        let token = csrf_of(&self.client, &self.jar, base).await;
        send(self.client.request(method.parse().unwrap(), format!("{base}{path}")).header("X-CSRF-Token", token).json(&body)).await
    }
}

/// The test's own look at the database.
struct Db {
    store: Store,
    pg: sqlx::PgPool,
}

/// One number from the database.
async fn scalar(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql).fetch_one(&db.pg).await.unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// One text from the database, or None.
async fn text(db: &Db, sql: &str) -> Option<String> {
    let row: Option<Option<String>> = sqlx::query_scalar(sql).fetch_optional(&db.pg).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    row.flatten()
}

/// The process id in a lease owner's name (`node-PID-…`, `exports-PID-…`, `reanalysis-PID-…`).
fn owner_pid(owner: &str) -> u32 {
    owner.split('-').nth(1).and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("no pid in {owner:?}"))
}

/// Waits for `sql`'s text to be present and satisfy `ok`, for at most `limit`.
async fn wait_text(store: &Db, sql: &str, limit: Duration, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        if let Some(t) = text(store, sql).await.filter(|t| ok(t)) {
            return t;
        }
        assert!(start.elapsed() < limit, "waited {limit:?} for {sql}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_servers_share_sessions_and_take_over_a_killed_servers_jobs() {
    if std::env::var("HARK_TEST_POSTGRES_URL").map_or(true, |u| u.is_empty()) {
        eprintln!("HARK_TEST_POSTGRES_URL not set: the cluster test needs PostgreSQL; skipped");
        return;
    }
    let test_db = TestDb::new(Backend::Postgres).await;
    let db = Db { store: test_db.store().await, pg: sqlx::PgPool::connect(&test_db.url).await.unwrap() };
    let (x, _requests) = fake_x(Duration::from_millis(300)).await;
    let nats = hark_testkit::NatsServer::start();
    let mut cluster = Cluster::start(&test_db.url, nats.as_ref().map(|n| n.url()), 3);
    let result = tokio::time::timeout(Duration::from_secs(240), scenario(&db, &mut cluster, &x)).await;
    if result.is_err() {
        panic!("the cluster scenario took over 4 minutes\n{}", cluster.logs());
    }
    db.pg.close().await;
    db.store.close().await;
}

async fn scenario(store: &Db, cluster: &mut Cluster, x: &str) {
    let me = Browser::new();
    // Set up on one server, then every request goes to another one: the session and the CSRF
    // token are the database's and the cookie's, not a server's.
    let r = me.send(cluster.base(0), "POST", "/api/v1/setup", json!({"email": "ops@example.org", "password": "password123", "name": "Ops"})).await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(me.get(cluster.base(1), "/api/v1/me").await.body["email"], "ops@example.org");
    let r = me
        .send(cluster.base(1), "PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": TOKEN}}))
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let r = me
        .send(cluster.base(2), "POST", "/api/v1/trackers", json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]}}))
        .await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    let hash = r.body["hash"].as_str().unwrap().to_string();
    let id = store.store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
    // A request without the token is refused on every server alike.
    let bare = send(me.client.post(format!("{}/api/v1/trackers/{hash}/pause", cluster.base(0)))).await;
    assert_eq!(bare.status, 403, "{:?}", bare.body);

    // The share link made on one server opens the tracker, signed out, on the others.
    let share = me.get(cluster.base(0), &format!("/api/v1/trackers/{hash}/share")).await;
    let key = share.body["shareHash"].as_str().expect("share hash").to_string();
    let visitor = Browser::new();
    for i in 1..3 {
        let seen = visitor.get(cluster.base(i), &format!("/api/v1/trackers/{hash}?shareHash={key}")).await;
        assert_eq!(seen.status, 200, "{:?}", seen.body);
    }
    // Server 0 answers (and keeps) the dashboard's totals before anything is collected.
    let stats = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all");
    assert_eq!(me.get(cluster.base(0), &stats).await.body["posts"], 0);

    // A backfill: 20 pages of 100 tweets, a page every 300 ms or so. The server holding it is
    // killed after three pages.
    let today = jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::UTC).date();
    let day = |n: i64| (today - jiff::Span::new().days(n)).to_string();
    let r = me.send(cluster.base(1), "POST", &format!("/api/v1/trackers/{hash}/backfill"), json!({"start": day(5), "end": day(1)})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let job = "SELECT lease_owner FROM collection_jobs WHERE kind = 'backfill'";
    wait_text(store, "SELECT CAST(pages AS TEXT) FROM collection_jobs WHERE kind = 'backfill'", Duration::from_secs(60), |p| p.parse::<i64>().unwrap_or(0) >= 3).await;
    let took = kill_the_holder(store, cluster, job).await;
    wait_text(store, "SELECT state FROM collection_jobs WHERE kind = 'backfill'", Duration::from_secs(60), |s| s == "done").await;
    // The last pages may still be in the ingest log: written within seconds by any server.
    let start = Instant::now();
    while store.store.count_links(id).await.unwrap() < TWEETS as i64 {
        assert!(start.elapsed() < Duration::from_secs(60), "posts still missing from the log");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Each page counted once: the page the killed server was on is fetched again, not counted twice.
    assert_eq!(scalar(store, "SELECT pages FROM collection_jobs WHERE kind = 'backfill'").await, TWEETS as i64 / 100);
    assert_eq!(scalar(store, "SELECT posts_collected FROM collection_jobs WHERE kind = 'backfill'").await, TWEETS as i64);
    assert_eq!(scalar(store, "SELECT COUNT(*) FROM posts").await, TWEETS as i64);
    assert_eq!(store.store.count_links(id).await.unwrap(), TWEETS as i64);
    assert_eq!(scalar(store, "SELECT COUNT(*) FROM (SELECT post_key FROM posts GROUP BY post_key HAVING COUNT(*) > 1) d").await, 0);
    assert_rollups_agree(&store.store, id, TWEETS as i64).await;
    // Server 0 kept the empty answer; the tracker's version moved, so it answers anew.
    assert_eq!(me.get(cluster.base(0), &stats).await.body["posts"], TWEETS as i64, "a kept answer was stale");
    eprintln!("backfill taken over {took:?} after its server was killed");

    // An export: an XLS of every post, a pause at each step; its server is killed midway.
    let r = me.send(cluster.base(2), "POST", &format!("/api/v1/trackers/{hash}/exports?days=all"), json!({"kind": "xlsx", "source": "dashboard"})).await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    let token = r.body["token"].as_str().unwrap().to_string();
    let export = format!("SELECT lease_owner FROM export_jobs WHERE token = '{token}'");
    wait_text(store, &format!("SELECT CAST(progress_done AS TEXT) FROM export_jobs WHERE token = '{token}'"), Duration::from_secs(60), |d| d != "0").await;
    let took = kill_the_holder(store, cluster, &export).await;
    let start = Instant::now();
    let done = loop {
        let r = me.get(cluster.base(0), &format!("/api/v1/exports/{token}")).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        if r.body["state"] == "ready" || r.body["state"] == "failed" {
            break r.body;
        }
        assert!(start.elapsed() < Duration::from_secs(90), "the export did not finish: {:?}", r.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(done["state"], "ready", "{done:?}");
    assert_eq!(scalar(store, &format!("SELECT attempts FROM export_jobs WHERE token = '{token}'")).await, 2, "made by two workers, finished by one");
    let file = me.client.get(format!("{}{}", cluster.base(1), done["fileUrl"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(file.status().as_u16(), 200);
    let bytes = file.bytes().await.unwrap();
    assert!(bytes.starts_with(b"PK"), "an XLSX file");
    eprintln!("export taken over {took:?} after its server was killed");

    // A re-analysis that drops the decaf posts: 20 pages of 100, a pause after each; its server
    // is killed after three pages, and the next goes on from the last saved page.
    let r = me
        .send(
            cluster.base(0),
            "PATCH",
            &format!("/api/v1/trackers/{hash}"),
            json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}, {"type": "-", "searches": ["decaf"]}]}, "mode": "reanalyze"}),
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let edit = format!("SELECT lease_owner FROM tracker_edits WHERE tracker_id = {id} AND mode = 'reanalyze'");
    wait_text(store, &format!("SELECT CAST(processed AS TEXT) FROM tracker_edits WHERE tracker_id = {id} AND mode = 'reanalyze'"), Duration::from_secs(60), |p| {
        p.parse::<i64>().unwrap_or(0) >= 300
    })
    .await;
    let took = kill_the_holder(store, cluster, &edit).await;
    wait_text(
        store,
        &format!("SELECT CAST(applied_at AS TEXT) FROM tracker_edits WHERE tracker_id = {id} AND mode = 'reanalyze'"),
        Duration::from_secs(60),
        |_| true,
    )
    .await;
    let kept = TWEETS as i64 - TWEETS as i64 / 4;
    // Read once each from the last saved page on; a page the killed server had changed but not
    // saved yet is read again without the posts it already removed.
    let processed = scalar(store, &format!("SELECT processed FROM tracker_edits WHERE tracker_id = {id} AND mode = 'reanalyze'")).await;
    assert!((TWEETS as i64 - 100..=TWEETS as i64).contains(&processed), "processed {processed}");
    assert_eq!(store.store.count_links(id).await.unwrap(), kept);
    assert_rollups_agree(&store.store, id, kept).await;
    assert_eq!(me.get(cluster.base(2), &stats).await.body["posts"], kept);
    eprintln!("re-analysis taken over {took:?} after its server was killed");

    // A burst in the ingest log while the servers writing it die: 30 messages of 100 posts,
    // taken one at a time by the three servers; two servers are killed while they hold messages,
    // which come back to the others after the acknowledgement wait.
    if let Some(url) = cluster.nats.clone() {
        let log = hark_ingest::log::IngestLog::connect(&url, hark_ingest::log::DEFAULT_STREAM).await.unwrap();
        let before = store.store.count_links(id).await.unwrap();
        let now = hark_core::now_millis();
        for m in 0..30u32 {
            let posts = (0..100u32)
                .map(|i| {
                    let mut p = hark_core::Post::new(hark_core::Platform::Twitter, format!("log-{m}-{i}"), format!("coffee from the log {m} {i}"), now - i64::from(i));
                    p.author.username = format!("reader{}", i % 13);
                    p
                })
                .collect();
            log.publish(Some(id), posts).await.unwrap();
        }
        let start = Instant::now();
        while store.store.count_links(id).await.unwrap() == before {
            assert!(start.elapsed() < Duration::from_secs(30), "nothing taken from the log");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let killed_at = Instant::now();
        for _ in 0..2 {
            let pid = cluster.nodes[0].pid();
            cluster.kill(pid);
        }
        let total = before + 3000;
        while store.store.count_links(id).await.unwrap() < total {
            assert!(start.elapsed() < Duration::from_secs(120), "posts of the log lost: {} of {total}", store.store.count_links(id).await.unwrap());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let took = killed_at.elapsed();
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(store.store.count_links(id).await.unwrap(), total);
        assert_eq!(scalar(store, "SELECT COUNT(*) FROM (SELECT post_key FROM posts GROUP BY post_key HAVING COUNT(*) > 1) d").await, 0);
        assert_rollups_agree(&store.store, id, total).await;
        let mut redelivered = 0;
        for i in 0..cluster.nodes.len() {
            redelivered += me.get(cluster.base(i), "/healthz").await.body["nats"]["redelivered"].as_u64().unwrap();
        }
        assert!(redelivered >= 1, "the killed servers held no message");
        eprintln!("ingest log: {redelivered} messages redelivered after two servers were killed; all written {took:?} after");
    }

    // Every server reports itself healthy, with nothing left waiting.
    for i in 0..cluster.nodes.len() {
        let h = me.get(cluster.base(i), "/healthz").await;
        assert_eq!((h.status, h.body["status"].as_str()), (200, Some("ok")), "{:?}", h.body);
        assert_eq!(h.body["node"], cluster.base(i).trim_start_matches("http://"));
        assert_eq!(h.body["jobs"]["exports"]["waiting"], 0);
        assert_eq!(h.body["jobs"]["reanalyses"]["waiting"], 0);
        assert_eq!(h.body["nats"]["configured"], cluster.nats.is_some());
    }
}

/// Kills the server named in the lease `sql` reads (with a new one started in its place) and
/// waits for another server's worker to hold the lease: how long that took, under [`TAKEOVER`].
async fn kill_the_holder(store: &Db, cluster: &mut Cluster, sql: &str) -> Duration {
    let holder = wait_text(store, sql, Duration::from_secs(10), |_| true).await;
    let killed_at = Instant::now();
    cluster.kill(owner_pid(&holder));
    let next = wait_text(store, sql, TAKEOVER, |o| o != holder).await;
    let took = killed_at.elapsed();
    assert!(took < TAKEOVER, "{sql}: taken over after {took:?}");
    assert_ne!(owner_pid(&next), owner_pid(&holder));
    took
}

/// The tracker's rollups count `n` posts, and their sentiment agrees with a recount of the rows.
async fn assert_rollups_agree(store: &Store, tracker: i64, n: i64) {
    let (posts, _) = store.rollup_totals(tracker).await.unwrap();
    assert_eq!(posts, n, "rollup posts");
    let (rollups, links) = store.sentiment_counts_both_ways(tracker).await.unwrap();
    assert_eq!(rollups, links, "rollups against the rows");
    assert_eq!(links.values().sum::<i64>(), n);
}
