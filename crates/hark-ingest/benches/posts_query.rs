//! Posts page benchmark: a tracker with about a million posts (the demo generator over 90 days),
//! then the page query with each single filter and sort, full-text searches, tagging 1,000 posts
//! (five rounds) and bulk delete (and undo) of 10,000 posts with their rollups; on SQLite and (when
//! `HARK_BENCH_POSTGRES_URL` is set) PostgreSQL.
//!
//! `cargo bench -p hark-ingest --bench posts_query` — `HARK_BENCH_POSTS` sets the number of
//! generated posts (default 1,150,000, of which the demo search keeps about 1,000,000);
//! `HARK_BENCH_RUNS` the runs per query (default 20: p95 is the 19th). To measure again without
//! loading again:
//! `HARK_BENCH_SQLITE_DB=/path/bench.db` keeps the SQLite database there (loaded when missing,
//! reused when present) and `HARK_BENCH_PG_DB=name` does the same with a PostgreSQL database of
//! that name (not dropped at the end). `HARK_BENCH_ONLY=sqlite|postgres` runs one backend;
//! `HARK_BENCH_CASES=search,page 2` only the queries whose label contains one of the words.
//! `HARK_BENCH_SEARCH_SET=n` sets the most matches in the range a search on SQLite reads into
//! memory, its page and total then selected in the in-memory table (default
//! `PostListTuning::search_set_max`; 0 turns it off), to compare the plans, and
//! `HARK_BENCH_SEARCH_EXAMINED=n` the most links a search's total examines on PostgreSQL.
//! `HARK_BENCH_IN_MEMORY=0` leaves out the in-memory table (every page from the SQL plans), to
//! compare the two.
//! `HARK_BENCH_SHAPES` (default `demo`) names the data shapes, one tracker each in turn: `demo` as
//! above; `uniform`, `zipf` and `real` as the other page benchmarks make them (`shapes`:
//! `HARK_BENCH_POSTS` posts, every one in the tracker; real texts search words of the SemEval
//! tweets). A kept database (`HARK_BENCH_SQLITE_DB`, `HARK_BENCH_PG_DB`) of a shape other than
//! `demo` has the shape's name appended (`bench_real.db`).

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod shapes;

use std::time::Instant;

use hark_core::PlatformSet;
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare, BATCH};
use hark_store::{PageFilter, PostQuery, PostSort, Store};
use shapes::{env_usize, DAY, NOW};


async fn fill(store: &Store, posts: usize) -> i64 {
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
            &hark_testkit::new_tracker("bench posts", user.id, c.platforms.bits(), json.clone()),
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
    // Statistics and a vacuumed link table, as a running Hark's background refresh leaves them
    // (SQLite runs without statistics).
    if store.backend() == hark_store::Backend::Postgres {
        store.analyze().await.expect("analyze");
    }
    t.id
}

fn base() -> PostQuery {
    PostQuery {
        filter: PageFilter { platforms: PlatformSet::all(), start: Some(NOW - 30 * DAY), end: Some(NOW), ..Default::default() },
        page: 1,
        per_page: 25,
        ..Default::default()
    }
}

fn pct(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// p50 and p95 in ms of `runs` runs of the page with its total, and of the page alone. A query
/// slower than a second is run three times only.
async fn time_query(store: &Store, t: i64, name: &str, q: &PostQuery, runs: usize) -> f64 {
    let (mut both, mut page) = (Vec::new(), Vec::new());
    let mut total = hark_store::PostTotal::default();
    for i in 0..runs {
        // The page with its total, as the posts API asks for it (one search probe for both),
        // first (its first run is the cold one); then the page alone.
        let s = Instant::now();
        let (rows, counted) = store.query_posts(t, q).await.expect("page with total");
        both.push(s.elapsed().as_secs_f64() * 1000.0);
        total = counted;
        assert!(rows.len() <= 25);
        let s = Instant::now();
        let rows = store.query_post_page(t, q).await.expect("page");
        page.push(s.elapsed().as_secs_f64() * 1000.0);
        assert!(rows.len() <= 25);
        if i >= 2 && both.iter().sum::<f64>() / both.len() as f64 > 1000.0 {
            break;
        }
    }
    let p95 = pct(both.clone(), 0.95);
    println!(
        "  {name:<44} page p50 {:>7.1} p95 {:>7.1} | + total p50 {:>7.1} p95 {:>7.1} ms  {} (total {}{})",
        pct(page.clone(), 0.5),
        pct(page, 0.95),
        pct(both, 0.5),
        p95,
        if p95 <= if q.search.is_empty() { 30.0 } else { 50.0 } { "ok  " } else { "SLOW" },
        total.total,
        if total.capped { "+" } else { "" }
    );
    p95
}

async fn bench(name: &str, url: &str, shape: &str, posts: usize, runs: usize, reuse: bool) {
    println!("{name}, {shape}");
    let store = Store::connect(url).await.expect("connect").with_post_list_tuning(tuning());
    store.migrate().await.expect("migrate");
    // A reused database was filled by this benchmark: tracker 1, tags 1 (A) and 2 (B).
    let (t, a, b) = if reuse {
        println!("  reusing the loaded database");
        (1, 1, 2)
    } else {
        let t = if shape == "demo" { fill(&store, posts).await } else { shapes::load(&store, shape, posts).await };
        let a = store.create_tag(t, "A", "#c0392b", 0).await.expect("tag").id;
        let b = store.create_tag(t, "B", "#2980b9", 0).await.expect("tag").id;
        (t, a, b)
    };
    println!("  tracker posts: {}", store.count_links(t).await.expect("count"));
    if tuning().in_memory {
        // A new process holds no in-memory table: the first pages in a link key's order sort the
        // range's links while it is read in the background (a server reads it at start). The
        // cases below are timed once it is read.
        let q = PostQuery { sort: PostSort::Reach, ..base() };
        let s = Instant::now();
        store.query_posts(t, &q).await.expect("page with total");
        println!("  before the in-memory table is read: reach desc, page with total {:.1} ms (the links sorted)", s.elapsed().as_secs_f64() * 1000.0);
        let s = Instant::now();
        store.warm_tracker(t).await.expect("warm");
        println!("  in-memory table read in {:.1} s", s.elapsed().as_secs_f64());
    }
    // Tag 1,000 recent posts with A (timed) and 500 of them with B.
    let recent: Vec<i64> = store
        .query_post_page(t, &PostQuery { per_page: 1000, ..base() })
        .await
        .expect("page")
        .iter()
        .map(|r| r.post_id)
        .collect();
    // Five rounds (the first is the first write after the load and the table's read).
    let mut rounds = Vec::new();
    for _ in 0..5 {
        store.set_post_tags(t, &recent, &[], &[a, b]).await.expect("untag");
        let s = Instant::now();
        store.set_post_tags(t, &recent, &[a], &[]).await.expect("tag");
        rounds.push(s.elapsed().as_secs_f64() * 1000.0);
    }
    let each = rounds.iter().map(|x| format!("{x:.1}")).collect::<Vec<_>>().join(", ");
    println!("  tag 1,000 posts in one request, 5 rounds: median {:.1} ms ({each})", pct(rounds.clone(), 0.5));
    store.set_post_tags(t, &recent[..500], &[b], &[]).await.expect("tag");

    let mut filters: Vec<(String, PostQuery)> = vec![("no filter".into(), base())];
    for level in ["positive", "slight_positive", "neutral", "slight_negative", "negative"] {
        let mut q = base();
        q.sentiment = vec![level];
        filters.push((format!("sentiment {level}"), q));
    }
    let mut q = base();
    q.exclude_retweets = true;
    filters.push(("exclude retweets".into(), q));
    let mut q = base();
    q.stories_only = true;
    filters.push(("instagram stories".into(), q));
    let mut q = base();
    q.filter.platforms = [hark_core::Platform::Youtube].into_iter().collect();
    filters.push(("platform youtube".into(), q));
    let mut q = base();
    q.filter.post_tags = vec![a, b];
    filters.push(("tags ANY".into(), q));
    let mut q = base();
    q.filter.post_tags = vec![a, b];
    q.filter.post_tags_all = true;
    filters.push(("tags ALL".into(), q));
    let mut q = base();
    q.filter.subtracker = Some(1);
    filters.push(("subtracker 1".into(), q));
    // The orders the posts page offers (its sort menu), each with every filter; then the orders
    // only the API offers (likes, the other directions) with a few filters.
    let page_orders = [
        ("date desc", PostSort::Date, false),
        ("date asc", PostSort::Date, true),
        ("engagement desc", PostSort::Engagement, false),
        ("reach desc", PostSort::Reach, false),
        ("engagement rate desc", PostSort::EngagementRate, false),
        ("impressions desc", PostSort::Impressions, false),
        ("sentiment desc", PostSort::Sentiment, false),
        ("sentiment asc", PostSort::Sentiment, true),
        ("user asc", PostSort::User, true),
    ];
    let api_orders = [
        ("likes desc", PostSort::Likes, false),
        ("likes asc", PostSort::Likes, true),
        ("engagement asc", PostSort::Engagement, true),
        ("reach asc", PostSort::Reach, true),
        ("engagement rate asc", PostSort::EngagementRate, true),
        ("impressions asc", PostSort::Impressions, true),
        ("user desc", PostSort::User, false),
    ];
    // (label, query, an order the page offers)
    let mut cases: Vec<(String, PostQuery, bool)> = Vec::new();
    for (fname, fq) in &filters {
        for (sname, sort, asc) in page_orders {
            let mut q = fq.clone();
            q.sort = sort;
            q.ascending = asc;
            cases.push((format!("{fname} / {sname}"), q, true));
        }
    }
    for (fname, fq) in &filters {
        let api_only: &[_] = if ["no filter", "sentiment negative", "platform youtube"].contains(&fname.as_str()) {
            &api_orders
        } else {
            &api_orders[..1]
        };
        for (sname, sort, asc) in api_only {
            let mut q = fq.clone();
            q.sort = *sort;
            q.ascending = *asc;
            cases.push((format!("{fname} / {sname} (API only)"), q, false));
        }
    }
    // Words of the shape's texts: a rare one, a common one, and two (the real tweets: 28, 7,718 and
    // 290 of 48,334).
    let searches = if shape == "real" {
        [("search rare 'prices'", "prices"), ("search common 'tomorrow'", "tomorrow"), ("search two words", "tomorrow game")]
    } else {
        [("search rare 'prices'", "prices"), ("search common 'kestrel'", "kestrel"), ("search two words", "kestrel coffee")]
    };
    for (label, words) in searches {
        let mut q = base();
        q.search = words.into();
        cases.push((format!("{label} / date desc"), q.clone(), true));
        q.sort = PostSort::Engagement;
        cases.push((format!("{label} / engagement desc"), q, true));
    }
    for page in [2, 10, 200] {
        for (sname, sort) in [("date", PostSort::Date), ("engagement", PostSort::Engagement)] {
            let mut q = base();
            q.page = page;
            q.sort = sort;
            cases.push((format!("page {page} / {sname} desc"), q, true));
        }
    }
    // `HARK_BENCH_CASES=search,page` keeps the cases whose label contains one of the words.
    if let Ok(only) = std::env::var("HARK_BENCH_CASES") {
        let words: Vec<&str> = only.split(',').filter(|w| !w.is_empty()).collect();
        cases.retain(|(label, _, _)| words.iter().any(|w| label.contains(w)));
    }
    let (mut slow, mut slow_api) = (Vec::new(), Vec::new());
    for (label, q, offered) in &cases {
        let p95 = time_query(&store, t, label, q, runs).await;
        if p95 > if q.search.is_empty() { 30.0 } else { 50.0 } {
            (if *offered { &mut slow } else { &mut slow_api }).push(label.clone());
        }
    }
    let offered = cases.iter().filter(|c| c.2).count();
    println!("  orders the page offers: {} of {} cases over target: {}", slow.len(), offered, slow.join("; "));
    println!("  orders only the API offers: {} of {} over: {}", slow_api.len(), cases.len() - offered, slow_api.join("; "));

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
    // Five rounds: the first delete finds the links as the load left them, the later ones the
    // earlier rounds' writes.
    let before = store.rollup_totals(t).await.expect("totals");
    let (mut dels, mut undos, mut n) = (Vec::new(), Vec::new(), 0);
    for _ in 0..5 {
        let s = Instant::now();
        n = store.soft_delete_posts(t, &ids, NOW).await.expect("delete");
        dels.push(s.elapsed().as_secs_f64() * 1000.0);
        let s = Instant::now();
        store.restore_posts(t, &ids, NOW).await.expect("undo");
        undos.push(s.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(store.rollup_totals(t).await.expect("totals"), before);
    }
    let show = |v: &[f64]| v.iter().map(|x| format!("{x:.0}")).collect::<Vec<_>>().join(", ");
    let (d, u) = (show(&dels), show(&undos));
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "  bulk delete {n} posts with rollups, 5 rounds: delete median {:.0} ms ({d}); undo median {:.0} ms ({u}); rollups back as before",
        median(&mut dels),
        median(&mut undos)
    );
    store.close().await;
}

/// Hark's posts-page limits, with the search limits the environment sets (to compare plans).
fn tuning() -> hark_store::PostListTuning {
    let d = hark_store::PostListTuning::default();
    hark_store::PostListTuning {
        search_set_max: env_usize("HARK_BENCH_SEARCH_SET", d.search_set_max as usize) as i64,
        search_examined: env_usize("HARK_BENCH_SEARCH_EXAMINED", d.search_examined as usize) as i64,
        in_memory: env_usize("HARK_BENCH_IN_MEMORY", 1) != 0,
        ..d
    }
}

fn main() {
    let runs = env_usize("HARK_BENCH_RUNS", 20);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let only = std::env::var("HARK_BENCH_ONLY").unwrap_or_default();
    let shapes: Vec<String> = std::env::var("HARK_BENCH_SHAPES")
        .unwrap_or_else(|_| "demo".into())
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if let Some(bad) = shapes.iter().find(|s| !["demo", "uniform", "zipf", "real"].contains(&s.as_str())) {
        eprintln!("HARK_BENCH_SHAPES: unknown shape {bad:?} (demo, uniform, zipf, real)");
        std::process::exit(2);
    }
    rt.block_on(async {
        for shape in &shapes {
            // The demo shape's search keeps about 1M of 1.15M generated posts; the others keep all.
            let posts = env_usize("HARK_BENCH_POSTS", if shape == "demo" { 1_150_000 } else { 1_000_000 });
            // A kept database of another shape than the demo's has the shape in its name.
            let suffix = if shape == "demo" { String::new() } else { format!("_{shape}") };
            if only != "postgres" {
                let dir = tempfile::tempdir().expect("tempdir");
                let path = std::env::var("HARK_BENCH_SQLITE_DB")
                    .map(|p| match p.strip_suffix(".db") {
                        Some(stem) => std::path::PathBuf::from(format!("{stem}{suffix}.db")),
                        None => std::path::PathBuf::from(format!("{p}{suffix}")),
                    })
                    .unwrap_or_else(|_| dir.path().join("bench.db"));
                let reuse = path.exists();
                bench("sqlite", &format!("sqlite://{}", path.display()), shape, posts, runs, reuse).await;
            }
            if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), only != "sqlite") {
                let kept = std::env::var("HARK_BENCH_PG_DB").ok().map(|n| format!("{n}{suffix}"));
                let name = kept.clone().unwrap_or_else(|| format!("hark_bench_posts_{}_{shape}", std::process::id()));
                let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
                let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
                    .bind(&name)
                    .fetch_optional(&mut c)
                    .await
                    .expect("pg_database");
                if exists.is_none() {
                    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
                }
                let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
                bench("postgres", &format!("{base}/{name}"), shape, posts, runs, exists.is_some()).await;
                if kept.is_none() {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
                }
            }
        }
    });
}
