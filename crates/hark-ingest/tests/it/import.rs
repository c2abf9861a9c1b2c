//! The import formats against fixture files shaped like the real payloads.

use std::fs::File;
use std::io::BufReader;

use hark_core::post::MediaKind;
use hark_core::Platform;
use hark_ingest::enrich::enrich;
use hark_ingest::import::{parse_csv, parse_ndjson, CsvMapping, NdjsonReader};

fn fixture(name: &str) -> BufReader<File> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    BufReader::new(File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

#[test]
fn x_api_v2_response() {
    let b = parse_ndjson(fixture("x_v2_recent_search.ndjson"));
    assert_eq!(b.lines, 4);
    let ids: Vec<&str> = b.posts.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["1795000000000000001", "1795000000000000002", "1795000000000000003", "1795000000000000004", "1795000000000000010"]);
    let errs: Vec<_> = b.errors.iter().map(|e| (e.line, e.reason.as_str())).collect();
    assert_eq!(errs, [
        (4, "X API error: Could not find tweet with ids: [1]."),
        (5, "tweet 1795000000000000020: missing created_at"),
    ]);

    let p = &b.posts[0];
    assert_eq!(p.platform, Platform::Twitter);
    assert_eq!(p.created_at, 1_716_818_591_000);
    assert_eq!(p.author.username, "ana_m");
    assert_eq!(p.author.name, "Ana Martins");
    assert_eq!(p.author.followers, Some(1834));
    assert_eq!(p.author.location.as_deref(), Some("São Paulo, Brasil"));
    assert_eq!(p.author.avatar_url.as_deref(), Some("https://pbs.twimg.com/profile_images/1/abc_normal.jpg"));
    assert_eq!(p.author.bio.as_deref(), Some("coffee and code"));
    assert_eq!(p.source.as_deref(), Some("Twitter for iPhone"));
    assert_eq!(p.lang.as_deref(), Some("en"));
    let c = &p.counts;
    assert_eq!((c.likes, c.retweets, c.replies, c.quotes, c.impressions, c.saves), (Some(85), Some(12), Some(3), Some(1), Some(5120), Some(4)));
    assert_eq!(p.media.len(), 1);
    assert_eq!((p.media[0].kind, p.media[0].url.as_str()), (MediaKind::Photo, "https://pbs.twimg.com/media/GOaTlatte.jpg"));
    let (lat, lon) = p.coordinates.unwrap();
    assert!((lat + 23.68).abs() < 0.01 && (lon + 46.6).abs() < 0.01, "centre of the place's bbox");
    assert_eq!(p.url.as_deref(), Some("https://x.com/ana_m/status/1795000000000000001"));
    let e = enrich(p);
    assert_eq!(e.country.as_deref(), Some("BR"));
    assert_eq!(e.device.as_deref(), Some("iPhone"));
    assert_eq!(e.engagement, 100);

    let rt = &b.posts[1];
    assert!(rt.flags.is_retweet);
    assert_eq!(rt.flags.retweet_of.as_deref(), Some("kestrelcoffee"));
    assert_eq!(enrich(rt).post_type, "retweet");

    let reply = &b.posts[2];
    assert!(reply.flags.is_reply && !reply.flags.is_retweet);
    assert_eq!(reply.coordinates, Some((51.5074, -0.1278)), "GeoJSON is longitude first");
    let video = &reply.media[0];
    assert_eq!(video.kind, MediaKind::Video);
    assert_eq!(video.bitrate, Some(832_000), "the first mp4 of at least 320 kbit/s");
    assert!(video.url.ends_with("640x360/crash.mp4"));
    assert_eq!(video.thumbnail_url.as_deref(), Some("https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/crash.jpg"));
    assert_eq!(reply.author.location, None, "a blank location is none");

    let quote = &b.posts[3];
    assert!(quote.flags.is_quote);
    assert_eq!(quote.flags.quoted_text.as_deref(), Some("Pumpkin spice is back tomorrow. Set your alarms."));
    assert_eq!(quote.flags.quoted_url.as_deref(), Some("https://x.com/kestrelcoffee/status/1794990000000000000"));
    assert_eq!((quote.media[0].kind, quote.media[0].bitrate), (MediaKind::Gif, Some(0)));

    let single = &b.posts[4];
    assert_eq!(single.author.name, "Lucía Gómez");
    assert_eq!(enrich(single).country.as_deref(), Some("ES"));
}

#[test]
fn pretty_printed_response_is_one_value() {
    let text = std::fs::read_to_string(format!("{}/tests/fixtures/x_v2_recent_search.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let one_line: serde_json::Value = serde_json::from_str(&text).unwrap();
    let b = parse_ndjson(one_line.to_string().as_bytes());
    assert_eq!((b.posts.len(), b.errors.len()), (4, 0));
}

#[test]
fn streaming_reader_matches_batch() {
    let streamed: Vec<_> = NdjsonReader::new(fixture("x_v2_recent_search.ndjson")).collect();
    assert_eq!(streamed.iter().filter(|r| r.is_ok()).count(), 5);
    assert_eq!(streamed.iter().filter(|r| r.is_err()).count(), 2);
}

#[test]
fn csv_with_guessed_columns() {
    let b = parse_csv(fixture("posts.csv"), &CsvMapping::default());
    assert_eq!(b.lines, 5);
    assert_eq!(b.posts.len(), 3, "{:?}", b.errors);
    let p = &b.posts[0];
    assert_eq!((p.id.as_str(), p.author.username.as_str(), p.counts.likes, p.counts.retweets, p.author.followers), ("a1", "sam_r", Some(1204), Some(88), Some(12_500)));
    assert_eq!(b.posts[1].platform, Platform::Instagram);
    assert_eq!(b.posts[1].created_at, 1_717_236_000_000);
    assert_eq!(b.posts[2].counts.shares, Some(12));
    let errs: Vec<_> = b.errors.iter().map(|e| (e.line, e.reason.as_str())).collect();
    assert_eq!(errs, [(5, "missing date"), (6, "unknown platform 'myspace'")]);
}
