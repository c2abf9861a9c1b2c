//! Store methods only tests use (the `testing` feature, or the crate's own unit tests): second
//! paths to check the fast ones against, and fixtures the app makes by other routes.

use crate::posts::{PostQuery, PostRow};
use crate::{with_pool, Result, Store};

impl Store {
    /// The exact number of posts matching the filters, counted over the post rows (the totals
    /// the page shows are checked against it).
    pub async fn count_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<i64> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.count_rows(tracker_id, q, plan, q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX), None).await
    }

    /// The same page by the plain plan (every matching post sorted), to check the others against.
    pub async fn query_post_page_plain(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.post_page(tracker_id, q, false, plan).await
    }

    /// Puts a post tag on a tracker's post (idempotent).
    pub async fn tag_tracker_post(&self, tracker_id: i64, post_id: i64, tag_id: i64) -> Result<()> {
        with_pool!(self, |p| {
            sqlx::query("INSERT INTO post_tags (tracker_id, post_id, tag_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(tracker_id)
                .bind(post_id)
                .bind(tag_id)
                .execute(p)
                .await
                .map(|_| ())?
        });
        Ok(())
    }

    /// The same store ranking influencers by SQL alone, as for a tracker too large to index.
    pub fn without_author_index(&self) -> Store {
        Store { use_author_index: false, ..self.clone() }
    }
}
