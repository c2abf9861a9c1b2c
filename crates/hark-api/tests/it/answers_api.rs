//! Repeated reads of the dashboard are answered from memory while the tracker has not changed,
//! confirmed to the browser with 304s, and computed again after every kind of write that changes
//! them; on SQLite and PostgreSQL.

use hark_testkit::{each_app as each, TestApp};
use serde_json::{json, Value};

struct Read {
    status: u16,
    etag: String,
    answer: String,
    cache_control: String,
    body: Value,
}

async fn read(app: &TestApp, client: &reqwest::Client, path: &str, etag: Option<&str>) -> Read {
    let mut req = client.get(app.url(path));
    if let Some(e) = etag {
        req = req.header("If-None-Match", e);
    }
    let res = req.send().await.unwrap();
    let header = |name: &str| res.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let (status, etag, answer, cache_control) = (res.status().as_u16(), header("etag"), header("x-hark-answer"), header("cache-control"));
    let text = res.text().await.unwrap();
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() };
    Read { status, etag, answer, cache_control, body }
}

fn tweet(id: u32, text: &str, at: i64, user: &str) -> Value {
    json!({"platform": "twitter", "id": id.to_string(), "text": text, "createdAt": at, "author": {"username": user, "followers": 10}})
}

const T0: i64 = 1_700_000_000_000;

/// The admin's tracker for "coffee" with `n` of ann's tweets of `text`, a minute apart; its hash.
async fn tracker_with(app: &TestApp, n: u32, text: &str) -> String {
    app.setup_admin().await;
    let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
    let posts: Vec<Value> = (1..=n).map(|i| tweet(i, text, T0 + i as i64 * 60_000, "ann")).collect();
    assert_eq!(app.import_posts(&hash, &posts).await.body["imported"], n);
    hash
}


#[tokio::test]
async fn a_repeated_read_is_kept_until_a_write_changes_it() {
    each(|app| async move {
        let hash = tracker_with(&app, 3, "coffee #brew").await;
        let stats = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all");
        let c = &app.client;

        // Computed once, then from memory with the same ETag; the browser must ask each time.
        let first = read(&app, c, &stats, None).await;
        assert_eq!((first.status, first.answer.as_str(), first.body["posts"].as_i64()), (200, "miss", Some(3)));
        assert!(first.etag.starts_with("W/\""), "{}", first.etag);
        assert_eq!(first.cache_control, "private, no-cache");
        let again = read(&app, c, &stats, None).await;
        assert_eq!((again.status, again.answer.as_str(), again.etag.as_str()), (200, "hit", first.etag.as_str()));
        assert_eq!(again.body, first.body);
        // The browser's copy is confirmed without a body.
        let confirmed = read(&app, c, &stats, Some(&first.etag)).await;
        assert_eq!((confirmed.status, confirmed.body.clone(), confirmed.etag.as_str()), (304, Value::Null, first.etag.as_str()));
        assert_eq!(app.answers.counts(), (2, 1), "(hits, misses)");

        // New posts: the old ETag no longer matches and the answer counts them.
        assert_eq!(app.import_posts(&hash, &[tweet(4, "coffee", T0 + 5 * 60_000, "bob")]).await.body["imported"], 1);
        let after_import = read(&app, c, &stats, Some(&first.etag)).await;
        assert_eq!((after_import.status, after_import.answer.as_str()), (200, "miss"));
        assert_eq!((after_import.body["posts"].as_i64(), after_import.body["users"].as_i64()), (Some(4), Some(2)));
        assert_ne!(after_import.etag, first.etag);

        // A delete and its undo.
        let deleted = app.post(&format!("/api/v1/trackers/{hash}/posts/delete"), json!({"posts": ["twitter;4"]})).await;
        assert_eq!(deleted.body["count"], 1, "{:?}", deleted.body);
        assert_eq!(read(&app, c, &stats, Some(&after_import.etag)).await.body["posts"], 3);
        app.post(&format!("/api/v1/trackers/{hash}/posts/undo-delete"), json!({"posts": ["twitter;4"]})).await;
        let undone = read(&app, c, &stats, None).await;
        assert_eq!((undone.body["posts"].as_i64(), undone.etag.as_str()), (Some(4), after_import.etag.as_str()));

        // A manual sentiment edit moves the sentiment panel.
        let sentiments = format!("/api/v1/trackers/{hash}/dashboard/sentiments?days=all");
        let before = read(&app, c, &sentiments, None).await;
        assert_eq!(read(&app, c, &sentiments, None).await.answer, "hit");
        let edit = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/posts/sentiment"), json!({"post": "twitter;1", "sentiment": "negative"})).await;
        assert_eq!(edit.status, 200, "{:?}", edit.body);
        let moved = read(&app, c, &sentiments, Some(&before.etag)).await;
        assert_eq!((moved.status, moved.answer.as_str()), (200, "miss"));
        assert_ne!(moved.body, before.body);

        // Pausing writes no post but adds a mark to the timeline.
        let timeline = format!("/api/v1/trackers/{hash}/dashboard/timeline?days=all&grouping=day&tz=UTC");
        let running = read(&app, c, &timeline, None).await;
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/pause"), json!({})).await.status, 200);
        let paused = read(&app, c, &timeline, Some(&running.etag)).await;
        assert_eq!(paused.status, 200);
        let actions: Vec<&str> = paused.body["logs"].as_array().unwrap().iter().filter_map(|l| l["action"].as_str()).collect();
        assert!(actions.contains(&"tracker_paused"), "{actions:?}");
    })
    .await;
}

#[tokio::test]
async fn answers_are_kept_per_reader_and_never_under_a_tag_filter() {
    each(|app| async move {
        let hash = tracker_with(&app, 2, "coffee").await;
        let stats = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all");
        assert_eq!(read(&app, &app.client, &stats, None).await.answer, "miss");
        assert_eq!(read(&app, &app.client, &stats, None).await.answer, "hit");

        // Another reader (a viewer of the team) gets an answer of their own, not the owner's.
        let (viewer, _) = app.member_browser(&hash, "viewer@example.com", hark_core::Permission::Viewer).await;
        let theirs = read(&app, &viewer, &stats, None).await;
        assert_eq!((theirs.status, theirs.answer.as_str(), theirs.body["posts"].as_i64()), (200, "miss", Some(2)));
        // Signed out, nothing is served from memory.
        let anon = reqwest::Client::new();
        assert_eq!(read(&app, &anon, &stats, None).await.status, 401);

        // Tagging does not move the version: a tag filter's answer is computed every time.
        let tag = app.post(&format!("/api/v1/trackers/{hash}/tags"), json!({"name": "fav"})).await;
        assert!(tag.status < 300, "{:?}", tag.body);
        let tag_id = tag.body["id"].as_i64().unwrap();
        let tagged = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all&postTags={tag_id}");
        let none = read(&app, &app.client, &tagged, None).await;
        assert_eq!((none.answer.as_str(), none.body["posts"].as_i64()), ("miss", Some(0)));
        let put = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/posts/tags"), json!({"posts": ["twitter;1"], "add": [tag_id]})).await;
        assert_eq!(put.status, 200, "{:?}", put.body);
        let one = read(&app, &app.client, &tagged, Some(&none.etag)).await;
        assert_eq!((one.status, one.answer.as_str(), one.body["posts"].as_i64()), (200, "miss", Some(1)));

        // A window relative to now is kept too (for a short while).
        let recent = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=30");
        assert_eq!(read(&app, &app.client, &recent, None).await.answer, "miss");
        assert_eq!(read(&app, &app.client, &recent, None).await.answer, "hit");
    })
    .await;
}

#[tokio::test]
async fn the_topics_and_sentiment_pages_are_kept_too() {
    each(|app| async move {
        let hash = tracker_with(&app, 4, "coffee with oat milk, lovely").await;
        let c = &app.client;
        let layer = format!("/api/v1/trackers/{hash}/topics?days=all&kind=word");
        let overview = format!("/api/v1/trackers/{hash}/sentiment?days=all");
        let keywords = format!("/api/v1/trackers/{hash}/sentiment/keywords?days=all");
        let series = format!("/api/v1/trackers/{hash}/topics/series?days=all&items=word:oat");
        for path in [&layer, &overview, &keywords, &series] {
            let first = read(&app, c, path, None).await;
            assert_eq!((first.status, first.answer.as_str()), (200, "miss"), "{path}: {:?}", first.body);
            let again = read(&app, c, path, Some(&first.etag)).await;
            assert_eq!((again.status, again.answer.as_str()), (304, "hit"), "{path}");
        }
        let before = read(&app, c, &layer, None).await;
        let words = |b: &Value| b.to_string();
        assert!(!words(&before.body).contains("espresso"), "{:?}", before.body);
        app.import_posts(&hash, &[tweet(9, "coffee espresso espresso", T0 + 9 * 60_000, "bob")]).await;
        let after = read(&app, c, &layer, Some(&before.etag)).await;
        assert_eq!((after.status, after.answer.as_str()), (200, "miss"));
        assert!(words(&after.body).contains("espresso"), "{:?}", after.body);
        let total = read(&app, c, &overview, None).await;
        assert_eq!((total.answer.as_str(), total.body["total"].as_i64()), ("miss", Some(5)), "{:?}", total.body);
    })
    .await;
}

#[tokio::test]
async fn with_no_memory_for_answers_each_read_is_computed_and_still_confirmed() {
    for backend in hark_testkit::backends() {
        let app = TestApp::spawn_with(backend, hark_api::ApiConfig { answer_cache_mb: Some(0), ..Default::default() }).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        app.import_posts(&hash, &[tweet(1, "coffee", T0, "ann")]).await;
        let stats = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all");
        let first = read(&app, &app.client, &stats, None).await;
        let again = read(&app, &app.client, &stats, Some(&first.etag)).await;
        assert_eq!((first.status, first.answer.as_str(), again.status, again.answer.as_str()), (200, "miss", 304, "miss"), "{backend:?}");
        assert_eq!(app.answers.counts(), (0, 2));
    }
}

/// On SQLite a read reuses the tracker row and session it looked up while nothing changed them:
/// a change through the server's own store is seen by the very next read, one by another process
/// on the same file (here a connection of its own, which the server's update hook does not see)
/// within the lookups' time limit.
#[tokio::test]
async fn a_change_here_is_seen_at_once_and_one_elsewhere_within_the_time_limit() {
    let app = TestApp::spawn(hark_store::Backend::Sqlite).await;
    let hash = tracker_with(&app, 2, "coffee").await;
    let id = app.store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
    let stats = format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all");
    let anon = reqwest::Client::new();
    let other = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect(&app.db.url).await.unwrap();
    let ttl = hark_api::lookups::LOOKUP_TTL + std::time::Duration::from_millis(20);
    for round in 0..3 {
        // Private: a signed-out reader is refused, however often it asks.
        for _ in 0..3 {
            assert_eq!(read(&app, &anon, &stats, None).await.status, 401, "round {round}");
        }
        assert_eq!(read(&app, &app.client, &stats, None).await.status, 200);
        // Made the demo tracker by this process: open at once; private again: refused at once.
        app.store.set_demo(id, true).await.unwrap();
        let open = read(&app, &anon, &stats, None).await;
        assert_eq!((open.status, open.body["posts"].as_i64()), (200, Some(2)), "round {round}");
        app.store.set_demo(id, false).await.unwrap();
        assert_eq!(read(&app, &anon, &stats, None).await.status, 401, "round {round}");
        // By another process: within the time limit.
        sqlx::query("UPDATE trackers SET is_demo = 1 WHERE hash = ?").bind(&hash).execute(&other).await.unwrap();
        tokio::time::sleep(ttl).await;
        assert_eq!(read(&app, &anon, &stats, None).await.status, 200, "round {round}");
        sqlx::query("UPDATE trackers SET is_demo = 0 WHERE hash = ?").bind(&hash).execute(&other).await.unwrap();
        tokio::time::sleep(ttl).await;
        assert_eq!(read(&app, &anon, &stats, None).await.status, 401, "round {round}");
    }
    // A session ended by the other process is refused within the limit too.
    assert_eq!(read(&app, &app.client, &stats, None).await.status, 200);
    sqlx::query("DELETE FROM sessions WHERE user_id > 0").execute(&other).await.unwrap();
    tokio::time::sleep(ttl).await;
    assert_eq!(read(&app, &app.client, &stats, None).await.status, 401);
    other.close().await;
}
