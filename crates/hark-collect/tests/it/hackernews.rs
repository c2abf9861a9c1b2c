//! The Hacker News connector against a fake of Algolia's `GET /api/v1/search_by_date`: hits
//! newest first with `objectID`, `created_at_i`, `_tags`; `page`/`nbPages`/`hitsPerPage`;
//! `numericFilters` on `created_at_i`; 429 `{"message","status"}` when rate limited.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::hackernews::HackerNews;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    /// (id, created_at_i, is_comment, text)
    items: Vec<(u64, i64, bool, String)>,
    rate_limited: u32,
    requests: Vec<HashMap<String, String>>,
}

type Shared = Arc<Mutex<Fake>>;

async fn search(State(s): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut f = s.lock().unwrap();
    f.requests.push(q.clone());
    if f.rate_limited > 0 {
        f.rate_limited -= 1;
        return (StatusCode::TOO_MANY_REQUESTS, Json(json!({"message": "Too many requests", "status": 429}))).into_response();
    }
    let words: Vec<String> = q.get("query").map(|s| s.to_lowercase().split_whitespace().map(str::to_string).collect()).unwrap_or_default();
    let (mut lo, mut hi) = (i64::MIN, i64::MAX);
    for f in q.get("numericFilters").map(String::as_str).unwrap_or("").split(',') {
        if let Some(v) = f.strip_prefix("created_at_i>=") {
            lo = v.parse::<i64>().unwrap() - 1;
        } else if let Some(v) = f.strip_prefix("created_at_i>") {
            lo = v.parse().unwrap();
        } else if let Some(v) = f.strip_prefix("created_at_i<=") {
            hi = v.parse().unwrap();
        } else if !f.is_empty() {
            return (StatusCode::BAD_REQUEST, Json(json!({"message": format!("Invalid syntax for numeric condition:{f}"), "status": 400}))).into_response();
        }
    }
    let per: usize = q.get("hitsPerPage").and_then(|v| v.parse().ok()).unwrap_or(20);
    let page: usize = q.get("page").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut hits: Vec<&(u64, i64, bool, String)> = f
        .items
        .iter()
        .filter(|(_, at, _, text)| *at > lo && *at <= hi && words.iter().all(|w| text.to_lowercase().contains(w)))
        .collect();
    hits.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    let nb_hits = hits.len();
    let nb_pages = nb_hits.div_ceil(per);
    let slice: Vec<Value> = hits
        .iter()
        .skip(page * per)
        .take(per)
        .map(|(id, at, comment, text)| {
            let created = jiff::Timestamp::from_second(*at).unwrap().to_string();
            if *comment {
                json!({"created_at": created, "title": null, "url": null, "author": "pg", "points": null,
                    "story_text": null, "comment_text": format!("<p>{text}</p>"), "num_comments": null, "story_id": 1,
                    "story_title": "A story", "parent_id": 1, "created_at_i": at, "_tags": ["comment", "author_pg", "story_1"],
                    "objectID": id.to_string()})
            } else {
                json!({"created_at": created, "title": text, "url": format!("https://example.com/{id}"), "author": "dang",
                    "points": 10, "story_text": null, "comment_text": null, "num_comments": 3, "created_at_i": at,
                    "_tags": ["story", "author_dang", format!("story_{id}")], "objectID": id.to_string()})
            }
        })
        .collect();
    Json(json!({"hits": slice, "nbHits": nb_hits, "page": page, "nbPages": nb_pages, "hitsPerPage": per,
        "exhaustiveNbHits": true, "query": q.get("query"), "params": "", "processingTimeMS": 1}))
    .into_response()
}

async fn fake(n: u64) -> (String, Shared) {
    let now = now_millis() / 1000;
    let items = (1..=n).map(|i| (i, now - (n - i) as i64 * 60, i % 3 == 0, format!("Show HN: rust tool {i}"))).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { items, ..Default::default() }));
    let url = common::serve(Router::new().route("/api/v1/search_by_date", get(search)).with_state(state.clone())).await;
    (url, state)
}

fn connector(url: &str) -> HackerNews {
    HackerNews::new(ConnectorConfig { base_url: Some(url.into()), ..Default::default() }, common::http())
}

fn query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["#rust".into(), "ferris".into()], vec!["tool".into()]], ..Default::default() }
}

#[tokio::test]
async fn sweeps_each_phrase_page_by_page_then_only_newer_items() {
    let (url, fake) = fake(250).await;
    let c = connector(&url);
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        for p in &page.posts {
            ids.insert(p.id.clone());
            assert_eq!(p.platform, Platform::Forums);
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(ids.len(), 250);
    let reqs = fake.lock().unwrap().requests.clone();
    // "rust tool": pages 0..2; "ferris tool": one empty page.
    let asked: Vec<(String, String)> = reqs.iter().map(|r| (r["query"].clone(), r["page"].clone())).collect();
    assert_eq!(asked, [("rust tool", "0"), ("rust tool", "1"), ("rust tool", "2"), ("ferris tool", "0")].map(|(a, b)| (a.to_string(), b.to_string())));
    assert!(reqs.iter().all(|r| r["numericFilters"] == reqs[0]["numericFilters"]), "the window holds for the sweep");
    assert_eq!(reqs[0]["tags"], "(story,comment)");
    let comment = c.fetch(&query(), &json!({})).await.unwrap().posts.into_iter().find(|p| p.flags.is_reply).unwrap();
    assert!(comment.text.starts_with("Show HN: rust tool") && comment.url.unwrap().contains("news.ycombinator.com/item?id="));
    // A new story; the next sweep starts at the last one's end (less the overlap).
    let until: i64 = reqs[0]["numericFilters"].rsplit("<=").next().unwrap().parse().unwrap();
    assert_eq!(cursor["since"], json!(until - hark_collect::hackernews::OVERLAP_SECS));
    fake.lock().unwrap().items.push((999, until, false, "rust tool news".into()));
    let page = c.fetch(&query(), &cursor).await.unwrap();
    assert!(page.posts.iter().any(|p| p.id == "hn-999"));
    assert!(page.posts.len() <= 7, "only the overlap and the new story: {}", page.posts.len());
}

#[tokio::test]
async fn rate_limits_and_errors() {
    let (url, fake) = fake(10).await;
    let c = connector(&url);
    fake.lock().unwrap().rate_limited = 1;
    assert_eq!(c.fetch(&query(), &json!({})).await.unwrap().posts.len(), 10, "one 429 retried after backoff");
    fake.lock().unwrap().rate_limited = 10;
    assert!(matches!(c.fetch(&query(), &json!({})).await, Err(CollectError::RateLimited { .. })));
    fake.lock().unwrap().rate_limited = 0;
    let down = connector("http://127.0.0.1:9");
    assert!(matches!(down.fetch(&query(), &json!({})).await, Err(CollectError::Network(_))));
    assert!(c.check().await.unwrap().contains("Search answered"));
}

#[tokio::test]
async fn backfill_reads_its_window_only() {
    let (url, _) = fake(100).await;
    let c = connector(&url);
    let now = now_millis();
    let q = hark_collect::TrackerQuery { range: Some((now - 40 * 60_000, now - 20 * 60_000)), ..query() };
    let first = c.fetch(&q, &json!({})).await.unwrap();
    assert!(first.more, "the second phrase is still to read");
    let second = c.fetch(&q, &first.cursor).await.unwrap();
    assert!(!second.more && second.posts.is_empty());
    let page = first;
    assert!((19..=21).contains(&page.posts.len()), "{}", page.posts.len());
    assert!(page.posts.iter().all(|p| p.created_at >= now - 41 * 60_000 && p.created_at < now - 19 * 60_000));
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = fake(250).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust", "ferris"], ["tool"]]), &[Platform::Forums], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&url)) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 5);
        let expected: BTreeSet<String> = (1..=250).map(|i| format!("hn-{i}")).collect();
        common::assert_exactly(&store, t.id, &expected).await;
    }
}

#[tokio::test]
async fn estimates_from_hit_counts() {
    let (url, _) = fake(100).await;
    let c = connector(&url);
    let now = now_millis();
    let q = hark_collect::TrackerQuery { range: Some((now - 40 * 60_000, now - 20 * 60_000)), ..query() };
    let n = c.estimate(&q).await.unwrap().unwrap();
    assert!((19..=21).contains(&n), "{n}");
}
