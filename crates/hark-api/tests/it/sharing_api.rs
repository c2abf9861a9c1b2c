//! Sharing a tracker: the Share dialog's settings, the share link's limited view and revoking it,
//! on SQLite and (when configured) PostgreSQL.

use hark_testkit::{csrf_of, each_app as each, send, TestApp};
use serde_json::json;

fn post(id: &str, text: &str) -> serde_json::Value {
    json!({"platform": "twitter", "id": id, "createdAt": 1_790_000_000_000i64, "text": text, "author": {"username": "someone"}})
}

async fn anonymous(app: &TestApp) -> reqwest::Client {
    let (c, jar) = app.new_browser();
    csrf_of(&c, &jar, &app.base).await;
    c
}

#[tokio::test]
async fn the_share_link_reads_the_pages_and_nothing_else() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let imported = app.import_posts(&hash, &[post("1", "nike shoes"), post("2", "more nike")]).await;
        assert_eq!(imported.status, 200, "{:?}", imported.body);

        let share = app.get(&format!("/api/v1/trackers/{hash}/share")).await;
        assert_eq!(share.status, 200, "{:?}", share.body);
        let key = share.body["shareHash"].as_str().unwrap().to_string();
        assert_eq!(key.len(), 32);
        assert_eq!(share.body["path"], format!("/hashtag-tracking/dashboard/{hash}/{}", t["friendly"].as_str().unwrap()));
        assert_eq!(share.body["exportsLocked"], false);
        // The hash stays until revoked.
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/share")).await.body["shareHash"], key.as_str());

        let anon = anonymous(&app).await;
        let get = |path: String| send(anon.get(app.url(&path)));
        assert_eq!(get(format!("/api/v1/trackers/{hash}")).await.status, 401);
        assert_eq!(get(format!("/api/v1/trackers/{hash}?shareHash=0123456789abcdef0123456789abcdef")).await.status, 401);
        let seen = get(format!("/api/v1/trackers/{hash}?shareHash={key}")).await;
        assert_eq!(seen.status, 200, "{:?}", seen.body);
        assert_eq!(seen.body["shared"], true);
        assert_eq!(seen.body["permission"], 1);
        assert_eq!(seen.body["isOwner"], false);
        assert!(seen.body["shareHash"].is_null(), "the visitor is not given the hash back");
        // The owner's own answer carries it; not shared.
        let own = app.get(&format!("/api/v1/trackers/{hash}")).await;
        assert_eq!(own.body["shareHash"], key.as_str());
        assert_eq!(own.body["shared"], false);

        // The same numbers as the owner's.
        let stats = get(format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all&shareHash={key}")).await;
        assert_eq!(stats.status, 200, "{:?}", stats.body);
        assert_eq!(stats.body, app.get(&format!("/api/v1/trackers/{hash}/dashboard/top-stats?days=all")).await.body);
        let posts = get(format!("/api/v1/trackers/{hash}/posts?days=all&shareHash={key}")).await;
        assert_eq!(posts.body["total"], 2);
        assert_eq!(posts.body["canManage"], false);
        assert_eq!(posts.body["canExport"], false);

        // Toggles off: no predictions, no exports, no logs, no changes.
        let denied = get(format!("/api/v1/trackers/{hash}/dashboard/prediction?shareHash={key}")).await;
        assert_eq!((denied.status, denied.body["error"]["code"].as_str()), (403, Some("forbidden")));
        assert_eq!(get(format!("/api/v1/trackers/{hash}/posts/export.csv?shareHash={key}")).await.status, 403);
        assert_eq!(get(format!("/api/v1/trackers/{hash}/logs?shareHash={key}")).await.status, 401);
        assert_eq!(get(format!("/api/v1/trackers/{hash}/share?shareHash={key}")).await.status, 401);

        // Toggles on.
        let on = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"linkSharing": {"editDateRange": true, "exportReports": true, "viewPredictions": true}}))
            .await;
        assert_eq!(on.status, 200, "{:?}", on.body);
        assert_eq!(on.body["linkSharing"]["viewPredictions"], true);
        assert_eq!(get(format!("/api/v1/trackers/{hash}/dashboard/prediction?shareHash={key}")).await.status, 200);
        let csv = get(format!("/api/v1/trackers/{hash}/posts/export.csv?days=all&shareHash={key}")).await;
        assert_eq!(csv.status, 200);
        assert!(csv.body.as_str().unwrap_or("").contains("nike shoes"));
        assert_eq!(get(format!("/api/v1/trackers/{hash}/posts?shareHash={key}")).await.body["canExport"], true);
        let seen = get(format!("/api/v1/trackers/{hash}?shareHash={key}")).await;
        assert_eq!(seen.body["linkSharing"]["editDateRange"], true);

        // Revoked: the old link stops working, the new one works.
        let revoked = app.post(&format!("/api/v1/trackers/{hash}/share/revoke"), json!({})).await;
        assert_eq!(revoked.status, 200);
        let fresh = revoked.body["shareHash"].as_str().unwrap().to_string();
        assert_ne!(fresh, key);
        assert_eq!(get(format!("/api/v1/trackers/{hash}?shareHash={key}")).await.status, 401);
        assert_eq!(get(format!("/api/v1/trackers/{hash}/dashboard/top-stats?shareHash={key}")).await.status, 401);
        assert_eq!(get(format!("/api/v1/trackers/{hash}?shareHash={fresh}")).await.status, 200);
        // A share link of one tracker opens no other.
        let other = app.create_tracker("adidas").await;
        let other = other["hash"].as_str().unwrap();
        assert_eq!(get(format!("/api/v1/trackers/{other}?shareHash={fresh}")).await.status, 401);
    })
    .await;
}

#[tokio::test]
async fn custom_urls_are_cleaned_unique_and_validated() {
    each(|app| async move {
        app.setup_admin().await;
        let a = app.create_tracker("nike").await;
        let b = app.create_tracker("adidas").await;
        let (a, b) = (a["hash"].as_str().unwrap().to_string(), b["hash"].as_str().unwrap().to_string());
        let put = |hash: String, body: serde_json::Value| {
            let app = &app;
            async move { app.send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), body).await }
        };
        let r = put(a.clone(), json!({"customUrl": " nike launch 2026 "})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["customUrl"], "nikelaunch2026");
        assert_eq!(r.body["path"], format!("/hashtag-tracking/dashboard/{a}/nikelaunch2026"));
        // Another tracker cannot take it; nothing of its own changes.
        let taken = put(b.clone(), json!({"customUrl": "nikelaunch2026", "shareExports": true})).await;
        assert_eq!((taken.status, taken.body["error"]["code"].as_str()), (409, Some("custom_url_taken")));
        let b_now = app.get(&format!("/api/v1/trackers/{b}/share")).await;
        assert!(b_now.body["customUrl"].is_null());
        assert_eq!(b_now.body["shareExports"], false);
        for bad in ["a/b", "café", &"x".repeat(101)] {
            let r = put(b.clone(), json!({"customUrl": bad})).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_custom_url")), "{bad}");
        }
        let r = put(a.clone(), json!({"unknown": 1})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (400, Some("invalid_json")), "{:?}", r.body);
        // Other fields leave the URL alone; "" clears it and frees it.
        let r = put(a.clone(), json!({"unlockDate": true, "shareExports": true})).await;
        assert_eq!((r.body["customUrl"].as_str(), r.body["unlockDate"].as_bool(), r.body["shareExports"].as_bool()), (Some("nikelaunch2026"), Some(true), Some(true)));
        let t = app.get(&format!("/api/v1/trackers/{a}")).await;
        assert_eq!((t.body["unlockDate"].as_bool(), t.body["shareExports"].as_bool()), (Some(true), Some(true)));
        assert!(put(a.clone(), json!({"customUrl": ""})).await.body["customUrl"].is_null());
        assert_eq!(put(b.clone(), json!({"customUrl": "nikelaunch2026"})).await.status, 200);
    })
    .await;
}

#[tokio::test]
async fn a_trial_tracker_cannot_share_exports_and_members_cannot_share() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        // A viewer and an editor see no Share dialog.
        for (email, p) in [("v@example.org", hark_core::Permission::Viewer), ("e@example.org", hark_core::Permission::Editor)] {
            let (c, token) = app.member_browser(&hash, email, p).await;
            assert_eq!(send(c.get(app.url(&format!("/api/v1/trackers/{hash}/share")))).await.status, 403);
            let put = send(c.put(app.url(&format!("/api/v1/trackers/{hash}/share"))).header("X-CSRF-Token", &token).json(&json!({"shareExports": true}))).await;
            assert_eq!(put.status, 403);
            let seen = send(c.get(app.url(&format!("/api/v1/trackers/{hash}")))).await;
            assert!(seen.body["shareHash"].is_null(), "only who may share sees the hash");
        }
        // The owner on a trial: export reports stay locked, the other toggles work.
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        app.store.set_trial(row.owner_id, true, None).await.unwrap();
        let share = app.get(&format!("/api/v1/trackers/{hash}/share")).await;
        assert_eq!(share.body["exportsLocked"], true);
        let r = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"linkSharing": {"exportReports": true, "viewPredictions": true}}))
            .await;
        assert_eq!((r.status, r.body["error"]["code"].as_str(), r.body["error"]["message"].as_str()), (403, Some("upgrade_required"), Some("Upgrade to export reports")));
        let r = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"linkSharing": {"viewPredictions": true}})).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.body["linkSharing"], json!({"editDateRange": false, "exportReports": false, "viewPredictions": true}));
    })
    .await;
}

#[tokio::test]
async fn the_share_link_goes_out_by_email_through_the_configured_server() {
    let smtp = hark_testkit::SmtpServer::start();
    for backend in hark_testkit::backends() {
        // Without a mail server the dialog says so and nothing is sent.
        let plain = TestApp::spawn(backend).await;
        plain.setup_admin().await;
        let t = plain.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        assert_eq!(plain.get(&format!("/api/v1/trackers/{hash}/share")).await.body["emailEnabled"], false);
        let r = plain.post(&format!("/api/v1/trackers/{hash}/share/email"), json!({"emails": "a@example.org"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (503, Some("mail_not_configured")));
        drop(plain);

        let config = hark_api::ApiConfig {
            mail: Some(hark_api::mail::MailConfig { smtp_url: smtp.url.clone(), from: "Hark <hark@example.org>".into() }),
            public_url: Some("https://hark.example.org/".into()),
            ..Default::default()
        };
        let app = TestApp::spawn_with(backend, config).await;
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let share = app.get(&format!("/api/v1/trackers/{hash}/share")).await;
        assert_eq!(share.body["emailEnabled"], true);
        let key = share.body["shareHash"].as_str().unwrap().to_string();
        let before = smtp.messages().len();
        // Bad input sends nothing.
        for bad in ["", " , ", "ann@example.org, not-an-address"] {
            let r = app.post(&format!("/api/v1/trackers/{hash}/share/email"), json!({"emails": bad})).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_email")), "{bad:?}");
        }
        let r = app.post(&format!("/api/v1/trackers/{hash}/share/email"), json!({"emails": "ann@example.org, Bob@Example.org", "query": "days=30&shareHash=stale"})).await;
        assert_eq!((r.status, r.body["sent"].as_i64()), (200, Some(2)), "{:?}", r.body);
        let mail = smtp.wait_for(before + 2).await;
        let sent: Vec<_> = mail[before..].to_vec();
        assert_eq!(sent.len(), 2);
        let link = format!("https://hark.example.org/hashtag-tracking/dashboard/{hash}/{}?days=30&shareHash={key}", t["friendly"].as_str().unwrap());
        for (m, to) in sent.iter().zip(["ann@example.org", "bob@example.org"]) {
            assert_eq!(m.to, vec![to.to_string()]);
            assert_eq!(m.from, "hark@example.org");
            assert!(m.data.contains("Subject: Ada shared the tracker"), "{}", m.data);
            assert!(m.data.replace("=\r\n", "").replace("=3D", "=").contains(&link), "{}", m.data);
        }
    }
}

#[tokio::test]
async fn link_sharing_toggles_need_plan_35() {
    each(|app| async move {
        app.setup_admin().await;
        let pw = hark_api::auth::hash_password("password123").unwrap();
        let mut u = hark_api::routes::session::self_hosted_user("small@example.org".into(), pw, "Small".into(), false);
        u.plan = 25;
        app.store.create_user(&u, 1).await.unwrap();
        let (c, jar) = app.new_browser();
        let csrf = csrf_of(&c, &jar, &app.base).await;
        let login = send(c.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &csrf).json(&json!({"email": "small@example.org", "password": "password123"}))).await;
        assert_eq!(login.status, 200);
        let csrf = csrf_of(&c, &jar, &app.base).await;
        let t = send(c.post(app.url("/api/v1/trackers")).header("X-CSRF-Token", &csrf).json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["tea"]}]}}))).await;
        assert_eq!(t.status, 201, "{:?}", t.body);
        let hash = t.body["hash"].as_str().unwrap().to_string();
        let share = send(c.get(app.url(&format!("/api/v1/trackers/{hash}/share")))).await;
        assert_eq!((share.status, share.body["linkSharingLocked"].as_bool()), (200, Some(true)));
        let put = |body: serde_json::Value| send(c.put(app.url(&format!("/api/v1/trackers/{hash}/share"))).header("X-CSRF-Token", &csrf).json(&body));
        let r = put(json!({"linkSharing": {"editDateRange": true}})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str(), r.body["error"]["message"].as_str()), (403, Some("upgrade_required"), Some("Upgrade your account to unlock")));
        // The rest of the dialog works.
        let r = put(json!({"customUrl": "tea-time", "unlockDate": true})).await;
        assert_eq!((r.status, r.body["customUrl"].as_str()), (200, Some("tea-time")));
        // The instance administrator may set them on the same tracker.
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/share")).await.body["linkSharingLocked"], false);
        let r = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"linkSharing": {"editDateRange": true}})).await;
        assert_eq!(r.status, 200);
    })
    .await;
}

#[tokio::test]
async fn embed_codes_open_their_chart_or_page_only() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        app.import_posts(&hash, &[post("1", "nike shoes")]).await;
        let code = app.get(&format!("/api/v1/trackers/{hash}/embed?chart=timeline&card=twitter%3Bnike")).await;
        assert_eq!(code.status, 200, "{:?}", code.body);
        assert_eq!((code.body["scope"].as_str(), code.body["height"].as_str()), (Some("chart:timeline"), Some("400")));
        let url = code.body["url"].as_str().unwrap().to_string();
        assert!(url.contains(&format!("/hashtag-tracking/dashboard/{hash}/")) && url.contains("embed=1") && url.contains("chart=timeline") && url.contains("card=twitter%3Bnike"), "{url}");
        let iframe = code.body["iframe"].as_str().unwrap();
        assert!(iframe.starts_with("<iframe src=\"") && iframe.contains("height=\"400\"") && iframe.contains("&amp;embedKey="), "{iframe}");
        let key = url.split("embedKey=").nth(1).unwrap().to_string();
        let anon = anonymous(&app).await;
        let get = |path: String| send(anon.get(app.url(&path)));
        assert_eq!(get(format!("/api/v1/trackers/{hash}/dashboard/timeline?days=all&embedKey={key}")).await.status, 200);
        let seen = get(format!("/api/v1/trackers/{hash}?embedKey={key}")).await;
        assert_eq!((seen.status, seen.body["shared"].as_bool()), (200, Some(true)));
        for other in ["dashboard/top-posts", "posts", "dashboard/prediction", "posts/export.csv", "logs"] {
            assert_eq!(get(format!("/api/v1/trackers/{hash}/{other}?embedKey={key}")).await.status, 401, "{other}");
        }
        // A page embed: the media wall frames at 100%, the posts page reads posts.
        let wall = app.get(&format!("/api/v1/trackers/{hash}/embed?page=media-wall")).await;
        assert_eq!(wall.body["height"], "100%");
        let posts = app.get(&format!("/api/v1/trackers/{hash}/embed?page=posts")).await;
        let pkey = posts.body["url"].as_str().unwrap().split("embedKey=").nth(1).unwrap().to_string();
        assert!(posts.body["url"].as_str().unwrap().contains(&format!("/hashtag-tracking/posts/{hash}/")));
        let list = get(format!("/api/v1/trackers/{hash}/posts?days=all&embedKey={pkey}")).await;
        assert_eq!((list.status, list.body["total"].as_i64(), list.body["canExport"].as_bool()), (200, Some(1), Some(false)));
        assert_eq!(get(format!("/api/v1/trackers/{hash}/dashboard/timeline?embedKey={pkey}")).await.status, 401);
        // Bad names.
        for q in ["", "chart=nope", "page=nope", "chart=timeline&page=posts"] {
            let r = app.get(&format!("/api/v1/trackers/{hash}/embed?{q}")).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_chart")), "{q}");
        }
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/embed?chart=timeline&card=nope")).await.status, 400);
        // Revoking the share link revokes the embeds.
        app.post(&format!("/api/v1/trackers/{hash}/share/revoke"), json!({})).await;
        assert_eq!(get(format!("/api/v1/trackers/{hash}/dashboard/timeline?embedKey={key}")).await.status, 401);
        // A viewer embeds only when the tracker shares exports.
        let (viewer, _) = app.member_browser(&hash, "v@example.org", hark_core::Permission::Viewer).await;
        assert_eq!(send(viewer.get(app.url(&format!("/api/v1/trackers/{hash}/embed?chart=timeline")))).await.status, 403);
        app.send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"shareExports": true})).await;
        assert_eq!(send(viewer.get(app.url(&format!("/api/v1/trackers/{hash}/embed?chart=timeline")))).await.status, 200);
    })
    .await;
}
