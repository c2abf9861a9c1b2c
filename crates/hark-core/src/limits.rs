//! Business constants of the specification that more than one layer needs.

/// Default number of include searches a user may combine.
pub const DEFAULT_MAX_SEARCHES: i64 = 5;
/// Default number of excluded terms; accounts with extra ignore slots get [`EXTRA_MAX_IGNORED`].
pub const DEFAULT_MAX_IGNORED: i64 = 5;
pub const EXTRA_MAX_IGNORED: i64 = 50;
/// An hour and a day in milliseconds (UTC: rollups count whole hours and days).
pub const HOUR_MS: i64 = 3_600_000;
pub const DAY_MS: i64 = 86_400_000;
pub const TAG_NAME_MAX: usize = 45;
pub const TITLE_MAX: usize = 200;
pub const TERM_MAX: usize = 200;
pub const TITLE_PREFIX: &str = "Real-time Tracker: ";
/// Posts above which a new tracker's term counts as high volume (tracker-lifecycle.md section 9).
pub const HIGH_VOLUME_THRESHOLD: u64 = 500_000;

/// Whether an estimated post count is high volume: strictly above the threshold.
pub fn is_high_volume(estimated_posts: u64) -> bool {
    estimated_posts > HIGH_VOLUME_THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_volume_starts_above_the_threshold() {
        assert!(!is_high_volume(0));
        assert!(!is_high_volume(HIGH_VOLUME_THRESHOLD));
        assert!(is_high_volume(HIGH_VOLUME_THRESHOLD + 1));
    }
}
