use hark_core::{Friendly, Millis, Permission, TrackerHash, TrackerStatus};

use crate::{with_pool, Audit, BeginWrite, Result, Store, StoreError};

/// A tracker as stored, with its owner's name. JSON columns stay text here; the API decodes them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrackerRow {
    pub id: i64,
    pub hash: String,
    pub friendly: String,
    pub title: String,
    pub owner_id: i64,
    pub parent_id: Option<i64>,
    pub status: String,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub end_at: Option<Millis>,
    pub last_cached: Option<Millis>,
    pub last_paused: Option<Millis>,
    pub first_data_point: Option<Millis>,
    pub platforms: i64,
    pub criteria: String,
    pub volume_limit: Option<i64>,
    pub unlock_date: bool,
    pub share_exports: bool,
    pub media_moderation: bool,
    pub custom_config: String,
    pub hide_auth_metrics: bool,
    pub is_preview_mode: bool,
    pub is_demo: bool,
    pub total_posts: i64,
    pub link_sharing: String,
    pub custom_url: Option<String>,
    pub share_hash: Option<String>,
    pub last_edit_mode: Option<String>,
    /// The media wall's saved settings (JSON; `{}` until first saved).
    pub media_wall: String,
    /// The key of the media wall's moderation link, once made.
    pub moderation_key: Option<String>,
    pub owner_name: String,
    /// When the owner's trial ends (none when the owner is not on a trial).
    pub owner_trial_ends: Option<Millis>,
    /// Taken by every write that adds, removes or changes the tracker's posts (in its
    /// transaction): an answer made from the posts at one version holds until the next.
    pub post_version: i64,
}

impl TrackerRow {
    pub fn status(&self) -> TrackerStatus {
        TrackerStatus::parse(&self.status)
    }

    /// Whether the owner's trial has ended: the tracker is locked until the owner upgrades.
    pub fn owner_trial_over(&self, now: Millis) -> bool {
        self.owner_trial_ends.is_some_and(|e| e <= now)
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrackerLogRow {
    pub action: String,
    pub created_at: Millis,
}

#[derive(Debug, Clone)]
pub struct NewTracker {
    pub friendly: Friendly,
    pub title: String,
    pub owner_id: i64,
    pub platforms: i64,
    pub criteria: String,
    pub volume_limit: Option<i64>,
    pub is_demo: bool,
    pub is_preview_mode: bool,
}

/// A search edit: the new criteria and what to do with the data collected so far.
#[derive(Debug, Clone)]
pub struct TrackerEdit {
    pub title: String,
    pub platforms: i64,
    pub criteria: String,
    pub volume_limit: Option<i64>,
    pub mode: &'static str,
    pub user_id: i64,
}

const TRACKER_SELECT: &str = "SELECT t.id, t.hash, t.friendly, t.title, t.owner_id, t.parent_id, t.status, \
     t.created_at, t.updated_at, t.end_at, t.last_cached, t.last_paused, t.first_data_point, t.platforms, \
     t.criteria, t.volume_limit, t.unlock_date, t.share_exports, t.media_moderation, t.custom_config, \
     t.hide_auth_metrics, t.is_preview_mode, t.is_demo, t.total_posts, t.link_sharing, t.custom_url, \
     t.share_hash, t.last_edit_mode, t.media_wall, t.moderation_key, u.name AS owner_name, \
     CASE WHEN u.trial THEN u.trial_expires END AS owner_trial_ends, t.post_version FROM trackers t JOIN users u ON u.id = t.owner_id";

pub const LOG_CREATED: &str = "tracker_created";
pub const LOG_PAUSED: &str = "tracker_paused";
pub const LOG_RESTARTED: &str = "tracker_restarted";

impl Store {
    /// Creates a tracker with a fresh hash and a unique slug (suffixed `-2`, `-3`… when taken) and
    /// logs `tracker_created`, in one transaction.
    pub async fn create_tracker(&self, t: &NewTracker, now: Millis) -> Result<TrackerRow> {
        let mut attempt = 0u32;
        loop {
            let friendly = self.free_friendly(&t.friendly).await?;
            let hash = TrackerHash::generate();
            match self.insert_tracker(t, hash.as_str(), friendly.as_str(), now).await {
                Ok(id) => return self.tracker_by_id(id).await?.ok_or(StoreError::NotFound),
                Err(e)
                    if attempt < 8
                        && (e.is_conflict_on("trackers_friendly_key", "trackers.friendly")
                            || e.is_conflict_on("trackers_hash_key", "trackers.hash")) =>
                {
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn insert_tracker(&self, t: &NewTracker, hash: &str, friendly: &str, now: Millis) -> Result<i64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO trackers (hash, friendly, title, owner_id, status, created_at, updated_at, platforms, \
                 criteria, volume_limit, is_demo, is_preview_mode, custom_config, link_sharing) \
                 VALUES ($1, $2, $3, $4, 'running', $5, $5, $6, $7, $8, $9, $10, '{}', '{}') RETURNING id",
            )
            .bind(hash)
            .bind(friendly)
            .bind(&t.title)
            .bind(t.owner_id)
            .bind(now)
            .bind(t.platforms)
            .bind(&t.criteria)
            .bind(t.volume_limit)
            .bind(t.is_demo)
            .bind(t.is_preview_mode)
            .fetch_one(&mut *tx)
            .await?;
            sqlx::query("INSERT INTO tracker_logs (tracker_id, user_id, action, created_at) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(t.owner_id)
                .bind(LOG_CREATED)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(id)
        })
    }

    /// The slug itself when free, else the first free `slug-N`.
    async fn free_friendly(&self, base: &Friendly) -> Result<Friendly> {
        let like = format!("{}-%", base.as_str());
        let taken: Vec<String> = with_pool!(self, |p| sqlx::query_scalar(
            "SELECT friendly FROM trackers WHERE friendly = $1 OR friendly LIKE $2"
        )
        .bind(base.as_str())
        .bind(&like)
        .fetch_all(p)
        .await?);
        if !taken.iter().any(|f| f == base.as_str()) {
            return Ok(base.clone());
        }
        let mut n = 2;
        while taken.iter().any(|f| f == base.with_suffix(n).as_str()) {
            n += 1;
        }
        Ok(base.with_suffix(n))
    }

    pub async fn tracker_by_hash(&self, hash: &str) -> Result<Option<TrackerRow>> {
        let sql = format!("{TRACKER_SELECT} WHERE t.hash = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TrackerRow>(&sql).bind(hash).fetch_optional(p).await?))
    }

    pub async fn tracker_by_id(&self, id: i64) -> Result<Option<TrackerRow>> {
        let sql = format!("{TRACKER_SELECT} WHERE t.id = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TrackerRow>(&sql).bind(id).fetch_optional(p).await?))
    }

    /// Running trackers with their criteria (JSON): what incoming posts are matched against.
    pub async fn running_trackers(&self) -> Result<Vec<(i64, String)>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, (i64, String)>(
            "SELECT id, criteria FROM trackers WHERE status = 'running' ORDER BY id"
        )
        .fetch_all(p)
        .await?))
    }

    /// The demo tracker, if one exists.
    pub async fn demo_tracker(&self) -> Result<Option<TrackerRow>> {
        let sql = format!("{TRACKER_SELECT} WHERE t.is_demo = $1 ORDER BY t.id LIMIT 1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TrackerRow>(&sql).bind(true).fetch_optional(p).await?))
    }

    /// Trackers a user owns or was given access to, newest first, with the total count.
    pub async fn trackers_for_user(&self, user_id: i64, page: i64, per_page: i64) -> Result<(Vec<TrackerRow>, i64)> {
        let filter = "WHERE t.owner_id = $1 OR EXISTS (SELECT 1 FROM tracker_members m \
                      WHERE m.tracker_id = t.id AND m.user_id = $1 AND m.permission >= 1)";
        let sql = format!("{TRACKER_SELECT} {filter} ORDER BY t.created_at DESC, t.id DESC LIMIT $2 OFFSET $3");
        let count_sql = format!("SELECT COUNT(*) FROM trackers t {filter}");
        let offset = (page.max(1) - 1).saturating_mul(per_page);
        with_pool!(self, |p| {
            let rows = sqlx::query_as::<_, TrackerRow>(&sql)
                .bind(user_id)
                .bind(per_page)
                .bind(offset)
                .fetch_all(p)
                .await?;
            let count: i64 = sqlx::query_scalar(&count_sql).bind(user_id).fetch_one(p).await?;
            Ok((rows, count))
        })
    }

    /// A user's rank on a tracker: owner 4, an instance administrator at least 3, else the granted
    /// membership, else no access.
    pub async fn permission(&self, tracker: &TrackerRow, user_id: i64, is_admin: bool) -> Result<Permission> {
        if tracker.owner_id == user_id {
            return Ok(Permission::Owner);
        }
        let granted: Option<i64> = with_pool!(self, |p| sqlx::query_scalar(
            "SELECT permission FROM tracker_members WHERE tracker_id = $1 AND user_id = $2"
        )
        .bind(tracker.id)
        .bind(user_id)
        .fetch_optional(p)
        .await?);
        let granted = granted.and_then(Permission::from_rank).unwrap_or(Permission::NoAccess);
        Ok(if is_admin { granted.max(Permission::Administrator) } else { granted })
    }

    pub async fn set_member(&self, tracker_id: i64, user_id: i64, permission: Permission) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "INSERT INTO tracker_members (tracker_id, user_id, permission) VALUES ($1, $2, $3) \
             ON CONFLICT (tracker_id, user_id) DO UPDATE SET permission = excluded.permission"
        )
        .bind(tracker_id)
        .bind(user_id)
        .bind(permission.rank())
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// Saves a search edit and records the edit with the user's choice for old data.
    pub async fn edit_tracker(&self, id: i64, e: &TrackerEdit, now: Millis) -> Result<TrackerRow> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let before: String = sqlx::query_scalar("SELECT criteria FROM trackers WHERE id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE trackers SET title = $1, platforms = $2, criteria = $3, volume_limit = $4, \
                 last_edit_mode = $5, updated_at = $6 WHERE id = $7",
            )
            .bind(&e.title)
            .bind(e.platforms)
            .bind(&e.criteria)
            .bind(e.volume_limit)
            .bind(e.mode)
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO tracker_edits (tracker_id, user_id, mode, criteria_before, criteria_after, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(e.user_id)
            .bind(e.mode)
            .bind(&before)
            .bind(&e.criteria)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<_, StoreError>(())
        })?;
        self.tracker_by_id(id).await?.ok_or(StoreError::NotFound)
    }

    /// Pauses or restarts; logs the change. Setting the status a tracker already has changes nothing.
    pub async fn set_tracker_status(
        &self,
        id: i64,
        status: TrackerStatus,
        user_id: i64,
        now: Millis,
    ) -> Result<TrackerRow> {
        let action = match status {
            TrackerStatus::Paused => LOG_PAUSED,
            TrackerStatus::Running => LOG_RESTARTED,
        };
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let changed = sqlx::query(
                "UPDATE trackers SET status = $1, updated_at = $2, \
                 last_paused = CASE WHEN $1 = 'paused' THEN $2 ELSE last_paused END \
                 WHERE id = $3 AND status <> $1",
            )
            .bind(status.as_str())
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if changed > 0 {
                sqlx::query(
                    "INSERT INTO tracker_logs (tracker_id, user_id, action, created_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(user_id)
                .bind(action)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok::<_, StoreError>(())
        })?;
        self.tracker_by_id(id).await?.ok_or(StoreError::NotFound)
    }

    /// Deletes a tracker with everything of it, and writes its audit entry; false when there was
    /// none (and nothing is written).
    pub async fn delete_tracker(&self, id: i64, audit: Option<&Audit>) -> Result<bool> {
        Ok(self.write_audited("DELETE FROM trackers WHERE id = $1", &[id], audit).await? > 0)
    }

    pub async fn tracker_logs(&self, tracker_id: i64) -> Result<Vec<TrackerLogRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TrackerLogRow>(
            "SELECT action, created_at FROM tracker_logs WHERE tracker_id = $1 ORDER BY created_at, id"
        )
        .bind(tracker_id)
        .fetch_all(p)
        .await?))
    }

    pub async fn set_hide_auth_metrics(&self, id: i64, hidden: bool, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE trackers SET hide_auth_metrics = $1, updated_at = $2 WHERE id = $3")
            .bind(hidden)
            .bind(now)
            .bind(id)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    /// Switches a tracker's preview mode (on while its first sample is collected).
    pub async fn set_preview_mode(&self, id: i64, on: bool, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE trackers SET is_preview_mode = $1, updated_at = $2 WHERE id = $3")
            .bind(on)
            .bind(now)
            .bind(id)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    pub async fn set_custom_config(&self, id: i64, config_json: &str, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE trackers SET custom_config = $1, updated_at = $2 WHERE id = $3")
            .bind(config_json)
            .bind(now)
            .bind(id)
            .execute(p)
            .await
            .map(|_| ())?);
        Ok(())
    }

    /// Lets viewers export and embed the tracker's pages (the share-exports right).
    pub async fn set_share_exports(&self, tracker_id: i64, on: bool) -> Result<()> {
        self.set_flag(tracker_id, "share_exports", on).await
    }

    /// Marks a tracker as the public demo (readable by anyone, changed by no visitor).
    pub async fn set_demo(&self, tracker_id: i64, on: bool) -> Result<()> {
        self.set_flag(tracker_id, "is_demo", on).await
    }

    /// Sets one of the tracker's boolean columns (named by the callers above, never by input).
    async fn set_flag(&self, tracker_id: i64, column: &'static str, on: bool) -> Result<()> {
        let sql = format!("UPDATE trackers SET {column} = $1 WHERE id = $2");
        with_pool!(self, |p| sqlx::query(&sql).bind(on).bind(tracker_id).execute(p).await.map(|_| ())?);
        Ok(())
    }
}
