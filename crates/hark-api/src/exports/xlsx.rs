//! The XLS export: one workbook with a sheet per dashboard panel (key statistics, timeline with a
//! native chart, top posts, influencers, topics, sentiment, locations, gender, devices, links,
//! post types, share of voice) and a sheet of the posts. Cells are typed: numbers as numbers,
//! moments as dates in the viewer's time zone. Text is written as text, never as a formula, so a
//! post starting with `=` stays a string.

use std::collections::HashMap;

use hark_core::Millis;
use hark_store::{DashboardPost, PageFilter, TrackerRow};
use jiff::tz::TimeZone;
use rust_xlsxwriter::{Chart, ChartType, ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use super::{ExportParams, ExportSource, ExportView, Progress};
use crate::error::{ApiError, ApiResult};
use crate::routes::dashboard as dash;
use crate::routes::posts::{export_cells, item, post_query, Cell, EXPORT_COLUMNS};
use crate::AppState;

pub const CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// Posts in the workbook's posts sheet at most (the CSV export holds any number).
pub const POSTS_MAX: i64 = 100_000;

/// Excel's longest text in a cell.
const MAX_TEXT: usize = 32_000;

fn xl(e: XlsxError) -> ApiError {
    ApiError::Internal(format!("workbook: {e}"))
}

/// The workbook's formats.
struct Formats {
    header: Format,
    date: Format,
    title: Format,
    percent: Format,
}

impl Formats {
    fn new() -> Self {
        Self {
            header: Format::new().set_bold().set_background_color("#E2E8F0"),
            date: Format::new().set_num_format("yyyy-mm-dd hh:mm"),
            title: Format::new().set_bold().set_font_size(14),
            percent: Format::new().set_num_format("0.0"),
        }
    }
}

/// The moment `ms` as the viewer's wall-clock time.
fn excel_time(ms: Millis, tz: &TimeZone) -> Option<ExcelDateTime> {
    let dt = jiff::Timestamp::from_millisecond(ms).ok()?.to_zoned(tz.clone()).datetime();
    ExcelDateTime::from_ymd(dt.year() as u16, dt.month() as u8, dt.day() as u8)
        .ok()?
        .and_hms(dt.hour() as u16, dt.minute() as u8, dt.second() as f64)
        .ok()
}

fn clip(s: &str) -> &str {
    if s.len() <= MAX_TEXT {
        return s;
    }
    let mut end = MAX_TEXT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Writes one typed cell.
fn put(sheet: &mut Worksheet, f: &Formats, tz: &TimeZone, row: u32, col: u16, cell: &Cell) -> Result<(), XlsxError> {
    match cell {
        Cell::Text(s) if !s.is_empty() => {
            sheet.write_string(row, col, clip(s))?;
        }
        Cell::Int(n) => {
            sheet.write_number(row, col, *n as f64)?;
        }
        Cell::Float(x) => {
            sheet.write_number_with_format(row, col, *x, &f.percent)?;
        }
        Cell::Time(ms) => {
            if let Some(t) = excel_time(*ms, tz) {
                sheet.write_datetime_with_format(row, col, &t, &f.date)?;
            }
        }
        Cell::Text(_) | Cell::Empty => {}
    }
    Ok(())
}

/// A sheet holding one table: a bold, frozen header row, then the rows; column widths fit the
/// header and the first rows.
fn table(wb: &mut Workbook, f: &Formats, tz: &TimeZone, name: &str, header: &[&str], rows: &[Vec<Cell>]) -> Result<(), XlsxError> {
    let sheet = wb.add_worksheet();
    sheet.set_name(name)?;
    write_table(sheet, f, tz, 0, header, rows)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

fn write_table(sheet: &mut Worksheet, f: &Formats, tz: &TimeZone, top: u32, header: &[&str], rows: &[Vec<Cell>]) -> Result<(), XlsxError> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count() + 2).collect();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string_with_format(top, c as u16, *h, &f.header)?;
    }
    for (r, cells) in rows.iter().enumerate() {
        for (c, cell) in cells.iter().enumerate() {
            put(sheet, f, tz, top + 1 + r as u32, c as u16, cell)?;
            if r < 200 {
                let w = match cell {
                    Cell::Text(s) => s.chars().count().min(60),
                    Cell::Time(_) => 16,
                    Cell::Int(n) => n.to_string().len(),
                    Cell::Float(_) => 6,
                    Cell::Empty => 0,
                };
                if let Some(x) = widths.get_mut(c) {
                    *x = (*x).max(w + 2);
                }
            }
        }
    }
    for (c, w) in widths.iter().enumerate() {
        sheet.set_column_width(c as u16, (*w).min(62) as f64)?;
    }
    Ok(())
}

fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

/// Rows of (term, count).
fn counts<'a>(items: impl IntoIterator<Item = &'a dash::TermCount>) -> Vec<Vec<Cell>> {
    items.into_iter().map(|t| vec![text(t.term.clone()), Cell::Int(t.count)]).collect()
}

/// The dashboard's answers for the view, read as its panels read them.
pub(crate) struct Panels {
    pub(crate) stats: dash::TopStats,
    pub(crate) timeline: dash::Timeline,
    pub(crate) top_posts: Vec<DashboardPost>,
    pub(crate) influencers: dash::Influencers,
    pub(crate) topics: dash::Topics,
    pub(crate) sentiments: dash::Sentiments,
    pub(crate) viewer: dash::ViewerSentiments,
    pub(crate) locations: dash::Locations,
    pub(crate) genders: dash::TermList,
    pub(crate) devices: dash::TermList,
    pub(crate) post_types: dash::TermList,
    pub(crate) pages: dash::TopPages,
}

pub(crate) async fn panels(state: &AppState, row: &TrackerRow, p: &ExportParams, v: &ExportView) -> ApiResult<Panels> {
    let (id, f) = (row.id, &v.filter);
    let (stats, timeline, top_posts, influencers, topics, sentiments) = tokio::try_join!(
        dash::top_stats_of(state, id, f),
        dash::timeline_of(state, id, f, &v.tz, p.grouping.as_deref()),
        async { Ok(state.store.dash_top_posts(id, f, 10).await?) },
        dash::influencers_of(state, id, f, !crate::dto::anonymizes_facebook(&row.custom_config)),
        dash::topics_of(state, id, f),
        dash::sentiments_of(state, row, f),
    )?;
    let (viewer, locations, genders, devices, post_types, pages) = tokio::try_join!(
        dash::viewer_sentiments_of(state, id, f),
        dash::locations_of(state, id, f),
        dash::term_list(state, id, f, "gender"),
        dash::term_list(state, id, f, "source"),
        dash::term_list(state, id, f, "post_type"),
        dash::top_pages_of(state, id, f),
    )?;
    Ok(Panels { stats, timeline, top_posts, influencers, topics, sentiments, viewer, locations, genders, devices, post_types, pages })
}

fn summary(wb: &mut Workbook, f: &Formats, title: &str, filter: &PageFilter, tz: &TimeZone, panels: &Panels) -> Result<(), XlsxError> {
    let sheet = wb.add_worksheet();
    sheet.set_name("Key statistics")?;
    sheet.write_string_with_format(0, 0, clip(title), &f.title)?;
    let range = match (filter.start, filter.end) {
        (Some(s), Some(e)) => format!("{} to {}", stamp(s, tz), stamp(e, tz)),
        (Some(s), None) => format!("from {}", stamp(s, tz)),
        _ => "All Time".to_string(),
    };
    let platforms: Vec<&str> = filter.platforms.iter().map(|p| p.label()).collect();
    let mut r = 2;
    for (k, val) in [
        ("Date range", range),
        ("Time zone", tz.iana_name().unwrap_or("UTC").to_string()),
        ("Platforms", platforms.join(", ")),
    ] {
        sheet.write_string_with_format(r, 0, k, &f.header)?;
        sheet.write_string(r, 1, val)?;
        r += 1;
    }
    r += 1;
    let s = &panels.stats;
    sheet.write_string_with_format(r, 0, "Statistic", &f.header)?;
    sheet.write_string_with_format(r, 1, "Value", &f.header)?;
    r += 1;
    for (k, val) in [("Posts", s.posts), ("Users", s.users), ("Engagement", s.engagement), ("Reach", s.reach), ("Impressions", s.impressions)] {
        sheet.write_string(r, 0, k)?;
        sheet.write_number(r, 1, val as f64)?;
        r += 1;
    }
    sheet.write_string(r, 0, "Engagement rate (%)")?;
    if let Some(rate) = s.engagement_rate {
        sheet.write_number_with_format(r, 1, rate, &f.percent)?;
    }
    sheet.set_column_width(0, 22)?;
    sheet.set_column_width(1, 44)?;
    Ok(())
}

fn stamp(ms: Millis, tz: &TimeZone) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.to_zoned(tz.clone()).strftime("%Y-%m-%d %H:%M").to_string()).unwrap_or_default()
}

fn timeline(wb: &mut Workbook, f: &Formats, tz: &TimeZone, t: &dash::Timeline) -> Result<(), XlsxError> {
    let rows: Vec<Vec<Cell>> = t
        .buckets
        .iter()
        .map(|b| vec![Cell::Time(b.t), Cell::Int(b.posts), Cell::Int(b.engagement), Cell::Int(b.reach), Cell::Int(b.impressions)])
        .collect();
    table(wb, f, tz, "Timeline", &["Start", "Posts", "Engagement", "Reach", "Impressions"], &rows)?;
    if !rows.is_empty() {
        let last = rows.len() as u32;
        let mut chart = Chart::new(ChartType::Line);
        chart.title().set_name(&format!("Posts by {}", t.grouping));
        chart
            .add_series()
            .set_name("Posts")
            .set_categories(("Timeline", 1, 0, last, 0))
            .set_values(("Timeline", 1, 1, last, 1));
        chart.legend().set_hidden();
        chart.set_width(720).set_height(360);
        let sheet = wb.worksheet_from_name("Timeline")?;
        sheet.insert_chart(1, 6, &chart)?;
    }
    Ok(())
}

fn panel_sheets(wb: &mut Workbook, f: &Formats, tz: &TimeZone, p: &Panels) -> Result<(), XlsxError> {
    timeline(wb, f, tz, &p.timeline)?;
    let top: Vec<Vec<Cell>> = p
        .top_posts
        .iter()
        .map(|d| {
            vec![
                Cell::Time(d.created_at),
                text(hark_core::Platform::parse(&d.platform).map(|p| p.label()).unwrap_or(d.platform.as_str())),
                text(d.author_name.clone()),
                text(d.author_username.clone()),
                text(d.text.clone()),
                text(d.url.clone().unwrap_or_default()),
                Cell::Int(d.engagement),
                Cell::Int(d.likes),
                Cell::Int(d.shares),
                Cell::Int(d.comments),
                text(d.sentiment.clone().unwrap_or_default()),
            ]
        })
        .collect();
    table(
        wb,
        f,
        tz,
        "Top posts",
        &["Date", "Platform", "Name", "Username", "Text", "Link", "Engagement", "Likes", "Shares", "Comments", "Sentiment"],
        &top,
    )?;
    let accounts = |v: &[dash::Influencer]| -> Vec<Vec<Cell>> {
        v.iter()
            .enumerate()
            .map(|(i, a)| {
                vec![
                    Cell::Int(i as i64 + 1),
                    text(hark_core::Platform::parse(&a.platform).map(|p| p.label()).unwrap_or(a.platform.as_str())),
                    text(a.name.clone()),
                    text(a.username.clone()),
                    Cell::Int(a.posts),
                    Cell::Int(a.engagement),
                    Cell::Int(a.followers),
                ]
            })
            .collect()
    };
    let head = ["Rank", "Platform", "Name", "Username", "Posts", "Engagement", "Followers"];
    {
        let by_engagement = accounts(&p.influencers.by_engagement);
        let by_posts = accounts(&p.influencers.by_posts);
        let sheet = wb.add_worksheet();
        sheet.set_name("Influencers")?;
        sheet.write_string_with_format(0, 0, "Most engagement", &f.title)?;
        write_table(sheet, f, tz, 1, &head, &by_engagement)?;
        let below = 3 + by_engagement.len() as u32;
        sheet.write_string_with_format(below, 0, "Most posts", &f.title)?;
        write_table(sheet, f, tz, below + 1, &head, &by_posts)?;
    }
    {
        let sheet = wb.add_worksheet();
        sheet.set_name("Topics")?;
        write_table(sheet, f, tz, 0, &["Hashtag", "Posts"], &counts(&p.topics.hashtags))?;
        let keywords = counts(&p.topics.keywords);
        for (c, h) in ["Keyword", "Posts"].iter().enumerate() {
            sheet.write_string_with_format(0, 3 + c as u16, *h, &f.header)?;
        }
        for (r, cells) in keywords.iter().enumerate() {
            for (c, cell) in cells.iter().enumerate() {
                put(sheet, f, tz, 1 + r as u32, 3 + c as u16, cell)?;
            }
        }
        sheet.set_column_width(3, 24)?;
        sheet.set_freeze_panes(1, 0)?;
    }
    let s = &p.sentiments;
    let total = (s.positive + s.neutral + s.negative).max(1) as f64;
    let share = |n: i64| Cell::Float((n as f64 * 1000.0 / total).round() / 10.0);
    table(
        wb,
        f,
        tz,
        "Sentiment",
        &["Sentiment", "Posts", "Share (%)"],
        &[
            vec![text("Positive"), Cell::Int(s.positive), share(s.positive)],
            vec![text("Neutral"), Cell::Int(s.neutral), share(s.neutral)],
            vec![text("Negative"), Cell::Int(s.negative), share(s.negative)],
            vec![text("Viewer likes"), Cell::Int(p.viewer.likes), Cell::Empty],
            vec![text("Viewer dislikes"), Cell::Int(p.viewer.dislikes), Cell::Empty],
        ],
    )?;
    {
        let countries: Vec<Vec<Cell>> =
            p.locations.countries.iter().map(|c| vec![text(c.name.clone()), text(c.country.clone()), Cell::Int(c.count)]).collect();
        let states: Vec<Vec<Cell>> =
            p.locations.states.iter().map(|s| vec![text(s.name.clone()), text(s.state.clone()), Cell::Int(s.count)]).collect();
        let sheet = wb.add_worksheet();
        sheet.set_name("Locations")?;
        write_table(sheet, f, tz, 0, &["Country", "Code", "Posts"], &countries)?;
        let head = ["State or province", "Code", "Posts"];
        for (c, h) in head.iter().enumerate() {
            sheet.write_string_with_format(0, 4 + c as u16, *h, &f.header)?;
        }
        for (r, cells) in states.iter().enumerate() {
            for (c, cell) in cells.iter().enumerate() {
                put(sheet, f, tz, 1 + r as u32, 4 + c as u16, cell)?;
            }
        }
        sheet.set_column_width(4, 24)?;
        sheet.set_freeze_panes(1, 0)?;
    }
    table(wb, f, tz, "Gender", &["Gender", "Posts"], &counts(&p.genders.items))?;
    table(wb, f, tz, "Devices", &["Device", "Posts"], &counts(&p.devices.items))?;
    {
        let mut rows = Vec::new();
        for (kind, list) in
            [("Website", &p.pages.top_websites), ("Linked domain", &p.pages.top_domains), ("Link", &p.pages.top_links)]
        {
            rows.extend(list.iter().map(|t| vec![text(kind), text(t.term.clone()), Cell::Int(t.count)]));
        }
        table(wb, f, tz, "Links", &["Kind", "Site or link", "Posts"], &rows)?;
    }
    table(wb, f, tz, "Post types", &["Post type", "Posts"], &counts(&p.post_types.items))?;
    table(wb, f, tz, "Share of voice", &["Subtracker", "Posts"], &counts(&p.sentiments.share_of_voice))?;
    Ok(())
}

/// Makes the workbook of a job's view.
pub async fn workbook(
    state: &AppState,
    row: &TrackerRow,
    params: &ExportParams,
    view: &ExportView,
    progress: &mut Progress<'_>,
) -> ApiResult<Vec<u8>> {
    let f = Formats::new();
    let tz = &view.tz;
    // The posts page's list as searched and sorted; from the dashboard every post of its view,
    // newest first.
    let q = match params.source {
        ExportSource::Posts => post_query(view.filter.clone(), &view.posts)?,
        ExportSource::Dashboard => post_query(view.filter.clone(), &Default::default())?,
    };
    let total = state.store.query_posts(row.id, &hark_store::PostQuery { page: 1, per_page: 1, ..q.clone() }).await?.1;
    let expected = total.total.min(POSTS_MAX);
    progress.total = expected + 12;
    progress.report(0, true).await?;
    let mut wb = Workbook::new();
    if params.source == ExportSource::Dashboard {
        let p = panels(state, row, params, view).await?;
        summary(&mut wb, &f, &row.title, &view.filter, tz, &p).map_err(xl)?;
        panel_sheets(&mut wb, &f, tz, &p).map_err(xl)?;
    }
    progress.report(12, true).await?;
    let tags: HashMap<i64, String> = state.store.tags(row.id).await?.into_iter().map(|t| (t.id, t.name)).collect();
    let anonymize = crate::dto::anonymizes_facebook(&row.custom_config);
    let sheet = wb.add_worksheet();
    sheet.set_name("Posts").map_err(xl)?;
    let zone = tz.iana_name().unwrap_or("UTC").to_string();
    let header: Vec<String> =
        EXPORT_COLUMNS.iter().map(|c| if *c == "Date" { format!("Date ({zone})") } else { c.to_string() }).collect();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, h, &f.header).map_err(xl)?;
    }
    sheet.set_freeze_panes(1, 0).map_err(xl)?;
    for (c, w) in [17, 10, 20, 18, 24, 60, 40, 10, 8, 10, 8, 10, 11, 10, 10, 12, 14, 8, 20].iter().enumerate() {
        sheet.set_column_width(c as u16, *w as f64).map_err(xl)?;
    }
    let mut written = 0i64;
    let (tx, mut rx) = tokio::sync::mpsc::channel(2);
    let store = state.store.clone();
    let (tracker_id, stream_q) = (row.id, q.clone());
    let reader = tokio::spawn(async move { store.stream_posts(tracker_id, &stream_q, POSTS_MAX, 1000, tx).await });
    while let Some(rows) = rx.recv().await {
        for r in rows {
            written += 1;
            let it = item(r, None, true, anonymize);
            for (c, cell) in export_cells(&it, &tags).iter().enumerate() {
                put(sheet, &f, tz, written as u32, c as u16, cell).map_err(xl)?;
            }
        }
        progress.report(12 + written, false).await?;
    }
    reader.await.map_err(|e| ApiError::Internal(e.to_string()))??;
    if written > 0 {
        sheet.autofilter(0, 0, written as u32, EXPORT_COLUMNS.len() as u16 - 1).map_err(xl)?;
    }
    progress.report(12 + written, true).await?;
    tokio::task::spawn_blocking(move || wb.save_to_buffer().map_err(xl))
        .await
        .map_err(|e| ApiError::Internal(format!("workbook: {e}")))?
}

/// A sample workbook of made-up posts, for accounts whose plan does not include XLS: the sheets
/// and columns of a real export, written by the same code.
pub fn sample() -> ApiResult<Vec<u8>> {
    let (panels, filter) = sample_panels();
    let f = Formats::new();
    let tz = TimeZone::UTC;
    let mut wb = Workbook::new();
    summary(&mut wb, &f, "Sample report: #coffee", &filter, &tz, &panels).map_err(xl)?;
    panel_sheets(&mut wb, &f, &tz, &panels).map_err(xl)?;
    let rows: Vec<Vec<Cell>> = panels
        .top_posts
        .iter()
        .map(|d| {
            vec![
                Cell::Time(d.created_at),
                text("twitter"),
                text(d.author_name.clone()),
                text(d.author_username.clone()),
                Cell::Empty,
                text(d.text.clone()),
                text(d.url.clone().unwrap_or_default()),
                text("original"),
                Cell::Int(d.likes),
                Cell::Int(0),
                Cell::Int(d.shares),
                Cell::Empty,
                Cell::Int(d.engagement),
                Cell::Empty,
                Cell::Int(1000),
                Cell::Empty,
                text("positive"),
                text("US"),
                Cell::Empty,
            ]
        })
        .collect();
    let header: Vec<&str> = EXPORT_COLUMNS.iter().map(|c| if *c == "Date" { "Date (UTC)" } else { c }).collect();
    table(&mut wb, &f, &tz, "Posts", &header, &rows).map_err(xl)?;
    wb.save_to_buffer().map_err(xl)
}

/// Made-up answers of a small #coffee tracker over two weeks, and its filter.
pub(crate) fn sample_panels() -> (Panels, PageFilter) {
    use dash::{Bucket, CountryCount, Influencer, TermCount};
    const T0: Millis = 1_767_225_600_000; // 2026-01-01 UTC
    const DAY: Millis = 86_400_000;
    let term = |t: &str, n: i64| TermCount { term: t.into(), count: n };
    let list = |v: &[(&str, i64)]| dash::TermList { items: v.iter().map(|(t, n)| term(t, *n)).collect() };
    let who = |u: &str, n: &str, posts: i64, engagement: i64, followers: i64| Influencer {
        platform: "twitter".into(),
        username: u.into(),
        name: n.into(),
        avatar: None,
        verified: false,
        posts,
        engagement,
        followers,
    };
    let posts: Vec<(i64, &str, &str, &str, i64, i64)> = vec![
        (0, "brewlab", "Brew Lab", "Our new single origin is here. #coffee", 310, 42),
        (1, "morningcup", "Morning Cup", "Best #coffee in town, no contest", 120, 8),
        (2, "latteart", "Latte Art Daily", "Friday pour: a tulip in oat milk #coffee", 95, 12),
        (4, "beanthere", "Bean There", "Roasting day! #coffee #roast", 60, 3),
        (6, "espressoyou", "Espresso You", "Queue out the door again #coffee", 22, 1),
    ];
    let top_posts = posts
        .iter()
        .enumerate()
        .map(|(i, (d, u, n, text, likes, shares))| DashboardPost {
            id: i as i64 + 1,
            platform: "twitter".into(),
            external_id: format!("{}", 1000 + i),
            created_at: T0 + d * DAY + 9 * 3_600_000,
            author_username: (*u).into(),
            author_name: (*n).into(),
            author_avatar: None,
            author_followers: 1000,
            text: (*text).into(),
            title: None,
            url: Some(format!("https://x.com/{u}/status/{}", 1000 + i)),
            likes: *likes,
            shares: *shares,
            comments: 0,
            views: 0,
            dislikes: 0,
            engagement: likes + shares,
            sentiment: Some("positive".into()),
        })
        .collect();
    let panels = Panels {
        stats: dash::TopStats { posts: 1_240, users: 610, engagement: 18_400, reach: 2_100_000, impressions: 3_400_000, engagement_rate: Some(0.9) },
        timeline: dash::Timeline {
            grouping: "day".into(),
            buckets: (0..14)
                .map(|d| {
                    let n = 60 + (d * 37 % 50);
                    Bucket { t: T0 + d * DAY, posts: n, engagement: n * 15, reach: n * 1_700, impressions: n * 2_700 }
                })
                .collect(),
            logs: Vec::new(),
        },
        top_posts,
        influencers: dash::Influencers {
            by_engagement: vec![who("brewlab", "Brew Lab", 12, 2_400, 48_000), who("morningcup", "Morning Cup", 30, 1_100, 9_000)],
            by_posts: vec![who("morningcup", "Morning Cup", 30, 1_100, 9_000), who("brewlab", "Brew Lab", 12, 2_400, 48_000)],
        },
        topics: dash::Topics {
            hashtags: vec![term("#coffee", 1_240), term("#roast", 210), term("#latte", 160)],
            keywords: vec![term("espresso", 300), term("morning", 240), term("beans", 190)],
        },
        sentiments: dash::Sentiments { positive: 540, neutral: 560, negative: 140, share_of_voice: Vec::new() },
        viewer: dash::ViewerSentiments { likes: 0, dislikes: 0 },
        locations: dash::Locations {
            countries: vec![
                CountryCount { country: "US".into(), numeric: Some("840".into()), name: "United States".into(), count: 520 },
                CountryCount { country: "GB".into(), numeric: Some("826".into()), name: "United Kingdom".into(), count: 180 },
            ],
            states: Vec::new(),
        },
        genders: list(&[("female", 330), ("male", 290), ("unknown", 620)]),
        devices: list(&[("Twitter for iPhone", 610), ("Twitter Web App", 400), ("Twitter for Android", 230)]),
        post_types: list(&[("original", 800), ("retweet", 310), ("reply", 130)]),
        pages: dash::TopPages {
            top_websites: Vec::new(),
            top_domains: vec![term("brewlab.example", 40)],
            top_links: vec![term("https://brewlab.example/new", 31)],
        },
    };
    let filter = PageFilter {
        platforms: [hark_core::Platform::Twitter].into_iter().collect(),
        start: Some(T0),
        end: Some(T0 + 14 * DAY - 1),
        ..Default::default()
    };
    (panels, filter)
}
