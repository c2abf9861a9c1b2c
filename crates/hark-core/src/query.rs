//! The compiled form of a tracker's criteria ([`TrackerCriteria`]), shared by the matchers.
//!
//! Term semantics (documented once here, tested in `matcher`):
//! - Text and terms are folded and tokenised by [`crate::text`]: case, width and diacritics do not
//!   matter, and terms match whole words only (`nike` does not match `nikes`).
//! - A phrase matches the same words in a row, whatever spaces or punctuation sit between them
//!   (`coca-cola` matches `Coca Cola`).
//! - A plain term also matches its tagged forms: `nike` matches `#nike`, `@nike` and `$nike`, as
//!   in most listening tools. A tagged term matches only that form: `#nike` matches `#Nike` but
//!   not a plain `nike`; likewise `@name` and `$CASH`.
//! - A post is matched on its title, text and quoted text; a phrase never spans two of them.
//! - Terms that fold to no word at all (only punctuation or emoji) can never match.

use std::collections::BTreeSet;

use crate::post::{Author, Post};
use crate::text::{NormText, Sigil};
use crate::criteria::{split_account, AccountLists, TrackerCriteria};
use crate::{Invalid, Platform, PlatformSet};
use crate::Code;

/// The most include rows and subtrackers a compiled tracker may have (one bit each).
pub const MAX_ROWS: usize = 64;
pub const MAX_SUBTRACKER_BITS: usize = 64;

/// Every entry of account lists with the platform group it belongs to (web entries under
/// [`Platform::News`]).
pub fn account_entries(lists: &AccountLists) -> impl Iterator<Item = (Platform, &str)> {
    [
        (Platform::Twitter, &lists.twt),
        (Platform::Instagram, &lists.ig),
        (Platform::Youtube, &lists.yt),
        (Platform::Facebook, &lists.fb),
        (Platform::Tiktok, &lists.tt),
        (Platform::News, &lists.web),
    ]
    .into_iter()
    .flat_map(|(p, l)| l.iter().map(move |s| (p, s.as_str())))
}

/// The platform whose account list applies to a post of `p` (web platforms share one list).
pub fn account_group(p: Platform) -> Platform {
    if p.is_web() {
        Platform::News
    } else {
        p
    }
}

/// A term ready to search for: `pattern` is its tokens as they appear in [`NormText`]
/// (`" nike air "`), `sigils` the tags required at token offsets within the pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CompiledTerm {
    pub pattern: String,
    pub sigils: Vec<(u32, Sigil)>,
}

impl CompiledTerm {
    /// `None` when the term has no word to match.
    pub fn new(term: &str) -> Option<Self> {
        let n = NormText::of(term);
        if n.is_empty() {
            return None;
        }
        Some(Self { pattern: n.as_str().to_string(), sigils: n.sigils().to_vec() })
    }

    /// Whether the occurrence of `pattern` at byte `start` of `text` carries the required tags.
    #[inline]
    pub fn sigils_ok(&self, text: &NormText, start: usize) -> bool {
        self.sigils.iter().all(|(off, s)| text.sigil_at(start + *off as usize) == Some(*s))
    }

    /// Simple search used by the naive matcher: every occurrence, then the tags. Occurrences
    /// overlap by the space between tokens, so the search restarts right after each start.
    pub fn occurs_in(&self, text: &NormText) -> bool {
        let hay = text.as_str();
        let mut from = 0;
        while let Some(i) = hay.get(from..).and_then(|h| h.find(self.pattern.as_str())) {
            let at = from + i;
            if self.sigils_ok(text, at) {
                return true;
            }
            from = at + 1;
        }
        false
    }
}

/// An account list entry: a username and/or id, compared case-insensitively.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountRef {
    pub group: Platform,
    /// Lowercased, without '@'.
    pub name: String,
    pub id: Option<String>,
}

impl AccountRef {
    pub fn parse(group: Platform, entry: &str) -> Option<Self> {
        let (name, id) = split_account(entry);
        let id = id.map(|i| i.trim().to_lowercase()).filter(|i| !i.is_empty());
        let name = name.trim().trim_start_matches('@').trim().to_lowercase();
        if name.is_empty() && id.is_none() {
            return None;
        }
        Some(Self { group, name, id })
    }

    /// The lookup keys of this entry: the name (which may also be an id) and the id.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str()).filter(|n| !n.is_empty()).chain(self.id.as_deref())
    }

    pub fn matches(&self, platform: Platform, author: &Author) -> bool {
        if account_group(platform) != self.group {
            return false;
        }
        let username = author.username.trim_start_matches('@');
        (!self.name.is_empty() && (username.to_lowercase() == self.name || author.id.to_lowercase() == self.name))
            || self.id.as_deref().is_some_and(|id| author.id.to_lowercase() == id)
    }
}

/// The post-level conditions, checked after terms (or an account) selected a tracker.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PostFilters {
    pub platforms: PlatformSet,
    pub exclude_retweets: bool,
    pub verified_users: bool,
    pub verified_tiktok_users: bool,
    /// Primary language subtag, lowercase.
    pub language: Option<String>,
    /// Uppercase alpha-2 codes.
    pub countries: Vec<String>,
    pub ignore: Vec<AccountRef>,
}

/// The primary subtag of a language code, lowercase (`pt-BR` → `pt`).
pub fn primary_language(code: &str) -> String {
    code.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase()
}

/// An uppercase alpha-2 country code; `UK` is taken as `GB`.
pub fn country_code(code: &str) -> String {
    let c = code.trim().to_ascii_uppercase();
    if c == "UK" {
        "GB".into()
    } else {
        c
    }
}

impl PostFilters {
    /// Whether the post passes. The language is the detected one, else the platform's hint; a
    /// tracker with a language drops posts whose language is unknown. The country is the
    /// enriched one; the country filter applies only to platforms that carry a location, and
    /// drops posts from those whose country is unknown.
    pub fn allows(&self, post: &Post, country: Option<&str>, lang: Option<&str>) -> bool {
        if !self.platforms.contains(post.platform) {
            return false;
        }
        if self.exclude_retweets && post.flags.is_retweet {
            return false;
        }
        let needs_verified = match post.platform {
            Platform::Tiktok => self.verified_tiktok_users,
            Platform::Twitter | Platform::Instagram | Platform::Youtube | Platform::Facebook => self.verified_users,
            // Neither carries a verification mark.
            Platform::News | Platform::Blogs | Platform::Forums | Platform::Bluesky | Platform::Mastodon => false,
        };
        if needs_verified && !post.author.verified {
            return false;
        }
        if let Some(want) = &self.language {
            match lang.or(post.lang.as_deref()) {
                Some(l) if primary_language(l) == *want => {}
                _ => return false,
            }
        }
        if !self.countries.is_empty() && post.platform.bears_location() {
            match country {
                Some(c) if self.countries.contains(&country_code(c)) => {}
                _ => return false,
            }
        }
        !self.ignore.iter().any(|a| a.matches(post.platform, &post.author))
    }
}

/// A tracker's criteria compiled for matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledTracker {
    pub id: i64,
    /// Include rows: every row needs one of its terms. A row whose terms all fold to nothing
    /// is kept empty and so can never be satisfied.
    pub include: Vec<Vec<CompiledTerm>>,
    pub exclude: Vec<CompiledTerm>,
    /// By subtracker index; `None` for a term that can never match.
    pub subtrackers: Vec<Option<CompiledTerm>>,
    /// Accounts collected from.
    pub accounts: Vec<AccountRef>,
    pub filters: PostFilters,
    pub volume_limit: Option<i64>,
}

impl CompiledTracker {
    /// Whether the include rows are satisfied by the terms `has` says are present.
    pub fn include_ok(&self, mut has: impl FnMut(&CompiledTerm) -> bool) -> bool {
        !self.include.is_empty() && self.include.iter().all(|row| row.iter().any(&mut has))
    }
}

fn accounts(lists: &AccountLists) -> Vec<AccountRef> {
    let set: BTreeSet<AccountRef> = account_entries(lists).filter_map(|(p, e)| AccountRef::parse(p, e)).collect();
    set.into_iter().collect()
}

impl TrackerCriteria {
    pub fn compile(&self, id: i64) -> Result<CompiledTracker, Invalid> {
        if self.search.include.len() > MAX_ROWS {
            return Err(Invalid::new(Code::TooManyRows, format!("A search may have at most {MAX_ROWS} include rows.")));
        }
        if self.subtrackers.len() > MAX_SUBTRACKER_BITS {
            return Err(Invalid::new(
                Code::TooManySubtrackers,
                format!("A tracker may have at most {MAX_SUBTRACKER_BITS} subtrackers."),
            ));
        }
        let terms = |ts: &[String]| -> Vec<CompiledTerm> {
            let set: BTreeSet<CompiledTerm> = ts.iter().filter_map(|t| CompiledTerm::new(t)).collect();
            set.into_iter().collect()
        };
        Ok(CompiledTracker {
            id,
            include: self.search.include.iter().map(|row| terms(row)).collect(),
            exclude: terms(&self.search.exclude),
            subtrackers: self.subtrackers.iter().map(|t| CompiledTerm::new(t)).collect(),
            accounts: accounts(&self.usernames),
            filters: PostFilters {
                platforms: self.platforms,
                exclude_retweets: self.exclude_retweets,
                verified_users: self.verified_users,
                verified_tiktok_users: self.verified_tiktok_users,
                language: self.language.as_deref().map(primary_language).filter(|l| !l.is_empty()),
                countries: self
                    .country_locations
                    .iter()
                    .map(|c| country_code(c))
                    .filter(|c| !c.is_empty())
                    .collect(),
                ignore: accounts(&self.ignore),
            },
            volume_limit: self.volume_limit,
        })
    }
}

/// Criteria with every option off, on all platforms, for tests.
#[cfg(test)]
pub(crate) fn blank_criteria() -> TrackerCriteria {
    TrackerCriteria {
        search: Default::default(),
        platforms: PlatformSet::all(),
        exclude_retweets: false,
        verified_users: false,
        verified_tiktok_users: false,
        language: None,
        country_locations: Vec::new(),
        volume_limit: None,
        usernames: AccountLists::default(),
        ignore: AccountLists::default(),
        subtrackers: Vec::new(),
        highlights: Vec::new(),
        sentiment_keywords: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_terms_to_patterns() {
        let t = CompiledTerm::new("  Coca-Cola ").unwrap();
        assert_eq!(t.pattern, " coca cola ");
        assert!(t.sigils.is_empty());
        let t = CompiledTerm::new("#Nike").unwrap();
        assert_eq!(t.pattern, " nike ");
        assert_eq!(t.sigils, vec![(1, Sigil::Hash)]);
        assert!(CompiledTerm::new("!!! 🔥").is_none());
    }

    #[test]
    fn criteria_deserialize_with_defaults() {
        let c: TrackerCriteria = serde_json::from_str(
            r#"{"search":{"include":[["nike"]],"exclude":[]},"platforms":{"twt":1},
                "excludeRetweets":true,"usernames":{"twt":["@Nike:::123"]},"countryLocations":["uk"]}"#,
        )
        .unwrap();
        assert!(c.exclude_retweets);
        let ct = c.compile(7).unwrap();
        assert_eq!(ct.accounts, vec![AccountRef { group: Platform::Twitter, name: "nike".into(), id: Some("123".into()) }]);
        assert_eq!(ct.filters.countries, vec!["GB".to_string()]);
    }

    #[test]
    fn too_many_rows_is_rejected() {
        let mut c = blank_criteria();
        c.search.include = (0..65).map(|i| vec![format!("t{i}")]).collect();
        assert_eq!(c.compile(1).unwrap_err().code, "too_many_rows");
        c.search.include.truncate(64);
        c.subtrackers = (0..65).map(|i| format!("s{i}")).collect();
        assert_eq!(c.compile(1).unwrap_err().code, "too_many_subtrackers");
    }

    #[test]
    fn accounts_match_by_name_or_id() {
        let a = AccountRef::parse(Platform::Twitter, "@Nike:::99").unwrap();
        let mut author = Author { username: "NIKE".into(), ..Default::default() };
        assert!(a.matches(Platform::Twitter, &author));
        assert!(!a.matches(Platform::Instagram, &author));
        author.username = "other".into();
        author.id = "99".into();
        assert!(a.matches(Platform::Twitter, &author));
        let web = AccountRef::parse(Platform::News, "Reuters").unwrap();
        let author = Author { username: "reuters".into(), ..Default::default() };
        assert!(web.matches(Platform::Blogs, &author));
        assert!(AccountRef::parse(Platform::Twitter, " @ ").is_none());
    }

    #[test]
    fn filters_apply() {
        let mut f = PostFilters { platforms: PlatformSet::all(), ..Default::default() };
        let mut p = Post::new(Platform::Twitter, "1", "x", 0);
        assert!(f.allows(&p, None, None));
        f.exclude_retweets = true;
        p.flags.is_retweet = true;
        assert!(!f.allows(&p, None, None));
        p.flags.is_retweet = false;
        f.verified_users = true;
        assert!(!f.allows(&p, None, None));
        p.author.verified = true;
        assert!(f.allows(&p, None, None));
        f.language = Some("pt".into());
        assert!(!f.allows(&p, None, None));
        assert!(f.allows(&p, None, Some("pt-BR")));
        p.lang = Some("PT".into());
        assert!(f.allows(&p, None, None));
        f.countries = vec!["GB".into()];
        assert!(!f.allows(&p, None, None));
        assert!(f.allows(&p, Some("uk"), None));
        // Youtube carries no location: the country filter does not apply.
        p.platform = Platform::Youtube;
        assert!(f.allows(&p, None, None));
        // Web sources are never held to the verified rule.
        p.platform = Platform::News;
        p.author.verified = false;
        assert!(f.allows(&p, Some("GB"), None));
        f.platforms = PlatformSet::empty();
        assert!(!f.allows(&p, Some("GB"), None));
    }
}
