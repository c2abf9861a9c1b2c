use proptest::prelude::*;

use super::naive::NaiveMatcher;
use super::reference::ReferenceMatcher;
use super::*;
use crate::criteria::AccountLists;
use crate::query::blank_criteria;
use crate::TrackerSearch;

fn criteria(include: &[&[&str]], exclude: &[&str]) -> TrackerCriteria {
    TrackerCriteria {
        search: TrackerSearch {
            include: include.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
        },
        ..blank_criteria()
    }
}

fn post(text: &str) -> Post {
    Post::new(Platform::Twitter, "1", text, 0)
}

/// Matches with all three matchers, checks they agree, and returns the tracker ids.
fn ids(trackers: &[(i64, &TrackerCriteria)], p: &Post) -> Vec<i64> {
    let fast = MatchSet::build(trackers).match_post(p, None, None);
    assert_eq!(fast, ReferenceMatcher::new(trackers).match_post(p, None, None), "reference disagrees on {p:?}");
    assert_eq!(fast, NaiveMatcher::new(trackers).match_post(p, None, None), "naive disagrees on {p:?}");
    fast.iter().map(|m| m.tracker_id).collect()
}

fn hit(include: &[&[&str]], text: &str) -> bool {
    let c = criteria(include, &[]);
    ids(&[(1, &c)], &post(text)) == vec![1]
}

#[test]
fn words_match_case_and_diacritic_insensitively_on_boundaries() {
    assert!(hit(&[&["nike"]], "I love NIKE!"));
    assert!(hit(&[&["café"]], "best CAFE in town"));
    assert!(hit(&[&["cafe"]], "Café society"));
    assert!(hit(&[&["ｎｉｋｅ"]], "nike"));
    assert!(!hit(&[&["nike"]], "nikes are great"));
    assert!(!hit(&[&["nike"]], "adnike"));
    assert!(hit(&[&["nike"]], "nike"));
    assert!(hit(&[&["nike"]], "(nike)"));
}

#[test]
fn phrases_span_any_punctuation_but_not_fields() {
    assert!(hit(&[&["coca cola"]], "I drink Coca-Cola daily"));
    assert!(hit(&[&["coca-cola"]], "coca   cola"));
    assert!(!hit(&[&["coca cola"]], "coca zero cola"));
    let c = criteria(&[&["coca cola"]], &[]);
    let mut p = post("cola is good");
    p.title = Some("all about coca".into());
    assert!(ids(&[(1, &c)], &p).is_empty());
    p.flags.quoted_text = Some("Coca Cola".into());
    assert_eq!(ids(&[(1, &c)], &p), vec![1]);
}

#[test]
fn plain_terms_match_tags_and_tag_terms_match_only_tags() {
    assert!(hit(&[&["nike"]], "#Nike rocks"));
    assert!(hit(&[&["nike"]], "thanks @nike"));
    assert!(hit(&[&["#nike"]], "go #NIKE"));
    assert!(!hit(&[&["#nike"]], "go nike"));
    assert!(!hit(&[&["#nike"]], "go @nike"));
    assert!(hit(&[&["@nike"]], "hi @Nike"));
    assert!(!hit(&[&["@nike"]], "me@nike.com"));
    assert!(hit(&[&["$aapl"]], "buy $AAPL now"));
    assert!(!hit(&[&["$aapl"]], "buy aapl now"));
    assert!(hit(&[&["#日本"]], "旅行 #日本"));
    assert!(hit(&[&["耐克"]], "我爱耐克鞋"));
    // Occurrences share the space between them: the second one must still be seen.
    assert!(hit(&[&["nike"], &["@nike"]], "nike @nike"));
}

#[test]
fn rows_are_anded_terms_ored_and_excludes_win() {
    let c = criteria(&[&["nike", "adidas"], &["shoes"]], &["fake"]);
    let t = [(1, &c)];
    assert_eq!(ids(&t, &post("adidas shoes")), vec![1]);
    assert_eq!(ids(&t, &post("nike shirts")), Vec::<i64>::new());
    assert_eq!(ids(&t, &post("fake nike shoes")), Vec::<i64>::new());
    assert_eq!(ids(&t, &post("fakes nike shoes")), vec![1]);
}

#[test]
fn subtrackers_label_matched_posts() {
    let mut c = criteria(&[&["nike"]], &[]);
    c.subtrackers = vec!["air".into(), "#max".into(), "!!".into(), "jordan".into()];
    let set = MatchSet::build(&[(5, &c)]);
    let m = set.match_post(&post("nike air #max jordan1"), None, None);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].subtracker_indices().collect::<Vec<_>>(), vec![0, 1]);
    // A subtracker term alone does not collect a post.
    assert!(set.match_post(&post("air max"), None, None).is_empty());
}

#[test]
fn accounts_collect_and_ignore_lists_drop() {
    let mut c = criteria(&[&["nike"]], &[]);
    c.usernames = AccountLists { twt: vec!["@BrandNews".into()], ..Default::default() };
    c.ignore = AccountLists { twt: vec!["spammer".into()], ..Default::default() };
    let t = [(1, &c)];
    let mut p = post("no term here");
    p.author.username = "brandnews".into();
    assert_eq!(ids(&t, &p), vec![1]);
    p.platform = Platform::Instagram;
    assert!(ids(&t, &p).is_empty());
    let mut p = post("nike");
    p.author.username = "Spammer".into();
    assert!(ids(&t, &p).is_empty());
}

#[test]
fn post_filters_run_after_terms() {
    let mut c = criteria(&[&["nike"]], &[]);
    c.exclude_retweets = true;
    c.language = Some("en".into());
    c.platforms = [Platform::Twitter].into_iter().collect();
    let set = MatchSet::build(&[(1, &c)]);
    let mut p = post("nike");
    assert!(set.match_post(&p, None, None).is_empty(), "unknown language");
    assert_eq!(set.match_post(&p, None, Some("en")).len(), 1);
    p.flags.is_retweet = true;
    assert!(set.match_post(&p, None, Some("en")).is_empty());
    p.flags.is_retweet = false;
    p.platform = Platform::News;
    assert!(set.match_post(&p, None, Some("en")).is_empty());
}

#[test]
fn many_trackers_share_patterns_and_bad_ones_are_rejected() {
    let a = criteria(&[&["nike"]], &[]);
    let b = criteria(&[&["#nike"], &["air"]], &[]);
    let c = criteria(&[&["air"]], &["nike"]);
    let mut bad = criteria(&[&["x"]], &[]);
    bad.subtrackers = (0..70).map(|i| format!("s{i}")).collect();
    let set = MatchSet::build(&[(1, &a), (2, &b), (3, &c), (4, &bad)]);
    assert_eq!(set.rejected().len(), 1);
    assert_eq!(set.rejected()[0].0, 4);
    assert_eq!(set.tracker_count(), 3);
    let got: Vec<i64> = set.match_post(&post("#nike air"), None, None).iter().map(|m| m.tracker_id).collect();
    assert_eq!(got, vec![1, 2]);
    let got: Vec<i64> = set.match_post(&post("air"), None, None).iter().map(|m| m.tracker_id).collect();
    assert_eq!(got, vec![3]);
    assert!(MatchSet::build(&[]).match_post(&post("air"), None, None).is_empty());
}

#[test]
fn hostile_text_does_not_panic() {
    let c = criteria(&[&["a"], &["#b"]], &["$c"]);
    let set = MatchSet::build(&[(1, &c)]);
    for s in ["", "\u{0}", "#", "@@@@", "$", "a #b", "\u{301}\u{301}#\u{301}b", "﷽ ﷽", "#\u{10FFFF}"] {
        let _ = set.match_post(&post(s), None, None);
    }
    let long = "a #b ".repeat(20_000);
    assert_eq!(set.match_post(&post(&long), None, None).len(), 1);
}

// Property test: random small-vocabulary queries and posts; all three matchers must agree.

const WORDS: &[&str] =
    &["nike", "Nike", "NIKÉ", "air", "max", "café", "cafe", "ab", "a", "nikes", "日本", "x_y", "ナイキ", "नमस्ते", "ǅ"];
const SEPS: &[&str] = &[" ", " ", ", ", "-", "!", "'", "\n", "a#", "."];
const SIGILS: &[&str] = &["", "", "", "#", "@", "$"];

fn word() -> impl Strategy<Value = String> {
    (prop::sample::select(SIGILS), prop::sample::select(WORDS)).prop_map(|(s, w)| format!("{s}{w}"))
}

fn term() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..=3).prop_map(|ws| ws.join(" "))
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec((word(), prop::sample::select(SEPS)), 0..12)
        .prop_map(|parts| parts.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
}

fn tracker() -> impl Strategy<Value = TrackerCriteria> {
    (
        prop::collection::vec(prop::collection::vec(term(), 1..=3), 0..=3),
        prop::collection::vec(term(), 0..=2),
        prop::collection::vec(term(), 0..=3),
        prop::collection::vec(prop::sample::select(&["nike", "@Brand", "x:::42"][..]), 0..=1),
        any::<(bool, bool)>(),
    )
        .prop_map(|(include, exclude, subtrackers, accounts, (rt, verified))| TrackerCriteria {
            search: TrackerSearch { include, exclude },
            platforms: [Platform::Twitter, Platform::Instagram].into_iter().collect(),
            exclude_retweets: rt,
            verified_users: verified,
            subtrackers,
            usernames: AccountLists { twt: accounts.iter().map(|s| s.to_string()).collect(), ..Default::default() },
            ..blank_criteria()
        })
}

fn any_post() -> impl Strategy<Value = Post> {
    (
        text(),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::sample::select(&[Platform::Twitter, Platform::Instagram, Platform::News][..]),
        prop::sample::select(&["", "nike", "brand", "other"][..]),
        prop::sample::select(&["", "42", "7"][..]),
        any::<(bool, bool)>(),
    )
        .prop_map(|(t, title, quoted, platform, username, id, (rt, verified))| {
            let mut p = Post::new(platform, "1", t, 0);
            p.title = title;
            p.flags.quoted_text = quoted;
            p.flags.is_retweet = rt;
            p.author.username = username.into();
            p.author.id = id.into();
            p.author.verified = verified;
            p
        })
}

proptest! {
    // 512 cases by default; PROPTEST_CASES=n runs more.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn automaton_agrees_with_reference(
        trackers in prop::collection::vec(tracker(), 1..6),
        posts in prop::collection::vec(any_post(), 1..8),
    ) {
        let list: Vec<(i64, &TrackerCriteria)> = trackers.iter().enumerate().map(|(i, c)| (i as i64 * 3 + 1, c)).collect();
        let set = MatchSet::build(&list);
        let reference = ReferenceMatcher::new(&list);
        let mut naive = NaiveMatcher::new(&list);
        let mut scratch = MatchScratch::new();
        let mut out = Vec::new();
        for p in &posts {
            let want = reference.match_post(p, None, None);
            set.match_post_with(&mut scratch, p, None, None, &mut out);
            prop_assert_eq!(&out, &want, "post {:?} text {:?} trackers {:?}", p, scratch.text(), trackers);
            prop_assert_eq!(naive.match_post(p, None, None), want, "naive");
        }
    }

    #[test]
    fn norm_text_tokens_agree_with_tokenize(s in "\\PC{0,40}") {
        prop_assert_eq!(NormText::of(&s).tokens(), crate::text::tokenize(&s));
    }
}


#[test]
fn indirect_matches_respect_excludes_and_filters() {
    let mut c = criteria(&[&["nike"]], &["spam"]);
    c.exclude_retweets = true;
    c.platforms.remove(Platform::Youtube);
    let set = MatchSet::build(&[(1, &c)]);
    // The platform's search found it; the text does not say nike.
    assert!(set.match_post(&post("new running shoes"), None, None).is_empty());
    assert!(set.admits_indirect(1, &post("new running shoes"), None, None));
    assert!(!set.admits_indirect(1, &post("new running shoes, spam"), None, None), "an exclude term keeps it out");
    let mut rt = post("new running shoes");
    rt.flags.is_retweet = true;
    assert!(!set.admits_indirect(1, &rt, None, None), "the tracker's filters still apply");
    let yt = Post::new(Platform::Youtube, "v", "shoes", 0);
    assert!(!set.admits_indirect(1, &yt, None, None), "a platform the tracker does not follow");
    assert!(!set.admits_indirect(2, &post("shoes"), None, None), "an unknown tracker");
}
