//! What the page benchmarks share: the data shapes (the demo generator's, equally active accounts,
//! heavy-tailed accounts, real tweet texts), loading one tracker of them, timing with percentiles,
//! and a database per backend.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Instant;

use hark_core::{Platform, PlatformSet, Post};
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare_for, BATCH};
use hark_store::Store;

pub const DAY: i64 = 86_400_000;
pub const NOW: i64 = 1_790_000_000_000;
/// Accounts of the `uniform`, `zipf` and `real` shapes (`HARK_BENCH_ACCOUNTS`).
pub fn accounts() -> u64 {
    env_usize("HARK_BENCH_ACCOUNTS", 40_000) as u64
}

pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Zipf(s) over 1..=n by inverting its cumulative weights (a table, built once).
pub struct Zipf(Vec<f64>);
impl Zipf {
    pub fn new(n: u64, s: f64) -> Self {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (1..=n).map(|k| {
            acc += 1.0 / (k as f64).powf(s);
            acc
        }).collect();
        for c in &mut cdf {
            *c /= acc;
        }
        Zipf(cdf)
    }
    pub fn sample(&self, r: &mut Rng) -> u64 {
        let u = r.unit();
        self.0.partition_point(|c| *c < u) as u64
    }
}

const BIOS: [&str; 6] = [
    "Coffee lover and marketer",
    "Tech writer. Opinions my own",
    "Barista in São Paulo",
    "Runner, reader, dad",
    "News and views on markets",
    "Photographer — travel & food",
];
const PLACES: [&str; 5] = ["London", "New York", "Zürich", "Lisboa", "Tokyo"];

/// The SemEval tweet texts (`real`), or none when the data is not there.
pub fn real_texts() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sentiment-semeval-2013-2016/train.tsv");
    std::fs::read_to_string(path)
        .map(|s| s.lines().filter_map(|l| l.splitn(3, '\t').nth(2)).map(|t| t.replace("\\u2019", "'").replace("\\u002c", ",")).collect())
        .unwrap_or_default()
}

/// Gives a post the account `n` of the shape, with its profile.
pub fn as_account(p: &mut Post, n: u64, texts: &[String], r: &mut Rng) {
    p.author.id = format!("{n}");
    p.author.username = format!("acct{n}");
    p.author.name = format!("Account {n}");
    // Followers heavy-tailed by account, fixed per account.
    let h = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    p.author.followers = Some(((h % 1000) * (h % 1000) / 10) as i64 + 10);
    p.author.location = Some(PLACES[(n % 5) as usize].to_string());
    p.author.bio = Some(if texts.is_empty() { BIOS[(n % 6) as usize].to_string() } else { texts[(n as usize * 7) % texts.len()].clone() });
    if !texts.is_empty() {
        p.text = texts[(r.next() % texts.len() as u64) as usize].clone();
    }
    p.platform = if n % 10 < 7 { Platform::Twitter } else { Platform::Instagram };
}

pub async fn load(store: &Store, shape: &str, posts: usize) -> i64 {
    // One account owns every tracker a benchmark loads.
    let user = match store.user_by_email("bench@example.org").await.expect("user") {
        Some(u) => u,
        None => store.create_user(&hark_testkit::new_user("bench@example.org"), 0).await.expect("user"),
    };
    let c = demo_criteria();
    let json = serde_json::to_string(&c).expect("json");
    let t = store
        .create_tracker(&hark_testkit::new_tracker("influencers bench", user.id, PlatformSet::all().bits(), json.clone()), 0)
        .await
        .expect("tracker");
    let matcher = Arc::new(compile(&[(t.id, json)]).expect("compile"));
    let texts = Arc::new(if shape == "real" { real_texts() } else { Vec::new() });
    if shape == "real" && texts.is_empty() {
        println!("  (../shared/data not found: real texts replaced by generated ones)");
    }
    let zipf = Arc::new(Zipf::new(accounts(), 1.1));
    let start = Instant::now();
    let mut gen = DemoGenerator::new(42);
    let mut it = gen.generate(NOW - 90 * DAY, NOW, posts);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    loop {
        let mut batch: Vec<Post> = it.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            break;
        }
        for p in &mut batch {
            match shape {
                "uniform" | "real" => {
                    let n = rng.next() % accounts();
                    as_account(p, n, &texts, &mut rng);
                }
                "zipf" => {
                    let n = zipf.sample(&mut rng);
                    as_account(p, n, &texts, &mut rng);
                }
                _ => {}
            }
        }
        let m = matcher.clone();
        let tid = t.id;
        // As a platform's search returns posts for the tracker: one whose text lacks the terms
        // (the real tweets) joins it as an indirect match.
        let records = tokio::task::spawn_blocking(move || prepare_for(&m, &batch, Some(tid)))
        .await
        .expect("prepare");
        store.ingest_batch(&records, 1).await.expect("ingest");
    }
    if store.backend() == hark_store::Backend::Postgres {
        store.analyze().await.expect("analyze");
    }
    println!("  loaded {posts} {shape} posts in {:.0}s", start.elapsed().as_secs_f64());
    t.id
}

pub fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1]
}

pub async fn time<F, Fut, T>(reps: usize, mut f: F) -> (f64, f64, T)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let mut ms = Vec::with_capacity(reps);
    let mut last = None;
    for _ in 0..reps.max(1) {
        let s = Instant::now();
        last = Some(f().await);
        ms.push(s.elapsed().as_secs_f64() * 1000.0);
    }
    (pct(&mut ms.clone(), 0.5), pct(&mut ms, 0.95), last.expect("one run"))
}


/// Runs `bench(backend, url)` on a fresh SQLite file and, when `HARK_BENCH_POSTGRES_URL` is set
/// and `backends` names it, on a fresh PostgreSQL database (dropped afterwards).
pub async fn each_backend<F, Fut>(backends: &str, label: &str, mut bench: F)
where
    F: FnMut(&'static str, String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    if backends.contains("sqlite") {
        // `HARK_BENCH_KEEP_DIR`: the SQLite file is kept there (`{label}.db`) for the next run,
        // which may skip loading (the benchmarks that support it say so).
        match std::env::var("HARK_BENCH_KEEP_DIR") {
            Ok(dir) => {
                std::fs::create_dir_all(&dir).expect("keep dir");
                bench("sqlite", format!("sqlite://{dir}/{label}.db")).await;
            }
            Err(_) => {
                let dir = tempfile::tempdir().expect("tempdir");
                bench("sqlite", format!("sqlite://{}", dir.path().join("bench.db").display())).await;
            }
        }
    }
    if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), backends.contains("postgres")) {
        // With `HARK_BENCH_KEEP_DIR` the database keeps a fixed name and stays for the next run.
        let keep = std::env::var("HARK_BENCH_KEEP_DIR").is_ok();
        let name = if keep { format!("hark_{label}_bench_kept") } else { format!("hark_{label}_bench_{}", std::process::id()) };
        let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
        let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut c)
            .await
            .expect("pg_database");
        if !exists {
            sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
        }
        let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
        bench("postgres", format!("{base}/{name}")).await;
        if !keep {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
        }
    }
}

/// What every run of a page benchmark shares (`HARK_BENCH_POSTS`, `HARK_BENCH_REPS`,
/// `HARK_BENCH_BASE_REPS`).
#[derive(Debug, Clone, Copy)]
pub struct Run {
    pub posts: usize,
    pub reps: usize,
    pub base_reps: usize,
}

/// A page benchmark's `main`: `bench(backend, database url, shape, run)` for each shape of
/// `HARK_BENCH_SHAPES` (default all four) on each backend of `HARK_BENCH_BACKENDS` (default both).
pub fn main_with<F, Fut>(label: &str, bench: F)
where
    F: Fn(&'static str, String, String, Run) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let run = Run {
        posts: env_usize("HARK_BENCH_POSTS", 1_000_000),
        reps: env_usize("HARK_BENCH_REPS", 20),
        base_reps: env_usize("HARK_BENCH_BASE_REPS", 3),
    };
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let shapes = std::env::var("HARK_BENCH_SHAPES").unwrap_or_else(|_| "demo,uniform,zipf,real".into());
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        for shape in shapes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            each_backend(&backends, &format!("{label}_{shape}"), |backend, url| bench(backend, url, shape.to_string(), run)).await;
        }
    });
}

/// A server on the store, and a browser signed in as its instance administrator.
pub async fn serve(store: &Store) -> (String, reqwest::Client, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let state = hark_api::AppState::new(store.clone(), hark_api::ApiConfig::default());
    tokio::spawn(async move {
        let _ = hark_api::serve(listener, state, std::future::pending()).await;
    });
    let client = reqwest::Client::builder().cookie_store(true).build().expect("client");
    let csrf = |r: &reqwest::Response| r.cookies().find(|c| c.name() == "hark_csrf").map(|c| c.value().to_string());
    // The first answer sets the CSRF cookie; its value goes back in the header.
    let me = client.get(format!("{base}/api/v1/me")).send().await.expect("me");
    let token = csrf(&me).expect("the CSRF cookie");
    let password = hark_api::auth::hash_password("password123").expect("hash");
    // A kept database has the account already.
    if store.user_by_email("admin@example.org").await.expect("admin").is_none() {
        store
            .create_user(&hark_api::routes::session::self_hosted_user("admin@example.org".into(), password, "Admin".into(), true), 0)
            .await
            .expect("admin");
    }
    let login = client
        .post(format!("{base}/api/v1/auth/login"))
        .header("X-CSRF-Token", &token)
        .json(&serde_json::json!({"email": "admin@example.org", "password": "password123"}))
        .send()
        .await
        .expect("login");
    assert!(login.status().is_success(), "login: {}", login.status());
    let token = csrf(&login).unwrap_or(token);
    (base, client, token)
}
