//! A page of the posts page from the tracker's in-memory table ([`crate::topics::table`]): the
//! range's posts that pass the filters are selected by the sort's key, in the order the plain
//! query gives (the key, then for keys kept on the link the time, then the post id, all in the
//! query's direction).
//!
//! A common search word or influencer tags in an order whose key is kept on the link (the
//! filters the table cannot see): the table gives the candidates in the page's order, a piece at
//! a time, and each piece's links are tested in the database, until the page is found. A word
//! of moderate use is read into memory once and tested here instead. Rare words and post tags
//! (few posts, sorted in the database) and the other orders are left to the SQL plans.

use std::cmp::Ordering;

use super::plan::SearchPlan;
use super::query::{PostQuery, PostSort};
use crate::dialect::{id_list, int_list, Backend};
use crate::ingest::PostKind;
use crate::sentiment::bucket_index;
use crate::topics::table::{DayPosts, Scope};
use crate::{with_pool, Result, Store};

/// Candidates of the first piece: five quarters of the page's posts (at least [`PIECE_MIN`], or
/// [`PIECE_MIN_PROBED`] when each is tested against SQLite's full-text index, about 0.07 ms a
/// link). A piece after it is what the page still lacks at the share of candidates kept so far,
/// with a margin, up to four times the piece before (at most [`PIECE_MAX`]).
const PIECE_MIN: usize = 16;
const PIECE_MIN_PROBED: usize = 4;
const PIECE_MAX: usize = 100_000;

/// A post's place in the order: its key, time and id.
#[derive(Clone, Copy)]
struct Entry<'a> {
    key: Key<'a>,
    at: i64,
    id: i64,
}

#[derive(Clone, Copy)]
enum Key<'a> {
    None,
    Int(i64),
    Real(f64),
    Text(&'a [u8]),
}

impl Key<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Real(a), Key::Real(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Key::Text(a), Key::Text(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }
}

fn key_of<'a>(sort: PostSort, d: &'a DayPosts, i: usize) -> Key<'a> {
    let k = &d.keys;
    match sort {
        PostSort::Date => Key::None,
        PostSort::Engagement => Key::Int(k.engagement[i]),
        PostSort::Reach => Key::Int(k.followers[i]),
        PostSort::EngagementRate => Key::Real(k.rate[i]),
        PostSort::Impressions => Key::Int(k.impressions[i]),
        PostSort::Sentiment => Key::Real(k.sentiment[i]),
        PostSort::User => Key::Text(k.author(i)),
        PostSort::Text => Key::Text(k.text(i)),
        PostSort::Likes => Key::Int(k.likes[i]),
        PostSort::Comments => Key::Int(k.comments[i]),
        PostSort::Shares => Key::Int(k.shares[i]),
        PostSort::Views => Key::Int(k.views[i]),
    }
}

impl PostQuery {
    /// Whether the in-memory table can answer alone: no search, post tags or influencer tags
    /// (their matches are in the database only).
    pub(crate) fn memory_applies(&self) -> bool {
        super::query::search_words(&self.search).is_empty()
            && self.filter.post_tags.is_empty()
            && self.filter.influencer_tags.is_empty()
    }

    /// Whether the table gives the candidates that the database then tests: an order whose key
    /// is kept on the link, with a search that is not rare (`plan`) or influencer tags, and no
    /// post tags (their few posts are sorted in the database).
    pub(crate) fn memory_tests(&self, plan: SearchPlan) -> bool {
        self.sort.link_key().is_some() && plan != SearchPlan::Ids && self.filter.post_tags.is_empty()
    }

    /// The ascending order of the plain query (`PostSort::order_by`): the key, then the time for
    /// keys kept on the link (and the date itself), then the post id.
    fn compare(&self, a: &Entry, b: &Entry) -> Ordering {
        let by_time = self.sort == PostSort::Date || self.sort.link_key().is_some();
        let o = a.key.cmp(&b.key);
        let o = if by_time { o.then(a.at.cmp(&b.at)) } else { o };
        o.then(a.id.cmp(&b.id))
    }
}

impl Store {
    /// The post ids of the query's page in its order, from the tracker's in-memory table (with
    /// the database testing what the table cannot see, [`PostQuery::memory_tests`]); None when
    /// the query is not one it answers or the tracker is too large to keep in memory.
    pub(crate) async fn memory_page_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str) -> Result<Option<Vec<i64>>> {
        let tested = !q.memory_applies();
        if tested && !q.memory_tests(plan) {
            return Ok(None);
        }
        let Some(entry) = self.topic_table_when_read(tracker_id).await? else { return Ok(None) };
        let table = entry.read().await;
        let (offset, per_page) = q.window();
        // Times beyond any post's (about ±100,000 years), so that day arithmetic stays in range.
        const FAR: i64 = 1 << 52;
        let scope = Scope::new(
            q.filter.start.unwrap_or(i64::MIN).max(-FAR),
            q.filter.end.unwrap_or(i64::MAX).min(FAR),
            q.filter.platforms,
            q.filter.subtracker.filter(|n| (1..=63).contains(n)),
        );
        let buckets: Option<u8> = q.bucket_list().map(|_| q.sentiment.iter().fold(0u8, |m, b| m | 1 << bucket_index(b)));
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let need = start.saturating_add(usize::try_from(per_page).unwrap_or(0));
        let order = |a: &Entry, b: &Entry| if q.ascending { q.compare(a, b) } else { q.compare(b, a) };
        // The first `n` posts in order after `after` (among those `allow`, sorted, lets through),
        // kept among at most twice as many: when the buffer fills, its first `n` stay and the
        // last of them becomes the bar a post must pass.
        let select = |after: Option<&Entry>, n: usize, allow: Option<&[i64]>| -> Vec<Entry> {
            let room = n.saturating_mul(2).max(64);
            let mut best: Vec<Entry> = Vec::new();
            let mut bar: Option<Entry> = None;
            // In date order the days are read in the page's direction: once the first posts are
            // kept, the bar turns the rest away.
            let newest_first = q.sort == PostSort::Date && !q.ascending;
            table.each_in(&scope, newest_first, |d, i| {
                if let Some(mask) = buckets {
                    if mask >> d.bucket[i] & 1 == 0 {
                        return;
                    }
                }
                let kind = d.keys.kind[i];
                if q.exclude_retweets && kind == PostKind::Retweet as u8 {
                    return;
                }
                if q.stories_only && kind != PostKind::Story as u8 {
                    return;
                }
                let e = Entry { key: key_of(q.sort, d, i), at: d.at[i], id: d.ids[i] };
                if bar.as_ref().is_some_and(|b| order(&e, b) != Ordering::Less) {
                    return;
                }
                if after.is_some_and(|a| order(&e, a) != Ordering::Greater) {
                    return;
                }
                if allow.is_some_and(|ids| ids.binary_search(&e.id).is_err()) {
                    return;
                }
                best.push(e);
                if best.len() >= room && n > 0 {
                    best.select_nth_unstable_by(n - 1, order);
                    best.truncate(n);
                    bar = best.last().copied();
                }
            });
            best.sort_unstable_by(order);
            best.truncate(n);
            best
        };
        let page = |ids: &mut dyn Iterator<Item = i64>| ids.skip(start).collect::<Vec<i64>>();
        if !tested {
            return Ok(Some(page(&mut select(None, need, None).iter().map(|e| e.id))));
        }
        // A word of moderate use (SQLite): its matches, read at once, are tested here.
        let matches = if plan == SearchPlan::Set { self.search_matches(m, self.tuning.search_set_max).await? } else { None };
        let (plan, m) = if matches.is_some() { (SearchPlan::None, "") } else { (plan, m) };
        if plan == SearchPlan::None && q.filter.influencer_tags.is_empty() {
            return Ok(Some(page(&mut select(None, need, matches.as_deref()).iter().map(|e| e.id))));
        }
        // The rest is tested in the database, a piece of candidates at a time: the query's own
        // conditions on the links of the piece (by their key, not the time index).
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_with(backend, plan, true, None) else { return Ok(Some(Vec::new())) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let (from, to) = (q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX));
        let min = if plan.probes() && backend == Backend::Sqlite { PIECE_MIN_PROBED } else { PIECE_MIN };
        let mut piece = (need.saturating_mul(5) / 4).max(min);
        let mut kept: Vec<i64> = Vec::new();
        let (mut read, mut passed) = (0usize, 0usize);
        let mut after: Option<Entry> = None;
        loop {
            let candidates = select(after.as_ref(), piece, matches.as_deref());
            let ids: Vec<i64> = candidates.iter().map(|e| e.id).collect();
            let ok: std::collections::HashSet<i64> = if ids.is_empty() {
                Default::default()
            } else {
                let sql = format!("SELECT tp.post_id FROM tracker_posts tp{join} WHERE {w} AND tp.post_id IN ({})", int_list(&ids));
                let found: Vec<i64> = with_pool!(self, |p| {
                    let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(from).bind(to);
                    if !m.is_empty() {
                        query = query.bind(m);
                    }
                    query.fetch_all(p).await?
                });
                found.into_iter().collect()
            };
            let before = kept.len();
            kept.extend(ids.iter().copied().filter(|id| ok.contains(id)));
            read += ids.len();
            passed += kept.len() - before;
            if kept.len() >= need || candidates.len() < piece {
                break;
            }
            after = candidates.last().copied();
            let grown = piece.saturating_mul(4).min(PIECE_MAX);
            piece = if passed > 0 {
                let estimate = ((need - kept.len()) as f64 * read as f64 / passed as f64 * 1.25).ceil() as usize + min;
                estimate.clamp(min, grown)
            } else {
                grown
            };
        }
        Ok(Some(page(&mut kept.into_iter().take(need))))
    }

    /// The post ids matching a search (SQLite), sorted, when there are at most `max`.
    pub(crate) async fn search_matches(&self, m: &str, max: i64) -> Result<Option<Vec<i64>>> {
        let sql = format!("SELECT group_concat(rowid) FROM (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 LIMIT {})", max + 1);
        let list: Option<String> = with_pool!(self, |p| sqlx::query_scalar(&sql).bind(m).fetch_one(p).await?);
        Ok(Some(id_list(list)).filter(|ids| ids.len() as i64 <= max))
    }
}
