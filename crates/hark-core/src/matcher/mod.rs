//! Matching posts against every active tracker at once.
//!
//! [`MatchSet::build`] compiles all trackers' terms into one Aho-Corasick automaton over the
//! normalised text (see [`crate::text::NormText`]). Each pattern is a term's tokens with a space on
//! both sides (`" nike air "`), so a hit is already on word boundaries; tags (`#`, `@`, `$`) are
//! checked on the side table. Before the scan, the words of the post that are in no pattern (a
//! Bloom filter of pattern words says which) are replaced by field breaks: most words of a post
//! are in no term, and the automaton then walks a much shorter text. A pattern hit fans out to the (tracker, role) pairs that use it, which
//! set bits in a small per-tracker state: one bit per include row, an exclude flag and one bit
//! per subtracker. Only the trackers touched by a post are evaluated afterwards, together with the
//! trackers that collect from the post's author. Term semantics are those of [`crate::query`].
//!
//! [`reference::ReferenceMatcher`] is the slow, plain implementation the property tests compare
//! against; [`naive::NaiveMatcher`] is the per-tracker loop the benchmark measures against.

pub mod naive;
pub mod reference;
#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::post::Post;
use crate::criteria::TrackerCriteria;
use crate::query::{account_group, CompiledTerm, CompiledTracker, MAX_ROWS, MAX_SUBTRACKER_BITS};
use crate::text::{NormText, Sigil};
use crate::{Invalid, Platform};
use crate::Code;

/// A tracker a post belongs to, with the subtrackers (bit i = subtracker i) it is labelled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrackerMatch {
    pub tracker_id: i64,
    pub subtrackers: u64,
}

impl TrackerMatch {
    /// Indices of the matched subtrackers, ascending.
    pub fn subtracker_indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..64).filter(move |i| self.subtrackers & (1u64 << i) != 0)
    }
}

/// Builds the text a post is matched on: title, text and quoted text, each its own field.
pub fn normalize_post(post: &Post, out: &mut NormText) {
    out.clear();
    if let Some(t) = &post.title {
        out.push_field(t);
    }
    out.push_field(&post.text);
    if let Some(q) = &post.flags.quoted_text {
        out.push_field(q);
    }
}

const ROLE_EXCLUDE: u16 = u16::MAX;
const ROLE_SUB: u16 = 0x100;

/// One use of a pattern: which tracker, and as what (include row r, exclude, subtracker s).
#[derive(Debug, Clone, Copy)]
struct TermRef {
    tracker: u32,
    role: u16,
}

/// A pattern with a given set of required tags, and the uses that need exactly those.
#[derive(Debug, Clone)]
struct Variant {
    sigils: Box<[(u32, Sigil)]>,
    refs_start: u32,
    refs_end: u32,
}

#[derive(Debug, Clone)]
struct TrackerInfo {
    id: i64,
    /// One bit per include row; 0 when the tracker has no include rows (accounts only).
    full_mask: u64,
    filters: crate::query::PostFilters,
    volume_limit: Option<i64>,
    /// Exclude terms, for [`MatchSet::admits_indirect`] (the automaton holds them too).
    exclude: Vec<crate::query::CompiledTerm>,
}

#[derive(Debug, Clone, Copy, Default)]
struct TrackerState {
    epoch: u32,
    include: u64,
    subs: u64,
    excluded: bool,
    by_account: bool,
}

/// Reusable per-thread buffers for [`MatchSet::match_post_with`].
#[derive(Debug, Default)]
pub struct MatchScratch {
    text: NormText,
    kept: NormText,
    epoch: u32,
    states: Vec<TrackerState>,
    variant_seen: Vec<u32>,
    touched: Vec<u32>,
    key: String,
}

impl MatchScratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// The normalised text of the last post matched (before words in no pattern are dropped).
    pub fn text(&self) -> &NormText {
        &self.text
    }

    fn prepare(&mut self, trackers: usize, variants: usize) {
        if self.states.len() != trackers || self.variant_seen.len() != variants || self.epoch == u32::MAX {
            self.states = vec![TrackerState::default(); trackers];
            self.variant_seen = vec![0; variants];
            self.epoch = 0;
        }
        self.epoch += 1;
        self.touched.clear();
    }
}

thread_local! {
    static SCRATCH: RefCell<MatchScratch> = RefCell::new(MatchScratch::new());
}

/// All active trackers compiled into one matcher.
#[derive(Debug, Clone)]
pub struct MatchSet {
    automaton: Option<AhoCorasick>,
    /// Every word of every pattern; the other words of a post are dropped before the scan.
    vocabulary: TokenFilter,
    /// Per automaton pattern: its variants `variant_start[p]..variant_start[p + 1]`.
    variant_start: Vec<u32>,
    variants: Vec<Variant>,
    refs: Vec<TermRef>,
    trackers: Vec<TrackerInfo>,
    /// (platform group, lowercase username or id) → trackers collecting from that account.
    accounts: HashMap<(Platform, String), Vec<u32>>,
    rejected: Vec<(i64, Invalid)>,
}

impl MatchSet {
    /// Compiles the given trackers. A tracker whose criteria cannot compile is left out and
    /// listed in [`MatchSet::rejected`]; the others still match.
    pub fn build(trackers: &[(i64, &TrackerCriteria)]) -> Self {
        Self::build_with(trackers, Engine::Auto)
    }

    /// [`MatchSet::build`] with a chosen automaton.
    pub fn build_with(trackers: &[(i64, &TrackerCriteria)], engine: Engine) -> Self {
        let mut compiled = Vec::with_capacity(trackers.len());
        let mut rejected = Vec::new();
        for (id, c) in trackers {
            match c.compile(*id) {
                Ok(ct) => compiled.push(ct),
                Err(e) => rejected.push((*id, e)),
            }
        }
        let mut set = Self::from_compiled(&compiled, engine);
        rejected.append(&mut set.rejected);
        set.rejected = rejected;
        set
    }

    /// Builds from trackers compiled already; one with more include rows or subtrackers than
    /// the bit sets hold is left out and listed in [`MatchSet::rejected`].
    pub fn from_compiled(all: &[CompiledTracker], engine: Engine) -> Self {
        let mut rejected = Vec::new();
        let mut trackers: Vec<&CompiledTracker> = Vec::with_capacity(all.len());
        for t in all {
            if t.include.len() > MAX_ROWS || t.subtrackers.len() > MAX_SUBTRACKER_BITS {
                rejected.push((t.id, Invalid::new(Code::TrackerTooLarge, "Too many include rows or subtrackers.")));
            } else {
                trackers.push(t);
            }
        }
        let mut patterns = PatternTable::default();
        let mut infos = Vec::with_capacity(trackers.len());
        let mut accounts: HashMap<(Platform, String), Vec<u32>> = HashMap::new();
        for (ti, t) in trackers.iter().enumerate() {
            let tracker = ti as u32;
            for (row, terms) in t.include.iter().enumerate() {
                for term in terms {
                    patterns.add(term, TermRef { tracker, role: row as u16 });
                }
            }
            for term in &t.exclude {
                patterns.add(term, TermRef { tracker, role: ROLE_EXCLUDE });
            }
            for (i, term) in t.subtrackers.iter().enumerate() {
                if let Some(term) = term {
                    patterns.add(term, TermRef { tracker, role: ROLE_SUB + i as u16 });
                }
            }
            for a in &t.accounts {
                for k in a.keys() {
                    let list = accounts.entry((a.group, k.to_string())).or_default();
                    if list.last() != Some(&tracker) {
                        list.push(tracker);
                    }
                }
            }
            let rows = t.include.len();
            let full_mask = if rows == 0 { 0 } else if rows >= 64 { u64::MAX } else { (1u64 << rows) - 1 };
            infos.push(TrackerInfo {
                id: t.id,
                full_mask,
                filters: t.filters.clone(),
                volume_limit: t.volume_limit,
                exclude: t.exclude.clone(),
            });
        }

        let per_pattern = patterns.list;
        let mut variant_start = Vec::with_capacity(per_pattern.len() + 1);
        let mut variants = Vec::new();
        let mut refs = Vec::new();
        for (_, vs) in &per_pattern {
            variant_start.push(variants.len() as u32);
            for (sigils, rs) in vs {
                let start = refs.len() as u32;
                refs.extend_from_slice(rs);
                variants.push(Variant { sigils: (*sigils).into(), refs_start: start, refs_end: refs.len() as u32 });
            }
        }
        variant_start.push(variants.len() as u32);
        let vocabulary = TokenFilter::new(per_pattern.iter().flat_map(|(p, _)| p.split([' ', '\n'])).filter(|t| !t.is_empty()));
        let automaton = if per_pattern.is_empty() {
            None
        } else {
            let pats: Vec<&str> = per_pattern.iter().map(|(p, _)| *p).collect();
            build_automaton(&pats, engine)
        };
        Self { automaton, vocabulary, variant_start, variants, refs, trackers: infos, accounts, rejected }
    }

    pub fn rejected(&self) -> &[(i64, Invalid)] {
        &self.rejected
    }

    pub fn tracker_count(&self) -> usize {
        self.trackers.len()
    }

    /// Which automaton was built and its heap size in bytes (for benchmarks and logs).
    pub fn automaton_info(&self) -> (String, usize) {
        match &self.automaton {
            Some(ac) => (format!("{:?}", ac.kind()), ac.memory_usage()),
            None => ("none".into(), 0),
        }
    }

    pub fn pattern_count(&self) -> usize {
        self.variant_start.len().saturating_sub(1)
    }

    /// The volume limit of a tracker in the set (the pipeline enforces it against its counts).
    pub fn volume_limit(&self, tracker_id: i64) -> Option<i64> {
        self.trackers.iter().find(|t| t.id == tracker_id).and_then(|t| t.volume_limit)
    }

    /// Whether a post the platform's own search returned for `tracker_id` may join it although
    /// its text lacks the terms (the platform matched them elsewhere, in comments or metadata):
    /// none of the tracker's exclude terms is in the text and its filters (platforms, language,
    /// retweets, verified, countries) allow the post.
    pub fn admits_indirect(&self, tracker_id: i64, post: &Post, country: Option<&str>, lang: Option<&str>) -> bool {
        let Some(info) = self.trackers.iter().find(|t| t.id == tracker_id) else { return false };
        if info.full_mask == 0 || !info.filters.allows(post, country, lang) {
            return false;
        }
        let mut text = NormText::default();
        normalize_post(post, &mut text);
        !info.exclude.iter().any(|t| t.occurs_in(&text))
    }

    /// The trackers `post` belongs to, ordered by tracker id. `country` is the enriched ISO
    /// country, `lang` the detected language (the post's own hint is used when `None`).
    pub fn match_post(&self, post: &Post, country: Option<&str>, lang: Option<&str>) -> Vec<TrackerMatch> {
        let mut out = Vec::new();
        SCRATCH.with(|s| match s.try_borrow_mut() {
            Ok(mut scratch) => self.match_post_with(&mut scratch, post, country, lang, &mut out),
            Err(_) => self.match_post_with(&mut MatchScratch::new(), post, country, lang, &mut out),
        });
        out
    }

    /// [`MatchSet::match_post`] with caller-held buffers; `out` is cleared first.
    pub fn match_post_with(
        &self,
        scratch: &mut MatchScratch,
        post: &Post,
        country: Option<&str>,
        lang: Option<&str>,
        out: &mut Vec<TrackerMatch>,
    ) {
        out.clear();
        scratch.prepare(self.trackers.len(), self.variants.len());
        normalize_post(post, &mut scratch.text);
        let epoch = scratch.epoch;
        let MatchScratch { text: full, kept, states, variant_seen, touched, key, .. } = scratch;
        full.filter_into(kept, |t| self.vocabulary.contains(t));
        let text = &*kept;

        if let Some(ac) = &self.automaton {
            for m in ac.find_overlapping_iter(text.as_str()) {
                let p = m.pattern().as_usize();
                let (vs, ve) = (self.variant_start[p] as usize, self.variant_start[p + 1] as usize);
                for (seen, variant) in variant_seen[vs..ve].iter_mut().zip(&self.variants[vs..ve]) {
                    if *seen == epoch {
                        continue;
                    }
                    if !variant.sigils.iter().all(|(off, s)| text.sigil_at(m.start() + *off as usize) == Some(*s)) {
                        continue;
                    }
                    *seen = epoch;
                    for r in &self.refs[variant.refs_start as usize..variant.refs_end as usize] {
                        let st = touch(states, touched, r.tracker, epoch);
                        match r.role {
                            ROLE_EXCLUDE => st.excluded = true,
                            role if role >= ROLE_SUB => st.subs |= 1u64 << (role - ROLE_SUB),
                            row => st.include |= 1u64 << row,
                        }
                    }
                }
            }
        }

        if !self.accounts.is_empty() {
            let group = account_group(post.platform);
            let username = post.author.username.trim_start_matches('@');
            for k in [username, post.author.id.as_str()] {
                if k.is_empty() {
                    continue;
                }
                key.clear();
                key.extend(k.chars().flat_map(char::to_lowercase));
                // HashMap lookups need an owned key of the same type; swap the buffer in and out.
                let probe = (group, std::mem::take(key));
                if let Some(ts) = self.accounts.get(&probe) {
                    for &t in ts {
                        touch(states, touched, t, epoch).by_account = true;
                    }
                }
                *key = probe.1;
            }
        }

        for &t in touched.iter() {
            let st = &states[t as usize];
            let info = &self.trackers[t as usize];
            if st.excluded {
                continue;
            }
            let by_terms = info.full_mask != 0 && st.include == info.full_mask;
            if !(by_terms || st.by_account) {
                continue;
            }
            if !info.filters.allows(post, country, lang) {
                continue;
            }
            out.push(TrackerMatch { tracker_id: info.id, subtrackers: st.subs });
        }
        out.sort_unstable();
    }
}

#[inline]
fn touch<'a>(states: &'a mut [TrackerState], touched: &mut Vec<u32>, t: u32, epoch: u32) -> &'a mut TrackerState {
    let st = &mut states[t as usize];
    if st.epoch != epoch {
        *st = TrackerState { epoch, ..TrackerState::default() };
        touched.push(t);
    }
    st
}

/// Uses of a sigil set: the required tags and the term uses that need them.
type VariantUses<'a> = (&'a [(u32, Sigil)], Vec<TermRef>);

/// Distinct pattern texts, each with its distinct tag requirements.
#[derive(Default)]
struct PatternTable<'a> {
    index: HashMap<&'a str, usize>,
    list: Vec<(&'a str, Vec<VariantUses<'a>>)>,
}

impl<'a> PatternTable<'a> {
    fn add(&mut self, term: &'a CompiledTerm, r: TermRef) {
        let list = &mut self.list;
        let idx = *self.index.entry(term.pattern.as_str()).or_insert_with(|| {
            list.push((term.pattern.as_str(), Vec::new()));
            list.len() - 1
        });
        let vs = &mut self.list[idx].1;
        match vs.iter_mut().find(|(s, _)| *s == term.sigils.as_slice()) {
            Some((_, refs)) => refs.push(r),
            None => vs.push((term.sigils.as_slice(), vec![r])),
        }
    }
}

/// A Bloom filter of pattern words (two probes of one 64-bit hash, about 16 bits per word):
/// a word it refuses is in no pattern; one it accepts may be (about 1% are not, which only
/// costs a longer scan).
#[derive(Debug, Clone)]
struct TokenFilter {
    bits: Vec<u64>,
    mask: u64,
}

impl TokenFilter {
    fn new<'a>(tokens: impl Iterator<Item = &'a str> + Clone) -> Self {
        let n = tokens.clone().count().max(1);
        let size = (n * 16).next_power_of_two().max(1 << 12);
        let mut f = Self { bits: vec![0; size / 64], mask: size as u64 - 1 };
        for t in tokens {
            let (a, b) = f.probes(t);
            f.bits[a / 64] |= 1 << (a % 64);
            f.bits[b / 64] |= 1 << (b % 64);
        }
        f
    }

    #[inline]
    fn probes(&self, t: &str) -> (usize, usize) {
        // Eight bytes at a time (most words are one step), then a final mix so both halves of
        // the hash are usable.
        let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ t.len() as u64;
        for chunk in t.as_bytes().chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            h = (h ^ u64::from_le_bytes(buf)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            h ^= h >> 31;
        }
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        ((h & self.mask) as usize, ((h >> 32) & self.mask) as usize)
    }

    #[inline]
    fn contains(&self, t: &str) -> bool {
        let (a, b) = self.probes(t);
        self.bits[a / 64] & (1 << (a % 64)) != 0 && self.bits[b / 64] & (1 << (b % 64)) != 0
    }
}

/// Which Aho-Corasick automaton a [`MatchSet`] scans with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The DFA for small sets (about 1,000 trackers), else the NFA.
    #[default]
    Auto,
    Dfa,
    /// The contiguous NFA: a tenth of the DFA's memory, somewhat slower per byte.
    Nfa,
}

/// Small sets use the DFA, which is fastest while its tables stay in cache; larger ones the
/// contiguous NFA (for 10,000 trackers the DFA is 26 MB and the NFA 2.7 MB, and the NFA matches
/// about 1.5 times as many posts per second; see BENCHMARKS.md).
fn build_automaton(patterns: &[&str], engine: Engine) -> Option<AhoCorasick> {
    let mut b = AhoCorasickBuilder::new();
    b.match_kind(MatchKind::Standard).prefilter(false);
    let total: usize = patterns.iter().map(|p| p.len()).sum();
    let dfa = match engine {
        Engine::Auto => total <= DFA_MAX_PATTERN_BYTES,
        Engine::Dfa => true,
        Engine::Nfa => false,
    };
    if dfa {
        if let Ok(ac) = b.kind(Some(AhoCorasickKind::DFA)).build(patterns) {
            return Some(ac);
        }
    }
    b.kind(Some(AhoCorasickKind::ContiguousNFA)).build(patterns).ok()
}

/// Total pattern bytes up to which [`Engine::Auto`] uses the DFA (its tables then take a few MB).
const DFA_MAX_PATTERN_BYTES: usize = 32 << 10;
