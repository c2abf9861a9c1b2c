//! Post tags (a tracker's) and influencer tags (a user's account watchlist): one shape, two
//! owners, so every statement is written once for both.

use std::collections::HashMap;

use hark_core::Millis;

use crate::{with_pool, BeginWrite, Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagRow {
    pub id: i64,
    pub name: String,
    pub color: String,
}

/// Whose tags: a tracker's post tags or a user's influencer tags.
#[derive(Clone, Copy)]
enum Owner {
    Tracker(i64),
    User(i64),
}

impl Owner {
    /// (table, owner column, owner id). A taken name is a conflict on `tags_tracker_name_key` or
    /// `influencer_tags_owner_name_key`.
    fn parts(self) -> (&'static str, &'static str, i64) {
        match self {
            Owner::Tracker(id) => ("tags", "tracker_id", id),
            Owner::User(id) => ("influencer_tags", "owner_id", id),
        }
    }
}

impl Store {
    async fn list_tags(&self, o: Owner) -> Result<Vec<TagRow>> {
        let (table, col, id) = o.parts();
        let sql = format!("SELECT id, name, color FROM {table} WHERE {col} = $1 ORDER BY LOWER(name), id");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(&sql).bind(id).fetch_all(p).await?))
    }

    async fn insert_tag(&self, o: Owner, name: &str, color: &str, now: Millis) -> Result<TagRow> {
        let (table, col, id) = o.parts();
        let sql = format!("INSERT INTO {table} ({col}, name, color, created_at) VALUES ($1, $2, $3, $4) RETURNING id, name, color");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(&sql).bind(id).bind(name).bind(color).bind(now).fetch_one(p).await?))
    }

    async fn change_tag(&self, o: Owner, tag: i64, name: &str, color: &str) -> Result<Option<TagRow>> {
        let (table, col, id) = o.parts();
        let sql = format!("UPDATE {table} SET name = $1, color = $2 WHERE id = $3 AND {col} = $4 RETURNING id, name, color");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, TagRow>(&sql).bind(name).bind(color).bind(tag).bind(id).fetch_optional(p).await?))
    }

    async fn remove_tag(&self, o: Owner, tag: i64) -> Result<bool> {
        let (table, col, id) = o.parts();
        let sql = format!("DELETE FROM {table} WHERE id = $1 AND {col} = $2");
        Ok(with_pool!(self, |p| sqlx::query(&sql).bind(tag).bind(id).execute(p).await?.rows_affected() > 0))
    }

    /// A tracker's post tags, sorted by name.
    pub async fn tags(&self, tracker_id: i64) -> Result<Vec<TagRow>> {
        self.list_tags(Owner::Tracker(tracker_id)).await
    }

    /// A taken name is a conflict on `tags_tracker_name_key`.
    pub async fn create_tag(&self, tracker_id: i64, name: &str, color: &str, now: Millis) -> Result<TagRow> {
        self.insert_tag(Owner::Tracker(tracker_id), name, color, now).await
    }

    pub async fn update_tag(&self, tracker_id: i64, id: i64, name: &str, color: &str) -> Result<Option<TagRow>> {
        self.change_tag(Owner::Tracker(tracker_id), id, name, color).await
    }

    pub async fn delete_tag(&self, tracker_id: i64, id: i64) -> Result<bool> {
        self.remove_tag(Owner::Tracker(tracker_id), id).await
    }

    /// A user's influencer tags (the account watchlist), sorted by name.
    pub async fn influencer_tags(&self, owner_id: i64) -> Result<Vec<TagRow>> {
        self.list_tags(Owner::User(owner_id)).await
    }

    /// A taken name is a conflict on `influencer_tags_owner_name_key`.
    pub async fn create_influencer_tag(&self, owner_id: i64, name: &str, color: &str, now: Millis) -> Result<TagRow> {
        self.insert_tag(Owner::User(owner_id), name, color, now).await
    }

    pub async fn update_influencer_tag(&self, owner_id: i64, id: i64, name: &str, color: &str) -> Result<Option<TagRow>> {
        self.change_tag(Owner::User(owner_id), id, name, color).await
    }

    /// Deletes the tag and its accounts (cascade).
    pub async fn delete_influencer_tag(&self, owner_id: i64, id: i64) -> Result<bool> {
        self.remove_tag(Owner::User(owner_id), id).await
    }

    /// Adds and removes influencer tags of `owner_id` on accounts `(platform name, author key)`.
    /// Tag ids that are not the owner's are left out. Returns the (added, removed) account tags.
    pub async fn set_account_tags(&self, owner_id: i64, accounts: &[(String, String)], add: &[i64], remove: &[i64]) -> Result<(u64, u64)> {
        let mine: Vec<i64> = self.influencer_tags(owner_id).await?.into_iter().map(|t| t.id).collect();
        let add: Vec<i64> = add.iter().copied().filter(|t| mine.contains(t)).collect();
        let remove: Vec<i64> = remove.iter().copied().filter(|t| mine.contains(t)).collect();
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let (mut added, mut removed) = (0, 0);
            for (platform, author) in accounts {
                for t in &add {
                    added += sqlx::query(
                        "INSERT INTO influencer_tag_accounts (tag_id, platform, username) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(*t)
                    .bind(platform.as_str())
                    .bind(author.as_str())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                }
                for t in &remove {
                    removed += sqlx::query("DELETE FROM influencer_tag_accounts WHERE tag_id = $1 AND platform = $2 AND username = $3")
                        .bind(*t)
                        .bind(platform.as_str())
                        .bind(author.as_str())
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                }
            }
            tx.commit().await?;
            Ok((added, removed))
        })
    }

    /// The influencer tags of `owner_id` on each of some accounts `(platform name, author key)`,
    /// keyed by the accounts as given (a tag matches its account case aside, as the filter does).
    pub async fn account_tags(&self, owner_id: i64, accounts: &[(String, String)]) -> Result<HashMap<(String, String), Vec<i64>>> {
        let mut out: HashMap<(String, String), Vec<i64>> = HashMap::new();
        if accounts.is_empty() || owner_id == 0 {
            return Ok(out);
        }
        let sql = format!(
            "SELECT DISTINCT k.platform, k.author, a.tag_id FROM {} k \
             JOIN influencer_tag_accounts a ON a.platform = k.platform AND LOWER(a.username) = LOWER(k.author) \
             JOIN influencer_tags t ON t.id = a.tag_id WHERE t.owner_id = $2 ORDER BY 3",
            self.backend().account_set("$1")
        );
        for chunk in accounts.chunks(5000) {
            let json = serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into());
            let rows: Vec<(String, String, i64)> =
                with_pool!(self, |p| sqlx::query_as(&sql).bind(&json).bind(owner_id).fetch_all(p).await?);
            for (platform, author, tag) in rows {
                out.entry((platform, author)).or_default().push(tag);
            }
        }
        Ok(out)
    }
}
