//! Hashtags, mentions, cashtags, links and their domains, taken from a post's text.
//!
//! - Hashtag: `#` then letters, digits, `_` (combining marks allowed); at least one non-digit;
//!   the `#` must not follow a word character (`a#b` is none). Kept lowercase, diacritics kept.
//! - Mention: `@` then letters, digits, `_` and inner dots (instagram); not after a word
//!   character (`me@nike.com` is none). Lowercase.
//! - Cashtag: `$` then 1 to 10 letters, not followed by a digit or letter (`$5`, `$AAPL2` are
//!   none). Uppercase.
//! - Link: `http://` or `https://` up to a space or `<>"`, trailing punctuation dropped (a closing
//!   bracket stays when the link opened one). Domain: its host, lowercase, without `www.` or port.
//!
//! Each list keeps first-seen order without repeats.

use serde::Serialize;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Entities {
    pub hashtags: Vec<String>,
    pub mentions: Vec<String>,
    pub cashtags: Vec<String>,
    pub links: Vec<String>,
    pub domains: Vec<String>,
}

fn push_unique(list: &mut Vec<String>, v: String) {
    if !list.contains(&v) {
        list.push(v);
    }
}

fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_combining_mark(c)
}

const MAX_TAG_CHARS: usize = 140;

impl Entities {
    pub fn extract(text: &str) -> Self {
        // NFKC folds the full-width '＃', '＠' and '＄' and composes diacritics. Most posts are
        // already in that form (all ASCII text is), and the quick check says so without
        // building a copy.
        let normalized: String;
        let text = if text.is_ascii() || is_nfkc_quick(text.chars()) == IsNormalized::Yes {
            text
        } else {
            normalized = text.nfkc().collect();
            &normalized
        };
        let mut e = Self::default();
        // Every entity starts at '#', '@', '$' or a link's "http"; most posts have none.
        let bytes = text.as_bytes();
        if !bytes.iter().any(|b| matches!(b, b'#' | b'@' | b'$'))
            && !bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b"http"))
        {
            return e;
        }
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !matches!(c, 'h' | 'H' | '#' | '@' | '$') {
                i += 1;
                continue;
            }
            let after_word = i > 0 && is_tag_char(chars[i - 1]);
            if (c == 'h' || c == 'H') && !after_word {
                if let Some((link, end)) = link_at(&chars, i) {
                    if let Some(d) = domain(&link) {
                        push_unique(&mut e.domains, d);
                    }
                    push_unique(&mut e.links, link);
                    i = end;
                    continue;
                }
            }
            if matches!(c, '#' | '@' | '$') && !after_word {
                let start = i + 1;
                let mut end = start;
                while end < chars.len() && end - start < MAX_TAG_CHARS {
                    let d = chars[end];
                    let dot_inside = c == '@' && d == '.' && chars.get(end + 1).is_some_and(|n| is_tag_char(*n));
                    if is_tag_char(d) || dot_inside {
                        end += 1;
                    } else {
                        break;
                    }
                }
                let body: String = chars[start..end].iter().collect();
                match c {
                    '#' if body.chars().any(|ch| !ch.is_numeric()) => push_unique(&mut e.hashtags, body.to_lowercase()),
                    '@' if !body.is_empty() => push_unique(&mut e.mentions, body.to_lowercase()),
                    '$' => {
                        let letters = body.chars().take_while(|ch| ch.is_alphabetic()).count();
                        if (1..=10).contains(&letters) && letters == body.chars().count() {
                            push_unique(&mut e.cashtags, body.to_uppercase());
                        }
                    }
                    _ => {}
                }
                i = end.max(i + 1);
                continue;
            }
            i += 1;
        }
        e
    }
}

fn starts_with_ci(chars: &[char], at: usize, prefix: &str) -> bool {
    let mut k = at;
    for p in prefix.chars() {
        match chars.get(k) {
            Some(c) if c.to_ascii_lowercase() == p => k += 1,
            _ => return false,
        }
    }
    true
}

/// A link starting at `at`, and the index just past it.
fn link_at(chars: &[char], at: usize) -> Option<(String, usize)> {
    let scheme = if starts_with_ci(chars, at, "https://") {
        8
    } else if starts_with_ci(chars, at, "http://") {
        7
    } else {
        return None;
    };
    let mut end = at + scheme;
    while end < chars.len() && !chars[end].is_whitespace() && !matches!(chars[end], '<' | '>' | '"') {
        end += 1;
    }
    // Trailing punctuation belongs to the sentence, except a bracket the link itself opened.
    while end > at + scheme {
        let last = chars[end - 1];
        let strip = match last {
            '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '…' => true,
            ')' | ']' | '}' => {
                let open = match last {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                let body = &chars[at..end];
                body.iter().filter(|c| **c == open).count() < body.iter().filter(|c| **c == last).count()
            }
            _ => false,
        };
        if strip {
            end -= 1;
        } else {
            break;
        }
    }
    if end == at + scheme {
        return None;
    }
    Some((chars[at..end].iter().collect(), end))
}

/// The host of a link, lowercase, without `www.`, user info or port; `None` if it has none.
pub fn domain(link: &str) -> Option<String> {
    let rest = link.split_once("://").map_or(link, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host.starts_with('[') {
        host.split_inclusive(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    let host = host.trim_end_matches('.').to_lowercase();
    let host = host.strip_prefix("www.").map(str::to_string).unwrap_or(host);
    if host.is_empty() {
        None
    } else {
        Some(host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashtags() {
        let e = Entities::extract("Go #Nike #nike #Café_2024 #123 a#b #日本 ＃wide (#paren)");
        assert_eq!(e.hashtags, ["nike", "café_2024", "日本", "wide", "paren"]);
    }

    #[test]
    fn mentions_and_cashtags() {
        let e = Entities::extract("hi @Nike, @ig.user. mail me@nike.com $AAPL $aapl $5 $TOOLONGNAMEX $BRK2 @");
        assert_eq!(e.mentions, ["nike", "ig.user"]);
        assert_eq!(e.cashtags, ["AAPL"]);
    }

    #[test]
    fn links_and_domains() {
        let e = Entities::extract(
            "See https://www.Nike.com/shoes?x=1. and (http://en.wikipedia.org/wiki/A_(b)) \
             HTTPS://user@Sub.Example.org:8080/p, http:// nothing <https://t.co/abc>",
        );
        assert_eq!(
            e.links,
            [
                "https://www.Nike.com/shoes?x=1",
                "http://en.wikipedia.org/wiki/A_(b)",
                "HTTPS://user@Sub.Example.org:8080/p",
                "https://t.co/abc",
            ]
        );
        assert_eq!(e.domains, ["nike.com", "en.wikipedia.org", "sub.example.org", "t.co"]);
        assert!(e.hashtags.is_empty(), "fragments and queries are not hashtags");
    }

    #[test]
    fn domain_edge_cases() {
        assert_eq!(domain("https://WWW.x.com."), Some("x.com".into()));
        assert_eq!(domain("http://[::1]:80/"), Some("[::1]".into()));
        assert_eq!(domain("https://"), None);
    }

    #[test]
    fn text_not_in_normal_form_is_normalised_first() {
        // A decomposed é and full-width letters: NFKC composes and folds them.
        let e = Entities::extract("#Cafe\u{301} ＠ｎｉｋｅ ｈｔｔｐｓ://ｔ.ｃｏ/x ＄ＡＡＰＬ");
        assert_eq!(e.hashtags, ["café"]);
        assert_eq!(e.mentions, ["nike"]);
        assert_eq!(e.links, ["https://t.co/x"]);
        assert_eq!(e.cashtags, ["AAPL"]);
        assert_eq!(Entities::extract("Plain words, café and 日本, no entity at all"), Entities::default());
    }

    #[test]
    fn hostile_input() {
        for s in ["#", "@", "$", "http", "https://", "#\u{301}", &"#a".repeat(10_000)] {
            let _ = Entities::extract(s);
        }
        let long = format!("#{}", "a".repeat(500));
        assert_eq!(Entities::extract(&long).hashtags[0].len(), MAX_TAG_CHARS);
    }
}
