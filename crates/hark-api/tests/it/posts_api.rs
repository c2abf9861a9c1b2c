//! The posts page API: list, search, filters, tags, sentiment, delete and ignore with undo, add by
//! address, CSV export, and who may do what; on SQLite and (when configured) PostgreSQL.

use hark_core::Permission;
use hark_testkit::{each_app as each, send, TestApp};
use serde_json::{json, Value};


const DAY: i64 = 86_400_000;

/// A tracker on "coffee" with five posts from the last days, imported as NDJSON.
async fn seeded(app: &TestApp) -> String {
    app.setup_admin().await;
    let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
    let now = hark_core::now_millis();
    let lines = [
        json!({"platform":"twitter","id":"1","text":"I love coffee, wonderful morning","createdAt": now - DAY,
               "author":{"username":"ann","name":"Ann Smith","location":"Lisbon"},"counts":{"likes":10,"retweets":2}}),
        json!({"platform":"twitter","id":"2","text":"coffee is terrible and awful today","createdAt": now - 2 * DAY,
               "author":{"username":"bob","name":"Bob Jones"},"counts":{"likes":100}}),
        json!({"platform":"twitter","id":"3","text":"RT coffee beans","createdAt": now - 3 * DAY,
               "author":{"username":"cy"},"flags":{"isRetweet":true,"retweetOf":"ann"}}),
        json!({"platform":"twitter","id":"4","text":"espresso coffee","createdAt": now - 4 * DAY,
               "author":{"username":"dee"},"counts":{"likes":1}}),
        json!({"platform":"twitter","id":"5","text":"old coffee","createdAt": now - 40 * DAY, "author":{"username":"eve"}}),
    ];
    import_posts(app, &hash, &lines).await;
    hash
}

/// Imports posts (Hark's NDJSON) into a tracker; every one must be taken.
async fn import_posts(app: &TestApp, hash: &str, posts: &[Value]) {
    let body: String = posts.iter().map(|l| format!("{l}\n")).collect();
    let token = app.csrf().await;
    let res = send(
        app.client
            .post(app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson")))
            .header("X-CSRF-Token", &token)
            .body(body),
    )
    .await;
    assert_eq!(res.body["imported"], posts.len(), "{:?}", res.body);
}

fn ids(body: &Value) -> Vec<String> {
    body["posts"].as_array().unwrap().iter().map(|p| p["post"]["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn list_defaults_filters_search_sort_and_errors() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}/posts");
        let page = app.get(&format!("{base}?days=30")).await;
        assert_eq!(page.status, 200, "{:?}", page.body);
        assert_eq!(ids(&page.body), ["1", "2", "3", "4"]);
        assert_eq!(page.body["total"], 4);
        assert_eq!(page.body["perPage"], 25);
        assert_eq!(page.body["canManage"], true);
        assert_eq!(page.body["posts"][0]["key"], "twitter;1");
        let all = app.get(&format!("{base}?days=all&sort=engagement;desc&perPage=2&page=1")).await.body;
        assert_eq!(ids(&all), ["2", "1"]);
        assert_eq!(all["total"], 5);
        let search = app.get(&format!("{base}?days=30&search=Lisbon")).await.body;
        assert_eq!(ids(&search), ["1"]);
        let search = app.get(&format!("{base}?days=30&search=bob%20jones")).await.body;
        assert_eq!(ids(&search), ["2"]);
        let no_rt = app.get(&format!("{base}?days=30&excludeRT=1")).await.body;
        assert_eq!(no_rt["total"], 3);
        let neg = app.get(&format!("{base}?days=30&sentiment=negative,slight_negative")).await.body;
        assert_eq!(ids(&neg), ["2"], "{neg:?}");
        for bad in ["sort=nope", "sort=date;up", "page=0", "perPage=5000", "sentiment=happy", "postTags=x", "days=-1"] {
            let r = app.get(&format!("{base}?{bad}")).await;
            assert_eq!(r.status, 400, "{bad}");
            assert_eq!(r.body["error"]["code"], "invalid_query", "{bad}");
        }
    })
    .await;
}

#[tokio::test]
async fn tags_sentiment_delete_and_ignore_with_undo() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}");
        let a = app.post(&format!("{base}/tags"), json!({"name": "Praise"})).await.body["id"].as_i64().unwrap();
        let b = app.post(&format!("{base}/tags"), json!({"name": "Bugs", "color": "#2980b9"})).await.body["id"].as_i64().unwrap();
        let r = app.send_json("PUT", &format!("{base}/posts/tags"), json!({"posts": ["twitter;1", "twitter;2"], "add": [a]})).await;
        assert_eq!(r.body["added"], 2, "{:?}", r.body);
        app.send_json("PUT", &format!("{base}/posts/tags"), json!({"posts": ["twitter;2"], "add": [b]})).await;
        let any = app.get(&format!("{base}/posts?days=30&postTags={a},{b}&postTagFilterMode=any")).await.body;
        assert_eq!(ids(&any), ["1", "2"]);
        let all = app.get(&format!("{base}/posts?days=30&postTags={a},{b}&postTagFilterMode=all")).await.body;
        assert_eq!(ids(&all), ["2"]);
        assert_eq!(all["posts"][0]["tags"], json!([a, b]));
        let bad = app.send_json("PUT", &format!("{base}/posts/tags"), json!({"posts": ["twitter;1"], "add": [999_999]})).await;
        assert_eq!(bad.status, 422);
        let bad = app.send_json("PUT", &format!("{base}/posts/tags"), json!({"posts": ["nokey"], "add": [a]})).await;
        assert_eq!(bad.status, 422);

        // Sentiment edit moves the post between filters and the rollup.
        let e = app.send_json("PUT", &format!("{base}/posts/sentiment"), json!({"post": "twitter;2", "sentiment": "positive"})).await;
        assert_eq!((e.status, e.body["new"].as_str()), (200, Some("positive")), "{:?}", e.body);
        let pos = app.get(&format!("{base}/posts?days=30&sentiment=positive")).await.body;
        assert!(ids(&pos).contains(&"2".to_string()));
        assert_eq!(pos["posts"].as_array().unwrap().iter().find(|p| p["key"] == "twitter;2").unwrap()["sentimentEdited"], true);
        let bad = app.send_json("PUT", &format!("{base}/posts/sentiment"), json!({"post": "twitter;2", "sentiment": "meh"})).await;
        assert_eq!(bad.status, 422);
        let missing = app.send_json("PUT", &format!("{base}/posts/sentiment"), json!({"post": "twitter;77", "sentiment": "neutral"})).await;
        assert_eq!(missing.status, 404);

        // Bulk delete leaves the counts; undo puts them back.
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let before = app.store.rollup_totals(row.id).await.unwrap();
        let stats_before = app.get(&format!("{base}/stats?days=all")).await.body;
        let d = app.post(&format!("{base}/posts/delete"), json!({"posts": ["twitter;1", "twitter;2"]})).await;
        assert_eq!(d.body["count"], 2);
        assert_eq!(app.get(&format!("{base}/posts?days=30")).await.body["total"], 2);
        assert_eq!(app.get(&format!("{base}/total-posts?days=all")).await.body["count"]["posts"], 3);
        assert_eq!(app.store.rollup_totals(row.id).await.unwrap().0, before.0 - 2);
        let u = app.post(&format!("{base}/posts/undo-delete"), json!({"posts": ["twitter;1", "twitter;2"]})).await;
        assert_eq!(u.body["count"], 2);
        assert_eq!(app.store.rollup_totals(row.id).await.unwrap(), before);
        assert_eq!(app.get(&format!("{base}/stats?days=all")).await.body, stats_before);
        // Tags survive a delete and its undo.
        assert_eq!(app.get(&format!("{base}/posts?days=30&postTags={a}")).await.body["total"], 2);

        // Ignore: later posts of that author are not collected; undo collects them again.
        let i = app.post(&format!("{base}/ignored-users"), json!({"users": ["twitter;@Ann"]})).await;
        assert_eq!(i.body["count"], 1, "{:?}", i.body);
        let token = app.csrf().await;
        let import = |id: &str| {
            let body = format!(
                "{}\n",
                json!({"platform":"twitter","id": id,"text":"more coffee","createdAt": hark_core::now_millis(),"author":{"username":"ann"}})
            );
            send(
                app.client
                    .post(app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson")))
                    .header("X-CSRF-Token", &token)
                    .body(body),
            )
        };
        assert_eq!(import("50").await.body["imported"], 0);
        app.post(&format!("{base}/ignored-users/undo"), json!({"users": ["twitter;ann"]})).await;
        assert_eq!(import("51").await.body["imported"], 1);
        let bad = app.post(&format!("{base}/ignored-users"), json!({"users": ["ann"]})).await;
        assert_eq!(bad.status, 422);
    })
    .await;
}

#[tokio::test]
async fn add_by_address_and_csv_export() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}");
        // A stored post that matches goes back in after a hard removal; others report why.
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let ids4 = app.store.tracker_post_ids(row.id, &["twitter;4".into()]).await.unwrap();
        app.store.unlink_posts(row.id, &ids4, 1).await.unwrap();
        let other = app.create_tracker("tea").await["hash"].as_str().unwrap().to_string();
        let token = app.csrf().await;
        send(
            app.client
                .post(app.url(&format!("/api/v1/trackers/{other}/import?format=ndjson")))
                .header("X-CSRF-Token", &token)
                .body(format!("{}\n", json!({"platform":"twitter","id":"90","text":"green tea","createdAt": hark_core::now_millis()}))),
        )
        .await;
        let r = app
            .post(
                &format!("{base}/posts/add"),
                json!({"urls": ["https://x.com/dee/status/4", "https://x.com/z/status/90", "https://x.com/z/status/12345", "  ", "ftp://nope"]}),
            )
            .await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let res = r.body["results"].as_array().unwrap();
        assert_eq!(res.len(), 4);
        assert_eq!(res[0]["added"], true);
        assert_eq!(res[1]["error"], "Post did not contain search terms/criteria");
        assert_eq!(res[2]["added"], false);
        assert_eq!(res[3]["added"], false);
        assert_eq!(app.get(&format!("{base}/posts?days=30")).await.body["total"], 4);

        // CSV of the current view.
        let csv = app.client.get(app.url(&format!("{base}/posts/export.csv?days=30&search=coffee&excludeRT=1"))).send().await.unwrap();
        assert_eq!(csv.status(), 200);
        assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        let text = csv.text().await.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("\u{feff}Date (UTC),Platform,Name,Username"), "{}", lines[0]);
        assert_eq!(lines.len(), 4, "{text}");
        assert!(text.contains("Ann Smith") && text.contains("\"I love coffee, wonderful morning\""));
        assert!(!text.contains("RT coffee beans"));
    })
    .await;
}

#[tokio::test]
async fn viewers_share_exports_and_anonymous_visitors_are_limited() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}");
        let tag = app.post(&format!("{base}/tags"), json!({"name": "T"})).await.body["id"].as_i64().unwrap();
        app.send_json("PUT", &format!("{base}/posts/tags"), json!({"posts": ["twitter;1"], "add": [tag]})).await;
        let (c, token) = app.member_browser(&hash, "v@example.org", Permission::Viewer).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();

        // A viewer reads posts (without tags) but changes nothing and cannot export.
        let page = send(c.get(app.url(&format!("{base}/posts?days=30")))).await;
        assert_eq!(page.status, 200);
        assert_eq!(page.body["total"], 4);
        assert_eq!((page.body["canManage"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(false)));
        assert!(page.body["posts"].as_array().unwrap().iter().all(|p| p["tags"] == json!([])));
        assert_eq!(page.body["lastVisited"], Value::Null);
        let attempts = [
            ("PUT", "posts/tags", json!({"posts": ["twitter;2"], "add": [tag]})),
            ("PUT", "posts/sentiment", json!({"post": "twitter;2", "sentiment": "negative"})),
            ("POST", "posts/delete", json!({"posts": ["twitter;2"]})),
            ("POST", "posts/undo-delete", json!({"posts": ["twitter;2"]})),
            ("POST", "ignored-users", json!({"users": ["twitter;bob"]})),
            ("POST", "ignored-users/undo", json!({"users": ["twitter;bob"]})),
            ("POST", "posts/add", json!({"urls": ["https://x.com/a/status/1"]})),
        ];
        for (method, path, body) in &attempts {
            let r = send(c.request(method.parse().unwrap(), app.url(&format!("{base}/{path}"))).header("X-CSRF-Token", &token).json(body)).await;
            assert_eq!(r.status, 403, "viewer {method} {path}");
        }
        assert_eq!(send(c.get(app.url(&format!("{base}/posts/export.csv?days=30")))).await.status, 403);
        // With shared exports the viewer may export (and embed), still not edit.
        app.store.set_share_exports(row.id, true).await.unwrap();
        let page = send(c.get(app.url(&format!("{base}/posts?days=30")))).await;
        assert_eq!((page.body["canManage"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(true)));
        assert_eq!(send(c.get(app.url(&format!("{base}/posts/export.csv?days=30")))).await.status, 200);
        let r = send(c.post(app.url(&format!("{base}/posts/delete"))).header("X-CSRF-Token", &token).json(&json!({"posts": ["twitter;2"]}))).await;
        assert_eq!(r.status, 403);
        assert_eq!(app.get(&format!("{base}/posts?days=30")).await.body["total"], 4, "nothing was deleted");

        // Signed out: nothing on a private tracker; the demo tracker reads, nothing else.
        let anon = reqwest::Client::new();
        assert_eq!(send(anon.get(app.url(&format!("{base}/posts")))).await.status, 401);
        app.store.set_demo(row.id, true).await.unwrap();
        let page = send(anon.get(app.url(&format!("{base}/posts?days=30")))).await;
        assert_eq!(page.status, 200);
        assert_eq!((page.body["canManage"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(false)));
        assert!(page.body["posts"].as_array().unwrap().iter().all(|p| p["tags"] == json!([])));
        assert_eq!(send(anon.get(app.url(&format!("{base}/posts/export.csv")))).await.status, 401);
        for (method, path, body) in &attempts {
            let r = send(anon.request(method.parse().unwrap(), app.url(&format!("{base}/{path}"))).json(body)).await;
            assert!(r.status == 401 || r.status == 403, "anonymous {method} {path}: {}", r.status);
        }
    })
    .await;
}

#[tokio::test]
async fn facebook_anonymisation_hides_authors_of_posts_without_insights() {
    each(|app| async move {
        app.setup_admin().await;
        let created = app
            .post(
                "/api/v1/trackers",
                json!({"platforms": {"twt": 1, "fb": 1}, "search": {"rows": [{"type": "+", "searches": ["tea"]}]}}),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let hash = created.body["hash"].as_str().unwrap().to_string();
        assert_eq!(created.body["anonymizeFacebook"], false);
        let now = hark_core::now_millis();
        let lines = [
            json!({"platform":"facebook","id":"f1","text":"green tea","createdAt": now - DAY,
                   "author":{"username":"teapage","name":"Tea Page","avatarUrl":"https://example.com/a.png"}}),
            json!({"platform":"facebook","id":"f2","text":"black tea","createdAt": now - 2 * DAY,
                   "author":{"username":"ownpage","name":"Own Page"},"counts":{"reach":500}}),
            json!({"platform":"twitter","id":"t1","text":"tea time","createdAt": now - 3 * DAY, "author":{"username":"tim"}}),
        ];
        let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let token = app.csrf().await;
        let res = send(
            app.client
                .post(app.url(&format!("/api/v1/trackers/{hash}/import?format=ndjson")))
                .header("X-CSRF-Token", &token)
                .body(body),
        )
        .await;
        assert_eq!(res.body["imported"], 3, "{:?}", res.body);
        let list = format!("/api/v1/trackers/{hash}/posts?days=30");
        let before = app.get(&list).await.body;
        assert_eq!(before["posts"][0]["post"]["author"]["name"], "Tea Page");
        assert_eq!(before["posts"][0]["anonymized"], false);

        let url = format!("/api/v1/trackers/{hash}/anonymize-facebook");
        let on = app.send_json("PUT", &url, json!({"enabled": true})).await;
        assert_eq!(on.status, 200, "{:?}", on.body);
        assert_eq!(on.body["anonymizeFacebook"], true);
        // Saving the chart layout keeps the setting.
        let cfg = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/custom-config"), json!({"order": [], "columns": 2}))
            .await;
        assert_eq!(cfg.body["anonymizeFacebook"], true, "{:?}", cfg.body);

        let after = app.get(&list).await.body;
        let by_id = |id: &str| after["posts"].as_array().unwrap().iter().find(|p| p["post"]["id"] == id).unwrap().clone();
        let f1 = by_id("f1");
        assert_eq!(f1["anonymized"], true);
        assert_eq!(f1["post"]["author"]["name"], "");
        assert_eq!(f1["post"]["author"]["username"], "");
        assert!(f1["post"]["author"]["avatarUrl"].is_null(), "{f1:?}");
        // A post with insights, and other platforms, keep their authors.
        assert_eq!(by_id("f2")["post"]["author"]["name"], "Own Page");
        assert_eq!(by_id("t1")["post"]["author"]["username"], "tim");
        let csv = app.client.get(app.url(&format!("/api/v1/trackers/{hash}/posts/export.csv?days=30"))).send().await.unwrap();
        let csv = csv.text().await.unwrap();
        assert!(!csv.contains("Tea Page") && csv.contains("Own Page"), "{csv}");

        assert_eq!(app.send_json("PUT", &url, json!({"enabled": "yes"})).await.status, 400);
        let off = app.send_json("PUT", &url, json!({"enabled": false})).await;
        assert_eq!(off.body["anonymizeFacebook"], false);
        assert_eq!(app.get(&list).await.body["posts"][0]["post"]["author"]["name"], "Tea Page");
    })
    .await;
}

#[tokio::test]
async fn indirect_matches_carry_their_note_flag() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let matcher = std::sync::Arc::new(hark_ingest::pipeline::compile(&[(row.id, row.criteria.clone())]).unwrap());
        let mut p = hark_core::Post::new(hark_core::Platform::Twitter, "77", "Roasting beans at dawn", hark_core::now_millis() - DAY / 2);
        p.author.username = "roaster".into();
        hark_ingest::pipeline::ingest_searched(&app.store, matcher, vec![p], hark_core::now_millis(), Some(row.id)).await.unwrap();
        let page = app.get(&format!("/api/v1/trackers/{hash}/posts?days=30")).await.body;
        let flags: Vec<(String, bool)> = page["posts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["post"]["id"].as_str().unwrap().to_string(), p["indirectMatch"].as_bool().unwrap()))
            .collect();
        assert_eq!(flags[0], ("77".to_string(), true), "{flags:?}");
        assert!(flags[1..].iter().all(|(_, indirect)| !indirect), "{flags:?}");
    })
    .await;
}

/// The header's subtracker choice reaches the posts list and its export through the filter
/// query every page shares (`subtracker=N`), and a number out of range is refused.
#[tokio::test]
async fn the_shared_subtracker_filter_narrows_the_list_and_export() {
    each(|app| async move {
        app.setup_admin().await;
        let created = app
            .post(
                "/api/v1/trackers",
                json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]},
                       "subtrackers": ["espresso"]}),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let hash = created.body["hash"].as_str().unwrap().to_string();
        let now = hark_core::now_millis();
        import_posts(&app, &hash, &[
            json!({"platform":"twitter","id":"1","text":"espresso coffee","createdAt": now - DAY, "author":{"username":"ann"}}),
            json!({"platform":"twitter","id":"2","text":"filter coffee","createdAt": now - DAY, "author":{"username":"bob"}}),
        ])
        .await;
        let base = format!("/api/v1/trackers/{hash}/posts");
        assert_eq!(ids(&app.get(&format!("{base}?days=30")).await.body).len(), 2);
        let sub = app.get(&format!("{base}?days=30&subtracker=1")).await;
        assert_eq!(sub.status, 200, "{:?}", sub.body);
        assert_eq!(ids(&sub.body), ["1"]);
        assert_eq!(sub.body["total"], 1);
        let csv = app.client.get(app.url(&format!("{base}/export.csv?days=30&subtracker=1"))).send().await.unwrap();
        let text = csv.text().await.unwrap();
        assert!(text.contains("espresso coffee") && !text.contains("filter coffee"), "{text}");
        let bad = app.get(&format!("{base}?days=30&subtracker=64")).await;
        assert_eq!(bad.status, 400, "{:?}", bad.body);
        assert_eq!(bad.body["error"]["code"], "invalid_query");
    })
    .await;
}

/// Every CSV export writes a cell that a spreadsheet would run as a formula (=, +, -, @, tab,
/// carriage return first) as text, prefixed with an apostrophe.
#[tokio::test]
async fn csv_exports_neutralise_spreadsheet_formulas() {
    each(|app| async move {
        app.setup_admin().await;
        let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
        let now = hark_core::now_millis();
        import_posts(&app, &hash, &[
            json!({"platform":"twitter","id":"1","text":"=HYPERLINK(\"http://evil\",\"coffee\")","createdAt": now - DAY,
                   "author":{"username":"ann","name":"@SUM(1+1) coffee"}}),
            json!({"platform":"twitter","id":"2","text":"+1 coffee","createdAt": now - DAY, "author":{"username":"bob","name":"-2+3"}}),
        ])
        .await;
        for path in [format!("/api/v1/trackers/{hash}/posts/export.csv?days=30"), format!("/api/v1/trackers/{hash}/dashboard/posts?days=30&format=csv")] {
            let text = app.client.get(app.url(&path)).send().await.unwrap().text().await.unwrap();
            let mut reader = csv::Reader::from_reader(text.as_bytes());
            let cells: Vec<String> = reader.records().flat_map(|r| r.unwrap().iter().map(str::to_string).collect::<Vec<_>>()).collect();
            for bad in ["=HYPERLINK(\"http://evil\",\"coffee\")", "@SUM(1+1) coffee", "+1 coffee", "-2+3"] {
                assert!(!cells.iter().any(|c| c == bad), "{path}: {bad} left as a formula in {cells:?}");
                let safe = format!("'{bad}");
                assert!(cells.iter().any(|c| *c == safe), "{path}: {safe} missing in {cells:?}");
            }
        }
    })
    .await;
}
