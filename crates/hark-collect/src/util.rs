//! Small helpers shared by connectors.

use hark_core::Millis;

/// Text of an HTML fragment: tags dropped, the common entities decoded, whitespace collapsed.
pub fn html_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let decoded = out
        .replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&#x2F;", "/")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text of rich post HTML (Mastodon statuses): block tags (`p`, `br`, `li`, …) become spaces,
/// inline tags (`a`, `span`) vanish without one, so `#<span>rust</span>` reads `#rust`.
pub fn html_text_inline(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut tag = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' if !in_tag => {
                in_tag = true;
                tag.clear();
            }
            '>' if in_tag => {
                in_tag = false;
                let name: String = tag
                    .trim_start_matches('/')
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_ascii_lowercase();
                if matches!(name.as_str(), "p" | "br" | "div" | "li" | "ul" | "ol" | "blockquote" | "pre" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
                    out.push(' ');
                }
            }
            _ if in_tag => tag.push(c),
            _ => out.push(c),
        }
    }
    html_text(&out)
}

/// RFC 3339 / ISO 8601 time to milliseconds.
pub fn parse_rfc3339(s: &str) -> Option<Millis> {
    s.trim().parse::<jiff::Timestamp>().ok().map(|t| t.as_millisecond())
}

pub fn rfc3339(ms: Millis) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()).unwrap_or_default()
}

/// A short stable id for a string (feed item ids and links can be long or contain ';').
pub fn short_hash(s: &str) -> String {
    // FNV-1a, 64 bits, twice with different seeds: stable across builds and versions.
    let h = |seed: u64| {
        s.bytes().fold(seed, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
    };
    format!("{:016x}{:016x}", h(0xcbf2_9ce4_8422_2325), h(0x6c62_272e_07bb_0142))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_html_and_parses_times() {
        assert_eq!(html_text("<p>Hello&nbsp;<b>world</b> &amp; <a href=\"x\">you</a></p>"), "Hello world & you");
        assert_eq!(parse_rfc3339("2024-01-02T03:04:05.000Z"), Some(1_704_164_645_000));
        assert_eq!(rfc3339(1_704_164_645_000), "2024-01-02T03:04:05Z");
        assert_eq!(short_hash("a").len(), 32);
        assert_eq!(
            html_text_inline("<p>Hello <a href=\"https://m.example/tags/rust\" class=\"mention hashtag\">#<span>rust</span></a> &amp; you</p><p>line<br>two</p>"),
            "Hello #rust & you line two"
        );
        assert_ne!(short_hash("a"), short_hash("b"));
    }
}
