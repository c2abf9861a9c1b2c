//! Sentiment throughput on one core, against the reference Python vaderSentiment on the same
//! lines, plus the share of lines where both land in the same bucket.
//!
//!   cargo bench -p hark-enrich --bench sentiment
//!
//! Environment: HARK_BENCH_POSTS (default 200000) lines generated from a fixed seed, or
//! HARK_BENCH_LINES=path to score a file of your own (one post per line); HARK_BENCH_ROUNDS
//! (default 7) Rust rounds; HARK_BENCH_REF_LIMIT (default 50000) lines timed in Python, whose
//! three rounds take a while; HARK_BENCH_PYTHON (default python3).

use hark_enrich::sentiment::model::predict;
use hark_enrich::sentiment::{bucket, score};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let lines: Vec<String> = match std::env::var("HARK_BENCH_LINES") {
        Ok(path) => std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
            .lines()
            .map(str::to_owned)
            .collect(),
        Err(_) => generate(env_usize("HARK_BENCH_POSTS", 200_000), 0x5eed_cafe),
    };
    let rounds = env_usize("HARK_BENCH_ROUNDS", 7).max(1);
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    println!("sentiment: {} lines, {:.1} MB, mean {} bytes/line", lines.len(), bytes as f64 / 1e6, bytes / lines.len().max(1));

    // Warm-up builds the tables (not timed: it happens once per process).
    let started = Instant::now();
    black_box(score("warm up :)"));
    println!("  table build (once per process): {:.1} ms", started.elapsed().as_secs_f64() * 1e3);

    let mut rates = Vec::new();
    for _ in 0..rounds {
        let started = Instant::now();
        for line in &lines {
            black_box(score(black_box(line)));
        }
        rates.push(lines.len() as f64 / started.elapsed().as_secs_f64());
    }
    let rust_rate = median(rates.clone());
    println!(
        "  hark-enrich: median {:.0} posts/s over {rounds} rounds (min {:.0}, max {:.0}), one thread",
        rust_rate,
        rates.iter().cloned().fold(f64::INFINITY, f64::min),
        rates.iter().cloned().fold(0.0, f64::max)
    );

    // The learned model (`sentiment::model::predict`), alternated round by round with the
    // lexicon so both see the same machine load.
    black_box(predict("warm up :)"));
    let (mut model_rates, mut lexicon_rates) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let started = Instant::now();
        for line in &lines {
            black_box(predict(black_box(line)));
        }
        model_rates.push(lines.len() as f64 / started.elapsed().as_secs_f64());
        let started = Instant::now();
        for line in &lines {
            black_box(score(black_box(line)));
        }
        lexicon_rates.push(lines.len() as f64 / started.elapsed().as_secs_f64());
    }
    println!(
        "  learned model: median {:.0} posts/s over {rounds} rounds (min {:.0}, max {:.0}), one thread; lexicon alternated with it: median {:.0}",
        median(model_rates.clone()),
        model_rates.iter().cloned().fold(f64::INFINITY, f64::min),
        model_rates.iter().cloned().fold(0.0, f64::max),
        median(lexicon_rates)
    );

    if std::env::var("HARK_BENCH_REF_LIMIT").as_deref() == Ok("0") {
        return;
    }
    reference(&lines, rust_rate);
}

fn reference(lines: &[String], rust_rate: f64) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/sentiment_reference.py");
    let dir = std::env::temp_dir().join(format!("hark-sentiment-bench-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!("  reference: skipped (no temp dir)");
        return;
    }
    let lines_path = dir.join("lines.txt");
    let scores_path = dir.join("scores.txt");
    let mut body = lines.join("\n");
    body.push('\n');
    if std::fs::write(&lines_path, body).is_err() {
        println!("  reference: skipped (cannot write lines)");
        return;
    }
    let python = std::env::var("HARK_BENCH_PYTHON").unwrap_or_else(|_| "python3".into());
    let limit = env_usize("HARK_BENCH_REF_LIMIT", 50_000).min(lines.len());
    let output = Command::new(&python)
        .arg(&script)
        .arg(&lines_path)
        .args(["--rounds", "3", "--limit", &limit.to_string(), "--scores"])
        .arg(&scores_path)
        .output();
    let report = match output {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        Ok(out) => {
            println!("  reference: skipped ({})", String::from_utf8_lossy(&out.stdout).trim());
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
        Err(e) => {
            println!("  reference: skipped ({python}: {e})");
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
    };
    let py_rate = report
        .split("\"median_posts_per_sec\":")
        .nth(1)
        .and_then(|rest| rest.trim().trim_end_matches('}').trim().parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    println!("  vaderSentiment (Python): median {py_rate:.0} posts/s over 3 rounds of {limit} lines");
    println!("  ratio: {:.1}x", rust_rate / py_rate);

    let reference: Vec<f64> = std::fs::read_to_string(&scores_path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    if reference.len() != lines.len() {
        println!("  agreement: skipped ({} reference scores for {} lines)", reference.len(), lines.len());
        return;
    }
    let mut same = 0usize;
    let mut close = 0usize;
    for (line, &theirs) in lines.iter().zip(&reference) {
        let ours = score(line);
        same += (bucket(ours) == bucket(theirs)) as usize;
        close += ((ours - theirs).abs() <= 0.05) as usize;
    }
    let n = lines.len() as f64;
    println!(
        "  agreement with vaderSentiment: same bucket {:.2}%, score within 0.05 {:.2}%",
        100.0 * same as f64 / n,
        100.0 * close as f64 / n
    );
}

/// Post-like lines from a fixed seed: plain words with sentiment words, intensifiers,
/// negations, "but", emoji, emoticons, hashtags, mentions, links, capitals and punctuation.
fn generate(n: usize, seed: u64) -> Vec<String> {
    const PLAIN: &[&str] = &[
        "the", "a", "this", "my", "our", "new", "phone", "update", "app", "store", "service",
        "team", "game", "show", "coffee", "today", "tonight", "weekend", "is", "was", "are",
        "just", "got", "it", "to", "and", "with", "for", "on", "at", "from", "after", "before",
        "delivery", "order", "price", "battery", "camera", "screen", "staff", "customer",
        "support", "flight", "hotel", "food", "music", "album", "movie", "episode", "i", "we",
        "they", "you", "have", "been", "waiting", "again", "still", "since", "week", "hours",
        "launch", "event", "city", "people", "everyone", "finally", "about", "what", "how",
    ];
    const SENTIMENT: &[&str] = &[
        "love", "great", "amazing", "awesome", "happy", "best", "excellent", "nice", "good",
        "fantastic", "wonderful", "thanks", "fun", "cool", "beautiful", "perfect", "lol", "win",
        "hate", "bad", "terrible", "awful", "worst", "broken", "annoying", "sad", "angry",
        "disappointed", "slow", "fail", "problem", "sucks", "scam", "ugly", "horrible", "wtf",
        "okay", "fine", "interesting", "free", "sorry", "worried", "excited", "glad", "poor",
    ];
    const INTENSIFIERS: &[&str] =
        &["very", "so", "really", "extremely", "totally", "kinda", "slightly", "super", "barely"];
    const NEGATIONS: &[&str] = &["not", "never", "don't", "isn't", "can't", "no", "without"];
    const EMOJI: &[&str] = &["😍", "😂", "🔥", "❤️", "😭", "😡", "👍", "🙏", "😊", "💔", "🎉", "😢", "🤔"];
    const EMOTICONS: &[&str] = &[":)", ":(", ":D", ";)", "<3", ":-("];
    const TAGS: &[&str] = &["#blackfriday", "#launch", "#fail", "#love", "#tech", "#news"];
    const MENTIONS: &[&str] = &["@brand", "@support", "@hark_app", "@newsdesk"];
    const ENDINGS: &[&str] = &["", "", "", "", ",", ".", "!", "!!", "?", "...", "!!!", "??"];

    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64*: deterministic and dependency-free.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let pick = |pool: &[&'static str], r: u64| pool[(r % pool.len() as u64) as usize];
    let mut lines = Vec::with_capacity(n);
    for _ in 0..n {
        let words = 6 + (next() % 22) as usize;
        let mut line = String::with_capacity(words * 7);
        for w in 0..words {
            let r = next();
            let kind = r % 100;
            let choice = next();
            let word = match kind {
                0..=57 => pick(PLAIN, choice),
                58..=75 => pick(SENTIMENT, choice),
                76..=81 => pick(INTENSIFIERS, choice),
                82..=85 => pick(NEGATIONS, choice),
                86..=87 => "but",
                88..=91 => pick(EMOJI, choice),
                92..=93 => pick(EMOTICONS, choice),
                94..=96 => pick(TAGS, choice),
                97..=98 => pick(MENTIONS, choice),
                _ => "https://t.co/x7Yq2",
            };
            if w > 0 {
                line.push(' ');
            }
            if choice % 23 == 0 {
                line.push_str(&word.to_uppercase());
            } else if w == 0 {
                let mut chars = word.chars();
                if let Some(first) = chars.next() {
                    line.extend(first.to_uppercase());
                    line.push_str(chars.as_str());
                }
            } else {
                line.push_str(word);
            }
            if kind < 76 && choice % 5 == 0 {
                line.push_str(pick(ENDINGS, next()));
            }
        }
        lines.push(line);
    }
    lines
}
