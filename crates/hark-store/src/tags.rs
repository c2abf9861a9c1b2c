use hark_core::Millis;

use crate::{with_pool, Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagRow {
    pub id: i64,
    pub name: String,
    pub color: String,
}

impl Store {
    /// A tracker's post tags, sorted by name.
    pub async fn tags(&self, tracker_id: i64) -> Result<Vec<TagRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(
            "SELECT id, name, color FROM tags WHERE tracker_id = $1 ORDER BY LOWER(name), id"
        )
        .bind(tracker_id)
        .fetch_all(p)
        .await?))
    }

    /// A taken name is a conflict on `tags_tracker_name_key`.
    pub async fn create_tag(&self, tracker_id: i64, name: &str, color: &str, now: Millis) -> Result<TagRow> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(
            "INSERT INTO tags (tracker_id, name, color, created_at) VALUES ($1, $2, $3, $4) RETURNING id, name, color"
        )
        .bind(tracker_id)
        .bind(name)
        .bind(color)
        .bind(now)
        .fetch_one(p)
        .await?))
    }

    pub async fn update_tag(&self, tracker_id: i64, id: i64, name: &str, color: &str) -> Result<Option<TagRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(
            "UPDATE tags SET name = $1, color = $2 WHERE id = $3 AND tracker_id = $4 RETURNING id, name, color"
        )
        .bind(name)
        .bind(color)
        .bind(id)
        .bind(tracker_id)
        .fetch_optional(p)
        .await?))
    }

    pub async fn delete_tag(&self, tracker_id: i64, id: i64) -> Result<bool> {
        Ok(with_pool!(self, |p| sqlx::query("DELETE FROM tags WHERE id = $1 AND tracker_id = $2")
            .bind(id)
            .bind(tracker_id)
            .execute(p)
            .await?
            .rows_affected()
            > 0))
    }

    /// A user's influencer tags (the account watchlist), sorted by name.
    pub async fn influencer_tags(&self, owner_id: i64) -> Result<Vec<TagRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(
            "SELECT id, name, color FROM influencer_tags WHERE owner_id = $1 ORDER BY LOWER(name), id"
        )
        .bind(owner_id)
        .fetch_all(p)
        .await?))
    }
}
