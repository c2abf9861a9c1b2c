//! Exports benchmark, through a running server as a browser would ask: the posts CSV of the last
//! 30 days (about 330,000 of 1M posts), streamed, counted row by row, with the process's peak
//! memory growth while it streams; and the XLS workbook of a 30-day dashboard holding about
//! 50,000 posts, and its PDF report (and the report of the 1M-post tracker's last 30 days), each as
//! a background job from the request to its finished file.
//!
//! `cargo bench -p hark-ingest --bench exports` — `HARK_BENCH_POSTS` (default 1,000,000 for the
//! CSV tracker), `HARK_BENCH_XLSX_POSTS` (default 150,000 over 90 days: 50,000 in the last 30),
//! `HARK_BENCH_REPS` (default 3), `HARK_BENCH_SHAPES` and `HARK_BENCH_BACKENDS` as the page
//! benchmarks, `HARK_BENCH_POSTGRES_URL` for PostgreSQL. With `HARK_BENCH_KEEP_DIR` the SQLite
//! database is kept there and a later run reuses its two trackers instead of loading them again.
//!
//! Beside the CSV through the server, the store's stream of the same posts is timed alone
//! (decoded rows, no CSV), so that the two shares of the time can be told apart.

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shapes/mod.rs"]
mod shapes;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hark_store::Store;
use shapes::{load, NOW};

/// The process's resident memory now, in bytes.
fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok()))
        .unwrap_or(0)
        * 1024
}

/// Samples the resident memory every 20 ms until stopped; the highest seen.
struct Peak {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Peak {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(rss()));
        let (s, p) = (stop.clone(), peak.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Self { stop, peak, thread: Some(thread) }
    }

    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.peak.load(Ordering::Relaxed)
    }
}

/// The last 30 days before the generated data's end, as a custom range to the millisecond.
fn last_30_days() -> String {
    format!("start={}&end={}", NOW - 30 * shapes::DAY, NOW)
}

async fn csv_once(base: &str, client: &reqwest::Client, hash: &str) -> (u64, f64, u64) {
    let before = rss();
    let peak = Peak::start();
    let started = Instant::now();
    let mut res = client
        .get(format!("{base}/api/v1/trackers/{hash}/posts/export.csv?{}", last_30_days()))
        .send()
        .await
        .expect("csv");
    assert!(res.status().is_success(), "csv: {}", res.status());
    // Records are counted as they arrive: line ends outside quoted cells (a text may hold line
    // breaks; a doubled quote inside a cell toggles twice).
    let (mut records, mut quoted) = (0u64, false);
    while let Some(chunk) = res.chunk().await.expect("chunk") {
        for b in chunk.iter() {
            match b {
                b'"' => quoted = !quoted,
                b'\n' if !quoted => records += 1,
                _ => {}
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let grew = peak.finish().saturating_sub(before);
    (records.saturating_sub(1), secs, grew)
}

/// One export job of `kind` from the request to its finished file: seconds, bytes, rows.
async fn job_once(base: &str, client: &reqwest::Client, token: &str, hash: &str, kind: &str) -> (f64, u64, u64) {
    let started = Instant::now();
    let created: serde_json::Value = client
        .post(format!("{base}/api/v1/trackers/{hash}/exports?{}", last_30_days()))
        .header("X-CSRF-Token", token)
        .json(&serde_json::json!({"kind": kind, "source": "dashboard", "eri": "Engagements"}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("json");
    let job = created["token"].as_str().expect("token").to_string();
    loop {
        let v: serde_json::Value =
            client.get(format!("{base}/api/v1/exports/{job}")).send().await.expect("job").json().await.expect("json");
        match v["state"].as_str() {
            Some("ready") => {
                let secs = started.elapsed().as_secs_f64();
                return (secs, v["size"].as_u64().unwrap_or(0), v["total"].as_u64().unwrap_or(0).saturating_sub(12));
            }
            Some("failed") => panic!("the {kind} export failed: {v}"),
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

async fn bench(backend: &'static str, url: &str, shape: &str, posts: usize, reps: usize) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    println!("== {backend}, {shape}");
    // A kept database holds the two trackers already (the bench account's first two).
    let kept = match store.user_by_email("bench@example.org").await.expect("user") {
        Some(u) => {
            let (rows, _) = store.trackers_for_user(u.id, 1, 10).await.expect("trackers");
            let mut ids: Vec<i64> = rows.iter().map(|t| t.id).collect();
            ids.sort();
            (ids.len() >= 2).then(|| (ids[0], ids[1]))
        }
        None => None,
    };
    let (big, small) = match kept {
        Some(ids) => {
            println!("  reusing the kept database's trackers");
            ids
        }
        None => {
            let big = load(&store, shape, posts).await;
            let xlsx_posts = shapes::env_usize("HARK_BENCH_XLSX_POSTS", 150_000);
            (big, load(&store, shape, xlsx_posts).await)
        }
    };
    let big_id = big;
    let hash_of = |id: i64| {
        let store = store.clone();
        async move { store.tracker_by_id(id).await.expect("tracker").expect("row").hash }
    };
    let (big, small) = (hash_of(big).await, hash_of(small).await);
    let (base, client, token) = shapes::serve(&store).await;
    let total: serde_json::Value = client
        .get(format!("{base}/api/v1/trackers/{big}/posts?{}&perPage=1", last_30_days()))
        .send()
        .await
        .expect("total")
        .json()
        .await
        .expect("json");
    println!("  CSV, last 30 days of {posts} posts ({} posts in the range):", total["total"]);
    let mut rates = Vec::new();
    for i in 0..reps {
        let (rows, secs, grew) = csv_once(&base, &client, &big).await;
        let rate = rows as f64 / secs;
        rates.push(rate);
        println!("    run {}: {rows} rows in {secs:.2} s = {rate:.0} rows/s, peak memory growth {:.0} MB", i + 1, grew as f64 / 1e6);
    }
    println!("  CSV median: {:.0} rows/s (target >= 100,000)", shapes::pct(&mut rates, 0.5));
    // The store's share: the same posts streamed and decoded, no CSV.
    let mut rates = Vec::new();
    for i in 0..reps {
        let filter = hark_store::PageFilter {
            platforms: hark_core::PlatformSet::all(),
            start: Some(NOW - 30 * shapes::DAY),
            end: Some(NOW),
            ..Default::default()
        };
        let q = hark_store::PostQuery { filter, per_page: 50, page: 1, ..Default::default() };
        let (tx, mut rx) = tokio::sync::mpsc::channel(2);
        let started = Instant::now();
        let s = store.clone();
        let reader = tokio::spawn(async move { s.stream_posts(big_id, &q, 1_000_000, 1000, tx).await });
        let mut rows = 0usize;
        while let Some(batch) = rx.recv().await {
            rows += batch.len();
        }
        reader.await.expect("join").expect("stream");
        let secs = started.elapsed().as_secs_f64();
        rates.push(rows as f64 / secs);
        println!("    store stream run {}: {rows} rows in {secs:.2} s = {:.0} rows/s", i + 1, rows as f64 / secs);
    }
    println!("  store stream median: {:.0} rows/s", shapes::pct(&mut rates, 0.5));
    let mut secs = Vec::new();
    for i in 0..reps {
        let (s, size, rows) = job_once(&base, &client, &token, &small, "xlsx").await;
        secs.push(s);
        println!("    XLSX run {}: {rows} posts, {:.1} MB in {s:.2} s", i + 1, size as f64 / 1e6);
    }
    println!("  XLSX median: {:.2} s (target <= 5 s)", shapes::pct(&mut secs, 0.5));
    // The report of the same 30-day dashboard, and of the last 30 days of 1M posts.
    for (label, hash) in [("50,000-post", &small), ("1M-post", &big)] {
        let mut secs = Vec::new();
        for i in 0..reps {
            let (s, size, _) = job_once(&base, &client, &token, hash, "pdf").await;
            secs.push(s);
            println!("    PDF run {} ({label} tracker): {:.0} KB in {s:.2} s", i + 1, size as f64 / 1e3);
        }
        println!("  PDF median ({label} tracker): {:.2} s (target <= 3 s)", shapes::pct(&mut secs, 0.5));
    }
    store.close().await;
}

fn main() {
    let posts = shapes::env_usize("HARK_BENCH_POSTS", 1_000_000);
    let reps = shapes::env_usize("HARK_BENCH_REPS", 3);
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let shape_list = std::env::var("HARK_BENCH_SHAPES").unwrap_or_else(|_| "demo,uniform,zipf,real".into());
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        for shape in shape_list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            shapes::each_backend(&backends, &format!("exports_{shape}"), |backend, url| {
                let shape = shape.to_string();
                async move { bench(backend, &url, &shape, posts, reps).await }
            })
            .await;
        }
    });
}
