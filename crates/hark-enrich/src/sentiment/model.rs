//! The learned sentiment model: a multinomial logistic regression over hashed word unigrams and
//! bigrams (sublinear counts, L2-normalised) plus the lexicon scorer's own reading of the text as
//! dense features. Trained by `make train-sentiment` on the SemEval 2013–2016 English tweets
//! (`scripts/train_sentiment.py`); the weights are compiled in.
//!
//! Tokens: lower-cased words (letters, digits, inner apostrophes; runs of three or more equal
//! letters cut to two, "soooo" → "soo"), numbers as one token, links and @mentions as one token
//! each, hashtags as their word, emoticons and emoji as themselves, and runs of '!' or '?' as one
//! token. Words after a negation ("not", "never", "…n't", …) up to the next clause mark or "but"
//! are marked as negated, so "not good" and "good" are different features.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::{lexicon_features, LEXICON_FEATURES};

mod meta {
    include!("model_meta.rs");
}

pub use meta::{DEV_MACRO_RECALL, DEV_RECALLS, TRAIN_ROWS, VERSION};

/// Weight of the dense lexicon block against the L2-normalised n-gram block.
const DENSE_SCALE: f32 = meta::DENSE_SCALE;
const BUCKETS: usize = 1 << meta::HASH_BITS;

/// P(negative), P(neutral), P(positive): they sum to 1.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Probabilities {
    pub negative: f64,
    pub neutral: f64,
    pub positive: f64,
}

impl Probabilities {
    /// The most probable class: -1 negative, 0 neutral, 1 positive (a tie goes to neutral).
    pub fn class(&self) -> i8 {
        let (neg, neu, pos) = (self.negative, self.neutral, self.positive);
        if neg > neu && neg > pos {
            -1
        } else if pos > neu && pos > neg {
            1
        } else {
            0
        }
    }

    /// The score in [-1, 1] the spec's five buckets are read from. The most probable class
    /// decides the side (negative below -0.3, neutral up to 0.4, positive from there); within it,
    /// e = P(positive) − P(negative) places the post, so that the more confident half of each
    /// side's validation posts lands in the strong bucket.
    pub fn score(&self) -> f64 {
        calibrate(self.class(), self.positive - self.negative)
    }
}

/// Piecewise-linear interpolation through increasing knots.
fn interpolate(x: f64, knots: &[(f64, f64)]) -> f64 {
    for pair in knots.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if x <= x1 {
            return if x1 > x0 { y0 + (x - x0) * (y1 - y0) / (x1 - x0) } else { y1 };
        }
    }
    knots.last().map_or(0.0, |k| k.1)
}

/// The score of a class and e = P(positive) − P(negative). A negative post has e ≤ 0, a positive
/// one e ≥ 0, and a neutral one |e| ≤ 0.5 (its P(neutral) is the largest).
fn calibrate(class: i8, e: f64) -> f64 {
    if e.is_nan() {
        return 0.0;
    }
    let [strong_neg, strong_pos] = meta::STRONG;
    // Just inside the side's bounds, so the bucket always names the class.
    const IN: f64 = 1e-9;
    let e = e.clamp(-1.0, 1.0);
    match class {
        -1 => interpolate(e.min(0.0), &[(-1.0, -1.0), (strong_neg, -0.7), (0.0, -0.3 - IN)]),
        1 => interpolate(e.max(0.0), &[(0.0, 0.4), (strong_pos, 0.8), (1.0, 1.0)]),
        _ => (0.05 + 0.7 * e).clamp(-0.3, 0.4 - IN),
    }
}

struct Weights {
    /// Per bucket: the three classes' weights.
    rows: Vec<[f32; 3]>,
    dense: [[f32; LEXICON_FEATURES]; 3],
    intercept: [f32; 3],
}

static WEIGHTS_BYTES: &[u8] = include_bytes!("model.bin");

fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        let mut floats = WEIGHTS_BYTES.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut next = || floats.next().unwrap_or(0.0);
        let rows = (0..BUCKETS).map(|_| [next(), next(), next()]).collect();
        let mut dense = [[0.0; LEXICON_FEATURES]; 3];
        for class in &mut dense {
            for w in class.iter_mut() {
                *w = next();
            }
        }
        let intercept = [next(), next(), next()];
        Weights { rows, dense, intercept }
    })
}

/// The shipped weights' size in bytes, checked by a test against the layout above.
#[cfg(test)]
const fn expected_weights_len() -> usize {
    4 * (BUCKETS * 3 + 3 * LEXICON_FEATURES + 3)
}

#[cfg(test)]
fn weights_len() -> usize {
    WEIGHTS_BYTES.len()
}

/// The model's features of a text: n-gram buckets (sorted, with repeats) and the dense block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    pub buckets: Vec<u32>,
    pub dense: [f32; LEXICON_FEATURES],
}

thread_local! {
    static SCRATCH: RefCell<(Vec<u32>, String)> = RefCell::new((Vec::with_capacity(128), String::new()));
}

/// The three class probabilities of `text`.
pub fn predict(text: &str) -> Probabilities {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut s) => {
            let (buckets, word) = &mut *s;
            predict_with(text, buckets, word)
        }
        Err(_) => predict_with(text, &mut Vec::new(), &mut String::new()),
    })
}

fn predict_with(text: &str, buckets: &mut Vec<u32>, word: &mut String) -> Probabilities {
    buckets.clear();
    hashed_ngrams(text, buckets, word, meta::HASH_BITS);
    let w = weights();
    // The rows sit in a table larger than the core's cache: ask for all of them
    // first, so they arrive while the lexicon reads the text.
    #[cfg(target_arch = "x86_64")]
    for &b in buckets.iter() {
        // SAFETY: prefetching is a hint; the address is within the table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(w.rows.as_ptr().add(b as usize) as *const i8, _MM_HINT_T0);
        }
    }
    buckets.sort_unstable();
    let dense = lexicon_features(text);
    let mut logits = [0.0f64; 3];
    let mut norm2 = 0.0f64;
    let mut i = 0;
    while i < buckets.len() {
        let b = buckets[i];
        let mut count = 1;
        while i + count < buckets.len() && buckets[i + count] == b {
            count += 1;
        }
        i += count;
        let row = &w.rows[b as usize];
        let v = 1.0 + (count as f64).ln();
        norm2 += v * v;
        for k in 0..3 {
            logits[k] += v * row[k] as f64;
        }
    }
    let inv = if norm2 > 0.0 { 1.0 / norm2.sqrt() } else { 0.0 };
    for k in 0..3 {
        let mut z = logits[k] * inv + w.intercept[k] as f64;
        for (x, wd) in dense.iter().zip(&w.dense[k]) {
            z += (*x * DENSE_SCALE) as f64 * *wd as f64;
        }
        logits[k] = z;
    }
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e = logits.map(|z| (z - max).exp());
    let sum: f64 = e.iter().sum();
    Probabilities { negative: e[0] / sum, neutral: e[1] / sum, positive: e[2] / sum }
}

/// The features the trainer fits on (`cargo run -p hark-enrich --example sentiment_features`),
/// with buckets of [`FEATURE_BITS`] bits.
pub fn features(text: &str) -> Features {
    let mut buckets = Vec::new();
    hashed_ngrams(text, &mut buckets, &mut String::new(), FEATURE_BITS);
    buckets.sort_unstable();
    Features { buckets, dense: lexicon_features(text) }
}

/// Number of hash buckets the n-grams fall into.
pub const fn buckets() -> usize {
    BUCKETS
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
const NEGATED: u64 = 0x6e65_6761_7465_6421;
const URL: u64 = 0x3c75_726c_3e00_0001;
const USER: u64 = 0x3c75_7365_723e_0002;
const NUMBER: u64 = 0x3c6e_756d_3e00_0003;

fn fnv(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// A multiplicative mix, then the top `bits` bits: a bucket at fewer bits is the same bucket at
/// more bits shifted right, so the trainer can try table sizes from one set of features.
fn bucket_in(h: u64, bits: u32) -> u32 {
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as u32
}

/// Bits of the buckets [`features`] gives the trainer, which folds them to the table's size.
pub const FEATURE_BITS: u32 = 24;

const EMOTICONS: &[&str] = &[
    ":)", ":-)", ":))", ":(", ":-(", ":((", ":D", ":-D", ";)", ";-)", ":P", ":p", ":-P", ":/", ":-/", ":'(", "<3",
    "</3", ":o", ":O", "xD", "XD", "xd", "=)", "=(", ":]", ":[", "^_^", "^^", "-_-", ":|", ":*", ";D", "D:", ":S",
];

/// Words after which the rest of the clause is negated (besides any word ending in "n't").
fn is_negator(word: &str) -> bool {
    matches!(
        word,
        "not" | "no" | "never" | "cannot" | "nothing" | "nobody" | "none" | "nowhere" | "neither" | "nor"
            | "without" | "dont" | "cant" | "wont" | "isnt" | "arent" | "wasnt" | "werent" | "doesnt" | "didnt"
            | "havent" | "hasnt" | "hadnt" | "couldnt" | "wouldnt" | "shouldnt" | "aint"
    )
}

/// Emits token hashes and their unigram and bigram buckets.
struct Emitter<'a> {
    out: &'a mut Vec<u32>,
    bits: u32,
    prev: Option<u64>,
    negated: bool,
}

impl Emitter<'_> {
    fn token(&mut self, h: u64) {
        self.out.push(bucket_in(h, self.bits));
        if let Some(p) = self.prev {
            self.out.push(bucket_in(p.rotate_left(23).wrapping_mul(FNV_PRIME) ^ h ^ 0x2b, self.bits));
        }
        self.prev = Some(h);
    }

    fn word(&mut self, word: &str) {
        // Apostrophes around a word are quotes, not part of it (an ASCII byte: slicing at it is safe).
        let bytes = word.as_bytes();
        let start = bytes.iter().position(|&b| b != b'\'').unwrap_or(bytes.len());
        let end = bytes.iter().rposition(|&b| b != b'\'').map_or(start, |i| i + 1);
        let word = &word[start..end];
        if word.is_empty() {
            return;
        }
        if word.bytes().all(|b| b.is_ascii_digit()) {
            self.token(NUMBER);
            return;
        }
        if word == "but" {
            self.negated = false;
        }
        let h = fnv(word.as_bytes());
        self.token(if self.negated { h ^ NEGATED } else { h });
        if is_negator(word) || word.ends_with("n't") {
            self.negated = true;
        }
    }

    /// A run of '!' or '?': one token, and the end of a clause.
    fn marks(&mut self, mark: char) {
        self.token(if mark == '!' { fnv(b"!") } else { fnv(b"?") });
        self.negated = false;
    }

    fn clause_end(&mut self) {
        self.negated = false;
    }
}

fn is_emoji_modifier(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}' | '\u{200D}' | '\u{20E3}' | '\u{1F3FB}'..='\u{1F3FF}')
}

fn hashed_ngrams(text: &str, out: &mut Vec<u32>, word: &mut String, bits: u32) {
    let mut emit = Emitter { out, bits, prev: None, negated: false };
    for raw in text.split_whitespace() {
        let lower_start = raw.as_bytes()[0].to_ascii_lowercase();
        if raw.len() > 4 && (lower_start == b'h' || lower_start == b'w') {
            let l = raw.as_bytes();
            let starts = |p: &[u8]| l.len() >= p.len() && l[..p.len()].eq_ignore_ascii_case(p);
            if starts(b"http://") || starts(b"https://") || starts(b"www.") {
                emit.token(URL);
                continue;
            }
        }
        if lower_start == b'@' && raw.len() > 1 {
            emit.token(USER);
            continue;
        }
        if matches!(lower_start, b':' | b';' | b'<' | b'=' | b'^' | b'-' | b'x' | b'd') && EMOTICONS.contains(&raw) {
            emit.token(fnv(raw.as_bytes()));
            continue;
        }
        word.clear();
        let (mut last, mut run) = ('\0', 0usize);
        // A run of '!' or '?' not yet emitted: it ends at any other character.
        let mut marks: Option<char> = None;
        for c in raw.chars() {
            let c = if c == '\u{2019}' || c == '\u{2018}' { '\'' } else { c };
            if c != '!' && c != '?' {
                if let Some(m) = marks.take() {
                    emit.marks(m);
                }
            }
            if c.is_alphanumeric() || c == '\'' || c == '_' {
                if c == last {
                    run += 1;
                } else {
                    (last, run) = (c, 1);
                }
                if run <= 2 {
                    if c.is_ascii() {
                        word.push(c.to_ascii_lowercase());
                    } else {
                        word.extend(c.to_lowercase());
                    }
                }
                continue;
            }
            (last, run) = ('\0', 0);
            if !word.is_empty() {
                emit.word(word);
                word.clear();
            }
            match c {
                '!' | '?' => {
                    if let Some(m) = marks.filter(|&m| m != c) {
                        emit.marks(m);
                    }
                    marks = Some(c);
                }
                '.' | ',' | ':' | ';' | '(' | ')' | '"' => emit.clause_end(),
                c if (c as u32) >= 0x2190 && !is_emoji_modifier(c) => {
                    let mut buf = [0u8; 4];
                    emit.token(fnv(c.encode_utf8(&mut buf).as_bytes()));
                }
                _ => {}
            }
        }
        if !word.is_empty() {
            emit.word(word);
            word.clear();
        }
        if let Some(m) = marks {
            emit.marks(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sentiment::{bucket, Bucket};

    #[test]
    fn shipped_weights_match_the_layout() {
        assert_eq!(weights_len(), expected_weights_len());
        assert!(weights().rows.iter().any(|r| r[0] != 0.0), "the shipped model has weights");
    }

    #[test]
    fn the_bucket_names_the_most_probable_class_and_strong_edges_sit_on_the_spec() {
        let [strong_neg, strong_pos] = meta::STRONG;
        assert!(-1.0 < strong_neg && strong_neg < 0.0 && 0.0 < strong_pos && strong_pos < 1.0);
        assert!((calibrate(-1, strong_neg) + 0.7).abs() < 1e-9);
        assert!((calibrate(1, strong_pos) - 0.8).abs() < 1e-9);
        assert_eq!((calibrate(-1, -1.0), calibrate(1, 1.0)), (-1.0, 1.0));
        assert_eq!(calibrate(0, f64::NAN), 0.0);
        let side = |b: Bucket| match b {
            Bucket::Negative | Bucket::SlightNegative => -1,
            Bucket::Neutral => 0,
            Bucket::SlightPositive | Bucket::Positive => 1,
        };
        // Over a grid of the probability simplex: the bucket's side is the most probable class,
        // and within a class the score rises with e.
        let n = 200;
        for i in 0..=n {
            for j in 0..=(n - i) {
                let (neg, pos) = (i as f64 / n as f64, j as f64 / n as f64);
                let p = Probabilities { negative: neg, neutral: 1.0 - neg - pos, positive: pos };
                let s = p.score();
                assert!((-1.0..=1.0).contains(&s), "{p:?} -> {s}");
                assert_eq!(side(bucket(s)), p.class(), "{p:?} -> {s}");
            }
        }
        for class in [-1i8, 0, 1] {
            let mut last = f64::NEG_INFINITY;
            for k in 0..=2000 {
                let s = calibrate(class, -1.0 + k as f64 / 1000.0);
                assert!(s >= last, "class {class}");
                last = s;
            }
        }
        // The strong buckets begin at the edges.
        let d = 1e-6;
        assert_eq!(bucket(calibrate(-1, strong_neg - d)), Bucket::Negative);
        assert_eq!(bucket(calibrate(-1, strong_neg + d)), Bucket::SlightNegative);
        assert_eq!(bucket(calibrate(1, strong_pos - d)), Bucket::SlightPositive);
        assert_eq!(bucket(calibrate(1, strong_pos + d)), Bucket::Positive);
        // Ties go to neutral.
        assert_eq!(Probabilities { negative: 0.4, neutral: 0.2, positive: 0.4 }.class(), 0);
        assert_eq!(Probabilities { negative: 0.4, neutral: 0.4, positive: 0.2 }.class(), 0);
    }

    #[test]
    fn probabilities_are_deterministic_and_sum_to_one() {
        for text in ["", "   ", "!!!", "I love this phone", "not good at all 😡", "ａｂｃ", "@a http://x.y #z 12"] {
            let p = predict(text);
            assert_eq!(p, predict(text));
            assert!((p.negative + p.neutral + p.positive - 1.0).abs() < 1e-9);
            assert!((-1.0..=1.0).contains(&p.score()));
        }
    }

    #[test]
    fn tokens_are_normalised_as_documented() {
        let f = |t: &str| features(t).buckets;
        assert_eq!(f("Sooooo GOOD"), f("soo good"));
        assert_eq!(f("#love it"), f("love it"));
        assert_eq!(f("@ann see https://t.co/x"), f("@bob see http://example.com"));
        assert_eq!(f("it is 2019"), f("it is 7"));
        assert_eq!(f("great!!!"), f("great!"));
        assert_eq!(f("don’t"), f("don't"));
        assert_ne!(f("not good"), f("not bad"));
        // Negation marks the words after it until the clause ends.
        let good = bucket_in(fnv(b"good"), FEATURE_BITS);
        assert!(f("this is good").contains(&good));
        assert!(!f("this is not good").contains(&good));
        assert!(f("not this, good").contains(&good));
        assert!(f("not this but good").contains(&good));
    }

    #[test]
    fn clear_cases_land_on_their_side() {
        for text in ["I love this, best day ever! :)", "So happy with my new phone, thank you @shop"] {
            assert!(predict(text).score() >= 0.4, "{text}: {:?}", predict(text));
        }
        for text in ["Worst service ever, I hate waiting two hours", "This is terrible and I am so angry"] {
            assert!(predict(text).score() < -0.3, "{text}: {:?}", predict(text));
        }
        for text in ["The meeting is at 3pm in room 4", "The train to Leeds leaves from platform 4"] {
            let s = predict(text).score();
            assert!((-0.3..0.4).contains(&s), "{text}: {s}");
        }
    }

    /// The shipped weights score the validation set as the trainer recorded (when the shared
    /// data sits next to the repository, as it does where the model is trained).
    #[test]
    fn shipped_model_scores_the_validation_set_as_recorded() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/sentiment-semeval-2013-2016/dev.tsv");
        let Ok(data) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            return;
        };
        let (mut hits, mut totals) = ([0usize; 3], [0usize; 3]);
        for line in data.lines() {
            let mut parts = line.splitn(3, '\t');
            let (_, Some(label), Some(text)) = (parts.next(), parts.next(), parts.next()) else { continue };
            let class = ["negative", "neutral", "positive"].iter().position(|c| *c == label).unwrap();
            let predicted = (predict(text).class() + 1) as usize;
            totals[class] += 1;
            hits[class] += (predicted == class) as usize;
        }
        let recalls: Vec<f64> = (0..3).map(|k| hits[k] as f64 / totals[k] as f64).collect();
        let macro_recall = recalls.iter().sum::<f64>() / 3.0;
        for k in 0..3 {
            assert!((recalls[k] - meta::DEV_RECALLS[k]).abs() < 0.002, "{recalls:?} vs {:?}", meta::DEV_RECALLS);
        }
        assert!((macro_recall - meta::DEV_MACRO_RECALL).abs() < 0.001, "{macro_recall} vs {}", meta::DEV_MACRO_RECALL);
    }
}
