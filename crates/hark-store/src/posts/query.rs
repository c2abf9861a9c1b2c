//! What the posts page asks for ([`PostQuery`]: filters, sort and page) and the SQL conditions it
//! becomes.


use super::plan::SearchPlan;
use crate::dialect::{int_list, Backend};
use crate::filter::PageFilter;
use crate::ingest::PostKind;

use crate::sentiment::SENTIMENT_BUCKETS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PostSort {
    #[default]
    Date,
    Engagement,
    Reach,
    EngagementRate,
    Impressions,
    Sentiment,
    User,
    Likes,
    Comments,
    Shares,
    Views,
    /// The post's text (the sentiment page's posts table): its first 16 characters lowercased,
    /// then time and post id.
    Text,
}

impl PostSort {
    /// Accepts the sort names of the posts page (and the spec's aliases).
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "created_at" | "date" => Self::Date,
            "engagement" | "engagements" | "rts_likes" => Self::Engagement,
            "reach" | "followers" => Self::Reach,
            "engagement_rate" => Self::EngagementRate,
            "impressions" => Self::Impressions,
            "sentiment" | "sentimentScore" => Self::Sentiment,
            "user" | "full_name" => Self::User,
            "likes" => Self::Likes,
            "comments" => Self::Comments,
            "shares" => Self::Shares,
            "views" => Self::Views,
            "post_text" | "postText" | "text" => Self::Text,
            _ => return None,
        })
    }

    pub(crate) fn column(self) -> &'static str {
        match self {
            Self::Date => "tp.created_at",
            Self::Engagement => "tp.engagement",
            Self::Reach => "tp.followers",
            Self::EngagementRate => "tp.rate",
            Self::Impressions => "tp.impressions",
            Self::Sentiment => "tp.sentiment",
            Self::User => "tp.author_sort",
            Self::Likes => "p.likes",
            Self::Comments => "p.comments",
            Self::Shares => "p.shares",
            Self::Views => "p.views",
            Self::Text => "tp.text_sort",
        }
    }

    /// The per-hour bound columns (`rollup_hourly.max_<name>` / `min_<name>`) of a numeric sort
    /// whose key is not kept on the link.
    pub(crate) fn bound(self) -> Option<&'static str> {
        Some(match self {
            Self::Likes => "likes",
            Self::Comments => "comments",
            Self::Shares => "shares",
            Self::Views => "views",
            _ => return None,
        })
    }

    /// A sort whose key is kept on the link (`tracker_posts.<column>`) with its index
    /// (tracker, platform, key, time, post): its column, index and value type.
    pub(crate) fn link_key(self) -> Option<(&'static str, &'static str, KeyKind)> {
        Some(match self {
            Self::Engagement => ("engagement", "tracker_posts_page_engagement_idx", KeyKind::Int),
            Self::Reach => ("followers", "tracker_posts_page_followers_idx", KeyKind::Int),
            Self::EngagementRate => ("rate", "tracker_posts_page_rate_idx", KeyKind::Real),
            Self::Impressions => ("impressions", "tracker_posts_page_impressions_idx", KeyKind::Int),
            Self::Sentiment => ("sentiment", "tracker_posts_page_sentiment_idx", KeyKind::Real),
            Self::User => ("author_sort", "tracker_posts_page_author_idx", KeyKind::Text),
            Self::Text => ("text_sort", "tracker_posts_page_text_idx", KeyKind::Text),
            _ => return None,
        })
    }

    /// The ORDER BY of the sort in a direction: the key, then (for keys on the link, as their
    /// index orders them) the time, then the post id, all in that direction.
    pub(crate) fn order_by(self, dir: &str) -> String {
        match self {
            Self::Date => format!("tp.created_at {dir}, tp.post_id {dir}"),
            s if s.link_key().is_some() => format!("{} {dir}, tp.created_at {dir}, tp.post_id {dir}", s.column()),
            s => format!("{} {dir}, tp.post_id {dir}", s.column()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    Int,
    Real,
    Text,
}

/// Filters, sort and page of the posts page.
#[derive(Debug, Clone, Default)]
pub struct PostQuery {
    /// The filters every page shares (its `rows_only` is not read here).
    pub filter: PageFilter,
    pub search: String,
    /// Sentiment buckets to keep (empty: all).
    pub sentiment: Vec<&'static str>,
    pub exclude_retweets: bool,
    pub stories_only: bool,
    pub sort: PostSort,
    pub ascending: bool,
    pub page: i64,
    pub per_page: i64,
}

/// The words of a text as both search indexes hold them: everything but letters and digits
/// separates words (SQLite's FTS5 tokeniser does the same; PostgreSQL's document is made from these,
/// [`pg_document`]).
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())
}

/// Words of a search, lowercased.
pub fn search_words(s: &str) -> Vec<String> {
    words(s).take(16).map(|w| w.to_lowercase()).collect()
}

/// PostgreSQL's longest lexeme and longest document, in bytes (a `tsvector` refuses more).
const PG_LEXEME_MAX: usize = 2047;
const PG_DOCUMENT_MAX: usize = 1_000_000;

/// A post's search document on PostgreSQL, as a `tsvector` literal: the words of its fields,
/// lowercased, each once, without positions (searches are words ANDed). Made here rather than by
/// `to_tsvector` in the database, whose parser cost the database about 9 µs a post (nearly what
/// the GIN index costs) and split text otherwise than SQLite's index (a search for "co" did not
/// find "t.co"). A word is letters and digits only, so it never needs escaping inside its quotes.
pub(crate) fn pg_document(fields: &[&str]) -> String {
    let mut list: Vec<String> = fields.iter().flat_map(|f| words(f)).map(str::to_lowercase).collect();
    list.sort_unstable();
    list.dedup();
    let mut out = String::with_capacity(list.iter().map(|w| w.len() + 3).sum());
    for w in list.iter().filter(|w| w.len() <= PG_LEXEME_MAX) {
        if out.len() + w.len() + 3 > PG_DOCUMENT_MAX {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push('\'');
        out.push_str(w);
        out.push('\'');
    }
    out
}

/// A search's match expression, bound as the statement's search parameter: on SQLite quoted
/// tokens (implicitly ANDed); on PostgreSQL a `tsquery` literal of the same words ANDed, cast by
/// the statement (`$n::tsquery`), lowercased as [`pg_document`] lowercases.
pub(crate) fn match_expr(backend: Backend, search: &str) -> String {
    let words = search_words(search);
    match backend {
        Backend::Sqlite => words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" "),
        Backend::Postgres => words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" & "),
    }
}


impl PostQuery {
    /// The page's first post (0-based) and its size (1 to 1,000).
    pub(crate) fn window(&self) -> (i64, i64) {
        let per_page = self.per_page.clamp(1, 1000);
        ((self.page.max(1) - 1).saturating_mul(per_page), per_page)
    }

    /// No filter but the platforms and the range: no search, tags, influencer tags, sentiment
    /// (all five buckets count as none), retweets, stories or subtracker.
    pub(crate) fn platforms_only(&self) -> bool {
        search_words(&self.search).is_empty()
            && self.filter.post_tags.is_empty()
            && self.filter.influencer_tags.is_empty()
            && self.bucket_list().is_none()
            && !self.exclude_retweets
            && !self.stories_only
            && self.subtracker_bit().is_none()
    }

    /// The bit of the subtracker filtered on, if any.
    pub(crate) fn subtracker_bit(&self) -> Option<i64> {
        self.filter.subtracker.filter(|n| (1..=63).contains(n)).map(|n| 1i64 << (n - 1))
    }

    /// The sentiment buckets kept, quoted for SQL, when the filter drops some.
    pub(crate) fn bucket_list(&self) -> Option<String> {
        (!self.sentiment.is_empty() && self.sentiment.len() < SENTIMENT_BUCKETS.len())
            .then(|| self.sentiment.iter().map(|b| format!("'{b}'")).collect::<Vec<_>>().join(","))
    }

    pub(crate) fn platform_list(&self) -> Option<String> {
        let platforms: Vec<String> = self.filter.platforms.iter().map(|p| format!("'{}'", p.name())).collect();
        (!platforms.is_empty()).then(|| platforms.join(","))
    }

    /// The WHERE clause (parameters: $1 tracker, $2 start, $3 end, $4 search) and whether it
    /// reads `posts p`.
    pub(crate) fn where_clause(&self, backend: Backend, plan: SearchPlan) -> Option<(String, bool)> {
        self.where_with(backend, plan, false, None)
    }

    /// `unindexed`: the range is not read from the time index (the caller gives the rows some
    /// other way). `ids`: on SQLite, a search's matches are read in this post id range only.
    pub(crate) fn where_with(&self, backend: Backend, plan: SearchPlan, unindexed: bool, ids: Option<(i64, i64)>) -> Option<(String, bool)> {
        self.where_between(backend, plan, unindexed, ids, ("$2", "$3"))
    }

    /// As [`Self::where_with`], the range's first and last times given by these expressions.
    pub(crate) fn where_between(
        &self,
        backend: Backend,
        plan: SearchPlan,
        unindexed: bool,
        ids: Option<(i64, i64)>,
        (lo, hi): (&str, &str),
    ) -> Option<(String, bool)> {
        let platforms = self.platform_list()?;
        // Driven from a small set of post ids (tags, a rare search): on SQLite the time index is
        // kept out of the plan (`+`), so the (tracker, post) key is used for each id.
        let driven = unindexed || plan == SearchPlan::Ids || !self.filter.post_tags.is_empty();
        let time = if driven && backend == Backend::Sqlite { "+tp.created_at" } else { "tp.created_at" };
        // Inlined values come from closed sets (platform names, buckets) or are integers.
        let live = backend.live_in_range("$1", (lo, hi));
        let mut w =
            format!("tp.tracker_id = $1 AND {live} AND {time} >= {lo} AND {time} <= {hi} AND tp.platform IN ({platforms})");
        let mut needs_posts = false;
        if plan != SearchPlan::None {
            match (backend, plan) {
                (Backend::Sqlite, SearchPlan::Ids) => {
                    w.push_str(" AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $4)")
                }
                (Backend::Sqlite, _) if ids.is_some() => {
                    let (lo, hi) = ids.unwrap_or_default();
                    w.push_str(&format!(
                        " AND tp.post_id IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $4 AND rowid >= {lo} AND rowid <= {hi})"
                    ))
                }
                (Backend::Sqlite, _) => {
                    w.push_str(" AND EXISTS (SELECT 1 FROM posts_fts WHERE posts_fts MATCH $4 AND posts_fts.rowid = tp.post_id)")
                }
                (Backend::Postgres, _) => {
                    needs_posts = true;
                    w.push_str(" AND p.fts @@ $4::tsquery");
                }
            }
        }
        if let Some(list) = self.bucket_list() {
            // The bucket shown (edit, else rule, else the analysed one) is kept on the link.
            w.push_str(&format!(" AND tp.bucket IN ({list})"));
        }
        // Retweets (twitter's) and stories (instagram's) are marked on the link (migration 0015).
        if self.exclude_retweets {
            w.push_str(&format!(" AND tp.post_kind <> {}", PostKind::Retweet as i16));
        }
        if self.stories_only {
            w.push_str(&format!(" AND tp.post_kind = {}", PostKind::Story as i16));
        }
        if !self.filter.post_tags.is_empty() {
            // Driven from the tag side (post_tags_tag_idx): a few tagged posts among a million
            // are found without visiting the others.
            let list = int_list(&self.filter.post_tags);
            let having = if self.filter.post_tags_all {
                format!(" GROUP BY pt.post_id HAVING COUNT(*) = {}", self.filter.post_tags.len())
            } else {
                String::new()
            };
            w.push_str(&format!(
                " AND tp.post_id IN (SELECT pt.post_id FROM post_tags pt WHERE pt.tag_id IN ({list}) \
                 AND pt.tracker_id = $1{having})"
            ));
        }
        if !self.filter.influencer_tags.is_empty() {
            needs_posts = true;
            let list = int_list(&self.filter.influencer_tags);
            let accounts = format!(
                "FROM influencer_tag_accounts a JOIN influencer_tags it ON it.id = a.tag_id WHERE it.owner_id = {} \
                 AND a.tag_id IN ({list}) AND a.platform = p.platform AND LOWER(a.username) = LOWER(p.author_username)",
                self.filter.influencer_tag_owner
            );
            if self.filter.influencer_tags_all {
                w.push_str(&format!(" AND (SELECT COUNT(DISTINCT a.tag_id) {accounts}) = {}", self.filter.influencer_tags.len()));
            } else {
                w.push_str(&format!(" AND EXISTS (SELECT 1 {accounts})"));
            }
        }
        if let Some(bit) = self.subtracker_bit() {
            w.push_str(&format!(" AND (tp.subtrackers & {bit}) <> 0"));
        }
        Some((w, needs_posts))
    }

    pub(crate) fn match_expr(&self, backend: Backend) -> String {
        match_expr(backend, &self.search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_hold_each_lowercased_word_once() {
        assert_eq!(pg_document(&["Coffee, coffee & TEA at t.co/x9", "", "Ana Café", "ana_cafe", ""]), "'ana' 'at' 'cafe' 'café' 'co' 'coffee' 't' 'tea' 'x9'");
        assert_eq!(pg_document(&["", "!!", ""]), "");
        // PostgreSQL refuses a lexeme over 2,047 bytes and a document over about 1 MB: the long
        // word is left out, and words past the limit are.
        let long = "x".repeat(PG_LEXEME_MAX + 1);
        assert_eq!(pg_document(&[&format!("{long} short")]), "'short'");
        let many: String = (0..200_000).map(|i| format!("w{i} ")).collect();
        let doc = pg_document(&[&many]);
        assert!(doc.len() <= PG_DOCUMENT_MAX && doc.len() > PG_DOCUMENT_MAX - 20, "{}", doc.len());
    }

    #[test]
    fn searches_are_the_same_words_on_both_databases() {
        assert_eq!(match_expr(Backend::Sqlite, "Café t.co!"), "\"café\" \"t\" \"co\"");
        assert_eq!(match_expr(Backend::Postgres, "Café t.co!"), "'café' & 't' & 'co'");
    }
}
