//! Taking posts out of a tracker with their rollup contribution: bulk delete (undoable), its undo,
//! and the removal of links re-analysis finds no longer match.

use hark_core::{Bucket, Gender, Millis, Platform, PostType};

use crate::dialect::{json_ids, Backend};
use crate::ingest::{Deltas, PostRecord, PostTerms};
use crate::{with_pool, Audit, BeginWrite, Result, Store};

#[derive(Debug, Clone, Copy)]
pub(crate) enum LinkChange {
    /// The link goes (re-analysis found the post no longer matches).
    Remove,
    /// The link stays, marked deleted (bulk delete; undo restores it).
    SoftDelete,
    Restore,
}

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

impl ContributionRow {
    fn record(self) -> PostRecord {
        PostRecord {
            platform: Platform::parse(&self.platform).unwrap_or(Platform::News),
            created_at: self.created_at,
            engagement: self.engagement,
            author_followers: self.author_followers,
            impressions: self.impressions,
            likes: self.likes,
            dislikes: self.dislikes,
            region: self.region,
            post_type: PostType::parse(&self.post_type).unwrap_or(PostType::Original),
            is_story: self.is_story,
            sentiment_bucket: self.sentiment_bucket.as_deref().and_then(Bucket::parse).unwrap_or(Bucket::Neutral),
            country: self.country,
            device: self.device,
            gender: self.gender.as_deref().and_then(Gender::parse).filter(|g| *g != Gender::Unknown),
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
        self.change_links(tracker_id, post_ids, LinkChange::Remove, now, None).await
    }

    /// Hides posts of a tracker (bulk delete, undoable) and subtracts their rollup contribution.
    pub async fn soft_delete_posts(&self, tracker_id: i64, post_ids: &[i64], now: Millis) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::SoftDelete, now, None).await
    }

    /// As [`Store::soft_delete_posts`], writing `audit` with the deletion when it hid any post.
    pub async fn soft_delete_posts_audited(&self, tracker_id: i64, post_ids: &[i64], now: Millis, audit: &Audit) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::SoftDelete, now, Some(audit)).await
    }

    /// Brings back posts hidden by [`Store::soft_delete_posts`] and adds their rollups back.
    pub async fn restore_posts(&self, tracker_id: i64, post_ids: &[i64], now: Millis) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::Restore, now, None).await
    }

    /// As [`Store::restore_posts`], writing `audit` with the undo when it brought any post back.
    pub async fn restore_posts_audited(&self, tracker_id: i64, post_ids: &[i64], now: Millis, audit: &Audit) -> Result<u64> {
        self.change_links(tracker_id, post_ids, LinkChange::Restore, now, Some(audit)).await
    }

    /// Changes the links, their rollups and the audit entry (the post count in its detail is
    /// the number changed) in one transaction.
    pub(crate) async fn change_links(
        &self,
        tracker_id: i64,
        post_ids: &[i64],
        change: LinkChange,
        now: Millis,
        audit: Option<&Audit>,
    ) -> Result<u64> {
        if post_ids.is_empty() {
            return Ok(0);
        }
        let backend = self.backend();
        let id_list = backend.id_set("$2");
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
            let mut tx = pool.begin_write(&self.write_gate).await?;
            // The ids travel as one JSON array parameter: no parameter limit, and PostgreSQL keeps
            // an index plan (a prepared IN list of hundreds of parameters gets a generic plan that
            // can be a sequential scan).
            let ids_json = json_ids(post_ids);
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
                deltas.add_post(tracker_id, r, r.sentiment_bucket.as_str(), *subtrackers, sign);
            }
            crate::rollups::write(&mut tx, &deltas, now).await?;
            if let Some(a) = audit.filter(|_| changed > 0) {
                let mut a = a.clone();
                a.detail = with_count(&a.detail, changed);
                crate::audit::write_audit!(tx, &a);
            }
            tx.commit().await?;
            laps.lap("links.commit");
            Ok(changed)
        })
    }
}

/// An audit entry's detail with the number of posts the change touched.
fn with_count(detail: &str, count: u64) -> String {
    let mut v: serde_json::Value = serde_json::from_str(detail).unwrap_or_else(|_| serde_json::json!({}));
    if let Some(o) = v.as_object_mut() {
        o.insert("count".into(), count.into());
    }
    v.to_string()
}
