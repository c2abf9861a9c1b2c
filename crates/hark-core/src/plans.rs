//! The plan catalogue: what each plan number allows. A self-hosted instance gives new accounts
//! [`SELF_HOSTED_PLAN`], which unlocks everything; the instance administrator moves accounts
//! between plans (the admin page). The feature rules follow the specification: no XLS on plans
//! 15 and 25, the link-sharing toggles from plan 35, the media wall from plan 32 (or on a trial).

use crate::limits::{DEFAULT_MAX_SEARCHES, EXTRA_MAX_IGNORED, LINK_SHARING_MIN_PLAN, NO_XLS_PLANS};

/// A plan of the catalogue with the limits an account on it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub number: i64,
    pub name: &'static str,
    pub max_searches: i64,
    pub max_ignored: i64,
}

/// The plan of a self-hosted instance's accounts: every feature.
pub const SELF_HOSTED_PLAN: i64 = 100;
/// The plan from which the media wall is open to accounts not on a trial.
pub const MEDIA_WALL_MIN_PLAN: i64 = 32;

pub const PLANS: &[Plan] = &[
    Plan { number: 15, name: "Individual", max_searches: 5, max_ignored: 5 },
    Plan { number: 25, name: "Professional", max_searches: 10, max_ignored: 25 },
    Plan { number: 35, name: "Corporate", max_searches: 20, max_ignored: 50 },
    Plan { number: SELF_HOSTED_PLAN, name: "Self-hosted (everything)", max_searches: DEFAULT_MAX_SEARCHES, max_ignored: EXTRA_MAX_IGNORED },
];

pub fn plan(number: i64) -> Option<&'static Plan> {
    PLANS.iter().find(|p| p.number == number)
}

/// What an account's plan lets it use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    pub xls: bool,
    pub link_sharing: bool,
    pub media_wall: bool,
}

pub fn features(plan: i64, trial: bool, is_admin: bool) -> Features {
    Features {
        xls: is_admin || !NO_XLS_PLANS.contains(&plan),
        link_sharing: is_admin || plan >= LINK_SHARING_MIN_PLAN,
        media_wall: is_admin || trial || plan >= MEDIA_WALL_MIN_PLAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_follows_the_feature_rules() {
        assert_eq!(features(15, false, false), Features { xls: false, link_sharing: false, media_wall: false });
        assert_eq!(features(25, false, false), Features { xls: false, link_sharing: false, media_wall: false });
        assert_eq!(features(35, false, false), Features { xls: true, link_sharing: true, media_wall: true });
        assert_eq!(features(SELF_HOSTED_PLAN, false, false), Features { xls: true, link_sharing: true, media_wall: true });
        assert!(features(15, true, false).media_wall, "a trial sees the media wall");
        assert_eq!(features(15, false, true), Features { xls: true, link_sharing: true, media_wall: true });
        assert_eq!(plan(35).map(|p| p.name), Some("Corporate"));
        assert!(plan(7).is_none());
        let mut numbers: Vec<i64> = PLANS.iter().map(|p| p.number).collect();
        numbers.dedup();
        assert_eq!(numbers.len(), PLANS.len());
        assert_eq!(PLANS.last().map(|p| p.number), Some(SELF_HOSTED_PLAN), "the self-hosted plan comes last");
    }
}
