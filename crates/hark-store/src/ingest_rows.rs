//! The ingest's three row-heavy statements (posts, their links, the accounts' profiles), written
//! the way each database takes rows best.
//!
//! SQLite: one statement of one row, prepared once per write and run for each row with its values
//! bound in place (`sqlite_rows`). PostgreSQL: one statement of fixed text with a typed array per column,
//! read back by `UNNEST`. A `VALUES` list of 700 posts is 26,600 parameters whose text PostgreSQL
//! parses, analyses and plans again for every write, and whose varying length made every batch
//! size a statement of its own: under the load test, planning these inserts took a quarter of the
//! database's planning time (31 ms a posts insert). The arrays' statement is parsed once per
//! connection, and planning it costs the same whatever the number of rows.

use hark_core::{Gender, Millis};

use crate::ingest::{PostRecord, TrackerLink, POST_COLUMNS};
use crate::sqlite_rows::{one_row, with_raw, Val};
use crate::Write;

/// A post's upsert answer: its key, its id and, for a post stored before, its engagement, likes
/// and dislikes then.
pub(crate) type UpsertedPost = (String, i64, Option<i64>, Option<i64>, Option<i64>);

/// A link to write: tracker, post id, the post, the tracker's link.
pub(crate) type LinkRow<'a> = (i64, i64, &'a PostRecord, &'a TrackerLink);

/// An account's profile to write, from its newest post of the batch.
pub(crate) type ProfileRow<'a> = ((&'a str, &'a str), &'a PostRecord);

const POSTS_CONFLICT: &str = " ON CONFLICT (post_key) DO UPDATE SET likes = excluded.likes, shares = excluded.shares, \
     comments = excluded.comments, views = excluded.views, dislikes = excluded.dislikes, \
     impressions = excluded.impressions, reach = excluded.reach, engagement = excluded.engagement, \
     engagement_rate = excluded.engagement_rate, author_followers = excluded.author_followers, \
     updated_at = excluded.updated_at, data = excluded.data, prev_engagement = posts.engagement, \
     prev_likes = posts.likes, prev_dislikes = posts.dislikes";
/// PostgreSQL's posts upsert returns what SQLite's tells apart without `RETURNING`.
const POSTS_RETURNING: &str = " RETURNING post_key, id, prev_engagement, prev_likes, prev_dislikes";

const LINK_COLUMNS: &str = "INSERT INTO tracker_posts (tracker_id, post_id, created_at, matched_at, platform, subtrackers, sentiment_rule, \
     engagement, followers, rate, impressions, sentiment, author_sort, bucket, post_kind, text_sort, has_media, visibility, \
     indirect) ";
const LINKS_CONFLICT: &str = " ON CONFLICT (tracker_id, post_id) DO NOTHING";
const LINKS_RETURNING: &str = " RETURNING tracker_id, post_id";

const PROFILE_COLUMNS: &str = "INSERT INTO author_profiles (platform, author, author_id, username, name, avatar, bio, location, \
     verified, followers, seen_at) ";
const PROFILES_CONFLICT: &str = " ON CONFLICT (platform, author) DO UPDATE SET author_id = excluded.author_id, username = excluded.username, \
     name = excluded.name, avatar = excluded.avatar, bio = excluded.bio, location = excluded.location, \
     verified = excluded.verified, followers = excluded.followers, seen_at = excluded.seen_at \
     WHERE excluded.seen_at >= author_profiles.seen_at";

/// Parameters a post's row takes.
const POST_PARAMS: usize = 38;

/// The link's values that are not plain columns of the post (see the link statements).
fn link_rate(p: &PostRecord) -> f64 {
    // NaN is stored as NULL (the key columns are NOT NULL): 0, as unknown.
    p.engagement_rate.filter(|r| !r.is_nan()).unwrap_or(0.0)
}

fn link_sentiment(p: &PostRecord) -> f64 {
    if p.sentiment.is_nan() {
        0.0
    } else {
        p.sentiment
    }
}

fn link_visibility(p: &PostRecord, moderated: bool) -> i64 {
    if p.media.is_some() && moderated {
        2
    } else {
        1
    }
}

/// The text a link's text order reads: its first 16 characters (lowered by the statement, as
/// the whole text was).
fn text_head(text: &str) -> &str {
    match text.char_indices().nth(16) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// Writes the ingest's rows in the form its database takes best (see the module's notes).
pub(crate) trait IngestRows {
    /// Upserts posts (distinct keys); `terms` holds each post's terms as JSON, in the same order.
    async fn upsert_posts(&mut self, posts: &[&PostRecord], terms: &[String], now: Millis) -> sqlx::Result<Vec<UpsertedPost>>;

    /// Inserts links that do not exist yet; answers the (tracker, post) of those it inserted.
    /// `moderated` tells whether a tracker holds posts with media for moderation.
    async fn insert_links(
        &mut self,
        links: &[LinkRow<'_>],
        moderated: &(dyn Fn(i64) -> bool + Sync),
        now: Millis,
    ) -> sqlx::Result<Vec<(i64, i64)>>;

    /// Upserts accounts' profiles; an older post leaves a newer profile alone.
    async fn upsert_profiles(&mut self, profiles: &[ProfileRow<'_>]) -> sqlx::Result<()>;
}

impl IngestRows for Write<sqlx::Sqlite> {
    async fn upsert_posts(&mut self, posts: &[&PostRecord], terms: &[String], now: Millis) -> sqlx::Result<Vec<UpsertedPost>> {
        // Without `RETURNING` (SQLite keeps returned rows in a table of their own first): a post
        // stored for the first time takes a new rowid (AUTOINCREMENT never gives one twice), so the
        // connection's last insert rowid moves; a post stored before is updated in place, leaving
        // it, and its id and the counts it replaced are read back by its key.
        let sql = one_row(&format!("INSERT INTO posts ({POST_COLUMNS}) "), POST_PARAMS, POSTS_CONFLICT);
        with_raw(self, |raw| {
            let mut st = raw.prepare(&sql)?;
            let mut stored = raw.prepare("SELECT id, prev_engagement, prev_likes, prev_dislikes FROM posts WHERE post_key = ?")?;
            let mut out = Vec::with_capacity(posts.len());
            for (p, terms) in posts.iter().zip(terms) {
                let row: [Val; POST_PARAMS] = [
                    p.post_key.as_str().into(),
                    p.platform.name().into(),
                    p.external_id.as_str().into(),
                    p.created_at.into(),
                    now.into(),
                    now.into(),
                    p.author_id.as_str().into(),
                    p.author_username.as_str().into(),
                    p.author_name.as_str().into(),
                    p.author_avatar.as_deref().into(),
                    p.author_followers.into(),
                    p.author_verified.into(),
                    p.author_location.as_deref().into(),
                    p.text.as_str().into(),
                    p.title.as_deref().into(),
                    p.url.as_deref().into(),
                    p.lang.as_deref().into(),
                    p.post_type.as_str().into(),
                    p.is_story.into(),
                    p.likes.into(),
                    p.shares.into(),
                    p.comments.into(),
                    p.views.into(),
                    p.dislikes.into(),
                    p.impressions.into(),
                    p.reach.into(),
                    p.engagement.into(),
                    p.engagement_rate.into(),
                    p.sentiment.into(),
                    p.sentiment_bucket.as_str().into(),
                    p.country.as_deref().into(),
                    p.gender.and_then(Gender::stored).into(),
                    p.source.as_deref().into(),
                    p.device.as_deref().into(),
                    p.media.as_deref().into(),
                    p.data.as_str().into(),
                    terms.as_str().into(),
                    p.region.as_deref().into(),
                ];
                let before = st.last_insert_rowid();
                st.run(&row, |_| {})?;
                let after = st.last_insert_rowid();
                if after != before {
                    out.push((p.post_key.clone(), after, None, None, None));
                } else {
                    let mut found = false;
                    stored.run(&[p.post_key.as_str().into()], |r| {
                        found = true;
                        out.push((p.post_key.clone(), r.int(0), r.opt_int(1), r.opt_int(2), r.opt_int(3)));
                    })?;
                    if !found {
                        return Err(sqlx::Error::Protocol(format!("post {} neither inserted nor found", p.post_key)));
                    }
                }
            }
            Ok(out)
        })
        .await
    }

    async fn insert_links(
        &mut self,
        links: &[LinkRow<'_>],
        moderated: &(dyn Fn(i64) -> bool + Sync),
        now: Millis,
    ) -> sqlx::Result<Vec<(i64, i64)>> {
        // The author's name and the text's head are lowered by the statement (SQLite's LOWER,
        // as the readers' sort keys were always made).
        let sql = format!(
            "{LINK_COLUMNS}VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, LOWER(?), ?, ?, LOWER(SUBSTR(?, 1, 16)), ?, ?, ?){LINKS_CONFLICT}"
        );
        with_raw(self, |raw| {
            let mut st = raw.prepare(&sql)?;
            let mut out = Vec::new();
            for (t, id, p, l) in links {
                let row: [Val; 19] = [
                    (*t).into(),
                    (*id).into(),
                    p.created_at.into(),
                    now.into(),
                    p.platform.name().into(),
                    l.subtrackers.into(),
                    l.sentiment.into(),
                    p.engagement.into(),
                    p.author_followers.into(),
                    link_rate(p).into(),
                    p.impressions.into(),
                    link_sentiment(p).into(),
                    p.author_name.as_str().into(),
                    l.sentiment.unwrap_or(p.sentiment_bucket.as_str()).into(),
                    (p.kind() as i16).into(),
                    text_head(&p.text).into(),
                    (p.media.is_some() as i16).into(),
                    link_visibility(p, moderated(*t)).into(),
                    l.indirect.into(),
                ];
                // A link inserted changes one row; one that existed, none (no `RETURNING`: SQLite
                // keeps a statement's returned rows in a table of their own first).
                st.run(&row, |_| {})?;
                if st.changes() > 0 {
                    out.push((*t, *id));
                }
            }
            Ok(out)
        })
        .await
    }

    async fn upsert_profiles(&mut self, profiles: &[ProfileRow<'_>]) -> sqlx::Result<()> {
        let sql = one_row(PROFILE_COLUMNS, 11, PROFILES_CONFLICT);
        with_raw(self, |raw| {
            let mut st = raw.prepare(&sql)?;
            for ((platform, author), p) in profiles {
                let row: [Val; 11] = [
                    (*platform).into(),
                    (*author).into(),
                    p.author_id.as_str().into(),
                    p.author_username.as_str().into(),
                    p.author_name.as_str().into(),
                    p.author_avatar.as_deref().into(),
                    p.author_bio.as_deref().into(),
                    p.author_location.as_deref().into(),
                    p.author_verified.into(),
                    p.author_followers.into(),
                    p.created_at.into(),
                ];
                st.run(&row, |_| {})?;
            }
            Ok(())
        })
        .await
    }
}

/// One column of a batch as an array parameter: the values `f` reads from each row.
fn column<'r, R, T>(rows: &'r [R], f: impl Fn(&'r R) -> T) -> Vec<T> {
    rows.iter().map(f).collect()
}

impl IngestRows for Write<sqlx::Postgres> {
    async fn upsert_posts(&mut self, posts: &[&PostRecord], terms: &[String], now: Millis) -> sqlx::Result<Vec<UpsertedPost>> {
        let sql = format!(
            "INSERT INTO posts ({POST_COLUMNS}, fts) \
             SELECT u.post_key, u.platform, u.external_id, u.created_at, $37, $37, u.author_id, u.author_username, \
             u.author_name, u.author_avatar, u.author_followers, u.author_verified, u.author_location, u.text, u.title, \
             u.url, u.lang, u.post_type, u.is_story, u.likes, u.shares, u.comments, u.views, u.dislikes, u.impressions, \
             u.reach, u.engagement, u.engagement_rate, u.sentiment, u.sentiment_bucket, u.country, u.gender, u.source, \
             u.device, u.media, u.data, u.terms, u.region, u.fts::tsvector \
             FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], \
             $8::text[], $9::bigint[], $10::boolean[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], \
             $16::text[], $17::boolean[], $18::bigint[], $19::bigint[], $20::bigint[], $21::bigint[], $22::bigint[], \
             $23::bigint[], $24::bigint[], $25::bigint[], $26::float8[], $27::float8[], $28::text[], $29::text[], \
             $30::text[], $31::text[], $32::text[], $33::text[], $34::text[], $35::text[], $36::text[], $38::text[]) \
             AS u(post_key, platform, external_id, created_at, author_id, author_username, author_name, author_avatar, \
             author_followers, author_verified, author_location, text, title, url, lang, post_type, is_story, likes, \
             shares, comments, views, dislikes, impressions, reach, engagement, engagement_rate, sentiment, \
             sentiment_bucket, country, gender, source, device, media, data, terms, region, fts) \
             {POSTS_CONFLICT}{POSTS_RETURNING}"
        );
        sqlx::query_as::<_, UpsertedPost>(&sql)
            .bind(column(posts, |p| p.post_key.as_str()))
            .bind(column(posts, |p| p.platform.name()))
            .bind(column(posts, |p| p.external_id.as_str()))
            .bind(column(posts, |p| p.created_at))
            .bind(column(posts, |p| p.author_id.as_str()))
            .bind(column(posts, |p| p.author_username.as_str()))
            .bind(column(posts, |p| p.author_name.as_str()))
            .bind(column(posts, |p| p.author_avatar.as_deref()))
            .bind(column(posts, |p| p.author_followers))
            .bind(column(posts, |p| p.author_verified))
            .bind(column(posts, |p| p.author_location.as_deref()))
            .bind(column(posts, |p| p.text.as_str()))
            .bind(column(posts, |p| p.title.as_deref()))
            .bind(column(posts, |p| p.url.as_deref()))
            .bind(column(posts, |p| p.lang.as_deref()))
            .bind(column(posts, |p| p.post_type.as_str()))
            .bind(column(posts, |p| p.is_story))
            .bind(column(posts, |p| p.likes))
            .bind(column(posts, |p| p.shares))
            .bind(column(posts, |p| p.comments))
            .bind(column(posts, |p| p.views))
            .bind(column(posts, |p| p.dislikes))
            .bind(column(posts, |p| p.impressions))
            .bind(column(posts, |p| p.reach))
            .bind(column(posts, |p| p.engagement))
            .bind(column(posts, |p| p.engagement_rate))
            .bind(column(posts, |p| p.sentiment))
            .bind(column(posts, |p| p.sentiment_bucket.as_str()))
            .bind(column(posts, |p| p.country.as_deref()))
            .bind(column(posts, |p| p.gender.and_then(Gender::stored)))
            .bind(column(posts, |p| p.source.as_deref()))
            .bind(column(posts, |p| p.device.as_deref()))
            .bind(column(posts, |p| p.media.as_deref()))
            .bind(column(posts, |p| p.data.as_str()))
            .bind(column(terms, |t| t.as_str()))
            .bind(column(posts, |p| p.region.as_deref()))
            .bind(now)
            .bind(column(posts, |p| {
                crate::posts::pg_document(&[
                    &p.text,
                    p.title.as_deref().unwrap_or(""),
                    &p.author_name,
                    &p.author_username,
                    p.author_location.as_deref().unwrap_or(""),
                ])
            }))
            .fetch_all(&mut **self)
            .await
    }

    async fn insert_links(
        &mut self,
        links: &[LinkRow<'_>],
        moderated: &(dyn Fn(i64) -> bool + Sync),
        now: Millis,
    ) -> sqlx::Result<Vec<(i64, i64)>> {
        if links.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "{LINK_COLUMNS}SELECT u.tracker_id, u.post_id, u.created_at, $19, u.platform, u.subtrackers, u.sentiment_rule, \
             u.engagement, u.followers, u.rate, u.impressions, u.sentiment, LOWER(u.author_name), u.bucket, u.post_kind, \
             LOWER(SUBSTR(u.text_head, 1, 16)), u.has_media, u.visibility, u.indirect \
             FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], \
             $8::bigint[], $9::float8[], $10::bigint[], $11::float8[], $12::text[], $13::text[], $14::smallint[], \
             $15::text[], $16::smallint[], $17::bigint[], $18::boolean[]) \
             AS u(tracker_id, post_id, created_at, platform, subtrackers, sentiment_rule, engagement, followers, rate, \
             impressions, sentiment, author_name, bucket, post_kind, text_head, has_media, visibility, indirect)\
             {LINKS_CONFLICT}{LINKS_RETURNING}"
        );
        sqlx::query_as::<_, (i64, i64)>(&sql)
            .bind(column(links, |l| l.0))
            .bind(column(links, |l| l.1))
            .bind(column(links, |l| l.2.created_at))
            .bind(column(links, |l| l.2.platform.name()))
            .bind(column(links, |l| l.3.subtrackers))
            .bind(column(links, |l| l.3.sentiment))
            .bind(column(links, |l| l.2.engagement))
            .bind(column(links, |l| l.2.author_followers))
            .bind(column(links, |l| link_rate(l.2)))
            .bind(column(links, |l| l.2.impressions))
            .bind(column(links, |l| link_sentiment(l.2)))
            .bind(column(links, |l| l.2.author_name.as_str()))
            .bind(column(links, |l| l.3.sentiment.unwrap_or(l.2.sentiment_bucket.as_str())))
            .bind(column(links, |l| l.2.kind() as i16))
            .bind(column(links, |l| text_head(&l.2.text)))
            .bind(column(links, |l| l.2.media.is_some() as i16))
            .bind(column(links, |l| link_visibility(l.2, moderated(l.0))))
            .bind(column(links, |l| l.3.indirect))
            .bind(now)
            .fetch_all(&mut **self)
            .await
    }

    async fn upsert_profiles(&mut self, profiles: &[ProfileRow<'_>]) -> sqlx::Result<()> {
        if profiles.is_empty() {
            return Ok(());
        }
        let sql = format!(
            "{PROFILE_COLUMNS}SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], \
             $6::text[], $7::text[], $8::text[], $9::boolean[], $10::bigint[], $11::bigint[]){PROFILES_CONFLICT}"
        );
        sqlx::query(&sql)
            .bind(column(profiles, |r| r.0 .0))
            .bind(column(profiles, |r| r.0 .1))
            .bind(column(profiles, |r| r.1.author_id.as_str()))
            .bind(column(profiles, |r| r.1.author_username.as_str()))
            .bind(column(profiles, |r| r.1.author_name.as_str()))
            .bind(column(profiles, |r| r.1.author_avatar.as_deref()))
            .bind(column(profiles, |r| r.1.author_bio.as_deref()))
            .bind(column(profiles, |r| r.1.author_location.as_deref()))
            .bind(column(profiles, |r| r.1.author_verified))
            .bind(column(profiles, |r| r.1.author_followers))
            .bind(column(profiles, |r| r.1.created_at))
            .execute(&mut **self)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use hark_core::{Bucket, Gender, Platform, PostType};

    use crate::ingest::{PostRecord, TrackerLink};
    use crate::testing::{drop_postgres, stores};
    use crate::with_pool;

    fn post(key: &str, tracker: i64) -> PostRecord {
        PostRecord {
            post_key: format!("twitter;{key}"),
            platform: Platform::Twitter,
            external_id: key.into(),
            created_at: 1_700_000_000_000,
            author_id: format!("id{key}"),
            author_username: format!("user{key}"),
            author_name: "Anna SMITH".into(),
            text: "Hello WORLD this is a longer post".into(),
            post_type: PostType::Original,
            data: "{}".into(),
            links: vec![TrackerLink { tracker_id: tracker, subtrackers: 3, sentiment: None, indirect: false }],
            ..Default::default()
        }
    }

    /// Every column of a post, its link and its author's profile is stored as given, on both
    /// databases (each writes these rows its own way).
    #[tokio::test]
    async fn rows_are_stored_column_for_column() {
        for s in stores("ingest_rows").await {
            let t = crate::testing::user_and_tracker(&s, "rows").await;
            let full = PostRecord {
                author_avatar: Some("https://img.example/a.png".into()),
                author_followers: 1234,
                author_verified: true,
                author_location: Some("Zürich".into()),
                author_bio: Some("Writes about coffee".into()),
                text: "é".repeat(20),
                title: Some("A title".into()),
                url: Some("https://x.example/1".into()),
                lang: Some("de".into()),
                post_type: PostType::Reply,
                likes: 1,
                shares: 2,
                comments: 3,
                views: 4,
                dislikes: 5,
                impressions: 6,
                reach: 7,
                engagement: 11,
                engagement_rate: Some(0.25),
                sentiment: -0.5,
                sentiment_bucket: Bucket::Negative,
                country: Some("CH".into()),
                region: Some("CH-ZH".into()),
                gender: Some(Gender::Female),
                source: Some("Web".into()),
                device: Some("Desktop".into()),
                media: Some(r#"[{"type":"photo"}]"#.into()),
                links: vec![TrackerLink { tracker_id: t, subtrackers: 5, sentiment: Some("positive"), indirect: true }],
                ..post("1", t)
            };
            let bare = PostRecord { engagement_rate: Some(f64::NAN), ..post("2", t) };
            let stats = s.ingest_batch(&[full.clone(), bare.clone()], 42).await.expect("ingest");
            assert_eq!((stats.new_posts, stats.new_links), (2, 2));
            // Read back in groups of at most 12 columns (the tuples that compare and print).
            let key = "twitter;1";
            let r1: (String, String, i64, i64, i64, String, String, String, Option<String>, i64, bool, Option<String>) =
                with_pool!(s, |p| sqlx::query_as(
                    "SELECT platform, external_id, created_at, collected_at, updated_at, author_id, author_username, \
                     author_name, author_avatar, author_followers, author_verified, author_location FROM posts WHERE post_key = $1"
                )
                .bind(key)
                .fetch_one(p)
                .await
                .expect("row 1"));
            let (text,): (String,) =
                with_pool!(s, |p| sqlx::query_as("SELECT text FROM posts WHERE post_key = $1").bind(key).fetch_one(p).await.expect("text"));
            let r2: (Option<String>, Option<String>, Option<String>, String, bool, i64, i64, i64, i64, i64, i64, i64) =
                with_pool!(s, |p| sqlx::query_as(
                    "SELECT title, url, lang, post_type, is_story, likes, shares, comments, views, dislikes, impressions, reach \
                     FROM posts WHERE post_key = $1"
                )
                .bind(key)
                .fetch_one(p)
                .await
                .expect("row 2"));
            let r3: (i64, Option<f64>, f64, Option<String>, Option<String>, Option<String>, Option<String>, Option<String>, Option<String>, Option<String>, String, String) =
                with_pool!(s, |p| sqlx::query_as(
                    "SELECT engagement, engagement_rate, sentiment, sentiment_bucket, country, gender, source, device, media, region, \
                     data, terms FROM posts WHERE post_key = $1"
                )
                .bind(key)
                .fetch_one(p)
                .await
                .expect("row 3"));
            let link1: (i64, i64, String, i64, Option<String>, i64, i64, f64) = with_pool!(s, |p| sqlx::query_as(
                "SELECT tp.created_at, tp.matched_at, tp.platform, tp.subtrackers, tp.sentiment_rule, tp.engagement, \
                 tp.followers, tp.rate FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE p.post_key = $1"
            )
            .bind(key)
            .fetch_one(p)
            .await
            .expect("link 1"));
            let link2: (i64, f64, String, String, i64, String, i64, i64) = with_pool!(s, |p| sqlx::query_as(
                "SELECT tp.impressions, tp.sentiment, tp.author_sort, tp.bucket, CAST(tp.post_kind AS BIGINT), tp.text_sort, \
                 CAST(tp.has_media AS BIGINT), tp.visibility FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE p.post_key = $1"
            )
            .bind(key)
            .fetch_one(p)
            .await
            .expect("link 2"));
            let profile: (String, String, String, Option<String>, Option<String>, Option<String>, bool, i64, i64) =
                with_pool!(s, |p| sqlx::query_as(
                    "SELECT author_id, username, name, avatar, bio, location, verified, followers, seen_at \
                     FROM author_profiles WHERE platform = 'twitter' AND author = 'user1'"
                )
                .fetch_one(p)
                .await
                .expect("profile"));
            let terms = serde_json::to_string(&full.terms).expect("terms");
            assert_eq!(
                r1,
                (
                    "twitter".into(),
                    "1".into(),
                    full.created_at,
                    42,
                    42,
                    "id1".into(),
                    "user1".into(),
                    "Anna SMITH".into(),
                    full.author_avatar.clone(),
                    1234,
                    true,
                    Some("Zürich".into())
                )
            );
            assert_eq!(text, full.text);
            assert_eq!(r2, (Some("A title".into()), Some("https://x.example/1".into()), Some("de".into()), "reply".into(), false, 1, 2, 3, 4, 5, 6, 7));
            assert_eq!(
                r3,
                (
                    11,
                    Some(0.25),
                    -0.5,
                    Some("negative".into()),
                    Some("CH".into()),
                    Some("female".into()),
                    Some("Web".into()),
                    Some("Desktop".into()),
                    full.media.clone(),
                    Some("CH-ZH".into()),
                    "{}".into(),
                    terms
                )
            );
            assert_eq!(link1, (full.created_at, 42, "twitter".into(), 5, Some("positive".into()), 11, 1234, 0.25));
            assert_eq!(link2, (6, -0.5, "anna smith".into(), "positive".into(), full.kind() as i64, "é".repeat(16), 1, 1));
            assert_eq!(
                profile,
                (
                    "id1".into(),
                    "user1".into(),
                    "Anna SMITH".into(),
                    full.author_avatar.clone(),
                    Some("Writes about coffee".into()),
                    Some("Zürich".into()),
                    true,
                    1234,
                    full.created_at
                )
            );
            // The bare post: absent values stay absent, an unknown rate is 0 on its link, and the
            // text order reads the lowered first 16 characters.
            let (rate, sort, bucket, rule, media, kind): (f64, String, String, Option<String>, i64, i64) = with_pool!(s, |p| sqlx::query_as(
                "SELECT tp.rate, tp.text_sort, tp.bucket, tp.sentiment_rule, CAST(tp.has_media AS BIGINT), CAST(tp.post_kind AS BIGINT) \
                 FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE p.post_key = 'twitter;2'"
            )
            .fetch_one(p)
            .await
            .expect("bare link"));
            assert_eq!((rate, sort.as_str(), bucket.as_str(), rule, media, kind), (0.0, "hello world this", "neutral", None, 0, bare.kind() as i64));
            let absent: (Option<String>, Option<String>, Option<String>, Option<String>) = with_pool!(s, |p| sqlx::query_as(
                "SELECT author_avatar, title, gender, media FROM posts WHERE post_key = 'twitter;2'"
            )
            .fetch_one(p)
            .await
            .expect("bare post"));
            assert_eq!(absent, (None, None, None, None));
            let indirect: Vec<bool> = with_pool!(s, |p| sqlx::query_scalar(
                "SELECT tp.indirect FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id ORDER BY p.post_key"
            )
            .fetch_all(p)
            .await
            .expect("indirect"));
            assert_eq!(indirect, vec![true, false]);
            // Written again with new counts and an older profile: the counts move, the newer
            // profile stays.
            let again = PostRecord { likes: 9, engagement: 19, created_at: full.created_at - 1, author_name: "Old".into(), ..full.clone() };
            let stats = s.ingest_batch(&[again], 50).await.expect("again");
            assert_eq!((stats.new_posts, stats.updated_posts, stats.new_links), (0, 1, 0));
            let (likes, name): (i64, String) = with_pool!(s, |p| sqlx::query_as(
                "SELECT p.likes, a.name FROM posts p JOIN author_profiles a ON a.platform = p.platform AND a.author = p.author_username \
                 WHERE p.post_key = 'twitter;1'"
            )
            .fetch_one(p)
            .await
            .expect("again row"));
            assert_eq!((likes, name.as_str()), (9, "Anna SMITH"));
            s.close().await;
        }
        drop_postgres("ingest_rows").await;
    }
}
