//! Backup and restore of the embedded SQLite database (`hark backup`, `hark restore`).
//!
//! A backup is SQLite's online backup API run in one step: every page is copied inside a single
//! read transaction, so the copy is the database as it stood at one instant, while the server
//! keeps writing (in WAL mode a reader never blocks a writer). The copy is written beside its
//! destination under a temporary name and renamed into place when complete, so a backup file
//! that exists is a whole one.
//!
//! A restore checks the backup first (a SQLite file of Hark's that passes `PRAGMA quick_check`,
//! from this version or an older one), keeps the database it replaces beside it, and copies the
//! backup in with the same API. PostgreSQL has its own tools (pg_dump, pg_restore): see
//! docs/operations.md.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use crate::{Result, StoreError, SQLITE_MIGRATIONS};

/// What a backup file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupSummary {
    pub trackers: i64,
    pub posts: i64,
    /// The newest migration applied to it.
    pub migration: i64,
    pub bytes: u64,
}

/// The outcome of a restore.
#[derive(Clone, Debug)]
pub struct Restored {
    pub summary: BackupSummary,
    /// Where the database the backup replaced was moved (`None` when there was none).
    pub previous: Option<PathBuf>,
}

/// The file of a `sqlite:` database URL.
pub fn sqlite_path(url: &str) -> Result<PathBuf> {
    use std::str::FromStr;
    let opts = sqlx::sqlite::SqliteConnectOptions::from_str(url)?;
    Ok(opts.get_filename().to_path_buf())
}

/// The newest migration this version of Hark knows (SQLite).
pub fn latest_sqlite_migration() -> i64 {
    SQLITE_MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Config(format!("{what} {}: {e}", path.display()))
}

/// Copies every page of the database at `from` into `into` (a file the caller may remove) in one
/// step of the backup API: one read transaction, one consistent instant.
fn copy_pages(from: &Path, into: &Path) -> Result<()> {
    let src = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    // A server writing at this moment holds the write lock for a few milliseconds at a time;
    // the read transaction waits for nothing in WAL mode, but a busy timeout covers a rollback
    // journal's brief exclusive locks too.
    src.busy_timeout(Duration::from_secs(30))?;
    let mut dst = Connection::open(into)?;
    {
        let backup = Backup::new(&src, &mut dst)?;
        // All pages in one step (-1): a step is one read transaction. Busy or locked (another
        // connection's brief lock): wait and try the whole step again, for at most a minute.
        let mut waited = Duration::ZERO;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked if waited < Duration::from_secs(60) => {
                    std::thread::sleep(Duration::from_millis(50));
                    waited += Duration::from_millis(50);
                }
                _ => return Err(StoreError::Read(format!("{} stayed locked for a minute", from.display()))),
            }
        }
    }
    dst.close().map_err(|(_, e)| e)?;
    Ok(())
}

/// Writes a consistent copy of the SQLite database `db` to `dest`, which must not exist yet.
pub fn backup_sqlite(db: &Path, dest: &Path) -> Result<BackupSummary> {
    if !db.is_file() {
        return Err(StoreError::Config(format!("there is no database at {}", db.display())));
    }
    if dest.exists() {
        return Err(StoreError::Config(format!("{} already exists; choose a new file name", dest.display())));
    }
    let partial = with_suffix(dest, ".partial");
    let _ = std::fs::remove_file(&partial);
    let copied = copy_pages(db, &partial).and_then(|()| inspect_backup(&partial));
    match copied {
        Ok(summary) => {
            std::fs::rename(&partial, dest).map_err(|e| io_error("cannot write", dest, e))?;
            Ok(summary)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Checks that `path` is a whole Hark SQLite database this version can open, and counts what it
/// holds.
pub fn inspect_backup(path: &Path) -> Result<BackupSummary> {
    let not_hark = |why: String| StoreError::Corrupt(format!("{} is not a Hark backup: {why}", path.display()));
    let bytes = std::fs::metadata(path).map_err(|e| io_error("cannot read", path, e))?.len();
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| not_hark(e.to_string()))?;
    let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| not_hark(e.to_string()))?;
    if check != "ok" {
        return Err(not_hark(format!("the database check says {check}")));
    }
    let tables: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('_sqlx_migrations', 'trackers', 'posts')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| not_hark(e.to_string()))?;
    if tables != 3 {
        return Err(not_hark("it has no trackers and posts tables".into()));
    }
    let migration: i64 = conn.query_row("SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success", [], |r| r.get(0))?;
    let latest = latest_sqlite_migration();
    if migration > latest {
        return Err(StoreError::Config(format!(
            "{} was written by a newer version of Hark (migration {migration}; this one knows up to {latest}): restore it with that version",
            path.display()
        )));
    }
    let trackers: i64 = conn.query_row("SELECT COUNT(*) FROM trackers", [], |r| r.get(0))?;
    let posts: i64 = conn.query_row("SELECT COUNT(*) FROM posts", [], |r| r.get(0))?;
    Ok(BackupSummary { trackers, posts, migration, bytes })
}

/// Replaces the SQLite database `db` with the backup `from`. The database replaced (with its
/// write-ahead log, if any) is moved to `db` + `.before-restore-<stamp>` rather than deleted. The
/// caller makes sure no server has `db` open (see [`ServeLock`]).
pub fn restore_sqlite(from: &Path, db: &Path, stamp: &str) -> Result<Restored> {
    let summary = inspect_backup(from)?;
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
    }
    let incoming = with_suffix(db, ".restoring");
    let _ = std::fs::remove_file(&incoming);
    if let Err(e) = copy_pages(from, &incoming) {
        let _ = std::fs::remove_file(&incoming);
        return Err(e);
    }
    let previous = if db.exists() {
        let aside = with_suffix(db, &format!(".before-restore-{stamp}"));
        // The log and shared-memory files travel with their database, so the copy set aside
        // still opens with every committed write.
        for suffix in ["-wal", "-shm"] {
            let f = with_suffix(db, suffix);
            if f.exists() {
                let to = with_suffix(&aside, suffix);
                std::fs::rename(&f, &to).map_err(|e| io_error("cannot move", &f, e))?;
            }
        }
        std::fs::rename(db, &aside).map_err(|e| io_error("cannot move", db, e))?;
        Some(aside)
    } else {
        None
    };
    std::fs::rename(&incoming, db).map_err(|e| io_error("cannot write", db, e))?;
    // The full-text index beside the database replaced is its own, not the backup's: it goes, and
    // the next start builds the restored database's from its posts (search_file.rs).
    for f in crate::search_file::files_for(db) {
        match std::fs::remove_file(&f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_error("cannot remove", &f, e)),
            _ => {}
        }
    }
    Ok(Restored { summary, previous })
}

/// The lock a server holds on a file beside its SQLite database (`hark.db.lock`) while it runs, so
/// that a restore does not swap the database under it. Released when dropped (or when the process ends,
/// however it ends).
#[derive(Debug)]
pub struct ServeLock {
    _file: std::fs::File,
}

impl ServeLock {
    fn path(db: &Path) -> PathBuf {
        with_suffix(db, ".lock")
    }

    /// Takes the lock of `db`; `Ok(None)` when another process holds it.
    pub fn try_take(db: &Path) -> Result<Option<ServeLock>> {
        let path = Self::path(db);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io_error("cannot open", &path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(ServeLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(io_error("cannot lock", &path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(path: &Path, posts: i64) {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE _sqlx_migrations (version INTEGER, success BOOLEAN);
             CREATE TABLE trackers (id INTEGER PRIMARY KEY);
             CREATE TABLE posts (id INTEGER PRIMARY KEY, text TEXT);
             INSERT INTO _sqlx_migrations VALUES (1, 1);
             INSERT INTO trackers VALUES (1);",
        )
        .unwrap();
        for i in 0..posts {
            conn.execute("INSERT INTO posts (text) VALUES (?1)", [format!("post {i}")]).unwrap();
        }
    }

    #[test]
    fn a_backup_is_whole_and_a_restore_keeps_what_it_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("hark.db");
        database(&db, 50);
        let dest = dir.path().join("copy.db");
        let s = backup_sqlite(&db, &dest).unwrap();
        assert_eq!((s.trackers, s.posts, s.migration), (1, 50, 1));
        assert!(!with_suffix(&dest, ".partial").exists());
        // A second backup to the same name is refused; the first stays.
        assert!(matches!(backup_sqlite(&db, &dest), Err(StoreError::Config(_))));
        assert_eq!(inspect_backup(&dest).unwrap().posts, 50);

        // The live database moves on, then the backup is restored over it.
        Connection::open(&db).unwrap().execute("DELETE FROM posts", []).unwrap();
        // Its full-text index is its own: the restore removes it (the next start builds one).
        let index = crate::search_file::files_for(&db);
        for f in &index[1..] {
            std::fs::write(f, b"index").unwrap();
        }
        let r = restore_sqlite(&dest, &db, "t1").unwrap();
        assert!(index.iter().all(|f| !f.exists()), "the replaced database's search index is removed");
        assert_eq!(r.summary.posts, 50);
        let count = |p: &Path| Connection::open(p).unwrap().query_row("SELECT COUNT(*) FROM posts", [], |r| r.get::<_, i64>(0)).unwrap();
        assert_eq!(count(&db), 50);
        assert_eq!(count(r.previous.as_ref().unwrap()), 0, "the replaced database is kept as it was");
    }

    #[test]
    fn files_that_are_not_hark_backups_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notes.txt");
        std::fs::write(&text, "not a database at all, just some words in a file").unwrap();
        assert!(matches!(inspect_backup(&text), Err(StoreError::Corrupt(_))));
        let other = dir.path().join("other.db");
        Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x)").unwrap();
        assert!(matches!(inspect_backup(&other), Err(StoreError::Corrupt(_))));
        let newer = dir.path().join("newer.db");
        database(&newer, 1);
        Connection::open(&newer).unwrap().execute("UPDATE _sqlx_migrations SET version = 999999", []).unwrap();
        assert!(matches!(inspect_backup(&newer), Err(StoreError::Config(m)) if m.contains("newer version")));
        // A refused restore leaves the live database alone.
        let db = dir.path().join("hark.db");
        database(&db, 3);
        assert!(restore_sqlite(&text, &db, "t").is_err());
        assert_eq!(inspect_backup(&db).unwrap().posts, 3);
        assert!(!with_suffix(&db, ".restoring").exists());
    }

    #[test]
    fn one_server_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("hark.db");
        let held = ServeLock::try_take(&db).unwrap().expect("free at first");
        assert!(ServeLock::try_take(&db).unwrap().is_none(), "taken while held");
        drop(held);
        assert!(ServeLock::try_take(&db).unwrap().is_some(), "free again once dropped");
    }
}
