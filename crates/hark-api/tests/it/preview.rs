//! A new tracker's preview over HTTP: preview mode at creation, the sample in one answer, the end
//! of preview mode and the volume estimate behind the high-volume warning; on SQLite and (when
//! configured) PostgreSQL.

use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::routing::get;
use axum::Router;
use hark_testkit::{backends, csrf_of, send, TestApp};
use serde_json::{json, Value};

/// A fake X: recent search answers 5 matching tweets of the last hours and 2 others; the counts
/// endpoint answers `count` for any window.
async fn fake_x(count: Arc<Mutex<u64>>) -> String {
    let router = Router::new()
        .route(
            "/2/tweets/search/recent",
            get(|| async {
                let now = hark_core::now_millis();
                let tweet = |i: i64, text: &str| json!({"id": (1000 + i).to_string(), "text": text, "author_id": "7",
                    "created_at": jiff::Timestamp::from_millisecond(now - i * 3_600_000).unwrap().to_string()});
                let mut data: Vec<Value> = (1..=5).map(|i| tweet(i, "learning rust today")).collect();
                data.push(tweet(6, "nothing to see"));
                data.push(tweet(7, "still nothing"));
                axum::Json(json!({"data": data, "includes": {"users": [{"id": "7", "name": "Ferris", "username": "ferris"}]},
                    "meta": {"newest_id": "1001", "oldest_id": "1007", "result_count": 7}}))
            }),
        )
        .route(
            "/2/tweets/counts/recent",
            get(|State(count): State<Arc<Mutex<u64>>>, Query(q): Query<std::collections::HashMap<String, String>>| async move {
                assert!(q.contains_key("start_time"), "the estimate asks for its window");
                let n = *count.lock().unwrap();
                axum::Json(json!({"data": [], "meta": {"total_tweet_count": n}}))
            }),
        )
        .with_state(count);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

/// Creates a twitter tracker asking for preview mode; it gets it only when a source serves twitter.
async fn create_preview(app: &TestApp, term: &str, expect_preview: bool) -> String {
    let r = app
        .post(
            "/api/v1/trackers",
            json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": [term]}]}, "preview": true}),
        )
        .await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(r.body["isPreviewMode"], expect_preview);
    r.body["hash"].as_str().unwrap().to_string()
}

/// Nothing listens on port 9: the source is on but unreachable.
async fn unreachable_x(app: &TestApp) {
    let r = app
        .send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": "http://127.0.0.1:9", "values": {"bearer_token": "t"}}))
        .await;
    assert_eq!(r.status, 200);
}

/// Signs a second account in; returns its client and CSRF token.
async fn sign_in(app: &TestApp, email: &str, trial: bool) -> (reqwest::Client, String, i64) {
    let pw = hark_api::auth::hash_password("password123").unwrap();
    let mut u = hark_api::routes::session::self_hosted_user(email.into(), pw, "Bob".into(), false);
    u.trial = trial;
    let user = app.store.create_user(&u, 1).await.unwrap();
    let (client, jar) = app.new_browser();
    let token = csrf_of(&client, &jar, &app.base).await;
    let r = send(client.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &token).json(&json!({"email": email, "password": "password123"}))).await;
    assert_eq!(r.status, 200);
    let token = csrf_of(&client, &jar, &app.base).await;
    (client, token, user.id)
}

#[tokio::test]
async fn a_preview_samples_stores_and_ends() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let x = fake_x(Arc::new(Mutex::new(0))).await;
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "t"}})).await;
        let hash = create_preview(&app, "rust", true).await;
        // A tracker created without the flag is not in preview mode.
        assert_eq!(app.create_tracker("coffee").await["isPreviewMode"], false);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.body["isPreviewMode"], true);

        let r = app.post(&format!("/api/v1/trackers/{hash}/preview/sample"), json!({})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["total"], 5);
        assert_eq!(r.body["timedOut"], false);
        let ids: Vec<&str> = r.body["posts"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["1001", "1002", "1003", "1004", "1005"], "matching posts only, newest first");
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/total-posts?days=2")).await.body["count"]["posts"], 5);
        // Sampling again stores nothing twice.
        let again = app.post(&format!("/api/v1/trackers/{hash}/preview/sample"), json!({})).await;
        assert_eq!(again.body["posts"].as_array().unwrap().len(), 5);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/total-posts?days=2")).await.body["count"]["posts"], 5);

        let end = app.post(&format!("/api/v1/trackers/{hash}/preview/end"), json!({})).await;
        assert_eq!(end.status, 200);
        assert_eq!(end.body["isPreviewMode"], false);
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/preview/end"), json!({})).await.status, 200, "ending twice is fine");
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.body["isPreviewMode"], false);
    }
}

#[tokio::test]
async fn a_source_that_fails_is_reported_and_an_empty_sample_is_zero() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        // Without a source for its platforms a new tracker skips preview mode.
        create_preview(&app, "rust", false).await;
        app.send_json("PUT", "/api/v1/admin/connectors/hackernews", json!({"enabled": true})).await;
        create_preview(&app, "rust", false).await;
        unreachable_x(&app).await;
        let hash = create_preview(&app, "rust", true).await;
        let r = app.post(&format!("/api/v1/trackers/{hash}/preview/sample"), json!({})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!((r.body["total"].as_u64(), r.body["posts"].as_array().map(Vec::len)), (Some(0), Some(0)));
        let errs = r.body["sourceErrors"].as_array().unwrap();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].as_str().unwrap().starts_with("twitter: "), "{errs:?}");
    }
}

#[tokio::test]
async fn the_volume_estimate_flags_terms_above_the_threshold() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = create_preview(&app, "rust", false).await;
        let path = format!("/api/v1/trackers/{hash}/preview/estimate");
        let r = app.get(&path).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("no_connector")));

        let count = Arc::new(Mutex::new(500_000));
        let x = fake_x(count.clone()).await;
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "t"}})).await;
        let r = app.get(&path).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!((r.body["total"].as_u64(), r.body["threshold"].as_u64()), (Some(500_000), Some(500_000)));
        assert_eq!((r.body["highVolume"].as_bool(), r.body["windowDays"].as_i64()), (Some(false), Some(14)));
        *count.lock().unwrap() = 500_001;
        let r = app.get(&path).await;
        assert_eq!(r.body["highVolume"], true);
        assert_eq!(r.body["complete"], true);
        assert_eq!(r.body["sources"][0]["estimate"], 500_001);

        // A trial account's window is the last day.
        let (bob, _, bob_id) = sign_in(&app, "bob@example.org", true).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_member(row.id, bob_id, hark_core::Permission::Editor).await.unwrap();
        let r = send(bob.get(app.url(&path))).await;
        assert_eq!(r.body["windowDays"], 1);
    }
}

#[tokio::test]
async fn preview_calls_check_the_callers_role() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        unreachable_x(&app).await;
        let hash = create_preview(&app, "rust", true).await;
        let (bob, token, bob_id) = sign_in(&app, "bob@example.org", false).await;
        let calls = |c: &reqwest::Client| {
            [
                c.post(app.url(&format!("/api/v1/trackers/{hash}/preview/sample"))).header("X-CSRF-Token", &token),
                c.post(app.url(&format!("/api/v1/trackers/{hash}/preview/end"))).header("X-CSRF-Token", &token),
                c.get(app.url(&format!("/api/v1/trackers/{hash}/preview/estimate"))),
            ]
        };
        for req in calls(&bob) {
            assert_eq!(send(req).await.status, 404, "a stranger does not see the tracker");
        }
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_member(row.id, bob_id, hark_core::Permission::Viewer).await.unwrap();
        for req in calls(&bob) {
            assert_eq!(send(req).await.status, 403, "a viewer cannot");
        }
        let (anon, _) = app.new_browser();
        assert_eq!(send(anon.get(app.url(&format!("/api/v1/trackers/{hash}/preview/estimate")))).await.status, 401);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.body["isPreviewMode"], true, "nothing changed");
        let bad = app.post("/api/v1/trackers/zzzz/preview/end", json!({})).await;
        assert_eq!(bad.status, 404);
    }
}

#[tokio::test]
async fn backfills_are_free_for_paid_accounts_with_a_source_and_refused_to_trials() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = app.create_tracker("rust").await["hash"].as_str().unwrap().to_string();
        let status = format!("/api/v1/trackers/{hash}/collection");
        assert_eq!(app.get(&status).await.body["freeBackfills"], false, "no source");
        // Hacker News serves forums only: still none for a twitter tracker.
        app.send_json("PUT", "/api/v1/admin/connectors/hackernews", json!({"enabled": true})).await;
        assert_eq!(app.get(&status).await.body["freeBackfills"], false);
        unreachable_x(&app).await;
        assert_eq!(app.get(&status).await.body["freeBackfills"], true);

        let (trial, token, trial_id) = sign_in(&app, "tina@example.org", true).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_member(row.id, trial_id, hark_core::Permission::Editor).await.unwrap();
        assert_eq!(send(trial.get(app.url(&status))).await.body["freeBackfills"], false);
        let today = jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::UTC).date();
        let day = |n: i64| (today - jiff::Span::new().days(n)).to_string();
        let r = send(
            trial
                .post(app.url(&format!("/api/v1/trackers/{hash}/backfill")))
                .header("X-CSRF-Token", &token)
                .json(&json!({"start": day(3), "end": day(1)})),
        )
        .await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("upgrade_required")));
        assert!(!app.store.backfill_active(row.id).await.unwrap());
    }
}
