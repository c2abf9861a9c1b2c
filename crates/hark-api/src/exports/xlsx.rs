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

use super::book::{self, text, Block, Sheet};
use super::{ExportParams, ExportSource, ExportView, Progress};
use crate::error::{ApiError, ApiResult};
use crate::routes::dashboard as dash;
use crate::routes::posts::{Cell, EXPORT_COLUMNS};
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
    book::clip(s, MAX_TEXT)
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

/// Writes a bold header row at (`top`, `left`) and the rows below it; the widths its columns
/// want (the header and the first rows).
fn write_table(
    sheet: &mut Worksheet,
    f: &Formats,
    tz: &TimeZone,
    top: u32,
    left: u16,
    header: &[&str],
    rows: &[Vec<Cell>],
) -> Result<Vec<usize>, XlsxError> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count() + 2).collect();
    for (c, h) in header.iter().enumerate() {
        sheet.write_string_with_format(top, left + c as u16, *h, &f.header)?;
    }
    for (r, cells) in rows.iter().enumerate() {
        for (c, cell) in cells.iter().enumerate() {
            put(sheet, f, tz, top + 1 + r as u32, left + c as u16, cell)?;
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
    Ok(widths)
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

/// Writes one sheet of the book; the timeline's gets its chart.
fn render(wb: &mut Workbook, f: &Formats, tz: &TimeZone, sheet: &Sheet) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name(sheet.name)?;
    let mut widths: HashMap<u16, usize> = HashMap::new();
    for b in &sheet.blocks {
        let mut top = b.row;
        if let Some(t) = &b.title {
            ws.write_string_with_format(top, b.col, clip(t), &f.title)?;
            top += 1;
        }
        if b.labels {
            for (r, cells) in b.rows.iter().enumerate() {
                for (c, cell) in cells.iter().enumerate() {
                    match (c, cell) {
                        (0, Cell::Text(s)) => {
                            ws.write_string_with_format(top + r as u32, b.col, clip(s), &f.header)?;
                        }
                        _ => put(ws, f, tz, top + r as u32, b.col + c as u16, cell)?,
                    }
                }
            }
            widths.insert(b.col, 22);
            widths.insert(b.col + 1, 44);
        } else if !b.header.is_empty() {
            let header: Vec<&str> = b.header.iter().map(String::as_str).collect();
            for (c, w) in write_table(ws, f, tz, top, b.col, &header, &b.rows)?.into_iter().enumerate() {
                let e = widths.entry(b.col + c as u16).or_default();
                *e = (*e).max(w);
            }
        }
    }
    for (c, w) in widths {
        ws.set_column_width(c, w.min(62) as f64)?;
    }
    if sheet.frozen_rows > 0 {
        ws.set_freeze_panes(sheet.frozen_rows, 0)?;
    }
    if let (Some(title), Some(b)) = (&sheet.chart, sheet.blocks.first()) {
        if !b.rows.is_empty() {
            let (first, last) = (b.row + 1, b.row + b.rows.len() as u32);
            let mut chart = Chart::new(ChartType::Line);
            chart.title().set_name(title);
            chart
                .add_series()
                .set_name(b.header.get(1).map(String::as_str).unwrap_or(""))
                .set_categories((sheet.name, first, b.col, last, b.col))
                .set_values((sheet.name, first, b.col + 1, last, b.col + 1));
            chart.legend().set_hidden();
            // The categories are moments: the axis reads them as dates.
            chart.x_axis().set_date_axis(true).set_num_format("yyyy-mm-dd");
            chart.set_width(720).set_height(360);
            ws.insert_chart(1, b.col + b.width() + 1, &chart)?;
        }
    }
    Ok(())
}

fn render_book(wb: &mut Workbook, f: &Formats, tz: &TimeZone, sheets: &[Sheet]) -> Result<(), XlsxError> {
    sheets.iter().try_for_each(|s| render(wb, f, tz, s))
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
    let mut posts = super::PostCells::open(state, row, params, view, POSTS_MAX).await?;
    let expected = posts.expected;
    progress.total = expected + 12;
    progress.report(0, true).await?;
    let mut wb = Workbook::new();
    if params.source == ExportSource::Dashboard {
        let p = panels(state, row, params, view).await?;
        render_book(&mut wb, &f, tz, &book::panel_sheets(&row.title, &view.filter, tz, &p)).map_err(xl)?;
    }
    progress.report(12, true).await?;
    let sheet = wb.add_worksheet();
    sheet.set_name("Posts").map_err(xl)?;
    for (c, h) in book::posts_header(tz).iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, h, &f.header).map_err(xl)?;
    }
    sheet.set_freeze_panes(1, 0).map_err(xl)?;
    for (c, w) in [17, 10, 20, 18, 24, 60, 40, 10, 8, 10, 8, 10, 11, 10, 10, 12, 14, 8, 20].iter().enumerate() {
        sheet.set_column_width(c as u16, *w as f64).map_err(xl)?;
    }
    let mut written = 0i64;
    while let Some(rows) = posts.next().await {
        for cells in rows {
            written += 1;
            for (c, cell) in cells.iter().enumerate() {
                put(sheet, &f, tz, written as u32, c as u16, cell).map_err(xl)?;
            }
        }
        progress.report(12 + written, false).await?;
    }
    posts.finish().await?;
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
    let mut sheets = book::panel_sheets("Sample report: #coffee", &filter, &tz, &panels);
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
    let header = book::posts_header(&tz);
    sheets.push(Sheet { name: "Posts", blocks: vec![Block { row: 0, col: 0, title: None, header, rows, labels: false }], frozen_rows: 1, chart: None });
    render_book(&mut wb, &f, &tz, &sheets).map_err(xl)?;
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
