//! The Mastodon connector against a fake server shaped like the documentation of
//! `GET /api/v1/timelines/tag/:hashtag`: an array of Status entities newest first (at most 40,
//! default 20), `max_id` / `since_id` / `min_id` paging with a `Link` header (`rel="next"` with
//! `max_id`, `rel="prev"` with `min_id`), `X-RateLimit-Limit/Remaining/Reset` headers (Reset an
//! ISO 8601 time), 429 `{"error": "Too many requests"}` when used up, and `{"error": …}` bodies.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::mastodon::Mastodon;
use hark_collect::{CollectError, Connector, ConnectorConfig, TrackerQuery};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

const BASE_ID: u64 = 110_000_000_000_000_000;

/// An answer to give: status, headers, body.
type Canned = (u16, Vec<(&'static str, String)>, Value);

#[derive(Default)]
struct Fake {
    /// (id, created_at ms) of statuses tagged #rust.
    statuses: Vec<(u64, i64)>,
    /// Answers to give before the timeline, one per request: (status, headers, body).
    queued: Vec<Canned>,
    /// Requires `Authorization: Bearer tok` (public preview disabled).
    needs_token: bool,
    /// `X-RateLimit-Remaining` of the next answers.
    remaining: i64,
    reset_in: Duration,
    requests: Vec<HashMap<String, String>>,
    times: Vec<std::time::Instant>,
}

type Shared = Arc<Mutex<Fake>>;

fn iso(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).unwrap().to_string()
}

fn status(host: &str, id: u64, at: i64) -> Value {
    let n = id - BASE_ID;
    json!({
        "id": id.to_string(), "created_at": iso(at), "in_reply_to_id": null, "in_reply_to_account_id": null,
        "sensitive": false, "spoiler_text": "", "visibility": "public", "language": "en",
        "uri": format!("https://origin.example/users/alice/statuses/{n}"),
        "url": format!("https://origin.example/@alice/{n}"),
        "replies_count": 1, "reblogs_count": 2, "favourites_count": 3, "edited_at": null,
        "content": format!("<p>Learning <a href=\"https://{host}/tags/rust\" class=\"mention hashtag\" rel=\"tag\">#<span>rust</span></a> &amp; async, part {n}</p>"),
        "reblog": null, "application": null,
        "account": {"id": "42", "username": "alice", "acct": if n.is_multiple_of(2) { "alice".to_string() } else { "alice@origin.example".to_string() },
            "display_name": "Alice", "locked": false, "bot": false, "url": "https://origin.example/@alice",
            "avatar": "https://origin.example/avatars/alice.png", "followers_count": 120, "following_count": 5,
            "statuses_count": 300, "note": "<p>Rustacean</p>"},
        "media_attachments": if n.is_multiple_of(5) { json!([{"id": "9", "type": "image", "url": "https://origin.example/media/1.png",
            "preview_url": "https://origin.example/media/1_small.png", "description": null}]) } else { json!([]) },
        "mentions": [], "tags": [{"name": "rust", "url": format!("https://{host}/tags/rust")}], "emojis": [], "card": null, "poll": null
    })
}

async fn timeline(State(s): State<Shared>, Path(tag): Path<String>, h: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut f = s.lock().unwrap();
    f.requests.push(q.clone());
    f.times.push(std::time::Instant::now());
    if !f.queued.is_empty() {
        let (code, headers, body) = f.queued.remove(0);
        let mut r = (StatusCode::from_u16(code).unwrap(), Json(body)).into_response();
        for (k, v) in headers {
            r.headers_mut().insert(k, v.parse().unwrap());
        }
        return r;
    }
    if f.needs_token && h.get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer tok") {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "This API requires an authenticated user"}))).into_response();
    }
    let host = h.get("host").and_then(|v| v.to_str().ok()).unwrap_or("localhost").to_string();
    let limit: usize = q.get("limit").and_then(|v| v.parse().ok()).unwrap_or(20).min(40);
    let id = |k: &str| q.get(k).and_then(|v| v.parse::<u64>().ok());
    let mut all: Vec<(u64, i64)> = if tag == "rust" { f.statuses.clone() } else { vec![] };
    all.sort_by_key(|s| std::cmp::Reverse(s.0));
    all.retain(|(i, _)| id("max_id").is_none_or(|m| *i < m) && id("since_id").is_none_or(|m| *i > m));
    let page: Vec<(u64, i64)> = match id("min_id") {
        // The statuses immediately newer than min_id, still newest first.
        Some(m) => {
            let mut newer: Vec<(u64, i64)> = all.into_iter().filter(|(i, _)| *i > m).collect();
            newer.reverse();
            newer.truncate(limit);
            newer.reverse();
            newer
        }
        None => all.into_iter().take(limit).collect(),
    };
    let body: Vec<Value> = page.iter().map(|(i, at)| status(&host, *i, *at)).collect();
    let mut r = Json(body).into_response();
    let hd = r.headers_mut();
    if let (Some(first), Some(last)) = (page.first(), page.last()) {
        let url = format!("http://{host}/api/v1/timelines/tag/{tag}");
        hd.insert("link", format!("<{url}?max_id={}>; rel=\"next\", <{url}?min_id={}>; rel=\"prev\"", last.0, first.0).parse().unwrap());
    }
    f.remaining -= 1;
    hd.insert("x-ratelimit-limit", "300".parse().unwrap());
    hd.insert("x-ratelimit-remaining", f.remaining.max(0).to_string().parse().unwrap());
    let reset = now_millis() + f.reset_in.as_millis() as i64;
    hd.insert("x-ratelimit-reset", iso(reset).parse().unwrap());
    r
}

async fn server(n: u64) -> (String, Shared) {
    let now = now_millis();
    let statuses = (1..=n).map(|i| (BASE_ID + i, now - (n - i) as i64 * 60_000)).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { statuses, remaining: 300, reset_in: Duration::from_secs(300), ..Default::default() }));
    let url = common::serve(Router::new().route("/api/v1/timelines/tag/{tag}", get(timeline)).with_state(state.clone())).await;
    (url, state)
}

fn connector(servers: &[&str], token: Option<&str>) -> Mastodon {
    let mut c = ConnectorConfig::default();
    c.values.insert("servers".into(), servers.join("\n"));
    if let Some(t) = token {
        c.values.insert("access_token".into(), t.into());
    }
    Mastodon::new(c, common::http())
}

fn query() -> TrackerQuery {
    TrackerQuery { include: vec![vec!["#rust".into()]], ..Default::default() }
}

fn add(f: &Shared, from: u64, to: u64) {
    let mut f = f.lock().unwrap();
    let now = now_millis();
    f.statuses.extend((from..=to).map(|i| (BASE_ID + i, now + i as i64)));
}

#[tokio::test]
async fn first_run_takes_the_newest_page_then_catches_up_with_min_id() {
    let (url, fake) = server(100).await;
    let c = connector(&[&url], None);
    let first = c.fetch(&query(), &json!({})).await.unwrap();
    assert!(!first.more);
    assert_eq!(first.posts.len(), 40);
    let p = &first.posts[0];
    assert_eq!(p.platform, Platform::Mastodon);
    assert_eq!(p.text, "Learning #rust & async, part 100");
    assert_eq!(p.url.as_deref(), Some("https://origin.example/@alice/100"));
    assert_eq!(p.author.username, format!("alice@{}", url.trim_start_matches("http://").split(':').next().unwrap()));
    assert_eq!((p.author.name.as_str(), p.author.followers, p.author.bio.as_deref()), ("Alice", Some(120), Some("Rustacean")));
    assert_eq!((p.counts.likes, p.counts.retweets, p.counts.replies), (Some(3), Some(2), Some(1)));
    assert_eq!(p.media.len(), 1);
    assert_eq!(first.posts[1].author.username, "alice@origin.example");
    assert_eq!(fake.lock().unwrap().requests[0].get("limit").map(String::as_str), Some("40"));

    add(&fake, 101, 190);
    let mut cursor = first.cursor;
    let mut ids = BTreeSet::new();
    let mut pages = 0;
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        pages += 1;
        for p in page.posts {
            assert!(ids.insert(p.text.clone()), "{} twice", p.text);
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!((ids.len(), pages), (90, 3));
    let reqs = fake.lock().unwrap().requests.clone();
    assert_eq!(reqs[1].get("min_id").map(String::as_str), Some(&*(BASE_ID + 100).to_string()));
    assert_eq!(reqs[2].get("min_id").map(String::as_str), Some(&*(BASE_ID + 140).to_string()));
    // Nothing new: one request, nothing fetched.
    let idle = c.fetch(&query(), &cursor).await.unwrap();
    assert!(idle.posts.is_empty() && !idle.more);
}

#[tokio::test]
async fn a_used_up_window_waits_for_its_reset_and_429_is_retried() {
    let (url, fake) = server(5).await;
    {
        let mut f = fake.lock().unwrap();
        // The next answer says the window is used up and opens again in a second.
        f.remaining = 1;
        f.reset_in = Duration::from_millis(1200);
    }
    let c = connector(&[&url], None);
    let first = c.fetch(&query(), &json!({})).await.unwrap();
    assert_eq!(first.posts.len(), 5);
    {
        let mut f = fake.lock().unwrap();
        f.remaining = 300;
        f.queued.push((429, vec![("retry-after", "1".into())], json!({"error": "Too many requests"})));
    }
    add(&fake, 6, 8);
    let next = c.fetch(&query(), &first.cursor).await.unwrap();
    assert_eq!(next.posts.len(), 3);
    let times = fake.lock().unwrap().times.clone();
    // The second request waited for the window to open, the third (after the 429) a second more.
    assert!(times[1] - times[0] >= Duration::from_millis(900), "{:?}", times[1] - times[0]);
    assert!(times[2] - times[1] >= Duration::from_millis(900));
    // A window that opens later than the client sleeps through goes back to the scheduler.
    {
        let mut f = fake.lock().unwrap();
        f.remaining = 1;
        f.reset_in = Duration::from_secs(600);
    }
    c.fetch(&query(), &next.cursor).await.unwrap();
    match c.fetch(&query(), &next.cursor).await {
        Err(CollectError::RateLimited { wait }) => assert!(wait > Duration::from_secs(500), "{wait:?}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn errors_say_why() {
    let (url, fake) = server(3).await;
    fake.lock().unwrap().needs_token = true;
    match connector(&[&url], None).fetch(&query(), &json!({})).await {
        Err(CollectError::Auth(m)) => assert!(m.contains("requires an authenticated user"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(connector(&[&url], Some("tok")).fetch(&query(), &json!({})).await.unwrap().posts.len(), 3);
    fake.lock().unwrap().queued.push((422, vec![], json!({"error": "Validation failed: limit is invalid"})));
    match connector(&[&url], Some("tok")).fetch(&query(), &json!({})).await {
        Err(CollectError::Http { status: 422, message }) => assert!(message.contains("Validation failed"), "{message}"),
        other => panic!("{other:?}"),
    }
    // A passing 503 is retried.
    fake.lock().unwrap().queued.push((503, vec![], json!({"error": "Service Unavailable"})));
    assert_eq!(connector(&[&url], Some("tok")).fetch(&query(), &json!({})).await.unwrap().posts.len(), 3);
    // A term that cannot be a hashtag is not asked for.
    let q = TrackerQuery { include: vec![vec!["rust lang".into()]], ..Default::default() };
    let before = fake.lock().unwrap().requests.len();
    let page = connector(&[&url], Some("tok")).fetch(&q, &json!({})).await.unwrap();
    assert!(page.posts.is_empty() && !page.more);
    assert_eq!(fake.lock().unwrap().requests.len(), before);
}

#[tokio::test]
async fn servers_listed_on_a_tracker_must_be_public() {
    let (url, _) = server(4).await;
    let mut q = query();
    q.accounts.mastodon = vec![url.clone()];
    // No shared server; the tracker's own is on this machine: refused.
    let c = connector(&[], None);
    assert!(c.pairs_for(&q).is_empty());
    let page = c.fetch(&q, &json!({})).await.unwrap();
    assert!(page.posts.is_empty());
    let c = connector(&[], None).allowing_private_servers();
    assert_eq!(c.fetch(&q, &json!({})).await.unwrap().posts.len(), 4);
}

#[tokio::test]
async fn a_backfill_walks_back_with_max_id_to_its_start() {
    let (url, fake) = server(150).await;
    let now = now_millis();
    let mut q = query();
    // The statuses of the last 99.5 minutes: 51..=150 (one a minute).
    q.range = Some((now - 99 * 60_000 - 30_000, now + 1));
    let c = connector(&[&url], None);
    let mut cursor = json!({});
    let mut got = BTreeSet::new();
    loop {
        let page = c.fetch(&q, &cursor).await.unwrap();
        got.extend(page.posts.into_iter().map(|p| p.text));
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(got.len(), 100);
    let reqs = fake.lock().unwrap().requests.clone();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[1].get("max_id").map(String::as_str), Some(&*(BASE_ID + 111).to_string()));
}

#[tokio::test]
async fn restart_mid_page_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (a, _) = server(95).await;
        let (b, fb) = server(30).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["#rust"]]), &[Platform::Mastodon], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&[&a, &b], None)) };
        // Resume from the start of both timelines (min_id 0), pages of 40.
        let start = json!({"tags": {format!("{a} rust"): {"min_id": "0"}, format!("{b} rust"): {"min_id": "0"}}});
        let (cursor, pages) = common::collect(&store, &make, &q, start, Some(2)).await;
        // a: 40, 40 (crash, again), 15; b: 30.
        assert_eq!(pages, 5);
        // The same statuses from both servers (same uri) are one post each.
        let got = common::tracker_post_ids(&store, t.id).await;
        assert_eq!(got.len(), 95);
        common::assert_exactly(&store, t.id, &got).await;
        // New statuses on b only come next.
        add(&fb, 200, 204);
        let (_, pages) = common::collect(&store, &make, &q, cursor, None).await;
        assert_eq!(pages, 2);
        assert_eq!(common::tracker_post_ids(&store, t.id).await.len(), 100);
    }
}
