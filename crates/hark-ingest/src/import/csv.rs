//! CSV with a header row. [`CsvMapping`] says which column holds which post field; fields it
//! leaves unset are guessed from common header names, and a fixed platform applies when the
//! file has no platform column.

use std::io::Read;

use hark_core::{Platform, Post};

use super::{parse_time, validate, ImportBatch, LineError};

/// The post fields a CSV column can fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvField {
    Platform,
    Id,
    Text,
    CreatedAt,
    AuthorUsername,
    AuthorName,
    AuthorFollowers,
    AuthorLocation,
    Url,
    Likes,
    Shares,
    Comments,
    Views,
    Lang,
    Title,
}

impl CsvField {
    pub const ALL: [CsvField; 15] = [
        CsvField::Platform,
        CsvField::Id,
        CsvField::Text,
        CsvField::CreatedAt,
        CsvField::AuthorUsername,
        CsvField::AuthorName,
        CsvField::AuthorFollowers,
        CsvField::AuthorLocation,
        CsvField::Url,
        CsvField::Likes,
        CsvField::Shares,
        CsvField::Comments,
        CsvField::Views,
        CsvField::Lang,
        CsvField::Title,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CsvField::Platform => "platform",
            CsvField::Id => "id",
            CsvField::Text => "text",
            CsvField::CreatedAt => "created_at",
            CsvField::AuthorUsername => "author_username",
            CsvField::AuthorName => "author_name",
            CsvField::AuthorFollowers => "author_followers",
            CsvField::AuthorLocation => "author_location",
            CsvField::Url => "url",
            CsvField::Likes => "likes",
            CsvField::Shares => "shares",
            CsvField::Comments => "comments",
            CsvField::Views => "views",
            CsvField::Lang => "lang",
            CsvField::Title => "title",
        }
    }

    /// Accepts the field name and a few aliases (`retweets` for shares, `date` for created_at).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().to_ascii_lowercase();
        let alias = match s.as_str() {
            "retweets" => "shares",
            "date" | "createdat" | "timestamp" => "created_at",
            "username" | "author" => "author_username",
            "followers" => "author_followers",
            "location" => "author_location",
            _ => s.as_str(),
        };
        Self::ALL.into_iter().find(|f| f.name() == alias)
    }

    /// Header names, normalised (lowercase, letters and digits only), guessed for the field.
    fn guesses(self) -> &'static [&'static str] {
        match self {
            CsvField::Platform => &["platform", "network", "socialnetwork", "source", "channel", "site"],
            CsvField::Id => &["id", "postid", "tweetid", "statusid", "messageid", "externalid"],
            CsvField::Text => &["text", "content", "message", "body", "caption", "fulltext", "tweet", "posttext", "snippet"],
            CsvField::CreatedAt => &["createdat", "date", "timestamp", "time", "datetime", "published", "publishedat", "postdate", "created"],
            CsvField::AuthorUsername => &["username", "screenname", "author", "user", "handle", "authorusername", "authorhandle"],
            CsvField::AuthorName => &["name", "authorname", "fullname", "displayname", "userfullname"],
            CsvField::AuthorFollowers => &["followers", "followerscount", "authorfollowers", "followercount"],
            CsvField::AuthorLocation => &["location", "authorlocation", "userlocation"],
            CsvField::Url => &["url", "link", "permalink", "posturl", "tweeturl"],
            CsvField::Likes => &["likes", "likecount", "favorites", "favoritecount", "favourites", "reactions"],
            CsvField::Shares => &["shares", "retweets", "retweetcount", "sharecount", "reposts"],
            CsvField::Comments => &["comments", "replies", "commentcount", "replycount"],
            CsvField::Views => &["views", "viewcount", "impressions", "plays"],
            CsvField::Lang => &["lang", "language"],
            CsvField::Title => &["title", "headline", "subject"],
        }
    }
}

/// Column names per field; `None` means "guess from the header". `platform` is the fixed
/// platform for files without a platform column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CsvMapping {
    columns: Vec<(CsvField, String)>,
    pub platform: Option<Platform>,
}

fn normalise(h: &str) -> String {
    h.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

impl CsvMapping {
    /// The column for a field, if set.
    pub fn column(&self, f: CsvField) -> Option<&str> {
        self.columns.iter().find(|(g, _)| *g == f).map(|(_, c)| c.as_str())
    }

    pub fn set(&mut self, f: CsvField, column: impl Into<String>) {
        self.columns.retain(|(g, _)| *g != f);
        self.columns.push((f, column.into()));
    }

    pub fn with_platform(mut self, p: Platform) -> Self {
        self.platform = Some(p);
        self
    }

    /// Guesses every field from common header names (`post_id`, `Content`, `screen_name`...).
    pub fn from_header<S: AsRef<str>>(headers: &[S]) -> Self {
        let norm: Vec<String> = headers.iter().map(|h| normalise(h.as_ref())).collect();
        let mut m = Self::default();
        for f in CsvField::ALL {
            // The earliest guess wins ("id" before "tweetid"), then the leftmost column.
            let hit = f.guesses().iter().find_map(|g| norm.iter().position(|h| h == g));
            if let Some(i) = hit {
                m.set(f, headers[i].as_ref());
            }
        }
        m
    }

    /// Explicit mapping written `field=Column,field=Column` (`text=Body,created_at=Date`).
    pub fn parse_overrides(s: &str) -> Result<Self, String> {
        let mut m = Self::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, column) = part.split_once('=').ok_or_else(|| format!("'{part}' is not field=Column"))?;
            let f = CsvField::parse(field).ok_or_else(|| {
                let names: Vec<_> = CsvField::ALL.iter().map(|f| f.name()).collect();
                format!("unknown field '{}'; fields are {}", field.trim(), names.join(", "))
            })?;
            let column = column.trim();
            if column.is_empty() {
                return Err(format!("no column given for '{}'", f.name()));
            }
            m.set(f, column);
        }
        Ok(m)
    }

    /// This mapping, with the fields it leaves unset taken from `other`.
    pub fn or(mut self, other: &CsvMapping) -> Self {
        for (f, c) in &other.columns {
            if self.column(*f).is_none() {
                self.columns.push((*f, c.clone()));
            }
        }
        self.platform = self.platform.or(other.platform);
        self
    }
}

/// Parses a count: `1234`, `1,234`, `12.3k`, `1.2M`; blank is `None`.
fn count(s: &str) -> Result<Option<i64>, String> {
    let t = s.trim().replace([',', '_', ' '], "");
    if t.is_empty() {
        return Ok(None);
    }
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('k') => (&t[..t.len() - 1], 1e3),
        Some('m') => (&t[..t.len() - 1], 1e6),
        _ => (t.as_str(), 1.0),
    };
    match num.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * mult < 9e18 => Ok(Some((v * mult).round() as i64)),
        _ => Err(format!("'{}' is not a count", super::truncate(s, 30))),
    }
}

/// Reads CSV. Fields without a column in `mapping` are guessed from the header. Without an id
/// column, the id is a hash of the record, so importing the same file twice adds nothing.
pub fn parse_csv<R: Read>(r: R, mapping: &CsvMapping) -> ImportBatch {
    let mut reader = CsvReader::new(r, mapping);
    let mut batch = super::take_batch(&mut reader, usize::MAX);
    batch.lines = reader.lines();
    batch
}

/// CSV read a record at a time, as [`parse_csv`] reads it, so a file of any size is imported in
/// batches with flat memory. A header that cannot be used is one error, and nothing after it.
pub struct CsvReader<R> {
    reader: ::csv::Reader<R>,
    record: ::csv::StringRecord,
    index: [Option<usize>; CsvField::ALL.len()],
    platform: Option<Platform>,
    /// The header's error, returned once.
    header_error: Option<LineError>,
    lines: usize,
    done: bool,
}

impl<R: Read> CsvReader<R> {
    pub fn new(r: R, mapping: &CsvMapping) -> Self {
        let reader = ::csv::ReaderBuilder::new().flexible(true).has_headers(true).from_reader(r);
        let mut me = Self {
            reader,
            record: ::csv::StringRecord::new(),
            index: [None; CsvField::ALL.len()],
            platform: None,
            header_error: None,
            lines: 0,
            done: false,
        };
        if let Err(e) = me.read_header(mapping) {
            me.header_error = Some(e);
            me.done = true;
        }
        me
    }

    /// Data records read so far (blank ones left out).
    pub fn lines(&self) -> usize {
        self.lines
    }

    fn read_header(&mut self, mapping: &CsvMapping) -> Result<(), LineError> {
        let headers = match self.reader.headers() {
            Ok(h) => h.clone(),
            Err(e) => return Err(LineError::new(1, format!("cannot read the header row: {e}"))),
        };
        let names: Vec<&str> = headers.iter().map(|h| h.trim_start_matches('\u{feff}').trim()).collect();
        let m = mapping.clone().or(&CsvMapping::from_header(&names));
        for (i, f) in CsvField::ALL.into_iter().enumerate() {
            if let Some(col) = m.column(f) {
                match names.iter().position(|h| h.eq_ignore_ascii_case(col)) {
                    Some(pos) => self.index[i] = Some(pos),
                    None => return Err(LineError::new(1, format!("column '{col}' for {} is not in the header", f.name()))),
                }
            }
        }
        let col = |f: CsvField| self.index[f as usize];
        if col(CsvField::Text).is_none() && col(CsvField::Title).is_none() {
            return Err(LineError::new(1, "no text column (name one with text=Column)"));
        }
        if col(CsvField::CreatedAt).is_none() {
            return Err(LineError::new(1, "no date column (name one with created_at=Column)"));
        }
        if col(CsvField::Platform).is_none() && m.platform.is_none() {
            return Err(LineError::new(1, "no platform column and no default platform"));
        }
        self.platform = m.platform;
        Ok(())
    }
}

impl<R: Read> Iterator for CsvReader<R> {
    type Item = Result<Post, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.header_error.take() {
            return Some(Err(e));
        }
        while !self.done {
            match self.reader.read_record(&mut self.record) {
                Ok(false) => self.done = true,
                Ok(true) => {
                    let line = self.record.position().map_or(0, |p| p.line() as usize);
                    if self.record.iter().all(|f| f.trim().is_empty()) {
                        continue;
                    }
                    self.lines += 1;
                    let index = &self.index;
                    let col = |f: CsvField| index[f as usize];
                    return Some(row(&self.record, &col, self.platform).map_err(|reason| LineError::new(line, reason)));
                }
                Err(e) => {
                    let line = e.position().map_or(0, |p| p.line() as usize);
                    self.lines += 1;
                    if matches!(e.kind(), ::csv::ErrorKind::Io(_)) {
                        self.done = true;
                    }
                    return Some(Err(LineError::new(line, format!("bad CSV: {e}"))));
                }
            }
        }
        None
    }
}

fn row(rec: &::csv::StringRecord, col: &dyn Fn(CsvField) -> Option<usize>, default: Option<Platform>) -> Result<Post, String> {
    let get = |f: CsvField| col(f).and_then(|i| rec.get(i)).map(str::trim).filter(|s| !s.is_empty());
    let platform = match get(CsvField::Platform) {
        Some(p) => Platform::parse(p).map_err(|_| format!("unknown platform '{}'", super::truncate(p, 40)))?,
        None => default.ok_or("missing platform")?,
    };
    let created = get(CsvField::CreatedAt).ok_or("missing date")?;
    let created_at = parse_time(created, platform)?;
    let text = get(CsvField::Text).unwrap_or("");
    let title = get(CsvField::Title);
    if text.is_empty() && title.is_none() {
        return Err("missing text".into());
    }
    let id = match get(CsvField::Id) {
        Some(id) => id.to_string(),
        None if col(CsvField::Id).is_some() => return Err("missing id".into()),
        None => {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for b in rec.iter().flat_map(|f| f.bytes().chain([0x1f])) {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
            format!("csv-{h:016x}")
        }
    };
    let mut post = Post::new(platform, id, text, created_at);
    post.title = title.map(str::to_string);
    post.url = get(CsvField::Url).map(str::to_string);
    post.lang = get(CsvField::Lang).map(str::to_string);
    let a = &mut post.author;
    a.username = get(CsvField::AuthorUsername).unwrap_or("").trim_start_matches('@').to_string();
    a.name = get(CsvField::AuthorName).unwrap_or("").to_string();
    a.location = get(CsvField::AuthorLocation).map(str::to_string);
    let num = |f: CsvField| -> Result<Option<i64>, String> {
        get(f).map_or(Ok(None), |s| count(s).map_err(|e| format!("{}: {e}", f.name())))
    };
    a.followers = num(CsvField::AuthorFollowers)?;
    let c = &mut post.counts;
    c.likes = num(CsvField::Likes)?;
    let shares = num(CsvField::Shares)?;
    if platform == Platform::Twitter {
        c.retweets = shares;
    } else {
        c.shares = shares;
    }
    c.comments = num(CsvField::Comments)?;
    if platform == Platform::Twitter {
        c.replies = c.comments.take();
    }
    c.views = num(CsvField::Views)?;
    validate(post)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_common_headers() {
        let m = CsvMapping::from_header(&["Post ID", "Content", "Date", "screen_name", "Network", "Retweets", "Followers Count"]);
        assert_eq!(m.column(CsvField::Id), Some("Post ID"));
        assert_eq!(m.column(CsvField::Text), Some("Content"));
        assert_eq!(m.column(CsvField::CreatedAt), Some("Date"));
        assert_eq!(m.column(CsvField::AuthorUsername), Some("screen_name"));
        assert_eq!(m.column(CsvField::Platform), Some("Network"));
        assert_eq!(m.column(CsvField::Shares), Some("Retweets"));
        assert_eq!(m.column(CsvField::AuthorFollowers), Some("Followers Count"));
        assert_eq!(m.column(CsvField::Url), None);
    }

    #[test]
    fn overrides() {
        let m = CsvMapping::parse_overrides("text=Body, created_at=Date,retweets=RT").unwrap();
        assert_eq!(m.column(CsvField::Text), Some("Body"));
        assert_eq!(m.column(CsvField::Shares), Some("RT"));
        assert!(CsvMapping::parse_overrides("colour=Body").unwrap_err().contains("unknown field"));
        assert!(CsvMapping::parse_overrides("text").is_err());
        assert!(CsvMapping::parse_overrides("text=").is_err());
        assert_eq!(CsvMapping::parse_overrides("").unwrap(), CsvMapping::default());
    }

    #[test]
    fn counts() {
        assert_eq!(count("1,234"), Ok(Some(1234)));
        assert_eq!(count("12.3k"), Ok(Some(12_300)));
        assert_eq!(count("1.5M"), Ok(Some(1_500_000)));
        assert_eq!(count(" "), Ok(None));
        assert!(count("-3").is_err());
        assert!(count("lots").is_err());
    }

    #[test]
    fn rows_and_errors_with_line_numbers() {
        let csv = "id,text,date,username,platform,likes,retweets,replies\n\
                   1,Love my Kestrel Coffee,2024-06-01T10:00:00Z,@ana,twitter,5,2,1\n\
                   2,\"Quoted, with comma\nand a newline\",1717236000,bob,ig,7,,\n\
                   ,,,,,,,\n\
                   3,no date,,carl,twitter,,,\n\
                   4,bad platform,2024-06-01,dan,myspace,,,\n\
                   5,bad count,2024-06-01,eve,twitter,many,,\n\
                   ,no id,2024-06-01,fay,twitter,,,\n\
                   6,short row,2024-06-01\n";
        let b = parse_csv(csv.as_bytes(), &CsvMapping::default().with_platform(Platform::News));
        assert_eq!(b.lines, 7);
        assert_eq!(b.posts.len(), 3, "{:?}", b.errors);
        let p = &b.posts[0];
        assert_eq!((p.platform, p.id.as_str(), p.author.username.as_str()), (Platform::Twitter, "1", "ana"));
        assert_eq!(p.created_at, 1_717_236_000_000);
        assert_eq!((p.counts.likes, p.counts.retweets, p.counts.replies), (Some(5), Some(2), Some(1)));
        assert_eq!(b.posts[1].platform, Platform::Instagram);
        assert_eq!(b.posts[1].text, "Quoted, with comma\nand a newline");
        assert_eq!(b.posts[2].platform, Platform::News, "the default platform fills a blank cell");
        let errs: Vec<_> = b.errors.iter().map(|e| (e.line, e.reason.as_str())).collect();
        assert_eq!(errs, [
            (6, "missing date"),
            (7, "unknown platform 'myspace'"),
            (8, "likes: 'many' is not a count"),
            (9, "missing id"),
        ]);
    }

    #[test]
    fn explicit_mapping_and_default_platform() {
        let csv = "Body,When,Who\nhello there,2024-06-01 12:00:00,ann\nhello there,2024-06-01 12:00:00,ann\n";
        let m = CsvMapping::parse_overrides("text=Body,created_at=When,author_username=Who").unwrap();
        let b = parse_csv(csv.as_bytes(), &m.clone().with_platform(Platform::Forums));
        assert!(b.errors.is_empty(), "{:?}", b.errors);
        assert_eq!(b.posts.len(), 2);
        assert!(b.posts[0].id.starts_with("csv-"));
        assert_eq!(b.posts[0].id, b.posts[1].id, "the same record gets the same id");
        assert_eq!(b.posts[0].created_at, 1_717_243_200_000);
        let no_platform = parse_csv(csv.as_bytes(), &m);
        assert_eq!(no_platform.errors[0].reason, "no platform column and no default platform");
        let missing = parse_csv(csv.as_bytes(), &CsvMapping::parse_overrides("text=Nope").unwrap());
        assert_eq!(missing.errors[0], LineError::new(1, "column 'Nope' for text is not in the header"));
        let empty = parse_csv(&b""[..], &CsvMapping::default());
        assert_eq!(empty.posts.len(), 0);
        assert_eq!(empty.errors.len(), 1);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let _ = parse_csv(&bytes[..], &CsvMapping::default().with_platform(Platform::Twitter));
        }

        #[test]
        fn never_panics_on_csv_like(s in "(id,text,date\n)?[a-z0-9,\"\n:T-]{0,200}") {
            let _ = parse_csv(s.as_bytes(), &CsvMapping::default().with_platform(Platform::Blogs));
        }
    }
}
