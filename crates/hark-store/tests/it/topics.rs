//! The trending topics and sentiment pages against a direct computation over the same posts, on
//! every backend: layers with paths, sorts and pages, series, posts, sentiment counts and
//! significant keywords, with the shared filters (platforms, ranges with millisecond edges, a
//! subtracker); from the in-memory table and from the rows alike, before and after new posts, a
//! bulk delete, a restore and a sentiment edit.

use std::collections::{HashMap, HashSet};

use hark_core::{Bucket, Platform, PlatformSet};
use hark_store::{PageFilter, PostRecord, PostTerms, Store, TermKind, TermRef, TopicQuery, TopicSort, TrackerLink};
use hark_testkit::{backends, TestDb};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const T0: i64 = 1_700_006_400_000; // a UTC midnight

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const PLATFORMS: [Platform; 3] = [Platform::Twitter, Platform::Instagram, Platform::News];
const FILLER: [&str; 6] = ["morning", "city", "train", "music", "garden", "friday"];

/// Posts over ten days: "coffee" in about a third of posts every day (never trending), "storm"
/// rare until the last two days and then in most posts, "great" mostly in positive posts and
/// "awful" mostly in negative ones; hashtags #brew (everywhere) and #stormwatch (late).
fn posts(n: usize, from: usize, tracker: i64) -> Vec<PostRecord> {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ from as u64);
    (from..from + n)
        .map(|i| {
            let platform = PLATFORMS[r.below(3) as usize];
            let created_at = T0 + (i as i64 * 10 * DAY) / 1000 + r.below(60_000) as i64;
            let late = created_at >= T0 + 8 * DAY;
            let bucket = Bucket::ALL[r.below(5) as usize];
            let mut words: Vec<String> = vec![FILLER[r.below(6) as usize].to_string()];
            let mut tags = vec![];
            if r.below(3) == 0 {
                words.push("coffee".into());
                tags.push("brew".to_string());
            }
            if (late && r.below(10) < 7) || (!late && r.below(50) == 0) {
                words.push("storm".into());
                if late {
                    tags.push("stormwatch".into());
                }
            }
            let positive = matches!(bucket, Bucket::Positive | Bucket::SlightPositive);
            let negative = matches!(bucket, Bucket::Negative | Bucket::SlightNegative);
            if (positive && r.below(2) == 0) || r.below(40) == 0 {
                words.push("great".into());
            }
            if (negative && r.below(2) == 0) || r.below(40) == 0 {
                words.push("awful".into());
            }
            words.sort();
            words.dedup();
            PostRecord {
                post_key: format!("{};{i}", platform.name()),
                platform,
                external_id: i.to_string(),
                created_at,
                author_id: format!("id{}", i % 17),
                author_username: format!("user{}", i % 17),
                author_name: format!("User {}", i % 17),
                text: words.join(" "),
                sentiment_bucket: bucket,
                terms: PostTerms { keywords: words, hashtags: tags, ..Default::default() },
                data: "{}".into(),
                links: vec![TrackerLink { tracker_id: tracker, subtrackers: r.below(4) as i64, sentiment: None, indirect: false }],
                ..Default::default()
            }
        })
        .collect()
}

struct Post {
    id: i64,
    at: i64,
    platform: Platform,
    bucket: usize,
    subs: i64,
    words: HashSet<String>,
    tags: HashSet<String>,
}

impl Post {
    fn holds(&self, t: &TermRef) -> bool {
        match t.kind {
            TermKind::Word => self.words.contains(&t.text),
            TermKind::Hashtag => self.tags.contains(&t.text),
        }
    }
    fn terms(&self, kind: TermKind) -> &HashSet<String> {
        match kind {
            TermKind::Word => &self.words,
            TermKind::Hashtag => &self.tags,
        }
    }
}

fn bucket_of(b: Bucket) -> usize {
    match b {
        Bucket::Positive => 0,
        Bucket::SlightPositive => 1,
        Bucket::Neutral => 2,
        Bucket::SlightNegative => 3,
        Bucket::Negative => 4,
    }
}

/// The live posts as the oracle sees them.
fn oracle(records: &[PostRecord], ids: &HashMap<String, i64>, live: &HashSet<i64>, buckets: &HashMap<i64, usize>) -> Vec<Post> {
    records
        .iter()
        .filter_map(|p| {
            let id = ids[&p.post_key];
            live.contains(&id).then(|| Post {
                id,
                at: p.created_at,
                platform: p.platform,
                bucket: buckets.get(&id).copied().unwrap_or(bucket_of(p.sentiment_bucket)),
                subs: p.links[0].subtrackers,
                words: p.terms.keywords.iter().cloned().collect(),
                tags: p.terms.hashtags.iter().cloned().collect(),
            })
        })
        .collect()
}

fn in_scope<'a>(o: &'a [Post], f: &PageFilter) -> Vec<&'a Post> {
    let first = o.iter().map(|p| p.at).min().unwrap_or(0);
    let last = o.iter().map(|p| p.at).max().unwrap_or(0);
    let (s, e) = (f.start.unwrap_or(first), f.end.unwrap_or(last));
    o.iter()
        .filter(|p| p.at >= s && p.at <= e && f.platforms.contains(p.platform))
        .filter(|p| f.subtracker.is_none_or(|i| p.subs & (1 << (i - 1)) != 0))
        .collect()
}

async fn check(s: &Store, t: i64, o: &[Post], f: &PageFilter) {
    let scope = in_scope(o, f);
    let at = format!("{f:?}");
    // Layers: every kind, with paths of one and two terms.
    let paths: Vec<Vec<TermRef>> = vec![
        vec![],
        vec![TermRef::new(TermKind::Word, "coffee")],
        vec![TermRef::new(TermKind::Hashtag, "#Brew"), TermRef::new(TermKind::Word, "storm")],
        vec![TermRef::new(TermKind::Word, "nowhere")],
    ];
    for path in &paths {
        let holding: Vec<&&Post> = scope.iter().filter(|p| path.iter().all(|t| p.holds(t))).collect();
        for kind in [TermKind::Word, TermKind::Hashtag] {
            let mut want: HashMap<String, i64> = HashMap::new();
            for p in &holding {
                for w in p.terms(kind) {
                    if !path.contains(&TermRef::new(kind, w)) {
                        *want.entry(w.clone()).or_default() += 1;
                    }
                }
            }
            let mut by_count: Vec<(String, i64)> = want.into_iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let q = TopicQuery { filter: f.clone(), kind, path: path.clone(), sort: TopicSort::Count, ascending: false, page: 1, per_page: 3 };
            let mut got = Vec::new();
            let mut layer_total = None;
            for page in 1..=4 {
                let l = s.topic_layer(t, &TopicQuery { page, ..q.clone() }).await.unwrap();
                assert_eq!(l.posts, holding.len() as i64, "{at} {path:?}");
                layer_total = Some(l.total);
                for item in &l.items {
                    assert_eq!(item.kind, kind);
                    assert!((item.share - item.count as f64 / holding.len() as f64).abs() < 1e-12);
                    assert_eq!(item.hours.iter().map(|h| h.1).sum::<i64>(), item.count, "{at} {}", item.text);
                }
                got.extend(l.items.into_iter().map(|i| (i.text, i.count)));
            }
            by_count.truncate(12);
            assert_eq!(got, by_count, "{at} {path:?} {kind:?}");
            assert!(layer_total.unwrap() >= got.len());
            // The row-only answer is the same, trend scores included.
            let from_rows = PageFilter { rows_only: true, ..f.clone() };
            for sort in [TopicSort::Count, TopicSort::Trend] {
                for ascending in [false, true] {
                    let q = TopicQuery { sort, ascending, per_page: 20, ..q.clone() };
                    let a = s.topic_layer(t, &q).await.unwrap();
                    let b = s.topic_layer(t, &TopicQuery { filter: from_rows.clone(), ..q.clone() }).await.unwrap();
                    assert_eq!(a, b, "{at} {path:?} {sort:?}");
                    if sort == TopicSort::Trend {
                        let scores: Vec<f64> = a.items.iter().map(|i| i.trend).collect();
                        let mut sorted = scores.clone();
                        sorted.sort_by(|x, y| if ascending { x.total_cmp(y) } else { y.total_cmp(x) });
                        assert_eq!(scores, sorted);
                    }
                }
            }
        }
        // Posts holding the path, newest first.
        let mut want: Vec<(i64, i64)> = holding.iter().map(|p| (p.at, p.id)).collect();
        want.sort_by(|a, b| b.cmp(a));
        let (page, total) = s.topic_posts(t, f, path, 5, 2).await.unwrap();
        assert_eq!(total, want.len() as i64, "{at}");
        assert_eq!(page.iter().map(|p| p.id).collect::<Vec<_>>(), want.iter().skip(2).take(5).map(|x| x.1).collect::<Vec<_>>());
        // The series: the path's posts per hour, and the path with an item.
        let item = TermRef::new(TermKind::Word, "great");
        let (_, series) = s.topic_series(t, f, path, std::slice::from_ref(&item)).await.unwrap();
        assert_eq!(series[0].iter().map(|h| h.1).sum::<i64>(), holding.len() as i64);
        assert_eq!(series[1].iter().map(|h| h.1).sum::<i64>(), holding.iter().filter(|p| p.holds(&item)).count() as i64);
        for (hour, n) in &series[0] {
            assert_eq!(*n, holding.iter().filter(|p| p.at.div_euclid(HOUR) * HOUR == *hour).count() as i64);
        }
    }
    // Sentiment: the buckets in all and per hour.
    let sum = s.sentiment_summary(t, f).await.unwrap();
    let mut want = [0i64; 5];
    for p in &scope {
        want[p.bucket] += 1;
    }
    assert_eq!(sum.counts, want, "{at}");
    let mut hours = [0i64; 5];
    for (_, c) in &sum.hours {
        for i in 0..5 {
            hours[i] += c[i];
        }
    }
    assert_eq!(hours, want);
    assert_eq!(sum, s.sentiment_summary(t, &PageFilter { rows_only: true, ..f.clone() }).await.unwrap());
    let kw = s.significant_keywords(t, f, &["morning".to_string()], 10).await.unwrap();
    assert_eq!(kw, s.significant_keywords(t, &PageFilter { rows_only: true, ..f.clone() }, &["morning".to_string()], 10).await.unwrap());
    assert_eq!(kw.posts, scope.len() as i64);
    for k in kw.positive.iter().chain(&kw.negative) {
        assert_ne!(k.text, "morning");
        let total = scope.iter().filter(|p| p.terms(k.kind).contains(&k.text)).count() as i64;
        assert_eq!(k.total, total, "{at} {}", k.text);
    }
    for k in &kw.positive {
        assert_eq!(k.count, scope.iter().filter(|p| p.bucket <= 1 && p.terms(k.kind).contains(&k.text)).count() as i64);
    }
}

#[tokio::test]
async fn topics_and_sentiment_match_a_direct_computation() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let u = s.create_user(&hark_testkit::new_user("t@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&hark_testkit::new_tracker("Topics", u.id, PlatformSet::all().bits(), "{}"), 1).await.unwrap();
        let mut all = posts(900, 0, t.id);
        for chunk in all.chunks(200) {
            s.ingest_batch(chunk, T0).await.unwrap();
        }
        let everything = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
        let read_ids = |rows: Vec<hark_store::DashboardPost>| -> HashMap<String, i64> {
            rows.iter().map(|p| (format!("{};{}", p.platform, p.external_id), p.id)).collect()
        };
        let (rows, _) = s.dash_posts(t.id, &everything, None, 100_000, 0).await.unwrap();
        let mut ids = read_ids(rows);
        let mut live: HashSet<i64> = ids.values().copied().collect();
        let mut buckets: HashMap<i64, usize> = HashMap::new();

        let filters = |platforms| {
            [
                (None, None, None),
                (Some(T0 + 5 * HOUR + 1234), Some(T0 + 6 * DAY + 17 * HOUR + 999), None),
                (Some(T0 + 2 * DAY), Some(T0 + 4 * DAY - 1), Some(2)),
                (Some(T0 + 7 * DAY + 1), None, None),
            ]
            .map(|(start, end, subtracker)| PageFilter { platforms, start, end, subtracker, ..Default::default() })
        };
        for round in 0..3 {
            let o = oracle(&all, &ids, &live, &buckets);
            for platforms in [PlatformSet::all(), PlatformSet::parse_list("twt,news").unwrap()] {
                for f in filters(platforms) {
                    check(&s, t.id, &o, &f).await;
                }
            }
            match round {
                0 => {
                    // New posts, a bulk delete and a sentiment edit.
                    let more = posts(150, 900, t.id);
                    s.ingest_batch(&more, T0).await.unwrap();
                    all.extend(more);
                    let (rows, _) = s.dash_posts(t.id, &everything, None, 100_000, 0).await.unwrap();
                    ids = read_ids(rows);
                    live = ids.values().copied().collect();
                    let gone: Vec<i64> = ids.values().copied().filter(|id| id % 7 == 0).collect();
                    assert!(s.soft_delete_posts(t.id, &gone, T0).await.unwrap() > 0);
                    for id in &gone {
                        live.remove(id);
                    }
                    let edited = *live.iter().min().unwrap();
                    s.edit_sentiment(t.id, edited, "negative").await.unwrap().unwrap();
                    buckets.insert(edited, 4);
                }
                1 => {
                    let back: Vec<i64> = ids.values().copied().filter(|id| id % 7 == 0 && id % 2 == 0).collect();
                    s.restore_posts(t.id, &back, T0).await.unwrap();
                    live.extend(back);
                }
                _ => {}
            }
        }

        // The statistics on the constructed data: "storm" trends in the last two days, "coffee"
        // (a third of posts every day) does not; "great" is positive, "awful" negative.
        let last = PageFilter { platforms: PlatformSet::all(), start: Some(T0 + 8 * DAY), end: Some(T0 + 10 * DAY), ..Default::default() };
        let q = TopicQuery { filter: last.clone(), kind: TermKind::Word, path: vec![], sort: TopicSort::Trend, ascending: false, page: 1, per_page: 20 };
        let l = s.topic_layer(t.id, &q).await.unwrap();
        assert_eq!(l.items[0].text, "storm", "{:?}", l.items);
        assert!(l.items[0].trend > 8.0);
        let coffee = l.items.iter().find(|i| i.text == "coffee").unwrap();
        assert!(coffee.trend.abs() < 3.0, "{coffee:?}");
        let w = l.window.unwrap();
        assert_eq!(w.current, (T0 + 8 * DAY, T0 + 10 * DAY));
        assert_eq!(w.baseline.1, T0 + 8 * DAY - 1);
        let tags = s.topic_layer(t.id, &TopicQuery { kind: TermKind::Hashtag, ..q.clone() }).await.unwrap();
        assert_eq!(tags.items[0].text, "stormwatch");
        let kw = s.significant_keywords(t.id, &everything, &[], 10).await.unwrap();
        assert_eq!(kw.positive[0].text, "great", "{kw:?}");
        assert_eq!(kw.negative[0].text, "awful", "{kw:?}");
        assert!(!kw.positive.iter().chain(&kw.negative).any(|k| k.text == "coffee"), "{kw:?}");
        let kw = s.significant_keywords(t.id, &everything, &["great".into()], 10).await.unwrap();
        assert!(kw.positive.iter().all(|k| k.text != "great"));
    }
}

/// Today's posts as a collecting tracker gains them: `n` posts from number `from`, a minute
/// apart per round, all on the same day.
fn today(n: usize, from: usize, tracker: i64, round: i64) -> Vec<PostRecord> {
    let mut out = posts(n, from, tracker);
    for (k, p) in out.iter_mut().enumerate() {
        p.created_at = T0 + 9 * DAY + HOUR + round * 60_000 + k as i64;
    }
    out
}

/// The in-memory table's answers against the rows': topics, sentiment and two posts-page orders.
async fn same_as_rows(s: &Store, t: i64, when: &str) {
    let all = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
    let rows = PageFilter { rows_only: true, ..all.clone() };
    for kind in [TermKind::Word, TermKind::Hashtag] {
        let q = TopicQuery { filter: all.clone(), kind, path: vec![], sort: TopicSort::Count, ascending: false, page: 1, per_page: 50 };
        let a = s.topic_layer(t, &q).await.unwrap();
        let b = s.topic_layer(t, &TopicQuery { filter: rows.clone(), ..q.clone() }).await.unwrap();
        assert_eq!(a, b, "{when}: {kind:?}");
    }
    assert_eq!(s.sentiment_summary(t, &all).await.unwrap(), s.sentiment_summary(t, &rows).await.unwrap(), "{when}: sentiment");
    for sort in [hark_store::PostSort::Date, hark_store::PostSort::Engagement] {
        let q = hark_store::PostQuery { filter: all.clone(), sort, page: 1, per_page: 40, ..Default::default() };
        let ids = |rows: Vec<hark_store::PostRow>| rows.into_iter().map(|r| (r.post_id, r.engagement)).collect::<Vec<_>>();
        let fast = ids(s.query_post_page(t, &q).await.unwrap());
        let plain = ids(s.query_post_page_plain(t, &q).await.unwrap());
        assert_eq!(fast, plain, "{when}: posts page by {sort:?}");
    }
}

#[tokio::test]
async fn a_day_that_keeps_gaining_posts_is_read_again_only_from_its_floor() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let u = s.create_user(&hark_testkit::new_user("t@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&hark_testkit::new_tracker("Live", u.id, PlatformSet::all().bits(), "{}"), 1).await.unwrap();
        let other = s.create_tracker(&hark_testkit::new_tracker("Other", u.id, PlatformSet::all().bits(), "{}"), 1).await.unwrap();
        // Ten days of posts, and today's posts of another tracker, stored first (lower ids).
        s.ingest_batch(&posts(200, 0, t.id), T0).await.unwrap();
        let theirs = today(10, 5000, other.id, 0);
        s.ingest_batch(&theirs, T0).await.unwrap();
        same_as_rows(&s, t.id, "seeded").await;
        let mut ours: Vec<PostRecord> = Vec::new();
        let mut plain_appends = Vec::new();
        let mut gone: Vec<i64> = Vec::new();
        for round in 1..=40i64 {
            let read_before = s.topic_rows_read();
            let batch = today(8, 1000 + 8 * round as usize, t.id, round);
            s.ingest_batch(&batch, T0).await.unwrap();
            ours.extend(batch);
            let mut plain = true;
            if round % 4 == 0 {
                // A repeat of an earlier post of ours with many more likes: its keys move.
                let mut again = ours[(round as usize * 3) % ours.len()].clone();
                again.likes += 1000;
                again.engagement += 1000;
                s.ingest_batch(&[again], T0).await.unwrap();
                plain = false;
            }
            if round % 5 == 1 {
                // The other tracker's post, stored long ago, now matches ours too: an old id.
                let mut shared = theirs[round as usize / 5].clone();
                shared.links.push(TrackerLink { tracker_id: t.id, subtrackers: 1, sentiment: None, indirect: false });
                s.ingest_batch(&[shared], T0).await.unwrap();
                plain = false;
            }
            let ids: HashMap<String, i64> = {
                let everything = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
                let (rows, _) = s.dash_posts(t.id, &everything, None, 100_000, 0).await.unwrap();
                rows.iter().map(|p| (format!("{};{}", p.platform, p.external_id), p.id)).collect()
            };
            let today_ids: Vec<i64> = ours.iter().filter_map(|p| ids.get(&p.post_key).copied()).collect();
            match round {
                12 => {
                    s.edit_sentiment(t.id, today_ids[3], "negative").await.unwrap().unwrap();
                    plain = false;
                }
                17 => {
                    gone = today_ids[5..7].to_vec();
                    assert_eq!(s.soft_delete_posts(t.id, &gone, T0).await.unwrap(), 2);
                    plain = false;
                }
                25 => {
                    assert_eq!(s.restore_posts(t.id, &gone[..1], T0).await.unwrap(), 1);
                    plain = false;
                }
                _ => {}
            }
            same_as_rows(&s, t.id, &format!("round {round}")).await;
            if plain {
                plain_appends.push(s.topic_rows_read() - read_before);
            }
        }
        // Rounds that only added posts read those posts again, not the day (which grew past 300),
        // except a round in a while whose table fell behind both windows.
        let small = plain_appends.iter().filter(|n| **n <= 8).count();
        assert!(small * 10 >= plain_appends.len() * 9, "{b:?}: rows read per plain round {plain_appends:?}");
    }
}
