//! Top posts and the side views' post lists.

use super::terms::{json_kind, TermsRef};
use super::{PageFilter, FAR, FROM_ROWS};
use crate::{with_pool, Result, Store};

/// Above this many posts in the range, top posts walk the engagement index instead of sorting.
const TOP_POSTS_SCAN: i64 = 20_000;

/// A post as the dashboard lists it (side views, top posts): the API returns it as it is.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardPost {
    pub id: i64,
    pub platform: String,
    pub external_id: String,
    pub created_at: i64,
    pub author_username: String,
    pub author_name: String,
    pub author_avatar: Option<String>,
    pub author_followers: i64,
    pub text: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub likes: i64,
    pub shares: i64,
    pub comments: i64,
    pub views: i64,
    pub dislikes: i64,
    pub engagement: i64,
    /// The sentiment level shown (a manual edit first).
    pub sentiment: Option<String>,
}

pub(crate) const POST_FIELDS: &str = "p.id, p.platform, p.external_id, tp.created_at, p.author_username, p.author_name, \
     p.author_avatar, p.author_followers, p.text, p.title, p.url, p.likes, p.shares, p.comments, p.views, p.dislikes, \
     p.engagement, COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket) AS sentiment";

impl Store {
    /// The most engaging posts in the range. Over many posts they are read in the order of
    /// `tracker_posts_engagement_idx` (stopping at `limit` posts of the range); a range with few
    /// posts is read by time and sorted.
    pub async fn dash_top_posts(&self, tracker_id: i64, f: &PageFilter, limit: i64) -> Result<Vec<DashboardPost>> {
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        let cond = f.row_conditions(self.backend(), &list);
        let by_engagement = f.rollups_apply() && self.dash_counts(tracker_id, f).await?.posts > TOP_POSTS_SCAN;
        let from = if by_engagement && self.backend() == crate::Backend::Sqlite {
            FROM_ROWS.replace("tracker_posts tp", "tracker_posts tp INDEXED BY tracker_posts_engagement_idx")
        } else {
            FROM_ROWS.to_string()
        };
        // The baseline sorts on the post rows themselves.
        let order =
            if f.rows_only { "p.engagement DESC, tp.created_at DESC, p.id" } else { "tp.engagement DESC, tp.created_at DESC, tp.post_id" };
        let sql = format!("SELECT {POST_FIELDS} {from}{cond} ORDER BY {order} LIMIT $4");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, DashboardPost>(&sql)
            .bind(tracker_id)
            .bind(f.start.unwrap_or(-FAR))
            .bind(f.end.unwrap_or(FAR))
            .bind(limit)
            .fetch_all(p)
            .await?))
    }

    /// Posts in the range, newest first, a page at a time; with the total. `term` keeps the posts
    /// whose `kind` list (hashtag or keyword) holds it.
    pub async fn dash_posts(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        term: Option<(&str, &str)>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<DashboardPost>, i64)> {
        let Some(list) = f.platform_list() else {
            return Ok((vec![], 0));
        };
        let mut cond = f.row_conditions(self.backend(), &list);
        let mut pattern = String::new();
        if let Some((kind, t)) = term {
            // A cheap pre-filter on the JSON text (LIKE wildcards in the term only widen it); the
            // exact check runs on the decoded terms below.
            let _ = kind;
            cond.push_str(" AND p.terms LIKE $4");
            pattern = format!("%{}%", serde_json::to_string(t).unwrap_or_default());
        }
        let (start, end) = (f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR));
        if let Some((kind, t)) = term {
            // Exact membership needs the decoded list, so the page is cut after filtering.
            let sql = format!("SELECT {POST_FIELDS}, p.terms {FROM_ROWS}{cond} ORDER BY tp.created_at DESC, p.id DESC");
            let kind = if json_kind(kind) { kind } else { "keyword" };
            let rows: Vec<(DashboardPost, String)> = with_pool!(self, |p| {
                use sqlx::Row;
                let rows = sqlx::query(&sql).bind(tracker_id).bind(start).bind(end).bind(&pattern).fetch_all(p).await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in rows {
                    let post = <DashboardPost as sqlx::FromRow<_>>::from_row(&r)?;
                    let terms: String = r.try_get("terms")?;
                    out.push((post, terms));
                }
                out
            });
            let matching: Vec<DashboardPost> = rows
                .into_iter()
                .filter(|(_, json)| {
                    let terms: TermsRef = serde_json::from_str(json).unwrap_or_default();
                    terms.of(kind).iter().any(|x| x == t)
                })
                .map(|(p, _)| p)
                .collect();
            let total = matching.len() as i64;
            let page = matching.into_iter().skip(offset.max(0) as usize).take(limit.max(0) as usize).collect();
            return Ok((page, total));
        }
        let sql = format!("SELECT {POST_FIELDS} {FROM_ROWS}{cond} ORDER BY tp.created_at DESC, p.id DESC LIMIT $4 OFFSET $5");
        let count = format!("SELECT COUNT(*) {FROM_ROWS}{cond}");
        with_pool!(self, |p| {
            let posts = sqlx::query_as::<_, DashboardPost>(&sql)
                .bind(tracker_id)
                .bind(start)
                .bind(end)
                .bind(limit)
                .bind(offset)
                .fetch_all(p)
                .await?;
            let total: i64 = sqlx::query_scalar(&count).bind(tracker_id).bind(start).bind(end).fetch_one(p).await?;
            Ok((posts, total))
        })
    }
}
