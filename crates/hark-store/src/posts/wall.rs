//! The media wall: a tracker's posts that carry media, newest first or by engagement, by their
//! visibility (public, hidden, or waiting in the moderation queue), and the moderation work on
//! them. The links of posts with media are flagged (`has_media`, migration 0028) and read from two
//! partial indexes that start with the visibility, so a wall of 500 posts reads about 500 links
//! however many posts the tracker holds.

use hark_core::{Millis, PlatformSet};

use super::list::PostRow;
use super::query::search_words;
use crate::dialect::{json_ids, Backend};
use crate::ingest::PostKind;
use crate::{with_pool, BeginWrite, Result, Store};

/// A link's visibility on the wall.
pub mod visibility {
    /// On the wall.
    pub const PUBLIC: i64 = 1;
    /// Hidden by a moderator ('Only You').
    pub const HIDDEN: i64 = 0;
    /// Waiting in the moderation queue.
    pub const QUEUED: i64 = 2;
}

/// What the wall shows.
#[derive(Debug, Clone, Default)]
pub struct WallQuery {
    pub platforms: PlatformSet,
    /// 1-based subtracker.
    pub subtracker: Option<u32>,
    /// Words that must all appear (text, title, author names, location).
    pub search: String,
    /// The visibilities shown (each read from the index on its own, then merged).
    pub visibilities: Vec<i64>,
    pub by_engagement: bool,
    pub exclude_retweets: bool,
    /// Usernames left out, lowercased, without '@'.
    pub exclude_users: Vec<String>,
    pub limit: i64,
}

/// A post on the wall with its visibility.
#[derive(Debug, Clone)]
pub struct WallRow {
    pub row: PostRow,
    pub visibility: i64,
}

#[derive(sqlx::FromRow)]
struct WallKey {
    post_id: i64,
    created_at: Millis,
    engagement: i64,
}

impl WallQuery {
    /// The conditions ($1 tracker, $2 visibility, then the text parameters returned, in order:
    /// the search when there is one, the excluded users as a JSON array when there are some),
    /// and whether they read `posts p`.
    fn conditions(&self, backend: Backend) -> Option<(String, bool, Vec<String>)> {
        let platforms: Vec<String> = self.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        if platforms.is_empty() {
            return None;
        }
        let mut w = format!(
            "tp.tracker_id = $1 AND tp.visibility = $2 AND tp.has_media = 1 AND {} AND tp.platform IN ({})",
            backend.live_link("tp"),
            platforms.join(",")
        );
        let mut needs_posts = false;
        let mut binds = Vec::new();
        if !search_words(&self.search).is_empty() {
            binds.push(super::query::match_expr(backend, &self.search));
            let n = binds.len() + 2;
            match backend {
                Backend::Sqlite => w.push_str(&format!(" AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ${n})")),
                Backend::Postgres => {
                    needs_posts = true;
                    w.push_str(&format!(" AND p.fts @@ ${n}::tsquery"));
                }
            }
        }
        if self.exclude_retweets {
            w.push_str(&format!(" AND tp.post_kind <> {}", PostKind::Retweet as i16));
        }
        if let Some(n) = self.subtracker.filter(|n| (1..=63).contains(n)) {
            w.push_str(&format!(" AND (tp.subtrackers & {}) <> 0", 1i64 << (n - 1)));
        }
        if !self.exclude_users.is_empty() {
            needs_posts = true;
            binds.push(serde_json::to_string(&self.exclude_users).unwrap_or_else(|_| "[]".into()));
            let set = backend.text_set(&format!("${}", binds.len() + 2));
            w.push_str(&format!(" AND LOWER(p.author_username) NOT IN ({set})"));
        }
        Some((w, needs_posts, binds))
    }
}

impl Store {
    /// The wall's posts: each visibility asked for is read in the wall's order from its index, and
    /// the lists merged, to `limit` posts.
    pub async fn media_wall(&self, tracker_id: i64, q: &WallQuery) -> Result<Vec<WallRow>> {
        let mut keys: Vec<(WallKey, i64)> = Vec::new();
        for v in &q.visibilities {
            for k in self.wall_keys(tracker_id, q, *v, q.limit).await? {
                keys.push((k, *v));
            }
        }
        if q.by_engagement {
            keys.sort_by(|a, b| (b.0.engagement, b.0.created_at, b.0.post_id).cmp(&(a.0.engagement, a.0.created_at, a.0.post_id)));
        } else {
            keys.sort_by(|a, b| (b.0.created_at, b.0.post_id).cmp(&(a.0.created_at, a.0.post_id)));
        }
        keys.truncate(q.limit.max(0) as usize);
        self.wall_rows(tracker_id, keys).await
    }

    /// The moderation queue, newest first (to `limit`), and how many posts wait in it.
    pub async fn media_wall_queue(&self, tracker_id: i64, q: &WallQuery, limit: i64) -> Result<(Vec<WallRow>, i64)> {
        let keys = self.wall_keys(tracker_id, &WallQuery { by_engagement: false, ..q.clone() }, visibility::QUEUED, limit).await?;
        let total = if (keys.len() as i64) < limit {
            keys.len() as i64
        } else {
            let Some((w, needs_posts, binds)) = q.conditions(self.backend()) else { return Ok((Vec::new(), 0)) };
            let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
            let sql = format!("SELECT COUNT(*) FROM tracker_posts tp{join} WHERE {w}");
            with_pool!(self, |p| {
                let mut query = sqlx::query_scalar::<_, i64>(&sql).bind(tracker_id).bind(visibility::QUEUED);
                for b in &binds {
                    query = query.bind(b.clone());
                }
                query.fetch_one(p).await?
            })
        };
        let rows = self.wall_rows(tracker_id, keys.into_iter().map(|k| (k, visibility::QUEUED)).collect()).await?;
        Ok((rows, total))
    }

    async fn wall_keys(&self, tracker_id: i64, q: &WallQuery, vis: i64, limit: i64) -> Result<Vec<WallKey>> {
        let backend = self.backend();
        let Some((w, needs_posts, binds)) = q.conditions(backend) else { return Ok(Vec::new()) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        let order = if q.by_engagement {
            "tp.engagement DESC, tp.created_at DESC, tp.post_id DESC"
        } else {
            "tp.created_at DESC, tp.post_id DESC"
        };
        let sql = format!(
            "SELECT tp.post_id, tp.created_at, tp.engagement FROM tracker_posts tp{join} WHERE {w} ORDER BY {order} LIMIT {}",
            limit.clamp(0, 10_000)
        );
        Ok(with_pool!(self, |p| {
            let mut query = sqlx::query_as::<_, WallKey>(&sql).bind(tracker_id).bind(vis);
            for b in &binds {
                query = query.bind(b.clone());
            }
            query.fetch_all(p).await?
        }))
    }

    async fn wall_rows(&self, tracker_id: i64, keys: Vec<(WallKey, i64)>) -> Result<Vec<WallRow>> {
        let ids: Vec<i64> = keys.iter().map(|(k, _)| k.post_id).collect();
        let vis: std::collections::HashMap<i64, i64> = keys.iter().map(|(k, v)| (k.post_id, *v)).collect();
        let rows = self.rows_in_order(tracker_id, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let visibility = vis.get(&row.post_id).copied().unwrap_or(visibility::PUBLIC);
                WallRow { row, visibility }
            })
            .collect())
    }

    /// Sets the wall visibility of some of a tracker's posts (approve or show: public; reject or
    /// hide: hidden). Returns how many changed.
    pub async fn set_wall_visibility(&self, tracker_id: i64, post_ids: &[i64], vis: i64) -> Result<u64> {
        if post_ids.is_empty() {
            return Ok(0);
        }
        let sql = format!(
            "UPDATE tracker_posts SET visibility = $2 WHERE tracker_id = $1 AND visibility <> $2 AND post_id IN ({})",
            self.backend().id_set("$3")
        );
        Ok(with_pool!(self, |p| sqlx::query(&sql)
            .bind(tracker_id)
            .bind(vis)
            .bind(json_ids(post_ids))
            .execute(p)
            .await?
            .rows_affected()))
    }

    /// Turns the tracker's media moderation on or off. Turning it off publishes the queue (with
    /// nobody moderating, nothing waits); returns how many posts left the queue.
    pub async fn set_media_moderation(&self, tracker_id: i64, on: bool, now: Millis) -> Result<u64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            sqlx::query("UPDATE trackers SET media_moderation = $2, updated_at = $3 WHERE id = $1")
                .bind(tracker_id)
                .bind(on)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let published = if on {
                0
            } else {
                sqlx::query("UPDATE tracker_posts SET visibility = $2 WHERE tracker_id = $1 AND visibility = $3 AND has_media = 1")
                    .bind(tracker_id)
                    .bind(visibility::PUBLIC)
                    .bind(visibility::QUEUED)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
            };
            tx.commit().await?;
            Ok::<u64, crate::StoreError>(published)
        })
    }

    /// Saves the wall's settings (JSON the API has checked).
    pub async fn save_media_wall_settings(&self, tracker_id: i64, json: &str, now: Millis) -> Result<()> {
        with_pool!(self, |p| sqlx::query("UPDATE trackers SET media_wall = $2, updated_at = $3 WHERE id = $1")
            .bind(tracker_id)
            .bind(json)
            .bind(now)
            .execute(p)
            .await?
            .rows_affected());
        Ok(())
    }

    /// Sets the key of the wall's moderation link (a new key kills the old link), with the audit
    /// entry of a replaced link.
    pub async fn set_moderation_key(&self, tracker_id: i64, key: &str, audit: Option<&crate::Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query("UPDATE trackers SET moderation_key = $2 WHERE id = $1").bind(tracker_id).bind(key).execute(&mut *tx).await?;
        })
    }
}
