//! Removing posts from a tracker with their rollup contribution, and the re-analysis jobs that a
//! search edit with "re-analyze previous data" queues.

use hark_core::{Millis, Platform};

use crate::ingest::{Deltas, PostRecord, PostTerms};
use crate::{with_pool, Backend, BeginWrite, Result, Store};

/// A queued or running re-analysis of a tracker's stored posts.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Reanalysis {
    pub id: i64,
    pub tracker_id: i64,
    pub created_at: Millis,
    pub applied_at: Option<Millis>,
    pub processed: i64,
    pub total: i64,
    pub removed: i64,
}

#[derive(Debug, Clone, Copy)]
enum LinkChange {
    /// The link goes (re-analysis found the post no longer matches).
    Remove,
    /// The link stays, marked deleted (bulk delete; undo restores it).
    SoftDelete,
    Restore,
}

/// A stored post of a tracker, as re-analysis reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredPost {
    pub post_id: i64,
    #[sqlx(flatten)]
    pub row: crate::StoredRow,
    pub country: Option<String>,
    pub lang: Option<String>,
    pub subtrackers: i64,
    /// The bucket the tracker's custom sentiment keywords gave it when last matched.
    pub sentiment_rule: Option<String>,
}

impl StoredPost {
    pub fn post(&self) -> Result<hark_core::Post> {
        self.row.clone().into_post().map_err(|e| crate::StoreError::Corrupt(format!("post {}: {e}", self.post_id)))
    }
}

#[derive(sqlx::FromRow)]
struct SentimentRow {
    post_id: i64,
    created_at: Millis,
    platform: String,
    sentiment_override: Option<String>,
    sentiment_rule: Option<String>,
    sentiment_bucket: Option<String>,
}

const BUCKETS: [&str; 5] = ["negative", "slight_negative", "neutral", "slight_positive", "positive"];

#[derive(sqlx::FromRow)]
struct ContributionRow {
    post_id: i64,
    created_at: Millis,
    platform: String,
    engagement: i64,
    author_followers: i64,
    impressions: i64,
    likes: i64,
    dislikes: i64,
    subtrackers: i64,
    region: Option<String>,
    post_type: String,
    is_story: bool,
    sentiment_bucket: Option<String>,
    country: Option<String>,
    device: Option<String>,
    gender: Option<String>,
    lang: Option<String>,
    author_username: String,
    author_id: String,
    terms: String,
}

fn known(s: &str, options: &[&'static str]) -> Option<&'static str> {
    options.iter().copied().find(|o| *o == s)
}

impl ContributionRow {
    fn record(self) -> PostRecord {
        PostRecord {
            platform: Platform::parse(&self.platform).map(Platform::name).unwrap_or("news"),
            created_at: self.created_at,
            engagement: self.engagement,
            author_followers: self.author_followers,
            impressions: self.impressions,
            likes: self.likes,
            dislikes: self.dislikes,
            region: self.region,
            post_type: known(&self.post_type, &["original", "reply", "retweet"]).unwrap_or("original"),
            is_story: self.is_story,
            sentiment_bucket: self
                .sentiment_bucket
                .as_deref()
                .and_then(|b| known(b, &BUCKETS))
                .unwrap_or("neutral"),
            country: self.country,
            device: self.device,
            gender: self.gender.as_deref().and_then(|g| known(g, &["male", "female"])),
            lang: self.lang,
            author_username: self.author_username,
            author_id: self.author_id,
            terms: serde_json::from_str::<PostTerms>(&self.terms).unwrap_or_default(),
            ..Default::default()
        }
    }
}

impl Store {
    /// Removes posts from a tracker and subtracts what they added to its rollups, in one
    /// transaction. Returns how many links were removed.
    pub async fn unlink_posts(&self, tracker_id: i64, post_ids: &[i64], now: Millis) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::Remove, now).await
    }

    /// Hides posts of a tracker (bulk delete, undoable) and subtracts their rollup contribution.
    pub async fn soft_delete_posts(&self, tracker_id: i64, post_ids: &[i64], now: Millis) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::SoftDelete, now).await
    }

    /// Brings back posts hidden by [`Store::soft_delete_posts`] and adds their rollups back.
    pub async fn restore_posts(&self, tracker_id: i64, post_ids: &[i64], now: Millis) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::Restore, now).await
    }

    async fn change_links(&self, tracker_id: i64, post_ids: &[i64], change: LinkChange, now: Millis) -> Result<u64> {
        if post_ids.is_empty() {
            return Ok(0);
        }
        let (max_of, id_list) = match self.backend() {
            Backend::Sqlite => ("MAX", "SELECT value FROM json_each($2)"),
            Backend::Postgres => ("GREATEST", "SELECT jsonb_array_elements_text($2::jsonb)::bigint"),
        };
        let backend = self.backend();
        let (state, sign) = match change {
            LinkChange::Remove | LinkChange::SoftDelete => (backend.live_link("tp"), -1),
            LinkChange::Restore => (backend.deleted_link("tp"), 1),
        };
        // The sentiment counted is the one shown: a manual edit replaces the computed bucket.
        let columns = "p.id AS post_id, p.created_at, p.platform, p.engagement, p.author_followers, p.impressions, \
             p.likes, p.dislikes, tp.subtrackers, p.region, \
             p.post_type, p.is_story, COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS sentiment_bucket, \
             p.country, p.device, p.gender, p.lang, p.author_username, \
             p.author_id, p.terms";
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write().await?;
            // The ids travel as one JSON array parameter: no parameter limit, and PostgreSQL keeps
            // an index plan (a prepared IN list of hundreds of parameters gets a generic plan that
            // can be a sequential scan).
            let ids_json = serde_json::to_string(post_ids).unwrap_or_else(|_| "[]".into());
            let mut laps = crate::ingest::Laps::new();
            let (rows, changed): (Vec<ContributionRow>, u64) = match (backend, change) {
                // PostgreSQL keeps a deletion in `tracker_deleted_posts` alone (migration 0020):
                // one statement writes those rows and returns the links it changed, so two deletes
                // of the same post at once count it once (the second waits, then finds the row).
                (Backend::Postgres, LinkChange::SoftDelete | LinkChange::Restore) => {
                    let write = if matches!(change, LinkChange::SoftDelete) {
                        format!(
                            "INSERT INTO tracker_deleted_posts (tracker_id, post_id, created_at) \
                             SELECT tp.tracker_id, tp.post_id, tp.created_at FROM tracker_posts tp \
                             WHERE tp.tracker_id = $1 AND tp.post_id IN ({id_list}) ON CONFLICT DO NOTHING RETURNING post_id"
                        )
                    } else {
                        format!("DELETE FROM tracker_deleted_posts WHERE tracker_id = $1 AND post_id IN ({id_list}) RETURNING post_id")
                    };
                    let sql = format!(
                        "WITH d AS ({write}) SELECT {columns} FROM d JOIN tracker_posts tp ON tp.tracker_id = $1 AND tp.post_id = d.post_id \
                         JOIN posts p ON p.id = tp.post_id"
                    );
                    let rows: Vec<ContributionRow> =
                        sqlx::query_as(&sql).bind(tracker_id).bind(&ids_json).fetch_all(&mut *tx).await?;
                    let n = rows.len() as u64;
                    (rows, n)
                }
                _ => {
                    let select = format!(
                        "SELECT {columns} FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
                         WHERE {state} AND tp.tracker_id = $1 AND tp.post_id IN ({id_list})"
                    );
                    let rows: Vec<ContributionRow> =
                        sqlx::query_as(&select).bind(tracker_id).bind(&ids_json).fetch_all(&mut *tx).await?;
                    laps.lap("links.select");
                    // Here only SQLite deletes and restores: it keeps the deletion in the link, with
                    // its copy (migration 0016) from the links just written; a removed link's copy
                    // goes with it (SQLite: a foreign key; PostgreSQL: a trigger, migration 0020).
                    let (write, mirror) = match change {
                        LinkChange::Remove => {
                            (format!("DELETE FROM tracker_posts WHERE tracker_id = $1 AND post_id IN ({id_list})"), None)
                        }
                        LinkChange::SoftDelete => (
                            format!(
                                "UPDATE tracker_posts SET deleted_at = $3 WHERE tracker_id = $1 AND deleted_at IS NULL AND post_id IN ({id_list})"
                            ),
                            Some(format!(
                                "INSERT INTO tracker_deleted_posts (tracker_id, post_id, created_at) SELECT tracker_id, post_id, created_at \
                                 FROM tracker_posts WHERE tracker_id = $1 AND deleted_at IS NOT NULL AND post_id IN ({id_list}) \
                                 ON CONFLICT DO NOTHING"
                            )),
                        ),
                        LinkChange::Restore => (
                            format!(
                                "UPDATE tracker_posts SET deleted_at = NULL WHERE tracker_id = $1 AND deleted_at IS NOT NULL \
                                 AND post_id IN ({id_list}) AND $3 >= 0"
                            ),
                            Some(format!("DELETE FROM tracker_deleted_posts WHERE tracker_id = $1 AND post_id IN ({id_list})")),
                        ),
                    };
                    let mut q = sqlx::query(&write).bind(tracker_id).bind(&ids_json);
                    if !matches!(change, LinkChange::Remove) {
                        q = q.bind(now);
                    }
                    let changed = q.execute(&mut *tx).await?.rows_affected();
                    if let Some(sql) = mirror {
                        sqlx::query(&sql).bind(tracker_id).bind(&ids_json).execute(&mut *tx).await?;
                    }
                    (rows, changed)
                }
            };
            let records: Vec<(i64, i64, PostRecord)> =
                rows.into_iter().map(|r| (r.post_id, r.subtrackers, r.record())).collect();
            laps.lap("links.update");
            let mut deltas = Deltas::default();
            for (_, subtrackers, r) in &records {
                deltas.add_post(tracker_id, r, r.sentiment_bucket, *subtrackers, sign);
            }
            crate::ingest::write_deltas!(tx, deltas, max_of, now);
            tx.commit().await?;
            laps.lap("links.commit");
            Ok(changed)
        })
    }

    /// Queues a re-analysis for a tracker (done by [`Store::edit_tracker`] for mode "reanalyze").
    pub async fn pending_reanalysis(&self) -> Result<Option<Reanalysis>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, Reanalysis>(
            "SELECT id, tracker_id, created_at, applied_at, processed, total, removed FROM tracker_edits \
             WHERE mode = 'reanalyze' AND applied_at IS NULL ORDER BY id LIMIT 1"
        )
        .fetch_optional(p)
        .await?))
    }

    /// The latest re-analysis of a tracker, finished or not.
    pub async fn latest_reanalysis(&self, tracker_id: i64) -> Result<Option<Reanalysis>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, Reanalysis>(
            "SELECT id, tracker_id, created_at, applied_at, processed, total, removed FROM tracker_edits \
             WHERE mode = 'reanalyze' AND tracker_id = $1 ORDER BY id DESC LIMIT 1"
        )
        .bind(tracker_id)
        .fetch_optional(p)
        .await?))
    }

    pub async fn set_reanalysis_progress(
        &self,
        id: i64,
        processed: i64,
        total: i64,
        removed: i64,
        done_at: Option<Millis>,
    ) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE tracker_edits SET processed = $1, total = $2, removed = $3, applied_at = $4 WHERE id = $5"
        )
        .bind(processed)
        .bind(total)
        .bind(removed)
        .bind(done_at)
        .bind(id)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Earlier queued re-analyses of the same tracker are superseded by a newer one.
    pub async fn supersede_reanalysis(&self, tracker_id: i64, newest_id: i64, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE tracker_edits SET applied_at = $1 WHERE tracker_id = $2 AND id < $3 AND applied_at IS NULL AND mode = 'reanalyze'"
        )
        .bind(now)
        .bind(tracker_id)
        .bind(newest_id)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    pub async fn count_links(&self, tracker_id: i64) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            &format!("SELECT COUNT(*) FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {}", self.backend().live_link("tp"))
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?))
    }

    /// A page of a tracker's stored posts after `after_post_id`, in id order.
    pub async fn tracker_posts_page(&self, tracker_id: i64, after_post_id: i64, limit: i64) -> Result<Vec<StoredPost>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, StoredPost>(
            &format!(
                "SELECT tp.post_id, {}, p.country, p.lang, tp.subtrackers, tp.sentiment_rule FROM tracker_posts tp \
                 JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = $1 AND tp.post_id > $2 AND {} \
                 ORDER BY tp.post_id LIMIT $3",
                crate::POST_ROW_COLUMNS,
                self.backend().live_link("tp")
            )
        )
        .bind(tracker_id)
        .bind(after_post_id)
        .bind(limit)
        .fetch_all(p)
        .await?))
    }

    /// Stores the buckets a tracker's custom sentiment keywords now give some of its posts
    /// (`None`: no keyword matches) and moves the sentiment rollups of posts whose sentiment in
    /// the tracker changed. A manual edit still wins, so those posts keep their counts.
    pub async fn set_sentiment_rules(&self, tracker_id: i64, updates: &[(i64, Option<&'static str>)], now: Millis) -> Result<()> {
        if updates.is_empty() {
            return Ok(());
        }
        let (max_of, id_list) = match self.backend() {
            Backend::Sqlite => ("MAX", "SELECT value FROM json_each($2)"),
            Backend::Postgres => ("GREATEST", "SELECT jsonb_array_elements_text($2::jsonb)::bigint"),
        };
        let ids: Vec<i64> = updates.iter().map(|(id, _)| *id).collect();
        let ids_json = serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into());
        let select = format!(
            "SELECT tp.post_id, p.created_at, p.platform, tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket \
             FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
             WHERE tp.tracker_id = $1 AND {} AND tp.post_id IN ({id_list})",
            self.backend().live_link("tp")
        );
        let new_rule: std::collections::HashMap<i64, Option<&'static str>> = updates.iter().copied().collect();
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write().await?;
            let rows: Vec<SentimentRow> = sqlx::query_as(&select).bind(tracker_id).bind(&ids_json).fetch_all(&mut *tx).await?;
            let records: Vec<PostRecord> = rows
                .iter()
                .map(|r| PostRecord {
                    platform: Platform::parse(&r.platform).map(Platform::name).unwrap_or("news"),
                    created_at: r.created_at,
                    ..Default::default()
                })
                .collect();
            let mut deltas = Deltas::default();
            for (r, rec) in rows.iter().zip(&records) {
                let rule = new_rule.get(&r.post_id).copied().flatten();
                if rule == r.sentiment_rule.as_deref() {
                    continue;
                }
                sqlx::query(
                    "UPDATE tracker_posts SET sentiment_rule = $1, bucket = COALESCE(sentiment_override, $1, \
                     (SELECT p.sentiment_bucket FROM posts p WHERE p.id = tracker_posts.post_id), 'neutral') \
                     WHERE tracker_id = $2 AND post_id = $3",
                )
                    .bind(rule)
                    .bind(tracker_id)
                    .bind(r.post_id)
                    .execute(&mut *tx)
                    .await?;
                if r.sentiment_override.is_some() {
                    continue;
                }
                let scored = r.sentiment_bucket.as_deref().and_then(|b| known(b, &BUCKETS)).unwrap_or("neutral");
                let before = r.sentiment_rule.as_deref().and_then(|b| known(b, &BUCKETS)).unwrap_or(scored);
                let after = rule.unwrap_or(scored);
                if before != after {
                    deltas.add_term(tracker_id, rec, "sentiment", before, -1);
                    deltas.add_term(tracker_id, rec, "sentiment", after, 1);
                }
            }
            crate::ingest::write_deltas!(tx, deltas, max_of, now);
            tx.commit().await?;
            Ok::<_, crate::StoreError>(())
        })?;
        Ok(())
    }

    /// Stores the subtrackers (bit i = subtracker i+1) posts of a tracker now match, and moves
    /// their counts in the share-of-voice rollup.
    pub async fn set_subtrackers(&self, tracker_id: i64, updates: &[(i64, i64)]) -> Result<()> {
        let select = format!(
            "SELECT tp.subtrackers, tp.created_at, tp.platform, {} FROM tracker_posts tp WHERE tp.tracker_id = $1 AND tp.post_id = $2",
            self.backend().deleted_link("tp")
        );
        with_pool!(self, |p| {
            let mut tx = p.begin_write().await?;
            let mut moves: std::collections::HashMap<(i64, String, i64), i64> = Default::default();
            for (post_id, mask) in updates {
                let old: Option<(i64, i64, String, bool)> = sqlx::query_as(&select)
                .bind(tracker_id)
                .bind(*post_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((old, created_at, platform, deleted)) = old else { continue };
                if old == *mask {
                    continue;
                }
                sqlx::query("UPDATE tracker_posts SET subtrackers = $1 WHERE tracker_id = $2 AND post_id = $3")
                    .bind(*mask)
                    .bind(tracker_id)
                    .bind(*post_id)
                    .execute(&mut *tx)
                    .await?;
                // A deleted post counts nowhere; restoring it counts the mask it has then.
                if deleted {
                    continue;
                }
                let hour = created_at.div_euclid(3_600_000) * 3_600_000;
                for bit in 0..63 {
                    let (was, is) = (old & (1i64 << bit) != 0, mask & (1i64 << bit) != 0);
                    if was != is {
                        *moves.entry((hour, platform.clone(), bit + 1)).or_default() += if is { 1 } else { -1 };
                    }
                }
            }
            for ((hour, platform, sub), n) in moves {
                if n == 0 {
                    continue;
                }
                sqlx::query(
                    "INSERT INTO rollup_subtrackers (tracker_id, hour, platform, sub, posts) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (tracker_id, hour, platform, sub) DO UPDATE SET posts = rollup_subtrackers.posts + excluded.posts",
                )
                .bind(tracker_id)
                .bind(hour)
                .bind(&platform)
                .bind(sub)
                .bind(n)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok::<_, crate::StoreError>(())
        })?;
        Ok(())
    }
}
