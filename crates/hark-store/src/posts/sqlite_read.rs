//! SQLite's side of [`Store::stream_posts`](crate::Store::stream_posts): the statement read on a
//! read-only connection of its own, on a blocking thread, each value read where SQLite holds it and
//! the rows sent on in batches. Through the pool, every value of every row is first copied by
//! SQLite's allocator (under its global lock), then freed on another thread, and every row crosses
//! threads alone: for the 24 columns of a post that cost three times the rest of a CSV export.

use std::path::Path;
use std::time::Duration;

use rusqlite::OpenFlags;

use super::list::RawRow;
use crate::{Result, StoredRow};

/// The statement's parameters: `$1` the tracker, `$2`..`$3` the range, `$4` a search's match.
pub(super) struct Binds {
    pub tracker_id: i64,
    pub start: i64,
    pub end: i64,
    pub search: Option<String>,
}

/// Runs `sql` (its columns those of `row_columns`) and sends its rows on `tx` in batches of
/// `batch`; stops without error when the receiver is dropped. Blocking: run it on a blocking thread.
pub(super) fn read(path: &Path, sql: &str, binds: &Binds, batch: usize, tx: &tokio::sync::mpsc::Sender<Vec<RawRow>>) -> Result<()> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    crate::search_file::attach(&conn, path)?;
    // The pool's page cache size: the time index and the posts' pages stay in memory.
    conn.pragma_update(None, "cache_size", -65536)?;
    let mut stmt = conn.prepare(sql)?;
    let mut bind = |name: &str, value: &dyn rusqlite::ToSql| -> Result<()> {
        if let Some(i) = stmt.parameter_index(name)? {
            stmt.raw_bind_parameter(i, value)?;
        }
        Ok(())
    };
    bind("$1", &binds.tracker_id)?;
    bind("$2", &binds.start)?;
    bind("$3", &binds.end)?;
    if let Some(m) = &binds.search {
        bind("$4", m)?;
    }
    let mut rows = stmt.raw_query();
    let mut buf = Vec::with_capacity(batch);
    while let Some(r) = rows.next()? {
        buf.push(raw_row(r)?);
        if buf.len() >= batch && tx.blocking_send(std::mem::replace(&mut buf, Vec::with_capacity(batch))).is_err() {
            return Ok(());
        }
    }
    if !buf.is_empty() {
        let _ = tx.blocking_send(buf);
    }
    Ok(())
}

/// One row, in the order of `row_columns`: the post id, the stored post's 13 columns, then the
/// link's and the analysis's.
fn raw_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        post_id: r.get(0)?,
        row: StoredRow {
            platform: r.get(1)?,
            external_id: r.get(2)?,
            created_at: r.get(3)?,
            author_id: r.get(4)?,
            author_username: r.get(5)?,
            author_name: r.get(6)?,
            author_avatar: r.get(7)?,
            author_location: r.get(8)?,
            text: r.get(9)?,
            title: r.get(10)?,
            url: r.get(11)?,
            media: r.get(12)?,
            data: r.get(13)?,
        },
        sentiment: r.get(14)?,
        bucket: r.get(15)?,
        edited: r.get(16)?,
        engagement: r.get(17)?,
        engagement_rate: r.get(18)?,
        author_followers: r.get(19)?,
        impressions: r.get(20)?,
        country: r.get(21)?,
        analysed_lang: r.get(22)?,
        post_type: r.get(23)?,
        matched_at: r.get(24)?,
    })
}
