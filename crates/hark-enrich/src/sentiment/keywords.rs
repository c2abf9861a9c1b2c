//! A tracker's custom sentiment keyword lists, which force a post's bucket when they match.
//!
//! Matching is case-insensitive on whole words: "love" matches "I LOVE it" and "love!" but not
//! "glove" or "lovely"; a keyword may be a phrase ("customer service") or a hashtag.
//!
//! Precedence when several lists match: **negative > positive > neutral**. A tracker owner
//! lists negative words to catch complaints, and a complaint that also says "thanks" is still
//! a complaint; neutral lists mostly silence words that the lexicon misreads, so they yield to
//! an explicit positive or negative keyword.

use super::Bucket;
use aho_corasick::{AhoCorasick, MatchKind};
use serde::{Deserialize, Serialize};

/// The three lists as the tracker stores them. Blank entries are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomKeywords {
    #[serde(default)]
    pub positive: Vec<String>,
    #[serde(default)]
    pub neutral: Vec<String>,
    #[serde(default)]
    pub negative: Vec<String>,
}

impl CustomKeywords {
    pub fn is_empty(&self) -> bool {
        [&self.positive, &self.neutral, &self.negative]
            .iter()
            .all(|list| list.iter().all(|k| k.trim().is_empty()))
    }

    /// Builds the matcher once per tracker; reuse it for every post.
    pub fn matcher(&self) -> KeywordMatcher {
        KeywordMatcher::new(self)
    }
}

/// Compiled keyword lists.
#[derive(Clone, Debug)]
pub struct KeywordMatcher {
    automaton: Option<AhoCorasick>,
    /// Bucket of each pattern, by pattern index.
    buckets: Vec<Bucket>,
}

impl KeywordMatcher {
    pub fn new(keywords: &CustomKeywords) -> KeywordMatcher {
        let mut patterns = Vec::new();
        let mut buckets = Vec::new();
        for (list, bucket) in [
            (&keywords.negative, Bucket::Negative),
            (&keywords.positive, Bucket::Positive),
            (&keywords.neutral, Bucket::Neutral),
        ] {
            for keyword in list {
                let keyword = keyword.trim().to_lowercase();
                if !keyword.is_empty() {
                    patterns.push(keyword);
                    buckets.push(bucket);
                }
            }
        }
        let automaton = if patterns.is_empty() {
            None
        } else {
            // Standard semantics so that overlapping_iter reports every keyword occurrence;
            // the lists are short and user-typed, so building cannot realistically fail, and if
            // it did the tracker simply gets no override.
            AhoCorasick::builder().match_kind(MatchKind::Standard).build(&patterns).ok()
        };
        KeywordMatcher { automaton, buckets }
    }

    /// The forced bucket for `text`, if any keyword matches (negative > positive > neutral).
    pub fn bucket(&self, text: &str) -> Option<Bucket> {
        let automaton = self.automaton.as_ref()?;
        let text = text.to_lowercase();
        let mut best: Option<Bucket> = None;
        for m in automaton.find_overlapping_iter(&text) {
            if !is_word_boundary(&text, m.start(), m.end()) {
                continue;
            }
            let bucket = self.buckets[m.pattern().as_usize()];
            if bucket == Bucket::Negative {
                return Some(bucket);
            }
            best = Some(match best {
                Some(b) if rank(b) >= rank(bucket) => b,
                _ => bucket,
            });
        }
        best
    }
}

fn rank(bucket: Bucket) -> u8 {
    match bucket {
        Bucket::Negative => 3,
        Bucket::Positive => 2,
        _ => 1,
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_word_boundary(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let first = text[start..end].chars().next();
    let last = text[start..end].chars().next_back();
    // Only a keyword edge that is itself a word character needs a non-word neighbour:
    // "#sale" may follow a letter-less position, "c++" may be followed by anything.
    let start_ok = !(first.is_some_and(is_word_char) && before.is_some_and(is_word_char));
    let end_ok = !(last.is_some_and(is_word_char) && after.is_some_and(is_word_char));
    start_ok && end_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(pos: &[&str], neu: &[&str], neg: &[&str]) -> KeywordMatcher {
        let owned = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        CustomKeywords { positive: owned(pos), neutral: owned(neu), negative: owned(neg) }
            .matcher()
    }

    #[test]
    fn matches_whole_words_case_insensitively() {
        let m = lists(&["love"], &[], &[]);
        assert_eq!(m.bucket("I LOVE it"), Some(Bucket::Positive));
        assert_eq!(m.bucket("love!"), Some(Bucket::Positive));
        assert_eq!(m.bucket("lovely gloves"), None);
        assert_eq!(m.bucket(""), None);
    }

    #[test]
    fn phrases_hashtags_and_non_ascii() {
        let m = lists(&["#BlackFriday"], &["customer service"], &["Café froid"]);
        assert_eq!(m.bucket("deals for #blackfriday!"), Some(Bucket::Positive));
        assert_eq!(m.bucket("called Customer  service"), None);
        assert_eq!(m.bucket("called customer service today"), Some(Bucket::Neutral));
        assert_eq!(m.bucket("CAFÉ FROID encore"), Some(Bucket::Negative));
    }

    #[test]
    fn negative_beats_positive_beats_neutral() {
        let m = lists(&["thanks"], &["update"], &["refund"]);
        assert_eq!(m.bucket("thanks, but I want a refund"), Some(Bucket::Negative));
        assert_eq!(m.bucket("update: thanks all"), Some(Bucket::Positive));
        assert_eq!(m.bucket("update shipped"), Some(Bucket::Neutral));
    }

    #[test]
    fn blank_lists_match_nothing() {
        let k = CustomKeywords { positive: vec!["  ".into()], ..Default::default() };
        assert!(k.is_empty());
        assert_eq!(k.matcher().bucket("anything"), None);
    }

    #[test]
    fn deserializes_the_stored_shape() {
        let k: CustomKeywords =
            serde_json::from_str(r#"{"positive":["great"],"negative":["awful"]}"#).unwrap();
        assert_eq!(k.matcher().bucket("great"), Some(Bucket::Positive));
        assert!(k.neutral.is_empty());
    }
}
