//! The Discourse connector against a fake forum serving `GET /latest.json?order=created&page=N`:
//! `users` and `topic_list` with `topics` (30 a page) and `more_topics_url` while more remain;
//! `{"errors":[…],"error_type":"invalid_access"}` with 403 for a private forum without a key.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hark_collect::discourse::Discourse;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::{now_millis, Platform};
use serde_json::{json, Value};

#[derive(Default)]
struct Forum {
    /// (topic id, created_at ms)
    topics: Vec<(i64, i64)>,
    private: bool,
    requests: Vec<HashMap<String, String>>,
}

type Shared = Arc<Mutex<Forum>>;

const PER_PAGE: usize = 30;

async fn latest(State(s): State<Shared>, h: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    let mut f = s.lock().unwrap();
    f.requests.push(q.clone());
    if f.private && h.get("api-key").and_then(|v| v.to_str().ok()) != Some("key-1") {
        return (StatusCode::FORBIDDEN, Json(json!({"errors": ["You are not permitted to view the requested resource."], "error_type": "invalid_access"}))).into_response();
    }
    let page: usize = q.get("page").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut topics = f.topics.clone();
    topics.sort_by_key(|t| std::cmp::Reverse(t.1));
    let slice: Vec<Value> = topics
        .iter()
        .skip(page * PER_PAGE)
        .take(PER_PAGE)
        .map(|(id, at)| {
            let ts = jiff::Timestamp::from_millisecond(*at).unwrap().to_string();
            json!({"id": id, "title": format!("Rust &amp; async topic {id}"), "fancy_title": format!("Rust &amp; async topic {id}"),
                "slug": format!("rust-async-topic-{id}"), "posts_count": 3, "reply_count": 1, "highest_post_number": 3,
                "created_at": ts, "last_posted_at": ts, "bumped": true, "bumped_at": ts, "archetype": "regular",
                "unseen": false, "pinned": false, "visible": true, "closed": false, "archived": false, "views": 40, "like_count": 2,
                "has_summary": false, "last_poster_username": "bob", "category_id": 1, "pinned_globally": false,
                "posters": [{"extras": null, "description": "Original Poster", "user_id": 1, "primary_group_id": null},
                            {"extras": "latest", "description": "Most Recent Poster", "user_id": 2, "primary_group_id": null}]})
        })
        .collect();
    let more = (page + 1) * PER_PAGE < topics.len();
    let mut list = json!({"can_create_topic": false, "per_page": PER_PAGE, "top_tags": [], "topics": slice});
    if more {
        list["more_topics_url"] = json!(format!("/latest?order=created&page={}", page + 1));
    }
    Json(json!({"users": [
        {"id": 1, "username": "alice", "name": "Alice", "avatar_template": "/user_avatar/forum/alice/{size}/1_2.png"},
        {"id": 2, "username": "bob", "name": "", "avatar_template": "/user_avatar/forum/bob/{size}/2_2.png"}],
        "primary_groups": [], "flair_groups": [], "topic_list": list}))
    .into_response()
}

async fn forum(n: i64, private: bool) -> (String, Shared) {
    let now = now_millis();
    let topics = (1..=n).map(|i| (i, now - (n - i) * 60_000)).collect();
    let state: Shared = Arc::new(Mutex::new(Forum { topics, private, ..Default::default() }));
    let url = common::serve(Router::new().route("/latest.json", get(latest)).with_state(state.clone())).await;
    (url, state)
}

fn connector(forums: &[&str], key: Option<&str>) -> Discourse {
    let mut c = ConnectorConfig::default();
    c.values.insert("forums".into(), forums.join("\n"));
    if let Some(k) = key {
        c.values.insert("api_key".into(), k.into());
        c.values.insert("api_username".into(), "system".into());
    }
    Discourse::new(c, common::http())
}

fn query() -> hark_collect::TrackerQuery {
    hark_collect::TrackerQuery { include: vec![vec!["rust".into()]], ..Default::default() }
}

#[tokio::test]
async fn sweeps_each_forum_then_only_new_topics() {
    let (a, fa) = forum(70, false).await;
    let (b, _) = forum(5, false).await;
    let c = connector(&[&a, &b], None);
    let mut cursor = json!({});
    let mut ids = BTreeSet::new();
    let mut pages = 0;
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        pages += 1;
        for p in page.posts {
            assert!(ids.insert(p.id.clone()));
            assert_eq!(p.platform, Platform::Forums);
            assert_eq!(p.author.name, "Alice");
            assert!(p.title.as_deref().unwrap().starts_with("Rust & async topic"));
            assert!(p.author.avatar_url.as_deref().unwrap().starts_with(&a) || p.author.avatar_url.as_deref().unwrap().starts_with(&b));
        }
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!((ids.len(), pages), (75, 4));
    assert_eq!(fa.lock().unwrap().requests[0]["order"], "created");
    fa.lock().unwrap().topics.push((71, now_millis() + 1000));
    let mut fresh = Vec::new();
    loop {
        let page = c.fetch(&query(), &cursor).await.unwrap();
        fresh.extend(page.posts);
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(fresh.len(), 3, "the new topic and each forum's newest (at the watermark): {fresh:?}");
    assert!(fresh.iter().any(|p| p.id.ends_with("-71")));
}

#[tokio::test]
async fn private_forums_need_a_key() {
    let (url, _) = forum(3, true).await;
    match connector(&[&url], None).fetch(&query(), &json!({})).await {
        Err(CollectError::Auth(m)) => assert!(m.contains("not permitted"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(connector(&[&url], Some("key-1")).fetch(&query(), &json!({})).await.unwrap().posts.len(), 3);
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (url, _) = forum(95, false).await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::Forums], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(connector(&[&url], None)) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(2)).await;
        assert_eq!(pages, 5);
        let got = common::tracker_post_ids(&store, t.id).await;
        let topics: BTreeSet<i64> = got.iter().map(|id| id.rsplit('-').next().unwrap().parse().unwrap()).collect();
        assert_eq!(topics, (1..=95).collect());
        common::assert_exactly(&store, t.id, &got).await;
    }
}
