//! Sentiment of a post: a lexicon-and-rules scorer of the VADER family, the spec's five buckets,
//! and the order in which a user's edit and a tracker's keyword lists override the score.
//!
//! Rules applied, per sentiment-bearing word: its lexicon valence; a preceding intensifier or
//! dampener within three words (weaker further away); negation within three words ("not",
//! "never", "…n't", "no"); ALL-CAPS emphasis when the text mixes cases; "least"; a handful of
//! idioms ("the bomb", "kiss of death"); "kind of"-style dampening. Then, for the whole text:
//! words before the first "but" count half and words after it one and a half; '!' (up to four)
//! and repeated '?' push the sum away from zero; emoji count through their descriptions and
//! emoticons (":)", "<3") through the lexicon. The sum is squashed into [-1, 1] by
//! x / sqrt(x² + 15).

mod keywords;
pub mod model;
mod lexicon;

pub use keywords::{CustomKeywords, KeywordMatcher};

use lexicon::{id, tables, Tables, WordInfo, BOOST, CAPS_BOOST, NEGATION_SCALAR};
use serde::Serialize;
use std::cell::RefCell;

pub use hark_core::Bucket;

/// The spec's thresholds: ≤ -0.7 negative, < -0.3 slight negative, < 0.4 neutral,
/// < 0.8 slight positive, otherwise positive. A NaN (never produced by [`score`]) is neutral.
pub fn bucket(score: f64) -> Bucket {
    if score.is_nan() {
        Bucket::Neutral
    } else if score <= -0.7 {
        Bucket::Negative
    } else if score < -0.3 {
        Bucket::SlightNegative
    } else if score < 0.4 {
        Bucket::Neutral
    } else if score < 0.8 {
        Bucket::SlightPositive
    } else {
        Bucket::Positive
    }
}

/// The bucket a post ends up with: a user's manual edit wins, then the tracker's custom
/// keyword lists (see [`KeywordMatcher::bucket`]), then the scored text.
pub fn resolve(manual: Option<Bucket>, custom: Option<Bucket>, scored: f64) -> Bucket {
    manual.or(custom).unwrap_or_else(|| bucket(scored))
}

/// Score and bucket of a text with no overrides.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sentiment {
    pub score: f64,
    pub bucket: Bucket,
}

pub fn analyze(text: &str) -> Sentiment {
    let score = score(text);
    Sentiment { score, bucket: bucket(score) }
}

/// Which scorer judged a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The learned model, for English and for text whose language is unknown.
    Model,
    /// The lexicon scorer, for other languages: the model has no training data there.
    Lexicon,
}

/// A text's sentiment: the score, its bucket, and the model's probabilities when it judged.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Judgement {
    pub score: f64,
    pub bucket: Bucket,
    pub method: Method,
    pub probabilities: Option<model::Probabilities>,
}

/// Whether the learned model judges text in `lang` (ISO 639-1, `None` when unknown).
pub fn model_covers(lang: Option<&str>) -> bool {
    lang.is_none_or(|l| l.eq_ignore_ascii_case("en"))
}

impl Method {
    /// The scorer that judges text in `lang` (see [`model_covers`]).
    pub fn for_lang(lang: Option<&str>) -> Method {
        if model_covers(lang) {
            Method::Model
        } else {
            Method::Lexicon
        }
    }
}

/// The sentiment of `text` written in `lang`: the learned model where it has training data
/// (see [`model_covers`]), the lexicon elsewhere.
pub fn judge(text: &str, lang: Option<&str>) -> Judgement {
    if text.trim().is_empty() {
        // Nothing to judge: neutral, whatever the model's priors.
        return Judgement { score: 0.0, bucket: Bucket::Neutral, method: Method::Model, probabilities: None };
    }
    match Method::for_lang(lang) {
        Method::Model => {
            let p = model::predict(text);
            let score = p.score();
            Judgement { score, bucket: bucket(score), method: Method::Model, probabilities: Some(p) }
        }
        Method::Lexicon => {
            let score = score(text);
            Judgement { score, bucket: bucket(score), method: Method::Lexicon, probabilities: None }
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Token {
    info: WordInfo,
    all_caps: bool,
}

#[derive(Default)]
struct Scratch {
    tokens: Vec<Token>,
    valences: Vec<f64>,
    lower: String,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Sentiment score of `text` in [-1, 1]; 0 when nothing in it carries sentiment.
pub fn score(text: &str) -> f64 {
    let tables = tables();
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => score_with(text, tables, &mut scratch),
        // Only reachable if scoring re-entered itself on this thread; stay correct anyway.
        Err(_) => score_with(text, tables, &mut Scratch::default()),
    })
}

fn score_with(text: &str, tables: &Tables, scratch: &mut Scratch) -> f64 {
    let sum = valence_sum(text, tables, scratch);
    // Punctuation only counts for a text with sentiment words.
    if sum == 0.0 {
        0.0
    } else {
        compound(sum, punctuation_counts(text))
    }
}

/// The compound score of a valence sum: the punctuation emphasis pushes it away from zero, then
/// it is squashed into [-1, 1].
fn compound(sum: f64, (bangs, questions): (usize, usize)) -> f64 {
    if sum != 0.0 {
        normalize(sum + punctuation_emphasis(bangs, questions).copysign(sum))
    } else {
        0.0
    }
}

/// The lexicon's reading of a text as the learned model's dense features: the compound score,
/// how much positive and negative valence it holds and in how many words, its strongest and
/// last sentiment words, '!' and '?' emphasis, negations and a "but". Each lies in [-1, 1].
pub(crate) fn lexicon_features(text: &str) -> [f32; LEXICON_FEATURES] {
    let tables = tables();
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => lexicon_features_with(text, tables, &mut scratch),
        Err(_) => lexicon_features_with(text, tables, &mut Scratch::default()),
    })
}

pub(crate) const LEXICON_FEATURES: usize = 12;

fn lexicon_features_with(text: &str, tables: &Tables, scratch: &mut Scratch) -> [f32; LEXICON_FEATURES] {
    let sum = valence_sum(text, tables, scratch);
    let marks = punctuation_counts(text);
    let compound = compound(sum, marks);
    let (mut pos, mut neg, mut pos_n, mut neg_n) = (0.0f64, 0.0f64, 0usize, 0usize);
    let (mut max, mut min, mut last) = (0.0f64, 0.0f64, 0.0f64);
    for &v in &scratch.valences {
        if v > 0.0 {
            pos += v;
            pos_n += 1;
        } else if v < 0.0 {
            neg -= v;
            neg_n += 1;
        }
        if v != 0.0 {
            last = v;
        }
        max = max.max(v);
        min = min.min(v);
    }
    let negations = scratch.tokens.iter().filter(|t| t.info.negation).count();
    let but = scratch.tokens.iter().any(|t| t.info.id == id::BUT);
    let (bangs, questions) = marks;
    let quarter = |n: usize| n.min(4) as f64 / 4.0;
    [
        compound,
        pos / (pos + 2.0),
        neg / (neg + 2.0),
        quarter(pos_n),
        quarter(neg_n),
        (max / 4.0).clamp(-1.0, 1.0),
        (min / 4.0).clamp(-1.0, 1.0),
        (last / 4.0).clamp(-1.0, 1.0),
        quarter(bangs),
        quarter(questions),
        negations.min(2) as f64 / 2.0,
        but as u8 as f64,
    ]
    .map(|x| x as f32)
}

/// The sum of the text's word valences after every rule but the punctuation emphasis; the
/// tokens and per-word valences stay in `scratch`.
fn valence_sum(text: &str, tables: &Tables, scratch: &mut Scratch) -> f64 {
    let Scratch { tokens, valences, lower } = scratch;
    tokens.clear();
    valences.clear();
    tokenize(text, tables, tokens, lower);
    if tokens.is_empty() {
        return 0.0;
    }
    let caps = tokens.iter().filter(|t| t.all_caps).count();
    let mixed_caps = caps > 0 && caps < tokens.len();

    for i in 0..tokens.len() {
        valences.push(word_valence(tokens, i, mixed_caps));
    }
    if let Some(but) = tokens.iter().position(|t| t.info.id == id::BUT) {
        for (i, v) in valences.iter_mut().enumerate() {
            if i < but {
                *v *= 0.5;
            } else if i > but {
                *v *= 1.5;
            }
        }
    }
    valences.iter().sum()
}

fn normalize(sum: f64) -> f64 {
    let x = sum / (sum * sum + 15.0).sqrt();
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-1.0, 1.0)
    }
}

/// How many '!' and '?' the text holds.
fn punctuation_counts(text: &str) -> (usize, usize) {
    let (mut bangs, mut questions) = (0usize, 0usize);
    for b in text.bytes() {
        bangs += (b == b'!') as usize;
        questions += (b == b'?') as usize;
    }
    (bangs, questions)
}

fn punctuation_emphasis(bangs: usize, questions: usize) -> f64 {
    let bang = bangs.min(4) as f64 * 0.292;
    let question = match questions {
        0 | 1 => 0.0,
        2 | 3 => questions as f64 * 0.18,
        _ => 0.96,
    };
    bang + question
}

fn word_valence(tokens: &[Token], i: usize, mixed_caps: bool) -> f64 {
    let token = tokens[i];
    let info = token.info;
    let id_at = |j: usize| tokens[j].info.id;
    if info.booster != 0.0 || !info.in_lexicon {
        return 0.0;
    }
    if info.id == id::KIND && tokens.get(i + 1).is_some_and(|t| t.info.id == id::OF) {
        return 0.0;
    }
    let mut v = info.valence;
    // "no" before another sentiment word only negates it.
    if info.id == id::NO && tokens.get(i + 1).is_some_and(|t| t.info.in_lexicon) {
        v = 0.0;
    }
    if (i > 0 && id_at(i - 1) == id::NO)
        || (i > 1 && id_at(i - 2) == id::NO)
        || (i > 2 && id_at(i - 3) == id::NO && matches!(id_at(i - 1), id::OR | id::NOR))
    {
        v = info.valence * NEGATION_SCALAR;
    }
    if token.all_caps && mixed_caps {
        v += if v > 0.0 { CAPS_BOOST } else { -CAPS_BOOST };
    }
    for distance in 1..=3usize {
        if i < distance {
            break;
        }
        let before = tokens[i - distance];
        if before.info.in_lexicon {
            continue;
        }
        let mut s = booster_scalar(before, v, mixed_caps);
        s *= [1.0, 0.95, 0.9][distance - 1];
        v += s;
        v = negation(tokens, i, distance, v);
    }
    v = idioms(tokens, i, v);
    if i > 0 && id_at(i - 1) == id::LEAST && !tokens[i - 1].info.in_lexicon {
        // "least good" flips; "at least" and "very least" do not.
        if i == 1 || !matches!(id_at(i - 2), id::AT | id::VERY) {
            v *= NEGATION_SCALAR;
        }
    }
    v
}

fn booster_scalar(word: Token, valence: f64, mixed_caps: bool) -> f64 {
    let mut s = word.info.booster;
    if s == 0.0 {
        return 0.0;
    }
    if valence < 0.0 {
        s = -s;
    }
    if word.all_caps && mixed_caps {
        s += if valence > 0.0 { CAPS_BOOST } else { -CAPS_BOOST };
    }
    s
}

/// Negation by the word `distance` places before `i`, with "never so/this" (stronger) and
/// "without doubt" (not a negation) as exceptions.
fn negation(tokens: &[Token], i: usize, distance: usize, v: f64) -> f64 {
    let id_at = |j: usize| tokens[j].info.id;
    let so_or_this = |j: usize| matches!(id_at(j), id::SO | id::THIS);
    let negator = tokens[i - distance];
    match distance {
        1 => {}
        2 => {
            if negator.info.id == id::NEVER && so_or_this(i - 1) {
                return v * 1.25;
            }
            if negator.info.id == id::WITHOUT && id_at(i - 1) == id::DOUBT {
                return v;
            }
        }
        _ => {
            // As in VADER: "never so/this …" and also any "so"/"this" just before the word
            // ("this amazing phone") add emphasis when three words of context exist.
            if (negator.info.id == id::NEVER && so_or_this(i - 2)) || so_or_this(i - 1) {
                return v * 1.25;
            }
            if negator.info.id == id::WITHOUT
                && (id_at(i - 2) == id::DOUBT || id_at(i - 1) == id::DOUBT)
            {
                return v;
            }
        }
    }
    if negator.info.negation {
        v * NEGATION_SCALAR
    } else {
        v
    }
}

/// Idioms containing word `i` replace its valence; "kind of" / "sort of" / "just enough"
/// just before it pull the valence towards zero.
fn idioms(tokens: &[Token], i: usize, mut v: f64) -> f64 {
    let id_at = |j: usize| tokens[j].info.id;
    if id_at(i) != id::NONE {
        'idioms: for &(ids, valence) in lexicon::IDIOMS {
            for (offset, _) in ids.iter().enumerate() {
                let Some(start) = i.checked_sub(offset) else { break };
                if start + ids.len() > tokens.len() {
                    continue;
                }
                if ids.iter().enumerate().all(|(k, &w)| id_at(start + k) == w) {
                    v = valence;
                    break 'idioms;
                }
            }
        }
    }
    for gap in [1usize, 2] {
        if i >= gap + 1 {
            let pair = [id_at(i - gap - 1), id_at(i - gap)];
            if lexicon::DAMPENER_PAIRS.contains(&pair) {
                v -= BOOST.copysign(v);
            }
        }
    }
    v
}

/// Characters that only modify the emoji before them (variation selectors, joiner, skin tones).
fn is_emoji_modifier(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}' | '\u{200D}' | '\u{20E3}' | '\u{1F3FB}'..='\u{1F3FF}')
}

fn tokenize(text: &str, tables: &Tables, out: &mut Vec<Token>, lower: &mut String) {
    for raw in text.split_whitespace() {
        if raw.is_ascii() {
            push_word(raw, tables, out, lower);
            continue;
        }
        let mut start = 0;
        let mut after_emoji = false;
        for (at, c) in raw.char_indices() {
            if c.is_ascii() {
                continue;
            }
            let emoji = tables.emoji.get(&c);
            if emoji.is_none() && !is_emoji_modifier(c) {
                continue;
            }
            if start < at {
                push_word(&raw[start..at], tables, out, lower);
            }
            if let Some(words) = emoji {
                out.extend(words.iter().map(|&info| Token { info, all_caps: false }));
                after_emoji = true;
            }
            start = at + c.len_utf8();
        }
        let rest = &raw[start..];
        // "😍!!" reads as the emoji; the trailing marks are still counted as emphasis.
        if !rest.is_empty() && !(after_emoji && rest.bytes().all(|b| b.is_ascii_punctuation())) {
            push_word(rest, tables, out, lower);
        }
    }
}

fn push_word(raw: &str, tables: &Tables, out: &mut Vec<Token>, lower: &mut String) {
    let word = lexicon::strip_ascii_punct_if_word(raw);
    let (all_caps, info) = if word.is_ascii() {
        let bytes = word.as_bytes();
        let all_caps = bytes.iter().any(u8::is_ascii_uppercase)
            && !bytes.iter().any(u8::is_ascii_lowercase);
        let mut buf = [0u8; 64];
        let info = if bytes.len() <= tables.max_word_len.min(buf.len()) {
            let buf = &mut buf[..bytes.len()];
            buf.copy_from_slice(bytes);
            buf.make_ascii_lowercase();
            let key = std::str::from_utf8(buf).unwrap_or_default();
            let mut info = tables.words.get(key).copied().unwrap_or_default();
            info.negation |= contains_nt(buf);
            info
        } else {
            WordInfo { negation: contains_nt(bytes), ..WordInfo::default() }
        };
        (all_caps, info)
    } else {
        let all_caps =
            word.chars().any(char::is_uppercase) && !word.chars().any(char::is_lowercase);
        lower.clear();
        for c in word.chars() {
            match c {
                // Typographic apostrophes are how phones type "don't".
                '\u{2018}' | '\u{2019}' | '\u{02BC}' => lower.push('\''),
                c => lower.extend(c.to_lowercase()),
            }
        }
        let mut info = if lower.len() <= tables.max_word_len {
            tables.words.get(lower.as_str()).copied().unwrap_or_default()
        } else {
            WordInfo::default()
        };
        info.negation |= contains_nt(lower.as_bytes());
        (all_caps, info)
    };
    out.push(Token { info, all_caps });
}

fn contains_nt(lower: &[u8]) -> bool {
    lower.windows(3).any(|w| w == b"n't")
}

#[cfg(test)]
mod tests;
