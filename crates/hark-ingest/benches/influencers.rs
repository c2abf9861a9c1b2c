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

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shapes/mod.rs"]
mod shapes;

use std::time::Instant;

use hark_core::PlatformSet;
use hark_store::{CountField, CountFilter, InfluencerQuery, InfluencerSort, PageFilter, Store};
use shapes::{load, time, DAY, NOW};

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
    shapes::main_with("inf", |backend, url, shape, run| async move { bench(backend, &url, &shape, run.posts, run.reps, run.base_reps).await });
}
