//! The plan catalogue: what each plan number allows, read from a TOML file (`plans.toml`, built
//! in; an instance may start with its own through `--plans-file`). A self-hosted instance gives
//! new accounts its default plan, which unlocks everything; the instance administrator moves
//! accounts between plans (the admin page). The built-in rules follow the specification: no XLS
//! on plans 15 and 25, the link-sharing toggles from plan 35, the media wall from plan 32 (or on a
//! trial, or for accounts older than 2023-08-01), TikTok, Facebook and YouTube locked on a trial.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::platform::{Platform, PlatformSet};
use crate::Millis;

/// The catalogue built into the server.
pub const BUILT_IN: &str = include_str!("plans.toml");

/// A plan of the catalogue with the limits an account on it gets.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub number: i64,
    pub name: String,
    pub max_searches: i64,
    pub max_ignored: i64,
}

/// The feature rules of a catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub no_xls: Vec<i64>,
    pub link_sharing_from: i64,
    pub media_wall_from: i64,
    /// Accounts created before this moment see the media wall on any plan.
    pub media_wall_open_before: Option<Millis>,
    pub trial_locked: PlatformSet,
}

/// The whole catalogue: trial length, the default plan, the rules and the plans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub trial_days: i64,
    pub default_plan: i64,
    pub rules: Rules,
    pub plans: Vec<Plan>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    #[serde(default)]
    no_xls: Vec<i64>,
    #[serde(default)]
    link_sharing_from: i64,
    #[serde(default)]
    media_wall_from: i64,
    #[serde(default)]
    media_wall_open_before: Option<String>,
    #[serde(default)]
    trial_locked_platforms: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalogue {
    trial_days: i64,
    default_plan: i64,
    rules: RawRules,
    #[serde(rename = "plan")]
    plans: Vec<Plan>,
}

/// Midnight UTC of an ISO date `YYYY-MM-DD`, in milliseconds.
fn date_millis(s: &str) -> Option<Millis> {
    let mut parts = s.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    let days_in = [31, if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&m) || d < 1 || d > days_in[(m - 1) as usize] {
        return None;
    }
    // Days since 1970-01-01 of a proleptic Gregorian date (March-based years).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * crate::limits::DAY_MS)
}

impl Catalogue {
    /// Reads and checks a catalogue; the error says which key is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let raw: RawCatalogue = toml::from_str(text).map_err(|e| e.message().to_string())?;
        if !(1..=365).contains(&raw.trial_days) {
            return Err(format!("trial_days must be between 1 and 365, not {}.", raw.trial_days));
        }
        if raw.plans.is_empty() {
            return Err("the catalogue needs at least one [[plan]].".into());
        }
        for (i, p) in raw.plans.iter().enumerate() {
            if p.number <= 0 {
                return Err(format!("plan {} must have a number above 0.", p.number));
            }
            if raw.plans[..i].iter().any(|q| q.number == p.number) {
                return Err(format!("plan {} appears twice.", p.number));
            }
            if p.name.trim().is_empty() {
                return Err(format!("plan {} needs a name.", p.number));
            }
            if !(1..=100).contains(&p.max_searches) || !(0..=1000).contains(&p.max_ignored) {
                return Err(format!(
                    "plan {}: max_searches must be 1 to 100 and max_ignored 0 to 1000.",
                    p.number
                ));
            }
        }
        if !raw.plans.iter().any(|p| p.number == raw.default_plan) {
            return Err(format!("default_plan {} is not one of the plans.", raw.default_plan));
        }
        let media_wall_open_before = match raw.rules.media_wall_open_before.as_deref() {
            None | Some("") => None,
            Some(s) => Some(date_millis(s).ok_or_else(|| format!("rules.media_wall_open_before must be a date YYYY-MM-DD, not {s:?}."))?),
        };
        let mut trial_locked = PlatformSet::empty();
        for code in &raw.rules.trial_locked_platforms {
            trial_locked.insert(Platform::parse(code).map_err(|_| format!("rules.trial_locked_platforms: unknown platform {code:?}."))?);
        }
        Ok(Self {
            trial_days: raw.trial_days,
            default_plan: raw.default_plan,
            rules: Rules {
                no_xls: raw.rules.no_xls,
                link_sharing_from: raw.rules.link_sharing_from,
                media_wall_from: raw.rules.media_wall_from,
                media_wall_open_before,
                trial_locked,
            },
            plans: raw.plans,
        })
    }

    pub fn plan(&self, number: i64) -> Option<&Plan> {
        self.plans.iter().find(|p| p.number == number)
    }

    /// The plan new accounts get.
    pub fn default(&self) -> &Plan {
        self.plan(self.default_plan).unwrap_or(&self.plans[0])
    }

    /// A trial's length in milliseconds.
    pub fn trial_millis(&self) -> Millis {
        self.trial_days * crate::limits::DAY_MS
    }

    /// What an account may use.
    pub fn features(&self, a: &Account) -> Features {
        let r = &self.rules;
        Features {
            xls: a.is_admin || !r.no_xls.contains(&a.plan),
            link_sharing: a.is_admin || a.plan >= r.link_sharing_from,
            media_wall: a.is_admin
                || a.trial
                || a.plan >= r.media_wall_from
                || r.media_wall_open_before.is_some_and(|t| a.created_at < t),
        }
    }

    /// Whether an account on a trial may not switch `p` on.
    pub fn trial_locked(&self, p: Platform) -> bool {
        self.rules.trial_locked.contains(p)
    }
}

/// What the rules read of an account.
#[derive(Debug, Clone, Copy)]
pub struct Account {
    pub plan: i64,
    pub trial: bool,
    pub is_admin: bool,
    pub created_at: Millis,
}

/// What an account's plan lets it use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    pub xls: bool,
    pub link_sharing: bool,
    pub media_wall: bool,
}

static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();

/// The catalogue in use: the one [`install`]ed at start-up, or the built-in one.
pub fn catalogue() -> &'static Catalogue {
    CATALOGUE.get_or_init(|| Catalogue::parse(BUILT_IN).expect("the built-in plan catalogue parses"))
}

/// Makes `c` the catalogue of this process; false when one was already in use.
pub fn install(c: Catalogue) -> bool {
    CATALOGUE.set(c).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(plan: i64, trial: bool, is_admin: bool) -> Account {
        // Created after the media wall's cut-off.
        Account { plan, trial, is_admin, created_at: date_millis("2024-01-01").unwrap() }
    }

    #[test]
    fn the_built_in_catalogue_follows_the_feature_rules() {
        let c = catalogue();
        let f = |plan, trial, admin| c.features(&account(plan, trial, admin));
        assert_eq!(f(15, false, false), Features { xls: false, link_sharing: false, media_wall: false });
        assert_eq!(f(25, false, false), Features { xls: false, link_sharing: false, media_wall: false });
        assert_eq!(f(32, false, false), Features { xls: true, link_sharing: false, media_wall: true });
        assert_eq!(f(35, false, false), Features { xls: true, link_sharing: true, media_wall: true });
        assert_eq!(f(100, false, false), Features { xls: true, link_sharing: true, media_wall: true });
        assert!(f(15, true, false).media_wall, "a trial sees the media wall");
        assert_eq!(f(15, false, true), Features { xls: true, link_sharing: true, media_wall: true });
        let old = Account { created_at: date_millis("2023-07-31").unwrap(), ..account(15, false, false) };
        assert!(c.features(&old).media_wall, "accounts from before 2023-08-01 keep the media wall");
        let cut = Account { created_at: date_millis("2023-08-01").unwrap(), ..account(15, false, false) };
        assert!(!c.features(&cut).media_wall);
        assert_eq!(c.plan(35).map(|p| p.name.as_str()), Some("Corporate"));
        assert!(c.plan(7).is_none());
        assert_eq!(c.trial_days, 14);
        assert_eq!(c.default().number, 100);
        for p in [Platform::Tiktok, Platform::Facebook, Platform::Youtube] {
            assert!(c.trial_locked(p));
        }
        assert!(!c.trial_locked(Platform::Twitter));
    }

    #[test]
    fn dates_are_midnight_utc() {
        assert_eq!(date_millis("1970-01-01"), Some(0));
        assert_eq!(date_millis("2023-08-01"), Some(1_690_848_000_000));
        assert_eq!(date_millis("2024-02-29"), Some(1_709_164_800_000));
        for bad in ["2023-02-29", "2023-13-01", "2023-00-10", "yesterday", "2023-08"] {
            assert_eq!(date_millis(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_faulty_catalogue_says_what_is_wrong() {
        let with = |from: &str, to: &str| {
            assert!(BUILT_IN.contains(from), "{from}");
            Catalogue::parse(&BUILT_IN.replace(from, to)).unwrap_err()
        };
        assert!(with("trial_days = 14", "trial_days = 0").contains("trial_days"));
        assert!(with("default_plan = 100", "default_plan = 7").contains("default_plan 7"));
        assert!(with("\"tt\", \"fb\"", "\"tt\", \"myspace\"").contains("myspace"));
        assert!(with("media_wall_open_before = \"2023-08-01\"", "media_wall_open_before = \"August\"").contains("media_wall_open_before"));
        assert!(with("number = 25", "number = 15").contains("twice"));
        assert!(with("max_searches = 20", "max_searches = 0").contains("max_searches"));
        assert!(with("link_sharing_from = 35", "link_sharing_from = 35\nvideo_wall = 3").contains("video_wall"));
        assert!(Catalogue::parse("trial_days = ").is_err());
        let custom = Catalogue::parse(&BUILT_IN.replace("trial_days = 14", "trial_days = 30")).unwrap();
        assert_eq!(custom.trial_millis(), 30 * crate::limits::DAY_MS);
    }
}
