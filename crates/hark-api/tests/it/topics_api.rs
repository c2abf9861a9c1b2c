//! The trending topics and sentiment API: layers with sorts, pages and a drill-down path, series,
//! topic posts, the sentiment overview and significant keywords, the page platforms ('no platform
//! chosen'), bad input, and who may read them; on SQLite and (when configured) PostgreSQL.

use hark_core::Permission;
use hark_testkit::{each_app as each, send, TestApp};
use serde_json::{json, Value};

const DAY: i64 = 86_400_000;

/// A tracker on "coffee" (twitter and news): 30 tweets over two weeks, "espresso" in the last two
/// days only, "latte" everywhere, "love" in the positive tweets and "burnt" in the negative ones.
async fn seeded(app: &TestApp) -> String {
    app.setup_admin().await;
    let created = app
        .post("/api/v1/trackers", json!({"platforms": {"twt": 1, "news": 1}, "search": {"rows": [{"type": "+", "searches": ["coffee"]}]}}))
        .await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let hash = created.body["hash"].as_str().unwrap().to_string();
    let now = hark_core::now_millis();
    let mut lines = Vec::new();
    for i in 0..30i64 {
        let late = i >= 20;
        let mut text = String::from("coffee latte");
        if late {
            text.push_str(" espresso #espressotime");
        }
        text.push_str(if i % 3 == 0 { " love it, wonderful" } else if i % 3 == 1 { " burnt and awful, terrible" } else { " today" });
        let at = if late { now - DAY - i * 60_000 } else { now - (14 - i / 2) * DAY };
        lines.push(json!({"platform":"twitter","id": i.to_string(),"text": text,"createdAt": at,"author":{"username": format!("u{}", i % 5)}}));
    }
    lines.push(json!({"platform":"news","id":"n1","text":"coffee news espresso","createdAt": now - DAY,"author":{"id":"daily.example"}}));
    let res = app.import_posts(&hash, &lines).await;
    assert_eq!(res.body["imported"], lines.len(), "{:?}", res.body);
    hash
}

fn texts(body: &Value) -> Vec<String> {
    body["items"].as_array().unwrap().iter().map(|i| i["text"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn layers_sort_page_and_drill_down() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let base = format!("/api/v1/trackers/{hash}/topics?days=30");
        let l1 = app.get(&base).await;
        assert_eq!(l1.status, 200, "{:?}", l1.body);
        // News is not a topics platform: 30 tweets.
        assert_eq!(l1.body["posts"], 30);
        assert_eq!(l1.body["kind"], "word");
        assert_eq!(l1.body["grouping"], "day");
        let items = l1.body["items"].as_array().unwrap();
        assert_eq!((items[0]["text"].as_str(), items[0]["count"].as_i64()), (Some("coffee"), Some(30)));
        assert_eq!(items[0]["share"], 1.0);
        assert_eq!(items[0]["spark"].as_array().unwrap().len(), l1.body["buckets"].as_array().unwrap().len());
        assert_eq!(items[0]["spark"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).sum::<i64>(), 30);
        // By trend: espresso, new in the last days, first; latte, in every post, not trending.
        let trend = app.get(&format!("{base}&sort=trend;desc")).await.body;
        assert_eq!(texts(&trend)[0], "espresso", "{trend:?}");
        let latte = trend["items"].as_array().unwrap().iter().find(|i| i["text"] == "latte").unwrap();
        assert!(latte["trend"].as_f64().unwrap().abs() < 2.0, "{latte:?}");
        let asc = app.get(&format!("{base}&sort=count;asc")).await.body;
        let counts: Vec<i64> = asc["items"].as_array().unwrap().iter().map(|i| i["count"].as_i64().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        // Pages of 20.
        assert_eq!(l1.body["perPage"], 20);
        let total = l1.body["total"].as_u64().unwrap() as usize;
        assert!(total > 3);
        let p2 = app.get(&format!("{base}&page=2")).await.body;
        assert_eq!(p2["items"].as_array().unwrap().len(), total.saturating_sub(20));
        // Hashtags.
        let tags = app.get(&format!("{base}&kind=hashtag")).await.body;
        assert_eq!(texts(&tags), vec!["espressotime"]);
        // Layer two under espresso, three under espresso + #espressotime.
        let l2 = app.get(&format!("{base}&path=word:espresso")).await.body;
        assert_eq!(l2["posts"], 10);
        assert!(!texts(&l2).contains(&"espresso".to_string()));
        let l3 = app.get(&format!("{base}&path=word:espresso,hashtag:espressotime")).await.body;
        assert_eq!(l3["posts"], 10);
        let love = l3["items"].as_array().unwrap().iter().find(|i| i["text"] == "love").unwrap();
        assert_eq!(love["count"], 3); // tweets 21, 24 and 27
        // Series: the path's posts, and the path with each item.
        let series = app.get(&format!("/api/v1/trackers/{hash}/topics/series?days=30&path=word:espresso&items=word:love,word:burnt")).await;
        assert_eq!(series.status, 200, "{:?}", series.body);
        let lines = series.body["lines"].as_array().unwrap();
        let sum = |l: &Value| l["points"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).sum::<i64>();
        assert_eq!((sum(&lines[0]), sum(&lines[1]), sum(&lines[2])), (10, 3, 3));
        assert_eq!(lines[1]["text"], "love");
        assert_eq!(lines[0]["points"].as_array().unwrap().len(), series.body["buckets"].as_array().unwrap().len());
        // The posts of a path, newest first, 20 a page; and of a time bucket (no path).
        let posts = app.get(&format!("/api/v1/trackers/{hash}/topics/posts?days=30&path=word:espresso,word:love")).await.body;
        assert_eq!(posts["total"], 3);
        let ids: Vec<&str> = posts["posts"].as_array().unwrap().iter().map(|p| p["externalId"].as_str().unwrap()).collect();
        assert_eq!(ids, vec!["21", "24", "27"]);
        let now = hark_core::now_millis();
        let bucket = app.get(&format!("/api/v1/trackers/{hash}/topics/posts?start={}&end={}", now - 2 * DAY, now)).await.body;
        assert_eq!(bucket["total"], 10);
        assert_eq!(bucket["posts"].as_array().unwrap().len(), 10);
    })
    .await;
}

#[tokio::test]
async fn sentiment_overview_and_keywords() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let s = app.get(&format!("/api/v1/trackers/{hash}/sentiment?days=30")).await;
        assert_eq!(s.status, 200, "{:?}", s.body);
        assert_eq!(s.body["total"], 30);
        let c = &s.body["counts"];
        let pos = c["positive"].as_i64().unwrap() + c["slightPositive"].as_i64().unwrap();
        let neg = c["negative"].as_i64().unwrap() + c["slightNegative"].as_i64().unwrap();
        assert_eq!(pos + neg + c["neutral"].as_i64().unwrap(), 30);
        assert!(pos >= 8 && neg >= 8, "{c:?}");
        let score = s.body["score"].as_f64().unwrap();
        assert!((score - (pos - neg) as f64 / 30.0).abs() < 0.001);
        let points = s.body["points"].as_array().unwrap();
        let in_points: i64 = points
            .iter()
            .map(|p| ["positive", "slightPositive", "neutral", "slightNegative", "negative"].iter().map(|k| p[*k].as_i64().unwrap()).sum::<i64>())
            .sum();
        assert_eq!(in_points, 30);
        // A sub-range narrows every view.
        let now = hark_core::now_millis();
        let narrow = app.get(&format!("/api/v1/trackers/{hash}/sentiment?start={}&end={}", now - 2 * DAY, now)).await.body;
        assert_eq!(narrow["total"], 10);
        assert_eq!(narrow["grouping"], "hour");
        let k = app.get(&format!("/api/v1/trackers/{hash}/sentiment/keywords?days=30")).await;
        assert_eq!(k.status, 200, "{:?}", k.body);
        let words = |side: &str| -> Vec<String> { k.body[side].as_array().unwrap().iter().map(|w| w["text"].as_str().unwrap().to_string()).collect() };
        let (p, n) = (words("positive"), words("negative"));
        assert!(p.contains(&"love".to_string()) && p.contains(&"wonderful".to_string()), "{p:?}");
        assert!(n.contains(&"burnt".to_string()), "{n:?}");
        // Common words and the tracker's own search term are never significant.
        for w in ["latte", "coffee"] {
            assert!(!p.contains(&w.to_string()) && !n.contains(&w.to_string()), "{w}: {p:?} {n:?}");
        }
        // The posts table is the posts list with the sentiment page's sorts.
        let table = app.get(&format!("/api/v1/trackers/{hash}/posts?days=30&sentiment=positive,slight_positive&search=love&sort=postText;asc&perPage=20")).await;
        assert_eq!(table.status, 200, "{:?}", table.body);
        assert!(table.body["posts"].as_array().unwrap().len() >= 8);
        // Save and Reanalyze: "wonderful" made negative moves the ten positive tweets, and every
        // view follows.
        let saved = app.send_json("PUT", &format!("/api/v1/trackers/{hash}/sentiment-keywords"), json!({"negative": ["wonderful"], "reanalyze": true})).await;
        assert_eq!(saved.status, 200, "{:?}", saved.body);
        while hark_ingest::reanalysis::run_next(&app.store).await.unwrap() {}
        let after = app.get(&format!("/api/v1/trackers/{hash}/sentiment?days=30")).await.body;
        assert_eq!(after["counts"]["negative"].as_i64().unwrap(), c["negative"].as_i64().unwrap() + 10, "{after:?}");
        assert_eq!(after["counts"]["positive"].as_i64().unwrap() + after["counts"]["slightPositive"].as_i64().unwrap(), pos - 10);
        let reanalysis = app.get(&format!("/api/v1/trackers/{hash}")).await.body["reanalysis"].clone();
        assert_eq!((reanalysis["done"].as_bool(), reanalysis["processed"].as_i64()), (Some(true), Some(31)), "{reanalysis:?}");
    })
    .await;
}

#[tokio::test]
async fn page_platforms_bad_input_and_permissions() {
    each(|app| async move {
        let hash = seeded(&app).await;
        // Only news chosen: neither page has a platform of its own.
        for path in ["topics", "topics/series", "topics/posts", "sentiment", "sentiment/keywords"] {
            let r = app.get(&format!("/api/v1/trackers/{hash}/{path}?platforms=news")).await;
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(r.body["reason"], "no platform chosen", "{path}");
        }
        let base = format!("/api/v1/trackers/{hash}/topics");
        for bad in ["kind=mentions", "sort=likes", "sort=count;up", "path=coffee", "path=word:a,word:b,word:c", "page=0", "path=word:"] {
            let r = app.get(&format!("{base}?{bad}")).await;
            assert_eq!(r.status, 400, "{bad}: {:?}", r.body);
            assert_eq!(r.body["error"]["code"], "invalid_query", "{bad}");
        }
        assert_eq!(app.get(&format!("{base}/series?items=word:a,word:b,word:c,word:d,word:e,word:f,word:g,word:h,word:i,word:j,word:k")).await.status, 400);
        assert_eq!(app.get("/api/v1/trackers/zzzzzzzz/topics").await.status, 404);
        // A viewer reads both pages; signed out, only the demo tracker's.
        let (c, _) = app.member_browser(&hash, "v@example.org", Permission::Viewer).await;
        for path in ["topics", "topics/series", "topics/posts", "sentiment", "sentiment/keywords"] {
            assert_eq!(send(c.get(app.url(&format!("/api/v1/trackers/{hash}/{path}")))).await.status, 200, "{path}");
        }
        let anon = reqwest::Client::new();
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        for path in ["topics", "topics/series", "topics/posts", "sentiment", "sentiment/keywords"] {
            assert_eq!(send(anon.get(app.url(&format!("/api/v1/trackers/{hash}/{path}")))).await.status, 401, "{path}");
        }
        app.store.set_demo(row.id, true).await.unwrap();
        for path in ["topics", "topics/series", "topics/posts", "sentiment", "sentiment/keywords"] {
            assert_eq!(send(anon.get(app.url(&format!("/api/v1/trackers/{hash}/{path}")))).await.status, 200, "{path}");
        }
        // Another user's tracker is not found.
        let (other, _) = app.member_browser(&hash, "w@example.org", Permission::Viewer).await;
        let mine = send(other.post(app.url("/api/v1/trackers")).json(&json!({}))).await;
        let _ = mine;
    })
    .await;
}
