//! The YouTube connector against a fake of the Data API v3: `search.list` (`youtube#searchListResponse`
//! with `nextPageToken`, `pageInfo`, items `{id: {kind, videoId}, snippet}`), `videos.list`
//! (`statistics` counts as strings), and the documented error bodies (`keyInvalid`,
//! `quotaExceeded`).

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::youtube::Youtube;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    /// (video number, published ms)
    videos: Vec<(u32, i64)>,
    quota_exceeded: bool,
    searches: Vec<HashMap<String, String>>,
    video_calls: u32,
}

type Shared = Arc<Mutex<Fake>>;

fn error(status: StatusCode, reason: &str, domain: &str, message: &str) -> Response {
    (status, Json(json!({"error": {"code": status.as_u16(), "message": message,
        "errors": [{"message": message, "domain": domain, "reason": reason}]}}))).into_response()
}

fn check_key(q: &HashMap<String, String>) -> Option<Response> {
    (q.get("key").map(String::as_str) != Some("yt-key")).then(|| {
        error(StatusCode::BAD_REQUEST, "keyInvalid", "global", "API key not valid. Please pass a valid API key.")
    })
}

fn vid(n: u32) -> String {
    format!("vid{n:08}")
}

async fn search(State(s): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    if let Some(r) = check_key(&q) {
        return r;
    }
    let mut f = s.lock().unwrap();
    if f.quota_exceeded {
        return error(StatusCode::FORBIDDEN, "quotaExceeded", "youtube.quota", "The request cannot be completed because you have exceeded your <a href=\"/youtube/v3/getting-started#quota\">quota</a>.");
    }
    f.searches.push(q.clone());
    let after = q.get("publishedAfter").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map_or(i64::MIN, |t| t.as_millisecond());
    let before = q.get("publishedBefore").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map_or(i64::MAX, |t| t.as_millisecond());
    let max: usize = q.get("maxResults").and_then(|v| v.parse().ok()).unwrap_or(5);
    let offset: usize = q.get("pageToken").and_then(|t| t.strip_prefix("CAUQAA")).and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut hits: Vec<(u32, i64)> = f.videos.iter().filter(|(_, at)| *at >= after && *at < before).cloned().collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.1));
    let total = hits.len();
    let items: Vec<Value> = hits
        .iter()
        .skip(offset)
        .take(max)
        .map(|(n, at)| {
            let ts = jiff::Timestamp::from_millisecond(*at).unwrap().to_string();
            json!({"kind": "youtube#searchResult", "etag": "e", "id": {"kind": "youtube#video", "videoId": vid(*n)},
                "snippet": {"publishedAt": ts, "channelId": "UCrust", "title": format!("Rust video {n}"),
                    "description": "All about rust", "thumbnails": {"default": {"url": format!("https://i.ytimg.com/vi/{}/default.jpg", vid(*n)), "width": 120, "height": 90},
                    "high": {"url": format!("https://i.ytimg.com/vi/{}/hqdefault.jpg", vid(*n)), "width": 480, "height": 360}},
                    "channelTitle": "Rust Channel", "liveBroadcastContent": "none", "publishTime": ts}})
        })
        .collect();
    let mut body = json!({"kind": "youtube#searchListResponse", "etag": "e", "regionCode": "US",
        "pageInfo": {"totalResults": total, "resultsPerPage": max}, "items": items});
    if offset + max < total {
        body["nextPageToken"] = json!(format!("CAUQAA{}", offset + max));
    }
    Json(body).into_response()
}

async fn video_list(State(s): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    if let Some(r) = check_key(&q) {
        return r;
    }
    let mut f = s.lock().unwrap();
    f.video_calls += 1;
    let parts: Vec<String> = q.get("part").map(|p| p.split(',').map(str::to_string).collect()).unwrap_or_default();
    // Unknown ids are left out of the answer, as the API does.
    let items: Vec<Value> = q
        .get("id")
        .map(|ids| ids.split(',').map(str::to_string).collect::<Vec<_>>())
        .unwrap_or_default()
        .iter()
        .filter_map(|id| f.videos.iter().find(|(n, _)| vid(*n) == *id).map(|v| (id, v)))
        .map(|(id, (n, at))| {
            let mut item = json!({"kind": "youtube#video", "etag": "e", "id": id,
                "statistics": {"viewCount": "1500", "likeCount": "42", "favoriteCount": "0", "commentCount": "7"}});
            if parts.iter().any(|p| p == "snippet") {
                let ts = jiff::Timestamp::from_millisecond(*at).unwrap().to_string();
                item["snippet"] = json!({"publishedAt": ts, "channelId": "UCrust", "title": format!("Rust video {n}"),
                    "description": "All about rust", "thumbnails": {"default": {"url": format!("https://i.ytimg.com/vi/{id}/default.jpg"), "width": 120, "height": 90}},
                    "channelTitle": "Rust Channel", "tags": ["rust"], "categoryId": "28", "liveBroadcastContent": "none"});
            }
            item
        })
        .collect();
    Json(json!({"kind": "youtube#videoListResponse", "etag": "e", "items": items,
        "pageInfo": {"totalResults": items.len(), "resultsPerPage": items.len()}}))
    .into_response()
}

async fn fake(n: u32) -> (String, Shared) {
    let now = now_millis();
    let videos = (1..=n).map(|i| (i, now - (n - i) as i64 * 600_000)).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { videos, ..Default::default() }));
    let router = Router::new()
        .route("/youtube/v3/search", get(search))
        .route("/youtube/v3/videos", get(video_list))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn connector(url: &str, key: &str, quota: Option<&str>) -> Youtube {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("api_key".into(), key.into());
    if let Some(q) = quota {
        c.values.insert("daily_quota".into(), q.into());
    }
    Youtube::new(c, common::http())
}

fn query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["rust".into()]], ..Default::default() }
}

#[tokio::test]
async fn pages_with_statistics_then_only_newer_videos() {
    let (url, fake) = fake(120).await;
    let c = connector(&url, "yt-key", None);
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        for p in &page.posts {
            assert!(ids.insert(p.id.clone()));
            assert_eq!(p.platform, Platform::Youtube);
            assert_eq!((p.counts.views, p.counts.likes, p.counts.comments, p.counts.dislikes), (Some(1500), Some(42), Some(7), None));
            assert!(p.media[0].thumbnail_url.as_deref().unwrap().ends_with("hqdefault.jpg"));
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(ids.len(), 120);
    {
        let f = fake.lock().unwrap();
        assert_eq!((f.searches.len(), f.video_calls), (3, 3));
        assert_eq!(f.searches[0]["order"], "date");
        assert_eq!(f.searches[0]["type"], "video");
        assert_eq!(f.searches[1]["pageToken"], "CAUQAA50");
    }
    assert_eq!(c.usage().unwrap()["units"], 303, "3 searches and 3 statistics calls");
    let now = now_millis();
    fake.lock().unwrap().videos.push((121, now + 1000));
    let page = c.fetch(&query(), &cursor).await.unwrap();
    assert_eq!(page.posts.iter().map(|p| p.id.clone()).collect::<Vec<_>>(), [vid(121)]);
    assert!(!page.more);
}

#[tokio::test]
async fn looks_up_one_video_by_its_id_for_one_unit() {
    let (url, fake) = fake(3).await;
    let c = connector(&url, "yt-key", None);
    assert!(c.looks_up());
    let p = c.lookup(&vid(2)).await.unwrap().expect("the video is found");
    assert_eq!((p.platform, p.id.as_str()), (Platform::Youtube, vid(2).as_str()));
    assert_eq!(p.title.as_deref(), Some("Rust video 2"));
    assert_eq!(p.text, "All about rust");
    assert_eq!((p.author.id.as_str(), p.author.name.as_str()), ("UCrust", "Rust Channel"));
    assert_eq!((p.counts.views, p.counts.likes, p.counts.comments), (Some(1500), Some(42), Some(7)));
    assert_eq!(p.url.as_deref(), Some(format!("https://www.youtube.com/watch?v={}", vid(2)).as_str()));
    assert!(c.lookup("vid99999999").await.unwrap().is_none(), "unknown ids give nothing");
    assert!(c.lookup("bad id/../x").await.unwrap().is_none(), "ids that cannot be video ids are not sent");
    assert_eq!(fake.lock().unwrap().video_calls, 2);
    assert_eq!(c.usage().unwrap()["units"], 2);
    let bad = connector(&url, "wrong", None);
    assert!(matches!(bad.lookup(&vid(1)).await, Err(CollectError::Auth(_))));
}

#[tokio::test]
async fn quota_is_counted_and_its_errors_wait_for_the_reset() {
    let (url, fake) = fake(120).await;
    // Room for two pages (2 × 101 units) and no more.
    let c = connector(&url, "yt-key", Some("250"));
    let first = c.fetch(&query(), &json!({})).await.unwrap();
    let second = c.fetch(&query(), &first.cursor).await.unwrap();
    assert!(second.more);
    match c.fetch(&query(), &second.cursor).await {
        Err(CollectError::Quota { wait, .. }) => assert!(wait.as_secs() > 0 && wait.as_secs() <= 25 * 3600),
        other => panic!("{other:?}"),
    }
    assert_eq!(fake.lock().unwrap().searches.len(), 2, "the third search was never sent");
    let fresh = connector(&url, "yt-key", None);
    fake.lock().unwrap().quota_exceeded = true;
    assert!(matches!(fresh.fetch(&query(), &json!({})).await, Err(CollectError::Quota { .. })));
    assert!(matches!(fresh.fetch(&query(), &json!({})).await, Err(CollectError::Quota { .. })), "spent: not asked again today");
    let bad = connector(&url, "nope", None);
    match bad.check().await {
        Err(CollectError::Auth(m)) => assert!(m.contains("API key not valid")),
        other => panic!("{other:?}"),
    }
    fake.lock().unwrap().quota_exceeded = false;
    assert!(connector(&url, "yt-key", None).check().await.unwrap().contains("Key accepted"));
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = fake(120).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Youtube], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&url, "yt-key", None)) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 4);
        let expected: BTreeSet<String> = (1..=120).map(vid).collect();
        common::assert_exactly(&store, t.id, &expected).await;
    }
}
