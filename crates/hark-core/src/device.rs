//! The device or app a post was sent from, from the client name (twitter's `source`, which may be
//! an HTML link). Known clients get one label each; iPhone, iPad and iOS keep their lowercase i
//! (posts document section 5). Unknown clients keep their own name, trimmed, with a leading
//! "Twitter for " removed.

const MAX_LABEL_CHARS: usize = 64;

/// Known clients, by a lowercase fragment of the name; the first that fits wins.
const KNOWN: &[(&str, &str)] = &[
    ("iphone", "iPhone"),
    ("ipad", "iPad"),
    ("tweetdeck", "TweetDeck"),
    ("web app", "Web App"),
    ("web client", "Web App"),
    ("mobile web", "Mobile Web"),
    ("android", "Android"),
    ("ios", "iOS"),
    ("mac", "Mac"),
    ("windows", "Windows"),
    ("hootsuite", "Hootsuite"),
    ("buffer", "Buffer"),
    ("sprout social", "Sprout Social"),
    ("ifttt", "IFTTT"),
    ("zapier", "Zapier"),
    ("dlvr.it", "dlvr.it"),
    ("instagram", "Instagram"),
    ("facebook", "Facebook"),
    ("linkedin", "LinkedIn"),
];

/// Strips HTML tags (`<a href=…>Twitter for iPhone</a>` → `Twitter for iPhone`).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whether `needle` occurs in `hay` as whole words (so "ios" is not found in "studios").
fn has_words(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = hay[i + needle.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        before && after
    })
}

/// The device label for a client name; `None` for a blank one.
pub fn device(source: &str) -> Option<String> {
    let name = strip_tags(source);
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return None;
    }
    let lower = name.to_lowercase();
    if let Some((_, label)) = KNOWN.iter().find(|(k, _)| has_words(&lower, k)) {
        return Some((*label).to_string());
    }
    let trimmed = ["twitter for "]
        .iter()
        .find_map(|p| lower.starts_with(p).then(|| name[p.len()..].trim().to_string()))
        .filter(|s| !s.is_empty())
        .unwrap_or(name);
    Some(trimmed.chars().take(MAX_LABEL_CHARS).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_clients() {
        assert_eq!(device("<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>").as_deref(), Some("iPhone"));
        assert_eq!(device("Twitter for IPAD").as_deref(), Some("iPad"));
        assert_eq!(device("iphone").as_deref(), Some("iPhone"));
        assert_eq!(device("IOS").as_deref(), Some("iOS"));
        assert_eq!(device("Twitter for Android").as_deref(), Some("Android"));
        assert_eq!(device("Twitter Web App").as_deref(), Some("Web App"));
        assert_eq!(device("TweetDeck Web App").as_deref(), Some("TweetDeck"));
    }

    #[test]
    fn unknown_clients_keep_their_name() {
        assert_eq!(device("Twitter for  Smart Fridge").as_deref(), Some("Smart Fridge"));
        assert_eq!(device("Blue Studios").as_deref(), Some("Blue Studios"));
        assert_eq!(device("  ").as_deref(), None);
        assert_eq!(device("<a>").as_deref(), None);
        assert_eq!(device(&"x".repeat(500)).unwrap().len(), MAX_LABEL_CHARS);
        assert_eq!(device("Twitter for ").as_deref(), Some("Twitter for"), "a prefix alone stays");
    }
}
