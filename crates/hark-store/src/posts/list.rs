//! A page of the posts page: the fetch strategy for the query's sort and filters, then the page's
//! rows with their tags.

use hark_core::{Millis, Post};

use super::memory::Searched;
use super::plan::{engagement_skip_possible, plan_page, Fetch, PageFacts, SearchPlan};
use super::query::PostQuery;
use super::total::PostTotal;
use crate::dialect::Backend;
use crate::{with_pool, Result, Store, POST_ROW_COLUMNS};

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
    /// The language the post was analysed in (the platform's, else detected).
    pub lang: Option<String>,
    pub post_type: String,
    pub matched_at: Millis,
    pub tags: Vec<i64>,
}

/// A row as [`row_columns`] reads it (in that order).
#[derive(sqlx::FromRow)]
pub(super) struct RawRow {
    pub(super) post_id: i64,
    #[sqlx(flatten)]
    pub(super) row: crate::StoredRow,
    pub(super) sentiment: Option<f64>,
    pub(super) bucket: Option<String>,
    pub(super) edited: Option<String>,
    pub(super) engagement: i64,
    pub(super) engagement_rate: Option<f64>,
    pub(super) author_followers: i64,
    pub(super) impressions: i64,
    pub(super) country: Option<String>,
    pub(super) analysed_lang: Option<String>,
    pub(super) post_type: String,
    pub(super) matched_at: Millis,
}

impl Store {
    /// A page of a tracker's posts and the number of posts matching the filters.
    pub async fn query_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<(Vec<PostRow>, PostTotal)> {
        // One probe of the search for both.
        let (page, total) = match self.search_in_memory(tracker_id, q).await? {
            Searched::Answer(ids, total) => return Ok((self.rows_in_order(tracker_id, &ids).await?, total)),
            Searched::Plans(page, total) => (page, total),
        };
        // The page and its total at the same time, on two connections.
        tokio::try_join!(self.post_page(tracker_id, q, true, page), self.post_total_by(tracker_id, q, total))
    }

    /// Posts of one page, in the query's order, with their tags.
    pub async fn query_post_page(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        match self.search_in_memory(tracker_id, q).await? {
            Searched::Answer(ids, _) => self.rows_in_order(tracker_id, &ids).await,
            Searched::Plans(plan, _) => self.post_page(tracker_id, q, true, plan).await,
        }
    }

    pub(crate) async fn post_page(&self, tracker_id: i64, q: &PostQuery, fast: bool, plan: SearchPlan) -> Result<Vec<PostRow>> {
        let backend = self.backend();
        let m = q.match_expr(backend);
        if fast && self.tuning.in_memory && q.filter.platform_list().is_some() {
            if let Some(ids) = self.memory_page_ids(tracker_id, q, plan, &m).await? {
                return self.rows_in_order(tracker_id, &ids).await;
            }
        }
        let Some((w, needs_posts)) = q.where_clause(backend, plan) else { return Ok(Vec::new()) };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        let (offset, per_page) = q.window();
        let columns = row_columns();
        let platforms_cover_range =
            fast && engagement_skip_possible(q, &self.tuning) && self.platforms_cover_range(tracker_id, q).await?;
        let facts = PageFacts { backend, search: plan, needs_posts, platforms_cover_range, fast };
        let fetch = plan_page(q, &facts, &self.tuning);
        // Few posts, driven from their ids (as `where_with` reads them).
        let driven_sqlite = backend == Backend::Sqlite && (plan == SearchPlan::Ids || !q.filter.post_tags.is_empty());
        let ordered_ids = match fetch {
            Fetch::EngagementSkip => Some(self.engagement_skip_ids(tracker_id, q, offset, per_page).await?),
            Fetch::SortedLinks => Some(self.sorted_link_ids(tracker_id, q, plan, &m, offset, per_page).await?),
            Fetch::TopK => Some(self.top_k_ids(tracker_id, q, plan, &m, offset, per_page).await?),
            Fetch::DateScan | Fetch::DateLinks | Fetch::Sorted => None,
        };
        let sql = match (&ordered_ids, fetch) {
            (Some(_), _) => String::new(),
            // The range newest (or oldest) first, each post tested, to the page (PostgreSQL
            // would otherwise sort every match).
            (None, Fetch::DateScan) => format!(
                "SELECT {columns} FROM (SELECT * FROM tracker_posts tp WHERE tp.tracker_id = $1 \
                 AND tp.created_at >= $2 AND tp.created_at <= $3 ORDER BY tp.created_at {dir}, tp.post_id {dir} OFFSET 0) tp \
                 JOIN posts p ON p.id = tp.post_id WHERE {w} ORDER BY tp.created_at {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}"
            ),
            // The page's links first, in the (tracker, time) index order; then only their posts.
            // Few links driven from their ids (tags, a rare search) are sorted instead: on SQLite
            // the `+` keeps the time index out of the order too, or oldest first it would read
            // the range from its start, testing each link (tags on recent posts: 0.2 s).
            (None, Fetch::DateLinks) => {
                let time = if driven_sqlite { "+tp.created_at" } else { "tp.created_at" };
                format!(
                    "SELECT {columns} FROM (SELECT tp.post_id, tp.created_at, tp.sentiment_override, tp.sentiment_rule, tp.matched_at \
                     FROM tracker_posts tp WHERE {w} ORDER BY {time} {dir}, tp.post_id {dir} LIMIT {per_page} OFFSET {offset}) tp \
                     JOIN posts p ON p.id = tp.post_id ORDER BY tp.created_at {dir}, tp.post_id {dir}"
                )
            }
            (None, _) => {
                let order = q.sort.order_by(dir);
                let order = if driven_sqlite { format!("+{order}") } else { order };
                format!(
                    "SELECT {columns} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE {w} \
                     ORDER BY {order} LIMIT {per_page} OFFSET {offset}"
                )
            }
        };
        let raw: Vec<RawRow> = match &ordered_ids {
            Some(ids) if ids.is_empty() => Vec::new(),
            Some(ids) => return self.rows_in_order(tracker_id, ids).await,
            None => with_pool!(self, |p| {
                let mut query = sqlx::query_as::<_, RawRow>(&sql)
                    .bind(tracker_id)
                    .bind(q.filter.start.unwrap_or(i64::MIN))
                    .bind(q.filter.end.unwrap_or(i64::MAX));
                if !m.is_empty() {
                    query = query.bind(m.clone());
                }
                query.fetch_all(p).await?
            }),
        };
        self.to_post_rows(tracker_id, raw).await
    }

    /// Every post of the query in its order, at most `limit`, sent on `tx` in batches of
    /// `batch` with their tags: one statement read as it comes (no page offsets), for exports
    /// of any length. The posts come without their media (no export shows them). Stops early,
    /// without error, when the receiver is dropped.
    ///
    /// Two stages run side by side: the statement's rows are read (on SQLite by a blocking
    /// thread of its own, [`super::sqlite_read`]) while the batch before is given its tags and
    /// decoded on another task.
    pub async fn stream_posts(
        &self,
        tracker_id: i64,
        q: &PostQuery,
        limit: i64,
        batch: usize,
        tx: tokio::sync::mpsc::Sender<Vec<PostRow>>,
    ) -> Result<()> {
        use futures_util::TryStreamExt;
        let backend = self.backend();
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        let Some((w, _)) = q.where_clause(backend, plan) else { return Ok(()) };
        let dir = if q.ascending { "ASC" } else { "DESC" };
        let order = q.sort.order_by(dir);
        let sql = format!(
            "SELECT {} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE {w} ORDER BY {order} LIMIT {limit}",
            row_columns().replacen("p.media,", "NULL AS media,", 1)
        );
        let m = q.match_expr(backend);
        let (raw_tx, mut raw_rx) = tokio::sync::mpsc::channel::<Vec<RawRow>>(2);
        let store = self.clone();
        let convert = tokio::spawn(async move {
            while let Some(raw) = raw_rx.recv().await {
                let out = store.to_post_rows(tracker_id, raw).await?;
                if tx.send(out).await.is_err() {
                    // The receiver left: dropping ours stops the reading at its next batch.
                    break;
                }
            }
            Ok::<(), crate::StoreError>(())
        });
        let read = match self.sqlite_file.clone() {
            Some(file) => {
                let binds = super::sqlite_read::Binds {
                    tracker_id,
                    start: q.filter.start.unwrap_or(i64::MIN),
                    end: q.filter.end.unwrap_or(i64::MAX),
                    search: (!m.is_empty()).then_some(m),
                };
                tokio::task::spawn_blocking(move || super::sqlite_read::read(&file, &sql, &binds, batch, &raw_tx))
                    .await
                    .map_err(|e| crate::StoreError::Read(e.to_string()))
                    .and_then(|r| r)
            }
            None => {
                let fetched: Result<()> = async {
                    with_pool!(self, |p| {
                        let mut query = sqlx::query_as::<_, RawRow>(&sql)
                            .bind(tracker_id)
                            .bind(q.filter.start.unwrap_or(i64::MIN))
                            .bind(q.filter.end.unwrap_or(i64::MAX));
                        if !m.is_empty() {
                            query = query.bind(m.clone());
                        }
                        let mut rows = query.fetch(p);
                        let mut buf = Vec::with_capacity(batch);
                        while let Some(r) = rows.try_next().await? {
                            buf.push(r);
                            if buf.len() >= batch && raw_tx.send(std::mem::replace(&mut buf, Vec::with_capacity(batch))).await.is_err() {
                                break;
                            }
                        }
                        if !buf.is_empty() {
                            let _ = raw_tx.send(buf).await;
                        }
                    });
                    Ok(())
                }
                .await;
                drop(raw_tx);
                fetched
            }
        };
        let converted = convert.await.map_err(|e| crate::StoreError::Read(e.to_string()))?;
        read?;
        converted
    }

    /// A tracker's posts of the given ids, in that order, with their tags.
    pub(crate) async fn rows_in_order(&self, tracker_id: i64, ids: &[i64]) -> Result<Vec<PostRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1 AND tp.post_id IN ({})",
            row_columns(),
            crate::dialect::int_list(ids)
        );
        let mut rows: Vec<RawRow> = with_pool!(self, |p| sqlx::query_as::<_, RawRow>(&sql).bind(tracker_id).fetch_all(p).await?);
        let pos: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        rows.sort_by_key(|r| pos.get(&r.post_id).copied().unwrap_or(usize::MAX));
        self.to_post_rows(tracker_id, rows).await
    }

    async fn to_post_rows(&self, tracker_id: i64, raw: Vec<RawRow>) -> Result<Vec<PostRow>> {
        let ids: Vec<i64> = raw.iter().map(|r| r.post_id).collect();
        let mut tags: std::collections::HashMap<i64, Vec<i64>> = std::collections::HashMap::new();
        for (post, tag) in self.tags_of_posts(tracker_id, &ids).await? {
            tags.entry(post).or_default().push(tag);
        }
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
                lang: r.analysed_lang,
                post_type: r.post_type,
                matched_at: r.matched_at,
                tags: tags.remove(&r.post_id).unwrap_or_default(),
            });
        }
        Ok(out)
    }
}

/// The columns a [`RawRow`] reads, over `tracker_posts tp` and `posts p`.
fn row_columns() -> String {
    format!(
        "tp.post_id, {POST_ROW_COLUMNS}, p.sentiment, \
         COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS bucket, \
         tp.sentiment_override AS edited, p.engagement, p.engagement_rate, p.author_followers, p.impressions, p.country, \
         p.lang AS analysed_lang, p.post_type, tp.matched_at"
    )
}
