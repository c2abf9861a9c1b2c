//! Everything a tracker collects by, as stored with the tracker and edited on its settings page.

use serde::{Deserialize, Serialize};

use crate::search::{SearchError, SearchInput, SearchRow, TrackerSearch};
use crate::{Code, Platform, PlatformSet};

/// Account lists per platform; `web` covers news, blogs and forums.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AccountLists {
    pub twt: Vec<String>,
    pub ig: Vec<String>,
    pub yt: Vec<String>,
    pub fb: Vec<String>,
    pub tt: Vec<String>,
    pub web: Vec<String>,
    pub bsky: Vec<String>,
    pub mastodon: Vec<String>,
}

impl AccountLists {
    pub fn for_platform(&self, p: Platform) -> &[String] {
        match p {
            Platform::Twitter => &self.twt,
            Platform::Instagram => &self.ig,
            Platform::Youtube => &self.yt,
            Platform::Facebook => &self.fb,
            Platform::Tiktok => &self.tt,
            Platform::News | Platform::Blogs | Platform::Forums => &self.web,
            Platform::Bluesky => &self.bsky,
            Platform::Mastodon => &self.mastodon,
        }
    }

    pub fn is_empty(&self) -> bool {
        [&self.twt, &self.ig, &self.yt, &self.fb, &self.tt, &self.web, &self.bsky, &self.mastodon].iter().all(|l| l.is_empty())
    }

    fn cleaned(&self) -> Self {
        let clean = |l: &Vec<String>| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for name in l {
                let n = name.trim().trim_start_matches('@').trim().to_string();
                if !n.is_empty() && n.chars().count() <= 200 && !out.contains(&n) {
                    out.push(n);
                }
            }
            out
        };
        Self {
            twt: clean(&self.twt),
            ig: clean(&self.ig),
            yt: clean(&self.yt),
            fb: clean(&self.fb),
            tt: clean(&self.tt),
            web: clean(&self.web),
            bsky: clean(&self.bsky),
            mastodon: clean(&self.mastodon),
        }
    }
}

/// A listed account, with the platform id when the list entry carries a `name:::id` suffix.
pub fn split_account(entry: &str) -> (&str, Option<&str>) {
    match entry.split_once(":::") {
        Some((name, id)) if !id.is_empty() => (name, Some(id)),
        Some((name, _)) => (name, None),
        None => (entry, None),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackerCriteria {
    pub search: TrackerSearch,
    pub platforms: PlatformSet,
    #[serde(default)]
    pub exclude_retweets: bool,
    #[serde(default)]
    pub verified_users: bool,
    #[serde(default)]
    pub verified_tiktok_users: bool,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub country_locations: Vec<String>,
    #[serde(default)]
    pub volume_limit: Option<i64>,
    #[serde(default)]
    pub usernames: AccountLists,
    #[serde(default)]
    pub ignore: AccountLists,
    #[serde(default)]
    pub subtrackers: Vec<String>,
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Words that force a post's sentiment for this tracker; edited on the sentiment page, not
    /// with the search, so a search edit keeps them.
    #[serde(default, skip_serializing_if = "SentimentKeywords::is_empty")]
    pub sentiment_keywords: SentimentKeywords,
}

/// A tracker's custom sentiment keyword lists.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SentimentKeywords {
    pub positive: Vec<String>,
    pub neutral: Vec<String>,
    pub negative: Vec<String>,
}

pub const MAX_SENTIMENT_KEYWORDS: usize = 500;
pub const MAX_SENTIMENT_KEYWORD_CHARS: usize = 100;

impl SentimentKeywords {
    pub fn is_empty(&self) -> bool {
        self.positive.is_empty() && self.neutral.is_empty() && self.negative.is_empty()
    }

    /// Trims entries, drops blanks and repeats, and keeps a keyword in one list only: the last
    /// list that names it wins (a keyword moved into a list leaves the others). Checks the limits.
    pub fn cleaned(&self) -> Result<SentimentKeywords, SearchError> {
        let norm = |k: &str| k.trim().to_lowercase();
        let mut owner: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let lists = [&self.positive, &self.neutral, &self.negative];
        for (i, list) in lists.iter().enumerate() {
            for k in list.iter() {
                let k = norm(k);
                if k.chars().count() > MAX_SENTIMENT_KEYWORD_CHARS {
                    return Err(SearchError {
                        field: "keywords",
                        code: Code::KeywordTooLong,
                        message: format!("A keyword has at most {MAX_SENTIMENT_KEYWORD_CHARS} characters."),
                    });
                }
                if !k.is_empty() {
                    owner.insert(k, i);
                }
            }
        }
        if owner.len() > MAX_SENTIMENT_KEYWORDS {
            return Err(SearchError {
                field: "keywords",
                code: Code::TooManyKeywords,
                message: format!("A tracker has at most {MAX_SENTIMENT_KEYWORDS} sentiment keywords."),
            });
        }
        let mut out = [Vec::new(), Vec::new(), Vec::new()];
        for (i, list) in lists.iter().enumerate() {
            for k in list.iter() {
                let n = norm(k);
                if owner.get(&n) == Some(&i) {
                    owner.remove(&n);
                    out[i].push(k.trim().to_string());
                }
            }
        }
        let [positive, neutral, negative] = out;
        Ok(SentimentKeywords { positive, neutral, negative })
    }
}

/// What a client submits to create or edit a tracker.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CriteriaInput {
    pub rows: Vec<SearchRow>,
    pub platforms: PlatformSet,
    pub exclude_retweets: bool,
    pub verified_users: bool,
    pub verified_tiktok_users: bool,
    pub language: Option<String>,
    pub country_locations: Vec<String>,
    pub volume_limit: Option<i64>,
    pub usernames: AccountLists,
    pub ignore: AccountLists,
    pub subtrackers: Vec<String>,
    pub highlights: Vec<String>,
}

/// The limits of the account the tracker belongs to.
#[derive(Debug, Clone, Copy)]
pub struct AccountLimits {
    pub max_searches: i64,
    pub max_ignored: i64,
    pub trial: bool,
    /// Platforms the account may switch on.
    pub allowed: PlatformSet,
}

pub const MAX_SUBTRACKERS: usize = 20;
pub const MAX_HIGHLIGHTS: usize = 50;

impl TrackerCriteria {
    /// Validates a submission. `current` is the tracker's platforms before an edit: a trial account
    /// keeps a locked platform it already had but cannot switch one on.
    pub fn parse(
        input: CriteriaInput,
        limits: AccountLimits,
        current: PlatformSet,
    ) -> Result<Self, Vec<SearchError>> {
        let search = TrackerSearch::parse(&SearchInput {
            rows: &input.rows,
            platforms: input.platforms,
            max_searches: limits.max_searches,
            max_ignored: limits.max_ignored,
        });
        let mut errors = match &search {
            Ok(_) => Vec::new(),
            Err(e) => e.clone(),
        };
        for p in input.platforms.iter() {
            let newly_on = !current.contains(p);
            if newly_on && (!limits.allowed.contains(p) || (limits.trial && crate::plans::catalogue().trial_locked(p))) {
                errors.push(SearchError {
                    field: "platforms",
                    code: Code::PlatformLocked,
                    message: format!("listening for specified {} accounts is not available on trial", p.label()),
                });
            }
        }
        let language = match input.language.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(l) if l.len() == 2 && l.bytes().all(|b| b.is_ascii_alphabetic()) => Some(l.to_ascii_lowercase()),
            Some(_) => {
                errors.push(SearchError {
                    field: "language",
                    code: Code::InvalidLanguage,
                    message: "Language must be a two-letter ISO 639-1 code.".into(),
                });
                None
            }
        };
        let mut countries = Vec::new();
        for c in &input.country_locations {
            let c = c.trim();
            if c.is_empty() {
                continue;
            }
            if c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()) {
                let up = c.to_ascii_uppercase();
                if !countries.contains(&up) {
                    countries.push(up);
                }
            } else {
                errors.push(SearchError {
                    field: "countryLocations",
                    code: Code::InvalidCountry,
                    message: format!("'{c}' is not a two-letter country code."),
                });
            }
        }
        if let Some(v) = input.volume_limit {
            if v <= 0 {
                errors.push(SearchError {
                    field: "volumeLimit",
                    code: Code::InvalidVolumeLimit,
                    message: "Volume limit must be a positive number of posts.".into(),
                });
            }
        }
        let clean_list = |l: &[String], max: usize| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for t in l.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
                if !out.iter().any(|o| o.eq_ignore_ascii_case(t)) && t.chars().count() <= 200 {
                    out.push(t.to_string());
                }
            }
            out.truncate(max);
            out
        };
        let subtrackers = clean_list(&input.subtrackers, MAX_SUBTRACKERS);
        if input.subtrackers.iter().filter(|t| !t.trim().is_empty()).count() > MAX_SUBTRACKERS {
            errors.push(SearchError {
                field: "subtrackers",
                code: Code::TooManySubtrackers,
                message: format!("A tracker has at most {MAX_SUBTRACKERS} subtrackers."),
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self {
            search: search.unwrap_or_default(),
            platforms: input.platforms,
            exclude_retweets: input.exclude_retweets && input.platforms.contains(Platform::Twitter),
            verified_users: input.verified_users,
            verified_tiktok_users: input.verified_tiktok_users,
            language,
            country_locations: countries,
            volume_limit: input.volume_limit,
            usernames: input.usernames.cleaned(),
            ignore: input.ignore.cleaned(),
            subtrackers,
            highlights: clean_list(&input.highlights, MAX_HIGHLIGHTS),
            sentiment_keywords: SentimentKeywords::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchRowKind;

    fn limits() -> AccountLimits {
        AccountLimits { max_searches: 5, max_ignored: 5, trial: false, allowed: PlatformSet::all() }
    }

    fn input(platforms: &[Platform]) -> CriteriaInput {
        CriteriaInput {
            rows: vec![SearchRow { kind: SearchRowKind::Include, searches: vec!["nike".into()] }],
            platforms: platforms.iter().copied().collect(),
            ..Default::default()
        }
    }

    #[test]
    fn exclude_retweets_needs_twitter() {
        let mut i = input(&[Platform::Instagram]);
        i.exclude_retweets = true;
        assert!(!TrackerCriteria::parse(i, limits(), PlatformSet::empty()).unwrap().exclude_retweets);
        let mut i = input(&[Platform::Twitter]);
        i.exclude_retweets = true;
        assert!(TrackerCriteria::parse(i, limits(), PlatformSet::empty()).unwrap().exclude_retweets);
    }

    #[test]
    fn trial_cannot_switch_on_locked_platforms() {
        let l = AccountLimits { trial: true, ..limits() };
        let errs = TrackerCriteria::parse(input(&[Platform::Tiktok]), l, PlatformSet::empty()).unwrap_err();
        assert_eq!(errs[0].code, "platform_locked");
        let kept: PlatformSet = [Platform::Tiktok].into_iter().collect();
        assert!(TrackerCriteria::parse(input(&[Platform::Tiktok]), l, kept).is_ok());
        assert!(TrackerCriteria::parse(input(&[Platform::Twitter]), l, PlatformSet::empty()).is_ok());
    }

    #[test]
    fn lists_are_cleaned() {
        let mut i = input(&[Platform::Twitter]);
        i.usernames.twt = vec![" @nike ".into(), "nike".into(), "".into()];
        i.country_locations = vec!["us".into(), " ".into()];
        i.subtrackers = vec!["air max".into(), " ".into(), "AIR MAX".into()];
        let c = TrackerCriteria::parse(i, limits(), PlatformSet::empty()).unwrap();
        assert_eq!(c.usernames.twt, vec!["nike".to_string()]);
        assert_eq!(c.country_locations, vec!["US".to_string()]);
        assert_eq!(c.subtrackers, vec!["air max".to_string()]);
    }

    #[test]
    fn bad_values_are_reported() {
        let mut i = input(&[Platform::Twitter]);
        i.language = Some("english".into());
        i.country_locations = vec!["USA".into()];
        i.volume_limit = Some(0);
        let codes: Vec<_> = TrackerCriteria::parse(i, limits(), PlatformSet::empty())
            .unwrap_err()
            .into_iter()
            .map(|e| e.code)
            .collect();
        assert_eq!(codes, vec!["invalid_language", "invalid_country", "invalid_volume_limit"]);
    }

    #[test]
    fn account_ids_split() {
        assert_eq!(split_account("nike:::123"), ("nike", Some("123")));
        assert_eq!(split_account("nike"), ("nike", None));
    }
}
