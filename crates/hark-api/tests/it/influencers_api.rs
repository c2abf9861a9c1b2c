//! The influencers page API: the ranked list with its filters, sorts and errors, the CSV, one
//! account's posts, influencer tags, and who may do what; on SQLite and (when configured)
//! PostgreSQL.

use hark_core::Permission;
use hark_testkit::{each_app as each, send, TestApp};
use serde_json::{json, Value};


const DAY: i64 = 86_400_000;

/// A tracker on "coffee": ann (3 posts), bob (2), cy (1), and a news site without a username.
async fn seeded(app: &TestApp) -> String {
    app.setup_admin().await;
    let created = app
        .post("/api/v1/trackers", json!({"platforms": {"twt": 1, "news": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]}}))
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let hash = created.body["hash"].as_str().unwrap().to_string();
    let now = hark_core::now_millis();
    let ann = json!({"username":"ann","name":"Ann Smith","location":"Lisbon","bio":"Café critic","followers":1000});
    let bob = json!({"username":"bob","name":"Bob Jones","bio":"=HYPERLINK(\"x\") coffee roaster","followers":50});
    let lines = [
        json!({"platform":"twitter","id":"1","text":"coffee one","createdAt": now - DAY, "author": ann, "counts":{"likes":10,"retweets":2,"impressions":500}}),
        json!({"platform":"twitter","id":"2","text":"coffee two","createdAt": now - 2 * DAY, "author": ann, "counts":{"likes":4}}),
        json!({"platform":"twitter","id":"3","text":"coffee three","createdAt": now - 3 * DAY, "author": ann, "counts":{"likes":1}}),
        json!({"platform":"twitter","id":"4","text":"coffee four","createdAt": now - DAY, "author": bob, "counts":{"likes":100}}),
        json!({"platform":"twitter","id":"5","text":"coffee five","createdAt": now - 5 * DAY, "author": bob, "counts":{"likes":30}}),
        json!({"platform":"twitter","id":"6","text":"coffee six","createdAt": now - 2 * DAY, "author":{"username":"cy","followers":10}}),
        json!({"platform":"twitter","id":"7","text":"old coffee","createdAt": now - 60 * DAY, "author":{"username":"cy","followers":10},"counts":{"likes":999}}),
        json!({"platform":"news","id":"n1","text":"coffee prices","createdAt": now - DAY, "author":{"id":"daily.example","name":"Daily News"},"url":"https://daily.example/a"}),
    ];
    let res = app.import_posts(&hash, &lines).await;
    assert_eq!(res.body["imported"], lines.len(), "{:?}", res.body);
    hash
}

fn keys(body: &Value) -> Vec<String> {
    body["influencers"].as_array().unwrap().iter().map(|p| p["key"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn ranked_list_filters_sorts_and_errors() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}/influencers");
        let page = app.get(&format!("{base}?days=30")).await;
        assert_eq!(page.status, 200, "{:?}", page.body);
        // Engagement descending by default.
        // Ties (no engagement) by platform, then account.
        assert_eq!(keys(&page.body), ["twitter;bob", "twitter;ann", "news;daily.example", "twitter;cy"]);
        assert_eq!(page.body["total"], 4);
        assert_eq!((page.body["canTag"].as_bool(), page.body["canExport"].as_bool()), (Some(true), Some(true)));
        let ann = &page.body["influencers"][1];
        assert_eq!(ann["name"], "Ann Smith");
        assert_eq!(ann["username"], "ann");
        assert_eq!(ann["posts"], 3);
        assert_eq!(ann["engagement"], 17);
        assert_eq!(ann["followers"], 1000);
        assert_eq!(ann["reach"], 3000);
        assert_eq!(ann["impressions"], 500);
        assert_eq!(ann["bio"], "Café critic");
        assert_eq!(ann["location"], "Lisbon");
        assert_eq!(ann["profileUrl"], "https://x.com/ann");
        let rate = ann["engagementRate"].as_f64().unwrap();
        assert!((rate - 17.0 / 3.0 / 1000.0 * 100.0).abs() < 1e-9, "{rate}");
        let news = &page.body["influencers"][2];
        assert_eq!((news["author"].as_str(), news["impressions"].clone()), (Some("daily.example"), Value::Null));
        assert_eq!(news["profileUrl"], Value::Null);

        let q = |s: &str| format!("{base}?days=30&{s}");
        assert_eq!(keys(&app.get(&q("sort=posts;asc")).await.body), ["news;daily.example", "twitter;cy", "twitter;bob", "twitter;ann"]);
        assert_eq!(keys(&app.get(&q("sort=followers;desc&perPage=2&page=2")).await.body), ["twitter;cy", "news;daily.example"]);
        assert_eq!(keys(&app.get(&q("sort=name;asc")).await.body)[0], "twitter;ann");
        assert_eq!(keys(&app.get(&format!("{base}?days=all&sort=engagement;desc")).await.body)[0], "twitter;cy", "All Time counts the old post");
        assert_eq!(keys(&app.get(&q("search=cafe%20CRITIC")).await.body), ["twitter;ann"]);
        assert_eq!(keys(&app.get(&q("search=jones")).await.body), ["twitter;bob"]);
        assert_eq!(keys(&app.get(&q("bio=roaster&location=")).await.body), ["twitter;bob"]);
        assert_eq!(keys(&app.get(&q("location=lisb")).await.body), ["twitter;ann"]);
        assert_eq!(keys(&app.get(&q("posts_count=1&posts_op=greater")).await.body), ["twitter;bob", "twitter;ann"]);
        assert_eq!(keys(&app.get(&q("followers_count=60&followers_op=lesser&engagement_count=0")).await.body), ["twitter;bob"]);
        assert_eq!(keys(&app.get(&q("platforms=news")).await.body), ["news;daily.example"]);

        for bad in [
            "sort=bogus;desc",
            "sort=posts;sideways",
            "perPage=0",
            "perPage=101",
            "page=x",
            "followers_count=-1",
            "followers_count=ten",
            "posts_count=1&posts_op=equal",
        ] {
            let r = app.get(&q(bad)).await;
            assert_eq!(r.status, 400, "{bad}: {:?}", r.body);
            assert_eq!(r.body["error"]["code"], "invalid_query", "{bad}");
        }
        let long = "a".repeat(201);
        assert_eq!(app.get(&q(&format!("search={long}"))).await.status, 400);
        assert_eq!(app.get("/api/v1/trackers/zzzzzzzz/influencers").await.status, 404);
    })
    .await;
}

#[tokio::test]
async fn csv_side_view_and_tags() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}/influencers");
        // The CSV: the ranked list, formulas neutralised, named after the tracker and range.
        let res = app.client.get(app.url(&format!("{base}/export.csv?sort=posts;desc"))).send().await.unwrap();
        assert_eq!(res.status(), 200);
        let disposition = res.headers()["content-disposition"].to_str().unwrap().to_string();
        assert!(disposition.contains(&hash) && disposition.ends_with("influencers.csv\""), "{disposition}");
        let text = res.text().await.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("\u{feff}Platform,Name,Username,Profile,Bio"), "{}", lines[0]);
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[1].starts_with("twitter,Ann Smith,ann,https://x.com/ann,Café critic,Lisbon,3,17,"), "{}", lines[1]);
        assert!(text.contains("\"'=HYPERLINK(\"\"x\"\") coffee roaster\""), "{text}");

        // Compressed, as browsers ask for it: the streamed body still ends cleanly.
        let gz = app.client.get(app.url(&format!("{base}/export.csv"))).header("Accept-Encoding", "gzip").send().await.unwrap();
        assert_eq!(gz.headers()["content-encoding"], "gzip");
        assert!(!gz.bytes().await.expect("the whole compressed body").is_empty());

        // One account's posts, newest first by default, then by engagement.
        let side = app.get(&format!("{base}/posts?account=twitter;ann")).await;
        assert_eq!(side.status, 200, "{:?}", side.body);
        assert_eq!(side.body["total"], 3);
        assert_eq!(side.body["influencer"]["posts"], 3);
        let ids: Vec<&str> = side.body["posts"].as_array().unwrap().iter().map(|p| p["post"]["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["1", "2", "3"]);
        let side = app.get(&format!("{base}/posts?account=twitter;ann&sort=engagement;asc&perPage=2")).await.body;
        let ids: Vec<&str> = side["posts"].as_array().unwrap().iter().map(|p| p["post"]["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["3", "2"]);
        let none = app.get(&format!("{base}/posts?account=twitter;nobody")).await.body;
        assert_eq!((none["total"].as_i64(), none["influencer"].clone()), (Some(0), Value::Null));
        for bad in ["account=ann", "account=twitter;ann&sort=likes;desc", ""] {
            assert_eq!(app.get(&format!("{base}/posts?{bad}")).await.status, 400, "{bad}");
        }
        assert_eq!(app.get(&format!("{base}/posts?account=myspace;ann")).await.body["error"]["code"], "invalid_platform");

        // Influencer tags: create (validated, unique), tag accounts, filter by them, rename, delete.
        let vip = app.post("/api/v1/influencer-tags", json!({"name": " VIP ", "color": "#047878"})).await;
        assert_eq!(vip.status, 201, "{:?}", vip.body);
        assert_eq!(vip.body["name"], "VIP");
        let vip = vip.body["id"].as_i64().unwrap();
        assert_eq!(app.post("/api/v1/influencer-tags", json!({"name": "VIP"})).await.body["error"]["code"], "tag_exists");
        assert_eq!(app.post("/api/v1/influencer-tags", json!({"name": "x".repeat(46)})).await.status, 422);
        assert_eq!(app.post("/api/v1/influencer-tags", json!({"name": "  "})).await.status, 422);
        assert_eq!(app.post("/api/v1/influencer-tags", json!({"name": "ok", "color": "#123456"})).await.status, 422);
        let tags_url = format!("{base}/tags");
        let put = |body: Value| app.send_json("PUT", &tags_url, body);
        let r = put(json!({"accounts": ["twitter;ann", "news;daily.example"], "add": [vip]})).await;
        assert_eq!((r.status, r.body["added"].as_i64()), (200, Some(2)), "{:?}", r.body);
        assert_eq!(put(json!({"accounts": [], "add": [vip]})).await.body["error"]["code"], "invalid_users");
        assert_eq!(put(json!({"accounts": ["ann"], "add": [vip]})).await.body["error"]["code"], "invalid_users");
        assert_eq!(put(json!({"accounts": ["twitter;ann"], "add": [vip + 100]})).await.body["error"]["code"], "unknown_tag");
        let page = app.get(&base).await.body;
        let tags_of = |page: &Value, key: &str| page["influencers"].as_array().unwrap().iter().find(|i| i["key"] == key).unwrap()["tags"].clone();
        assert_eq!(tags_of(&page, "twitter;ann"), json!([vip]));
        assert_eq!(tags_of(&page, "twitter;bob"), json!([]));
        let tagged = app.get(&format!("{base}?influencerTags={vip}&influencerTagFilterMode=any")).await.body;
        assert_eq!(keys(&tagged), ["twitter;ann", "news;daily.example"]);
        let renamed = app.send_json("PATCH", &format!("/api/v1/influencer-tags/{vip}"), json!({"name": "Key people", "color": "#800080"})).await;
        assert_eq!((renamed.status, renamed.body["name"].as_str()), (200, Some("Key people")));
        assert_eq!(app.get("/api/v1/influencer-tags").await.body["tags"][0]["color"], "#800080");
        let r = put(json!({"accounts": ["twitter;ann"], "remove": [vip]})).await;
        assert_eq!(r.body["removed"], 1);
        assert_eq!(app.delete(&format!("/api/v1/influencer-tags/{vip}")).await.status, 204);
        assert_eq!(app.delete(&format!("/api/v1/influencer-tags/{vip}")).await.status, 404);
        assert_eq!(tags_of(&app.get(&base).await.body, "news;daily.example"), json!([]));
    })
    .await;
}

#[tokio::test]
async fn viewers_share_exports_and_anonymous_visitors_are_limited() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}/influencers");
        let (c, token) = app.member_browser(&hash, "v@example.org", Permission::Viewer).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();

        // A viewer sees the list; no tagging, no export.
        let page = send(c.get(app.url(&base))).await;
        assert_eq!(page.status, 200);
        assert_eq!(page.body["total"], 4);
        assert_eq!((page.body["canTag"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(false)));
        assert_eq!(send(c.get(app.url(&format!("{base}/posts?account=twitter;ann")))).await.status, 200);
        // The viewer's own watchlist is theirs; putting tags on this tracker's accounts is not.
        let mine = send(c.post(app.url("/api/v1/influencer-tags")).header("X-CSRF-Token", &token).json(&json!({"name": "mine"}))).await;
        assert_eq!(mine.status, 201);
        let tag = mine.body["id"].as_i64().unwrap();
        let r = send(c.put(app.url(&format!("{base}/tags"))).header("X-CSRF-Token", &token).json(&json!({"accounts": ["twitter;ann"], "add": [tag]}))).await;
        assert_eq!(r.status, 403);
        assert_eq!(send(c.get(app.url(&format!("{base}/export.csv")))).await.status, 403);
        // Another user's tag cannot be renamed or deleted by id.
        let admin_tag = app.post("/api/v1/influencer-tags", json!({"name": "admins"})).await.body["id"].as_i64().unwrap();
        let r = send(c.patch(app.url(&format!("/api/v1/influencer-tags/{admin_tag}"))).header("X-CSRF-Token", &token).json(&json!({"name": "x"}))).await;
        assert_eq!(r.status, 404);
        let r = send(c.delete(app.url(&format!("/api/v1/influencer-tags/{admin_tag}"))).header("X-CSRF-Token", &token)).await;
        assert_eq!(r.status, 404);
        // With shared exports the viewer exports, still not tags.
        app.store.set_share_exports(row.id, true).await.unwrap();
        let page = send(c.get(app.url(&base))).await;
        assert_eq!((page.body["canTag"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(true)));
        let csv = c.get(app.url(&format!("{base}/export.csv"))).send().await.unwrap();
        assert_eq!(csv.status(), 200);
        assert_eq!(csv.text().await.unwrap().lines().count(), 5);

        // Signed out: nothing on a private tracker; the demo tracker's list reads, nothing else.
        let anon = reqwest::Client::new();
        assert_eq!(send(anon.get(app.url(&base))).await.status, 401);
        app.store.set_demo(row.id, true).await.unwrap();
        let page = send(anon.get(app.url(&base))).await;
        assert_eq!(page.status, 200);
        assert_eq!((page.body["canTag"].as_bool(), page.body["canExport"].as_bool()), (Some(false), Some(false)));
        assert!(page.body["influencers"].as_array().unwrap().iter().all(|i| i["tags"] == json!([])));
        assert_eq!(send(anon.get(app.url(&format!("{base}/export.csv")))).await.status, 401);
        assert_eq!(send(anon.get(app.url("/api/v1/influencer-tags"))).await.status, 401);
        let r = send(anon.post(app.url("/api/v1/influencer-tags")).json(&json!({"name": "x"}))).await;
        assert!(r.status == 401 || r.status == 403, "{}", r.status);
        let r = send(anon.put(app.url(&format!("{base}/tags"))).json(&json!({"accounts": ["twitter;ann"], "add": [tag]}))).await;
        assert!(r.status == 401 || r.status == 403, "{}", r.status);
    })
    .await;
}

#[tokio::test]
async fn bluesky_and_mastodon_rank_and_facebook_is_anonymised() {
    each(|app| async move {
        app.setup_admin().await;
        let created = app
            .post(
                "/api/v1/trackers",
                json!({"platforms": {"bsky": 1, "mastodon": 1, "fb": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]}}),
            )
            .await;
        assert_eq!(created.status, 201, "{:?}", created.body);
        let hash = created.body["hash"].as_str().unwrap().to_string();
        let now = hark_core::now_millis();
        let lines = [
            json!({"platform":"mastodon","id":"m1","text":"coffee toot","createdAt": now - DAY,
                   "author":{"username":"mia@mastodon.social","name":"Mia","followers":300},"counts":{"likes":9}}),
            json!({"platform":"bluesky","id":"b1","text":"coffee skeet","createdAt": now - DAY,
                   "author":{"username":"bo.bsky.social","name":"Bo","followers":40},"counts":{"likes":5}}),
            json!({"platform":"facebook","id":"f1","text":"coffee page post","createdAt": now - DAY,
                   "author":{"username":"cafepage","name":"Cafe Page","avatarUrl":"https://example.com/a.png","bio":"Our page"},"counts":{"likes":1}}),
        ];
        let res = app.import_posts(&hash, &lines).await;
        assert_eq!(res.body["imported"], 3, "{:?}", res.body);
        let base = format!("/api/v1/trackers/{hash}/influencers?days=30");
        let page = app.get(&base).await.body;
        assert_eq!(keys(&page), ["mastodon;mia@mastodon.social", "bluesky;bo.bsky.social", "facebook;cafepage"]);
        assert_eq!(page["influencers"][0]["profileUrl"], "https://mastodon.social/@mia");
        assert_eq!(page["influencers"][1]["profileUrl"], "https://bsky.app/profile/bo.bsky.social");
        assert_eq!(page["influencers"][2]["name"], "Cafe Page");
        // Anonymised Facebook: no name, username, picture, bio or link; the figures stay.
        let on = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/anonymize-facebook"), json!({"enabled": true})).await;
        assert_eq!(on.status, 200, "{:?}", on.body);
        let page = app.get(&base).await.body;
        let fb = &page["influencers"][2];
        assert_eq!((fb["anonymized"].as_bool(), fb["name"].as_str(), fb["username"].as_str()), (Some(true), Some(""), Some("")));
        assert_eq!((fb["avatarUrl"].clone(), fb["bio"].clone(), fb["profileUrl"].clone()), (Value::Null, Value::Null, Value::Null));
        assert_eq!(fb["posts"], 1);
        let csv = app.client.get(app.url(&format!("/api/v1/trackers/{hash}/influencers/export.csv?days=30"))).send().await.unwrap().text().await.unwrap();
        assert!(!csv.contains("Cafe Page") && !csv.contains("cafepage"), "{csv}");
    })
    .await;
}
