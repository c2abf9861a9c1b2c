//! Engagement and engagement rate, per platform (posts document section 9).
//!
//! | platform | engagement | rate over |
//! |---|---|---|
//! | twitter | likes + retweets + replies | impressions |
//! | instagram | likes + comments + saves + replies + exits + taps (forward and back) | reach |
//! | facebook | likes + comments + shares + clicks | reach |
//! | tiktok | likes + comments | views |
//! | youtube | likes + comments (not in the document; chosen to match tiktok) | views |
//! | news, blogs, forums | comments + shares (not in the document) | none |
//! | bluesky, mastodon | likes + reposts + replies (not in the document; as twitter) | none |
//!
//! Missing counts count as 0. The rate is a percentage (3.5 means 3.5%), `None` when the
//! denominator is missing or not positive.

use crate::post::{Counts, Post};
use crate::Platform;

fn n(v: Option<i64>) -> i64 {
    v.unwrap_or(0).max(0)
}

pub fn engagement_of(platform: Platform, c: &Counts) -> i64 {
    let parts: &[Option<i64>] = match platform {
        Platform::Twitter => &[c.likes, c.retweets, c.replies],
        Platform::Instagram => &[c.likes, c.comments, c.saves, c.replies, c.exits, c.taps_forward, c.taps_back],
        Platform::Facebook => &[c.likes, c.comments, c.shares, c.clicks],
        Platform::Tiktok | Platform::Youtube => &[c.likes, c.comments],
        Platform::News | Platform::Blogs | Platform::Forums => &[c.comments, c.shares],
        Platform::Bluesky | Platform::Mastodon => &[c.likes, c.retweets, c.replies],
    };
    parts.iter().fold(0i64, |acc, v| acc.saturating_add(n(*v)))
}

pub fn engagement(post: &Post) -> i64 {
    engagement_of(post.platform, &post.counts)
}

/// The count the rate divides by, for the platform.
pub fn rate_base(platform: Platform, c: &Counts) -> Option<i64> {
    match platform {
        Platform::Twitter => c.impressions,
        Platform::Instagram | Platform::Facebook => c.reach,
        Platform::Tiktok | Platform::Youtube => c.views,
        Platform::News | Platform::Blogs | Platform::Forums | Platform::Bluesky | Platform::Mastodon => None,
    }
}

/// Engagement as a percentage of impressions, reach or views.
pub fn engagement_rate(post: &Post) -> Option<f64> {
    let base = rate_base(post.platform, &post.counts).filter(|b| *b > 0)?;
    Some(engagement(post) as f64 * 100.0 / base as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(p: Platform, f: impl FnOnce(&mut Counts)) -> Post {
        let mut post = Post::new(p, "1", "", 0);
        f(&mut post.counts);
        post
    }

    fn all(c: &mut Counts) {
        *c = Counts {
            likes: Some(1),
            retweets: Some(2),
            replies: Some(4),
            comments: Some(8),
            shares: Some(16),
            views: Some(1000),
            dislikes: Some(32),
            saves: Some(64),
            impressions: Some(200),
            reach: Some(500),
            clicks: Some(128),
            quotes: Some(256),
            exits: Some(512),
            taps_forward: Some(1024),
            taps_back: Some(2048),
        };
    }

    #[test]
    fn formulas_per_platform() {
        assert_eq!(engagement(&post(Platform::Twitter, all)), 1 + 2 + 4);
        assert_eq!(engagement(&post(Platform::Instagram, all)), 1 + 8 + 64 + 4 + 512 + 1024 + 2048);
        assert_eq!(engagement(&post(Platform::Facebook, all)), 1 + 8 + 16 + 128);
        assert_eq!(engagement(&post(Platform::Tiktok, all)), 1 + 8);
        assert_eq!(engagement(&post(Platform::Youtube, all)), 1 + 8);
        assert_eq!(engagement(&post(Platform::News, all)), 8 + 16);
    }

    #[test]
    fn rates() {
        assert_eq!(engagement_rate(&post(Platform::Twitter, all)), Some(7.0 * 100.0 / 200.0));
        assert_eq!(engagement_rate(&post(Platform::Facebook, all)), Some(153.0 * 100.0 / 500.0));
        assert_eq!(engagement_rate(&post(Platform::Tiktok, all)), Some(0.9));
        assert_eq!(engagement_rate(&post(Platform::Blogs, all)), None);
        assert_eq!(engagement_rate(&post(Platform::Twitter, |c| c.likes = Some(3))), None);
        assert_eq!(engagement_rate(&post(Platform::Twitter, |c| c.impressions = Some(0))), None);
    }

    #[test]
    fn missing_and_negative_counts_are_zero_and_sums_saturate() {
        assert_eq!(engagement(&post(Platform::Twitter, |_| {})), 0);
        assert_eq!(engagement(&post(Platform::Twitter, |c| c.likes = Some(-5))), 0);
        let p = post(Platform::Twitter, |c| {
            c.likes = Some(i64::MAX);
            c.retweets = Some(5);
        });
        assert_eq!(engagement(&p), i64::MAX);
    }
}
