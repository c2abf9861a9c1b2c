//! Posts page benchmark: a tracker with about a million posts (the demo generator over 90 days),
//! then the page query with each single filter and sort, full-text searches, tagging 1,000 posts
//! and bulk delete (and undo) of 10,000 posts with their rollups; on SQLite and (when
//! `HARK_BENCH_POSTGRES_URL` is set) PostgreSQL.
//!
//! `cargo bench -p hark-ingest --bench posts_query` — `HARK_BENCH_POSTS` sets the number of
//! generated posts (default 1,150,000, of which the demo search keeps about 1,000,000);
//! `HARK_BENCH_RUNS` the runs per query (default 10).

use std::time::Instant;

use hark_core::{Friendly, PlatformSet};
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare, BATCH};
use hark_store::{NewTracker, NewUser, PostQuery, PostSort, Store};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const NOW: i64 = 1_790_000_000_000;
const DAY: i64 = 86_400_000;

async fn fill(store: &Store, posts: usize) -> i64 {
    let user = store
        .create_user(
            &NewUser {
                email: "bench@example.org".into(),
                password_hash: "!".into(),
                name: "Bench".into(),
                is_admin: false,
                trial: false,
                trial_expires: None,
                plan: 100,
                max_searches: 5,
                max_ignored: 5,
            },
            0,
        )
        .await
        .expect("user");
    let c = demo_criteria();
    let json = serde_json::to_string(&c).expect("json");
    let t = store
        .create_tracker(
            &NewTracker {
                friendly: Friendly::from_text("bench posts"),
                title: "bench posts".into(),
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
    let matcher = compile(&[(t.id, json)]).expect("compile");
    let mut generator = DemoGenerator::new(42);
    let mut it = generator.generate(NOW - 90 * DAY, NOW, posts);
    let start = Instant::now();
    loop {
        let batch: Vec<_> = it.by_ref().take(BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let records = prepare(&matcher, &batch);
        store.ingest_batch(&records, NOW).await.expect("ingest");
    }
    println!("  filled in {:.0} s", start.elapsed().as_secs_f64());
    // Statistics as a running PostgreSQL has them after autovacuum (SQLite runs without).
    if store.backend() == hark_store::Backend::Postgres {
        store.analyze().await.expect("analyze");
    }
    t.id
}

fn base() -> PostQuery {
    PostQuery {
        platforms: PlatformSet::all(),
        start: Some(NOW - 30 * DAY),
        end: Some(NOW),
        page: 1,
        per_page: 25,
        ..Default::default()
    }
}

fn pct(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// p50 and p95 in ms of `runs` runs of the page with its total, and of the page alone.
async fn time_query(store: &Store, t: i64, name: &str, q: &PostQuery, runs: usize) {
    let (mut both, mut page) = (Vec::new(), Vec::new());
    let mut total = 0;
    for _ in 0..runs {
        let s = Instant::now();
        let rows = store.query_post_page(t, q).await.expect("page");
        page.push(s.elapsed().as_secs_f64() * 1000.0);
        total = store.count_posts(t, q).await.expect("count");
        both.push(s.elapsed().as_secs_f64() * 1000.0);
        assert!(rows.len() <= 25);
    }
    println!(
        "  {name:<34} page p50 {:>7.1} ms  p95 {:>7.1} ms | with total p50 {:>7.1} ms  p95 {:>7.1} ms  (total {total})",
        pct(page.clone(), 0.5),
        pct(page, 0.95),
        pct(both.clone(), 0.5),
        pct(both, 0.95)
    );
}

async fn bench(name: &str, url: &str, posts: usize, runs: usize) {
    println!("{name}");
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    let t = fill(&store, posts).await;
    println!("  tracker posts: {}", store.count_links(t).await.expect("count"));
    let a = store.create_tag(t, "A", "#c0392b", 0).await.expect("tag").id;
    let b = store.create_tag(t, "B", "#2980b9", 0).await.expect("tag").id;
    // Tag 1,000 recent posts with A (timed) and 500 of them with B.
    let recent: Vec<i64> = store
        .query_post_page(t, &PostQuery { per_page: 1000, ..base() })
        .await
        .expect("page")
        .iter()
        .map(|r| r.post_id)
        .collect();
    let s = Instant::now();
    store.set_post_tags(t, &recent, &[a], &[]).await.expect("tag");
    println!("  tag 1,000 posts in one request: {:.1} ms", s.elapsed().as_secs_f64() * 1000.0);
    store.set_post_tags(t, &recent[..500], &[b], &[]).await.expect("tag");

    let mut cases: Vec<(&str, PostQuery)> = vec![("default (date desc)", base())];
    let mut q = base();
    q.sentiment = vec!["negative"];
    cases.push(("sentiment negative", q));
    let mut q = base();
    q.exclude_retweets = true;
    cases.push(("exclude retweets", q));
    let mut q = base();
    q.stories_only = true;
    cases.push(("instagram stories", q));
    let mut q = base();
    q.platforms = [hark_core::Platform::Youtube].into_iter().collect();
    cases.push(("platform youtube", q));
    let mut q = base();
    q.post_tags = vec![a, b];
    cases.push(("tags ANY", q));
    let mut q = base();
    q.post_tags = vec![a, b];
    q.post_tags_all = true;
    cases.push(("tags ALL", q));
    for (label, sort) in [
        ("sort engagement desc", PostSort::Engagement),
        ("sort reach desc", PostSort::Reach),
        ("sort engagement rate desc", PostSort::EngagementRate),
        ("sort sentiment desc", PostSort::Sentiment),
    ] {
        let mut q = base();
        q.sort = sort;
        cases.push((label, q));
    }
    let mut q = base();
    q.page = 200;
    cases.push(("page 200 (date desc)", q));
    for (label, words) in [("search 'kestrel' (in most)", "kestrel"), ("search 'prices'", "prices"), ("search two words", "kestrel coffee")] {
        let mut q = base();
        q.search = words.into();
        cases.push((label, q));
    }
    for (label, q) in &cases {
        time_query(&store, t, label, q, runs).await;
    }

    // Bulk delete of 10,000 posts with their rollups, and the undo.
    let ten: Vec<i64> = store
        .query_post_page(t, &PostQuery { per_page: 1000, page: 1, sort: PostSort::Date, ascending: true, ..base() })
        .await
        .expect("page")
        .iter()
        .map(|r| r.post_id)
        .collect();
    let mut ids = ten;
    for page in 2..=10 {
        ids.extend(
            store
                .query_post_page(t, &PostQuery { per_page: 1000, page, sort: PostSort::Date, ascending: true, ..base() })
                .await
                .expect("page")
                .iter()
                .map(|r| r.post_id),
        );
    }
    let before = store.rollup_totals(t).await.expect("totals");
    let s = Instant::now();
    let n = store.soft_delete_posts(t, &ids, NOW).await.expect("delete");
    let del = s.elapsed().as_secs_f64() * 1000.0;
    let s = Instant::now();
    store.restore_posts(t, &ids, NOW).await.expect("undo");
    let undo = s.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(store.rollup_totals(t).await.expect("totals"), before);
    println!("  bulk delete {n} posts with rollups: {del:.0} ms; undo: {undo:.0} ms (rollups back as before)");
    store.close().await;
}

fn main() {
    let posts = env_usize("HARK_BENCH_POSTS", 1_150_000);
    let runs = env_usize("HARK_BENCH_RUNS", 10);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("tempdir");
        bench("sqlite", &format!("sqlite://{}", dir.path().join("bench.db").display()), posts, runs).await;
        if let Ok(admin) = std::env::var("HARK_BENCH_POSTGRES_URL") {
            let name = format!("hark_bench_posts_{}", std::process::id());
            let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
            sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
            let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
            bench("postgres", &format!("{base}/{name}"), posts, runs).await;
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
        }
    });
}
