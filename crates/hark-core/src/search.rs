//! The search builder of a tracker (tracker-lifecycle.md section 5): include rows ANDed, the terms
//! of a row ORed, exclude rows, and the limits on how many searches and ignored terms a user has.

use serde::{Deserialize, Serialize};

use crate::{limits::TERM_MAX, Code, PlatformSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SearchRowKind {
    #[serde(rename = "+")]
    Include,
    #[serde(rename = "-")]
    Exclude,
}

/// One row of the builder as the form sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchRow {
    #[serde(rename = "type")]
    pub kind: SearchRowKind,
    pub searches: Vec<String>,
}

/// What the form submits: the rows and the platforms, plus the user's limits.
#[derive(Debug, Clone)]
pub struct SearchInput<'a> {
    pub rows: &'a [SearchRow],
    pub platforms: PlatformSet,
    pub max_searches: i64,
    pub max_ignored: i64,
}

/// A validated search: include rows (AND of rows, OR within a row) and excluded terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TrackerSearch {
    pub include: Vec<Vec<String>>,
    pub exclude: Vec<String>,
}

/// One failed rule; `field` says where the form shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchError {
    pub field: &'static str,
    pub code: Code,
    pub message: String,
}

pub const MSG_NO_TERM: &str = "At least one search term must be entered.";
pub const MSG_NO_PLATFORM: &str = "At least one platform must be selected.";

/// Trims a term; a term longer than one character loses a leading '@', as often as it has one
/// (`@@nike` is `nike`), so that a normalized term normalizes to itself.
pub fn normalize_term(term: &str) -> String {
    let mut t = term.trim();
    while t.chars().nth(1).is_some() {
        match t.strip_prefix('@') {
            Some(rest) => t = rest.trim(),
            None => break,
        }
    }
    t.to_string()
}

/// Search count: the larger of the product and the sum of the non-blank terms per include row.
pub fn search_count(include: &[Vec<String>]) -> i64 {
    if include.is_empty() {
        return 0;
    }
    let sizes: Vec<i64> = include.iter().map(|r| r.len() as i64).collect();
    let product = sizes.iter().try_fold(1i64, |acc, n| acc.checked_mul(*n)).unwrap_or(i64::MAX);
    let sum: i64 = sizes.iter().sum();
    product.max(sum)
}

impl TrackerSearch {
    /// Applies every rule of the builder. Blank terms are dropped and empty rows removed first.
    pub fn parse(input: &SearchInput<'_>) -> Result<Self, Vec<SearchError>> {
        let mut search = Self::default();
        let mut errors = Vec::new();
        for row in input.rows {
            let terms: Vec<String> = dedupe(row.searches.iter().map(|t| normalize_term(t)).filter(|t| !t.is_empty()));
            if terms.is_empty() {
                continue;
            }
            if terms.iter().any(|t| t.chars().count() > TERM_MAX) {
                errors.push(SearchError {
                    field: "search",
                    code: Code::SearchTermTooLong,
                    message: format!("A search term must be at most {TERM_MAX} characters."),
                });
            }
            match row.kind {
                SearchRowKind::Include => search.include.push(terms),
                SearchRowKind::Exclude => search.exclude.extend(terms),
            }
        }
        search.exclude = dedupe(search.exclude.into_iter());
        if search.include.is_empty() {
            errors.push(SearchError { field: "search", code: Code::SearchTermsRequired, message: MSG_NO_TERM.into() });
        }
        if input.platforms.is_empty() {
            errors.push(SearchError { field: "platforms", code: Code::PlatformsRequired, message: MSG_NO_PLATFORM.into() });
        }
        let count = search_count(&search.include);
        if count > input.max_searches {
            errors.push(SearchError {
                field: "search",
                code: Code::TooManySearches,
                message: format!(
                    "Your plan allows {} {}; this search makes {count}.",
                    input.max_searches,
                    if input.max_searches == 1 { "search" } else { "searches" }
                ),
            });
        }
        if search.exclude.len() as i64 > input.max_ignored {
            errors.push(SearchError {
                field: "search",
                code: Code::TooManyIgnored,
                message: format!(
                    "Your plan allows {} excluded {}.",
                    input.max_ignored,
                    if input.max_ignored == 1 { "term" } else { "terms" }
                ),
            });
        }
        if errors.is_empty() {
            Ok(search)
        } else {
            Err(errors)
        }
    }

    pub fn search_count(&self) -> i64 {
        search_count(&self.include)
    }

    pub fn ignore_count(&self) -> i64 {
        self.exclude.len() as i64
    }

    pub fn first_term(&self) -> Option<&str> {
        self.include.first().and_then(|r| r.first()).map(String::as_str)
    }

    /// Every AND combination of the include rows (the numbered include phrases `dnskip_1..n`).
    pub fn combinations(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = vec![vec![]];
        for row in &self.include {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    row.iter().map(move |t| {
                        let mut p = prefix.clone();
                        p.push(t.clone());
                        p
                    })
                })
                .collect();
        }
        if self.include.is_empty() {
            return vec![];
        }
        out
    }

    /// The builder rows this search shows in the edit form.
    pub fn rows(&self) -> Vec<SearchRow> {
        let mut rows: Vec<SearchRow> = self
            .include
            .iter()
            .map(|r| SearchRow { kind: SearchRowKind::Include, searches: r.clone() })
            .collect();
        if !self.exclude.is_empty() {
            rows.push(SearchRow { kind: SearchRowKind::Exclude, searches: self.exclude.clone() });
        }
        rows
    }

    /// A one-line human form: `(a OR b) AND c -x`.
    pub fn display(&self) -> String {
        let mut parts: Vec<String> = self
            .include
            .iter()
            .map(|r| if r.len() == 1 { r[0].clone() } else { format!("({})", r.join(" OR ")) })
            .collect::<Vec<_>>();
        let inc = parts.join(" AND ");
        parts = self.exclude.iter().map(|t| format!("-{t}")).collect();
        if parts.is_empty() {
            inc
        } else {
            format!("{inc} {}", parts.join(" "))
        }
    }
}

fn dedupe(terms: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in terms {
        if !out.iter().any(|o| o.to_lowercase() == t.to_lowercase()) {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Platform;

    fn row(kind: SearchRowKind, terms: &[&str]) -> SearchRow {
        SearchRow { kind, searches: terms.iter().map(|s| s.to_string()).collect() }
    }

    fn input(rows: &[SearchRow]) -> SearchInput<'_> {
        SearchInput { rows, platforms: [Platform::Twitter].into_iter().collect(), max_searches: 5, max_ignored: 5 }
    }

    #[test]
    fn blank_terms_and_empty_rows_are_dropped() {
        let rows = [
            row(SearchRowKind::Include, &["  nike ", "", "  "]),
            row(SearchRowKind::Include, &["", ""]),
            row(SearchRowKind::Exclude, &[" ", "adidas"]),
        ];
        let s = TrackerSearch::parse(&input(&rows)).unwrap();
        assert_eq!(s.include, vec![vec!["nike".to_string()]]);
        assert_eq!(s.exclude, vec!["adidas".to_string()]);
        assert_eq!(s.ignore_count(), 1);
    }

    #[test]
    fn count_is_max_of_product_and_sum() {
        let v = |n: usize| (0..n).map(|i| format!("t{i}")).collect::<Vec<_>>();
        assert_eq!(search_count(&[v(2), v(2)]), 4);
        assert_eq!(search_count(&[v(3), v(1)]), 4);
        assert_eq!(search_count(&[v(3), v(2)]), 6);
        assert_eq!(search_count(&[v(1)]), 1);
        assert_eq!(search_count(&[]), 0);
    }

    #[test]
    fn both_required_messages_are_reported() {
        let rows = [row(SearchRowKind::Include, &[" "])];
        let errs = TrackerSearch::parse(&SearchInput {
            rows: &rows,
            platforms: PlatformSet::empty(),
            max_searches: 5,
            max_ignored: 5,
        })
        .unwrap_err();
        let msgs: Vec<_> = errs.iter().map(|e| e.message.as_str()).collect();
        assert!(msgs.contains(&MSG_NO_TERM));
        assert!(msgs.contains(&MSG_NO_PLATFORM));
    }

    #[test]
    fn limits_are_enforced() {
        let rows = [row(SearchRowKind::Include, &["a", "b", "c"]), row(SearchRowKind::Include, &["d", "e"])];
        let errs = TrackerSearch::parse(&input(&rows)).unwrap_err();
        assert_eq!(errs[0].code, "too_many_searches");
        let rows = [row(SearchRowKind::Include, &["a"]), row(SearchRowKind::Exclude, &["1", "2", "3", "4", "5", "6"])];
        assert_eq!(TrackerSearch::parse(&input(&rows)).unwrap_err()[0].code, "too_many_ignored");
    }

    #[test]
    fn leading_at_is_stripped_only_when_longer_than_one() {
        assert_eq!(normalize_term(" @nike"), "nike");
        assert_eq!(normalize_term("@"), "@");
        assert_eq!(normalize_term("#nike"), "#nike");
    }

    #[test]
    fn a_saved_search_saves_again_unchanged() {
        // Found by the search_query fuzz target: `@@nike` was saved as `@nike`, which the edit
        // form then saved as `nike` (a tagged term became a plain one without an edit).
        assert_eq!(normalize_term("@@nike"), "nike");
        assert_eq!(normalize_term(" @ @nike"), "nike");
        assert_eq!(normalize_term("@@"), "@");
        assert_eq!(normalize_term("@@\0"), "\0");
        let rows = [row(SearchRowKind::Include, &["@@nike", "@@\0\0"]), row(SearchRowKind::Exclude, &["@@x"])];
        let s = TrackerSearch::parse(&input(&rows)).unwrap();
        assert_eq!(TrackerSearch::parse(&input(&s.rows())).unwrap(), s);
    }

    #[test]
    fn combinations_follow_rows() {
        let rows = [row(SearchRowKind::Include, &["a", "b"]), row(SearchRowKind::Include, &["c"])];
        let s = TrackerSearch::parse(&input(&rows)).unwrap();
        assert_eq!(s.combinations(), vec![vec!["a".to_string(), "c".into()], vec!["b".into(), "c".into()]]);
        assert_eq!(s.display(), "(a OR b) AND c");
        assert_eq!(s.rows().len(), 2);
    }
}
