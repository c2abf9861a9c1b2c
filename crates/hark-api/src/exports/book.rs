//! The dashboard's panels as a book of sheets, each holding blocks of typed cells, so that the
//! workbook and the Google Sheets export lay out the same tables from one description.

use hark_core::Millis;
use hark_store::{DashboardPost, PageFilter};
use jiff::tz::TimeZone;

use super::xlsx::Panels;
use crate::routes::dashboard as dash;
use crate::routes::posts::Cell;

/// A table on a sheet: an optional title, a header row and its rows, from (`row`, `col`).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub row: u32,
    pub col: u16,
    pub title: Option<String>,
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// The first column names its row (a label in bold, as in key statistics).
    pub labels: bool,
}

impl Block {
    fn table(row: u32, col: u16, header: &[&str], rows: Vec<Vec<Cell>>) -> Self {
        Self { row, col, title: None, header: header.iter().map(|h| h.to_string()).collect(), rows, labels: false }
    }

    /// The row just below the block's last.
    pub fn end(&self) -> u32 {
        self.row + u32::from(self.title.is_some()) + u32::from(!self.header.is_empty()) + self.rows.len() as u32
    }

    /// The columns the block spans.
    pub fn width(&self) -> u16 {
        self.header.len().max(self.rows.iter().map(Vec::len).max().unwrap_or(0)) as u16
    }
}

/// A sheet: its name, its blocks, and how many top rows stay in view.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub name: &'static str,
    pub blocks: Vec<Block>,
    pub frozen_rows: u32,
    /// A line chart of the first block's second column over its first, with this title.
    pub chart: Option<String>,
}

impl Sheet {
    fn one(name: &'static str, header: &[&str], rows: Vec<Vec<Cell>>) -> Self {
        Self { name, blocks: vec![Block::table(0, 0, header, rows)], frozen_rows: 1, chart: None }
    }

    /// Rows and columns the sheet's blocks need.
    pub fn size(&self) -> (u32, u16) {
        let rows = self.blocks.iter().map(Block::end).max().unwrap_or(0);
        let cols = self.blocks.iter().map(|b| b.col + b.width()).max().unwrap_or(0);
        (rows, cols)
    }
}

pub(crate) fn text(s: impl Into<String>) -> Cell {
    Cell::Text(std::borrow::Cow::Owned(s.into()))
}

/// Rows of (term, count).
fn counts<'a>(items: impl IntoIterator<Item = &'a dash::TermCount>) -> Vec<Vec<Cell>> {
    items.into_iter().map(|t| vec![text(t.term.clone()), Cell::Int(t.count)]).collect()
}

/// `s` cut to at most `max` bytes on a character boundary (a spreadsheet's longest cell).
pub fn clip(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// A moment as the viewer's wall-clock time, to the minute.
pub fn stamp(ms: Millis, tz: &TimeZone) -> String {
    jiff::Timestamp::from_millisecond(ms).map(|t| t.to_zoned(tz.clone()).strftime("%Y-%m-%d %H:%M").to_string()).unwrap_or_default()
}

fn platform_label(code: &str) -> String {
    hark_core::Platform::parse(code).map(|p| p.label()).unwrap_or(code).to_string()
}

/// The view's range as a reader says it: `2026-01-01 00:00 to 2026-01-14 23:59`, or All Time.
pub fn range_label(filter: &PageFilter, tz: &TimeZone) -> String {
    match (filter.start, filter.end) {
        (Some(s), Some(e)) => format!("{} to {}", stamp(s, tz), stamp(e, tz)),
        (Some(s), None) => format!("from {}", stamp(s, tz)),
        _ => "All Time".to_string(),
    }
}

/// The key statistics sheet: the tracker's title, the range, the time zone and the platforms,
/// then the statistics.
fn summary(title: &str, filter: &PageFilter, tz: &TimeZone, p: &Panels) -> Sheet {
    let range = range_label(filter, tz);
    let platforms: Vec<&str> = filter.platforms.iter().map(|p| p.label()).collect();
    let about = vec![
        vec![text("Date range"), text(range)],
        vec![text("Time zone"), text(tz.iana_name().unwrap_or("UTC"))],
        vec![text("Platforms"), text(platforms.join(", "))],
    ];
    let s = &p.stats;
    let mut stats: Vec<Vec<Cell>> = [("Posts", s.posts), ("Users", s.users), ("Engagement", s.engagement), ("Reach", s.reach), ("Impressions", s.impressions)]
        .into_iter()
        .map(|(k, v)| vec![text(k), Cell::Int(v)])
        .collect();
    stats.push(vec![text("Engagement rate (%)"), s.engagement_rate.map(Cell::Float).unwrap_or(Cell::Empty)]);
    Sheet {
        name: "Key statistics",
        blocks: vec![
            Block { row: 0, col: 0, title: Some(title.to_string()), header: Vec::new(), rows: Vec::new(), labels: false },
            Block { row: 2, col: 0, title: None, header: Vec::new(), rows: about, labels: true },
            Block::table(6, 0, &["Statistic", "Value"], stats),
        ],
        frozen_rows: 0,
        chart: None,
    }
}

fn timeline(t: &dash::Timeline) -> Sheet {
    let rows = t
        .buckets
        .iter()
        .map(|b| vec![Cell::Time(b.t), Cell::Int(b.posts), Cell::Int(b.engagement), Cell::Int(b.reach), Cell::Int(b.impressions)])
        .collect();
    Sheet { chart: Some(format!("Posts by {}", t.grouping)), ..Sheet::one("Timeline", &["Start", "Posts", "Engagement", "Reach", "Impressions"], rows) }
}

fn top_posts(posts: &[DashboardPost]) -> Sheet {
    let rows = posts
        .iter()
        .map(|d| {
            vec![
                Cell::Time(d.created_at),
                text(platform_label(&d.platform)),
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
    Sheet::one(
        "Top posts",
        &["Date", "Platform", "Name", "Username", "Text", "Link", "Engagement", "Likes", "Shares", "Comments", "Sentiment"],
        rows,
    )
}

fn influencers(i: &dash::Influencers) -> Sheet {
    let accounts = |v: &[dash::Influencer]| -> Vec<Vec<Cell>> {
        v.iter()
            .enumerate()
            .map(|(n, a)| {
                vec![
                    Cell::Int(n as i64 + 1),
                    text(platform_label(&a.platform)),
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
    let first = Block { title: Some("Most engagement".into()), ..Block::table(0, 0, &head, accounts(&i.by_engagement)) };
    let below = first.end() + 1;
    let second = Block { title: Some("Most posts".into()), ..Block::table(below, 0, &head, accounts(&i.by_posts)) };
    Sheet { name: "Influencers", blocks: vec![first, second], frozen_rows: 0, chart: None }
}

/// Every panel's sheet, in the dashboard's order.
pub(crate) fn panel_sheets(title: &str, filter: &PageFilter, tz: &TimeZone, p: &Panels) -> Vec<Sheet> {
    let s = &p.sentiments;
    let total = (s.positive + s.neutral + s.negative).max(1) as f64;
    let share = |n: i64| Cell::Float((n as f64 * 1000.0 / total).round() / 10.0);
    let sentiment = vec![
        vec![text("Positive"), Cell::Int(s.positive), share(s.positive)],
        vec![text("Neutral"), Cell::Int(s.neutral), share(s.neutral)],
        vec![text("Negative"), Cell::Int(s.negative), share(s.negative)],
        vec![text("Viewer likes"), Cell::Int(p.viewer.likes), Cell::Empty],
        vec![text("Viewer dislikes"), Cell::Int(p.viewer.dislikes), Cell::Empty],
    ];
    let countries = p.locations.countries.iter().map(|c| vec![text(c.name.clone()), text(c.country.clone()), Cell::Int(c.count)]).collect();
    let states = p.locations.states.iter().map(|s| vec![text(s.name.clone()), text(s.state.clone()), Cell::Int(s.count)]).collect();
    let mut links = Vec::new();
    for (kind, list) in [("Website", &p.pages.top_websites), ("Linked domain", &p.pages.top_domains), ("Link", &p.pages.top_links)] {
        links.extend(list.iter().map(|t| vec![text(kind), text(t.term.clone()), Cell::Int(t.count)]));
    }
    vec![
        summary(title, filter, tz, p),
        timeline(&p.timeline),
        top_posts(&p.top_posts),
        influencers(&p.influencers),
        Sheet {
            name: "Topics",
            blocks: vec![
                Block::table(0, 0, &["Hashtag", "Posts"], counts(&p.topics.hashtags)),
                Block::table(0, 3, &["Keyword", "Posts"], counts(&p.topics.keywords)),
            ],
            frozen_rows: 1,
            chart: None,
        },
        Sheet::one("Sentiment", &["Sentiment", "Posts", "Share (%)"], sentiment),
        Sheet {
            name: "Locations",
            blocks: vec![
                Block::table(0, 0, &["Country", "Code", "Posts"], countries),
                Block::table(0, 4, &["State or province", "Code", "Posts"], states),
            ],
            frozen_rows: 1,
            chart: None,
        },
        Sheet::one("Gender", &["Gender", "Posts"], counts(&p.genders.items)),
        Sheet::one("Devices", &["Device", "Posts"], counts(&p.devices.items)),
        Sheet::one("Links", &["Kind", "Site or link", "Posts"], links),
        Sheet::one("Post types", &["Post type", "Posts"], counts(&p.post_types.items)),
        Sheet::one("Share of voice", &["Subtracker", "Posts"], counts(&p.sentiments.share_of_voice)),
    ]
}

/// The posts sheet's header: the export's columns, the date's in the viewer's time zone.
pub fn posts_header(tz: &TimeZone) -> Vec<String> {
    let zone = tz.iana_name().unwrap_or("UTC");
    crate::routes::posts::EXPORT_COLUMNS.iter().map(|c| if *c == "Date" { format!("Date ({zone})") } else { c.to_string() }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_know_their_extent_and_sheets_their_size() {
        let (p, f) = super::super::xlsx::sample_panels();
        let sheets = panel_sheets("T", &f, &TimeZone::UTC, &p);
        let names: Vec<&str> = sheets.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["Key statistics", "Timeline", "Top posts", "Influencers", "Topics", "Sentiment", "Locations", "Gender", "Devices", "Links", "Post types", "Share of voice"]
        );
        let inf = &sheets[3];
        // Title, header and two accounts: the second table starts after a blank row.
        assert_eq!(inf.blocks[0].end(), 4);
        assert_eq!(inf.blocks[1].row, 5);
        assert_eq!(inf.size(), (9, 7));
        assert_eq!(sheets[4].size(), (4, 5), "topics: keywords beside the hashtags");
        assert_eq!(sheets[0].blocks[2].rows.len(), 6);
    }
}
