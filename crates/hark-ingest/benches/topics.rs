//! Trending topics and sentiment benchmark: one tracker of posts over 90 days in each data shape,
//! then for a 30-day window (unaligned edges) and All Time: the first layer of words and hashtags
//! by count and by trend, a second and a third drill-down layer under the top topics, the series
//! and the posts of a topic; the sentiment overview, its significant keywords and the posts table
//! in the sentiment page's sorts. Beside them a baseline that computes the same layer, overview and
//! keywords from the post rows of the request (`PageFilter::rows_only`), whose answers are compared
//! first. The first request of each backend (which reads the tracker's posts into memory) is timed
//! on its own.
//!
//! Shapes (`HARK_BENCH_SHAPES`, default all): `demo`, `uniform`, `zipf`, `real` (see
//! `benches/shapes`: the real shape's texts are the SemEval tweets in ../shared/data).
//!
//! `cargo bench -p hark-ingest --bench topics` — `HARK_BENCH_POSTS` (default 1,000,000),
//! `HARK_BENCH_REPS` (default 20: p95 is the 19th), `HARK_BENCH_BASE_REPS` (default 3; 0 skips the
//! baseline), `HARK_BENCH_BACKENDS` (default `sqlite,postgres`), `HARK_BENCH_POSTGRES_URL`,
//! `HARK_BENCH_WRITER_ROUNDS` (default 1: groups of four re-analyses comparing one writer with the
//! database's default, on PostgreSQL; 0 skips them).

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shapes/mod.rs"]
mod shapes;

use std::time::Instant;

use hark_core::PlatformSet;
use hark_store::{PageFilter, PostQuery, PostSort, Store, TermKind, TermRef, TopicQuery, TopicSort};
use shapes::{load, time, DAY, NOW};

const TOPIC_TARGET: f64 = 150.0;
const LAYER_TARGET: f64 = 250.0;
const SENTIMENT_TARGET: f64 = 100.0;

async fn bench(backend: &str, url: &str, shape: &str, posts: usize, reps: usize, base_reps: usize) {
    let store = Store::connect(url).await.expect("connect");
    store.migrate().await.expect("migrate");
    let t = load(&store, shape, posts).await;
    let ranges = [("30 days", Some(NOW - 30 * DAY + 17 * 60_000), Some(NOW - 3 * 60_000)), ("All Time", None, None)];
    let mut worst: Vec<(f64, f64, String)> = Vec::new();
    let mut first = true;
    for (label, start, end) in ranges {
        let f = PageFilter { platforms: PlatformSet::all(), start, end, ..Default::default() };
        let layer = |kind, sort, path: Vec<TermRef>| TopicQuery { filter: f.clone(), kind, path, sort, ascending: false, page: 1, per_page: 20 };
        let cold = Instant::now();
        let l1 = store.topic_layer(t, &layer(TermKind::Word, TopicSort::Count, vec![])).await.expect("layer");
        if first {
            println!("  {backend} {shape}: first request (reads the tracker's posts into memory) {:.0} ms", cold.elapsed().as_secs_f64() * 1000.0);
            first = false;
        }
        let top = l1.items.first().map(|i| TermRef::new(i.kind, &i.text));
        let l2 = match &top {
            Some(p) => store.topic_layer(t, &layer(TermKind::Word, TopicSort::Count, vec![p.clone()])).await.expect("layer 2"),
            None => l1.clone(),
        };
        let second = l2.items.first().map(|i| TermRef::new(i.kind, &i.text));
        let path1: Vec<TermRef> = top.iter().cloned().collect();
        let path2: Vec<TermRef> = top.iter().chain(second.iter()).cloned().collect();
        println!(
            "  {backend} {shape} {label} ({} posts, {} words; layer 2 under {:?}: {} posts; layer 3 under {:?}): case | p50 ms | p95 ms | target",
            l1.posts,
            l1.total,
            path1.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(),
            l2.posts,
            path2.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(),
        );
        let mut row = |case: String, p50: f64, p95: f64, target: f64| {
            let mark = if p95 <= target { "" } else { "  ← over" };
            println!("  | {case} | {p50:.1} | {p95:.1} | {target:.0}{mark}");
            worst.push((p95 / target, p95, format!("{label} {case}")));
        };
        let layers = [
            ("topics: words by count", layer(TermKind::Word, TopicSort::Count, vec![]), TOPIC_TARGET),
            ("topics: words by trend", layer(TermKind::Word, TopicSort::Trend, vec![]), TOPIC_TARGET),
            ("topics: hashtags by count", layer(TermKind::Hashtag, TopicSort::Count, vec![]), TOPIC_TARGET),
            ("topics: layer 2", layer(TermKind::Word, TopicSort::Count, path1.clone()), LAYER_TARGET),
            ("topics: layer 3", layer(TermKind::Word, TopicSort::Trend, path2.clone()), LAYER_TARGET),
        ];
        for (case, q, target) in &layers {
            let (p50, p95, r) = time(reps, || store.topic_layer(t, q)).await;
            r.expect("layer");
            row(case.to_string(), p50, p95, *target);
        }
        let items: Vec<TermRef> = l1.items.iter().take(5).map(|i| TermRef::new(i.kind, &i.text)).collect();
        let (p50, p95, r) = time(reps, || store.topic_series(t, &f, &[], &items)).await;
        r.expect("series");
        row("topics: series of 5".into(), p50, p95, TOPIC_TARGET);
        let (p50, p95, r) = time(reps, || store.topic_series(t, &f, &path1, &items)).await;
        r.expect("series");
        row("topics: series under layer 2".into(), p50, p95, LAYER_TARGET);
        let (p50, p95, r) = time(reps, || store.topic_posts(t, &f, &path2, 20, 0)).await;
        r.expect("posts");
        row("topics: posts of layer 3".into(), p50, p95, LAYER_TARGET);
        let (p50, p95, r) = time(reps, || store.sentiment_summary(t, &f)).await;
        r.expect("sentiment");
        row("sentiment: score and over time".into(), p50, p95, SENTIMENT_TARGET);
        let exclude = vec!["coffee".to_string()];
        let (p50, p95, r) = time(reps, || store.significant_keywords(t, &f, &exclude, 20)).await;
        r.expect("keywords");
        row("sentiment: significant keywords".into(), p50, p95, SENTIMENT_TARGET);
        for (name, sort) in [
            ("date", PostSort::Date),
            ("user", PostSort::User),
            ("postText", PostSort::Text),
            ("engagements", PostSort::Engagement),
            ("reach", PostSort::Reach),
            ("sentimentScore", PostSort::Sentiment),
        ] {
            let q = PostQuery { filter: f.clone(), sort, page: 1, per_page: 20, ..Default::default() };
            let (p50, p95, r) = time(reps, || store.query_post_page(t, &q)).await;
            r.expect("posts");
            row(format!("sentiment: posts by {name}"), p50, p95, SENTIMENT_TARGET);
        }
        if base_reps > 0 {
            let rows = PageFilter { rows_only: true, ..f.clone() };
            let q = layer(TermKind::Word, TopicSort::Trend, vec![]);
            let qr = TopicQuery { filter: rows.clone(), ..q.clone() };
            let (fast, _, a) = time(reps, || store.topic_layer(t, &q)).await;
            let (slow, _, b) = time(base_reps, || store.topic_layer(t, &qr)).await;
            assert_eq!(a.expect("layer"), b.expect("baseline"), "baseline layer");
            println!("  | baseline (post rows), words by trend | {slow:.1} | | ratio {:.1}x", slow / fast.max(0.001));
            let (fast, _, a) = time(reps, || store.sentiment_summary(t, &f)).await;
            let (slow, _, b) = time(base_reps, || store.sentiment_summary(t, &rows)).await;
            assert_eq!(a.expect("sentiment"), b.expect("baseline"), "baseline sentiment");
            println!("  | baseline (post rows), sentiment | {slow:.1} | | ratio {:.1}x", slow / fast.max(0.001));
            let (fast, _, a) = time(reps, || store.significant_keywords(t, &f, &exclude, 20)).await;
            let (slow, _, b) = time(base_reps, || store.significant_keywords(t, &rows, &exclude, 20)).await;
            assert_eq!(a.expect("keywords"), b.expect("baseline"), "baseline keywords");
            println!("  | baseline (post rows), keywords | {slow:.1} | | ratio {:.1}x", slow / fast.max(0.001));
        }
    }
    // Save and Reanalyze with new keywords: the sentiment-only re-analysis, then as the baseline a
    // full one (a search edit: every post matched again) giving the same buckets.
    let tracker = store.tracker_by_id(t).await.expect("tracker").expect("tracker row");
    let mut c = hark_ingest::demo::demo_criteria();
    c.sentiment_keywords = hark_core::criteria::SentimentKeywords {
        positive: vec!["love".into(), "great".into()],
        neutral: vec!["tomorrow".into()],
        negative: vec!["bad".into(), "kestrelappdown".into()],
    };
    let edit = |c: &hark_core::TrackerCriteria| hark_store::TrackerEdit {
        title: tracker.title.clone(),
        platforms: tracker.platforms,
        criteria: serde_json::to_string(c).expect("json"),
        volume_limit: None,
        mode: "reanalyze",
        user_id: tracker.owner_id,
    };
    let links = store.count_links(t).await.expect("links");
    store.edit_tracker(t, &edit(&c), 1).await.expect("edit");
    let start = Instant::now();
    while hark_ingest::reanalysis::run_next(&store).await.expect("re-analysis") {}
    let secs = start.elapsed().as_secs_f64();
    let all = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
    let fast = store.sentiment_summary(t, &all).await.expect("sentiment");
    let rate = links as f64 / secs;
    println!("  | re-analysis, new sentiment keywords ({links} posts) | {:.1} s | {rate:.0} posts/s | target 50,000 posts/s{}", secs, if rate >= 50_000.0 { "" } else { "  ← under" });
    // One writer against the database's default number, alternated (ABBA): the keywords go back
    // and forth, so each run moves the same posts, and the last leaves the new keywords.
    let defaults = hark_ingest::reanalysis::writers(store.backend());
    let groups: usize = std::env::var("HARK_BENCH_WRITER_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    if defaults > 1 && groups > 0 {
        let before = hark_ingest::demo::demo_criteria();
        let (mut one, mut many) = (Vec::new(), Vec::new());
        for i in 0..groups * 4 {
            let w = if matches!(i % 4, 0 | 3) { 1 } else { defaults };
            store.edit_tracker(t, &edit(if i % 2 == 0 { &before } else { &c }), 10 + i as i64).await.expect("edit");
            let start = Instant::now();
            while hark_ingest::reanalysis::run_next_with(&store, w).await.expect("re-analysis") {}
            let s = start.elapsed().as_secs_f64();
            println!("  |   round {}: {w} writer(s) {s:.1} s, {:.0} posts/s", i + 1, links as f64 / s);
            if w == 1 { one.push(s) } else { many.push(s) }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            let n = v.len();
            if n % 2 == 0 { (v[n / 2 - 1] + v[n / 2]) / 2.0 } else { v[n / 2] }
        };
        let (a, b) = (median(&mut one), median(&mut many));
        println!(
            "  | re-analysis, 1 writer against {defaults} (medians of {}, alternated) | {:.0} against {:.0} posts/s | ratio {:.2}x",
            one.len(),
            links as f64 / a,
            links as f64 / b,
            a / b
        );
        assert_eq!(store.sentiment_summary(t, &all).await.expect("sentiment").counts, fast.counts, "re-analysis rounds");
    }
    if base_reps > 0 {
        c.highlights = vec!["kestrel".into()];
        store.edit_tracker(t, &edit(&c), 2).await.expect("edit");
        let start = Instant::now();
        while hark_ingest::reanalysis::run_next(&store).await.expect("re-analysis") {}
        let base = start.elapsed().as_secs_f64();
        // A full re-analysis also drops the posts that no longer match the search (the real
        // shape's tweets joined as indirect matches): the buckets are compared when none left.
        let left = store.count_links(t).await.expect("links");
        if left == links {
            assert_eq!(store.sentiment_summary(t, &all).await.expect("sentiment").counts, fast.counts, "baseline re-analysis");
        } else {
            println!("  (the full re-analysis removed {} posts that no longer match: answers not compared)", links - left);
        }
        println!("  | baseline: full re-analysis (every post matched again) | {base:.1} s | {:.0} posts/s | ratio {:.1}x", links as f64 / base, base / secs);
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    if let Some((ratio, p95, case)) = worst.first() {
        println!("  {backend} {shape}: worst p95 against its target {p95:.1} ms ({case}; {:.0}% of the target)", ratio * 100.0);
    }
    store.close().await;
}

fn main() {
    shapes::main_with("topics", |backend, url, shape, run| async move { bench(backend, &url, &shape, run.posts, run.reps, run.base_reps).await });
}
