//! Throughput of the demo generator and of enrichment, one thread.
//!
//!   cargo bench -p hark-ingest --bench demo_enrich
//!
//! HARK_BENCH_POSTS (default 1000000) posts are generated from a fixed seed; enrichment runs
//! on the first 200000 of them, on three shapes: as generated (X posts carry the platform's
//! language, so those skip detection), with every language hint removed (every post detected,
//! as for `hark analyze` on plain lines), and with the SemEval tweet texts in place of the
//! generated ones (no hints). Language detection alone is timed against whatlang's trigram
//! ranking over all of Hark's languages, the detector before whichlang took the Latin-script
//! majority, on the same texts in the same run.
//!
//! `HARK_BENCH_PROFILE_REAL=N` only enriches the first N real-text posts once and stops, for
//! counting instructions: `valgrind --tool=callgrind` on the bench binary with it set.

/// The allocator the `hark` binary ships with (its `main.rs`): the figures are those of the program
/// users run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shapes/mod.rs"]
mod shapes;

use std::hint::black_box;
use std::time::{Duration, Instant};

use hark_core::Post;
use hark_ingest::demo::DemoGenerator;
use hark_ingest::enrich::enrich;

/// The median of `rounds` timings of `f` over `posts`, in µs a post.
fn per_post(rounds: usize, posts: &[Post], f: &dyn Fn(&Post)) -> f64 {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for p in posts {
                f(black_box(p));
            }
            t.elapsed()
        })
        .collect();
    times.sort();
    times[rounds / 2].as_secs_f64() * 1e6 / posts.len().max(1) as f64
}

fn main() {
    let n: usize = std::env::var("HARK_BENCH_POSTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let start = 1_717_200_000_000;
    let end = start + 30 * 86_400_000;

    let t = Instant::now();
    let mut g = DemoGenerator::new(7);
    let setup = t.elapsed();
    let t = Instant::now();
    let mut bytes = 0usize;
    let mut kept = Vec::with_capacity(n.min(200_000));
    for p in g.generate(start, end, n) {
        bytes += p.text.len();
        if kept.len() < 200_000 {
            kept.push(p);
        } else {
            black_box(&p);
        }
    }
    let gen = t.elapsed();
    println!(
        "demo generator: {n} posts in {:.2} s = {:.0} posts/s (setup {:.1} ms, mean text {} bytes)",
        gen.as_secs_f64(),
        n as f64 / gen.as_secs_f64(),
        setup.as_secs_f64() * 1e3,
        bytes / n.max(1)
    );

    black_box(enrich(&kept[0])); // builds the enrichment tables once
    black_box(hark_enrich::language::detect_by_trigrams_only("warm the detector up"));
    let rounds = shapes::env_usize("HARK_BENCH_REPS", 3).max(1);

    let mut unhinted = kept.clone();
    for p in &mut unhinted {
        p.lang = None;
    }
    let texts = shapes::real_texts();
    let real: Vec<Post> = unhinted
        .iter()
        .zip(texts.iter().cycle())
        .map(|(p, t)| Post { text: t.clone(), ..p.clone() })
        .take(if texts.is_empty() { 0 } else { unhinted.len() })
        .collect();

    if let Ok(n) = std::env::var("HARK_BENCH_PROFILE_REAL") {
        let n: usize = n.parse().unwrap_or(20_000);
        for p in real.iter().take(n) {
            black_box(enrich(p));
        }
        return;
    }
    let shapes: [(&str, &[Post]); 3] =
        [("demo", &kept), ("demo, no language hints", &unhinted), ("real texts, no language hints", &real)];
    for (name, posts) in shapes {
        if posts.is_empty() {
            println!("{name}: skipped (../shared/data is not there)");
            continue;
        }
        let enrich_us = per_post(rounds, posts, &|p| {
            black_box(enrich(p));
        });
        let lang_us = per_post(rounds, posts, &|p| {
            black_box(hark_enrich::language::detect(&p.text));
        });
        let base_us = per_post(rounds, posts, &|p| {
            black_box(hark_enrich::language::detect_by_trigrams_only(&p.text));
        });
        println!(
            "enrich, {name}: {} posts, median of {rounds}: {:.0} posts/s, {enrich_us:.1} µs/post; \
             language alone {lang_us:.2} µs/post against {base_us:.2} for trigrams only ({:.1}x)",
            posts.len(),
            1e6 / enrich_us,
            base_us / lang_us
        );
    }

    // `hark analyze` on plain lines: parse, enrich and write the JSON, as the command does for
    // each line of standard input (the reading aside).
    if !texts.is_empty() {
        let lines: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut times: Vec<Duration> = (0..rounds)
            .map(|_| {
                let mut out = std::io::sink();
                let t = Instant::now();
                for line in &lines {
                    if let Some(a) = hark_ingest::analyze::analysis(black_box(line)) {
                        serde_json::to_writer(&mut out, &a).unwrap();
                    }
                }
                t.elapsed()
            })
            .collect();
        times.sort();
        let us = times[rounds / 2].as_secs_f64() * 1e6 / lines.len() as f64;
        println!(
            "hark analyze's work, real texts as plain lines: {} lines, median of {rounds}: {:.0} lines/s, {us:.1} µs/line",
            lines.len(),
            1e6 / us
        );
    }

    let parts: [(&str, &dyn Fn(&hark_core::Post)); 7] = [
        ("sentiment, the lexicon (other languages)", &|p| { black_box(hark_enrich::sentiment::score(&p.text)); }),
        ("sentiment, the learned model (English)", &|p| { black_box(hark_enrich::sentiment::model::predict(&p.text)); }),
        ("language", &|p| { black_box(hark_enrich::language::detect(&p.text)); }),
        ("entities", &|p| { black_box(hark_core::entities::Entities::extract(&p.text)); }),
        ("location", &|p| { black_box(p.author.location.as_deref().map(hark_enrich::geo::country_from_location)); }),
        ("coordinates", &|p| { black_box(p.coordinates.map(|(a, b)| hark_enrich::geo::country_from_coordinates(a, b))); }),
        ("gender", &|p| { black_box(hark_enrich::gender::from_display_name(&p.author.name)); }),
    ];
    println!("parts, demo, no language hints:");
    for (name, f) in parts {
        println!("  {name}: {:.2} µs/post", per_post(rounds, &unhinted, f));
    }
}
