//! The PDF report: a typeset document made in-process with Typst (no browser at run time). The
//! template (`report.typ`) is compiled with the view's answers as `data.json`; charts are drawn
//! as vector shapes by the template. Fonts: Typst's own, and the fonts installed on the machine
//! when there are any (read once), so that post texts in other scripts find glyphs.

use std::sync::OnceLock;

use hark_core::Millis;
use hark_store::{PageFilter, TrackerRow};
use jiff::tz::TimeZone;
use serde::Serialize;
use serde_json::{json, Value};
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration as TypstDuration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World, WorldExt};

use super::{ExportParams, ExportView, Progress};
use crate::error::{ApiError, ApiResult};
use crate::routes::dashboard as dash;
use crate::AppState;

pub const CONTENT_TYPE: &str = "application/pdf";

const TEMPLATE: &str = include_str!("report.typ");

/// Paper sizes the report is made for.
pub fn paper(name: Option<&str>) -> ApiResult<&'static str> {
    match name.unwrap_or("a4") {
        "a4" | "A4" | "" => Ok("a4"),
        "letter" | "us-letter" => Ok("us-letter"),
        _ => Err(ApiError::new(hark_core::Code::InvalidChoice, "paper must be a4 or letter.")),
    }
}

/// The fonts, read once: Typst's embedded ones and the machine's.
struct Fonts {
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut fonts: Vec<Font> =
            typst_assets::fonts().flat_map(|data| Font::iter(Bytes::new(data))).collect();
        for dir in ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype", "/usr/local/share/fonts"] {
            let Ok(entries) = walk(std::path::Path::new(dir)) else { continue };
            for path in entries {
                if let Ok(data) = std::fs::read(&path) {
                    fonts.extend(Font::iter(Bytes::new(data)));
                }
            }
        }
        Fonts { book: LazyHash::new(FontBook::from_fonts(&fonts)), fonts }
    })
}

/// Font files under `dir`, depth first.
fn walk(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            out.extend(walk(&p).unwrap_or_default());
        } else if p.extension().is_some_and(|x| matches!(x.to_str(), Some("ttf" | "otf" | "ttc"))) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The one document Typst sees: the template, and the view's answers as `data.json`.
struct ReportWorld {
    library: LazyHash<Library>,
    main: Source,
    data_id: FileId,
    data: Bytes,
}

impl ReportWorld {
    fn new(data: &Value) -> Self {
        let id = |p: &str| RootedPath::new(VirtualRoot::Project, VirtualPath::new(p).expect("a plain path")).intern();
        let main_id = id("/report.typ");
        Self {
            library: LazyHash::new(Library::builder().build()),
            main: Source::new(main_id, TEMPLATE.to_string()),
            data_id: id("/data.json"),
            data: Bytes::new(data.to_string().into_bytes()),
        }
    }
}

impl World for ReportWorld {
    fn library(&self) -> &LazyHash<Library> {
        &self.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &fonts().book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::NotSource)
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            Ok(self.data.clone())
        } else if id == self.main.id() {
            Ok(Bytes::from_string(self.main.clone()))
        } else {
            Err(FileError::AccessDenied)
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        fonts().fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<TypstDuration>) -> Option<Datetime> {
        None
    }
}

/// Typesets the report of `data` (the template's `data.json`).
pub fn typeset(data: &Value) -> ApiResult<Vec<u8>> {
    let world = ReportWorld::new(data);
    let doc = typst::compile::<typst_layout::PagedDocument>(&world).output.map_err(|errors| {
        // Where in the template: its line, for the log.
        let at = |e: &typst::diag::SourceDiagnostic| {
            world.range(e.span).map(|r| TEMPLATE[..r.start.min(TEMPLATE.len())].lines().count()).unwrap_or(0)
        };
        ApiError::Internal(format!(
            "report: {}",
            errors.iter().map(|e| format!("{} (report.typ line {})", e.message, at(e))).collect::<Vec<_>>().join("; ")
        ))
    })?;
    typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default())
        .map_err(|errors| ApiError::Internal(format!("report PDF: {}", errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>().join("; "))))
}

fn grouped(n: i64) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

fn stamp(ms: Millis, tz: &TimeZone, fmt: &str) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.to_zoned(tz.clone()).strftime(fmt).to_string()).unwrap_or_default()
}

/// Longest post text in the report, in characters.
const TEXT_MAX: usize = 600;

#[derive(Serialize)]
struct Point {
    label: String,
    posts: i64,
    metric: i64,
}

/// The template's data for a view.
#[allow(clippy::too_many_arguments)]
fn report_data(
    title: &str,
    filter: &PageFilter,
    filters: &str,
    tz: &TimeZone,
    paper: &str,
    eri: Option<&str>,
    cumulative: bool,
    p: &super::xlsx::Panels,
    now: Millis,
) -> Value {
    let range = match (filter.start, filter.end) {
        (Some(s), Some(e)) => format!("{} – {}", stamp(s, tz, "%b %-d, %Y"), stamp(e, tz, "%b %-d, %Y")),
        (Some(s), None) => format!("From {}", stamp(s, tz, "%b %-d, %Y")),
        _ => "All Time".to_string(),
    };
    let s = &p.stats;
    let mut stats = vec![
        json!({"label": "Posts", "value": grouped(s.posts)}),
        json!({"label": "Users", "value": grouped(s.users)}),
        json!({"label": "Engagement", "value": grouped(s.engagement)}),
        json!({"label": "Reach", "value": grouped(s.reach)}),
        json!({"label": "Impressions", "value": grouped(s.impressions)}),
    ];
    stats.push(json!({"label": "Engagement rate", "value": s.engagement_rate.map(|r| format!("{r:.1}%")).unwrap_or_else(|| "–".into())}));
    let label_fmt = match p.timeline.grouping.as_str() {
        "minutes" | "hour" => "%b %-d %H:%M",
        "month" => "%b %Y",
        _ => "%b %-d",
    };
    let metric_of = |b: &dash::Bucket| match eri {
        Some("Reach") => b.reach,
        Some("Impressions") => b.impressions,
        Some(_) => b.engagement,
        None => 0,
    };
    let (mut posts, mut metric) = (0, 0);
    let points: Vec<Point> = p
        .timeline
        .buckets
        .iter()
        .map(|b| {
            if cumulative {
                posts += b.posts;
                metric += metric_of(b);
            } else {
                posts = b.posts;
                metric = metric_of(b);
            }
            Point { label: stamp(b.t, tz, label_fmt), posts, metric }
        })
        .collect();
    let st = &p.sentiments;
    let total = st.positive + st.neutral + st.negative;
    let pct = |n: i64| if total == 0 { "0".to_string() } else { format!("{:.0}", n as f64 * 100.0 / total as f64) };
    json!({
        "title": title,
        "range": range,
        "tz": tz.iana_name().unwrap_or("UTC"),
        "platforms": filter.platforms.iter().map(|p| p.label()).collect::<Vec<_>>().join(", "),
        "filters": filters,
        "generated": stamp(now, tz, "%b %-d, %Y %H:%M"),
        "paper": paper,
        "stats": stats,
        "timeline": {"grouping": p.timeline.grouping, "cumulative": cumulative, "metric": eri, "points": points},
        "sentiment": {
            "positive": st.positive, "neutral": st.neutral, "negative": st.negative, "total": total,
            "positivePct": pct(st.positive), "neutralPct": pct(st.neutral), "negativePct": pct(st.negative),
        },
        "locations": p.locations.countries.iter().take(10).map(|c| json!({"name": c.name, "count": c.count})).collect::<Vec<_>>(),
        "topPosts": p.top_posts.iter().take(5).map(|d| post_json(d, tz)).collect::<Vec<_>>(),
        "postsHeading": "Top posts",
        "postsNote": "",
        "influencers": p.influencers.by_engagement.iter().take(10).map(|a| json!({
            "name": if a.name.is_empty() { &a.username } else { &a.name },
            "username": a.username,
            "platform": platform_label(&a.platform),
            "posts": a.posts, "engagement": a.engagement, "followers": a.followers,
        })).collect::<Vec<_>>(),
        "hashtags": p.topics.hashtags.iter().take(10).map(|t| json!({"term": t.term, "count": t.count})).collect::<Vec<_>>(),
        "keywords": p.topics.keywords.iter().take(10).map(|t| json!({"term": t.term, "count": t.count})).collect::<Vec<_>>(),
    })
}

fn platform_label(platform: &str) -> String {
    hark_core::Platform::parse(platform).map(|p| p.label().to_string()).unwrap_or_else(|_| platform.to_string())
}

/// A post as the report shows it (its text cut at [`TEXT_MAX`] characters).
fn post_json(d: &hark_store::DashboardPost, tz: &TimeZone) -> Value {
    let mut text: String = d.text.chars().take(TEXT_MAX).collect();
    if d.text.chars().count() > TEXT_MAX {
        text.push('…');
    }
    json!({
        "name": if d.author_name.is_empty() { &d.author_username } else { &d.author_name },
        "username": d.author_username,
        "platform": platform_label(&d.platform),
        "date": stamp(d.created_at, tz, "%b %-d, %Y %H:%M"),
        "text": text,
        "engagement": d.engagement,
        "url": d.url.clone().unwrap_or_default(),
    })
}

/// Posts of the posts page's list in its report.
const LISTED: i64 = 50;

/// What the view filters besides range and platforms, in words.
fn filter_words(view: &ExportView) -> String {
    let f = &view.filter;
    let mut out = Vec::new();
    if let Some(s) = f.subtracker {
        out.push(format!("subtracker {s}"));
    }
    if !f.post_tags.is_empty() {
        out.push(format!("{} post tag(s), {}", f.post_tags.len(), if f.post_tags_all { "all" } else { "any" }));
    }
    if !f.influencer_tags.is_empty() {
        out.push(format!("{} influencer tag(s)", f.influencer_tags.len()));
    }
    if out.is_empty() {
        "None".into()
    } else {
        out.join("; ")
    }
}

/// Makes the report of a job's view.
pub async fn report(
    state: &AppState,
    row: &TrackerRow,
    params: &ExportParams,
    view: &ExportView,
    progress: &mut Progress<'_>,
) -> ApiResult<Vec<u8>> {
    progress.total = 3;
    progress.report(0, true).await?;
    let mut panels = super::xlsx::panels(state, row, params, view).await?;
    progress.report(1, true).await?;
    // From the posts page: its list as searched, filtered and sorted, in place of the top posts.
    let mut listed = None;
    if params.source == super::ExportSource::Posts {
        let mut q = crate::routes::posts::post_query(view.filter.clone(), &view.posts)?;
        q.page = 1;
        q.per_page = LISTED;
        let anonymize = crate::dto::anonymizes_facebook(&row.custom_config);
        let (rows, total) = state.store.query_posts(row.id, &q).await?;
        panels.top_posts = rows
            .into_iter()
            .map(|r| {
                let it = crate::routes::posts::item(r, None, false, anonymize);
                hark_store::DashboardPost {
                    id: 0,
                    platform: it.post.platform.name().to_string(),
                    external_id: it.post.id.clone(),
                    created_at: it.post.created_at,
                    author_username: it.post.author.username.clone(),
                    author_name: it.post.author.name.clone(),
                    author_avatar: None,
                    author_followers: it.reach,
                    text: it.post.text.clone(),
                    title: it.post.title.clone(),
                    url: it.post.url.clone(),
                    likes: it.post.counts.likes.unwrap_or(0),
                    shares: it.post.counts.shares.or(it.post.counts.retweets).unwrap_or(0),
                    comments: it.post.counts.comments.unwrap_or(0),
                    views: it.post.counts.views.unwrap_or(0),
                    dislikes: 0,
                    engagement: it.engagement,
                    sentiment: Some(it.sentiment_bucket.clone()),
                }
            })
            .collect();
        let search = view.posts.search.as_deref().unwrap_or("").trim().to_string();
        let shown = panels.top_posts.len();
        let mut note = format!("The first {shown} of {}{} posts of the list", total.total, if total.capped { "+" } else { "" });
        if !search.is_empty() {
            note.push_str(&format!(" matching \u{201c}{search}\u{201d}"));
        }
        note.push('.');
        listed = Some(note);
    }
    let mut data = report_data(
        &row.title,
        &view.filter,
        &filter_words(view),
        &view.tz,
        paper(params.paper.as_deref())?,
        params.eri.as_deref().filter(|e| ["Engagements", "Reach", "Impressions"].contains(e)),
        params.cumulative,
        &panels,
        params.now,
    );
    if let Some(note) = listed {
        data["postsHeading"] = json!("Posts");
        data["postsNote"] = json!(note);
        // Every listed post, not the dashboard's five.
        data["topPosts"] = json!(panels.top_posts.iter().map(|d| post_json(d, &view.tz)).collect::<Vec<_>>());
    }
    let pdf = tokio::task::spawn_blocking(move || typeset(&data)).await.map_err(|e| ApiError::Internal(e.to_string()))??;
    progress.report(3, true).await?;
    Ok(pdf)
}

/// The report of the sample workbook's made-up data (tests and the sample link).
pub fn sample() -> ApiResult<Vec<u8>> {
    let (panels, filter) = super::xlsx::sample_panels();
    let data = report_data("Sample report: #coffee", &filter, "None", &TimeZone::UTC, "a4", Some("Engagements"), false, &panels, 1_767_225_600_000);
    typeset(&data)
}
