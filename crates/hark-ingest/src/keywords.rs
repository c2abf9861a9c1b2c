//! Keywords of a post for Related Topics: its content words, without stop words, hashtags,
//! mentions or links.

use std::collections::HashSet;
use std::sync::OnceLock;

const MAX_KEYWORDS: usize = 8;

fn stop_words() -> &'static HashSet<String> {
    static WORDS: OnceLock<HashSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        use stop_words::Language::*;
        let mut set = HashSet::new();
        for lang in [English, Spanish, Portuguese, French, German, Italian, Dutch] {
            set.extend(stop_words::get(lang).into_iter().map(|w| w.to_lowercase()));
        }
        set.extend(["https", "http", "amp", "www", "com", "just", "like", "get", "got", "will", "can"].map(String::from));
        set
    })
}

/// Up to eight distinct lowercase words of at least three letters, in order of appearance.
pub fn keywords(text: &str) -> Vec<String> {
    let stop = stop_words();
    let mut out: Vec<String> = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace()) {
        if raw.starts_with('#') || raw.starts_with('@') || raw.starts_with('$') || raw.contains("://") || raw.starts_with("www.") {
            continue;
        }
        let word: String = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .chars()
            .flat_map(char::to_lowercase)
            .collect();
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        if letters < 3 || letters * 2 < word.chars().count() || word.chars().count() > 40 {
            continue;
        }
        if !word.chars().all(|c| c.is_alphanumeric() || c == '\'' || c == '-') || stop.contains(&word) {
            continue;
        }
        if !out.contains(&word) {
            out.push(word);
            if out.len() == MAX_KEYWORDS {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_content_words_only() {
        assert_eq!(
            keywords("The new Espresso bar is AMAZING!! #coffee @barista https://x.co/a espresso 2024"),
            vec!["espresso", "bar", "amazing"]
        );
        assert!(keywords("a an the of to #tag @me").is_empty());
        assert_eq!(keywords("café Lisboa Porto").len(), 3);
    }

    #[test]
    fn caps_the_count() {
        let text = (0..20).map(|i| format!("word{i}x")).collect::<Vec<_>>().join(" ");
        assert_eq!(keywords(&text).len(), MAX_KEYWORDS);
    }
}
