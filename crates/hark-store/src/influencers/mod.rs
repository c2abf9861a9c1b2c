//! The influencers page: a tracker's accounts ranked for the page's filters, and one account's
//! posts (the side view).
//!
//! An account's activity in a range comes from the author day rollups (`rollup_authors`), held in
//! memory per tracker by [`index`] and summed there for the whole days, plus the partial days
//! from the post rows; filters the rollups do not record (post tags, influencer tags, a
//! subtracker) read the post rows for the whole range, as does a tracker too large to index. Every
//! account of the range is measured, so any sort and any count filter is exact. Names, pictures,
//! bios and locations come from `author_profiles` (each account's newest post): the index holds
//! what ranking needs of them, and the page's rows read theirs.

mod index;

pub(crate) use index::AuthorIndexes;

use std::cmp::Ordering;
use std::collections::HashMap;

use hark_core::{text::fold, Platform};

use crate::dashboard::authors::{activity_of, Activity, ActivityRow, AuthorKey};
use crate::dashboard::FAR;
use crate::filter::PageFilter;
use crate::posts::PostRow;
use crate::{with_pool, Result, Store};

/// The orders the page offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InfluencerSort {
    Name,
    Platform,
    Posts,
    Engagement,
    AvgEngagement,
    Followers,
    Reach,
    EngagementRate,
    Impressions,
}

impl InfluencerSort {
    pub const ALL: [InfluencerSort; 9] = [
        InfluencerSort::Name,
        InfluencerSort::Platform,
        InfluencerSort::Posts,
        InfluencerSort::Engagement,
        InfluencerSort::AvgEngagement,
        InfluencerSort::Followers,
        InfluencerSort::Reach,
        InfluencerSort::EngagementRate,
        InfluencerSort::Impressions,
    ];

    /// The name in the API's `sort` parameter.
    pub fn name(self) -> &'static str {
        match self {
            InfluencerSort::Name => "name",
            InfluencerSort::Platform => "platform",
            InfluencerSort::Posts => "posts",
            InfluencerSort::Engagement => "engagement",
            InfluencerSort::AvgEngagement => "avgEngagement",
            InfluencerSort::Followers => "followers",
            InfluencerSort::Reach => "reach",
            InfluencerSort::EngagementRate => "engagementRate",
            InfluencerSort::Impressions => "impressions",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// The figures a count filter bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountField {
    Followers,
    Engagement,
    Posts,
    Impressions,
}

impl CountField {
    pub const ALL: [CountField; 4] = [CountField::Followers, CountField::Engagement, CountField::Posts, CountField::Impressions];

    pub fn name(self) -> &'static str {
        match self {
            CountField::Followers => "followers",
            CountField::Engagement => "engagement",
            CountField::Posts => "posts",
            CountField::Impressions => "impressions",
        }
    }

    fn of(self, a: &Activity) -> i64 {
        match self {
            CountField::Followers => a.followers,
            CountField::Engagement => a.engagement,
            CountField::Posts => a.posts,
            CountField::Impressions => a.impressions,
        }
    }
}

/// `field > count` (greater) or `field < count` (lesser).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountFilter {
    pub field: CountField,
    pub greater: bool,
    pub count: i64,
}

impl CountFilter {
    fn keeps(&self, a: &Activity) -> bool {
        let v = self.field.of(a);
        if self.greater {
            v > self.count
        } else {
            v < self.count
        }
    }
}

/// What the influencers page asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct InfluencerQuery {
    pub filter: PageFilter,
    /// Words that must each appear in the name, username or bio (case and accents aside).
    pub search: String,
    /// Text the bio must contain.
    pub bio: String,
    /// Text the location must contain.
    pub location: String,
    pub counts: Vec<CountFilter>,
    pub sort: InfluencerSort,
    pub ascending: bool,
    /// 1-based.
    pub page: i64,
    pub per_page: i64,
}

impl InfluencerQuery {
    pub fn new(filter: PageFilter) -> Self {
        Self {
            filter,
            search: String::new(),
            bio: String::new(),
            location: String::new(),
            counts: Vec::new(),
            sort: InfluencerSort::Engagement,
            ascending: false,
            page: 1,
            per_page: 25,
        }
    }

    fn has_text_filter(&self) -> bool {
        !self.search.trim().is_empty() || !self.bio.trim().is_empty() || !self.location.trim().is_empty()
    }
}

/// An account's profile, from its newest post.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub author_id: String,
    pub username: String,
    pub name: String,
    pub avatar: Option<String>,
    pub bio: Option<String>,
    pub location: Option<String>,
    pub verified: bool,
    /// The follower count of the newest post.
    pub followers: i64,
}

/// One account of the page with its figures in the range.
#[derive(Debug, Clone, PartialEq)]
pub struct InfluencerRow {
    pub platform: Platform,
    /// The author key: the username, or the account id when the username is empty.
    pub author: String,
    pub profile: Profile,
    pub posts: i64,
    pub engagement: i64,
    /// The account's follower count now (its newest post's).
    pub followers: i64,
    /// Follower counts of the posts, summed.
    pub reach: i64,
    pub impressions: i64,
    /// The viewer's influencer tags on the account.
    pub tags: Vec<i64>,
}

impl InfluencerRow {
    pub fn avg_engagement(&self) -> f64 {
        avg_engagement(self.posts, self.engagement)
    }

    /// Average engagement of a post over the followers, as a percentage; None without followers.
    pub fn engagement_rate(&self) -> Option<f64> {
        engagement_rate(self.posts, self.engagement, self.followers)
    }
}

fn avg_engagement(posts: i64, engagement: i64) -> f64 {
    if posts > 0 {
        engagement as f64 / posts as f64
    } else {
        0.0
    }
}

fn engagement_rate(posts: i64, engagement: i64, followers: i64) -> Option<f64> {
    (followers > 0 && posts > 0).then(|| avg_engagement(posts, engagement) / followers as f64 * 100.0)
}

#[derive(Debug, Clone, PartialEq)]
pub struct InfluencerPage {
    pub rows: Vec<InfluencerRow>,
    /// Accounts that pass the filters.
    pub total: i64,
}

/// Orders of an account's posts in the side view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountPostSort {
    Date,
    Engagement,
    Reach,
    EngagementRate,
}

impl AccountPostSort {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "created_at" | "date" => Some(Self::Date),
            "engagement" | "engagements" => Some(Self::Engagement),
            "reach" => Some(Self::Reach),
            "engagement_rate" => Some(Self::EngagementRate),
            _ => None,
        }
    }

    fn column(self) -> &'static str {
        match self {
            Self::Date => "tp.created_at",
            Self::Engagement => "p.engagement",
            Self::Reach => "p.author_followers",
            // The same place for a post without a rate on both databases.
            Self::EngagementRate => "COALESCE(p.engagement_rate, -1)",
        }
    }
}

/// Ranks accounts in place: by the sort key, then platform and author (a total order, so pages
/// neither skip nor repeat). `names` (the name order only) holds each account's folded name, in
/// the order of `v`.
fn rank(v: &mut Vec<(AuthorKey, Activity)>, sort: InfluencerSort, ascending: bool, names: &[&str]) {
    let dir = |o: Ordering| if ascending { o } else { o.reverse() };
    if sort == InfluencerSort::Name {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&i, &j| dir(names[i].cmp(names[j])).then_with(|| v[i].0.cmp(&v[j].0)));
        let mut slots: Vec<Option<(AuthorKey, Activity)>> = v.drain(..).map(Some).collect();
        v.extend(order.into_iter().filter_map(|i| slots[i].take()));
        return;
    }
    let by = |a: &(AuthorKey, Activity), b: &(AuthorKey, Activity)| -> Ordering {
        let (x, y) = (&a.1, &b.1);
        match sort {
            InfluencerSort::Name | InfluencerSort::Platform => a.0 .0.cmp(&b.0 .0),
            InfluencerSort::Posts => x.posts.cmp(&y.posts),
            InfluencerSort::Engagement => x.engagement.cmp(&y.engagement),
            InfluencerSort::AvgEngagement => avg_engagement(x.posts, x.engagement).total_cmp(&avg_engagement(y.posts, y.engagement)),
            InfluencerSort::Followers => x.followers.cmp(&y.followers),
            InfluencerSort::Reach => x.reach.cmp(&y.reach),
            InfluencerSort::EngagementRate => {
                let r = |s: &Activity| engagement_rate(s.posts, s.engagement, s.followers).unwrap_or(-1.0);
                r(x).total_cmp(&r(y))
            }
            InfluencerSort::Impressions => x.impressions.cmp(&y.impressions),
        }
    };
    v.sort_by(|a, b| dir(by(a, b)).then_with(|| a.0.cmp(&b.0)));
}

/// Whether a profile passes the text filters (already folded).
fn text_keeps(p: Option<&Profile>, author: &str, words: &[String], bio: &str, location: &str) -> bool {
    let empty = Profile::default();
    let p = p.unwrap_or(&empty);
    if !words.is_empty() {
        let hay = fold(&format!("{} {} {} {}", p.name, p.username, author, p.bio.as_deref().unwrap_or("")));
        if !words.iter().all(|w| hay.contains(w.as_str())) {
            return false;
        }
    }
    if !bio.is_empty() && !fold(p.bio.as_deref().unwrap_or("")).contains(bio) {
        return false;
    }
    if !location.is_empty() && !fold(p.location.as_deref().unwrap_or("")).contains(location) {
        return false;
    }
    true
}

type ProfileRow = (String, String, String, String, String, Option<String>, Option<String>, Option<String>, bool, i64);

impl Store {
    /// Every account with posts in the range and the page filter, with its activity.
    pub(crate) async fn account_activity(&self, tracker_id: i64, f: &PageFilter) -> Result<HashMap<AuthorKey, Activity>> {
        let Some(list) = f.platform_list() else {
            return Ok(HashMap::new());
        };
        let mut acc: HashMap<AuthorKey, Activity> = if !f.rollups_apply() {
            self.author_rows(tracker_id, f, &list, &[(f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR))]).await?
        } else if f.start.is_none() && f.end.is_none() {
            let sql = format!(
                "SELECT platform, author, posts, engagement, followers, reach, impressions FROM rollup_author_totals \
                 WHERE tracker_id = $1 AND platform IN ({list}) AND posts > 0"
            );
            let rows: Vec<ActivityRow> = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).fetch_all(p).await?);
            rows.into_iter().map(|r| ((r.0.clone(), r.1.clone()), activity_of(&r))).collect()
        } else {
            let pieces = self.widened_pieces(tracker_id, f).await?;
            let days = async {
                let Some((a, b)) = pieces.days else { return Ok(Vec::new()) };
                let sql = format!(
                    "SELECT platform, author, CAST(SUM(posts) AS BIGINT), CAST(SUM(engagement) AS BIGINT), \
                     CAST(MAX(followers) AS BIGINT), CAST(SUM(reach) AS BIGINT), CAST(SUM(impressions) AS BIGINT) \
                     FROM rollup_authors WHERE tracker_id = $1 AND day >= $2 AND day < $3 AND platform IN ({list}) \
                     GROUP BY platform, author"
                );
                let rows: Vec<ActivityRow> =
                    with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
                Ok(rows)
            };
            let (rows, mut edges) = tokio::try_join!(days, self.author_rows(tracker_id, f, &list, &pieces.rows))?;
            for r in rows {
                let a = activity_of(&r);
                edges.entry((r.0, r.1)).or_default().add(a);
            }
            edges
        };
        acc.retain(|_, a| a.posts > 0);
        Ok(acc)
    }

    /// Profiles of some accounts (platform name, author key); an account without one is absent.
    pub async fn author_profiles(&self, keys: &[AuthorKey]) -> Result<HashMap<AuthorKey, Profile>> {
        let mut out = HashMap::with_capacity(keys.len());
        let set = self.backend().account_set("$1");
        let sql = format!(
            "SELECT a.platform, a.author, a.author_id, a.username, a.name, a.avatar, a.bio, a.location, a.verified, a.followers \
             FROM {set} k JOIN author_profiles a ON a.platform = k.platform AND a.author = k.author"
        );
        for chunk in keys.chunks(5000) {
            let json = serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into());
            let rows: Vec<ProfileRow> = with_pool!(self, |p| sqlx::query_as(&sql).bind(&json).fetch_all(p).await?);
            for r in rows {
                out.insert(
                    (r.0, r.1),
                    Profile {
                        author_id: r.2,
                        username: r.3,
                        name: r.4,
                        avatar: r.5,
                        bio: r.6,
                        location: r.7,
                        verified: r.8,
                        followers: r.9,
                    },
                );
            }
        }
        Ok(out)
    }

    /// The whole days of a range (for the author index) and the activity of its partial days,
    /// from the post rows; read before the index is locked.
    pub(crate) async fn index_pieces(&self, tracker_id: i64, f: &PageFilter) -> Result<(Option<(i64, i64)>, HashMap<AuthorKey, Activity>)> {
        if f.start.is_none() && f.end.is_none() {
            return Ok((Some((i64::MIN, i64::MAX)), HashMap::new()));
        }
        let pieces = self.widened_pieces(tracker_id, f).await?;
        let edges = match f.platform_list() {
            Some(list) if !pieces.rows.is_empty() => self.author_rows(tracker_id, f, &list, &pieces.rows).await?,
            _ => HashMap::new(),
        };
        Ok((pieces.days, edges))
    }
}

/// The accounts passing the query's filters, in its order, ranked in the tracker's author index
/// (see [`index`]) from the range's pieces ([`Store::index_pieces`]); only for filters the rollups
/// record.
fn ranked_in_index(
    q: &InfluencerQuery,
    idx: &index::TrackerAuthors,
    days: Option<(i64, i64)>,
    edges: HashMap<AuthorKey, Activity>,
) -> Vec<(AuthorKey, Activity)> {
    let (acts, extra) = idx.range_activity(days, edges, q.filter.platforms);
    let words: Vec<String> = fold(&q.search).split_whitespace().map(str::to_string).collect();
    let (bio, location) = (fold(q.bio.trim()), fold(q.location.trim()));
    let text = q.has_text_filter();
    let by_name = q.sort == InfluencerSort::Name;
    let mut names: Vec<std::borrow::Cow<str>> = Vec::new();
    let mut v: Vec<(AuthorKey, Activity)> = Vec::new();
    for (i, mut a) in acts.into_iter().enumerate() {
        if a.posts <= 0 {
            continue;
        }
        let card = idx.cards[i].as_ref();
        if let Some(c) = card {
            a.followers = c.followers;
        }
        if !q.counts.iter().all(|c| c.keeps(&a)) {
            continue;
        }
        let key = &idx.keys[i];
        if text {
            let keeps = match card {
                Some(c) => {
                    words.iter().all(|w| c.hay.contains(w.as_str())) && c.bio.contains(&bio) && c.location.contains(&location)
                }
                None => text_keeps(None, &key.1, &words, &bio, &location),
            };
            if !keeps {
                continue;
            }
        }
        if by_name {
            names.push(card.map_or_else(|| fold(&key.1).into(), |c| c.name.as_str().into()));
        }
        v.push((key.clone(), a));
    }
    for (k, a) in extra {
        if a.posts > 0 && q.counts.iter().all(|c| c.keeps(&a)) && (!text || text_keeps(None, &k.1, &words, &bio, &location)) {
            if by_name {
                names.push(fold(&k.1).into());
            }
            v.push((k, a));
        }
    }
    let names: Vec<&str> = names.iter().map(|n| n.as_ref()).collect();
    rank(&mut v, q.sort, q.ascending, &names);
    v
}

impl Store {
    /// The accounts passing the query's filters, in its order, with the profiles read on the
    /// way (on the SQL path: all of them when a text filter, the name order or followers needed
    /// them, else none).
    async fn ranked_accounts(&self, tracker_id: i64, q: &InfluencerQuery) -> Result<(Vec<(AuthorKey, Activity)>, HashMap<AuthorKey, Profile>)> {
        if q.filter.rollups_apply() && self.use_author_index {
            if let Some(idx) = self.author_index(tracker_id).await? {
                let (days, edges) = self.index_pieces(tracker_id, &q.filter).await?;
                let g = idx.read().await;
                return Ok((ranked_in_index(q, &g, days, edges), HashMap::new()));
            }
        }
        let acts = self.account_activity(tracker_id, &q.filter).await?;
        // Followers are the account's count now (its profile's), not the largest in the range:
        // what a reader means by it, and a maximum the rollups could not take back on a delete.
        let by_followers = matches!(q.sort, InfluencerSort::Followers | InfluencerSort::EngagementRate)
            || q.counts.iter().any(|c| c.field == CountField::Followers);
        let mut v: Vec<(AuthorKey, Activity)> = acts.into_iter().collect();
        let mut profiles = HashMap::new();
        if q.has_text_filter() || q.sort == InfluencerSort::Name || by_followers {
            let keys: Vec<AuthorKey> = v.iter().map(|(k, _)| k.clone()).collect();
            profiles = self.author_profiles(&keys).await?;
            for (k, a) in v.iter_mut() {
                if let Some(p) = profiles.get(k) {
                    a.followers = p.followers;
                }
            }
        }
        v.retain(|(_, a)| q.counts.iter().all(|c| c.keeps(a)));
        if q.has_text_filter() {
            let words: Vec<String> = fold(&q.search).split_whitespace().map(str::to_string).collect();
            let (bio, location) = (fold(q.bio.trim()), fold(q.location.trim()));
            v.retain(|(k, _)| text_keeps(profiles.get(k), &k.1, &words, &bio, &location));
        }
        let folded: Vec<String> = if q.sort == InfluencerSort::Name {
            v.iter()
                .map(|(k, _)| {
                    let n = profiles.get(k).map(|p| if p.name.is_empty() { p.username.as_str() } else { p.name.as_str() });
                    fold(n.filter(|n| !n.is_empty()).unwrap_or(k.1.as_str()))
                })
                .collect()
        } else {
            Vec::new()
        };
        let names: Vec<&str> = folded.iter().map(String::as_str).collect();
        rank(&mut v, q.sort, q.ascending, &names);
        Ok((v, profiles))
    }

    /// Rows for ranked accounts, with their profiles and the viewer's tags.
    async fn influencer_rows(
        &self,
        accounts: &[(AuthorKey, Activity)],
        mut profiles: HashMap<AuthorKey, Profile>,
        tag_owner: i64,
    ) -> Result<Vec<InfluencerRow>> {
        let missing: Vec<AuthorKey> = accounts.iter().map(|(k, _)| k.clone()).filter(|k| !profiles.contains_key(k)).collect();
        if !missing.is_empty() {
            profiles.extend(self.author_profiles(&missing).await?);
        }
        let keys: Vec<AuthorKey> = accounts.iter().map(|(k, _)| k.clone()).collect();
        let tags = self.account_tags(tag_owner, &keys).await?;
        Ok(accounts
            .iter()
            .map(|((platform, author), a)| {
                let key = (platform.clone(), author.clone());
                let profile = profiles.remove(&key);
                let followers = profile.as_ref().map_or(a.followers, |p| p.followers);
                InfluencerRow {
                    platform: Platform::parse(platform).unwrap_or(Platform::News),
                    author: author.clone(),
                    profile: profile.unwrap_or_else(|| Profile { username: author.clone(), ..Default::default() }),
                    posts: a.posts,
                    engagement: a.engagement,
                    followers,
                    reach: a.reach,
                    impressions: a.impressions,
                    tags: tags.get(&key).cloned().unwrap_or_default(),
                }
            })
            .collect())
    }

    /// One page of the ranked accounts and how many pass the filters.
    pub async fn influencers_page(&self, tracker_id: i64, q: &InfluencerQuery) -> Result<InfluencerPage> {
        let (ranked, profiles) = self.ranked_accounts(tracker_id, q).await?;
        let total = ranked.len() as i64;
        let from = (q.page.max(1) - 1).saturating_mul(q.per_page.max(0)).min(total) as usize;
        let to = (from + q.per_page.max(0) as usize).min(ranked.len());
        let rows = self.influencer_rows(&ranked[from..to], profiles, q.filter.influencer_tag_owner).await?;
        Ok(InfluencerPage { rows, total })
    }

    /// Every ranked account (the export), at most `max`.
    pub async fn influencers_all(&self, tracker_id: i64, q: &InfluencerQuery, max: usize) -> Result<Vec<InfluencerRow>> {
        let (mut ranked, profiles) = self.ranked_accounts(tracker_id, q).await?;
        ranked.truncate(max);
        self.influencer_rows(&ranked, profiles, q.filter.influencer_tag_owner).await
    }

    /// One account's figures in the range (the side view's header), None when it has no posts there.
    pub async fn influencer(&self, tracker_id: i64, f: &PageFilter, platform: Platform, author: &str) -> Result<Option<InfluencerRow>> {
        let mut one = f.clone();
        if !one.platforms.contains(platform) {
            return Ok(None);
        }
        one.platforms = hark_core::PlatformSet::default();
        one.platforms.insert(platform);
        let key = (platform.name().to_string(), author.to_string());
        let acts = self.account_activity_of(tracker_id, &one, &key).await?;
        if acts.posts == 0 {
            return Ok(None);
        }
        let rows = self.influencer_rows(&[(key, acts)], HashMap::new(), f.influencer_tag_owner).await?;
        Ok(rows.into_iter().next())
    }

    /// One account's activity in the range, from its post rows.
    async fn account_activity_of(&self, tracker_id: i64, f: &PageFilter, key: &AuthorKey) -> Result<Activity> {
        let cond = f.row_conditions(self.backend(), &format!("'{}'", Platform::parse(&key.0).map(|p| p.name()).unwrap_or("news")));
        let sql = format!(
            "SELECT tp.platform, tp.platform, {} FROM posts p JOIN tracker_posts tp ON tp.post_id = p.id AND tp.tracker_id = $1 \
             WHERE tp.created_at >= $2 AND tp.created_at <= $3 AND p.platform = tp.platform \
             AND p.author_username IN ($4, '') AND (p.author_username = $4 OR p.author_id = $4){cond} GROUP BY tp.platform",
            crate::dashboard::authors::ROW_ACTIVITY
        );
        let row: Option<ActivityRow> = with_pool!(self, |p| sqlx::query_as(&sql)
            .bind(tracker_id)
            .bind(f.start.unwrap_or(-FAR))
            .bind(f.end.unwrap_or(FAR))
            .bind(&key.1)
            .fetch_optional(p)
            .await?);
        Ok(row.map(|r| activity_of(&r)).unwrap_or_default())
    }

    /// One account's posts in the range and the page filter, sorted, and how many there are.
    #[allow(clippy::too_many_arguments)]
    pub async fn influencer_posts(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        platform: Platform,
        author: &str,
        sort: AccountPostSort,
        ascending: bool,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<PostRow>, i64)> {
        if !f.platforms.contains(platform) {
            return Ok((Vec::new(), 0));
        }
        let cond = f.row_conditions(self.backend(), &format!("'{}'", platform.name()));
        // The account's posts by `posts_author_idx` (platform, username): its username, or the
        // empty one with its id.
        let from = format!(
            "FROM posts p JOIN tracker_posts tp ON tp.post_id = p.id AND tp.tracker_id = $1 \
             WHERE p.platform = $2 AND p.author_username IN ($3, '') AND (p.author_username = $3 OR p.author_id = $3) \
             AND tp.created_at >= $4 AND tp.created_at <= $5{cond}"
        );
        let dir = if ascending { "ASC" } else { "DESC" };
        let ids_sql = format!("SELECT tp.post_id {from} ORDER BY {} {dir}, tp.post_id {dir} LIMIT $6 OFFSET $7", sort.column());
        let count_sql = format!("SELECT COUNT(*) {from}");
        let (start, end) = (f.start.unwrap_or(-FAR), f.end.unwrap_or(FAR));
        let (ids, total): (Vec<i64>, i64) = with_pool!(self, |p| {
            let ids: Vec<i64> = if limit > 0 {
                sqlx::query_scalar(&ids_sql)
                    .bind(tracker_id)
                    .bind(platform.name())
                    .bind(author)
                    .bind(start)
                    .bind(end)
                    .bind(limit)
                    .bind(offset.max(0))
                    .fetch_all(p)
                    .await?
            } else {
                Vec::new()
            };
            let total: i64 = sqlx::query_scalar(&count_sql)
                .bind(tracker_id)
                .bind(platform.name())
                .bind(author)
                .bind(start)
                .bind(end)
                .fetch_one(p)
                .await?;
            (ids, total)
        });
        Ok((self.rows_in_order(tracker_id, &ids).await?, total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(posts: i64, engagement: i64, followers: i64) -> Activity {
        Activity { posts, engagement, followers, reach: followers * posts, impressions: 0 }
    }

    #[test]
    fn sorts_parse_back_from_their_names() {
        for s in InfluencerSort::ALL {
            assert_eq!(InfluencerSort::parse(s.name()), Some(s));
        }
        assert_eq!(InfluencerSort::parse("nope"), None);
    }

    #[test]
    fn ranking_is_a_total_order_both_ways() {
        let k = |a: &str| ("twitter".to_string(), a.to_string());
        let mut v = vec![(k("b"), act(2, 10, 5)), (k("a"), act(1, 10, 0)), (k("c"), act(5, 3, 100))];
        rank(&mut v, InfluencerSort::Engagement, false, &[]);
        assert_eq!(v.iter().map(|x| x.0 .1.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
        rank(&mut v, InfluencerSort::Engagement, true, &[]);
        assert_eq!(v.iter().map(|x| x.0 .1.as_str()).collect::<Vec<_>>(), ["c", "a", "b"]);
        // No followers: no rate, ranked below any rate.
        rank(&mut v, InfluencerSort::EngagementRate, false, &[]);
        assert_eq!(v.iter().map(|x| x.0 .1.as_str()).collect::<Vec<_>>(), ["b", "c", "a"]);
        rank(&mut v, InfluencerSort::AvgEngagement, false, &[]);
        assert_eq!(v.iter().map(|x| x.0 .1.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
    }

    #[test]
    fn text_filters_fold_case_and_accents() {
        let p = Profile { name: "José Núñez".into(), username: "jnunez".into(), bio: Some("Café lover".into()), location: Some("São Paulo".into()), ..Default::default() };
        assert!(text_keeps(Some(&p), "jnunez", &["jose".into(), "cafe".into()], "", ""));
        assert!(!text_keeps(Some(&p), "jnunez", &["tea".into()], "", ""));
        assert!(text_keeps(Some(&p), "jnunez", &[], "lover", "sao paulo"));
        assert!(!text_keeps(Some(&p), "jnunez", &[], "", "rio"));
        assert!(!text_keeps(None, "x", &[], "bio", ""));
    }

    #[test]
    fn rates_are_average_engagement_over_followers() {
        assert_eq!(engagement_rate(2, 10, 100), Some(5.0));
        assert_eq!(engagement_rate(2, 10, 0), None);
        assert_eq!(avg_engagement(0, 0), 0.0);
    }
}
