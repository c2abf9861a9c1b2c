//! The media wall through the API, on SQLite and (when configured) PostgreSQL: its posts and
//! settings, moderation and its queue, the moderation link's key and the wall's embed (each opens
//! the wall and nothing else), the plan lock, the demo's media and the media proxy.

use std::collections::BTreeSet;

use hark_testkit::{csrf_of, each_app as each, send, TestApp};
use serde_json::{json, Value};

fn post(id: &str, text: &str, user: &str, media: Value) -> Value {
    json!({"platform": "twitter", "id": id, "createdAt": 1_790_000_000_000i64 + id.parse::<i64>().unwrap_or(0) * 1000,
           "text": text, "author": {"username": user, "name": user}, "media": media,
           "counts": {"likes": id.parse::<i64>().unwrap_or(0) * 10}})
}

fn photo(url: &str) -> Value {
    json!([{"kind": "photo", "url": url}])
}

async fn anonymous(app: &TestApp) -> (reqwest::Client, String) {
    let (c, jar) = app.new_browser();
    let t = csrf_of(&c, &jar, &app.base).await;
    (c, t)
}

fn keys(wall: &Value, list: &str) -> Vec<String> {
    wall[list].as_array().unwrap_or_else(|| panic!("{list} in {wall}")).iter().map(|p| p["key"].as_str().unwrap().to_string()).collect()
}

/// A new account made now (after the date that opens the wall to every account), signed in in a
/// browser of its own: the browser and its CSRF token.
async fn signed_in_now(app: &TestApp, email: &str) -> (reqwest::Client, String) {
    let pw = hark_api::auth::hash_password("password123").unwrap();
    let user = hark_api::routes::session::self_hosted_user(email.into(), pw, "Small".into(), false);
    app.store.create_user(&user, hark_core::now_millis()).await.unwrap();
    let (c, jar) = app.new_browser();
    let token = csrf_of(&c, &jar, &app.base).await;
    let login = send(c.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &token)
        .json(&json!({"email": email, "password": "password123"}))).await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    let token = csrf_of(&c, &jar, &app.base).await;
    (c, token)
}

async fn tracker_with_posts(app: &TestApp) -> String {
    app.setup_admin().await;
    let t = app.create_tracker("nike").await;
    let hash = t["hash"].as_str().unwrap().to_string();
    let posts = [
        post("1", "nike run club", "ana", photo("https://pbs.twimg.com/media/one.jpg")),
        post("2", "nike without a picture", "ben", json!([])),
        post("3", "nike at the finish line", "cat", json!([{"kind": "video", "url": "https://video.twimg.com/v.mp4", "thumbnailUrl": "https://pbs.twimg.com/t.jpg"}])),
        post("4", "nike by a user left out", "dan", photo("https://pbs.twimg.com/media/four.jpg")),
        post("5", "nike demo picture", "eve", photo("/demo-media/photo/abc.svg")),
    ];
    let r = app.import_posts(&hash, &posts).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    hash
}

#[tokio::test]
async fn the_wall_shows_posts_with_media_by_its_saved_settings() {
    each(|app| async move {
        let hash = tracker_with_posts(&app).await;
        let wall = app.get(&format!("/api/v1/trackers/{hash}/media-wall")).await;
        assert_eq!(wall.status, 200, "{:?}", wall.body);
        let b = &wall.body;
        assert_eq!(keys(b, "posts"), ["twitter;5", "twitter;4", "twitter;3", "twitter;1"], "newest first, with media only");
        assert_eq!(b["canModerate"], true);
        assert_eq!(b["canManage"], true);
        assert_eq!(b["moderation"], false);
        assert_eq!(b["settings"], json!({"displayMode": "grid", "theme": "dark", "displayText": true, "updateFrequency": 30,
            "postCount": 50, "sortBy": "date", "excludeRetweets": false, "excludeUsers": []}));
        // Platform media through the proxy, the demo's as they are.
        let media = &b["posts"][0]["media"][0];
        assert_eq!(media["url"], "/demo-media/photo/abc.svg");
        let proxied = b["posts"][2]["media"][0].clone();
        assert_eq!(proxied["kind"], "video");
        assert!(proxied["url"].as_str().unwrap().starts_with("/media/proxy?u=https%3A%2F%2Fvideo.twimg.com"), "{proxied}");
        assert!(proxied["thumbnailUrl"].as_str().unwrap().starts_with("/media/proxy?"));
        assert_eq!(b["posts"][3]["visibility"], 1);

        // Parameters over the settings.
        let by_engagement = app.get(&format!("/api/v1/trackers/{hash}/media-wall?sort=engagement&count=2&search=%20finish%20")).await;
        assert_eq!(keys(&by_engagement.body, "posts"), ["twitter;3"]);
        let few = app.get(&format!("/api/v1/trackers/{hash}/media-wall?sort=engagement&count=2")).await;
        assert_eq!(keys(&few.body, "posts"), ["twitter;5", "twitter;4"]);
        for bad in ["count=0", "count=501", "visibility=2", "sort=likes", "excludeRetweets=maybe"] {
            let r = app.get(&format!("/api/v1/trackers/{hash}/media-wall?{bad}")).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (400, Some("invalid_query")), "{bad}");
        }

        // Saved settings apply to everyone's wall, and survive.
        let saved = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/media-wall/settings"), json!({"displayMode": "slideshow", "theme": "light",
                "displayText": false, "updateFrequency": 45, "postCount": 3, "sortBy": "engagement", "excludeRetweets": true,
                "excludeUsers": ["@Dan", " dan "]}))
            .await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        assert_eq!(saved.body["excludeUsers"], json!(["dan"]));
        let wall = app.get(&format!("/api/v1/trackers/{hash}/media-wall")).await;
        assert_eq!(wall.body["settings"], saved.body);
        assert_eq!(keys(&wall.body, "posts"), ["twitter;5", "twitter;3", "twitter;1"], "by engagement, dan left out, three");
        for (bad, field) in [
            (json!({"updateFrequency": 19}), "updateFrequency"),
            (json!({"updateFrequency": 121}), "updateFrequency"),
            (json!({"postCount": 501}), "postCount"),
            (json!({"theme": "blue"}), "theme"),
            (json!({"displayMode": "list"}), "displayMode"),
        ] {
            let r = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/media-wall/settings"), bad.clone()).await;
            assert_eq!(r.status, 422, "{bad}");
            assert!(r.body["error"]["message"].as_str().unwrap().contains(field), "{:?}", r.body);
        }
        let r = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/media-wall/settings"), json!({"postCount": "many"})).await;
        assert_eq!(r.status, 400);
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/media-wall")).await.body["settings"], saved.body, "a refused save keeps the last");
    })
    .await;
}

#[tokio::test]
async fn moderation_queues_new_posts_until_approved_and_turning_it_off_publishes_them() {
    each(|app| async move {
        let hash = tracker_with_posts(&app).await;
        let wall_path = format!("/api/v1/trackers/{hash}/media-wall");
        let on = app.send_json("PUT", &format!("{wall_path}/moderation"), json!({"enabled": true})).await;
        assert_eq!((on.status, &on.body), (200, &json!({"moderation": true, "published": 0})));
        let more = [
            post("6", "nike new arrival", "fay", photo("https://pbs.twimg.com/media/six.jpg")),
            post("7", "nike second arrival", "gus", photo("https://pbs.twimg.com/media/seven.jpg")),
            post("8", "nike third arrival", "hal", photo("https://pbs.twimg.com/media/eight.jpg")),
            post("9", "nike words only", "ivy", json!([])),
        ];
        assert_eq!(app.import_posts(&hash, &more).await.status, 200);
        let wall = app.get(&wall_path).await.body;
        assert_eq!(wall["moderation"], true);
        assert_eq!(keys(&wall, "queue"), ["twitter;8", "twitter;7", "twitter;6"], "new posts with media wait");
        assert_eq!(wall["queueTotal"], 3);
        assert!(!keys(&wall, "posts").contains(&"twitter;6".to_string()));
        assert_eq!(wall["queue"][0]["visibility"], 2);

        // Approve one, reject one.
        let approve = app.post(&format!("{wall_path}/visibility"), json!({"posts": ["twitter;6"], "visibility": 1})).await;
        assert_eq!((approve.status, &approve.body), (200, &json!({"count": 1})));
        let reject = app.post(&format!("{wall_path}/visibility"), json!({"posts": ["twitter;7"], "visibility": 0})).await;
        assert_eq!(reject.body["count"], 1);
        let wall = app.get(&wall_path).await.body;
        assert_eq!(keys(&wall, "queue"), ["twitter;8"]);
        assert_eq!(keys(&wall, "posts")[0], "twitter;6");
        let hidden = app.get(&format!("{wall_path}?visibility=0")).await.body;
        assert_eq!(keys(&hidden, "posts"), ["twitter;7"]);
        assert_eq!(hidden["posts"][0]["visibility"], 0);
        let all = app.get(&format!("{wall_path}?visibility=-1")).await.body;
        assert_eq!(keys(&all, "posts")[..2], ["twitter;7", "twitter;6"]);
        // Hide a public post, show it again.
        assert_eq!(app.post(&format!("{wall_path}/visibility"), json!({"posts": ["twitter;1"], "visibility": 0})).await.body["count"], 1);
        assert!(!keys(&app.get(&wall_path).await.body, "posts").contains(&"twitter;1".to_string()));
        assert_eq!(app.post(&format!("{wall_path}/visibility"), json!({"posts": ["twitter;1"], "visibility": 1})).await.body["count"], 1);
        for (bad, code) in [
            (json!({"posts": [], "visibility": 1}), "no_posts"),
            (json!({"posts": ["twitter;1"], "visibility": 2}), "invalid_choice"),
            (json!({"posts": ["nonsense"], "visibility": 1}), "invalid_post_key"),
        ] {
            let r = app.post(&format!("{wall_path}/visibility"), bad.clone()).await;
            assert_eq!(r.body["error"]["code"], code, "{bad}");
        }

        // A viewer sees the public wall, without the queue or the hidden posts.
        let (viewer, _) = app.member_browser(&hash, "viewer@example.org", hark_core::Permission::Viewer).await;
        let seen = send(viewer.get(app.url(&wall_path))).await;
        assert_eq!(seen.status, 200);
        assert_eq!((seen.body["canModerate"].as_bool(), seen.body["canManage"].as_bool()), (Some(false), Some(false)));
        assert_eq!(seen.body["queue"], json!([]));
        assert!(!keys(&seen.body, "posts").contains(&"twitter;7".to_string()));
        assert_eq!(send(viewer.get(app.url(&format!("{wall_path}?visibility=-1")))).await.status, 403);

        // Off: the queue goes on the wall.
        let off = app.send_json("PUT", &format!("{wall_path}/moderation"), json!({"enabled": false})).await;
        assert_eq!(off.body, json!({"moderation": false, "published": 1}));
        let wall = app.get(&wall_path).await.body;
        assert_eq!(keys(&wall, "queue"), Vec::<String>::new());
        assert_eq!(keys(&wall, "posts")[0], "twitter;8");
        assert!(!keys(&wall, "posts").contains(&"twitter;7".to_string()), "a rejected post stays hidden");
    })
    .await;
}

/// Every route of the OpenAPI document with `{hash}` filled in (other placeholders with 1).
async fn documented_routes(app: &TestApp, hash: &str) -> BTreeSet<(String, String)> {
    let doc = app.get("/api/v1/openapi.json").await.body;
    doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            let path = path.replace("{hash}", hash);
            let path = path.split('{').enumerate().map(|(i, part)| if i == 0 { part.to_string() } else { format!("1{}", part.split_once('}').map(|x| x.1).unwrap_or("")) }).collect::<String>();
            item.as_object().unwrap().keys().map(move |m| (m.clone(), path.clone())).collect::<Vec<_>>()
        })
        .collect()
}

/// Calls every documented route but the session's own with `query` added, signed out; returns
/// those that did not refuse the caller.
async fn opened_by(app: &TestApp, hash: &str, query: &str) -> BTreeSet<String> {
    let (c, token) = anonymous(app).await;
    let mut open = BTreeSet::new();
    for (method, path) in documented_routes(app, hash).await {
        if path.starts_with("/api/v1/auth") || path == "/api/v1/setup" || !path.contains(hash) {
            continue;
        }
        let url = app.url(&format!("{path}?{query}"));
        let req = c.request(method.to_uppercase().parse().unwrap(), url).header("X-CSRF-Token", &token).json(&json!({}));
        let r = send(req).await;
        assert!(r.status < 500, "{method} {path}: {} {:?}", r.status, r.body);
        if !matches!(r.status, 401 | 403 | 404) {
            open.insert(format!("{method} {}", path.replace(hash, "{hash}")));
        }
    }
    open
}

#[tokio::test]
async fn the_moderation_key_moderates_this_wall_and_opens_nothing_else() {
    each(|app| async move {
        let hash = tracker_with_posts(&app).await;
        let wall_path = format!("/api/v1/trackers/{hash}/media-wall");
        let link = app.get(&format!("{wall_path}/moderation-link")).await;
        assert_eq!(link.status, 200, "{:?}", link.body);
        let key = link.body["key"].as_str().unwrap().to_string();
        assert!(link.body["url"].as_str().unwrap().ends_with(&format!("/hashtag-tracking/media-wall/{hash}/nike?moderationKey={key}")), "{:?}", link.body);
        assert_eq!(app.get(&format!("{wall_path}/moderation-link")).await.body["key"], key.as_str(), "the same link until rotated");

        let (anon, token) = anonymous(&app).await;
        let with_key = |path: &str| app.url(&format!("{path}{}moderationKey={key}", if path.contains('?') { "&" } else { "?" }));
        assert_eq!(send(anon.get(app.url(&wall_path))).await.status, 401, "no key, no wall");
        let tracker = send(anon.get(with_key(&format!("/api/v1/trackers/{hash}")))).await;
        assert_eq!(tracker.status, 200, "the page can show the tracker");
        let wall = send(anon.get(with_key(&wall_path))).await;
        assert_eq!(wall.status, 200, "{:?}", wall.body);
        assert_eq!((wall.body["canModerate"].as_bool(), wall.body["canManage"].as_bool()), (Some(true), Some(false)));
        let on = send(anon.put(with_key(&format!("{wall_path}/moderation"))).header("X-CSRF-Token", &token).json(&json!({"enabled": true}))).await;
        assert_eq!(on.status, 200, "{:?}", on.body);
        let hide = send(anon.post(with_key(&format!("{wall_path}/visibility"))).header("X-CSRF-Token", &token)
            .json(&json!({"posts": ["twitter;1"], "visibility": 0}))).await;
        assert_eq!(hide.body["count"], 1);
        assert_eq!(send(anon.get(with_key(&format!("{wall_path}?visibility=0")))).await.body["posts"][0]["key"], "twitter;1");

        // The key opens these and nothing else: not posts, tags, exports, settings or the link.
        let opened = opened_by(&app, &hash, &format!("moderationKey={key}")).await;
        let expected: BTreeSet<String> = ["get /api/v1/trackers/{hash}", "get /api/v1/trackers/{hash}/media-wall",
            "put /api/v1/trackers/{hash}/media-wall/moderation", "post /api/v1/trackers/{hash}/media-wall/visibility"]
            .into_iter().map(String::from).collect();
        assert_eq!(opened, expected);

        // A new link kills the old one.
        let rotated = app.post(&format!("{wall_path}/moderation-link"), json!({})).await;
        assert_eq!(rotated.status, 200);
        assert_ne!(rotated.body["key"], key.as_str());
        assert_eq!(send(anon.get(with_key(&wall_path))).await.status, 401);
        let refused = send(anon.post(with_key(&format!("{wall_path}/visibility"))).header("X-CSRF-Token", &token)
            .json(&json!({"posts": ["twitter;1"], "visibility": 1}))).await;
        assert_eq!(refused.status, 401);
        let fresh = rotated.body["key"].as_str().unwrap();
        assert_eq!(send(anon.get(app.url(&format!("{wall_path}?moderationKey={fresh}")))).await.status, 200);
        // Nor does another tracker's key open this one.
        let other = app.create_tracker("adidas").await;
        let other_hash = other["hash"].as_str().unwrap();
        assert_eq!(send(anon.get(app.url(&format!("/api/v1/trackers/{other_hash}/media-wall?moderationKey={fresh}")))).await.status, 401);
    })
    .await;
}

#[tokio::test]
async fn the_embed_shows_the_saved_public_wall_and_opens_nothing_else() {
    each(|app| async move {
        let hash = tracker_with_posts(&app).await;
        let wall_path = format!("/api/v1/trackers/{hash}/media-wall");
        app.post(&format!("{wall_path}/visibility"), json!({"posts": ["twitter;1"], "visibility": 0})).await;
        app.send_json("PUT", &format!("{wall_path}/settings"), json!({"postCount": 2, "theme": "light"})).await;
        let embed = app.get(&format!("/api/v1/trackers/{hash}/embed?page=media-wall")).await;
        assert_eq!(embed.status, 200, "{:?}", embed.body);
        assert_eq!(embed.body["height"], "100%");
        let url = embed.body["url"].as_str().unwrap();
        let key = url.split("embedKey=").nth(1).unwrap().to_string();
        let (anon, _) = anonymous(&app).await;
        let wall = send(anon.get(app.url(&format!("{wall_path}?embedKey={key}&visibility=-1&count=500")))).await;
        assert_eq!(wall.status, 200, "{:?}", wall.body);
        assert_eq!(keys(&wall.body, "posts"), ["twitter;5", "twitter;4"], "the saved settings, public posts only");
        assert_eq!((wall.body["canModerate"].as_bool(), wall.body["canManage"].as_bool()), (Some(false), Some(false)));
        assert_eq!(wall.body["settings"]["theme"], "light");
        let opened = opened_by(&app, &hash, &format!("embedKey={key}")).await;
        let expected: BTreeSet<String> = ["get /api/v1/trackers/{hash}", "get /api/v1/trackers/{hash}/media-wall"].into_iter().map(String::from).collect();
        assert_eq!(opened, expected);
    })
    .await;
}

#[tokio::test]
async fn a_plan_without_the_wall_locks_it() {
    each(|app| async move {
        app.setup_admin().await;
        app.create_tracker("nike").await;
        // An account of its own (made today, after the date that opens the wall to all), with a
        // tracker of its own, then put on a plan below the wall's.
        let (small, token) = signed_in_now(&app, "small@example.org").await;
        let search = json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["adidas"]}]}});
        let created = send(small.post(app.url("/api/v1/trackers")).header("X-CSRF-Token", &token).json(&search)).await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let hash = created.body["hash"].as_str().unwrap().to_string();
        let wall_path = format!("/api/v1/trackers/{hash}/media-wall");
        assert_eq!(send(small.get(app.url(&wall_path))).await.status, 200, "the self-hosted plan has the wall");
        let id = app.store.user_by_email("small@example.org").await.unwrap().unwrap().id;
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{id}"), json!({"plan": 15})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        for path in [wall_path.clone(), format!("{wall_path}/moderation-link")] {
            let locked = send(small.get(app.url(&path))).await;
            assert_eq!((locked.status, locked.body["error"]["code"].as_str()), (403, Some("upgrade_required")), "{path}: {:?}", locked.body);
        }
        let settings = send(small.put(app.url(&format!("{wall_path}/settings"))).header("X-CSRF-Token", &token).json(&json!({}))).await;
        assert_eq!(settings.body["error"]["code"], "upgrade_required");
        assert_eq!(send(small.get(app.url("/api/v1/me"))).await.body["features"]["mediaWall"], false);
        // The instance administrator still sees it.
        assert_eq!(app.get(&wall_path).await.status, 200);
    })
    .await;
}

#[tokio::test]
async fn the_demo_media_are_served_and_cached() {
    each(|app| async move {
        let r = app.client.get(app.url("/demo-media/photo/abc.svg")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "image/svg+xml");
        assert_eq!(r.headers()["cache-control"], "public, max-age=86400");
        assert!(r.text().await.unwrap().starts_with("<svg"));
        let clip = app.client.get(app.url("/demo-media/clip/abc.webm")).send().await.unwrap();
        assert_eq!(clip.headers()["content-type"], "video/webm");
        for missing in ["/demo-media/photo/abc.png", "/demo-media/nothing/x.svg", "/demo-media/photo/..%2Fx.svg"] {
            let r = send(app.client.get(app.url(missing))).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (404, Some("not_found")), "{missing}");
        }
    })
    .await;
}

/// A platform's media host on 127.0.0.1: a picture, a page, an SVG picture, a missing one.
async fn media_host() -> String {
    use axum::http::header::CONTENT_TYPE;
    use axum::routing::get;
    let png: &'static [u8] = b"\x89PNG\r\n\x1a\n fake picture bytes";
    let app = axum::Router::new()
        .route("/pic.png", get(move || async move { ([(CONTENT_TYPE, "image/png")], png) }))
        .route("/page.html", get(|| async { ([(CONTENT_TYPE, "text/html")], "<script>alert(1)</script>") }))
        .route("/pic.svg", get(|| async { ([(CONTENT_TYPE, "image/svg+xml")], "<svg onload=\"alert(1)\"/>") }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    format!("http://{addr}")
}

/// The proxied addresses the wall gives for pictures at these addresses, in order.
async fn proxied(app: &TestApp, urls: &[String]) -> Vec<String> {
    app.setup_admin().await;
    let t = app.create_tracker("nike").await;
    let hash = t["hash"].as_str().unwrap();
    let posts: Vec<Value> = urls.iter().enumerate().map(|(i, u)| post(&(i + 1).to_string(), "nike", "ana", photo(u))).collect();
    assert_eq!(app.import_posts(hash, &posts).await.status, 200);
    let wall = app.get(&format!("/api/v1/trackers/{hash}/media-wall")).await.body;
    let mut out: Vec<String> = wall["posts"].as_array().unwrap().iter().map(|p| p["media"][0]["url"].as_str().unwrap().to_string()).collect();
    out.reverse();
    out
}

#[tokio::test]
async fn the_media_proxy_serves_images_it_handed_out_from_public_hosts_only() {
    let host = media_host().await;
    let urls = [format!("{host}/pic.png"), format!("{host}/page.html"), format!("{host}/pic.svg"), format!("{host}/gone.png")];
    for backend in hark_testkit::backends() {
        // As deployed: this machine's addresses are private, so refused.
        let app = TestApp::spawn(backend).await;
        let served = proxied(&app, &urls).await;
        let r = send(app.client.get(app.url(&served[0]))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("private_address")), "{:?}", r.body);
        // A forged or altered address is refused before any fetch.
        let forged = served[0].replace("pic.png", "other.png");
        let r = send(app.client.get(app.url(&forged))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("forbidden")));
        let r = send(app.client.get(app.url("/media/proxy?u=http%3A%2F%2F169.254.169.254%2F"))).await;
        assert_eq!(r.status, 400);
        drop(app);

        // With the test hosts allowed: pictures pass, pages and SVG do not.
        let app = TestApp::spawn_with(backend, hark_api::ApiConfig { media_allow_private: true, ..Default::default() }).await;
        let served = proxied(&app, &urls).await;
        let r = app.client.get(app.url(&served[0])).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "image/png");
        assert_eq!(r.headers()["cache-control"], "public, max-age=86400");
        assert!(r.headers()["content-security-policy"].to_str().unwrap().contains("sandbox"));
        assert!(r.bytes().await.unwrap().starts_with(b"\x89PNG"));
        for (url, status, code) in [(&served[1], 415, "invalid_content_type"), (&served[2], 415, "invalid_content_type"), (&served[3], 404, "not_found")] {
            let r = send(app.client.get(app.url(url))).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (status, Some(code)), "{url}");
        }
    }
}
