//! The filters every analytic page shares, and the SQL conditions they become on the post rows.

use hark_core::{Millis, PlatformSet};

/// The filters every analytic page shares: platforms, the range to the millisecond, post and
/// influencer tags, a subtracker. The dashboard's panels take it as it is; the posts page's
/// [`PostQuery`](crate::PostQuery) holds one with its own filters beside it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageFilter {
    pub platforms: PlatformSet,
    /// First millisecond included; None: from the beginning.
    pub start: Option<Millis>,
    /// Last millisecond included; None: up to now.
    pub end: Option<Millis>,
    pub post_tags: Vec<i64>,
    /// true: a post needs every tag (ALL); false: any one (ANY).
    pub post_tags_all: bool,
    /// Influencer tags of `influencer_tag_owner`: posts of the accounts they hold.
    pub influencer_tags: Vec<i64>,
    pub influencer_tags_all: bool,
    /// The user the influencer tags belong to (tags are private to their owner); another
    /// user's tag ids match no account. 0: nobody (an anonymous visitor has no tags).
    pub influencer_tag_owner: i64,
    /// 1-based subtracker index.
    pub subtracker: Option<u32>,
    /// Read the post rows for everything, never the rollups (the dashboard's reads): the
    /// baseline the benchmark compares against, and a second path for tests. No request sets it.
    pub rows_only: bool,
}

impl PageFilter {
    /// Whether the rollups can answer (no filter they do not record).
    pub fn rollups_apply(&self) -> bool {
        !self.rows_only && self.post_tags.is_empty() && self.influencer_tags.is_empty() && self.subtracker.is_none()
    }

    pub(crate) fn platform_list(&self) -> Option<String> {
        let v: Vec<String> = self.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        (!v.is_empty()).then(|| v.join(","))
    }

    /// Conditions on `tp` (tracker_posts) and `p` (posts) beyond tracker and time. Platform names
    /// come from a closed enum and tag ids are integers, so inlining them is safe.
    pub(crate) fn row_conditions(&self, backend: crate::Backend, list: &str) -> String {
        let mut c = format!(" AND {} AND tp.platform IN ({list})", backend.live_link("tp"));
        if let Some(i) = self.subtracker {
            c.push_str(&format!(" AND (tp.subtrackers & {}) <> 0", 1i64 << (i.clamp(1, 63) - 1)));
        }
        if !self.post_tags.is_empty() {
            let ids = join_ids(&self.post_tags);
            if self.post_tags_all {
                c.push_str(&format!(
                    " AND (SELECT COUNT(DISTINCT pt.tag_id) FROM post_tags pt WHERE pt.tracker_id = tp.tracker_id \
                     AND pt.post_id = tp.post_id AND pt.tag_id IN ({ids})) = {}",
                    distinct_len(&self.post_tags)
                ));
            } else {
                c.push_str(&format!(
                    " AND EXISTS (SELECT 1 FROM post_tags pt WHERE pt.tracker_id = tp.tracker_id \
                     AND pt.post_id = tp.post_id AND pt.tag_id IN ({ids}))"
                ));
            }
        }
        if !self.influencer_tags.is_empty() {
            let ids = join_ids(&self.influencer_tags);
            // An account is tagged under its author key: the username, or the account id when the
            // username is empty.
            let matches = format!(
                "ita.platform = tp.platform AND LOWER(ita.username) = LOWER({}) \
                 AND ita.tag_id IN (SELECT it.id FROM influencer_tags it WHERE it.owner_id = {})",
                crate::dashboard::AUTHOR_KEY,
                self.influencer_tag_owner
            );
            if self.influencer_tags_all {
                c.push_str(&format!(
                    " AND (SELECT COUNT(DISTINCT ita.tag_id) FROM influencer_tag_accounts ita WHERE {matches} \
                     AND ita.tag_id IN ({ids})) = {}",
                    distinct_len(&self.influencer_tags)
                ));
            } else {
                c.push_str(&format!(" AND EXISTS (SELECT 1 FROM influencer_tag_accounts ita WHERE {matches} AND ita.tag_id IN ({ids}))"));
            }
        }
        c
    }
}

fn join_ids(ids: &[i64]) -> String {
    ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

fn distinct_len(ids: &[i64]) -> usize {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

