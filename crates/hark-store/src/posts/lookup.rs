//! Small reads of a tracker's posts: their count, their tags, ids by post key, a stored post by
//! key or address.

use hark_core::{Millis, PlatformSet, Post};

use crate::filter::PageFilter;
use crate::dialect::json_ids;
use crate::{with_pool, Result, Store, POST_ROW_COLUMNS};

impl Store {
    /// (post id, tag id) pairs of some posts of a tracker.
    pub async fn tags_of_posts(&self, tracker_id: i64, post_ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        if post_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT post_id, tag_id FROM post_tags WHERE tracker_id = $1 AND post_id IN ({}) ORDER BY post_id, tag_id",
            self.backend().id_set("$2")
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
        let set = self.backend().text_set("$2");
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
}

/// The part of the page filters that a post count honours.
#[derive(Debug, Clone)]
pub struct PostCountFilter {
    pub platforms: PlatformSet,
    pub start: Option<Millis>,
    pub end: Option<Millis>,
}

impl Store {
    /// Posts of a tracker that are not deleted, within the filter: whole hours from the hourly
    /// rollup and the partial first and last hours from the post rows (the dashboard's posts
    /// figure; a count over every row of a month took hundreds of milliseconds at a million posts).
    pub async fn count_tracker_posts(&self, tracker_id: i64, f: &PostCountFilter) -> Result<i64> {
        let d = PageFilter { platforms: f.platforms, start: f.start, end: f.end, ..Default::default() };
        Ok(self.dash_counts(tracker_id, &d).await?.posts)
    }
}
