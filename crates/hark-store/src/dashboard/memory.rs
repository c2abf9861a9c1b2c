//! The dashboard's answers counted over the tracker's in-memory table ([`crate::topics::table`])
//! once it has been read.
//!
//! The rollups answer long ranges from a few rows, but a window cut inside days reads its partial
//! days from post rows, and a ranking of accounts or a month of words sums a row per account or
//! word and day. Over the table every panel is one pass over the range's posts, a loop over
//! small integers (about a millisecond per 100,000 posts), the same for any shape of data and any
//! window, a subtracker filter included. Tag filters are not in the table: those requests read
//! the post rows.

use hark_core::{Platform, PlatformSet};

use super::authors::{Activity, AuthorKey};
use super::{Counts, PageFilter};
use crate::time::{DAY_MS, HOUR_MS};
use crate::topics::table::{Scope, TermKind, TopicTable, SCALAR_KINDS};

/// Times beyond any post's (about ±100,000 years), so that day arithmetic stays in range.
const EDGE: i64 = 1 << 52;

/// The table's scope of a filter on some platforms.
pub(crate) fn scope(f: &PageFilter, platforms: PlatformSet) -> Scope {
    Scope::new(f.start.unwrap_or(-EDGE).max(-EDGE), f.end.unwrap_or(EDGE).min(EDGE), platforms, f.subtracker)
}

/// Posts, engagement, reach (followers summed) and impressions.
pub(crate) fn counts(t: &TopicTable, s: &Scope) -> Counts {
    let mut c = Counts::default();
    t.each(s, |d, i| {
        c.posts += 1;
        c.engagement += d.keys.engagement[i];
        c.reach += d.keys.followers[i];
        c.impressions += d.keys.impressions[i];
    });
    c
}

/// Distinct accounts (platform and author key).
pub(crate) fn users(t: &TopicTable, s: &Scope) -> i64 {
    let mut seen = vec![0u64; t.authors.len().div_ceil(64)];
    let mut n = 0;
    t.each(s, |d, i| {
        let a = d.facets.author[i] as usize;
        let (w, b) = (a / 64, 1u64 << (a % 64));
        if seen[w] & b == 0 {
            seen[w] |= b;
            n += 1;
        }
    });
    n
}

/// Counts per `resolution` bucket (a divisor of a day: an hour or a minute), sorted, empty
/// buckets left out.
pub(crate) fn series(t: &TopicTable, s: &Scope, resolution: i64) -> Vec<(i64, Counts)> {
    // The two resolutions the timeline asks for divide by a constant (a multiplication).
    match resolution {
        HOUR_MS => series_at::<HOUR_MS>(t, s),
        60_000 => series_at::<60_000>(t, s),
        r if r > 0 && DAY_MS % r == 0 => series_by(t, s, r),
        _ => Vec::new(),
    }
}

fn series_at<const R: i64>(t: &TopicTable, s: &Scope) -> Vec<(i64, Counts)> {
    series_by(t, s, R)
}

#[inline(always)]
fn series_by(t: &TopicTable, s: &Scope, resolution: i64) -> Vec<(i64, Counts)> {
    let mut out: Vec<(i64, Counts)> = Vec::new();
    // One day's buckets at a time: the days come in order.
    let mut slots = vec![Counts::default(); (DAY_MS / resolution) as usize];
    let mut day: Option<i64> = None;
    let flush = |day: i64, slots: &mut [Counts], out: &mut Vec<(i64, Counts)>| {
        for (k, c) in slots.iter_mut().enumerate() {
            if c.posts > 0 {
                out.push((day + k as i64 * resolution, *c));
                *c = Counts::default();
            }
        }
    };
    t.each(s, |d, i| {
        let at = d.at[i];
        let this = at.div_euclid(DAY_MS) * DAY_MS;
        if day != Some(this) {
            if let Some(prev) = day {
                flush(prev, &mut slots, &mut out);
            }
            day = Some(this);
        }
        let c = &mut slots[((at - this) / resolution) as usize];
        c.posts += 1;
        c.engagement += d.keys.engagement[i];
        c.reach += d.keys.followers[i];
        c.impressions += d.keys.impressions[i];
    });
    if let Some(prev) = day {
        flush(prev, &mut slots, &mut out);
    }
    out
}

/// Likes and dislikes summed.
pub(crate) fn likes_dislikes(t: &TopicTable, s: &Scope) -> (i64, i64) {
    let mut v = (0, 0);
    t.each(s, |d, i| {
        v.0 += d.keys.likes[i];
        v.1 += d.facets.dislikes[i];
    });
    v
}

/// Posts per subtracker `1..=n`.
pub(crate) fn share_of_voice(t: &TopicTable, s: &Scope, n: u32) -> Vec<i64> {
    let n = n.min(63);
    let mut out = vec![0i64; n as usize];
    let mask = ((1u64 << n) - 1) as i64;
    t.each(s, |d, i| {
        let mut bits = d.subs[i] & mask;
        while bits != 0 {
            out[bits.trailing_zeros() as usize] += 1;
            bits &= bits - 1;
        }
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
    t.each(s, |d, i| {
        for &id in d.terms_of(i) {
            counts[id as usize] += 1;
        }
    });
    counts
}

/// The words or the hashtags of [`word_counts`], most frequent first (ties by term), the first
/// `limit`.
pub(crate) fn top_words(t: &TopicTable, counts: &[u32], kind: TermKind, limit: Option<usize>) -> Vec<(String, i64)> {
    top_ids(counts, |id| t.kind_of(id) == kind, |id| t.text_of(id), limit)
}

/// How many posts in scope hold each listed facet term (domain, link, mention), by facet id.
pub(crate) fn list_counts(t: &TopicTable, s: &Scope) -> Vec<u32> {
    let mut counts = vec![0u32; t.facet_text.len()];
    t.each(s, |d, i| {
        for &id in d.facets.of(i) {
            counts[id as usize] += 1;
        }
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
    t.each(s, |d, i| {
        if let Some(c) = counts.get_mut(d.facets.scalar[k][i] as usize) {
            *c += 1;
        }
    });
    top_facets(t, &counts, kind, limit)
}

/// The top `limit` accounts by engagement and by posts (ties by platform and author key), with
/// their posts, engagement and largest follower count.
pub(crate) fn influencers(t: &TopicTable, s: &Scope, limit: usize) -> (Vec<(AuthorKey, Activity)>, Vec<(AuthorKey, Activity)>) {
    let mut acc = vec![Activity::default(); t.authors.len()];
    t.each(s, |d, i| {
        let a = &mut acc[d.facets.author[i] as usize];
        let followers = d.keys.followers[i];
        a.posts += 1;
        a.engagement += d.keys.engagement[i];
        a.followers = a.followers.max(followers);
        a.reach += followers;
        a.impressions += d.keys.impressions[i];
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
}
