//! The feed connector against a fake site serving RSS 2.0 and Atom 1.0 documents with `ETag`
//! and `Last-Modified`, answering conditional requests with 304, and a rate-limited and a
//! broken feed.

use crate::common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hark_collect::rss::Rss;
use hark_collect::{CollectError, Connector, ConnectorConfig};
use hark_core::Platform;
use serde_json::json;

#[derive(Default)]
struct Site {
    /// Items of the news feed: (guid, title).
    news: Vec<(String, String)>,
    version: u32,
    rate_limit_next: bool,
    /// (path, if-none-match sent, status answered)
    log: Vec<(String, Option<String>, u16)>,
}

type Shared = Arc<Mutex<Site>>;

fn rss(items: &[(String, String)]) -> String {
    let items: String = items
        .iter()
        .map(|(guid, title)| {
            format!(
                "<item><title>{title}</title><link>https://news.example/{guid}</link><guid isPermaLink=\"false\">{guid}</guid>\
                 <description>&lt;p&gt;{title} &amp;amp; more about rust&lt;/p&gt;</description>\
                 <pubDate>Tue, 10 Jun 2025 04:00:00 GMT</pubDate><author>desk@news.example (News Desk)</author></item>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Example News</title><link>https://news.example/</link>\
         <description>All the news</description><language>en-us</language>{items}</channel></rss>"
    )
}

const ATOM: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Rust Blog</title><link href="https://blog.example/"/><updated>2025-06-10T18:30:02Z</updated>
  <author><name>Ferris</name></author><id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <entry><title>Why rust</title><link href="https://blog.example/why"/><id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <updated>2025-06-10T18:30:02Z</updated><summary>Rust is fast.</summary></entry>
  <entry><title>Rust in production</title><link href="https://blog.example/prod"/><id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6b</id>
    <updated>2025-06-09T18:30:02Z</updated><content type="html">&lt;p&gt;We ship &lt;b&gt;rust&lt;/b&gt;.&lt;/p&gt;</content></entry>
</feed>"#;

async fn news(State(s): State<Shared>, h: HeaderMap) -> Response {
    let mut site = s.lock().unwrap();
    let inm = h.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).map(str::to_string);
    let etag = format!("\"v{}\"", site.version);
    if site.rate_limit_next {
        site.rate_limit_next = false;
        site.log.push(("/news.xml".into(), inm, 429));
        return (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "1")], "slow down").into_response();
    }
    if inm.as_deref() == Some(etag.as_str()) {
        site.log.push(("/news.xml".into(), inm, 304));
        return StatusCode::NOT_MODIFIED.into_response();
    }
    site.log.push(("/news.xml".into(), inm, 200));
    (
        [(header::ETAG, etag.as_str()), (header::LAST_MODIFIED, "Tue, 10 Jun 2025 04:00:00 GMT"), (header::CONTENT_TYPE, "application/rss+xml")],
        rss(&site.news),
    )
        .into_response()
}

async fn fake_site() -> (String, Shared) {
    let news_items = (1..=30).map(|i| (format!("n{i}"), format!("Story {i}"))).collect();
    let state: Shared = Arc::new(Mutex::new(Site { news: news_items, ..Default::default() }));
    let router = Router::new()
        .route("/news.xml", get(news))
        .route("/blog.atom", get(|| async { ([(header::CONTENT_TYPE, "application/atom+xml")], ATOM) }))
        .route("/broken.xml", get(|| async { (StatusCode::INTERNAL_SERVER_ERROR, "oops") }))
        .with_state(state.clone());
    (common::serve(router).await, state)
}

fn rss_connector(base: &str) -> Rss {
    let mut c = ConnectorConfig::default();
    c.values.insert("feeds".into(), format!("{base}/news.xml\nblogs {base}/blog.atom\n{base}/broken.xml"));
    Rss::new(c, common::http())
}

fn query(platforms: &[Platform]) -> hark_collect::TrackerQuery {
    let mut q = hark_collect::TrackerQuery { include: vec![vec!["rust".into()]], ..Default::default() };
    for p in platforms {
        q.platforms.insert(*p);
    }
    q
}

async fn sweep(c: &Rss, q: &hark_collect::TrackerQuery, cursor: serde_json::Value) -> (Vec<hark_core::Post>, serde_json::Value) {
    let mut cursor = cursor;
    let mut posts = Vec::new();
    loop {
        let page = c.fetch(q, &cursor).await.unwrap();
        posts.extend(page.posts);
        cursor = page.cursor;
        if !page.more {
            return (posts, cursor);
        }
    }
}

#[tokio::test]
async fn reads_rss_and_atom_then_only_what_changed() {
    let (base, site) = fake_site().await;
    let c = rss_connector(&base);
    let q = query(&[Platform::News, Platform::Blogs]);
    let (posts, cursor) = sweep(&c, &q, json!({})).await;
    assert_eq!(posts.len(), 32, "30 news items and 2 blog entries; the broken feed is skipped");
    let story = posts.iter().find(|p| p.title.as_deref() == Some("Story 7")).unwrap();
    assert_eq!(story.platform, Platform::News);
    assert_eq!(story.text, "Story 7 & more about rust");
    assert_eq!(story.url.as_deref(), Some("https://news.example/n7"));
    assert_eq!(story.created_at, 1_749_528_000_000);
    let blog = posts.iter().find(|p| p.title.as_deref() == Some("Rust in production")).unwrap();
    assert_eq!((blog.platform, blog.text.as_str(), blog.author.name.as_str()), (Platform::Blogs, "We ship rust .", "Ferris"));
    // Unchanged: a 304, nothing new.
    let (again, cursor) = sweep(&c, &q, cursor).await;
    assert!(again.is_empty());
    assert_eq!(site.lock().unwrap().log.last().unwrap().2, 304);
    // Two items added: the feed repeats its 30 old ones, only the new two come through.
    {
        let mut s = site.lock().unwrap();
        s.news.insert(0, ("n31".into(), "Story 31".into()));
        s.news.insert(0, ("n32".into(), "Story 32".into()));
        s.version += 1;
        s.rate_limit_next = true;
    }
    let (fresh, _) = sweep(&c, &q, cursor).await;
    let titles: BTreeSet<_> = fresh.iter().filter_map(|p| p.title.clone()).collect();
    assert_eq!(titles, ["Story 31".to_string(), "Story 32".to_string()].into());
    let log = &site.lock().unwrap().log;
    assert_eq!(log[log.len() - 2].2, 429, "the rate limit was waited out");
    assert_eq!(log[log.len() - 1].1.as_deref(), Some("\"v0\""), "conditional GET sent the last ETag");
}

#[tokio::test]
async fn tracker_platforms_choose_feeds_and_its_own_feeds_are_read() {
    let (base, _) = fake_site().await;
    let mut c = ConnectorConfig::default();
    c.values.insert("feeds".into(), format!("{base}/news.xml"));
    let strict = Rss::new(c.clone(), common::http());
    let c = Rss::new(c, common::http()).allowing_private_feeds();
    let mut q = query(&[Platform::Blogs]);
    assert!(sweep(&c, &q, json!({})).await.0.is_empty(), "news feeds are not read for a blogs-only tracker");
    q.accounts.web = vec![format!("{base}/blog.atom"), "someone".into()];
    assert!(strict.feeds_for(&q).is_empty(), "a tracker cannot make the server read its own network");
    let (posts, _) = sweep(&c, &q, json!({})).await;
    assert_eq!(posts.len(), 2);
    assert!(posts.iter().all(|p| p.platform == Platform::Blogs));
}

#[tokio::test]
async fn check_names_broken_feeds() {
    let (base, _) = fake_site().await;
    match rss_connector(&base).check().await {
        Err(CollectError::Payload(m)) => assert!(m.contains("broken.xml") && !m.contains("news.xml"), "{m}"),
        other => panic!("{other:?}"),
    }
    let mut ok = ConnectorConfig::default();
    ok.values.insert("feeds".into(), format!("{base}/news.xml"));
    assert_eq!(Rss::new(ok, common::http()).check().await.unwrap(), "1 feeds readable.");
}

#[tokio::test]
async fn restart_mid_sweep_loses_and_doubles_nothing() {
    for backend in hark_testkit::backends() {
        let (base, _) = fake_site().await;
        let (_db, store) = common::store(backend).await;
        let t = common::tracker(&store, json!([["rust"]]), &[Platform::News, Platform::Blogs], json!({})).await;
        let q = common::query_of(&t);
        let make = || -> Box<dyn Connector> { Box::new(rss_connector(&base)) };
        let (_, pages) = common::collect(&store, &make, &q, json!({}), Some(1)).await;
        assert_eq!(pages, 4, "the first feed read twice");
        let (all, _) = sweep(&rss_connector(&base), &q, json!({})).await;
        let expected: BTreeSet<String> = all.iter().map(|p| p.id.clone()).collect();
        assert_eq!(expected.len(), 32);
        common::assert_exactly(&store, t.id, &expected).await;
    }
}
