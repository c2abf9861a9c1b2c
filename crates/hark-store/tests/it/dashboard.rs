//! Dashboard queries against a direct computation over the same posts, on every backend, with
//! platforms × date range (millisecond edges) × post tags ANY/ALL × influencer tags × subtracker.

use std::collections::{BTreeMap, HashMap, HashSet};

use hark_core::{Bucket, Gender, Platform, PlatformSet, PostType};
use hark_store::{PageFilter, PostRecord, PostTerms, Store, TrackerLink};
use hark_testkit::{backends, TestDb};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const T0: i64 = 1_700_000_000_000; // 2023-11-14T22:13:20Z, not aligned to an hour

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const PLATFORMS: [&str; 3] = ["twitter", "youtube", "news"];
const TAGS: [&str; 5] = ["#a", "#b", "#c", "#d", "#e"];
// A quoted and a non-ASCII word: the JSON of their posts holds escapes and multi-byte text.
const WORDS: [&str; 6] = ["coffee", "tea", "milk", "sugar", "say \"hi\"", "café\\au\tlait"];

fn posts(n: usize, tracker: i64) -> Vec<PostRecord> {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|i| {
            let platform = PLATFORMS[r.below(3) as usize];
            let created_at = T0 + r.below(6 * DAY as u64) as i64;
            let author = format!("user{}", r.below(40));
            let hashtags: Vec<String> = TAGS.iter().filter(|_| r.below(3) == 0).map(|s| s.to_string()).collect();
            let keywords: Vec<String> = WORDS.iter().filter(|_| r.below(2) == 0).map(|s| s.to_string()).collect();
            PostRecord {
                post_key: format!("{platform};{i}"),
                platform: Platform::parse(platform).unwrap(),
                external_id: i.to_string(),
                created_at,
                author_id: format!("id-{author}"),
                author_username: author.clone(),
                author_name: author.to_uppercase(),
                author_followers: r.below(5000) as i64,
                text: format!("post {i}"),
                post_type: [PostType::Original, PostType::Reply, PostType::Retweet][r.below(3) as usize],
                likes: r.below(100) as i64,
                dislikes: r.below(10) as i64,
                impressions: r.below(10_000) as i64,
                engagement: (r.below(1000) * 1000 + i as u64) as i64,
                sentiment: 0.0,
                sentiment_bucket: [Bucket::Positive, Bucket::Neutral, Bucket::Negative][r.below(3) as usize],
                country: [None, Some("GB".to_string()), Some("US".to_string())][r.below(3) as usize].clone(),
                region: [None, Some("US-TX".to_string()), Some("US-NY".to_string()), Some("CA-ON".to_string())][r.below(4) as usize]
                    .clone(),
                gender: [None, Some(Gender::Male), Some(Gender::Female)][r.below(3) as usize],
                device: (platform == "twitter").then(|| ["iPhone", "Android", "Web"][r.below(3) as usize].to_string()),
                data: "{}".into(),
                terms: PostTerms {
                    hashtags,
                    keywords,
                    domains: vec![["a.com", "b.org"][r.below(2) as usize].to_string()],
                    ..Default::default()
                },
                links: vec![TrackerLink { tracker_id: tracker, subtrackers: r.below(4) as i64, sentiment: None, indirect: false }],
                ..Default::default()
            }
        })
        .collect()
}

/// The filter as a predicate over the generated posts.
struct Oracle<'a> {
    f: &'a PageFilter,
    post_tags: &'a HashMap<usize, HashSet<i64>>,
    influencer_tags: &'a HashMap<String, HashSet<i64>>,
}

impl Oracle<'_> {
    fn keep(&self, i: usize, p: &PostRecord) -> bool {
        let f = self.f;
        let platform = p.platform;
        if !f.platforms.contains(platform) {
            return false;
        }
        if f.start.is_some_and(|s| p.created_at < s) || f.end.is_some_and(|e| p.created_at > e) {
            return false;
        }
        if let Some(st) = f.subtracker {
            if p.links[0].subtrackers & (1 << (st - 1)) == 0 {
                return false;
            }
        }
        let check = |want: &[i64], all: bool, have: Option<&HashSet<i64>>| {
            if want.is_empty() {
                return true;
            }
            let empty = HashSet::new();
            let have = have.unwrap_or(&empty);
            if all {
                want.iter().all(|t| have.contains(t))
            } else {
                want.iter().any(|t| have.contains(t))
            }
        };
        check(&f.post_tags, f.post_tags_all, self.post_tags.get(&i))
            && check(&f.influencer_tags, f.influencer_tags_all, self.influencer_tags.get(&p.author_username))
    }
}

fn top_terms(m: HashMap<String, i64>) -> Vec<(String, i64)> {
    let mut v: Vec<_> = m.into_iter().filter(|(_, c)| *c > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

async fn check(s: &Store, tracker: i64, all: &[PostRecord], ids: &HashMap<String, i64>, o: &Oracle<'_>) {
    check_with(s, tracker, all, ids, o, true).await
}

/// `followers_exact`: after posts are removed, an author's largest follower count stays the
/// largest ever seen (the rollups keep maxima), so it is compared only before.
async fn check_with(s: &Store, tracker: i64, all: &[PostRecord], ids: &HashMap<String, i64>, o: &Oracle<'_>, followers_exact: bool) {
    let f = o.f;
    let kept: Vec<&PostRecord> = all.iter().enumerate().filter(|(i, p)| o.keep(*i, p)).map(|(_, p)| p).collect();
    let ctx = format!("{f:?}");

    let c = s.dash_counts(tracker, f).await.unwrap();
    assert_eq!(c.posts, kept.len() as i64, "posts {ctx}");
    assert_eq!(c.engagement, kept.iter().map(|p| p.engagement).sum::<i64>(), "engagement {ctx}");
    assert_eq!(c.reach, kept.iter().map(|p| p.author_followers).sum::<i64>(), "reach {ctx}");
    assert_eq!(c.impressions, kept.iter().map(|p| p.impressions).sum::<i64>(), "impressions {ctx}");

    let users: HashSet<(&str, &str)> = kept.iter().map(|p| (p.platform.name(), p.author_username.as_str())).collect();
    assert_eq!(s.dash_users(tracker, f).await.unwrap(), users.len() as i64, "users {ctx}");

    let mut hours: BTreeMap<i64, i64> = BTreeMap::new();
    for p in &kept {
        *hours.entry(p.created_at.div_euclid(HOUR) * HOUR).or_default() += 1;
    }
    let series: BTreeMap<i64, i64> = s.dash_series(tracker, f, HOUR).await.unwrap().into_iter().map(|(t, c)| (t, c.posts)).collect();
    assert_eq!(series, hours, "series {ctx}");
    let minutes: i64 = s.dash_series(tracker, f, 60_000).await.unwrap().iter().map(|(_, c)| c.posts).sum();
    assert_eq!(minutes, kept.len() as i64, "minute series {ctx}");

    type Getter = fn(&PostRecord) -> Vec<String>;
    let kinds: [(&str, Getter); 8] = [
        ("region", |p| p.region.iter().cloned().collect()),
        ("hashtag", |p| p.terms.hashtags.clone()),
        ("keyword", |p| p.terms.keywords.clone()),
        ("domain", |p| p.terms.domains.clone()),
        ("country", |p| p.country.iter().cloned().collect()),
        ("gender", |p| p.gender.iter().map(|g| g.to_string()).collect()),
        ("source", |p| p.device.iter().cloned().collect()),
        ("post_type", |p| vec![p.post_type.to_string()]),
    ];
    let mut expected: HashMap<&str, Vec<(String, i64)>> = HashMap::new();
    for (kind, get) in kinds {
        let mut m: HashMap<String, i64> = HashMap::new();
        for p in &kept {
            for t in get(p) {
                *m.entry(t).or_default() += 1;
            }
        }
        assert_eq!(s.dash_terms(tracker, f, kind).await.unwrap(), top_terms(m.clone()), "{kind} {ctx}");
        expected.insert(kind, top_terms(m));
    }
    // The top of several lists at once (the database keeps the top when no partial day adds to
    // it): twitter's domains beside every platform's hashtags and keywords.
    let twitter: PlatformSet = [Platform::Twitter].into_iter().collect();
    for limit in [1, 3] {
        let got = s
            .dash_top_terms_many(
                tracker,
                f,
                &[("hashtag", PlatformSet::all()), ("keyword", PlatformSet::all()), ("domain", twitter)],
                Some(limit),
            )
            .await
            .unwrap();
        for (i, kind) in ["hashtag", "keyword"].into_iter().enumerate() {
            let mut want = expected[kind].clone();
            want.truncate(limit);
            assert_eq!(got[i], want, "top {limit} {kind} {ctx}");
        }
        let mut m: HashMap<String, i64> = HashMap::new();
        for p in kept.iter().filter(|p| p.platform == Platform::Twitter && f.platforms.contains(Platform::Twitter)) {
            for t in &p.terms.domains {
                *m.entry(t.clone()).or_default() += 1;
            }
        }
        let mut want = top_terms(m);
        want.truncate(limit);
        assert_eq!(got[2], want, "top {limit} twitter domains {ctx}");
    }
    let mut sent: HashMap<String, i64> = HashMap::new();
    for p in &kept {
        *sent.entry(p.sentiment_bucket.to_string()).or_default() += 1;
    }
    assert_eq!(s.dash_terms(tracker, f, "sentiment").await.unwrap(), top_terms(sent), "sentiment {ctx}");

    // Influencers: (posts, engagement, followers) per author.
    let mut authors: HashMap<(String, String), (i64, i64, i64)> = HashMap::new();
    for p in &kept {
        let e = authors.entry((p.platform.to_string(), p.author_username.clone())).or_default();
        e.0 += 1;
        e.1 += p.engagement;
        e.2 = e.2.max(p.author_followers);
    }
    let mut by_eng: Vec<_> = authors.iter().collect();
    by_eng.sort_by(|x, y| (y.1 .1, y.1 .0).cmp(&(x.1 .1, x.1 .0)).then_with(|| x.0.cmp(y.0)));
    let mut by_posts: Vec<_> = authors.iter().collect();
    by_posts.sort_by(|x, y| (y.1 .0, y.1 .1).cmp(&(x.1 .0, x.1 .1)).then_with(|| x.0.cmp(y.0)));
    let (e, p) = s.dash_influencers(tracker, f, 5).await.unwrap();
    let fol = |f: i64| if followers_exact { f } else { 0 };
    let as_tuple = |a: &hark_store::AuthorStat| ((a.platform.clone(), a.author.clone()), (a.posts, a.engagement, fol(a.followers)));
    let want = |v: &[(&(String, String), &(i64, i64, i64))]| {
        v.iter().take(5).map(|(k, v)| ((*k).clone(), (v.0, v.1, fol(v.2)))).collect::<Vec<_>>()
    };
    assert_eq!(e.iter().map(as_tuple).collect::<Vec<_>>(), want(&by_eng), "influencers by engagement {ctx}");
    assert_eq!(p.iter().map(as_tuple).collect::<Vec<_>>(), want(&by_posts), "influencers by posts {ctx}");
    if let Some(a) = e.first() {
        assert_eq!(a.name, a.author.to_uppercase());
    }

    let mut top: Vec<&PostRecord> = kept.clone();
    top.sort_by(|a, b| b.engagement.cmp(&a.engagement));
    let got = s.dash_top_posts(tracker, f, 10).await.unwrap();
    assert_eq!(
        got.iter().map(|p| p.external_id.clone()).collect::<Vec<_>>(),
        top.iter().take(10).map(|p| p.external_id.clone()).collect::<Vec<_>>(),
        "top posts {ctx}"
    );

    let yt: Vec<&&PostRecord> = kept.iter().filter(|p| p.platform == Platform::Youtube).collect();
    assert_eq!(
        s.dash_viewer_sentiment(tracker, f).await.unwrap(),
        (yt.iter().map(|p| p.likes).sum(), yt.iter().map(|p| p.dislikes).sum()),
        "viewer sentiment {ctx}"
    );

    let sov = s.dash_share_of_voice(tracker, f, 2).await.unwrap();
    let want_sov: Vec<i64> = (0..2).map(|b| kept.iter().filter(|p| p.links[0].subtrackers & (1 << b) != 0).count() as i64).collect();
    assert_eq!(sov, want_sov, "share of voice {ctx}");

    let (page, total) = s.dash_posts(tracker, f, None, 7, 3).await.unwrap();
    assert_eq!(total, kept.len() as i64);
    let mut newest: Vec<&PostRecord> = kept.clone();
    newest.sort_by(|a, b| b.created_at.cmp(&a.created_at).then_with(|| ids[&b.post_key].cmp(&ids[&a.post_key])));
    assert_eq!(
        page.iter().map(|p| p.external_id.clone()).collect::<Vec<_>>(),
        newest.iter().skip(3).take(7).map(|p| p.external_id.clone()).collect::<Vec<_>>(),
        "posts page {ctx}"
    );
    let (_, with_c) = s.dash_posts(tracker, f, Some(("hashtag", "#c")), 25, 0).await.unwrap();
    assert_eq!(with_c, kept.iter().filter(|p| p.terms.hashtags.iter().any(|h| h == "#c")).count() as i64);
}

#[tokio::test]
async fn dashboard_answers_match_a_direct_computation() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let u = s
            .create_user(
                &hark_testkit::new_user("d@example.org"),
                1,
            )
            .await
            .unwrap();
        let t = s
            .create_tracker(
                &hark_testkit::new_tracker("Dash", u.id, PlatformSet::all().bits(), "{}"),
                1,
            )
            .await
            .unwrap();
        let all = posts(600, t.id);
        // Every other batch split in two transactions on PostgreSQL, as a large one is.
        let split = s.splitting_writes();
        for (i, chunk) in all.chunks(200).enumerate() {
            if i % 2 == 0 { &split } else { &s }.ingest_batch(chunk, T0).await.unwrap();
        }
        // Database ids by post key.
        let everything = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
        let (rows, n) = s.dash_posts(t.id, &everything, None, 10_000, 0).await.unwrap();
        assert_eq!(n, 600);
        let ids: HashMap<String, i64> = rows.iter().map(|p| (format!("{};{}", p.platform, p.external_id), p.id)).collect();

        // Post tags: tag 1 on every 3rd post, tag 2 on every 4th.
        let red = s.create_tag(t.id, "red", "#f00", 1).await.unwrap().id;
        let blue = s.create_tag(t.id, "blue", "#00f", 1).await.unwrap().id;
        let mut post_tags: HashMap<usize, HashSet<i64>> = HashMap::new();
        for (i, p) in all.iter().enumerate() {
            for (every, tag) in [(3, red), (4, blue)] {
                if i % every == 0 {
                    s.tag_tracker_post(t.id, ids[&p.post_key], tag).await.unwrap();
                    post_tags.entry(i).or_default().insert(tag);
                }
            }
        }
        // Influencer tags: vip holds user1..user9 on every platform, fan user5..user14.
        let vip_users: Vec<String> = (1..10).map(|i| format!("user{i}")).collect();
        let fan_users: Vec<String> = (5..15).map(|i| format!("user{i}")).collect();
        let accounts = |v: &[String]| -> Vec<(String, String)> {
            PLATFORMS.iter().flat_map(|p| v.iter().map(move |u| (p.to_string(), u.clone()))).collect()
        };
        let vip_acc = accounts(&vip_users);
        let fan_acc = accounts(&fan_users);
        let vip = s.create_influencer_tag(u.id, "vip", "#c0392b", 1).await.unwrap().id;
        let fan = s.create_influencer_tag(u.id, "fan", "#c0392b", 1).await.unwrap().id;
        s.set_account_tags(u.id, &vip_acc, &[vip], &[]).await.unwrap();
        s.set_account_tags(u.id, &fan_acc, &[fan], &[]).await.unwrap();
        let mut influencer_tags: HashMap<String, HashSet<i64>> = HashMap::new();
        for u in &vip_users {
            influencer_tags.entry(u.clone()).or_default().insert(vip);
        }
        for u in &fan_users {
            influencer_tags.entry(u.clone()).or_default().insert(fan);
        }

        // The tracker's in-memory table read: the keyword lists below come from it, and from the
        // rollups on the store that does not use it.
        assert!(s.read_topic_table(t.id).await.unwrap());
        // Brought up to date later, the table still counts as read: readers wait for the update
        // instead of answering from the rows (which under many readers of a tracker being
        // written took most of the server's time).
        assert!(s.topic_table_ready_while_updated(t.id).await, "a table being updated must still count as read");
        let twt_yt: PlatformSet = [Platform::Twitter, Platform::Youtube].into_iter().collect();
        let platform_sets = [PlatformSet::all(), twt_yt, [Platform::News].into_iter().collect()];
        let ranges = [
            (None, None),
            // Unaligned on both sides: edges from rows, interior from rollups.
            (Some(T0 + 5 * HOUR + 1234), Some(T0 + 4 * DAY + 17 * HOUR + 999)),
            // Inside one hour.
            (Some(T0 + 30 * HOUR + 10), Some(T0 + 30 * HOUR + 2000)),
            // Aligned to UTC days exactly.
            (Some((T0 / DAY + 1) * DAY), Some((T0 / DAY + 3) * DAY - 1)),
            // Whole days holding every post (the lifetime term counts answer).
            (Some(T0 / DAY * DAY), Some((T0 / DAY + 8) * DAY - 1)),
            // Starts mid-day before the first post (that day is read whole from the rollups).
            (Some(T0 - 2 * HOUR - 5), Some(T0 + 3 * DAY + 4 * HOUR + 1)),
            (None, Some(T0 + 2 * DAY + 1)),
        ];
        let tag_cases: [(Vec<i64>, bool, Vec<i64>, bool, Option<u32>); 6] = [
            (vec![], false, vec![], false, None),
            (vec![red, blue], false, vec![], false, None),
            (vec![red, blue], true, vec![], false, None),
            (vec![], false, vec![vip, fan], true, None),
            (vec![red], false, vec![vip, fan], false, Some(1)),
            (vec![], false, vec![], false, Some(2)),
        ];
        for platforms in platform_sets {
            for (start, end) in ranges {
                for (pt, pt_all, it, it_all, sub) in &tag_cases {
                    let f = PageFilter {
                        platforms,
                        start,
                        end,
                        post_tags: pt.clone(),
                        post_tags_all: *pt_all,
                        influencer_tags: it.clone(),
                        influencer_tags_all: *it_all,
                        influencer_tag_owner: u.id,
                        subtracker: *sub,
                        rows_only: false,
                    };
                    let o = Oracle { f: &f, post_tags: &post_tags, influencer_tags: &influencer_tags };
                    check(&s, t.id, &all, &ids, &o).await;
                    if f.rollups_apply() {
                        // The baseline path (post rows only) gives the same answers, and so does
                        // the influencers' bound walk (a tracker too large for the author index).
                        check(&s.without_author_index().without_memory_terms(), t.id, &all, &ids, &o).await;
                        let rows = PageFilter { rows_only: true, ..f.clone() };
                        let o = Oracle { f: &rows, post_tags: &post_tags, influencer_tags: &influencer_tags };
                        check(&s, t.id, &all, &ids, &o).await;
                    }
                }
            }
        }
        // Influencer tags are private to their owner: another user naming the same ids matches
        // no account, on the rollup-free path as on the row reads.
        let mine = PageFilter { platforms: PlatformSet::all(), influencer_tags: vec![vip], influencer_tag_owner: u.id, ..Default::default() };
        assert!(s.dash_counts(t.id, &mine).await.unwrap().posts > 0);
        let theirs = PageFilter { influencer_tag_owner: u.id + 1000, ..mine.clone() };
        assert_eq!(s.dash_counts(t.id, &theirs).await.unwrap().posts, 0);
        assert_eq!(s.dash_posts(t.id, &theirs, None, 10, 0).await.unwrap().1, 0);
        // A filter with no platform answers zero without touching the database.
        let none = PageFilter { platforms: PlatformSet::empty(), ..Default::default() };
        assert_eq!(s.dash_counts(t.id, &none).await.unwrap().posts, 0);
        // Unlinked posts stop counting everywhere (rollups and rows).
        let gone: Vec<i64> = rows.iter().take(50).map(|p| p.id).collect();
        s.unlink_posts(t.id, &gone, T0).await.unwrap();
        let f = PageFilter {
            platforms: PlatformSet::all(),
            start: Some(T0 + 5 * HOUR + 1234),
            end: Some(T0 + 4 * DAY + 17 * HOUR + 999),
            ..Default::default()
        };
        let left: Vec<PostRecord> = all.iter().filter(|p| !gone.contains(&ids[&p.post_key])).cloned().collect();
        let kept_ids: HashMap<String, i64> = ids.clone();
        // Re-index post tags by the positions in `left`.
        let pos: HashMap<&str, usize> = all.iter().enumerate().map(|(i, p)| (p.post_key.as_str(), i)).collect();
        let left_tags: HashMap<usize, HashSet<i64>> =
            left.iter().enumerate().filter_map(|(j, p)| post_tags.get(&pos[p.post_key.as_str()]).map(|t| (j, t.clone()))).collect();
        let o = Oracle { f: &f, post_tags: &left_tags, influencer_tags: &influencer_tags };
        check(&s, t.id, &left, &kept_ids, &o).await;

        // Every rollup follows deletes, restores, repeats with new counts and subtracker changes.
        let mut left = left;
        let ranges_after = [
            (None, None),
            // Ends mid-day after the last post (that day is read whole from the rollups).
            (Some(T0 + 26 * HOUR + 77), Some(T0 + 6 * DAY + 5 * HOUR)),
            (Some(T0 / DAY * DAY), Some((T0 / DAY + 8) * DAY - 1)),
            (Some(T0 + 5 * HOUR + 1234), Some(T0 + 6 * DAY)),
            (Some(T0 + 26 * HOUR + 77), Some(T0 + 5 * DAY + 3 * HOUR + 5)),
        ];
        let check_all = |left: Vec<PostRecord>, tags: HashMap<usize, HashSet<i64>>| {
            let s = &s;
            let kept_ids = &kept_ids;
            let influencer_tags = &influencer_tags;
            async move {
                for (start, end) in ranges_after {
                    for platforms in [PlatformSet::all(), twt_yt] {
                        let f = PageFilter { platforms, start, end, ..Default::default() };
                        let o = Oracle { f: &f, post_tags: &tags, influencer_tags };
                        check_with(s, t.id, &left, kept_ids, &o, false).await;
                        check_with(&s.without_memory_terms(), t.id, &left, kept_ids, &o, false).await;
                        let rows = PageFilter { rows_only: true, ..f.clone() };
                        let o = Oracle { f: &rows, post_tags: &tags, influencer_tags };
                        check_with(s, t.id, &left, kept_ids, &o, false).await;
                    }
                }
            }
        };
        let no_tags = HashMap::new();
        check_all(left.clone(), no_tags.clone()).await;
        // Soft delete (undoable) of 40 posts spread over the days, then restore 15 of them.
        let hidden: Vec<&PostRecord> = left.iter().step_by(13).take(40).collect();
        let hidden_ids: Vec<i64> = hidden.iter().map(|p| kept_ids[&p.post_key]).collect();
        let hidden_keys: HashSet<String> = hidden.iter().map(|p| p.post_key.clone()).collect();
        assert_eq!(s.soft_delete_posts(t.id, &hidden_ids, T0).await.unwrap(), 40);
        let visible: Vec<PostRecord> = left.iter().filter(|p| !hidden_keys.contains(&p.post_key)).cloned().collect();
        check_all(visible, no_tags.clone()).await;
        assert_eq!(s.restore_posts(t.id, &hidden_ids[..15], T0).await.unwrap(), 15);
        let back: HashSet<i64> = hidden_ids[..15].iter().copied().collect();
        let visible: Vec<PostRecord> =
            left.iter().filter(|p| !hidden_keys.contains(&p.post_key) || back.contains(&kept_ids[&p.post_key])).cloned().collect();
        check_all(visible.clone(), no_tags.clone()).await;
        assert_eq!(s.restore_posts(t.id, &hidden_ids[15..], T0).await.unwrap(), 25);
        // Repeats of stored posts with new counts (engagement, likes, dislikes).
        for (i, p) in left.iter_mut().skip(3).step_by(7).enumerate() {
            // Some fall, some grow past their author's indexed bound.
            p.engagement = if i % 2 == 0 { p.engagement / 3 + 17 } else { p.engagement * 5 + 1000 };
            p.likes += 11;
            p.dislikes += 2;
        }
        let repeats: Vec<PostRecord> = left.iter().skip(3).step_by(7).cloned().collect();
        let st = s.ingest_batch(&repeats, T0 + 1).await.unwrap();
        assert_eq!((st.new_posts, st.updated_posts, st.new_links), (0, repeats.len() as u64, 0));
        assert_eq!(s.author_bounds_below(t.id).await.unwrap(), 0, "lifetime figures above their bounds");
        check_all(left.clone(), no_tags.clone()).await;
        // Re-analysis moves subtrackers.
        let mut updates = Vec::new();
        for p in left.iter_mut().step_by(5) {
            p.links[0].subtrackers = (p.links[0].subtrackers + 1) % 4;
            updates.push((kept_ids[&p.post_key], p.links[0].subtrackers));
        }
        s.set_subtrackers(t.id, &updates).await.unwrap();
        check_all(left.clone(), no_tags).await;
    }
}
