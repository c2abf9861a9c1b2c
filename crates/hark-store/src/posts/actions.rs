//! Work on a tracker's posts: tagging in bulk, manual sentiment, ignored authors.

use hark_core::Millis;

use crate::sentiment::{bucket_index, SENTIMENT_COLUMNS};
use crate::dialect::json_ids;
use crate::time::{DAY_MS, HOUR_MS};
use crate::{with_pool, BeginWrite, Result, Store};


/// A manual sentiment edit: the bucket before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentimentEdit {
    pub old: String,
    pub new: String,
}

impl Store {
    /// Which of `post_ids` joined the tracker as indirect matches (the platform's search found
    /// them; their text lacks the terms).
    pub async fn indirect_matches(&self, tracker_id: i64, post_ids: &[i64]) -> Result<std::collections::HashSet<i64>> {
        if post_ids.is_empty() {
            return Ok(Default::default());
        }
        let sql = format!(
            "SELECT post_id FROM tracker_posts WHERE tracker_id = $1 AND indirect AND post_id IN ({})",
            self.backend().id_set("$2")
        );
        let ids = json_ids(post_ids);
        let found: Vec<i64> =
            with_pool!(self, |p| sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(&ids).fetch_all(p).await?);
        Ok(found.into_iter().collect())
    }

    /// Adds and removes tags (of this tracker only) on posts of the tracker, in one transaction.
    /// Returns the number of (post, tag) pairs added and removed.
    pub async fn set_post_tags(&self, tracker_id: i64, post_ids: &[i64], add: &[i64], remove: &[i64]) -> Result<(u64, u64)> {
        if post_ids.is_empty() {
            return Ok((0, 0));
        }
        let b = self.backend();
        let insert = format!(
            "INSERT INTO post_tags (tracker_id, post_id, tag_id) SELECT tp.tracker_id, tp.post_id, t.id \
             FROM tracker_posts tp JOIN tags t ON t.tracker_id = tp.tracker_id \
             WHERE tp.tracker_id = $1 AND tp.post_id IN ({}) AND t.id IN ({}) \
             ON CONFLICT (tracker_id, post_id, tag_id) DO NOTHING",
            b.id_set("$2"),
            b.id_set("$3")
        );
        let delete = format!(
            "DELETE FROM post_tags WHERE tracker_id = $1 AND post_id IN ({}) AND tag_id IN ({})",
            b.id_set("$2"),
            b.id_set("$3")
        );
        let posts = json_ids(post_ids);
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let mut added = 0;
            let mut removed = 0;
            if !remove.is_empty() {
                removed = sqlx::query(&delete)
                    .bind(tracker_id)
                    .bind(&posts)
                    .bind(json_ids(remove))
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            if !add.is_empty() {
                added = sqlx::query(&insert)
                    .bind(tracker_id)
                    .bind(&posts)
                    .bind(json_ids(add))
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok((added, removed))
        })
    }

    /// Sets the sentiment shown for a post of a tracker and moves its count in the daily
    /// sentiment rollup from the old bucket to the new one. None when the tracker has no such post.
    pub async fn edit_sentiment(&self, tracker_id: i64, post_id: i64, bucket: &str) -> Result<Option<SentimentEdit>> {
        let select = format!(
            "SELECT COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket), p.created_at, p.platform, {} \
             FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1 AND tp.post_id = $2",
            self.backend().deleted_link("tp")
        );
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let row: Option<(Option<String>, Millis, String, bool)> = sqlx::query_as(&select)
            .bind(tracker_id)
            .bind(post_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((old, created_at, platform, deleted)) = row else {
                return Ok(None);
            };
            let old = old.unwrap_or_else(|| "neutral".into());
            sqlx::query("UPDATE tracker_posts SET sentiment_override = $1, bucket = $1 WHERE tracker_id = $2 AND post_id = $3")
                .bind(bucket)
                .bind(tracker_id)
                .bind(post_id)
                .execute(&mut *tx)
                .await?;
            // A deleted post counts nowhere; restoring it counts the bucket it has then.
            if old != bucket && !deleted {
                let day = created_at.div_euclid(DAY_MS) * DAY_MS;
                crate::rollups::mark_days(&mut tx, tracker_id, vec![(day, post_id)]).await?;
                for (term, n) in [(old.as_str(), -1i64), (bucket, 1)] {
                    sqlx::query(
                        "INSERT INTO rollup_terms (tracker_id, kind, day, platform, term, count) VALUES ($1, 'sentiment', $2, $3, $4, $5) \
                         ON CONFLICT (tracker_id, kind, day, platform, term) DO UPDATE SET count = rollup_terms.count + excluded.count",
                    )
                    .bind(tracker_id)
                    .bind(day)
                    .bind(&platform)
                    .bind(term)
                    .bind(n)
                    .execute(&mut *tx)
                    .await?;
                }
                // The posts page's totals by sentiment count per hour.
                let hour = created_at.div_euclid(HOUR_MS) * HOUR_MS;
                let (from, to) = (
                    SENTIMENT_COLUMNS[bucket_index(&old)].1,
                    SENTIMENT_COLUMNS[bucket_index(bucket)].1,
                );
                if from != to {
                    sqlx::query(&format!(
                        "UPDATE rollup_hourly SET {from} = {from} - 1, {to} = {to} + 1 WHERE tracker_id = $1 AND hour = $2 AND platform = $3"
                    ))
                    .bind(tracker_id)
                    .bind(hour)
                    .bind(&platform)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            tx.commit().await?;
            Ok(Some(SentimentEdit { old, new: bucket.to_string() }))
        })
    }

    /// Adds authors (platform name, username) to a tracker's ignore list. Usernames are kept
    /// lowercased. Returns how many were not ignored before.
    pub async fn ignore_users(&self, tracker_id: i64, users: &[(String, String)], now: Millis) -> Result<u64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let mut n = 0;
            for (platform, username) in users {
                n += sqlx::query(
                    "INSERT INTO ignored_users (tracker_id, platform, username, created_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (tracker_id, platform, username) DO NOTHING",
                )
                .bind(tracker_id)
                .bind(platform)
                .bind(username.to_lowercase())
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            }
            tx.commit().await?;
            Ok(n)
        })
    }

    pub async fn unignore_users(&self, tracker_id: i64, users: &[(String, String)]) -> Result<u64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let mut n = 0;
            for (platform, username) in users {
                n += sqlx::query("DELETE FROM ignored_users WHERE tracker_id = $1 AND platform = $2 AND username = $3")
                    .bind(tracker_id)
                    .bind(platform)
                    .bind(username.to_lowercase())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok(n)
        })
    }

    /// Every ignored author of every tracker: (tracker id, platform name, lowercased username).
    pub async fn ignored_authors(&self) -> Result<Vec<(i64, String, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, String, String)>(
            "SELECT tracker_id, platform, username FROM ignored_users"
        )
        .fetch_all(p)
        .await?))
    }

    /// A tracker's ignored authors, newest first.
    pub async fn tracker_ignored_users(&self, tracker_id: i64) -> Result<Vec<(String, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (String, String)>(
            "SELECT platform, username FROM ignored_users WHERE tracker_id = $1 ORDER BY created_at DESC, username"
        )
        .bind(tracker_id)
        .fetch_all(p)
        .await?))
    }
}
