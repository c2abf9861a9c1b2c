//! Hardening: the content security policy on every answer, rate limits of public requests (429
//! `rate_limited` with Retry-After), secrets sealed at rest (rows from before sealing still read
//! and get sealed), and the audit log of rank changes, hand-overs, share-link changes and
//! deletions; on SQLite and (when configured) PostgreSQL.

use std::sync::Arc;
use std::time::Duration;

use hark_api::limits::{Rate, RateLimits};
use hark_api::secrets::SecretKey;
use hark_api::ApiConfig;
use hark_core::Permission;
use hark_store::Backend;
use hark_testkit::{backends, send, TestApp};
use serde_json::{json, Value};

/// The first column of every row `sql` selects, read straight from the test's database.
async fn raw(app: &TestApp, sql: &str) -> Vec<Option<String>> {
    match app.db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&app.db.url).await.expect("sqlite");
            sqlx::query_scalar(sql).fetch_all(&pool).await.expect("query")
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&app.db.url).await.expect("postgres");
            sqlx::query_scalar(sql).fetch_all(&pool).await.expect("query")
        }
    }
}

#[tokio::test]
async fn every_answer_carries_a_strict_content_security_policy() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for path in ["/api/v1/health", "/api/v1/me", "/api/v1/nothing-here", "/hashtag-tracking/dashboard/abcdefgh/x"] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        let csp = res.headers()["content-security-policy"].to_str().unwrap().to_string();
        let script = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")).expect("script-src");
        assert_eq!(script, "script-src 'self'", "{path}: {csp}");
        assert!(!csp.contains("unsafe-eval"), "{path}: {csp}");
        assert_eq!(csp.matches("unsafe-inline").count(), 1, "inline styles only: {csp}");
        assert!(csp.contains("style-src 'self' 'unsafe-inline'"), "{path}: {csp}");
        assert!(csp.contains("object-src 'none'") && csp.contains("base-uri 'none'"), "{path}: {csp}");
        assert!(csp.ends_with("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(res.headers()["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(res.headers()["referrer-policy"], "same-origin", "{path}");
    }
    let res = app.client.get(app.url("/hashtag-tracking/dashboard/abcdefgh/x?embed=1&chart=timeline")).send().await.unwrap();
    let csp = res.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.ends_with("frame-ancestors *"), "{csp}");
}

/// Rate limits for a test: `burst` requests of each kind, refilled once an hour.
fn tight(burst: u32) -> RateLimits {
    let r = Rate::new(burst, Duration::from_secs(3600));
    RateLimits { public: r, setup: r, tokens: r, share: r }
}

fn assert_limited(r: &hark_testkit::Response, what: &str) {
    assert_eq!(r.status, 429, "{what}: {:?}", r.body);
    assert_eq!(r.body["error"]["code"], "rate_limited", "{what}: {:?}", r.body);
    assert!(r.body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}");
}

#[tokio::test]
async fn public_requests_over_their_limit_are_refused_with_retry_after() {
    // Signed-out requests and share-link reads share one bucket per address; signed-in
    // requests without a public key are not counted in it.
    let public = RateLimits { public: Rate::new(12, Duration::from_secs(3600)), ..RateLimits::default() };
    let app = TestApp::spawn_with(Backend::Sqlite, ApiConfig { rate_limits: Some(public), ..Default::default() }).await;
    app.setup_admin().await;
    let hash = app.create_tracker("nike").await["hash"].as_str().unwrap().to_string();
    for _ in 0..30 {
        assert_eq!(app.get("/api/v1/trackers").await.status, 200, "a signed-in user is not limited");
    }
    let share_hash = app.get(&format!("/api/v1/trackers/{hash}/share")).await.body["shareHash"].as_str().unwrap().to_string();
    let anon = reqwest::Client::new();
    let mut refused = None;
    for i in 0..30 {
        let res = anon.get(app.url(&format!("/api/v1/trackers/{hash}?shareHash={share_hash}"))).send().await.unwrap();
        if res.status() == 429 {
            refused = Some((i, res));
            break;
        }
        assert_eq!(res.status(), 200);
    }
    let (i, res) = refused.expect("the share-link visitor is limited");
    assert!(i <= 12, "refused after {i} requests");
    let wait: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&wait), "{wait}");
    assert!(res.headers()["content-security-policy"].to_str().unwrap().contains("script-src 'self'"), "a refusal has the headers too");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    // The same address through the signed-in admin's share link is refused too.
    assert_limited(&app.get(&format!("/api/v1/trackers/{hash}?shareHash={share_hash}")).await, "share link, signed in");
    assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.status, 200);

    // Setup, invitation and unsubscribe links, and share-link changes have buckets of their own.
    let app = TestApp::spawn_with(Backend::Sqlite, ApiConfig { rate_limits: Some(RateLimits { public: Rate::new(1000, Duration::from_secs(1)), ..tight(2) }), ..Default::default() }).await;
    app.setup_admin().await;
    assert_eq!(app.post("/api/v1/setup", json!({"email": "b@example.org", "password": "password123"})).await.status, 409);
    assert_limited(&app.post("/api/v1/setup", json!({"email": "b@example.org", "password": "password123"})).await, "setup");
    assert_eq!(app.get("/api/v1/setup").await.status, 200, "asking is not limited");
    assert_eq!(app.get("/api/v1/invitations/nosuchtoken").await.status, 404);
    assert_eq!(app.post("/api/v1/unsubscribe?token=nosuchtoken", json!({})).await.status / 100, 4);
    assert_limited(&app.get("/api/v1/invitations/nosuchtoken").await, "invitation link");
    let a = app.create_tracker("nike").await["hash"].as_str().unwrap().to_string();
    let b = app.create_tracker("adidas").await["hash"].as_str().unwrap().to_string();
    assert_eq!(app.send_json("PUT", &format!("/api/v1/trackers/{a}/share"), json!({"unlockDate": true})).await.status, 200);
    assert_eq!(app.post(&format!("/api/v1/trackers/{a}/share/revoke"), json!({})).await.status, 200);
    assert_limited(&app.send_json("PUT", &format!("/api/v1/trackers/{a}/share"), json!({"unlockDate": false})).await, "share change");
    assert_eq!(app.get(&format!("/api/v1/trackers/{a}/share")).await.status, 200, "reading the share settings is not limited");
    assert_eq!(app.send_json("PUT", &format!("/api/v1/trackers/{b}/share"), json!({"unlockDate": true})).await.status, 200, "another tracker");

    // Sign-in answers 429 with Retry-After too.
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut last = None;
    for _ in 0..11 {
        last = Some(app.post("/api/v1/auth/login", json!({"email": "who@example.org", "password": "wrong-password"})).await);
    }
    assert_limited(&last.unwrap(), "sign-in");
    let token = app.csrf().await;
    let res = app.client.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", token).json(&json!({"email": "who@example.org", "password": "x"})).send().await.unwrap();
    assert!(res.headers()["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);
}

#[tokio::test]
async fn connector_and_webhook_secrets_are_sealed_at_rest() {
    for backend in backends() {
        let key = SecretKey::random();
        let app = TestApp::spawn_with(backend, ApiConfig { secret_key: Some(key.clone()), ..Default::default() }).await;
        app.setup_admin().await;
        // A row written before secrets were sealed (a store without the key writes as given).
        app.store
            .save_connector_settings("tiktok", false, None, r#"{"client_key":"old-key","client_secret":"old-secret"}"#, 1)
            .await
            .unwrap();
        let saved = app
            .send_json("PUT", "/api/v1/admin/connectors/reddit", json!({"enabled": false, "values": {"client_id": "my-id", "client_secret": "s3cret-value"}}))
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        let configs = raw(&app, "SELECT config FROM connector_settings ORDER BY connector").await;
        let (reddit, tiktok) = (configs[0].clone().unwrap(), configs[1].clone().unwrap());
        assert!(reddit.starts_with("sealed:") && !reddit.contains("s3cret") && !reddit.contains("my-id"), "{reddit}");
        assert!(tiktok.contains("old-secret"), "the old row is as it was written: {tiktok}");
        // Both read back: the old row as it is, the new one opened.
        let list = app.get("/api/v1/admin/connectors").await.body;
        let field = |connector: &str, name: &str| -> Value {
            let c = list.as_array().unwrap().iter().find(|c| c["name"] == connector).unwrap();
            c["fields"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone()
        };
        assert_eq!(field("reddit", "client_id")["value"], "my-id");
        assert_eq!((field("reddit", "client_secret")["isSet"].clone(), field("reddit", "client_secret")["value"].clone()), (json!(true), Value::Null));
        assert_eq!(field("tiktok", "client_key")["value"], "old-key");
        assert_eq!(field("tiktok", "client_secret")["isSet"], true);

        // A server start seals what is still in the clear; the collector reads it all the same.
        let keyed = app.store.clone().with_secret_key(Arc::new(key.clone()));
        assert_eq!(keyed.seal_plain_secrets().await.unwrap(), 1);
        assert_eq!(keyed.seal_plain_secrets().await.unwrap(), 0, "once");
        let tiktok = raw(&app, "SELECT config FROM connector_settings WHERE connector = 'tiktok'").await[0].clone().unwrap();
        assert!(tiktok.starts_with("sealed:") && !tiktok.contains("old-secret"), "{tiktok}");
        let config = hark_collect::config_from_row(&keyed.connector_setting("tiktok").await.unwrap().unwrap());
        assert_eq!(config.value("client_secret"), Some("old-secret"));
        // Another key opens nothing (the connector reads as not configured).
        let stranger = app.store.clone().with_secret_key(Arc::new(SecretKey::random()));
        assert_eq!(stranger.connector_setting("tiktok").await.unwrap().unwrap().config, "{}");

        // A webhook's signing secret is stored sealed and shown to the tracker's admins.
        let hash = app.create_tracker("nike").await["hash"].as_str().unwrap().to_string();
        let path = format!("/api/v1/trackers/{hash}/notifications");
        let mut settings = app.get(&path).await.body["settings"].clone();
        settings["webhook"]["url"] = json!("https://hooks.example.org/hark");
        let r = app.send_json("PUT", &path, settings).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let secret = r.body["webhookSecret"].as_str().unwrap().to_string();
        let stored = raw(&app, "SELECT webhook_secret FROM notification_settings").await[0].clone().unwrap();
        assert!(stored.starts_with("sealed:") && !stored.contains(&secret), "{stored}");
        // The settings (webhook and Slack addresses, recipients) are sealed too.
        let stored = raw(&app, "SELECT settings FROM notification_settings").await[0].clone().unwrap();
        assert!(stored.starts_with("sealed:") && !stored.contains("hooks.example.org") && !stored.contains("admin@"), "{stored}");
        let read = app.get(&path).await.body;
        assert_eq!((read["webhookSecret"].as_str(), read["settings"]["webhook"]["url"].as_str()), (Some(secret.as_str()), Some("https://hooks.example.org/hark")));
        // Settings from before sealing are read, then sealed at the next start.
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let plain = app.store.notification_settings(row.id).await.unwrap();
        assert!(plain.is_some_and(|r| r.settings == "{}"), "a store without the key opens nothing");
        let other = app.create_tracker("tea").await["hash"].as_str().unwrap().to_string();
        let other_id = app.store.tracker_by_hash(&other).await.unwrap().unwrap().id;
        let defaults = serde_json::to_string(&hark_core::notify::NotificationSettings::defaults("old@example.org")).unwrap();
        let memory = hark_store::EngineMemory::default();
        app.store.ensure_notification_settings(other_id, &defaults, &memory, None, 1).await.unwrap();
        let other_path = format!("/api/v1/trackers/{other}/notifications");
        assert_eq!(app.get(&other_path).await.body["settings"]["alerts"]["recipients"], json!(["old@example.org"]));
        assert_eq!(keyed.seal_plain_secrets().await.unwrap(), 1);
        assert!(raw(&app, &format!("SELECT settings FROM notification_settings WHERE tracker_id = {other_id}")).await[0].as_deref().unwrap().starts_with("sealed:"));
        assert_eq!(app.get(&other_path).await.body["settings"]["alerts"]["recipients"], json!(["old@example.org"]));
        // Settings another key sealed show as the defaults, addressed to the caller.
        let stranger = app.store.clone().with_secret_key(Arc::new(SecretKey::random()));
        let mut replaced = serde_json::to_string(&hark_core::notify::NotificationSettings::defaults("x@example.org")).unwrap();
        replaced = stranger.save_notification_settings(row.id, &replaced, None, &memory, false, None, 1).await.unwrap().settings;
        assert!(replaced.contains("x@example.org"));
        let shown = app.get(&path).await;
        assert_eq!((shown.status, shown.body["settings"]["alerts"]["recipients"].clone()), (200, json!(["admin@example.org"])));
    }
}

/// The audit log's entries as the API lists them: (action, detail).
async fn entries(app: &TestApp, path: &str) -> Vec<(String, Value)> {
    let r = app.get(path).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    r.body["entries"].as_array().unwrap().iter().map(|e| (e["action"].as_str().unwrap().to_string(), e["detail"].clone())).collect()
}

#[tokio::test]
async fn rank_share_and_deletion_changes_are_audited() {
    for backend in backends() {
        // More share-link changes than a person makes: the test pages through 90 of them.
        let limits = RateLimits { share: Rate::new(1000, Duration::from_millis(1)), ..RateLimits::default() };
        let app = TestApp::spawn_with(backend, ApiConfig { rate_limits: Some(limits), ..Default::default() }).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let audit = format!("/api/v1/trackers/{hash}/audit");
        assert_eq!(app.get(&audit).await.body, json!({"entries": [], "next": null}));
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let bob = app.store.create_user(&hark_testkit::new_user("bob@example.org"), 1).await.unwrap().id;
        app.store.set_member(row.id, bob, Permission::Viewer).await.unwrap();

        // Ranks: a change, the same rank again (nothing to record), a hand-over.
        assert_eq!(app.send_json("PATCH", &format!("/api/v1/trackers/{hash}/members/{bob}"), json!({"permission": 2})).await.status, 200);
        assert_eq!(app.send_json("PATCH", &format!("/api/v1/trackers/{hash}/members/{bob}"), json!({"permission": 2})).await.status, 200);
        // Share link: two toggles and a custom URL in one save, a save changing nothing, a revoke.
        let share = format!("/api/v1/trackers/{hash}/share");
        let r = app.send_json("PUT", &share, json!({"customUrl": "my-coffee", "unlockDate": true, "linkSharing": {"editDateRange": true, "exportReports": false, "viewPredictions": false}})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(app.send_json("PUT", &share, json!({"unlockDate": true})).await.status, 200);
        assert_eq!(app.post(&format!("{share}/revoke"), json!({})).await.status, 200);
        // A save that fails (a custom URL another tracker has) records nothing.
        let other = app.create_tracker("tea").await["hash"].as_str().unwrap().to_string();
        assert_eq!(app.send_json("PUT", &format!("/api/v1/trackers/{other}/share"), json!({"customUrl": "my-coffee"})).await.status, 409);
        assert_eq!(entries(&app, &format!("/api/v1/trackers/{other}/audit")).await, vec![]);
        // Posts deleted in bulk and brought back (a post not in the tracker is not counted).
        let now = hark_core::now_millis();
        let posts: Vec<Value> = (1..=3)
            .map(|i| json!({"platform": "twitter", "id": i.to_string(), "text": format!("coffee {i}"), "createdAt": now - i * 60_000, "author": {"username": "ann"}}))
            .collect();
        assert_eq!(app.import_posts(&hash, &posts).await.body["imported"], 3);
        let del = app.post(&format!("/api/v1/trackers/{hash}/posts/delete"), json!({"posts": ["twitter;1", "twitter;2", "twitter;99"]})).await;
        assert_eq!(del.body["count"], 2, "{:?}", del.body);
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/posts/undo-delete"), json!({"posts": ["twitter;1"]})).await.body["count"], 1);
        // Deleting nothing that is there records nothing.
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/posts/delete"), json!({"posts": ["twitter;99"]})).await.body["count"], 0);
        // Removing a member.
        let cy = app.store.create_user(&hark_testkit::new_user("cy@example.org"), 1).await.unwrap().id;
        app.store.set_member(row.id, cy, Permission::Administrator).await.unwrap();
        assert_eq!(app.delete(&format!("/api/v1/trackers/{hash}/members/{cy}")).await.status, 204);

        let got = entries(&app, &audit).await;
        let actions: Vec<&str> = got.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(actions, ["member_removed", "posts_restored", "posts_deleted", "share_revoked", "share_changed", "member_rank_changed"]);
        assert_eq!(got[0].1, json!({"member": "cy@example.org", "from": "administrator"}));
        assert_eq!(got[1].1, json!({"posts": ["twitter;1"], "count": 1}));
        assert_eq!(got[2].1, json!({"posts": ["twitter;1", "twitter;2", "twitter;99"], "count": 2}));
        assert_eq!(
            got[4].1["changes"],
            json!([
                {"setting": "editDateRange", "from": false, "to": true},
                {"setting": "unlockDate", "from": false, "to": true},
                {"setting": "customUrl", "from": null, "to": "my-coffee"},
            ])
        );
        assert_eq!(got[5].1, json!({"member": "bob@example.org", "from": "viewer", "to": "editor"}));
        let first = &app.get(&audit).await.body["entries"][0];
        assert_eq!((first["actor"].as_str(), first["trackerHash"].as_str()), (Some("admin@example.org"), Some(hash.as_str())));
        assert!(first["createdAt"].as_i64().unwrap() >= now);

        // Hand-over, then deletion: the tracker's entries stay for the instance administrator.
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/owner"), json!({"userId": bob})).await.status, 200);
        assert_eq!(entries(&app, &audit).await[0], ("owner_changed".into(), json!({"member": "bob@example.org", "from": "admin@example.org", "to": "bob@example.org"})));
        assert_eq!(app.delete(&format!("/api/v1/trackers/{hash}")).await.status, 200);
        assert_eq!(app.get(&audit).await.status, 404);
        let all = app.get("/api/v1/admin/audit").await.body;
        assert_eq!(all["entries"][0]["action"], "tracker_deleted");
        assert_eq!(all["entries"][0]["trackerTitle"], row.title.as_str());
        assert_eq!(all["entries"].as_array().unwrap().len(), 8);

        // Pages of 50, older entries by `before`; bad cursors are 400s.
        let (viewer, _) = app.member_browser(&other, "viewer@example.org", Permission::Viewer).await;
        let denied = send(viewer.get(app.url(&format!("/api/v1/trackers/{other}/audit")))).await;
        assert_eq!((denied.status, denied.body["error"]["code"].as_str()), (403, Some("forbidden")));
        assert_eq!(send(viewer.get(app.url("/api/v1/admin/audit"))).await.status, 403);
        for _ in 0..30 {
            assert_eq!(app.post(&format!("/api/v1/trackers/{other}/share/revoke"), json!({})).await.status, 200);
        }
        for _ in 0..30 {
            assert_eq!(app.send_json("PUT", &format!("/api/v1/trackers/{other}/share"), json!({"unlockDate": true})).await.status, 200);
            assert_eq!(app.send_json("PUT", &format!("/api/v1/trackers/{other}/share"), json!({"unlockDate": false})).await.status, 200);
        }
        let page1 = app.get(&format!("/api/v1/trackers/{other}/audit")).await.body;
        assert_eq!(page1["entries"].as_array().unwrap().len(), 50);
        let next = page1["next"].as_i64().expect("a next page");
        let page2 = app.get(&format!("/api/v1/trackers/{other}/audit?before={next}")).await.body;
        assert_eq!(page2["entries"].as_array().unwrap().len(), 40);
        assert_eq!(page2["next"], Value::Null);
        assert!(page2["entries"].as_array().unwrap().iter().all(|e| e["id"].as_i64().unwrap() < next));
        for bad in ["before=0", "before=abc", "before=-3", "page=2"] {
            let r = app.get(&format!("/api/v1/trackers/{other}/audit?{bad}")).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (400, Some("invalid_query")), "{bad}");
        }
    }
}

#[tokio::test]
async fn members_joining_and_administrator_rights_are_audited() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let dee = app.store.create_user(&hark_testkit::new_user("dee@example.org"), 1).await.unwrap().id;
        // An account joins at once; another address joins by accepting its invitation.
        let added = app.post(&format!("/api/v1/trackers/{hash}/members"), json!({"email": "dee@example.org", "permission": 1})).await;
        assert_eq!(added.status, 201, "{:?}", added.body);
        let invited = app.post(&format!("/api/v1/trackers/{hash}/members"), json!({"email": "eve@example.org", "permission": 2})).await;
        let token = invited.body["link"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
        let (eve, jar) = app.new_browser();
        let csrf = hark_testkit::csrf_of(&eve, &jar, &app.base).await;
        let accepted = send(eve.post(app.url(&format!("/api/v1/invitations/{token}/accept"))).header("X-CSRF-Token", csrf).json(&json!({"name": "Eve", "password": "password123"}))).await;
        assert_eq!(accepted.status, 200, "{:?}", accepted.body);
        let got = entries(&app, &format!("/api/v1/trackers/{hash}/audit")).await;
        assert_eq!(
            got,
            vec![
                ("member_added".to_string(), json!({"member": "eve@example.org", "to": "editor", "invitation": true})),
                ("member_added".to_string(), json!({"member": "dee@example.org", "to": "viewer"})),
            ]
        );
        let first = &app.get(&format!("/api/v1/trackers/{hash}/audit")).await.body["entries"][0];
        assert_eq!(first["actor"], "eve@example.org", "the invitee accepted");
        // Replacing the media wall's moderation link (its first look makes one: not recorded).
        let wall = format!("/api/v1/trackers/{hash}/media-wall/moderation-link");
        assert_eq!(app.get(&wall).await.status, 200);
        assert_eq!(entries(&app, &format!("/api/v1/trackers/{hash}/audit")).await.len(), 2);
        assert_eq!(app.post(&wall, json!({})).await.status, 200);
        assert_eq!(entries(&app, &format!("/api/v1/trackers/{hash}/audit")).await[0], ("moderation_link_rotated".to_string(), json!({})));

        // The administrator right, given and taken; a save that keeps it records nothing.
        for change in [json!({"isAdmin": true}), json!({"isAdmin": true, "plan": 100}), json!({"isAdmin": false})] {
            assert_eq!(app.send_json("PATCH", &format!("/api/v1/admin/users/{dee}"), change).await.status, 200);
        }
        let all = app.get("/api/v1/admin/audit").await.body;
        let instance: Vec<(&str, &Value, &Value)> =
            all["entries"].as_array().unwrap().iter().take(2).map(|e| (e["action"].as_str().unwrap(), &e["detail"], &e["trackerHash"])).collect();
        assert_eq!(
            instance,
            [("admin_revoked", &json!({"member": "dee@example.org"}), &Value::Null), ("admin_granted", &json!({"member": "dee@example.org"}), &Value::Null)]
        );
        assert_eq!(all["entries"].as_array().unwrap().len(), 5);
    }
}

#[tokio::test]
async fn healthz_reports_the_database_and_the_jobs_waiting_for_a_worker() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let r = app.get("/healthz").await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["status"], "ok", "{:?}", r.body);
        assert_eq!(r.body["database"]["ok"], true);
        let name = if backend == Backend::Sqlite { "sqlite" } else { "postgres" };
        assert_eq!(r.body["database"]["backend"], name);
        assert_eq!(r.body["nats"]["configured"], false);
        assert_eq!(r.body["jobs"]["reanalyses"]["waiting"], 0);
        assert_eq!(r.body["problems"], json!([]));

        // A re-analysis queued ten minutes ago that no worker took (no worker runs in this test).
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let id = app.store.tracker_by_hash(t["hash"].as_str().unwrap()).await.unwrap().unwrap().id;
        let queued = hark_core::now_millis() - 600_000;
        raw(
            &app,
            &format!(
                "INSERT INTO tracker_edits (tracker_id, mode, criteria_before, criteria_after, created_at) \
                 VALUES ({id}, 'reanalyze', '{{}}', '{{}}', {queued}) RETURNING criteria_before"
            ),
        )
        .await;
        let r = app.get("/healthz").await;
        assert_eq!((r.status, r.body["status"].as_str()), (200, Some("degraded")), "{:?}", r.body);
        assert_eq!(r.body["jobs"]["reanalyses"]["waiting"], 1);
        assert!(r.body["jobs"]["reanalyses"]["lagSeconds"].as_f64().unwrap() >= 600.0, "{:?}", r.body);
        assert!(r.body["problems"][0].as_str().unwrap().contains("reanalyses"), "{:?}", r.body);

        // Once a live worker holds it, it waits no more; when its lease runs out it waits again.
        let now = hark_core::now_millis();
        let job = app.store.lease_reanalysis("worker-a", now, now + 60_000).await.unwrap().expect("leased");
        assert_eq!(job.tracker_id, id);
        assert!(app.store.lease_reanalysis("worker-b", now, now + 60_000).await.unwrap().is_none(), "held by worker-a");
        let r = app.get("/healthz").await;
        assert_eq!((r.body["status"].as_str(), &r.body["jobs"]["reanalyses"]["waiting"]), (Some("ok"), &json!(0)), "{:?}", r.body);
        let later = now + 61_000;
        let taken = app.store.lease_reanalysis("worker-b", later, later + 20_000).await.unwrap().expect("taken over");
        assert_eq!(taken.id, job.id);
        let point = hark_store::ReanalysisPoint { processed: 5, total: 9, removed: 1, after_post_id: 77 };
        assert!(!app.store.save_reanalysis(job.id, "worker-a", point, None, later + 20_000).await.unwrap(), "worker-a lost it");
        assert!(app.store.save_reanalysis(job.id, "worker-b", point, Some(later), later + 20_000).await.unwrap());
        assert!(!app.store.save_reanalysis(job.id, "worker-b", point, Some(later), later + 20_000).await.unwrap(), "finished once");
        let done = app.store.latest_reanalysis(id).await.unwrap().unwrap();
        assert_eq!((done.processed, done.removed, done.after_post_id, done.applied_at), (5, 1, 77, Some(later)));
    }
}

/// Page numbers at the edge of their type answer an empty page, never a crash (found by
/// Schemathesis: the offset's multiplication overflowed).
#[tokio::test]
async fn huge_page_numbers_answer_an_empty_page() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.setup_admin().await;
    let t = app.create_tracker("nike").await;
    let hash = t["hash"].as_str().unwrap().to_string();
    let max = i64::MAX;
    let r = app.get(&format!("/api/v1/trackers?page={max}&perPage=500")).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["trackers"], json!([]));
    assert_eq!(r.body["count"], 1);
    let r = app.get(&format!("/api/v1/admin/users?page={max}&perPage=100")).await;
    assert!(r.status == 200 || r.status == 400, "{:?}", r.body);
    let r = app.get(&format!("/api/v1/trackers/{hash}/notifications/history?page={max}")).await;
    assert!(r.status == 200 || r.status == 400, "{:?}", r.body);
    // A path id that is not a number names nothing: 404 in the error shape.
    let r = app.send_json("PATCH", &format!("/api/v1/trackers/{hash}/tags/abc"), json!({"name": "x"})).await;
    assert_eq!((r.status, r.body["error"]["code"].as_str()), (404, Some("not_found")), "{:?}", r.body);
    let r = app.delete("/api/v1/influencer-tags/9223372036854775808").await;
    assert_eq!((r.status, r.body["error"]["code"].as_str()), (404, Some("not_found")), "{:?}", r.body);
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_visitor_has_a_bucket_and_others_cannot_forge_one() {
    let limits = RateLimits { public: Rate::new(2, Duration::from_secs(3600)), ..RateLimits::default() };
    let anon = reqwest::Client::new();
    let ask = |app: &TestApp, from: &'static str| {
        let req = anon.get(app.url("/api/v1/me")).header("X-Forwarded-For", from);
        async move { req.send().await.unwrap().status().as_u16() }
    };
    // The test's client is 127.0.0.1: as the trusted proxy, the header names the visitor.
    let proxied = TestApp::spawn_with(
        Backend::Sqlite,
        ApiConfig { rate_limits: Some(limits), trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()], ..Default::default() },
    )
    .await;
    for _ in 0..2 {
        assert_ne!(ask(&proxied, "203.0.113.1").await, 429);
    }
    assert_eq!(ask(&proxied, "203.0.113.1").await, 429, "the visitor's own bucket is empty");
    assert_ne!(ask(&proxied, "203.0.113.2").await, 429, "another visitor behind the proxy is not refused");
    assert_eq!(ask(&proxied, "198.51.100.5, 203.0.113.1").await, 429, "a forged entry left of the proxy's own is ignored");

    // Not trusted: the header changes nothing, every request counts against the peer.
    let direct = TestApp::spawn_with(Backend::Sqlite, ApiConfig { rate_limits: Some(limits), ..Default::default() }).await;
    assert_ne!(ask(&direct, "203.0.113.1").await, 429);
    assert_ne!(ask(&direct, "203.0.113.2").await, 429);
    assert_eq!(ask(&direct, "203.0.113.3").await, 429);
}

#[tokio::test]
async fn rekeying_moves_every_stored_secret_to_the_new_key() {
    for backend in backends() {
        let old = SecretKey::random();
        let app = TestApp::spawn_with(backend, ApiConfig { secret_key: Some(old.clone()), ..Default::default() }).await;
        app.setup_admin().await;
        let saved = app
            .send_json("PUT", "/api/v1/admin/connectors/reddit", json!({"enabled": false, "values": {"client_id": "my-id", "client_secret": "s3cret-value"}}))
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        let hash = app.create_tracker("nike").await["hash"].as_str().unwrap().to_string();
        let path = format!("/api/v1/trackers/{hash}/notifications");
        let mut settings = app.get(&path).await.body["settings"].clone();
        settings["webhook"]["url"] = json!("https://hooks.example.org/hark");
        let r = app.send_json("PUT", &path, settings).await;
        let secret = r.body["webhookSecret"].as_str().unwrap().to_string();
        app.store.save_integration("google_sheets", "{}", Some(&old.seal("google_sheets", b"the private key")), 1).await.unwrap();
        // One value from before sealing, one sealed with a key nobody has.
        app.store.save_connector_settings("tiktok", false, None, r#"{"client_secret":"plain"}"#, 1).await.unwrap();
        let lost = SecretKey::random().seal("connector:youtube", b"{}");
        app.store.save_connector_settings("youtube", false, None, &format!("sealed:{lost}"), 1).await.unwrap();

        let new = SecretKey::random();
        let rekeyed = app.store.clone().with_secret_key(Arc::new(new.clone()));
        let done = rekeyed.reseal_secrets(&old).await.unwrap();
        // reddit, tiktok (in the clear), the notification settings, the webhook secret, the Sheets key.
        assert_eq!((done.resealed, done.already, done.unreadable), (5, 0, 1), "{done:?}");
        let again = rekeyed.reseal_secrets(&old).await.unwrap();
        assert_eq!((again.resealed, again.already, again.unreadable), (0, 5, 1), "a second run changes nothing");

        // The new key opens everything; the old one nothing.
        let config = hark_collect::config_from_row(&rekeyed.connector_setting("reddit").await.unwrap().unwrap());
        assert_eq!(config.value("client_secret"), Some("s3cret-value"));
        let config = hark_collect::config_from_row(&rekeyed.connector_setting("tiktok").await.unwrap().unwrap());
        assert_eq!(config.value("client_secret"), Some("plain"));
        let stale = app.store.clone().with_secret_key(Arc::new(old.clone()));
        assert_eq!(stale.connector_setting("reddit").await.unwrap().unwrap().config, "{}");
        let id = app.store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
        let row = rekeyed.notification_settings(id).await.unwrap().unwrap();
        assert_eq!(row.webhook_secret.as_deref(), Some(secret.as_str()));
        assert!(row.settings.contains("hooks.example.org"), "{}", row.settings);
        let sheets = rekeyed.integration("google_sheets").await.unwrap().unwrap().sealed.unwrap();
        assert_eq!(new.open("google_sheets", &sheets).unwrap(), b"the private key");
        assert!(old.open("google_sheets", &sheets).is_err());
    }
}
