//! The posts page query: a tracker's posts filtered, searched, sorted and paged, with the total.
//! Search uses the full-text index (SQLite FTS5 `posts_fts`; on PostgreSQL the stored `posts.fts`
//! tsvector and its GIN index) over text, title, author names and location.
//!
//! Plans, at a million posts per tracker:
//! - date order reads the (tracker, time) index;
//! - engagement, reach, engagement rate, impressions, sentiment and user walk the key's index on
//!   the links (migrations 0014, 0015), one stream per platform and kind of post (per sentiment
//!   bucket for the score) merged in order, until the page's posts are ahead of every stream
//!   still open;
//! - engagement pages from the 1,000th post on, with no filter but the platforms, skip to the
//!   page in the dashboard's engagement index, one statement;
//! - likes, comments, shares and views read the window's hours in the order of their per-hour
//!   bound of the key (`rollup_hourly.max_<key>` / `min_<key>`), a few hours at a time, until no
//!   hour left can hold a post of the page (the page's last key strictly beats the next hour's
//!   bound);
//! - post tags and rare searches are driven from the tagged posts / the search's matches;
//! - the total comes from the hourly rollups when only platforms, the range and one of
//!   sentiment, retweets, stories or subtracker filter; otherwise it is counted, exactly for tags
//!   and rare searches, and up to a cap (flagged) for the rest.

use hark_core::{Millis, PlatformSet, Post};

use crate::ingest::PostKind;
use crate::{with_pool, Backend, BeginWrite, Result, Store, POST_ROW_COLUMNS};


const HOUR_MS: i64 = 3_600_000;
/// Totals above this are reported as "more than" (capped) when they would have to be counted.
pub const TOTAL_CAP: i64 = 10_000;
/// The same for searches.
pub const SEARCH_TOTAL_CAP: i64 = 1_000;
/// A search with at most this many matches (over all posts) is driven from its matches.
pub const RARE_SEARCH: i64 = 20_000;
/// On SQLite, a walk in a key's order with a search of at most this many matches (over all posts)
/// reads them into memory and tests each link read there, not against the full-text index.
pub const SEARCH_SET_MAX: i64 = 150_000;
/// On PostgreSQL, a common word's total is counted among the range's newest this many links at
/// most (each tested against the word, about 3 µs a link): past them, the total is the lower
/// bound found so far.
pub const SEARCH_EXAMINED: i64 = 5_000;
/// A page in engagement order at least this deep, without a filter but the platforms (all those
/// with posts in the range), skips its posts in the engagement index (the dashboard's, migration
/// 0006: tracker, engagement, time, post) with the deleted links left out by their copy: one
/// statement, where a walk reads every post before the page into Hark (page 200: 39 to 3 ms on
/// SQLite, 31 to 8 on PostgreSQL).
pub const ENGAGEMENT_SKIP_FROM: i64 = 1_000;

/// The caps and the search limits in force (tests lower them to reach every plan with little
/// data): total cap, search total cap, rare search, search set, deleted links a walk leaves out,
/// links a search's total examines (PostgreSQL), the depth from which an engagement page skips.
static LIMITS: [std::sync::atomic::AtomicI64; 7] = [
    std::sync::atomic::AtomicI64::new(TOTAL_CAP),
    std::sync::atomic::AtomicI64::new(SEARCH_TOTAL_CAP),
    std::sync::atomic::AtomicI64::new(RARE_SEARCH),
    std::sync::atomic::AtomicI64::new(SEARCH_SET_MAX),
    std::sync::atomic::AtomicI64::new(WALK_DELETED_MAX),
    std::sync::atomic::AtomicI64::new(SEARCH_EXAMINED),
    std::sync::atomic::AtomicI64::new(ENGAGEMENT_SKIP_FROM),
];

fn limit(i: usize) -> i64 {
    LIMITS[i].load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets the limits above, in that order (for tests).
#[doc(hidden)]
pub fn set_limits(limits: [i64; 7]) {
    for (i, v) in limits.into_iter().enumerate() {
        LIMITS[i].store(v, std::sync::atomic::Ordering::Relaxed);
    }
}
/// Pages deeper than this many posts use the plain sorted query.
const TOP_K_MAX: i64 = 1_000;
/// The same for a sort whose key's index is walked.
const WALK_MAX: i64 = 10_000;
/// Index entries a walk's stream reads at first: five quarters of the page's share of the stream
/// (`WALK_FIRST` / 4; at least [`WALK_FIRST_MIN`]). A stream read again reads what the page still
/// lacks at the share of its links kept so far, with a margin, up to four times its piece before
/// (at most [`WALK_PIECE_MAX`]).
const WALK_FIRST: i64 = 5;
const WALK_FIRST_MIN: i64 = 16;
const WALK_FIRST_MIN_PROBED: i64 = 4;
const WALK_PIECE_MAX: i64 = 100_000;
/// A walk leaves out up to this many deleted links of the range itself.
pub const WALK_DELETED_MAX: i64 = 20_000;

/// The total number of posts matching a query; `capped`: not counted to the end, there are at
/// least `total` (more than `total` when the count reached its cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PostTotal {
    pub total: i64,
    pub capped: bool,
}

impl PartialEq<i64> for PostTotal {
    fn eq(&self, other: &i64) -> bool {
        !self.capped && self.total == *other
    }
}

/// How a search is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SearchPlan {
    None,
    /// Few matches: the query is driven from them.
    Ids,
    /// Many matches: candidates from the time order (or the sort's hours) are each tested.
    Probe,
    /// As `Probe`, but (SQLite) the word's matches look few enough to be read into memory: a
    /// walk in a key's order tests its links there ([`SEARCH_SET_MAX`]).
    Set,
}

impl SearchPlan {
    /// A word with many matches (candidates are tested).
    fn probes(self) -> bool {
        matches!(self, Self::Probe | Self::Set)
    }
}

pub const SENTIMENT_BUCKETS: [&str; 5] = ["positive", "slight_positive", "neutral", "slight_negative", "negative"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PostSort {
    #[default]
    Date,
    Engagement,
    Reach,
    EngagementRate,
    Impressions,
    Sentiment,
    User,
    Likes,
    Comments,
    Shares,
    Views,
}

impl PostSort {
    /// Accepts the sort names of the posts page (and the spec's aliases).
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "created_at" | "date" => Self::Date,
            "engagement" | "engagements" | "rts_likes" => Self::Engagement,
            "reach" | "followers" => Self::Reach,
            "engagement_rate" => Self::EngagementRate,
            "impressions" => Self::Impressions,
            "sentiment" | "sentimentScore" => Self::Sentiment,
            "user" | "full_name" => Self::User,
            "likes" => Self::Likes,
            "comments" => Self::Comments,
            "shares" => Self::Shares,
            "views" => Self::Views,
            _ => return None,
        })
    }

    fn column(self) -> &'static str {
        match self {
            Self::Date => "tp.created_at",
            Self::Engagement => "tp.engagement",
            Self::Reach => "tp.followers",
            Self::EngagementRate => "tp.rate",
            Self::Impressions => "tp.impressions",
            Self::Sentiment => "tp.sentiment",
            Self::User => "tp.author_sort",
            Self::Likes => "p.likes",
            Self::Comments => "p.comments",
            Self::Shares => "p.shares",
            Self::Views => "p.views",
        }
    }

    /// The per-hour bound columns (`rollup_hourly.max_<name>` / `min_<name>`) of a numeric sort
    /// whose key is not kept on the link.
    fn bound(self) -> Option<&'static str> {
        Some(match self {
            Self::Likes => "likes",
            Self::Comments => "comments",
            Self::Shares => "shares",
            Self::Views => "views",
            _ => return None,
        })
    }

    /// A sort whose key is kept on the link (`tracker_posts.<column>`) with its index
    /// (tracker, platform, key, time, post): its column, index and value type.
    fn link_key(self) -> Option<(&'static str, &'static str, KeyKind)> {
        Some(match self {
            Self::Engagement => ("engagement", "tracker_posts_page_engagement_idx", KeyKind::Int),
            Self::Reach => ("followers", "tracker_posts_page_followers_idx", KeyKind::Int),
            Self::EngagementRate => ("rate", "tracker_posts_page_rate_idx", KeyKind::Real),
            Self::Impressions => ("impressions", "tracker_posts_page_impressions_idx", KeyKind::Int),
            Self::Sentiment => ("sentiment", "tracker_posts_page_sentiment_idx", KeyKind::Real),
            Self::User => ("author_sort", "tracker_posts_page_author_idx", KeyKind::Text),
            _ => return None,
        })
    }

    /// The ORDER BY of the sort in a direction: the key, then (for keys on the link, as their
    /// index orders them) the time, then the post id, all in that direction.
    fn order_by(self, dir: &str) -> String {
        match self {
            Self::Date => format!("tp.created_at {dir}, tp.post_id {dir}"),
            s if s.link_key().is_some() => format!("{} {dir}, tp.created_at {dir}, tp.post_id {dir}", s.column()),
            s => format!("{} {dir}, tp.post_id {dir}", s.column()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyKind {
    Int,
    Real,
    Text,
}

/// A sort key value read from a link's index (where the next piece of a walk starts).
#[derive(Debug, Clone)]
enum KeyValue {
    Int(i64),
    Real(f64),
    Text(String),
}

impl KeyValue {
    /// As the database compares them: numbers by value (0.0 and -0.0 equal), text bytewise
    /// (SQLite's BINARY, PostgreSQL's "C" collation of the column).
    fn compare(&self, other: &KeyValue) -> std::cmp::Ordering {
        match (self, other) {
            (KeyValue::Int(a), KeyValue::Int(b)) => a.cmp(b),
            (KeyValue::Real(a), KeyValue::Real(b)) => a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal),
            (KeyValue::Text(a), KeyValue::Text(b)) => a.as_bytes().cmp(b.as_bytes()),
            _ => std::cmp::Ordering::Equal,
        }
    }
}

/// A link read in a walk: its key, time and post id.
type WalkEntry = (KeyValue, i64, i64);

/// One stream of a walk (the links of one platform and kind of post, or of one sentiment
/// bucket): its condition on the index's leading columns, where it stands, the size of its next
/// piece, and whether it has no more links in the range.
struct Stream {
    condition: String,
    after: Option<WalkEntry>,
    piece: i64,
    complete: bool,
    /// Links read and kept so far.
    read: i64,
    kept: i64,
}

/// Filters, sort and page of the posts page.
#[derive(Debug, Clone, Default)]
pub struct PostQuery {
    pub platforms: PlatformSet,
    pub start: Option<Millis>,
    pub end: Option<Millis>,
    pub search: String,
    /// Sentiment buckets to keep (empty: all).
    pub sentiment: Vec<&'static str>,
    pub exclude_retweets: bool,
    pub stories_only: bool,
    pub post_tags: Vec<i64>,
    pub post_tags_all: bool,
    /// Influencer tags (of `influencer_tag_owner`) whose accounts' posts to keep.
    pub influencer_tags: Vec<i64>,
    pub influencer_tags_all: bool,
    pub influencer_tag_owner: i64,
    /// 1-based subtracker number.
    pub subtracker: Option<u32>,
    pub sort: PostSort,
    pub ascending: bool,
    pub page: i64,
    pub per_page: i64,
}

/// One post of a page.
#[derive(Debug, Clone)]
pub struct PostRow {
    pub post_id: i64,
    pub post: Post,
    pub sentiment: Option<f64>,
    /// The bucket shown: the manual edit when there is one.
    pub sentiment_bucket: String,
    pub sentiment_edited: bool,
    pub engagement: i64,
    pub engagement_rate: Option<f64>,
    pub reach: i64,
    pub impressions: i64,
    pub country: Option<String>,
    pub post_type: String,
    pub matched_at: Millis,
    pub tags: Vec<i64>,
}

#[derive(sqlx::FromRow)]
struct RawRow {
    post_id: i64,
    #[sqlx(flatten)]
    row: crate::StoredRow,
    sentiment: Option<f64>,
    bucket: Option<String>,
    edited: Option<String>,
    engagement: i64,
    engagement_rate: Option<f64>,
    author_followers: i64,
    impressions: i64,
    country: Option<String>,
    post_type: String,
    matched_at: Millis,
}

/// Words of a search, lowercased; everything but letters and digits separates words (as both
/// indexes tokenise).
pub fn search_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).take(16).map(|w| w.to_lowercase()).collect()
}

/// A JSON-array parameter read as a set of integers (no parameter limit, one plan).
pub(crate) fn id_set(backend: Backend, param: &str) -> String {
    match backend {
        Backend::Sqlite => format!("SELECT value FROM json_each({param})"),
        Backend::Postgres => format!("SELECT jsonb_array_elements_text({param}::jsonb)::bigint"),
    }
}

pub(crate) fn json_ids(ids: &[i64]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".into())
}

fn int_list(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

impl PostQuery {
    /// No filter but the platforms and the range: no search, tags, influencer tags, sentiment
    /// (all five buckets count as none), retweets, stories or subtracker.
    fn platforms_only(&self) -> bool {
        search_words(&self.search).is_empty()
            && self.post_tags.is_empty()
            && self.influencer_tags.is_empty()
            && self.bucket_list().is_none()
            && !self.exclude_retweets
            && !self.stories_only
            && self.subtracker_bit().is_none()
    }

    /// The bit of the subtracker filtered on, if any.
    fn subtracker_bit(&self) -> Option<i64> {
        self.subtracker.filter(|n| (1..=62).contains(n)).map(|n| 1i64 << (n - 1))
    }

    /// The sentiment buckets kept, quoted for SQL, when the filter drops some.
    fn bucket_list(&self) -> Option<String> {
        (!self.sentiment.is_empty() && self.sentiment.len() < SENTIMENT_BUCKETS.len())
            .then(|| self.sentiment.iter().map(|b| format!("'{b}'")).collect::<Vec<_>>().join(","))
    }

    fn platform_list(&self) -> Option<String> {
        let platforms: Vec<String> = self.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        (!platforms.is_empty()).then(|| platforms.join(","))
    }

    /// The WHERE clause (parameters: $1 tracker, $2 start, $3 end, $4 search) and whether it
    /// reads `posts p`.
    fn where_clause(&self, backend: Backend, plan: SearchPlan) -> Option<(String, bool)> {
        self.where_with(backend, plan, false, None)
    }

    /// `unindexed`: the range is not read from the time index (the caller gives the rows some
    /// other way). `ids`: on SQLite, a search's matches are read in this post id range only.
    fn where_with(&self, backend: Backend, plan: SearchPlan, unindexed: bool, ids: Option<(i64, i64)>) -> Option<(String, bool)> {
        self.where_between(backend, plan, unindexed, ids, ("$2", "$3"))
    }

    /// As [`Self::where_with`], the range's first and last times given by these expressions.
    fn where_between(
        &self,
        backend: Backend,
        plan: SearchPlan,
        unindexed: bool,
        ids: Option<(i64, i64)>,
        (lo, hi): (&str, &str),
    ) -> Option<(String, bool)> {
        let platforms = self.platform_list()?;
        // Driven from a small set of post ids (tags, a rare search): on SQLite the time index is
        // kept out of the plan (`+`), so the (tracker, post) key is used for each id.
        let driven = unindexed || plan == SearchPlan::Ids || !self.post_tags.is_empty();
        let time = if driven && backend == Backend::Sqlite { "+tp.created_at" } else { "tp.created_at" };
        // Inlined values come from closed sets (platform names, buckets) or are integers.
        let live = live_in_range(backend, "$1", (lo, hi));
        let mut w =
            format!("tp.tracker_id = $1 AND {live} AND {time} >= {lo} AND {time} <= {hi} AND tp.platform IN ({platforms})");
        let mut needs_posts = false;
        if plan != SearchPlan::None {
            match (backend, plan) {
                (Backend::Sqlite, SearchPlan::Ids) => {
                    w.push_str(" AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $4)")
                }
                (Backend::Sqlite, _) if ids.is_some() => {
                    let (lo, hi) = ids.unwrap_or_default();
                    w.push_str(&format!(
                        " AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $4 AND rowid >= {lo} AND rowid <= {hi})"
                    ))
                }
                (Backend::Sqlite, _) => {
                    w.push_str(" AND EXISTS (SELECT 1 FROM posts_fts WHERE posts_fts MATCH $4 AND posts_fts.rowid = tp.post_id)")
                }
                (Backend::Postgres, _) => {
                    needs_posts = true;
                    w.push_str(" AND p.fts @@ to_tsquery('simple', $4)");
                }
            }
        }
        if let Some(list) = self.bucket_list() {
            // The bucket shown (edit, else rule, else the analysed one) is kept on the link.
            w.push_str(&format!(" AND tp.bucket IN ({list})"));
        }
        // Retweets (twitter's) and stories (instagram's) are marked on the link (migration 0015).
        if self.exclude_retweets {
            w.push_str(&format!(" AND tp.post_kind <> {}", PostKind::Retweet as i16));
        }
        if self.stories_only {
            w.push_str(&format!(" AND tp.post_kind = {}", PostKind::Story as i16));
        }
        if !self.post_tags.is_empty() {
            // Driven from the tag side (post_tags_tag_idx): a few tagged posts among a million
            // are found without visiting the others.
            let list = int_list(&self.post_tags);
            let having = if self.post_tags_all {
                format!(" GROUP BY pt.post_id HAVING COUNT(*) = {}", self.post_tags.len())
            } else {
                String::new()
            };
            w.push_str(&format!(
                " AND tp.post_id IN (SELECT pt.post_id FROM post_tags pt WHERE pt.tag_id IN ({list}) \
                 AND pt.tracker_id = $1{having})"
            ));
        }
        if !self.influencer_tags.is_empty() {
            needs_posts = true;
            let list = int_list(&self.influencer_tags);
            let accounts = format!(
                "FROM influencer_tag_accounts a JOIN influencer_tags it ON it.id = a.tag_id WHERE it.owner_id = {} \
                 AND a.tag_id IN ({list}) AND a.platform = p.platform AND LOWER(a.username) = LOWER(p.author_username)",
                self.influencer_tag_owner
            );
            if self.influencer_tags_all {
                w.push_str(&format!(" AND (SELECT COUNT(DISTINCT a.tag_id) {accounts}) = {}", self.influencer_tags.len()));
            } else {
                w.push_str(&format!(" AND EXISTS (SELECT 1 {accounts})"));
            }
        }
        if let Some(bit) = self.subtracker_bit() {
            w.push_str(&format!(" AND (tp.subtrackers & {bit}) <> 0"));
        }
        Some((w, needs_posts))
    }

    fn match_expr(&self, backend: Backend) -> String {
        let words = search_words(&self.search);
        match backend {
            // Quoted tokens, implicitly ANDed.
            Backend::Sqlite => words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" "),
            Backend::Postgres => words.join(" & "),
        }
    }
}

/// Ids from a `group_concat` (one row instead of one per id), sorted.
fn id_list(list: Option<String>) -> Vec<i64> {
    let mut ids: Vec<i64> = list.unwrap_or_default().split(',').filter_map(|x| x.parse().ok()).collect();
    ids.sort_unstable();
    ids
}

/// `x` rounded down to its hour, without overflow at the ends of the range.
fn hour_floor(x: i64) -> i64 {
    let h = (x as i128).div_euclid(HOUR_MS as i128) * HOUR_MS as i128;
    h.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// What the total can be summed from in the hourly rollups, if anything.
enum RollupTotal {
    /// `rollup_hourly`, this expression summed.
    Hourly(String),
    /// `rollup_subtrackers` of this subtracker.
    Sub(u32),
}

impl PostQuery {
    fn rollup_total(&self) -> Option<RollupTotal> {
        if !search_words(&self.search).is_empty() || !self.post_tags.is_empty() || !self.influencer_tags.is_empty() {
            return None;
        }
        let sentiment = !self.sentiment.is_empty() && self.sentiment.len() < SENTIMENT_BUCKETS.len();
        let sub = self.subtracker.filter(|n| (1..=62).contains(n));
        let filters = [sentiment, self.exclude_retweets, self.stories_only, sub.is_some()];
        match filters.iter().filter(|f| **f).count() {
            0 => Some(RollupTotal::Hourly("posts".into())),
            1 if sentiment => {
                let mut cols: Vec<&str> =
                    self.sentiment.iter().map(|b| crate::ingest::SENTIMENT_COLUMNS[crate::ingest::bucket_index(b)].1).collect();
                cols.sort_unstable();
                cols.dedup();
                Some(RollupTotal::Hourly(cols.join(" + ")))
            }
            1 if self.exclude_retweets => Some(RollupTotal::Hourly("posts - retweets".into())),
            1 if self.stories_only => Some(RollupTotal::Hourly("stories".into())),
            1 => sub.map(RollupTotal::Sub),
            _ => None,
        }
    }
}

/// SQL that holds when the link `tp` of the tracker `tracker` (an expression) is not deleted, for
/// a query of the links of one time range (`lo`, `hi`: expressions). On PostgreSQL (deletions in
/// `tracker_deleted_posts` alone, migration 0020) a range usually holds no deleted link: one look
/// at their time index, run once (an initial plan), then spares the look-up of each link read
/// (page 200 by date: 5.2 ms with the look-ups, 1.6 ms without).
fn live_in_range(backend: Backend, tracker: &str, (lo, hi): (&str, &str)) -> String {
    match backend {
        Backend::Sqlite => backend.live_link("tp"),
        Backend::Postgres => format!(
            "(NOT EXISTS (SELECT 1 FROM tracker_deleted_posts dr WHERE dr.tracker_id = {tracker} AND dr.created_at >= {lo} \
             AND dr.created_at <= {hi}) OR {})",
            backend.live_link("tp")
        ),
    }
}

impl Store {
    /// A page of a tracker's posts and the number of posts matching the filters.
    pub async fn query_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<(Vec<PostRow>, PostTotal)> {
        // One probe of the search for both.
        let (page, total) = self.search_plans(tracker_id, q).await?;
        // The page and its total at the same time, on two connections.
        tokio::try_join!(self.post_page(tracker_id, q, true, page), self.post_total_by(tracker_id, q, total))
    }

    /// How a query's search is run, for its page and for its total: a probe of the full-text
    /// index with a limit tells a rare word (its matches drive the query) from a common one
    /// (candidates are tested instead).
    async fn search_plans(&self, tracker_id: i64, q: &PostQuery) -> Result<(SearchPlan, SearchPlan)> {
        if search_words(&q.search).is_empty() {
            return Ok((SearchPlan::None, SearchPlan::None));
        }
        let m = q.match_expr(self.backend());
        match self.backend() {
            // The newest matches up to the rare limit: their count, and the post ids they span,
            // which gives the word's share of the posts (and so its matches over all of them).
            Backend::Sqlite => {
                let sql = format!(
                    "SELECT COUNT(*), MIN(rowid), (SELECT MAX(id) FROM posts) FROM \
                     (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 ORDER BY rowid DESC LIMIT {})",
                    limit(2) + 1
                );
                let (n, low, top): (i64, Option<i64>, Option<i64>) =
                    with_pool!(self, |p| sqlx::query_as(&sql).bind(&m).fetch_one(p).await?);
                if n <= limit(2) {
                    return Ok((SearchPlan::Ids, SearchPlan::Ids));
                }
                let (low, top) = (low.unwrap_or(0), top.unwrap_or(0).max(1));
                let share = n as f64 / (top - low + 1).max(1) as f64;
                // The reading is cut short at the limit when the estimate is wrong.
                let plan = if share * top as f64 <= 2.0 * limit(3) as f64 { SearchPlan::Set } else { SearchPlan::Probe };
                Ok((plan, plan))
            }
            // Counting a common word's matches in the GIN index costs as much as the query, so
            // the range's 2,000 newest posts are sampled instead: in date order a word in 1 % or
            // more of them is common (the range is walked and each post tested).
            Backend::Postgres => {
                let sql = format!(
                    "SELECT COUNT(*) FROM (SELECT tp.post_id FROM tracker_posts tp WHERE tp.tracker_id = $2 \
                     AND {} AND tp.created_at >= $3 AND tp.created_at <= $4 ORDER BY tp.created_at DESC LIMIT 2000) tp \
                     JOIN posts p ON p.id = tp.post_id WHERE p.fts @@ to_tsquery('simple', $1)",
                    live_in_range(Backend::Postgres, "$2", ("$3", "$4"))
                );
                let n: i64 = with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
                    .bind(&m)
                    .bind(tracker_id)
                    .bind(q.start.unwrap_or(i64::MIN))
                    .bind(q.end.unwrap_or(i64::MAX))
                    .fetch_one(p)
                    .await?);
                // Another order reads the best hours first, where a word in few posts leaves
                // most hours to read: it needs a word in 10 % of the posts. The total is the same
                // in every order: a word the date order finds common is counted up to the cap
                // (an exact count of a word in 5 % of a million posts reads 90,000 of them).
                let plan = |common: i64| if n >= common { SearchPlan::Probe } else { SearchPlan::Ids };
                let by_date = plan(limit(2) / 1000);
                Ok((if q.sort == PostSort::Date { by_date } else { plan(limit(2) / 100) }, by_date))
            }
        }
    }

    /// The exact number of posts matching the filters (counted over the post rows).
    pub async fn count_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<i64> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.count_rows(tracker_id, q, plan, q.start.unwrap_or(i64::MIN), q.end.unwrap_or(i64::MAX), None).await
    }

    /// Posts matching the filters whose time is in `[start, end]`, counted over the rows, up to
    /// `cap` + 1 when a cap is given.
    async fn count_rows(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, start: i64, end: i64, cap: Option<i64>) -> Result<i64> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(0) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let sql = match cap {
            // PostgreSQL would gather every match of a common word (or of the other filters)
            // before the limit; the range is walked newest first instead, stopping at the cap.
            Some(c) if backend == Backend::Postgres => format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
                 AND tp.created_at >= $2 AND tp.created_at <= $3 ORDER BY tp.created_at DESC OFFSET 0) tp\
                 {join} WHERE {w} LIMIT {}) x",
                c + 1
            ),
            Some(c) => format!("SELECT COUNT(*) FROM (SELECT 1 FROM tracker_posts tp{join} WHERE {w} LIMIT {}) x", c + 1),
            None => format!("SELECT COUNT(*) FROM tracker_posts tp{join} WHERE {w}"),
        };
        let m = q.match_expr(backend);
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(start).bind(end);
            // $4 exists only with a search.
            if !m.is_empty() {
                query = query.bind(m);
            }
            query.fetch_one(p).await?
        }))
    }

    /// The total that comes with a page: exact from the hourly rollups (and the posts of the
    /// range's partial first and last hours) when the filters allow; exact over the rows for
    /// tags and rare searches; otherwise counted up to [`TOTAL_CAP`] ([`SEARCH_TOTAL_CAP`] for a
    /// search) and flagged as capped above it.
    pub async fn post_total(&self, tracker_id: i64, q: &PostQuery) -> Result<PostTotal> {
        let (_, plan) = self.search_plans(tracker_id, q).await?;
        self.post_total_by(tracker_id, q, plan).await
    }

    async fn post_total_by(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan) -> Result<PostTotal> {
        let Some(platforms) = q.platform_list() else { return Ok(PostTotal::default()) };
        let (start, end) = (q.start.unwrap_or(i64::MIN), q.end.unwrap_or(i64::MAX));
        if end < start {
            return Ok(PostTotal::default());
        }
        if let Some(source) = q.rollup_total() {
            // Whole hours [hs, he); the rest of the range is read from the rows.
            let hs = if start == i64::MIN || hour_floor(start) == start { start } else { hour_floor(start).saturating_add(HOUR_MS) };
            let he = if end == i64::MAX { end } else { hour_floor(end.saturating_add(1)) };
            if hs < he {
                // One statement: the whole hours from the rollup, and the posts of the partial
                // first and last hours counted over the rows ($2–$3 and $4–$5; empty when none).
                let sum = match &source {
                    RollupTotal::Hourly(expr) => format!(
                        "SELECT COALESCE(SUM({expr}), 0) FROM rollup_hourly WHERE tracker_id = $1 \
                         AND hour >= $6 AND hour < $7 AND platform IN ({platforms})"
                    ),
                    RollupTotal::Sub(n) => format!(
                        "SELECT COALESCE(SUM(posts), 0) FROM rollup_subtrackers WHERE tracker_id = $1 \
                         AND hour >= $6 AND hour < $7 AND platform IN ({platforms}) AND sub = {n}"
                    ),
                };
                let backend = self.backend();
                let Some((first, _)) = q.where_between(backend, plan, false, None, ("$2", "$3")) else { return Ok(PostTotal::default()) };
                let Some((last, _)) = q.where_between(backend, plan, false, None, ("$4", "$5")) else { return Ok(PostTotal::default()) };
                let sql = format!(
                    "SELECT CAST(({sum}) + (SELECT COUNT(*) FROM tracker_posts tp WHERE {first}) \
                     + (SELECT COUNT(*) FROM tracker_posts tp WHERE {last}) AS BIGINT)"
                );
                let (a, b) = if start < hs { (start, hs - 1) } else { (1, 0) };
                let (c, d) = if he <= end && end != i64::MAX { (he, end) } else { (1, 0) };
                let total: i64 = with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
                    .bind(tracker_id)
                    .bind(a)
                    .bind(b)
                    .bind(c)
                    .bind(d)
                    .bind(hs)
                    .bind(he)
                    .fetch_one(p)
                    .await?);
                return Ok(PostTotal { total, capped: false });
            }
            let total = self.count_rows(tracker_id, q, plan, start, end, None).await?;
            return Ok(PostTotal { total, capped: false });
        }
        // Tags are small sets, and a rare search has few matches: counted exactly.
        let cap = if !q.post_tags.is_empty() || plan == SearchPlan::Ids {
            None
        } else if plan.probes() {
            Some(limit(1))
        } else {
            Some(limit(0))
        };
        let n = if plan.probes() && self.backend() == Backend::Sqlite {
            self.count_common_word_sqlite(tracker_id, q, start, end, cap.unwrap_or(0)).await?
        } else if plan.probes() {
            let (n, all) = self.count_common_word_pg(tracker_id, q, start, end, cap.unwrap_or(0)).await?;
            if !all && n <= cap.unwrap_or(0) {
                return Ok(PostTotal { total: n, capped: true });
            }
            n
        } else {
            self.count_rows(tracker_id, q, plan, start, end, cap).await?
        };
        Ok(match cap {
            Some(c) if n > c => PostTotal { total: c, capped: true },
            _ => PostTotal { total: n, capped: false },
        })
    }

    /// Up to `cap` + 1 posts matching a common word and the filters, read from the word's
    /// matches newest post id first (recent posts have the highest ids, and ranges are mostly
    /// recent), each checked against its link.
    async fn count_common_word_sqlite(&self, tracker_id: i64, q: &PostQuery, start: i64, end: i64, cap: i64) -> Result<i64> {
        let Some((w, needs_posts)) = q.where_with(self.backend(), SearchPlan::None, true, None) else { return Ok(0) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let sql = format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM posts_fts f CROSS JOIN tracker_posts tp ON tp.tracker_id = $1 AND tp.post_id = f.rowid{join} \
             WHERE posts_fts MATCH $4 AND {w} ORDER BY f.rowid DESC LIMIT {}) x",
            cap + 1
        );
        let m = q.match_expr(self.backend());
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(start).bind(end).bind(&m).fetch_one(p).await?))
    }

    /// PostgreSQL: up to `cap` + 1 posts matching a common word and the filters among the range's
    /// newest [`SEARCH_EXAMINED`] links (newest first), and whether those were all its links (the
    /// hourly rollup's posts over the hours the range touches, a bound from above, are no more).
    /// The word is tested on each link's post (its `fts`); the full-text index cannot give a
    /// word's matches newest first, and its matches of a common word are many.
    async fn count_common_word_pg(&self, tracker_id: i64, q: &PostQuery, start: i64, end: i64, cap: i64) -> Result<(i64, bool)> {
        let Some((w, _)) = q.where_clause(self.backend(), SearchPlan::Probe) else { return Ok((0, true)) };
        let examined = limit(5);
        let sql = format!(
            "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
             AND tp.created_at >= $2 AND tp.created_at <= $3 \
             ORDER BY tp.created_at DESC, tp.post_id DESC LIMIT {examined}) tp JOIN posts p ON p.id = tp.post_id WHERE {w} LIMIT {}) x), \
             (SELECT CAST(COALESCE(SUM(posts), 0) AS BIGINT) FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $5 AND hour <= $3)",
            cap + 1
        );
        let m = q.match_expr(self.backend());
        let (n, links): (i64, i64) = with_pool!(self, |p| sqlx::query_as(&sql)
            .bind(tracker_id)
            .bind(start)
            .bind(end)
            .bind(&m)
            .bind(hour_floor(start))
            .fetch_one(p)
            .await?);
        Ok((n, n > cap || links <= examined))
    }

    /// Posts of one page, in the query's order, with their tags.
    pub async fn query_post_page(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.post_page(tracker_id, q, true, plan).await
    }

    /// The same page by the plain plan (every matching post sorted), to check the others against.
    #[doc(hidden)]
    pub async fn query_post_page_plain(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.post_page(tracker_id, q, false, plan).await
    }

    async fn post_page(&self, tracker_id: i64, q: &PostQuery, fast: bool, plan: SearchPlan) -> Result<Vec<PostRow>> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(Vec::new()) };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        let per_page = q.per_page.clamp(1, 1000);
        let offset = (q.page.max(1) - 1).saturating_mul(per_page);
        let columns = format!(
            "tp.post_id, {POST_ROW_COLUMNS}, p.sentiment, \
             COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS bucket, \
             tp.sentiment_override AS edited, p.engagement, p.engagement_rate, p.author_followers, p.impressions, p.country, \
             p.post_type, tp.matched_at"
        );
        let m = q.match_expr(backend);
        // A numeric sort over many posts: the page's ids from the hours that can hold them.
        let common_word_by_date = q.sort == PostSort::Date && plan.probes() && backend == Backend::Sqlite;
        let top_k = fast
            && (q.sort.bound().is_some() || common_word_by_date)
            && q.post_tags.is_empty()
            && plan != SearchPlan::Ids
            && offset.saturating_add(per_page) <= TOP_K_MAX;
        // Few posts, driven from their ids (as `where_with` reads them).
        let driven_sqlite = backend == Backend::Sqlite && (plan == SearchPlan::Ids || !q.post_tags.is_empty());
        let mut ordered_ids: Option<Vec<i64>> = None;
        let skip = fast
            && q.sort == PostSort::Engagement
            && q.platforms_only()
            && offset >= limit(6)
            && offset.saturating_add(per_page) <= WALK_MAX
            && self.platforms_cover_range(tracker_id, q).await?;
        if skip {
            ordered_ids = Some(self.engagement_skip_ids(tracker_id, q, offset, per_page).await?);
        } else if fast && q.sort.link_key().is_some() {
            // A key kept on the link: its index is walked from the page's first post when many
            // posts could match; tags and rare searches (few posts) sort their posts' links.
            ordered_ids = Some(if q.post_tags.is_empty() && plan != SearchPlan::Ids && offset.saturating_add(per_page) <= WALK_MAX {
                self.walk_ids(tracker_id, q, plan, &m, offset, per_page).await?
            } else {
                self.sorted_link_ids(tracker_id, q, plan, &m, offset, per_page).await?
            });
        } else if top_k {
            ordered_ids = Some(self.top_k_ids(tracker_id, q, plan, &m, offset, per_page).await?);
        }
        let sql = if let Some(ids) = &ordered_ids {
            format!(
                "SELECT {columns} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1 \
                 AND tp.post_id IN ({})",
                ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            )
        } else if q.sort == PostSort::Date
            && backend == Backend::Postgres
            && q.post_tags.is_empty()
            && (plan.probes() || (plan == SearchPlan::None && needs_posts))
        {
            // A common word, or filters on the post: the range newest (or oldest) first, each
            // post tested, to the page (PostgreSQL would otherwise sort every match).
            format!(
                "SELECT {columns} FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
                 AND tp.created_at >= $2 AND tp.created_at <= $3 ORDER BY tp.created_at {dir}, tp.post_id {dir} OFFSET 0) tp \
                 JOIN posts p ON p.id = tp.post_id WHERE {w} ORDER BY tp.created_at {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}"
            )
        } else if !needs_posts && q.sort == PostSort::Date {
            // The page's links first, in the (tracker, time) index order; then only their posts.
            // Few links driven from their ids (tags, a rare search) are sorted instead: on SQLite
            // the `+` keeps the time index out of the order too, or oldest first it would read
            // the range from its start, testing each link (tags on recent posts: 0.2 s).
            let time = if driven_sqlite { "+tp.created_at" } else { "tp.created_at" };
            format!(
                "SELECT {columns} FROM (SELECT tp.post_id, tp.created_at, tp.sentiment_override, tp.sentiment_rule, tp.matched_at \
                 FROM tracker_posts tp WHERE {w} ORDER BY {time} {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}) tp \
                 JOIN posts p ON p.id = tp.post_id ORDER BY tp.created_at {dir}, tp.post_id {dir}"
            )
        } else {
            let order = q.sort.order_by(dir);
            let order = if driven_sqlite { format!("+{order}") } else { order };
            format!(
                "SELECT {columns} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE {w} \
                 ORDER BY {order} LIMIT {per_page} OFFSET {offset}"
            )
        };
        let raw: Vec<RawRow> = match &ordered_ids {
            Some(ids) if ids.is_empty() => Vec::new(),
            Some(ids) => {
                let mut rows: Vec<RawRow> = with_pool!(self, |p| sqlx::query_as::<_, RawRow>(&sql).bind(tracker_id).fetch_all(p).await?);
                let pos: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
                rows.sort_by_key(|r| pos.get(&r.post_id).copied().unwrap_or(usize::MAX));
                rows
            }
            None => with_pool!(self, |p| {
                let mut query = sqlx::query_as::<_, RawRow>(&sql)
                    .bind(tracker_id)
                    .bind(q.start.unwrap_or(i64::MIN))
                    .bind(q.end.unwrap_or(i64::MAX));
                if !m.is_empty() {
                    query = query.bind(m.clone());
                }
                query.fetch_all(p).await?
            }),
        };
        let ids: Vec<i64> = raw.iter().map(|r| r.post_id).collect();
        let tags = self.tags_of_posts(tracker_id, &ids).await?;
        let mut out = Vec::with_capacity(raw.len());
        for r in raw {
            let Ok(post) = r.row.into_post() else {
                tracing::warn!(post_id = r.post_id, "skipping a stored post that does not decode");
                continue;
            };
            out.push(PostRow {
                post_id: r.post_id,
                post,
                sentiment: r.sentiment,
                sentiment_bucket: r.bucket.unwrap_or_else(|| "neutral".into()),
                sentiment_edited: r.edited.is_some(),
                engagement: r.engagement,
                engagement_rate: r.engagement_rate,
                reach: r.author_followers,
                impressions: r.impressions,
                country: r.country,
                post_type: r.post_type,
                matched_at: r.matched_at,
                tags: tags.iter().filter(|(p, _)| *p == r.post_id).map(|(_, t)| *t).collect(),
            });
        }
        Ok(out)
    }

    /// Ids of the posts of a page in a numeric sort (or in date order for a common word on
    /// SQLite), in order (key, then post id, both in the sort's direction). The window's hours
    /// are read best bound first (for date order: newest or oldest first), in rounds that double,
    /// each round keeping the best `offset + per_page` posts of its hours; it stops when the last
    /// post needed strictly beats the bound of every hour not read (a post there can neither be
    /// better nor tie and come first).
    async fn top_k_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some(platforms) = q.platform_list() else { return Ok(Vec::new()) };
        let desc = !q.ascending;
        let (start, end) = (q.start.unwrap_or(i64::MIN), q.end.unwrap_or(i64::MAX));
        let real = match backend {
            Backend::Sqlite => "REAL",
            Backend::Postgres => "DOUBLE PRECISION",
        };
        let bound_expr = match q.sort.bound() {
            Some(key) => format!(
                "CAST({agg}({col}_{key}) AS {real})",
                agg = if desc { "MAX" } else { "MIN" },
                col = if desc { "max" } else { "min" },
            ),
            // Date order: the hour itself bounds its posts' times.
            None => format!("CAST(hour + {} AS {real})", if desc { HOUR_MS - 1 } else { 0 }),
        };
        let group = " GROUP BY hour";
        let bound_sql = format!(
            "SELECT hour, {bound_expr} FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 \
             AND platform IN ({platforms}) AND posts > 0{group}"
        );
        let mut hours: Vec<(i64, Option<f64>)> = with_pool!(self, |p| sqlx::query_as::<_, (i64, Option<f64>)>(&bound_sql)
            .bind(tracker_id)
            .bind(hour_floor(start))
            .bind(end)
            .fetch_all(p)
            .await?);
        // Best bound first; an hour without a bound could hold anything, so it comes first.
        let better = |a: f64, b: f64| if desc { a > b } else { a < b };
        hours.sort_by(|a, b| match (a.1, b.1) {
            (None, None) => b.0.cmp(&a.0),
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let o = x.total_cmp(&y);
                (if desc { o.reverse() } else { o }).then(b.0.cmp(&a.0))
            }
        });
        let need = offset + per_page;
        let dir = if desc { "DESC" } else { "ASC" };
        let column = if q.sort == PostSort::Date { "tp.created_at" } else { q.sort.column() };
        let order = |a: &(f64, i64), b: &(f64, i64)| {
            let o = a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            if desc { o.reverse() } else { o }
        };
        // A common word on SQLite: each round reads the word's matches within the post ids of
        // its hours (one range scan of the full-text index instead of a lookup per post).
        let id_ranges = backend == Backend::Sqlite && plan.probes();
        let mut best: Vec<(f64, i64)> = Vec::new();
        let mut done = 0usize;
        let mut round = (need as usize + 8).max(16);
        while done < hours.len() {
            let until = (done + round).min(hours.len());
            let mut chosen: Vec<i64> = hours[done..until].iter().map(|h| h.0).collect();
            chosen.sort_unstable();
            done = until;
            round *= 2;
            // Adjacent hours as one time range.
            let mut ranges: Vec<(i64, i64)> = Vec::new();
            for h in chosen {
                match ranges.last_mut() {
                    Some(r) if r.1 == h => r.1 = h.saturating_add(HOUR_MS),
                    _ => ranges.push((h, h.saturating_add(HOUR_MS))),
                }
            }
            let values = format!(
                "(VALUES {}) r",
                ranges.iter().map(|(a, b)| format!("({a}, {b})")).collect::<Vec<_>>().join(", ")
            );
            let in_ranges = "tp.created_at >= r.column1 AND tp.created_at < r.column2";
            let mut ids = None;
            if id_ranges {
                let sql = format!(
                    "SELECT MIN(tp.post_id), MAX(tp.post_id) FROM {values} CROSS JOIN tracker_posts tp \
                     WHERE tp.tracker_id = $1 AND {in_ranges}"
                );
                let (lo, hi): (Option<i64>, Option<i64>) =
                    with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).fetch_one(p).await?);
                match (lo, hi) {
                    (Some(lo), Some(hi)) => ids = Some((lo, hi)),
                    _ => continue,
                }
            }
            let Some((w, _)) = q.where_with(backend, plan, true, ids) else { return Ok(Vec::new()) };
            // Each range read from the time index: SQLite keeps the join order of CROSS JOIN;
            // PostgreSQL is given one index scan per range (a lateral subquery kept apart by
            // OFFSET 0), as it would otherwise scan the whole window.
            let links = match backend {
                Backend::Sqlite => format!("{values} CROSS JOIN tracker_posts tp"),
                Backend::Postgres => format!(
                    "{values} CROSS JOIN LATERAL (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {in_ranges} OFFSET 0) tp"
                ),
            };
            let sql = match backend {
                Backend::Sqlite => format!(
                    "SELECT tp.post_id, CAST({column} AS {real}) AS k FROM {links} \
                     JOIN posts p ON p.id = tp.post_id WHERE {w} AND {in_ranges} ORDER BY k {dir}, tp.post_id {dir} LIMIT {need}"
                ),
                // The round's posts are all read, then sorted: kept apart (OFFSET 0), as with a
                // filter it expects few posts to pass, PostgreSQL would otherwise read every
                // post of the tracker in key order looking for them (seconds).
                Backend::Postgres => format!(
                    "SELECT x.post_id, x.k FROM (SELECT tp.post_id, CAST({column} AS {real}) AS k FROM {links} \
                     JOIN posts p ON p.id = tp.post_id WHERE {w} AND {in_ranges} OFFSET 0) x ORDER BY x.k {dir}, x.post_id {dir} LIMIT {need}"
                ),
            };
            let rows: Vec<(i64, Option<f64>)> = with_pool!(self, |p| {
                let mut query = sqlx::query_as::<_, (i64, Option<f64>)>(&sql).bind(tracker_id).bind(start).bind(end);
                if !m.is_empty() {
                    query = query.bind(m);
                }
                query.fetch_all(p).await?
            });
            best.extend(rows.into_iter().map(|(id, k)| (k.unwrap_or(0.0), id)));
            best.sort_by(order);
            best.truncate(need as usize);
            if best.len() as i64 == need {
                if let (Some(last), Some((_, Some(next)))) = (best.last(), hours.get(done)) {
                    if better(last.0, *next) {
                        break;
                    }
                }
            }
        }
        Ok(best.into_iter().skip(offset as usize).map(|(_, id)| id).collect())
    }

    /// Ids of a page's posts in a sort whose key is kept on the link, read in the order of the
    /// key's index (tracker, platform, kind of post, key, time, post, bucket; for the score:
    /// tracker, bucket, score, time, post, platform, kind): one stream per platform and kind (per
    /// bucket), each read in pieces (the range, the subtracker and the bucket (platform and kind)
    /// filters checked on the index entries, the deletion against the range's deleted links read
    /// first, a search and a filter on the post on each piece's links, or for a word of moderate
    /// use against its matches read into memory; a piece starts where the one before ended, by a
    /// row-value bound, and is sized as [`WALK_FIRST`] says). The stream least far along is read
    /// next, until the page's posts
    /// are all ahead of every stream still open: a stream's posts never hold back another's,
    /// however differently the key runs on each, and a filter on the platform or the kind (stories,
    /// retweets) reads only the streams it keeps.
    async fn walk_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some((key, index, kind)) = q.sort.link_key() else { return Ok(Vec::new()) };
        let (start, end) = (q.start.unwrap_or(i64::MIN), q.end.unwrap_or(i64::MAX));
        // A word with a moderate number of matches: they are read at once, and the links read
        // are tested against them here (a test of the full-text index per link costs ~0.07 ms).
        let matches = if plan == SearchPlan::Set { self.search_matches(m, limit(3)).await? } else { None };
        let (plan, m) = if matches.is_some() { (SearchPlan::None, "") } else { (plan, m) };
        let Some((w, needs_posts)) = q.where_with(backend, plan, true, None) else { return Ok(Vec::new()) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        // The index entries answer the range, platform, kind, bucket and subtracker: only a
        // search tested against the full-text index, a filter on the post, or the deletion is
        // checked on each link read. When nothing else is, the range's deleted links (migration
        // 0016; usually a few) are read first, as one row, and left out here instead; when there
        // are many, each link read is looked up after all.
        let looked_up = needs_posts || plan != SearchPlan::None;
        let deleted = if looked_up {
            None
        } else {
            let concat = match backend {
                Backend::Sqlite => "group_concat(post_id)",
                Backend::Postgres => "string_agg(CAST(post_id AS TEXT), ',')",
            };
            let sql = format!(
                "SELECT {concat} FROM (SELECT post_id FROM tracker_deleted_posts WHERE tracker_id = $1 \
                 AND created_at >= $2 AND created_at <= $3 LIMIT {}) d",
                limit(4) + 1
            );
            let list: Option<String> =
                with_pool!(self, |p| sqlx::query_scalar(&sql).bind(tracker_id).bind(start).bind(end).fetch_one(p).await?);
            Some(id_list(list)).filter(|ids| ids.len() as i64 <= limit(4))
        };
        let keep = if looked_up || deleted.is_none() {
            format!("CASE WHEN EXISTS (SELECT 1 FROM tracker_posts tp{join} WHERE {w} AND tp.post_id = c.post_id) THEN 1 ELSE 0 END")
        } else {
            "1".to_string()
        };
        let sub = q.subtracker_bit().map(|bit| format!(" AND (subtrackers & {bit}) <> 0")).unwrap_or_default();
        let desc = !q.ascending;
        let (dir, cmp) = if desc { ("DESC", "<") } else { ("ASC", ">") };
        let from = match backend {
            Backend::Sqlite => format!("tracker_posts INDEXED BY {index}"),
            Backend::Postgres => "tracker_posts".to_string(),
        };
        let platform_col = match backend {
            Backend::Sqlite => "(platform || '')",
            Backend::Postgres => "platform",
        };
        // The kinds of post kept (retweets and stories are marked on the link, migration 0015).
        let kinds: Vec<PostKind> = if q.stories_only {
            vec![PostKind::Story]
        } else if q.exclude_retweets {
            vec![PostKind::Post, PostKind::Story]
        } else {
            vec![PostKind::Post, PostKind::Retweet, PostKind::Story]
        };
        // Stories are Instagram's only (and retweets twitter's).
        let mut platforms: Vec<&'static str> =
            q.platforms.iter().filter(|p| !q.stories_only || *p == hark_core::Platform::Instagram).map(|p| p.name()).collect();
        // A stream with no post of the buckets kept in the range would be passed entry by entry
        // to its end: the hourly rollup's whole hours (a superset of the range) tell which
        // platforms (for the score: which buckets) have none, and those streams are left out.
        let mut buckets: Vec<&'static str> = if q.bucket_list().is_some() { q.sentiment.clone() } else { SENTIMENT_BUCKETS.to_vec() };
        if q.bucket_list().is_some() || q.sort == PostSort::Sentiment {
            let sums = crate::ingest::SENTIMENT_COLUMNS.iter().map(|(_, c)| format!("CAST(COALESCE(SUM({c}), 0) AS BIGINT)")).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT platform, {sums} FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 GROUP BY platform"
            );
            let rows: Vec<(String, i64, i64, i64, i64, i64)> = with_pool!(self, |p| sqlx::query_as(&sql)
                .bind(tracker_id)
                .bind(hour_floor(start))
                .bind(end)
                .fetch_all(p)
                .await?);
            let has = |platform: &str, bucket: &str| {
                rows.iter().any(|r| {
                    r.0 == platform && [r.1, r.2, r.3, r.4, r.5][crate::ingest::bucket_index(bucket)] > 0
                })
            };
            if q.sort == PostSort::Sentiment {
                buckets.retain(|b| platforms.iter().any(|p| has(p, b)));
            } else {
                platforms.retain(|p| buckets.iter().any(|b| has(p, b)));
            }
        }
        let quoted = |v: &[&str]| v.iter().map(|x| format!("'{x}'")).collect::<Vec<_>>().join(",");
        // The streams (each one's condition on the index's leading columns: platform and kind, or
        // the bucket for the score) and the filter checked on the index entries (for the score:
        // the platforms and kinds; otherwise the buckets).
        let (conditions, entry_filter): (Vec<String>, Vec<String>) = if q.sort == PostSort::Sentiment {
            let bucket_col = match backend {
                Backend::Sqlite => "(bucket || '')",
                Backend::Postgres => "bucket",
            };
            let mut entry = Vec::new();
            if platforms.len() != PlatformSet::all().iter().count() {
                // An expression on PostgreSQL too: a condition on the column itself lets the
                // planner read the platform's links through another key's index (tracker,
                // platform, kind, …), fetching and sorting them all, once per bucket (stories:
                // 3,105 links five times, 20–35 ms, against about 3 ms in the score's index).
                entry.push(format!("(platform || '') IN ({})", quoted(&platforms)));
            }
            if kinds.len() < 3 {
                entry.push(format!("post_kind IN ({})", kinds.iter().map(|k| (*k as i16).to_string()).collect::<Vec<_>>().join(",")));
            }
            (buckets.iter().map(|b| format!("{bucket_col} = '{b}'")).collect(), entry)
        } else {
            let streams = platforms
                .iter()
                .flat_map(|p| kinds.iter().filter(move |k| PostKind::of_platform(p, **k)).map(move |k| (p, *k)))
                .map(|(p, k)| format!("{platform_col} = '{p}' AND post_kind = {}", k as i16))
                .collect();
            (streams, q.bucket_list().map(|l| format!("bucket IN ({l})")).into_iter().collect())
        };
        let entry_filter: String = entry_filter.iter().map(|f| format!(" AND {f}")).collect();
        let need = offset.saturating_add(per_page);
        // A search on SQLite tests each link read against the full-text index, which costs far
        // more than reading the link: its streams start smaller. So do the score's streams with
        // a filter on the platform or the kind checked on their entries (stories: one entry in a
        // hundred passes), where the best bucket's stream usually holds the page.
        let small_start = (plan.probes() && backend == Backend::Sqlite) || (q.sort == PostSort::Sentiment && !entry_filter.is_empty());
        let first_min = if small_start { WALK_FIRST_MIN_PROBED } else { WALK_FIRST_MIN };
        let first = (need.saturating_mul(WALK_FIRST) / 4 / conditions.len().max(1) as i64).max(first_min);
        let mut streams: Vec<Stream> =
            conditions.into_iter().map(|c| Stream { condition: c, after: None, piece: first, complete: false, read: 0, kept: 0 }).collect();
        let order = |a: &WalkEntry, b: &WalkEntry| {
            let o = a.0.compare(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
            if desc { o.reverse() } else { o }
        };
        // The search is $4 when there is one; a piece's bound follows it.
        let first_bound = if m.is_empty() { 4 } else { 5 };
        let mut found: Vec<WalkEntry> = Vec::new();
        // Posts found at or ahead of every open stream's place (after the last read).
        let mut ahead = 0i64;
        loop {
            // Every stream not read yet, at once (one round trip); then the open stream least far
            // along.
            let unread: Vec<usize> = (0..streams.len()).filter(|&i| !streams[i].complete && streams[i].after.is_none()).collect();
            let chosen: Vec<usize> = if unread.is_empty() {
                let next = streams
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| !s.complete)
                    .min_by(|(_, a), (_, b)| match (&a.after, &b.after) {
                        (Some(x), Some(y)) => order(x, y),
                        _ => std::cmp::Ordering::Equal,
                    })
                    .map(|(i, _)| i);
                match next {
                    Some(i) => vec![i],
                    None => break,
                }
            } else {
                unread
            };
            let after = streams[chosen[0]].after.clone().filter(|_| chosen.len() == 1);
            if let (Some(_), &[i]) = (&after, chosen.as_slice()) {
                // A stream read again: the posts still missing, at the share of its links kept so
                // far, are at most what it must give (the others give some too); that, with a
                // margin, unless more than the piece grown fourfold.
                let s = &mut streams[i];
                if s.kept > 0 {
                    let estimate = ((need - ahead).max(1) as f64 * s.read as f64 / s.kept as f64 * 1.25).ceil() as i64 + first_min;
                    s.piece = estimate.clamp(first_min, s.piece);
                }
            }
            let bound = if after.is_some() {
                format!(" AND ({key}, created_at, post_id) {cmp} (${}, ${}, ${})", first_bound, first_bound + 1, first_bound + 2)
            } else {
                String::new()
            };
            let parts: Vec<String> = chosen
                .iter()
                .map(|&i| {
                    format!(
                        "SELECT CAST({i} AS BIGINT) AS s, post_id, {key}, created_at FROM (SELECT post_id, {key}, created_at FROM {from} \
                         WHERE tracker_id = $1 AND {condition} AND created_at >= $2 AND created_at <= $3{entry_filter}{sub}{bound} \
                         ORDER BY {key} {dir}, created_at {dir}, post_id {dir} LIMIT {piece}) x{i}",
                        condition = streams[i].condition,
                        piece = streams[i].piece,
                    )
                })
                .collect();
            let sql = format!(
                "SELECT c.s, c.post_id, c.{key}, c.created_at, {keep} FROM ({}) c \
                 ORDER BY c.s, c.{key} {dir}, c.created_at {dir}, c.post_id {dir}",
                parts.join(" UNION ALL ")
            );
            let links: Vec<(usize, WalkEntry, bool)> = with_pool!(self, |p| {
                macro_rules! read {
                    ($t:ty, $wrap:path) => {{
                        let mut query = sqlx::query_as::<_, (i64, i64, $t, i64, i32)>(&sql).bind(tracker_id).bind(start).bind(end);
                        if !m.is_empty() {
                            query = query.bind(m);
                        }
                        if let Some((k, c, id)) = &after {
                            query = match k {
                                KeyValue::Int(v) => query.bind(*v),
                                KeyValue::Real(v) => query.bind(*v),
                                KeyValue::Text(v) => query.bind(v.clone()),
                            }
                            .bind(*c)
                            .bind(*id);
                        }
                        query
                            .fetch_all(p)
                            .await?
                            .into_iter()
                            .map(|(s, id, k, c, keep)| (s as usize, ($wrap(k), c, id), keep != 0))
                            .collect()
                    }};
                }
                match kind {
                    KeyKind::Int => read!(i64, KeyValue::Int),
                    KeyKind::Real => read!(f64, KeyValue::Real),
                    KeyKind::Text => read!(String, KeyValue::Text),
                }
            });
            for &i in &chosen {
                let rows: Vec<&(usize, WalkEntry, bool)> = links.iter().filter(|l| l.0 == i).collect();
                let s = &mut streams[i];
                s.complete = (rows.len() as i64) < s.piece;
                s.piece = s.piece.saturating_mul(4).min(WALK_PIECE_MAX);
                s.after = rows.last().map(|l| l.1.clone());
                let matched = |id: &i64| {
                    matches.as_ref().map_or(true, |ids| ids.binary_search(id).is_ok())
                        && deleted.as_ref().map_or(true, |ids| ids.binary_search(id).is_err())
                };
                let before = found.len();
                found.extend(rows.iter().filter(|l| l.2 && matched(&l.1 .2)).map(|l| l.1.clone()));
                s.read += rows.len() as i64;
                s.kept += (found.len() - before) as i64;
            }
            // Done when `need` posts found are at or ahead of every open stream's place.
            let mut open = streams.iter().filter(|s| !s.complete).peekable();
            if open.peek().is_none() {
                break;
            }
            if open.clone().any(|s| s.after.is_none()) {
                continue;
            }
            let Some(frontier) = open.filter_map(|s| s.after.as_ref()).min_by(|a, b| order(a, b)) else { break };
            ahead = found.iter().filter(|e| order(e, frontier) != std::cmp::Ordering::Greater).count() as i64;
            if ahead >= need {
                break;
            }
        }
        found.sort_by(order);
        Ok(found.into_iter().skip(offset as usize).take(per_page as usize).map(|e| e.2).collect())
    }

    /// Whether the query's platforms hold every post of the range (the hourly rollup's platforms
    /// with posts over the hours the range touches, a superset).
    async fn platforms_cover_range(&self, tracker_id: i64, q: &PostQuery) -> Result<bool> {
        if q.platforms == PlatformSet::all() {
            return Ok(true);
        }
        let Some(platforms) = q.platform_list() else { return Ok(false) };
        let (start, end) = (q.start.unwrap_or(i64::MIN), q.end.unwrap_or(i64::MAX));
        let sql = format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 \
             AND posts > 0 AND platform NOT IN ({platforms}) LIMIT 1) x"
        );
        let others: i64 =
            with_pool!(self, |p| sqlx::query_scalar(&sql).bind(tracker_id).bind(hour_floor(start)).bind(end).fetch_one(p).await?);
        Ok(others == 0)
    }

    /// A page in engagement order with no filter but the platforms (which hold the range): the
    /// engagement index read in order, the range checked on its entries and the deleted links
    /// left out by their copy (migration 0016), the page's posts skipped to in the statement.
    async fn engagement_skip_ids(&self, tracker_id: i64, q: &PostQuery, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let dir = if q.ascending { "ASC" } else { "DESC" };
        // SQLite plans without statistics: the index is named.
        let indexed = match self.backend() {
            Backend::Sqlite => " INDEXED BY tracker_posts_engagement_idx",
            Backend::Postgres => "",
        };
        let sql = format!(
            "SELECT tp.post_id FROM tracker_posts tp{indexed} WHERE tp.tracker_id = $1 AND tp.created_at >= $2 AND tp.created_at <= $3 \
             AND NOT EXISTS (SELECT 1 FROM tracker_deleted_posts d WHERE d.tracker_id = $1 AND d.post_id = tp.post_id) \
             ORDER BY tp.engagement {dir}, tp.created_at {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}"
        );
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
            .bind(tracker_id)
            .bind(q.start.unwrap_or(i64::MIN))
            .bind(q.end.unwrap_or(i64::MAX))
            .fetch_all(p)
            .await?))
    }

    /// The post ids matching a search (SQLite), sorted, when there are at most `max`.
    async fn search_matches(&self, m: &str, max: i64) -> Result<Option<Vec<i64>>> {
        let sql = format!("SELECT group_concat(rowid) FROM (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 LIMIT {})", max + 1);
        let list: Option<String> = with_pool!(self, |p| sqlx::query_scalar(&sql).bind(m).fetch_one(p).await?);
        Ok(Some(id_list(list)).filter(|ids| ids.len() as i64 <= max))
    }

    /// Ids of a page's posts in a sort whose key is kept on the link, when few posts match (tags,
    /// a rare search) or the page is deep: the matching links sorted, the posts read afterwards
    /// for the page only.
    async fn sorted_link_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(Vec::new()) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        // On SQLite the key's `+` keeps an index on it out of the plan: the few links are sorted,
        // not the tracker's links walked in key order.
        let plus = if backend == Backend::Sqlite { "+" } else { "" };
        let sql = format!(
            "SELECT tp.post_id FROM tracker_posts tp{join} WHERE {w} ORDER BY {plus}{} LIMIT {per_page} OFFSET {offset}",
            q.sort.order_by(dir)
        );
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(q.start.unwrap_or(i64::MIN)).bind(q.end.unwrap_or(i64::MAX));
            if !m.is_empty() {
                query = query.bind(m.to_string());
            }
            query.fetch_all(p).await?
        }))
    }

    /// Refreshes the query planner's statistics (after a bulk load).
    /// On PostgreSQL the tables of [`crate::VACUUM_TABLES`] are vacuumed first, as the background
    /// refresh ([`Store::note_writes`]) does.
    pub async fn analyze(&self) -> Result<()> {
        if let crate::Db::Postgres(p) = &self.db {
            sqlx::raw_sql(crate::VACUUM_TABLES).execute(p).await?;
        }
        with_pool!(self, |p| sqlx::query("ANALYZE").execute(p).await.map(|_| ())?);
        Ok(())
    }

    /// (post id, tag id) pairs of some posts of a tracker.
    pub async fn tags_of_posts(&self, tracker_id: i64, post_ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        if post_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT post_id, tag_id FROM post_tags WHERE tracker_id = $1 AND post_id IN ({}) ORDER BY post_id, tag_id",
            id_set(self.backend(), "$2")
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, i64)>(&sql)
            .bind(tracker_id)
            .bind(json_ids(post_ids))
            .fetch_all(p)
            .await?))
    }

    /// Ids of a tracker's posts (deleted or not) among post keys `platform;id`.
    pub async fn tracker_post_ids(&self, tracker_id: i64, keys: &[String]) -> Result<Vec<i64>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let keys_json = serde_json::to_string(keys).unwrap_or_else(|_| "[]".into());
        let set = match self.backend() {
            Backend::Sqlite => "SELECT value FROM json_each($2)",
            Backend::Postgres => "SELECT jsonb_array_elements_text($2::jsonb)",
        };
        let sql = format!(
            "SELECT tp.post_id FROM posts p JOIN tracker_posts tp ON tp.post_id = p.id AND tp.tracker_id = $1 \
             WHERE p.post_key IN ({set})"
        );
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql)
            .bind(tracker_id)
            .bind(keys_json)
            .fetch_all(p)
            .await?))
    }

    /// A stored post, by its key or else by its address.
    pub async fn stored_post_by_key_or_url(&self, key: Option<&str>, url: &str) -> Result<Option<Post>> {
        let by_key = format!("SELECT {POST_ROW_COLUMNS} FROM posts p WHERE p.post_key = $1");
        let by_url = format!("SELECT {POST_ROW_COLUMNS} FROM posts p WHERE p.url = $1 ORDER BY p.id LIMIT 1");
        let row: Option<crate::StoredRow> = with_pool!(self, |p| {
            let mut found = None;
            if let Some(k) = key {
                found = sqlx::query_as(&by_key).bind(k).fetch_optional(p).await?;
            }
            if found.is_none() {
                found = sqlx::query_as(&by_url).bind(url).fetch_optional(p).await?;
            }
            found
        });
        row.map(|r| r.into_post().map_err(|e| crate::StoreError::Corrupt(format!("post data: {e}")))).transpose()
    }

    /// The owner's previous visit to a tracker's posts, and records this one at `now`.
    pub async fn swap_last_visit(&self, tracker_id: i64, user_id: i64, now: Millis) -> Result<Option<Millis>> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write().await?;
            let before: Option<i64> =
                sqlx::query_scalar("SELECT visited_at FROM tracker_visits WHERE tracker_id = $1 AND user_id = $2")
                    .bind(tracker_id)
                    .bind(user_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            sqlx::query(
                "INSERT INTO tracker_visits (tracker_id, user_id, visited_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (tracker_id, user_id) DO UPDATE SET visited_at = excluded.visited_at",
            )
            .bind(tracker_id)
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(before)
        })
    }

    /// The owner's last recorded visit, without recording one.
    pub async fn last_visit(&self, tracker_id: i64, user_id: i64) -> Result<Option<Millis>> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT visited_at FROM tracker_visits WHERE tracker_id = $1 AND user_id = $2"
        )
        .bind(tracker_id)
        .bind(user_id)
        .fetch_optional(p)
        .await?))
    }
}
