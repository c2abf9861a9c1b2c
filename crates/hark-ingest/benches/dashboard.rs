//! Dashboard benchmark: demo posts over 90 days are ingested for one tracker, then every panel
//! request of the dashboard is timed for a 30-day window (unaligned edges, as a relative window
//! has) and for All Time, on the rollup path the API uses and on a baseline that answers the same
//! questions from the post rows only (`PageFilter::rows_only`). Answers of both paths are
//! compared before timing.
//!
//! `cargo bench -p hark-ingest --bench dashboard` — `HARK_BENCH_POSTS` (default 1,000,000) or
//! `HARK_BENCH_SIZES` (a comma list, e.g. `1000000,10000000`: one tracker per size, loaded and
//! timed in turn, its database dropped after), `HARK_BENCH_REPS` rollup-path repetitions (default
//! 20), `HARK_BENCH_BASE_REPS` (default 3; 0 skips the baseline and its check, for iterating),
//! `HARK_BENCH_GROUPS` / `HARK_BENCH_RANGES` comma lists to time only some groups / ranges
//! (`30 days`, `All Time`), `HARK_BENCH_POSTGRES_URL` to run PostgreSQL beside
//! SQLite, `HARK_BENCH_BACKENDS` (default `sqlite,postgres`) to run only one of them,
//! `HARK_BENCH_DIR` for the SQLite file (default: a temporary directory), `HARK_BENCH_KEEP` a path
//! where the (first) SQLite database is kept instead, its tracker marked as the public demo so
//! that `web/e2e-bench/dashboard-load.mjs` can open its dashboard in a browser; with
//! `HARK_BENCH_REUSE=1` a kept database that exists is timed again without loading (its first
//! tracker; `HARK_BENCH_NOW` gives the end of its 90 days, which the first run printed).
//! `HARK_BENCH_PG_KEEP` names a PostgreSQL database to keep, timed again without loading when it
//! exists.

use std::sync::Arc;
use std::time::Instant;

use hark_core::Post;
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare, BATCH};
use hark_store::{PageFilter, Store};

const DAY: i64 = 86_400_000;
/// The end of the generated 90 days: fixed, or the current minute when the database is kept for
/// the browser (so that its relative windows hold posts).
fn now() -> i64 {
    static NOW: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *NOW.get_or_init(|| {
        if let Some(t) = std::env::var("HARK_BENCH_NOW").ok().and_then(|v| v.parse().ok()) {
            return t;
        }
        match std::env::var_os("HARK_BENCH_KEEP") {
            Some(_) => hark_core::now_millis() / 60_000 * 60_000,
            None => 1_790_000_000_000,
        }
    })
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

async fn load(store: &Store, posts: usize) -> i64 {
    let user = store
        .create_user(
            &hark_testkit::new_user("bench@example.org"),
            0,
        )
        .await
        .expect("user");
    let c = demo_criteria();
    let json = serde_json::to_string(&c).expect("json");
    let t = store
        .create_tracker(
            &hark_testkit::new_tracker("dashboard bench", user.id, c.platforms.bits(), json.clone()),
            0,
        )
        .await
        .expect("tracker");
    let matcher = Arc::new(compile(&[(t.id, json)]).expect("compile"));
    let start = Instant::now();
    let mut gen = DemoGenerator::new(42);
    let mut it = gen.generate(now() - 90 * DAY, now(), posts);
    let mut done = 0;
    loop {
        let batch: Vec<Post> = it.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let m = matcher.clone();
        let records = tokio::task::spawn_blocking(move || prepare(&m, &batch)).await.expect("prepare");
        store.ingest_batch(&records, 1).await.expect("ingest");
        done += BATCH;
        if done % 1_000_000 == 0 {
            println!("  loaded {done} posts in {:.0}s", start.elapsed().as_secs_f64());
        }
    }
    println!("  loaded {posts} generated posts in {:.0}s", start.elapsed().as_secs_f64());
    store.set_demo(t.id, true).await.expect("demo");
    // Table statistics, as PostgreSQL's autovacuum gathers within a minute of a bulk load (SQLite
    // runs without them, as Hark does).
    if store.backend() == hark_store::Backend::Postgres {
        store.analyze().await.expect("analyze");
    }
    println!("  tracker /hashtag-tracking/dashboard/{}/{} (HARK_BENCH_NOW={})", t.hash, t.friendly, now());
    t.id
}

/// The panel groups of the dashboard, each as the API computes it.
const GROUPS: [&str; 12] = [
    "topStats",
    "timeline",
    "locations",
    "topPosts",
    "sentiments",
    "devices",
    "genders",
    "postTypes",
    "viewerSentiments",
    "influencers",
    "topics",
    "topPages",
];

/// Runs one group; returns a fingerprint of the answer (to compare the two paths).
async fn group(store: &Store, t: i64, f: &PageFilter, g: &str) -> String {
    use hark_core::Platform::*;
    let only = |keep: &[hark_core::Platform]| PageFilter {
        platforms: f.platforms.iter().filter(|p| keep.contains(p)).collect(),
        ..f.clone()
    };
    match g {
        "topStats" => {
            // As the API asks: both at once.
            let (c, u) = tokio::try_join!(store.dash_counts(t, f), store.dash_users(t, f)).unwrap();
            format!("{c:?} {u}")
        }
        "timeline" => {
            let s = store.dash_series(t, f, 3_600_000).await.unwrap();
            format!("{} {}", s.len(), s.iter().map(|(_, c)| c.posts).sum::<i64>())
        }
        "locations" => {
            let (c, r) = tokio::try_join!(store.dash_terms(t, f, "country"), store.dash_terms(t, f, "region")).unwrap();
            format!("{c:?} {r:?}")
        }
        "topPosts" => format!("{:?}", store.dash_top_posts(t, f, 10).await.unwrap().iter().map(|p| p.id).collect::<Vec<_>>()),
        "sentiments" => {
            let (s, v) = tokio::try_join!(store.dash_terms(t, f, "sentiment"), store.dash_share_of_voice(t, f, 5)).unwrap();
            format!("{s:?} {v:?}")
        }
        "devices" => format!("{:?}", &store.dash_terms(t, &only(&[Twitter]), "source").await.unwrap()[..]),
        "genders" => format!("{:?}", store.dash_terms(t, f, "gender").await.unwrap()),
        "postTypes" => format!("{:?}", store.dash_terms(t, &only(&[Twitter]), "post_type").await.unwrap()),
        "viewerSentiments" => format!("{:?}", store.dash_viewer_sentiment(t, f).await.unwrap()),
        "influencers" => {
            let (e, p) = store.dash_influencers(t, f, 10).await.unwrap();
            format!(
                "{:?} {:?}",
                e.iter().map(|a| (&a.author, a.engagement)).collect::<Vec<_>>(),
                p.iter().map(|a| (&a.author, a.posts)).collect::<Vec<_>>()
            )
        }
        "topics" => {
            let all = hark_core::PlatformSet::all();
            let mut v = store.dash_top_terms_many(t, f, &[("hashtag", all), ("keyword", all)], Some(20)).await.unwrap().into_iter();
            let (h, k) = (v.next().unwrap(), v.next().unwrap());
            format!("{:?} {:?}", &h[..h.len().min(20)], &k[..k.len().min(20)])
        }
        "topPages" => {
            let web = only(&[News, Blogs, Forums]).platforms;
            let social = only(&[Twitter, Youtube, Facebook]).platforms;
            let mut v = store
                .dash_top_terms_many(t, f, &[("domain", web), ("domain", social), ("link", social)], Some(10))
                .await
                .unwrap()
                .into_iter();
            let (w, d, l) = (v.next().unwrap(), v.next().unwrap(), v.next().unwrap());
            format!("{:?} {:?} {:?}", &w[..w.len().min(10)], &d[..d.len().min(10)], &l[..l.len().min(10)])
        }
        _ => unreachable!(),
    }
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.split(' ').take(3).collect::<Vec<_>>().join(" ")).unwrap_or_default()
}

async fn bench(name: &str, url: &str, posts: usize, reps: usize, base_reps: usize, reuse: Option<i64>) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    println!("== {name}, {posts} posts (load average {})", load_average());
    let t = match reuse {
        Some(t) => t,
        None => load(&store, posts).await,
    };
    let all = hark_core::PlatformSet::all();
    let list = |v: &str| -> Vec<String> {
        std::env::var(v).map(|s| s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()).unwrap_or_default()
    };
    let (only_groups, only_ranges) = (list("HARK_BENCH_GROUPS"), list("HARK_BENCH_RANGES"));
    let ranges = [
        // A custom range whose ends fall mid-hour with posts on both sides of each end.
        (
            "30 days",
            PageFilter { platforms: all, start: Some(now() - 30 * DAY + 1_234_567), end: Some(now() - 777), ..Default::default() },
        ),
        // The relative window as the API computes it (`days=30`: the 30×24 hours up to now):
        // nothing lies after its end, so its last day is read whole from the rollups.
        ("last 30 days", PageFilter { platforms: all, start: Some(now() - 30 * DAY), end: Some(now()), ..Default::default() }),
        ("All Time", PageFilter { platforms: all, ..Default::default() }),
    ];
    for (label, f) in ranges {
        let base = PageFilter { rows_only: true, ..f.clone() };
        println!("  {label} (load average {}): group | rollup p50 ms | rollup p95 ms | baseline p50 ms | ratio", load_average());
        let (mut fast_total, mut slow_total) = (0.0, 0.0);
        if !only_ranges.is_empty() && !only_ranges.iter().any(|r| r == label) {
            continue;
        }
        for g in GROUPS {
            if !only_groups.is_empty() && !only_groups.iter().any(|x| x == g) {
                continue;
            }
            // The baseline first: it reads every post row, and the rollup path is then timed
            // right after its own first (untimed) run, as a server that does not run baselines
            // between requests would serve it.
            let mut slow = Vec::new();
            let mut b = None;
            for _ in 0..base_reps {
                let s = Instant::now();
                b = Some(group(&store, t, &base, g).await);
                slow.push(s.elapsed().as_secs_f64() * 1000.0);
            }
            let a = group(&store, t, &f, g).await;
            // HARK_BENCH_BASE_REPS=0 (iterating on one group) skips the baseline and the check.
            if let Some(b) = b {
                assert_eq!(a, b, "{name} {label} {g}: rollup and baseline answers differ");
            }
            let mut fast = Vec::new();
            for _ in 0..reps {
                let s = Instant::now();
                group(&store, t, &f, g).await;
                fast.push(s.elapsed().as_secs_f64() * 1000.0);
            }
            let (p50, p95) = (pct(&mut fast, 0.5), pct(&mut fast, 0.95));
            let b50 = if slow.is_empty() { f64::NAN } else { pct(&mut slow, 0.5) };
            fast_total += p50;
            slow_total += b50;
            println!("  | {g} | {p50:.1} | {p95:.1} | {b50:.0} | {:.0}x |", b50 / p50.max(0.001));
        }
        // The whole dashboard as the page asks for it: every group at once.
        let s = Instant::now();
        let store2 = store.clone();
        let f2 = f.clone();
        let handles: Vec<_> = GROUPS
            .iter()
            .map(|g| {
                let (st, f) = (store2.clone(), f2.clone());
                tokio::spawn(async move { group(&st, t, &f, g).await })
            })
            .collect();
        for h in handles {
            h.await.unwrap();
        }
        let whole = s.elapsed().as_secs_f64() * 1000.0;
        println!(
            "  {label}: whole dashboard concurrently {whole:.0} ms; sum of group p50 {fast_total:.0} ms vs baseline {slow_total:.0} ms ({:.0}x)",
            slow_total / fast_total.max(0.001)
        );
    }
    store.close().await;
}

fn main() {
    let sizes: Vec<usize> = match std::env::var("HARK_BENCH_SIZES") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().replace('_', "").parse().ok()).collect(),
        Err(_) => vec![env_usize("HARK_BENCH_POSTS", 1_000_000)],
    };
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let reps = env_usize("HARK_BENCH_REPS", 20);
    let base_reps = env_usize("HARK_BENCH_BASE_REPS", 3);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        for posts in sizes {
            if backends.contains("sqlite") {
                let dir = match std::env::var("HARK_BENCH_DIR") {
                    Ok(d) => tempfile::tempdir_in(d),
                    Err(_) => tempfile::tempdir(),
                }
                .expect("tempdir");
                let keep = std::env::var("HARK_BENCH_KEEP").ok().map(std::path::PathBuf::from);
                let reuse = std::env::var_os("HARK_BENCH_REUSE").is_some() && keep.as_ref().is_some_and(|k| k.exists());
                let file = match keep {
                    Some(path) if reuse || !path.exists() => path,
                    _ => dir.path().join("dash.db"),
                };
                bench("sqlite", &format!("sqlite://{}", file.display()), posts, reps, base_reps, reuse.then_some(1)).await;
            }
            if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), backends.contains("postgres")) {
                // HARK_BENCH_PG_KEEP names a database that is kept (and, when it already holds the
                // tracker, timed again without loading, like HARK_BENCH_REUSE for SQLite).
                let kept = std::env::var("HARK_BENCH_PG_KEEP").ok().filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
                let name = kept.clone().unwrap_or_else(|| format!("hark_dash_bench_{}_{posts}", std::process::id()));
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
                let reuse = (exists && kept.is_some()).then_some(1);
                bench("postgres", &format!("{base}/{name}"), posts, reps, base_reps, reuse).await;
                if kept.is_none() {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
                }
            }
        }
    });
}
