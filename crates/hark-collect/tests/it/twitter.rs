//! The X recent-search connector against a fake of `GET /2/tweets/search/recent` that answers
//! as the X API v2 documentation describes: newest first, `meta` with `newest_id`, `oldest_id`,
//! `result_count`, `next_token` (stable, never expiring), `since_id` polling, problem documents
//! for errors and 429 with `x-rate-limit-reset`.

use crate::common;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::scheduler::{RunOutcome, Scheduler, SchedulerConfig};
use hark_collect::{twitter::Twitter, CollectError, Connector, ConnectorConfig, ConnectorKind, RetryPolicy};
use hark_core::{now_millis, Platform, TrackerStatus};
use serde_json::{json, Value};

const TOKEN: &str = "test-bearer";

#[derive(Clone, Copy, Debug)]
enum Fault {
    RateLimited { reset_in: u64 },
    Unavailable,
    /// Hold the request until the test ends (a worker killed mid-page).
    Hang,
}

#[derive(Default)]
struct Fake {
    /// (id, text, created_at ms), any order.
    tweets: Vec<(u64, String, i64)>,
    faults: VecDeque<Fault>,
    requests: Vec<HashMap<String, String>>,
}

type Shared = Arc<Mutex<Fake>>;

fn problem(status: StatusCode, title: &str, detail: &str) -> Response {
    (status, Json(json!({"title": title, "detail": detail, "type": "about:blank", "status": status.as_u16()}))).into_response()
}

async fn search(State(s): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("Bearer {TOKEN}")) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized", "Unauthorized");
    }
    let fault = {
        let mut f = s.lock().unwrap();
        f.requests.push(q.clone());
        f.faults.pop_front()
    };
    match fault {
        Some(Fault::RateLimited { reset_in }) => {
            let reset = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + reset_in;
            let mut r = (StatusCode::TOO_MANY_REQUESTS, Json(json!({"title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank", "status": 429}))).into_response();
            r.headers_mut().insert("x-rate-limit-limit", "450".parse().unwrap());
            r.headers_mut().insert("x-rate-limit-remaining", "0".parse().unwrap());
            r.headers_mut().insert("x-rate-limit-reset", reset.to_string().parse().unwrap());
            return r;
        }
        Some(Fault::Unavailable) => return problem(StatusCode::SERVICE_UNAVAILABLE, "Service Unavailable", "Service Unavailable"),
        Some(Fault::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        None => {}
    }
    let query = q.get("query").cloned().unwrap_or_default();
    if query.trim().is_empty() {
        return (StatusCode::BAD_REQUEST, Json(json!({
            "errors": [{"parameters": {"query": [""]}, "message": "Invalid 'query':''. 'query' must be a non-empty string"}],
            "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
            "type": "https://api.twitter.com/2/problems/invalid-request"
        }))).into_response();
    }
    let max: usize = q.get("max_results").and_then(|m| m.parse().ok()).unwrap_or(10);
    if !(10..=100).contains(&max) {
        return (StatusCode::BAD_REQUEST, Json(json!({
            "errors": [{"parameters": {"max_results": [max.to_string()]}, "message": "The `max_results` query parameter value [1] is not between 10 and 100"}],
            "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
            "type": "https://api.twitter.com/2/problems/invalid-request"
        }))).into_response();
    }
    // The fake matches on the first word of the query.
    let word = query.trim_start_matches('(').split_whitespace().next().unwrap_or("").trim_start_matches('#').to_lowercase();
    let since: u64 = q.get("since_id").and_then(|v| v.parse().ok()).unwrap_or(0);
    // Tokens name the last id served: stable, as the documentation promises.
    let below: u64 = q.get("next_token").and_then(|t| t.strip_prefix("b1")).and_then(|v| v.parse().ok()).unwrap_or(u64::MAX);
    let start = q.get("start_time").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map(|t| t.as_millisecond());
    let end = q.get("end_time").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map(|t| t.as_millisecond());
    let mut hits: Vec<(u64, String, i64)> = s
        .lock()
        .unwrap()
        .tweets
        .iter()
        .filter(|(id, text, at)| {
            *id > since
                && *id < below
                && text.to_lowercase().contains(&word)
                && start.is_none_or(|s| *at >= s)
                && end.is_none_or(|e| *at < e)
        })
        .cloned()
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.0));
    let more = hits.len() > max;
    hits.truncate(max);
    if hits.is_empty() {
        return Json(json!({"meta": {"result_count": 0}})).into_response();
    }
    let data: Vec<Value> = hits
        .iter()
        .map(|(id, text, at)| {
            json!({
                "id": id.to_string(), "text": text, "author_id": format!("{}", 1000 + id % 7),
                "created_at": jiff::Timestamp::from_millisecond(*at).unwrap().to_string(),
                "edit_history_tweet_ids": [id.to_string()], "lang": "en",
                "public_metrics": {"retweet_count": 1, "reply_count": 0, "like_count": (id % 5), "quote_count": 0, "bookmark_count": 0, "impression_count": 40}
            })
        })
        .collect();
    let users: Vec<Value> = (0..7)
        .map(|i| json!({"id": format!("{}", 1000 + i), "name": format!("User {i}"), "username": format!("user{i}"),
            "verified": false, "public_metrics": {"followers_count": 100 * i, "following_count": 3, "tweet_count": 9, "listed_count": 0}}))
        .collect();
    let mut meta = json!({"newest_id": hits[0].0.to_string(), "oldest_id": hits.last().unwrap().0.to_string(), "result_count": hits.len()});
    if more {
        meta["next_token"] = json!(format!("b1{}", hits.last().unwrap().0));
    }
    Json(json!({"data": data, "includes": {"users": users}, "meta": meta})).into_response()
}

/// `GET /2/tweets/counts/recent`: per-day buckets and `meta.total_tweet_count`.
async fn counts(State(s): State<Shared>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("Bearer {TOKEN}")) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized", "Unauthorized");
    }
    let word = q.get("query").cloned().unwrap_or_default().split_whitespace().next().unwrap_or("").to_lowercase();
    let start = q.get("start_time").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map(|t| t.as_millisecond());
    let end = q.get("end_time").and_then(|t| t.parse::<jiff::Timestamp>().ok()).map(|t| t.as_millisecond());
    let n = s
        .lock()
        .unwrap()
        .tweets
        .iter()
        .filter(|(_, text, at)| text.contains(&word) && start.is_none_or(|s| *at >= s) && end.is_none_or(|e| *at < e))
        .count();
    Json(json!({"data": [{"end": "2024-01-02T00:00:00.000Z", "start": "2024-01-01T00:00:00.000Z", "tweet_count": n}],
        "meta": {"total_tweet_count": n}}))
    .into_response()
}

async fn fake(n: u64) -> (String, Shared) {
    let now = now_millis();
    let tweets = (1..=n).map(|i| (1_000_000 + i, format!("learning rust part {i}"), now - (n - i) as i64 * 60_000)).collect();
    let state: Shared = Arc::new(Mutex::new(Fake { tweets, ..Default::default() }));
    let router = Router::new()
        .route("/2/tweets/search/recent", get(search))
        .route("/2/tweets/counts/recent", get(counts))
        .with_state(state.clone());
    let url = common::serve(router).await;
    (url, state)
}

fn config(url: &str, token: &str) -> ConnectorConfig {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("bearer_token".into(), token.into());
    c
}

fn connector(url: &str) -> Twitter {
    Twitter::new(config(url, TOKEN), common::http())
}

fn query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["rust".into()]], ..Default::default() }
}

#[tokio::test]
async fn sweeps_all_pages_then_polls_only_newer_tweets() {
    let (url, fake) = fake(250).await;
    let c = connector(&url);
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    let mut pages = 0;
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        pages += 1;
        for p in &page.posts {
            assert!(ids.insert(p.id.clone()), "duplicate {}", p.id);
            assert_eq!(p.platform, Platform::Twitter);
            assert!(p.author.username.starts_with("user"));
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!((ids.len(), pages), (250, 3));
    assert_eq!(cursor["since_id"], "1000250");
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.requests[0].get("since_id"), None);
        assert_eq!(f.requests[1].get("next_token").map(String::as_str), Some("b11000151"));
        assert_eq!(f.requests[0].get("max_results").map(String::as_str), Some("100"));
        assert!(f.requests[0]["expansions"].contains("author_id"));
    }
    // New tweets arrive; the next sweep asks only for them.
    fake.lock().unwrap().tweets.extend((251..=255).map(|i| (1_000_000 + i, format!("rust news {i}"), now_millis())));
    let page = c.fetch(&query(), &cursor).await.unwrap();
    assert!(!page.more);
    let new: BTreeSet<String> = page.posts.iter().map(|p| p.id.clone()).collect();
    assert_eq!(new, (251..=255).map(|i| (1_000_000 + i).to_string()).collect());
    assert_eq!(fake.lock().unwrap().requests.last().unwrap().get("since_id").map(String::as_str), Some("1000250"));
    assert_eq!(page.cursor["since_id"], "1000255");
    // Nothing new: an empty answer keeps the cursor.
    let page = c.fetch(&query(), &page.cursor).await.unwrap();
    assert!(page.posts.is_empty() && !page.more);
    assert_eq!(page.cursor["since_id"], "1000255");
}

#[tokio::test]
async fn waits_out_a_short_rate_limit_and_hands_back_a_long_one() {
    let (url, fake) = fake(20).await;
    let c = connector(&url);
    fake.lock().unwrap().faults.push_back(Fault::RateLimited { reset_in: 1 });
    let t = std::time::Instant::now();
    let page = c.fetch(&query(), &json!({})).await.unwrap();
    assert_eq!(page.posts.len(), 20);
    assert!(t.elapsed() >= Duration::from_millis(400), "waited for the reset");
    fake.lock().unwrap().faults.push_back(Fault::RateLimited { reset_in: 900 });
    match c.fetch(&query(), &json!({})).await {
        Err(CollectError::RateLimited { wait }) => assert!(wait > Duration::from_secs(800)),
        other => panic!("expected a rate limit, got {other:?}"),
    }
}

#[tokio::test]
async fn retries_server_errors_then_reports_them() {
    let (url, fake) = fake(20).await;
    let c = connector(&url);
    fake.lock().unwrap().faults.extend([Fault::Unavailable, Fault::Unavailable]);
    assert_eq!(c.fetch(&query(), &json!({})).await.unwrap().posts.len(), 20);
    fake.lock().unwrap().faults.extend([Fault::Unavailable; 4]);
    match c.fetch(&query(), &json!({})).await {
        Err(CollectError::Http { status: 503, .. }) => {}
        other => panic!("expected 503, got {other:?}"),
    }
}

#[tokio::test]
async fn reports_bad_credentials_and_invalid_requests() {
    let (url, _) = fake(5).await;
    let bad = Twitter::new(config(&url, "wrong"), common::http());
    assert!(matches!(bad.fetch(&query(), &json!({})).await, Err(CollectError::Auth(m)) if m == "Unauthorized"));
    assert!(matches!(bad.check().await, Err(CollectError::Auth(_))));
    let c = connector(&url);
    let empty = hark_collect::TrackerQuery::default();
    match c.fetch(&empty, &json!({})).await {
        Err(CollectError::Http { status: 400, message }) => assert!(message.contains("non-empty"), "{message}"),
        other => panic!("expected 400, got {other:?}"),
    }
    assert!(c.check().await.unwrap().contains("answered"));
}

#[tokio::test]
async fn backfill_asks_for_its_window_and_ends() {
    let (url, fake) = fake(300).await;
    let c = connector(&url);
    let now = now_millis();
    // Tweets are a minute apart ending now: the window holds the 100 before the last 50.
    let q = hark_collect::TrackerQuery { range: Some((now - 150 * 60_000 - 30_000, now - 50 * 60_000 - 30_000)), ..query() };
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
    assert_eq!(n, 100);
    assert!(fake.lock().unwrap().requests.iter().all(|r| r.contains_key("start_time") && r.contains_key("end_time")));
}

/// Killed after storing a page but before saving its cursor: the page comes again after the
/// restart and the store keeps one copy of each tweet, with rollups counting each once.
#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _fake) = fake(250).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&url)) };
        let (cursor, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 4, "page 2 fetched twice");
        let expected: BTreeSet<String> = (1..=250).map(|i| (1_000_000 + i).to_string()).collect();
        common::assert_exactly(&store, t.id, &expected).await;
        assert_eq!(cursor["since_id"], "1000250");
    }
}

fn sched_config(owner: &str, lease: Duration) -> SchedulerConfig {
    SchedulerConfig {
        owner: owner.into(),
        lease,
        idle: Duration::from_millis(20),
        refresh: Duration::from_secs(3600),
        policy: RetryPolicy::fast(),
        ..Default::default()
    }
}

async fn enable(store: &hark_store::Store, url: &str, token: &str) {
    let values = json!({"bearer_token": token}).to_string();
    store.save_connector_settings(ConnectorKind::Twitter.name(), true, Some(url), &values, now_millis()).await.unwrap();
}

/// The scheduler leases the job, stores every page and shows its status; a worker killed while
/// a page is in flight leaves its lease to run out and the next worker finishes the sweep from
/// the saved cursor.
#[tokio::test]
async fn scheduler_collects_and_another_worker_takes_over_a_dead_lease() {
    for backend in hark_testkit::backends() {
        let (url, fake) = fake(250).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({})).await;
        enable(&store, &url, TOKEN).await;
        let mut a = Scheduler::new(store.clone(), SchedulerConfig { max_pages_per_lease: 1, ..sched_config("a", Duration::from_millis(1500)) });
        let (job, outcome) = a.run_once().await.unwrap().expect("a job is due");
        assert_eq!((job.connector.as_str(), job.kind.as_str()), ("twitter", "poll"));
        assert_eq!(outcome, RunOutcome::Ran { pages: 1, posts: 100 });
        // The second page hangs; the worker is killed while waiting for it.
        fake.lock().unwrap().faults.push_back(Fault::Hang);
        let worker = tokio::spawn(async move {
            let _ = a.run_once().await;
        });
        while fake.lock().unwrap().requests.len() < 2 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        worker.abort();
        let mut b = Scheduler::new(store.clone(), sched_config("b", Duration::from_secs(30)));
        assert!(b.run_once().await.unwrap().is_none(), "the dead worker's lease still holds");
        tokio::time::sleep(Duration::from_millis(1600)).await;
        let (_, outcome) = b.run_once().await.unwrap().expect("the lease ran out");
        assert_eq!(outcome, RunOutcome::Ran { pages: 2, posts: 150 });
        let reqs = fake.lock().unwrap().requests.clone();
        assert_eq!(reqs[2].get("next_token").map(String::as_str), Some("b11000151"), "resumed at the saved page");
        let expected: BTreeSet<String> = (1..=250).map(|i| (1_000_000 + i).to_string()).collect();
        common::assert_exactly(&store, t.id, &expected).await;
        let jobs = store.tracker_jobs(t.id).await.unwrap();
        assert_eq!(jobs.len(), 1);
        let j = &jobs[0];
        assert!(j.last_collected_at.is_some() && j.last_error.is_none() && j.lease_owner.is_none());
        assert!(j.next_run_at > now_millis() + 60_000, "next sweep after the poll interval");
        assert_eq!(j.posts_collected, 250);
        assert!(b.run_once().await.unwrap().is_none(), "nothing due until then");
    }
}

#[tokio::test]
async fn scheduler_records_errors_and_pauses_at_the_volume_limit() {
    for backend in hark_testkit::backends() {
        let (url, _fake) = fake(250).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({"volumeLimit": 120})).await;
        enable(&store, &url, "wrong").await;
        let mut s = Scheduler::new(store.clone(), sched_config("a", Duration::from_secs(30)));
        let (_, outcome) = s.run_once().await.unwrap().unwrap();
        assert!(matches!(outcome, RunOutcome::Failed(ref m) if m.contains("credentials rejected")), "{outcome:?}");
        let j = &store.tracker_jobs(t.id).await.unwrap()[0];
        assert!(j.last_error.as_deref().unwrap().contains("Unauthorized"));
        assert_eq!(j.attempts, 1);
        assert!(j.next_run_at > now_millis() + 60_000, "credentials are retried later, not at once");
        enable(&store, &url, TOKEN).await;
        let mut s = Scheduler::new(store.clone(), sched_config("b", Duration::from_secs(30)));
        s.refresh().await.unwrap();
        store.set_job_due(j.id, 0).await.unwrap();
        let (_, outcome) = s.run_once().await.unwrap().unwrap();
        assert_eq!(outcome, RunOutcome::VolumeLimit);
        let tr = store.tracker_by_id(t.id).await.unwrap().unwrap();
        assert_eq!(tr.status(), TrackerStatus::Paused);
        assert!(tr.total_posts >= 120 && tr.total_posts < 250, "{}", tr.total_posts);
        let logs = store.tracker_logs(t.id).await.unwrap();
        assert!(logs.iter().any(|l| l.action == "tracker_paused"));
        assert!(s.run_once().await.unwrap().is_none(), "a paused tracker is not collected");
    }
}

/// A backfill job collects its window and finishes; a worker killed mid-job is taken over from
/// the saved cursor after its lease runs out, and the window's posts are stored exactly once.
#[tokio::test]
async fn backfill_job_survives_a_kill_and_finishes() {
    for backend in hark_testkit::backends() {
        let (url, fake) = fake(400).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({})).await;
        enable(&store, &url, TOKEN).await;
        let now = now_millis();
        // Tweets are a minute apart ending now: the window holds 250 of them.
        let (start, end) = (now - 350 * 60_000 - 30_000, now - 100 * 60_000 - 30_000);
        let job_id = store.create_backfill_job(t.id, "twitter", start, end, now).await.unwrap();
        let mut a = Scheduler::new(store.clone(), SchedulerConfig { max_pages_per_lease: 1, ..sched_config("a", Duration::from_millis(1500)) });
        a.refresh().await.unwrap();
        // The poll job of the tracker must not get in the way: push it to later.
        for j in store.tracker_jobs(t.id).await.unwrap() {
            if j.kind == "poll" {
                store.set_job_due(j.id, now + 3_600_000).await.unwrap();
            }
        }
        let (job, outcome) = a.run_once().await.unwrap().unwrap();
        assert_eq!((job.id, outcome), (job_id, RunOutcome::Ran { pages: 1, posts: 100 }));
        assert!(store.backfill_active(t.id).await.unwrap());
        fake.lock().unwrap().faults.push_back(Fault::Hang);
        let worker = tokio::spawn(async move {
            let _ = a.run_once().await;
        });
        while fake.lock().unwrap().requests.len() < 2 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        worker.abort();
        tokio::time::sleep(Duration::from_millis(1600)).await;
        let mut b = Scheduler::new(store.clone(), sched_config("b", Duration::from_secs(30)));
        let (job, outcome) = b.run_once().await.unwrap().unwrap();
        assert_eq!((job.id, outcome), (job_id, RunOutcome::Ran { pages: 2, posts: 150 }));
        let j = store.job_by_id(job_id).await.unwrap().unwrap();
        assert_eq!((j.state.as_str(), j.posts_collected, j.pages), ("done", 250, 3));
        assert!(!store.backfill_active(t.id).await.unwrap());
        let expected: BTreeSet<String> = (50..=299).map(|i| (1_000_000 + i).to_string()).collect();
        common::assert_exactly(&store, t.id, &expected).await;
        assert!(fake.lock().unwrap().requests.iter().all(|r| r.contains_key("start_time")));
    }
}

#[tokio::test]
async fn estimates_a_window_from_the_counts_endpoint() {
    let (url, _) = fake(300).await;
    let c = connector(&url);
    let now = now_millis();
    let q = hark_collect::TrackerQuery { range: Some((now - 100 * 60_000 - 30_000, now)), ..query() };
    assert_eq!(c.estimate(&q).await.unwrap(), Some(100));
    let bad = Twitter::new(config(&url, "wrong"), common::http());
    assert!(matches!(bad.estimate(&q).await, Err(CollectError::Auth(_))));
}
