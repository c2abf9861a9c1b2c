//! Shared by the connector tests: fake servers on 127.0.0.1, a tracker in a fresh database, and
//! a collection loop that can crash between storing a page and saving its cursor.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::Arc;

use hark_collect::{Connector, Http, RetryPolicy, TrackerQuery};
use hark_core::{now_millis, Platform, Post, TrackerCriteria};
use hark_ingest::pipeline::{compile, ingest_with};
use hark_store::{Backend, NewTracker, NewUser, Store, TrackerRow};
use hark_testkit::TestDb;
use serde_json::{json, Value};

/// Serves `router` on an ephemeral local port; returns its base URL.
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    format!("http://{addr}")
}

pub fn http() -> Http {
    Http::new(RetryPolicy::fast())
}

pub async fn store(backend: Backend) -> (TestDb, Store) {
    let db = TestDb::new(backend).await;
    let store = db.store().await;
    (db, store)
}

/// A running tracker searching `include` rows on `platforms`.
pub async fn tracker(store: &Store, include: Value, platforms: &[Platform], extra: Value) -> TrackerRow {
    let owner = store
        .create_user(
            &NewUser {
                email: format!("owner{}@example.org", rand_id()),
                password_hash: "x".into(),
                name: "Owner".into(),
                is_admin: false,
                trial: false,
                trial_expires: None,
                plan: 0,
                max_searches: 5,
                max_ignored: 5,
            },
            now_millis(),
        )
        .await
        .unwrap();
    let mut plat = serde_json::Map::new();
    for p in platforms {
        plat.insert(p.code().into(), json!(1));
    }
    let mut criteria = json!({"search": {"include": include, "exclude": []}, "platforms": plat});
    if let (Value::Object(c), Value::Object(e)) = (&mut criteria, extra) {
        c.extend(e);
    }
    let parsed: TrackerCriteria = serde_json::from_value(criteria.clone()).unwrap();
    store
        .create_tracker(
            &NewTracker {
                friendly: hark_core::Friendly::from_text("collect test"),
                title: "collect test".into(),
                owner_id: owner.id,
                platforms: parsed.platforms.bits(),
                criteria: criteria.to_string(),
                volume_limit: parsed.volume_limit,
                is_demo: false,
                is_preview_mode: false,
            },
            now_millis(),
        )
        .await
        .unwrap()
}

fn rand_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

pub fn query_of(t: &TrackerRow) -> TrackerQuery {
    let c: TrackerCriteria = serde_json::from_str(&t.criteria).unwrap();
    TrackerQuery::from_criteria(t.id, &c)
}

/// The ids of the posts a tracker holds (each once, or the test fails).
pub async fn tracker_post_ids(store: &Store, tracker_id: i64) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut after = 0;
    loop {
        let page = store.tracker_posts_page(tracker_id, after, 1000).await.unwrap();
        let Some(last) = page.last() else { break };
        after = last.post_id;
        for p in &page {
            let post: Post = p.row.clone().into_post().unwrap();
            assert!(ids.insert(post.id.clone()), "post {} linked twice", post.id);
        }
    }
    ids
}

/// Runs sweeps of `make()`'s connector through the ingest pipeline until a sweep ends. After
/// page `crash_after` the posts are stored but the cursor is not saved: the connector is dropped
/// and a new one resumes from the last saved cursor, as after a kill. Returns the saved cursor
/// and the pages fetched.
pub async fn collect(
    store: &Store,
    make: &dyn Fn() -> Box<dyn Connector>,
    q: &TrackerQuery,
    start: Value,
    crash_after: Option<usize>,
) -> (Value, usize) {
    let trackers = store.collectable_trackers().await.unwrap();
    let matcher = Arc::new(compile(&trackers).unwrap());
    let mut saved = start;
    let mut connector = make();
    let mut pages = 0;
    let mut crashed = false;
    loop {
        let page = connector.fetch(q, &saved).await.expect("fetch");
        pages += 1;
        ingest_with(store, matcher.clone(), page.posts, now_millis()).await.unwrap();
        if Some(pages) == crash_after && !crashed {
            crashed = true;
            connector = make();
            continue;
        }
        saved = page.cursor;
        if !page.more {
            return (saved, pages);
        }
        assert!(pages < 1000, "sweep does not end");
    }
}

/// Asserts that a tracker holds exactly `expected` and that its rollups count each once.
pub async fn assert_exactly(store: &Store, tracker_id: i64, expected: &BTreeSet<String>) {
    let got = tracker_post_ids(store, tracker_id).await;
    let missing: Vec<_> = expected.difference(&got).take(5).collect();
    let extra: Vec<_> = got.difference(expected).take(5).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:?}, unexpected {extra:?}");
    let (posts, _) = store.rollup_totals(tracker_id).await.unwrap();
    assert_eq!(posts, expected.len() as i64, "rollups count each post once");
    let t = store.tracker_by_id(tracker_id).await.unwrap().unwrap();
    assert_eq!(t.total_posts, expected.len() as i64);
}
