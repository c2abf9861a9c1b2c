//! Posts page storage: query, full-text search, tags, sentiment edits, bulk delete and ignore, on
//! SQLite and (when configured) PostgreSQL.

use hark_core::{Platform, PlatformSet, Post};
use hark_store::{PageFilter, PostQuery, PostRecord, PostSort, Store, TrackerLink};
use hark_testkit::{backends, each_backend, TestDb};

async fn setup(s: &Store) -> i64 {
    let u = s
        .create_user(
            &hark_testkit::new_user("o@example.org"),
            1,
        )
        .await
        .unwrap();
    s.create_tracker(
        &hark_testkit::new_tracker("Coffee", u.id, PlatformSet::all().bits(), "{}"),
        1,
    )
    .await
    .unwrap()
    .id
}

struct P {
    id: &'static str,
    platform: Platform,
    at: i64,
    text: &'static str,
    author: &'static str,
    location: Option<&'static str>,
    engagement: i64,
    bucket: &'static str,
    post_type: &'static str,
    story: bool,
}

fn p(id: &'static str, at: i64, text: &'static str, engagement: i64, bucket: &'static str) -> P {
    P { id, platform: Platform::Twitter, at, text, author: "alice", location: None, engagement, bucket, post_type: "original", story: false }
}

fn record(x: &P, tracker: i64) -> PostRecord {
    let mut post = Post::new(x.platform, x.id, x.text, x.at);
    post.author.username = x.author.into();
    post.author.name = format!("{} Example", x.author);
    post.author.location = x.location.map(Into::into);
    post.flags.is_story = x.story;
    PostRecord {
        post_key: format!("{};{}", x.platform.name(), x.id),
        platform: x.platform,
        external_id: x.id.into(),
        created_at: x.at,
        author_username: x.author.into(),
        author_name: post.author.name.clone(),
        author_location: x.location.map(Into::into),
        author_followers: 10,
        text: x.text.into(),
        post_type: hark_core::PostType::parse(x.post_type).unwrap(),
        is_story: x.story,
        engagement: x.engagement,
        sentiment_bucket: hark_core::Bucket::parse(x.bucket).unwrap(),
        data: hark_store::encode_extras(&post),
        terms: hark_store::PostTerms { hashtags: vec!["#coffee".into()], ..Default::default() },
        links: vec![TrackerLink { tracker_id: tracker, subtrackers: 1, sentiment: None, indirect: false }],
        ..Default::default()
    }
}

fn q() -> PostQuery {
    PostQuery { filter: PageFilter { platforms: PlatformSet::all(), ..Default::default() }, page: 1, per_page: 25, ..Default::default() }
}

fn ids(rows: &[hark_store::PostRow]) -> Vec<&str> {
    rows.iter().map(|r| r.post.id.as_str()).collect()
}

async fn seed(s: &Store, t: i64) {
    let mut posts = vec![
        p("1", 1_000, "Morning coffee in the café", 5, "positive"),
        p("2", 2_000, "Tea is better than coffee", 50, "negative"),
        p("3", 3_000, "Espresso machine review", 20, "neutral"),
        p("4", 4_000, "RT: coffee beans sale", 1, "neutral"),
    ];
    posts[1].author = "bob";
    posts[2].location = Some("Lisbon, Portugal");
    posts[3].post_type = "retweet";
    let mut story = p("5", 5_000, "A story about latte art", 3, "slight_positive");
    story.platform = Platform::Instagram;
    story.story = true;
    posts.push(story);
    let records: Vec<PostRecord> = posts.iter().map(|x| record(x, t)).collect();
    s.ingest_batch(&records, 10).await.unwrap();
}

#[tokio::test]
async fn filters_sort_page_and_total() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let (rows, total) = s.query_posts(t, &q()).await.unwrap();
        assert_eq!(ids(&rows), ["5", "4", "3", "2", "1"]);
        assert_eq!(total, 5);
        // Sort by engagement ascending, paged by two.
        let mut by_eng = q();
        by_eng.sort = PostSort::Engagement;
        by_eng.ascending = true;
        by_eng.per_page = 2;
        by_eng.page = 2;
        let (rows, total) = s.query_posts(t, &by_eng).await.unwrap();
        assert_eq!(ids(&rows), ["1", "3"]);
        assert_eq!(total, 5);
        // Sentiment, retweets, stories, platforms, dates.
        let mut f = q();
        f.sentiment = vec!["neutral", "negative"];
        assert_eq!(ids(&s.query_posts(t, &f).await.unwrap().0), ["4", "3", "2"]);
        f.exclude_retweets = true;
        assert_eq!(ids(&s.query_posts(t, &f).await.unwrap().0), ["3", "2"]);
        let mut st = q();
        st.stories_only = true;
        assert_eq!(ids(&s.query_posts(t, &st).await.unwrap().0), ["5"]);
        let mut tw = q();
        tw.filter.platforms = [Platform::Instagram].into_iter().collect();
        assert_eq!(s.count_posts(t, &tw).await.unwrap(), 1);
        let mut range = q();
        range.filter.start = Some(2_000);
        range.filter.end = Some(3_000);
        assert_eq!(ids(&s.query_posts(t, &range).await.unwrap().0), ["3", "2"]);
        let mut sub = q();
        sub.filter.subtracker = Some(2);
        assert_eq!(s.count_posts(t, &sub).await.unwrap(), 0);
    })
    .await;
}

#[tokio::test]
async fn full_text_search_covers_text_authors_and_locations() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let search = |words: &str| {
            let mut x = q();
            x.search = words.into();
            x
        };
        let found = |words: &'static str| {
            let s = s.clone();
            async move { ids(&s.query_posts(t, &search(words)).await.unwrap().0).iter().map(|x| x.to_string()).collect::<Vec<_>>() }
        };
        assert_eq!(found("coffee").await, ["4", "2", "1"]);
        assert_eq!(found("COFFEE tea").await, ["2"]);
        assert_eq!(found("bob").await, ["2"]);
        assert_eq!(found("lisbon").await, ["3"]);
        assert_eq!(found("#coffee, beans!").await, ["4"]);
        assert!(found("nothing-like-this").await.is_empty());
        // Only the words count: punctuation alone is no search.
        assert_eq!(found("!!").await.len(), 5);
        let (_, total) = s.query_posts(t, &search("coffee")).await.unwrap();
        assert_eq!(total, 3);
        // Posts stored later are found too (the index is filled per batch).
        s.ingest_batch(&[record(&p("6", 6_000, "Cold brew coffee: https://t.co/XyZ9 it's ÉTÉ", 0, "neutral"), t)], 20).await.unwrap();
        assert_eq!(found("brew").await, ["6"]);
        // Both databases split words where anything but a letter or digit stands, and fold case
        // beyond ASCII.
        assert_eq!(found("co").await, ["6"]);
        assert_eq!(found("t.co xyz9").await, ["6"]);
        assert_eq!(found("it s").await, ["6"]);
        assert_eq!(found("été").await, ["6"]);
        assert_eq!(found("CAFÉ").await, ["1"]);
    })
    .await;
}

/// SQLite keeps the full-text index in a file of its own beside the database. Removed (as a
/// restore does), it is built again from the posts at the next start; a database from before the
/// file, its index in the main schema, loses that one and is found through the file's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_search_index_is_built_again_from_the_posts() {
    let db = TestDb::new(hark_store::Backend::Sqlite).await;
    let path = std::path::PathBuf::from(db.url.trim_start_matches("sqlite://"));
    let index = path.with_file_name("hark-search.db");
    let s = db.store().await;
    let t = setup(&s).await;
    seed(&s, t).await;
    let found = |s: &Store, words: &'static str| {
        let s = s.clone();
        async move {
            let mut x = q();
            x.search = words.into();
            ids(&s.query_posts(t, &x).await.unwrap().0).iter().map(|x| x.to_string()).collect::<Vec<_>>()
        }
    };
    assert_eq!(found(&s, "coffee").await, ["4", "2", "1"]);
    assert!(index.is_file(), "the index is in {}", index.display());
    s.close().await;
    drop(s);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", index.display()));
    }
    // The index of a database from before the file, in its main schema.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE posts_fts USING fts5(text, title, author_name, author_username, author_location, \
         content='posts', content_rowid='id', detail='none', tokenize='unicode61 remove_diacritics 2'); \
         INSERT INTO posts_fts(posts_fts) VALUES ('rebuild');",
    )
    .unwrap();
    drop(conn);
    let s = db.store().await;
    assert_eq!(found(&s, "coffee").await, ["4", "2", "1"]);
    assert_eq!(found(&s, "lisbon").await, ["3"]);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let in_main: i64 = conn.query_row("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'posts_fts'", [], |r| r.get(0)).unwrap();
    assert_eq!(in_main, 0, "the main schema's index is gone");
    // Posts stored after the start are found too.
    s.ingest_batch(&[record(&p("6", 6_000, "Cold brew coffee", 0, "neutral"), t)], 20).await.unwrap();
    assert_eq!(found(&s, "brew").await, ["6"]);
    s.close().await;
}

#[tokio::test]
async fn sqlite_files_are_made_with_large_pages_and_older_files_keep_theirs() {
    let page_size = |path: &std::path::Path| -> i64 {
        rusqlite::Connection::open(path).unwrap().query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap()
    };
    // A new database.
    let db = TestDb::new(hark_store::Backend::Sqlite).await;
    let path = std::path::PathBuf::from(db.url.trim_start_matches("sqlite://"));
    let s = db.store().await;
    let t = setup(&s).await;
    seed(&s, t).await;
    s.close().await;
    drop(s);
    assert_eq!(page_size(&path), i64::from(hark_store::SQLITE_PAGE_SIZE));
    // A database made with SQLite's default pages (every file before this size was chosen).
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("hark.db");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute_batch("PRAGMA page_size = 4096; PRAGMA journal_mode = wal; CREATE TABLE kept (x); INSERT INTO kept VALUES (7);")
        .unwrap();
    let s = Store::connect(&format!("sqlite://{}", old.display())).await.unwrap();
    s.migrate().await.unwrap();
    let t = setup(&s).await;
    seed(&s, t).await;
    let mut x = q();
    x.search = "coffee".into();
    assert_eq!(ids(&s.query_posts(t, &x).await.unwrap().0), ["4", "2", "1"]);
    s.close().await;
    drop(s);
    assert_eq!(page_size(&old), 4096, "a file keeps the page size it was made with");
    let kept: i64 = rusqlite::Connection::open(&old).unwrap().query_row("SELECT x FROM kept", [], |r| r.get(0)).unwrap();
    assert_eq!(kept, 7);
}

#[tokio::test]
async fn tags_filter_any_and_all() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let a = s.create_tag(t, "A", "#c0392b", 1).await.unwrap().id;
        let b = s.create_tag(t, "B", "#c0392b", 1).await.unwrap().id;
        let keys = |ks: &[&str]| ks.iter().map(|k| format!("twitter;{k}")).collect::<Vec<_>>();
        let p12 = s.tracker_post_ids(t, &keys(&["1", "2"])).await.unwrap();
        let p2 = s.tracker_post_ids(t, &keys(&["2"])).await.unwrap();
        assert_eq!(s.set_post_tags(t, &p12, &[a], &[]).await.unwrap(), (2, 0));
        assert_eq!(s.set_post_tags(t, &p2, &[b], &[]).await.unwrap(), (1, 0));
        // Tagging again adds nothing; a tag of another tracker never applies.
        assert_eq!(s.set_post_tags(t, &p12, &[a, 9_999], &[]).await.unwrap(), (0, 0));
        let mut any = q();
        any.filter.post_tags = vec![a, b];
        assert_eq!(ids(&s.query_posts(t, &any).await.unwrap().0), ["2", "1"]);
        let mut all = any.clone();
        all.filter.post_tags_all = true;
        assert_eq!(ids(&s.query_posts(t, &all).await.unwrap().0), ["2"]);
        let rows = s.query_posts(t, &all).await.unwrap().0;
        assert_eq!(rows[0].tags, vec![a, b]);
        assert_eq!(s.set_post_tags(t, &p2, &[], &[a]).await.unwrap(), (0, 1));
        assert_eq!(s.count_posts(t, &all).await.unwrap(), 0);
        assert!(s.delete_tag(t, b).await.unwrap());
        assert_eq!(ids(&s.query_posts(t, &any).await.unwrap().0), ["1"]);
    })
    .await;
}

async fn sentiment_counts(s: &Store, t: i64) -> Vec<(String, i64)> {
    let mut v = s.rollup_terms(t, "sentiment", 10).await.unwrap();
    v.sort();
    v
}

#[tokio::test]
async fn bulk_delete_and_undo_keep_rollups_right() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let before = (s.rollup_totals(t).await.unwrap(), sentiment_counts(&s, t).await, s.rollup_terms(t, "hashtag", 5).await.unwrap());
        assert_eq!(before.0, (5, 79));
        let gone = s.tracker_post_ids(t, &["twitter;2".into(), "twitter;3".into()]).await.unwrap();
        assert_eq!(s.soft_delete_posts(t, &gone, 50).await.unwrap(), 2);
        // Deleting again changes nothing.
        assert_eq!(s.soft_delete_posts(t, &gone, 60).await.unwrap(), 0);
        assert_eq!(s.rollup_totals(t).await.unwrap(), (3, 9));
        assert_eq!(s.rollup_terms(t, "hashtag", 5).await.unwrap(), vec![("#coffee".to_string(), 3)]);
        assert!(!sentiment_counts(&s, t).await.iter().any(|(b, _)| b == "negative"));
        assert_eq!(ids(&s.query_posts(t, &q()).await.unwrap().0), ["5", "4", "1"]);
        assert_eq!(s.tracker_by_id(t).await.unwrap().unwrap().total_posts, 3);
        assert_eq!(s.restore_posts(t, &gone, 70).await.unwrap(), 2);
        assert_eq!(s.restore_posts(t, &gone, 80).await.unwrap(), 0);
        let after = (s.rollup_totals(t).await.unwrap(), sentiment_counts(&s, t).await, s.rollup_terms(t, "hashtag", 5).await.unwrap());
        assert_eq!(after, before);
        assert_eq!(s.query_posts(t, &q()).await.unwrap().1, 5);
        assert_eq!(s.tracker_by_id(t).await.unwrap().unwrap().total_posts, 5);
    })
    .await;
}

/// A deleted post whose link is removed (a re-analysis) and which is collected again is shown
/// again: the deleted links' copy loses the row with the link (SQLite: a foreign key;
/// PostgreSQL: a trigger), or the walks in a key's order would go on leaving the post out.
#[tokio::test]
async fn a_deleted_post_unlinked_and_collected_again_shows() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let by_engagement = PostQuery { sort: PostSort::Engagement, ..q() };
        let id = s.tracker_post_ids(t, &["twitter;2".into()]).await.unwrap();
        assert_eq!(ids(&s.query_posts(t, &by_engagement).await.unwrap().0), ["2", "3", "1", "5", "4"]);
        s.soft_delete_posts(t, &id, 20).await.unwrap();
        assert_eq!(ids(&s.query_posts(t, &by_engagement).await.unwrap().0), ["3", "1", "5", "4"]);
        assert_eq!(s.unlink_posts(t, &id, 30).await.unwrap(), 1);
        let mut again = p("2", 2_000, "Tea is better than coffee", 50, "negative");
        again.author = "bob";
        s.ingest_batch(&[record(&again, t)], 40).await.unwrap();
        let (rows, total) = s.query_posts(t, &by_engagement).await.unwrap();
        assert_eq!(ids(&rows), ["2", "3", "1", "5", "4"]);
        assert_eq!(total, 5);
        // Deleted again, then the tracker removed with its deleted links.
        s.soft_delete_posts(t, &id, 50).await.unwrap();
        assert!(s.delete_tracker(t, None).await.unwrap());
    })
    .await;
}

/// The rows of the deleted links' table (migration 0016; on PostgreSQL the deletion itself,
/// migration 0020), read from outside the store.
async fn deleted_link_rows(db: &TestDb) -> i64 {
    let sql = "SELECT COUNT(*) FROM tracker_deleted_posts";
    match db.backend {
        hark_store::Backend::Sqlite => {
            let mut c = <sqlx::SqliteConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
            sqlx::query_scalar(sql).fetch_one(&mut c).await.unwrap()
        }
        hark_store::Backend::Postgres => {
            let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
            sqlx::query_scalar(sql).fetch_one(&mut c).await.unwrap()
        }
    }
}

/// A deletion is one row per post, gone with its undo, with its link's removal, and with its
/// tracker; two trackers' deletions of the same post are their own.
#[tokio::test]
async fn deleted_links_leave_with_their_links() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let t = setup(&s).await;
        seed(&s, t).await;
        let gone = s.tracker_post_ids(t, &["twitter;2".into(), "twitter;3".into(), "twitter;4".into()]).await.unwrap();
        assert_eq!(s.soft_delete_posts(t, &gone, 10).await.unwrap(), 3);
        assert_eq!(deleted_link_rows(&db).await, 3);
        assert_eq!(s.restore_posts(t, &gone[..1], 20).await.unwrap(), 1);
        assert_eq!(deleted_link_rows(&db).await, 2);
        // Removing a live link and a deleted one: only the deleted one had a row.
        assert_eq!(s.unlink_posts(t, &[gone[0], gone[1]], 30).await.unwrap(), 2);
        assert_eq!(deleted_link_rows(&db).await, 1);
        assert_eq!(s.count_links(t).await.unwrap(), 2);
        assert!(s.delete_tracker(t, None).await.unwrap());
        assert_eq!(deleted_link_rows(&db).await, 0);
    }
}

#[tokio::test]
async fn sentiment_edit_moves_the_rollup_and_the_filter() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let id = s.tracker_post_ids(t, &["twitter;2".into()]).await.unwrap()[0];
        let edit = s.edit_sentiment(t, id, "positive").await.unwrap().unwrap();
        assert_eq!((edit.old.as_str(), edit.new.as_str()), ("negative", "positive"));
        let counts = sentiment_counts(&s, t).await;
        assert!(counts.contains(&("positive".into(), 2)), "{counts:?}");
        assert!(!counts.iter().any(|(b, _)| b == "negative"));
        let mut neg = q();
        neg.sentiment = vec!["negative"];
        assert_eq!(s.count_posts(t, &neg).await.unwrap(), 0);
        let mut pos = q();
        pos.sentiment = vec!["positive"];
        let rows = s.query_posts(t, &pos).await.unwrap().0;
        assert_eq!(ids(&rows), ["2", "1"]);
        assert!(rows[0].sentiment_edited);
        // Deleting and restoring an edited post counts the edited bucket both ways.
        s.soft_delete_posts(t, &[id], 5).await.unwrap();
        assert!(sentiment_counts(&s, t).await.contains(&("positive".into(), 1)));
        s.restore_posts(t, &[id], 6).await.unwrap();
        assert_eq!(sentiment_counts(&s, t).await, counts);
        assert!(s.edit_sentiment(t, 987_654, "neutral").await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn ignore_list_and_last_visit() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        let users = vec![("twitter".to_string(), "Bob".to_string())];
        assert_eq!(s.ignore_users(t, &users, 1).await.unwrap(), 1);
        assert_eq!(s.ignore_users(t, &users, 2).await.unwrap(), 0);
        assert_eq!(s.ignored_authors().await.unwrap(), vec![(t, "twitter".to_string(), "bob".to_string())]);
        assert_eq!(s.unignore_users(t, &users).await.unwrap(), 1);
        assert!(s.ignored_authors().await.unwrap().is_empty());
        let owner = s.tracker_by_id(t).await.unwrap().unwrap().owner_id;
        assert_eq!(s.swap_last_visit(t, owner, 100).await.unwrap(), None);
        assert_eq!(s.swap_last_visit(t, owner, 200).await.unwrap(), Some(100));
        assert_eq!(s.last_visit(t, owner).await.unwrap(), Some(200));
        assert_eq!(s.swap_last_visit(t, owner, 300).await.unwrap(), Some(200));
        assert_eq!(s.last_visit(t, owner).await.unwrap(), Some(300));
    })
    .await;
}

/// On SQLite the visit markers are kept in memory and written within a second, and when the
/// store closes: another store on the same file reads them. A visit of a tracker deleted
/// meanwhile is dropped without holding back the others.
#[tokio::test]
async fn visits_reach_the_table() {
    let db = TestDb::new(hark_store::Backend::Sqlite).await;
    let s = db.store().await;
    let t = setup(&s).await;
    let owner = s.tracker_by_id(t).await.unwrap().unwrap().owner_id;
    let gone = s
        .create_tracker(&hark_testkit::new_tracker("Tea", owner, PlatformSet::all().bits(), "{}"), 1)
        .await
        .unwrap()
        .id;
    assert_eq!(s.swap_last_visit(t, owner, 100).await.unwrap(), None);
    assert_eq!(s.swap_last_visit(gone, owner, 100).await.unwrap(), None);
    assert!(s.delete_tracker(gone, None).await.unwrap());
    // Written within the second, and again for a later visit: a second store on the file (its
    // own memory, read once) reads each.
    let written = |at: i64| {
        let db = &db;
        async move {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            loop {
                let fresh = db.store().await;
                let seen = fresh.last_visit(t, owner).await.unwrap();
                fresh.close().await;
                if seen == Some(at) {
                    return;
                }
                assert!(std::time::Instant::now() < deadline, "the visit at {at} was not written (saw {seen:?})");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    };
    written(100).await;
    assert_eq!(s.swap_last_visit(t, owner, 150).await.unwrap(), Some(100));
    written(150).await;
    // Written at close, with the previous visit.
    assert_eq!(s.swap_last_visit(t, owner, 200).await.unwrap(), Some(150));
    s.close().await;
    let after = db.store().await;
    assert_eq!(after.last_visit(t, owner).await.unwrap(), Some(200));
    assert_eq!(after.swap_last_visit(t, owner, 300).await.unwrap(), Some(200));
    assert_eq!(after.last_visit(gone, owner).await.unwrap(), None);
}

/// SQLite's writes run on a connection of their own: with every reader's connection taken (a
/// server under many readers), a visit marker and an import still go through at once.
#[tokio::test]
async fn writes_do_not_wait_for_the_readers_connections() {
    let db = TestDb::new(hark_store::Backend::Sqlite).await;
    let s = db.store().await;
    let t = setup(&s).await;
    let owner = s.tracker_by_id(t).await.unwrap().unwrap().owner_id;
    let held = s.hold_reader_connections().await.expect("a SQLite file has a write connection");
    let wait = std::time::Duration::from_secs(10);
    let visit = tokio::time::timeout(wait, s.swap_last_visit(t, owner, 100)).await;
    assert!(matches!(visit, Ok(Ok(None))), "a visit marker waited for a reader's connection: {visit:?}");
    let records = vec![record(&p("1", 1_000, "Morning coffee", 5, "positive"), t)];
    let stored = tokio::time::timeout(wait, s.ingest_batch(&records, 10)).await;
    assert!(matches!(stored, Ok(Ok(ref st)) if st.new_posts == 1), "an import waited for a reader's connection: {stored:?}");
    drop(held);
    assert_eq!(s.last_visit(t, owner).await.unwrap(), Some(100));
}

/// Bulk delete and undo while posts are being collected: on SQLite a write transaction that read
/// first could fail ("database is locked") when another write committed in between; each now
/// waits for the other instead, and the counts stay right.
#[tokio::test]
async fn bulk_delete_while_collecting() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        seed(&s, t).await;
        let gone = s.tracker_post_ids(t, &["twitter;2".into(), "twitter;3".into()]).await.unwrap();
        let collect = {
            let s = s.clone();
            tokio::spawn(async move {
                for batch in 0..40 {
                    let posts: Vec<P> = (0..10)
                        .map(|i| {
                            let id: &'static str = Box::leak(format!("c{batch}-{i}").into_boxed_str());
                            p(id, 10_000 + batch * 10 + i, "More coffee news", 2, "neutral")
                        })
                        .collect();
                    let records: Vec<PostRecord> = posts.iter().map(|x| record(x, t)).collect();
                    s.ingest_batch(&records, 100 + batch).await.expect("collect");
                }
            })
        };
        for round in 0..40 {
            assert_eq!(s.soft_delete_posts(t, &gone, 200 + round).await.expect("delete"), 2);
            assert_eq!(s.restore_posts(t, &gone, 300 + round).await.expect("undo"), 2);
        }
        collect.await.unwrap();
        assert_eq!(s.rollup_totals(t).await.unwrap().0, 5 + 400);
        assert_eq!(s.count_links(t).await.unwrap(), 5 + 400);
    })
    .await;
}

/// A range that ends now cuts the current hour: when nothing of the tracker lies after its end in
/// that hour, the hour is read whole from the rollups (the posts just stored are not counted
/// over their rows each time); when something does, its rows are counted. Both are exact.
#[tokio::test]
async fn a_range_ending_inside_an_hour_counts_exactly_whether_the_rest_holds_posts_or_not() {
    each_backend(|s| async move {
        let t = setup(&s).await;
        const HOUR: i64 = 3_600_000;
        let h = 1_700_006_400_000 + 10 * HOUR;
        // One post three hours before, two in the hour before, three in the hour, one later in
        // the same hour.
        let mut posts = vec![
            p("z", h - 3 * HOUR + 60_000, "coffee z", 7, "neutral"),
            p("a", h - 30 * 60_000, "coffee a", 1, "neutral"),
            p("b", h - 60_000, "coffee b", 2, "positive"),
        ];
        for (i, id) in ["c", "d", "e"].into_iter().enumerate() {
            posts.push(p(id, h + (i as i64 + 1) * 60_000, "coffee now", 10, "negative"));
        }
        posts.push(p("later", h + 50 * 60_000, "coffee later", 100, "neutral"));
        let records: Vec<PostRecord> = posts.iter().map(|x| record(x, t)).collect();
        s.ingest_batch(&records, 1).await.unwrap();
        let now = h + 5 * 60_000;
        let check = |start: i64, want: i64, engagement: i64, label: &'static str| {
            let s = &s;
            async move {
                let mut q = q();
                q.filter.start = Some(start);
                q.filter.end = Some(now);
                let (_, total) = s.query_posts(t, &q).await.unwrap();
                assert_eq!(total, want, "{label}: posts page total");
                assert_eq!(s.post_total(t, &q).await.unwrap(), want, "{label}: the total from the rollups and rows");
                let c = s.dash_counts(t, &q.filter).await.unwrap();
                assert_eq!((c.posts, c.engagement), (want, engagement), "{label}: top stats");
                let series = s.dash_series(t, &q.filter, HOUR).await.unwrap();
                assert_eq!(series.iter().map(|(_, c)| c.posts).sum::<i64>(), want, "{label}: timeline");
                assert!(series.iter().all(|(at, _)| *at >= start / HOUR * HOUR && *at <= now), "{label}: {series:?}");
            }
        };
        // From an hour whose first part is empty: the current hour's rest is not.
        check(h - 3 * HOUR - 40 * 60_000, 6, 40, "a later post in the hour").await;
        // From an hour cut after a post.
        check(h - 2 * HOUR - 10 * 60_000, 5, 33, "the first hour cut after a post").await;
        // Once the later post is gone, the current hour is whole in the rollups and still exact.
        let (rows, _) = s.query_posts(t, &q()).await.unwrap();
        let later = rows.iter().find(|r| r.post.id == "later").unwrap().post_id;
        assert_eq!(s.soft_delete_posts(t, &[later], 2).await.unwrap(), 1);
        check(h - 3 * HOUR - 40 * 60_000, 6, 40, "nothing after now").await;
        check(h - 2 * HOUR - 10 * 60_000, 5, 33, "nothing after now, the first hour cut").await;
    })
    .await;
}
