//! The posts page's fast plans (top posts by hourly bounds, totals from rollups, capped counts,
//! search by match count) give exactly what the plain sorted query and a direct count give, for
//! every sort, direction and filter, on SQLite and (when configured) PostgreSQL; also after
//! deletes, undo, repeats with higher counts, sentiment rules and manual sentiment edits.

use hark_core::{Friendly, Platform, PlatformSet, Post};
use hark_store::{NewTracker, PageFilter, PostQuery, PostRecord, PostSort, Store, TrackerLink};
use hark_testkit::{backends, TestDb};

const H: i64 = 3_600_000;
const T0: i64 = 1_700_000_000_000;
const N: usize = 700;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

const WORDS: [&str; 6] = ["kestrel", "coffee", "harbour", "prices", "lantern", "meadow"];
const BUCKETS: [&str; 5] = ["positive", "slight_positive", "neutral", "slight_negative", "negative"];
const PLATFORMS: [Platform; 4] = [Platform::Twitter, Platform::Instagram, Platform::Youtube, Platform::Facebook];

fn record(i: usize, r: &mut Rng, tracker: i64) -> PostRecord {
    let platform = PLATFORMS[r.below(4) as usize];
    let id = format!("p{i}");
    let at = T0 + r.below(48 * H as u64);
    let mut words: Vec<&str> = Vec::new();
    for w in WORDS {
        if r.below(3) == 0 {
            words.push(w);
        }
    }
    // A rare word, in one post of 50 (14 of them).
    if i % 50 == 7 {
        words.push("zephyr");
    }
    let text = format!("post {i} {}", words.join(" "));
    let mut post = Post::new(platform, &id, &text, at);
    let story = platform == Platform::Instagram && r.below(3) == 0;
    post.flags.is_story = story;
    let post_type = if platform == Platform::Twitter && r.below(3) == 0 { "retweet" } else { "original" };
    // Small ranges: many ties.
    let likes = r.below(6);
    let comments = r.below(4);
    let shares = r.below(3);
    PostRecord {
        post_key: format!("{};{id}", platform.name()),
        platform,
        external_id: id,
        created_at: at,
        author_username: format!("a{}", r.below(30)),
        // Case and ties: the user order is by the lowercased name.
        author_name: ["Ana", "ana", "Bo", "bo b", "Zed", "zed"][i % 6].into(),
        author_followers: r.below(50) * 10,
        text,
        post_type: hark_core::PostType::parse(post_type).unwrap(),
        is_story: story,
        likes,
        comments,
        shares,
        views: r.below(20),
        impressions: r.below(10) * 100,
        engagement: likes + comments + shares,
        engagement_rate: if r.below(4) == 0 { None } else { Some(r.below(8) as f64 / 4.0) },
        sentiment: (r.below(9) as f64 - 4.0) / 4.0,
        sentiment_bucket: hark_core::Bucket::parse(BUCKETS[r.below(5) as usize]).unwrap(),
        data: hark_store::encode_extras(&post),
        links: vec![TrackerLink {
            tracker_id: tracker,
            subtrackers: r.below(4),
            sentiment: if r.below(8) == 0 { Some("negative") } else { None },
            indirect: false,
        }],
        ..Default::default()
    }
}

/// A tracker and a second one of the same owner.
async fn setup(s: &Store) -> (i64, i64) {
    let u = s
        .create_user(
            &hark_testkit::new_user("o@example.org"),
            1,
        )
        .await
        .unwrap();
    let mut out = Vec::new();
    for name in ["birds", "other"] {
        out.push(
            s.create_tracker(
                &NewTracker {
                    friendly: Friendly::from_text(name),
                    title: name.into(),
                    owner_id: u.id,
                    platforms: PlatformSet::all().bits(),
                    criteria: "{}".into(),
                    volume_limit: None,
                    is_demo: false,
                    is_preview_mode: false,
                },
                1,
            )
            .await
            .unwrap()
            .id,
        );
    }
    (out[0], out[1])
}

fn base() -> PostQuery {
    PostQuery {
        filter: PageFilter {
            platforms: PlatformSet::all(),
            // Partial first and last hours.
            start: Some(T0 + 5 * H + H / 2),
            end: Some(T0 + 40 * H + H / 4),
            ..Default::default()
        },
        page: 1,
        per_page: 7,
        ..Default::default()
    }
}

fn filters(tags: (i64, i64)) -> Vec<(String, PostQuery)> {
    let mut out = vec![("none".to_string(), base())];
    let mut q = base();
    q.filter.start = None;
    q.filter.end = None;
    out.push(("no range".into(), q));
    for b in BUCKETS {
        let mut q = base();
        q.sentiment = vec![b];
        out.push((format!("sentiment {b}"), q));
    }
    let mut q = base();
    q.sentiment = vec!["positive", "negative"];
    out.push(("sentiment two".into(), q));
    let mut q = base();
    q.exclude_retweets = true;
    out.push(("no retweets".into(), q));
    let mut q = base();
    q.stories_only = true;
    out.push(("stories".into(), q));
    let mut q = base();
    q.filter.platforms = [Platform::Youtube, Platform::Twitter].into_iter().collect();
    out.push(("platforms".into(), q));
    let mut q = base();
    q.filter.post_tags = vec![tags.0, tags.1];
    out.push(("tags any".into(), q));
    let mut q = base();
    q.filter.post_tags = vec![tags.0, tags.1];
    q.filter.post_tags_all = true;
    out.push(("tags all".into(), q));
    for words in ["kestrel", "kestrel coffee", "zephyr"] {
        let mut q = base();
        q.search = words.into();
        out.push((format!("search {words}"), q));
    }
    let mut q = base();
    q.filter.subtracker = Some(2);
    out.push(("subtracker".into(), q));
    let mut q = base();
    q.sentiment = vec!["neutral"];
    q.exclude_retweets = true;
    out.push(("sentiment + retweets".into(), q));
    // A platform without posts: its streams are left out, the other's kept.
    let mut q = base();
    q.sentiment = vec!["negative", "slight_positive"];
    q.filter.platforms = [Platform::Youtube, Platform::Tiktok].into_iter().collect();
    out.push(("sentiment + platform without posts".into(), q));
    out
}

const SORTS: [PostSort; 12] = [
    PostSort::Date,
    PostSort::Engagement,
    PostSort::Reach,
    PostSort::EngagementRate,
    PostSort::Impressions,
    PostSort::Sentiment,
    PostSort::User,
    PostSort::Likes,
    PostSort::Comments,
    PostSort::Shares,
    PostSort::Views,
    PostSort::Text,
];

fn ids(rows: &[hark_store::PostRow]) -> Vec<i64> {
    rows.iter().map(|r| r.post_id).collect()
}

/// The sorts whose key is kept on the link give, over all of a tracker's posts, the order of
/// the posts' own values (key, then time, then post id): the links' copies of the keys are
/// current after repeats, in every tracker of the post.
async fn check_keys(s: &Store, t: i64, when: &str) {
    let all = PostQuery { filter: PageFilter { start: None, end: None, ..base().filter }, per_page: 1000, ..base() };
    let rows = s.query_post_page_plain(t, &all).await.unwrap();
    assert!(rows.len() > 100, "{when}: tracker {t} has posts");
    type Key = Box<dyn Fn(&hark_store::PostRow) -> (f64, String)>;
    let keys: Vec<(PostSort, Key)> = vec![
        (PostSort::Engagement, Box::new(|r| (r.engagement as f64, String::new()))),
        (PostSort::Reach, Box::new(|r| (r.reach as f64, String::new()))),
        (PostSort::EngagementRate, Box::new(|r| (r.engagement_rate.unwrap_or(0.0), String::new()))),
        (PostSort::Impressions, Box::new(|r| (r.impressions as f64, String::new()))),
        (PostSort::Sentiment, Box::new(|r| (r.sentiment.unwrap_or(0.0), String::new()))),
        (PostSort::User, Box::new(|r| (0.0, r.post.author.name.to_lowercase()))),
        (PostSort::Text, Box::new(|r| (0.0, r.post.text.chars().take(16).collect::<String>().to_lowercase()))),
    ];
    for (sort, key) in keys {
        for ascending in [false, true] {
            let mut expected: Vec<(f64, String, i64, i64)> =
                rows.iter().map(|r| { let (k, name) = key(r); (k, name, r.post.created_at, r.post_id) }).collect();
            expected.sort_by(|a, b| {
                let o = a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3));
                if ascending { o } else { o.reverse() }
            });
            let expected: Vec<i64> = expected.into_iter().map(|e| e.3).collect();
            let got = ids(&s.query_post_page(t, &PostQuery { sort, ascending, ..all.clone() }).await.unwrap());
            assert_eq!(got, expected, "{when}: tracker {t}, {sort:?} ascending {ascending}");
        }
    }
    // The retweet and story filters read the kind kept on the link: the posts they keep are the
    // ones the posts' own fields say.
    let is_story = |r: &hark_store::PostRow| r.post.platform == Platform::Instagram && r.post.flags.is_story;
    let is_retweet = |r: &hark_store::PostRow| r.post.platform == Platform::Twitter && r.post_type == "retweet";
    assert!(rows.iter().any(is_story) && rows.iter().any(is_retweet), "{when}: tracker {t} has stories and retweets");
    for (name, q, keep) in [
        ("stories", PostQuery { stories_only: true, ..all.clone() }, &is_story as &dyn Fn(&hark_store::PostRow) -> bool),
        ("no retweets", PostQuery { exclude_retweets: true, ..all.clone() }, &|r: &hark_store::PostRow| !is_retweet(r)),
    ] {
        let expected: Vec<i64> = rows.iter().filter(|r| keep(r)).map(|r| r.post_id).collect();
        for sort in [PostSort::Date, PostSort::Engagement, PostSort::Sentiment] {
            let mut got = ids(&s.query_post_page(t, &PostQuery { sort, ..q.clone() }).await.unwrap());
            if sort != PostSort::Date {
                let pos: std::collections::HashMap<i64, usize> = expected.iter().enumerate().map(|(i, id)| (*id, i)).collect();
                got.sort_by_key(|id| pos.get(id).copied().unwrap_or(usize::MAX));
            }
            assert_eq!(got, expected, "{when}: tracker {t}, {name}, {sort:?}");
        }
    }
}

/// Every sort, direction, filter and pages 1 and 3 against the plain plan; totals against a
/// direct count.
async fn check_all(s: &Store, t: i64, tags: (i64, i64), when: &str) {
    check_keys(s, t, when).await;
    for (name, f) in filters(tags) {
        let exact = s.count_posts(t, &f).await.unwrap();
        let total = s.post_total(t, &f).await.unwrap();
        if total.capped {
            // A lower bound (counted to a cap, or among the newest links only on PostgreSQL).
            assert!(exact >= total.total, "{when}: {name}: capped total {} but {exact} posts", total.total);
        } else {
            assert_eq!(total.total, exact, "{when}: {name}: total");
        }
        for sort in SORTS {
            for ascending in [false, true] {
                // Page 3 stands for every page after the first (an offset, a walk past it).
                for page in [1, 3] {
                    let mut q = f.clone();
                    q.sort = sort;
                    q.ascending = ascending;
                    q.page = page;
                    let fast = ids(&s.query_post_page(t, &q).await.unwrap());
                    let plain = ids(&s.query_post_page_plain(t, &q).await.unwrap());
                    assert_eq!(fast, plain, "{when}: {name}, {sort:?} ascending {ascending}, page {page}");
                }
            }
        }
    }
}

// One test per backend and set of limits: each runs in its own process (the limits are global),
// side by side.
#[tokio::test]
async fn fast_plans_equal_the_plain_query_sqlite() {
    fast_plans_equal_the_plain_query(0, DEFAULT_LIMITS).await;
}

/// Low limits: searches take the common-word plans (on SQLite 'kestrel', in about 230 posts, is
/// tested against the full-text index; 'kestrel coffee', in about 80, is read into memory), walks
/// look up each link once more than 10 are deleted, and totals that are counted get capped (on
/// PostgreSQL a search's total examines the newest 50 links only), and engagement pages from the
/// 11th post on skip in the engagement index.
#[tokio::test]
async fn fast_plans_equal_the_plain_query_sqlite_low_limits() {
    fast_plans_equal_the_plain_query(0, [40, 30, 10, 150, 50, 10]).await;
}

#[tokio::test]
async fn fast_plans_equal_the_plain_query_postgres() {
    fast_plans_equal_the_plain_query(1, DEFAULT_LIMITS).await;
}

#[tokio::test]
async fn fast_plans_equal_the_plain_query_postgres_low_limits() {
    fast_plans_equal_the_plain_query(1, [40, 30, 10, 150, 50, 10]).await;
}

/// Limits like Hark's own (totals counted to 10,000, rare searches to 20,000 matches, ...): on
/// SQLite every search is read into memory; on PostgreSQL 'zephyr' is rare enough for it.
const DEFAULT_LIMITS: [i64; 6] = [10_000, 1_000, 20_000, 150_000, 10_000, 1_000];

/// The checks on backend `which` of [`backends`] (none when it is not configured).
async fn fast_plans_equal_the_plain_query(which: usize, limits: [i64; 6]) {
    {
        for b in backends().into_iter().skip(which).take(1) {
            let tuning = hark_store::PostListTuning {
                total_cap: limits[0],
                search_total_cap: limits[1],
                rare_search: limits[2],
                search_set_max: limits[3],
                search_examined: limits[4],
                engagement_skip_from: limits[5],
                // Lowered limits reach every SQL plan; the default ones check the in-memory table.
                in_memory: limits == DEFAULT_LIMITS,
            };
            let (search_cap, examined) = (limits[1], limits[4]);
            let db = TestDb::new(b).await;
            let s = db.store().await.with_post_list_tuning(tuning);
            let (t, other) = setup(&s).await;
            let mut r = Rng(0x9e37_79b9_7f4a_7c15);
            let mut records: Vec<PostRecord> = (0..N).map(|i| record(i, &mut r, t)).collect();
            // Some posts are in a second tracker too.
            for rec in records.iter_mut().step_by(5) {
                rec.links.push(TrackerLink { tracker_id: other, subtrackers: 1, sentiment: None, indirect: false });
            }
            for chunk in records.chunks(150) {
                s.ingest_batch(chunk, 10).await.unwrap();
            }
            let a = s.create_tag(t, "A", "#c0392b", 0).await.unwrap().id;
            let bt = s.create_tag(t, "B", "#2980b9", 0).await.unwrap().id;
            let all: Vec<i64> = ids(&s.query_post_page_plain(t, &PostQuery { per_page: 1000, ..base() }).await.unwrap());
            let tagged_a: Vec<i64> = all.iter().copied().step_by(3).collect();
            let tagged_b: Vec<i64> = all.iter().copied().step_by(4).collect();
            s.set_post_tags(t, &tagged_a, &[a], &[]).await.unwrap();
            s.set_post_tags(t, &tagged_b, &[bt], &[]).await.unwrap();
            let tags = (a, bt);
            // A table never read is read in the background, the pages meanwhile from the SQL
            // plans: read it now, so that every check below reads it (brought up to date after
            // each write).
            if tuning.in_memory {
                s.warm_tracker(t).await.unwrap();
            }
            check_all(&s, t, tags, "loaded").await;
            if s.backend() == hark_store::Backend::Postgres && examined < N as i64 {
                // A common word's total is its matches among the newest links examined, a lower
                // bound, when those are fewer than the cap.
                let newest = ids(&s.query_post_page_plain(t, &PostQuery { per_page: examined, ..base() }).await.unwrap());
                let mut checked = 0;
                for word in ["kestrel", "kestrel coffee"] {
                    let q = PostQuery { search: word.into(), per_page: 1000, ..base() };
                    let matches = ids(&s.query_post_page_plain(t, &q).await.unwrap());
                    let among = newest.iter().filter(|id| matches.contains(id)).count() as i64;
                    if among <= search_cap && matches.len() as i64 > among {
                        assert_eq!(s.post_total(t, &q).await.unwrap(), hark_store::PostTotal { total: among, capped: true }, "{word}");
                        checked += 1;
                    }
                }
                assert!(checked > 0, "no search total was a lower bound");
            }

            // Delete a spread of posts (the best ones among them), then bring some back.
            let gone: Vec<i64> = all.iter().copied().step_by(7).collect();
            s.soft_delete_posts(t, &gone, 20).await.unwrap();
            check_all(&s, t, tags, "deleted").await;
            s.restore_posts(t, &gone[..gone.len() / 2], 30).await.unwrap();
            check_all(&s, t, tags, "restored").await;

            // Repeats of stored posts with much higher counts (the hour's bounds must widen).
            let mut bumped: Vec<PostRecord> = Vec::new();
            for (i, rec) in records.iter().enumerate().step_by(11) {
                let mut x = rec.clone();
                x.likes = 100 + i as i64;
                x.comments = 50;
                x.shares = 7;
                x.views = 1000 + i as i64;
                x.impressions = 5000;
                x.engagement = x.likes + x.comments + x.shares;
                x.engagement_rate = Some(9.0);
                x.author_followers = 100_000;
                bumped.push(x);
            }
            s.ingest_batch(&bumped, 40).await.unwrap();
            check_all(&s, t, tags, "repeats").await;
            check_keys(&s, other, "repeats").await;

            // Repeats that reach only the second tracker still carry their new counts onto the
            // first tracker's links, and its pages see them.
            let mut elsewhere: Vec<PostRecord> = Vec::new();
            for rec in records.iter().filter(|r| r.links.len() > 1).step_by(2) {
                let mut x = rec.clone();
                x.likes = 10_000;
                x.engagement = 20_000;
                x.impressions = 90_000;
                x.author_followers = 500_000;
                x.links.retain(|l| l.tracker_id == other);
                elsewhere.push(x);
            }
            s.ingest_batch(&elsewhere, 45).await.unwrap();
            check_all(&s, t, tags, "repeats of another tracker").await;

            // Sentiment rules of the tracker and manual edits move the bucket counts.
            let rules: Vec<(i64, Option<&'static str>)> =
                all.iter().step_by(6).enumerate().map(|(i, id)| (*id, if i % 2 == 0 { Some("positive") } else { None })).collect();
            s.set_sentiment_rules(t, &rules, 50).await.unwrap();
            check_all(&s, t, tags, "sentiment rules").await;
            for (i, id) in all.iter().step_by(9).enumerate() {
                s.edit_sentiment(t, *id, BUCKETS[i % 5]).await.unwrap();
            }
            check_all(&s, t, tags, "sentiment edits").await;
            // A deleted post edited, then restored, counts its new bucket.
            s.edit_sentiment(t, gone[gone.len() - 1], "slight_negative").await.unwrap();
            s.restore_posts(t, &gone, 60).await.unwrap();
            check_all(&s, t, tags, "edited while deleted").await;
        }
    }
}


/// Pages in an order kept on the link with what the in-memory table cannot see (a common word,
/// influencer tags): the table gives the candidates in order, a piece at a time, and the database
/// tests them; on SQLite a word of moderate use is read into memory and its page and total
/// selected in the table. The same pages as the plain query, deep ones included, before and after
/// deletes, and totals equal to a count of the rows.
#[tokio::test]
async fn memory_candidates_tested_in_the_database_equal_the_plain_query() {
    for b in backends() {
        let tuning = hark_store::PostListTuning {
            total_cap: 40,
            search_total_cap: 30,
            // 'kestrel' (about 230 posts) is common; on SQLite 'kestrel coffee' (about 80) is
            // read into memory.
            rare_search: 10,
            search_set_max: 150,
            search_examined: 50,
            engagement_skip_from: 10,
            in_memory: true,
        };
        let db = TestDb::new(b).await;
        let s = db.store().await.with_post_list_tuning(tuning);
        let (t, _) = setup(&s).await;
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let records: Vec<PostRecord> = (0..N).map(|i| record(i, &mut r, t)).collect();
        for chunk in records.chunks(150) {
            s.ingest_batch(chunk, 10).await.unwrap();
        }
        let owner = s.user_by_email("o@example.org").await.unwrap().unwrap().id;
        let vip = s.create_influencer_tag(owner, "vip", "#c0392b", 1).await.unwrap().id;
        let accounts: Vec<(String, String)> =
            PLATFORMS.iter().flat_map(|p| (0..12).map(move |i| (p.name().to_string(), format!("a{i}")))).collect();
        s.set_account_tags(owner, &accounts, &[vip], &[]).await.unwrap();
        s.warm_tracker(t).await.unwrap();
        let mut queries: Vec<(String, PostQuery)> = Vec::new();
        for words in ["kestrel", "kestrel coffee"] {
            let mut q = base();
            q.search = words.into();
            queries.push((format!("search {words}"), q.clone()));
            q.sentiment = vec!["negative", "neutral"];
            q.exclude_retweets = true;
            queries.push((format!("search {words}, two buckets, no retweets"), q));
        }
        let mut q = base();
        q.filter.influencer_tags = vec![vip];
        q.filter.influencer_tag_owner = owner;
        queries.push(("influencer tag".into(), q.clone()));
        q.search = "kestrel".into();
        q.filter.subtracker = Some(2);
        queries.push(("influencer tag, search, subtracker".into(), q));
        let link_sorts = [
            PostSort::Engagement,
            PostSort::Reach,
            PostSort::EngagementRate,
            PostSort::Impressions,
            PostSort::Sentiment,
            PostSort::User,
            PostSort::Text,
        ];
        let all: Vec<i64> = ids(&s.query_post_page_plain(t, &PostQuery { per_page: 1000, ..base() }).await.unwrap());
        for when in ["loaded", "deleted"] {
            if when == "deleted" {
                let gone: Vec<i64> = all.iter().copied().step_by(5).collect();
                s.soft_delete_posts(t, &gone, 20).await.unwrap();
            }
            let mut nonempty = 0;
            for (name, f) in &queries {
                for sort in link_sorts {
                    for ascending in [false, true] {
                        for page in [1, 3, 9] {
                            let q = PostQuery { sort, ascending, page, ..f.clone() };
                            let fast = ids(&s.query_post_page(t, &q).await.unwrap());
                            let plain = ids(&s.query_post_page_plain(t, &q).await.unwrap());
                            assert_eq!(fast, plain, "{:?} {when}: {name}, {sort:?} ascending {ascending}, page {page}", s.backend());
                            nonempty += usize::from(!plain.is_empty());
                        }
                    }
                }
            }
            assert!(nonempty > 100, "{when}: the queries find posts ({nonempty} pages)");
            // Totals: exact when counted to the end (on SQLite a word read into memory is counted
            // there), and the page with its total is the page and the total asked apart.
            let mut exact_searches = 0;
            for (name, f) in &queries {
                let exact = s.count_posts(t, f).await.unwrap();
                let total = s.post_total(t, f).await.unwrap();
                if total.capped {
                    assert!(exact >= total.total, "{when}: {name}: capped total {} but {exact} posts", total.total);
                } else {
                    assert_eq!(total.total, exact, "{when}: {name}: total");
                    exact_searches += usize::from(!f.search.is_empty() && exact > 0);
                }
                let (rows, with_page) = s.query_posts(t, f).await.unwrap();
                assert_eq!(with_page, total, "{when}: {name}: total with the page");
                assert_eq!(ids(&rows), ids(&s.query_post_page(t, f).await.unwrap()), "{when}: {name}: page with its total");
            }
            if s.backend() == hark_store::Backend::Sqlite {
                assert!(exact_searches >= 2, "{when}: a search read into memory counts its total ({exact_searches})");
            }
        }
    }
}
