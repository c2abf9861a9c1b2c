//! Writing collected posts: one transaction per batch (two for a large batch on PostgreSQL) stores
//! new posts once, updates the counts of repeats, links posts to the trackers they matched and adds
//! their contribution to the rollups. Running the same batch twice changes nothing the second time,
//! so a batch interrupted by a crash can simply be sent again.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::Arc;

use hark_core::{Bucket, Gender, Millis, Platform, PostType};
use serde::{Deserialize, Serialize};

use crate::dialect::{Backend, WriteTx};
use crate::sentiment::{bucket_index, SENTIMENT_COLUMNS};
use crate::time::{DAY_MS, HOUR_MS};
use crate::ingest_rows::IngestRows;
use crate::{with_pool, BeginWrite, Result, Store};


/// Terms derived from a post that the rollups count; kept on the post so deletes can subtract.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct PostTerms {
    #[serde(default, rename = "h")]
    pub hashtags: Vec<String>,
    #[serde(default, rename = "m")]
    pub mentions: Vec<String>,
    #[serde(default, rename = "k")]
    pub keywords: Vec<String>,
    #[serde(default, rename = "d")]
    pub domains: Vec<String>,
    #[serde(default, rename = "l")]
    pub links: Vec<String>,
}

/// A tracker a post matched, with the subtrackers (bit i = subtracker i+1) it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackerLink {
    pub tracker_id: i64,
    pub subtrackers: i64,
    /// The bucket the tracker's custom sentiment keywords give the post, when one matched.
    pub sentiment: Option<&'static str>,
    /// The platform's search returned the post for this tracker, but its text lacks the terms
    /// (they may be in the comments). Recorded for new links only.
    pub indirect: bool,
}

/// A post ready to store: platform fields plus its enrichment.
#[derive(Debug, Clone)]
pub struct PostRecord {
    pub post_key: String,
    pub platform: Platform,
    pub external_id: String,
    pub created_at: Millis,
    pub author_id: String,
    pub author_username: String,
    pub author_name: String,
    pub author_avatar: Option<String>,
    pub author_followers: i64,
    pub author_verified: bool,
    pub author_location: Option<String>,
    /// The profile's bio, kept with the account's profile (`author_profiles`).
    pub author_bio: Option<String>,
    pub text: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub lang: Option<String>,
    pub post_type: PostType,
    pub is_story: bool,
    pub likes: i64,
    pub shares: i64,
    pub comments: i64,
    pub views: i64,
    pub dislikes: i64,
    pub impressions: i64,
    pub reach: i64,
    pub engagement: i64,
    pub engagement_rate: Option<f64>,
    pub sentiment: f64,
    pub sentiment_bucket: Bucket,
    pub country: Option<String>,
    /// State or province (ISO 3166-2, "US-TX") where the post's place resolves to one.
    pub region: Option<String>,
    pub gender: Option<Gender>,
    pub source: Option<String>,
    pub device: Option<String>,
    pub media: Option<String>,
    pub data: String,
    pub terms: PostTerms,
    pub links: Vec<TrackerLink>,
}

/// A blank record on twitter, an original post with neutral sentiment: records built in parts
/// (tests, re-analysis) set what they use.
impl Default for PostRecord {
    fn default() -> Self {
        Self {
            post_key: Default::default(),
            platform: Platform::Twitter,
            external_id: Default::default(),
            created_at: Default::default(),
            author_id: Default::default(),
            author_username: Default::default(),
            author_name: Default::default(),
            author_avatar: Default::default(),
            author_followers: Default::default(),
            author_verified: Default::default(),
            author_location: Default::default(),
            author_bio: Default::default(),
            text: Default::default(),
            title: Default::default(),
            url: Default::default(),
            lang: Default::default(),
            post_type: PostType::Original,
            is_story: Default::default(),
            likes: Default::default(),
            shares: Default::default(),
            comments: Default::default(),
            views: Default::default(),
            dislikes: Default::default(),
            impressions: Default::default(),
            reach: Default::default(),
            engagement: Default::default(),
            engagement_rate: Default::default(),
            sentiment: Default::default(),
            sentiment_bucket: Bucket::Neutral,
            country: Default::default(),
            region: Default::default(),
            gender: Default::default(),
            source: Default::default(),
            device: Default::default(),
            media: Default::default(),
            data: Default::default(),
            terms: Default::default(),
            links: Default::default(),
        }
    }
}

impl PostRecord {
    pub(crate) fn author_key(&self) -> &str {
        if self.author_username.is_empty() {
            &self.author_id
        } else {
            &self.author_username
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IngestStats {
    /// Posts stored for the first time.
    pub new_posts: u64,
    /// Posts already stored whose counts were refreshed.
    pub updated_posts: u64,
    /// New links between a post and a tracker.
    pub new_links: u64,
}

/// Batches smaller than this may be written together ([`Store::ingest_batch`]).
const COMBINE_BELOW: usize = 5_000;
/// Posts a combined write takes at most (the first batch always).
const COMBINE_MAX: usize = 10_000;

/// The small batches waiting to be written, and the turn to write them ([`Store::ingest_batch`]).
#[derive(Debug, Default)]
pub(crate) struct Combiner {
    pending: std::sync::Mutex<Vec<Pending>>,
    next_id: std::sync::atomic::AtomicU64,
    turn: Arc<tokio::sync::Mutex<()>>,
    /// Transactions `ingest_batch` has written.
    writes: std::sync::atomic::AtomicU64,
    /// On PostgreSQL, the turn a write takes to change the rows every write shares (see
    /// [`Store::write_part`]).
    shared_rows: tokio::sync::Mutex<()>,
}

/// On PostgreSQL a write of at least this many posts is split in two, written side by side.
pub(crate) const SPLIT_FROM: usize = 2_000;

#[derive(Debug)]
struct Pending {
    id: u64,
    posts: Vec<PostRecord>,
    now: Millis,
    reply: tokio::sync::oneshot::Sender<Result<IngestStats>>,
}

/// Where SQLite's combined ingest writes run ([`Store::ingest_batch`]): a thread of their own with a single-threaded runtime, shared
/// by every store of the process (SQLite writes one transaction at a time anyway).
///
/// A write awaits its statements one after another (a few dozen to a batch), and each await puts
/// its task back in the runtime's queue. Under many readers (the load test's 250 looping
/// clients) the server's workers hold hundreds of ready tasks, so a write on them waited its turn
/// at every statement, and the database sat mostly idle between them. On its own thread the write
/// is scheduled by the operating system beside the workers instead of behind their queue.
/// PostgreSQL's writes stay on the caller's runtime, which drives their sockets.
fn writer() -> Option<&'static tokio::runtime::Handle> {
    static WRITER: std::sync::OnceLock<Option<tokio::runtime::Handle>> = std::sync::OnceLock::new();
    WRITER
        .get_or_init(|| {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            let handle = rt.handle().clone();
            std::thread::Builder::new()
                .name("hark-sqlite-writer".into())
                .spawn(move || rt.block_on(std::future::pending::<()>()))
                .ok()?;
            Some(handle)
        })
        .as_ref()
}

fn gone() -> crate::StoreError {
    crate::StoreError::Config("the write of this batch was abandoned".into())
}

/// What a write stored: each post key's id, the ids stored before it, the new links.
#[derive(Debug, Default)]
struct Written {
    ids: HashMap<String, i64>,
    existing: HashSet<i64>,
    new_links: HashSet<(i64, i64)>,
}

impl Written {
    /// The figures of one caller's batch within the write (a post it repeats counted once).
    fn stats_for(&self, posts: &[PostRecord]) -> IngestStats {
        let mut seen = HashSet::new();
        let mut s = IngestStats::default();
        for p in posts {
            let Some(id) = self.ids.get(&p.post_key) else { continue };
            if !seen.insert(*id) {
                continue;
            }
            if self.existing.contains(id) {
                s.updated_posts += 1;
            } else {
                s.new_posts += 1;
            }
            s.new_links += p.links.iter().filter(|l| self.new_links.contains(&(l.tracker_id, *id))).count() as u64;
        }
        s
    }
}

#[derive(Default, Clone, Copy)]
pub(crate) struct HourAgg {
    pub(crate) posts: i64,
    pub(crate) engagement: i64,
    pub(crate) reach: i64,
    pub(crate) impressions: i64,
    pub(crate) likes: i64,
    pub(crate) dislikes: i64,
    /// Posts by shown sentiment bucket, in the order of [`SENTIMENT_COLUMNS`].
    pub(crate) buckets: [i64; 5],
    pub(crate) retweets: i64,
    pub(crate) stories: i64,
    /// Widened sort bounds (None: nothing to widen), in the order of [`INT_BOUNDS`] / [`REAL_BOUNDS`].
    pub(crate) int_max: [Option<i64>; 7],
    pub(crate) int_min: [Option<i64>; 7],
    pub(crate) real_max: [Option<f64>; 2],
    pub(crate) real_min: [Option<f64>; 2],
}


/// Integer sort keys bounded per hour: `rollup_hourly.max_<name>` / `min_<name>`.
pub(crate) const INT_BOUNDS: [&str; 7] = ["engagement", "followers", "impressions", "likes", "comments", "shares", "views"];
/// Real sort keys bounded per hour (NULL counts as 0, as the posts page sorts).
pub(crate) const REAL_BOUNDS: [&str; 2] = ["rate", "sentiment"];

fn wider<T: Copy + PartialOrd>(slot: &mut Option<T>, v: T, max: bool) {
    *slot = Some(match *slot {
        Some(o) if (max && o >= v) || (!max && o <= v) => o,
        _ => v,
    });
}

impl HourAgg {
    /// Widens the sort bounds of the hour to include the post's current values.
    fn widen(&mut self, p: &PostRecord) {
        let ints = [p.engagement, p.author_followers, p.impressions, p.likes, p.comments, p.shares, p.views];
        for (i, v) in ints.into_iter().enumerate() {
            wider(&mut self.int_max[i], v, true);
            wider(&mut self.int_min[i], v, false);
        }
        let reals = [p.engagement_rate.unwrap_or(0.0), p.sentiment];
        for (i, v) in reals.into_iter().enumerate() {
            wider(&mut self.real_max[i], v, true);
            wider(&mut self.real_min[i], v, false);
        }
    }
}

#[derive(Default, Clone, Copy)]
pub(crate) struct AuthorAgg {
    pub(crate) posts: i64,
    pub(crate) engagement: i64,
    pub(crate) followers: i64,
    /// Follower counts of the posts, summed.
    pub(crate) reach: i64,
    pub(crate) impressions: i64,
}

/// Rollup increments of one batch, summed in memory so each rollup row is written once.
#[derive(Default)]
pub(crate) struct Deltas<'a> {
    pub(crate) hours: HashMap<(i64, i64, &'a str), HourAgg>,
    pub(crate) terms: HashMap<(i64, &'static str, i64, &'a str, &'a str), i64>,
    pub(crate) authors: HashMap<(i64, i64, &'a str, &'a str), AuthorAgg>,
    /// Posts per (tracker, hour, platform, 1-based subtracker).
    pub(crate) subs: HashMap<(i64, i64, &'a str, i64), i64>,
    pub(crate) tracker_posts: HashMap<i64, (i64, Millis)>,
    /// The lowest post id of each (tracker, day) the batch changed ([`Deltas::touch`]): the days'
    /// floors for the in-memory tables (`rollups::mark_days`), when `floors_exact` says every
    /// change was touched; otherwise every marked day is read again whole.
    pub(crate) floors: HashMap<(i64, i64), i64>,
    pub(crate) floors_exact: bool,
}

/// What the posts page's retweet and story filters (and the hourly `retweets` / `stories`
/// counts) see in a post, kept on its link as `tracker_posts.post_kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i16)]
pub(crate) enum PostKind {
    Post = 0,
    /// A twitter retweet.
    Retweet = 1,
    /// An instagram story.
    Story = 2,
}

impl PostRecord {
    pub(crate) fn kind(&self) -> PostKind {
        match self.platform {
            Platform::Twitter if self.post_type == PostType::Retweet => PostKind::Retweet,
            Platform::Instagram if self.is_story => PostKind::Story,
            _ => PostKind::Post,
        }
    }
}

impl<'a> Deltas<'a> {
    /// Adds (sign 1) or removes (sign -1) a post's whole contribution to a tracker, counting it
    /// under the sentiment bucket it has in that tracker.
    pub(crate) fn add_post(&mut self, tracker: i64, p: &'a PostRecord, sentiment: &'static str, subtrackers: i64, sign: i64) {
        let hour = p.created_at.div_euclid(HOUR_MS) * HOUR_MS;
        let day = p.created_at.div_euclid(DAY_MS) * DAY_MS;
        let h = self.hours.entry((tracker, hour, p.platform.name())).or_default();
        h.posts += sign;
        h.engagement += sign * p.engagement;
        h.reach += sign * p.author_followers;
        h.impressions += sign * p.impressions;
        h.likes += sign * p.likes;
        h.dislikes += sign * p.dislikes;
        h.buckets[bucket_index(sentiment)] += sign;
        match p.kind() {
            PostKind::Retweet => h.retweets += sign,
            PostKind::Story => h.stories += sign,
            PostKind::Post => {}
        }
        for bit in 0..63 {
            if subtrackers & (1i64 << bit) != 0 {
                *self.subs.entry((tracker, hour, p.platform.name(), bit + 1)).or_default() += sign;
            }
        }
        let mut term = |kind: &'static str, t: &'a str| {
            *self.terms.entry((tracker, kind, day, p.platform.name(), t)).or_default() += sign;
        };
        for t in &p.terms.hashtags {
            term("hashtag", t);
        }
        for t in &p.terms.mentions {
            term("mention", t);
        }
        // A post's keywords are not rolled up ([`unrolled`]): real tweets carry about ten each,
        // most of them rare, so their day and lifetime rows took a third of the writer's time on
        // real texts, while every page counts keywords over the tracker's in-memory table.
        // Without the table the dashboard reads them from the post rows (`dashboard::terms`), as
        // the topics page does for a tracker too large to keep.
        for t in &p.terms.domains {
            term("domain", t);
        }
        for t in &p.terms.links {
            term("link", t);
        }
        term("post_type", p.post_type.as_str());
        term("sentiment", sentiment);
        if let Some(c) = &p.country {
            term("country", c);
        }
        if let Some(r) = &p.region {
            term("region", r);
        }
        if let Some(d) = &p.device {
            term("source", d);
        }
        if let Some(g) = p.gender.and_then(Gender::stored) {
            term("gender", g);
        }
        if let Some(l) = &p.lang {
            term("lang", l);
        }
        let a = self.authors.entry((tracker, day, p.platform.name(), p.author_key())).or_default();
        a.posts += sign;
        a.engagement += sign * p.engagement;
        a.followers = a.followers.max(p.author_followers);
        a.reach += sign * p.author_followers;
        a.impressions += sign * p.impressions;
        let t = self.tracker_posts.entry(tracker).or_insert((0, i64::MAX));
        t.0 += sign;
        t.1 = t.1.min(p.created_at);
    }

    /// Notes that the batch changes the link of post `id` (made at `created_at`) in a tracker.
    pub(crate) fn touch(&mut self, tracker: i64, id: i64, created_at: Millis) {
        let f = self.floors.entry((tracker, created_at.div_euclid(DAY_MS) * DAY_MS)).or_insert(id);
        *f = (*f).min(id);
    }

    /// Moves one term count of a post in a tracker (a sentiment that changed, say).
    pub(crate) fn add_term(&mut self, tracker: i64, p: &'a PostRecord, kind: &'static str, term: &'a str, sign: i64) {
        let day = p.created_at.div_euclid(DAY_MS) * DAY_MS;
        *self.terms.entry((tracker, kind, day, p.platform.name(), term)).or_default() += sign;
        if kind == "sentiment" {
            let hour = p.created_at.div_euclid(HOUR_MS) * HOUR_MS;
            self.hours.entry((tracker, hour, p.platform.name())).or_default().buckets[bucket_index(term)] += sign;
        }
    }

    /// Widens the sort bounds of the post's hour in a tracker to its current values (a new link,
    /// or a repeat whose counts may have grown).
    pub(crate) fn widen(&mut self, tracker: i64, p: &'a PostRecord) {
        let hour = p.created_at.div_euclid(HOUR_MS) * HOUR_MS;
        self.hours.entry((tracker, hour, p.platform.name())).or_default().widen(p);
    }

    /// Widens only the sentiment bounds of the post's hour in a tracker (its score changed).
    pub(crate) fn widen_sentiment(&mut self, tracker: i64, p: &'a PostRecord) {
        let hour = p.created_at.div_euclid(HOUR_MS) * HOUR_MS;
        let h = self.hours.entry((tracker, hour, p.platform.name())).or_default();
        wider(&mut h.real_max[1], p.sentiment, true);
        wider(&mut h.real_min[1], p.sentiment, false);
    }

    /// A repeat of a post a tracker already has: only its counts moved (engagement, likes,
    /// dislikes: the differences).
    fn add_engagement(&mut self, tracker: i64, p: &'a PostRecord, delta: i64, likes: i64, dislikes: i64) {
        if delta == 0 && likes == 0 && dislikes == 0 {
            return;
        }
        let hour = p.created_at.div_euclid(HOUR_MS) * HOUR_MS;
        let day = p.created_at.div_euclid(DAY_MS) * DAY_MS;
        let h = self.hours.entry((tracker, hour, p.platform.name())).or_default();
        h.engagement += delta;
        h.likes += likes;
        h.dislikes += dislikes;
        if delta != 0 {
            self.authors.entry((tracker, day, p.platform.name(), p.author_key())).or_default().engagement += delta;
        }
    }
}

pub(crate) const POST_COLUMNS: &str = "post_key, platform, external_id, created_at, collected_at, updated_at, author_id, \
     author_username, author_name, author_avatar, author_followers, author_verified, author_location, text, title, url, \
     lang, post_type, is_story, likes, shares, comments, views, dislikes, impressions, reach, engagement, \
     engagement_rate, sentiment, sentiment_bucket, country, gender, source, device, media, data, terms, region";

impl Store {
    /// Stores a batch of posts and their rollups. Posts are keyed by `platform;id`: a post seen
    /// before has its counts refreshed and is never duplicated.
    ///
    /// Small batches that arrive while another is being written (imports through the API, a
    /// request each, from several clients) are written together, in one transaction, by the first
    /// of them to get its turn (see [`Combiner`]); each caller still gets its own figures. A write
    /// pays a fixed cost whatever its size (its statements, the rollup rows it touches, the pages
    /// its commit writes): 250 posts at a time reached about 3,000 posts/s where 2,000 at a time
    /// reached about 8,000. Should a combined write fail, each batch in it is written alone, so one
    /// caller's failure is not another's. On SQLite those combined writes run on the writer
    /// thread ([`writer`]); a large batch (a file import's) is written on the caller's task,
    /// without copying it.
    pub async fn ingest_batch(&self, posts: &[PostRecord], now: Millis) -> Result<IngestStats> {
        if posts.is_empty() {
            return Ok(IngestStats::default());
        }
        if posts.len() >= COMBINE_BELOW {
            return Ok(self.write_batch(posts, now).await?.stats_for(posts));
        }
        let c = &self.combiner;
        let (reply, mut answer) = tokio::sync::oneshot::channel();
        let id = c.next_id.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        c.pending.lock().unwrap_or_else(|e| e.into_inner()).push(Pending { id, posts: posts.to_vec(), now, reply });
        let turn = tokio::select! {
            biased;
            r = &mut answer => return r.unwrap_or_else(|_| Err(gone())),
            t = c.turn.clone().lock_owned() => t,
        };
        // Written by the turn before ours, between its taking the queue and our getting the turn.
        if let Ok(r) = answer.try_recv() {
            return r;
        }
        // Our batch first (it is still queued: nobody answered it and only a turn's holder takes
        // from the queue), then the others, oldest first, while they fit under the cap.
        let mut taken: Vec<Pending> = Vec::new();
        {
            let mut q = c.pending.lock().unwrap_or_else(|e| e.into_inner());
            let Some(at) = q.iter().position(|p| p.id == id) else {
                return Err(gone());
            };
            let ours = q.remove(at);
            let mut n = ours.posts.len();
            taken.push(ours);
            let mut keep = Vec::new();
            for p in q.drain(..) {
                if n + p.posts.len() <= COMBINE_MAX {
                    n += p.posts.len();
                    taken.push(p);
                } else {
                    keep.push(p);
                }
            }
            *q = keep;
        }
        // The write runs on its own task: a caller that goes away (a client that hung up) does
        // not take the other callers' write with it.
        let store = self.clone();
        let write = async move {
            store.write_taken(taken).await;
            drop(turn);
        };
        match (self.backend(), writer()) {
            (Backend::Sqlite, Some(writer)) => drop(writer.spawn(write)),
            _ => drop(tokio::spawn(write)),
        }
        answer.await.unwrap_or_else(|_| Err(gone()))
    }

    /// Writes the batches taken from the queue, together when there are several (each alone if
    /// that fails), and answers each caller.
    async fn write_taken(&self, taken: Vec<Pending>) {
        let now = taken.iter().map(|p| p.now).max().unwrap_or_default();
        // The batches' posts moved into one list; each caller keeps its range of it.
        let mut all: Vec<PostRecord> = Vec::with_capacity(taken.iter().map(|p| p.posts.len()).sum());
        let mut parts = Vec::with_capacity(taken.len());
        for p in taken {
            let start = all.len();
            all.extend(p.posts);
            parts.push((start..all.len(), p.now, p.reply));
        }
        if parts.len() > 1 {
            if let Ok(w) = self.write_batch(&all, now).await {
                for (range, _, reply) in parts {
                    let _ = reply.send(Ok(w.stats_for(&all[range])));
                }
                return;
            }
        }
        for (range, now, reply) in parts {
            let posts = &all[range];
            let _ = reply.send(self.write_batch(posts, now).await.map(|w| w.stats_for(posts)));
        }
    }

    /// Transactions [`Store::ingest_batch`] has written (tests check that small batches sent at
    /// once were written together).
    #[cfg(feature = "testing")]
    pub fn ingest_writes(&self) -> u64 {
        self.combiner.writes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes posts and their rollups: in one transaction, or on PostgreSQL, when the batch is
    /// large, in two written side by side (see [`Store::write_part`]).
    async fn write_batch(&self, posts: &[PostRecord], now: Millis) -> Result<Written> {
        self.write_batch_in(posts, now, Order::default()).await
    }

    /// [`Store::write_batch`] as a step of a sequence ([`IngestSequence`]): a write in a sequence
    /// is never split (the writes before and after it already keep both cores busy).
    async fn write_batch_in(&self, posts: &[PostRecord], now: Millis, order: Order) -> Result<Written> {
        if posts.is_empty() {
            return Ok(Written::default());
        }
        self.combiner.writes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // The last occurrence of a key in the batch wins.
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(posts.len());
        for (i, p) in posts.iter().enumerate() {
            index.insert(&p.post_key, i);
        }
        let mut unique: Vec<&PostRecord> = index.values().map(|&i| &posts[i]).collect();
        unique.sort_unstable_by_key(|p| p.created_at);
        if order.in_sequence || !matches!(self.backend(), Backend::Postgres) || unique.len() < self.split_from.max(2) {
            return self.write_part(&unique, now, order).await;
        }
        // Every other post: both halves span the batch's time, so each keeps its rows in time order.
        let (even, odd): (Vec<(usize, &PostRecord)>, Vec<_>) = unique.iter().copied().enumerate().partition(|(i, _)| i % 2 == 0);
        let even: Vec<&PostRecord> = even.into_iter().map(|(_, p)| p).collect();
        let odd: Vec<&PostRecord> = odd.into_iter().map(|(_, p)| p).collect();
        let (mut a, b) = tokio::try_join!(self.write_part(&even, now, Order::default()), self.write_part(&odd, now, Order::default()))?;
        a.ids.extend(b.ids);
        a.existing.extend(b.existing);
        a.new_links.extend(b.new_links);
        Ok(a)
    }

    /// Writes posts (of distinct keys, oldest first) and their rollups in one transaction.
    ///
    /// On PostgreSQL two parts of a batch run side by side, each in its own transaction on its own
    /// connection: their posts and links are their own (a key is in one part only), and writing
    /// them (the upserts and their index entries, most of a write) uses both cores. The rows every
    /// write shares (the accounts' profiles, the rollups, the tracker rows) a part changes only
    /// while it holds the store's turn (`shared_rows`), which it keeps until it commits: one part
    /// at a time locks them, and a part holding the turn never waits for rows the other holds
    /// (those are its own posts and links), so the two cannot deadlock. A crash between the two
    /// commits leaves one part stored: sent again, the batch stores the rest and counts each post
    /// and link once.
    async fn write_part(&self, unique: &[&PostRecord], now: Millis, mut order: Order) -> Result<Written> {
        let terms_json: Vec<String> =
            unique.iter().map(|p| serde_json::to_string(&p.terms).unwrap_or_else(|_| "{}".into())).collect();

        let mut laps = Laps::new();
        // In a sequence, the posts and links of the write before are written first.
        order.wait_posts().await;
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write(&self.write_gate).await?;
            laps.lap("begin");
            // Upsert posts, collecting every id and, for posts stored before, their engagement then
            // (`prev_engagement` is set from the stored row by the update and is NULL on an insert).
            let mut ids: HashMap<String, i64> = HashMap::with_capacity(unique.len());
            // Stored before: id -> (engagement, likes, dislikes) then.
            let mut existing: HashMap<i64, (i64, i64, i64)> = HashMap::new();
            for (key, id, prev, likes, dislikes) in tx.upsert_posts(unique, &terms_json, now).await? {
                if let Some(prev) = prev {
                    existing.insert(id, (prev, likes.unwrap_or(0), dislikes.unwrap_or(0)));
                }
                ids.insert(key, id);
            }
            laps.lap("posts");
            // SQLite's full-text index: the posts stored for the first time are indexed from the
            // values just stored (PostgreSQL maintains its expression index itself). In a file's
            // own index they are indexed on its thread while this write goes on, and searchable
            // once both have committed (search_file.rs); in memory, inside this transaction.
            let mut indexing: Option<crate::search_file::Pending> = None;
            if let Some(conn) = tx.sqlite_connection() {
                let fresh: Vec<(i64, &PostRecord)> = unique
                    .iter()
                    .filter_map(|p| ids.get(&p.post_key).map(|id| (*id, *p)))
                    .filter(|(id, _)| !existing.contains_key(id))
                    .collect();
                if let (false, Some(search)) = (fresh.is_empty(), &self.search_writer) {
                    let rows = fresh
                        .iter()
                        .map(|(id, p)| crate::search_file::Row {
                            id: *id,
                            text: p.text.clone(),
                            title: p.title.clone(),
                            author_name: p.author_name.clone(),
                            author_username: p.author_username.clone(),
                            author_location: p.author_location.clone(),
                        })
                        .collect();
                    indexing = Some(search.index(rows));
                } else if !fresh.is_empty() {
                    crate::sqlite_rows::with_raw(conn, |raw| {
                        let mut st = raw.prepare(&format!(
                            "{}{}",
                            crate::search_file::INSERT_INTO,
                            crate::search_file::INSERT_ROW
                        ))?;
                        for (id, p) in &fresh {
                            st.run(
                                &[
                                    (*id).into(),
                                    p.text.as_str().into(),
                                    p.title.as_deref().into(),
                                    p.author_name.as_str().into(),
                                    p.author_username.as_str().into(),
                                    p.author_location.as_deref().into(),
                                ],
                                |_| {},
                            )?;
                        }
                        Ok(())
                    })
                    .await?;
                }
                laps.lap("fts");
            }
            // Link posts to trackers; only links that did not exist count toward the rollups.
            let links: Vec<(i64, i64, &PostRecord, &TrackerLink)> = unique
                .iter()
                .filter_map(|p| ids.get(&p.post_key).map(|id| (*id, *p)))
                .flat_map(|(id, p)| p.links.iter().map(move |l| (l.tracker_id, id, p, l)))
                .collect();
            let mut new_links: HashSet<(i64, i64)> = HashSet::new();
            // A post with media that reaches a tracker moderating its media wall waits in the
            // wall's queue (visibility 2) until approved.
            let mut linked: Vec<i64> = links.iter().map(|l| l.0).collect();
            linked.sort_unstable();
            linked.dedup();
            let moderated: HashSet<i64> = if links.iter().any(|l| l.2.media.is_some()) {
                sqlx::query_scalar::<_, i64>(&format!(
                    "SELECT id FROM trackers WHERE media_moderation = TRUE AND id IN ({})",
                    self.backend().id_set("$1")
                ))
                .bind(crate::dialect::json_ids(&linked))
                .fetch_all(&mut *tx)
                .await?
                .into_iter()
                .collect()
            } else {
                Default::default()
            };
            // A link's `indirect` flag is written with it, so only a new link takes it (the
            // conflict leaves an existing one alone); written after the insert, it cost a second
            // version of every indirect link's row (most of an import of another tool's search
            // results).
            new_links.extend(tx.insert_links(&links, &|t| moderated.contains(&t), now).await?);
            laps.lap("links");
            let mut deltas = Deltas::default();
            // Every link the batch writes or moves is touched: the days' floors are exact.
            deltas.floors_exact = true;
            let mut moved: Vec<i64> = Vec::new();
            for (t, id, p, l) in &links {
                deltas.touch(*t, *id, p.created_at);
                if new_links.contains(&(*t, *id)) {
                    deltas.add_post(*t, p, l.sentiment.unwrap_or(p.sentiment_bucket.as_str()), l.subtrackers, 1);
                    deltas.widen(*t, p);
                } else if let Some((eng, likes, dislikes)) = existing.get(id) {
                    // The stored post now has these counts: the posts page's bounds must hold them.
                    deltas.widen(*t, p);
                    deltas.add_engagement(*t, p, p.engagement - eng, p.likes - likes, p.dislikes - dislikes);
                    moved.push(*id);
                }
            }
            // The links of repeats (of every tracker, not only this batch's) carry the sort keys
            // their post now has (the top posts and posts page orders); unchanged links are not
            // written.
            if !moved.is_empty() {
                moved.sort_unstable();
                moved.dedup();
                let id_list = self.backend().id_set("$1");
                let changed: Vec<(i64, i64)> = sqlx::query_as(&format!(
                    "UPDATE tracker_posts SET engagement = p.engagement, followers = p.author_followers, \
                     rate = COALESCE(p.engagement_rate, 0), impressions = p.impressions FROM posts p \
                     WHERE p.id = tracker_posts.post_id AND tracker_posts.post_id IN ({id_list}) \
                     AND (tracker_posts.engagement <> p.engagement OR tracker_posts.followers <> p.author_followers \
                     OR tracker_posts.rate <> COALESCE(p.engagement_rate, 0) OR tracker_posts.impressions <> p.impressions) \
                     RETURNING tracker_posts.tracker_id, tracker_posts.post_id"
                ))
                .bind(serde_json::to_string(&moved).unwrap_or_else(|_| "[]".into()))
                .fetch_all(&mut *tx)
                .await?;
                // A tracker the batch did not reach has links of these posts too: its hours'
                // bounds widen to their new keys (and its days are marked for the in-memory
                // tables) as the batch's trackers' do.
                let by_id: HashMap<i64, &PostRecord> =
                    unique.iter().filter_map(|p| ids.get(&p.post_key).map(|id| (*id, *p))).collect();
                for (t, id) in changed {
                    if let Some(p) = by_id.get(&id) {
                        if !p.links.iter().any(|l| l.tracker_id == t) {
                            deltas.widen(t, p);
                            deltas.touch(t, id, p.created_at);
                        }
                    }
                }
            }
            laps.lap("deltas");
            // The next write of a sequence may write its posts and links now; its shared rows wait
            // for this write's commit.
            order.posts_done();
            order.wait_shared().await;
            // The rows every write shares, one part at a time (see above); SQLite writes one
            // transaction at a time anyway.
            let _shared = match self.backend() {
                Backend::Postgres => Some(self.combiner.shared_rows.lock().await),
                Backend::Sqlite => None,
            };
            laps.lap("turn");
            // Each account's profile from its newest post of the batch; an older post (a
            // backfill) leaves a newer profile alone.
            let mut newest: HashMap<(&str, &str), &PostRecord> = HashMap::new();
            for p in unique {
                newest.insert((p.platform.name(), p.author_key()), p);
            }
            let mut profiles: Vec<_> = newest.into_iter().collect();
            profiles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            tx.upsert_profiles(&profiles).await?;
            laps.lap("profiles");
            crate::rollups::write(&mut tx, &deltas, now).await?;
            laps.lap("rollups");
            tx.commit().await?;
            drop(order);
            laps.lap("commit");
            if let Some(pending) = indexing {
                pending.committed().await;
                laps.lap("search");
            }
            let (new_posts, new_link_count) = ((unique.len() - existing.len()) as u64, new_links.len() as u64);
            self.note_writes(new_posts + new_link_count);
            self.note_indexed(new_posts);
            Ok(Written { ids, existing: existing.into_keys().collect(), new_links })
        })
    }

    /// Rollup rows of a tracker, for tests and checks: (posts, engagement) summed over hours.
    pub async fn rollup_totals(&self, tracker_id: i64) -> Result<(i64, i64)> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, i64)>(
            "SELECT CAST(COALESCE(SUM(posts), 0) AS BIGINT), CAST(COALESCE(SUM(engagement), 0) AS BIGINT) \
             FROM rollup_hourly WHERE tracker_id = $1"
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?))
    }

    /// Summed counts of one term kind for a tracker, largest first.
    pub async fn rollup_terms(&self, tracker_id: i64, kind: &str, limit: i64) -> Result<Vec<(String, i64)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (String, i64)>(
            "SELECT term, CAST(SUM(count) AS BIGINT) AS n FROM rollup_terms WHERE tracker_id = $1 AND kind = $2 \
             GROUP BY term HAVING SUM(count) > 0 ORDER BY n DESC, term LIMIT $3"
        )
        .bind(tracker_id)
        .bind(kind)
        .bind(limit)
        .fetch_all(p)
        .await?))
    }
}

/// Where a write stands among the writes of its sequence ([`IngestSequence`]); the default is a
/// write of no sequence, which waits for nothing. Dropping it (the write done, failed or
/// abandoned) lets the next write through both of its steps.
#[derive(Default)]
struct Order {
    in_sequence: bool,
    /// Resolve when the write before has written its posts and links / has ended.
    after_posts: Option<tokio::sync::oneshot::Receiver<()>>,
    after_shared: Option<tokio::sync::oneshot::Receiver<()>>,
    /// Dropped to tell the next write the same.
    posts_written: Option<tokio::sync::oneshot::Sender<()>>,
    _ended: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Order {
    async fn wait_posts(&mut self) {
        if let Some(r) = self.after_posts.take() {
            let _ = r.await;
        }
    }
    fn posts_done(&mut self) {
        self.posts_written.take();
    }
    async fn wait_shared(&mut self) {
        if let Some(r) = self.after_shared.take() {
            let _ = r.await;
        }
    }
}

/// Writes consecutive batches of one source (a file being imported, a log being replayed) so that
/// each overlaps the one before: a write upserts its posts and links while the write before it
/// writes the rows every write shares (profiles, rollups, the tracker rows) and commits. On
/// PostgreSQL the two run on two connections, so both cores work; on SQLite the next write's
/// preparation overlaps the database's work.
///
/// The order of the batches holds where it matters: a write begins its posts only after the
/// write before has written its own (a post repeated in a later batch ends with the later
/// counts, and waits for the earlier write's commit before it is counted as new or not), and
/// writes its shared rows only after the write before has ended. A write waits only for the one
/// before it, which never waits for it, so they cannot deadlock. If a write fails, the writes
/// after it still run: each is whole or absent, and sending a batch again counts nothing twice.
pub struct IngestSequence {
    store: Store,
    last: Option<(tokio::sync::oneshot::Receiver<()>, tokio::sync::oneshot::Receiver<()>)>,
}

impl IngestSequence {
    /// Starts the write of `posts` after the writes started before; await it (or spawn it) to run
    /// it. Writes of a sequence are never combined with other callers' or split.
    pub fn write(&mut self, posts: Vec<PostRecord>, now: Millis) -> impl std::future::Future<Output = Result<IngestStats>> + Send + 'static {
        let (posts_tx, posts_rx) = tokio::sync::oneshot::channel();
        let (ended_tx, ended_rx) = tokio::sync::oneshot::channel();
        let (after_posts, after_shared) = match self.last.replace((posts_rx, ended_rx)) {
            Some((p, e)) => (Some(p), Some(e)),
            None => (None, None),
        };
        let order = Order { in_sequence: true, after_posts, after_shared, posts_written: Some(posts_tx), _ended: Some(ended_tx) };
        let store = self.store.clone();
        async move { Ok(store.write_batch_in(&posts, now, order).await?.stats_for(&posts)) }
    }
}

impl Store {
    /// A sequence of writes that overlap one another in order ([`IngestSequence`]).
    pub fn ingest_sequence(&self) -> IngestSequence {
        IngestSequence { store: self.clone(), last: None }
    }
}

/// Time spent per rollup table, printed when `HARK_INGEST_TIMING` is set.
pub(crate) struct Laps(Option<std::time::Instant>);

impl Laps {
    pub(crate) fn new() -> Self {
        Laps(std::env::var_os("HARK_INGEST_TIMING").map(|_| std::time::Instant::now()))
    }
    pub(crate) fn lap(&mut self, what: &str) {
        if let Some(t) = self.0.as_mut() {
            eprintln!("ingest {what}: {:.1} ms", t.elapsed().as_secs_f64() * 1000.0);
            *t = std::time::Instant::now();
        }
    }
}

/// The head and the conflict clause of the `rollup_hourly` upsert (columns in the order
/// `rollups::write` binds them). Counts add up; bounds only widen (a NULL leaves the other side).
pub(crate) fn hourly_upsert() -> (String, String) {
    let mut cols: Vec<String> =
        ["tracker_id", "hour", "platform", "posts", "engagement", "reach", "impressions", "likes", "dislikes"].map(String::from).to_vec();
    let mut sums: Vec<String> = ["posts", "engagement", "reach", "impressions", "likes", "dislikes"].map(String::from).to_vec();
    for (_, c) in SENTIMENT_COLUMNS {
        sums.push(c.to_string());
    }
    sums.push("retweets".into());
    sums.push("stories".into());
    cols.extend(sums[6..].iter().cloned());
    let mut bounds = Vec::new();
    for k in INT_BOUNDS.iter().chain(REAL_BOUNDS.iter()) {
        bounds.push((format!("max_{k}"), "MAX"));
        bounds.push((format!("min_{k}"), "MIN"));
    }
    cols.extend(bounds.iter().map(|(c, _)| c.clone()));
    let mut set: Vec<String> = sums.iter().map(|c| format!("{c} = rollup_hourly.{c} + excluded.{c}")).collect();
    // Multi-argument MAX/MIN on SQLite, GREATEST/LEAST on PostgreSQL: spelled here as CASE so
    // that one text serves both.
    for (c, f) in &bounds {
        let op = if *f == "MAX" { ">" } else { "<" };
        set.push(format!(
            "{c} = CASE WHEN excluded.{c} IS NULL THEN rollup_hourly.{c} WHEN rollup_hourly.{c} IS NULL OR excluded.{c} {op} rollup_hourly.{c} \
             THEN excluded.{c} ELSE rollup_hourly.{c} END"
        ));
    }
    (
        format!("INSERT INTO rollup_hourly ({}) ", cols.join(", ")),
        format!(" ON CONFLICT (tracker_id, hour, platform) DO UPDATE SET {}", set.join(", ")),
    )
}

/// Term kinds a post lists (`posts.terms`); all but keywords have lifetime counts in
/// `rollup_term_totals` (keywords are not rolled up: [`Deltas::add_post`]).
pub(crate) const TOTAL_KINDS: [&str; 5] = ["hashtag", "mention", "keyword", "domain", "link"];

/// Term kinds that have no rollup rows: counted from the post rows (or the in-memory table).
pub(crate) fn unrolled(kind: &str) -> bool {
    kind == "keyword"
}

