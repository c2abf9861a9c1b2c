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
        assert_ne!(short_hash("a"), short_hash("b"));
    }
}
