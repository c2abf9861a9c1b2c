//! Connector settings and collection status over HTTP, on SQLite and (when configured)
//! PostgreSQL.

use axum::routing::get;
use axum::Router;
use hark_testkit::{backends, csrf_of, send, TestApp};
use serde_json::{json, Value};

async fn fake_x() -> String {
    // Enough of X's recent search for a settings check: the bearer token decides.
    let router = Router::new().route(
        "/2/tweets/search/recent",
        get(|h: axum::http::HeaderMap| async move {
            if h.get("authorization").and_then(|v| v.to_str().ok()) == Some("Bearer good-token") {
                (axum::http::StatusCode::OK, axum::Json(json!({"meta": {"result_count": 0}})))
            } else {
                (
                    axum::http::StatusCode::UNAUTHORIZED,
                    axum::Json(json!({"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"})),
                )
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

fn connector<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array().unwrap().iter().find(|c| c["name"] == name).unwrap()
}

#[tokio::test]
async fn admins_save_and_check_credentials_that_are_never_echoed() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let x = fake_x().await;
        let list = app.get("/api/v1/admin/connectors").await;
        assert_eq!(list.status, 200);
        let tw = connector(&list.body, "twitter");
        assert_eq!((tw["status"].as_str(), tw["enabled"].as_bool()), (Some("not_configured"), Some(false)));
        assert_eq!(tw["fields"][0]["name"], "bearer_token");
        assert_eq!(tw["fields"][0]["secret"], true);

        // Switching on without the token is refused with the missing field named.
        let r = app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true})).await;
        assert_eq!(r.status, 422);
        assert_eq!(r.body["error"]["code"], "connector_incomplete");
        assert!(r.body["error"]["message"].as_str().unwrap().contains("Bearer token"));
        let r = app
            .send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": "ftp://x", "values": {"bearer_token": "t"}}))
            .await;
        assert_eq!(r.body["error"]["code"], "invalid_base_url");
        let r = app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "values": {"password": "t"}})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("unknown_field")));
        assert_eq!(app.send_json("PUT", "/api/v1/admin/connectors/myspace", json!({"enabled": false})).await.status, 404);

        let r = app
            .send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "bad-token"}}))
            .await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["fields"][0]["isSet"], true);
        assert!(r.body["fields"][0].get("value").is_none_or(Value::is_null), "a secret is never sent back");
        assert!(!r.body.to_string().contains("bad-token"));
        let r = app.post("/api/v1/admin/connectors/twitter/check", json!({})).await;
        assert_eq!((r.body["status"].as_str(), r.body["statusMessage"].as_str()), (Some("error"), Some("credentials rejected: Unauthorized")));

        // A blank secret keeps the saved one; a new one replaces it.
        let r = app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": ""}})).await;
        assert_eq!(r.body["fields"][0]["isSet"], true);
        assert_eq!(r.body["status"], "unchecked");
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "good-token"}})).await;
        let r = app.post("/api/v1/admin/connectors/twitter/check", json!({})).await;
        assert_eq!(r.body["status"], "working", "{:?}", r.body);
        let list = app.get("/api/v1/admin/connectors").await.body;
        assert!(!list.to_string().contains("good-token"));
        assert_eq!(connector(&list, "twitter")["enabled"], true);
        assert_eq!(connector(&list, "twitter")["baseUrl"], x);

        // Multi-line fields come back as saved; clearing erases.
        let r = app
            .send_json("PUT", "/api/v1/admin/connectors/rss", json!({"enabled": false, "values": {"feeds": "https://a.example/rss\nblogs https://b.example/atom"}}))
            .await;
        assert_eq!(r.body["fields"][0]["value"], "https://a.example/rss\nblogs https://b.example/atom");
        let r = app.send_json("PUT", "/api/v1/admin/connectors/rss", json!({"enabled": false, "clear": ["feeds"]})).await;
        assert_eq!(r.body["fields"][0]["isSet"], false);
    }
}

#[tokio::test]
async fn only_instance_admins_manage_connectors_and_editors_see_status() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let hash_pw = hark_api::auth::hash_password("password123").unwrap();
        let bob = app
            .store
            .create_user(&hark_api::routes::session::self_hosted_user("bob@example.org".into(), hash_pw, "Bob".into(), false), 1)
            .await
            .unwrap();
        let (client, jar) = app.new_browser();
        let token = csrf_of(&client, &jar, &app.base).await;
        let login = send(client.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &token).json(&json!({"email": "bob@example.org", "password": "password123"}))).await;
        assert_eq!(login.status, 200);
        let token = csrf_of(&client, &jar, &app.base).await;
        assert_eq!(send(client.get(app.url("/api/v1/admin/connectors"))).await.status, 403);
        let put = send(client.put(app.url("/api/v1/admin/connectors/hackernews")).header("X-CSRF-Token", &token).json(&json!({"enabled": true}))).await;
        assert_eq!(put.status, 403);
        assert_eq!(send(client.post(app.url("/api/v1/admin/connectors/hackernews/check")).header("X-CSRF-Token", &token)).await.status, 403);
        // Signed out: 401.
        let (anon, _) = app.new_browser();
        assert_eq!(send(anon.get(app.url("/api/v1/admin/connectors"))).await.status, 401);

        // Collection status: hidden from strangers, refused to viewers, shown to editors.
        let path = format!("/api/v1/trackers/{hash}/collection");
        assert_eq!(send(client.get(app.url(&path))).await.status, 404);
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_member(row.id, bob.id, hark_core::Permission::Viewer).await.unwrap();
        assert_eq!(send(client.get(app.url(&path))).await.status, 403);
        app.store.set_member(row.id, bob.id, hark_core::Permission::Editor).await.unwrap();
        let status = send(client.get(app.url(&path))).await;
        assert_eq!(status.status, 200);
        assert_eq!(
            status.body,
            json!({"collecting": false, "backfillInProgress": false, "freeBackfills": false, "jobs": [], "streams": []})
        );

        // With a connector on, the scheduler's job shows; "collect now" makes it due.
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "values": {"bearer_token": "t"}})).await;
        let bits = hark_collect::ConnectorKind::Twitter.platform_bits();
        app.store.ensure_poll_jobs(&[("twitter", bits)], 1).await.unwrap();
        let job = app.store.tracker_jobs(row.id).await.unwrap().remove(0);
        app.store.set_job_due(job.id, i64::MAX / 2).await.unwrap();
        let s = app.get(&path).await.body;
        assert_eq!(s["collecting"], true);
        assert_eq!(s["jobs"][0]["connector"], "twitter");
        assert_eq!(s["jobs"][0]["nextRunAt"], i64::MAX / 2);
        assert!(s["jobs"][0]["lastCollectedAt"].is_null() && s["jobs"][0]["lastError"].is_null());
        let run = send(client.post(app.url(&format!("{path}/run"))).header("X-CSRF-Token", &token)).await;
        assert_eq!(run.status, 200);
        assert!(run.body["jobs"][0]["nextRunAt"].as_i64().unwrap() <= hark_core::now_millis());
    }
}

#[tokio::test]
async fn backfills_are_validated_queued_once_and_flag_the_tracker() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let path = format!("/api/v1/trackers/{hash}/backfill");
        let today = jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::UTC).date();
        let day = |n: i64| (today - jiff::Span::new().days(n)).to_string();
        let r = app.post(&path, json!({"start": day(3), "end": day(1)})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("no_connector")));
        // Nothing listens on port 9: estimates fail fast without leaving the machine.
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": "http://127.0.0.1:9", "values": {"bearer_token": "t"}})).await;
        // Hacker News is on too but the tracker does not follow forums: no job for it.
        app.send_json("PUT", "/api/v1/admin/connectors/hackernews", json!({"enabled": true})).await;
        for (body, code) in [
            (json!({"start": "yesterday", "end": day(1)}), "invalid_date"),
            (json!({"start": day(1), "end": day(3)}), "invalid_range"),
            (json!({"start": day(400), "end": day(1)}), "invalid_range"),
            (json!({"start": day(-2), "end": day(-1)}), "invalid_range"),
        ] {
            let r = app.post(&path, body.clone()).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some(code)), "{body}");
        }
        assert_eq!(app.post(&path, json!({"start": day(3)})).await.status, 400);
        // The estimate: Hacker News is not among the tracker's sources; X is unreachable.
        let est = app.get(&format!("{path}/estimate?start={}&end={}", day(3), day(1))).await;
        assert_eq!(est.status, 200, "{:?}", est.body);
        assert_eq!(est.body["sources"].as_array().unwrap().len(), 1);
        assert_eq!(est.body["sources"][0]["connector"], "twitter");
        assert_eq!(est.body["complete"], false);
        assert!(est.body["sources"][0]["error"].is_string());
        let bad = app.get(&format!("{path}/estimate?start={}&end={}", day(1), day(3))).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (422, Some("invalid_range")));
        let r = app.post(&path, json!({"start": day(3), "end": day(1)})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["backfillInProgress"], true);
        let jobs = r.body["jobs"].as_array().unwrap();
        assert_eq!(jobs.len(), 1);
        assert_eq!((jobs[0]["connector"].as_str(), jobs[0]["kind"].as_str()), (Some("twitter"), Some("backfill")));
        let start = jiff::civil::Date::strptime("%Y-%m-%d", day(3)).unwrap().to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp().as_millisecond();
        assert_eq!(jobs[0]["rangeStart"], start);
        assert_eq!(jobs[0]["rangeEnd"], start + 3 * 86_400_000);
        let again = app.post(&path, json!({"start": day(3), "end": day(1)})).await;
        assert_eq!((again.status, again.body["error"]["code"].as_str()), (409, Some("backfill_in_progress")));
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.body["isBackfilling"], true);
    }
}

/// The real-time preview: a websocket that samples the tracker's sources and streams the posts
/// it stores, then the completion events; other sites cannot open it.
#[tokio::test]
async fn preview_stream_sends_posts_then_completion_events() {
    use futures_util::StreamExt;
    use reqwest::cookie::CookieStore;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = app.create_tracker("rust").await["hash"].as_str().unwrap().to_string();
        // A fake X recent search with 5 matching tweets of the last hours and 2 that do not match.
        let router = Router::new().route(
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
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let x = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "t"}})).await;

        let (client, jar) = app.new_browser();
        let token = csrf_of(&client, &jar, &app.base).await;
        let login = send(client.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &token).json(&json!({"email": "admin@example.org", "password": "password123"}))).await;
        assert_eq!(login.status, 200);
        let cookies = jar.cookies(&app.base.parse().unwrap()).unwrap();
        let ws_url = format!("{}/api/v1/trackers/{hash}/preview/stream", app.base.replace("http://", "ws://"));
        let host = app.base.trim_start_matches("http://").to_string();

        let mut evil = ws_url.as_str().into_client_request().unwrap();
        evil.headers_mut().insert("cookie", cookies.clone());
        evil.headers_mut().insert("origin", "https://evil.example".parse().unwrap());
        assert!(tokio_tungstenite::connect_async(evil).await.is_err(), "a cross-site page cannot open the stream");

        let mut req = ws_url.as_str().into_client_request().unwrap();
        req.headers_mut().insert("cookie", cookies);
        req.headers_mut().insert("origin", format!("http://{host}").parse().unwrap());
        let (mut ws, _) = tokio_tungstenite::connect_async(req).await.expect("websocket opens");
        let mut events: Vec<Value> = Vec::new();
        while let Some(msg) = tokio::time::timeout(std::time::Duration::from_secs(20), ws.next()).await.expect("events arrive") {
            match msg.unwrap() {
                tokio_tungstenite::tungstenite::Message::Text(t) => events.push(serde_json::from_str(&t).unwrap()),
                tokio_tungstenite::tungstenite::Message::Close(_) => break,
                _ => {}
            }
        }
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["posts", "fetching_complete", "processing_complete"], "{events:?}");
        let ids: Vec<&str> = events[0]["posts"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        assert_eq!(ids.len(), 5, "only the matching tweets: {ids:?}");
        assert_eq!(events[0]["posts"][0]["author"]["username"], "ferris");
        assert_eq!(events[2]["total"], 5);
        // The sampled posts are stored: the dashboard counts them.
        let total = app.get(&format!("/api/v1/trackers/{hash}/total-posts?days=2")).await;
        assert_eq!(total.body["count"]["posts"], 5);
    }
}

/// X's tweet lookup (`GET /2/tweets?ids=`) as documented: found tweets in `data` with their
/// authors in `includes.users`, unknown ids as resource-not-found entries in `errors`.
async fn fake_x_lookup() -> String {
    let router = Router::new().route(
        "/2/tweets",
        get(|q: axum::extract::Query<std::collections::HashMap<String, String>>| async move {
            let id = q.get("ids").cloned().unwrap_or_default();
            let text = match id.as_str() {
                "1001" => "Fresh coffee from the new roaster",
                "1002" => "A cup of green tea",
                _ => {
                    return axum::Json(json!({"errors": [{"value": id, "detail": format!("Could not find tweet with ids: [{id}]."),
                        "title": "Not Found Error", "resource_type": "tweet", "parameter": "ids", "resource_id": id,
                        "type": "https://api.twitter.com/2/problems/resource-not-found"}]}))
                }
            };
            let created = jiff::Timestamp::from_millisecond(hark_core::now_millis() - 3_600_000).unwrap().to_string();
            axum::Json(json!({
                "data": [{"id": id, "text": text, "author_id": "77", "created_at": created, "lang": "en",
                    "public_metrics": {"retweet_count": 2, "reply_count": 1, "like_count": 9, "quote_count": 0, "impression_count": 300}}],
                "includes": {"users": [{"id": "77", "name": "Bean Counter", "username": "beancounter",
                    "public_metrics": {"followers_count": 1200, "following_count": 10, "tweet_count": 50, "listed_count": 1}}]}
            }))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

#[tokio::test]
async fn posts_added_by_address_are_fetched_from_the_platform() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let add = |urls: Value| {
            let app = &app;
            let hash = hash.clone();
            async move { app.post(&format!("/api/v1/trackers/{hash}/posts/add"), json!({"urls": urls})).await }
        };
        // No X source yet: the row says so.
        let r = add(json!(["https://x.com/beancounter/status/1001"])).await;
        assert_eq!(r.body["results"][0]["added"], false, "{:?}", r.body);
        assert!(r.body["results"][0]["error"].as_str().unwrap().contains("no X source"), "{:?}", r.body);

        let x = fake_x_lookup().await;
        let saved = app
            .send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "baseUrl": x, "values": {"bearer_token": "t"}}))
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        let r = add(json!([
            "https://x.com/beancounter/status/1001",
            "https://twitter.com/beancounter/status/1002",
            "https://x.com/beancounter/status/1003",
            "https://www.youtube.com/watch?v=abc"
        ]))
        .await;
        let res = r.body["results"].as_array().unwrap();
        assert_eq!(res[0]["added"], true, "{:?}", r.body);
        assert_eq!(res[1]["error"], "Post did not contain search terms/criteria");
        assert_eq!(res[2]["error"], "X has no post at this address (deleted, private or never posted).");
        assert_eq!(res[3]["error"], "This tracker does not collect youtube posts.");

        let list = app.get(&format!("/api/v1/trackers/{hash}/posts?days=30")).await.body;
        assert_eq!(list["total"], 1, "{list:?}");
        let p = &list["posts"][0];
        assert_eq!(p["key"], "twitter;1001");
        assert_eq!(p["post"]["author"]["username"], "beancounter");
        assert_eq!(p["post"]["text"], "Fresh coffee from the new roaster");
        // Adding it again finds the stored copy and keeps one.
        assert_eq!(add(json!(["https://x.com/beancounter/status/1001"])).await.body["results"][0]["added"], true);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/posts?days=30")).await.body["total"], 1);
    }
}

#[tokio::test]
async fn new_platforms_and_streaming_connectors_over_http() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let list = app.get("/api/v1/admin/connectors").await.body;
        let bsky = connector(&list, "bluesky");
        assert_eq!((bsky["collectsBy"].as_str(), bsky["platforms"][0].as_str()), (Some("stream"), Some("bsky")));
        assert_eq!(bsky["baseUrlSchemes"], json!(["ws://", "wss://"]));
        assert_eq!(bsky["defaultBaseUrl"], "wss://jetstream2.us-east.bsky.network");
        let masto = connector(&list, "mastodon");
        assert_eq!((masto["collectsBy"].as_str(), masto["platforms"][0].as_str()), (Some("poll"), Some("mastodon")));
        assert_eq!(masto["fields"][0]["name"], "servers");
        let tw = connector(&list, "twitter");
        assert_eq!(tw["fields"][1]["name"], "mode");
        assert_eq!(tw["fields"][1]["options"][1], json!({"value": "stream", "label": "Filtered stream"}));

        // Jetstream is a websocket: an https base URL is refused, a wss one kept.
        let r = app.send_json("PUT", "/api/v1/admin/connectors/bluesky", json!({"enabled": true, "baseUrl": "https://jetstream.example"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_base_url")));
        assert!(r.body["error"]["message"].as_str().unwrap().contains("wss://"));
        let r = app.send_json("PUT", "/api/v1/admin/connectors/bluesky", json!({"enabled": true, "baseUrl": "wss://jetstream.example"})).await;
        assert_eq!((r.status, r.body["enabled"].as_bool()), (200, Some(true)), "{:?}", r.body);
        // Mastodon needs a server to be switched on.
        let r = app.send_json("PUT", "/api/v1/admin/connectors/mastodon", json!({"enabled": true})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("connector_incomplete")));
        let r = app.send_json("PUT", "/api/v1/admin/connectors/mastodon", json!({"enabled": true, "values": {"servers": "https://mastodon.example"}})).await;
        assert_eq!(r.status, 200);
        // X: recent search or filtered stream, nothing else.
        let r = app.send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": false, "values": {"mode": "firehose"}})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_choice")));
        assert!(r.body["error"]["message"].as_str().unwrap().contains("recent, stream"));
        let r = app
            .send_json("PUT", "/api/v1/admin/connectors/twitter", json!({"enabled": true, "values": {"bearer_token": "t", "mode": "stream"}}))
            .await;
        assert_eq!((r.status, r.body["collectsBy"].as_str()), (200, Some("stream")));

        // Trackers follow the new platforms.
        let r = app
            .post("/api/v1/trackers", json!({"platforms": {"bsky": 1, "mastodon": 1}, "search": {"rows": [{"type": "+", "searches": ["#rust"]}]},
                "usernames": {"mastodon": ["https://93.184.216.34"]}}))
            .await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        assert_eq!((r.body["platforms"]["bsky"].as_i64(), r.body["platforms"]["mastodon"].as_i64(), r.body["platforms"]["twt"].as_i64()), (Some(1), Some(1), Some(0)));
        let hash = r.body["hash"].as_str().unwrap().to_string();
        // The tracker's collection status names the Bluesky stream (not started in tests).
        let r = app.get(&format!("/api/v1/trackers/{hash}/collection")).await;
        assert_eq!(r.body["streams"].as_array().unwrap().len(), 1, "{:?}", r.body);
        assert_eq!((r.body["streams"][0]["connector"].as_str(), r.body["streams"][0]["running"].as_bool()), (Some("bluesky"), Some(false)));
        // Backfill sources: Jetstream cannot fetch a past period; Mastodon can.
        let day = |back: i64| (jiff::Zoned::now().date() - jiff::Span::new().days(back)).to_string();
        let r = app.get(&format!("/api/v1/trackers/{hash}/backfill/estimate?start={}&end={}", day(3), day(1))).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let names: Vec<&str> = r.body["sources"].as_array().unwrap().iter().filter_map(|s| s["connector"].as_str()).collect();
        assert_eq!(names, vec!["mastodon"]);
    }
}

#[tokio::test]
async fn tracker_addresses_may_not_reach_private_networks() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.setup_admin().await;
        let make = |usernames: Value| {
            json!({"platforms": {"news": 1, "mastodon": 1}, "search": {"rows": [{"type": "+", "searches": ["rust"]}]}, "usernames": usernames})
        };
        // A host name that resolves to this machine, a literal private address, a private server.
        for (usernames, needle) in [
            (json!({"web": ["http://localhost:8080/feed.xml"]}), "localhost"),
            (json!({"web": ["blogs http://10.0.0.5/atom"]}), "10.0.0.5"),
            (json!({"web": ["http://no-such-host.invalid/rss"]}), "does not resolve"),
            (json!({"mastodon": ["https://127.0.0.1:3000"]}), "Mastodon server"),
        ] {
            let r = app.post("/api/v1/trackers", make(usernames)).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("private_address")), "{:?}", r.body);
            assert!(r.body["error"]["message"].as_str().unwrap().contains(needle), "{:?}", r.body);
        }
        // Account names are not addresses; a public literal address needs no lookup.
        let r = app.post("/api/v1/trackers", make(json!({"web": ["techcrunch", "https://93.184.216.34/feed"]}))).await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        // An edit checks the new entries.
        let hash = r.body["hash"].as_str().unwrap();
        let r = app.send_json("PATCH", &format!("/api/v1/trackers/{hash}"), make(json!({"web": ["techcrunch", "http://localhost/x"]}))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("private_address")));
    }
}
