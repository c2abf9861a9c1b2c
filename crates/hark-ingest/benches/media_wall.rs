//! Media wall benchmark, through a running server as the page asks: one tracker of posts over
//! 90 days in each data shape, then the wall's data request (`GET /media-wall`) as the page makes
//! it by default (50 newest), at its largest (500), by engagement, for a moderator's All Posts,
//! with a search, with users and retweets left out, and a moderator's hidden posts after 1,000
//! were hidden; p50 and p95 of `HARK_BENCH_REPS` requests each (target: p95 <= 50 ms).
//!
//! `cargo bench -p hark-ingest --bench media_wall` — `HARK_BENCH_POSTS` (1,000,000),
//! `HARK_BENCH_REPS` (20), `HARK_BENCH_SHAPES` (demo,uniform,zipf,real), `HARK_BENCH_BACKENDS`,
//! `HARK_BENCH_POSTGRES_URL`, `HARK_BENCH_KEEP_DIR` (keep the databases; a kept one is reused).

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shapes/mod.rs"]
mod shapes;

use std::time::Instant;

use hark_store::Store;
use shapes::load;

async fn bench(backend: &str, url: &str, shape: &str, run: shapes::Run) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    let kept = match store.user_by_email("bench@example.org").await.expect("user") {
        Some(u) => store.trackers_for_user(u.id, 1, 10).await.expect("trackers").0.into_iter().map(|t| t.id).min(),
        None => None,
    };
    let tracker = match kept {
        Some(id) => {
            println!("  reusing the kept database's tracker");
            id
        }
        None => load(&store, shape, run.posts).await,
    };
    let row = store.tracker_by_id(tracker).await.expect("tracker").expect("row");
    // A moderator's hidden posts: 1,000 of the posts with media.
    let hidden: Vec<i64> = {
        let q = hark_store::WallQuery {
            platforms: hark_core::PlatformSet::all(),
            visibilities: vec![hark_store::wall_visibility::HIDDEN],
            limit: 1,
            ..Default::default()
        };
        if store.media_wall(tracker, &q).await.expect("hidden").is_empty() {
            let q = hark_store::WallQuery { visibilities: vec![hark_store::wall_visibility::PUBLIC], limit: 5000, ..q };
            let rows = store.media_wall(tracker, &q).await.expect("wall");
            rows.iter().skip(200).step_by(4).take(1000).map(|r| r.row.post_id).collect()
        } else {
            Vec::new()
        }
    };
    if !hidden.is_empty() {
        store.set_wall_visibility(tracker, &hidden, hark_store::wall_visibility::HIDDEN).await.expect("hide");
    }
    let (base, client, _) = shapes::serve(&store).await;
    let wall = format!("{base}/api/v1/trackers/{}/media-wall", row.hash);
    let cases = [
        ("50 newest (the page's default)", ""),
        ("500 newest", "count=500"),
        ("500 by engagement", "count=500&sort=engagement"),
        ("500, All Posts (moderator)", "count=500&visibility=-1"),
        ("50, search 'latte'", "search=latte"),
        ("500, 3 users and retweets left out", "count=500&excludeUsers=coffeelover1,ana,bean&excludeRetweets=1"),
        ("500, hidden (1,000 of them)", "count=500&visibility=0"),
    ];
    println!("  {backend} {shape}: case | posts | p50 ms | p95 ms (target p95 <= 50)");
    let mut worst = (0.0f64, "");
    for (label, query) in cases {
        let url = format!("{wall}?{query}");
        // One request first (cold caches are the first viewer's, not the wall's refreshes).
        let first = Instant::now();
        let body: serde_json::Value = client.get(&url).send().await.expect("wall").json().await.expect("json");
        let cold = first.elapsed().as_secs_f64() * 1000.0;
        let n = body["posts"].as_array().map_or(0, |a| a.len());
        assert!(body["error"].is_null(), "{label}: {body}");
        let (p50, p95, _) = shapes::time(run.reps, || async {
            let r = client.get(&url).send().await.expect("wall");
            assert!(r.status().is_success(), "{label}: {}", r.status());
            r.bytes().await.expect("body").len()
        })
        .await;
        println!("  | {label} | {n} | {p50:.1} | {p95:.1} | (first {cold:.0} ms)");
        if p95 > worst.0 {
            worst = (p95, label);
        }
    }
    println!("  worst p95 {backend} {shape}: {:.1} ms ({})", worst.0, worst.1);
    store.close().await;
}

fn main() {
    shapes::main_with("media_wall", |backend, url, shape, run| async move { bench(backend, &url, &shape, run).await });
}
