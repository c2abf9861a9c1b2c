//! The influencers page against a direct computation over the same posts, on every backend: every
//! sort both ways, pages, count and text filters, with the shared filters (platforms, ranges with
//! millisecond edges, post tags, influencer tags, a subtracker), before and after a bulk delete;
//! and one account's posts.

use std::collections::{HashMap, HashSet};

use hark_core::text::fold;
use hark_core::{Platform, PlatformSet};
use hark_store::{
    AccountPostSort, CountField, CountFilter, InfluencerQuery, InfluencerSort, PageFilter, PostRecord, Store, TrackerLink,
};
use hark_testkit::{backends, TestDb};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const T0: i64 = 1_700_000_000_000;

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
const BIOS: [&str; 4] = ["Café owner in Zürich", "coffee lover", "news desk", "Barista & roaster"];
const PLACES: [&str; 3] = ["São Paulo", "London", "Zürich"];

fn posts(n: usize, tracker: i64) -> Vec<PostRecord> {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    (0..n)
        .map(|i| {
            let platform = PLATFORMS[r.below(3) as usize];
            // Heavy-tailed authors: a few post often. News sources have no username.
            let a = (r.below(30) * r.below(30) / 30) as usize;
            let (username, id) = if platform == Platform::News { (String::new(), format!("site{a}")) } else { (format!("user{a}"), format!("id{a}")) };
            PostRecord {
                post_key: format!("{};{i}", platform.name()),
                platform,
                external_id: i.to_string(),
                created_at: T0 + i as i64 * 7 * 60_000 + r.below(60_000) as i64,
                author_id: id,
                author_username: username,
                author_name: format!("Name {a} v{}", i % 3),
                author_followers: r.below(3000) as i64,
                author_bio: Some(BIOS[(a + i % 2) % 4].to_string()),
                author_location: Some(PLACES[a % 3].to_string()),
                text: format!("post {i}"),
                impressions: if platform == Platform::News { 0 } else { r.below(5000) as i64 },
                engagement: r.below(500) as i64,
                data: "{}".into(),
                links: vec![TrackerLink { tracker_id: tracker, subtrackers: r.below(4) as i64, sentiment: None, indirect: false }],
                ..Default::default()
            }
        })
        .collect()
}

#[derive(Debug, Default, Clone, PartialEq)]
struct Fig {
    posts: i64,
    engagement: i64,
    followers: i64,
    reach: i64,
    impressions: i64,
    /// (created_at, name, bio, location) of the newest post.
    newest: (i64, String, String, String),
}

fn key_of(p: &PostRecord) -> (String, String) {
    let k = if p.author_username.is_empty() { &p.author_id } else { &p.author_username };
    (p.platform.name().to_string(), k.clone())
}

struct Oracle<'a> {
    posts: &'a [PostRecord],
    live: &'a HashSet<usize>,
    post_tags: &'a HashMap<usize, HashSet<i64>>,
    account_tags: &'a HashMap<(String, String), HashSet<i64>>,
}

impl Oracle<'_> {
    fn keeps(&self, f: &PageFilter, i: usize, p: &PostRecord) -> bool {
        let tags_ok = |want: &[i64], all: bool, have: Option<&HashSet<i64>>| {
            let empty = HashSet::new();
            let have = have.unwrap_or(&empty);
            want.is_empty() || if all { want.iter().all(|t| have.contains(t)) } else { want.iter().any(|t| have.contains(t)) }
        };
        self.live.contains(&i)
            && f.platforms.contains(p.platform)
            && f.start.is_none_or(|s| p.created_at >= s)
            && f.end.is_none_or(|e| p.created_at <= e)
            && f.subtracker.is_none_or(|s| p.links[0].subtrackers & (1 << (s - 1)) != 0)
            && tags_ok(&f.post_tags, f.post_tags_all, self.post_tags.get(&i))
            && tags_ok(&f.influencer_tags, f.influencer_tags_all, self.account_tags.get(&key_of(p)))
    }

    fn figures(&self, f: &PageFilter) -> HashMap<(String, String), Fig> {
        let mut m: HashMap<(String, String), Fig> = HashMap::new();
        for (i, p) in self.posts.iter().enumerate() {
            if !self.keeps(f, i, p) {
                continue;
            }
            let e = m.entry(key_of(p)).or_default();
            e.posts += 1;
            e.engagement += p.engagement;
            e.reach += p.author_followers;
            e.impressions += p.impressions;
        }
        // Profiles come from each account's newest post of all (any tracker, any range).
        for p in self.posts {
            if let Some(e) = m.get_mut(&key_of(p)) {
                if p.created_at >= e.newest.0 {
                    e.followers = p.author_followers;
                    e.newest = (
                        p.created_at,
                        p.author_name.clone(),
                        p.author_bio.clone().unwrap_or_default(),
                        p.author_location.clone().unwrap_or_default(),
                    );
                }
            }
        }
        m
    }

    /// The page's accounts in order, by the rules the page states.
    fn ranked(&self, q: &InfluencerQuery) -> Vec<((String, String), Fig)> {
        let words: Vec<String> = fold(&q.search).split_whitespace().map(String::from).collect();
        let mut v: Vec<((String, String), Fig)> = self
            .figures(&q.filter)
            .into_iter()
            .filter(|(k, f)| {
                q.counts.iter().all(|c| {
                    let v = match c.field {
                        CountField::Followers => f.followers,
                        CountField::Engagement => f.engagement,
                        CountField::Posts => f.posts,
                        CountField::Impressions => f.impressions,
                    };
                    if c.greater { v > c.count } else { v < c.count }
                }) && {
                    let hay = fold(&format!("{} {} {} {}", f.newest.1, if k.0 == "news" { "" } else { &k.1 }, k.1, f.newest.2));
                    words.iter().all(|w| hay.contains(w.as_str()))
                } && fold(&f.newest.2).contains(&fold(&q.bio))
                    && fold(&f.newest.3).contains(&fold(&q.location))
            })
            .collect();
        let avg = |f: &Fig| f.engagement as f64 / f.posts as f64;
        let rate = |f: &Fig| if f.followers > 0 { avg(f) / f.followers as f64 * 100.0 } else { -1.0 };
        v.sort_by(|(ka, a), (kb, b)| {
            let o = match q.sort {
                InfluencerSort::Name => fold(&a.newest.1).cmp(&fold(&b.newest.1)),
                InfluencerSort::Platform => ka.0.cmp(&kb.0),
                InfluencerSort::Posts => a.posts.cmp(&b.posts),
                InfluencerSort::Engagement => a.engagement.cmp(&b.engagement),
                InfluencerSort::AvgEngagement => avg(a).total_cmp(&avg(b)),
                InfluencerSort::Followers => a.followers.cmp(&b.followers),
                InfluencerSort::Reach => a.reach.cmp(&b.reach),
                InfluencerSort::EngagementRate => rate(a).total_cmp(&rate(b)),
                InfluencerSort::Impressions => a.impressions.cmp(&b.impressions),
            };
            (if q.ascending { o } else { o.reverse() }).then_with(|| ka.cmp(kb))
        });
        v
    }
}

async fn check(s: &Store, tracker: i64, o: &Oracle<'_>, q: &InfluencerQuery) {
    let want = o.ranked(q);
    let mut q = q.clone();
    q.per_page = 7;
    for page in [1, 2, 9] {
        q.page = page;
        let got = s.influencers_page(tracker, &q).await.unwrap();
        assert_eq!(got.total, want.len() as i64, "total for {q:?}");
        let from = ((page - 1) * 7) as usize;
        let expect: Vec<_> = want.iter().skip(from).take(7).collect();
        assert_eq!(got.rows.len(), expect.len(), "rows of page {page} for {q:?}");
        for (g, (k, f)) in got.rows.iter().zip(expect) {
            let at = format!("{k:?} page {page} of {q:?}");
            assert_eq!((g.platform.name(), g.author.as_str()), (k.0.as_str(), k.1.as_str()), "order: {at}");
            assert_eq!((g.posts, g.engagement, g.followers, g.reach, g.impressions), (f.posts, f.engagement, f.followers, f.reach, f.impressions), "{at}");
            assert_eq!(g.profile.name, f.newest.1, "{at}");
            assert_eq!(g.profile.bio.as_deref().unwrap_or(""), f.newest.2, "{at}");
            let tags: HashSet<i64> = g.tags.iter().copied().collect();
            assert_eq!(tags, o.account_tags.get(k).cloned().unwrap_or_default(), "{at}");
        }
    }
}

#[tokio::test]
async fn influencers_match_a_direct_computation() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let u = s.create_user(&hark_testkit::new_user("i@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&hark_testkit::new_tracker("Inf", u.id, PlatformSet::all().bits(), "{}"), 1).await.unwrap();
        let all = posts(700, t.id);
        for chunk in all.chunks(150) {
            s.ingest_batch(chunk, T0).await.unwrap();
        }
        let everything = PageFilter { platforms: PlatformSet::all(), ..Default::default() };
        let (rows, n) = s.dash_posts(t.id, &everything, None, 10_000, 0).await.unwrap();
        assert_eq!(n, 700);
        let ids: HashMap<String, i64> = rows.iter().map(|p| (format!("{};{}", p.platform, p.external_id), p.id)).collect();
        let red = s.create_tag(t.id, "red", "#f00", 1).await.unwrap().id;
        let mut post_tags: HashMap<usize, HashSet<i64>> = HashMap::new();
        for (i, p) in all.iter().enumerate().filter(|(i, _)| i % 3 == 0) {
            s.tag_tracker_post(t.id, ids[&p.post_key], red).await.unwrap();
            post_tags.entry(i).or_default().insert(red);
        }
        let vip = s.create_influencer_tag(u.id, "vip", "#c0392b", 1).await.unwrap().id;
        let fan = s.create_influencer_tag(u.id, "fan", "#047878", 1).await.unwrap().id;
        let mut account_tags: HashMap<(String, String), HashSet<i64>> = HashMap::new();
        let vips: Vec<(String, String)> = vec![("twitter".into(), "user0".into()), ("news".into(), "site1".into()), ("instagram".into(), "user2".into())];
        let fans: Vec<(String, String)> = vec![("twitter".into(), "user0".into()), ("twitter".into(), "user3".into())];
        assert_eq!(s.set_account_tags(u.id, &vips, &[vip], &[]).await.unwrap(), (3, 0));
        assert_eq!(s.set_account_tags(u.id, &fans, &[fan], &[]).await.unwrap(), (2, 0));
        // Another user's tag ids are left out.
        assert_eq!(s.set_account_tags(u.id + 99, &fans, &[fan], &[]).await.unwrap(), (0, 0));
        for (acc, tag) in [(&vips, vip), (&fans, fan)] {
            for k in acc {
                account_tags.entry(k.clone()).or_default().insert(tag);
            }
        }
        let mut live: HashSet<usize> = (0..all.len()).collect();

        let ranges = [
            (None, None),
            (Some(T0 + 5 * HOUR + 1234), Some(T0 + 2 * DAY + 17 * HOUR + 999)),
            (Some((T0 / DAY + 1) * DAY), Some((T0 / DAY + 3) * DAY - 1)),
            (None, Some(T0 + DAY + 1)),
            (Some(T0 + 30 * HOUR), None),
        ];
        let shared: [(Vec<i64>, bool, Vec<i64>, bool, Option<u32>); 4] = [
            (vec![], false, vec![], false, None),
            (vec![red], false, vec![], false, None),
            (vec![], false, vec![vip, fan], false, Some(2)),
            (vec![], false, vec![vip, fan], true, None),
        ];
        for round in 0..2 {
            let o = Oracle { posts: &all, live: &live, post_tags: &post_tags, account_tags: &account_tags };
            for platforms in [PlatformSet::all(), PlatformSet::parse_list("twt,news").unwrap()] {
                for (start, end) in ranges {
                    for (pt, pt_all, it, it_all, sub) in &shared {
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
                        for sort in InfluencerSort::ALL {
                            for ascending in [false, true] {
                                let q = InfluencerQuery { sort, ascending, ..InfluencerQuery::new(f.clone()) };
                                check(&s, t.id, &o, &q).await;
                            }
                        }
                        // Filters combined, on the default order.
                        let mut q = InfluencerQuery::new(f.clone());
                        q.counts = vec![
                            CountFilter { field: CountField::Posts, greater: true, count: 2 },
                            CountFilter { field: CountField::Followers, greater: false, count: 2900 },
                        ];
                        check(&s, t.id, &o, &q).await;
                        q.counts.push(CountFilter { field: CountField::Impressions, greater: true, count: 3000 });
                        q.counts.push(CountFilter { field: CountField::Engagement, greater: false, count: 5000 });
                        check(&s, t.id, &o, &q).await;
                        let mut q = InfluencerQuery::new(f.clone());
                        q.search = "CAFE zurich".into();
                        check(&s, t.id, &o, &q).await;
                        q.search = "user2".into();
                        check(&s, t.id, &o, &q).await;
                        let mut q = InfluencerQuery::new(f.clone());
                        q.bio = "lover".into();
                        q.location = "sao".into();
                        q.sort = InfluencerSort::Name;
                        check(&s, t.id, &o, &q).await;
                        if f.rollups_apply() {
                            // The rows-only path gives the same answers, and so does SQL without
                            // the in-memory index (a tracker too large for it).
                            let rows = PageFilter { rows_only: true, ..f.clone() };
                            check(&s, t.id, &o, &InfluencerQuery::new(rows)).await;
                            let sql = s.without_author_index();
                            for sort in [InfluencerSort::Name, InfluencerSort::Followers, InfluencerSort::Reach] {
                                check(&sql, t.id, &o, &InfluencerQuery { sort, ..InfluencerQuery::new(f.clone()) }).await;
                            }
                            check(&sql, t.id, &o, &q).await;
                        }
                    }
                }
            }
            if round == 0 {
                // Bulk delete: the rollups follow.
                let gone: Vec<usize> = (0..all.len()).filter(|i| i % 5 == 1).collect();
                let gone_ids: Vec<i64> = gone.iter().map(|i| ids[&all[*i].post_key]).collect();
                s.soft_delete_posts(t.id, &gone_ids, T0).await.unwrap();
                for i in gone {
                    live.remove(&i);
                }
            }
        }

        // One account's posts, in each order, paged; its header figures.
        let o = Oracle { posts: &all, live: &live, post_tags: &post_tags, account_tags: &account_tags };
        let f = PageFilter { platforms: PlatformSet::all(), start: Some(T0 + 3 * HOUR), end: Some(T0 + 3 * DAY), ..Default::default() };
        for (platform, author) in [(Platform::Twitter, "user0"), (Platform::News, "site0")] {
            let mine: Vec<&PostRecord> = all
                .iter()
                .enumerate()
                .filter(|(i, p)| o.keeps(&f, *i, p) && key_of(p) == (platform.name().to_string(), author.to_string()))
                .map(|(_, p)| p)
                .collect();
            assert!(mine.len() > 3, "{author} has posts in the range");
            for (sort, key) in [
                (AccountPostSort::Date, Box::new(|p: &PostRecord| p.created_at) as Box<dyn Fn(&PostRecord) -> i64>),
                (AccountPostSort::Engagement, Box::new(|p: &PostRecord| p.engagement)),
                (AccountPostSort::Reach, Box::new(|p: &PostRecord| p.author_followers)),
            ] {
                for ascending in [false, true] {
                    let (rows, total) = s.influencer_posts(t.id, &f, platform, author, sort, ascending, 2, 3).await.unwrap();
                    assert_eq!(total, mine.len() as i64);
                    let mut want: Vec<&PostRecord> = mine.clone();
                    want.sort_by(|a, b| {
                        let o = key(a).cmp(&key(b)).then_with(|| ids[&a.post_key].cmp(&ids[&b.post_key]));
                        if ascending { o } else { o.reverse() }
                    });
                    let want: Vec<String> = want.iter().skip(2).take(3).map(|p| p.external_id.clone()).collect();
                    let got: Vec<String> = rows.iter().map(|r| r.post.id.clone()).collect();
                    assert_eq!(got, want, "{author} {sort:?} asc={ascending}");
                }
            }
            let one = s.influencer(t.id, &f, platform, author).await.unwrap().expect("account");
            let fig = &o.figures(&f)[&(platform.name().to_string(), author.to_string())];
            assert_eq!((one.posts, one.engagement, one.reach), (fig.posts, fig.engagement, fig.reach));
        }
        assert!(s.influencer(t.id, &f, Platform::Twitter, "nobody").await.unwrap().is_none());
        // Removing a tag from an account, and deleting a tag, take it off the rows.
        assert_eq!(s.set_account_tags(u.id, &fans[..1], &[], &[fan]).await.unwrap(), (0, 1));
        assert!(s.delete_influencer_tag(u.id, vip).await.unwrap());
        let left = s.account_tags(u.id, &vips).await.unwrap();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[tokio::test]
async fn the_author_index_follows_new_posts_and_profiles() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let s = db.store().await;
        let u = s.create_user(&hark_testkit::new_user("n@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&hark_testkit::new_tracker("New", u.id, PlatformSet::all().bits(), "{}"), 1).await.unwrap();
        let all = posts(400, t.id);
        s.ingest_batch(&all[..200], T0).await.unwrap();
        let f = PageFilter { platforms: PlatformSet::all(), start: Some(T0 + HOUR + 5), end: Some(T0 + 3 * DAY + 7), ..Default::default() };
        let sql = s.without_author_index();
        let same = |label: &'static str| {
            let (s, sql, f) = (&s, &sql, f.clone());
            async move {
                for sort in [InfluencerSort::Engagement, InfluencerSort::Followers, InfluencerSort::Name] {
                    let q = InfluencerQuery { sort, per_page: 100, ..InfluencerQuery::new(f.clone()) };
                    let (a, b) = (s.influencers_page(t.id, &q).await.unwrap(), sql.influencers_page(t.id, &q).await.unwrap());
                    assert_eq!(a, b, "{label} {sort:?}");
                }
                let q = InfluencerQuery { search: "zurich".into(), ..InfluencerQuery::new(f.clone()) };
                assert_eq!(s.influencers_page(t.id, &q).await.unwrap(), sql.influencers_page(t.id, &q).await.unwrap(), "{label} search");
            }
        };
        same("first batch").await;
        // New posts: new accounts and new profiles of known ones (a newer bio and follower count).
        let mut more = all[200..].to_vec();
        for p in more.iter_mut().step_by(3) {
            p.author_bio = Some("Moved to Zürich".into());
            p.author_followers += 10_000;
        }
        s.ingest_batch(&more, T0).await.unwrap();
        same("second batch").await;
        let q = InfluencerQuery { search: "moved".into(), ..InfluencerQuery::new(f.clone()) };
        assert!(s.influencers_page(t.id, &q).await.unwrap().total > 0, "the new bios are searched");
    }
}
