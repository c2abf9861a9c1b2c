//! NDJSON: one JSON value per line, either our [`Post`] (as hark-core serializes it) or an X API
//! v2 response or tweet (see [`super::xv2`]). A response line may hold many posts.

use std::collections::VecDeque;
use std::io::BufRead;

use hark_core::post::normalize_timestamp;
use hark_core::{Platform, Post};
use serde_json::Value;

use super::{parse_time, validate, xv2, ImportBatch, LineError};

/// Streams posts from NDJSON, one line in memory at a time.
pub struct NdjsonReader<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
    lines: usize,
    pending: VecDeque<Result<Post, LineError>>,
    done: bool,
}

impl<R: BufRead> NdjsonReader<R> {
    pub fn new(reader: R) -> Self {
        Self { reader, buf: Vec::with_capacity(4096), line: 0, lines: 0, pending: VecDeque::new(), done: false }
    }

    /// Non-blank lines read so far.
    pub fn lines(&self) -> usize {
        self.lines
    }
}

impl<R: BufRead> Iterator for NdjsonReader<R> {
    type Item = Result<Post, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            self.buf.clear();
            match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => {
                    self.done = true;
                    return None;
                }
                Ok(_) => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(LineError::new(self.line + 1, format!("read error: {e}"))));
                }
            }
            self.line += 1;
            let line_no = self.line;
            let text = match std::str::from_utf8(&self.buf) {
                Ok(t) => t.trim_start_matches('\u{feff}').trim(),
                Err(_) => {
                    self.lines += 1;
                    return Some(Err(LineError::new(line_no, "line is not valid UTF-8")));
                }
            };
            if text.is_empty() {
                continue;
            }
            self.lines += 1;
            for r in parse_line(text) {
                self.pending.push_back(r.map_err(|reason| LineError::new(line_no, reason)));
            }
        }
    }
}

/// Reads a whole NDJSON file.
pub fn parse_ndjson<R: BufRead>(r: R) -> ImportBatch {
    let mut reader = NdjsonReader::new(r);
    let mut batch = super::take_batch(&mut reader, usize::MAX);
    batch.lines = reader.lines();
    batch
}

/// The posts of one non-blank line (several for an X API v2 response), or why not.
pub fn parse_line(line: &str) -> Vec<Result<Post, String>> {
    // The common case, a Post with a numeric timestamp, skips the generic value.
    if let Ok(mut post) = serde_json::from_str::<Post>(line) {
        post.created_at = normalize_timestamp(post.created_at, post.platform);
        return vec![validate(post)];
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return vec![Err(format!("invalid JSON: {e}"))],
    };
    let Value::Object(obj) = value else {
        return vec![Err("expected a JSON object (a post or an X API v2 response)".into())];
    };
    if xv2::is_xv2(&obj) {
        return xv2::posts_from_value(Value::Object(obj));
    }
    vec![post_from_object(obj)]
}

/// Our Post JSON with friendlier errors than serde's, and timestamps written as RFC 3339 or
/// as numeric strings.
fn post_from_object(mut obj: serde_json::Map<String, Value>) -> Result<Post, String> {
    let platform = match obj.get("platform") {
        Some(Value::String(s)) => Platform::parse(s).map_err(|_| format!("unknown platform '{}'", super::truncate(s, 40)))?,
        Some(_) => return Err("'platform' must be a string".into()),
        None => return Err("missing platform (or not an X API v2 object)".into()),
    };
    match obj.get("id") {
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        Some(Value::Number(n)) => {
            let s = n.to_string();
            obj.insert("id".into(), Value::String(s));
        }
        _ => return Err("missing id".into()),
    }
    let created = obj.remove("createdAt").or_else(|| obj.remove("created_at"));
    let created_at = match created {
        Some(Value::Number(n)) => match n.as_i64() {
            Some(v) => normalize_timestamp(v, platform),
            None => return Err(format!("bad timestamp {n}")),
        },
        Some(Value::String(s)) => parse_time(&s, platform)?,
        Some(_) => return Err("createdAt must be a number or a string".into()),
        None => return Err("missing createdAt".into()),
    };
    obj.insert("createdAt".into(), Value::from(created_at));
    let post: Post = serde_json::from_value(Value::Object(obj)).map_err(|e| format!("invalid post: {e}"))?;
    validate(post)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_blank_lines_and_errors() {
        let input = concat!(
            r#"{"platform":"twitter","id":"1","text":"hello","createdAt":1700000000}"#, "\n",
            "\n",
            "   \n",
            r#"{"platform":"ig","id":2,"text":"x","createdAt":"2023-11-14T22:13:20Z","author":{"username":"a"}}"#, "\n",
            "{not json\n",
            r#"{"platform":"myspace","id":"3","createdAt":1}"#, "\n",
            r#"{"platform":"twitter","text":"no id","createdAt":1}"#, "\n",
            r#"{"platform":"twitter","id":"4","createdAt":"last week"}"#, "\n",
            r#"{"platform":"twitter","id":"5"}"#, "\n",
            r#"[1,2]"#, "\n",
            r#"{"platform":"news","id":"a;b","createdAt":1}"#, "\n",
            r#"{"platform":"twitter","id":"6","createdAt":1700000000123,"counts":{"likes":"many"}}"#, "\n",
            r#"{"platform":"youtube","id":"dQw4w9WgXcQ","createdAt":"1700000000"}"#,
        );
        let b = parse_ndjson(input.as_bytes());
        assert_eq!(b.lines, 11);
        let ids: Vec<_> = b.posts.iter().map(|p| (p.id.as_str(), p.created_at)).collect();
        assert_eq!(ids, [("1", 1_700_000_000_000), ("2", 1_700_000_000_000), ("dQw4w9WgXcQ", 1_700_000_000_000)]);
        let errs: Vec<_> = b.errors.iter().map(|e| (e.line, e.reason.as_str())).collect();
        assert_eq!(errs[0].0, 5);
        assert!(errs[0].1.starts_with("invalid JSON"), "{}", errs[0].1);
        assert_eq!(errs[1], (6, "unknown platform 'myspace'"));
        assert_eq!(errs[2], (7, "missing id"));
        assert_eq!(errs[3].0, 8);
        assert!(errs[3].1.contains("bad timestamp"));
        assert_eq!(errs[4], (9, "missing createdAt"));
        assert_eq!(errs[5].0, 10);
        assert_eq!(errs[6].0, 11);
        assert!(errs[6].1.contains("';'"), "{}", errs[6].1);
        assert_eq!(errs[7].0, 12);
        assert!(errs[7].1.starts_with("invalid post"), "{}", errs[7].1);
        assert_eq!(errs.len(), 8);
    }

    #[test]
    fn round_trips_serialized_posts() {
        let mut g = crate::demo::DemoGenerator::new(1);
        let posts: Vec<Post> = g.generate(1_700_000_000_000, 1_700_086_400_000, 300).collect();
        let mut text = String::new();
        for p in &posts {
            text.push_str(&serde_json::to_string(p).unwrap());
            text.push('\n');
        }
        let b = parse_ndjson(text.as_bytes());
        assert!(b.errors.is_empty(), "{:?}", b.errors.first());
        // serde_json reads floats to within one ulp, not always exactly.
        let strip = |ps: &[Post]| -> Vec<Post> {
            ps.iter().cloned().map(|mut p| {
                p.coordinates = p.coordinates.map(|(a, b)| ((a * 1e9).round() / 1e9, (b * 1e9).round() / 1e9));
                p
            }).collect()
        };
        assert_eq!(strip(&b.posts), strip(&posts));
        assert_eq!(b.lines, 300);
    }

    #[test]
    fn invalid_utf8_is_one_bad_line() {
        let mut input = b"{\"platform\":\"twitter\",\"id\":\"1\",\"createdAt\":1}\n".to_vec();
        input.extend_from_slice(b"\xff\xfe\n");
        input.extend_from_slice(b"{\"platform\":\"twitter\",\"id\":\"2\",\"createdAt\":1}");
        let b = parse_ndjson(&input[..]);
        assert_eq!(b.posts.len(), 2);
        assert_eq!(b.errors, [LineError::new(2, "line is not valid UTF-8")]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let b = parse_ndjson(&bytes[..]);
            proptest::prop_assert!(b.errors.len() <= b.lines);
        }

        #[test]
        fn never_panics_on_json_like(s in r#"[{}\[\]":,a-z0-9 \n]{0,200}"#) {
            let _ = parse_ndjson(s.as_bytes());
        }
    }
}
