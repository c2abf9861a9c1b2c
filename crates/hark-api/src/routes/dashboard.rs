//! Dashboard panel groups, one request each (the loading list of the dashboard): topStats,
//! timeline, locations, topPosts, sentiments, devices, genders, postTypes, viewerSentiments,
//! influencers, topics, topPages; plus the posts side views. All take the shared filter query.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use hark_core::{now_millis, Platform, PlatformSet, TrackerCriteria};
use hark_store::{Counts, DashboardPost, PageFilter, TrackerRow, DAY_MS, HOUR_MS};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan, Zoned};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::csv_file::CsvFile;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Query, TrackerPage};
use crate::filters::FilterQuery;
use crate::answers::Ask;
use crate::AppState;
use hark_core::Code;

const TOP: usize = 10;
/// Hashtags and keywords each in Related Topics.
const TOPICS: usize = 20;

fn only(f: &PageFilter, keep: &[Platform]) -> PageFilter {
    let platforms: PlatformSet = f.platforms.iter().filter(|p| keep.contains(p)).collect();
    PageFilter { platforms, ..f.clone() }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TermCount {
    pub(crate) term: String,
    pub(crate) count: i64,
}

fn terms(v: Vec<(String, i64)>, n: usize) -> Vec<TermCount> {
    v.into_iter().take(n).map(|(term, count)| TermCount { term, count }).collect()
}

// ---- topStats ----------------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopStats {
    pub(crate) posts: i64,
    pub(crate) users: i64,
    pub(crate) engagement: i64,
    pub(crate) reach: i64,
    pub(crate) impressions: i64,
    /// Engagement over reach, in percent (one decimal); null without reach.
    pub(crate) engagement_rate: Option<f64>,
}

pub(crate) async fn top_stats_of(state: &AppState, row_id: i64, f: &PageFilter) -> ApiResult<TopStats> {
    let (c, users) = tokio::try_join!(state.store.dash_counts(row_id, f), state.store.dash_users(row_id, f))?;
    let engagement_rate = (c.reach > 0).then(|| ((c.engagement as f64 / c.reach as f64) * 1000.0).round() / 10.0);
    Ok(TopStats { posts: c.posts, users, engagement: c.engagement, reach: c.reach, impressions: c.impressions, engagement_rate })
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/top-stats", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery),
    responses((status = 200, body = TopStats), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn top_stats(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, top_stats_of(&state, c.row.id, &c.filter)).await
}

// ---- timeline ----------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct TimelineQuery {
    /// none (chosen from the range length), minutes, hour, day, week or month.
    grouping: Option<String>,
    /// csv: the buckets as a CSV file (for those who may export).
    format: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Bucket {
    /// Bucket start (ms), a boundary in the viewer's time zone.
    pub(crate) t: i64,
    pub(crate) posts: i64,
    pub(crate) engagement: i64,
    pub(crate) reach: i64,
    pub(crate) impressions: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogMarker {
    pub(crate) action: String,
    pub(crate) created_at: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    /// The grouping used (none resolves to hour, day, week or month).
    pub(crate) grouping: String,
    pub(crate) buckets: Vec<Bucket>,
    /// Tracker log entries (created, paused, restarted) within the buckets' span.
    pub(crate) logs: Vec<LogMarker>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    Minutes,
    Hour,
    Day,
    Week,
    Month,
}

impl Grouping {
    fn name(self) -> &'static str {
        match self {
            Self::Minutes => "minutes",
            Self::Hour => "hour",
            Self::Day => "day",
            Self::Week => "week",
            Self::Month => "month",
        }
    }

    /// `none` picks a grouping that keeps the chart readable for the span.
    fn resolve(name: Option<&str>, span_ms: i64) -> ApiResult<Self> {
        Ok(match name.unwrap_or("none") {
            "minutes" => Self::Minutes,
            "hour" => Self::Hour,
            "day" => Self::Day,
            "week" => Self::Week,
            "month" => Self::Month,
            "none" | "" => match span_ms {
                s if s <= 3 * DAY_MS => Self::Hour,
                s if s <= 180 * DAY_MS => Self::Day,
                s if s <= 730 * DAY_MS => Self::Week,
                _ => Self::Month,
            },
            _ => return Err(ApiError::new(Code::InvalidQuery, "grouping must be none, minutes, hour, day, week or month.")),
        })
    }

    /// The start of the bucket holding `z`.
    fn floor(self, z: &Zoned) -> Zoned {
        let tz = z.time_zone().clone();
        let midnight = |d: Date| d.to_zoned(tz.clone()).unwrap_or_else(|_| z.clone());
        match self {
            Self::Minutes => z.with().second(0).subsec_nanosecond(0).build().unwrap_or_else(|_| z.clone()),
            Self::Hour => z.with().minute(0).second(0).subsec_nanosecond(0).build().unwrap_or_else(|_| z.clone()),
            Self::Day => midnight(z.date()),
            Self::Week => {
                let back = z.date().weekday().to_monday_zero_offset() as i64;
                midnight(z.date().checked_sub(back.days()).unwrap_or(z.date()))
            }
            Self::Month => midnight(z.date().first_of_month()),
        }
    }

    fn next(self, z: &Zoned) -> Zoned {
        let tz = z.time_zone().clone();
        let midnight = |d: Date| d.to_zoned(tz.clone()).unwrap_or_else(|_| z.clone());
        match self {
            Self::Minutes => z.checked_add(1.minute()).unwrap_or_else(|_| z.clone()),
            Self::Hour => z.checked_add(1.hour()).unwrap_or_else(|_| z.clone()),
            Self::Day => midnight(z.date().tomorrow().unwrap_or(z.date())),
            Self::Week => midnight(z.date().checked_add(7.days()).unwrap_or(z.date())),
            Self::Month => midnight(z.date().checked_add(1.month()).unwrap_or(z.date())),
        }
    }
}

fn zoned(ms: i64, tz: &TimeZone) -> Zoned {
    Timestamp::from_millisecond(ms).unwrap_or(Timestamp::UNIX_EPOCH).to_zoned(tz.clone())
}

const MAX_BUCKETS: usize = 5000;

/// Groups a series (bucket start at hour or minute resolution → counts) into zero-filled buckets
/// from `start` to `end` in `tz`.
pub fn group_series(series: &[(i64, Counts)], grouping: Grouping, tz: &TimeZone, start: i64, end: i64) -> ApiResult<Vec<(i64, Counts)>> {
    let mut out: BTreeMap<i64, Counts> = BTreeMap::new();
    let mut z = grouping.floor(&zoned(start, tz));
    while z.timestamp().as_millisecond() <= end {
        out.insert(z.timestamp().as_millisecond(), Counts::default());
        if out.len() > MAX_BUCKETS {
            return Err(ApiError::new(
                Code::TooManyBuckets,
                "This grouping gives too many points for the range; choose a coarser grouping.",
            ));
        }
        let n = grouping.next(&z);
        if n.timestamp() <= z.timestamp() {
            break;
        }
        z = n;
    }
    for (t, c) in series {
        let b = grouping.floor(&zoned(*t, tz)).timestamp().as_millisecond();
        let e = out.entry(b).or_default();
        e.posts += c.posts;
        e.engagement += c.engagement;
        e.reach += c.reach;
        e.impressions += c.impressions;
    }
    Ok(out.into_iter().collect())
}

/// Whether hour rollups fall on the zone's bucket boundaries over the span (offsets in whole hours).
fn whole_hour_offsets(tz: &TimeZone, start: i64, end: i64) -> bool {
    let steps = 8;
    (0..=steps).all(|i| {
        let t = start + (end - start) / steps * i;
        let ts = Timestamp::from_millisecond(t).unwrap_or(Timestamp::UNIX_EPOCH);
        tz.to_offset(ts).seconds() % 3600 == 0
    })
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/timeline", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery, TimelineQuery),
    responses((status = 200, body = Timeline), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn timeline(
    State(state): State<AppState>,
    c: TrackerPage,
    Query(t): Query<TimelineQuery>,
    ask: Ask,
) -> ApiResult<Response> {
    let csv = match t.format.as_deref() {
        None | Some("") | Some("json") => false,
        Some("csv") => true,
        Some(_) => return Err(ApiError::new(Code::InvalidChoice, "format must be json or csv.")),
    };
    if csv && (c.embedded || !crate::routes::posts::can_export(&c.row, c.user.as_ref(), c.perm, c.shared.as_ref())) {
        return Err(if c.embedded || (c.user.is_none() && c.shared.is_none()) {
            ApiError::unauthorized()
        } else {
            ApiError::forbidden("Exporting needs the owner, an administrator or shared exports.")
        });
    }
    if !csv {
        return ask.serve(&state, &c, timeline_of(&state, c.row.id, &c.filter, &c.tz, t.grouping.as_deref())).await;
    }
    let timeline = timeline_of(&state, c.row.id, &c.filter, &c.tz, t.grouping.as_deref()).await?;
    // Bucket starts in the viewer's time zone, as the chart shows them (with the offset, so a
    // spreadsheet can read them back as moments).
    let mut w = CsvFile::new(["Start", "Posts", "Engagement", "Reach", "Impressions"])?;
    for b in &timeline.buckets {
        let start = Timestamp::from_millisecond(b.t)
            .map(|ts| ts.to_zoned(c.tz.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string())
            .unwrap_or_default();
        w.row([start, b.posts.to_string(), b.engagement.to_string(), b.reach.to_string(), b.impressions.to_string()])?;
    }
    let name = format!("{}-timeline-{}.csv", crate::exports::base_name(&c.row, &c.filter), timeline.grouping);
    w.into_response(&name)
}

/// The timeline of the filter's range, grouped by `grouping` (none: chosen from the range).
pub(crate) async fn timeline_of(state: &AppState, row_id: i64, f: &PageFilter, tz: &TimeZone, grouping: Option<&str>) -> ApiResult<Timeline> {
    let bounds = state.store.dash_bounds(row_id, f).await?;
    let (start, end) = match (f.start, f.end, bounds) {
        (Some(s), Some(e), _) => (s, e),
        (s, e, Some((lo, hi))) => (s.unwrap_or(lo), e.unwrap_or(hi)),
        (s, e, None) => {
            let now = now_millis();
            (s.unwrap_or(now - DAY_MS), e.unwrap_or(now))
        }
    };
    let grouping = Grouping::resolve(grouping, end - start)?;
    let resolution = if grouping != Grouping::Minutes && whole_hour_offsets(tz, start, end) { HOUR_MS } else { 60_000 };
    if resolution == 60_000 && end - start > 7 * DAY_MS && grouping == Grouping::Minutes {
        return Err(ApiError::new(Code::TooManyBuckets, "Minute grouping is available for ranges up to 7 days."));
    }
    let series = state.store.dash_series(row_id, f, resolution).await?;
    let buckets = group_series(&series, grouping, tz, start, end)?
        .into_iter()
        .map(|(t, c)| Bucket { t, posts: c.posts, engagement: c.engagement, reach: c.reach, impressions: c.impressions })
        .collect();
    let logs =
        state.store.tracker_logs(row_id).await?.into_iter().map(|l| LogMarker { action: l.action, created_at: l.created_at }).collect();
    Ok(Timeline { grouping: grouping.name().into(), buckets, logs })
}

// ---- locations, sentiments, devices, genders, post types ---------------------------------------

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Locations {
    /// Countries with post counts, most first.
    pub(crate) countries: Vec<CountryCount>,
    /// States and provinces where the posts' places resolve to one, most first.
    pub(crate) states: Vec<StateCount>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateCount {
    /// ISO 3166-2 code ("US-TX").
    pub(crate) state: String,
    /// English name ("Texas"); the code when unknown.
    pub(crate) name: String,
    /// ISO 3166 alpha-2 code of its country.
    pub(crate) country: String,
    pub(crate) count: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CountryCount {
    /// ISO 3166 alpha-2 code.
    pub(crate) country: String,
    /// ISO 3166 numeric code, three digits (the id world maps use).
    pub(crate) numeric: Option<String>,
    pub(crate) name: String,
    pub(crate) count: i64,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/locations", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = Locations)))]
pub async fn locations(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, locations_of(&state, c.row.id, &c.filter)).await
}

pub(crate) async fn locations_of(state: &AppState, row_id: i64, f: &PageFilter) -> ApiResult<Locations> {
    let f = PageFilter { platforms: f.platforms.iter().filter(|p| p.bears_location()).collect(), ..f.clone() };
    let (countries, regions) =
        tokio::try_join!(state.store.dash_terms(row_id, &f, "country"), state.store.dash_terms(row_id, &f, "region"))?;
    let mut countries = countries;
    // Hong Kong and Taiwan count as China.
    let merged: i64 = countries.iter().filter(|(t, _)| t == "HK" || t == "TW").map(|(_, n)| n).sum();
    if merged > 0 {
        countries.retain(|(t, _)| t != "HK" && t != "TW");
        match countries.iter_mut().find(|(t, _)| t == "CN") {
            Some(cn) => cn.1 += merged,
            None => countries.push(("CN".into(), merged)),
        }
        countries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    }
    let countries = countries
        .into_iter()
        .take(300)
        .map(|(country, count)| {
            let info = hark_enrich::geo::country_info(&country);
            CountryCount {
                numeric: info.map(|i| i.0.to_string()),
                name: info.map(|i| i.1.to_string()).unwrap_or_else(|| country.clone()),
                country,
                count,
            }
        })
        .collect();
    let states = regions
        .into_iter()
        .take(300)
        .map(|(code, count)| StateCount {
            name: hark_enrich::geo::region_name(&code).map(str::to_string).unwrap_or_else(|| code.clone()),
            country: code.split('-').next().unwrap_or_default().to_string(),
            state: code,
            count,
        })
        .collect();
    Ok(Locations { countries, states })
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sentiments {
    pub(crate) positive: i64,
    pub(crate) neutral: i64,
    pub(crate) negative: i64,
    /// Posts per subtracker, in the tracker's order.
    pub(crate) share_of_voice: Vec<TermCount>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/sentiments", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = Sentiments)))]
pub async fn sentiments(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, sentiments_of(&state, &c.row, &c.filter)).await
}

pub(crate) async fn sentiments_of(state: &AppState, row: &TrackerRow, f: &PageFilter) -> ApiResult<Sentiments> {
    let labels = serde_json::from_str::<TrackerCriteria>(&row.criteria).map(|c| c.subtrackers).unwrap_or_default();
    let (buckets, counts) = tokio::try_join!(
        state.store.dash_terms(row.id, f, "sentiment"),
        state.store.dash_share_of_voice(row.id, f, labels.len() as u32)
    )?;
    let (mut positive, mut neutral, mut negative) = (0, 0, 0);
    for (b, n) in buckets {
        match b.as_str() {
            "positive" | "slight_positive" => positive += n,
            "negative" | "slight_negative" => negative += n,
            _ => neutral += n,
        }
    }
    let share_of_voice = labels.into_iter().zip(counts).map(|(term, count)| TermCount { term, count }).collect();
    Ok(Sentiments { positive, neutral, negative, share_of_voice })
}

#[derive(Serialize, ToSchema)]
pub struct TermList {
    pub(crate) items: Vec<TermCount>,
}

/// Devices (`source`, twitter), genders (`gender`) or post types (`post_type`, twitter).
pub(crate) async fn term_list(state: &AppState, row_id: i64, f: &PageFilter, kind: &str) -> ApiResult<TermList> {
    let f = match kind {
        "source" | "post_type" => only(f, &[Platform::Twitter]),
        _ => f.clone(),
    };
    Ok(TermList { items: terms(state.store.dash_terms(row_id, &f, kind).await?, TOP) })
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/devices", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = TermList)))]
pub async fn devices(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, term_list(&state, c.row.id, &c.filter, "source")).await
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/genders", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = TermList)))]
pub async fn genders(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, term_list(&state, c.row.id, &c.filter, "gender")).await
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/post-types", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = TermList)))]
pub async fn post_types(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, term_list(&state, c.row.id, &c.filter, "post_type")).await
}

#[derive(Serialize, ToSchema)]
pub struct ViewerSentiments {
    pub(crate) likes: i64,
    pub(crate) dislikes: i64,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/viewer-sentiments", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = ViewerSentiments)))]
pub async fn viewer_sentiments(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, viewer_sentiments_of(&state, c.row.id, &c.filter)).await
}

pub(crate) async fn viewer_sentiments_of(state: &AppState, row_id: i64, f: &PageFilter) -> ApiResult<ViewerSentiments> {
    let (likes, dislikes) = state.store.dash_viewer_sentiment(row_id, f).await?;
    Ok(ViewerSentiments { likes, dislikes })
}

// ---- influencers, topics, top pages, top posts -------------------------------------------------

#[derive(Deserialize, utoipa::IntoParams)]
pub struct InfluencerQuery {
    /// 0 leaves facebook out (anonymised facebook authors).
    facebook: Option<u8>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Influencer {
    pub(crate) platform: String,
    pub(crate) username: String,
    pub(crate) name: String,
    pub(crate) avatar: Option<String>,
    pub(crate) verified: bool,
    pub(crate) posts: i64,
    pub(crate) engagement: i64,
    pub(crate) followers: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Influencers {
    pub(crate) by_engagement: Vec<Influencer>,
    pub(crate) by_posts: Vec<Influencer>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/influencers", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery, InfluencerQuery), responses((status = 200, body = Influencers)))]
pub async fn influencers(
    State(state): State<AppState>,
    c: TrackerPage,
    Query(iq): Query<InfluencerQuery>,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, influencers_of(&state, c.row.id, &c.filter, iq.facebook != Some(0))).await
}

/// The top accounts by engagement and by posts; `facebook` false leaves facebook out.
pub(crate) async fn influencers_of(state: &AppState, row_id: i64, f: &PageFilter, facebook: bool) -> ApiResult<Influencers> {
    let mut f = f.clone();
    if !facebook {
        f.platforms.remove(Platform::Facebook);
    }
    let (e, p) = state.store.dash_influencers(row_id, &f, TOP).await?;
    let map = |v: Vec<hark_store::AuthorStat>| {
        v.into_iter()
            .map(|a| Influencer {
                platform: a.platform,
                username: a.author,
                name: a.name,
                avatar: a.avatar,
                verified: a.verified,
                posts: a.posts,
                engagement: a.engagement,
                followers: a.followers,
            })
            .collect()
    };
    Ok(Influencers { by_engagement: map(e), by_posts: map(p) })
}

#[derive(Serialize, ToSchema)]
pub struct Topics {
    pub(crate) hashtags: Vec<TermCount>,
    pub(crate) keywords: Vec<TermCount>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/topics", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = Topics)))]
pub async fn topics(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, topics_of(&state, c.row.id, &c.filter)).await
}

pub(crate) async fn topics_of(state: &AppState, row_id: i64, f: &PageFilter) -> ApiResult<Topics> {
    let all = PlatformSet::all();
    let mut lists =
        state.store.dash_top_terms_many(row_id, f, &[("hashtag", all), ("keyword", all)], Some(TOPICS)).await?.into_iter();
    let hashtags = terms(lists.next().unwrap_or_default(), TOPICS);
    let keywords = terms(lists.next().unwrap_or_default(), TOPICS);
    Ok(Topics { hashtags, keywords })
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopPages {
    /// Sites of the news, blog and forum posts (Top Websites That Mention This Term).
    pub(crate) top_websites: Vec<TermCount>,
    /// Domains linked from twitter, youtube, facebook, bluesky and mastodon posts (Most Linked Websites).
    pub(crate) top_domains: Vec<TermCount>,
    pub(crate) top_links: Vec<TermCount>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/top-pages", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = TopPages)))]
pub async fn top_pages(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, top_pages_of(&state, c.row.id, &c.filter)).await
}

pub(crate) async fn top_pages_of(state: &AppState, row_id: i64, f: &PageFilter) -> ApiResult<TopPages> {
    let web: PlatformSet = [Platform::News, Platform::Blogs, Platform::Forums].into_iter().collect();
    let social: PlatformSet =
        [Platform::Twitter, Platform::Youtube, Platform::Facebook, Platform::Bluesky, Platform::Mastodon].into_iter().collect();
    let mut lists = state
        .store
        .dash_top_terms_many(row_id, f, &[("domain", web), ("domain", social), ("link", social)], Some(TOP))
        .await?
        .into_iter();
    Ok(TopPages {
        top_websites: terms(lists.next().unwrap_or_default(), TOP),
        top_domains: terms(lists.next().unwrap_or_default(), TOP),
        top_links: terms(lists.next().unwrap_or_default(), TOP),
    })
}

#[derive(Serialize, ToSchema)]
pub struct TopPosts {
    pub(crate) posts: Vec<DashboardPost>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/top-posts", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery), responses((status = 200, body = TopPosts)))]
pub async fn top_posts(
    State(state): State<AppState>,
    c: TrackerPage,
    ask: Ask,
) -> ApiResult<Response> {
    ask.serve(&state, &c, async { Ok(TopPosts { posts: state.store.dash_top_posts(c.row.id, &c.filter, TOP as i64).await? }) }).await
}

// ---- prediction --------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::IntoParams)]
pub struct PredictionQuery {
    /// Days to forecast after today, 1–365 (default 30). Not `days`: that is the filters' date
    /// range, which the forecast does not take (it fits the whole history).
    horizon: Option<u32>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PredictionPoint {
    /// Day start (ms) in the viewer's zone.
    t: i64,
    value: f64,
    lower: f64,
    upper: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Prediction {
    /// Whole days of history the forecast was fitted on.
    history_days: usize,
    points: Vec<PredictionPoint>,
}

pub const PREDICTION_DAYS: u32 = 30;

/// Forecast of daily posts for the next `horizon` days from the tracker's whole history (platforms
/// and tag filters apply; the date range does not), with a 95% band.
#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/prediction", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery, PredictionQuery),
    responses((status = 200, body = Prediction), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn prediction(
    State(state): State<AppState>,
    c: TrackerPage,
    Query(pq): Query<PredictionQuery>,
) -> ApiResult<axum::Json<Prediction>> {
    if c.shared.as_ref().is_some_and(|link| !link.view_predictions) {
        return Err(ApiError::forbidden("This shared link does not show predictions."));
    }
    let days = pq.horizon.unwrap_or(PREDICTION_DAYS);
    if !(1..=365).contains(&days) {
        return Err(ApiError::new(Code::InvalidQuery, "horizon must be between 1 and 365 days."));
    }
    let now = now_millis();
    let today = Grouping::Day.floor(&zoned(now, &c.tz));
    let f = PageFilter { start: None, end: Some(today.timestamp().as_millisecond() - 1), ..c.filter.clone() };
    let Some((first, _)) = state.store.dash_bounds(c.row.id, &f).await? else {
        return Ok(axum::Json(Prediction { history_days: 0, points: vec![] }));
    };
    // At most two years of history keeps the fit quick.
    let start = first.max(now - 730 * DAY_MS);
    let f = PageFilter { start: Some(Grouping::Day.floor(&zoned(start, &c.tz)).timestamp().as_millisecond()), ..f };
    let resolution = if whole_hour_offsets(&c.tz, start, now) { HOUR_MS } else { 60_000 };
    let series = state.store.dash_series(c.row.id, &f, resolution).await?;
    let end = f.end.unwrap_or(now);
    let history: Vec<f64> = if f.start.unwrap_or(end) <= end {
        group_series(&series, Grouping::Day, &c.tz, f.start.unwrap_or(end), end)?.iter().map(|(_, c)| c.posts as f64).collect()
    } else {
        vec![]
    };
    let forecast = hark_core::forecast::holt_winters(&history, 7, days as usize);
    let mut day = today;
    let mut points = Vec::with_capacity(forecast.len());
    for p in forecast {
        let r = |x: f64| (x * 10.0).round() / 10.0;
        points.push(PredictionPoint { t: day.timestamp().as_millisecond(), value: r(p.value), lower: r(p.lower), upper: r(p.upper) });
        day = Grouping::Day.next(&day);
    }
    Ok(axum::Json(Prediction { history_days: history.len(), points }))
}

// ---- side views --------------------------------------------------------------------------------

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct SideViewQuery {
    /// 1-based page of 25 posts.
    page: Option<i64>,
    /// hashtag or keyword, with `term`: posts mentioning it (topics view).
    kind: Option<String>,
    term: Option<String>,
    /// csv: every post of the range as a CSV file.
    format: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PostPage {
    posts: Vec<DashboardPost>,
    total: i64,
}

pub const SIDE_PAGE: i64 = 25;
const TOPIC_TEXT: usize = 200;

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/dashboard/posts", tag = "dashboard",
    params(("hash" = String, Path), FilterQuery, SideViewQuery),
    responses((status = 200, body = PostPage), (status = 400, body = ErrorBody)))]
pub async fn side_posts(
    State(state): State<AppState>,
    c: TrackerPage,
    Query(s): Query<SideViewQuery>,
) -> ApiResult<Response> {
    let term = match (s.kind.as_deref(), s.term.as_deref()) {
        (Some(k @ ("hashtag" | "keyword")), Some(t)) if !t.is_empty() && t.len() <= 200 => Some((k, t)),
        (None, None) => None,
        _ => return Err(ApiError::new(Code::InvalidQuery, "kind must be hashtag or keyword, with a term.")),
    };
    if s.format.as_deref() == Some("csv") {
        let (posts, _) = state.store.dash_posts(c.row.id, &c.filter, term, 100_000, 0).await?;
        let mut w = CsvFile::new([
            "platform", "id", "created_at", "username", "name", "text", "url", "likes", "shares", "comments", "views", "engagement",
        ])?;
        for p in posts {
            let when = Timestamp::from_millisecond(p.created_at).map(|t| t.to_string()).unwrap_or_default();
            w.row([
                p.platform.to_string(),
                p.external_id,
                when,
                p.author_username,
                p.author_name,
                p.text,
                p.url.unwrap_or_default(),
                p.likes.to_string(),
                p.shares.to_string(),
                p.comments.to_string(),
                p.views.to_string(),
                p.engagement.to_string(),
            ])?;
        }
        return w.into_response("posts.csv");
    }
    let page = s.page.unwrap_or(1).clamp(1, 10_000);
    let (posts, total) = state.store.dash_posts(c.row.id, &c.filter, term, SIDE_PAGE, (page - 1).saturating_mul(SIDE_PAGE)).await?;
    let posts = posts
        .into_iter()
        .map(|mut p| {
            if term.is_some() && p.text.chars().count() > TOPIC_TEXT {
                p.text = p.text.chars().take(TOPIC_TEXT).collect::<String>() + "…";
            }
            p
        })
        .collect();
    Ok(axum::Json(PostPage { posts, total }).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(posts: i64) -> Counts {
        Counts { posts, ..Default::default() }
    }

    #[test]
    fn buckets_follow_the_viewer_zone_and_fill_gaps() {
        let tz = TimeZone::get("America/New_York").unwrap();
        // 2024-03-09 12:00 EST = 17:00Z; DST starts 2024-03-10 02:00 local.
        let t0 = 1_710_003_600_000;
        let series = vec![(t0, counts(2)), (t0 + 13 * HOUR_MS, counts(3)), (t0 + 40 * HOUR_MS, counts(5))];
        let days = group_series(&series, Grouping::Day, &tz, t0, t0 + 40 * HOUR_MS).unwrap();
        let posts: Vec<i64> = days.iter().map(|(_, c)| c.posts).collect();
        assert_eq!(posts, vec![2, 3, 5]);
        // Day boundaries are local midnights: the 10th is 23 hours long.
        assert_eq!(days[2].0 - days[1].0, 23 * HOUR_MS);
        assert_eq!(zoned(days[1].0, &tz).hour(), 0);
        let hours = group_series(&series, Grouping::Hour, &tz, t0, t0 + 40 * HOUR_MS).unwrap();
        assert_eq!(hours.len(), 41);
        assert_eq!(hours.iter().map(|(_, c)| c.posts).sum::<i64>(), 10);
        let weeks = group_series(&series, Grouping::Week, &tz, t0, t0 + 40 * HOUR_MS).unwrap();
        // Saturday the 9th is in the week of Monday the 4th; Monday the 11th starts a new one.
        assert_eq!(weeks.iter().map(|(_, c)| c.posts).collect::<Vec<_>>(), vec![5, 5]);
        let months = group_series(&series, Grouping::Month, &tz, t0, t0 + 40 * HOUR_MS).unwrap();
        assert_eq!(months.len(), 1);
        assert!(group_series(&series, Grouping::Minutes, &tz, 0, 365 * DAY_MS).is_err());
    }

    #[test]
    fn none_grouping_follows_the_span_and_bad_names_fail() {
        assert_eq!(Grouping::resolve(None, DAY_MS).unwrap(), Grouping::Hour);
        assert_eq!(Grouping::resolve(Some("none"), 30 * DAY_MS).unwrap(), Grouping::Day);
        assert_eq!(Grouping::resolve(Some("none"), 400 * DAY_MS).unwrap(), Grouping::Week);
        assert_eq!(Grouping::resolve(Some("month"), DAY_MS).unwrap(), Grouping::Month);
        assert!(Grouping::resolve(Some("decade"), DAY_MS).is_err());
        assert!(!whole_hour_offsets(&TimeZone::get("Asia/Kolkata").unwrap(), 0, DAY_MS));
        assert!(whole_hour_offsets(&TimeZone::get("Europe/Paris").unwrap(), 0, 400 * DAY_MS));
    }

}
