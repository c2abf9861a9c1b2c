//! The X filtered-stream connector against a fake shaped like the X API v2 documentation:
//! `GET /2/tweets/search/stream/rules` (`data` of `{id, value, tag}`, `meta.result_count`),
//! `POST /2/tweets/search/stream/rules` with `add` or `delete` (`meta.summary`), and
//! `GET /2/tweets/search/stream`: newline-delimited `{data, includes, matching_rules}` objects
//! with `\r\n` keep-alives, an `operational-disconnect` error object before a disconnection,
//! and 429 `TooManyConnections` when a connection is already open.

use crate::common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::scheduler::{Scheduler, SchedulerConfig};
use hark_collect::stream::{StepOutcome, StreamBackoff, StreamConfig, StreamConnector, StreamWorker, Targets};
use hark_collect::twitter_stream::TwitterStream;
use hark_collect::{ConnectorConfig, RetryPolicy, TrackerQuery};
use hark_core::{now_millis, Platform};
use hark_ingest::pipeline::compile;
use serde_json::{json, Value};
use tokio::sync::mpsc;

const TOKEN: &str = "test-bearer";

#[derive(Default)]
struct Fake {
    /// id to (value, tag)
    rules: BTreeMap<u64, (String, Option<String>)>,
    next_rule: u64,
    rule_posts: Vec<Value>,
    /// The open stream's line sender.
    stream: Option<mpsc::UnboundedSender<String>>,
    connections: usize,
    /// Answer the next stream connections with 429.
    refuse: usize,
}

type Shared = Arc<Mutex<Fake>>;

fn authorized(h: &HeaderMap) -> bool {
    h.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

fn unauthorized() -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"})))
        .into_response()
}

async fn get_rules(State(s): State<Shared>, h: HeaderMap) -> Response {
    if !authorized(&h) {
        return unauthorized();
    }
    let f = s.lock().unwrap();
    let sent = "2024-01-02T03:04:05.000Z";
    if f.rules.is_empty() {
        return Json(json!({"meta": {"sent": sent, "result_count": 0}})).into_response();
    }
    let data: Vec<Value> = f
        .rules
        .iter()
        .map(|(id, (v, t))| {
            let mut r = json!({"id": id.to_string(), "value": v});
            if let Some(t) = t {
                r["tag"] = json!(t);
            }
            r
        })
        .collect();
    Json(json!({"data": data, "meta": {"sent": sent, "result_count": f.rules.len()}})).into_response()
}

async fn post_rules(State(s): State<Shared>, h: HeaderMap, Json(body): Json<Value>) -> Response {
    if !authorized(&h) {
        return unauthorized();
    }
    let mut f = s.lock().unwrap();
    f.rule_posts.push(body.clone());
    let sent = "2024-01-02T03:04:05.000Z";
    if let Some(ids) = body.pointer("/delete/ids").and_then(Value::as_array) {
        let mut deleted = 0;
        for id in ids.iter().filter_map(|i| i.as_str()?.parse::<u64>().ok()) {
            deleted += f.rules.remove(&id).is_some() as u32;
        }
        return Json(json!({"meta": {"sent": sent, "summary": {"deleted": deleted, "not_deleted": ids.len() as u32 - deleted}}})).into_response();
    }
    let mut data = Vec::new();
    for r in body.get("add").and_then(Value::as_array).into_iter().flatten() {
        f.next_rule += 1;
        let id = 1_000 + f.next_rule;
        let value = r["value"].as_str().unwrap_or_default().to_string();
        let tag = r.get("tag").and_then(Value::as_str).map(str::to_string);
        f.rules.insert(id, (value.clone(), tag.clone()));
        data.push(json!({"value": value, "tag": tag, "id": id.to_string()}));
    }
    let n = data.len();
    Json(json!({"data": data, "meta": {"sent": sent, "summary": {"created": n, "not_created": 0, "valid": n, "invalid": 0}}}))
        .into_response()
}

async fn stream(State(s): State<Shared>, h: HeaderMap) -> Response {
    if !authorized(&h) {
        return unauthorized();
    }
    let mut f = s.lock().unwrap();
    f.connections += 1;
    if f.refuse > 0 {
        f.refuse -= 1;
        return (StatusCode::TOO_MANY_REQUESTS, Json(json!({"title": "ConnectionException", "detail": "This stream is currently at the maximum allowed connection limit.",
            "connection_issue": "TooManyConnections", "type": "https://api.twitter.com/2/problems/streaming-connection"}))).into_response();
    }
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    f.stream = Some(tx);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (Ok::<_, std::io::Error>(line), rx))
    });
    Response::builder().header("content-type", "application/json").body(Body::from_stream(body)).unwrap()
}

async fn x_api() -> (String, Shared) {
    let state: Shared = Arc::default();
    let router = Router::new()
        .route("/2/tweets/search/stream/rules", get(get_rules).post(post_rules))
        .route("/2/tweets/search/stream", get(stream))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn tweet_line(id: u64, text: &str, tags: &[&str]) -> String {
    let rules: Vec<Value> = tags.iter().map(|t| json!({"id": "1001", "tag": t})).collect();
    let v = json!({
        "data": {"id": id.to_string(), "text": text, "author_id": "2244994945", "created_at": "2024-01-02T03:04:05.000Z",
            "edit_history_tweet_ids": [id.to_string()], "lang": "en",
            "public_metrics": {"retweet_count": 1, "reply_count": 2, "like_count": 3, "quote_count": 0, "impression_count": 40}},
        "includes": {"users": [{"id": "2244994945", "name": "X Dev", "username": "XDevelopers"}]},
        "matching_rules": rules
    });
    format!("{v}\r\n")
}

fn send(f: &Shared, line: String) {
    let tx = f.lock().unwrap().stream.clone().expect("a stream is open");
    let _ = tx.send(line);
}

fn connector(url: &str) -> TwitterStream {
    let mut c = ConnectorConfig { base_url: Some(url.into()), ..Default::default() };
    c.values.insert("bearer_token".into(), TOKEN.into());
    c.values.insert("mode".into(), "stream".into());
    TwitterStream::new(c, common::http())
}

fn q(id: i64, rows: &[&[&str]], platforms: &[Platform]) -> TrackerQuery {
    TrackerQuery {
        tracker_id: id,
        include: rows.iter().map(|r| r.iter().map(|t| t.to_string()).collect()).collect(),
        platforms: platforms.iter().copied().collect(),
        ..Default::default()
    }
}

fn rule_set(f: &Shared) -> Vec<(String, Option<String>)> {
    f.lock().unwrap().rules.values().cloned().collect()
}

#[tokio::test]
async fn rules_follow_the_trackers() {
    let (url, fake) = x_api().await;
    {
        let mut f = fake.lock().unwrap();
        f.rules.insert(1, ("old terms".into(), Some("hark tracker 99".into())));
        f.rules.insert(2, ("cats has:images".into(), Some("another app".into())));
    }
    let c = connector(&url);
    let trackers = vec![
        q(1, &[&["#rust", "rust lang"], &["tokio"]], &[Platform::Twitter]),
        q(2, &[&["golang"]], &[Platform::Twitter, Platform::News]),
        q(3, &[&["python"]], &[Platform::News]),
    ];
    c.sync(&trackers).await.unwrap();
    let mut rules = rule_set(&fake);
    rules.sort();
    assert_eq!(
        rules,
        vec![
            ("(#rust OR \"rust lang\") tokio".to_string(), Some("hark tracker 1".to_string())),
            ("cats has:images".to_string(), Some("another app".to_string())),
            ("golang".to_string(), Some("hark tracker 2".to_string())),
        ]
    );
    let posts = fake.lock().unwrap().rule_posts.clone();
    assert_eq!(posts[0], json!({"delete": {"ids": ["1"]}}));
    assert_eq!(posts[1]["add"].as_array().unwrap().len(), 2);
    // In sync: nothing sent.
    c.sync(&trackers).await.unwrap();
    assert_eq!(fake.lock().unwrap().rule_posts.len(), 2);
    // Tracker 1's terms change and tracker 2 stops: its rule goes, tracker 1's is replaced.
    let changed = vec![q(1, &[&["ferris"]], &[Platform::Twitter])];
    c.sync(&changed).await.unwrap();
    let mut rules = rule_set(&fake);
    rules.sort();
    assert_eq!(rules, vec![
        ("cats has:images".to_string(), Some("another app".to_string())),
        ("ferris".to_string(), Some("hark tracker 1".to_string())),
    ]);
    assert!(c.check().await.unwrap().contains("3 rules") || c.check().await.unwrap().contains("2 rules"));
}

fn cfg(owner: &str) -> StreamConfig {
    StreamConfig {
        owner: owner.into(),
        lease: Duration::from_secs(5),
        window: Duration::from_millis(80),
        idle: Duration::from_millis(20),
        backoff: StreamBackoff::fast(),
        log: None,
    }
}

#[tokio::test]
async fn reads_the_stream_and_reconnects_with_backoff() {
    let (url, fake) = x_api().await;
    let (_db, store) = common::store(hark_store::Backend::Sqlite).await;
    let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({})).await;
    let trackers = store.collectable_trackers().await.unwrap();
    let targets = Targets {
        matcher: Some(Arc::new(compile(&trackers).unwrap())),
        trackers: vec![common::query_of(&t)],
        version: 7,
    };
    let mut w = StreamWorker::new(store.clone(), Arc::new(connector(&url)), cfg("node-a"));
    // The first step syncs the rules and opens the stream.
    assert_eq!(w.step(&targets).await, StepOutcome::Batch { posts: 0 });
    assert_eq!(rule_set(&fake), vec![("rust".to_string(), Some(format!("hark tracker {}", t.id)))]);
    let tag = format!("hark tracker {}", t.id);
    send(&fake, "\r\n".into());
    send(&fake, tweet_line(11, "rust news one", &[&tag]));
    // A line split across chunks is put back together.
    let line = tweet_line(12, "rust news two", &[&tag]);
    let (a, b) = line.split_at(40);
    send(&fake, a.to_string());
    send(&fake, b.to_string());
    send(&fake, tweet_line(13, "nothing to see", &[]));
    let mut got = 0;
    for _ in 0..20 {
        if let StepOutcome::Batch { posts } = w.step(&targets).await {
            got += posts;
        }
        if got >= 3 {
            break;
        }
    }
    assert_eq!(got, 3, "three tweets read (one matches no tracker)");
    assert_eq!(common::tracker_post_ids(&store, t.id).await.len(), 2);
    // X disconnects: the next step fails with a network error and a linear wait, then reconnects.
    send(&fake, "{\"errors\":[{\"title\":\"operational-disconnect\",\"disconnect_type\":\"UpstreamOperationalDisconnect\",\"detail\":\"This stream has been disconnected upstream for operational reasons.\",\"type\":\"https://api.twitter.com/2/problems/operational-disconnect\"}]}\r\n".into());
    let failed = w.step(&targets).await;
    match &failed {
        StepOutcome::Failed { error, wait } => {
            assert!(error.contains("operational reasons"), "{error}");
            assert_eq!(*wait, StreamBackoff::fast().network_step);
        }
        other => panic!("{other:?}"),
    }
    // Another connection is open elsewhere: 429, then a longer, doubling wait.
    fake.lock().unwrap().refuse = 2;
    let mut rate_waits = Vec::new();
    for _ in 0..2 {
        match w.step(&targets).await {
            StepOutcome::Failed { wait, .. } => rate_waits.push(wait),
            other => panic!("{other:?}"),
        }
    }
    let fast = StreamBackoff::fast();
    assert_eq!(rate_waits, vec![fast.rate_start, fast.rate_start * 2]);
    assert_eq!(w.step(&targets).await, StepOutcome::Batch { posts: 0 });
    assert_eq!(fake.lock().unwrap().connections, 4);
    send(&fake, tweet_line(14, "rust news three", &[&tag]));
    for _ in 0..20 {
        w.step(&targets).await;
        if common::tracker_post_ids(&store, t.id).await.len() == 3 {
            break;
        }
    }
    assert_eq!(common::tracker_post_ids(&store, t.id).await.len(), 3);
    let saved = &store.connector_streams().await.unwrap()[0];
    assert_eq!((saved.connector.as_str(), saved.cursor.as_str()), ("twitter", r#"{"last_id":"14"}"#));
}

#[tokio::test]
async fn the_scheduler_streams_x_when_the_admin_chooses_it() {
    let (url, fake) = x_api().await;
    let (_db, store) = common::store(hark_store::Backend::Sqlite).await;
    let t = common::tracker(&store, json!([["rust"]]), &[Platform::Twitter], json!({})).await;
    let config = json!({"bearer_token": TOKEN, "mode": "stream"}).to_string();
    store.save_connector_settings("twitter", true, Some(&url), &config, now_millis()).await.unwrap();
    let sc = SchedulerConfig {
        owner: "node-s".into(),
        refresh: Duration::from_millis(50),
        policy: RetryPolicy::fast(),
        stream: cfg("node-s"),
        ..Default::default()
    };
    let mut s = Scheduler::new(store.clone(), sc);
    s.refresh().await.unwrap();
    assert_eq!(s.stream_names(), vec!["twitter".to_string()]);
    // No polling job while it streams.
    assert!(store.tracker_jobs(t.id).await.unwrap().is_empty());
    for _ in 0..100 {
        if fake.lock().unwrap().stream.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    send(&fake, tweet_line(21, "rust news live", &[&format!("hark tracker {}", t.id)]));
    for _ in 0..100 {
        if !common::tracker_post_ids(&store, t.id).await.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(common::tracker_post_ids(&store, t.id).await.len(), 1);
    // Back to recent search: the stream stops and the tracker gets its polling job.
    let config = json!({"bearer_token": TOKEN, "mode": "recent"}).to_string();
    store.save_connector_settings("twitter", true, Some(&url), &config, now_millis() + 1).await.unwrap();
    s.refresh().await.unwrap();
    assert!(s.stream_names().is_empty());
    assert_eq!(s.connector_names(), vec!["twitter".to_string()]);
    assert_eq!(store.tracker_jobs(t.id).await.unwrap().len(), 1);
}
