//! A page of the posts page from the tracker's in-memory table ([`crate::topics::table`]): the
//! range's posts that pass the filters are selected by the sort's key, in the order the plain
//! query gives (the key, then for keys kept on the link the time, then the post id, all in the
//! query's direction).
//!
//! A search ([`Store::search_in_memory`]): the word's matches among the post ids of the range
//! are read from the full-text index at once, when they are few enough, and the page and its
//! exact total are both selected here among them.
//!
//! A word too common to read that way, or influencer
//! tags, in an order whose key is kept on the link (the filters the table cannot see): the table
//! gives the candidates in the page's order, a piece at a time, and each piece's links are tested
//! in the database, until the page is found. Rare words on PostgreSQL and post tags (few posts,
//! sorted in the database) and the other orders are left to the SQL plans.

use std::cmp::Ordering;

use super::plan::SearchPlan;
use super::query::{search_words, PostQuery, PostSort};
use super::total::PostTotal;
use crate::dialect::{id_list, int_list, Backend};
use crate::ingest::PostKind;
use crate::sentiment::bucket_index;
use crate::topics::table::{DayPosts, Scope, TopicTable};
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

    /// The range, platforms and subtracker of the query as the table's scope.
    fn scope(&self) -> Scope {
        // Times beyond any post's (about ±100,000 years), so that day arithmetic stays in range.
        const FAR: i64 = 1 << 52;
        Scope::new(
            self.filter.start.unwrap_or(i64::MIN).max(-FAR),
            self.filter.end.unwrap_or(i64::MAX).min(FAR),
            self.filter.platforms,
            self.filter.subtracker.filter(|n| (1..=63).contains(n)),
        )
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

/// How a query's search is answered: from the in-memory table (the page's post ids in order and
/// the exact total), or by the SQL plans of the page and of its total.
pub(crate) enum Searched {
    Answer(Vec<i64>, PostTotal),
    Plans(SearchPlan, SearchPlan),
}

/// The first `n` posts of the query's order after `after` among the table's posts in `scope`
/// (only those of `allow`, sorted ids, when given), kept among at most twice as many: when the
/// buffer fills, its first `n` stay and the last of them becomes the bar a post must pass.
/// `counted` gains every post the filters let through, wherever it falls in the order.
fn select<'a>(
    table: &'a TopicTable,
    q: &PostQuery,
    scope: &Scope,
    after: Option<&Entry>,
    n: usize,
    allow: Option<&[i64]>,
    counted: &mut usize,
) -> Vec<Entry<'a>> {
    let order = |a: &Entry, b: &Entry| if q.ascending { q.compare(a, b) } else { q.compare(b, a) };
    let buckets: Option<u8> = q.bucket_list().map(|_| q.sentiment.iter().fold(0u8, |m, b| m | 1 << bucket_index(b)));
    let room = n.saturating_mul(2).max(64);
    let mut best: Vec<Entry> = Vec::new();
    let mut bar: Option<Entry> = None;
    let mut visit = |d: &'a DayPosts, i: usize| {
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
        *counted += 1;
        let e = Entry { key: key_of(q.sort, d, i), at: d.at[i], id: d.ids[i] };
        if bar.as_ref().is_some_and(|b| order(&e, b) != Ordering::Less) {
            return;
        }
        if after.is_some_and(|a| order(&e, a) != Ordering::Greater) {
            return;
        }
        best.push(e);
        if best.len() >= room && n > 0 {
            best.select_nth_unstable_by(n - 1, order);
            best.truncate(n);
            bar = best.last().copied();
        }
    };
    // In date order the days are read in the page's direction: once the first posts are kept,
    // the bar turns the rest away.
    let newest_first = q.sort == PostSort::Date && !q.ascending;
    match allow {
        Some(ids) => table.each_of(scope, ids, newest_first, &mut visit),
        None => table.each_in(scope, newest_first, &mut visit),
    }
    best.sort_unstable_by(order);
    best.truncate(n);
    best
}

impl Store {
    /// A search when the tracker's in-memory table is read, without post or influencer tags:
    /// the word's matches among the post ids of the range's days are read from the full-text
    /// index at once when they are few enough, and the page and its exact total are selected in
    /// the table among them. Otherwise (or with no search) the plans of the page and its total.
    ///
    /// SQLite reads the newest [`rare_search`] matches first, and the rest when those promise
    /// at most [`search_set_max`] in all; more are a common word (its candidates tested).
    /// PostgreSQL reads them when its probe of the range's newest links finds the word rare
    /// ([`Store::search_plans`]): each match costs a visit of its post row, so a common word
    /// keeps its plans.
    ///
    /// [`rare_search`]: crate::PostListTuning::rare_search
    /// [`search_set_max`]: crate::PostListTuning::search_set_max
    pub(crate) async fn search_in_memory(&self, tracker_id: i64, q: &PostQuery) -> Result<Searched> {
        let applies = self.tuning.in_memory
            && self.tuning.search_set_max > 0
            && !search_words(&q.search).is_empty()
            && q.filter.post_tags.is_empty()
            && q.filter.influencer_tags.is_empty()
            && q.platform_list().is_some();
        let entry = if applies { self.topic_table_when_read(tracker_id).await? } else { None };
        let Some(entry) = entry else {
            let (page, total) = self.search_plans(tracker_id, q).await?;
            return Ok(Searched::Plans(page, total));
        };
        let scope = q.scope();
        // The table is not held while the index is read (a write waiting for it would wait on
        // the read): posts stored meanwhile have ids above the span and are left out, as if the
        // search had come a moment earlier.
        let span = entry.read().await.id_span(&scope);
        let Some(span) = span else { return Ok(Searched::Answer(Vec::new(), PostTotal::default())) };
        let m = q.match_expr(self.backend());
        let matches = match self.backend() {
            Backend::Sqlite => match self.span_matches(&m, span).await? {
                Some(ids) => ids,
                None => return Ok(Searched::Plans(SearchPlan::Probe, SearchPlan::Probe)),
            },
            Backend::Postgres => {
                let (page, total) = self.search_plans(tracker_id, q).await?;
                let found = if total == SearchPlan::Ids { self.pg_span_matches(&m, span).await? } else { None };
                match found {
                    Some(ids) => ids,
                    None => return Ok(Searched::Plans(page, total)),
                }
            }
        };
        let table = entry.read().await;
        let (offset, per_page) = q.window();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let need = start.saturating_add(usize::try_from(per_page).unwrap_or(0));
        let mut counted = 0usize;
        let page: Vec<i64> = select(&table, q, &scope, None, need, Some(&matches), &mut counted).iter().skip(start).map(|e| e.id).collect();
        Ok(Searched::Answer(page, PostTotal { total: counted as i64, capped: false }))
    }

    /// PostgreSQL: the post ids in `[lo, hi]` matching the text search `m`, sorted; None when
    /// they are more than the tuning's `search_set_max`.
    async fn pg_span_matches(&self, m: &str, (lo, hi): (i64, i64)) -> Result<Option<Vec<i64>>> {
        let max = self.tuning.search_set_max;
        let list: Option<String> = with_pool!(self, |p| sqlx::query_scalar(
            "SELECT string_agg(id::text, ',') FROM (SELECT id FROM posts WHERE fts @@ $1::tsquery \
             AND id >= $2 AND id <= $3 LIMIT $4) x"
        )
        .bind(m)
        .bind(lo)
        .bind(hi)
        .bind(max + 1)
        .fetch_one(p)
        .await?);
        Ok(Some(id_list(list)).filter(|ids| ids.len() as i64 <= max))
    }

    /// The post ids in `[lo, hi]` matching the full-text expression `m` (SQLite), sorted; None
    /// when they are more than the tuning's `search_set_max`. The newest `rare_search` are read
    /// first: when there are more, their share of the ids they span estimates the rest, which is
    /// read only when the estimate is within the limit.
    async fn span_matches(&self, m: &str, (lo, hi): (i64, i64)) -> Result<Option<Vec<i64>>> {
        let sql = "SELECT group_concat(rowid) FROM (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 \
                   AND rowid >= $2 AND rowid <= $3 ORDER BY rowid DESC LIMIT $4)";
        let read = |lo: i64, hi: i64, limit: i64| async move {
            let list: Option<String> =
                with_pool!(self, |p| sqlx::query_scalar(sql).bind(m).bind(lo).bind(hi).bind(limit).fetch_one(p).await?);
            Ok::<_, crate::StoreError>(id_list(list))
        };
        let (first, max) = (self.tuning.rare_search.max(1), self.tuning.search_set_max);
        let newest = read(lo, hi, first + 1).await?;
        let Some(&low) = newest.first().filter(|_| newest.len() as i64 > first) else {
            return Ok(Some(newest).filter(|ids| ids.len() as i64 <= max));
        };
        let estimate = newest.len() as f64 * (hi - lo + 1) as f64 / (hi - low + 1) as f64;
        let room = max - newest.len() as i64;
        if estimate > max as f64 || room < 0 {
            return Ok(None);
        }
        let mut all = read(lo, low - 1, room + 1).await?;
        if all.len() as i64 > room {
            return Ok(None);
        }
        all.extend(newest);
        Ok(Some(all))
    }

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
        let scope = q.scope();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let need = start.saturating_add(usize::try_from(per_page).unwrap_or(0));
        let mut counted = 0usize;
        if !tested {
            return Ok(Some(select(&table, q, &scope, None, need, None, &mut counted).iter().skip(start).map(|e| e.id).collect()));
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
            let candidates = select(&table, q, &scope, after.as_ref(), piece, None, &mut counted);
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
        Ok(Some(kept.into_iter().take(need).skip(start).collect()))
    }
}
