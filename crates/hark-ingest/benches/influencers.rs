//! Influencers page benchmark: one tracker of posts over 90 days in each data shape, then the
//! page's first page for a 30-day window (unaligned edges) and All Time in every order and with
//! each filter, a bio search, and the CSV of every account; beside a baseline that computes the
//! same page from the post rows only (`PageFilter::rows_only`), whose answer is compared first.
//!
//! Shapes (`HARK_BENCH_SHAPES`, default all): `demo` (the demo generator's authors: a few dominate),
//! `uniform` (40,000 accounts with equal odds), `zipf` (40,000 accounts, Zipf s = 1.1: heavy-tailed),
//! `real` (equal odds, post texts and bios from the SemEval tweets in ../shared/data).
//!
//! `cargo bench -p hark-ingest --bench influencers` — `HARK_BENCH_POSTS` (default 1,000,000),
//! `HARK_BENCH_REPS` (default 20: p95 is the 19th), `HARK_BENCH_BASE_REPS` (default 3; 0 skips the
//! baseline), `HARK_BENCH_BACKENDS` (default `sqlite,postgres`), `HARK_BENCH_POSTGRES_URL`,
//! `HARK_BENCH_CASES` (words: only the order and filter cases whose label holds one),
//! `HARK_BENCH_ACCOUNTS` (40,000: the accounts of the uniform, zipf and real shapes).

use std::sync::Arc;
use std::time::Instant;

use hark_core::{Platform, PlatformSet, Post};
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare_for, BATCH};
use hark_store::{CountField, CountFilter, InfluencerQuery, InfluencerSort, PageFilter, Store};

const DAY: i64 = 86_400_000;
const NOW: i64 = 1_790_000_000_000;
/// Accounts of the `uniform`, `zipf` and `real` shapes (`HARK_BENCH_ACCOUNTS`).
fn accounts() -> u64 {
    env_usize("HARK_BENCH_ACCOUNTS", 40_000) as u64
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Zipf(s) over 1..=n by inverting its cumulative weights (a table, built once).
struct Zipf(Vec<f64>);
impl Zipf {
    fn new(n: u64, s: f64) -> Self {
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
    fn sample(&self, r: &mut Rng) -> u64 {
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
fn real_texts() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sentiment-semeval-2013-2016/train.tsv");
    std::fs::read_to_string(path)
        .map(|s| s.lines().filter_map(|l| l.splitn(3, '\t').nth(2)).map(|t| t.replace("\\u2019", "'").replace("\\u002c", ",")).collect())
        .unwrap_or_default()
}

/// Gives a post the account `n` of the shape, with its profile.
fn as_account(p: &mut Post, n: u64, texts: &[String], r: &mut Rng) {
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

async fn load(store: &Store, shape: &str, posts: usize) -> i64 {
    let user = store.create_user(&hark_testkit::new_user("bench@example.org"), 0).await.expect("user");
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

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1]
}

async fn time<F, Fut, T>(reps: usize, mut f: F) -> (f64, f64, T)
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

async fn bench(backend: &str, url: &str, shape: &str, posts: usize, reps: usize, base_reps: usize) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    let t = load(&store, shape, posts).await;
    let ranges = [("30 days", Some(NOW - 30 * DAY + 17 * 60_000), Some(NOW - 3 * 60_000)), ("All Time", None, None)];
    let mut worst: (f64, String) = (0.0, String::new());
    for (label, start, end) in ranges {
        let f = PageFilter { platforms: PlatformSet::all(), start, end, ..Default::default() };
        let cold = Instant::now();
        let accounts = store.influencers_page(t, &InfluencerQuery::new(f.clone())).await.expect("page").total;
        let cold = cold.elapsed().as_secs_f64() * 1000.0;
        println!("  {backend} {shape} {label} ({accounts} accounts; first request {cold:.0} ms): case | p50 ms | p95 ms");
        let mut cases: Vec<(String, InfluencerQuery)> = Vec::new();
        for sort in InfluencerSort::ALL {
            cases.push((format!("sort {}", sort.name()), InfluencerQuery { sort, ..InfluencerQuery::new(f.clone()) }));
        }
        cases.push(("sort engagement asc".into(), InfluencerQuery { ascending: true, ..InfluencerQuery::new(f.clone()) }));
        cases.push(("page 40".into(), InfluencerQuery { page: 40, ..InfluencerQuery::new(f.clone()) }));
        let count = |field, greater, count| InfluencerQuery { counts: vec![CountFilter { field, greater, count }], ..InfluencerQuery::new(f.clone()) };
        cases.push(("followers > 10000".into(), count(CountField::Followers, true, 10_000)));
        cases.push(("posts > 3".into(), count(CountField::Posts, true, 3)));
        cases.push(("impressions < 100".into(), count(CountField::Impressions, false, 100)));
        cases.push(("location london".into(), InfluencerQuery { location: "london".into(), ..InfluencerQuery::new(f.clone()) }));
        let only = std::env::var("HARK_BENCH_CASES").ok();
        let wanted = |c: &str| only.as_deref().is_none_or(|o| o.split(',').any(|w| c.contains(w.trim())));
        for (c, q) in cases.iter().filter(|(c, _)| wanted(c)) {
            let (p50, p95, _) = time(reps, || store.influencers_page(t, q)).await;
            println!("  | {c} | {p50:.1} | {p95:.1} |");
            if p95 > worst.0 {
                worst = (p95, format!("{label} {c}"));
            }
        }
        for (c, text) in [("bio search 'love'", "love"), ("search 'account 12'", "account 12")] {
            let q = if c.starts_with("bio") {
                InfluencerQuery { bio: text.into(), ..InfluencerQuery::new(f.clone()) }
            } else {
                InfluencerQuery { search: text.into(), ..InfluencerQuery::new(f.clone()) }
            };
            let (p50, p95, _) = time(reps, || store.influencers_page(t, &q)).await;
            println!("  | {c} | {p50:.1} | {p95:.1} | (search target 150 ms)");
        }
        if base_reps > 0 {
            let q = InfluencerQuery::new(f.clone());
            let rows = InfluencerQuery::new(PageFilter { rows_only: true, ..f.clone() });
            let (fast, _, a) = time(reps, || store.influencers_page(t, &q)).await;
            let (slow, _, b) = time(base_reps, || store.influencers_page(t, &rows)).await;
            let a = a.expect("page");
            let b = b.expect("baseline");
            assert_eq!(a.total, b.total, "baseline total");
            let key = |r: &hark_store::InfluencerRow| (r.platform, r.author.clone(), r.posts, r.engagement, r.reach);
            assert_eq!(a.rows.iter().map(key).collect::<Vec<_>>(), b.rows.iter().map(key).collect::<Vec<_>>(), "baseline rows");
            println!("  | baseline (post rows), engagement desc | {slow:.1} | | ratio {:.1}x |", slow / fast.max(0.001));
        }
        // The CSV: every account ranked, with profiles, written out.
        let (p50, _, n) = time(3, || async {
            let all = store.influencers_all(t, &InfluencerQuery::new(f.clone()), 200_000).await.expect("all");
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in &all {
                w.write_record([r.platform.name(), &r.profile.name, &r.profile.username, r.profile.bio.as_deref().unwrap_or(""), &r.posts.to_string(), &r.engagement.to_string()])
                    .expect("csv");
            }
            (all.len(), w.into_inner().expect("csv").len())
        })
        .await;
        println!("  | CSV of {} accounts ({} bytes) | {p50:.1} | | (target 5 s for 50,000)", n.0, n.1);
    }
    println!("  {backend} {shape}: worst p95 {:.1} ms ({})", worst.0, worst.1);
    store.close().await;
}

fn main() {
    let posts = env_usize("HARK_BENCH_POSTS", 1_000_000);
    let reps = env_usize("HARK_BENCH_REPS", 20);
    let base_reps = env_usize("HARK_BENCH_BASE_REPS", 3);
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let shapes = std::env::var("HARK_BENCH_SHAPES").unwrap_or_else(|_| "demo,uniform,zipf,real".into());
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        for shape in shapes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if backends.contains("sqlite") {
                let dir = tempfile::tempdir().expect("tempdir");
                bench("sqlite", &format!("sqlite://{}", dir.path().join("inf.db").display()), shape, posts, reps, base_reps).await;
            }
            if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), backends.contains("postgres")) {
                let name = format!("hark_inf_bench_{}_{shape}", std::process::id());
                let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
                let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
                bench("postgres", &format!("{base}/{name}"), shape, posts, reps, base_reps).await;
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
            }
        }
    });
}
