//! The tracker search builder: `TrackerCriteria::parse` on rows of terms (the form a user
//! submits), the edit form's rows saved again unchanged, and the compiled matcher against the
//! plain reference matcher on one post.
#![no_main]

use hark_core::criteria::CriteriaInput;
use hark_core::matcher::reference::ReferenceMatcher;
use hark_core::{AccountLimits, MatchSet, Platform, PlatformSet, Post, TrackerCriteria};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let form = hark_fuzz::search_form(text);
    // Limits that keep the AND combinations small (at most 1000).
    let limits = AccountLimits { max_searches: 1000, max_ignored: 1000, trial: false, allowed: PlatformSet::all() };
    let input = CriteriaInput {
        rows: form.rows,
        platforms: PlatformSet::all(),
        subtrackers: form.subtrackers,
        ..Default::default()
    };
    let Ok(criteria) = TrackerCriteria::parse(input, limits, PlatformSet::all()) else { return };

    // The edit form shows the saved search as rows; saving them unchanged keeps the search.
    let again = CriteriaInput {
        rows: criteria.search.rows(),
        platforms: criteria.platforms,
        subtrackers: criteria.subtrackers.clone(),
        ..Default::default()
    };
    let again = TrackerCriteria::parse(again, limits, PlatformSet::all()).expect("a saved search saves again");
    assert_eq!(again, criteria, "saving the edit form unchanged changed the search");

    let _ = criteria.search.display();
    let product: usize = criteria.search.include.iter().map(Vec::len).product();
    assert_eq!(criteria.search.combinations().len(), product);

    let trackers = [(1, &criteria)];
    let post = Post::new(Platform::Twitter, "1", form.post_text, 0);
    let fast = MatchSet::build(&trackers).match_post(&post, None, None);
    let reference = ReferenceMatcher::new(&trackers).match_post(&post, None, None);
    assert_eq!(fast, reference, "the matcher and the reference matcher disagree");
});
