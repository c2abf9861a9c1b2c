//! The Bluesky connector against a fake Jetstream: a websocket at `/subscribe` honouring
//! `wantedCollections` and `cursor` (replay of every event with `time_us` at or after it, then
//! the live tail; no cursor: the live tail only), sending commit events (create, update, delete)
//! and identity events as JSON text messages. The fake can drop a connection after some events
//! and refuse the next connections with an HTTP status.

use crate::common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hark_collect::bluesky::Bluesky;
use hark_collect::stream::{StepOutcome, StreamBackoff, StreamConfig, StreamConnector, StreamWorker, Targets};
use hark_collect::{CollectError, ConnectorConfig};
use hark_core::{now_millis, Platform};
use hark_ingest::pipeline::{compile, ingest_with};
use hark_store::Store;
use serde_json::{json, Value};

const T0: u64 = 1_725_911_162_000_000;

#[derive(Default)]
struct Fake {
    /// (time_us, collection, event JSON)
    events: Vec<(u64, String, String)>,
    /// Query strings of the connections made.
    connections: Vec<std::collections::HashMap<String, String>>,
    /// Close each connection after sending this many events.
    drop_after: Option<usize>,
    /// Refuse the next connections with this status.
    refuse: Vec<u16>,
}

type Shared = Arc<Mutex<Fake>>;

async fn subscribe(
    State(s): State<Shared>,
    Query(q): Query<std::collections::HashMap<String, String>>,
    ws: WebSocketUpgrade,
) -> Response {
    {
        let mut f = s.lock().unwrap();
        f.connections.push(q.clone());
        if !f.refuse.is_empty() {
            let code = f.refuse.remove(0);
            let mut r = (StatusCode::from_u16(code).unwrap(), "slow down").into_response();
            if code == 429 {
                r.headers_mut().insert("retry-after", "3".parse().unwrap());
            }
            return r;
        }
    }
    ws.on_upgrade(move |socket| feed(socket, s, q))
}

async fn feed(mut socket: WebSocket, s: Shared, q: std::collections::HashMap<String, String>) {
    let wanted: Vec<String> = q.get("wantedCollections").map(|w| w.split(',').map(str::to_string).collect()).unwrap_or_default();
    let cursor: Option<u64> = q.get("cursor").and_then(|c| c.parse().ok());
    // Without a cursor: only events that come after the connection.
    let mut next = {
        let f = s.lock().unwrap();
        match cursor {
            Some(c) => f.events.iter().position(|e| e.0 >= c).unwrap_or(f.events.len()),
            None => f.events.len(),
        }
    };
    let mut sent = 0;
    loop {
        let (msg, drop_after) = {
            let f = s.lock().unwrap();
            (f.events.get(next).cloned(), f.drop_after)
        };
        if drop_after.is_some_and(|d| sent >= d) {
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
        match msg {
            Some((_, collection, text)) => {
                next += 1;
                if !collection.is_empty() && !wanted.is_empty() && !wanted.contains(&collection) {
                    continue;
                }
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
                sent += 1;
            }
            None => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
}

async fn jetstream() -> (String, Shared) {
    let state: Shared = Arc::default();
    let url = common::serve(Router::new().route("/subscribe", get(subscribe)).with_state(state.clone())).await;
    (url.replace("http://", "ws://"), state)
}

fn did(i: u64) -> String {
    format!("did:plc:user{}", i % 3)
}

/// Appends events: posts `from..=to` ("rust news N" when N is even, "cooking N" otherwise), a
/// like and a handle change in between.
fn add(f: &Shared, from: u64, to: u64) {
    let mut f = f.lock().unwrap();
    for i in from..=to {
        let t = T0 + i * 1000;
        let text = if i % 2 == 0 { format!("rust news {i}") } else { format!("cooking {i}") };
        let post = json!({"did": did(i), "time_us": t, "kind": "commit", "commit": {
            "rev": format!("3l3qo2vutsw{i}"), "operation": "create", "collection": "app.bsky.feed.post",
            "rkey": format!("3l3qo2vuowo{i}"), "cid": format!("bafyreid{i}"),
            "record": {"$type": "app.bsky.feed.post", "text": text, "createdAt": "2024-09-09T19:46:02.102Z", "langs": ["en"],
                "embed": if i % 4 == 0 { json!({"$type": "app.bsky.embed.images", "images": [{"alt": "", "image": {"$type": "blob", "ref": {"$link": format!("bafkrei{i}")}, "mimeType": "image/jpeg", "size": 1000}}]}) } else { Value::Null }}}});
        f.events.push((t, "app.bsky.feed.post".into(), post.to_string()));
        let like = json!({"did": did(i), "time_us": t + 1, "kind": "commit", "commit": {"rev": "x", "operation": "create",
            "collection": "app.bsky.feed.like", "rkey": format!("like{i}"), "record": {"$type": "app.bsky.feed.like", "subject": {}}}});
        f.events.push((t + 1, "app.bsky.feed.like".into(), like.to_string()));
        if i % 5 == 0 {
            let id = json!({"did": did(i), "time_us": t + 2, "kind": "identity", "identity": {"did": did(i), "handle": format!("user{}.bsky.social", i % 3), "seq": i, "time": "2024-09-09T19:46:02.102Z"}});
            f.events.push((t + 2, String::new(), id.to_string()));
        }
    }
}

fn connector(url: &str) -> Bluesky {
    Bluesky::new(ConnectorConfig { base_url: Some(url.to_string()), ..Default::default() })
}

#[tokio::test]
async fn reads_the_live_tail_and_maps_posts() {
    let (url, fake) = jetstream().await;
    let c = connector(&url);
    // Connects and waits: nothing yet.
    let first = c.next(&json!({}), Duration::from_millis(100)).await.unwrap();
    assert!(first.posts.is_empty());
    assert_eq!(first.cursor, json!({"time_us": null}));
    add(&fake, 1, 10);
    let mut posts = Vec::new();
    let mut cursor = first.cursor;
    for _ in 0..20 {
        let b = c.next(&cursor, Duration::from_millis(100)).await.unwrap();
        posts.extend(b.posts);
        cursor = b.cursor;
        if posts.len() == 10 {
            break;
        }
    }
    assert_eq!(posts.len(), 10, "the likes are not asked for, so not sent");
    assert_eq!(fake.lock().unwrap().connections.len(), 1, "one connection for every batch");
    assert_eq!(fake.lock().unwrap().connections[0].get("wantedCollections").map(String::as_str), Some("app.bsky.feed.post"));
    assert!(cursor["time_us"].as_u64().unwrap() >= T0 + 10_000, "{cursor}");
    let p = &posts[3];
    assert_eq!((p.platform, p.text.as_str(), p.lang.as_deref()), (Platform::Bluesky, "rust news 4", Some("en")));
    assert_eq!(p.id, "did:plc:user1/3l3qo2vuowo4");
    assert_eq!(p.url.as_deref(), Some("https://bsky.app/profile/did:plc:user1/post/3l3qo2vuowo4"));
    assert_eq!(p.media.len(), 1);
    assert!(p.media[0].url.contains("/did:plc:user1/bafkrei4@jpeg"));
    // After user2's handle is known (identity event at 5), their posts link by handle.
    let p8 = posts.iter().find(|p| p.text == "rust news 8").unwrap();
    assert_eq!(p8.author.username, "user2.bsky.social");
    assert_eq!(p8.url.as_deref(), Some("https://bsky.app/profile/user2.bsky.social/post/3l3qo2vuowo8"));
    assert_eq!(p8.author.id, "did:plc:user2");
}

#[tokio::test]
async fn refusals_are_told_apart() {
    let (url, fake) = jetstream().await;
    fake.lock().unwrap().refuse = vec![503, 429];
    let c = connector(&url);
    match c.next(&json!({}), Duration::from_millis(50)).await {
        Err(CollectError::Http { status: 503, .. }) => {}
        other => panic!("{other:?}"),
    }
    match c.next(&json!({}), Duration::from_millis(50)).await {
        Err(CollectError::RateLimited { wait }) => assert_eq!(wait, Duration::from_secs(3)),
        other => panic!("{other:?}"),
    }
    assert!(c.next(&json!({}), Duration::from_millis(50)).await.is_ok());
}

fn config(owner: &str) -> StreamConfig {
    StreamConfig {
        owner: owner.into(),
        lease: Duration::from_millis(300),
        window: Duration::from_millis(60),
        idle: Duration::from_millis(20),
        backoff: StreamBackoff::fast(),
        log: None,
    }
}

async fn targets(store: &Store) -> Targets {
    let trackers = store.collectable_trackers().await.unwrap();
    Targets { matcher: Some(Arc::new(compile(&trackers).unwrap())), trackers: vec![], version: 1 }
}

/// Steps `w` until the tracker holds `n` posts (or gives up).
async fn until(store: &Store, w: &mut StreamWorker, t: &Targets, tracker: i64, n: usize) -> Vec<StepOutcome> {
    let mut outcomes = Vec::new();
    for _ in 0..200 {
        let o = w.step(t).await;
        if let StepOutcome::Failed { wait, .. } = &o {
            tokio::time::sleep(*wait).await;
        }
        outcomes.push(o);
        if common::tracker_post_ids(store, tracker).await.len() >= n {
            break;
        }
    }
    outcomes
}

fn expected(from: u64, to: u64) -> BTreeSet<String> {
    (from..=to).filter(|i| i % 2 == 0).map(|i| format!("{}/3l3qo2vuowo{i}", did(i))).collect()
}

#[tokio::test]
async fn reconnects_from_the_cursor_after_a_disconnect() {
    let (url, fake) = jetstream().await;
    let (_db, store) = common::store(hark_store::Backend::Sqlite).await;
    let t = common::tracker(&store, json!([["rust"]]), &[Platform::Bluesky], json!({})).await;
    let targets = targets(&store).await;
    let mut w = StreamWorker::new(store.clone(), Arc::new(connector(&url)), config("node-a"));
    // Start the live tail, then the posts come; the fake drops each connection after 7 events.
    assert_eq!(w.step(&targets).await, StepOutcome::Batch { posts: 0 });
    fake.lock().unwrap().drop_after = Some(7);
    add(&fake, 1, 20);
    until(&store, &mut w, &targets, t.id, 10).await;
    let conns = fake.lock().unwrap().connections.clone();
    assert!(conns.len() >= 3, "{conns:?}");
    // Each reconnection resumes at the last event read.
    assert!(conns[1].contains_key("cursor"));
    common::assert_exactly(&store, t.id, &expected(1, 20)).await;
    let rows = store.connector_streams().await.unwrap();
    assert_eq!(rows[0].connector, "bluesky");
    let saved: Value = serde_json::from_str(&rows[0].cursor).unwrap();
    assert!(saved["time_us"].as_u64().unwrap() >= T0 + 20_000, "{saved}");
}

#[tokio::test]
async fn restart_mid_stream_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, fake) = jetstream().await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Bluesky], json!({})).await;
        let tg = targets(&store).await;
        let mut a = StreamWorker::new(store.clone(), Arc::new(connector(&url)), config("node-a"));
        assert_eq!(a.step(&tg).await, StepOutcome::Batch { posts: 0 });
        add(&fake, 1, 10);
        until(&store, &mut a, &tg, t.id, 5).await;
        drop(a);
        // Node A reads the next events and stores them, then dies before saving the cursor.
        add(&fake, 11, 30);
        let saved = store.lease_stream("bluesky", "node-a", now_millis(), now_millis() + 300).await.unwrap().unwrap();
        let crashed = connector(&url);
        let cursor: Value = serde_json::from_str(&saved.cursor).unwrap();
        let mut read = Vec::new();
        for _ in 0..20 {
            read.extend(crashed.next(&cursor, Duration::from_millis(50)).await.unwrap().posts);
            if read.len() >= 20 {
                break;
            }
        }
        ingest_with(&store, tg.matcher.clone().unwrap(), read, now_millis()).await.unwrap();
        drop(crashed);
        // Node B waits for A's lease to run out, then replays from the saved cursor.
        let mut b = StreamWorker::new(store.clone(), Arc::new(connector(&url)), config("node-b"));
        assert_eq!(b.step(&tg).await, StepOutcome::Waiting);
        tokio::time::sleep(Duration::from_millis(350)).await;
        add(&fake, 31, 40);
        until(&store, &mut b, &tg, t.id, 20).await;
        let last = fake.lock().unwrap().connections.last().cloned().unwrap();
        assert_eq!(last.get("cursor"), Some(&cursor["time_us"].to_string()));
        common::assert_exactly(&store, t.id, &expected(1, 40)).await;
    }
}
