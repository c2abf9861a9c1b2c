//! The word table the scorer reads: one hash lookup per token gives its valence, whether it
//! boosts or dampens the next sentiment word, whether it negates, and, for the few words that
//! take part in multi-word rules, a small id.
//!
//! Valences come from the VADER lexicon (Hutto & Gilbert, MIT licence) as shipped by the
//! `vader_sentiment` crate; booster, negation and idiom lists are ordinary English facts kept
//! here, plus a short slang supplement for words the lexicon lacks.

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// Scalar added by an intensifier ("very good") and subtracted by a dampener ("slightly good").
pub(crate) const BOOST: f64 = 0.293;
/// Extra weight of an ALL-CAPS word in otherwise mixed-case text.
pub(crate) const CAPS_BOOST: f64 = 0.733;
/// Multiplier applied to a negated valence.
pub(crate) const NEGATION_SCALAR: f64 = -0.74;

/// Ids of words that take part in positional rules; 0 means "no special role".
pub(crate) mod id {
    pub const NONE: u8 = 0;
    pub const NO: u8 = 1;
    pub const BUT: u8 = 2;
    pub const KIND: u8 = 3;
    pub const OF: u8 = 4;
    pub const LEAST: u8 = 5;
    pub const AT: u8 = 6;
    pub const VERY: u8 = 7;
    pub const NEVER: u8 = 8;
    pub const SO: u8 = 9;
    pub const THIS: u8 = 10;
    pub const WITHOUT: u8 = 11;
    pub const DOUBT: u8 = 12;
    pub const OR: u8 = 13;
    pub const NOR: u8 = 14;
    pub const THE: u8 = 15;
    pub const SHIT: u8 = 16;
    pub const BOMB: u8 = 17;
    pub const BAD: u8 = 18;
    pub const ASS: u8 = 19;
    pub const BUS: u8 = 20;
    pub const STOP: u8 = 21;
    pub const YEAH: u8 = 22;
    pub const RIGHT: u8 = 23;
    pub const KISS: u8 = 24;
    pub const DEATH: u8 = 25;
    pub const TO: u8 = 26;
    pub const DIE: u8 = 27;
    pub const FOR: u8 = 28;
    pub const BEATING: u8 = 29;
    pub const HEART: u8 = 30;
    pub const SORT: u8 = 31;
    pub const JUST: u8 = 32;
    pub const ENOUGH: u8 = 33;
    pub const BROKEN: u8 = 34;
}

const SPECIAL_WORDS: &[(&str, u8)] = &[
    ("no", id::NO),
    ("but", id::BUT),
    ("kind", id::KIND),
    ("of", id::OF),
    ("least", id::LEAST),
    ("at", id::AT),
    ("very", id::VERY),
    ("never", id::NEVER),
    ("so", id::SO),
    ("this", id::THIS),
    ("without", id::WITHOUT),
    ("doubt", id::DOUBT),
    ("or", id::OR),
    ("nor", id::NOR),
    ("the", id::THE),
    ("shit", id::SHIT),
    ("bomb", id::BOMB),
    ("bad", id::BAD),
    ("ass", id::ASS),
    ("bus", id::BUS),
    ("stop", id::STOP),
    ("yeah", id::YEAH),
    ("right", id::RIGHT),
    ("kiss", id::KISS),
    ("death", id::DEATH),
    ("to", id::TO),
    ("die", id::DIE),
    ("for", id::FOR),
    ("beating", id::BEATING),
    ("heart", id::HEART),
    ("sort", id::SORT),
    ("just", id::JUST),
    ("enough", id::ENOUGH),
    ("broken", id::BROKEN),
];

/// Multi-word expressions whose valence replaces the word's own (ids in text order).
pub(crate) const IDIOMS: &[(&[u8], f64)] = &[
    (&[id::THE, id::SHIT], 3.0),
    (&[id::THE, id::BOMB], 3.0),
    (&[id::BAD, id::ASS], 1.5),
    (&[id::BUS, id::STOP], 0.0),
    (&[id::YEAH, id::RIGHT], -2.0),
    (&[id::KISS, id::OF, id::DEATH], -1.5),
    (&[id::TO, id::DIE, id::FOR], 3.0),
    (&[id::BEATING, id::HEART], 3.5),
    (&[id::BROKEN, id::HEART], -2.9),
];

/// Two-word dampeners ("kind of good").
pub(crate) const DAMPENER_PAIRS: &[[u8; 2]] =
    &[[id::KIND, id::OF], [id::SORT, id::OF], [id::JUST, id::ENOUGH]];

const NEGATIONS: &[&str] = &[
    "aint", "arent", "cannot", "cant", "couldnt", "darent", "didnt", "doesnt", "dont", "hadnt",
    "hasnt", "havent", "isnt", "mightnt", "mustnt", "neednt", "oughtnt", "shant", "shouldnt",
    "wasnt", "werent", "wont", "wouldnt", "neither", "never", "none", "nope", "nor", "not",
    "nothing", "nowhere", "uhuh", "uh-uh", "without", "rarely", "seldom", "despite",
];

const INTENSIFIERS: &[&str] = &[
    "absolutely", "amazingly", "awfully", "completely", "considerable", "considerably",
    "decidedly", "deeply", "effing", "enormous", "enormously", "entirely", "especially",
    "exceptional", "exceptionally", "extreme", "extremely", "fabulously", "flipping", "flippin",
    "frackin", "fracking", "fricking", "frickin", "frigging", "friggin", "fully", "fuckin",
    "fucking", "fuggin", "fugging", "greatly", "hella", "highly", "hugely", "incredible",
    "incredibly", "intensely", "major", "majorly", "more", "most", "particularly", "purely",
    "quite", "really", "remarkably", "so", "substantially", "thoroughly", "total", "totally",
    "tremendous", "tremendously", "uber", "unbelievably", "unusually", "utter", "utterly",
    "very", "super", "mega", "insanely", "ridiculously", "soooo", "sooo", "soo", "realy",
];

const DAMPENERS: &[&str] = &[
    "almost", "barely", "hardly", "kinda", "kindof", "kind-of", "less", "little", "marginal",
    "marginally", "occasional", "occasionally", "partly", "scarce", "scarcely", "slight",
    "slightly", "somewhat", "sorta", "sortof", "sort-of",
];

/// Social-media words the lexicon lacks, with conservative valences on its -4..4 scale.
const SLANG: &[(&str, f64)] = &[
    ("heart", 3.2),
    ("hearts", 3.3),
    ("luv", 2.5),
    ("bussin", 2.0),
    ("goated", 2.5),
    ("epic", 1.5),
    ("dope", 1.5),
    ("tysm", 2.0),
    ("cringe", -1.5),
    ("cringey", -1.5),
    ("cringy", -1.5),
    ("yikes", -1.0),
    ("trash", -1.5),
    ("garbage", -1.5),
    ("wtaf", -2.8),
    ("scammed", -2.5),
    ("ripoff", -2.0),
];

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WordInfo {
    /// Valence on the lexicon's -4..4 scale, when the word is in the lexicon.
    pub valence: f64,
    pub in_lexicon: bool,
    /// Non-zero for intensifiers (+) and dampeners (-).
    pub booster: f64,
    pub negation: bool,
    pub id: u8,
}

pub(crate) struct Tables {
    pub words: FxHashMap<Box<str>, WordInfo>,
    /// Single-character emoji -> its description's words, looked up once.
    pub emoji: FxHashMap<char, Box<[WordInfo]>>,
    /// Longest key in `words`, in bytes: longer tokens skip the lookup.
    pub max_word_len: usize,
}

pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut words: FxHashMap<Box<str>, WordInfo> = FxHashMap::default();
    let lexicon = &*vader_sentiment::LEXICON;
    words.reserve(lexicon.len() + 256);
    // Lower-case keys first, so that a mixed-case emoticon (":D") never overwrites the valence
    // of its lower-case twin (":d") that lower-cased tokens are looked up by.
    let mut upper = Vec::new();
    for (key, &valence) in lexicon.iter() {
        let key: &str = key.as_ref();
        if key.chars().any(char::is_uppercase) {
            upper.push((key.to_lowercase(), valence));
        } else {
            words.insert(key.into(), lexicon_word(valence));
        }
    }
    for (key, valence) in upper {
        words.entry(key.into_boxed_str()).or_insert_with(|| lexicon_word(valence));
    }
    for &(word, valence) in SLANG {
        words.entry(word.into()).or_insert_with(|| lexicon_word(valence));
    }
    for &word in NEGATIONS {
        words.entry(word.into()).or_default().negation = true;
    }
    for &word in INTENSIFIERS {
        words.entry(word.into()).or_default().booster = BOOST;
    }
    for &word in DAMPENERS {
        words.entry(word.into()).or_default().booster = -BOOST;
    }
    for &(word, word_id) in SPECIAL_WORDS {
        words.entry(word.into()).or_default().id = word_id;
    }
    let max_word_len = words.keys().map(|k| k.len()).max().unwrap_or(0);

    let mut emoji = FxHashMap::default();
    for (key, description) in vader_sentiment::EMOJI_LEXICON.iter() {
        let mut chars = key.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else { continue };
        // Only pictographs: ASCII-range keys (©, ®) would rewrite ordinary text.
        if (c as u32) < 0x2000 {
            continue;
        }
        let infos: Box<[WordInfo]> = description
            .split_whitespace()
            .map(|w| {
                let w = strip_ascii_punct_if_word(w).to_lowercase();
                words.get(w.as_str()).copied().unwrap_or_default()
            })
            .collect();
        emoji.insert(c, infos);
    }
    Tables { words, emoji, max_word_len }
}

fn lexicon_word(valence: f64) -> WordInfo {
    WordInfo { valence, in_lexicon: true, ..WordInfo::default() }
}

/// Drops leading and trailing ASCII punctuation unless that leaves two characters or fewer, in
/// which case the token is probably an emoticon (":)", ":-D") and is kept whole.
pub(crate) fn strip_ascii_punct_if_word(token: &str) -> &str {
    let stripped = token.trim_matches(|c: char| c.is_ascii_punctuation());
    if stripped.chars().nth(2).is_none() {
        token
    } else {
        stripped
    }
}
