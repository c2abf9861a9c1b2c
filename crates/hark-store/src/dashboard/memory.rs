//! The dashboard's answers counted over the tracker's in-memory table ([`crate::topics::table`])
//! once it has been read.
//!
//! The rollups answer long ranges from a few rows, but a window cut inside days reads its partial
//! days from post rows, and a ranking of accounts or a month of words sums a row per account or
//! word and day. Over the table every panel is one pass over the range's posts, a loop over
//! small integers (about a millisecond per 100,000 posts), the same for any shape of data and any
//! window, a subtracker filter included. Tag filters are not in the table: those requests read
//! the post rows.
//!
//! A day a range holds whole (without a subtracker filter) is read from its [`DaySummary`]: its
//! sums per platform and hour, and its facets, words and accounts counted once, so that a long
//! range costs a few rows a day rather than every post.

use hark_core::{Platform, PlatformSet};

use super::authors::{Activity, AuthorKey};
use super::{Counts, PageFilter};
use crate::time::{DAY_MS, HOUR_MS};
use crate::topics::table::{DayPosts, Part, Scope, TermKind, TopicTable, NO_FACET, SCALAR_KINDS};

/// Times beyond any post's (about ±100,000 years), so that day arithmetic stays in range.
const EDGE: i64 = 1 << 52;

/// The table's scope of a filter on some platforms.
pub(crate) fn scope(f: &PageFilter, platforms: PlatformSet) -> Scope {
    Scope::new(f.start.unwrap_or(-EDGE).max(-EDGE), f.end.unwrap_or(EDGE).min(EDGE), platforms, f.subtracker)
}

/// What the dashboard counts of one day's posts, per platform, made the first time a range holds
/// the day whole and dropped when its posts change ([`DayPosts::summary`]). The counts of each
/// scalar kind, of words, of listed terms and of accounts are kept only when their list is at most
/// half as long as the entries it counts (else those panels read the day's posts), which also
/// bounds the summary's memory by the day's own; days of fewer than
/// [`crate::topics::table::SUMMARY_MIN_POSTS`] posts have none.
#[derive(Debug, Clone, Default)]
pub(crate) struct DaySummary {
    /// The platforms with posts that day.
    pub platforms: Vec<PlatformDay>,
    /// Whether each scalar kind's counts are kept.
    pub scalar: [bool; SCALAR_KINDS],
    pub terms: bool,
    pub lists: bool,
    pub authors: bool,
}

/// One platform's posts of a day, summed.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlatformDay {
    /// Index into [`Platform::ALL`].
    pub platform: u8,
    pub total: Counts,
    pub hours: [Counts; 24],
    pub likes: i64,
    pub dislikes: i64,
    /// Posts per subtracker bit (0 for the first), the bits with posts.
    pub subs: Vec<(u8, i64)>,
    /// Posts per facet id of each scalar kind, when [`DaySummary::scalar`] keeps the kind.
    pub scalar: [Vec<(u32, u32)>; SCALAR_KINDS],
    /// Posts per term id (words and hashtags), when [`DaySummary::terms`].
    pub terms: Vec<(u32, u32)>,
    /// Posts per listed facet id (domains, links, mentions), when [`DaySummary::lists`].
    pub lists: Vec<(u32, u32)>,
    /// Activity per account id, when [`DaySummary::authors`].
    pub authors: Vec<(u32, Activity)>,
}

/// The summary of a day, made when first asked for.
pub(crate) fn summary(d: &DayPosts) -> &DaySummary {
    d.summary.get_or_init(|| Box::new(summarize(d)))
}

/// The indexes of the bits set in `bits`, lowest first.
fn set_bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            b
        })
    })
}

/// Ids with how often each occurs, by id.
fn runs(mut ids: Vec<u32>) -> Vec<(u32, u32)> {
    ids.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((last, n)) if *last == id => *n += 1,
            _ => out.push((id, 1)),
        }
    }
    out.shrink_to_fit();
    out
}

fn post_counts(d: &DayPosts, i: usize) -> Counts {
    Counts { posts: 1, engagement: d.keys.engagement[i], reach: d.keys.followers[i], impressions: d.keys.impressions[i] }
}

fn post_activity(d: &DayPosts, i: usize) -> Activity {
    let followers = d.keys.followers[i];
    Activity { posts: 1, engagement: d.keys.engagement[i], followers, reach: followers, impressions: d.keys.impressions[i] }
}

fn summarize(d: &DayPosts) -> DaySummary {
    let mut by_platform: Vec<Vec<usize>> = vec![Vec::new(); 16];
    for i in 0..d.len() {
        if let Some(v) = by_platform.get_mut(d.platform[i] as usize) {
            v.push(i);
        }
    }
    let mut out = DaySummary::default();
    let (mut terms, mut term_runs, mut lists, mut list_runs, mut authors) = (0, 0, 0, 0, 0);
    let mut scalar_runs = [0usize; SCALAR_KINDS];
    for (platform, posts) in by_platform.iter().enumerate().filter(|(_, v)| !v.is_empty()) {
        let mut p = PlatformDay { platform: platform as u8, ..Default::default() };
        let mut subs = [0i64; 64];
        let mut scalar: [Vec<u32>; SCALAR_KINDS] = Default::default();
        let (mut words, mut listed) = (Vec::new(), Vec::new());
        let mut by_author: Vec<(u32, Activity)> = Vec::with_capacity(posts.len());
        for &i in posts {
            let c = post_counts(d, i);
            p.total.add(c);
            p.hours[(d.at[i].rem_euclid(DAY_MS) / HOUR_MS) as usize].add(c);
            p.likes += d.keys.likes[i];
            p.dislikes += d.facets.dislikes[i];
            set_bits(d.subs[i] as u64).for_each(|b| subs[b] += 1);
            for (k, col) in scalar.iter_mut().enumerate() {
                let v = d.facets.scalar[k][i];
                if v != NO_FACET {
                    col.push(v);
                }
            }
            words.extend_from_slice(d.terms_of(i));
            listed.extend_from_slice(d.facets.of(i));
            by_author.push((d.facets.author[i], post_activity(d, i)));
        }
        p.subs = subs.iter().enumerate().filter(|(_, n)| **n > 0).map(|(b, n)| (b as u8, *n)).collect();
        for (k, col) in scalar.into_iter().enumerate() {
            p.scalar[k] = runs(col);
            scalar_runs[k] += p.scalar[k].len();
        }
        terms += words.len();
        p.terms = runs(words);
        term_runs += p.terms.len();
        lists += listed.len();
        p.lists = runs(listed);
        list_runs += p.lists.len();
        by_author.sort_unstable_by_key(|(a, _)| *a);
        for (a, act) in by_author {
            match p.authors.last_mut() {
                Some((last, sum)) if *last == a => sum.add(act),
                _ => p.authors.push((a, act)),
            }
        }
        authors += p.authors.len();
        out.platforms.push(p);
    }
    out.terms = 2 * term_runs <= terms;
    out.lists = 2 * list_runs <= lists;
    out.authors = 2 * authors <= d.len();
    out.scalar = scalar_runs.map(|n| 2 * n <= d.len());
    for p in &mut out.platforms {
        for (k, col) in p.scalar.iter_mut().enumerate() {
            if !out.scalar[k] {
                *col = Vec::new();
            }
        }
        if !out.terms {
            p.terms = Vec::new();
        }
        if !out.lists {
            p.lists = Vec::new();
        }
        if out.authors {
            p.authors.shrink_to_fit();
        } else {
            p.authors = Vec::new();
        }
    }
    out
}

/// The summaries of a whole day's platforms the scope keeps.
fn platforms_of<'a>(d: &'a DayPosts, s: &Scope) -> impl Iterator<Item = &'a PlatformDay> {
    let mask = s.platforms;
    summary(d).platforms.iter().filter(move |p| (mask >> p.platform) & 1 == 1)
}

/// The posts of a whole day on the scope's platforms.
fn posts_on<'a>(d: &'a DayPosts, s: &Scope) -> impl Iterator<Item = usize> + 'a {
    let mask = s.platforms;
    (0..d.len()).filter(move |i| (mask >> d.platform[*i]) & 1 == 1)
}

/// Posts, engagement, reach (followers summed) and impressions.
pub(crate) fn counts(t: &TopicTable, s: &Scope) -> Counts {
    let mut c = Counts::default();
    t.each_part(s, |part| match part {
        Part::Day(_, d) => platforms_of(d, s).for_each(|p| c.add(p.total)),
        Part::Post(d, i) => c.add(post_counts(d, i)),
    });
    c
}

/// Distinct accounts (platform and author key).
pub(crate) fn users(t: &TopicTable, s: &Scope) -> i64 {
    let mut seen = vec![0u64; t.authors.len().div_ceil(64)];
    let mut n = 0;
    let mut mark = |a: u32| {
        let a = a as usize;
        let (w, b) = (a / 64, 1u64 << (a % 64));
        if seen[w] & b == 0 {
            seen[w] |= b;
            n += 1;
        }
    };
    t.each_part(s, |part| match part {
        Part::Day(_, d) if summary(d).authors => platforms_of(d, s).for_each(|p| p.authors.iter().for_each(|(a, _)| mark(*a))),
        Part::Day(_, d) => posts_on(d, s).for_each(|i| mark(d.facets.author[i])),
        Part::Post(d, i) => mark(d.facets.author[i]),
    });
    n
}

/// Counts per `resolution` bucket (a divisor of a day: an hour or a minute), sorted, empty
/// buckets left out.
pub(crate) fn series(t: &TopicTable, s: &Scope, resolution: i64) -> Vec<(i64, Counts)> {
    // The two resolutions the timeline asks for divide by a constant (a multiplication).
    match resolution {
        HOUR_MS => series_by::<HOUR_MS>(t, s, HOUR_MS),
        60_000 => series_by::<60_000>(t, s, 60_000),
        r if r > 0 && DAY_MS % r == 0 => series_by::<0>(t, s, r),
        _ => Vec::new(),
    }
}

/// The buckets of one day at a time (the days come in order).
struct Timeline {
    out: Vec<(i64, Counts)>,
    slots: Vec<Counts>,
    day: Option<i64>,
}

impl Timeline {
    fn flush(&mut self, resolution: i64) {
        if let Some(day) = self.day.take() {
            for (k, c) in self.slots.iter_mut().enumerate() {
                if c.posts > 0 {
                    self.out.push((day + k as i64 * resolution, *c));
                    *c = Counts::default();
                }
            }
        }
    }

    #[inline(always)]
    fn post(&mut self, d: &DayPosts, i: usize, resolution: i64) {
        let at = d.at[i];
        let this = at.div_euclid(DAY_MS) * DAY_MS;
        if self.day != Some(this) {
            self.flush(resolution);
            self.day = Some(this);
        }
        self.slots[((at - this) / resolution) as usize].add(post_counts(d, i));
    }
}

/// [`series`] by `R` when it is not 0 (a constant divisor), else by `resolution`.
#[inline(always)]
fn series_by<const R: i64>(t: &TopicTable, s: &Scope, resolution: i64) -> Vec<(i64, Counts)> {
    let r = if R != 0 { R } else { resolution };
    let mut tl = Timeline { out: Vec::new(), slots: vec![Counts::default(); (DAY_MS / r) as usize], day: None };
    t.each_part(s, |part| match part {
        Part::Day(day, d) if r == HOUR_MS => {
            tl.flush(r);
            tl.day = Some(day);
            for p in platforms_of(d, s) {
                for (slot, c) in tl.slots.iter_mut().zip(&p.hours) {
                    slot.add(*c);
                }
            }
        }
        Part::Day(_, d) => posts_on(d, s).for_each(|i| tl.post(d, i, r)),
        Part::Post(d, i) => tl.post(d, i, r),
    });
    tl.flush(r);
    tl.out
}

/// Likes and dislikes summed.
pub(crate) fn likes_dislikes(t: &TopicTable, s: &Scope) -> (i64, i64) {
    let mut v = (0, 0);
    t.each_part(s, |part| match part {
        Part::Day(_, d) => platforms_of(d, s).for_each(|p| {
            v.0 += p.likes;
            v.1 += p.dislikes;
        }),
        Part::Post(d, i) => {
            v.0 += d.keys.likes[i];
            v.1 += d.facets.dislikes[i];
        }
    });
    v
}

/// Posts per subtracker `1..=n`.
pub(crate) fn share_of_voice(t: &TopicTable, s: &Scope, n: u32) -> Vec<i64> {
    let n = n.min(63);
    let mut out = vec![0i64; n as usize];
    let mask = ((1u64 << n) - 1) as i64;
    t.each_part(s, |part| match part {
        Part::Day(_, d) => platforms_of(d, s).for_each(|p| {
            for (bit, c) in &p.subs {
                if let Some(v) = out.get_mut(*bit as usize) {
                    *v += c;
                }
            }
        }),
        Part::Post(d, i) => set_bits((d.subs[i] & mask) as u64).for_each(|b| out[b] += 1),
    });
    out
}

/// The first `limit` ids with a positive count, most first, ties by text (all with None).
fn top_ids<'a>(counts: &[u32], keep: impl Fn(u32) -> bool, text: impl Fn(u32) -> &'a str, limit: Option<usize>) -> Vec<(String, i64)> {
    let mut v: Vec<(u32, u32)> =
        counts.iter().enumerate().filter(|(id, c)| **c > 0 && keep(*id as u32)).map(|(id, c)| (id as u32, *c)).collect();
    let order = |a: &(u32, u32), b: &(u32, u32)| b.1.cmp(&a.1).then_with(|| text(a.0).cmp(text(b.0)));
    if let Some(n) = limit.filter(|n| *n < v.len()) {
        if n == 0 {
            return Vec::new();
        }
        v.select_nth_unstable_by(n - 1, order);
        v.truncate(n);
    }
    v.sort_unstable_by(order);
    v.into_iter().map(|(id, c)| (text(id).to_string(), i64::from(c))).collect()
}

/// How many posts in scope hold each term (word or hashtag), by term id.
pub(crate) fn word_counts(t: &TopicTable, s: &Scope) -> Vec<u32> {
    let mut counts = vec![0u32; t.dict.len()];
    let add = |counts: &mut [u32], d: &DayPosts, i: usize| {
        for &id in d.terms_of(i) {
            counts[id as usize] += 1;
        }
    };
    t.each_part(s, |part| match part {
        Part::Day(_, d) if summary(d).terms => platforms_of(d, s).for_each(|p| add_runs(&mut counts, &p.terms)),
        Part::Day(_, d) => posts_on(d, s).for_each(|i| add(&mut counts, d, i)),
        Part::Post(d, i) => add(&mut counts, d, i),
    });
    counts
}

/// Adds a summary's counts by id.
fn add_runs(counts: &mut [u32], runs: &[(u32, u32)]) {
    for (id, n) in runs {
        counts[*id as usize] += n;
    }
}

/// The words or the hashtags of [`word_counts`], most frequent first (ties by term), the first
/// `limit`.
pub(crate) fn top_words(t: &TopicTable, counts: &[u32], kind: TermKind, limit: Option<usize>) -> Vec<(String, i64)> {
    top_ids(counts, |id| t.kind_of(id) == kind, |id| t.text_of(id), limit)
}

/// How many posts in scope hold each listed facet term (domain, link, mention), by facet id.
pub(crate) fn list_counts(t: &TopicTable, s: &Scope) -> Vec<u32> {
    let mut counts = vec![0u32; t.facet_text.len()];
    let add = |counts: &mut [u32], d: &DayPosts, i: usize| {
        for &id in d.facets.of(i) {
            counts[id as usize] += 1;
        }
    };
    t.each_part(s, |part| match part {
        Part::Day(_, d) if summary(d).lists => platforms_of(d, s).for_each(|p| add_runs(&mut counts, &p.lists)),
        Part::Day(_, d) => posts_on(d, s).for_each(|i| add(&mut counts, d, i)),
        Part::Post(d, i) => add(&mut counts, d, i),
    });
    counts
}

/// The facet terms of a kind (an index into `FACET_KINDS`) counted in `counts` (by facet id), as
/// [`top_words`].
pub(crate) fn top_facets(t: &TopicTable, counts: &[u32], kind: u8, limit: Option<usize>) -> Vec<(String, i64)> {
    top_ids(counts, |id| t.facet_kind[id as usize] == kind, |id| &t.facet_text[id as usize], limit)
}

/// The facet terms of a kind of the posts in scope, as [`top_words`].
pub(crate) fn facets(t: &TopicTable, s: &Scope, kind: u8, limit: Option<usize>) -> Vec<(String, i64)> {
    let k = kind as usize;
    if k >= SCALAR_KINDS {
        return top_facets(t, &list_counts(t, s), kind, limit);
    }
    // One column: a country, a source… per post at most (`NO_FACET` counts nowhere).
    let mut counts = vec![0u32; t.facet_text.len()];
    let add = |counts: &mut [u32], d: &DayPosts, i: usize| {
        if let Some(c) = counts.get_mut(d.facets.scalar[k][i] as usize) {
            *c += 1;
        }
    };
    t.each_part(s, |part| match part {
        Part::Day(_, d) if summary(d).scalar[k] => platforms_of(d, s).for_each(|p| add_runs(&mut counts, &p.scalar[k])),
        Part::Day(_, d) => posts_on(d, s).for_each(|i| add(&mut counts, d, i)),
        Part::Post(d, i) => add(&mut counts, d, i),
    });
    top_facets(t, &counts, kind, limit)
}

/// The top `limit` accounts by engagement and by posts (ties by platform and author key), with
/// their posts, engagement and largest follower count.
pub(crate) fn influencers(t: &TopicTable, s: &Scope, limit: usize) -> (Vec<(AuthorKey, Activity)>, Vec<(AuthorKey, Activity)>) {
    let mut acc = vec![Activity::default(); t.authors.len()];
    let add = |acc: &mut [Activity], d: &DayPosts, i: usize| acc[d.facets.author[i] as usize].add(post_activity(d, i));
    t.each_part(s, |part| match part {
        Part::Day(_, d) if summary(d).authors => platforms_of(d, s).for_each(|p| {
            for (a, act) in &p.authors {
                acc[*a as usize].add(*act);
            }
        }),
        Part::Day(_, d) => posts_on(d, s).for_each(|i| add(&mut acc, d, i)),
        Part::Post(d, i) => add(&mut acc, d, i),
    });
    let active: Vec<u32> = (0..acc.len() as u32).filter(|a| acc[*a as usize].posts > 0).collect();
    let name = |a: u32| {
        let (p, key) = &t.authors[a as usize];
        (Platform::ALL.get(*p as usize).map_or("", |p| p.name()), &**key)
    };
    let top = |key: fn(&Activity) -> (i64, i64)| {
        let order = |x: &u32, y: &u32| key(&acc[*y as usize]).cmp(&key(&acc[*x as usize])).then_with(|| name(*x).cmp(&name(*y)));
        let mut v = active.clone();
        if limit == 0 {
            return Vec::new();
        }
        if limit < v.len() {
            v.select_nth_unstable_by(limit - 1, order);
            v.truncate(limit);
        }
        v.sort_unstable_by(order);
        v.into_iter()
            .map(|a| {
                let (p, k) = name(a);
                ((p.to_string(), k.to_string()), acc[a as usize])
            })
            .collect()
    };
    (top(|a| (a.engagement, a.posts)), top(|a| (a.posts, a.engagement)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_of_voice_counts_each_subtracker_bit_up_to_the_63rd() {
        let t = TopicTable::with_posts(&[(0, 0b101), (1, 1 << 62), (2, -1)]);
        let s = Scope::new(0, DAY_MS - 1, PlatformSet::all(), None);
        let all = share_of_voice(&t, &s, 63);
        assert_eq!((all[0], all[1], all[2], all[62]), (2, 1, 2, 2));
        assert_eq!(share_of_voice(&t, &s, 2), vec![2, 1]);
        assert!(share_of_voice(&t, &s, 0).is_empty());
        // A subtracker's scope keeps only its posts.
        let third = Scope::new(0, DAY_MS - 1, PlatformSet::all(), Some(3));
        assert_eq!(counts(&t, &third).posts, 2);
    }

    #[test]
    fn series_buckets_by_hour_and_minute_within_each_day() {
        let t = TopicTable::with_posts(&[(5, 0), (3_600_000 + 7, 0), (3_600_000 + 60_001, 0), (DAY_MS + 1, 0)]);
        let s = Scope::new(-DAY_MS, 3 * DAY_MS, PlatformSet::all(), None);
        let hours: Vec<(i64, i64)> = series(&t, &s, HOUR_MS).into_iter().map(|(b, c)| (b, c.posts)).collect();
        assert_eq!(hours, vec![(0, 1), (3_600_000, 2), (DAY_MS, 1)]);
        let minutes: Vec<i64> = series(&t, &s, 60_000).into_iter().map(|(b, _)| b).collect();
        assert_eq!(minutes, vec![0, 3_600_000, 3_660_000, DAY_MS]);
        assert!(series(&t, &s, 7).is_empty());
    }

    #[test]
    fn whole_days_read_from_their_summaries_count_as_their_posts() {
        // Few words and accounts (their summaries kept) and many (left out, the posts read).
        for (words, accounts, kept) in [(40, 30, true), (1_000_000, 1_000_000, false)] {
            // Five days of about 2,400 posts (the newest is never summarised).
            let t = TopicTable::random(12_000, 5, words, accounts, 11);
            let first = t.days.values().next().unwrap();
            assert!(first.len() >= crate::topics::table::SUMMARY_MIN_POSTS);
            let sum = summary(first);
            assert_eq!((sum.terms, sum.lists, sum.authors), (kept, kept, kept));
            // Countries (four) kept on both; regions (as many as words) on the first only.
            assert_eq!((sum.scalar[0], sum.scalar[1]), (true, kept));
            let twitter_news = [Platform::Twitter, Platform::News].into_iter().collect::<PlatformSet>();
            let youtube = [Platform::Youtube].into_iter().collect::<PlatformSet>();
            let scopes = [
                Scope::new(-EDGE, EDGE, PlatformSet::all(), None),
                Scope::new(DAY_MS, 4 * DAY_MS - 1, twitter_news, None),
                Scope::new(DAY_MS / 2, 5 * DAY_MS + 7, PlatformSet::all(), None),
                Scope::new(DAY_MS / 3, 3 * DAY_MS - 1, twitter_news, None),
                Scope::new(-EDGE, EDGE, youtube, None),
                Scope::new(-EDGE, EDGE, PlatformSet::all(), Some(2)),
            ];
            for s in scopes {
                let p = Scope { whole_days: false, ..s };
                assert_eq!(counts(&t, &s), counts(&t, &p));
                assert_eq!(counts(&t, &s).posts > 0, s.platforms != Scope::new(0, 0, youtube, None).platforms);
                assert_eq!(users(&t, &s), users(&t, &p));
                assert_eq!(series(&t, &s, HOUR_MS), series(&t, &p, HOUR_MS));
                assert_eq!(series(&t, &s, 60_000), series(&t, &p, 60_000));
                assert_eq!(series(&t, &s, 2 * HOUR_MS), series(&t, &p, 2 * HOUR_MS));
                assert_eq!(likes_dislikes(&t, &s), likes_dislikes(&t, &p));
                assert_eq!(share_of_voice(&t, &s, 5), share_of_voice(&t, &p, 5));
                assert_eq!(share_of_voice(&t, &s, 63), share_of_voice(&t, &p, 63));
                assert_eq!(word_counts(&t, &s), word_counts(&t, &p));
                assert_eq!(list_counts(&t, &s), list_counts(&t, &p));
                for kind in 0..crate::topics::table::FACET_KINDS.len() as u8 {
                    assert_eq!(facets(&t, &s, kind, None), facets(&t, &p, kind, None), "facet kind {kind}");
                }
                assert_eq!(influencers(&t, &s, 10), influencers(&t, &p, 10));
            }
        }
    }
}
