//! The posts page query: a tracker's posts filtered, searched, sorted and paged, with the total.
//! Search uses the full-text index (SQLite FTS5 `posts_fts`; a GIN expression index on
//! PostgreSQL) over text, title, author names and location.

use hark_core::{Millis, PlatformSet, Post};

use crate::{with_pool, Backend, Result, Store, POST_ROW_COLUMNS};


/// The document PostgreSQL indexes (must equal the expression of `posts_fts_idx`).
const PG_FTS_DOC: &str = "to_tsvector('simple'::regconfig, p.text || ' ' || COALESCE(p.title, '') || ' ' || \
    p.author_name || ' ' || p.author_username || ' ' || COALESCE(p.author_location, ''))";

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
            Self::Engagement => "p.engagement",
            Self::Reach => "p.author_followers",
            Self::EngagementRate => "COALESCE(p.engagement_rate, 0)",
            Self::Impressions => "p.impressions",
            Self::Sentiment => "COALESCE(p.sentiment, 0)",
            Self::User => "LOWER(p.author_name)",
            Self::Likes => "p.likes",
            Self::Comments => "p.comments",
            Self::Shares => "p.shares",
            Self::Views => "p.views",
        }
    }
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
    /// The WHERE clause (parameters: $1 tracker, $2 start, $3 end, $4 search) and whether it
    /// reads `posts p`.
    fn where_clause(&self, backend: Backend) -> Option<(String, bool)> {
        let platforms: Vec<String> = self.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        if platforms.is_empty() {
            return None;
        }
        // Inlined values come from closed sets (platform names, buckets) or are integers.
        let mut w = format!(
            "tp.tracker_id = $1 AND tp.deleted_at IS NULL AND tp.created_at >= $2 AND tp.created_at <= $3 \
             AND tp.platform IN ({})",
            platforms.join(",")
        );
        let mut needs_posts = false;
        if !search_words(&self.search).is_empty() {
            match backend {
                Backend::Sqlite => w.push_str(" AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $4)"),
                Backend::Postgres => {
                    needs_posts = true;
                    w.push_str(&format!(" AND {PG_FTS_DOC} @@ to_tsquery('simple', $4)"));
                }
            }
        }
        if !self.sentiment.is_empty() && self.sentiment.len() < SENTIMENT_BUCKETS.len() {
            needs_posts = true;
            let list: Vec<String> = self.sentiment.iter().map(|b| format!("'{b}'")).collect();
            w.push_str(&format!(
                " AND COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket, 'neutral') IN ({})",
                list.join(",")
            ));
        }
        if self.exclude_retweets {
            needs_posts = true;
            w.push_str(" AND NOT (tp.platform = 'twitter' AND p.post_type = 'retweet')");
        }
        if self.stories_only {
            needs_posts = true;
            w.push_str(" AND tp.platform = 'instagram' AND p.is_story = TRUE");
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
        if let Some(n) = self.subtracker.filter(|n| (1..=62).contains(n)) {
            w.push_str(&format!(" AND (tp.subtrackers & {}) <> 0", 1i64 << (n - 1)));
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

impl Store {
    /// A page of a tracker's posts and the number of posts matching the filters.
    pub async fn query_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<(Vec<PostRow>, i64)> {
        let rows = self.query_post_page(tracker_id, q).await?;
        let total = self.count_posts(tracker_id, q).await?;
        Ok((rows, total))
    }

    pub async fn count_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<i64> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend) else { return Ok(0) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let sql = format!("SELECT COUNT(*) FROM tracker_posts tp{join} WHERE {w}");
        let m = q.match_expr(backend);
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_scalar::<_, i64>(&sql)
                .bind(tracker_id)
                .bind(q.start.unwrap_or(i64::MIN))
                .bind(q.end.unwrap_or(i64::MAX));
            // $4 exists only with a search.
            if !m.is_empty() {
                query = query.bind(m);
            }
            query.fetch_one(p).await?
        }))
    }

    /// Posts of one page, in the query's order, with their tags.
    pub async fn query_post_page(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        let backend = self.backend();
        let Some((w, needs_posts)) = q.where_clause(backend) else { return Ok(Vec::new()) };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        let per_page = q.per_page.clamp(1, 1000);
        let offset = (q.page.max(1) - 1).saturating_mul(per_page);
        let columns = format!(
            "tp.post_id, {POST_ROW_COLUMNS}, p.sentiment, \
             COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS bucket, \
             tp.sentiment_override AS edited, p.engagement, p.engagement_rate, p.author_followers, p.impressions, p.country, \
             p.post_type, tp.matched_at"
        );
        let sql = if !needs_posts && q.sort == PostSort::Date {
            // The page's links first, in the (tracker, time) index order; then only their posts.
            format!(
                "SELECT {columns} FROM (SELECT tp.post_id, tp.created_at, tp.sentiment_override, tp.sentiment_rule, tp.matched_at \
                 FROM tracker_posts tp WHERE {w} ORDER BY tp.created_at {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}) tp \
                 JOIN posts p ON p.id = tp.post_id ORDER BY tp.created_at {dir}, tp.post_id {dir}"
            )
        } else {
            format!(
                "SELECT {columns} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE {w} \
                 ORDER BY {} {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}",
                q.sort.column()
            )
        };
        let m = q.match_expr(backend);
        let raw: Vec<RawRow> = with_pool!(self, |p| {
            let mut query = sqlx::query_as::<_, RawRow>(&sql)
                .bind(tracker_id)
                .bind(q.start.unwrap_or(i64::MIN))
                .bind(q.end.unwrap_or(i64::MAX));
            if !m.is_empty() {
                query = query.bind(m);
            }
            query.fetch_all(p).await?
        });
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

    /// Refreshes the query planner's statistics (after a bulk load).
    pub async fn analyze(&self) -> Result<()> {
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
            let mut tx = p.begin().await?;
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
