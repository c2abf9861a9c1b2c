//! A tracker's posts as the trending topics, sentiment and posts pages (and the dashboard's keyword
//! lists) read them, held in memory:
//! per post its id, time, platform, shown sentiment bucket, subtrackers, its words and hashtags
//! (as ids into the tracker's term dictionary), the keys the posts page sorts by ([`Keys`]), and
//! what the dashboard counts ([`Facets`]: its author, dislikes, place, source, type, gender,
//! language, domains, links and mentions).
//! Counting words over a month of posts is then a loop over small integers instead of parsing
//! every post's term list out of the database, co-occurrence (the drill-down layers) needs no
//! index of its own, and a page of posts in any order is a selection over the range's keys.
//!
//! It stays exact by the tracker's `post_version`: every write that adds, removes or changes a
//! tracker's posts takes the next version and marks the days it touched (`rollups::mark_days`),
//! so a reader holding version `v` reads the tracker's version (one row), and when it moved, reads
//! again only the days marked above `v`; of a day the writes since `v` logged a floor for (the
//! lowest post id they changed there), only the posts from that floor on, so a day that keeps
//! gaining new posts costs its new posts, not the whole day. Several servers on one database each keep their own table
//! the same way. Tables are kept for the trackers used most recently, up to [`MAX_POSTS`] posts in
//! all; a tracker larger than that is read from the post rows for each request (the same code
//! over a table of just the request's days).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::TryStreamExt;
use hark_core::{Platform, PlatformSet};
use tokio::sync::RwLock;

use crate::sentiment::bucket_index;
use crate::time::DAY_MS;
use crate::{with_pool, Result, Store};

/// Posts kept in memory over every tracker (about 240 bytes each with ten terms).
pub(crate) const MAX_POSTS: usize = 5_000_000;

/// A term's kind: a content word (the post's keywords) or a hashtag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TermKind {
    Word,
    Hashtag,
}

impl TermKind {
    pub fn name(self) -> &'static str {
        match self {
            TermKind::Word => "word",
            TermKind::Hashtag => "hashtag",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "word" | "words" | "keyword" => Some(TermKind::Word),
            "hashtag" | "hashtags" => Some(TermKind::Hashtag),
            _ => None,
        }
    }
}

/// The posts of one day (UTC), sorted by post id.
#[derive(Debug, Default, Clone)]
pub(crate) struct DayPosts {
    pub ids: Vec<i64>,
    pub at: Vec<i64>,
    /// Index into [`Platform::ALL`].
    pub platform: Vec<u8>,
    /// Index into `SENTIMENT_COLUMNS` (0 positive … 4 negative).
    pub bucket: Vec<u8>,
    pub subs: Vec<i64>,
    /// Post `i`'s terms are `terms[ends[i - 1]..ends[i]]` (from 0 for the first).
    pub ends: Vec<u32>,
    pub terms: Vec<u32>,
    /// The posts page's keys of each post.
    pub keys: Keys,
    /// What the dashboard counts of each post.
    pub facets: Facets,
    /// The dashboard's sums of the day per platform, made on first use and dropped whenever the
    /// day's posts change (see [`crate::dashboard::memory::DaySummary`]).
    pub summary: std::sync::OnceLock<Box<crate::dashboard::memory::DaySummary>>,
}

/// The kinds of [`Facets`] terms: the dashboard's term kinds other than words and hashtags (as
/// `dash_terms` names them), the [`SCALAR_KINDS`] first.
pub(crate) const FACET_KINDS: [&str; 10] =
    ["country", "region", "source", "post_type", "gender", "lang", "sentiment", "domain", "link", "mention"];

/// The index of a facet kind in [`FACET_KINDS`].
pub(crate) fn facet_kind(kind: &str) -> Option<u8> {
    FACET_KINDS.iter().position(|k| *k == kind).map(|i| i as u8)
}

/// Kinds of [`FACET_KINDS`] of which a post has at most one (a column of the post): country,
/// region, source, post type, gender, language and shown sentiment.
pub(crate) const SCALAR_KINDS: usize = 7;

/// A post without a term of a scalar kind.
pub(crate) const NO_FACET: u32 = u32::MAX;

/// What the dashboard counts of each post, a column each.
#[derive(Debug, Default, Clone)]
pub(crate) struct Facets {
    /// The post's account, an id into [`TopicTable::authors`].
    pub author: Vec<u32>,
    pub dislikes: Vec<i64>,
    /// Per scalar kind, each post's term (an id into [`TopicTable::facet_text`]) or [`NO_FACET`].
    pub scalar: [Vec<u32>; SCALAR_KINDS],
    /// Post `i`'s domains, links and mentions (ids into [`TopicTable::facet_text`]) are
    /// `lists[ends[i - 1]..ends[i]]`.
    pub ends: Vec<u32>,
    pub lists: Vec<u32>,
}

impl Facets {
    pub fn of(&self, i: usize) -> &[u32] {
        let from = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.lists[from..self.ends[i] as usize]
    }

    fn push(&mut self, author: u32, dislikes: i64, scalar: &[u32; SCALAR_KINDS], list: &[u32]) {
        self.author.push(author);
        self.dislikes.push(dislikes);
        for (col, v) in self.scalar.iter_mut().zip(scalar) {
            col.push(*v);
        }
        self.lists.extend_from_slice(list);
        self.ends.push(self.lists.len() as u32);
    }

    fn truncate(&mut self, n: usize) {
        let lists = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        self.author.truncate(n);
        self.dislikes.truncate(n);
        for col in &mut self.scalar {
            col.truncate(n);
        }
        self.lists.truncate(lists);
        self.ends.truncate(n);
    }
}

/// The keys the posts page filters and sorts a tracker's posts by, a column each (as
/// `tracker_posts` and `posts` hold them).
#[derive(Debug, Default, Clone)]
pub(crate) struct Keys {
    /// `tracker_posts.post_kind` (0 post, 1 retweet, 2 story).
    pub kind: Vec<u8>,
    pub engagement: Vec<i64>,
    pub followers: Vec<i64>,
    pub impressions: Vec<i64>,
    pub rate: Vec<f64>,
    pub sentiment: Vec<f64>,
    pub likes: Vec<i64>,
    pub comments: Vec<i64>,
    pub shares: Vec<i64>,
    pub views: Vec<i64>,
    /// `author_sort` and `text_sort` of post `i`: `text[starts[2i]..starts[2i + 1]]` and
    /// `text[starts[2i + 1]..starts[2i + 2]]` (`starts` begins with 0).
    pub text: Vec<u8>,
    pub starts: Vec<u32>,
}

impl Keys {
    fn push(&mut self, k: &LinkKeys) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.kind.push(k.post_kind.clamp(0, 255) as u8);
        self.engagement.push(k.engagement);
        self.followers.push(k.followers);
        self.impressions.push(k.impressions);
        self.rate.push(k.rate);
        self.sentiment.push(k.sentiment);
        self.likes.push(k.likes);
        self.comments.push(k.comments);
        self.shares.push(k.shares);
        self.views.push(k.views);
        self.text.extend_from_slice(k.author_sort.as_bytes());
        self.starts.push(self.text.len() as u32);
        self.text.extend_from_slice(k.text_sort.as_bytes());
        self.starts.push(self.text.len() as u32);
    }

    /// Keeps the first `n` posts' keys.
    fn truncate(&mut self, n: usize) {
        self.kind.truncate(n);
        self.engagement.truncate(n);
        self.followers.truncate(n);
        self.impressions.truncate(n);
        self.rate.truncate(n);
        self.sentiment.truncate(n);
        self.likes.truncate(n);
        self.comments.truncate(n);
        self.shares.truncate(n);
        self.views.truncate(n);
        if let Some(end) = self.starts.get(2 * n).copied() {
            self.text.truncate(end as usize);
            self.starts.truncate(2 * n + 1);
        }
    }

    /// The `author_sort` of post `i`.
    pub fn author(&self, i: usize) -> &[u8] {
        &self.text[self.starts[2 * i] as usize..self.starts[2 * i + 1] as usize]
    }

    /// The `text_sort` of post `i`.
    pub fn text(&self, i: usize) -> &[u8] {
        &self.text[self.starts[2 * i + 1] as usize..self.starts[2 * i + 2] as usize]
    }
}

/// The posts page's keys of one post as read.
#[derive(Debug, Default, Clone, sqlx::FromRow)]
pub(crate) struct LinkKeys {
    pub post_kind: i64,
    pub engagement: i64,
    pub followers: i64,
    pub impressions: i64,
    pub rate: f64,
    pub sentiment: f64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    pub views: i64,
    pub author_sort: String,
    pub text_sort: String,
}

impl DayPosts {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn terms_of(&self, i: usize) -> &[u32] {
        let from = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.terms[from..self.ends[i] as usize]
    }

    /// Keeps the first `n` posts.
    fn truncate(&mut self, n: usize) {
        let terms = if n == 0 { 0 } else { self.ends[n - 1] as usize };
        self.ids.truncate(n);
        self.at.truncate(n);
        self.platform.truncate(n);
        self.bucket.truncate(n);
        self.subs.truncate(n);
        self.terms.truncate(terms);
        self.ends.truncate(n);
        self.keys.truncate(n);
        self.facets.truncate(n);
        self.summary = std::sync::OnceLock::new();
    }

    fn push(&mut self, p: &Loaded) {
        self.ids.push(p.id);
        self.at.push(p.at);
        self.platform.push(p.platform);
        self.bucket.push(p.bucket);
        self.subs.push(p.subs);
        self.terms.extend_from_slice(&p.terms);
        self.ends.push(self.terms.len() as u32);
        self.keys.push(&p.keys);
        self.facets.push(p.author, p.dislikes, &p.scalar, &p.facets);
        self.summary = std::sync::OnceLock::new();
    }
}

/// One post as read from its rows, its terms already ids.
struct Loaded {
    id: i64,
    at: i64,
    platform: u8,
    bucket: u8,
    subs: i64,
    terms: Vec<u32>,
    keys: LinkKeys,
    author: u32,
    dislikes: i64,
    scalar: [u32; SCALAR_KINDS],
    facets: Vec<u32>,
}

/// What a query over the table keeps: a range, platforms and a subtracker.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope {
    /// First and last millisecond, inclusive.
    pub start: i64,
    pub end: i64,
    /// Bit `i` set: posts of `Platform::ALL[i]` count.
    pub platforms: u16,
    /// 0: every post; else the subtracker's bit.
    pub sub_bit: i64,
    /// Whether [`TopicTable::each_part`] may give a day it holds whole as one part (tests turn
    /// it off to compare the two ways of counting).
    pub whole_days: bool,
}

impl Scope {
    pub fn new(start: i64, end: i64, platforms: PlatformSet, subtracker: Option<u32>) -> Self {
        let mut mask = 0u16;
        for (i, p) in Platform::ALL.iter().enumerate() {
            if platforms.contains(*p) {
                mask |= 1 << i;
            }
        }
        Scope { start, end, platforms: mask, sub_bit: subtracker.map_or(0, |s| 1i64 << (s.clamp(1, 63) - 1)), whole_days: true }
    }

    pub fn with_range(self, start: i64, end: i64) -> Self {
        Scope { start, end, ..self }
    }
}

#[derive(Debug, Default)]
pub(crate) struct TopicTable {
    /// The tracker's `post_version` the days hold; -1 before the first read.
    version: i64,
    /// Terms by id: a hashtag is kept as `#` and its text, a word as itself.
    pub dict: Vec<Box<str>>,
    /// Whether each term is a hashtag.
    pub hashtag: Vec<bool>,
    ids: HashMap<Box<str>, u32>,
    /// Accounts by id: the index of their platform in [`Platform::ALL`] and their author key (the
    /// username, or the author id without one).
    pub authors: Vec<(u8, Box<str>)>,
    /// Account ids by platform index and author key.
    author_ids: Vec<HashMap<Box<str>, u32>>,
    /// Facet terms by id, with the index of their kind in [`FACET_KINDS`].
    pub facet_text: Vec<Box<str>>,
    pub facet_kind: Vec<u8>,
    /// Facet ids by kind index and text.
    facet_ids: Vec<HashMap<Box<str>, u32>>,
    pub days: BTreeMap<i64, DayPosts>,
    posts: usize,
    last_used: AtomicU64,
}

/// A post's row as [`POST_COLUMNS`] reads it.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct PostRow {
    post_id: i64,
    created_at: i64,
    platform: String,
    bucket: Option<String>,
    subtrackers: i64,
    terms: String,
    #[sqlx(flatten)]
    keys: LinkKeys,
    #[sqlx(flatten)]
    more: MoreColumns,
}

/// The columns a post's [`Facets`] come from.
#[derive(Debug, Default, sqlx::FromRow)]
pub(crate) struct MoreColumns {
    author_key: String,
    dislikes: i64,
    country: Option<String>,
    region: Option<String>,
    device: Option<String>,
    post_type: Option<String>,
    gender: Option<String>,
    lang: Option<String>,
}

impl TopicTable {
    /// The id of a term, added to the dictionary when new.
    fn intern(&mut self, key: &str) -> u32 {
        if let Some(i) = self.ids.get(key) {
            return *i;
        }
        let i = self.dict.len() as u32;
        self.dict.push(key.into());
        self.hashtag.push(key.starts_with('#'));
        self.ids.insert(key.into(), i);
        i
    }

    /// The id of a term of a kind, if any post has it.
    pub fn id_of(&self, kind: TermKind, text: &str) -> Option<u32> {
        match kind {
            TermKind::Word => self.ids.get(text).copied(),
            TermKind::Hashtag => self.ids.get(format!("#{text}").as_str()).copied(),
        }
    }

    pub fn kind_of(&self, id: u32) -> TermKind {
        if self.hashtag[id as usize] {
            TermKind::Hashtag
        } else {
            TermKind::Word
        }
    }

    /// The text a term is shown with (a hashtag without its `#`).
    pub fn text_of(&self, id: u32) -> &str {
        let t = &self.dict[id as usize];
        t.strip_prefix('#').unwrap_or(t)
    }

    /// The id of an account, added when new.
    fn author_id(&mut self, platform: u8, key: &str) -> u32 {
        let (i, new) = slot_id(&mut self.author_ids, platform, key, self.authors.len());
        if new {
            self.authors.push((platform, key.into()));
        }
        i
    }

    /// The id of a facet term of a kind (index into [`FACET_KINDS`]), added when new.
    fn facet_id(&mut self, kind: u8, text: &str) -> u32 {
        let (i, new) = slot_id(&mut self.facet_ids, kind, text, self.facet_text.len());
        if new {
            self.facet_text.push(text.into());
            self.facet_kind.push(kind);
        }
        i
    }

    /// A table of twitter posts at the given times with the given subtracker bits (tests).
    #[cfg(test)]
    pub fn with_posts(posts: &[(i64, i64)]) -> TopicTable {
        let mut t = TopicTable::default();
        let rows = posts
            .iter()
            .enumerate()
            .map(|(i, (at, subs))| PostRow {
                post_id: i as i64 + 1,
                created_at: *at,
                platform: "twitter".into(),
                bucket: Some("neutral".into()),
                subtrackers: *subs,
                terms: "{}".into(),
                keys: LinkKeys::default(),
                more: MoreColumns::default(),
            })
            .collect();
        let loaded = t.load(rows);
        t.replace_days(&[], loaded);
        t
    }

    /// A table of `n` posts drawn from `seed` over `days` days from day 0: three platforms,
    /// `accounts` accounts, `words` words (with hashtags, domains, links and mentions among as
    /// many, and regions), every scalar facet, some left out, and subtrackers (tests).
    #[cfg(test)]
    pub fn random(n: usize, days: i64, words: u64, accounts: u64, seed: u64) -> TopicTable {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m.max(1)
        };
        let pick = |v: u64, options: &[&str]| options[v as usize % options.len()].to_string();
        let rows = (0..n)
            .map(|i| {
                let at = next((days * DAY_MS) as u64) as i64;
                let mut k: Vec<String> = (0..next(6)).map(|_| format!("w{}", next(words))).collect();
                k.sort();
                k.dedup();
                let terms = serde_json::json!({
                    "k": k,
                    "h": (0..next(3)).map(|_| format!("t{}", next(words))).collect::<Vec<_>>(),
                    "d": (0..next(3)).map(|_| format!("d{}.example", next(words))).collect::<Vec<_>>(),
                    "l": (0..next(2)).map(|_| format!("https://l{}.example/", next(words))).collect::<Vec<_>>(),
                    "m": (0..next(2)).map(|_| format!("m{}", next(words))).collect::<Vec<_>>(),
                });
                let some = |v: u64, options: &[&str]| (v > 0).then(|| pick(v, options));
                PostRow {
                    post_id: i as i64 + 1,
                    created_at: at,
                    platform: pick(next(3), &["twitter", "instagram", "news"]),
                    bucket: some(next(6), &["positive", "somewhat_positive", "neutral", "somewhat_negative", "negative"]),
                    // Subtrackers 1 to 5, and now and then every one of 63 or only the 63rd.
                    subtrackers: match next(50) {
                        0 => -1,
                        1 => i64::MIN,
                        _ => next(32) as i64,
                    },
                    terms: terms.to_string(),
                    keys: LinkKeys {
                        engagement: next(1000) as i64,
                        followers: next(100_000) as i64,
                        impressions: next(50_000) as i64,
                        likes: next(500) as i64,
                        ..LinkKeys::default()
                    },
                    more: MoreColumns {
                        author_key: format!("a{}", next(accounts)),
                        dislikes: next(20) as i64,
                        country: some(next(5), &["GB", "US", "FR", "DE"]),
                        region: (next(4) > 0).then(|| format!("r{}", next(words))),
                        device: some(next(3), &["iPhone", "Android"]),
                        post_type: some(next(4), &["post", "reply", "retweet"]),
                        gender: some(next(3), &["male", "female"]),
                        lang: some(next(4), &["en", "fr", "de"]),
                    },
                }
            })
            .collect();
        let mut t = TopicTable::default();
        let loaded = t.load(rows);
        t.replace_days(&[], loaded);
        t
    }

    #[cfg(test)]
    pub fn posts(&self) -> usize {
        self.posts
    }

    /// Turns rows into posts, their terms into ids.
    fn load(&mut self, rows: Vec<PostRow>) -> Vec<Loaded> {
        rows.into_iter().filter_map(|r| self.load_one(r)).collect()
    }

    /// One row as a post, its terms as ids (None for an unknown platform).
    fn load_one(&mut self, row: PostRow) -> Option<Loaded> {
        let PostRow { post_id: id, created_at: at, platform, bucket, subtrackers: subs, terms, keys, more } = row;
        let p = Platform::parse(&platform).ok()?;
        let platform = Platform::ALL.iter().position(|x| *x == p).unwrap_or(0) as u8;
        let author = self.author_id(platform, &more.author_key);
        let mut facets = Vec::new();
        let mut scalar = [NO_FACET; SCALAR_KINDS];
        let columns = [&more.country, &more.region, &more.device, &more.post_type, &more.gender, &more.lang, &bucket];
        for (kind, v) in columns.into_iter().enumerate() {
            if let Some(v) = v {
                scalar[kind] = self.facet_id(kind as u8, v);
            }
        }
        let bucket = bucket_index(bucket.as_deref().unwrap_or("neutral")) as u8;
        let mut ids = Vec::new();
        if let Ok(t) = serde_json::from_str::<crate::dashboard::terms::TermsRef>(&terms) {
            for (kind, name) in [(7u8, "domain"), (8, "link"), (9, "mention")] {
                for v in t.of(name) {
                    facets.push(self.facet_id(kind, v));
                }
            }
            for w in t.of("keyword") {
                ids.push(self.intern(w));
            }
            let mut key = String::new();
            for h in t.of("hashtag") {
                key.clear();
                key.push('#');
                key.push_str(h);
                let i = self.intern(&key);
                ids.push(i);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        Some(Loaded { id, at, platform, bucket, subs, terms: ids, keys, author, dislikes: more.dislikes, scalar, facets })
    }

    /// Replaces the days in `days` with the posts read for them.
    fn replace_days(&mut self, days: &[i64], posts: Vec<Loaded>) {
        for d in days {
            if let Some(old) = self.days.remove(d) {
                self.posts -= old.len();
            }
        }
        let mut by_day: BTreeMap<i64, Vec<Loaded>> = BTreeMap::new();
        for p in posts {
            by_day.entry(p.at.div_euclid(DAY_MS) * DAY_MS).or_default().push(p);
        }
        for (day, mut list) in by_day {
            list.sort_unstable_by_key(|p| p.id);
            let mut d = DayPosts::default();
            for p in &list {
                d.push(p);
            }
            self.posts += d.len();
            self.days.insert(day, d);
        }
    }

    /// Replaces the posts of `day` from post id `floor` on with the posts read for them (all of
    /// that day, with ids at or above `floor`).
    fn replace_tail(&mut self, day: i64, floor: i64, mut posts: Vec<Loaded>) {
        posts.sort_unstable_by_key(|p| p.id);
        let d = self.days.entry(day).or_default();
        let keep = d.ids.partition_point(|id| *id < floor);
        self.posts -= d.len() - keep;
        d.truncate(keep);
        for p in &posts {
            d.push(p);
        }
        self.posts += posts.len();
        if d.len() == 0 {
            self.days.remove(&day);
        }
    }

    /// Calls `f(day, i)` for every post in scope.
    pub fn each<'a, F: FnMut(&'a DayPosts, usize)>(&'a self, s: &Scope, f: F) {
        self.each_in(s, false, f)
    }

    /// As [`Self::each`], the days newest first when `newest_first` (a day's posts stay in id
    /// order).
    pub fn each_in<'a, F: FnMut(&'a DayPosts, usize)>(&'a self, s: &Scope, newest_first: bool, mut f: F) {
        for (day, d) in self.days_of(s, newest_first) {
            let whole = *day >= s.start && day + DAY_MS - 1 <= s.end;
            posts_in(d, s, whole, &mut f);
        }
    }

    /// The days the scope's range touches, oldest or newest first (none for an empty range).
    fn days_of<'a>(&'a self, s: &Scope, newest_first: bool) -> Box<dyn Iterator<Item = (&'a i64, &'a DayPosts)> + 'a> {
        if s.start > s.end {
            return Box::new(std::iter::empty());
        }
        let range = self.days.range(s.start.div_euclid(DAY_MS) * DAY_MS..=s.end.div_euclid(DAY_MS) * DAY_MS);
        if newest_first {
            Box::new(range.rev())
        } else {
            Box::new(range)
        }
    }

    /// As [`Self::each_in`], only the posts whose ids are in `ids` (sorted ascending): each
    /// day's share of `ids` is looked up among its posts (sorted by id), so the cost follows the
    /// ids, not the range's posts.
    pub fn each_of<'a, F: FnMut(&'a DayPosts, usize)>(&'a self, s: &Scope, ids: &[i64], newest_first: bool, mut f: F) {
        if ids.is_empty() {
            return;
        }
        for (_, d) in self.days_of(s, newest_first) {
            let (Some(first), Some(last)) = (d.ids.first(), d.ids.last()) else { continue };
            let from = ids.partition_point(|id| id < first);
            let to = ids.partition_point(|id| id <= last);
            let mut base = 0;
            for id in &ids[from..to] {
                // Both lists ascend: each id is looked for after the one before.
                let i = base + d.ids[base..].partition_point(|x| x < id);
                base = i;
                if d.ids.get(i) == Some(id) {
                    base = i + 1;
                    if in_scope(d, i, s, false) {
                        f(d, i);
                    }
                }
            }
        }
    }

    /// The lowest and highest post ids of the days the scope's range touches (every post in
    /// scope has its id between them), None when it holds no post.
    pub fn id_span(&self, s: &Scope) -> Option<(i64, i64)> {
        self.days_of(s, false).filter_map(|(_, d)| Some((*d.ids.first()?, *d.ids.last()?))).reduce(|x, y| (x.0.min(y.0), x.1.max(y.1)))
    }

    /// As [`Self::each`], except that a day the scope holds whole, when it keeps every
    /// subtracker, comes as one [`Part::Day`] (with its posts of every platform: the caller keeps
    /// the scope's), the dashboard then reading its summary rather than its posts.
    ///
    /// Days of fewer than [`SUMMARY_MIN_POSTS`] posts come post by post (their summary would
    /// save little and cost more memory per post), and so does the table's newest day, which
    /// a collecting tracker changes at every write (its summary would be made again each time).
    pub fn each_part<'a, F: FnMut(Part<'a>)>(&'a self, s: &Scope, mut f: F) {
        let newest = self.days.keys().next_back().copied();
        for (day, d) in self.days_of(s, false) {
            let whole = *day >= s.start && day + DAY_MS - 1 <= s.end;
            if whole && s.sub_bit == 0 && s.whole_days && d.len() >= SUMMARY_MIN_POSTS && Some(*day) != newest {
                f(Part::Day(*day, d));
            } else {
                posts_in(d, s, whole, |d, i| f(Part::Post(d, i)));
            }
        }
    }

    /// First and last post time of the table, if any post.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        let first = self.days.values().find(|d| d.len() > 0)?.at.iter().min().copied()?;
        let last = self.days.values().rev().find(|d| d.len() > 0)?.at.iter().max().copied()?;
        Some((first, last))
    }
}

/// The fewest posts of a day [`TopicTable::each_part`] gives whole.
pub(crate) const SUMMARY_MIN_POSTS: usize = 2_000;

/// Calls `f(d, i)` for the posts of day `d` in scope (`whole`: the day lies inside its range).
#[inline(always)]
fn posts_in<'a>(d: &'a DayPosts, s: &Scope, whole: bool, mut f: impl FnMut(&'a DayPosts, usize)) {
    for i in 0..d.len() {
        if in_scope(d, i, s, whole) {
            f(d, i);
        }
    }
}

/// Whether post `i` of day `d` is in scope: its platform, subtracker and (unless the day lies
/// `whole` inside the range) its time.
#[inline(always)]
fn in_scope(d: &DayPosts, i: usize, s: &Scope, whole: bool) -> bool {
    (s.platforms >> d.platform[i]) & 1 != 0
        && (s.sub_bit == 0 || d.subs[i] & s.sub_bit != 0)
        && (whole || (s.start <= d.at[i] && d.at[i] <= s.end))
}

/// What [`TopicTable::each_part`] gives: a day in scope whole (its start and posts), or a post
/// of another day.
pub(crate) enum Part<'a> {
    Day(i64, &'a DayPosts),
    Post(&'a DayPosts, usize),
}

/// The id of `key` in the map of `slot` (a platform or a facet kind), or `next` added there when
/// new; and whether it was new.
fn slot_id(maps: &mut Vec<HashMap<Box<str>, u32>>, slot: u8, key: &str, next: usize) -> (u32, bool) {
    let s = slot as usize;
    if maps.len() <= s {
        maps.resize_with(s + 1, HashMap::new);
    }
    if let Some(i) = maps[s].get(key) {
        return (*i, false);
    }
    maps[s].insert(key.into(), next as u32);
    (next as u32, true)
}

/// The tables of the trackers used most recently.
#[derive(Debug, Default)]
pub(crate) struct TopicTables {
    trackers: Mutex<HashMap<i64, Arc<RwLock<TopicTable>>>>,
    clock: AtomicU64,
    /// Trackers found too large to keep (their requests read the rows), until the process ends.
    oversized: Mutex<std::collections::HashSet<i64>>,
    /// Trackers whose table has been read whole once and is still kept. Known apart from the
    /// table's lock: while a table is brought up to date its lock is held for writing, and a
    /// reader that took that for a first read answered from the rows instead of waiting the few
    /// milliseconds the update takes. Under a load test's readers of a tracker being written that
    /// turned every request during an update into a SQL plan, which slowed the next update,
    /// until most requests were answered from the rows (the dashboard at a tenth of its rate).
    read_once: Mutex<std::collections::HashSet<i64>>,
    /// Post rows read to bring tables up to date, since the start.
    pub(crate) rows_read: AtomicU64,
}

impl TopicTables {
    /// Whether the tracker's table has been read whole once (it may be behind by a few days),
    /// and whether it is being read now or is too large to keep.
    pub(crate) fn state(&self, tracker_id: i64) -> (bool, bool) {
        if self.oversized.lock().unwrap_or_else(|e| e.into_inner()).contains(&tracker_id) {
            return (false, true);
        }
        if self.read_once.lock().unwrap_or_else(|e| e.into_inner()).contains(&tracker_id) {
            return (true, false);
        }
        let m = self.trackers.lock().unwrap_or_else(|e| e.into_inner());
        match m.get(&tracker_id) {
            None => (false, false),
            Some(e) => match e.try_read() {
                Ok(g) => (g.version >= 0, false),
                Err(_) => (false, true),
            },
        }
    }

    pub(crate) fn entry(&self, tracker_id: i64) -> Arc<RwLock<TopicTable>> {
        let mut m = self.trackers.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(tracker_id).or_insert_with(|| Arc::new(RwLock::new(TopicTable { version: -1, ..Default::default() }))).clone()
    }

    /// Drops the least recently used tables (never `keep`) while the posts pass [`MAX_POSTS`].
    fn trim(&self, keep: i64, keep_posts: usize) {
        let mut m = self.trackers.lock().unwrap_or_else(|e| e.into_inner());
        let mut sizes: Vec<(u64, i64, usize)> = m
            .iter()
            .filter(|(t, _)| **t != keep)
            .filter_map(|(t, e)| e.try_read().ok().map(|g| (g.last_used.load(Ordering::Relaxed), *t, g.posts)))
            .collect();
        let mut total: usize = keep_posts + sizes.iter().map(|s| s.2).sum::<usize>();
        sizes.sort_unstable();
        for (_, t, posts) in sizes {
            if total <= MAX_POSTS {
                break;
            }
            m.remove(&t);
            self.read_once.lock().unwrap_or_else(|e| e.into_inner()).remove(&t);
            total -= posts;
        }
        if keep_posts > MAX_POSTS {
            m.remove(&keep);
            self.read_once.lock().unwrap_or_else(|e| e.into_inner()).remove(&keep);
            self.oversized.lock().unwrap_or_else(|e| e.into_inner()).insert(keep);
        }
    }
}

/// The columns a table reads of a tracker's live posts.
const POST_COLUMNS: &str = "SELECT tp.post_id, tp.created_at, tp.platform, tp.bucket, tp.subtrackers, p.terms, \
                            CAST(tp.post_kind AS BIGINT) AS post_kind, tp.engagement, tp.followers, tp.impressions, tp.rate, \
                            tp.sentiment, p.likes, p.comments, p.shares, p.views, tp.author_sort, tp.text_sort, \
                            CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END AS author_key, \
                            p.dislikes, p.country, p.region, p.device, p.post_type, p.gender, p.lang \
                            FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1";

/// Whether logged floors are read (`HARK_DAY_FLOORS=0`, hidden, reads every marked day whole: the
/// load test's baseline).
fn floors_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("HARK_DAY_FLOORS").map_or(true, |v| v != "0"))
}

/// Days marked above a version before a table reads everything again instead of day by day.
const MANY_DAYS: usize = 64;

impl Store {
    /// [`Store::topic_table`] for the pages that have another way to answer (the posts page's
    /// SQL plans, the dashboard's rollups): a table never read is read in the background (a
    /// million posts take seconds) and None is returned meanwhile; one read whole is brought up to
    /// date here (the days written since), which is quick.
    pub(crate) async fn topic_table_when_read(&self, tracker_id: i64) -> Result<Option<Arc<RwLock<TopicTable>>>> {
        match self.topic_tables.state(tracker_id) {
            (true, _) => self.topic_table(tracker_id).await,
            (false, true) => Ok(None),
            (false, false) => {
                let store = self.clone();
                tokio::spawn(async move {
                    if let Err(e) = store.topic_table(tracker_id).await {
                        tracing::warn!(tracker_id, error = %e, "reading the tracker's posts into memory failed");
                    }
                });
                Ok(None)
            }
        }
    }

    /// The tracker's `post_version` as committed now; None when the tracker is gone.
    async fn post_version(&self, tracker_id: i64) -> Result<Option<i64>> {
        Ok(with_pool!(self, |p| sqlx::query_scalar("SELECT post_version FROM trackers WHERE id = $1")
            .bind(tracker_id)
            .fetch_optional(p)
            .await?))
    }

    /// The tracker's topic table brought up to date, or None when the tracker is gone or too
    /// large to keep in memory.
    pub(crate) async fn topic_table(&self, tracker_id: i64) -> Result<Option<Arc<RwLock<TopicTable>>>> {
        let Some(current) = self.post_version(tracker_id).await? else { return Ok(None) };
        let entry = self.topic_tables.entry(tracker_id);
        let stamp = self.topic_tables.clock.fetch_add(1, Ordering::Relaxed);
        {
            let g = entry.read().await;
            g.last_used.store(stamp, Ordering::Relaxed);
            // Versions only grow: a table at `current` or later holds every write committed
            // when this read began.
            if g.version >= current {
                let posts = g.posts;
                drop(g);
                return Ok((posts <= MAX_POSTS).then_some(entry));
            }
        }
        // Readers that find the table behind queue here. The first brings it up to the version
        // of the moment it holds the lock, so those queued behind it, which read their versions
        // before that, find it current and read it as it is. (Each bringing the table up to the
        // version it had read kept the lock through one read of the database after another
        // while writes moved the version every few milliseconds: under the load test, every
        // panel of a server waited in that chain for seconds.)
        let mut g = entry.write().await;
        if g.version < current {
            let current = self.post_version(tracker_id).await?.map_or(current, |v| v.max(current));
            // Each changed day with the floor from which its posts are read again (0: all of them).
            // While the day log still holds this table's version (one statement, so one snapshot),
            // a day's floor is the lowest its writes since then logged; otherwise the days marked
            // since are read whole (`rollups::mark_days`).
            let floors: Vec<(i64, i64)> = if g.version < 0 {
                Vec::new()
            } else {
                let log: Vec<(i64, i64, i64)> =
                    with_pool!(self, |p| sqlx::query_as("SELECT version, day, floor FROM post_day_log WHERE tracker_id = $1 AND version >= $2")
                        .bind(tracker_id)
                        .bind(g.version)
                        .fetch_all(p)
                        .await?);
                if floors_on() && log.iter().any(|(v, _, _)| *v == g.version) {
                    let mut lowest: BTreeMap<i64, i64> = BTreeMap::new();
                    for (v, day, floor) in log {
                        if v > g.version {
                            let f = lowest.entry(day).or_insert(floor);
                            *f = (*f).min(floor);
                        }
                    }
                    lowest.into_iter().collect()
                } else {
                    let days: Vec<i64> =
                        with_pool!(self, |p| sqlx::query_scalar("SELECT day FROM post_days WHERE tracker_id = $1 AND version > $2")
                            .bind(tracker_id)
                            .bind(g.version)
                            .fetch_all(p)
                            .await?);
                    days.into_iter().map(|d| (d, 0)).collect()
                }
            };
            let days: Vec<i64> = floors.iter().map(|(day, _)| *day).collect();
            let live = self.backend().live_link("tp");
            if g.version < 0 || days.len() > MANY_DAYS {
                // Rows are parsed as they arrive, while the database reads the next ones; in link
                // order, which is the posts' own order (by time, each link would find its post
                // somewhere else in the posts table).
                let sql = format!("{POST_COLUMNS} AND {live} ORDER BY tp.post_id");
                let mut posts = Vec::new();
                with_pool!(self, |p| {
                    let mut rows = sqlx::query_as::<_, PostRow>(&sql).bind(tracker_id).fetch(p);
                    while let Some(row) = rows.try_next().await? {
                        self.topic_tables.rows_read.fetch_add(1, Ordering::Relaxed);
                        posts.extend(g.load_one(row));
                    }
                });
                let all: Vec<i64> = g.days.keys().copied().collect();
                g.replace_days(&all, posts);
            } else {
                let sql = format!("{POST_COLUMNS} AND tp.created_at >= $2 AND tp.created_at < $3 AND {live}");
                // A day's posts from its floor on, found by post id (`+` keeps the time index out).
                let tail = format!("{POST_COLUMNS} AND tp.post_id >= $2 AND +tp.created_at >= $3 AND +tp.created_at < $4 AND {live}");
                let mut whole = Vec::new();
                let mut posts = Vec::new();
                for (day, floor) in &floors {
                    if *floor > 0 {
                        let rows: Vec<PostRow> = with_pool!(self, |p| sqlx::query_as(&tail)
                            .bind(tracker_id)
                            .bind(*floor)
                            .bind(*day)
                            .bind(day + DAY_MS)
                            .fetch_all(p)
                            .await?);
                        self.topic_tables.rows_read.fetch_add(rows.len() as u64, Ordering::Relaxed);
                        let loaded = g.load(rows);
                        g.replace_tail(*day, *floor, loaded);
                    } else {
                        let rows: Vec<PostRow> =
                            with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(*day).bind(day + DAY_MS).fetch_all(p).await?);
                        self.topic_tables.rows_read.fetch_add(rows.len() as u64, Ordering::Relaxed);
                        posts.extend(g.load(rows));
                        whole.push(*day);
                    }
                }
                g.replace_days(&whole, posts);
            }
            if g.version < 0 {
                self.topic_tables.read_once.lock().unwrap_or_else(|e| e.into_inner()).insert(tracker_id);
            }
            g.version = current;
        }
        let posts = g.posts;
        drop(g);
        self.topic_tables.trim(tracker_id, posts);
        Ok((posts <= MAX_POSTS).then_some(entry))
    }

    /// A table of only the posts of `[start, end]` (inclusive), read from the rows for one request:
    /// the answer for trackers too large to keep, and the benchmark's row-only baseline.
    pub(crate) async fn topic_table_of_rows(&self, tracker_id: i64, start: i64, end: i64) -> Result<TopicTable> {
        let live = self.backend().live_link("tp");
        let sql = format!("{POST_COLUMNS} AND tp.created_at >= $2 AND tp.created_at <= $3 AND {live}");
        let rows: Vec<PostRow> = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(start).bind(end).fetch_all(p).await?);
        let mut t = TopicTable::default();
        let posts = t.load(rows);
        t.replace_days(&[], posts);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, at: i64, bucket: &str, terms: &str) -> PostRow {
        PostRow {
            post_id: id,
            created_at: at,
            platform: "twitter".into(),
            bucket: Some(bucket.into()),
            subtrackers: 0,
            terms: terms.into(),
            keys: LinkKeys::default(),
            more: MoreColumns::default(),
        }
    }

    #[test]
    fn a_days_tail_is_replaced_from_its_floor() {
        fn keyed(t: &mut TopicTable, id: i64, at: i64, terms: &str, author: &str) -> Loaded {
            let mut r = row(id, at, "neutral", terms);
            r.keys.author_sort = author.into();
            r.more.author_key = author.into();
            r.more.country = (id % 2 == 0).then(|| "GB".into());
            r.keys.text_sort = format!("text {id}");
            r.keys.engagement = id * 10;
            t.load(vec![r]).pop().unwrap()
        }
        let mut t = TopicTable::default();
        let posts = vec![
            keyed(&mut t, 1, 10, r#"{"k":["a"]}"#, "ann"),
            keyed(&mut t, 2, 20, r#"{"k":["b","c"]}"#, "bob"),
            keyed(&mut t, 3, 30, r#"{"k":["c"]}"#, "cy"),
            keyed(&mut t, 4, 40, r#"{"k":["d"]}"#, "dee"),
        ];
        t.replace_days(&[], posts);
        let engagement = |t: &TopicTable| crate::dashboard::memory::summary(&t.days[&0]).platforms[0].total.engagement;
        assert_eq!(engagement(&t), 100);
        // Post 3 changed, post 4 is gone and post 7 is new: read from floor 3.
        let tail = vec![keyed(&mut t, 7, 70, r#"{"k":["e","a"]}"#, "eve"), keyed(&mut t, 3, 35, r#"{"k":["z"]}"#, "cyd")];
        t.replace_tail(0, 3, tail);
        // The day's summary is made again from its posts now.
        assert_eq!(engagement(&t), 130);
        assert_eq!(t.posts(), 4);
        let d = &t.days[&0];
        assert_eq!(d.ids, vec![1, 2, 3, 7]);
        assert_eq!(d.at, vec![10, 20, 35, 70]);
        let words = |i: usize| d.terms_of(i).iter().map(|w| t.text_of(*w).to_string()).collect::<Vec<_>>();
        assert_eq!(words(1), vec!["b", "c"]);
        assert_eq!(words(2), vec!["z"]);
        let mut last = words(3);
        last.sort();
        assert_eq!(last, vec!["a", "e"]);
        assert_eq!(d.keys.engagement, vec![10, 20, 30, 70]);
        assert_eq!(d.keys.author(1), b"bob");
        assert_eq!(d.keys.author(2), b"cyd");
        assert_eq!(d.keys.text(3), b"text 7");
        assert_eq!(d.keys.starts.len(), 2 * 4 + 1);
        // The dashboard's columns follow: accounts and facet lists of the posts kept and read.
        let author = |i: usize| &*t.authors[d.facets.author[i] as usize].1;
        assert_eq!((author(0), author(2), author(3)), ("ann", "cyd", "eve"));
        assert_eq!(d.facets.dislikes.len(), 4);
        let place = |i: usize| t.facet_text.get(d.facets.scalar[0][i] as usize).map(|s| &**s);
        assert_eq!((place(0), place(1), place(2), place(3)), (None, Some("GB"), None, None));
        assert!(d.facets.scalar.iter().all(|c| c.len() == 4));
        // A floor above every post only adds; a tail that leaves nothing drops the day.
        t.replace_tail(0, 8, vec![]);
        assert_eq!(t.days[&0].ids, vec![1, 2, 3, 7]);
        t.replace_tail(0, 1, vec![]);
        assert!(!t.days.contains_key(&0));
        assert_eq!(t.posts(), 0);
    }

    #[test]
    fn posts_of_given_ids_are_those_of_the_scope_among_them() {
        let t = TopicTable::random(3000, 6, 50, 40, 7);
        let twitter: PlatformSet = [hark_core::Platform::Twitter].into_iter().collect();
        let scopes = [
            Scope::new(0, 6 * DAY_MS, PlatformSet::all(), None),
            Scope::new(DAY_MS / 2, 4 * DAY_MS + 77, PlatformSet::all(), None),
            Scope::new(DAY_MS, 3 * DAY_MS - 1, twitter, Some(2)),
            Scope::new(5 * DAY_MS, 2 * DAY_MS, PlatformSet::all(), None),
        ];
        // Every third id, a few past the posts' ids, and none.
        let mut ids: Vec<i64> = (0..3010).step_by(3).collect();
        ids.push(5000);
        for s in &scopes {
            for newest_first in [false, true] {
                for given in [&ids[..], &ids[..1], &[][..]] {
                    let mut want = Vec::new();
                    t.each_in(s, newest_first, |d, i| {
                        if given.binary_search(&d.ids[i]).is_ok() {
                            want.push(d.ids[i]);
                        }
                    });
                    let mut got = Vec::new();
                    t.each_of(s, given, newest_first, |d, i| got.push(d.ids[i]));
                    assert_eq!(got, want, "{newest_first} {}", given.len());
                }
            }
            // The span holds every post in scope.
            let mut seen = Vec::new();
            t.each(s, |d, i| seen.push(d.ids[i]));
            match t.id_span(s) {
                Some((lo, hi)) => assert!(!seen.is_empty() && seen.iter().all(|id| (lo..=hi).contains(id))),
                None => assert!(seen.is_empty()),
            }
        }
    }

    #[test]
    fn days_are_replaced_whole_and_terms_interned() {
        let mut t = TopicTable::default();
        let posts = t.load(vec![
            row(1, 10, "positive", r#"{"k":["coffee","bean"],"h":["coffee"]}"#),
            row(2, DAY_MS + 5, "negative", r#"{"k":["coffee"]}"#),
        ]);
        t.replace_days(&[], posts);
        assert_eq!(t.posts(), 2);
        let word = t.id_of(TermKind::Word, "coffee").unwrap();
        let tag = t.id_of(TermKind::Hashtag, "coffee").unwrap();
        assert_ne!(word, tag);
        assert_eq!(t.kind_of(tag), TermKind::Hashtag);
        assert_eq!(t.text_of(tag), "coffee");
        // The second day read again: one post there now, none of the old one.
        let posts = t.load(vec![row(3, DAY_MS + 9, "neutral", r#"{"k":["tea"]}"#)]);
        t.replace_days(&[DAY_MS], posts);
        assert_eq!(t.posts(), 2);
        let mut seen = Vec::new();
        t.each(&Scope::new(0, 3 * DAY_MS, PlatformSet::all(), None), |d, i| seen.push(d.ids[i]));
        assert_eq!(seen, vec![1, 3]);
        // A range cutting a day keeps only its posts; another platform keeps none.
        let mut seen = Vec::new();
        t.each(&Scope::new(DAY_MS + 6, 3 * DAY_MS, PlatformSet::all(), None), |d, i| seen.push(d.ids[i]));
        assert_eq!(seen, vec![3]);
        let mut n = 0;
        t.each(&Scope::new(0, 3 * DAY_MS, PlatformSet::from_bits(0), None), |_, _| n += 1);
        assert_eq!(n, 0);
    }

    /// Readers that queue while a table is brought up to date: the first brings it up to the
    /// version of the moment it holds the lock, and the others, which read older versions, do not
    /// read the database again nor set the table back.
    #[tokio::test]
    async fn readers_queued_behind_a_catch_up_share_it() {
        use crate::ingest::{PostRecord, TrackerLink};
        let dir = std::env::temp_dir().join(format!("hark_table_queue_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let store = Store::connect(&format!("sqlite://{}", dir.join("t.db").display())).await.expect("connect");
        store.migrate().await.expect("migrate");
        let t = crate::testing::user_and_tracker(&store, "queue").await;
        let batch = |from: i64, n: i64| -> Vec<PostRecord> {
            (from..from + n)
                .map(|i| PostRecord {
                    post_key: format!("twitter;{i}"),
                    external_id: i.to_string(),
                    created_at: 1_700_000_000_000 + i,
                    author_username: format!("u{i}"),
                    text: format!("post {i} #coffee"),
                    data: "{}".into(),
                    links: vec![TrackerLink { tracker_id: t, subtrackers: 0, sentiment: None, indirect: false }],
                    ..Default::default()
                })
                .collect()
        };
        store.ingest_batch(&batch(1, 10), 20).await.expect("first");
        assert!(store.topic_table(t).await.expect("table").is_some());
        let read_before = store.topic_tables.rows_read.load(Ordering::Relaxed);
        // Hold the table while two writes land: one reader reads its version after the first,
        // another after the second.
        let entry = store.topic_tables.entry(t);
        let held = entry.write().await;
        store.ingest_batch(&batch(11, 3), 30).await.expect("second");
        let a = tokio::spawn({
            let s = store.clone();
            async move { s.topic_table(t).await.map(|e| e.is_some()) }
        });
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        store.ingest_batch(&batch(14, 4), 40).await.expect("third");
        let b = tokio::spawn({
            let s = store.clone();
            async move { s.topic_table(t).await.map(|e| e.is_some()) }
        });
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        drop(held);
        assert!(a.await.expect("a").expect("a's table"));
        assert!(b.await.expect("b").expect("b's table"));
        // The 7 new posts were read once, and the table holds the tracker's latest version.
        assert_eq!(store.topic_tables.rows_read.load(Ordering::Relaxed) - read_before, 7);
        let latest: i64 = sqlx::query_scalar("SELECT post_version FROM trackers WHERE id = $1")
            .bind(t)
            .fetch_one(match &store.db {
                crate::Db::Sqlite(p) => p,
                crate::Db::Postgres(_) => unreachable!(),
            })
            .await
            .expect("version");
        assert_eq!(entry.read().await.version, latest);
        assert_eq!(entry.read().await.posts, 17);
        store.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
