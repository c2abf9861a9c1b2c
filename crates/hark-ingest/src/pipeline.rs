//! The ingest pipeline: a batch of posts is de-duplicated, enriched once per post, matched against
//! every running tracker at once, and written with its rollups in one transaction.

use std::sync::{Arc, RwLock};

use std::collections::HashMap;
use std::ops::Deref;

use hark_core::{MatchSet, Millis, Post, TrackerCriteria};
use hark_enrich::sentiment::{CustomKeywords, KeywordMatcher};
use hark_store::{IngestStats, PostRecord, PostTerms, Store, StoreError, TrackerLink};

use crate::enrich::{enrich, Enrichment};
use crate::keywords::keywords;

/// Posts per transaction: large enough to amortise the commit, small enough to keep memory flat.
pub const BATCH: usize = 25_000;

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("tracker {0} has unreadable criteria: {1}")]
    Criteria(i64, String),
    #[error("a background task failed: {0}")]
    Task(String),
    /// The job's lease was lost: another worker has it, or it was finished or superseded.
    #[error("the job's lease was lost")]
    LeaseLost,
}

/// Turns a post and its enrichment into the row the store writes.
pub fn to_record(post: &Post, e: &Enrichment, links: Vec<TrackerLink>) -> PostRecord {
    let c = &post.counts;
    let platform = post.platform;
    let gender = Some(e.gender).filter(|g| *g != hark_core::Gender::Unknown);
    let post_type = hark_core::PostType::parse(&e.post_type).unwrap_or(hark_core::PostType::Original);
    let text = sentiment_text(post);
    PostRecord {
        post_key: format!("{};{}", platform.name(), post.id),
        platform,
        external_id: post.id.clone(),
        created_at: post.created_at,
        author_id: post.author.id.clone(),
        author_username: post.author.username.clone(),
        author_name: post.author.name.clone(),
        author_avatar: post.author.avatar_url.clone(),
        author_followers: post.author.followers.unwrap_or(0).max(0),
        author_verified: post.author.verified,
        author_location: post.author.location.clone(),
        author_bio: post.author.bio.clone(),
        text: post.text.clone(),
        title: post.title.clone(),
        url: post.url.clone(),
        lang: e.lang.clone(),
        post_type,
        is_story: post.flags.is_story,
        likes: c.likes.unwrap_or(0),
        shares: c.shares.or(c.retweets).unwrap_or(0),
        comments: c.comments.or(c.replies).unwrap_or(0),
        views: c.views.unwrap_or(0),
        dislikes: c.dislikes.unwrap_or(0),
        impressions: c.impressions.unwrap_or(0),
        reach: c.reach.or(post.author.followers).unwrap_or(0),
        engagement: e.engagement,
        engagement_rate: e.engagement_rate,
        sentiment: e.sentiment,
        sentiment_bucket: e.sentiment_bucket,
        country: e.country.clone(),
        region: e.region.clone(),
        gender,
        source: post.source.clone(),
        device: e.device.clone(),
        media: if post.media.is_empty() { None } else { serde_json::to_string(&post.media).ok() },
        data: hark_store::encode_extras(post),
        terms: PostTerms {
            hashtags: e.hashtags.clone(),
            mentions: e.mentions.clone(),
            keywords: keywords(text),
            domains: e.domains.clone(),
            links: e.links.clone(),
        },
        links,
    }
}

/// The running trackers compiled into one matcher, with the custom sentiment keywords of those
/// that have them. Derefs to the [`MatchSet`].
pub struct Matcher {
    set: MatchSet,
    keywords: HashMap<i64, KeywordMatcher>,
}

impl Deref for Matcher {
    type Target = MatchSet;
    fn deref(&self) -> &MatchSet {
        &self.set
    }
}

impl Matcher {
    /// The bucket a tracker's custom keywords give a post's text, if any keyword matches.
    pub fn keyword_bucket(&self, tracker_id: i64, text: &str) -> Option<&'static str> {
        self.keywords.get(&tracker_id)?.bucket(text).map(|b| b.as_str())
    }
}

/// The text custom sentiment keywords are looked for in: the text, or the title of a web post.
pub fn sentiment_text(post: &Post) -> &str {
    crate::enrich::judged_text(&post.text, post.title.as_deref())
}

/// The running trackers compiled into one matcher.
pub fn compile(trackers: &[(i64, String)]) -> Result<Matcher, IngestError> {
    let parsed: Vec<(i64, TrackerCriteria)> = trackers
        .iter()
        .map(|(id, json)| {
            serde_json::from_str(json).map(|c| (*id, c)).map_err(|e| IngestError::Criteria(*id, e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let refs: Vec<(i64, &TrackerCriteria)> = parsed.iter().map(|(id, c)| (*id, c)).collect();
    let keywords = parsed
        .iter()
        .filter(|(_, c)| !c.sentiment_keywords.is_empty())
        .map(|(id, c)| {
            let k = &c.sentiment_keywords;
            let lists = CustomKeywords {
                positive: k.positive.clone(),
                neutral: k.neutral.clone(),
                negative: k.negative.clone(),
            };
            (*id, lists.matcher())
        })
        .collect();
    Ok(Matcher { set: MatchSet::build(&refs), keywords })
}

/// Enriches and matches a batch (CPU work, no I/O) on all cores but one. Posts matching no tracker are
/// dropped; the order of the rest is kept.
pub fn prepare(matcher: &Matcher, posts: &[Post]) -> Vec<PostRecord> {
    prepare_for(matcher, posts, None)
}

/// [`prepare`] for posts a platform's search returned for one tracker (`searched_for`): a post
/// whose text lacks that tracker's terms still joins it, as an indirect match, when the tracker's
/// exclude terms and filters allow it ([`MatchSet::admits_indirect`]).
pub fn prepare_for(matcher: &Matcher, posts: &[Post], searched_for: Option<i64>) -> Vec<PostRecord> {
    // One core is left to the writer, which works on the previous batch meanwhile: taking it
    // would only make the two wait for each other.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(1).clamp(1, 8);
    if threads < 2 || posts.len() < 512 {
        return prepare_one(matcher, posts, searched_for);
    }
    let per = posts.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = posts.chunks(per).map(|chunk| s.spawn(move || prepare_one(matcher, chunk, searched_for))).collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

fn prepare_one(matcher: &Matcher, posts: &[Post], searched_for: Option<i64>) -> Vec<PostRecord> {
    let mut out = Vec::with_capacity(posts.len());
    let mut matches = Vec::new();
    let mut scratch = hark_core::MatchScratch::new();
    for post in posts {
        let e = enrich(post);
        matcher.match_post_with(&mut scratch, post, e.country.as_deref(), e.lang.as_deref(), &mut matches);
        let indirect = searched_for.filter(|t| {
            !matches.iter().any(|m| m.tracker_id == *t)
                && matcher.admits_indirect(*t, post, e.country.as_deref(), e.lang.as_deref())
        });
        if matches.is_empty() && indirect.is_none() {
            continue;
        }
        let mut links = matches
            .iter()
            .map(|m| TrackerLink {
                tracker_id: m.tracker_id,
                subtrackers: m.subtrackers as i64,
                sentiment: matcher.keyword_bucket(m.tracker_id, sentiment_text(post)),
                indirect: false,
            })
            .collect::<Vec<_>>();
        if let Some(t) = indirect {
            let sentiment = matcher.keyword_bucket(t, sentiment_text(post));
            links.push(TrackerLink { tracker_id: t, subtrackers: 0, sentiment, indirect: true });
        }
        out.push(to_record(post, &e, links));
    }
    out
}

/// Ingests into every running tracker. The matcher is rebuilt when trackers change
/// ([`Pipeline::reload`]).
pub struct Pipeline {
    store: Store,
    matcher: RwLock<Arc<Matcher>>,
}

impl Pipeline {
    pub async fn new(store: Store) -> Result<Self, IngestError> {
        let matcher = compile(&store.running_trackers().await?)?;
        Ok(Self { store, matcher: RwLock::new(Arc::new(matcher)) })
    }

    /// Recompiles the matcher from the trackers now running.
    pub async fn reload(&self) -> Result<(), IngestError> {
        let m = Arc::new(compile(&self.store.running_trackers().await?)?);
        *self.matcher.write().unwrap_or_else(|p| p.into_inner()) = m;
        Ok(())
    }

    fn matcher(&self) -> Arc<Matcher> {
        self.matcher.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Ingests posts in batches; enrichment of the next batch overlaps the write of the current.
    pub async fn ingest(&self, posts: Vec<Post>, now: Millis) -> Result<IngestStats, IngestError> {
        ingest_with(&self.store, self.matcher(), posts, now).await
    }
}

/// Splits posts into batches of [`BATCH`] without copying them.
fn into_batches(posts: Vec<Post>) -> impl Iterator<Item = Vec<Post>> {
    let mut it = posts.into_iter();
    std::iter::from_fn(move || {
        let batch: Vec<Post> = it.by_ref().take(BATCH).collect();
        (!batch.is_empty()).then_some(batch)
    })
}

/// Ingests `posts` matched by `matcher`, batch by batch.
pub async fn ingest_with(
    store: &Store,
    matcher: Arc<Matcher>,
    posts: Vec<Post>,
    now: Millis,
) -> Result<IngestStats, IngestError> {
    ingest_searched(store, matcher, posts, now, None).await
}

/// [`ingest_with`] for posts a platform's search returned for one tracker: those whose text
/// lacks its terms join it as indirect matches ([`prepare_for`]).
pub async fn ingest_searched(
    store: &Store,
    matcher: Arc<Matcher>,
    posts: Vec<Post>,
    now: Millis,
    searched_for: Option<i64>,
) -> Result<IngestStats, IngestError> {
    let mut total = IngestStats::default();
    let ignored = IgnoredAuthors::load(store).await?;
    let mut chunks = into_batches(posts);
    let spawn =
        |chunk: Vec<Post>, m: Arc<Matcher>| tokio::task::spawn_blocking(move || prepare_for(&m, &chunk, searched_for));
    let mut next = chunks.next().map(|c| spawn(c, matcher.clone()));
    let mut writes = Writes::new(store);
    while let Some(handle) = next.take() {
        let mut records = handle.await.unwrap_or_default();
        ignored.apply(&mut records);
        next = chunks.next().map(|c| spawn(c, matcher.clone()));
        if let Some(s) = writes.start(records, now, next.is_none()).await? {
            add(&mut total, s);
        }
    }
    for s in writes.finish().await {
        add(&mut total, s?);
    }
    Ok(total)
}

fn add(total: &mut IngestStats, s: IngestStats) {
    total.new_posts += s.new_posts;
    total.updated_posts += s.updated_posts;
    total.new_links += s.new_links;
}

/// Writes in flight at once: a batch's posts and links are written while the batch before it
/// writes its rollups and commits ([`hark_store::IngestSequence`]).
const WRITES_IN_FLIGHT: usize = 2;

/// The writes of one source's batches, at most [`WRITES_IN_FLIGHT`] at a time, answered in order.
///
/// A source's only batch (an import request, a connector's page, a short backfill) is not written
/// in a sequence but by [`Store::ingest_batch`]: there small batches arriving at once from many
/// sources are written together in one transaction (on SQLite on the store's writer thread), and
/// a large one is split in two on PostgreSQL. Written one sequence each, the load test's 5,000
/// posts/s of small import requests took a transaction apiece.
pub struct Writes {
    store: Store,
    sequence: hark_store::IngestSequence,
    running: std::collections::VecDeque<tokio::task::JoinHandle<Result<IngestStats, StoreError>>>,
}

impl Writes {
    pub fn new(store: &Store) -> Self {
        Self { store: store.clone(), sequence: store.ingest_sequence(), running: Default::default() }
    }

    /// Starts writing `records` (`last`: no batch of this source follows them); when the writes
    /// in flight were already as many as allowed, first waits for the oldest and returns its
    /// figures. If that write failed, nothing is started: the writes still in flight are waited
    /// for (none is left running when the caller answers) and the error is returned. A source's
    /// only batch is written at once, and its figures returned.
    pub async fn start(&mut self, records: Vec<PostRecord>, now: Millis, last: bool) -> Result<Option<IngestStats>, IngestError> {
        if last && self.running.is_empty() {
            return Ok(Some(self.store.ingest_batch(&records, now).await?));
        }
        let done = if self.running.len() >= WRITES_IN_FLIGHT { self.next().await } else { None };
        if let Some(Err(e)) = done {
            while self.next().await.is_some() {}
            return Err(e);
        }
        self.running.push_back(tokio::spawn(self.sequence.write(records, now)));
        done.transpose()
    }

    async fn next(&mut self) -> Option<Result<IngestStats, IngestError>> {
        let h = self.running.pop_front()?;
        Some(match h.await {
            Ok(r) => r.map_err(IngestError::from),
            Err(e) => Err(IngestError::Task(format!("a batch's write stopped: {e}"))),
        })
    }

    /// Waits for every write still in flight, oldest first.
    pub async fn finish(mut self) -> Vec<Result<IngestStats, IngestError>> {
        let mut out = Vec::new();
        while let Some(r) = self.next().await {
            out.push(r);
        }
        out
    }
}

/// What an import did, for the CLI and the upload endpoint.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    /// Non-blank lines or CSV records read.
    pub lines: usize,
    /// Posts that matched the tracker's search and are now in it.
    pub imported: u64,
    /// Of those, posts Hark had not stored before.
    pub new_posts: u64,
    /// Valid posts that do not match the tracker's search.
    pub unmatched: u64,
    /// Lines that could not be read.
    pub invalid: u64,
    /// The first line errors (at most [`MAX_REPORTED_ERRORS`]).
    pub errors: Vec<crate::import::LineError>,
}

pub const MAX_REPORTED_ERRORS: usize = 100;

impl ImportSummary {
    pub fn add_errors(&mut self, errors: Vec<crate::import::LineError>) {
        self.invalid += errors.len() as u64;
        let room = MAX_REPORTED_ERRORS.saturating_sub(self.errors.len());
        self.errors.extend(errors.into_iter().take(room));
    }

    /// Counts a batch of `read` valid posts of which `kept` match the tracker (and are written).
    pub fn add_matched(&mut self, read: usize, kept: usize) {
        self.unmatched += read.saturating_sub(kept) as u64;
        self.imported += kept as u64;
    }
}

/// Imports posts into one tracker: they are matched against its search only (posts that do not
/// match are counted, not stored), enriched and written batch by batch.
pub async fn import_posts(
    store: &Store,
    matcher: &Arc<Matcher>,
    posts: Vec<Post>,
    summary: &mut ImportSummary,
    now: Millis,
) -> Result<(), IngestError> {
    let ignored = IgnoredAuthors::load(store).await?;
    let mut writes = Writes::new(store);
    let mut batches = into_batches(posts).peekable();
    while let Some(chunk) = batches.next() {
        let m = matcher.clone();
        let read = chunk.len();
        let mut records = tokio::task::spawn_blocking(move || prepare(&m, &chunk)).await.unwrap_or_default();
        ignored.apply(&mut records);
        summary.add_matched(read, records.len());
        if let Some(s) = writes.start(records, now, batches.peek().is_none()).await? {
            summary.new_posts += s.new_posts;
        }
    }
    for s in writes.finish().await {
        summary.new_posts += s?.new_posts;
    }
    Ok(())
}

/// Authors a tracker's owner chose to ignore ('Don't collect any more posts from this user'): their
/// new posts are not linked to that tracker. Read once per ingest call, so a change applies to the
/// next batch collected.
#[derive(Debug, Default)]
pub struct IgnoredAuthors(std::collections::HashSet<(i64, String, String)>);

impl IgnoredAuthors {
    pub async fn load(store: &Store) -> Result<Self, IngestError> {
        Ok(Self(store.ignored_authors().await?.into_iter().collect()))
    }

    /// Drops links to trackers that ignore the post's author, and posts left with no link.
    pub fn apply(&self, records: &mut Vec<PostRecord>) {
        if self.0.is_empty() {
            return;
        }
        let mut key = (0i64, String::new(), String::new());
        records.retain_mut(|r| {
            key.1.clear();
            key.1.push_str(r.platform.name());
            key.2 = r.author_username.to_lowercase();
            r.links.retain(|l| {
                key.0 = l.tracker_id;
                !self.0.contains(&key)
            });
            !r.links.is_empty()
        });
    }
}
