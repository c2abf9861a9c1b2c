//! How a post is kept: the fields every page reads are columns of `posts`, and `data` holds only
//! what no column does (counts as the platform reported them, flags, the author's follower count
//! and bio, coordinates, the client name). [`encode_extras`] writes that JSON and
//! [`StoredRow::into_post`] puts the two halves back together, so a stored post reads back equal to
//! the collected one (less its raw platform payload, which is not kept).
//!
//! Rows written with the whole post in `data` read back the same way: the extra keys are ignored.

use hark_core::post::{Author, Counts, Media, PostFlags};
use hark_core::{Millis, Platform, Post};
use serde::{Deserialize, Serialize};

/// The columns [`StoredRow`] reads, for a query over `posts p`.
pub const POST_ROW_COLUMNS: &str = "p.platform, p.external_id, p.created_at, p.author_id, p.author_username, \
     p.author_name, p.author_avatar, p.author_location, p.text, p.title, p.url, p.media, p.data";

#[derive(Serialize)]
struct AuthorExtras<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    followers: Option<i64>,
    #[serde(skip_serializing_if = "is_false")]
    verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    bio: Option<&'a str>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn counts_empty(c: &Counts) -> bool {
    *c == Counts::default()
}

fn flags_empty(f: &PostFlags) -> bool {
    *f == PostFlags::default()
}

#[derive(Serialize)]
struct Extras<'a> {
    author: AuthorExtras<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lang: Option<&'a str>,
    #[serde(skip_serializing_if = "counts_empty")]
    counts: &'a Counts,
    #[serde(skip_serializing_if = "flags_empty")]
    flags: &'a PostFlags,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    coordinates: Option<(f64, f64)>,
}

/// The `data` JSON of a post: everything the columns do not hold.
pub fn encode_extras(post: &Post) -> String {
    let extras = Extras {
        author: AuthorExtras {
            followers: post.author.followers,
            verified: post.author.verified,
            bio: post.author.bio.as_deref(),
        },
        lang: post.lang.as_deref(),
        counts: &post.counts,
        flags: &post.flags,
        source: post.source.as_deref(),
        coordinates: post.coordinates,
    };
    serde_json::to_string(&extras).unwrap_or_else(|_| "{}".into())
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct AuthorExtrasOwned {
    followers: Option<i64>,
    verified: bool,
    bio: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ExtrasOwned {
    author: AuthorExtrasOwned,
    lang: Option<String>,
    counts: Counts,
    flags: PostFlags,
    source: Option<String>,
    coordinates: Option<(f64, f64)>,
}

/// A stored post as read with [`POST_ROW_COLUMNS`].
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredRow {
    pub platform: String,
    pub external_id: String,
    pub created_at: Millis,
    pub author_id: String,
    pub author_username: String,
    pub author_name: String,
    pub author_avatar: Option<String>,
    pub author_location: Option<String>,
    pub text: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub media: Option<String>,
    pub data: String,
}

/// A stored row that cannot be read back as a post.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown platform {0:?}")]
    Platform(String),
    #[error("unreadable post data: {0}")]
    Json(#[from] serde_json::Error),
}

impl StoredRow {
    pub fn into_post(self) -> Result<Post, DecodeError> {
        let platform = Platform::parse(&self.platform).map_err(|_| DecodeError::Platform(self.platform.clone()))?;
        let extras: ExtrasOwned = serde_json::from_str(&self.data)?;
        let media: Vec<Media> = match self.media.as_deref() {
            Some(m) if !m.is_empty() => serde_json::from_str(m)?,
            _ => Vec::new(),
        };
        Ok(Post {
            platform,
            id: self.external_id,
            author: Author {
                id: self.author_id,
                username: self.author_username,
                name: self.author_name,
                avatar_url: self.author_avatar,
                followers: extras.author.followers,
                verified: extras.author.verified,
                location: self.author_location,
                bio: extras.author.bio,
            },
            text: self.text,
            title: self.title,
            url: self.url,
            created_at: self.created_at,
            lang: extras.lang,
            counts: extras.counts,
            media,
            flags: extras.flags,
            source: extras.source,
            coordinates: extras.coordinates,
            raw: None,
        })
    }
}
