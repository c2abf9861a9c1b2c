//! Dashboard benchmark: one tracker of posts over 90 days in each data shape, then every panel
//! request of the dashboard is timed for a 30-day window (unaligned edges, as a custom window
//! has), the last 30 days and All Time, on the path the API uses (the tracker's in-memory table,
//! which the bench reads first; the rollups before it is read), beside two baselines that
//! answer the same questions: the post rows only (`PageFilter::rows_only`), and DuckDB over the
//! same rows held in its memory (`bench/duckdb/dashboard.py`, run on the SQLite file after it is
//! loaded). Every answer is compared with both baselines'. The whole dashboard (the 12 requests at
//! once, as the page sends them) is timed against the sum of DuckDB's query medians.
//!
//! Shapes (`HARK_BENCH_SHAPES`, default all): `demo` (the demo generator's authors: a few
//! dominate), `uniform` (40,000 accounts with equal odds), `zipf` (heavy-tailed), `real` (post
//! texts and bios from the SemEval tweets in ../shared/data); see `shapes/mod.rs`.
//!
//! `cargo bench -p hark-ingest --bench dashboard` — `HARK_BENCH_POSTS` (default 1,000,000) or
//! `HARK_BENCH_SIZES` (a comma list, e.g. `1000000,10000000`: one tracker per size, loaded and
//! timed in turn, its database dropped after), `HARK_BENCH_REPS` repetitions of each request and
//! of the whole dashboard (default 20), `HARK_BENCH_BASE_REPS` (default 3; 0 skips the post-rows
//! baseline and its check, for iterating), `HARK_BENCH_DUCKDB=0` skips DuckDB (it needs a Python
//! with the `duckdb` package: `HARK_BENCH_PYTHON`, else `target/bench-venv`, which `make bench`
//! makes, else `python3`), `HARK_BENCH_GROUPS` / `HARK_BENCH_RANGES` comma lists to time only some
//! groups / ranges (`30 days`, `last 30 days`, `All Time`), `HARK_BENCH_POSTGRES_URL` to run
//! PostgreSQL beside SQLite, `HARK_BENCH_BACKENDS` (default `sqlite,postgres`) to run only one of
//! them, `HARK_BENCH_DIR` for the SQLite file (default: a temporary directory). Demo shape only:
//! `HARK_BENCH_KEEP` a path where the SQLite database is kept instead, its tracker marked as the
//! public demo so that `web/e2e-bench/dashboard-load.mjs` can open its dashboard in a browser;
//! with `HARK_BENCH_REUSE=1` a kept database that exists is timed again without loading (its first
//! tracker; `HARK_BENCH_NOW` gives the end of its 90 days, which the first run printed).
//! `HARK_BENCH_PG_KEEP` names a PostgreSQL database to keep, timed again without loading when it
//! exists.

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

#[path = "shapes/mod.rs"]
mod shapes;

use hark_core::Post;
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare, BATCH};
use hark_store::{PageFilter, Store};
use serde_json::{json, Value};

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

/// Runs one group; returns its answer in the form the DuckDB baseline prints
/// (`bench/duckdb/dashboard.py`), so that the three paths can be compared.
async fn group(store: &Store, t: i64, f: &PageFilter, g: &str) -> Value {
    use hark_core::Platform::*;
    let only = |keep: &[hark_core::Platform]| PageFilter {
        platforms: f.platforms.iter().filter(|p| keep.contains(p)).collect(),
        ..f.clone()
    };
    let terms = |v: &[(String, i64)], n: usize| json!(v.iter().take(n).map(|(t, c)| json!([t, c])).collect::<Vec<_>>());
    match g {
        "topStats" => {
            // As the API asks: both at once.
            let (c, u) = tokio::try_join!(store.dash_counts(t, f), store.dash_users(t, f)).unwrap();
            json!({"posts": c.posts, "engagement": c.engagement, "reach": c.reach, "impressions": c.impressions, "users": u})
        }
        "timeline" => {
            let s = store.dash_series(t, f, 3_600_000).await.unwrap();
            json!(s.iter().map(|(h, c)| json!([h, c.posts, c.engagement, c.reach, c.impressions])).collect::<Vec<_>>())
        }
        "locations" => {
            let (c, r) = tokio::try_join!(store.dash_terms(t, f, "country"), store.dash_terms(t, f, "region")).unwrap();
            json!({"country": terms(&c, usize::MAX), "region": terms(&r, usize::MAX)})
        }
        "topPosts" => json!(store.dash_top_posts(t, f, 10).await.unwrap().iter().map(|p| p.id).collect::<Vec<_>>()),
        "sentiments" => {
            let (s, v) = tokio::try_join!(store.dash_terms(t, f, "sentiment"), store.dash_share_of_voice(t, f, 5)).unwrap();
            json!({"sentiment": terms(&s, usize::MAX), "shareOfVoice": v})
        }
        "devices" => terms(&store.dash_terms(t, &only(&[Twitter]), "source").await.unwrap(), usize::MAX),
        "genders" => terms(&store.dash_terms(t, f, "gender").await.unwrap(), usize::MAX),
        "postTypes" => terms(&store.dash_terms(t, &only(&[Twitter]), "post_type").await.unwrap(), usize::MAX),
        "viewerSentiments" => {
            let (likes, dislikes) = store.dash_viewer_sentiment(t, f).await.unwrap();
            json!([likes, dislikes])
        }
        "influencers" => {
            let (e, p) = store.dash_influencers(t, f, 10).await.unwrap();
            json!({
                "byEngagement": e.iter().map(|a| json!([a.author, a.engagement])).collect::<Vec<_>>(),
                "byPosts": p.iter().map(|a| json!([a.author, a.posts])).collect::<Vec<_>>(),
            })
        }
        "topics" => {
            let all = hark_core::PlatformSet::all();
            let mut v = store.dash_top_terms_many(t, f, &[("hashtag", all), ("keyword", all)], Some(20)).await.unwrap().into_iter();
            let (h, k) = (v.next().unwrap(), v.next().unwrap());
            json!({"hashtag": terms(&h, 20), "keyword": terms(&k, 20)})
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
            json!({"webDomains": terms(&w, 10), "socialDomains": terms(&d, 10), "socialLinks": terms(&l, 10)})
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

/// The timed ranges, ending at `end` (the end of the generated 90 days).
fn ranges(end: i64) -> Vec<(&'static str, PageFilter)> {
    let all = hark_core::PlatformSet::all();
    vec![
        // A custom range whose ends fall mid-hour with posts on both sides of each end.
        ("30 days", PageFilter { platforms: all, start: Some(end - 30 * DAY + 1_234_567), end: Some(end - 777), ..Default::default() }),
        // The relative window as the API computes it (`days=30`: the 30×24 hours up to now):
        // nothing lies after its end, so its last day is read whole from the rollups.
        ("last 30 days", PageFilter { platforms: all, start: Some(end - 30 * DAY), end: Some(end), ..Default::default() }),
        ("All Time", PageFilter { platforms: all, ..Default::default() }),
    ]
}

/// DuckDB's answers over the same post rows: per (range, group) its median time and answer, and
/// per range the sum of its groups' medians.
#[derive(Default)]
struct Duck {
    groups: HashMap<(String, String), (f64, Value)>,
    whole: HashMap<String, f64>,
}

/// The Python with the `duckdb` package: `HARK_BENCH_PYTHON`, else the benchmarks' venv that
/// `make bench` makes (`target/bench-venv`), else `python3`.
fn python() -> String {
    if let Ok(p) = std::env::var("HARK_BENCH_PYTHON") {
        return p;
    }
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-venv/bin/python");
    if venv.exists() {
        return venv.display().to_string();
    }
    "python3".into()
}

/// Runs `bench/duckdb/dashboard.py` over tracker `t` of the SQLite file `db` (its rows loaded
/// into DuckDB's memory first, untimed), or says why not. `HARK_BENCH_DUCKDB=0` skips it.
fn duckdb(db: &std::path::Path, t: i64, end: i64, reps: usize) -> Option<Duck> {
    if std::env::var("HARK_BENCH_DUCKDB").is_ok_and(|v| v == "0") {
        return None;
    }
    let py = python();
    let has = std::process::Command::new(&py).args(["-c", "import duckdb"]).output().is_ok_and(|o| o.status.success());
    if !has {
        println!("  (DuckDB baseline skipped: {py} cannot import duckdb; `make bench` installs it in target/bench-venv)");
        return None;
    }
    let spec: serde_json::Map<String, Value> =
        ranges(end).into_iter().map(|(l, f)| (l.to_string(), f.start.zip(f.end).map_or(Value::Null, |(a, b)| json!([a, b])))).collect();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/duckdb/dashboard.py");
    let out = std::process::Command::new(&py)
        .arg(script)
        .args(["--db", &db.display().to_string(), "--tracker", &t.to_string(), "--reps", &reps.to_string()])
        .args(["--ranges", &Value::Object(spec).to_string()])
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("run the DuckDB baseline");
    assert!(out.status.success(), "the DuckDB baseline failed");
    let mut duck = Duck::default();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        let range = v["range"].as_str().unwrap_or_default().to_string();
        if let Some(w) = v["whole_ms"].as_f64() {
            duck.whole.insert(range, w);
        } else if let (Some(g), Some(ms)) = (v["group"].as_str(), v["p50_ms"].as_f64()) {
            duck.groups.insert((range, g.to_string()), (ms, v["answer"].clone()));
        }
    }
    Some(duck)
}

/// One line of the closing summary.
struct Summary {
    what: String,
    worst_p95: (f64, &'static str),
    whole_p50: f64,
    whole_p95: f64,
    duck: Option<f64>,
    same_as_duck: Option<(usize, usize)>,
}

#[allow(clippy::too_many_arguments)]
async fn bench(
    name: &str,
    url: &str,
    shape: &str,
    posts: usize,
    run: (usize, usize),
    reuse: Option<i64>,
    sqlite_file: Option<std::path::PathBuf>,
    duck: &mut Option<Duck>,
    summary: &mut Vec<Summary>,
) {
    let (reps, base_reps) = run;
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    println!("== {name}, {shape}, {posts} posts (load average {})", load_average());
    let end = if shape == "demo" { now() } else { shapes::NOW };
    let t = match reuse {
        Some(t) => t,
        None if shape == "demo" => load(&store, posts).await,
        None => shapes::load(&store, shape, posts).await,
    };
    // The tracker's in-memory table (keyword lists), which a server reads in the background
    // after the first view, read before the timings.
    let s = Instant::now();
    store.read_topic_table(t).await.expect("topic table");
    println!("  in-memory table read in {:.1}s", s.elapsed().as_secs_f64());
    // The first range to hold a day whole makes that day's summary: All Time makes them all.
    let all = PageFilter { platforms: hark_core::PlatformSet::all(), ..Default::default() };
    for run in ["first", "second"] {
        let s = Instant::now();
        group(&store, t, &all, "timeline").await;
        println!("  All Time timeline, {run} request after the read: {:.1} ms", s.elapsed().as_secs_f64() * 1000.0);
    }
    if let (Some(file), None) = (&sqlite_file, &duck) {
        *duck = duckdb(file, t, end, reps);
    }
    let list = |v: &str| -> Vec<String> {
        std::env::var(v).map(|s| s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()).unwrap_or_default()
    };
    let (only_groups, only_ranges) = (list("HARK_BENCH_GROUPS"), list("HARK_BENCH_RANGES"));
    // Without the table (the seconds after a server starts, or a tracker too large to keep) the
    // topics panel counts keywords from the post rows, which have no rollup: its cost, once per
    // range, and its answer checked against the table's.
    let rollup_path = store.without_memory_terms();
    for (label, f) in ranges(end) {
        if !only_ranges.is_empty() && !only_ranges.iter().any(|r| r == label) {
            continue;
        }
        let s = Instant::now();
        let a = group(&rollup_path, t, &f, "topics").await;
        let ms = s.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(a, group(&store, t, &f, "topics").await, "{name} {shape} {label}: topics without the table differ");
        println!("  {label}: topics panel without the in-memory table (keywords from the post rows): {ms:.0} ms");
    }
    for (label, f) in ranges(end) {
        if !only_ranges.is_empty() && !only_ranges.iter().any(|r| r == label) {
            continue;
        }
        let base = PageFilter { rows_only: true, ..f.clone() };
        println!(
            "  {label} (load average {}): group | Hark p50 ms | Hark p95 ms | baseline p50 ms | ratio | DuckDB p50 ms | same answer as DuckDB",
            load_average()
        );
        let (mut fast_total, mut slow_total) = (0.0, 0.0);
        let mut worst = (0.0f64, "");
        let (mut same, mut compared) = (0, 0);
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
                assert_eq!(a, b, "{name} {shape} {label} {g}: rollup and baseline answers differ");
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
            if p95 > worst.0 {
                worst = (p95, g);
            }
            let d = duck.as_ref().and_then(|d| d.groups.get(&(label.to_string(), g.to_string())));
            let (d50, verdict) = match d {
                Some((ms, answer)) => {
                    compared += 1;
                    if *answer == a {
                        same += 1;
                        (format!("{ms:.1}"), "yes".to_string())
                    } else {
                        let cut = |v: &Value| v.to_string().chars().take(300).collect::<String>();
                        (format!("{ms:.1}"), format!("NO: Hark {} / DuckDB {}", cut(&a), cut(answer)))
                    }
                }
                None => ("-".into(), "-".into()),
            };
            println!("  | {g} | {p50:.1} | {p95:.1} | {b50:.0} | {:.0}x | {d50} | {verdict} |", b50 / p50.max(0.001));
        }
        // The whole dashboard as the page asks for it: every group at once.
        let mut whole = Vec::new();
        for _ in 0..reps.max(1) {
            let s = Instant::now();
            let handles: Vec<_> = GROUPS
                .iter()
                .map(|g| {
                    let (st, f) = (store.clone(), f.clone());
                    tokio::spawn(async move { group(&st, t, &f, g).await })
                })
                .collect();
            for h in handles {
                h.await.unwrap();
            }
            whole.push(s.elapsed().as_secs_f64() * 1000.0);
        }
        let (w50, w95) = (pct(&mut whole, 0.5), pct(&mut whole, 0.95));
        let d_whole = duck.as_ref().and_then(|d| d.whole.get(label).copied());
        let vs_duck = d_whole.map_or(String::new(), |d| format!("; DuckDB {d:.0} ms (its queries' p50 summed): {:.1}x", d / w50.max(0.001)));
        println!(
            "  {label}: worst panel p95 {:.1} ms ({}); whole dashboard concurrently p50 {w50:.0} ms, p95 {w95:.0} ms{vs_duck}; \
             sum of group p50 {fast_total:.0} ms vs post-rows baseline {slow_total:.0} ms ({:.0}x)",
            worst.0,
            worst.1,
            slow_total / fast_total.max(0.001)
        );
        summary.push(Summary {
            what: format!("{name} | {shape} | {label}"),
            worst_p95: worst,
            whole_p50: w50,
            whole_p95: w95,
            duck: d_whole,
            same_as_duck: duck.as_ref().map(|_| (same, compared)),
        });
    }
    store.close().await;
}

fn main() {
    let sizes: Vec<usize> = match std::env::var("HARK_BENCH_SIZES") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().replace('_', "").parse().ok()).collect(),
        Err(_) => vec![env_usize("HARK_BENCH_POSTS", 1_000_000)],
    };
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let shapes: Vec<String> = std::env::var("HARK_BENCH_SHAPES")
        .unwrap_or_else(|_| "demo,uniform,zipf,real".into())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let run = (env_usize("HARK_BENCH_REPS", 20), env_usize("HARK_BENCH_BASE_REPS", 3));
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut summary = Vec::new();
        for posts in sizes {
            for shape in &shapes {
                // DuckDB reads the SQLite file's rows; the same rows answer for PostgreSQL.
                let mut duck = None;
                if backends.contains("sqlite") {
                    let dir = match std::env::var("HARK_BENCH_DIR") {
                        Ok(d) => tempfile::tempdir_in(d),
                        Err(_) => tempfile::tempdir(),
                    }
                    .expect("tempdir");
                    // Only the demo shape is kept for the browser.
                    let keep = std::env::var("HARK_BENCH_KEEP").ok().map(std::path::PathBuf::from).filter(|_| shape == "demo");
                    let reuse = std::env::var_os("HARK_BENCH_REUSE").is_some() && keep.as_ref().is_some_and(|k| k.exists());
                    let file = match keep {
                        Some(path) if reuse || !path.exists() => path,
                        _ => dir.path().join("dash.db"),
                    };
                    let url = format!("sqlite://{}", file.display());
                    bench("sqlite", &url, shape, posts, run, reuse.then_some(1), Some(file), &mut duck, &mut summary).await;
                }
                if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), backends.contains("postgres")) {
                    // HARK_BENCH_PG_KEEP names a database that is kept (and, when it already holds the
                    // tracker, timed again without loading, like HARK_BENCH_REUSE for SQLite): demo only.
                    let kept = std::env::var("HARK_BENCH_PG_KEEP")
                        .ok()
                        .filter(|n| shape == "demo" && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
                    let name = kept.clone().unwrap_or_else(|| format!("hark_dash_bench_{}_{shape}_{posts}", std::process::id()));
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
                    bench("postgres", &format!("{base}/{name}"), shape, posts, run, reuse, None, &mut duck, &mut summary).await;
                    if kept.is_none() {
                        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
                    }
                }
            }
        }
        println!("== Summary: backend | shape | range | worst panel p95 ms | whole dashboard p50 / p95 ms | DuckDB ms | DuckDB / Hark | answers equal to DuckDB's");
        for s in &summary {
            let (d, ratio) = match s.duck {
                Some(d) => (format!("{d:.0}"), format!("{:.1}x", d / s.whole_p50.max(0.001))),
                None => ("-".into(), "-".into()),
            };
            let same = s.same_as_duck.map_or("-".into(), |(a, b)| format!("{a}/{b}"));
            println!(
                "| {} | {:.1} ({}) | {:.0} / {:.0} | {d} | {ratio} | {same} |",
                s.what, s.worst_p95.0, s.worst_p95.1, s.whole_p50, s.whole_p95
            );
        }
    });
}
