//! Matching throughput: one MatchSet over 10,000 trackers (about 50,000 terms) against the naive
//! per-tracker loop, on the same posts, on one thread.
//!
//! Run: `cargo bench -p hark-core --bench matching` (figures go to BENCHMARKS.md).

use std::time::Instant;

use hark_core::matcher::naive::NaiveMatcher;
use hark_core::post::Post;
use hark_core::matcher::Engine;
use hark_core::{MatchScratch, MatchSet, Platform, PlatformSet, TrackerCriteria, TrackerSearch};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const TRACKERS: usize = 10_000;
const POSTS: usize = 20_000;
const NAIVE_POSTS: usize = 500;
const ROUNDS: usize = 7;
const NAIVE_ROUNDS: usize = 3;
const MIN_ROUND: std::time::Duration = std::time::Duration::from_millis(400);

fn word(rng: &mut StdRng) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzaeiouaeiourstln";
    let len = rng.gen_range(4..=10);
    (0..len).map(|_| LETTERS[rng.gen_range(0..LETTERS.len())] as char).collect()
}

/// Brand-like vocabulary the trackers search for, and everyday words posts are mostly made of.
fn vocabularies(rng: &mut StdRng) -> (Vec<String>, Vec<String>) {
    let brands: Vec<String> = (0..40_000).map(|_| word(rng)).collect();
    let mut filler: Vec<String> = [
        "the", "a", "and", "to", "of", "in", "is", "it", "you", "that", "was", "for", "on", "are", "with", "as",
        "i", "his", "they", "be", "at", "one", "have", "this", "from", "or", "had", "by", "new", "love", "today",
        "just", "great", "my", "we", "so", "what", "out", "up", "more", "can", "all", "get", "like", "best",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    filler.extend((0..2_000).map(|_| word(rng)));
    (brands, filler)
}

fn term(rng: &mut StdRng, brands: &[String]) -> String {
    let w = &brands[rng.gen_range(0..brands.len())];
    match rng.gen_range(0..10) {
        0 | 1 => format!("#{w}"),
        2 => format!("{w} {}", brands[rng.gen_range(0..brands.len())]),
        3 => format!("@{w}"),
        _ => w.clone(),
    }
}

fn criteria(rng: &mut StdRng, brands: &[String]) -> TrackerCriteria {
    let rows = if rng.gen_bool(0.2) { 2 } else { 1 };
    let include: Vec<Vec<String>> =
        (0..rows).map(|r| (0..if r == 0 { rng.gen_range(2..=5) } else { 1 }).map(|_| term(rng, brands)).collect()).collect();
    let exclude = (0..rng.gen_range(0..=1)).map(|_| term(rng, brands)).collect();
    let subtrackers = (0..rng.gen_range(0..=2)).map(|_| term(rng, brands)).collect();
    let mut platforms = PlatformSet::empty();
    platforms.insert(Platform::Twitter);
    platforms.insert(Platform::Instagram);
    if rng.gen_bool(0.5) {
        platforms.insert(Platform::News);
    }
    TrackerCriteria {
        search: TrackerSearch { include, exclude },
        platforms,
        exclude_retweets: rng.gen_bool(0.1),
        verified_users: false,
        verified_tiktok_users: false,
        language: None,
        country_locations: Vec::new(),
        volume_limit: None,
        usernames: Default::default(),
        ignore: Default::default(),
        subtrackers,
        highlights: Vec::new(),
        sentiment_keywords: Default::default(),
    }
}

fn post(rng: &mut StdRng, i: usize, brands: &[String], filler: &[String]) -> Post {
    let n = rng.gen_range(12..=30);
    let mut text = String::new();
    for k in 0..n {
        if k > 0 {
            text.push_str(if rng.gen_bool(0.1) { ", " } else { " " });
        }
        let roll = rng.gen_range(0..100);
        if roll < 6 {
            let b = &brands[rng.gen_range(0..brands.len())];
            text.push_str(if rng.gen_bool(0.3) { "#" } else { "" });
            text.push_str(b);
        } else if roll < 8 {
            text.push_str("Café");
        } else if roll < 9 {
            text.push_str("https://example.com/p?x=1");
        } else {
            text.push_str(&filler[rng.gen_range(0..filler.len())]);
        }
    }
    if rng.gen_bool(0.3) {
        text.push_str(" ✨🔥");
    }
    let mut p = Post::new(Platform::Twitter, i.to_string(), text, 1_700_000_000_000);
    p.author.username = format!("user{}", rng.gen_range(0..50_000));
    p.flags.is_retweet = rng.gen_bool(0.2);
    p
}

/// CPU time this thread has run, in nanoseconds (Linux); the machine is shared, so rates per
/// CPU-second are the "one core" figures, with wall-clock rates beside them.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// Runs `f` (one pass over `n` posts) `rounds` times; each round repeats passes for at least
/// `MIN_ROUND` so the CPU clock's tick granularity does not matter. Returns (per-CPU-second
/// rates, wall-clock rates).
fn measure(rounds: usize, n: usize, mut f: impl FnMut()) -> (Vec<f64>, Vec<f64>) {
    f(); // warm-up
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let c0 = thread_cpu_ns();
        let t = Instant::now();
        let mut passes = 0usize;
        while passes == 0 || t.elapsed() < MIN_ROUND {
            f();
            passes += 1;
        }
        let w = t.elapsed().as_secs_f64();
        let c = match (c0, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
            _ => w,
        };
        cpu.push((n * passes) as f64 / c);
        wall.push((n * passes) as f64 / w);
    }
    (cpu, wall)
}

fn report(name: &str, (cpu, wall): &(Vec<f64>, Vec<f64>)) -> f64 {
    let m = median(cpu.clone());
    println!(
        "{name}: median {m:.0} posts per CPU-second (min {:.0}, max {:.0}); wall clock median {:.0} posts/s; {} rounds",
        cpu.iter().cloned().fold(f64::MAX, f64::min),
        cpu.iter().cloned().fold(0.0, f64::max),
        median(wall.clone()),
        cpu.len()
    );
    m
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut rng = StdRng::seed_from_u64(20_240_601);
    let (brands, filler) = vocabularies(&mut rng);
    let criteria: Vec<TrackerCriteria> = (0..TRACKERS).map(|_| criteria(&mut rng, &brands)).collect();
    let posts: Vec<Post> = (0..POSTS).map(|i| post(&mut rng, i, &brands, &filler)).collect();
    let list: Vec<(i64, &TrackerCriteria)> = criteria.iter().enumerate().map(|(i, c)| (i as i64 + 1, c)).collect();
    let terms: usize = criteria
        .iter()
        .map(|c| c.search.include.iter().map(Vec::len).sum::<usize>() + c.search.exclude.len() + c.subtrackers.len())
        .sum();
    let bytes: usize = posts.iter().map(|p| p.text.len()).sum();

    let t = Instant::now();
    let set = MatchSet::build(&list);
    let build = t.elapsed();
    let (kind, mem) = set.automaton_info();
    println!(
        "trackers {TRACKERS}, terms {terms}, distinct patterns {}, automaton {kind} {:.1} MB, built in {:.0} ms",
        set.pattern_count(),
        mem as f64 / 1e6,
        build.as_secs_f64() * 1e3
    );
    println!("posts {POSTS}, average {} bytes of text", bytes / POSTS);

    let mut norm = hark_core::text::NormText::new();
    report(
        "normalising only",
        &measure(ROUNDS, POSTS, || {
            for p in &posts {
                hark_core::matcher::normalize_post(p, &mut norm);
                std::hint::black_box(norm.as_str().len());
            }
        }),
    );
    let mut scratch = MatchScratch::new();
    let mut out = Vec::new();
    let mut matched = 0usize;
    let fast_median = report(
        "MatchSet (normalise, scan, evaluate)",
        &measure(ROUNDS, POSTS, || {
            matched = 0;
            for p in &posts {
                set.match_post_with(&mut scratch, p, None, None, &mut out);
                matched += out.len();
            }
        }),
    );
    println!("  ({matched} tracker matches per round)");
    for engine in [Engine::Dfa, Engine::Nfa] {
        let other = MatchSet::build_with(&list, engine);
        report(
            &format!("MatchSet with {:?}", other.automaton_info().0),
            &measure(ROUNDS, POSTS, || {
                for p in &posts {
                    other.match_post_with(&mut scratch, p, None, None, &mut out);
                }
            }),
        );
    }

    let mut naive = NaiveMatcher::new(&list);
    let sample = &posts[..NAIVE_POSTS];
    for p in sample {
        set.match_post_with(&mut scratch, p, None, None, &mut out);
        assert_eq!(naive.match_post(p, None, None), out, "naive and MatchSet disagree on post {}", p.id);
    }
    let slow_median = report(
        &format!("naive per-tracker loop ({NAIVE_POSTS} posts)"),
        &measure(NAIVE_ROUNDS, NAIVE_POSTS, || {
            for p in sample {
                std::hint::black_box(naive.match_post(p, None, None));
            }
        }),
    );
    println!("speed-up: {:.0}x", fast_median / slow_median);
}
