use std::collections::{HashMap, HashSet};

use hark_core::{MatchSet, Platform};
use hark_enrich::sentiment::Bucket;
use hark_enrich::Gender;

use super::*;
use crate::enrich::enrich;

const DAY: Millis = 86_400_000;
const T0: Millis = 1_717_200_000_000; // 2024-06-01

fn sample(seed: u64, n: usize) -> Vec<Post> {
    DemoGenerator::new(seed).generate(T0, T0 + 14 * DAY, n).collect()
}

#[test]
fn same_seed_same_posts_other_seed_other_posts() {
    let a = sample(42, 2000);
    let b = sample(42, 2000);
    assert_eq!(a, b);
    let c = sample(43, 2000);
    assert_ne!(a[..50], c[..50]);
    let mut g1 = DemoGenerator::new(9);
    let mut g2 = DemoGenerator::new(9);
    for i in 0..200 {
        assert_eq!(g1.post_at(T0 + i), g2.post_at(T0 + i));
    }
}

#[test]
fn generate_is_time_ordered_in_range_and_exact() {
    let posts = sample(1, 20_000);
    assert_eq!(posts.len(), 20_000);
    assert!(posts.windows(2).all(|w| w[0].created_at <= w[1].created_at));
    assert!(posts.iter().all(|p| (T0..T0 + 14 * DAY).contains(&p.created_at)));
    // Seasonality: the busiest hour of day sees far more than the quietest.
    let mut by_hour = [0usize; 24];
    for p in &posts {
        by_hour[(p.created_at.rem_euclid(DAY) / 3_600_000) as usize] += 1;
    }
    let (max, min) = (*by_hour.iter().max().unwrap(), *by_hour.iter().min().unwrap());
    assert!(max > 2 * min, "{by_hour:?}");
    assert_eq!(DemoGenerator::new(1).generate(T0, T0, 3).count(), 3);
    assert_eq!(DemoGenerator::new(1).generate(T0, T0 + DAY, 0).count(), 0);
}

#[test]
fn keys_are_unique_and_valid() {
    let posts = sample(5, 100_000);
    let mut seen = HashSet::new();
    for p in &posts {
        let key = p.key().expect("valid key");
        assert!(seen.insert(key.to_string()), "duplicate {key}");
        if p.platform != Platform::Youtube {
            assert_ne!(p.id.len(), 11, "an 11-character id means YouTube: {}", p.id);
        } else {
            assert_eq!(p.id.len(), 11);
        }
    }
}

#[test]
fn realistic_mix() {
    let posts = sample(7, 30_000);
    let n = posts.len() as f64;
    let mut platforms: HashMap<Platform, usize> = HashMap::new();
    let mut authors: HashMap<(Platform, String), usize> = HashMap::new();
    let mut buckets: HashMap<&'static str, usize> = HashMap::new();
    let mut langs: HashMap<String, usize> = HashMap::new();
    let (mut countries, mut gendered, mut coords, mut rts, mut replies, mut stories, mut carousels, mut videos) = (0, 0, 0, 0, 0, 0, 0, 0);
    let mut hashtags = 0;
    let mut followers: Vec<i64> = Vec::new();
    for p in &posts {
        *platforms.entry(p.platform).or_default() += 1;
        *authors.entry((p.platform, p.author.username.clone())).or_default() += 1;
        let e = enrich(p);
        let b = match e.sentiment_bucket {
            Bucket::Positive | Bucket::SlightPositive => "pos",
            Bucket::Neutral => "neu",
            _ => "neg",
        };
        *buckets.entry(b).or_default() += 1;
        if let Some(l) = e.lang {
            *langs.entry(l).or_default() += 1;
        }
        countries += e.country.is_some() as usize;
        gendered += (e.gender != Gender::Unknown) as usize;
        coords += p.coordinates.is_some() as usize;
        hashtags += !e.hashtags.is_empty() as usize;
        if p.flags.is_retweet {
            rts += 1;
            assert!(p.text.starts_with("RT @"), "{}", p.text);
            assert_eq!(p.platform, Platform::Twitter);
        }
        replies += p.flags.is_reply as usize;
        stories += p.flags.is_story as usize;
        carousels += p.media.iter().any(|m| m.kind == MediaKind::Carousel) as usize;
        videos += p.media.iter().any(|m| m.kind == MediaKind::Video && m.bitrate.is_some()) as usize;
        followers.push(p.author.followers.unwrap_or(0));
        assert!(p.url.as_deref().is_some_and(|u| u.starts_with("https://")), "{:?}", p.url);
        if p.platform.is_web() || p.platform == Platform::Youtube {
            assert!(p.title.is_some());
        }
    }
    assert_eq!(platforms.len(), 8, "{platforms:?}");
    assert!(platforms[&Platform::Twitter] as f64 / n > 0.3);
    let most_active = authors.values().max().unwrap();
    assert!(*most_active >= 30, "an influencer posts often: {most_active}");
    for b in ["pos", "neu", "neg"] {
        assert!(buckets[b] as f64 / n > 0.1, "{buckets:?}");
    }
    assert!(langs["en"] as f64 / n > 0.4, "{langs:?}");
    for l in ["es", "pt", "fr", "de", "ja"] {
        assert!(langs.get(l).copied().unwrap_or(0) > 100, "{l}: {langs:?}");
    }
    assert!(countries as f64 / n > 0.4, "countries {countries}");
    assert!(gendered as f64 / n > 0.5, "gendered {gendered}");
    assert!(coords > 300 && rts > 1000 && replies > 500 && stories > 50 && carousels > 300 && videos > 1000);
    assert!(hashtags as f64 / n > 0.5);
    followers.sort_unstable();
    let median = followers[followers.len() / 2].max(1);
    assert!(*followers.last().unwrap() > 100 * median, "heavy tail: median {median}");
}

#[test]
fn most_posts_match_the_demo_criteria() {
    let criteria = demo_criteria();
    let set = MatchSet::build(&[(1, &criteria)]);
    assert!(set.rejected().is_empty());
    let posts = sample(11, 20_000);
    let mut matched = 0;
    let mut subs = 0;
    for p in &posts {
        let e = enrich(p);
        let m = set.match_post(p, e.country.as_deref(), e.lang.as_deref());
        if let Some(m) = m.first() {
            matched += 1;
            subs += (m.subtrackers != 0) as usize;
        }
    }
    let share = matched as f64 / posts.len() as f64;
    assert!((0.7..0.9).contains(&share), "matched {share}");
    assert!(subs as f64 / matched as f64 > 0.2, "subtracker labels {subs}");
}

#[test]
fn bursts_bring_their_hashtag() {
    let posts = sample(3, 30_000);
    let burst_tags: usize = posts
        .iter()
        .filter(|p| content::BURSTS.iter().any(|b| p.text.contains(b.hashtag)))
        .count();
    assert!(burst_tags > 300, "{burst_tags}");
}

