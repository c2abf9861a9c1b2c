//! The walk: a sort whose key is kept on the link reads the key's index in order, one stream per
//! platform and kind of post (per bucket for the score), merged until the page is found.

use hark_core::PlatformSet;

use super::plan::SearchPlan;
use super::query::{KeyKind, PostQuery, PostSort};
use crate::sentiment::{bucket_index, SENTIMENT_BUCKETS, SENTIMENT_COLUMNS};
use crate::dialect::{id_list, Backend};
use crate::ingest::PostKind;
use crate::time::hour_floor;
use crate::{with_pool, Result, Store};

/// Index entries a walk's stream reads at first: five quarters of the page's share of the stream
/// (`WALK_FIRST` / 4; at least [`WALK_FIRST_MIN`]). A stream read again reads what the page still
/// lacks at the share of its links kept so far, with a margin, up to four times its piece before
/// (at most [`WALK_PIECE_MAX`]).
const WALK_FIRST: i64 = 5;
const WALK_FIRST_MIN: i64 = 16;
const WALK_FIRST_MIN_PROBED: i64 = 4;
const WALK_PIECE_MAX: i64 = 100_000;

/// A sort key value read from a link's index (where the next piece of a walk starts).
#[derive(Debug, Clone)]
enum KeyValue {
    Int(i64),
    Real(f64),
    Text(String),
}

impl KeyValue {
    /// As the database compares them: numbers by value (0.0 and -0.0 equal), text bytewise
    /// (SQLite's BINARY, PostgreSQL's "C" collation of the column).
    fn compare(&self, other: &KeyValue) -> std::cmp::Ordering {
        match (self, other) {
            (KeyValue::Int(a), KeyValue::Int(b)) => a.cmp(b),
            (KeyValue::Real(a), KeyValue::Real(b)) => a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal),
            (KeyValue::Text(a), KeyValue::Text(b)) => a.as_bytes().cmp(b.as_bytes()),
            _ => std::cmp::Ordering::Equal,
        }
    }
}

/// A link read in a walk: its key, time and post id.
type WalkEntry = (KeyValue, i64, i64);

/// One stream of a walk (the links of one platform and kind of post, or of one sentiment
/// bucket): its condition on the index's leading columns, where it stands, the size of its next
/// piece, and whether it has no more links in the range.
struct Stream {
    condition: String,
    after: Option<WalkEntry>,
    piece: i64,
    complete: bool,
    /// Links read and kept so far.
    read: i64,
    kept: i64,
}

impl Store {
    /// Ids of a page's posts in a sort whose key is kept on the link, read in the order of the
    /// key's index (tracker, platform, kind of post, key, time, post, bucket; for the score:
    /// tracker, bucket, score, time, post, platform, kind): one stream per platform and kind (per
    /// bucket), each read in pieces (the range, the subtracker and the bucket (platform and kind)
    /// filters checked on the index entries, the deletion against the range's deleted links read
    /// first, a search and a filter on the post on each piece's links, or for a word of moderate
    /// use against its matches read into memory; a piece starts where the one before ended, by a
    /// row-value bound, and is sized as [`WALK_FIRST`] says). The stream least far along is read
    /// next, until the page's posts
    /// are all ahead of every stream still open: a stream's posts never hold back another's,
    /// however differently the key runs on each, and a filter on the platform or the kind (stories,
    /// retweets) reads only the streams it keeps.
    pub(crate) async fn walk_ids(&self, tracker_id: i64, q: &PostQuery, plan: SearchPlan, m: &str, offset: i64, per_page: i64) -> Result<Vec<i64>> {
        let backend = self.backend();
        let Some((key, index, kind)) = q.sort.link_key() else { return Ok(Vec::new()) };
        let (start, end) = (q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX));
        // A word with a moderate number of matches: they are read at once, and the links read
        // are tested against them here (a test of the full-text index per link costs ~0.07 ms).
        let matches = if plan == SearchPlan::Set { self.search_matches(m, self.tuning.search_set_max).await? } else { None };
        let (plan, m) = if matches.is_some() { (SearchPlan::None, "") } else { (plan, m) };
        let Some((w, needs_posts)) = q.where_with(backend, plan, true, None) else { return Ok(Vec::new()) };
        let join = if needs_posts { " JOIN posts p ON p.id = tp.post_id" } else { "" };
        // The index entries answer the range, platform, kind, bucket and subtracker: only a
        // search tested against the full-text index, a filter on the post, or the deletion is
        // checked on each link read. When nothing else is, the range's deleted links (migration
        // 0016; usually a few) are read first, as one row, and left out here instead; when there
        // are many, each link read is looked up after all.
        let looked_up = needs_posts || plan != SearchPlan::None;
        let deleted = if looked_up {
            None
        } else {
            let concat = backend.id_concat("post_id");
            let sql = format!(
                "SELECT {concat} FROM (SELECT post_id FROM tracker_deleted_posts WHERE tracker_id = $1 \
                 AND created_at >= $2 AND created_at <= $3 LIMIT {}) d",
                self.tuning.walk_deleted_max + 1
            );
            let list: Option<String> =
                with_pool!(self, |p| sqlx::query_scalar(&sql).bind(tracker_id).bind(start).bind(end).fetch_one(p).await?);
            Some(id_list(list)).filter(|ids| ids.len() as i64 <= self.tuning.walk_deleted_max)
        };
        let keep = if looked_up || deleted.is_none() {
            format!("CASE WHEN EXISTS (SELECT 1 FROM tracker_posts tp{join} WHERE {w} AND tp.post_id = c.post_id) THEN 1 ELSE 0 END")
        } else {
            "1".to_string()
        };
        let sub = q.subtracker_bit().map(|bit| format!(" AND (subtrackers & {bit}) <> 0")).unwrap_or_default();
        let desc = !q.ascending;
        let (dir, cmp) = if desc { ("DESC", "<") } else { ("ASC", ">") };
        let from = match backend {
            Backend::Sqlite => format!("tracker_posts INDEXED BY {index}"),
            Backend::Postgres => "tracker_posts".to_string(),
        };
        let platform_col = match backend {
            Backend::Sqlite => "(platform || '')",
            Backend::Postgres => "platform",
        };
        // The kinds of post kept (retweets and stories are marked on the link, migration 0015).
        let kinds: Vec<PostKind> = if q.stories_only {
            vec![PostKind::Story]
        } else if q.exclude_retweets {
            vec![PostKind::Post, PostKind::Story]
        } else {
            vec![PostKind::Post, PostKind::Retweet, PostKind::Story]
        };
        // Stories are Instagram's only (and retweets twitter's).
        let mut platforms: Vec<&'static str> =
            q.filter.platforms.iter().filter(|p| !q.stories_only || *p == hark_core::Platform::Instagram).map(|p| p.name()).collect();
        // A stream with no post of the buckets kept in the range would be passed entry by entry
        // to its end: the hourly rollup's whole hours (a superset of the range) tell which
        // platforms (for the score: which buckets) have none, and those streams are left out.
        let mut buckets: Vec<&'static str> = if q.bucket_list().is_some() { q.sentiment.clone() } else { SENTIMENT_BUCKETS.to_vec() };
        if q.bucket_list().is_some() || q.sort == PostSort::Sentiment {
            let sums = SENTIMENT_COLUMNS.iter().map(|(_, c)| format!("CAST(COALESCE(SUM({c}), 0) AS BIGINT)")).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT platform, {sums} FROM rollup_hourly WHERE tracker_id = $1 AND hour >= $2 AND hour <= $3 GROUP BY platform"
            );
            let rows: Vec<(String, i64, i64, i64, i64, i64)> = with_pool!(self, |p| sqlx::query_as(&sql)
                .bind(tracker_id)
                .bind(hour_floor(start))
                .bind(end)
                .fetch_all(p)
                .await?);
            let has = |platform: &str, bucket: &str| {
                rows.iter().any(|r| {
                    r.0 == platform && [r.1, r.2, r.3, r.4, r.5][bucket_index(bucket)] > 0
                })
            };
            if q.sort == PostSort::Sentiment {
                buckets.retain(|b| platforms.iter().any(|p| has(p, b)));
            } else {
                platforms.retain(|p| buckets.iter().any(|b| has(p, b)));
            }
        }
        let quoted = |v: &[&str]| v.iter().map(|x| format!("'{x}'")).collect::<Vec<_>>().join(",");
        // The streams (each one's condition on the index's leading columns: platform and kind, or
        // the bucket for the score) and the filter checked on the index entries (for the score:
        // the platforms and kinds; otherwise the buckets).
        let (conditions, entry_filter): (Vec<String>, Vec<String>) = if q.sort == PostSort::Sentiment {
            let bucket_col = match backend {
                Backend::Sqlite => "(bucket || '')",
                Backend::Postgres => "bucket",
            };
            let mut entry = Vec::new();
            if platforms.len() != PlatformSet::all().iter().count() {
                // An expression on PostgreSQL too: a condition on the column itself lets the
                // planner read the platform's links through another key's index (tracker,
                // platform, kind, …), fetching and sorting them all, once per bucket (stories:
                // 3,105 links five times, 20–35 ms, against about 3 ms in the score's index).
                entry.push(format!("(platform || '') IN ({})", quoted(&platforms)));
            }
            if kinds.len() < 3 {
                entry.push(format!("post_kind IN ({})", kinds.iter().map(|k| (*k as i16).to_string()).collect::<Vec<_>>().join(",")));
            }
            (buckets.iter().map(|b| format!("{bucket_col} = '{b}'")).collect(), entry)
        } else {
            let streams = platforms
                .iter()
                .flat_map(|p| kinds.iter().filter(move |k| PostKind::of_platform(p, **k)).map(move |k| (p, *k)))
                .map(|(p, k)| format!("{platform_col} = '{p}' AND post_kind = {}", k as i16))
                .collect();
            (streams, q.bucket_list().map(|l| format!("bucket IN ({l})")).into_iter().collect())
        };
        let entry_filter: String = entry_filter.iter().map(|f| format!(" AND {f}")).collect();
        let need = offset.saturating_add(per_page);
        // A search on SQLite tests each link read against the full-text index, which costs far
        // more than reading the link: its streams start smaller. So do the score's streams with
        // a filter on the platform or the kind checked on their entries (stories: one entry in a
        // hundred passes), where the best bucket's stream usually holds the page.
        let small_start = (plan.probes() && backend == Backend::Sqlite) || (q.sort == PostSort::Sentiment && !entry_filter.is_empty());
        let first_min = if small_start { WALK_FIRST_MIN_PROBED } else { WALK_FIRST_MIN };
        let first = (need.saturating_mul(WALK_FIRST) / 4 / conditions.len().max(1) as i64).max(first_min);
        let mut streams: Vec<Stream> =
            conditions.into_iter().map(|c| Stream { condition: c, after: None, piece: first, complete: false, read: 0, kept: 0 }).collect();
        let order = |a: &WalkEntry, b: &WalkEntry| {
            let o = a.0.compare(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
            if desc { o.reverse() } else { o }
        };
        // The search is $4 when there is one; a piece's bound follows it.
        let first_bound = if m.is_empty() { 4 } else { 5 };
        let mut found: Vec<WalkEntry> = Vec::new();
        // Posts found at or ahead of every open stream's place (after the last read).
        let mut ahead = 0i64;
        loop {
            // Every stream not read yet, at once (one round trip); then the open stream least far
            // along.
            let unread: Vec<usize> = (0..streams.len()).filter(|&i| !streams[i].complete && streams[i].after.is_none()).collect();
            let chosen: Vec<usize> = if unread.is_empty() {
                let next = streams
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| !s.complete)
                    .min_by(|(_, a), (_, b)| match (&a.after, &b.after) {
                        (Some(x), Some(y)) => order(x, y),
                        _ => std::cmp::Ordering::Equal,
                    })
                    .map(|(i, _)| i);
                match next {
                    Some(i) => vec![i],
                    None => break,
                }
            } else {
                unread
            };
            let after = streams[chosen[0]].after.clone().filter(|_| chosen.len() == 1);
            if let (Some(_), &[i]) = (&after, chosen.as_slice()) {
                // A stream read again: the posts still missing, at the share of its links kept so
                // far, are at most what it must give (the others give some too); that, with a
                // margin, unless more than the piece grown fourfold.
                let s = &mut streams[i];
                if s.kept > 0 {
                    let estimate = ((need - ahead).max(1) as f64 * s.read as f64 / s.kept as f64 * 1.25).ceil() as i64 + first_min;
                    s.piece = estimate.clamp(first_min, s.piece);
                }
            }
            let bound = if after.is_some() {
                format!(" AND ({key}, created_at, post_id) {cmp} (${}, ${}, ${})", first_bound, first_bound + 1, first_bound + 2)
            } else {
                String::new()
            };
            let parts: Vec<String> = chosen
                .iter()
                .map(|&i| {
                    format!(
                        "SELECT CAST({i} AS BIGINT) AS s, post_id, {key}, created_at FROM (SELECT post_id, {key}, created_at FROM {from} \
                         WHERE tracker_id = $1 AND {condition} AND created_at >= $2 AND created_at <= $3{entry_filter}{sub}{bound} \
                         ORDER BY {key} {dir}, created_at {dir}, post_id {dir} LIMIT {piece}) x{i}",
                        condition = streams[i].condition,
                        piece = streams[i].piece,
                    )
                })
                .collect();
            let sql = format!(
                "SELECT c.s, c.post_id, c.{key}, c.created_at, {keep} FROM ({}) c \
                 ORDER BY c.s, c.{key} {dir}, c.created_at {dir}, c.post_id {dir}",
                parts.join(" UNION ALL ")
            );
            let links: Vec<(usize, WalkEntry, bool)> = with_pool!(self, |p| {
                macro_rules! read {
                    ($t:ty, $wrap:path) => {{
                        let mut query = sqlx::query_as::<_, (i64, i64, $t, i64, i32)>(&sql).bind(tracker_id).bind(start).bind(end);
                        if !m.is_empty() {
                            query = query.bind(m);
                        }
                        if let Some((k, c, id)) = &after {
                            query = match k {
                                KeyValue::Int(v) => query.bind(*v),
                                KeyValue::Real(v) => query.bind(*v),
                                KeyValue::Text(v) => query.bind(v.clone()),
                            }
                            .bind(*c)
                            .bind(*id);
                        }
                        query
                            .fetch_all(p)
                            .await?
                            .into_iter()
                            .map(|(s, id, k, c, keep)| (s as usize, ($wrap(k), c, id), keep != 0))
                            .collect()
                    }};
                }
                match kind {
                    KeyKind::Int => read!(i64, KeyValue::Int),
                    KeyKind::Real => read!(f64, KeyValue::Real),
                    KeyKind::Text => read!(String, KeyValue::Text),
                }
            });
            for &i in &chosen {
                let rows: Vec<&(usize, WalkEntry, bool)> = links.iter().filter(|l| l.0 == i).collect();
                let s = &mut streams[i];
                s.complete = (rows.len() as i64) < s.piece;
                s.piece = s.piece.saturating_mul(4).min(WALK_PIECE_MAX);
                s.after = rows.last().map(|l| l.1.clone());
                let matched = |id: &i64| {
                    matches.as_ref().map_or(true, |ids| ids.binary_search(id).is_ok())
                        && deleted.as_ref().map_or(true, |ids| ids.binary_search(id).is_err())
                };
                let before = found.len();
                found.extend(rows.iter().filter(|l| l.2 && matched(&l.1 .2)).map(|l| l.1.clone()));
                s.read += rows.len() as i64;
                s.kept += (found.len() - before) as i64;
            }
            // Done when `need` posts found are at or ahead of every open stream's place.
            let mut open = streams.iter().filter(|s| !s.complete).peekable();
            if open.peek().is_none() {
                break;
            }
            if open.clone().any(|s| s.after.is_none()) {
                continue;
            }
            let Some(frontier) = open.filter_map(|s| s.after.as_ref()).min_by(|a, b| order(a, b)) else { break };
            ahead = found.iter().filter(|e| order(e, frontier) != std::cmp::Ordering::Greater).count() as i64;
            if ahead >= need {
                break;
            }
        }
        found.sort_by(order);
        Ok(found.into_iter().skip(offset as usize).take(per_page as usize).map(|e| e.2).collect())
    }

    /// The post ids matching a search (SQLite), sorted, when there are at most `max`.
    pub(crate) async fn search_matches(&self, m: &str, max: i64) -> Result<Option<Vec<i64>>> {
        let sql = format!("SELECT group_concat(rowid) FROM (SELECT rowid FROM posts_fts WHERE posts_fts MATCH $1 LIMIT {})", max + 1);
        let list: Option<String> = with_pool!(self, |p| sqlx::query_scalar(&sql).bind(m).fetch_one(p).await?);
        Ok(Some(id_list(list)).filter(|ids| ids.len() as i64 <= max))
    }
}
