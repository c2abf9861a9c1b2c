//! The Reddit connector against a fake of `POST /api/v1/access_token` (client credentials with
//! HTTP basic auth) and `GET /search` returning `Listing` things (`t3`) newest first with an
//! `after` fullname, `x-ratelimit-*` headers, 429 when used up and 401 for a stale token.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use hark_collect::reddit::Reddit;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    /// (id, created_utc)
    links: Vec<(u64, f64)>,
    tokens_issued: u32,
    /// Tokens the fake still accepts.
    valid: Vec<String>,
    rate_limited: bool,
    requests: Vec<HashMap<String, String>>,
}

type Shared = Arc<Mutex<Fake>>;

fn b36(mut n: u64) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    loop {
        s.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

async fn token(State(s): State<Shared>, h: HeaderMap, Form(f): Form<HashMap<String, String>>) -> Response {
    // "id:secret" in base64
    let ok = h.get("authorization").and_then(|v| v.to_str().ok()) == Some("Basic YXBwLWlkOmFwcC1zZWNyZXQ=");
    if !ok {
        return (StatusCode::UNAUTHORIZED, Json(json!({"message": "Unauthorized", "error": 401}))).into_response();
    }
    if f.get("grant_type").map(String::as_str) != Some("client_credentials") {
        return Json(json!({"error": "unsupported_grant_type"})).into_response();
    }
    let mut fake = s.lock().unwrap();
    fake.tokens_issued += 1;
    let t = format!("tok{}", fake.tokens_issued);
    fake.valid.push(t.clone());
    Json(json!({"access_token": t, "token_type": "bearer", "expires_in": 86400, "scope": "*"})).into_response()
}

async fn search(State(s): State<Shared>, h: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut f = s.lock().unwrap();
    let bearer = h.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("bearer ").or(v.strip_prefix("Bearer "))).unwrap_or("").to_string();
    if !f.valid.contains(&bearer) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"message": "Unauthorized", "error": 401}))).into_response();
    }
    f.requests.push(q.clone());
    if std::mem::take(&mut f.rate_limited) {
        let mut r = (StatusCode::TOO_MANY_REQUESTS, Json(json!({"message": "Too Many Requests", "error": 429}))).into_response();
        r.headers_mut().insert("x-ratelimit-remaining", "0".parse().unwrap());
        r.headers_mut().insert("x-ratelimit-used", "100".parse().unwrap());
        r.headers_mut().insert("x-ratelimit-reset", "1".parse().unwrap());
        return r;
    }
    let limit: usize = q.get("limit").and_then(|v| v.parse().ok()).unwrap_or(25);
    let mut links: Vec<(u64, f64)> = f.links.clone();
    links.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    let start = match q.get("after") {
        Some(a) => links.iter().position(|(id, _)| format!("t3_{}", b36(*id)) == *a).map_or(links.len(), |i| i + 1),
        None => 0,
    };
    let page: Vec<&(u64, f64)> = links.iter().skip(start).take(limit).collect();
    let after = (start + limit < links.len()).then(|| format!("t3_{}", b36(page.last().unwrap().0)));
    let children: Vec<Value> = page
        .iter()
        .map(|(id, at)| {
            let id36 = b36(*id);
            json!({"kind": "t3", "data": {
                "id": id36, "name": format!("t3_{id36}"), "title": format!("Rust question {id}"), "selftext": "How do lifetimes work?",
                "author": "ferris", "author_fullname": "t2_abc", "subreddit": "rust", "subreddit_name_prefixed": "r/rust",
                "created_utc": at, "score": 12, "ups": 12, "num_comments": 4,
                "permalink": format!("/r/rust/comments/{id36}/rust_question/"), "url": format!("https://www.reddit.com/r/rust/comments/{id36}/"),
                "over_18": false, "is_self": true}})
        })
        .collect();
    let mut r = Json(json!({"kind": "Listing", "data": {"after": after, "dist": children.len(), "modhash": "", "geo_filter": "",
        "children": children, "before": null}})).into_response();
    r.headers_mut().insert("x-ratelimit-remaining", "99.0".parse().unwrap());
    r.headers_mut().insert("x-ratelimit-reset", "300".parse().unwrap());
    r
}

async fn fake(n: u64) -> (String, Shared) {
    let now = now_millis() as f64 / 1000.0;
    let links = (1..=n).map(|i| (i, (now - (n - i) as f64 * 60.0).floor())).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { links, ..Default::default() }));
    let router = Router::new()
        .route("/api/v1/access_token", post(token))
        .route("/search", get(search))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn connector(url: &str, secret: &str) -> Reddit {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("client_id".into(), "app-id".into());
    c.values.insert("client_secret".into(), secret.into());
    c.values.insert("token_url".into(), format!("{url}/api/v1/access_token"));
    Reddit::new(c, common::http())
}

fn query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["rust".into(), "ferris crab".into()]], exclude: vec!["spam".into()], ..Default::default() }
}

#[tokio::test]
async fn sweeps_back_then_stops_at_the_watermark() {
    let (url, fake) = fake(230).await;
    let c = connector(&url, "app-secret");
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        for p in page.posts {
            assert_eq!(p.platform, Platform::Forums);
            assert!(ids.insert(p.id));
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(ids.len(), 230);
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.requests.len(), 3);
        assert_eq!(f.requests[0]["q"], "(rust OR \"ferris crab\") NOT spam");
        assert_eq!(f.requests[0]["sort"], "new");
        assert_eq!(f.requests[1]["after"], format!("t3_{}", b36(131)));
        assert_eq!(f.tokens_issued, 1, "the token is reused");
    }
    // Three new posts: one page, stopped by the watermark, only those three (and any at its second).
    fake.lock().unwrap().links.extend((231..=233).map(|i| (i, (now_millis() / 1000 + 5) as f64)));
    let page = c.fetch(&query(), &cursor).await.unwrap();
    assert!(!page.more);
    let fresh: BTreeSet<String> = page.posts.iter().map(|p| p.id.clone()).collect();
    assert!(fresh.is_superset(&["reddit-6f", "reddit-6g", "reddit-6h"].map(String::from).into()), "{fresh:?}");
    assert!(fresh.len() <= 4);
}

#[tokio::test]
async fn renews_a_stale_token_waits_rate_limits_and_rejects_bad_secrets() {
    let (url, fake) = fake(10).await;
    let c = connector(&url, "app-secret");
    assert_eq!(c.fetch(&query(), &json!({})).await.unwrap().posts.len(), 10);
    fake.lock().unwrap().valid.clear();
    fake.lock().unwrap().rate_limited = true;
    assert_eq!(c.fetch(&query(), &json!({})).await.unwrap().posts.len(), 10);
    assert_eq!(fake.lock().unwrap().tokens_issued, 2, "a 401 fetched a new token once");
    let bad = connector(&url, "nope");
    assert!(matches!(bad.fetch(&query(), &json!({})).await, Err(CollectError::Auth(_))));
    assert!(matches!(bad.check().await, Err(CollectError::Auth(_))));
    assert!(c.check().await.unwrap().starts_with("Signed in"));
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = fake(230).await;
        let (_db, store) = common::store(backend).await;
        // The fake's posts say "Rust question N"; the tracker looks for "rust".
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Forums], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&url, "app-secret")) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(1)).await;
        assert_eq!(pages, 4);
        let expected: BTreeSet<String> = (1..=230).map(|i| format!("reddit-{}", b36(i))).collect();
        common::assert_exactly(&store, t.id, &expected).await;
    }
}
