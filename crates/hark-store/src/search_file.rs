//! SQLite's full-text index in a file of its own, written on a thread of its own.
//!
//! A SQLite file has one writer. Indexing a post's words (FTS5's tokenising and its b-tree
//! entries) took 2.0-2.8 s of the writer's 11-14 s for 200,000 real tweet texts, on the one core
//! the writer has. Beside a database file `hark.db` the index lives in `hark-search.db`, which every
//! reader's connection attaches as the schema `search` (the readers find `posts_fts` there by its
//! unqualified name: there is no table of that name in the main schema; the writer's connection
//! does not attach it, see `Store::connect`). The index's own
//! thread writes it while the store's writer goes on with the rest of the same write: the links,
//! rollups and commit of a batch overlap its indexing, on the other core.
//!
//! The two files stay in step:
//! - A write hands the posts it stores for the first time to this thread, which indexes them in
//!   a transaction of its own and commits it only once the write's own transaction has committed;
//!   when that fails or is dropped, the index's transaction rolls back too. The write returns
//!   once both are done, so a search after it finds what it stored.
//! - A post already in the index is never indexed again (a second process writing the same
//!   files, a write sent again).
//! - At start ([`crate::Store::migrate`]) every post missing from the index is indexed from the
//!   posts table: after a crash between the two commits, a restore (which leaves no index beside
//!   the database it restores), or the first start of a database whose index was in its main
//!   schema. An index holding more posts than the database, or posts it does not have, belongs
//!   to another database: it is emptied and built again.
//!
//! A database in memory (tests) keeps the index in its main schema, written inside the writer's
//! transaction.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

use crate::{Result, StoreError};

/// Attaches the index's file (bound as `?1`) to a reader's connection as the schema `search`.
pub(crate) const ATTACH: &str = "ATTACH DATABASE ?1 AS search";

/// The index's definition: contentless (the texts live in `posts`, and searches read only the
/// matching rowids); detail=none keeps it smallest (queries are token conjunctions, never
/// phrases or column filters). The column names are those of `posts`.
const CREATE: &str = "CREATE VIRTUAL TABLE IF NOT EXISTS posts_fts USING fts5(\
    text, title, author_name, author_username, author_location, \
    content='', detail='none', tokenize='unicode61 remove_diacritics 2')";

/// The statement every write to the index starts with: its columns, those of `posts` after the
/// rowid (the post's id). Followed by `VALUES` or by a `SELECT` of [`POST_COLUMNS`].
pub(crate) const INSERT_INTO: &str = "INSERT INTO posts_fts (rowid, text, title, author_name, author_username, author_location) ";

/// The columns of `posts` the index takes, in [`INSERT_INTO`]'s order.
const POST_COLUMNS: &str = "id, text, title, author_name, author_username, author_location";

/// One post's row, its six values bound in [`INSERT_INTO`]'s order.
pub(crate) const INSERT_ROW: &str = "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// Whether a post is in the index (FTS5 keeps one row a document in `_docsize`).
const INDEXED: &str = "SELECT 1 FROM posts_fts_docsize WHERE id = ?1";

/// Posts indexed from the posts table in one transaction of [`catch_up`].
const CHUNK: i64 = 20_000;

/// The index's file beside the database file `db`: `hark.db` -> `hark-search.db`.
pub(crate) fn path_for(db: &Path) -> PathBuf {
    let stem = db.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "hark".into());
    let name = match db.extension() {
        Some(ext) => format!("{stem}-search.{}", ext.to_string_lossy()),
        None => format!("{stem}-search"),
    };
    db.with_file_name(name)
}

/// The index's file and its WAL and shared-memory files beside `db` (what a restore removes).
pub(crate) fn files_for(db: &Path) -> Vec<PathBuf> {
    let file = path_for(db);
    let with = |suffix: &str| PathBuf::from(format!("{}{suffix}", file.display()));
    vec![with("-wal"), with("-shm"), file]
}

/// Attaches the index's file beside `db` to a connection of rusqlite's (a long read's own
/// connection), when it exists.
pub(crate) fn attach(conn: &Connection, db: &Path) -> rusqlite::Result<()> {
    let file = path_for(db);
    if file.is_file() {
        conn.execute(ATTACH, [file.to_string_lossy()])?;
    }
    Ok(())
}

/// A post's indexed columns.
pub(crate) struct Row {
    pub id: i64,
    pub text: String,
    pub title: Option<String>,
    pub author_name: String,
    pub author_username: String,
    pub author_location: Option<String>,
}

enum Job {
    /// Index the posts missing from the index; answers with how many were indexed.
    CatchUp(oneshot::Sender<std::result::Result<u64, String>>),
    /// Index these posts once `commit` says the write that stored them committed.
    Write { rows: Vec<Row>, commit: oneshot::Receiver<bool>, done: oneshot::Sender<()> },
    /// One step of merging the index's b-trees, about `pages` pages (see
    /// `Store::note_indexed`); answers with the b-trees left.
    Merge { pages: u32, answer: oneshot::Sender<std::result::Result<i64, String>> },
}

/// The index's thread: it ends when the last clone of its store is dropped.
pub(crate) struct SearchWriter {
    jobs: mpsc::Sender<Job>,
    file: PathBuf,
}

impl std::fmt::Debug for SearchWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchWriter").field("file", &self.file).finish()
    }
}

/// A write's posts handed to the index: [`Pending::committed`] once the write has committed;
/// dropped unfinished, the index's transaction rolls back.
pub(crate) struct Pending {
    commit: Option<oneshot::Sender<bool>>,
    done: oneshot::Receiver<()>,
}

impl Pending {
    /// Tells the index the write committed, and waits until the posts are searchable.
    pub(crate) async fn committed(mut self) {
        if let Some(c) = self.commit.take() {
            let _ = c.send(true);
        }
        let _ = (&mut self.done).await;
    }
}

impl SearchWriter {
    /// Opens (creating when missing) the index's file beside the database file `db` and starts
    /// its thread.
    pub(crate) fn start(db: &Path) -> Result<Self> {
        let file = path_for(db);
        let conn = open(&file).map_err(|e| StoreError::Config(format!("cannot open the search index {}: {e}", file.display())))?;
        let (tx, rx) = mpsc::channel();
        let main = db.to_path_buf();
        std::thread::Builder::new()
            .name("hark-search".into())
            .spawn(move || run(conn, &main, rx))
            .map_err(|e| StoreError::Config(format!("cannot start the search index's thread: {e}")))?;
        Ok(Self { jobs: tx, file })
    }

    /// The index's file.
    pub(crate) fn file(&self) -> &Path {
        &self.file
    }

    fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    /// Hands a write's new posts to the index (see [`Pending`]).
    pub(crate) fn index(&self, rows: Vec<Row>) -> Pending {
        let (commit, commit_rx) = oneshot::channel();
        let (done_tx, done) = oneshot::channel();
        if !self.send(Job::Write { rows, commit: commit_rx, done: done_tx }) {
            tracing::error!("the search index's thread has stopped: new posts are indexed at the next start");
        }
        Pending { commit: Some(commit), done }
    }

    /// Merges about `pages` pages of the index's b-trees into fewer; returns how many b-trees
    /// are left. The step runs on the index's thread between two writes' transactions: the file
    /// has one writer, so neither waits for the other's lock (a merge on a reader's connection
    /// made the index's writes fail as busy under a load test, leaving their posts to a later
    /// catch-up).
    pub(crate) async fn merge_step(&self, pages: u32) -> Result<i64> {
        let (tx, rx) = oneshot::channel();
        if !self.send(Job::Merge { pages, answer: tx }) {
            return Err(StoreError::Config("the search index's thread has stopped".into()));
        }
        rx.await
            .map_err(|_| StoreError::Config("the search index's thread has stopped".into()))?
            .map_err(|e| StoreError::Config(format!("cannot merge the search index: {e}")))
    }

    /// Indexes every post of the database missing from the index; returns how many.
    pub(crate) async fn catch_up(&self) -> Result<u64> {
        let (tx, rx) = oneshot::channel();
        if !self.send(Job::CatchUp(tx)) {
            return Err(StoreError::Config("the search index's thread has stopped".into()));
        }
        rx.await
            .map_err(|_| StoreError::Config("the search index's thread has stopped".into()))?
            .map_err(|e| StoreError::Config(format!("cannot build the search index: {e}")))
    }
}

fn open(file: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(file)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "wal")?;
    conn.pragma_update(None, "synchronous", "normal")?;
    conn.pragma_update(None, "cache_size", -32768)?;
    conn.execute_batch(CREATE)?;
    Ok(conn)
}

fn run(mut conn: Connection, main: &Path, jobs: mpsc::Receiver<Job>) {
    // After a failed write the index may lack posts its database has: they are indexed from the
    // posts table before the next write's.
    let mut behind = false;
    while let Ok(job) = jobs.recv() {
        match job {
            Job::CatchUp(answer) => {
                let r = catch_up(&mut conn, main).map_err(|e| e.to_string());
                behind = r.is_err();
                let _ = answer.send(r);
            }
            Job::Write { rows, commit, done } => {
                if behind {
                    match catch_up(&mut conn, main) {
                        Ok(_) => behind = false,
                        Err(e) => tracing::warn!(error = %e, "the search index could not catch up with the posts"),
                    }
                }
                if let Err(e) = write(&mut conn, &rows, commit) {
                    tracing::warn!(error = %e, "indexing new posts for search failed; they are indexed from the posts table next");
                    behind = true;
                }
                let _ = done.send(());
            }
            Job::Merge { pages, answer } => {
                let _ = answer.send(merge_step(&conn, pages).map_err(|e| e.to_string()));
            }
        }
    }
}

/// How many b-trees the index holds (FTS5 numbers each one's segment).
pub(crate) const SEGMENTS: &str = "SELECT COUNT(DISTINCT segid) FROM posts_fts_idx";

/// The statement of one merge step of about `pages` pages: a negative rank merges whatever
/// b-trees there are, not only those of one level.
pub(crate) fn merge_sql(pages: u32) -> String {
    format!("INSERT INTO posts_fts (posts_fts, rank) VALUES ('merge', -{pages})")
}

/// One merge step of about `pages` pages; returns the b-trees left.
fn merge_step(conn: &Connection, pages: u32) -> rusqlite::Result<i64> {
    conn.execute(&merge_sql(pages), [])?;
    conn.query_row(SEGMENTS, [], |r| r.get(0))
}

/// Indexes `rows` (those not indexed yet) in one transaction, committed when `commit` says the
/// write that stored them committed, rolled back otherwise.
fn write(conn: &mut Connection, rows: &[Row], commit: oneshot::Receiver<bool>) -> rusqlite::Result<()> {
    // Taking the file's write lock first: another process writing the file (a `hark` command
    // beside a server) makes this wait for it, where a read that became a write would fail.
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    {
        let mut indexed = tx.prepare_cached(INDEXED)?;
        let mut insert = tx.prepare_cached(&format!("{INSERT_INTO}{INSERT_ROW}"))?;
        for r in rows {
            if indexed.exists([r.id])? {
                continue;
            }
            insert.execute(params![r.id, r.text, r.title, r.author_name, r.author_username, r.author_location])?;
        }
    }
    if commit.blocking_recv().unwrap_or(false) {
        tx.commit()
    } else {
        tx.rollback()
    }
}

/// Indexes the posts of the database at `main` that the index lacks, in transactions of
/// [`CHUNK`] posts; an index that cannot be this database's is emptied first.
fn catch_up(conn: &mut Connection, main: &Path) -> rusqlite::Result<u64> {
    let r = catch_up_attached(conn, main);
    // Detached again: a write's `BEGIN IMMEDIATE` takes the lock of every attached file, and the
    // index's writes must never hold the database's own.
    let detached = conn.execute("DETACH DATABASE data", []);
    let n = r?;
    detached?;
    Ok(n)
}

/// [`catch_up`] with the database attached as `data`.
fn catch_up_attached(conn: &mut Connection, main: &Path) -> rusqlite::Result<u64> {
    let attached: bool = conn
        .query_row("SELECT 1 FROM pragma_database_list WHERE name = 'data'", [], |_| Ok(true))
        .optional()?
        .unwrap_or(false);
    if !attached {
        conn.execute("ATTACH DATABASE ?1 AS data", [main.to_string_lossy()])?;
    }
    let count = |conn: &Connection, sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0));
    let (posts, last_post) = conn.query_row("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM data.posts", [], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
    let (indexed, last_indexed) =
        conn.query_row("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM posts_fts_docsize", [], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
    // Posts after the last one indexed (the usual case) are indexed in chunks of ids.
    let mut from = last_indexed;
    if indexed > posts || last_indexed > last_post {
        tracing::warn!(indexed, posts, "the search index is not this database's: building it again");
        conn.execute("INSERT INTO posts_fts (posts_fts) VALUES ('delete-all')", [])?;
        from = 0;
    }
    let started = Instant::now();
    let mut done = 0u64;
    if last_post > from {
        tracing::info!(posts = last_post - from, "indexing posts for search");
    }
    while from < last_post {
        let to = (from + CHUNK).min(last_post);
        let tx = conn.transaction()?;
        done += tx.execute(&format!("{INSERT_INTO}SELECT {POST_COLUMNS} FROM data.posts WHERE id > ?1 AND id <= ?2"), [from, to])? as u64;
        tx.commit()?;
        from = to;
    }
    // Posts missing below it (a write of another process committed after a later one, then a
    // crash): found by their count, then by id.
    let indexed = count(conn, "SELECT COUNT(*) FROM posts_fts_docsize")?;
    let posts = count(conn, "SELECT COUNT(*) FROM data.posts WHERE id <= (SELECT COALESCE(MAX(id), 0) FROM posts_fts_docsize)")?;
    if indexed < posts {
        let tx = conn.transaction()?;
        done += tx.execute(
            &format!("{INSERT_INTO}SELECT {POST_COLUMNS} FROM data.posts WHERE id NOT IN (SELECT id FROM posts_fts_docsize)"),
            [],
        )? as u64;
        tx.commit()?;
    }
    if done > 0 {
        tracing::info!(posts = done, seconds = started.elapsed().as_secs_f64(), "posts indexed for search");
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(dir: &Path, posts: i64) -> PathBuf {
        let db = dir.join("t.db");
        let mut conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS posts (id INTEGER PRIMARY KEY, text TEXT NOT NULL, title TEXT, \
             author_name TEXT NOT NULL DEFAULT '', author_username TEXT NOT NULL DEFAULT '', author_location TEXT)",
        )
        .unwrap();
        let have: i64 = conn.query_row("SELECT COUNT(*) FROM posts", [], |r| r.get(0)).unwrap();
        let tx = conn.transaction().unwrap();
        for i in have + 1..=posts {
            tx.execute("INSERT INTO posts (id, text) VALUES (?1, ?2)", params![i, format!("kestrel number{i}")]).unwrap();
        }
        tx.commit().unwrap();
        db
    }

    fn found(db: &Path, words: &str) -> Vec<i64> {
        let conn = Connection::open(db).unwrap();
        attach(&conn, db).unwrap();
        let mut st = conn.prepare("SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?1 ORDER BY rowid").unwrap();
        st.query_map([words], |r| r.get(0)).unwrap().collect::<rusqlite::Result<Vec<i64>>>().unwrap()
    }

    fn row(id: i64, text: &str) -> Row {
        Row { id, text: text.into(), title: None, author_name: "Ann".into(), author_username: "ann".into(), author_location: None }
    }

    #[test]
    fn files_sit_beside_the_database() {
        assert_eq!(path_for(Path::new("/d/hark.db")), PathBuf::from("/d/hark-search.db"));
        assert_eq!(path_for(Path::new("/d/store")), PathBuf::from("/d/store-search"));
        assert_eq!(files_for(Path::new("/d/hark.db"))[0], PathBuf::from("/d/hark-search.db-wal"));
    }

    /// A write's posts are searchable once it commits; a write that fails leaves nothing in the
    /// index; a post sent twice is indexed once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn posts_are_indexed_when_their_write_commits() {
        let dir = tempfile::tempdir().unwrap();
        let db = database(dir.path(), 0);
        let w = SearchWriter::start(&db).unwrap();
        w.index(vec![row(1, "heron lake"), row(2, "heron marsh")]).committed().await;
        assert_eq!(found(&db, "heron"), vec![1, 2]);
        // Dropped unfinished: the write rolled back.
        let p = w.index(vec![row(3, "heron pond")]);
        drop(p);
        w.index(vec![row(2, "heron marsh"), row(4, "heron river")]).committed().await;
        assert_eq!(found(&db, "heron"), vec![1, 2, 4]);
        assert_eq!(found(&db, "marsh"), vec![2]);
        let conn = Connection::open(&w.file).unwrap();
        let docs: i64 = conn.query_row("SELECT COUNT(*) FROM posts_fts_docsize", [], |r| r.get(0)).unwrap();
        assert_eq!(docs, 3, "post 2 indexed once, post 3 not at all");
    }

    /// Merge steps run on the index's thread between writes: every write's posts are searchable
    /// when it returns, and the b-trees come down to one. A write beside another process
    /// writing the file waits for it instead of failing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn merges_and_writes_share_the_index_thread() {
        let dir = tempfile::tempdir().unwrap();
        let db = database(dir.path(), 0);
        let w = std::sync::Arc::new(SearchWriter::start(&db).unwrap());
        // One b-tree per committed write.
        for i in 1..=30 {
            w.index(vec![row(i, &format!("heron word{}", i % 5))]).committed().await;
        }
        let merging = {
            let w = w.clone();
            tokio::spawn(async move {
                let mut left = Vec::new();
                for _ in 0..200 {
                    left.push(w.merge_step(2).await.unwrap());
                    tokio::task::yield_now().await;
                }
                left
            })
        };
        for i in 31..=130 {
            w.index(vec![row(i, &format!("heron word{} kite{i}", i % 5))]).committed().await;
            assert_eq!(found(&db, &format!("kite{i}")), vec![i], "post {i} searchable when its write returned");
        }
        let left = merging.await.unwrap();
        assert!(left.iter().any(|n| *n < 30), "the merge made fewer b-trees: {left:?}");
        while w.merge_step(64).await.unwrap() > 1 {}
        assert_eq!(found(&db, "heron").len(), 130);
        assert_eq!(found(&db, "word3"), (1..=130).filter(|i| i % 5 == 3).collect::<Vec<_>>());
        // Another process holds the file's write lock for a while, and writes.
        let other = Connection::open(&w.file).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        other.execute(&format!("{INSERT_INTO}VALUES (500, 'plover', NULL, '', '', NULL)"), []).unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            other.execute_batch("COMMIT").unwrap();
        });
        w.index(vec![row(131, "heron plover")]).committed().await;
        release.join().unwrap();
        assert_eq!(found(&db, "plover"), vec![131, 500]);
    }

    /// Posts stored while the index was not written (a crash between the commits, an index
    /// removed by a restore) are indexed at the next catch-up, including gaps below the last
    /// post indexed; an index of another database is built again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn catching_up_indexes_what_the_index_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let db = database(dir.path(), 45_000);
        let w = SearchWriter::start(&db).unwrap();
        assert_eq!(w.catch_up().await.unwrap(), 45_000);
        assert_eq!(found(&db, "number44999"), vec![44_999]);
        assert_eq!(w.catch_up().await.unwrap(), 0, "nothing left");
        // The database's writer holds its lock: the index's writes do not wait for it.
        let main = Connection::open(&db).unwrap();
        main.execute_batch("BEGIN IMMEDIATE").unwrap();
        let t = Instant::now();
        w.index(vec![row(45_000, "kestrel number45000")]).committed().await;
        assert!(t.elapsed() < Duration::from_secs(5), "the index's write waited for the database's lock");
        main.execute_batch("ROLLBACK").unwrap();
        // A gap below the last post indexed.
        let conn = Connection::open(&w.file).unwrap();
        // Contentless tables delete by rowid with the values indexed.
        conn.execute("INSERT INTO posts_fts (posts_fts, rowid, text, title, author_name, author_username, author_location) VALUES ('delete', 7, 'kestrel number7', NULL, '', '', NULL)", [])
            .unwrap();
        assert_eq!(found(&db, "number7"), Vec::<i64>::new());
        database(dir.path(), 45_010);
        assert_eq!(w.catch_up().await.unwrap(), 11);
        assert_eq!(found(&db, "number7"), vec![7]);
        assert_eq!(found(&db, "number45010"), vec![45_010]);
        // The database replaced by a smaller one: its index is rebuilt.
        drop(w);
        Connection::open(&db).unwrap().execute("DELETE FROM posts WHERE id > 100", []).unwrap();
        let w = SearchWriter::start(&db).unwrap();
        assert_eq!(w.catch_up().await.unwrap(), 100);
        assert_eq!(found(&db, "kestrel").len(), 100);
    }
}
