//! End-to-end ingest benchmark: NDJSON lines are parsed, enriched, matched against the trackers and
//! written with their rollups, into SQLite and (when `HARK_BENCH_POSTGRES_URL` is set) PostgreSQL.
//!
//! `cargo bench -p hark-ingest --bench ingest` — `HARK_BENCH_POSTS` sets the post count
//! (default 1,000,000), `HARK_BENCH_TRACKERS` the number of other trackers (default 200),
//! `HARK_BENCH_SHAPES` the data shapes (default `demo`; `uniform`, `zipf` and `real` as the page
//! benchmarks make them: their posts are imported into the first tracker as a platform's search
//! returned them, so real texts that lack its terms still join it), `HARK_BENCH_BACKENDS` the
//! databases (default both; PostgreSQL when `HARK_BENCH_POSTGRES_URL` is set).
//! `HARK_BENCH_DROP_INDEXES=a,b` drops those indexes after the migrations, to measure what they
//! cost the writer. `HARK_BENCH_BATCH` sets the posts a write takes (default the pipeline's batch;
//! an import through the API writes each request as one).
//!
//! The baseline, in the same run and on a database of its own: a bare insert of the same rows,
//! the posts' columns and the links' columns into two tables with no key, index, full-text index
//! or rollup, in the same batches and statements of the same shape. Hark's rate is given as a
//! fraction of it: what the rest of ingest (the keys, the indexes the pages read, the search
//! index, the rollups) costs.

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::Instant;

use hark_core::{Friendly, Post, TrackerCriteria, TrackerSearch};
use hark_ingest::demo::{demo_criteria, DemoGenerator};
use hark_ingest::pipeline::{compile, prepare_for, BATCH};
use hark_store::{NewTracker, PostRecord, Store};
use rand::{Rng, SeedableRng};

mod shapes;

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

/// Posts a batch takes: `HARK_BENCH_BATCH`, by default the pipeline's (an import through the API
/// writes each request's posts as one batch: the load test's feeder sends 250).
fn batch_size() -> usize {
    std::env::var("HARK_BENCH_BATCH").ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(BATCH)
}

/// Parses, enriches and matches the next batch on a blocking thread while the current batch is
/// written, as the pipeline does.
async fn run(store: &Store, lines: &Arc<Vec<String>>, trackers: &[(i64, String)], searched_for: Option<i64>) -> (f64, Vec<f64>) {
    let matcher = Arc::new(compile(trackers).expect("compile"));
    let batch = batch_size();
    let n = lines.len();
    let spawn = |from: usize| {
        let lines = lines.clone();
        let m = matcher.clone();
        tokio::task::spawn_blocking(move || {
            let posts: Vec<Post> =
                lines[from..(from + batch).min(lines.len())].iter().filter_map(|l| serde_json::from_str(l).ok()).collect();
            prepare_for(&m, &posts, searched_for)
        })
    };
    let start = Instant::now();
    let mut segment_start = Instant::now();
    let mut segments = Vec::new();
    let mut next = Some(spawn(0));
    // Two batches' writes in flight, in order, as the pipeline writes a file's batches.
    let mut writes = hark_ingest::pipeline::Writes::new(store);
    let mut from = 0;
    let segment = (n / 10).max(batch);
    let mut since_segment = 0;
    let (mut waiting, mut writing) = (0f64, 0f64);
    while let Some(h) = next.take() {
        let w = Instant::now();
        let records = h.await.expect("prepare");
        waiting += w.elapsed().as_secs_f64();
        from += batch;
        if from < n {
            next = Some(spawn(from));
        }
        let w = Instant::now();
        if batch == BATCH {
            writes.start(records, 1, from >= n).await.expect("ingest");
        } else {
            // An import through the API: each request's posts are a batch of their own.
            store.ingest_batch(&records, 1).await.expect("ingest");
        }
        writing += w.elapsed().as_secs_f64();
        since_segment += batch.min(n - (from - batch));
        if since_segment >= segment {
            segments.push(since_segment as f64 / segment_start.elapsed().as_secs_f64());
            since_segment = 0;
            segment_start = Instant::now();
        }
    }
    let w = Instant::now();
    for r in writes.finish().await {
        r.expect("ingest");
    }
    writing += w.elapsed().as_secs_f64();
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

/// The bare tables: every column ingest writes to `posts` and `tracker_posts`, nothing else.
const BARE_TABLES: [&str; 2] = [
    "CREATE TABLE bare_posts (post_key TEXT, platform TEXT, external_id TEXT, created_at BIGINT, collected_at BIGINT, \
     updated_at BIGINT, author_id TEXT, author_username TEXT, author_name TEXT, author_avatar TEXT, author_followers BIGINT, \
     author_verified BOOLEAN, author_location TEXT, text TEXT, title TEXT, url TEXT, lang TEXT, post_type TEXT, \
     is_story BOOLEAN, likes BIGINT, shares BIGINT, comments BIGINT, views BIGINT, dislikes BIGINT, impressions BIGINT, \
     reach BIGINT, engagement BIGINT, engagement_rate DOUBLE PRECISION, sentiment DOUBLE PRECISION, sentiment_bucket TEXT, \
     country TEXT, gender TEXT, source TEXT, device TEXT, media TEXT, data TEXT, terms TEXT, region TEXT)",
    "CREATE TABLE bare_links (tracker_id BIGINT, post_id BIGINT, created_at BIGINT, matched_at BIGINT, platform TEXT, \
     subtrackers BIGINT, sentiment_rule TEXT, engagement BIGINT, followers BIGINT, rate DOUBLE PRECISION, impressions BIGINT, \
     sentiment DOUBLE PRECISION, author_sort TEXT, bucket TEXT, post_kind SMALLINT, text_sort TEXT, has_media SMALLINT, \
     visibility BIGINT)",
];

/// Inserts a batch's posts and links into the bare tables in one transaction, in chunks of the
/// sizes ingest uses (SQLite: 841 posts, 1,800 links a statement; PostgreSQL: 1,578 posts).
macro_rules! bare_batch {
    ($name:ident, $db:ty) => {
        async fn $name(pool: &sqlx::Pool<$db>, records: &[PostRecord], next_id: &mut i64, posts_chunk: usize) {
    let mut tx = pool.begin().await.expect("bare begin");
    let terms: Vec<String> = records.iter().map(|p| serde_json::to_string(&p.terms).expect("terms")).collect();
    let first = *next_id;
    for (n, chunk) in records.chunks(posts_chunk).enumerate() {
        let mut q = sqlx::QueryBuilder::<$db>::new(
            "INSERT INTO bare_posts (post_key, platform, external_id, created_at, collected_at, updated_at, author_id, \
             author_username, author_name, author_avatar, author_followers, author_verified, author_location, text, title, url, \
             lang, post_type, is_story, likes, shares, comments, views, dislikes, impressions, reach, engagement, \
             engagement_rate, sentiment, sentiment_bucket, country, gender, source, device, media, data, terms, region) ",
        );
        q.push_values(chunk.iter().enumerate(), |mut b, (i, p)| {
            b.push_bind(p.post_key.as_str())
                .push_bind(p.platform.name())
                .push_bind(p.external_id.as_str())
                .push_bind(p.created_at)
                .push_bind(1i64)
                .push_bind(1i64)
                .push_bind(p.author_id.as_str())
                .push_bind(p.author_username.as_str())
                .push_bind(p.author_name.as_str())
                .push_bind(p.author_avatar.as_deref())
                .push_bind(p.author_followers)
                .push_bind(p.author_verified)
                .push_bind(p.author_location.as_deref())
                .push_bind(p.text.as_str())
                .push_bind(p.title.as_deref())
                .push_bind(p.url.as_deref())
                .push_bind(p.lang.as_deref())
                .push_bind(p.post_type.as_str())
                .push_bind(p.is_story)
                .push_bind(p.likes)
                .push_bind(p.shares)
                .push_bind(p.comments)
                .push_bind(p.views)
                .push_bind(p.dislikes)
                .push_bind(p.impressions)
                .push_bind(p.reach)
                .push_bind(p.engagement)
                .push_bind(p.engagement_rate)
                .push_bind(p.sentiment)
                .push_bind(p.sentiment_bucket.as_str())
                .push_bind(p.country.as_deref())
                .push_bind(p.gender.and_then(hark_core::Gender::stored))
                .push_bind(p.source.as_deref())
                .push_bind(p.device.as_deref())
                .push_bind(p.media.as_deref())
                .push_bind(p.data.as_str())
                .push_bind(terms[n * posts_chunk + i].as_str())
                .push_bind(p.region.as_deref());
        });
        q.build().execute(&mut *tx).await.expect("bare posts");
    }
    let links: Vec<(i64, &PostRecord, &hark_store::TrackerLink)> =
        records.iter().enumerate().flat_map(|(i, p)| p.links.iter().map(move |l| (first + i as i64, p, l))).collect();
    *next_id += records.len() as i64;
    for chunk in links.chunks(1800) {
        let mut q = sqlx::QueryBuilder::<$db>::new(
            "INSERT INTO bare_links (tracker_id, post_id, created_at, matched_at, platform, subtrackers, sentiment_rule, \
             engagement, followers, rate, impressions, sentiment, author_sort, bucket, post_kind, text_sort, has_media, visibility) ",
        );
        q.push_values(chunk, |mut b, (id, p, l)| {
            b.push_bind(l.tracker_id)
                .push_bind(*id)
                .push_bind(p.created_at)
                .push_bind(1i64)
                .push_bind(p.platform.name())
                .push_bind(l.subtrackers)
                .push_bind(l.sentiment)
                .push_bind(p.engagement)
                .push_bind(p.author_followers)
                .push_bind(p.engagement_rate.unwrap_or(0.0))
                .push_bind(p.impressions)
                .push_bind(p.sentiment)
                .push("LOWER(")
                .push_bind_unseparated(p.author_name.as_str())
                .push_unseparated(")")
                .push_bind(l.sentiment.unwrap_or(p.sentiment_bucket.as_str()))
                .push_bind(0i16)
                .push("LOWER(SUBSTR(")
                .push_bind_unseparated(p.text.as_str())
                .push_unseparated(", 1, 16))")
                .push_bind(p.media.is_some() as i16)
                .push_bind(1i64);
        });
        q.build().execute(&mut *tx).await.expect("bare links");
    }
    tx.commit().await.expect("bare commit");
        }
    };
}
bare_batch!(bare_batch_sqlite, sqlx::Sqlite);
bare_batch!(bare_batch_postgres, sqlx::Postgres);

enum BarePool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// The bare insert of the same batches (prepared again, untimed): posts per second of insert time.
async fn bare(pool: &BarePool, lines: &Arc<Vec<String>>, trackers: &[(i64, String)], searched_for: Option<i64>) -> f64 {
    for t in BARE_TABLES {
        match pool {
            BarePool::Sqlite(p) => sqlx::query(t).execute(p).await.map(|_| ()),
            BarePool::Postgres(p) => sqlx::query(t).execute(p).await.map(|_| ()),
        }
        .expect("bare table");
    }
    let matcher = compile(trackers).expect("compile");
    let (mut writing, mut next_id) = (0f64, 1i64);
    for from in (0..lines.len()).step_by(BATCH) {
        let posts: Vec<Post> =
            lines[from..(from + BATCH).min(lines.len())].iter().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let records = prepare_for(&matcher, &posts, searched_for);
        let w = Instant::now();
        match pool {
            BarePool::Sqlite(p) => bare_batch_sqlite(p, &records, &mut next_id, 32_000 / 38).await,
            BarePool::Postgres(p) => bare_batch_postgres(p, &records, &mut next_id, 60_000 / 38).await,
        }
        writing += w.elapsed().as_secs_f64();
    }
    lines.len() as f64 / writing
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Drops the indexes `HARK_BENCH_DROP_INDEXES` names (none by default), after the migrations.
async fn drop_indexes(name: &str, url: &str) {
    let Ok(list) = std::env::var("HARK_BENCH_DROP_INDEXES") else { return };
    for index in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let sql = format!("DROP INDEX IF EXISTS {index}");
        if name == "sqlite" {
            let mut c = <sqlx::SqliteConnection as sqlx::Connection>::connect(url).await.expect("connect");
            sqlx::query(&sql).execute(&mut c).await.expect("drop index");
        } else {
            let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(url).await.expect("connect");
            sqlx::query(&sql).execute(&mut c).await.expect("drop index");
        }
        println!("  dropped index {index}");
    }
}

async fn bench(name: &str, url: &str, bare_url: &str, lines: &Arc<Vec<String>>, others: usize, shape: &str) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    drop_indexes(name, url).await;
    let trackers = setup(&store, others).await;
    // The shapes other than the demo's come as a platform's search for the first tracker returns
    // them (real texts lack its terms).
    let searched_for = (shape != "demo").then(|| trackers[0].0);
    let cpu_before = thread_cpu();
    let (overall, segments) = run(&store, lines, &trackers, searched_for).await;
    let cpu: Vec<String> = thread_cpu()
        .into_iter()
        .map(|(name, secs)| (name.clone(), secs - cpu_before.get(&name).copied().unwrap_or(0.0)))
        .filter(|(_, secs)| *secs >= 0.05)
        .map(|(name, secs)| format!("{name} {secs:.1}s"))
        .collect();
    println!("  CPU by thread: {}", cpu.join(", "));
    let stored = store.count_links(trackers[0].0).await.expect("count");
    println!(
        "{name:<10} {shape:<8} {:>9} posts  overall {:>8.0} posts/s  median of {} segments {:>8.0} posts/s  slowest {:>8.0}  (first tracker kept {stored})",
        lines.len(),
        overall,
        segments.len(),
        median(segments.clone()),
        segments.iter().cloned().fold(f64::INFINITY, f64::min),
    );
    store.close().await;
    let bare_rate = if name == "sqlite" {
        let opts = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(bare_url)
            .expect("bare url")
            .create_if_missing(true)
            .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
            .synchronous(sqlx::sqlite::SqliteSynchronous::Normal);
        let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(opts).await.expect("bare connect");
        let pool = BarePool::Sqlite(pool);
        let r = bare(&pool, lines, &trackers, searched_for).await;
        if let BarePool::Sqlite(p) = pool {
            p.close().await;
        }
        r
    } else {
        let pool = sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(bare_url).await.expect("bare connect");
        let pool = BarePool::Postgres(pool);
        let r = bare(&pool, lines, &trackers, searched_for).await;
        if let BarePool::Postgres(p) = pool {
            p.close().await;
        }
        r
    };
    println!(
        "{name:<10} {shape:<8} bare insert of the same rows (no keys, indexes, search index or rollups): {bare_rate:>8.0} posts/s; \
         Hark's overall rate is {:.0}% of it",
        overall / bare_rate * 100.0
    );
}

/// The posts of a shape as NDJSON lines: the demo generator's, with accounts (and texts) replaced
/// as the page benchmarks' shapes replace them.
fn shape_lines(shape: &str, posts: usize, now: i64) -> Vec<String> {
    let texts = if shape == "real" { shapes::real_texts() } else { Vec::new() };
    if shape == "real" && texts.is_empty() {
        println!("  (../shared/data not found: real texts replaced by generated ones)");
    }
    let zipf = (shape == "zipf").then(|| shapes::Zipf::new(shapes::accounts(), 1.1));
    let mut rng = shapes::Rng(0x2545_F491_4F6C_DD1D);
    DemoGenerator::new(42)
        .generate(now - 90 * 86_400_000, now, posts)
        .map(|mut p| {
            match (shape, &zipf) {
                ("uniform" | "real", _) => {
                    let n = rng.next() % shapes::accounts();
                    shapes::as_account(&mut p, n, &texts, &mut rng);
                }
                ("zipf", Some(z)) => {
                    let n = z.sample(&mut rng);
                    shapes::as_account(&mut p, n, &texts, &mut rng);
                }
                _ => {}
            }
            serde_json::to_string(&p).expect("json")
        })
        .collect()
}

fn main() {
    let posts = env_usize("HARK_BENCH_POSTS", 1_000_000);
    let others = env_usize("HARK_BENCH_TRACKERS", 200);
    let shape_list = std::env::var("HARK_BENCH_SHAPES").unwrap_or_else(|_| "demo".into());
    let backends = std::env::var("HARK_BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let now = 1_790_000_000_000i64;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    for shape in shape_list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let t = Instant::now();
        let lines = shape_lines(shape, posts, now);
        let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
        println!(
            "data: {posts} {shape} posts over 90 days as NDJSON ({:.0} MB), {} trackers; generated in {:.1}s",
            bytes as f64 / 1e6,
            others + 1,
            t.elapsed().as_secs_f64()
        );
        let lines = Arc::new(lines);
        rt.block_on(async {
            if backends.contains("sqlite") {
                let dir = tempfile::tempdir().expect("tempdir");
                let db = |f: &str| format!("sqlite://{}", dir.path().join(f).display());
                bench("sqlite", &db("bench.db"), &db("bare.db"), &lines, others, shape).await;
            }
            if let (Ok(admin), true) = (std::env::var("HARK_BENCH_POSTGRES_URL"), backends.contains("postgres")) {
                let name = format!("hark_bench_{}", std::process::id());
                let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("pg admin");
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut c).await.expect("create db");
                let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin.clone());
                sqlx::query(&format!("CREATE DATABASE {name}_bare")).execute(&mut c).await.expect("create db");
                bench("postgres", &format!("{base}/{name}"), &format!("{base}/{name}_bare"), &lines, others, shape).await;
                for db in [name.clone(), format!("{name}_bare")] {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")).execute(&mut c).await;
                }
            }
        });
    }
}
