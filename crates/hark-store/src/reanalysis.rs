//! The re-analysis jobs that a search edit with "re-analyze previous data" queues, and what they
//! write: links removed (through [`Store::unlink_posts`]), keyword sentiment rules, subtrackers.

use hark_core::{Millis, Platform};

use crate::ingest::{Deltas, PostRecord};
use crate::sentiment::known_bucket;
use crate::time::HOUR_MS;
use crate::{with_pool, BeginWrite, Result, Store};

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
    /// The last post id whose page was saved (0 before the first): a worker that takes the job
    /// over goes on after it.
    pub after_post_id: i64,
}

const COLUMNS: &str = "id, tracker_id, created_at, applied_at, processed, total, removed, after_post_id";

/// Where a leased re-analysis got to, saved while its worker holds the lease.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReanalysisPoint {
    pub processed: i64,
    pub total: i64,
    pub removed: i64,
    pub after_post_id: i64,
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
    /// The bucket shown before: the manual edit, else the keyword rule, else the analysed one.
    bucket: String,
}

impl Store {
    /// Leases the oldest unfinished re-analysis whose lease is free or ran out, for `owner` until
    /// `lease_until` (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so workers on several servers
    /// share the queue). Only a tracker's oldest unfinished job is leased: its worker supersedes
    /// the newer ones first, so two workers never hold jobs of one tracker.
    pub async fn lease_reanalysis(&self, owner: &str, now: Millis, lease_until: Millis) -> Result<Option<Reanalysis>> {
        let _turn = self.write_turn().await;
        let sql = format!(
            "UPDATE tracker_edits SET lease_owner = $1, lease_until = $3 \
             WHERE id = (SELECT e.id FROM tracker_edits e WHERE e.mode = 'reanalyze' AND e.applied_at IS NULL \
             AND (e.lease_until IS NULL OR e.lease_until < $2) \
             AND NOT EXISTS (SELECT 1 FROM tracker_edits o WHERE o.tracker_id = e.tracker_id AND o.id < e.id \
             AND o.mode = 'reanalyze' AND o.applied_at IS NULL) \
             ORDER BY e.id LIMIT 1{}) RETURNING {COLUMNS}",
            self.backend().skip_locked("e")
        );
        Ok(crate::with_write_pool!(self, |p| sqlx::query_as::<_, Reanalysis>(&sql)
            .bind(owner)
            .bind(now)
            .bind(lease_until)
            .fetch_optional(p)
            .await?))
    }

    /// Keeps `owner`'s lease of a re-analysis until `lease_until`; false when it was lost (taken
    /// over, finished or superseded), and the worker must stop.
    pub async fn renew_reanalysis(&self, id: i64, owner: &str, lease_until: Millis) -> Result<bool> {
        self.renew_lease("UPDATE tracker_edits SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND applied_at IS NULL", id, owner, lease_until).await
    }


    /// Saves a leased re-analysis's progress and renews the lease, or with `done_at` finishes it
    /// (once: only the lease's holder can); false when the lease was lost.
    pub async fn save_reanalysis(
        &self,
        id: i64,
        owner: &str,
        progress: ReanalysisPoint,
        done_at: Option<Millis>,
        lease_until: Millis,
    ) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE tracker_edits SET processed = $3, total = $4, removed = $5, after_post_id = $6, applied_at = $7, \
             lease_until = CASE WHEN $7 IS NULL THEN $8 ELSE NULL END, \
             lease_owner = CASE WHEN $7 IS NULL THEN lease_owner ELSE NULL END \
             WHERE id = $1 AND lease_owner = $2 AND applied_at IS NULL"
        )
        .bind(id)
        .bind(owner)
        .bind(progress.processed)
        .bind(progress.total)
        .bind(progress.removed)
        .bind(progress.after_post_id)
        .bind(done_at)
        .bind(lease_until)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n == 1)
    }

    /// The latest re-analysis of a tracker, finished or not.
    pub async fn latest_reanalysis(&self, tracker_id: i64) -> Result<Option<Reanalysis>> {
        let sql = format!("SELECT {COLUMNS} FROM tracker_edits WHERE mode = 'reanalyze' AND tracker_id = $1 ORDER BY id DESC LIMIT 1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, Reanalysis>(&sql)
        .bind(tracker_id)
        .fetch_optional(p)
        .await?))
    }

    /// Earlier queued re-analyses of the same tracker are superseded by a newer one, which takes
    /// over the oldest one's criteria before the edits: its before and after then span every edit
    /// it stands for (so a search change in a superseded edit is not taken for a sentiment-only
    /// change).
    pub async fn supersede_reanalysis(&self, tracker_id: i64, newest_id: i64, now: Millis) -> Result<()> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            sqlx::query(
                "UPDATE tracker_edits SET criteria_before = COALESCE((SELECT o.criteria_before FROM tracker_edits o \
                 WHERE o.tracker_id = $1 AND o.id < $2 AND o.applied_at IS NULL AND o.mode = 'reanalyze' ORDER BY o.id LIMIT 1), \
                 criteria_before) WHERE id = $2",
            )
            .bind(tracker_id)
            .bind(newest_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE tracker_edits SET applied_at = $1 WHERE tracker_id = $2 AND id < $3 AND applied_at IS NULL AND mode = 'reanalyze'",
            )
            .bind(now)
            .bind(tracker_id)
            .bind(newest_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<_, crate::StoreError>(())
        })?;
        Ok(())
    }

    /// A re-analysis's tracker criteria (JSON) before and after its edit.
    pub async fn reanalysis_criteria(&self, id: i64) -> Result<Option<(String, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as("SELECT criteria_before, criteria_after FROM tracker_edits WHERE id = $1")
            .bind(id)
            .fetch_optional(p)
            .await?))
    }

    /// A page of a tracker's live posts with ids in (`after_post_id`, `until_post_id`], in id
    /// order, as the custom sentiment keywords read them: (post id, text, title, the bucket the
    /// keywords gave it).
    pub async fn tracker_post_texts(
        &self,
        tracker_id: i64,
        after_post_id: i64,
        until_post_id: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, Option<String>, Option<String>)>> {
        Ok(with_pool!(self, |p| sqlx::query_as(&format!(
            "SELECT tp.post_id, p.text, p.title, tp.sentiment_rule FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id \
             WHERE tp.tracker_id = $1 AND tp.post_id > $2 AND tp.post_id <= $3 AND {} ORDER BY tp.post_id LIMIT $4",
            self.backend().live_link("tp")
        ))
        .bind(tracker_id)
        .bind(after_post_id)
        .bind(until_post_id)
        .bind(limit)
        .fetch_all(p)
        .await?))
    }

    /// The lowest and highest post id linked to a tracker (live or deleted), if any.
    pub async fn link_id_bounds(&self, tracker_id: i64) -> Result<Option<(i64, i64)>> {
        let (lo, hi): (Option<i64>, Option<i64>) = with_pool!(self, |p| sqlx::query_as(
            "SELECT MIN(post_id), MAX(post_id) FROM tracker_posts WHERE tracker_id = $1"
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?);
        Ok(lo.zip(hi))
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
        self.set_sentiment_rules_in_turn(tracker_id, updates, now, None).await
    }

    /// [`Store::set_sentiment_rules`] for writers working side by side on disjoint posts of one
    /// tracker: each changes its links on its own, then takes `turn` to write the rollups and
    /// commit. The rows every writer shares (the rollups, the tracker's `post_version`) are so
    /// locked by one transaction at a time, in no order that could deadlock, while the costly part
    /// (the links and their index entries) goes on in parallel.
    pub async fn set_sentiment_rules_in_turn(
        &self,
        tracker_id: i64,
        updates: &[(i64, Option<&'static str>)],
        now: Millis,
        turn: Option<&tokio::sync::Mutex<()>>,
    ) -> Result<()> {
        if updates.is_empty() {
            return Ok(());
        }
        let backend = self.backend();
        let id_list = backend.id_set("$2");
        let ids: Vec<i64> = updates.iter().map(|(id, _)| *id).collect();
        let ids_json = crate::dialect::json_ids(&ids);
        // The link holds all but the analysed bucket, which only a post losing its rule needs
        // (reading the wide post rows was half of a re-analysis's writing on PostgreSQL).
        let select = format!(
            "SELECT tp.post_id, tp.created_at, tp.platform, tp.sentiment_override, tp.sentiment_rule, tp.bucket \
             FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {} AND tp.post_id IN ({id_list})",
            self.backend().live_link("tp")
        );
        let analysed = format!("SELECT id, sentiment_bucket FROM posts WHERE id IN ({})", backend.id_set("$1"));
        let new_rule: std::collections::HashMap<i64, Option<&'static str>> = updates.iter().copied().collect();
        with_pool!(self, |pool| {
            let mut tx = pool.begin_write(&self.write_gate).await?;
            let rows: Vec<SentimentRow> = sqlx::query_as(&select).bind(tracker_id).bind(&ids_json).fetch_all(&mut *tx).await?;
            let records: Vec<PostRecord> = rows
                .iter()
                .map(|r| PostRecord {
                    platform: Platform::parse(&r.platform).unwrap_or(Platform::News),
                    created_at: r.created_at,
                    ..Default::default()
                })
                .collect();
            let rule_of = |r: &SentimentRow| new_rule.get(&r.post_id).copied().flatten();
            let unruled: Vec<i64> = rows
                .iter()
                .filter(|r| r.sentiment_override.is_none() && r.sentiment_rule.is_some() && rule_of(r).is_none())
                .map(|r| r.post_id)
                .collect();
            let mut scored: std::collections::HashMap<i64, Option<String>> = Default::default();
            for part in unruled.chunks(20_000) {
                let found: Vec<(i64, Option<String>)> =
                    sqlx::query_as(&analysed).bind(crate::dialect::json_ids(part)).fetch_all(&mut *tx).await?;
                scored.extend(found);
            }
            let mut deltas = Deltas::default();
            let mut changed: Vec<(i64, Option<&'static str>)> = Vec::new();
            for (r, rec) in rows.iter().zip(&records) {
                let rule = rule_of(r);
                if rule == r.sentiment_rule.as_deref() {
                    continue;
                }
                changed.push((r.post_id, rule));
                if r.sentiment_override.is_some() {
                    continue;
                }
                let before = known_bucket(&r.bucket).unwrap_or("neutral");
                let after = match rule {
                    Some(b) => b,
                    None => scored.get(&r.post_id).and_then(|b| b.as_deref()).and_then(known_bucket).unwrap_or("neutral"),
                };
                if before != after {
                    deltas.add_term(tracker_id, rec, "sentiment", before, -1);
                    deltas.add_term(tracker_id, rec, "sentiment", after, 1);
                }
            }
            // The links change in statements of many rows (one per post was most of a re-analysis
            // that moves many posts): one per rule, its posts' ids as one JSON array, each found
            // by its key.
            let mut by_rule: std::collections::BTreeMap<Option<&'static str>, Vec<i64>> = Default::default();
            for (id, rule) in &changed {
                by_rule.entry(*rule).or_default().push(*id);
            }
            let update = format!(
                "UPDATE tracker_posts SET sentiment_rule = $3, bucket = COALESCE(sentiment_override, $3, \
                 (SELECT p.sentiment_bucket FROM posts p WHERE p.id = tracker_posts.post_id), 'neutral') \
                 WHERE tracker_id = $1 AND post_id IN ({id_list})"
            );
            for (rule, ids) in by_rule {
                for part in ids.chunks(20_000) {
                    sqlx::query(&update).bind(tracker_id).bind(crate::dialect::json_ids(part)).bind(rule).execute(&mut *tx).await?;
                }
            }
            let _turn = match turn {
                Some(t) => Some(t.lock().await),
                None => None,
            };
            crate::rollups::write(&mut tx, &deltas, now).await?;
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
            let mut tx = p.begin_write(&self.write_gate).await?;
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
                let hour = created_at.div_euclid(HOUR_MS) * HOUR_MS;
                for bit in 0..63 {
                    let (was, is) = (old & (1i64 << bit) != 0, mask & (1i64 << bit) != 0);
                    if was != is {
                        *moves.entry((hour, platform.clone(), bit + 1)).or_default() += if is { 1 } else { -1 };
                    }
                }
            }
            let days: Vec<(i64, i64)> = moves.iter().filter(|(_, n)| **n != 0).map(|((h, _, _), _)| (h.div_euclid(crate::DAY_MS) * crate::DAY_MS, 0)).collect();
            crate::rollups::mark_days(&mut tx, tracker_id, days).await?;
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

