//! Sentiment buckets as the store keeps them: the bucket shown on each link
//! (`tracker_posts.bucket`: a manual edit, else the tracker's keyword rule, else the analysed one)
//! and one count column per bucket in `rollup_hourly`. The names come from [`Bucket`] alone.

pub use hark_core::Bucket;

/// Buckets and their per-hour count columns of `rollup_hourly`, in the columns' order (the order
/// of an hour's bucket counts in the rollup writers and of the sums read back).
pub(crate) const SENTIMENT_COLUMNS: [(&str, &str); 5] = [
    (Bucket::Positive.as_str(), "s_positive"),
    (Bucket::SlightPositive.as_str(), "s_slight_positive"),
    (Bucket::Neutral.as_str(), "s_neutral"),
    (Bucket::SlightNegative.as_str(), "s_slight_negative"),
    (Bucket::Negative.as_str(), "s_negative"),
];

/// The bucket names, most positive first (the posts page's filter takes any of them).
pub const SENTIMENT_BUCKETS: [&str; 5] = [
    SENTIMENT_COLUMNS[0].0,
    SENTIMENT_COLUMNS[1].0,
    SENTIMENT_COLUMNS[2].0,
    SENTIMENT_COLUMNS[3].0,
    SENTIMENT_COLUMNS[4].0,
];

/// The count column of a shown bucket (an unknown bucket counts as neutral).
pub(crate) fn bucket_index(bucket: &str) -> usize {
    SENTIMENT_COLUMNS.iter().position(|(b, _)| *b == bucket).unwrap_or(2)
}

/// A stored bucket name as the static name of its bucket (None when it is none of the five).
pub(crate) fn known_bucket(name: &str) -> Option<&'static str> {
    Bucket::parse(name).map(Bucket::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bucket_has_one_column() {
        for b in Bucket::ALL {
            let i = bucket_index(b.as_str());
            assert_eq!(SENTIMENT_COLUMNS[i].0, b.as_str());
            assert_eq!(SENTIMENT_COLUMNS[i].1, format!("s_{}", b.as_str()));
        }
        assert_eq!(bucket_index("no such bucket"), bucket_index("neutral"));
        assert_eq!(known_bucket("slight_negative"), Some("slight_negative"));
        assert_eq!(known_bucket("Negative"), None);
    }
}
