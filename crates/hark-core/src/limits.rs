//! Business constants of the specification that more than one layer needs.

/// Default number of include searches a user may combine.
pub const DEFAULT_MAX_SEARCHES: i64 = 5;
/// Default number of excluded terms; accounts with extra ignore slots get [`EXTRA_MAX_IGNORED`].
pub const DEFAULT_MAX_IGNORED: i64 = 5;
pub const EXTRA_MAX_IGNORED: i64 = 50;
pub const TRIAL_DAYS: i64 = 14;
pub const DAY_MS: i64 = 86_400_000;
pub const TAG_NAME_MAX: usize = 45;
pub const TITLE_MAX: usize = 200;
pub const TERM_MAX: usize = 200;
pub const TITLE_PREFIX: &str = "Real-time Tracker: ";
