//! The trending topics and sentiment pages: a layer of topics (words or hashtags, with counts,
//! shares, sparklines and trend scores) under a path of picked topics, its series and posts; the
//! sentiment score, buckets over time and significant keywords. The sentiment page's posts table
//! is the posts list (`/posts`) with the range, sentiment and search it narrows to.
//!
//! Each page counts only its platforms: topics twitter, instagram, facebook, youtube, tiktok,
//! Bluesky and Mastodon; sentiment twitter, instagram, facebook, Bluesky and Mastodon. When the
//! chosen platforms leave none of them, the answer says so (`reason: "no platform chosen"`).

use std::collections::HashSet;

use axum::extract::State;
use axum::response::Response;
use hark_core::{Code, Platform, PlatformSet};
use hark_store::{DashboardPost, PageFilter, TermKind, TermRef, TopicQuery, TopicSort};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::dto::criteria_of;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Query, TrackerPage};
use crate::filters::FilterQuery;
use crate::routes::dashboard::{group_series, Grouping};
use crate::answers::Ask;
use crate::AppState;

/// Topics (and posts) per page of the trending topics and sentiment tables.
pub const PAGE_SIZE: usize = 20;
/// Topic post texts are cut at this many characters.
pub const TOPIC_TEXT: usize = 200;
/// Terms a drill-down path holds at most (three layers: two picked terms).
pub const MAX_PATH: usize = 2;
/// Topics one series request may chart beside its path.
pub const MAX_SERIES_ITEMS: usize = 10;
/// Significant keywords listed per sentiment.
pub const KEYWORDS: usize = 20;
/// The data value that says the chosen platforms leave the page none of its own.
pub const NO_PLATFORM: &str = "no platform chosen";

pub const TOPIC_PLATFORMS: [Platform; 7] = [
    Platform::Twitter,
    Platform::Instagram,
    Platform::Facebook,
    Platform::Youtube,
    Platform::Tiktok,
    Platform::Bluesky,
    Platform::Mastodon,
];
pub const SENTIMENT_PLATFORMS: [Platform; 5] =
    [Platform::Twitter, Platform::Instagram, Platform::Facebook, Platform::Bluesky, Platform::Mastodon];

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidQuery, message)
}

/// The filter narrowed to the page's platforms, or None when none is left.
fn narrowed(f: &PageFilter, allowed: &[Platform]) -> Option<PageFilter> {
    let mut keep = PlatformSet::empty();
    for p in allowed {
        keep.insert(*p);
    }
    let platforms = f.platforms.intersect(keep);
    (!platforms.is_empty()).then(|| PageFilter { platforms, ..f.clone() })
}

/// `kind:text` terms separated by commas (`word:coffee,hashtag:brew`).
fn terms(v: Option<&str>, what: &str, max: usize) -> ApiResult<Vec<TermRef>> {
    let mut out: Vec<TermRef> = Vec::new();
    for part in v.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (kind, text) = part.split_once(':').ok_or_else(|| bad(format!("Each {what} term is kind:text, such as word:coffee.")))?;
        let kind = TermKind::parse(kind).ok_or_else(|| bad(format!("A {what} term's kind is word or hashtag.")))?;
        let t = TermRef::new(kind, text);
        if t.text.is_empty() || t.text.chars().count() > 140 {
            return Err(bad(format!("A {what} term has 1 to 140 characters.")));
        }
        if !out.contains(&t) {
            out.push(t);
        }
    }
    if out.len() > max {
        return Err(bad(format!("A {what} holds at most {max} terms.")));
    }
    Ok(out)
}

fn page_of(v: Option<&str>) -> ApiResult<usize> {
    match v.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(1),
        Some(s) => s.parse::<usize>().ok().filter(|n| (1..=100_000).contains(n)).ok_or_else(|| bad("page must be a number from 1.")),
    }
}

/// The grouping of a range's charts: hours up to three days, days up to 180, then weeks.
fn grouping_for(start: i64, end: i64) -> Grouping {
    let span = end - start;
    if span <= 3 * hark_store::DAY_MS {
        Grouping::Hour
    } else if span <= 180 * hark_store::DAY_MS {
        Grouping::Day
    } else {
        Grouping::Week
    }
}

/// Hour counts grouped into the range's zero-filled buckets: (bucket starts, counts).
fn grouped(hours: &[(i64, i64)], grouping: Grouping, c: &TrackerPage, (s, e): (i64, i64)) -> ApiResult<Vec<(i64, i64)>> {
    let series: Vec<(i64, hark_store::Counts)> =
        hours.iter().map(|(t, n)| (*t, hark_store::Counts { posts: *n, ..Default::default() })).collect();
    Ok(group_series(&series, grouping, &c.tz, s, e)?.into_iter().map(|(t, c)| (t, c.posts)).collect())
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct TopicParams {
    /// `word` (default) or `hashtag`.
    pub kind: Option<String>,
    /// The picked topics above this layer: `kind:text` separated by commas, at most two.
    pub path: Option<String>,
    /// `count;desc` (default), `count;asc`, `trend;desc` or `trend;asc`.
    pub sort: Option<String>,
    /// 1-based page of 20 topics.
    pub page: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopicItem {
    pub text: String,
    /// `word` or `hashtag`.
    pub kind: String,
    /// Posts of the layer holding it.
    pub count: i64,
    /// Its share of the layer's posts, 0 to 1.
    pub share: f64,
    /// How unusual its share is in the trend window against the baseline: a signed
    /// likelihood-ratio statistic, about standard normal when nothing changed (2 unusual, 4 very).
    pub trend: f64,
    /// The change of its share against the baseline (0.5: half as much again); null when the
    /// baseline never had it.
    pub change: Option<f64>,
    /// Posts per bucket of `buckets`.
    pub spark: Vec<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendWindowDto {
    pub current_start: i64,
    pub current_end: i64,
    pub baseline_start: i64,
    pub baseline_end: i64,
    pub current_posts: i64,
    pub baseline_posts: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopicLayer {
    /// `no platform chosen` when the chosen platforms leave the page none of its own.
    pub reason: Option<String>,
    pub kind: String,
    /// Posts of the range holding the path.
    pub posts: i64,
    /// Topics of the layer, all pages.
    pub total: usize,
    pub page: usize,
    pub per_page: usize,
    /// hour, day or week: the buckets of the sparklines.
    pub grouping: String,
    pub buckets: Vec<i64>,
    pub items: Vec<TopicItem>,
    pub window: Option<TrendWindowDto>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/topics", tag = "topics",
    params(("hash" = String, Path), FilterQuery, TopicParams),
    responses((status = 200, body = TopicLayer), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn topic_layer(State(state): State<AppState>, c: TrackerPage, Query(p): Query<TopicParams>, ask: Ask) -> ApiResult<Response> {
    ask.serve(&state, &c, async {
        let kind = match p.kind.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => TermKind::Word,
            Some(k) => TermKind::parse(k).ok_or_else(|| bad("kind must be word or hashtag."))?,
        };
        let path = terms(p.path.as_deref(), "path", MAX_PATH)?;
        let (sort, ascending) = match p.sort.as_deref().map(str::trim).unwrap_or("") {
            "" | "count" | "count;desc" => (TopicSort::Count, false),
            "count;asc" => (TopicSort::Count, true),
            "trend" | "trend;desc" => (TopicSort::Trend, false),
            "trend;asc" => (TopicSort::Trend, true),
            other => return Err(bad(format!("Topics cannot be sorted by '{other}': use count or trend, ;asc or ;desc."))),
        };
        let page = page_of(p.page.as_deref())?;
        let mut out = TopicLayer {
            reason: None,
            kind: kind.name().into(),
            posts: 0,
            total: 0,
            page,
            per_page: PAGE_SIZE,
            grouping: "day".into(),
            buckets: vec![],
            items: vec![],
            window: None,
        };
        let Some(filter) = narrowed(&c.filter, &TOPIC_PLATFORMS) else {
            out.reason = Some(NO_PLATFORM.into());
            return Ok(out);
        };
        let q = TopicQuery { filter, kind, path, sort, ascending, page, per_page: PAGE_SIZE };
        let layer = state.store.topic_layer(c.row.id, &q).await?;
        out.posts = layer.posts;
        out.total = layer.total;
        if let Some(range) = layer.range {
            let grouping = grouping_for(range.0, range.1);
            out.grouping = grouping_name(grouping).into();
            let mut buckets = None;
            for item in layer.items {
                let g = grouped(&item.hours, grouping, &c, range)?;
                buckets.get_or_insert_with(|| g.iter().map(|x| x.0).collect::<Vec<_>>());
                out.items.push(TopicItem {
                    text: item.text,
                    kind: item.kind.name().into(),
                    count: item.count,
                    share: item.share,
                    trend: (item.trend * 100.0).round() / 100.0,
                    change: item.change.map(|c| (c * 1000.0).round() / 1000.0),
                    spark: g.into_iter().map(|x| x.1).collect(),
                });
            }
            out.buckets = match buckets {
                Some(b) => b,
                None => grouped(&[], grouping, &c, range)?.into_iter().map(|x| x.0).collect(),
            };
        }
        out.window = layer.window.map(|w| TrendWindowDto {
            current_start: w.current.0,
            current_end: w.current.1,
            baseline_start: w.baseline.0,
            baseline_end: w.baseline.1,
            current_posts: w.current_posts,
            baseline_posts: w.baseline_posts,
        });
        Ok(out)
    })
    .await
}

fn grouping_name(g: Grouping) -> &'static str {
    match g {
        Grouping::Hour | Grouping::Minutes => "hour",
        Grouping::Day => "day",
        Grouping::Week => "week",
        Grouping::Month => "month",
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SeriesParams {
    /// The picked topics: `kind:text` separated by commas, at most two.
    pub path: Option<String>,
    /// Topics to chart with the path, `kind:text` separated by commas, at most ten.
    pub items: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesLine {
    /// The topic added to the path; null for the path's own line.
    pub text: Option<String>,
    pub kind: Option<String>,
    pub points: Vec<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopicSeries {
    pub reason: Option<String>,
    pub grouping: String,
    /// Bucket starts (ms).
    pub buckets: Vec<i64>,
    /// The path's posts (all posts for an empty path), then one line per item.
    pub lines: Vec<SeriesLine>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/topics/series", tag = "topics",
    params(("hash" = String, Path), FilterQuery, SeriesParams),
    responses((status = 200, body = TopicSeries), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn topic_series(State(state): State<AppState>, c: TrackerPage, Query(p): Query<SeriesParams>, ask: Ask) -> ApiResult<Response> {
    ask.serve(&state, &c, async {
        let path = terms(p.path.as_deref(), "path", MAX_PATH)?;
        let items = terms(p.items.as_deref(), "series", MAX_SERIES_ITEMS)?;
        let mut out = TopicSeries { reason: None, grouping: "day".into(), buckets: vec![], lines: vec![] };
        let Some(filter) = narrowed(&c.filter, &TOPIC_PLATFORMS) else {
            out.reason = Some(NO_PLATFORM.into());
            return Ok(out);
        };
        let (range, series) = state.store.topic_series(c.row.id, &filter, &path, &items).await?;
        let Some(range) = range else { return Ok(out) };
        let grouping = grouping_for(range.0, range.1);
        out.grouping = grouping_name(grouping).into();
        for (i, hours) in series.iter().enumerate() {
            let g = grouped(hours, grouping, &c, range)?;
            if i == 0 {
                out.buckets = g.iter().map(|x| x.0).collect();
            }
            let item = i.checked_sub(1).map(|j| &items[j]);
            out.lines.push(SeriesLine {
                text: item.map(|t| t.text.clone()),
                kind: item.map(|t| t.kind.name().to_string()),
                points: g.into_iter().map(|x| x.1).collect(),
            });
        }
        Ok(out)
    })
    .await
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct TopicPostsParams {
    /// The topics a post must hold: `kind:text` separated by commas, at most three (none: every
    /// post of the range, as the posts list of a time bucket).
    pub path: Option<String>,
    /// 1-based page of 20 posts.
    pub page: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopicPosts {
    pub reason: Option<String>,
    pub posts: Vec<DashboardPost>,
    pub total: i64,
    pub page: usize,
    pub per_page: usize,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/topics/posts", tag = "topics",
    params(("hash" = String, Path), FilterQuery, TopicPostsParams),
    responses((status = 200, body = TopicPosts), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn topic_posts(State(state): State<AppState>, c: TrackerPage, Query(p): Query<TopicPostsParams>) -> ApiResult<axum::Json<TopicPosts>> {
    let path = terms(p.path.as_deref(), "path", MAX_PATH + 1)?;
    let page = page_of(p.page.as_deref())?;
    let mut out = TopicPosts { reason: None, posts: vec![], total: 0, page, per_page: PAGE_SIZE };
    let Some(filter) = narrowed(&c.filter, &TOPIC_PLATFORMS) else {
        out.reason = Some(NO_PLATFORM.into());
        return Ok(axum::Json(out));
    };
    let (posts, total) = state.store.topic_posts(c.row.id, &filter, &path, PAGE_SIZE, (page - 1).saturating_mul(PAGE_SIZE)).await?;
    out.total = total;
    out.posts = posts
        .into_iter()
        .map(|mut p| {
            if p.text.chars().count() > TOPIC_TEXT {
                p.text = p.text.chars().take(TOPIC_TEXT).collect::<String>() + "…";
            }
            p
        })
        .collect();
    Ok(axum::Json(out))
}

#[derive(Serialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct BucketCountsDto {
    pub positive: i64,
    pub slight_positive: i64,
    pub neutral: i64,
    pub slight_negative: i64,
    pub negative: i64,
}

impl From<[i64; 5]> for BucketCountsDto {
    fn from(c: [i64; 5]) -> Self {
        BucketCountsDto { positive: c[0], slight_positive: c[1], neutral: c[2], slight_negative: c[3], negative: c[4] }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentimentPoint {
    pub t: i64,
    #[serde(flatten)]
    pub counts: BucketCountsDto,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentimentOverview {
    pub reason: Option<String>,
    /// Positive minus negative posts (slight ones included) over all posts, -1 to 1.
    pub score: f64,
    pub total: i64,
    pub counts: BucketCountsDto,
    /// hour, day or week.
    pub grouping: String,
    pub points: Vec<SentimentPoint>,
    /// The range resolved: first and last millisecond.
    pub start: Option<i64>,
    pub end: Option<i64>,
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/sentiment", tag = "topics",
    params(("hash" = String, Path), FilterQuery),
    responses((status = 200, body = SentimentOverview), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn sentiment(State(state): State<AppState>, c: TrackerPage, ask: Ask) -> ApiResult<Response> {
    ask.serve(&state, &c, async {
        let mut out = SentimentOverview {
            reason: None,
            score: 0.0,
            total: 0,
            counts: BucketCountsDto::default(),
            grouping: "day".into(),
            points: vec![],
            start: None,
            end: None,
        };
        let Some(filter) = narrowed(&c.filter, &SENTIMENT_PLATFORMS) else {
            out.reason = Some(NO_PLATFORM.into());
            return Ok(out);
        };
        let sum = state.store.sentiment_summary(c.row.id, &filter).await?;
        out.score = (sum.score() * 1000.0).round() / 1000.0;
        out.total = sum.counts.iter().sum();
        out.counts = sum.counts.into();
        if let Some(range) = sum.range {
            let grouping = grouping_for(range.0, range.1);
            out.grouping = grouping_name(grouping).into();
            let per: Vec<Vec<(i64, i64)>> = (0..5)
                .map(|b| grouped(&sum.hours.iter().map(|(t, c)| (*t, c[b])).collect::<Vec<_>>(), grouping, &c, range))
                .collect::<ApiResult<_>>()?;
            out.points = (0..per[0].len())
                .map(|i| SentimentPoint { t: per[0][i].0, counts: [per[0][i].1, per[1][i].1, per[2][i].1, per[3][i].1, per[4][i].1].into() })
                .collect();
            out.start = Some(range.0);
            out.end = Some(range.1);
        }
        Ok(out)
    })
    .await
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordDto {
    pub text: String,
    /// `word` or `hashtag`.
    pub kind: String,
    /// Posts of this sentiment holding it.
    pub count: i64,
    /// Posts of the range holding it.
    pub total: i64,
    /// Its log-odds z value: how far more often it is used in these posts than in the others.
    pub z: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentimentKeywordsDto {
    pub reason: Option<String>,
    pub positive: Vec<KeywordDto>,
    pub negative: Vec<KeywordDto>,
    pub positive_posts: i64,
    pub negative_posts: i64,
    pub posts: i64,
}

/// The tracker's own search terms, lowercase: each word, and each term as a hashtag.
fn search_terms(c: &TrackerPage) -> ApiResult<Vec<String>> {
    let criteria = criteria_of(&c.row)?;
    let mut out: HashSet<String> = HashSet::new();
    for term in criteria.search.include.iter().flatten() {
        let t = term.trim().to_lowercase();
        let bare = t.trim_start_matches(['#', '@']);
        for w in bare.split(|ch: char| !ch.is_alphanumeric() && ch != '\'' && ch != '-').filter(|w| !w.is_empty()) {
            out.insert(w.to_string());
        }
        out.insert(format!("#{}", bare.replace(' ', "")));
    }
    Ok(out.into_iter().collect())
}

#[utoipa::path(get, path = "/api/v1/trackers/{hash}/sentiment/keywords", tag = "topics",
    params(("hash" = String, Path), FilterQuery),
    responses((status = 200, body = SentimentKeywordsDto), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn sentiment_keywords(State(state): State<AppState>, c: TrackerPage, ask: Ask) -> ApiResult<Response> {
    ask.serve(&state, &c, async {
        let mut out = SentimentKeywordsDto { reason: None, positive: vec![], negative: vec![], positive_posts: 0, negative_posts: 0, posts: 0 };
        let Some(filter) = narrowed(&c.filter, &SENTIMENT_PLATFORMS) else {
            out.reason = Some(NO_PLATFORM.into());
            return Ok(out);
        };
        let exclude = search_terms(&c)?;
        let k = state.store.significant_keywords(c.row.id, &filter, &exclude, KEYWORDS).await?;
        let dto = |v: Vec<hark_store::Keyword>| -> Vec<KeywordDto> {
            v.into_iter()
                .map(|k| KeywordDto { text: k.text, kind: k.kind.name().into(), count: k.count, total: k.total, z: (k.z * 100.0).round() / 100.0 })
                .collect()
        };
        out.positive = dto(k.positive);
        out.negative = dto(k.negative);
        out.positive_posts = k.positive_posts;
        out.negative_posts = k.negative_posts;
        out.posts = k.posts;
        Ok(out)
    })
    .await
}
