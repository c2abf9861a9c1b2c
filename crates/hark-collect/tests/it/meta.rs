//! Instagram and Facebook connectors against a fake Graph API: `/v21.0/ig_hashtag_search`,
//! `/v21.0/{hashtag-id}/recent_media` (`data`, `paging.cursors.after`, `paging.next`),
//! `/v21.0/{page-id}/posts` with reaction and comment summaries, and Graph error objects
//! (`OAuthException` code 190, throttling code 4).

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::facebook::Facebook;
use hark_collect::instagram::{Instagram, HASHTAG_LIMIT};
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    /// Media per hashtag id: (media id, created ms)
    media: HashMap<String, Vec<(u64, i64)>>,
    /// Posts per page id.
    posts: HashMap<String, Vec<(u64, i64)>>,
    throttle: bool,
    hashtag_searches: Vec<String>,
}

type Shared = Arc<Mutex<Fake>>;

fn graph_error(code: i64, message: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"error": {"message": message, "type": "OAuthException", "code": code, "fbtrace_id": "AbC"}}))).into_response()
}

fn page_of(items: &[(u64, i64)], q: &HashMap<String, String>, base: &str, limit_default: usize, render: impl Fn(&(u64, i64)) -> Value) -> Value {
    let limit: usize = q.get("limit").and_then(|v| v.parse().ok()).unwrap_or(limit_default);
    let mut sorted = items.to_vec();
    sorted.sort_by_key(|i| std::cmp::Reverse(i.1));
    let since = q.get("since").and_then(|v| v.parse::<i64>().ok()).map(|s| s * 1000);
    let until = q.get("until").and_then(|v| v.parse::<i64>().ok()).map(|s| s * 1000);
    sorted.retain(|(_, at)| since.is_none_or(|s| *at >= s) && until.is_none_or(|u| *at < u));
    let offset: usize = q.get("after").and_then(|a| a.strip_prefix("QVFI")).and_then(|v| v.parse().ok()).unwrap_or(0);
    let data: Vec<Value> = sorted.iter().skip(offset).take(limit).map(render).collect();
    let mut body = json!({"data": data});
    if offset + limit < sorted.len() {
        let after = format!("QVFI{}", offset + limit);
        body["paging"] = json!({"cursors": {"before": "QVFIb", "after": after}, "next": format!("{base}?after={after}")});
    } else {
        body["paging"] = json!({"cursors": {"before": "QVFIb", "after": format!("QVFI{}", sorted.len())}});
    }
    body
}

async fn node(State(s): State<Shared>, Path((version, node)): Path<(String, String)>, Query(q): Query<HashMap<String, String>>) -> Response {
    assert_eq!(version, "v21.0");
    if q.get("access_token").map(String::as_str) != Some("good") {
        return graph_error(190, "Error validating access token: Session has expired on Tuesday.");
    }
    let mut f = s.lock().unwrap();
    if f.throttle {
        return graph_error(4, "(#4) Application request limit reached");
    }
    match node.as_str() {
        "ig_hashtag_search" => {
            let tag = q.get("q").cloned().unwrap_or_default();
            f.hashtag_searches.push(tag.clone());
            Json(json!({"data": [{"id": format!("178{tag}")}]})).into_response()
        }
        "17841400000" => Json(json!({"id": "17841400000", "username": "hark_test"})).into_response(),
        "me" => Json(json!({"id": "1", "name": "Hark Page Reader"})).into_response(),
        _ => graph_error(100, "Unsupported get request."),
    }
}

async fn edge(State(s): State<Shared>, Path((_v, id, edge)): Path<(String, String, String)>, Query(q): Query<HashMap<String, String>>) -> Response {
    if q.get("access_token").map(String::as_str) != Some("good") {
        return graph_error(190, "Error validating access token: Session has expired on Tuesday.");
    }
    let f = s.lock().unwrap();
    match edge.as_str() {
        "recent_media" => {
            assert_eq!(q.get("user_id").map(String::as_str), Some("17841400000"));
            let items = f.media.get(&id).cloned().unwrap_or_default();
            Json(page_of(&items, &q, &format!("https://graph.facebook.com/v21.0/{id}/recent_media"), 25, |(n, at)| {
                json!({"id": n.to_string(), "caption": format!("Latte art #coffee {n}"), "media_type": "IMAGE",
                    "media_url": format!("https://scontent.example/{n}.jpg"), "permalink": format!("https://www.instagram.com/p/{n}/"),
                    "timestamp": jiff::Timestamp::from_millisecond(*at).unwrap().strftime("%Y-%m-%dT%H:%M:%S+0000").to_string(),
                    "like_count": 12, "comments_count": 3})
            }))
            .into_response()
        }
        "posts" => {
            let Some(items) = f.posts.get(&id).cloned() else {
                return graph_error(100, "Object does not exist, cannot be loaded due to missing permissions, or does not support this operation.");
            };
            Json(page_of(&items, &q, &format!("https://graph.facebook.com/v21.0/{id}/posts"), 25, |(n, at)| {
                json!({"id": format!("{id}_{n}"), "message": format!("Coffee news {n}"),
                    "created_time": jiff::Timestamp::from_millisecond(*at).unwrap().strftime("%Y-%m-%dT%H:%M:%S+0000").to_string(),
                    "permalink_url": format!("https://www.facebook.com/{id}/posts/{n}"), "from": {"name": "Coffee Co", "id": id},
                    "shares": {"count": 2}, "reactions": {"data": [], "summary": {"total_count": 40, "viewer_reaction": "NONE"}},
                    "comments": {"data": [], "summary": {"order": "ranked", "total_count": 5, "can_comment": false}}})
            }))
            .into_response()
        }
        _ => graph_error(100, "Unsupported get request."),
    }
}

async fn fake() -> (String, Shared) {
    let now = now_millis();
    let mut f = Fake::default();
    f.media.insert("178coffee".into(), (1..=120).map(|i| (i, now - (120 - i as i64) * 60_000)).collect());
    f.media.insert("178latte".into(), (1001..=1010).map(|i| (i, now - (1010 - i as i64) * 60_000)).collect());
    f.posts.insert("104958162837".into(), (1..=130).map(|i| (i, now - (130 - i as i64) * 3_600_000)).collect());
    let state: Shared = Arc::new(Mutex::new(f));
    let router = Router::new()
        .route("/{version}/{node}", get(node))
        .route("/{version}/{id}/{edge}", get(edge))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn config(url: &str, token: &str) -> ConnectorConfig {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("access_token".into(), token.into());
    c.values.insert("ig_user_id".into(), "17841400000".into());
    c
}

fn ig_query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["#coffee".into(), "#latte".into()]], ..Default::default() }
}

async fn sweep(c: &dyn Connector, q: &hark_collect::TrackerQuery, mut cursor: Value) -> (Vec<hark_core::Post>, Value) {
    let mut posts = Vec::new();
    loop {
        let page = c.fetch(q, &cursor).await.unwrap();
        posts.extend(page.posts);
        cursor = page.cursor;
        if !page.more {
            return (posts, cursor);
        }
    }
}

#[tokio::test]
async fn instagram_sweeps_each_hashtag_and_counts_the_weekly_limit() {
    let (url, fake) = fake().await;
    let c = Instagram::new(config(&url, "good"), common::http());
    let (posts, cursor) = sweep(&c, &ig_query(), json!({})).await;
    let ids: BTreeSet<String> = posts.iter().map(|p| p.id.clone()).collect();
    assert_eq!(ids.len(), 130);
    let p = posts.iter().find(|p| p.id == "7").unwrap();
    assert_eq!((p.platform, p.counts.likes, p.url.as_deref()), (Platform::Instagram, Some(12), Some("https://www.instagram.com/p/7/")));
    assert_eq!(fake.lock().unwrap().hashtag_searches, ["coffee", "latte"]);
    // New media: the next sweep stops at the watermark; hashtag ids are not searched again.
    fake.lock().unwrap().media.get_mut("178coffee").unwrap().push((500, now_millis() + 60_000));
    let (fresh, _) = sweep(&c, &ig_query(), cursor).await;
    let fresh: BTreeSet<String> = fresh.iter().map(|p| p.id.clone()).collect();
    assert!(fresh.contains("500") && fresh.len() <= 3, "{fresh:?}");
    assert_eq!(fake.lock().unwrap().hashtag_searches.len(), 2);
    assert_eq!(c.usage().unwrap()["searched"].as_object().unwrap().len(), 2);
    assert!(c.check().await.unwrap().contains("2 of 30 hashtags"));

    // A 31st hashtag in the week waits; the count survives a restart through the usage.
    let full = Instagram::new(config(&url, "good"), common::http());
    let now = now_millis();
    let searched: serde_json::Map<String, Value> = (0..HASHTAG_LIMIT).map(|i| (format!("tag{i}"), json!(now - 1000))).collect();
    full.restore_usage(&json!({"searched": searched, "ids": {}}));
    match full.fetch(&ig_query(), &json!({})).await {
        Err(CollectError::Quota { message, wait }) => {
            assert!(message.contains("#coffee"));
            assert!(wait.as_secs() > 6 * 86_400);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn graph_errors_map_to_auth_and_rate_limits() {
    let (url, fake) = fake().await;
    let bad = Instagram::new(config(&url, "expired"), common::http());
    assert!(matches!(bad.fetch(&ig_query(), &json!({})).await, Err(CollectError::Auth(m)) if m.contains("Session has expired")));
    fake.lock().unwrap().throttle = true;
    let c = Instagram::new(config(&url, "good"), common::http());
    assert!(matches!(c.fetch(&ig_query(), &json!({})).await, Err(CollectError::RateLimited { .. })));
    fake.lock().unwrap().throttle = false;
    let fb = Facebook::new(config(&url, "good"), common::http());
    let q = hark_collect::TrackerQuery { accounts: hark_core::AccountLists { fb: vec!["nopage".into()], ..Default::default() }, ..Default::default() };
    assert!(matches!(fb.fetch(&q, &json!({})).await, Err(CollectError::Http { status: 400, .. })));
    assert_eq!(fb.check().await.unwrap(), "Token accepted (Hark Page Reader).");
}

fn fb_query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery {
        include: vec![vec!["coffee".into()]],
        accounts: hark_core::AccountLists { fb: vec!["Coffee Co:::104958162837".into()], ..Default::default() },
        ..Default::default()
    }
}

#[tokio::test]
async fn facebook_reads_listed_pages_back_to_the_watermark() {
    let (url, fake) = fake().await;
    let c = Facebook::new(config(&url, "good"), common::http());
    let (posts, cursor) = sweep(&c, &fb_query(), json!({})).await;
    assert_eq!(posts.len(), 130);
    let p = &posts[0];
    assert_eq!((p.platform, p.counts.likes, p.counts.comments, p.counts.shares), (Platform::Facebook, Some(40), Some(5), Some(2)));
    assert_eq!(p.author.name, "Coffee Co");
    fake.lock().unwrap().posts.get_mut("104958162837").unwrap().push((999, now_millis() + 60_000));
    let (fresh, _) = sweep(&c, &fb_query(), cursor).await;
    let ids: Vec<String> = fresh.iter().map(|p| p.id.clone()).collect();
    assert!(ids.contains(&"104958162837_999".to_string()) && ids.len() <= 2, "{ids:?}");
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = fake().await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["#coffee", "#latte"]]), &[Platform::Instagram], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(Instagram::new(config(&url, "good"), common::http())) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 5, "3 pages of #coffee, 1 of #latte, one repeated");
        let got = common::tracker_post_ids(&store, t.id).await;
        let expected: BTreeSet<String> = (1..=120).chain(1001..=1010).map(|i: u64| i.to_string()).collect();
        // #latte media say "Latte art #coffee": every one matches the tracker.
        common::assert_exactly(&store, t.id, &expected).await;
        assert_eq!(got.len(), 130);

        let t = common::tracker(&store, json!([["coffee"]]), &[Platform::Facebook], json!({"usernames": {"fb": ["Coffee Co:::104958162837"]}})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(Facebook::new(config(&url, "good"), common::http())) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(1)).await;
        assert_eq!(pages, 3);
        let expected: BTreeSet<String> = (1..=130).map(|i| format!("104958162837_{i}")).collect();
        common::assert_exactly(&store, t.id, &expected).await;
    }
}
