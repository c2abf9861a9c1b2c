//! The TikTok connector against a fake Research API: `POST /v2/oauth/token/` (client
//! credentials) and `POST /v2/research/video/query/` answering `{data: {videos, cursor, has_more,
//! search_id}, error: {code: "ok", message, log_id}}`, with `access_token_invalid` and
//! `rate_limit_exceeded` errors.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Json, Router};
use hark_collect::tiktok::Tiktok;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    /// (id, create_time seconds)
    videos: Vec<(i64, i64)>,
    tokens: Vec<String>,
    rate_limited: u32,
    queries: Vec<Value>,
}

type Shared = Arc<Mutex<Fake>>;

fn err(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({"error": {"code": code, "message": message, "log_id": "202401010000"}}))).into_response()
}

async fn token(State(s): State<Shared>, Form(f): Form<HashMap<String, String>>) -> Response {
    if f.get("client_key").map(String::as_str) != Some("ck") || f.get("client_secret").map(String::as_str) != Some("cs") {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "invalid_client", "error_description": "Client key or secret is incorrect.", "log_id": "1"}))).into_response();
    }
    let mut fake = s.lock().unwrap();
    let t = format!("clt.{}", fake.tokens.len() + 1);
    fake.tokens.push(t.clone());
    Json(json!({"access_token": t, "expires_in": 7200, "token_type": "Bearer"})).into_response()
}

async fn query(State(s): State<Shared>, h: HeaderMap, Query(q): Query<HashMap<String, String>>, Json(body): Json<Value>) -> Response {
    let mut f = s.lock().unwrap();
    let bearer = h.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").trim_start_matches("Bearer ").to_string();
    if f.tokens.last() != Some(&bearer) {
        return err(StatusCode::UNAUTHORIZED, "access_token_invalid", "The access token is invalid or not found in the request.");
    }
    if f.rate_limited > 0 {
        f.rate_limited -= 1;
        return err(StatusCode::TOO_MANY_REQUESTS, "rate_limit_exceeded", "API rate limit was exceeded, please try again later.");
    }
    assert!(q.get("fields").unwrap().contains("video_description"));
    f.queries.push(body.clone());
    let day = |s: &str| jiff::civil::Date::strptime("%Y%m%d", s).unwrap().to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp().as_second();
    let (start, end) = (day(body["start_date"].as_str().unwrap()), day(body["end_date"].as_str().unwrap()) + 86_400);
    if end - start > 30 * 86_400 {
        return err(StatusCode::BAD_REQUEST, "invalid_params", "The date range must be 30 days or less.");
    }
    let max = body["max_count"].as_u64().unwrap_or(20) as usize;
    let cursor = body["cursor"].as_u64().unwrap_or(0) as usize;
    // A `video_id` condition (EQ or IN) narrows the answer to those videos.
    let wanted: Option<Vec<String>> = body["query"]["and"].as_array().and_then(|conds| {
        conds.iter().find(|c| c["field_name"] == "video_id").map(|c| {
            c["field_values"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
        })
    });
    let mut hits: Vec<(i64, i64)> = f
        .videos
        .iter()
        .filter(|(id, at)| *at >= start && *at < end && wanted.as_ref().is_none_or(|w| w.contains(&id.to_string())))
        .cloned()
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.1));
    let videos: Vec<Value> = hits.iter().skip(cursor).take(max).map(|(id, at)| json!({
        "id": id, "video_description": "Pour over #coffee", "create_time": at, "region_code": "US", "share_count": 1,
        "view_count": 300, "like_count": 20, "comment_count": 2, "username": "bean_lover", "hashtag_names": ["coffee"]})).collect();
    let has_more = cursor + max < hits.len();
    Json(json!({"data": {"videos": videos, "cursor": cursor + videos.len(), "has_more": has_more, "search_id": "7201388"},
        "error": {"code": "ok", "message": "", "log_id": "1"}})).into_response()
}

async fn fake(n: i64, spacing_s: i64) -> (String, Shared) {
    let now = now_millis() / 1000;
    let videos = (1..=n).map(|i| (7_000_000_000 + i, now - (n - i) * spacing_s)).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { videos, ..Default::default() }));
    let router = Router::new()
        .route("/v2/oauth/token/", post(token))
        .route("/v2/research/video/query/", post(query))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn connector(url: &str, secret: &str) -> Tiktok {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("client_key".into(), "ck".into());
    c.values.insert("client_secret".into(), secret.into());
    Tiktok::new(c, common::http())
}

fn query_of() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["#coffee".into()]], ..Default::default() }
}

#[tokio::test]
async fn pages_by_cursor_and_rereads_the_last_days() {
    let (url, fake) = fake(250, 600).await;
    let c = connector(&url, "cs");
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    loop {
        let page = c.fetch(&query_of(), &cursor).await.unwrap();
        for p in &page.posts {
            ids.insert(p.id.clone());
            assert_eq!((p.platform, p.counts.views, p.author.username.as_str()), (Platform::Tiktok, Some(300), "bean_lover"));
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(ids.len(), 250);
    let qs = fake.lock().unwrap().queries.clone();
    assert_eq!(qs.len(), 3);
    assert_eq!(qs[0]["query"], json!({"and": [{"operation": "IN", "field_name": "hashtag_name", "field_values": ["coffee"]}]}));
    assert_eq!((qs[1]["cursor"].as_u64(), qs[1]["search_id"].as_str()), (Some(100), Some("7201388")));
    let next_from = cursor["from"].as_i64().unwrap();
    let today = now_millis().div_euclid(86_400_000) * 86_400_000;
    assert_eq!(next_from, today + 86_400_000 - 2 * 86_400_000, "the next sweep re-reads two days");
}

#[tokio::test]
async fn looks_up_one_video_by_id_in_the_day_its_id_names() {
    let (url, fake) = fake(5, 600).await;
    // Real video ids carry their creation time (seconds) in the upper 32 bits.
    let at = now_millis() / 1000 - 3 * 86_400;
    let id = (at << 32) | 12345;
    fake.lock().unwrap().videos.push((id, at));
    let c = connector(&url, "cs");
    assert!(c.looks_up());
    let p = c.lookup(&id.to_string()).await.unwrap().expect("the video is found");
    assert_eq!((p.platform, p.id.clone()), (Platform::Tiktok, id.to_string()));
    assert_eq!(p.url.as_deref(), Some(format!("https://www.tiktok.com/@bean_lover/video/{id}").as_str()));
    let q = fake.lock().unwrap().queries.last().unwrap().clone();
    assert_eq!(q["query"], json!({"and": [{"operation": "EQ", "field_name": "video_id", "field_values": [id.to_string()]}]}));
    let day = jiff::Timestamp::from_second(at).unwrap().strftime("%Y%m%d").to_string();
    assert_eq!(q["start_date"], day);
    // Another id from the same day that the API does not know.
    assert!(c.lookup(&((at << 32) | 999).to_string()).await.unwrap().is_none());
    // Ids that cannot be video ids (not numbers, or from the future) are not sent.
    let sent = fake.lock().unwrap().queries.len();
    assert!(c.lookup("abc").await.unwrap().is_none());
    assert!(c.lookup(&(((now_millis() / 1000 + 10 * 86_400) << 32) as u64).to_string()).await.unwrap().is_none());
    assert_eq!(fake.lock().unwrap().queries.len(), sent);
}

#[tokio::test]
async fn long_backfills_are_read_in_30_day_slices() {
    let (url, fake) = fake(90, 86_400).await;
    let c = connector(&url, "cs");
    let now = now_millis();
    let q = hark_collect::TrackerQuery { range: Some((now - 80 * 86_400_000, now)), ..query_of() };
    let mut cursor = json!({});
    let mut n = 0;
    loop {
        let page = c.fetch(&q, &cursor).await.unwrap();
        n += page.posts.len();
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert!((79..=81).contains(&n), "{n}");
    assert_eq!(fake.lock().unwrap().queries.len(), 3, "three windows of at most 30 days");
}

#[tokio::test]
async fn tokens_are_renewed_and_errors_mapped() {
    let (url, fake) = fake(5, 60).await;
    let c = connector(&url, "cs");
    assert_eq!(c.fetch(&query_of(), &json!({})).await.unwrap().posts.len(), 5);
    fake.lock().unwrap().tokens.push("someone-else".into());
    assert_eq!(c.fetch(&query_of(), &json!({})).await.unwrap().posts.len(), 5, "an invalid token is renewed once");
    fake.lock().unwrap().rate_limited = 1;
    assert_eq!(c.fetch(&query_of(), &json!({})).await.unwrap().posts.len(), 5, "one 429 is retried after a backoff");
    fake.lock().unwrap().rate_limited = 10;
    assert!(matches!(c.fetch(&query_of(), &json!({})).await, Err(CollectError::RateLimited { .. })));
    let bad = connector(&url, "wrong");
    assert!(matches!(bad.check().await, Err(CollectError::Auth(m)) if m.contains("incorrect")));
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = fake(250, 600).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["#coffee"]]), &[Platform::Tiktok], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&url, "cs")) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 4);
        let expected: BTreeSet<String> = (1..=250).map(|i| (7_000_000_000i64 + i).to_string()).collect();
        common::assert_exactly(&store, t.id, &expected).await;
    }
}
