//! Import formats: NDJSON (our `Post` JSON or X API v2 payloads, one per line) and CSV with a
//! column mapping. Bad lines are skipped and reported with their line number and a reason;
//! good lines are never lost because of them.

mod csv;
mod ndjson;
pub mod xv2;

use hark_core::post::normalize_timestamp;
use hark_core::{Millis, Platform, Post};
use serde::Serialize;

pub use self::csv::{parse_csv, CsvField, CsvMapping, CsvReader};
pub use ndjson::{parse_line, parse_ndjson, NdjsonReader};

/// A line (or CSV record) that could not be imported. Lines count from 1; for CSV the header
/// is line 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

impl LineError {
    pub fn new(line: usize, reason: impl Into<String>) -> Self {
        Self { line, reason: reason.into() }
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// The result of reading a whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ImportBatch {
    pub posts: Vec<Post>,
    pub errors: Vec<LineError>,
    /// Non-blank lines (NDJSON) or data records (CSV) read.
    pub lines: usize,
}

/// Up to `limit` items of a reader ([`NdjsonReader`], [`CsvReader`]) as posts and line errors;
/// `lines` is left to the caller, who asks the reader.
pub fn take_batch(reader: &mut impl Iterator<Item = Result<Post, LineError>>, limit: usize) -> ImportBatch {
    let mut batch = ImportBatch::default();
    for item in reader.take(limit) {
        match item {
            Ok(p) => batch.posts.push(p),
            Err(e) => batch.errors.push(e),
        }
    }
    batch
}

/// A timestamp as platforms and exports write it: a number of seconds or milliseconds (by
/// digit count, see [`normalize_timestamp`]), an RFC 3339 instant, or a UTC date and time
/// (`2024-06-01 12:30:00`, `2024-06-01`).
pub fn parse_time(s: &str, platform: Platform) -> Result<Millis, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("empty timestamp".into());
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s
            .parse::<i64>()
            .map(|v| normalize_timestamp(v, platform))
            .map_err(|_| format!("timestamp '{s}' is out of range"));
    }
    if let Ok(ts) = s.parse::<jiff::Timestamp>() {
        return Ok(ts.as_millisecond());
    }
    let utc = |dt: jiff::civil::DateTime| dt.to_zoned(jiff::tz::TimeZone::UTC).ok().map(|z| z.timestamp().as_millisecond());
    if let Some(ms) = s.parse::<jiff::civil::DateTime>().ok().and_then(utc) {
        return Ok(ms);
    }
    if let Some(ms) = s.parse::<jiff::civil::Date>().ok().and_then(|d| utc(d.to_datetime(jiff::civil::Time::midnight()))) {
        return Ok(ms);
    }
    Err(format!("bad timestamp '{}': expected seconds, milliseconds or an RFC 3339 date", truncate(s, 40)))
}

pub(crate) fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Checks the post key and fills what a post needs to be stored.
pub(crate) fn validate(post: Post) -> Result<Post, String> {
    post.key().map_err(|e| e.message)?;
    Ok(post)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        let p = Platform::Twitter;
        assert_eq!(parse_time("1700000000", p), Ok(1_700_000_000_000));
        assert_eq!(parse_time("1700000000123", p), Ok(1_700_000_000_123));
        assert_eq!(parse_time("2023-11-14T22:13:20.000Z", p), Ok(1_700_000_000_000));
        assert_eq!(parse_time("2023-11-14T23:13:20+01:00", p), Ok(1_700_000_000_000));
        assert_eq!(parse_time("2023-11-14 22:13:20", p), Ok(1_700_000_000_000));
        assert_eq!(parse_time("2023-11-14T22:13:20", p), Ok(1_700_000_000_000));
        assert_eq!(parse_time("2023-11-14", p), Ok(1_699_920_000_000));
        assert!(parse_time("yesterday", p).unwrap_err().contains("bad timestamp"));
        assert!(parse_time("", p).is_err());
        assert!(parse_time("99999999999999999999999", p).is_err());
    }
}
