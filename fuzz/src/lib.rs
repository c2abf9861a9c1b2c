//! What the fuzz targets share: the input form of the search target and the checks every
//! imported or collected post must pass.

use hark_core::search::{SearchRow, SearchRowKind};
use hark_core::{Platform, Post};

/// A search form written as text, one row a line, terms separated by commas:
///
/// ```text
/// nike, #justdoit        an include row (a leading `+` is allowed)
/// -adidas, puma          an exclude row
/// ~air max, pegasus      subtrackers
/// >Just got my #nike air max   the text of the post to match (lines joined)
/// ```
///
/// Without a `>` line the whole input is the post's text, so the terms are usually in it.
pub struct SearchForm {
    pub rows: Vec<SearchRow>,
    pub subtrackers: Vec<String>,
    pub post_text: String,
}

pub fn search_form(input: &str) -> SearchForm {
    let terms = |s: &str| s.split(',').map(str::to_string).collect::<Vec<_>>();
    let mut rows = Vec::new();
    let mut subtrackers = Vec::new();
    let mut text: Vec<&str> = Vec::new();
    for line in input.lines() {
        if let Some(t) = line.strip_prefix('>') {
            text.push(t);
        } else if let Some(s) = line.strip_prefix('~') {
            subtrackers.extend(terms(s));
        } else if let Some(r) = line.strip_prefix('-') {
            rows.push(SearchRow { kind: SearchRowKind::Exclude, searches: terms(r) });
        } else {
            let r = line.strip_prefix('+').unwrap_or(line);
            rows.push(SearchRow { kind: SearchRowKind::Include, searches: terms(r) });
        }
    }
    let post_text = if text.is_empty() { input.to_string() } else { text.join("\n") };
    SearchForm { rows, subtrackers, post_text }
}

/// A post an import produced: its key is valid, and written in Hark's own NDJSON form it reads
/// back as one post with the same key and text (an export imported again).
pub fn check_imported(p: &Post) {
    let key = p.key().unwrap_or_else(|e| panic!("an imported post has a bad key: {e:?}"));
    let line = serde_json::to_string(p).expect("a post serializes");
    let back = hark_ingest::import::parse_line(&line);
    assert_eq!(back.len(), 1, "{line}");
    match &back[0] {
        Ok(q) => {
            assert_eq!(q.key().ok(), Some(key), "{line}");
            assert_eq!(q.text, p.text, "{line}");
        }
        Err(e) => panic!("an imported post does not read back: {e}\n{line}"),
    }
}

/// Posts a connector mapped are of the connector's platforms.
pub fn check_collected(posts: &[Post], platforms: &[Platform]) {
    for p in posts {
        assert!(platforms.contains(&p.platform), "{:?} from a connector of {platforms:?}", p.platform);
    }
}
