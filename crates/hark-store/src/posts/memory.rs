//! A page of the posts page from the tracker's in-memory table ([`crate::topics::table`]): the
//! range's posts that pass the filters are selected by the sort's key, in the order the plain
//! query gives (the key, then for keys kept on the link the time, then the post id, all in the
//! query's direction). Queries with a search or tags are left to the SQL plans.

use std::cmp::Ordering;

use super::query::{PostQuery, PostSort};
use crate::ingest::PostKind;
use crate::sentiment::bucket_index;
use crate::topics::table::{DayPosts, Scope};
use crate::{Result, Store};

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
    /// Whether the in-memory table can answer: no search, post tags or influencer tags (their
    /// matches are in the database only).
    pub(crate) fn memory_applies(&self) -> bool {
        super::query::search_words(&self.search).is_empty()
            && self.filter.post_tags.is_empty()
            && self.filter.influencer_tags.is_empty()
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
    /// The post ids of the query's page in its order, from the tracker's in-memory table; None
    /// when the query is not one it answers or the tracker is too large to keep in memory.
    pub(crate) async fn memory_page_ids(&self, tracker_id: i64, q: &PostQuery) -> Result<Option<Vec<i64>>> {
        if !q.memory_applies() {
            return Ok(None);
        }
        // A table never read is read in the background (a million posts take seconds) while this
        // page and the next come from the SQL plans; one read whole is brought up to date here
        // (the days written since), which is quick.
        match self.topic_tables.state(tracker_id) {
            (true, _) => {}
            (false, true) => return Ok(None),
            (false, false) => {
                let store = self.clone();
                tokio::spawn(async move {
                    if let Err(e) = store.topic_table(tracker_id).await {
                        tracing::warn!(tracker_id, error = %e, "reading the tracker's posts into memory failed");
                    }
                });
                return Ok(None);
            }
        }
        let Some(entry) = self.topic_table(tracker_id).await? else { return Ok(None) };
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
        let end = start.saturating_add(usize::try_from(per_page).unwrap_or(0));
        let order = |a: &Entry, b: &Entry| if q.ascending { q.compare(a, b) } else { q.compare(b, a) };
        // The first `end` posts in order, kept among at most twice as many: when the buffer
        // fills, its first `end` stay and the last of them becomes the bar a post must pass.
        let room = end.saturating_mul(2).max(64);
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
            best.push(e);
            if best.len() >= room && end > 0 {
                best.select_nth_unstable_by(end - 1, order);
                best.truncate(end);
                bar = best.last().copied();
            }
        });
        if start >= best.len() {
            return Ok(Some(Vec::new()));
        }
        best.sort_unstable_by(order);
        best.truncate(end);
        let page = &best[start..];
        Ok(Some(page.iter().map(|e| e.id).collect()))
    }
}
