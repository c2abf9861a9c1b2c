//! The straightforward way to match: for each tracker in turn, for each of its terms, search the
//! normalised text. It is the baseline the benchmark compares [`super::MatchSet`] with, and it must
//! give the same answers (the tests check).

use crate::post::Post;
use crate::criteria::TrackerCriteria;
use crate::query::CompiledTracker;
use crate::text::NormText;

use super::{normalize_post, TrackerMatch};

pub struct NaiveMatcher {
    trackers: Vec<CompiledTracker>,
    text: NormText,
}

impl NaiveMatcher {
    pub fn new(trackers: &[(i64, &TrackerCriteria)]) -> Self {
        Self { trackers: trackers.iter().filter_map(|(id, c)| c.compile(*id).ok()).collect(), text: NormText::new() }
    }

    pub fn match_post(&mut self, post: &Post, country: Option<&str>, lang: Option<&str>) -> Vec<TrackerMatch> {
        normalize_post(post, &mut self.text);
        let text = &self.text;
        let mut out = Vec::new();
        for t in &self.trackers {
            let by_terms = t.include_ok(|term| term.occurs_in(text));
            if !by_terms && !t.accounts.iter().any(|a| a.matches(post.platform, &post.author)) {
                continue;
            }
            if t.exclude.iter().any(|term| term.occurs_in(text)) || !t.filters.allows(post, country, lang) {
                continue;
            }
            let mut subtrackers = 0u64;
            for (i, s) in t.subtrackers.iter().enumerate() {
                if s.as_ref().is_some_and(|s| s.occurs_in(text)) {
                    subtrackers |= 1 << i;
                }
            }
            out.push(TrackerMatch { tracker_id: t.id, subtrackers });
        }
        out.sort_unstable();
        out
    }
}
