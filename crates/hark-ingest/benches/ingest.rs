//! End-to-end ingest benchmark: NDJSON lines are parsed, enriched, matched against the trackers and
//! written with their rollups, into SQLite and (when `HARK_BENCH_POSTGRES_URL` is set) PostgreSQL.
//!
//! `cargo bench -p hark-ingest --bench ingest` — `HARK_BENCH_POSTS` sets the post count
//! (default 1,000,000), `HARK_BENCH_TRACKERS` the number of other trackers (default 200).

use std::sync::Arc;
use std::time::Instant;

use hark_core::{Friendly, Post, TrackerCriteria, TrackerSearch};
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare, BATCH};
use hark_store::{NewTracker, Store};
use rand::{Rng, SeedableRng};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn other_criteria(rng: &mut rand::rngs::StdRng) -> TrackerCriteria {
    const WORDS: &[&str] = &["football", "election", "bitcoin", "tesla", "netflix", "pizza", "marathon", "vinyl",
        "gardening", "skincare", "airline", "bakery", "chess", "yoga", "podcast", "museum", "sneakers", "ramen"];
    let mut c = demo_criteria();
    let a = WORDS[rng.gen_range(0..WORDS.len())];
    let b = format!("{}{}", WORDS[rng.gen_range(0..WORDS.len())], rng.gen_range(0..1000));
    c.search = TrackerSearch { include: vec![vec![a.to_string(), b]], exclude: vec![] };
    c.subtrackers.clear();
    c
}

async fn setup(store: &Store, others: usize) -> Vec<(i64, String)> {
    let user = store
        .create_user(
            &hark_testkit::new_user("bench@example.org"),
            0,
        )
        .await
        .expect("user");
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut out = Vec::new();
    for i in 0..=others {
        let c = if i == 0 { demo_criteria() } else { other_criteria(&mut rng) };
        let json = serde_json::to_string(&c).expect("json");
        let t = store
            .create_tracker(
                &NewTracker {
                    friendly: Friendly::from_text(&format!("bench {i}")),
                    title: format!("bench {i}"),
                    owner_id: user.id,
                    platforms: c.platforms.bits(),
                    criteria: json.clone(),
                    volume_limit: None,
                    is_demo: false,
                    is_preview_mode: false,
                },
                0,
            )
            .await
            .expect("tracker");
        out.push((t.id, json));
    }
    out
}

/// Parses, enriches and matches the next batch on a blocking thread while the current batch is
/// written, as the pipeline does.
async fn run(store: &Store, lines: &Arc<Vec<String>>, trackers: &[(i64, String)]) -> (f64, Vec<f64>) {
    let matcher = Arc::new(compile(trackers).expect("compile"));
    let n = lines.len();
    let spawn = |from: usize| {
        let lines = lines.clone();
        let m = matcher.clone();
        tokio::task::spawn_blocking(move || {
            let posts: Vec<Post> =
                lines[from..(from + BATCH).min(lines.len())].iter().filter_map(|l| serde_json::from_str(l).ok()).collect();
            prepare(&m, &posts)
        })
    };
    let start = Instant::now();
    let mut segment_start = Instant::now();
    let mut segments = Vec::new();
    let mut next = Some(spawn(0));
    let mut from = 0;
    let segment = (n / 10).max(BATCH);
    let mut since_segment = 0;
    let (mut waiting, mut writing) = (0f64, 0f64);
    while let Some(h) = next.take() {
        let w = Instant::now();
        let records = h.await.expect("prepare");
        waiting += w.elapsed().as_secs_f64();
        from += BATCH;
        if from < n {
            next = Some(spawn(from));
        }
        let w = Instant::now();
        store.ingest_batch(&records, 1).await.expect("ingest");
        writing += w.elapsed().as_secs_f64();
        since_segment += BATCH.min(n - (from - BATCH));
        if since_segment >= segment {
            segments.push(since_segment as f64 / segment_start.elapsed().as_secs_f64());
            since_segment = 0;
            segment_start = Instant::now();
        }
    }
    println!("  time waiting for parse+enrich+match {waiting:.1}s, writing {writing:.1}s");
    (n as f64 / start.elapsed().as_secs_f64(), segments)
}

/// CPU seconds used so far by each thread of this process, by thread name (Linux; empty elsewhere).
/// The SQLite work runs on sqlx's worker thread, so its CPU time is the write cost whatever else
/// the machine is doing.
fn thread_cpu() -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    let tick = 100.0; // USER_HZ
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else { return out };
    for task in dir.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else { continue };
        // "pid (comm) state ..." — utime and stime are fields 14 and 15.
        let Some((head, rest)) = stat.rsplit_once(')') else { continue };
        let name = head.split_once('(').map(|(_, n)| n).unwrap_or("?");
        let name: String = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-').to_string();
        let f: Vec<&str> = rest.split_whitespace().collect();
        let (Some(u), Some(s)) = (f.get(11).and_then(|v| v.parse::<f64>().ok()), f.get(12).and_then(|v| v.parse::<f64>().ok()))
        else {
            continue;
        };
        *out.entry(name).or_insert(0.0) += (u + s) / tick;
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

async fn bench(name: &str, url: &str, lines: &Arc<Vec<String>>, others: usize) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    let trackers = setup(&store, others).await;
    let cpu_before = thread_cpu();
    let (overall, segments) = run(&store, lines, &trackers).await;
    let cpu: Vec<String> = thread_cpu()
        .into_iter()
        .map(|(name, secs)| (name.clone(), secs - cpu_before.get(&name).copied().unwrap_or(0.0)))
        .filter(|(_, secs)| *secs >= 0.05)
        .map(|(name, secs)| format!("{name} {secs:.1}s"))
        .collect();
    println!("  CPU by thread: {}", cpu.join(", "));
    let stored = store.count_links(trackers[0].0).await.expect("count");
    println!(
        "{name:<10} {:>9} posts  overall {:>8.0} posts/s  median of {} segments {:>8.0} posts/s  slowest {:>8.0}  (demo tracker kept {stored})",
        lines.len(),
        overall,
        segments.len(),
        median(segments.clone()),
        segments.iter().cloned().fold(f64::INFINITY, f64::min),
    );
    store.close().await;
}

fn main() {
    let posts = env_usize("HARK_BENCH_POSTS", 1_000_000);
    let others = env_usize("HARK_BENCH_TRACKERS", 200);
    let now = 1_790_000_000_000i64;
    let t = Instant::now();
    let lines: Vec<String> = DemoGenerator::new(42)
        .generate(now - 90 * 86_400_000, now, posts)
        .map(|p| serde_json::to_string(&p).expect("json"))
        .collect();
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    println!(
        "data: {posts} demo posts over 90 days as NDJSON ({:.0} MB), {} trackers; generated in {:.1}s",
        bytes as f64 / 1e6,
        others + 1,
        t.elapsed().as_secs_f64()
    );
    let lines = Arc::new(lines);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("tempdir");
        bench("sqlite", &format!("sqlite://{}", dir.path().join("bench.db").display()), &lines, others).await;
        if let Ok(admin) = std::env::var("HARK_BENCH_POSTGRES_URL") {
            let name = format!("hark_bench_{}", std::process::id());
            let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
            sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
            let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
            bench("postgres", &format!("{base}/{name}"), &lines, others).await;
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
        }
    });
}
