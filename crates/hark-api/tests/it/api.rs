//! HTTP tests through the real router, on SQLite and (when configured) PostgreSQL.

use hark_store::Backend;
use hark_testkit::{csrf_of, each_app as each, send, TestApp};
use serde_json::json;


#[tokio::test]
async fn setup_creates_the_first_admin_once() {
    each(|app| async move {
        // The demo tracker's owner is a system account: the instance still needs its first account.
        app.store.system_user("demo@hark.invalid", "Hark demo", 1).await.unwrap();
        assert_eq!(app.get("/api/v1/setup").await.body["needsSetup"], true);
        let me = app.get("/api/v1/me").await;
        assert_eq!(me.status, 200);
        assert_eq!(me.body["isLoggedIn"], false);
        let admin = app.setup_admin().await;
        assert_eq!(admin["isAdmin"], true);
        assert_eq!(admin["isLoggedIn"], true);
        assert_eq!(app.get("/api/v1/setup").await.body["needsSetup"], false);
        let again = app
            .post("/api/v1/setup", json!({"email": "x@example.org", "password": "password123"}))
            .await;
        assert_eq!(again.status, 409);
        assert_eq!(again.body["error"]["code"], "already_set_up");
        assert_eq!(app.store.count_users().await.unwrap(), 1);
        // Nobody signs in as the system account.
        let sys = app.post("/api/v1/auth/login", json!({"email": "demo@hark.invalid", "password": "!"})).await;
        assert_eq!(sys.status, 401);
    })
    .await;
}

#[tokio::test]
async fn login_logout_and_bad_credentials() {
    each(|app| async move {
        app.setup_admin().await;
        let out = app.post("/api/v1/auth/logout", json!({})).await;
        assert_eq!(out.status, 204);
        assert_eq!(app.get("/api/v1/me").await.body["isLoggedIn"], false);
        assert_eq!(app.get("/api/v1/trackers").await.status, 401);
        let bad = app.post("/api/v1/auth/login", json!({"email": "admin@example.org", "password": "nope-nope"})).await;
        assert_eq!(bad.status, 401);
        assert_eq!(bad.body["error"]["code"], "invalid_credentials");
        let ok = app.post("/api/v1/auth/login", json!({"email": "ADMIN@example.org", "password": "password123"})).await;
        assert_eq!(ok.status, 200, "{:?}", ok.body);
        assert_eq!(app.get("/api/v1/me").await.body["email"], "admin@example.org");
    })
    .await;
}

#[tokio::test]
async fn login_is_rate_limited() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.setup_admin().await;
    let mut last = 0;
    for _ in 0..12 {
        last = app.post("/api/v1/auth/login", json!({"email": "admin@example.org", "password": "wrong-pass"})).await.status;
    }
    assert_eq!(last, 429);
}

#[tokio::test]
async fn state_changes_need_the_csrf_token() {
    each(|app| async move {
        app.setup_admin().await;
        let res = send(
            app.client
                .post(app.url("/api/v1/trackers"))
                .json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["x"]}]}})),
        )
        .await;
        assert_eq!(res.status, 403);
        assert_eq!(res.body["error"]["code"], "csrf_failed");
        let wrong = send(
            app.client
                .post(app.url("/api/v1/trackers"))
                .header("X-CSRF-Token", "0".repeat(64))
                .json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["x"]}]}})),
        )
        .await;
        assert_eq!(wrong.status, 403);
        let (list, _) = app.store.trackers_for_user(1, 1, 10).await.unwrap();
        assert!(list.is_empty(), "nothing was created");
    })
    .await;
}

#[tokio::test]
async fn tracker_lifecycle() {
    each(|app| async move {
        app.setup_admin().await;
        let created = app
            .post(
                "/api/v1/trackers",
                json!({
                    "platforms": {"twt": 1, "ig": 1},
                    "search": {"rows": [
                        {"type": "+", "searches": ["@nike", "  ", "adidas"]},
                        {"type": "+", "searches": ["", ""]},
                        {"type": "-", "searches": ["puma"]}
                    ]},
                    "excludeRetweets": true,
                    "subtrackers": ["air max"]
                }),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let t = created.body;
        assert_eq!(t["title"], "Real-time Tracker: nike");
        assert_eq!(t["friendly"], "nike");
        assert_eq!(t["search"]["rows"][0]["searches"], json!(["nike", "adidas"]));
        assert_eq!(t["searchCount"], 2);
        assert_eq!(t["ignoreCount"], 1);
        assert_eq!(t["excludeRetweets"], true);
        assert_eq!(t["permission"], 4);
        assert_eq!(t["subtrackers"][0]["label"], "air max");
        let hash = t["hash"].as_str().unwrap().to_string();

        let list = app.get("/api/v1/trackers").await.body;
        assert_eq!(list["count"], 1);
        assert_eq!(list["trackers"][0]["hash"], hash.as_str());

        let edited = app
            .send_json(
                "PATCH",
                &format!("/api/v1/trackers/{hash}"),
                json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["nike"]}]},
                       "title": "Nike watch", "mode": "reanalyze"}),
            )
            .await;
        assert_eq!(edited.status, 200, "{:?}", edited.body);
        assert_eq!(edited.body["title"], "Nike watch");
        assert_eq!(edited.body["lastEditMode"], "reanalyze");
        assert_eq!(edited.body["platforms"]["ig"], 0);

        let paused = app.post(&format!("/api/v1/trackers/{hash}/pause"), json!({})).await;
        assert_eq!(paused.body["status"], "paused");
        let restarted = app.post(&format!("/api/v1/trackers/{hash}/restart"), json!({})).await;
        assert_eq!(restarted.body["status"], "running");
        let logs = app.get(&format!("/api/v1/trackers/{hash}/logs")).await.body;
        let actions: Vec<_> = logs["logs"].as_array().unwrap().iter().map(|l| l["action"].clone()).collect();
        assert_eq!(actions, vec![json!("tracker_created"), json!("tracker_paused"), json!("tracker_restarted")]);

        let hidden = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/hide-auth-metrics"), json!({"hidden": true})).await;
        assert_eq!(hidden.body["hideAuthMetrics"], true);
        let cfg = app
            .send_json(
                "PUT",
                &format!("/api/v1/trackers/{hash}/custom-config"),
                json!({"order": [{"chart": "sentiment", "hide": true}], "columns": 3}),
            )
            .await;
        assert_eq!(cfg.status, 200, "{:?}", cfg.body);
        assert_eq!(cfg.body["customConfig"]["columns"], 3);
        let bad_cfg = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/custom-config"), json!({"order": [], "columns": 4}))
            .await;
        assert_eq!(bad_cfg.status, 422);

        let total = app.get(&format!("/api/v1/trackers/{hash}/total-posts?days=14&tz=Europe/Paris")).await;
        assert_eq!(total.body["count"]["posts"], 0);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/total-posts?days=abc")).await.status, 400);

        let deleted = app.delete(&format!("/api/v1/trackers/{hash}")).await;
        assert_eq!(deleted.body["status"], "success");
        let gone = app.get(&format!("/api/v1/trackers/{hash}")).await;
        assert_eq!(gone.status, 404);
        assert_eq!(gone.body["error"]["code"], "tracker_not_found");
    })
    .await;
}

#[tokio::test]
async fn bad_input_is_rejected_and_changes_nothing() {
    each(|app| async move {
        app.setup_admin().await;
        let token = app.csrf().await;
        let malformed = send(
            app.client
                .post(app.url("/api/v1/trackers"))
                .header("X-CSRF-Token", &token)
                .header("Content-Type", "application/json")
                .body("{not json"),
        )
        .await;
        assert_eq!(malformed.status, 400);
        assert_eq!(malformed.body["error"]["code"], "invalid_json");

        let empty = app.post("/api/v1/trackers", json!({"platforms": {}, "search": {"rows": [{"type": "+", "searches": [" "]}]}})).await;
        assert_eq!(empty.status, 422);
        let messages: Vec<_> = empty.body["error"]["fields"].as_array().unwrap().iter().map(|f| f["message"].clone()).collect();
        assert!(messages.contains(&json!("At least one search term must be entered.")));
        assert!(messages.contains(&json!("At least one platform must be selected.")));

        let too_many = app
            .post(
                "/api/v1/trackers",
                json!({"platforms": {"twt": 1}, "search": {"rows": [
                    {"type": "+", "searches": ["a", "b", "c"]}, {"type": "+", "searches": ["d", "e"]}]}}),
            )
            .await;
        assert_eq!(too_many.status, 422);
        assert_eq!(too_many.body["error"]["fields"][0]["code"], "too_many_searches");

        let long_title = app
            .post(
                "/api/v1/trackers",
                json!({"title": "x".repeat(500), "platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["a"]}]}}),
            )
            .await;
        assert_eq!(long_title.status, 422);
        let unknown_platform = app
            .post("/api/v1/trackers", json!({"platforms": {"myspace": 1}, "search": {"rows": [{"type": "+", "searches": ["a"]}]}}))
            .await;
        assert_eq!(unknown_platform.status, 400);
        let huge = app.post("/api/v1/trackers", json!({"title": "y".repeat(2 << 20)})).await;
        assert_eq!(huge.status, 413);

        assert_eq!(app.get("/api/v1/trackers").await.body["count"], 0);
        assert_eq!(app.get("/api/v1/trackers/zzzzzzzz").await.status, 404);
        assert_eq!(app.get("/api/v1/trackers/..%2F..").await.status, 404);
    })
    .await;
}

#[tokio::test]
async fn other_users_trackers_are_invisible_and_roles_are_enforced() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        // A second, non-admin account.
        let hash_pw = hark_api::auth::hash_password("password123").unwrap();
        let bob = app
            .store
            .create_user(
                &hark_api::routes::session::self_hosted_user("bob@example.org".into(), hash_pw, "Bob".into(), false),
                1,
            )
            .await
            .unwrap();
        let (bob_client, bob_jar) = app.new_browser();
        let token = csrf_of(&bob_client, &bob_jar, &app.base).await;
        let login = send(
            bob_client
                .post(app.url("/api/v1/auth/login"))
                .header("X-CSRF-Token", &token)
                .json(&json!({"email": "bob@example.org", "password": "password123"})),
        )
        .await;
        assert_eq!(login.status, 200);
        let token = csrf_of(&bob_client, &bob_jar, &app.base).await;
        let seen = send(bob_client.get(app.url(&format!("/api/v1/trackers/{hash}")))).await;
        assert_eq!(seen.status, 404, "another user's tracker reveals nothing");
        let del = send(bob_client.delete(app.url(&format!("/api/v1/trackers/{hash}"))).header("X-CSRF-Token", &token)).await;
        assert_eq!(del.status, 404);
        let me = send(bob_client.get(app.url(&format!("/api/v1/me?tracker={hash}")))).await;
        assert_eq!(me.body["permission"], 0);

        // As a viewer Bob reads but cannot edit, pause or delete.
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_member(row.id, bob.id, hark_core::Permission::Viewer).await.unwrap();
        assert_eq!(send(bob_client.get(app.url(&format!("/api/v1/trackers/{hash}")))).await.status, 200);
        let edit = send(
            bob_client
                .patch(app.url(&format!("/api/v1/trackers/{hash}")))
                .header("X-CSRF-Token", &token)
                .json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["hacked"]}]}})),
        )
        .await;
        assert_eq!(edit.status, 403);
        let pause = send(bob_client.post(app.url(&format!("/api/v1/trackers/{hash}/pause"))).header("X-CSRF-Token", &token)).await;
        assert_eq!(pause.status, 403);
        let tag = send(
            bob_client
                .post(app.url(&format!("/api/v1/trackers/{hash}/tags")))
                .header("X-CSRF-Token", &token)
                .json(&json!({"name": "x"})),
        )
        .await;
        assert_eq!(tag.status, 403);
        let keywords = send(
            bob_client
                .put(app.url(&format!("/api/v1/trackers/{hash}/sentiment-keywords")))
                .header("X-CSRF-Token", &token)
                .json(&json!({"negative": ["great"]})),
        )
        .await;
        assert_eq!(keywords.status, 403);
        // As an editor Bob may change the search but not delete.
        app.store.set_member(row.id, bob.id, hark_core::Permission::Editor).await.unwrap();
        let edit = send(
            bob_client
                .patch(app.url(&format!("/api/v1/trackers/{hash}")))
                .header("X-CSRF-Token", &token)
                .json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["nike"]}]}})),
        )
        .await;
        assert_eq!(edit.status, 200);
        let del = send(bob_client.delete(app.url(&format!("/api/v1/trackers/{hash}"))).header("X-CSRF-Token", &token)).await;
        assert_eq!(del.status, 403);
        assert!(app.store.tracker_by_hash(&hash).await.unwrap().is_some());
        // Signed out: 401, whatever the hash.
        let anon = reqwest::Client::new();
        assert_eq!(send(anon.get(app.url(&format!("/api/v1/trackers/{hash}")))).await.status, 401);
        assert_eq!(send(anon.get(app.url("/api/v1/trackers/nosuchhash"))).await.status, 401);
    })
    .await;
}

#[tokio::test]
async fn tags_are_validated_sorted_and_unique() {
    each(|app| async move {
        app.setup_admin().await;
        let hash = app.create_tracker("nike").await["hash"].as_str().unwrap().to_string();
        let path = format!("/api/v1/trackers/{hash}/tags");
        let b = app.post(&path, json!({"name": "beta", "color": "Grape"})).await;
        assert_eq!(b.status, 201);
        assert_eq!(b.body["color"], "#800080");
        let a = app.post(&path, json!({"name": "  Alpha "})).await;
        assert_eq!(a.body["name"], "Alpha");
        assert_eq!(a.body["color"], "#c0392b", "Tomato is the default");
        assert_eq!(app.post(&path, json!({"name": "beta"})).await.status, 409);
        assert_eq!(app.post(&path, json!({"name": " "})).await.status, 422);
        assert_eq!(app.post(&path, json!({"name": "x".repeat(46)})).await.status, 422);
        assert_eq!(app.post(&path, json!({"name": "ok", "color": "#123456"})).await.status, 422);
        let names: Vec<_> = app.get(&path).await.body["tags"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, vec![json!("Alpha"), json!("beta")]);
        let id = a.body["id"].as_i64().unwrap();
        let edited = app.send_json("PATCH", &format!("{path}/{id}"), json!({"name": "Gamma", "color": "#616161"})).await;
        assert_eq!(edited.body["name"], "Gamma");
        assert_eq!(app.delete(&format!("{path}/{id}")).await.status, 204);
        assert_eq!(app.delete(&format!("{path}/{id}")).await.status, 404);
    })
    .await;
}

/// The web app's types are generated from web/src/api/openapi.json (`make api-types`): the file
/// must be the document the server serves.
#[test]
fn the_web_apps_openapi_document_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/api/openapi.json");
    let stored = std::fs::read_to_string(&path).expect("web/src/api/openapi.json");
    assert!(
        stored.trim_end() == hark_api::openapi_json().trim_end(),
        "web/src/api/openapi.json is not the server's OpenAPI document: run `make api-types`"
    );
}

/// Each list names its own item schema: the posts page's items (with `key`) and the dashboard's
/// (with `externalId`) are two shapes, and neither overwrites the other in the document.
#[tokio::test]
async fn openapi_item_schemas_match_their_lists() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc = app.get("/api/v1/openapi.json").await.body;
    let schema = |r: &serde_json::Value| -> serde_json::Value {
        let name = r["$ref"].as_str().unwrap_or_else(|| panic!("not a reference: {r}")).rsplit('/').next().unwrap().to_string();
        doc["components"]["schemas"][&name].clone()
    };
    let ok = |path: &str| schema(&doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]);
    let posts_item = schema(&ok("/api/v1/trackers/{hash}/posts")["properties"]["posts"]["items"]);
    assert!(posts_item["properties"].get("key").is_some(), "posts list items: {posts_item}");
    let side_item = schema(&ok("/api/v1/trackers/{hash}/dashboard/posts")["properties"]["posts"]["items"]);
    assert!(side_item["properties"].get("externalId").is_some(), "dashboard items: {side_item}");
    let top_item = schema(&ok("/api/v1/trackers/{hash}/dashboard/top-posts")["properties"]["posts"]["items"]);
    assert!(top_item["properties"].get("externalId").is_some(), "top posts items: {top_item}");
}

#[tokio::test]
async fn openapi_lists_every_route() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let doc = app.get("/api/v1/openapi.json").await.body;
    let paths = doc["paths"].as_object().expect("paths");
    let expected = [
        ("get", "/api/v1/health"),
        ("get", "/healthz"),
        ("get", "/api/v1/setup"),
        ("post", "/api/v1/setup"),
        ("post", "/api/v1/auth/login"),
        ("post", "/api/v1/auth/logout"),
        ("get", "/api/v1/me"),
        ("get", "/api/v1/trackers"),
        ("post", "/api/v1/trackers"),
        ("get", "/api/v1/trackers/{hash}"),
        ("patch", "/api/v1/trackers/{hash}"),
        ("delete", "/api/v1/trackers/{hash}"),
        ("post", "/api/v1/trackers/{hash}/pause"),
        ("post", "/api/v1/trackers/{hash}/restart"),
        ("get", "/api/v1/trackers/{hash}/logs"),
        ("put", "/api/v1/trackers/{hash}/hide-auth-metrics"),
        ("put", "/api/v1/trackers/{hash}/anonymize-facebook"),
        ("put", "/api/v1/trackers/{hash}/custom-config"),
        ("get", "/api/v1/trackers/{hash}/total-posts"),
        ("get", "/api/v1/trackers/{hash}/tags"),
        ("post", "/api/v1/trackers/{hash}/tags"),
        ("get", "/api/v1/trackers/{hash}/media-wall"),
        ("put", "/api/v1/trackers/{hash}/media-wall/settings"),
        ("put", "/api/v1/trackers/{hash}/media-wall/moderation"),
        ("post", "/api/v1/trackers/{hash}/media-wall/visibility"),
        ("get", "/api/v1/trackers/{hash}/media-wall/moderation-link"),
        ("post", "/api/v1/trackers/{hash}/media-wall/moderation-link"),
        ("patch", "/api/v1/trackers/{hash}/tags/{id}"),
        ("delete", "/api/v1/trackers/{hash}/tags/{id}"),
        ("get", "/api/v1/influencer-tags"),
        ("post", "/api/v1/influencer-tags"),
        ("patch", "/api/v1/influencer-tags/{id}"),
        ("delete", "/api/v1/influencer-tags/{id}"),
        ("get", "/api/v1/trackers/{hash}/influencers"),
        ("get", "/api/v1/trackers/{hash}/influencers/export.csv"),
        ("get", "/api/v1/trackers/{hash}/exports"),
        ("post", "/api/v1/trackers/{hash}/exports"),
        ("get", "/api/v1/exports/{token}"),
        ("get", "/api/v1/exports/sample.xlsx"),
        ("get", "/export/hashtag/{filename}"),
        ("get", "/api/v1/trackers/{hash}/influencers/posts"),
        ("put", "/api/v1/trackers/{hash}/influencers/tags"),
        ("get", "/api/v1/trackers/{hash}/topics"),
        ("get", "/api/v1/trackers/{hash}/topics/series"),
        ("get", "/api/v1/trackers/{hash}/topics/posts"),
        ("get", "/api/v1/trackers/{hash}/sentiment"),
        ("get", "/api/v1/trackers/{hash}/sentiment/keywords"),
        ("get", "/api/v1/demo"),
        ("get", "/api/v1/trackers/{hash}/stats"),
        ("post", "/api/v1/trackers/{hash}/import"),
        ("get", "/api/v1/admin/connectors"),
        ("get", "/api/v1/admin/plans"),
        ("get", "/api/v1/admin/integrations/google-sheets"),
        ("put", "/api/v1/admin/integrations/google-sheets"),
        ("delete", "/api/v1/admin/integrations/google-sheets"),
        ("post", "/api/v1/admin/integrations/google-sheets/check"),
        ("get", "/api/v1/exports/capabilities"),
        ("get", "/api/v1/admin/users"),
        ("patch", "/api/v1/admin/users/{id}"),
        ("put", "/api/v1/admin/connectors/{name}"),
        ("post", "/api/v1/admin/connectors/{name}/check"),
        ("get", "/api/v1/trackers/{hash}/collection"),
        ("post", "/api/v1/trackers/{hash}/collection/run"),
        ("post", "/api/v1/trackers/{hash}/backfill"),
        ("get", "/api/v1/trackers/{hash}/backfill/estimate"),
        ("get", "/api/v1/trackers/{hash}/preview/stream"),
        ("post", "/api/v1/trackers/{hash}/preview/sample"),
        ("post", "/api/v1/trackers/{hash}/preview/end"),
        ("get", "/api/v1/trackers/{hash}/preview/estimate"),
        ("put", "/api/v1/trackers/{hash}/sentiment-keywords"),
        ("get", "/api/v1/trackers/{hash}/share"),
        ("put", "/api/v1/trackers/{hash}/share"),
        ("post", "/api/v1/trackers/{hash}/share/revoke"),
        ("post", "/api/v1/trackers/{hash}/share/email"),
        ("get", "/api/v1/trackers/{hash}/embed"),
        ("get", "/api/v1/trackers/{hash}/members"),
        ("post", "/api/v1/trackers/{hash}/members"),
        ("patch", "/api/v1/trackers/{hash}/members/{id}"),
        ("delete", "/api/v1/trackers/{hash}/members/{id}"),
        ("delete", "/api/v1/trackers/{hash}/invitations/{id}"),
        ("post", "/api/v1/trackers/{hash}/owner"),
        ("get", "/api/v1/trackers/{hash}/notifications"),
        ("put", "/api/v1/trackers/{hash}/notifications"),
        ("post", "/api/v1/trackers/{hash}/notifications/test"),
        ("get", "/api/v1/trackers/{hash}/notifications/history"),
        ("get", "/api/v1/unsubscribe"),
        ("post", "/api/v1/unsubscribe"),
        ("get", "/api/v1/invitations/{token}"),
        ("post", "/api/v1/invitations/{token}/accept"),
        ("get", "/api/v1/trackers/{hash}/audit"),
        ("get", "/api/v1/admin/audit"),
        ("get", "/api/v1/trackers/{hash}/posts"),
        ("get", "/api/v1/trackers/{hash}/posts/export.csv"),
        ("put", "/api/v1/trackers/{hash}/posts/tags"),
        ("put", "/api/v1/trackers/{hash}/posts/sentiment"),
        ("post", "/api/v1/trackers/{hash}/posts/delete"),
        ("post", "/api/v1/trackers/{hash}/posts/undo-delete"),
        ("post", "/api/v1/trackers/{hash}/ignored-users"),
        ("post", "/api/v1/trackers/{hash}/ignored-users/undo"),
        ("post", "/api/v1/trackers/{hash}/posts/add"),
        ("get", "/api/v1/trackers/{hash}/dashboard/top-stats"),
        ("get", "/api/v1/trackers/{hash}/dashboard/timeline"),
        ("get", "/api/v1/trackers/{hash}/dashboard/locations"),
        ("get", "/api/v1/trackers/{hash}/dashboard/sentiments"),
        ("get", "/api/v1/trackers/{hash}/dashboard/devices"),
        ("get", "/api/v1/trackers/{hash}/dashboard/genders"),
        ("get", "/api/v1/trackers/{hash}/dashboard/post-types"),
        ("get", "/api/v1/trackers/{hash}/dashboard/viewer-sentiments"),
        ("get", "/api/v1/trackers/{hash}/dashboard/influencers"),
        ("get", "/api/v1/trackers/{hash}/dashboard/topics"),
        ("get", "/api/v1/trackers/{hash}/dashboard/top-pages"),
        ("get", "/api/v1/trackers/{hash}/dashboard/top-posts"),
        ("get", "/api/v1/trackers/{hash}/dashboard/posts"),
        ("get", "/api/v1/trackers/{hash}/dashboard/prediction"),
    ];
    for (method, path) in expected {
        assert!(paths.get(path).and_then(|p| p.get(method)).is_some(), "{method} {path} missing from the OpenAPI document");
    }
    let documented: usize = paths.values().map(|p| p.as_object().unwrap().len()).sum();
    assert_eq!(documented, expected.len(), "the document lists exactly the served routes");
    // Every documented route is served: none answers 404 for an unknown route or 405.
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            let url = app.url(&path.replace("{hash}", "abcdefgh").replace("{id}", "1").replace("{token}", "abc"));
            let res = app.client.request(method.to_uppercase().parse().unwrap(), url).send().await.unwrap();
            let status = res.status().as_u16();
            let body: serde_json::Value = res.json().await.unwrap_or_default();
            assert_ne!(status, 405, "{method} {path}");
            assert_ne!(body["error"]["message"], "API route not found.", "{method} {path}");
        }
    }
}

#[tokio::test]
async fn upload_imports_matching_posts_and_reports_bad_lines() {
    each(|app| async move {
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let body = concat!(
            r#"{"platform":"twitter","id":"1","text":"great coffee today","createdAt":1700000000000,"author":{"username":"ann"}}"#, "\n",
            r#"{"platform":"twitter","id":"2","text":"tea only","createdAt":1700000000000}"#, "\n",
            "\n",
            "{not json\n",
            r#"{"platform":"twitter","id":"3","text":"COFFEE!!","createdAt":1700000001}"#, "\n",
        );
        let token = app.csrf().await;
        let url = app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson"));
        let res = send(app.client.post(&url).header("X-CSRF-Token", &token).header("Content-Type", "application/x-ndjson").body(body)).await;
        assert_eq!(res.status, 200, "{:?}", res.body);
        assert_eq!(res.body["imported"], 2);
        assert_eq!(res.body["newPosts"], 2);
        assert_eq!(res.body["unmatched"], 1);
        assert_eq!(res.body["invalid"], 1);
        assert_eq!(res.body["errors"][0]["line"], 4);
        let total = app.get(&format!("/api/v1/trackers/{hash}/total-posts")).await;
        assert_eq!(total.body["count"]["posts"], 2);
        let stats = app.get(&format!("/api/v1/trackers/{hash}/stats")).await.body;
        assert_eq!((stats["posts"].as_i64(), stats["users"].as_i64()), (Some(2), Some(2)), "{stats:?}");
        let none = app.get(&format!("/api/v1/trackers/{hash}/stats?start=2020-01-01&end=2020-01-02")).await.body;
        assert_eq!(none["posts"], 0);
        // Again: nothing new.
        let again = send(app.client.post(&url).header("X-CSRF-Token", &token).body(body)).await;
        assert_eq!(again.body["newPosts"], 0);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/total-posts")).await.body["count"]["posts"], 2);
        // CSV with a mapping.
        let csv = "id,Body,Date\n10,coffee time,2024-01-01\n11,no,2024-01-01\n";
        let res = send(
            app.client
                .post(app.url(&format!("/api/v1/trackers/{hash}/import?format=csv&platform=twt&map=text=Body")))
                .header("X-CSRF-Token", &token)
                .header("Content-Type", "text/csv")
                .body(csv),
        )
        .await;
        assert_eq!((res.body["imported"].as_i64(), res.body["unmatched"].as_i64()), (Some(1), Some(1)), "{:?}", res.body);
        // Bad requests.
        let empty = send(app.client.post(&url).header("X-CSRF-Token", &token).body("")).await;
        assert_eq!(empty.status, 422);
        let bad_map = send(
            app.client
                .post(app.url(&format!("/api/v1/trackers/{hash}/import?format=csv&map=nope")))
                .header("X-CSRF-Token", &token)
                .body(csv),
        )
        .await;
        assert_eq!(bad_map.status, 422);
        let anon = reqwest::Client::new();
        assert_eq!(send(anon.post(&url).body(body)).await.status, 403, "no CSRF token, no import");
    })
    .await;
}

#[tokio::test]
async fn custom_sentiment_keywords_override_the_score_and_yield_to_manual_edits() {
    each(|app| async move {
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let tracker = app.store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
        let token = app.csrf().await;
        let import = |body: &'static str| {
            let url = app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson"));
            let req = app.client.post(url).header("X-CSRF-Token", &token).body(body);
            async move { send(req).await }
        };
        let sentiments = || async {
            let mut v = app.store.rollup_terms(tracker, "sentiment", 10).await.unwrap();
            v.retain(|(_, n)| *n > 0);
            v.sort();
            v
        };
        // Scored as the lexicon says.
        let res = import(concat!(
            r#"{"platform":"twitter","id":"1","text":"I love this coffee, wonderful","createdAt":1700000000000}"#, "\n",
            r#"{"platform":"twitter","id":"2","text":"coffee at the counter","createdAt":1700000000000}"#, "\n",
        ))
        .await;
        assert_eq!(res.body["imported"], 2, "{:?}", res.body);
        let before = sentiments().await;
        assert!(before.iter().any(|(b, _)| b == "positive"), "{before:?}");

        // Bad lists are refused and change nothing.
        let long = "x".repeat(101);
        let bad = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/sentiment-keywords"), json!({"negative": [long]})).await;
        assert_eq!(bad.status, 422, "{:?}", bad.body);
        assert_eq!(bad.body["error"]["code"], "keyword_too_long");

        // "counter" is negative for this tracker; "love" moves from positive to neutral (a keyword
        // in two lists stays in the last); new posts use the lists at once.
        let saved = app
            .send_json(
                "PUT",
                &format!("/api/v1/trackers/{hash}/sentiment-keywords"),
                json!({"positive": ["love", " "], "neutral": ["Love"], "negative": ["counter"], "reanalyze": false}),
            )
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        assert_eq!(saved.body["sentimentKeywords"], json!({"positive": [], "neutral": ["Love"], "negative": ["counter"]}));
        import(concat!(r#"{"platform":"twitter","id":"3","text":"coffee order at the counter at 3pm","createdAt":1700000000000}"#, "\n")).await;
        let after_new = sentiments().await;
        assert!(after_new.contains(&("negative".to_string(), 1)), "{after_new:?}");

        // A search edit keeps the lists.
        let edit = app
            .send_json(
                "PATCH",
                &format!("/api/v1/trackers/{hash}"),
                json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]}, "mode": "future"}),
            )
            .await;
        assert_eq!(edit.status, 200, "{:?}", edit.body);
        assert_eq!(edit.body["sentimentKeywords"]["negative"], json!(["counter"]));

        // A manual edit of post 2 wins over the keywords, before and after re-analysis.
        let post2 = app.store.tracker_posts_page(tracker, 0, 10).await.unwrap();
        let post2 = post2.iter().find(|p| p.row.external_id == "2").unwrap().post_id;
        let changed = app.store.edit_sentiment(tracker, post2, "positive").await.unwrap();
        assert!(changed.is_some());

        // Re-analysis applies the lists to stored posts: post 1 becomes neutral ("love"), post 2 keeps
        // its manual positive, post 3 stays negative.
        let saved = app
            .send_json(
                "PUT",
                &format!("/api/v1/trackers/{hash}/sentiment-keywords"),
                json!({"neutral": ["love"], "negative": ["counter"], "reanalyze": true}),
            )
            .await;
        assert_eq!(saved.status, 200);
        assert_eq!(saved.body["reanalysis"]["done"], false);
        while hark_ingest::reanalysis::run_next(&app.store).await.unwrap() {}
        let after = sentiments().await;
        assert_eq!(
            after,
            vec![("negative".to_string(), 1), ("neutral".to_string(), 1), ("positive".to_string(), 1)],
            "{after:?}"
        );
        assert_eq!(app.store.count_links(tracker).await.unwrap(), 3);

        // Emptied lists give the posts back their analysed buckets: post 1 positive again, post 3
        // neutral, post 2 its manual positive.
        let saved = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/sentiment-keywords"), json!({"reanalyze": true}))
            .await;
        assert_eq!(saved.status, 200);
        while hark_ingest::reanalysis::run_next(&app.store).await.unwrap() {}
        let cleared = sentiments().await;
        assert_eq!(cleared, vec![("neutral".to_string(), 1), ("positive".to_string(), 2)], "{cleared:?}");
    })
    .await;
}

#[tokio::test]
async fn dashboard_panels_answer_from_imported_posts() {
    each(|app| async move {
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let lines = [
            r##"{"platform":"twitter","id":"1","text":"coffee #brew with milk","createdAt":1700000000000,"author":{"username":"ann","followers":10},"counts":{"likes":5}}"##,
            r##"{"platform":"twitter","id":"2","text":"more coffee #brew","createdAt":1700003600000,"author":{"username":"bob","followers":20},"counts":{"likes":1}}"##,
            r##"{"platform":"twitter","id":"3","text":"coffee again","createdAt":1700090000000,"author":{"username":"ann","followers":10}}"##,
        ];
        let token = app.csrf().await;
        let url = app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson"));
        let res = send(app.client.post(&url).header("X-CSRF-Token", &token).body(lines.join("\n"))).await;
        assert_eq!(res.body["imported"], 3, "{:?}", res.body);
        let base = format!("/api/v1/trackers/{hash}/dashboard");
        let stats = app.get(&format!("{base}/top-stats?days=all")).await.body;
        assert_eq!((stats["posts"].as_i64(), stats["users"].as_i64()), (Some(3), Some(2)), "{stats:?}");
        // A millisecond range that holds only the second post.
        let one = app.get(&format!("{base}/top-stats?start=1700000000001&end=1700003600000")).await.body;
        assert_eq!(one["posts"], 1, "{one:?}");
        let tl = app.get(&format!("{base}/timeline?days=all&grouping=day&tz=UTC")).await.body;
        let posts: Vec<i64> = tl["buckets"].as_array().unwrap().iter().map(|b| b["posts"].as_i64().unwrap()).collect();
        assert_eq!(posts, vec![2, 1], "{tl:?}");
        assert_eq!(tl["grouping"], "day");
        assert_eq!(tl["logs"][0]["action"], "tracker_created");
        // In Tokyo the first two posts fall on different local days? 1700000000000 is 07:13 JST on the
        // 15th, 1700003600000 08:13 JST, 1700090000000 08:13 JST on the 16th: still two days.
        let tokyo = app.get(&format!("{base}/timeline?days=all&grouping=day&tz=Asia/Tokyo")).await.body;
        assert_eq!(tokyo["buckets"].as_array().unwrap().len(), 2);
        let topics = app.get(&format!("{base}/topics?days=all")).await.body;
        assert_eq!(topics["hashtags"][0]["term"].as_str().map(|s| s.trim_start_matches('#')), Some("brew"), "{topics:?}");
        assert_eq!(topics["hashtags"][0]["count"], 2);
        let inf = app.get(&format!("{base}/influencers?days=all")).await.body;
        assert_eq!(inf["byPosts"][0]["username"], "ann", "{inf:?}");
        assert_eq!(inf["byPosts"][0]["posts"], 2);
        let top = app.get(&format!("{base}/top-posts?days=all")).await.body;
        assert_eq!(top["posts"].as_array().unwrap().len(), 3);
        let side = app.get(&format!("{base}/posts?start=1700000000000&end=1700003600000")).await.body;
        assert_eq!(side["total"], 2, "{side:?}");
        let brew = topics["hashtags"][0]["term"].as_str().unwrap().replace('#', "%23");
        let tagged = app.get(&format!("{base}/posts?days=all&kind=hashtag&term={brew}")).await.body;
        assert_eq!(tagged["total"], 2, "{tagged:?}");
        let csv = app.client.get(app.url(&format!("{base}/posts?days=all&format=csv"))).send().await.unwrap();
        assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        assert_eq!(csv.text().await.unwrap().lines().count(), 4);
        for panel in ["locations", "sentiments", "devices", "genders", "post-types", "viewer-sentiments", "top-pages"] {
            assert_eq!(app.get(&format!("{base}/{panel}?days=all")).await.status, 200, "{panel}");
        }
        let pred = app.get(&format!("{base}/prediction?horizon=10&tz=UTC")).await.body;
        let points = pred["points"].as_array().unwrap();
        assert_eq!(points.len(), 10, "{pred:?}");
        assert!(pred["historyDays"].as_u64().unwrap() >= 2);
        assert!(points.iter().all(|p| p["lower"].as_f64() <= p["value"].as_f64() && p["value"].as_f64() <= p["upper"].as_f64()));
        assert_eq!(app.get(&format!("{base}/prediction?horizon=0")).await.status, 400);
        // Bad filters are 400s in the error shape.
        let bad = app.get(&format!("{base}/timeline?grouping=decade")).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (400, Some("invalid_query")));
        assert_eq!(app.get(&format!("{base}/top-stats?postTags=x")).await.status, 400);
        assert_eq!(app.get(&format!("{base}/posts?kind=mention&term=a")).await.status, 400);
        // Someone else's tracker is not found; signed out it is 401.
        let anon = reqwest::Client::new();
        assert_eq!(anon.get(app.url(&format!("{base}/top-stats"))).send().await.unwrap().status(), 401);
    })
    .await;
}

#[tokio::test]
async fn only_embed_urls_may_be_framed() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for path in ["/api/v1/health", "/api/v1/me", "/hashtag-tracking/dashboard/abcdefgh/x", "/api/v1/trackers/abcdefgh"] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.starts_with("default-src 'self'") && csp.ends_with("; frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(res.headers()["x-frame-options"], "DENY", "{path}");
    }
    for path in ["/hashtag-tracking/dashboard/abcdefgh/x?embed=1&chart=timeline", "/hashtag-tracking/posts/abcdefgh/x?embed=true"] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.starts_with("default-src 'self'") && csp.ends_with("; frame-ancestors *"), "{path}: {csp}");
        assert!(res.headers().get("x-frame-options").is_none(), "{path}");
    }
    let res = app.client.get(app.url("/hashtag-tracking/dashboard/abcdefgh/x?embed=0")).send().await.unwrap();
    assert_eq!(res.headers()["x-frame-options"], "DENY");
}

/// The document's patterns that list the platforms (post keys, user keys, platform filters) name
/// every platform by its code and by its name: a platform added to hark-core must not be one the
/// document calls invalid.
#[test]
fn openapi_platform_patterns_name_every_platform() {
    let doc: serde_json::Value = serde_json::from_str(&hark_api::openapi_json()).expect("the document is JSON");
    let mut patterns = Vec::new();
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("pattern", serde_json::Value::String(p)) => out.push(p.clone()),
                        _ => walk(v, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    walk(&doc, &mut patterns);
    let listing: Vec<&String> = patterns.iter().filter(|p| p.contains("twt|") || p.contains("|twitter")).collect();
    assert!(listing.len() >= 5, "the post-key, user-key and platform-filter patterns: {listing:?}");
    for pattern in listing {
        let alternatives: Vec<&str> =
            pattern.split(|c| matches!(c, '(' | ')' | '|' | '^' | '$' | ';' | ',' | '*' | '?')).collect();
        for platform in hark_core::Platform::ALL {
            for word in [platform.code(), platform.name()] {
                assert!(alternatives.contains(&word), "the pattern {pattern} leaves out {word}");
            }
        }
    }
}

/// The notification settings' schema is written by hand (the settings are hark-core's types): it
/// names exactly the fields those types write, and the choices it lists hold the values they write.
#[test]
fn openapi_notification_settings_schema_matches_the_settings() {
    let doc: serde_json::Value = serde_json::from_str(&hark_api::openapi_json()).expect("the document is JSON");
    let schema = &doc["components"]["schemas"]["SettingsBody"];
    let settings = serde_json::to_value(hark_core::notify::NotificationSettings::defaults("owner@example.org")).unwrap();
    fn compare(path: &str, value: &serde_json::Value, schema: &serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                let properties = schema["properties"].as_object().unwrap_or_else(|| panic!("{path}: no properties in {schema}"));
                let mut written: Vec<&String> = fields.keys().collect();
                let mut documented: Vec<&String> = properties.keys().collect();
                written.sort();
                documented.sort();
                assert_eq!(written, documented, "{path}: the fields written and the fields documented");
                for (name, v) in fields {
                    compare(&format!("{path}.{name}"), v, &properties[name]);
                }
            }
            serde_json::Value::String(s) => {
                if let Some(choices) = schema["enum"].as_array() {
                    assert!(choices.contains(value), "{path}: {s} is not among {choices:?}");
                }
            }
            _ => {}
        }
    }
    compare("settings", &settings, schema);
}
