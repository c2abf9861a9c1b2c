//! Throughput of the demo generator and of enrichment, one thread.
//!
//!   cargo bench -p hark-ingest --bench demo_enrich
//!
//! HARK_BENCH_POSTS (default 1000000) posts are generated from a fixed seed; enrichment runs
//! on the first 200000 of them.

use std::hint::black_box;
use std::time::Instant;

use hark_ingest::demo::DemoGenerator;
use hark_ingest::enrich::enrich;

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
    let t = Instant::now();
    for p in &kept {
        black_box(enrich(black_box(p)));
    }
    let e = t.elapsed();
    println!(
        "enrich: {} posts in {:.2} s = {:.0} posts/s, {:.1} µs/post",
        kept.len(),
        e.as_secs_f64(),
        kept.len() as f64 / e.as_secs_f64(),
        e.as_secs_f64() * 1e6 / kept.len() as f64
    );

    let parts: [(&str, &dyn Fn(&hark_core::Post)); 6] = [
        ("sentiment", &|p| { black_box(hark_enrich::sentiment::score(&p.text)); }),
        ("language", &|p| { black_box(hark_enrich::language::detect(&p.text)); }),
        ("entities", &|p| { black_box(hark_core::entities::Entities::extract(&p.text)); }),
        ("location", &|p| { black_box(p.author.location.as_deref().map(hark_enrich::geo::country_from_location)); }),
        ("coordinates", &|p| { black_box(p.coordinates.map(|(a, b)| hark_enrich::geo::country_from_coordinates(a, b))); }),
        ("gender", &|p| { black_box(hark_enrich::gender::from_display_name(&p.author.name)); }),
    ];
    for (name, f) in parts {
        let t = Instant::now();
        for p in &kept {
            f(black_box(p));
        }
        println!("  {name}: {:.2} µs/post", t.elapsed().as_secs_f64() * 1e6 / kept.len() as f64);
    }
}
