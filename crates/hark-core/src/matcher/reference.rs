//! The slow, plain matcher the property tests hold [`super::MatchSet`] to. It tokenises the post
//! with [`crate::text::tokenize`] (not the scanned form the fast matcher uses) and checks every
//! term of every tracker literally, token by token.

use crate::post::Post;
use crate::criteria::TrackerCriteria;
use crate::text::{tokenize, Token};

use super::TrackerMatch;

pub struct ReferenceMatcher {
    trackers: Vec<(i64, TrackerCriteria)>,
}

/// Whether `term` occurs in one field's tokens: the same words in a row, and each tag the term
/// has present on the matching token (a plain term matches tagged tokens too).
fn occurs(field: &[Token], term: &[Token]) -> bool {
    if term.is_empty() || term.len() > field.len() {
        return false;
    }
    field.windows(term.len()).any(|w| {
        w.iter().zip(term).all(|(f, t)| f.word == t.word && (t.sigil.is_none() || t.sigil == f.sigil))
    })
}

fn post_fields(post: &Post) -> Vec<Vec<Token>> {
    let mut fields = Vec::new();
    if let Some(t) = &post.title {
        fields.push(tokenize(t));
    }
    fields.push(tokenize(&post.text));
    if let Some(q) = &post.flags.quoted_text {
        fields.push(tokenize(q));
    }
    fields
}

impl ReferenceMatcher {
    pub fn new(trackers: &[(i64, &TrackerCriteria)]) -> Self {
        Self { trackers: trackers.iter().map(|(id, c)| (*id, (*c).clone())).collect() }
    }

    pub fn match_post(&self, post: &Post, country: Option<&str>, lang: Option<&str>) -> Vec<TrackerMatch> {
        let fields = post_fields(post);
        let has = |term: &str| {
            let t = tokenize(term);
            fields.iter().any(|f| occurs(f, &t))
        };
        let mut out = Vec::new();
        for (id, c) in &self.trackers {
            let Ok(compiled) = c.compile(*id) else { continue };
            let by_terms = !c.search.include.is_empty() && c.search.include.iter().all(|row| row.iter().any(|t| has(t)));
            let by_account = compiled.accounts.iter().any(|a| a.matches(post.platform, &post.author));
            if !(by_terms || by_account) {
                continue;
            }
            if c.search.exclude.iter().any(|t| has(t)) {
                continue;
            }
            if !compiled.filters.allows(post, country, lang) {
                continue;
            }
            let mut subtrackers = 0u64;
            for (i, s) in c.subtrackers.iter().enumerate() {
                if has(s) {
                    subtrackers |= 1 << i;
                }
            }
            out.push(TrackerMatch { tracker_id: *id, subtrackers });
        }
        out.sort_unstable();
        out
    }
}
