//! Scoring stored posts again when the sentiment model changes: the state of that run (one row,
//! `sentiment_model`), the pages of posts it reads, and the write of their new scores with the
//! counts of every tracker that shows the analysed bucket.

use hark_core::{Bucket, Millis, Platform};

use crate::ingest::{Deltas, PostRecord};
use crate::sentiment::known_bucket;
use crate::{with_pool, BeginWrite, Result, Store};

/// The model the stored posts were scored with, and the run scoring them with a newer one.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SentimentModelState {
    /// The version every stored post is scored with (`None` before the first run).
    pub version: Option<String>,
    /// The version a run in progress scores with.
    pub target: Option<String>,
    pub after_post_id: i64,
    pub last_post_id: i64,
    pub processed: i64,
    pub total: i64,
    /// Posts whose score or bucket the run changed.
    pub changed: i64,
    pub started_at: Option<Millis>,
    pub finished_at: Option<Millis>,
}

impl SentimentModelState {
    /// Whether a run is scoring posts now.
    pub fn running(&self) -> bool {
        self.target.is_some()
    }
}

/// A stored post as the run reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ScoredPost {
    pub id: i64,
    pub text: String,
    pub title: Option<String>,
    pub lang: Option<String>,
    pub sentiment: Option<f64>,
    pub sentiment_bucket: Option<String>,
}

#[derive(sqlx::FromRow)]
struct LinkRow {
    tracker_id: i64,
    post_id: i64,
    created_at: Millis,
    platform: String,
    /// The bucket the link shows (its manual edit, else its keyword rule, else the analysed one).
    bucket: String,
    /// Whether a manual edit or a keyword rule decides the shown bucket.
    decided: bool,
    live: bool,
}

const STATE: &str = "SELECT version, target, after_post_id, last_post_id, processed, total, changed, started_at, \
                     finished_at FROM sentiment_model WHERE id = 1";

impl Store {
    pub async fn sentiment_model_state(&self) -> Result<SentimentModelState> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, SentimentModelState>(STATE).fetch_one(p).await)?)
    }

    /// Makes `version` the model the stored posts are (to be) scored with, and returns the state:
    /// unchanged when the posts already are, or a run for it is under way; with no posts stored the
    /// version is simply recorded; otherwise a run begins from the oldest post.
    pub async fn begin_sentiment_model(&self, version: &str, now: Millis) -> Result<SentimentModelState> {
        let state = self.sentiment_model_state().await?;
        if state.version.as_deref() == Some(version) && state.target.is_none() || state.target.as_deref() == Some(version) {
            return Ok(state);
        }
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write(&self.write_gate).await?;
            let (last, total): (Option<i64>, i64) =
                sqlx::query_as("SELECT MAX(id), COUNT(*) FROM posts").fetch_one(&mut *tx).await?;
            match last {
                None => {
                    sqlx::query(
                        "UPDATE sentiment_model SET version = $1, target = NULL, after_post_id = 0, last_post_id = 0, \
                         processed = 0, total = 0, changed = 0, started_at = $2, finished_at = $2 WHERE id = 1",
                    )
                    .bind(version)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
                Some(last) => {
                    sqlx::query(
                        "UPDATE sentiment_model SET target = $1, after_post_id = 0, last_post_id = $2, processed = 0, \
                         total = $3, changed = 0, started_at = $4, finished_at = NULL WHERE id = 1",
                    )
                    .bind(version)
                    .bind(last)
                    .bind(total)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            tx.commit().await?;
            Ok::<_, crate::StoreError>(())
        })?;
        self.sentiment_model_state().await
    }

    /// The next `limit` posts of the run, after `after` and up to `last` (post ids).
    pub async fn sentiment_model_page(&self, after: i64, last: i64, limit: i64) -> Result<Vec<ScoredPost>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ScoredPost>(
            "SELECT id, text, title, lang, sentiment, sentiment_bucket FROM posts WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3"
        )
        .bind(after)
        .bind(last)
        .bind(limit)
        .fetch_all(p)
        .await)?)
    }

    /// Stores the new scores of a page's posts whose score or bucket changed, moves the sentiment
    /// counts of every tracker that shows their analysed bucket (a manual edit or a keyword rule
    /// still wins), and records the run's progress: `through` is the page's last post id and
    /// `processed` how many posts it held. The run ends with the page that reaches its last post.
    /// Servers that run the same page side by side write the same scores; the progress moves
    /// only forward, and a server behind goes on from where the returned state says.
    pub async fn store_sentiment_scores(
        &self,
        updates: &[(i64, f64, Bucket)],
        through: i64,
        processed: i64,
        now: Millis,
    ) -> Result<SentimentModelState> {
        let backend = self.backend();
        let ids: Vec<i64> = updates.iter().map(|(id, _, _)| *id).collect();
        let lock = match backend {
            crate::dialect::Backend::Postgres => " FOR UPDATE OF tp",
            crate::dialect::Backend::Sqlite => "",
        };
        let links = format!(
            "SELECT tp.tracker_id, tp.post_id, tp.created_at, tp.platform, tp.bucket, \
             (tp.sentiment_override IS NOT NULL OR tp.sentiment_rule IS NOT NULL) AS decided, {} AS live \
             FROM tracker_posts tp WHERE tp.post_id IN ({}){lock}",
            backend.live_link("tp"),
            backend.id_set("$1"),
        );
        let new: std::collections::HashMap<i64, (f64, Bucket)> = updates.iter().map(|&(id, s, b)| (id, (s, b))).collect();
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write(&self.write_gate).await?;
            let mut rows: Vec<LinkRow> = Vec::new();
            for part in ids.chunks(10_000) {
                let found: Vec<LinkRow> =
                    sqlx::query_as(&links).bind(crate::dialect::json_ids(part)).fetch_all(&mut *tx).await?;
                rows.extend(found);
            }
            for &(id, score, bucket) in updates {
                sqlx::query("UPDATE posts SET sentiment = $1, sentiment_bucket = $2 WHERE id = $3")
                    .bind(score)
                    .bind(bucket.as_str())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "UPDATE tracker_posts SET sentiment = $1, \
                     bucket = COALESCE(sentiment_override, sentiment_rule, $2) WHERE post_id = $3",
                )
                .bind(score)
                .bind(bucket.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            let records: Vec<PostRecord> = rows
                .iter()
                .map(|r| {
                    let (score, bucket) = new.get(&r.post_id).copied().unwrap_or((0.0, Bucket::Neutral));
                    PostRecord {
                        platform: Platform::parse(&r.platform).unwrap_or(Platform::News),
                        created_at: r.created_at,
                        sentiment: score,
                        sentiment_bucket: bucket,
                        ..Default::default()
                    }
                })
                .collect();
            let mut deltas = Deltas::default();
            for (r, rec) in rows.iter().zip(&records) {
                if !r.live {
                    continue;
                }
                deltas.widen_sentiment(r.tracker_id, rec);
                if r.decided {
                    continue;
                }
                let before = known_bucket(&r.bucket).unwrap_or("neutral");
                let after = rec.sentiment_bucket.as_str();
                if before != after {
                    deltas.add_term(r.tracker_id, rec, "sentiment", before, -1);
                    deltas.add_term(r.tracker_id, rec, "sentiment", after, 1);
                }
            }
            crate::rollups::write(&mut tx, &deltas, now).await?;
            sqlx::query(
                "UPDATE sentiment_model SET after_post_id = $1, processed = processed + $2, changed = changed + $3, \
                 version = CASE WHEN $1 >= last_post_id THEN target ELSE version END, \
                 finished_at = CASE WHEN $1 >= last_post_id THEN $4 ELSE NULL END, \
                 target = CASE WHEN $1 >= last_post_id THEN NULL ELSE target END \
                 WHERE id = 1 AND after_post_id < $1",
            )
            .bind(through)
            .bind(processed)
            .bind(updates.len() as i64)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<_, crate::StoreError>(())
        })?;
        self.sentiment_model_state().await
    }
}
